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
from tests.efs_positions import (GD, H, M16, M25, PZ, case, cost, hx, map_copy, position, start, sumy, tutorial_motorized,
                                 tutorial_soviet_motorized, tutorial_soviet_movement)



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
    assert allowance(b.replace(declared=frozenset({hx("1310")})), "ax-35mot-25m", "reaction") == Fraction(7, 2)
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


# -- one-hex movement, infiltration, strategic movement, entry (11.9, 11.5, 11.3, 8.12) ----------------
def test_11_9_one_hex_movement_spends_the_whole_allowance() -> None:
    b = position({"ax-33pz-9pz": "2009"}, phase="motorized")
    assert cost(b, ["ax-33pz-9pz"], "2009 2008") == Illegal(
        "10.52", "the path costs 4 MP and the stack has 3 1/2 (one-hex movement may still take it one hex, 11.9)")
    assert cost(b, ["ax-33pz-9pz"], "2009 2008", mode=ONE_HEX) == Fraction(7, 2)
    r = reachable(b, ["ax-33pz-9pz"], "motorized")[hx("2008")]
    assert (r.cost, r.case) == (3.5, "11.9")
    assert case(cost(b, ["ax-33pz-9pz"], "2009 2008", mode=ONE_HEX, spent={"ax-33pz-9pz": H})) == "11.91"


def test_11_92_one_hex_not_from_zone_to_zone() -> None:
    b = position({"ax-619art": "1511", "so-295rd": "1612"})
    assert case(cost(b, ["ax-619art"], "1511 1512", mode=ONE_HEX)) == "11.92"
    # an infiltrator may (11.92's exception): the 35th in the Axis Movement phase
    b2 = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    assert cost(b2, ["ax-35mot-25m"], "1511 1512", mode=ONE_HEX) == 7


def test_11_5_infiltration() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == 7  # 11.54: the whole MA
    assert case(cost(b.replace(phase="motorized"), ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION)) == "11.53"
    assert case(cost(b, ["ax-35mot-25m"], "1511 1411", mode=INFILTRATION)) == "11.51"  # 1411 is in no zone
    # 11.52: the 1st Guards Motorized's MA of 5 is no yellow MA
    s = position({"so-6-1gdm": "1710", "ax-119mot-25m": "1709"}, phasing="soviet", phase="motorized")
    assert case(cost(s, ["so-6-1gdm"], "1710 1810", mode=INFILTRATION)) == "11.52"
    # 11.52b: cavalry only from non-clear into non-clear
    c = position({"so-72-108-9c": "1907", "ax-9rec-9pz": "1807"}, phasing="soviet", phase="movement")
    assert cost(c, ["so-72-108-9c"], "1907 1906", mode=INFILTRATION) == 6  # woods into hill
    assert case(cost(c, ["so-72-108-9c"], "1907 1908", mode=INFILTRATION)) == "11.51"  # 1908: no zone
    assert case(cost(c, ["so-72-108-9c"], "1907 1808", mode=INFILTRATION)) == "11.52"  # 1808 is clear


def test_11_3_strategic_movement() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"})
    assert allowance(b, "ax-20mot-10m", "movement", STRATEGIC) == Fraction(21, 2)  # 11.31: 7 and half again
    assert cost(b, ["ax-20mot-10m"], "1006 1106 1206 1306 1406", mode=STRATEGIC) == 2  # four clear road hexes
    assert case(cost(b, ["ax-20mot-10m"], "1006 1106 1107", mode=STRATEGIC)) == "11.34"  # off the road
    near = position({"ax-20mot-10m": "1006", "so-227rd": "1405"})
    assert case(cost(near, ["ax-20mot-10m"], "1006 1106 1206 1306", mode=STRATEGIC)) == "11.32"  # 1306 is 2 away
    off = position({"ax-20mot-10m": "1107", "so-295rd": "1612"})
    assert case(cost(off, ["ax-20mot-10m"], "1107 1106 1206", mode=STRATEGIC)) == "11.32"  # not on a road hex
    assert case(cost(b.replace(phase="motorized"), ["ax-20mot-10m"], "1006 1106", mode=STRATEGIC)) == "11.31"
    ruled = b.replace(interdicted=frozenset({hx("1206")}))
    assert case(cost(ruled, ["ax-20mot-10m"], "1006 1106 1206", mode=STRATEGIC)) == "13.23"
    far = reachable(b, ["ax-20mot-10m"], "movement", STRATEGIC)
    assert far[hx("1406")].cost == 2.0 and all(b.road(hx(r.path[-2]), hx(r.path[-1])) for r in far.values())


