"""Kiev's own checks of a scenario at load (setup_check.py) that mutation testing found unpinned.

Each bad value is refused with the file, the key and the reason a scenario writer reads: the
[scenario] counts and mud turns (19.3, 19.24, 19.9, 25.11), the [victory] table (24.0-24.3),
the tables file (9.5) and the opening stacks (7.0, 11.22).  Each good value at its limit is
accepted.  The mini scenario is the starting point, with one thing changed at a time.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.spi_kiev.setup_check import check_params, check_scenario, check_start_stacking

from tests.conftest import MINI

FIXTURE = MINI.parent.parent


def mini_scenario() -> Scenario:
    return load_scenario(MINI)


def refused_params(change: dict[str, Any], drop: tuple[str, ...] = ()) -> tuple[str, str, str]:
    sc = mini_scenario()
    sc.params.update(change)
    for key in drop:
        sc.params.pop(key)
    with pytest.raises(DataError) as exc:
        check_params(sc)
    return exc.value.file, exc.value.key, exc.value.reason


def accepts_params(change: dict[str, Any], drop: tuple[str, ...] = ()) -> None:
    sc = mini_scenario()
    sc.params.update(change)
    for key in drop:
        sc.params.pop(key)
    check_params(sc)


# -- [scenario]: counts and mud turns ------------------------------------------------------

COUNTS = ("rail_units_per_turn", "rail_hexes", "rpl_counters", "days_per_turn")


@pytest.mark.parametrize("key", COUNTS)
def test_19_3_19_24_a_negative_count_is_refused(key: str) -> None:
    assert refused_params({key: -1}) == (str(MINI), f"scenario.{key}", "must not be negative")


@pytest.mark.parametrize("key", COUNTS)
def test_19_3_19_24_a_count_of_zero_is_accepted(key: str) -> None:
    accepts_params({key: 0})


def test_19_3_19_24_counts_left_out_are_accepted() -> None:
    accepts_params({}, drop=("rail_units_per_turn", "rail_hexes", "rpl_counters", "mud_turns"))


@pytest.mark.parametrize("turns, bad", [([0], 0), ([1, 4], 1), ([2, 3, -1], 2)])
def test_19_9_a_mud_turn_outside_the_game_is_refused(turns: list[int], bad: int) -> None:
    t = turns[bad]
    assert refused_params({"mud_turns": turns}) == (str(MINI), f"scenario.mud_turns[{bad}]",
                                                    f"turn {t} is outside the game's 3 turns")


@pytest.mark.parametrize("turns", [[1], [3], [1, 2, 3]])
def test_19_9_mud_on_the_first_and_the_last_turn_is_accepted(turns: list[int]) -> None:
    accepts_params({"mud_turns": turns})


def test_25_11_the_pbm_asterisk_option_is_true_or_false() -> None:
    accepts_params({"pbm_asterisk": True})
    accepts_params({"pbm_asterisk": False})
    assert refused_params({"pbm_asterisk": 1}) == (str(MINI), "scenario.pbm_asterisk",
                                                   "expected true or false, found int 1")


def test_the_start_date_is_text() -> None:
    accepts_params({"start_date": "1941-08-19"})
    assert refused_params({"start_date": 1941}) == (str(MINI), "scenario.start_date",
                                                    "expected a string, found int 1941")


# -- the tables file -------------------------------------------------------------------------

def test_9_5_a_broken_crt_is_refused_naming_the_tables_file() -> None:
    sc = mini_scenario()
    sc.tables = copy.deepcopy(sc.tables)
    sc.tables["crt"]["columns"] = []
    with pytest.raises(DataError) as exc:
        check_scenario(sc)
    assert (exc.value.file, exc.value.key, exc.value.reason) == (
        str(FIXTURE / "tables.toml"), "crt.columns", "the CRT needs its odds columns")


def test_19_9_check_scenario_checks_the_scenario_values_too() -> None:
    sc = mini_scenario()
    sc.params["rpl_counters"] = -2
    with pytest.raises(DataError) as exc:
        check_scenario(sc)
    assert exc.value.line() == f"{MINI}: scenario.rpl_counters: must not be negative"


# -- the opening stacks ----------------------------------------------------------------------

def stacked(moves: dict[str, str]) -> Scenario:
    """The mini scenario with some units set up in the hex of another unit."""
    sc = mini_scenario()
    for uid, other in moves.items():
        sc.setup[uid] = sc.setup[other]
    return sc


def test_7_0_four_combat_units_in_a_start_hex_are_refused_by_check_scenario() -> None:
    sc = stacked({"ge-inf-2": "ge-1pz-1"})  # 0108 holds three already (and the leader)
    with pytest.raises(DataError) as exc:
        check_scenario(sc)
    assert exc.value.line() == (f"{MINI}: setup: hex 0108 starts with 4 german combat units "
                                "(ge-1pz-1, ge-1pz-2, ge-1pz-3, ge-inf-2); the limit is 3 (7.0)")


def test_7_0_three_combat_units_and_a_leader_in_a_start_hex_are_accepted() -> None:
    sc = mini_scenario()
    assert [u for u, h in sc.setup.items() if str(h) == "0108"] == ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3", "ge-leader"]
    check_start_stacking(sc)
    sc = stacked({"so-rifle-1": "so-rifle-3", "so-rifle-2": "so-rifle-3"})
    check_start_stacking(sc)


def test_7_0_the_soviet_stack_is_counted_on_its_own() -> None:
    sc = stacked({"so-rifle-1": "so-cav-1", "so-rifle-2": "so-cav-1", "so-tank-1": "so-cav-1"})
    with pytest.raises(DataError) as exc:
        check_start_stacking(sc)
    assert exc.value.line() == (f"{MINI}: setup: hex 0906 starts with 4 soviet combat units "
                                "(so-cav-1, so-rifle-1, so-rifle-2, so-tank-1); the limit is 3 (7.0)")


def test_11_22_two_hqs_in_a_start_hex_are_refused() -> None:
    sc = stacked({"so-hq-agsw": "so-hq-army"})
    with pytest.raises(DataError) as exc:
        check_start_stacking(sc)
    assert exc.value.line() == (f"{MINI}: setup: hex 0905 starts with 2 soviet HQs or leaders "
                                "(so-hq-agsw, so-hq-army); the limit is 1 (11.22)")


def test_11_22_an_hq_beside_three_combat_units_is_accepted() -> None:
    sc = stacked({"so-rifle-1": "so-hq-army", "so-rifle-2": "so-hq-army", "so-rifle-3": "so-hq-army"})
    check_start_stacking(sc)


# -- [victory] -------------------------------------------------------------------------------

def victory_scenario(tmp_path: Path, old: str, new: str) -> Path:
    """The mini scenario, its paths made absolute, with one piece of text replaced."""
    text = MINI.read_text()
    for key in ("map", "units", "tables"):
        text = text.replace(f'{key} = "{key}.toml"', f'{key} = "{(FIXTURE / f"{key}.toml").as_posix()}"')
    assert old in text, old
    path = tmp_path / "s.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def victory_refusal(tmp_path: Path, old: str, new: str) -> str:
    path = victory_scenario(tmp_path, old, new)
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.file == str(path)
    return f"{exc.value.key}: {exc.value.reason}"


VICTORY_KEYS = ("city, formation, margin, note, regiment_points, soviet_front_hq, soviet_front_hq_points, "
                "soviet_unit_points, special_hexes, town")

BAD_VICTORY: list[tuple[str, str, str]] = [
    ("city = 10", "cty = 10", f"victory.cty: unknown key (expected one of: {VICTORY_KEYS})"),
    ("margin = 30", 'margin = "30"', "victory.margin: expected a whole number, found str '30'"),
    ("city = 10", "city = 1.5", "victory.city: expected a whole number, found float 1.5"),
    ("town = 5", "town = true", "victory.town: expected a whole number, found a boolean"),
    ("soviet_front_hq_points = 10", 'soviet_front_hq_points = "ten"',
     "victory.soviet_front_hq_points: expected a whole number, found str 'ten'"),
    ("soviet_unit_points = 1", "soviet_unit_points = [1]",
     "victory.soviet_unit_points: expected a whole number, found list [1]"),
    ('soviet_front_hq = "so-hq-agsw"', 'soviet_front_hq = "so-hq-nobody"',
     "victory.soviet_front_hq: no unit 'so-hq-nobody' in units.toml"),
    ('soviet_front_hq = "so-hq-agsw"', 'soviet_front_hq = "so-rifle-1"',
     "victory.soviet_front_hq: 'so-rifle-1' is not a Soviet HQ"),
    ('soviet_front_hq = "so-hq-agsw"', 'soviet_front_hq = "ge-leader"',
     "victory.soviet_front_hq: 'ge-leader' is not a Soviet HQ"),
    ('soviet_front_hq = "so-hq-agsw"', "soviet_front_hq = 3",
     "victory.soviet_front_hq: expected a string, found int 3"),
    ('special_hexes = { "0505" = 25 }', 'special_hexes = { "1111" = 25 }',
     "victory.special_hexes.1111: hex 1111 is off the map (10 columns x 10 rows)"),
    ('special_hexes = { "0505" = 25 }', 'special_hexes = { "0505" = "25" }',
     "victory.special_hexes.0505: expected a whole number, found str '25'"),
    ("margin = 30", "margin = 30\nregiment_points = { panzer = 8, othr = 5 }",
     "victory.regiment_points.othr: unknown key (expected one of: other, panzer)"),
    ("margin = 30", 'margin = 30\nregiment_points = { panzer = 8, other = "5" }',
     "victory.regiment_points.other: expected a whole number, found str '5'"),
    ('name = "1 Pz"', 'nmae = "1 Pz"', "victory.formation[0].nmae: unknown key (expected one of: name, note, "
                                       "points, units)"),
    ('name = "1 Pz"', "name = 1", "victory.formation[0].name: expected a string, found int 1"),
    ('name = "1 Pz"', 'note = "x"', "victory.formation[0].name: missing"),
    ("points = 25", 'points = "25"', "victory.formation[0].points: expected a whole number, found str '25'"),
    ("points = 25", 'note = "x"', "victory.formation[0].points: missing"),
    ('units = ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"]', 'units = ["ge-1pz-1", "ge-nobody"]',
     "victory.formation[0].units[1]: no unit 'ge-nobody' in units.toml"),
    ('units = ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"]', 'units = "ge-1pz-1"',
     "victory.formation[0].units: expected an array, found str 'ge-1pz-1'"),
    ('units = ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"]', 'note = "x"', "victory.formation[0].units: missing"),
]


@pytest.mark.parametrize("old, new, message", BAD_VICTORY, ids=[f"{i}-" + "".join(c if c.isalnum() or c in "._" else "_" for c in b[2].split(":")[0])
                              for i, b in enumerate(BAD_VICTORY)])
def test_24_0_a_bad_victory_table_is_refused_naming_file_key_and_reason(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    assert victory_refusal(tmp_path, old, new) == message


def test_24_0_a_victory_table_with_only_a_note_is_accepted(tmp_path: Path) -> None:
    text = victory_scenario(tmp_path, "[victory]", "[victory]").read_text()
    head = text.split("[victory]")[0]
    path = tmp_path / "bare.toml"
    path.write_text(head + '[victory]\nnote = "the book\'s values"\n')
    assert load_scenario(path).victory == {"note": "the book's values"}


def test_24_0_every_victory_key_at_once_is_accepted(tmp_path: Path) -> None:
    path = victory_scenario(tmp_path, "margin = 30", 'margin = 30\nnote = "n"\nregiment_points = { panzer = 8, other = 5 }')
    text = path.read_text().replace("points = 25", 'points = 25\nnote = "all of 1st Panzer"')
    path.write_text(text)
    v = load_scenario(path).victory
    assert v["regiment_points"] == {"panzer": 8, "other": 5} and v["special_hexes"] == {"0505": 25}
    assert v["formation"][0]["note"] == "all of 1st Panzer" and v["soviet_front_hq"] == "so-hq-agsw"
