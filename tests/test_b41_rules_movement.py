"""Barbarossa 1941, movement (5.1-5.4, the Terrain Effects Chart, 12.2, 12.3, 12.8, 12.10).

Paths on the made-up maps run down column 04 (0401, 0402, ...: each hex next to the one
before).  0304 (an odd column, standing low) has the neighbours 0303, 0404, 0405, 0305, 0205 and
0204, so a Soviet army there puts 0404 and 0405 in its zone; an army at 0406 covers 0405, 0505,
0506, 0407, 0306 and 0305.
"""

from __future__ import annotations

import dataclasses

import pytest

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941 import allowance, movement
from kiev_tui.games.barbarossa1941.board import Board
from tests.b41_rules_helpers import CLEAR, COLD, DATA, FREEZE, MUD, H, board, catalog, real_map, small_map, tables


def col(*rows: int) -> list:  # type: ignore[type-arg]
    return [H(f"04{r:02d}") for r in rows]


# ------------------------------------------------------------------------------ allowances


@pytest.mark.parametrize("uid,lost,expected", [
    ("ge-pzk-56", 0, {CLEAR: 5, MUD: 2, FREEZE: 3, COLD: 3}),
    ("ge-ak-23", 0, {CLEAR: 3, MUD: 2, FREEZE: 2, COLD: 2}),
    ("so-cav-2", 1, {CLEAR: 4, MUD: 3, FREEZE: 3, COLD: 3}),   # the cavalry face (15.2)
    ("so-cav-2", 0, {CLEAR: 4, MUD: 2, FREEZE: 3, COLD: 3}),   # the mobile-group face moves motorized (12.11)
    ("so-opol-1", 0, {CLEAR: 0, MUD: 0, FREEZE: 0, COLD: 0}),  # static (12.11)
])
def test_12_3_weather_sets_the_movement_allowance(uid: str, lost: int, expected: dict[int, int]) -> None:
    for turn, mp in expected.items():
        b = board(small_map(), {uid: "0404"}, turn=turn, lost={uid: lost})
        assert allowance.movement_allowance(b, uid) == mp, turn


def test_12_3_each_unit_has_the_weather_of_its_own_zone() -> None:
    # turn 5: mud in the north, clear in the south (17)
    gmap = small_map(areas={"weather_north": ["0101"], "weather_south": ["0505"]})
    b = board(gmap, {"ge-pzk-56": "0101", "ge-pzk-47": "0505"}, turn=5)
    assert allowance.movement_allowance(b, "ge-pzk-56") == 2
    assert allowance.movement_allowance(b, "ge-pzk-47") == 5


def test_5_2_exploitation_allowance() -> None:
    gmap = small_map()
    b = board(gmap, {"ge-pzk-56": "0404", "hu-gyor": "0505", "ge-ak-23": "0202"})
    assert allowance.exploitation_allowance(b, "ge-pzk-56") == 3  # half of 5, rounded up
    assert allowance.exploitation_allowance(b, "hu-gyor") == 2
    assert allowance.exploitation_allowance(b, "ge-ak-23") == Illegal("5.2", "only motorized units move in the exploitation phase")
    assert allowance.exploitation_allowance(board(gmap, {"ge-pzk-56": "0404"}, turn=FREEZE), "ge-pzk-56") == 2
    assert allowance.exploitation_allowance(board(gmap, {"ge-pzk-56": "0404"}, turn=MUD), "ge-pzk-56") == Illegal(
        "12.3", "no exploitation in mud")
    assert allowance.exploitation_allowance(board(gmap, {"ge-pzk-56": "0404"}, turn=COLD), "ge-pzk-56") == Illegal(
        "12.3", "no exploitation in extreme cold")
    isolated = board(gmap, {"ge-pzk-56": "0404"}, isolated=frozenset({"ge-pzk-56"}))
    assert allowance.exploitation_allowance(isolated, "ge-pzk-56") == Illegal(
        "8.1", "an isolated motorized unit has no exploitation move")