def test_8_12_reinforcements_pay_the_entry_hex() -> None:
    s = start().replace(phasing="soviet", phase="motorized")
    assert cost(s, GD[:3], "2202", enter=True) == H  # the road exit: the main road's 1/2
    assert cost(s, GD[:3], "2202 2302 2303", enter=True) == Fraction(3, 2)
    assert cost(s, GD[:3], "2302", enter=True) == 1  # no road exit at 2302: its clear 1
    assert cost(s, GD[:3], "2302 2303", enter=True) == Fraction(3, 2)
    assert case(cost(s, GD[:3], "2206", enter=True)) == "8.12"  # not an edge hex
    held = s.moved({"ax-9rec-9pz": hx("2303")})
    assert cost(held, GD[:3], "2202 2302", enter=True) == 2  # 1/2 + 1/2 + the recon's zone (10.64)
    assert reachable(held, list(GD[:3]), "motorized", entry=hx("2202"))[hx("2302")].cost == 2.0
    assert case(cost(held, GD[:3], "2202 2302 2402", enter=True)) == "10.65"


def test_reachable_offers_what_path_cost_accepts() -> None:
    for board, units, phase in ((start(), PZ, "movement"), (start(), ("ax-619art",), "movement"),
                                (tutorial_motorized(), PZ, "motorized"),
                                (tutorial_soviet_motorized(), ("so-129tb",), "motorized"),
                                (tutorial_soviet_movement(), ("so-72-108-9c",), "movement")):
        found = reachable(board, list(units), phase)
        assert found
        for h, r in found.items():
            mode = ONE_HEX if r.case == "11.9" else "normal"
            got = path_cost(board, list(units), [hx(p) for p in r.path], phase, mode)
            assert got == Fraction(r.cost).limit_denominator(4), (h, r, got)


def test_fmt_writes_mp_as_the_book_does() -> None:
    assert [fmt(Fraction(9, 2)), fmt(Fraction(1, 2)), fmt(3)] == ["4 1/2", "1/2", "3"]


# -- the tutorial, PB 10.4 ---------------------------------------------------------------------------
def test_pb_10_4_axis_movement_phase() -> None:
    b = start()
    reach = {k: reachable(b, list(us), "movement") for k, us in (("pz", PZ), ("16", M16), ("25", M25))}
    # "all units have more than enough MPs": 3 of 7 each, the last 1 for the Soviet zone
    assert reach["pz"][hx("1408")].cost == 3.0 and reach["16"][hx("1409")].cost == 3.0
    assert reach["25"][hx("1411")].cost == 3.0
    assert reachable(b, ["ax-619art"], "movement")[hx("1309")].cost == 1.0


def test_pb_10_4_no_overrun_at_the_start() -> None:
    b = start().moved({u: hx("1408") for u in PZ})
    assert overrun.check(b, PZ, "1508", "movement") == Illegal(
        "11.42", "odds of 10 to 3 are under the 5-1 an overrun needs")


def test_pb_10_4_axis_motorized_phase() -> None:
    b = tutorial_motorized()
    assert cost(b, ["ax-35mot-25m"], "1510 1511") == 2
    assert cost(b, ["ax-119mot-25m"], "1510 1610") == 2 and cost(b, ["ax-119mot-25m"], "1510 1610 1709") == 3
    assert cost(b, PZ, "1508 1609") == 2 and cost(b, PZ, "1508 1609 1708") == Fraction(5, 2)
    # the stack splits in 1708: the recon goes on by road to Lebedin with all its 4 1/2 MP
    assert cost(b, ["ax-9rec-9pz"], "1508 1609 1708 1809 1908") == 4
    assert cost(b, ["ax-9rec-9pz"], "1508 1609 1708 1809 1908 2009") == allowance(b, "ax-9rec-9pz", "motorized") == \
        Fraction(9, 2)
    assert cost(b, PZ[:3], "1508 1609 1708 1808") == 3
    after = b.moved({u: hx("1808") for u in PZ[:3]})
    spent = {u: Fraction(3) for u in PZ[:3]}
    # the last 1/2 MP enters nothing ahead: it only leads back down the road
    back = reachable(after, list(PZ[:3]), "motorized", spent=spent)
    assert {h: r.cost for h, r in back.items()} == {hx("1708"): 0.5}
    assert cost(b, M16[:2], "1409 1408 1507") == 3
    assert cost(b, ["ax-20mot-10m"], "1407 1306") == 1


