"""Actions: the only way a game's state changes.  Small frozen values with a TOML form.

Each game keeps its own ``ActionRegistry`` (its rule system's ``actions``), so two games may
both call an action ``move`` with different fields; a kind is unique within one registry only.
Every registry knows ``EndPhase`` ("end_phase"), which every game's sequence of play needs.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Callable, ClassVar, Iterator, TypeVar

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.later import later

A = TypeVar("A", bound=type)


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base class.  Subclasses are frozen dataclasses registered with ``@REGISTRY.action("kind")``."""

    kind: ClassVar[str] = ""

    to_toml = later("kiev_tui.engine.actions_more")
    describe = later("kiev_tui.engine.actions_more")


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


@dataclasses.dataclass(frozen=True, slots=True)
class EndPhase(Action):
    """The player who may act declares the current phase finished."""

    kind: ClassVar[str] = "end_phase"


class ActionRegistry:
    """One game's actions by TOML ``kind``: what its saves and scripts may hold."""

    def __init__(self, game: str) -> None:
        self.game = game  # named in refusals, so a reader knows whose actions were meant
        self._kinds: dict[str, type[Action]] = {EndPhase.kind: EndPhase}
        self._shapes: dict[type[Action], tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]] = {}

    def action(self, kind: str) -> Callable[[A], A]:
        """Class decorator: register an Action subclass of this game under ``kind``."""

        def deco(cls: A) -> A:
            if not (isinstance(cls, type) and issubclass(cls, Action)):
                raise TypeError(f"only Action subclasses can be registered, not {cls!r}")
            known = self._kinds.get(kind)
            if known is not None and known is not cls:
                raise ValueError(f"action kind '{kind}' registered twice in the {self.game} actions")
            # one class serves one kind: its to_toml writes what from_toml reads
            if cls.__dict__.get("kind") not in (None, "", kind):
                raise ValueError(f"{cls.__name__} is already the '{cls.kind}' action")
            setattr(cls, "kind", kind)
            self._kinds[kind] = cls
            return cls

        return deco

    def types(self) -> dict[str, type[Action]]:
        """Every kind this registry knows -> its class (a copy)."""
        return dict(self._kinds)

    def get(self, kind: str) -> type[Action] | None:
        return self._kinds.get(kind)

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._kinds))

    def __repr__(self) -> str:
        return f"ActionRegistry({self.game!r}: {', '.join(sorted(self._kinds))})"

    _shape = later("kiev_tui.engine.actions_more")
    from_toml = later("kiev_tui.engine.actions_more")


def action_types(registry: ActionRegistry) -> dict[str, type[Action]]:
    """Every action kind of one game (its rule system's ``actions``)."""
    return registry.types()


def action_key(i: int) -> str:
    """The key naming the ``i``-th (from 0) ``[[action]]`` table of a file in an error: counted from 1,
    as people count them and as every message about actions numbers them ("action 5")."""
    return f"action {i + 1}"


def action_from_toml(data: Any, where: str = "action", file: str = "<actions>", *,
                     registry: ActionRegistry) -> Action:
    """Build an action of the game whose registry is given, or raise DataError naming the key."""
    return registry.from_toml(data, where, file)


#: The hints of a tuple of strings, which a list of strings becomes as it is (from_toml's shortcut).
_STRS = (tuple[str, ...], typing.Tuple[str, ...])


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