def test_12_3_no_reaction_move_in_mud_or_extreme_cold() -> None:
    for turn, cond in ((MUD, "mud"), (COLD, "extreme cold")):
        b = board(small_map(), {"ge-pzk-56": "0404"}, turn=turn)
        assert allowance.allowance(b, "ge-pzk-56", "reaction") == Illegal("12.3", f"no reaction movement in {cond}")
        assert movement.path_cost(b, ["ge-pzk-56"], col(5), "reaction") == Illegal(
            "12.3", f"no reaction movement in {cond}")
    assert allowance.allowance(board(small_map(), {"ge-pzk-56": "0404"}, turn=FREEZE), "ge-pzk-56", "reaction") == 2


def test_5_3_reaction_moves_half_the_mp_rounded_up() -> None:
    assert allowance.reaction_allowance(board(small_map(), {"ge-pzk-56": "0404"}), "ge-pzk-56") == 3
    assert allowance.reaction_allowance(board(small_map(), {"ge-pzk-56": "0404"}, turn=FREEZE), "ge-pzk-56") == 2
    assert allowance.reaction_allowance(board(small_map(), {"so-cav-2": "0404"}, lost={"so-cav-2": 1}), "so-cav-2") == 2


# ------------------------------------------------------------------------------ terrain costs


@pytest.mark.parametrize("terrain,infantry,motorized", [
    ("clear", 1, 1), ("rough", 1, 1), ("forest", 1, 2), ("swamp", 2, 2), ("mountain", 2, 3), ("arctic", 2, 2)])
def test_5_terrain_costs(terrain: str, infantry: int, motorized: int) -> None:
    b = board(small_map(terrain={"0405": terrain}), {"ge-ak-23": "0404", "ge-pzk-56": "0303", "ro-kav": "0505"})
    assert movement.path_cost(b, ["ge-ak-23"], col(5)) == {"ge-ak-23": infantry}
    assert movement.path_cost(b, ["ge-pzk-56"], [H("0304"), H("0405")]) == {"ge-pzk-56": 1 + motorized}
    # 5.1: cavalry pays the foot column
    assert movement.path_cost(b, ["ro-kav"], [H("0405")]) == {"ro-kav": infantry}


def test_5_a_city_costs_the_other_terrain_of_its_hex() -> None:
    gmap = small_map(terrain={"0405": "forest"}, settlement={"0405": "minor_city", "0406": "major_city"})
    b = board(gmap, {"ge-pzk-56": "0404"})
    assert movement.path_cost(b, ["ge-pzk-56"], col(5, 6)) == {"ge-pzk-56": 3}


# ------------------------------------------------------------------------------ 5.1 and 5.4


def test_5_4_the_strategic_mp() -> None:
    b = board(small_map(rows=9), {"ge-ak-23": "0401"})
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4, 5)) == {"ge-ak-23": 4}
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4, 5, 6)) == Illegal("5.1", "ge-ak-23 needs 5 MP but has 4")


def test_5_4_no_strategic_mp_when_the_move_ends_in_an_enemy_zone() -> None:
    b = board(small_map(rows=9), {"ge-ak-23": "0401", "so-a-7": "0406"})
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4)) == {"ge-ak-23": 3}
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4, 5)) == Illegal("5.1", "ge-ak-23 needs 4 MP but has 3")


def test_5_4_no_strategic_mp_in_exploitation() -> None:
    b = board(small_map(rows=9), {"ge-pzk-56": "0401"})
    assert movement.path_cost(b, ["ge-pzk-56"], col(2, 3, 4), phase="exploitation") == {"ge-pzk-56": 3}
    assert movement.path_cost(b, ["ge-pzk-56"], col(2, 3, 4, 5), phase="exploitation") == Illegal(
        "5.1", "ge-pzk-56 needs 4 MP but has 3")