def test_pb_10_4_soviet_motorized_phase() -> None:
    b = tutorial_soviet_motorized()
    assert cost(b, ["so-227rd"], "1503 1404 1304 1305") == Fraction(5, 2)
    assert cost(b, ["so-129tb"], "1703 1603 1503 1404 1304 1305") == Fraction(7, 2)
    assert cost(b, ["so-1tb"], "1504 1405 1406") == 3
    assert cost(b, ["so-72-108-9c"], "1803 1804 1805 1806") == 3 == allowance(b, "so-72-108-9c", "motorized")
    assert cost(b, GD, "2202 2302 2303", enter=True) == Fraction(3, 2)
    at_sumy = b.moved({u: hx("2303") for u in GD})
    spent = {u: Fraction(3, 2) for u in GD}
    # the rocket battalion: its 2105 -> 2107 step needs 2106 between (rulings): 5 of its 6 1/2
    assert allowance(b, "so-2-4gdr", "motorized") == 8
    assert cost(at_sumy, ["so-2-4gdr"], "2303 2304 2205 2105 2106 2107", spent=spent) == 5
    assert case(cost(at_sumy, ["so-2-4gdr"], "2303 2304 2205 2105 2107", spent=spent)) == "10.4"
    assert cost(at_sumy, GD[:3], "2303 2204 2104 2005", spent=spent) == Fraction(5, 2)  # 1 MP a non-clear hex
    at_2005 = at_sumy.moved({u: hx("2005") for u in GD[:3]})
    four = {u: Fraction(4) for u in GD[:3]}
    assert cost(at_2005, GD[1:3], "2005 1905", spent=four) == H
    assert cost(at_2005, ["so-6-1gdm"], "2005 1904", spent=four) == 1  # after the split (rulings)


def test_pb_10_4_axis_reaction() -> None:
    b = tutorial_soviet_motorized().moved({"so-227rd": hx("1305"), "so-129tb": hx("1305"), "so-1tb": hx("1406")})
    r = b.replace(phase="reaction", declared=frozenset({hx("1306")}))
    # 10.64 exception one: no MP for the zone, entering a hex a friendly unit holds (10.63c)
    assert cost(r, ["ax-341rec-16m"], "1409 1308 1307 1306", "reaction") == 3
    assert allowance(r, "ax-341rec-16m", "reaction") == Fraction(9, 2)
    # the rest of the 16th Motorized begins next to the 5+136/9, in its zone (14.11a)
    assert allowance(r, "ax-60mot-16m", "reaction") == Illegal(
        "14.11", "ax-60mot-16m begins in an enemy zone or a Defender Hex")
    assert allowance(r, "ax-9rec-9pz", "reaction") == Illegal(
        "14.11", "ax-9rec-9pz is not within three hexes of a Defender Hex")
    empty = r.moved({"ax-20mot-10m": None})
    assert case(cost(empty, ["ax-341rec-16m"], "1409 1308 1307 1306", "reaction")) == "14.13"


def test_14_13_reacting_units_next_to_the_enemy() -> None:
    b = position({"ax-35mot-25m": "1409", "ax-20mot-10m": "1507", "ax-119mot-25m": "1407",
                  "so-5-136-9c": "1506", "so-1tb": "1406"}, phasing="soviet", phase="reaction",
                 declared=frozenset({hx("1507")}))
    assert cost(b.moved({"ax-119mot-25m": None}), ["ax-35mot-25m"], "1409 1408 1407", "reaction") == Illegal(
        "14.13", "a reacting unit moves next to the enemy only into a hex friendly units hold (1407 holds none)")
    assert cost(b, ["ax-35mot-25m"], "1409 1408 1507", "reaction") == 2  # no MP for the zone (10.64)
    # a unit with a zone goes next to the enemy only into the Defender Hex, not into 1407
    assert cost(b, ["ax-35mot-25m"], "1409 1408 1407", "reaction") == Illegal(
        "14.13", "a reacting unit with a zone goes next to the enemy only into a Defender Hex")


