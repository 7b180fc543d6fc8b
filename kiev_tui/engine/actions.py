"""Actions: the only way a game's state changes.  Small frozen values with a TOML form."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, ClassVar

from kiev_tui.engine.errors import DataError, shorten

_REGISTRY: dict[str, type["Action"]] = {}


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base class.  Subclasses are frozen dataclasses registered with @action("kind")."""

    kind: ClassVar[str] = ""

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


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def action(kind: str) -> typing.Callable[[type], type]:
    """Register an Action subclass under its TOML ``kind``."""

    def deco(cls: type) -> type:
        if kind in _REGISTRY and _REGISTRY[kind] is not cls:
            raise ValueError(f"action kind '{kind}' registered twice")
        setattr(cls, "kind", kind)
        _REGISTRY[kind] = cls
        return cls

    return deco


def action_types() -> dict[str, type[Action]]:
    return dict(_REGISTRY)


def _convert(value: Any, hint: Any, where: str, file: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is str:
        if not isinstance(value, str):
            raise DataError(file, where, f"expected a string, found {shorten(repr(value))}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise DataError(file, where, f"expected true or false, found {shorten(repr(value))}")
        return value
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(file, where, f"expected a whole number, found {shorten(repr(value))}")
        return value
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise DataError(file, where, f"expected an array, found {shorten(repr(value))}")
        inner = args[0]
        return tuple(_convert(v, inner, f"{where}[{i}]", file) for i, v in enumerate(value))
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(value, members[0], where, file)
    raise DataError(file, where, f"unsupported field type {hint}")


def action_from_toml(data: Any, where: str = "action", file: str = "<actions>") -> Action:
    """Build an action from its TOML table, or raise DataError naming the key."""
    if not isinstance(data, dict):
        raise DataError(file, where, "an action is a table with a 'kind' key")
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise DataError(file, f"{where}.kind", "missing or not a string")
    cls = _REGISTRY.get(kind)
    if cls is None:
        raise DataError(file, f"{where}.kind", f"unknown action '{shorten(kind)}' (known: {', '.join(sorted(_REGISTRY))})")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "kind":
            continue
        if key not in fields:
            raise DataError(file, f"{where}.{key}", f"unknown key for action '{kind}' (expected: {', '.join(fields) or 'none'})")
        kwargs[key] = _convert(value, hints[key], f"{where}.{key}", file)
    for name, f in fields.items():
        if name not in kwargs and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
            raise DataError(file, f"{where}.{name}", f"missing (action '{kind}' needs it)")
    return cls(**kwargs)


@action("end_phase")
@dataclasses.dataclass(frozen=True, slots=True)
class EndPhase(Action):
    """The phasing player declares the current phase finished."""