def test_5_1_stop_on_entering_an_enemy_zone() -> None:
    b = board(small_map(), {"ge-ak-23": "0401", "so-a-7": "0304"})
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4)) == {"ge-ak-23": 3}
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4, 5)) == Illegal(
        "5.1", "the stack entered an enemy zone at 0404 and must stop there")


def test_5_1_a_friendly_unit_does_not_lift_the_stop() -> None:
    b = board(small_map(), {"ge-ak-23": "0401", "ge-ak-38": "0404", "so-a-7": "0304"})
    assert movement.path_cost(b, ["ge-ak-23"], col(2, 3, 4, 5)) == Illegal(
        "5.1", "the stack entered an enemy zone at 0404 and must stop there")


def test_5_1_leaving_an_enemy_zone_costs_1_mp_more() -> None:
    b = board(small_map(), {"ge-ak-23": "0404", "so-a-7": "0304"})
    assert movement.path_cost(b, ["ge-ak-23"], col(3, 2)) == {"ge-ak-23": 3}
    assert movement.path_cost(b, ["ge-ak-23"], col(3, 2, 1)) == {"ge-ak-23": 4}


def test_5_1_zone_to_zone_only_for_the_faster_unit() -> None:
    b = board(small_map(), {"ge-ak-23": "0404", "so-a-7": "0304"})
    assert movement.path_cost(b, ["ge-ak-23"], col(5)) == Illegal(
        "5.1", "ge-ak-23 (3 MP) is not faster than the enemy units (3 MP) whose zones cover 0404 and 0405: "
               "it must pass through a free hex")
    fast = board(small_map(), {"ge-pzk-56": "0404", "so-a-7": "0304"})
    assert movement.path_cost(fast, ["ge-pzk-56"], col(5)) == {"ge-pzk-56": 2}
    # in mud both have 2 MP (12.3): the panzer corps is no longer faster
    mud = board(small_map(), {"ge-pzk-56": "0404", "so-a-7": "0304"}, turn=MUD)
    assert movement.path_cost(mud, ["ge-pzk-56"], col(5)) == Illegal(
        "5.1", "ge-pzk-56 (2 MP) is not faster than the enemy units (2 MP) whose zones cover 0404 and 0405: "
               "it must pass through a free hex")


def test_5_river_costs_1_mp_more_only_into_an_enemy_zone() -> None:
    gmap = small_map(sides={"major_river": ["0403/0404"]})
    b = board(gmap, {"ge-ak-23": "0402", "so-a-7": "0304"})
    assert movement.path_cost(b, ["ge-ak-23"], col(3, 4)) == {"ge-ak-23": 3}
    free = board(gmap, {"ge-ak-23": "0402"})
    assert movement.path_cost(free, ["ge-ak-23"], col(3, 4)) == {"ge-ak-23": 2}
    # 12.10: no extra cost in freeze (infantry 2 MP)
    frozen = board(gmap, {"ge-ak-23": "0402", "so-a-7": "0304"}, turn=FREEZE)
    assert movement.path_cost(frozen, ["ge-ak-23"], col(3, 4)) == {"ge-ak-23": 2}


def test_5_1_one_hex_is_always_allowed() -> None:
    gmap = small_map(terrain={"0405": "swamp"}, sides={"major_river": ["0404/0405"]})
    b = board(gmap, {"ge-ak-23": "0404", "so-a-7": "0406"}, turn=MUD)
    # swamp 2 + river into the zone 1 = 3, over the 2 MP of mud; a first hex is allowed anyway
    assert movement.path_cost(b, ["ge-ak-23"], col(5)) == {"ge-ak-23": 3}
    assert movement.path_cost(b, ["ge-ak-23"], col(5), spent={"ge-ak-23": 1}) == Illegal(
        "5.1", "ge-ak-23 needs 3 MP but has 1")
    assert H("0405") in {h for h, r in movement.reachable(b, ["ge-ak-23"]).items() if r.ok}


