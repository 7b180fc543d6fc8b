"""tables.toml checks (9.5 CRT, 10.4 TEC, 19.53) that mutation testing found unpinned.

A bad table is refused with one line naming the file, the key and the reason; a good one is
read whole: the CRT (six die rolls, one result per odds column), and the chart's movement
and defence values.  The mini fixture's tables are the starting point, then one thing is
broken at a time.
"""

from __future__ import annotations

import copy
import tomllib
from typing import Any, Callable

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.games.spi_kiev.tables import CRT, check_combat_values, check_tables

from tests.conftest import FIXTURES

BASE: dict[str, Any] = tomllib.loads((FIXTURES / "mini" / "tables.toml").read_text())


def edited(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    change(data)
    return data


def refusal(change: Callable[[dict[str, Any]], None]) -> tuple[str, str, str]:
    with pytest.raises(DataError) as exc:
        check_tables("T.toml", edited(change))
    return exc.value.file, exc.value.key, exc.value.reason


def crt_of(change: Callable[[dict[str, Any]], None] = lambda d: None) -> CRT:
    return check_tables("T.toml", edited(change))


def row(d: dict[str, Any], i: int) -> dict[str, Any]:
    return d["crt"]["row"][i]


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("unknown top key", lambda d: d.__setitem__("bogus", 1), "bogus",
     "unknown key (expected one of: crt, mud, note, odds, stalins_directive, tec)"),
    ("no columns", lambda d: d["crt"].__setitem__("columns", []), "crt.columns",
     "the CRT needs its odds columns"),
    ("odds column", lambda d: d["crt"]["columns"].__setitem__(1, "2:1"), "crt.columns[1]",
     "'2:1' is not an odds column like 3-1"),
    ("odds column with a tail", lambda d: d["crt"]["columns"].__setitem__(0, "1-3x"), "crt.columns[0]",
     "'1-3x' is not an odds column like 3-1"),
    ("unknown row key", lambda d: row(d, 0).__setitem__("x", 1), "crt.row[0].x",
     "unknown key (expected one of: die, note, reconstructed, results)"),
    ("die 7", lambda d: row(d, 0).__setitem__("die", 7), "crt.row[0].die", "die roll 7 is not 1-6"),
    ("die 0", lambda d: row(d, 0).__setitem__("die", 0), "crt.row[0].die", "die roll 0 is not 1-6"),
    ("die twice", lambda d: row(d, 1).__setitem__("die", 1), "crt.row[1].die", "die roll 1 appears twice"),
    ("short row", lambda d: row(d, 0)["results"].pop(), "crt.row[0].results", "11 results for 12 columns"),
    ("bad result", lambda d: row(d, 0)["results"].__setitem__(2, "4/1"), "crt.row[0].results[2]",
     "'4/1' is not a CRT result (like -/1, 1/1, -/E or eng)"),
    ("result with a newline", lambda d: row(d, 0)["results"].__setitem__(3, "-/1\n"), "crt.row[0].results[3]",
     "'-/1\\n' is not a CRT result (like -/1, 1/1, -/E or eng)"),
    ("flags too few", lambda d: row(d, 0).__setitem__("reconstructed", [True]), "crt.row[0].reconstructed",
     "one true/false per result"),
    ("flags not booleans", lambda d: row(d, 0).__setitem__("reconstructed", [1] * 12), "crt.row[0].reconstructed",
     "one true/false per result"),
    ("rows missing", lambda d: d["crt"].__setitem__("row", d["crt"]["row"][:4]), "crt.row",
     "no row for die roll(s) 5, 6"),
    ("row of die 1 missing", lambda d: d["crt"].__setitem__("row", d["crt"]["row"][1:]), "crt.row",
     "no row for die roll(s) 1"),
    ("no rows at all", lambda d: d["crt"].pop("row"), "crt.row", "missing"),
    ("unknown tec key", lambda d: d["tec"].__setitem__("bogus", 1), "tec.bogus",
     "unknown key (expected one of: hex_defense, hexside, max_defense_multiplier, note, terrain)"),
    ("negative hex cost", lambda d: d["tec"]["terrain"]["clear"].__setitem__("mp", -1), "tec.terrain.clear.mp",
     "must not be negative"),
    ("negative road cost", lambda d: d["tec"]["hexside"]["road"].__setitem__("mp_mech", -0.5),
     "tec.hexside.road.mp_mech", "must not be negative"),
    ("negative cost of other units", lambda d: d["tec"]["terrain"]["woods"].__setitem__("mp_other", -1),
     "tec.terrain.woods.mp_other", "must not be negative"),
    ("negative German river cost", lambda d: d["tec"]["hexside"]["minor_river"].__setitem__("mp_german", -2),
     "tec.hexside.minor_river.mp_german", "must not be negative"),
    ("negative Soviet river cost", lambda d: d["tec"]["hexside"]["major_river"].__setitem__("mp_soviet", -1),
     "tec.hexside.major_river.mp_soviet", "must not be negative"),
    ("negative defence", lambda d: d["tec"]["terrain"]["city"].__setitem__("defense", -2),
     "tec.terrain.city.defense", "must not be negative"),
    ("defence below 1", lambda d: d["tec"]["terrain"]["woods"].__setitem__("defense", 0.5),
     "tec.terrain.woods.defense", "a defence multiplier is at least 1"),
    ("cap below 1", lambda d: d["tec"].__setitem__("max_defense_multiplier", 0), "tec.max_defense_multiplier",
     "a defence multiplier is at least 1"),
    ("hex id", lambda d: d["tec"].__setitem__("hex_defense", {"31": 3}), "tec.hex_defense.31",
     "'31' is not a hex id like 0319"),
    ("hex multiplier", lambda d: d["tec"].__setitem__("hex_defense", {"0319": 0}), "tec.hex_defense.0319",
     "a defence multiplier is at least 1"),
    ("above highest", lambda d: d["crt"].__setitem__("above_highest", "11-1"), "crt.above_highest",
     "'11-1' is not one of the CRT's columns"),
    ("below lowest", lambda d: d["crt"].__setitem__("below_lowest", "1-4"), "crt.below_lowest",
     "'1-4' is not one of the CRT's columns"),
]


