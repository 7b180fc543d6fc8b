"""Kiev's own checks of a scenario, run as it is loaded (so `validate` and `new` refuse it too).

A scenario that passed the engine's generic checks may still be unplayable under these rules:
its own [scenario] values (mud turns, rail capacity) may be out of range, its [victory] table
may name what Kiev does not score, its tables may lack the Combat Results Table the first
battle needs, or a hex may start with more units than stacking allows.  All are refused here
with the file, the key and the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.tomlio import Reader
from kiev_tui.games.spi_kiev.stacking import COMBAT_LIMIT, HQ_LIMIT
from kiev_tui.games.spi_kiev.tables import check_tables

if TYPE_CHECKING:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.units import UnitCatalog


def check_scenario(scenario: "Scenario") -> None:
    """Raise DataError if the scenario's values, tables or opening set-up cannot be played."""
    check_params(scenario)
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


def check_params(scenario: "Scenario") -> None:
    """Kiev's keys of the [scenario] table: counts that cannot be negative, mud turns in the game."""
    meta = Reader(scenario.path, scenario.params, "scenario")
    for key in ("rail_units_per_turn", "rail_hexes", "rpl_counters", "days_per_turn"):
        if key in meta.data and meta.int(key) < 0:
            raise meta.fail(key, "must not be negative")
    for i, t in enumerate(meta.ints("mud_turns", [])):  # 19.9
        if not 1 <= t <= scenario.turns:
            raise meta.fail(f"mud_turns[{i}]", f"turn {t} is outside the game's {scenario.turns} turns")
    # Only the type is checked here (the rules read these later); an absent key is fine.
    if "pbm_asterisk" in meta.data:  # 25.11: a yes/no option, refuse anything but true or false
        meta.bool("pbm_asterisk")
    if "start_date" in meta.data:
        meta.str("start_date")


def check_victory(vr: Reader, catalog: "UnitCatalog", hex_on_map: Callable[[Reader, str, Any], "Hex"]) -> None:
    """The [victory] table of a Kiev scenario: the points of 24.0-24.3 and the front HQ."""
    vr.only(["margin", "city", "town", "special_hexes", "soviet_front_hq", "soviet_front_hq_points",
             "soviet_unit_points", "regiment_points", "formation", "note"])
    for key in ("margin", "city", "town", "soviet_front_hq_points", "soviet_unit_points"):
        if key in vr.data:  # an absent one takes the book's value in victory.py
            vr.int(key)
    front = vr.str("soviet_front_hq", "")
    if front:
        if front not in catalog.units:
            raise vr.fail("soviet_front_hq", f"no unit '{shorten(front)}' in units.toml")
        if not (catalog.units[front].hq and catalog.units[front].side == "soviet"):
            raise vr.fail("soviet_front_hq", f"'{front}' is not a Soviet HQ")
    special = vr.table("special_hexes", required=False)
    for key in special.keys():
        hex_on_map(special, key, key)
        special.int(key)
    reg = vr.table("regiment_points", required=False)
    reg.only(["panzer", "other"])
    for key in reg.keys():
        reg.int(key)
    for f in vr.tables("formation"):
        f.only(["name", "units", "points", "note"])
        for j, uid in enumerate(f.strs("units")):
            if uid not in catalog.units:
                raise f.fail(f"units[{j}]", f"no unit '{shorten(uid)}' in units.toml")
        f.str("name")
        f.int("points")
