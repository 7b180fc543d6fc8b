"""Kiev to Rostov ground movement, zones of control, stacking and overrun, on the Sumy map.

Case numbers are the series rules' (EFS); ``pb_`` tests replay the Sumy tutorial (PB 10.4) and
check that every move it prices costs exactly the MP it says (docs/rulings.md, EFS: movement,
zones and retreat, lists the tutorial's slips and what we follow).
"""

from __future__ import annotations

from fractions import Fraction

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr import overrun, stacking
from kiev_tui.games.efs_ktr.board import AIR_READY, PENDING, Board
from kiev_tui.games.efs_ktr.movement import (INFILTRATION, ONE_HEX, STRATEGIC, allowance, fmt, hex_cost, path_cost,
                                             reachable)
from kiev_tui.games.efs_ktr.zoc import contested, in_enemy_zoc, projectors, uncontested_enemy
from tests.efs_positions import (GD, M16, M25, PZ, hx, map_copy, position, start, tutorial_motorized,
                                 tutorial_soviet_motorized, tutorial_soviet_movement)

H = Fraction(1, 2)


def cost(board: Board, units: tuple[str, ...] | list[str], path: str, phase: str | None = None,
         **kw: object) -> Fraction | Illegal:
    return path_cost(board, list(units), [hx(h) for h in path.split()], phase or board.phase, **kw)  # type: ignore[arg-type]


def case(result: object) -> str:
    assert isinstance(result, Illegal), result
    return result.case


# -- the Board ---------------------------------------------------------------------------------------
def test_board_from_scenario_holds_the_sumy_start() -> None:
    b = start()
    assert b.hex_of["so-295rd"] == hx("1612") and b.at(hx("1208")) == tuple(sorted(PZ))
    assert b.step("ax-33pz-9pz") == 2 and b.attack("ax-33pz-9pz") == 2  # PB 10.4: set up reduced
    assert b.boxes["ax-he111"] == AIR_READY and b.boxes["so-6-1gdm"] == PENDING
    assert b.box("so-6-1gdm") == PENDING and b.box("so-295rd") is None
    assert (b.game_turn, b.phase, b.phasing, b.weather, b.supply_disregarded) == (50, "movement", "axis", "dry", True)
    assert b.terrain(hx("2008")) == ("hill", True) and b.is_clear(hx("2009")) and not b.is_clear(hx("1908"))
    assert b.road(hx("2202"), hx("2302")) == "main_road" and b.river(hx("1305"), hx("1306")) == "minor_river"


# -- stacking (3.3) ----------------------------------------------------------------------------------
def test_3_31_stacking_points_are_the_counters_factor() -> None:
    b = start()
    assert [stacking.points(b, u) for u in ("so-295rd", "ax-9rec-9pz", "so-40a-hq", "ax-he111")] == [4, 1, 0, 0]
    assert stacking.hex_points(b, hx("1208")) == 7  # 2 + 2 + 2 + 1


def test_3_32_ten_points_a_hex_checked_at_the_end_of_a_phase() -> None:
    b = position({"so-295rd": "1805", "so-227rd": "1805", "so-1tb": "1805", "so-129tb": "1806"})
    assert stacking.check_hex(b, hx("1805")) is None  # 4 + 4 + 2 = 10
    bad = stacking.check_hex(b, hx("1805"), adding=["so-129tb"])
    assert bad == Illegal("3.32", "1805 would hold 12 stacking points; a hex holds at most 10")
    over = b.moved({"so-129tb": hx("1805")})
    assert stacking.end_of_phase(over, "movement") == {hx("1805"): 2}
    assert stacking.end_of_phase(over, "engineering") == {}
    # 10.51: a moving stack passes through the full hex in the middle of its move
    assert cost(b.replace(phasing="soviet", phase="motorized"), ["so-129tb"], "1806 1805 1804") == 2


def test_3_33_an_hq_adds_nothing() -> None:
    b = position({"so-295rd": "1805", "so-227rd": "1805", "so-1tb": "1805"})
    assert stacking.check_hex(b, hx("1805"), adding=["so-40a-hq"]) is None


# -- zones of control (3.4) --------------------------------------------------------------------------
def test_3_4_a_unit_exerts_a_zone_into_its_six_neighbours() -> None:
    b = position({"so-295rd": "1612"})
    zone = {h for h in b.gmap.neighbours(hx("1612"))}
    assert all(in_enemy_zoc(b, h, "axis") for h in zone) and not in_enemy_zoc(b, hx("1610"), "axis")
    assert projectors(b, hx("1511"), "axis") == frozenset({hx("1612")})