@pytest.mark.parametrize("what, change, key, reason", BAD, ids=[b[0] for b in BAD])
def test_9_5_10_4_a_bad_table_is_refused_naming_file_key_and_reason(
        what: str, change: Callable[[dict[str, Any]], None], key: str, reason: str) -> None:
    assert refusal(change) == ("T.toml", key, reason)


def test_9_5_the_crt_is_read_whole_six_rolls_by_twelve_columns() -> None:
    crt = crt_of()
    assert crt.columns == tuple(BASE["crt"]["columns"])
    assert sorted(crt.rows) == [1, 2, 3, 4, 5, 6]
    for r in BASE["crt"]["row"]:
        assert crt.rows[r["die"]] == tuple(r["results"])
        for col, res in zip(BASE["crt"]["columns"], r["results"]):
            assert crt.result(col, r["die"]) == res
    assert crt.above_highest == "10-1" and crt.below_lowest == "1-3"


@pytest.mark.parametrize("result", ["eng", "-/1", "1/1", "E/-", "3/E", "2/3", "-/E"])
def test_9_5_every_kind_of_crt_result_is_accepted(result: str) -> None:
    crt = crt_of(lambda d: row(d, 0)["results"].__setitem__(0, result))
    assert crt.result("1-3", 1) == result


def test_9_5_reconstructed_flags_one_per_result_or_one_for_the_row() -> None:
    crt = crt_of(lambda d: (row(d, 0).__setitem__("reconstructed", True),
                            row(d, 1).__setitem__("reconstructed", [False] * 11 + [True])))
    assert crt.reconstructed[1] == (True,) * 12
    assert crt.is_reconstructed("1-3", 1) is True
    assert crt.is_reconstructed("9-1", 2) is False and crt.is_reconstructed("10-1", 2) is True
    assert crt.reconstructed[3] == (False,) * 12


def test_9_5_the_crt_accepts_its_notes_and_clamp_columns() -> None:
    crt = crt_of(lambda d: d["crt"].update({"note": "n", "die": "d6", "die_sides": 6, "reconstructed": False,
                                            "round_toward": "defender", "above_highest": "9-1",
                                            "below_lowest": "1-2"}))
    assert crt.above_highest == "9-1" and crt.below_lowest == "1-2"


