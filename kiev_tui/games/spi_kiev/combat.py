"""Combat (9.0-9.8, 13.0, 19.6-19.7), one name for the four modules that hold it:

- preview.py: who may attack whom, and the odds before anything is committed;
- battle.py: the battle from the roll to the last decision (reveals, losses, the state machine);
- retreat.py: legal retreats and the enemy player's choice of them;
- advance.py: the winner's advance into the hexes the loser left.

The rule system finds the combat actions' checkers and appliers in handlers.py.
"""

from __future__ import annotations

from kiev_tui.games.spi_kiev.advance import advance_options, check_advance, check_decline, offer_advance
from kiev_tui.games.spi_kiev.battle import (battle, check_choose_integrity, check_choose_retreat, check_take_losses,
                                            involved, lose_step, reveal, run, side_of, start_battle, steps_left)
from kiev_tui.games.spi_kiev.events_play import Advanced, CombatResolved, Retreated, Revealed, StepLost
from kiev_tui.games.spi_kiev.preview import (Preview, attack_options, check_attack, combat_tables, crt, preview,
                                             preview_battle)
from kiev_tui.games.spi_kiev.retreat import check_retreat, retreat_options, safe_assignment
from kiev_tui.games.spi_kiev.strength import Modifier

__all__ = [
    "Advanced", "CombatResolved", "Modifier", "Preview", "Retreated", "Revealed", "StepLost",
    "advance_options", "attack_options", "battle", "check_advance", "check_attack", "check_choose_integrity",
    "check_choose_retreat", "check_decline", "check_retreat", "check_take_losses", "combat_tables", "crt",
    "involved", "lose_step", "offer_advance", "preview", "preview_battle", "retreat_options", "reveal", "run",
    "safe_assignment", "side_of", "start_battle", "steps_left",
]
