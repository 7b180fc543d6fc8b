"""Kiev's own checks of a scenario, run as it is loaded (so `validate` and `new` refuse it too).

A scenario that passed the engine's generic checks may still be unplayable under these rules:
its tables may lack the Combat Results Table the first battle needs, or a hex may start with
more units than stacking allows.  Both are refused here with the file, the key and the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.errors import DataError
from kiev_tui.games.spi_kiev.stacking import COMBAT_LIMIT, HQ_LIMIT
from kiev_tui.games.spi_kiev.tables import check_tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario


def check_scenario(scenario: "Scenario") -> None:
    """Raise DataError if the scenario's tables or opening set-up cannot be played."""
    # The CRT and the terrain costs are read in the middle of play: check them now, not then.
    check_tables(scenario.tables_path, scenario.tables)
    check_start_stacking(scenario)


def check_start_stacking(scenario: "Scenario") -> None:
    """No hex starts over the limits of 7.0 (three combat units) and 11.22 (one HQ or leader)."""
    stacks: dict[tuple[str, str], list[str]] = {}
    for uid, h in scenario.setup.items():
        stacks.setdefault((str(h), scenario.catalog.units[uid].side), []).append(uid)
    for (hex_id, side), ids in sorted(stacks.items()):
        combat = sorted(u for u in ids if scenario.catalog.units[u].is_combat)
        hqs = sorted(u for u in ids if not scenario.catalog.units[u].is_combat)
        if len(combat) > COMBAT_LIMIT:
            raise DataError(scenario.path, "setup", f"hex {hex_id} starts with {len(combat)} {side} combat units "
                                                    f"({', '.join(combat)}); the limit is {COMBAT_LIMIT} (7.0)")
        if len(hqs) > HQ_LIMIT:
            raise DataError(scenario.path, "setup", f"hex {hex_id} starts with {len(hqs)} {side} HQs or leaders "
                                                    f"({', '.join(hqs)}); the limit is {HQ_LIMIT} (11.22)")
