"""Kiev's action table: each action kind -> (checker, applier), built from the modules that hold them.

The rule system (system.py) imports this table explicitly; no module adds itself to it on
import, so the modules of each action never import the rule system back.

The table names each pair by module and function, and a module is imported the first time an
action of its kind is asked about: a new game's first frame needs none of them, and the combat
modules (battle, retreat, advance, overrun, preview) wait for the first attack (issue 33).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from kiev_tui.engine.errors import Illegal

from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance, Enter,
                                             Move, Overrun, RailMove, RemoveExcess, Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import View

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

Checker = Callable[[View, Any], Illegal | None]
Applier = Callable[["Game", Any], None]

_KIEV = "kiev_tui.games.spi_kiev."

#: action kind -> (module, checker, applier), by name.
_WHERE: dict[type, tuple[str, str, str]] = {
    Move: ("moving", "_check_move", "_apply_move"),
    RailMove: ("moving", "_check_rail", "_apply_rail"),
    Enter: ("moving", "_check_enter", "_apply_enter"),
    RemoveExcess: ("moving", "_check_remove", "_apply_remove"),
    Overrun: ("overrun", "check_overrun", "apply_overrun"),
    Attack: ("preview", "check_attack", "battle.apply_attack"),
    TakeLosses: ("battle", "check_take_losses", "apply_take_losses"),
    ChooseRetreat: ("battle", "check_choose_retreat", "apply_choose_retreat"),
    ChooseIntegrity: ("battle", "check_choose_integrity", "apply_choose_integrity"),
    Retreat: ("retreat", "check_retreat", "apply_retreat"),
    Advance: ("advance", "check_advance", "apply_advance"),
    DeclineAdvance: ("advance", "check_decline", "apply_decline"),
}


def _function(module: str, name: str) -> Any:
    """``name`` of Kiev's ``module``; a dotted name ("battle.apply_attack") names another module."""
    where, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(_KIEV + (where or module)), attr)


class _Handlers(Mapping[type, tuple[Checker, Applier]]):
    """A read-only mapping whose pairs are looked up (and their module imported) when first asked for."""

    def __init__(self, where: Mapping[type, tuple[str, str, str]]) -> None:
        self._where = dict(where)
        self._found: dict[type, tuple[Checker, Applier]] = {}

    def __getitem__(self, kind: type) -> tuple[Checker, Applier]:
        pair = self._found.get(kind)
        if pair is None:
            module, check, apply = self._where[kind]
            pair = self._found[kind] = (_function(module, check), _function(module, apply))
        return pair

    def __iter__(self) -> Iterator[type]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, kind: object) -> bool:
        return kind in self._where


HANDLERS: Mapping[type, tuple[Checker, Applier]] = _Handlers(_WHERE)