def test_7_enemy_units_are_not_entered() -> None:
    b = board(small_map(), {"ge-pzk-56": "0404", "so-a-7": "0405"})
    assert movement.path_cost(b, ["ge-pzk-56"], col(5)) == Illegal(
        "7", "0405 holds enemy units: only an overrun attacks them on the move")


def test_3_a_move_may_pass_a_full_hex_but_not_end_there() -> None:
    b = board(small_map(), {"ge-bef-101": "0404", "ge-ak-23": "0405", "ge-ak-38": "0405", "ge-ak-28": "0405"})
    assert movement.path_cost(b, ["ge-bef-101"], col(5)) == Illegal(
        "3", "0405 would hold 7 stacking points; a hex holds at most 6")
    assert movement.path_cost(b, ["ge-bef-101"], col(5, 6)) == {"ge-bef-101": 2}


def test_12_11_static_units_never_move() -> None:
    b = board(small_map(), {"so-opol-1": "0404"})
    assert movement.path_cost(b, ["so-opol-1"], col(5)) == Illegal("12.11", "so-opol-1 is static and never moves")


def test_5_1_a_stack_pays_unit_by_unit() -> None:
    b = board(small_map(terrain={"0405": "forest"}), {"ge-ak-23": "0404", "ge-pzk-56": "0404"})
    assert movement.path_cost(b, ["ge-ak-23", "ge-pzk-56"], col(5, 6)) == {"ge-ak-23": 2, "ge-pzk-56": 3}
    assert movement.path_cost(b, ["ge-ak-23", "ge-pzk-56"], col(5, 6, 7)) == {"ge-ak-23": 3, "ge-pzk-56": 4}
    apart = board(small_map(), {"ge-ak-23": "0404", "ge-pzk-56": "0303"})
    assert movement.path_cost(apart, ["ge-ak-23", "ge-pzk-56"], col(5)) == Illegal(
        "5.1", "units moving together must start in the same hex")


# ------------------------------------------------------------------------------ 12.10 water


def test_12_10_lake_hexes_are_crossed_only_frozen_and_never_ended_in() -> None:
    gmap = small_map(terrain={"0405": "lake"})
    clear = board(gmap, {"ge-ak-23": "0404"})
    assert movement.path_cost(clear, ["ge-ak-23"], col(5, 6)) == Illegal(
        "12.10", "0405 is a lake: it may be crossed only in extreme cold")
    cold = board(gmap, {"ge-ak-23": "0404"}, turn=COLD)
    assert movement.path_cost(cold, ["ge-ak-23"], col(5)) == Illegal("12.10", "no move may end in the lake hex 0405")
    assert movement.path_cost(cold, ["ge-ak-23"], col(5, 6)) == {"ge-ak-23": 2}


def test_12_10_sea_is_never_entered() -> None:
    b = board(small_map(terrain={"0405": "sea"}), {"ge-ak-23": "0404"}, turn=COLD)
    assert movement.path_cost(b, ["ge-ak-23"], col(5)) == Illegal("12.10", "0405 is sea: no unit enters it")


def test_12_10_lake_hexsides_open_in_extreme_cold() -> None:
    gmap = small_map(sides={"lake": ["0404/0405"]})
    assert movement.path_cost(board(gmap, {"ge-ak-23": "0404"}), ["ge-ak-23"], col(5)) == Illegal(
        "12.10", "the lake between 0404 and 0405 is impassable except in extreme cold")
    assert movement.path_cost(board(gmap, {"ge-ak-23": "0404"}, turn=COLD), ["ge-ak-23"], col(5)) == {"ge-ak-23": 1}