def test_3_42_no_zoc_band() -> None:
    alone = position({"so-2-4gdr": "2107"})
    assert not in_enemy_zoc(alone, hx("2108"), "axis")
    with_cav = position({"so-2-4gdr": "2107", "so-72-108-9c": "2107"})
    assert in_enemy_zoc(with_cav, hx("2108"), "axis")


def test_3_44_a_minor_river_does_not_stop_a_zone() -> None:
    b = position({"ax-20mot-10m": "1306"})
    assert in_enemy_zoc(b, hx("1305"), "soviet")  # PB 10.4: the 227th pays for it across the Sula


def test_3_46_contested_hexes() -> None:
    b = position({"ax-20mot-10m": "1306", "so-227rd": "1505"})
    assert contested(b, hx("1406")) and not uncontested_enemy(b, hx("1406"), "soviet")
    assert uncontested_enemy(b, hx("1206"), "soviet") and not contested(b, hx("1206"))


def test_3_47_overrun_marker_lifts_the_zone() -> None:
    b = position({"so-295rd": "1612"}, overrun_marked=frozenset({"so-295rd"}))
    assert not in_enemy_zoc(b, hx("1511"), "axis")


def test_10_79_no_zone_into_a_major_city() -> None:
    m = map_copy()
    m.settlement_of[hx("1306")] = "major_city"
    b = position({"so-227rd": "1305"}, gmap=m)
    assert not in_enemy_zoc(b, hx("1306"), "axis") and in_enemy_zoc(b, hx("1304"), "axis")


# -- allowances (10.1-10.3, 10.58, Movement Phase Chart) ---------------------------------------------
def test_10_1_movement_phase_chart() -> None:
    b = start()
    assert allowance(b, "ax-33pz-9pz", "movement") == 7 and allowance(b, "ax-33pz-9pz", "motorized") == Fraction(7, 2)
    assert allowance(b, "ax-9rec-9pz", "motorized") == Fraction(9, 2)
    assert allowance(b, "so-6-1gdm", "motorized") == 5 and allowance(b, "so-6-1gdm", "movement") == Fraction(5, 2)
    assert allowance(b, "so-72-108-9c", "motorized") == 3 and allowance(b, "so-72-108-9c", "movement") == 6
    assert allowance(b, "ax-35mot-25m", "reaction") == Fraction(7, 2)
    assert case(allowance(b, "so-227rd", "reaction")) == "10.3"


def test_10_58_orange_ma_has_no_motorized_phase() -> None:
    b = tutorial_motorized()
    assert cost(b, ["ax-619art"], "1309 1310") == Illegal(
        "10.58", "ax-619art does not move in the Axis Motorized Movement phase")  # PB 10.4: the 619th stays
    s = start().replace(phasing="soviet", phase="motorized")
    assert case(allowance(s, "so-126-205aa", "motorized")) == "10.58"


def test_10_24_activated_units() -> None:
    b = start().replace(phasing="soviet", phase="motorized", activated=frozenset({"so-227rd"}))
    assert allowance(b, "so-227rd", "motorized") == 4 and case(allowance(b, "so-295rd", "motorized")) == "10.58"
    assert case(allowance(b.replace(phase="movement"), "so-227rd", "movement")) == "10.24"


def test_10_53_a_stack_moves_at_its_slowest() -> None:
    b = position({"ax-33pz-9pz": "1804", "ax-619art": "1804"})
    assert cost(b, ["ax-33pz-9pz", "ax-619art"], "1804 1805 1806 1807 1808") == 4
    assert case(cost(b, ["ax-33pz-9pz", "ax-619art"], "1804 1805 1806 1807 1808 1809")) == "10.52"
    assert cost(b, ["ax-33pz-9pz"], "1804 1805 1806 1807 1808 1809") == 5


# -- terrain (10.7) ----------------------------------------------------------------------------------
def test_10_72_woods_on_hill_and_a_river() -> None:
    m = map_copy()
    m.set_side_features(hx("2009"), hx("2008"), frozenset({"minor_river"}))
    b = position({"ax-11mot-9pz": "2009"}, gmap=m)
    assert hex_cost(b, hx("2008")) == 4  # 2 hill + 2 woods (10.72)
    assert cost(b, ["ax-11mot-9pz"], "2009 2008") == 5  # the book's example: +1 for the river


def test_10_74_road_rates() -> None:
    b = position({"ax-9rec-9pz": "1708", "so-2-4gdr": "2202"}, phase="motorized")
    assert cost(b, ["ax-9rec-9pz"], "1708 1809") == H  # minor road into clear
    assert cost(b, ["ax-9rec-9pz"], "1708 1809 1908") == Fraction(3, 2)  # 1 into woods on the road
    m = map_copy()
    m.terrain_of[hx("2302")] = "hill_woods"
    s = position({"so-6-1gdm": "2202"}, gmap=m, phasing="soviet", phase="motorized")
    assert cost(s, ["so-6-1gdm"], "2202 2302") == H  # 10.74 example one: a main road 1/2 into any hex
    assert cost(s, ["so-6-1gdm"], "2202 2302 2303") == 1


