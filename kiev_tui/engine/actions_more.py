"""The methods of kiev_tui.engine.actions that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in actions.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.actions import (  # noqa: F401
    DataError, _STRS, _convert, _plain, dataclasses, shorten, typing,
)


class Action:
    """Methods of actions.Action that a new game's first frame never calls."""

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.default is not dataclasses.MISSING and value == f.default:
                continue
            out[f.name] = _plain(value)
        return out

    def describe(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_toml().items() if k != "kind"]
        return f"{self.kind} " + " ".join(parts)


class ActionRegistry:
    """Methods of actions.ActionRegistry that a new game's first frame never calls."""

    def _shape(self, cls: type[Action]) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
        """The field types and fields of an action class, read once: a replay builds hundreds."""
        shape = self._shapes.get(cls)
        if shape is None:
            shape = (typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls)})
            self._shapes[cls] = shape
        return shape

    def from_toml(self, data: Any, where: str = "action", file: str = "<actions>") -> Action:
        """Build one of this game's actions from its TOML table, or raise DataError naming the key."""
        if not isinstance(data, dict):
            raise DataError(file, where, "an action is a table with a 'kind' key")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise DataError(file, f"{where}.kind", "missing or not a string")
        cls = self._kinds.get(kind)
        if cls is None:
            raise DataError(file, f"{where}.kind", f"unknown action '{shorten(kind)}' for the {self.game} game "
                                                   f"(known: {', '.join(sorted(self._kinds))})")
        hints, fields = self._shape(cls)
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key == "kind":
                continue
            if key not in fields:
                raise DataError(file, f"{where}.{key}",
                                f"unknown key for action '{kind}' (expected: {', '.join(fields) or 'none'})")
            hint = hints[key]
            if hint is str and type(value) is str:  # the common shapes, without naming the key (issue 33)
                kwargs[key] = value
            elif hint in _STRS and type(value) is list and all(type(v) is str for v in value):
                kwargs[key] = tuple(value)
            else:
                kwargs[key] = _convert(value, hint, f"{where}.{key}", file)
        for name, f in fields.items():
            if name not in kwargs and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
                raise DataError(file, f"{where}.{name}", f"missing (action '{kind}' needs it)")
        return cls(**kwargs)