def test_12_10_the_kerch_strait_on_the_real_map() -> None:
    m = real_map()
    ruling = board(m, {"ge-ak-23": "1930"}, naval={"black_sea": "axis"})
    assert movement.path_cost(ruling, ["ge-ak-23"], [H("2031")]) == {"ge-ak-23": 2}
    for naval in ({}, {"black_sea": "soviet"}):
        b = board(m, {"ge-ak-23": "1930"}, naval=naval)
        assert movement.path_cost(b, ["ge-ak-23"], [H("2031")]) == Illegal(
            "12.10", "the strait between 1930 and 2031 is impassable except in extreme cold or for the side "
                     "that rules the Black Sea")
    # extreme cold ignores the strait: no extra MP
    cold = board(m, {"ge-ak-23": "1930"}, turn=COLD)
    assert movement.path_cost(cold, ["ge-ak-23"], [H("2031")]) == {"ge-ak-23": 1}


# ------------------------------------------------------------------------------ 12.2, 12.8


def test_12_8_german_motorized_units_ignore_soviet_zones_on_turn_1() -> None:
    every = [f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 10)]
    gmap = small_map(rows=9, areas={"ussr": every})
    b = board(gmap, {"ge-pzk-56": "0404", "ge-ak-23": "0404", "so-a-7": "0304"}, turn=1)
    # no stop, no cost to leave, and the strategic MP although the move ends in a Soviet zone
    assert movement.path_cost(b, ["ge-pzk-56"], col(5, 6)) == {"ge-pzk-56": 2}
    far = board(gmap, {"ge-pzk-56": "0409", "so-a-7": "0304"}, turn=1)
    assert movement.path_cost(far, ["ge-pzk-56"], col(8, 7, 6, 5, 4)) == {"ge-pzk-56": 5}
    assert movement.path_cost(b, ["ge-ak-23"], col(5)) == Illegal(
        "5.1", "ge-ak-23 (3 MP) is not faster than the enemy units (3 MP) whose zones cover 0404 and 0405: "
               "it must pass through a free hex")
    later = board(gmap, {"ge-pzk-56": "0404", "so-a-7": "0304"}, turn=CLEAR)
    assert movement.path_cost(later, ["ge-pzk-56"], col(5, 6)) == Illegal(
        "5.1", "the stack entered an enemy zone at 0405 and must stop there")


def test_12_2_finns_enter_no_enemy_zone_beyond_their_border() -> None:
    gmap = small_map(areas={"finland": ["0401", "0402", "0403"]})
    b = board(gmap, {"fi-c-6": "0403", "so-a-7": "0304"})
    assert movement.path_cost(b, ["fi-c-6"], col(4)) == Illegal(
        "12.2", "Finnish units may not enter an enemy zone beyond their 1940 border (0404)")
    inside = small_map(areas={"finland": ["0401", "0402", "0403", "0404"]})
    assert movement.path_cost(board(inside, {"fi-c-6": "0403", "so-a-7": "0304"}), ["fi-c-6"], col(4)) == {"fi-c-6": 1}
    # outside any zone a Finn moves normally beyond the border
    assert movement.path_cost(board(gmap, {"fi-c-6": "0403"}), ["fi-c-6"], col(4, 5)) == {"fi-c-6": 2}


def test_12_2_italians_keep_away_from_the_black_sea_on_the_real_map() -> None:
    b = board(real_map(), {"it-csir": "1127", "ge-ak-23": "1127"})
    assert movement.path_cost(b, ["it-csir"], [H("1128")]) == Illegal(
        "12.2", "Italian units may not enter 1128, next to the Black Sea or the Sea of Azov")
    assert movement.path_cost(b, ["ge-ak-23"], [H("1128")]) == {"ge-ak-23": 1}
    assert movement.path_cost(b, ["it-csir"], [H("1126")]) == {"it-csir": 1}


# ------------------------------------------------------------------------------ reachable