def test_10_74_road_entry_then_off_road_pays_the_hex() -> None:
    b = position({"so-1tb": "1406"}, phasing="soviet", phase="motorized")
    assert cost(b, ["so-1tb"], "1406 1505") == H
    assert cost(b, ["so-1tb"], "1406 1505 1605") == 3  # 1505 off the road (1) + 1605 over the river (2)
    assert reachable(b, ["so-1tb"], "motorized")[hx("1605")].cost == 3.0


def test_10_74_road_entry_spares_the_river() -> None:
    b = position({"so-227rd": "1305"}, phasing="soviet", phase="movement")
    assert cost(b, ["so-227rd"], "1305 1306") == H  # minor road over the Sula into a clear town
    # leaving 1306 off the road: 1306 at its own cost (1), the river still spared, then 1307 (1)
    assert cost(b, ["so-227rd"], "1305 1306 1307") == 2
    assert cost(b, ["so-227rd"], "1305 1405") == 2  # no road over the Sula here: 1 + 1


def test_10_77_no_unit_enters_a_lake() -> None:
    m = map_copy()
    m.terrain_of[hx("1805")] = "lake"
    b = position({"ax-33pz-9pz": "1804"}, gmap=m)
    assert cost(b, ["ax-33pz-9pz"], "1804 1805") == Illegal("10.77", "1805 is a lake: no unit enters it")
    assert hx("1805") not in reachable(b, ["ax-33pz-9pz"], "movement")


def test_10_78_motorized_units_keep_to_roads_in_swamp() -> None:
    b = position({"ax-35mot-25m": "1512", "so-227rd": "1712"}, phase="movement")
    s = position({"so-227rd": "1712"}, phasing="soviet", phase="movement")
    assert cost(s, ["so-227rd"], "1712 1713") == 2  # foot: the swamp's 2
    assert case(cost(b, ["ax-35mot-25m"], "1512 1613")) == "10.78"
    assert hx("1613") not in reachable(b, ["ax-35mot-25m"], "movement")


def test_10_54_never_into_an_enemy_hex() -> None:
    b = start().moved({u: hx("1408") for u in PZ})
    assert cost(b, PZ, "1408 1508") == Illegal(
        "10.54", "1508 holds enemy units: only an overrun attacks them on the move")


def test_10_55_never_off_the_map() -> None:
    b = position({"ax-33pz-9pz": "1006"})
    off = Hex(hx("1006").col - 1, hx("1006").row)
    assert path_cost(b, ["ax-33pz-9pz"], [hx("1006"), off], "movement") == Illegal("10.55", "no unit moves off the map")


# -- enemy zones (10.6) ------------------------------------------------------------------------------
def test_10_64_entering_an_enemy_zone_costs_one_more() -> None:
    b = tutorial_motorized()
    assert cost(b, ["ax-35mot-25m"], "1510 1511") == 2  # PB 10.4: 1 clear + 1 for the 295th's zone
    assert cost(b.moved({"so-295rd": None}), ["ax-35mot-25m"], "1510 1511") == 1


def test_10_65_units_stop_on_entering_an_enemy_zone() -> None:
    b = tutorial_motorized()
    assert cost(b, ["ax-35mot-25m"], "1510 1511 1411") == Illegal(
        "10.65", "1511 is in an enemy zone: the units stop there")
    assert hx("1411") in reachable(b, ["ax-35mot-25m"], "motorized")  # round about, not through it


def test_10_66_not_straight_from_one_enemy_zone_to_another() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"}, phase="motorized")
    assert case(cost(b, ["ax-35mot-25m"], "1511 1512")) == "10.66"
    # 10.67: only out through 1412, free of zones, and back in: 1 + 1 + 1
    assert reachable(b, ["ax-35mot-25m"], "motorized")[hx("1512")].path == ("1511", "1412", "1512")
    assert reachable(b, ["ax-35mot-25m"], "motorized")[hx("1512")].cost == 3.0


def test_10_67_leave_a_zone_and_come_back_into_one() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    # out to 1510 (1), back in at 1611 over the river (1 + 1) with the zone's 1
    assert cost(b, ["ax-35mot-25m"], "1511 1510 1611") == 4
    assert reachable(b, ["ax-35mot-25m"], "movement")[hx("1611")].cost == 4.0