def test_pb_10_4_soviet_movement_phase() -> None:
    b = tutorial_soviet_movement()
    assert cost(b, ["so-72-108-9c"], "1806 1906 2007 2107") == Fraction(9, 2)
    assert cost(b, ["so-5-136-9c"], "1506 1505 1605") == 3
    assert cost(b, ["so-6-1gdm"], "1904 1804 1703") == 2
    assert cost(b, ["so-6-1gdm"], "1904 1804 1703 1603") == Fraction(5, 2) == allowance(b, "so-6-1gdm", "movement")
    assert cost(b, ["so-12-1gdm", "so-175-1gdm"], "1905 1906") == 2
    assert case(cost(b, ["so-227rd"], "1305 1304")) == "10.24"  # activated: no second move
    # the 1st Tank's 1/2 + 2: 10.74's fourth example prices 1505 off the road, so 3 > 2 1/2 (rulings)
    assert cost(b, ["so-1tb"], "1406 1505") == H
    assert cost(b, ["so-1tb"], "1406 1505 1605") == Illegal("10.52", "the path costs 3 MP and the stack has 2 1/2")


# -- overrun (11.4) ----------------------------------------------------------------------------------
def test_11_41_who_may_overrun() -> None:
    b = position({"ax-619art": "1804", "ax-20mot-10m": "1804", "so-11-96-5c": "1805"})
    assert case(overrun.check(b, ["ax-619art", "ax-20mot-10m"], "1805", "movement")) == "11.42"  # 11.42f
    s = position({"so-5-136-9c": "1804", "so-72-108-9c": "1804", "ax-619art": "1805"}, phasing="soviet")
    assert overrun.check(s, ["so-5-136-9c", "so-72-108-9c"], "1805", "movement") == Illegal(
        "11.42", "odds of 4 to 1 are under the 7-1 an overrun needs")  # 11.41: Soviet cavalry may; 7-1
    ax = position({"ax-9rec-9pz": "1804", "so-11-96-5c": "1805"})
    assert overrun.check(ax.replace(phase="motorized"), ["ax-9rec-9pz"], "1805", "motorized") == Illegal(
        "11.42", "odds of 2 to 2 are under the 5-1 an overrun needs")
    s2 = s.moved({"so-12-1gdm": hx("1804"), "so-6-1gdm": hx("1804")})
    got = overrun.check(s2, ["so-5-136-9c", "so-72-108-9c", "so-12-1gdm"], "1805", "movement")
    assert isinstance(got, overrun.Overrun)
    assert (got.attack, got.defence, got.odds, got.min_odds, got.all_artillery) == (8, 1, 8, 7, True)
    assert case(overrun.check(b, ["ax-20mot-10m"], "1805", "reaction")) == "11.4"


def test_11_42a_odds() -> None:
    b = position({"ax-10mot-9pz": "1804", "ax-11mot-9pz": "1804", "so-11-96-5c": "1805"})
    assert overrun.check(b, ["ax-10mot-9pz"], "1805", "movement") == Illegal(
        "11.42", "odds of 3 to 2 are under the 5-1 an overrun needs")
    b2 = b.replace(lost={"so-11-96-5c": 0}).moved({"ax-33pz-9pz": hx("1804"), "ax-9rec-9pz": hx("1804")})
    got = overrun.check(b2, ["ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz"], "1805", "movement")
    assert isinstance(got, overrun.Overrun) and (got.attack, got.defence, got.odds) == (14, 2, 7)


def test_11_42c_city_needs_an_engineer() -> None:
    b = position({u: "2302" for u in PZ} | {"so-2-4gdr": "2303"})
    assert case(overrun.check(b, PZ, "2303", "movement")) == "11.42"


