"""Terrain movement costs (10.1-10.4, 11.21, 19.5) cases that mutation testing found unpinned.

The costs come from the scenario's ``tec`` table only (so a changed table changes play); the
code keeps no copy of the chart, and a table lacking a row is refused at load (tables.check_tec).
"""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.terrain import (
    cached_step_cost, hex_entry_cost, hexside_cost, movement_class, road_cost, step_cost, step_costs,
)

# A table with numbers the chart never uses, to show which entry each cost is read from.
ODD: dict[str, Any] = {"tec": {
    "terrain": {"clear": {"mp": 4}, "woods": {"mp_mech": 7, "mp_other": 6}, "swamp": {"mp": 5},
                "city": {"mp": 3}},
    "hexside": {"minor_river": {"mp_german": 9, "mp_soviet": 8},
                "major_river": {"mp_german": 12, "mp_soviet": 11},
                "road": {"mp_mech": 0.25}},
}}


def test_11_21_19_41_movement_classes(mini: Game) -> None:
    units = mini.scenario.catalog.units
    assert movement_class(units["so-rifle-1"]) == "inf"
    assert movement_class(units["so-tank-1"]) == "mech"
    assert movement_class(units["so-hq-army"]) == "hq"
    assert movement_class(units["ge-leader"]) == "hq"


@pytest.mark.parametrize("terrain, mclass, cost", [
    ("clear", "inf", 4.0), ("clear", "mech", 4.0),
    ("woods", "mech", 7.0), ("woods", "inf", 6.0), ("woods", "hq", 6.0),
    ("swamp", "hq", 5.0), ("city", "mech", 3.0),
])
def test_10_4_hex_costs_are_read_from_the_tec_table(terrain: str, mclass: str, cost: float) -> None:
    assert hex_entry_cost(ODD, terrain, mclass) == cost


def test_10_4_a_row_is_read_only_from_the_table_never_from_the_code() -> None:
    # Issue 35: no default stands behind the chart; a missing row or value is a KeyError here
    # (a scenario cannot reach play without them: check_tec refuses it at load).
    with pytest.raises(KeyError):
        hex_entry_cost({"tec": {"terrain": {"clear": {"mp": 1}}}}, "woods", "mech")
    with pytest.raises(KeyError):
        hex_entry_cost({"tec": {"terrain": {"woods": {"defense": 2}}}}, "woods", "inf")
    with pytest.raises(KeyError):
        hexside_cost({"tec": {"hexside": {}}}, "minor_river", "german")
    with pytest.raises(KeyError):
        road_cost({"tec": {"hexside": {}}})


@pytest.mark.parametrize("feature, side, cost", [
    ("minor_river", "german", 9.0), ("minor_river", "soviet", 8.0),
    ("major_river", "german", 12.0), ("major_river", "soviet", 11.0),
])
def test_10_11_10_13_river_costs_are_read_from_the_tec_table(feature: str, side: str, cost: float) -> None:
    assert hexside_cost(ODD, feature, side) == cost


def test_10_23_road_cost_is_read_from_the_table() -> None:
    assert road_cost(ODD) == 0.25
    assert road_cost({"tec": {"hexside": {"road": {"mp_mech": 0.5}}}}) == 0.5


def test_10_31_costs_add_up_with_the_table_values(mini: Game) -> None:
    gm, units = mini.scenario.map, mini.scenario.catalog.units
    # Soviet rifle across the minor river 0203/0303 into woods 0303: 8 + 6.
    assert step_cost(gm, ODD, units["so-rifle-1"], H("0203"), H("0303")) == 14.0
    # German panzer along the road 0405/0505 into the city: the road's rate only (10.23).
    assert step_cost(gm, ODD, units["ge-1pz-1"], H("0405"), H("0505")) == 0.25
    # German infantry along the same road pays the city's own rate (roads do nothing for it).
    assert step_cost(gm, ODD, units["ge-inf-1"], H("0405"), H("0505")) == 3.0
    # A German infantry division over the major river off the bridge: 12 + clear 4.
    assert step_cost(gm, ODD, units["ge-inf-1"], H("0504"), H("0604")) == 16.0


def test_10_31_costs_add_up_with_the_chart_values(mini: Game) -> None:
    gm, units, tb = mini.scenario.map, mini.scenario.catalog.units, mini.scenario.tables
    assert step_cost(gm, tb, units["so-rifle-1"], H("0203"), H("0303")) == 2.0   # 1 + woods 1 (inf)
    assert step_cost(gm, tb, units["ge-1pz-1"], H("0203"), H("0303")) == 4.0     # 2 + woods 2 (mech)
    assert step_cost(gm, tb, units["ge-inf-1"], H("0504"), H("0604")) == 4.0     # 3 + clear 1
    assert step_cost(gm, tb, units["so-rifle-1"], H("0604"), H("0504")) == 3.0   # 2 + clear 1


def test_10_31_the_memo_of_costs_is_kept_per_movement_class_and_side(mini: Game) -> None:
    gm, units, tb = mini.scenario.map, mini.scenario.catalog.units, mini.scenario.tables
    a, b = H("0203"), H("0303")
    assert cached_step_cost(gm, tb, units["so-rifle-1"], a, b) == 2.0
    assert cached_step_cost(gm, tb, units["ge-inf-1"], a, b) == 3.0   # German: 2 + 1
    assert cached_step_cost(gm, tb, units["ge-1pz-1"], a, b) == 4.0   # mechanized: 2 + 2
    # A second ask is answered from the memo of the same class and side.
    assert step_costs(gm, tb, units["so-rifle-2"])[(a, b)] == 2.0
    assert step_costs(gm, tb, units["ge-inf-2"])[(a, b)] == 3.0
    assert gm.derived["step:inf:soviet"][(a, b)] == 2.0


def test_5_1_10_16_off_the_map_and_across_a_lake_hexside_are_refused(mini: Game) -> None:
    gm, units, tb = mini.scenario.map, mini.scenario.catalog.units, mini.scenario.tables
    off = step_cost(gm, tb, units["so-rifle-1"], H("1005"), H("1105"))
    assert (off.case, off.why) == ("5.1", "1105 is off the map")  # type: ignore[union-attr]
    gm.set_side_features(H("0904"), H("0905"), frozenset({"lake"}))
    lake = step_cost(gm, tb, units["so-rifle-1"], H("0904"), H("0905"))
    assert (lake.case, lake.why) == ("10.16", "0905 cannot be entered: all-lake hex or hexside")  # type: ignore[union-attr]
    assert step_cost(gm, tb, units["so-rifle-1"], H("0904"), H("0804")) == 1.0


def test_10_4_a_row_with_a_rate_for_other_units_only_leaves_mechanized_units_the_common_rate() -> None:
    # mp_other is for non-mechanized units; a mechanized unit without an mp_mech pays mp.
    tables = {"tec": {"terrain": {"woods": {"mp_other": 3, "mp": 5}}}}
    assert hex_entry_cost(tables, "woods", "mech") == 5.0
    assert hex_entry_cost(tables, "woods", "inf") == 3.0
    assert hex_entry_cost(tables, "woods", "hq") == 3.0