def test_5_1_reachable_on_a_small_map() -> None:
    gmap = small_map(columns=5, rows=5, terrain={"0302": "forest", "0404": "swamp"})
    b = board(gmap, {"ge-ak-23": "0103", "so-a-7": "0503"})
    got = {gmap.grid.id(h): r.cost for h, r in movement.reachable(b, ["ge-ak-23"]).items() if r.ok}
    # 0503's zone: 0502, 0504, 0403 and 0404 (swamp, 2 MP); entering it ends the move without 5.4's
    # MP, so a zone hex must lie within 3 MP (0403 by the forest 0302), other hexes within 4
    assert got == {
        "0101": 2, "0102": 1, "0104": 1, "0105": 2, "0201": 3, "0202": 2, "0203": 1, "0204": 1, "0205": 2,
        "0301": 3, "0302": 2, "0303": 2, "0304": 2, "0305": 3, "0401": 4, "0402": 3, "0403": 3, "0405": 3,
        "0501": 4, "0505": 4,
    }
    why = movement.reachable(b, ["ge-ak-23"])
    assert why[H("0503")].case == "7"
    assert (why[H("0404")].case, why[H("0404")].why) == (
        "5.4", "ge-ak-23 would end in an enemy zone, where the strategic MP does not count: it needs 4 MP and has 3")
    assert why[H("0502")].ok is False
    assert why[H("0501")].path == ("0203", "0302", "0402", "0501")


def test_5_1_reachable_agrees_with_path_cost_on_the_real_set_up() -> None:
    for turn in (1, CLEAR, 5):
        sc = load_scenario(DATA / "scenarios" / "historical.toml")
        b = Board.from_scenario(sc)
        b = Board(b.gmap, b.tables, b.units, b.hex_of, b.lost, turn=turn)
        for uid, phase in (("ge-pzk-41", "movement"), ("ge-pzk-41", "exploitation"), ("ge-pzk-41", "reaction"),
                           ("ge-ak-26", "movement"), ("so-mc-3-12", "movement"), ("so-mc-3-12", "reaction"),
                           ("so-a-8", "movement"), ("fi-c-6", "movement"), ("ro-kav", "movement")):
            assert uid in b.hex_of
            reach = movement.reachable(b, [uid], phase)
            mp = allowance.allowance(b, uid, phase)
            if isinstance(mp, Illegal):  # turn 5: mud in the north (12.3)
                assert (turn, phase, b.weather(b.hex_of[uid])) == (5, phase, "mud"), uid
                assert {(r.case, r.why) for r in reach.values()} == {(mp.case, mp.why)}
                continue
            assert any(r.ok for r in reach.values()), (uid, turn, phase)
            for h, r in reach.items():
                if r.ok:
                    path = [b.gmap.grid.parse(x) for x in r.path]
                    assert movement.path_cost(b, [uid], path, phase) == {uid: r.cost}, (uid, turn, phase, h)


def test_5_1_reachable_says_why_a_static_unit_goes_nowhere() -> None:
    b = board(small_map(columns=3, rows=3), {"so-opol-1": "0202"})
    reach = movement.reachable(b, ["so-opol-1"])
    assert len(reach) == 8
    assert {(r.case, r.why) for r in reach.values()} == {("12.11", "so-opol-1 is static and never moves")}


# ------------------------------------------------------------------------------ 5.3


def test_5_3_who_may_react() -> None:
    gmap = small_map()
    b = board(gmap, {"so-mc-1-10": "0404", "so-a-7": "0405", "so-cav-2": "0101", "ge-ak-23": "0606"},
              lost={"so-cav-2": 1})
    assert movement.may_react(b, "so-mc-1-10", H("0605"), [H("0405")]) is None  # 2 hexes away
    assert movement.may_react(b, "so-mc-1-10", H("0606"), [H("0405")]) == Illegal(
        "5.3", "so-mc-1-10 is more than 2 hex(es) from the combat")
    assert movement.may_react(b, "so-a-7", H("0605"), []) == Illegal("5.3", "so-a-7 is neither motorized nor cavalry")
    assert movement.may_react(b, "so-cav-2", H("0301"), []) is None  # cavalry reacts too
    assert movement.may_react(b, "so-mc-1-10", H("0605"), [H("0404")]) == Illegal(
        "5.3", "so-mc-1-10 is itself under attack")
    mud = board(gmap, {"so-mc-1-10": "0404"}, turn=MUD)
    assert movement.may_react(mud, "so-mc-1-10", H("0405"), []) == Illegal("12.3", "no reaction movement in mud")
    zoned = board(gmap, {"so-mc-1-10": "0404", "ge-ak-23": "0304"})
    assert movement.may_react(zoned, "so-mc-1-10", H("0504"), []) == Illegal(
        "5.3", "so-mc-1-10 is Soviet and stands in an enemy zone")
    # an Axis unit may react from an enemy zone
    axis = board(gmap, {"ge-pzk-56": "0404", "so-a-7": "0304"})
    assert movement.may_react(axis, "ge-pzk-56", H("0504"), []) is None