def test_10_4_zero_costs_and_multipliers_of_exactly_one_are_accepted() -> None:
    data = edited(lambda d: (d["tec"]["terrain"]["clear"].__setitem__("mp", 0),
                             d["tec"]["terrain"]["woods"].__setitem__("defense", 1),
                             d["tec"].__setitem__("max_defense_multiplier", 1),
                             d["tec"].__setitem__("hex_defense", {"0319": 1}),
                             d["tec"].__setitem__("note", "n")))
    check_tables("T.toml", data)
    ct = check_combat_values("T.toml", data)
    assert ct.terrain_defense["woods"] == 1.0 and ct.max_multiplier == 1.0 and ct.hex_defense == {"0319": 1.0}


def test_10_4_19_53_defence_values_come_from_the_table() -> None:
    data = edited(lambda d: (d["tec"]["terrain"]["woods"].__setitem__("defense", 4),
                             d["tec"]["hexside"]["minor_river"].__setitem__("defense", 5),
                             d["tec"].__setitem__("max_defense_multiplier", 6),
                             d["tec"].__setitem__("hex_defense", {"0319": 7})))
    ct = check_combat_values("T.toml", data)
    assert ct.terrain_defense == {"clear": 1.0, "woods": 4.0, "swamp": 1.0, "city": 2.0}
    assert ct.hexside_defense == {"minor_river": 5.0, "major_river": 3.0}
    assert ct.max_multiplier == 6.0 and ct.hex_defense == {"0319": 7.0}


def test_10_4_the_woods_row_is_required_the_code_holds_no_copy_of_the_chart() -> None:
    # Issue 35: the chart in tables.toml is the only source of terrain values.
    assert refusal(lambda d: d["tec"]["terrain"].pop("woods")) == (
        "T.toml", "tec.terrain.woods", "the terrain chart has no 'woods' row (10.4)")
    with pytest.raises(DataError) as exc:
        check_combat_values("T.toml", edited(lambda d: d["tec"]["terrain"].pop("woods")))
    assert exc.value.line() == "T.toml: tec.terrain.woods: the terrain chart has no 'woods' row (10.4)"


@pytest.mark.parametrize("change, key, reason", [
    (lambda d: d.pop("tec"), "tec", "missing table"),
    (lambda d: d["tec"].pop("terrain"), "tec.terrain", "missing table"),
    (lambda d: d["tec"].pop("hexside"), "tec.hexside", "missing table"),
    (lambda d: d["tec"].pop("max_defense_multiplier"), "tec.max_defense_multiplier", "missing"),
    (lambda d: d["tec"]["terrain"].pop("clear"), "tec.terrain.clear", "the terrain chart has no 'clear' row (10.4)"),
    (lambda d: d["tec"]["terrain"].pop("swamp"), "tec.terrain.swamp", "the terrain chart has no 'swamp' row (10.4)"),
    (lambda d: d["tec"]["terrain"].pop("city"), "tec.terrain.city", "the terrain chart has no 'city' row (10.4)"),
    (lambda d: d["tec"]["terrain"]["woods"].pop("mp_mech"), "tec.terrain.woods.mp",
     "'woods' gives no movement cost (mp_mech or mp) (10.4)"),
    (lambda d: d["tec"]["terrain"]["woods"].pop("mp_other"), "tec.terrain.woods.mp",
     "'woods' gives no movement cost (mp_other or mp) (10.4)"),
    (lambda d: d["tec"]["terrain"]["clear"].pop("defense"), "tec.terrain.clear.defense",
     "'clear' gives no defence multiplier (10.4)"),
    (lambda d: d["tec"]["hexside"].pop("major_river"), "tec.hexside.major_river",
     "the terrain chart has no 'major_river' hexside row (10.4)"),
    (lambda d: d["tec"]["hexside"].pop("road"), "tec.hexside.road",
     "the terrain chart has no 'road' hexside row (10.4)"),
    (lambda d: d["tec"]["hexside"]["minor_river"].pop("mp_soviet"), "tec.hexside.minor_river.mp_soviet",
     "the 'minor_river' hexside row gives no mp_soviet (10.4)"),
    (lambda d: d["tec"]["hexside"]["major_river"].pop("defense"), "tec.hexside.major_river.defense",
     "the 'major_river' hexside row gives no defense (10.4)"),
])
def test_10_4_every_row_and_value_the_rules_read_must_be_in_the_chart(
        change: Callable[[dict[str, Any]], None], key: str, reason: str) -> None:
    file, got_key, got_reason = refusal(change)
    assert (file, got_key) == ("T.toml", key)
    assert got_reason == reason