def test_11_42d_no_overrun_from_a_hex_in_two_enemy_zones() -> None:
    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805", "so-2-4gdr": "1703"})
    assert isinstance(overrun.check(b, PZ, "1805", "movement"), overrun.Overrun)  # the rocket has no zone
    b2 = b.moved({"so-40a-hq": hx("1703")})
    assert overrun.check(b2, PZ, "1805", "movement") == Illegal(
        "11.42", "the stack's hex lies in the zone of enemy units in 1703 as well")


def test_11_43b_overrun_cost() -> None:
    b = position({u: "1708" for u in PZ} | {"so-11-96-5c": "1809"}, phase="motorized")
    got = overrun.check(b, PZ, "1809", "motorized")
    assert isinstance(got, overrun.Overrun) and got.cost == Fraction(3, 2)  # 1 + the minor road's 1/2
    m = map_copy()
    m.terrain_of[hx("1805")] = "hill_woods"
    m.set_side_features(hx("1804"), hx("1805"), frozenset({"minor_river"}))
    b2 = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, gmap=m)
    got2 = overrun.check(b2, PZ, "1805", "movement")
    assert isinstance(got2, overrun.Overrun) and got2.cost == 6 and got2.terrain == ("hill", "woods")
    assert case(overrun.check(b2, PZ, "1805", "movement", spent={u: Fraction(3, 2) for u in PZ})) == "11.42"


def test_11_42b_no_overrun_in_mud() -> None:
    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, weather="mud")
    assert overrun.check(b, PZ, "1805", "movement") == Illegal("11.42", "no overrun in mud weather")


def test_11_43l_after_an_overrun() -> None:
    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    got = overrun.check(b, PZ, "1805", "movement")
    assert isinstance(got, overrun.Overrun)
    assert overrun.after_success(b.moved({"so-11-96-5c": hx("1807")}), got) == (hx("1805"), True)
    assert overrun.after_success(b.moved({"so-11-96-5c": hx("1806")}), got) == (hx("1805"), False)
    assert overrun.after_failure(got) == hx("1804")


def test_10_76_an_unbridged_major_river_takes_a_whole_ma() -> None:
    m = map_copy()
    m.set_side_features(hx("1804"), hx("1805"), frozenset({"major_river"}))
    m.set_side_features(hx("1903"), hx("1904"), frozenset({"major_river", "minor_road"}))  # a road bridge
    b = position({"ax-20mot-10m": "1804", "ax-33pz-9pz": "1804", "so-11-96-5c": "1704"}, gmap=m)
    assert case(cost(b, ["ax-20mot-10m"], "1804 1805")) == "10.76"
    assert cost(b, ["ax-20mot-10m"], "1804 1805", mode=ONE_HEX) == 7  # 10.76c: the whole MA
    assert case(cost(b, ["ax-33pz-9pz"], "1804 1805", mode=ONE_HEX)) == "10.76"  # armour only at a bridge
    assert case(cost(b.replace(phase="motorized"), ["ax-20mot-10m"], "1804 1805", mode=ONE_HEX)) == "10.76"
    # 10.76a: over a road bridge at the road rate: 1903 off the road (1), clear 1904 by the road (1/2)
    assert cost(b, ["ax-20mot-10m"], "1804 1903 1904") == Fraction(3, 2)
    # zones do not cross it (note to 10.67)
    s = position({"so-11-96-5c": "1805"}, gmap=m)
    assert not in_enemy_zoc(s, hx("1804"), "axis") and in_enemy_zoc(s, hx("1806"), "axis")


def test_11_43f_the_overrun_table_reads_our_facts() -> None:
    from kiev_tui.games.efs_ktr.combat import resolve_overrun
    from kiev_tui.games.efs_ktr.tables import load_more_tables

    m = map_copy()
    m.terrain_of[hx("1805")] = "hill"
    b = position({u: "1804" for u in PZ} | {"ax-60mot-16m": "1804", "so-11-96-5c": "1805"}, gmap=m,
                 lost={"ax-33pz-9pz": 2})
    got = overrun.check(b, [*PZ, "ax-60mot-16m"], "1805", "movement")
    assert isinstance(got, overrun.Overrun) and (got.attack, got.defence, got.terrain) == (13, 2, ("hill",))
    out = resolve_overrun(got.table_input(), load_more_tables(sumy().tables_path), 5)
    assert not isinstance(out, Illegal) and (out.modified, out.succeeded) == (7, True)  # 6-1: no odds DRM; hill +2