def test_12_11_a_static_counter_has_no_mp_whatever_it_prints() -> None:
    # the static flag, not a printed 0, keeps a militia in place (12.11): a militia printed with 2 MP
    units = dict(catalog().units)
    units["so-opol-1"] = dataclasses.replace(units["so-opol-1"], ma=2)
    b = Board(small_map(), tables(), units, {"so-opol-1": H("0404")})
    assert allowance.movement_allowance(b, "so-opol-1") == 0
    assert movement.path_cost(b, ["so-opol-1"], col(5)) == Illegal("12.11", "so-opol-1 is static and never moves")


def _accepted_by_brute_force(b: Board, units: list[str], longest: int) -> dict[str, int]:
    """Every hex some simple path of at most ``longest`` hexes reaches, with the least MP of the
    dearest unit, by trying each path with path_cost."""
    start = b.hex_of[units[0]]
    best: dict[str, int] = {}

    def walk(path: list) -> None:  # type: ignore[type-arg]
        if path:
            got = movement.path_cost(b, units, path)
            if isinstance(got, dict):
                hid = b.gmap.grid.id(path[-1])
                best[hid] = min(best.get(hid, 99), max(got.values()))
        if len(path) == longest:
            return
        for n in b.gmap.neighbours(path[-1] if path else start):
            if n != start and n not in path:
                walk(path + [n])

    walk([])
    return best


def test_5_1_reachable_is_exact_for_a_stack_whose_units_pay_differently() -> None:
    gmap = small_map(columns=5, rows=5, terrain={"0202": "forest", "0203": "forest", "0303": "mountain",
                                                  "0304": "swamp", "0402": "forest", "0204": "rough"},
                     sides={"major_river": ["0303/0403", "0304/0404"]})
    for place in ({"ge-ak-23": "0102", "ge-pzk-56": "0102", "so-a-7": "0504"},
                  {"ge-ak-23": "0102", "ge-pzk-56": "0102", "ro-kav": "0102"},
                  {"ge-pzk-56": "0301", "so-a-7": "0403"}):
        b = board(gmap, place)
        units = [u for u in place if b.side(u) == "axis"]
        got = {gmap.grid.id(h): r.cost for h, r in movement.reachable(b, units).items() if r.ok}
        assert got == _accepted_by_brute_force(b, units, 6), place


def test_5_1_paths_go_hex_by_hex_on_the_map() -> None:
    b = board(small_map(), {"ge-ak-23": "0404"})
    assert movement.path_cost(b, ["ge-ak-23"], col(6)) == Illegal("5.1", "0406 is not next to 0404: a move goes hex by hex")
    assert movement.path_cost(b, ["ge-ak-23"], []) == Illegal("5.1", "the path is empty")
    assert movement.path_cost(b, ["ge-ak-23"], col(5, 6, 7, 8)) == Illegal("5.1", "0408 is off the map")
    assert movement.path_cost(b, ["ge-ak-23", "ge-ak-23"], col(5)) == Illegal("5.1", "a unit is listed twice")
    assert movement.path_cost(b, ["ge-ak-38"], col(5)) == Illegal("5.1", "ge-ak-38 is not on the map")
    assert movement.path_cost(b, ["ge-ak-23"], col(5), phase="rail") == Illegal("5", "'rail' is not a phase units move in")
