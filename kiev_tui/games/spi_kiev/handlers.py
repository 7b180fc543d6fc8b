"""Kiev's action table: each action kind -> (checker, applier), built from the modules that hold them.

The rule system (system.py) imports this table explicitly; no module adds itself to it on
import, so the modules of each action never import the rule system back.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from kiev_tui.engine.errors import Illegal

from kiev_tui.games.spi_kiev import advance, battle, moving, overrun, preview, retreat
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance, Enter,
                                             Move, Overrun, RailMove, RemoveExcess, Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import View

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

Checker = Callable[[View, Any], Illegal | None]
Applier = Callable[["Game", Any], None]

HANDLERS: Mapping[type, tuple[Checker, Applier]] = MappingProxyType({
    Move: (moving._check_move, moving._apply_move),
    RailMove: (moving._check_rail, moving._apply_rail),
    Enter: (moving._check_enter, moving._apply_enter),
    RemoveExcess: (moving._check_remove, moving._apply_remove),
    Overrun: (overrun.check_overrun, overrun.apply_overrun),
    Attack: (preview.check_attack, battle.apply_attack),
    TakeLosses: (battle.check_take_losses, battle.apply_take_losses),
    ChooseRetreat: (battle.check_choose_retreat, battle.apply_choose_retreat),
    ChooseIntegrity: (battle.check_choose_integrity, battle.apply_choose_integrity),
    Retreat: (retreat.check_retreat, retreat.apply_retreat),
    Advance: (advance.check_advance, advance.apply_advance),
    DeclineAdvance: (advance.check_decline, advance.apply_decline),
})
