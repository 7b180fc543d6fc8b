"""Barbarossa 1941's tables (data/barbarossa1941/tables.toml): the book's numbers, our
reconstructions and how they are flagged, and the checks that refuse a broken file.

Case numbers are the rulebook's (../shared/rulebooks/barbarossa-1941.txt).
"""

from __future__ import annotations

import copy
import re
import tomllib
from datetime import date
from pathlib import Path
from typing import Any, Callable

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.errors import DataError
from kiev_tui.games.barbarossa1941.tables import Result, Tables, check_tables, load_tables, parse_result

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "data" / "barbarossa1941"
TABLES = FOLDER / "tables.toml"
COLUMNS = ["1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]

# 6: the two rows the book prints (die 2 stops at 6:1)
BOOK_DIE_1 = ["A2", "A2", "A1", "A1", "A1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D2"]
BOOK_DIE_2 = ["A2", "A1", "A1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D2"]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables(TABLES)


def raw() -> dict[str, Any]:
    return tomllib.loads(TABLES.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------ the CRT


def test_crt_columns_are_the_books_ten(tables: Tables) -> None:
    assert list(tables.crt.columns) == COLUMNS  # 6


def test_crt_dice_1_and_2_equal_the_book_cell_by_cell(tables: Tables) -> None:
    crt = tables.crt
    for column, text in zip(COLUMNS, BOOK_DIE_1):
        assert str(crt.cell(column, 1)) == text, column
        assert not crt.is_reconstructed(column, 1)
    for column, text in zip(COLUMNS, BOOK_DIE_2):
        assert str(crt.cell(column, 2)) == text, column
        assert not crt.is_reconstructed(column, 2)


def test_reconstructed_cells_are_exactly_those_the_book_lacks(tables: Tables) -> None:
    expected = {(2, "7:1")} | {(die, c) for die in (3, 4, 5, 6) for c in COLUMNS}
    assert tables.crt.reconstructed_cells == expected


def test_missing_rows_repeat_the_row_above_one_column_left(tables: Tables) -> None:
    crt = tables.crt
    for die in (3, 4, 5, 6):
        for i in range(len(COLUMNS) - 1):
            assert crt.cell(COLUMNS[i], die) == crt.cell(COLUMNS[i + 1], die - 1), (die, COLUMNS[i])
    # the cells the shift opens at the right end continue die 1 past 7:1 (SOURCES.md)
    right_end = {2: "A1D2", 3: "D2", 4: "D2", 5: "D3", 6: "D3"}
    assert {die: str(crt.cell("7:1", die)) for die in right_end} == right_end


def test_crt_is_monotone(tables: Tables) -> None:
    """A higher die, or a column one step better for the attacker, never raises the attacker's
    loss and never lowers the defender's: for all dice d and columns c,
    A(d+1, c) <= A(d, c), D(d+1, c) >= D(d, c), A(d, c+1) <= A(d, c), D(d, c+1) >= D(d, c)."""
    crt = tables.crt
    for die in range(1, 7):
        for i, column in enumerate(COLUMNS):
            here = crt.cell(column, die)
            if die < 6:
                below = crt.cell(column, die + 1)
                assert below.attacker <= here.attacker and below.defender >= here.defender, (die, column)
            if i + 1 < len(COLUMNS):
                right = crt.cell(COLUMNS[i + 1], die)
                assert right.attacker <= here.attacker and right.defender >= here.defender, (die, column)


def test_some_results_spare_the_attacker_so_a_major_citys_A1_matters(tables: Tables) -> None:
    spared = {(die, c) for die in range(1, 7) for c in COLUMNS if tables.crt.cell(c, die).attacker == 0}
    assert spared == {(3, "7:1"), (4, "6:1"), (4, "7:1"), (5, "5:1"), (5, "6:1"), (5, "7:1"),
                      (6, "4:1"), (6, "5:1"), (6, "6:1"), (6, "7:1")}


def test_major_city_A1_turns_a_free_win_into_a_step_lost(tables: Tables) -> None:
    """An 8:1 attack in clear terrain, leaders of equal quality, die 3: the defender loses two
    steps.  Across open ground the attacker loses nothing; on a major city the odds drop a
    column (6:1, A1D2 already) -- so add a +1 quality edge to reach 7:1 again: D2 becomes A1D2."""
    crt, tec = tables.crt, tables.tec
    open_ground = crt.shifted(crt.column_index(8, 1), tec.hex_shift("clear", None, False))
    assert crt.columns[open_ground] == "7:1"
    assert tec.settle(crt.result(open_ground, 3), "clear", None) == Result(0, 2)
    shift = tec.hex_shift("clear", "major_city", False) + crt.quality_shift(3, 2)
    city = crt.shifted(crt.column_index(8, 1), shift)
    assert crt.columns[city] == "7:1"
    assert crt.result(city, 3) == Result(0, 2)
    assert tec.settle(crt.result(city, 3), "clear", "major_city") == Result(1, 2)  # 5: "All: A1"
    assert tec.settle(crt.result(city, 3), "clear", "minor_city") == Result(0, 2)
    assert tec.settle(Result(2, 0), "clear", "major_city") == Result(2, 0)  # a floor, not an extra step


def test_odds_round_for_the_defender_and_clamp_at_the_ends(tables: Tables) -> None:
    crt = tables.crt
    col = lambda a, d: crt.columns[crt.column_index(a, d)]  # noqa: E731
    assert col(5, 3) == "3:2"  # 1.67: 3:2, not 2:1 (6)
    assert col(4, 3) == "1:1"  # 1.33
    assert col(3, 2) == "3:2"
    assert col(2, 5) == "1:3"  # 0.4: 1:3, not 1:2
    assert col(1, 4) == "1:3"  # under the chart: fought on 1:3
    assert col(30, 1) == "7:1"  # over the chart: 7:1
    assert crt.columns[crt.shifted(crt.column_index(6, 1), 3)] == "7:1"  # shifts stop at the end
    assert crt.columns[crt.shifted(crt.column_index(1, 3), -2)] == "1:3"
    assert crt.result(1, -3) == crt.cell("1:2", 1) == Result(2, 0)  # modified rolls clamp to 1..6
    assert crt.result(9, 8) == crt.cell("7:1", 6)
    assert [crt.quality_shift(a, d) for a, d in ((5, 2), (6, 1), (1, 6), (2, 2))] == [3, 4, -4, 0]  # 6
    assert [crt.dice(6), crt.dice(7)] == [1, 2]  # 6: seven steps and more roll two dice


def test_result_texts() -> None:
    assert parse_result("A1D2") == Result(1, 2)
    assert parse_result("D3") == Result(0, 3)
    assert parse_result("A2") == Result(2, 0)
    for bad in ("", "A4", "D0", "1/1", "a1", "A1 D1"):
        assert parse_result(bad) is None, bad


# ------------------------------------------------------------------------------------ the TEC


def test_every_terrain_settlement_and_hexside_has_its_line(tables: Tables) -> None:
    tec = tables.tec
    assert set(tec.terrain) == {"clear", "forest", "swamp", "rough", "mountain", "arctic", "lake", "sea"}
    assert set(tec.settlement) == {"major_city", "minor_city"}
    assert set(tec.hexside) == {"major_river", "lake", "strait"}


def test_terrain_lines_equal_the_chart(tables: Tables) -> None:
    t = tables.tec.terrain
    mp = {name: (e.mp_nonmotorized, e.mp_motorized) for name, e in t.items()}
    assert mp == {"clear": (1, 1), "forest": (1, 2), "rough": (1, 1), "swamp": (2, 2), "mountain": (2, 3),
                  "arctic": (2, 2), "lake": (1, 1), "sea": (None, None)}  # 5, 12.10
    shifts = {name: (e.shift, e.shift_motorized) for name, e in t.items()}
    assert shifts == {"clear": (0, 0), "forest": (-1, 0), "rough": (0, -1), "swamp": (-1, 0), "mountain": (-1, 0),
                      "arctic": (-1, 0), "lake": (0, 0), "sea": (0, 0)}
    assert {n for n, e in t.items() if e.halve_motorized} == {"swamp", "mountain"}
    assert {n for n, e in t.items() if not e.overrun} == {"swamp", "arctic"}  # 7.1
    assert {n for n, e in t.items() if not e.passable} == {"lake", "sea"}
    assert t["lake"].passable_in == ("extreme_cold",) and not t["lake"].end_move  # 12.10
    assert t["sea"].passable_in == ()


def test_settlement_and_hexside_lines(tables: Tables) -> None:
    major, minor = tables.tec.settlement["major_city"], tables.tec.settlement["minor_city"]
    assert (major.shift, major.halve_motorized, major.attacker_min_loss, major.overrun, major.zoc_into) == \
        (-1, True, 1, False, False)  # 5, 7.1, 4
    assert (minor.shift, minor.halve_motorized, minor.attacker_min_loss, minor.overrun, minor.zoc_into) == \
        (-1, False, 0, True, True)
    assert major.mp_nonmotorized is None and minor.mp_motorized is None  # the other terrain's cost
    river = tables.tec.hexside["major_river"]
    assert (river.mp_extra_into_zoc, river.mp_extra_in, river.halve_attack_across, river.overrun) == \
        (1, ("clear", "mud"), True, False)  # 5, 7.1, 12.10
    for name in ("lake", "strait"):
        side = tables.tec.hexside[name]
        assert (side.passable, side.passable_in, side.blocks_zoc, side.blocks_attack) == \
            (False, ("extreme_cold",), True, True)  # 4, 12.10
    kerch = tables.tec.kerch
    assert (kerch.hexes, kerch.sea, kerch.mp_extra) == (("1930", "2031"), "black_sea", 1)  # 12.10
    assert (tables.tec.fortification.die, tables.tec.fortification.lost_on_enemy_entry) == (-1, True)  # 12.4


def test_hex_shifts_do_not_add_and_motorized_effects_apply_to_motorized_attacks(tables: Tables) -> None:
    tec = tables.tec
    assert tec.hex_shift("forest", "minor_city", False) == -1  # the larger, not -2
    assert tec.hex_shift("forest", "major_city", True) == -1
    assert tec.hex_shift("rough", None, False) == 0
    assert tec.hex_shift("rough", None, True) == -1
    assert tec.hex_shift("rough", "minor_city", False) == -1
    assert tec.hex_shift("clear", None, True) == 0
    assert tec.halves_motorized("clear", "major_city") and tec.halves_motorized("mountain", None)
    assert not tec.halves_motorized("forest", "minor_city")


# -------------------------------------------------------------------------------- the weather

CALENDAR = {  # turn: (north, south); 17 gives turn 5, the rest is ours (SOURCES.md)
    1: ("clear", "clear"), 2: ("clear", "clear"), 3: ("clear", "clear"), 4: ("clear", "clear"),
    5: ("mud", "clear"), 6: ("mud", "mud"), 7: ("freeze", "mud"), 8: ("freeze", "freeze"),
    9: ("extreme_cold", "freeze"), 10: ("extreme_cold", "extreme_cold"),
}
DATES = {  # 15.3 (turn 1 from 22 June, ours)
    1: ("1941-06-22", "1941-07-15"), 2: ("1941-07-16", "1941-08-05"), 3: ("1941-08-06", "1941-08-26"),
    4: ("1941-08-27", "1941-09-16"), 5: ("1941-09-17", "1941-10-07"), 6: ("1941-10-08", "1941-10-28"),
    7: ("1941-10-29", "1941-11-18"), 8: ("1941-11-19", "1941-12-09"), 9: ("1941-12-10", "1941-12-30"),
    10: ("1941-12-31", "1942-01-21"),
}


def test_weather_calendar_has_ten_turns_in_two_zones(tables: Tables) -> None:
    w = tables.weather
    assert sorted(w.turns) == list(range(1, 11))
    assert {t: (w.condition(t, "north"), w.condition(t, "south")) for t in w.turns} == CALENDAR
    assert (w.condition(5, "north"), w.condition(5, "south")) == ("mud", "clear")  # 17
    assert not w.turns[5].reconstructed
    assert all(w.turns[t].reconstructed == {"north", "south"} for t in range(2, 11) if t != 5)
    assert w.zone_areas == {"north": "weather_north", "south": "weather_south"}


def test_turn_dates(tables: Tables) -> None:
    got = {t: (e.start, e.end) for t, e in tables.weather.turns.items()}
    assert got == {t: (date.fromisoformat(a), date.fromisoformat(b)) for t, (a, b) in DATES.items()}


def test_weather_effects(tables: Tables) -> None:  # 12.3, 5.2, 5.3
    e = tables.weather.effects
    assert {c: (x.mp_infantry, x.mp_motorized, x.mp_cavalry) for c, x in e.items()} == {
        "clear": (0, 0, 0), "mud": (2, 2, 3), "freeze": (2, 3, 3), "extreme_cold": (2, 3, 3)}
    assert {c: (x.exploitation, x.exploitation_mp) for c, x in e.items()} == {
        "clear": ("half", 0), "mud": ("none", 0), "freeze": ("fixed", 2), "extreme_cold": ("none", 0)}
    assert {c for c, x in e.items() if x.reaction} == {"clear", "freeze"}
    assert {c: x.reaction_range for c, x in e.items()} == {"clear": 2, "mud": 1, "freeze": 2, "extreme_cold": 1}
    assert {c: (x.air_support, x.german_air_bonus) for c, x in e.items()} == {
        "clear": (True, 2), "mud": (False, 0), "freeze": (True, 1), "extreme_cold": (True, 1)}
    assert {c: x.attack_die for c, x in e.items()} == {"clear": 0, "mud": 0, "freeze": 0, "extreme_cold": -1}
    assert e["extreme_cold"].attack_die_exempt == ("mountain", "finnish", "guards", "shock_army")
    assert tables.weather.effect(9, "north").name == "extreme_cold"


# -------------------------------------------------------------------------------- the figures


def test_victory_points_total_43(tables: Tables) -> None:  # 13
    v = tables.victory
    assert v.objectives == {
        "Moscow": 6, "Leningrad": 4, "Rostov": 3, "Kharkov": 3, "Sevastopol": 3, "Kiev": 2, "Odessa": 2,
        "Dnepropetrovsk": 2, "Voronezh": 2, "Lvov": 1, "Minsk": 1, "Riga": 1, "Volkhov": 1, "Rzhev": 1,
        "Kalinin": 1, "Vyazma": 1, "Kaluga": 1, "Tula": 1, "Kursk": 1, "Smolensk": 1, "Velikiye Luki": 1,
        "Bryansk": 1, "Stalino": 1, "Orel": 1}
    assert v.finnish_zone_vp == 1 and v.finnish_zone_area == "finnish_border_zone"
    assert sum(v.objectives.values()) + v.finnish_zone_vp == 43 == v.total_vp


def test_victory_levels_events_and_sudden_death(tables: Tables) -> None:  # 13
    v = tables.victory
    assert [(n, v.level(n)) for n in (0, 14, 15, 19, 20, 25, 26, 30, 31, 43)] == [
        (0, "soviet_major"), (14, "soviet_major"), (15, "soviet_minor"), (19, "soviet_minor"),
        (20, "undecided"), (25, "undecided"), (26, "axis_minor"), (30, "axis_minor"), (31, "axis_total"),
        (43, "axis_total")]
    assert v.historical_vp == 19
    assert [tuple(lv) for lv in v.levels] == [("soviet_major", 14), ("soviet_minor", 19), ("undecided", 25),
                                          ("axis_minor", 30), ("axis_total", 43)]
    assert [tuple(e) for e in v.events] == [(3, "hungary_enters"), (5, "militia"), (8, "mobilization"),
                                            (10, "zhukov"), (15, "air_corps_leaves"), (18, "partisans")]
    assert v.sudden_death(20, 6) and not v.sudden_death(20, 7) and not v.sudden_death(19, 6)
    assert (v.militia_vp, v.militia_units, v.partisan_vp, v.partisan_units, v.partisan_depth) == (5, 2, 18, 2, 5)


def test_replacement_figures(tables: Tables) -> None:
    r = tables.replacements
    assert (r.german_infantry_ratio, r.german_motorized_ratio, r.soviet_infantry_ratio) == (4, 4, 5)  # 9.21
    assert (r.german_infantry_pool, r.german_infantry_per_turn) == (5, 2)  # 9.22
    assert (r.german_motorized_pool, r.german_motorized_per_turn) == (3, 1)  # 9.22
    assert (r.finnish_pool, r.finnish_from_turn, r.romanian_pool, r.romanian_from_turn) == (1, 3, 1, 3)  # 9.22
    assert (r.italian_pool, r.slovak_pool, r.hungarian_pool) == (0, 0, 0)  # 9.22
    assert r.not_counted == ("cavalry", "militia", "airborne", "fort")  # 9.22
    assert (r.soviet_turn1_max, r.fjd_infantry_steps, r.rail_hexes_german, r.rebuilt_steps) == (2, 1, 20, 1)  # 12.8, 12.5, 9.2


def test_soviet_complement_by_turn_and_cities(tables: Tables) -> None:  # 9.22
    r = tables.replacements
    inf = lambda turn, cities: r.soviet_complement(r.soviet_infantry, turn, cities)  # noqa: E731
    assert [inf(1, 5), inf(2, 3), inf(2, 2), inf(5, 0), inf(6, 4), inf(6, 2), inf(12, 1)] == [0, 2, 1, 1, 3, 2, 1]
    mot = lambda turn, held: r.soviet_complement(r.soviet_motorized, turn, held)  # noqa: E731
    assert [mot(2, 2), mot(3, 2), mot(5, 1), mot(6, 1), mot(7, 0), mot(8, 0)] == [0, 1, 0, 1, 0, 1]
    assert [tuple(row) for row in r.soviet_infantry] == [
        (2, 5, 3, 2, False), (2, 5, 0, 1, False), (6, 12, 3, 3, False), (6, 12, 2, 2, True), (6, 12, 0, 1, True)]
    assert [tuple(row) for row in r.soviet_motorized] == [(3, 5, 2, 1, False), (6, 7, 1, 1, False), (8, 12, 0, 1, False)]


def test_rail_air_forts_artillery(tables: Tables) -> None:
    rail = tables.rail
    assert (rail.axis_points, rail.soviet_points, rail.points_per_step, rail.max_hexes) == (2, 4, 1, 20)  # 10, 10.1
    assert (rail.marker_advance, rail.segment_max, rail.partisan_hex_cost) == (3, 3, 4)  # 10.3, 12.7
    assert rail.axis_markers == 3 and rail.reconstructed == {"axis_markers", "min_points_per_unit"}
    air = tables.air
    assert (air.axis_corps, air.soviet_corps) == (4, 2)  # 11
    assert (air.minor_city_capacity, air.major_city_capacity, air.axis_range, air.soviet_range) == (1, 2, 6, 5)  # 11.1
    assert (air.per_combat_per_side, air.missions_per_turn, air.german_bonus) == (1, 1, 2)  # 11.2, 12.3
    assert air.return_after_turns == 2 and air.reconstructed == {"return_after_turns"}  # 11.1
    f = tables.forts
    assert (f.soviet_per_turn, f.soviet_from_turn, f.soviet_per_turn_mobilized, f.mobilization_vp) == (2, 2, 3, 8)
    assert (f.soviet_max, f.soviet_free_moves_per_turn, f.axis_per_turn, f.axis_from_turn, f.axis_max) == \
        (12, 1, 1, 4, 3)  # 12.4
    assert (f.die, f.sevastopol_steps, f.sevastopol_quality) == (-1, 2, 3)  # 12.4
    a = tables.artillery
    assert (a.axis_points, a.axis_max_per_turn, a.soviet_points, a.soviet_from_turn, a.soviet_max_per_turn) == \
        (6, 3, 3, 7, 1)  # 12.12
    assert (a.per_combat_per_side, a.losses) == (1, 1)


def test_special_rule_figures(tables: Tables) -> None:
    assert (tables.stacking.max_steps, tables.stacking.zoc_min_steps) == (6, 2)  # 3, 4
    m = tables.movement
    assert (m.leave_zoc_mp, m.strategic_bonus_mp, m.overrun_extra_mp) == (1, 1, 1)  # 5.1, 5.4, 7
    re_ = tables.reaction
    assert (re_.max_hexes, re_.max_hexes_bad_weather, re_.move_divisor, re_.round_up) == (2, 1, 2, True)  # 5.3
    ex = tables.exploitation
    assert (ex.divisor, ex.round_up, ex.freeze_mp) == (2, True, 2)  # 5.2
    c = tables.combat
    assert (c.die_turn1_german, c.die_isolated_attacker, c.die_isolated_defender, c.support_die) == (1, -2, 1, 1)
    assert (c.zhukov_attack_die, c.zhukov_attack_own_loss, c.zhukov_defense_loss_each, c.zhukov_from_vp) == \
        (1, 1, 1, 10)  # 12.13
    assert (c.retreat_instead_of_step, c.retreat_zoc_extra_loss) == (2, 1)  # 6, 6.1
    cdm = tables.coup_de_main
    assert cdm.success_min == 4 and [cdm.allowed(t) for t in (1, 2, 3, 10)] == [2, 1, 0, 0]  # 12.6
    n = tables.naval
    assert (n.max_steps, n.baltic_ports, n.baltic_superiority, n.black_sea_ports, n.black_sea_superiority) == \
        (2, 5, 3, 3, 2)  # 12.1, 8.2
    assert (n.port_supply_steps, n.city_supply_steps) == (2, 4)  # 8.2
    ab = tables.airborne
    assert (ab.soviet_initial_corps, ab.soviet_initial_removed_after_turn, ab.soviet_guards_turns) == (5, 5, (7, 8))
    assert (ab.soviet_drop_range, ab.soviet_lost_empty_min, ab.soviet_lost_occupied_min) == (6, 5, 3)  # 12.5
    assert (ab.german_from_turn, ab.german_drop_range, ab.german_survives_empty_max,
            ab.german_survives_occupied_max) == (3, 7, 5, 4)  # 12.5
    assert (ab.drops_per_turn, ab.attack_die, ab.defense_die, ab.destroyed_by_quality) == (1, 1, -1, 3)
    bf = tables.baltic_fleet
    assert (bf.steps, bf.range, bf.bases, bf.support_die) == (2, 3, ("Leningrad", "Tallinn", "Riga"), 1)  # 12.9
    assert bf.mined_when_axis_holds == ("Königsberg", "Tallinn", "Riga", "Helsinki")
    assert (bf.mined_hexes, bf.air_attack_hit_max, bf.air_attack_weather) == \
        (("1304", "1204", "1305"), 3, ("clear", "freeze"))


# ---------------------------------------------------------------- flags, SOURCES.md, rules.toml


def flagged_paths(t: Tables) -> set[str]:
    """Every value tables.toml marks reconstructed, as the key SOURCES.md names it."""
    out = {f"crt.{k}" for k in t.crt.reconstructed}
    if t.crt.reconstructed_cells:
        out.add("crt.row")
    out |= {f"tec.{k}" for k in t.tec.reconstructed}
    for group, entries in (("terrain", t.tec.terrain), ("settlement", t.tec.settlement), ("hexside", t.tec.hexside)):
        out |= {f"tec.{group}.{name}.{k}" for name, e in entries.items() for k in e.reconstructed}
    out |= {f"weather.turn[{n}].{k}" for n, e in t.weather.turns.items() for k in e.reconstructed}
    for name in ("stacking", "movement", "reaction", "exploitation", "combat", "replacements", "rail", "air",
                 "forts", "artillery", "coup_de_main", "naval", "airborne", "baltic_fleet", "victory"):
        out |= {f"{name}.{k}" for k in getattr(t, name).reconstructed}
    for key in ("soviet_infantry", "soviet_motorized"):
        rows = getattr(t.replacements, key)
        out |= {f"replacements.{key}[{i}]" for i, row in enumerate(rows) if row.reconstructed}
    return out


def _expand(token: str) -> set[str]:
    m = re.fullmatch(r"(.*)\[([0-9,\-]+)\](.*)", token)
    if m is None:
        return {token}
    numbers: list[int] = []
    for part in m.group(2).split(","):
        lo, _, hi = part.partition("-")
        numbers.extend(range(int(lo), int(hi or lo) + 1))
    return {f"{m.group(1)}[{n}]{m.group(3)}" for n in numbers}


def sources_paths() -> set[str]:
    text = (FOLDER / "SOURCES.md").read_text(encoding="utf-8")
    section = text.split("\n## Tables\n", 1)[1].split("\n## ", 1)[0]
    tops = {"crt", "tec", "weather", "stacking", "movement", "reaction", "exploitation", "combat", "replacements",
            "rail", "air", "forts", "artillery", "coup_de_main", "naval", "airborne", "baltic_fleet", "victory"}
    out: set[str] = set()
    for token in re.findall(r"`([a-z_]+(?:\.[a-z_0-9]+|\[[0-9,\-]+\])+)`", section):
        if token.split(".")[0].split("[")[0] in tops:
            out |= _expand(token)
    return out


def test_supply_sources_and_the_russian_major_cities(tables: Tables) -> None:  # 8.2, 12.7
    sup = tables.supply
    assert sup.axis_cities == ("Königsberg", "Warsaw", "Helsinki", "Bucharest")
    assert (sup.axis_rail_edge, sup.soviet_rail_edge) == ("west", "east")
    assert (sup.limited_city, sup.limited_city_nation, sup.limited_city_needs) == \
        ("Helsinki", "finnish", ("Königsberg", "Riga", "Tallinn"))
    assert sup.russian_major_cities == ("Moscow", "Leningrad", "Kiev", "Kharkov", "Rostov", "Sevastopol", "Odessa",
                                        "Dnepropetrovsk", "Voronezh")
    assert sup.reconstructed == {"hex_trace_mp"}


def test_each_axis_nations_entry_cities(tables: Tables) -> None:  # 9.1
    e = tables.entry
    assert (e.german, e.romanian, e.italian, e.hungarian, e.finnish) == \
        (("Warsaw", "Königsberg"), ("Bucharest",), ("0131",), ("0124",), ("Helsinki",))


def test_every_flag_has_its_sources_line_and_every_line_its_flag(tables: Tables) -> None:
    flags = flagged_paths(tables)
    assert flags == sources_paths()
    assert len(flags) == 38  # guards against both sides losing the same entry


def test_the_rules_reference_shows_the_same_crt_with_our_cells_starred(tables: Tables) -> None:
    cases = {c["id"]: c for c in tomllib.loads((FOLDER / "rules.toml").read_text(encoding="utf-8"))["case"]}
    table = cases["6"]["table"]
    assert table["header"] == ["Die", *COLUMNS]
    expected = [[str(die), *[str(tables.crt.cell(c, die)) + ("*" if tables.crt.is_reconstructed(c, die) else "")
                             for c in COLUMNS]] for die in range(1, 7)]
    assert table["rows"] == expected
    tec_rows = {row[0]: row for row in cases["5"]["table"]["rows"]}
    assert tec_rows["Clear*"][1] == "1 / 1*"
    assert tec_rows["Forest"][1] == "1 / 2" and tec_rows["Mountain"][1] == "2 / 3"


# --------------------------------------------------------------------------- refusing bad data


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return change


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
    return change


BREAKS = [  # (what, change, key in the message, words in the reason)
    ("a result that is no result", _set(["crt", "row", 2, "results", 4], "A1X"), "crt.row[2].results[4]",
     "not a result"),
    ("a die row missing", _delete(["crt", "row", 5]), "crt.row", "no row for die roll(s) 6"),
    ("flags that do not fit the row", _set(["crt", "row", 0, "reconstructed"], [False]), "crt.row[0].reconstructed",
     "one true or false per result"),
    ("columns out of order", _set(["crt", "columns", 3], "1:2"), "crt.columns[3]", "better odds"),
    ("a clamp column not on the chart", _set(["crt", "above_highest", ], "8:1"), "crt.above_highest",
     "not one of the CRT's columns"),
    ("a terrain without its chart line", _delete(["tec", "terrain", "arctic"]), "tec.terrain.arctic",
     "no chart line"),
    ("a terrain the game does not know", _set(["tec", "terrain", "jungle"], {"mp_nonmotorized": 1}),
     "tec.terrain.jungle", "unknown key"),
    ("a shift helping the attacker", _set(["tec", "terrain", "forest", "shift"], 1), "tec.terrain.forest.shift",
     "toward the defender"),
    ("sea made passable", _set(["tec", "terrain", "sea", "passable"], True), "tec.terrain.sea.passable",
     "impassable"),
    ("an unknown weather in a TEC line", _set(["tec", "hexside", "lake", "passable_in"], ["snow"]),
     "tec.hexside.lake.passable_in[0]", "not a weather condition"),
    ("Kerch hexes that do not touch", _set(["tec", "kerch", "hexes"], ["1930", "2131"]), "tec.kerch.hexes",
     "not neighbours"),
    ("a flag naming no key", _set(["rail", "reconstructed"], ["axis_marker"]), "rail.reconstructed[0]",
     "not a key of this table"),
    ("an unknown weather on the calendar", _set(["weather", "turn", 6, "north"], "snow"), "weather.turn[6].north",
     "not a weather condition"),
    ("a turn out of order", _set(["weather", "turn", 3, "turn"], 5), "weather.turn[3].turn", "turn 4 should come"),
    ("a gap between turns", _set(["weather", "turn", 1, "start"], "1941-07-17"), "weather.turn[1].start",
     "the day after"),
    ("a date that is no date", _set(["weather", "turn", 0, "end"], "15 July"), "weather.turn[0].end",
     "not a date"),
    ("a VP total that does not add up", _set(["victory", "objectives", "Moscow"], 5), "victory.total_vp",
     "add up to 42"),
    ("a figure of the wrong kind", _set(["artillery", "axis_points"], "six"), "artillery.axis_points",
     "expected a whole number"),
    ("a figure missing", _delete(["forts", "soviet_max"]), "forts.soviet_max", "missing"),
    ("a negative figure", _set(["air", "axis_range"], -6), "air.axis_range", "below the least sensible value"),
    ("a top-level table nobody reads", _set(["odds"], {}), "odds", "unknown key"),
    ("a whole table missing", _delete(["weather"]), "weather", "missing table"),
    ("a supply edge that is no edge", _set(["supply", "soviet_rail_edge"], "up"), "supply.soviet_rail_edge",
     "a map edge"),
    ("a limited source that is no source", _set(["supply", "limited_city"], "Riga"), "supply.limited_city",
     "not one of supply.axis_cities"),
    ("an entry table without the Finns", _delete(["entry", "finnish"]), "entry.finnish", "missing"),
    ("complement rows in the wrong order", _set(["replacements", "soviet_infantry", 1, "min_cities"], 4),
     "replacements.soviet_infantry[1].min_cities", "most cities to the fewest"),
]


@pytest.mark.parametrize(("what", "change", "key", "reason"), BREAKS, ids=[b[0] for b in BREAKS])
def test_check_tables_refuses_a_broken_copy(tmp_path: Path, what: str, change: Callable[[dict[str, Any]], None],
                                            key: str, reason: str) -> None:
    data = copy.deepcopy(raw())
    change(data)
    path = tmp_path / "tables.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_tables(path)
    assert exc.value.file == str(path)
    assert exc.value.key == key
    assert reason in exc.value.reason
    with pytest.raises(DataError) as again:  # the hook validate calls says the same
        check_tables(path, data)
    assert again.value.line() == exc.value.line()


def test_the_committed_file_passes_check_tables() -> None:
    check_tables(TABLES, raw())


def _validate(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["validate", str(path)])
    return result.exit_code, result.output


def test_kiev_tui_validate_checks_a_tables_file_beside_a_barbarossa_map(tmp_path: Path) -> None:
    """validate finds the game by the map.toml beside the file; this folder has only the map's
    [map] table, so only tables.toml is checked -- the committed one passes, a broken one not."""
    (tmp_path / "map.toml").write_text('[map]\ngame = "barbarossa1941"\n', encoding="utf-8")
    good = tmp_path / "tables.toml"
    good.write_text(TABLES.read_text(encoding="utf-8"), encoding="utf-8")
    code, out = _validate(good)
    assert code == 0, out
    broken = raw()
    broken["coup_de_main"]["success_min"] = 7
    good.write_text(tomli_w.dumps(broken), encoding="utf-8")
    code, out = _validate(good)
    assert code != 0
    assert f"{good}: coup_de_main.success_min: a d6 roll, 1-6, not 7" in out.replace("\n", "")


def test_kiev_tui_validate_passes_the_committed_tables() -> None:
    code, out = _validate(TABLES)
    assert code == 0, out
    assert out.strip().endswith("tables.toml: ok")
