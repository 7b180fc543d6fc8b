"""Supply sources and the supply graph (10.15, 10.16, 12.11, 19.82, 19.84) that mutation
testing found unpinned.

Fixture map: road exits 0105 (west edge, area A) and 1005 (east edge, area K), rail exit
1007 (east, area K); a major river between hexrows 05 and 06 bridged by the road at
0505/0605 and the railroad at 0507/0607; the city Testgrad 0505 on the west bank; a lake at
0909; swamps at 0707 and 0608.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View
from kiev_tui.games.spi_kiev.supply import SupplyStatus, closed_to, loc_links, supply_links, supply_sources, swamp_hexes

from tests.conftest import position


def sources(game: Game, placements: dict[str, str], side: str) -> list[str]:
    position(game, placements, turn=2, reinforcements=False)
    return [str(h) for h in supply_sources(View(game), side)]


def test_19_82_german_sources_are_road_exits_on_the_north_west_and_south_edges(mini: Game) -> None:
    # 1005 is a road exit too, but on the east edge.
    assert sources(mini, {"so-rifle-1": "0905"}, GERMAN) == ["0105"]


def test_19_82_a_soviet_occupied_exit_feeds_no_german(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "0105"}, GERMAN) == []


def test_19_82_an_exit_in_area_n_feeds_no_german(mini: Game) -> None:
    from kiev_tui.engine.mapdata import Area
    mini.scenario.map.areas["N"] = Area("N", SOVIET, frozenset({H("0105")}))
    assert sources(mini, {"so-rifle-1": "0905"}, GERMAN) == []


def test_19_84_soviet_sources_are_east_road_and_rail_exits_of_areas_k_to_n(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "0905"}, SOVIET) == ["1005", "1007"]


def test_19_84_a_german_held_or_controlled_exit_feeds_no_soviet(mini: Game) -> None:
    # ge-inf-1 stands on 1005; ge-inf-2's zone covers 1007.
    assert sources(mini, {"ge-inf-1": "1005", "ge-inf-2": "0907", "so-rifle-1": "0105"}, SOVIET) == []


def test_8_25_19_84_a_soviet_unit_on_the_exit_keeps_it_open_in_a_german_zone(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "1007", "ge-inf-2": "0907"}, SOVIET) == ["1005", "1007"]


def test_19_84_without_areas_k_to_n_the_soviets_have_no_source(mini: Game) -> None:
    del mini.scenario.map.areas["K"]
    assert sources(mini, {"so-rifle-1": "0905"}, SOVIET) == []


def test_10_15_10_16_the_supply_graph(mini: Game) -> None:
    links = {str(h): {str(n): c for n, c in lst} for h, lst in supply_links(mini.scenario.map).items()}
    # A friendly city on the bank may open an unbridged crossing (10.15): 0505 to 0604.
    assert links["0505"] == {"0504": None, "0604": ("0505", ""), "0605": None, "0506": None,
                             "0405": None, "0404": None}
    assert links["0604"]["0505"] == ("", "0505")
    # No city, no bridge: no link over the major river at 0504/0604.
    assert "0604" not in links["0504"] and "0603" not in links["0504"]
    # The railroad bridge 0507/0607 carries supply.
    assert links["0507"]["0607"] is None
    # Never into or out of a lake (10.16).
    assert links["0909"] == {} and "0909" not in links["0908"]


def test_12_11_the_swamps_are_known_to_the_supply_graph(mini: Game) -> None:
    assert swamp_hexes(mini.scenario.map) == frozenset({H("0707"), H("0608")})


# -- sources: every qualifying exit, however the exits sort ------------------------------------

def test_19_82_north_and_south_exits_feed_the_germans_an_east_exit_does_not(mini: Game) -> None:
    # 0501 is on the north edge; 1010 lies on the south and east edges; 1005 (east only)
    # sorts before 1010 and is skipped.
    gmap = mini.scenario.map
    gmap.road_exits = gmap.road_exits | {H("0501"), H("1010")}
    assert sources(mini, {"so-rifle-1": "0905"}, GERMAN) == ["0105", "0501", "1010"]


def test_19_82_an_exit_in_area_n_or_held_by_the_soviets_is_skipped_not_the_ones_after(mini: Game) -> None:
    from kiev_tui.engine.mapdata import Area
    gmap = mini.scenario.map
    gmap.road_exits = gmap.road_exits | {H("0110"), H("0101")}
    gmap.areas["N"] = Area("N", SOVIET, frozenset({H("0101")}))
    # 0101 is in area N, 0105 is Soviet-held; 0110 (west and south edges) still feeds.
    assert sources(mini, {"so-rifle-1": "0105"}, GERMAN) == ["0110"]


def test_19_84_each_of_areas_k_l_m_n_holds_soviet_sources(mini: Game) -> None:
    from kiev_tui.engine.mapdata import Area
    areas = mini.scenario.map.areas
    k = areas.pop("K")
    for name in ("L", "M", "N"):
        areas[name] = Area(name, SOVIET, k.hexes)
        assert sources(mini, {"so-rifle-1": "0905"}, SOVIET) == ["1005", "1007"], name
        del areas[name]


def test_19_84_a_german_held_exit_is_skipped_not_the_exits_after_it(mini: Game) -> None:
    assert sources(mini, {"ge-inf-1": "1005", "so-rifle-1": "0105"}, SOVIET) == ["1007"]


# -- the supply graph and the hexes closed to a line ---------------------------------------------

def test_10_16_every_open_neighbour_of_a_lake_keeps_its_links(mini: Game) -> None:
    links = {str(h): {str(n): c for n, c in lst} for h, lst in supply_links(mini.scenario.map).items()}
    # 0909 (the lake) comes fourth among 0908's neighbours; the two after it are still linked.
    assert links["0908"] == {"0907": None, "1007": None, "1008": None, "0808": None, "0807": None}


def test_10_16_11_31_a_line_of_communications_never_crosses_a_lake(mini: Game) -> None:
    gm = mini.scenario.map
    gm.set_side_features(H("0803"), H("0804"), frozenset({"lake"}))
    links = {str(h): [str(n) for n in ns] for h, ns in loc_links(gm).items()}
    assert links["0803"] == ["0802", "0903", "0904", "0704", "0703"]  # 0804 is behind the lake hexside
    assert links["0908"] == ["0907", "1007", "1008", "0808", "0807"]
    assert links["0909"] == []


def test_12_1_8_25_hexes_closed_to_each_side(mini: Game) -> None:
    # A German stack at 0505 and a Soviet one at 0604 face each other over the major river
    # (no zone across it, 8.12); so-rifle-2 at 0404 sits in the German zone and opens it.
    position(mini, {"ge-inf-1": "0505", "so-rifle-1": "0604", "so-rifle-2": "0404"}, turn=2,
             reinforcements=False)
    view = View(mini)
    assert sorted(map(str, closed_to(view, SOVIET))) == ["0405", "0504", "0505", "0506"]
    assert sorted(map(str, closed_to(view, GERMAN))) == [
        "0304", "0305", "0403", "0404", "0405", "0504", "0603", "0604", "0605", "0704", "0705"]


# -- the flood: 10.15 crossings at a friendly city, 12.11 swamps -------------------------------

def unreached(game: Game, side: str) -> list[str]:
    line = View(game).supply.lines[side]
    return sorted(str(h) for h in game.scenario.map.hexes() if not line.reaches(h))


def test_10_15_a_german_line_crosses_the_unbridged_river_at_a_german_city(mini: Game) -> None:
    # Soviet units hold both bridges' east ends; ge-inf-1 across the river at 0604 is fed
    # only over the river hexside of Testgrad (0505), and only while Testgrad is German.
    pl = {"so-rifle-1": "0605", "so-rifle-2": "0607", "ge-inf-1": "0604"}
    position(mini, pl, turn=2, reinforcements=False)
    mini.state.control["0505"] = "german"
    assert View(mini).supply.status("ge-inf-1") == SupplyStatus(True, True, None, "")
    assert View(mini).supply.trace("ge-inf-1") == [H(x) for x in ("0604", "0505", "0404", "0304", "0204", "0105")]
    # Everything but the Soviet stacks and their zone (and the lake) is reached.
    assert unreached(mini, GERMAN) == ["0605", "0606", "0607", "0608", "0705", "0706", "0707", "0708", "0909"]


def test_10_15_no_crossing_while_the_city_is_soviet(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0605", "so-rifle-2": "0607", "ge-inf-1": "0604"}, turn=2,
             reinforcements=False)
    assert View(mini).supply.status("ge-inf-1") == SupplyStatus(
        False, True, None, "19.82: no line of supply to a north, west or south road exit")
    assert View(mini).supply.trace("ge-inf-1") == []
    assert unreached(mini, GERMAN) == sorted(
        f"{c:02d}{r:02d}" for c in range(6, 11) for r in range(1, 11))


def test_10_15_the_crossing_serves_only_a_line_that_reaches_the_city(mini: Game) -> None:
    # Testgrad is German, but so-rifle-3's zone covers it: no German line gets there to cross.
    position(mini, {"so-rifle-1": "0605", "so-rifle-2": "0607", "ge-inf-1": "0604", "so-rifle-3": "0405"},
             turn=2, reinforcements=False)
    mini.state.control["0505"] = "german"
    assert View(mini).supply.status("ge-inf-1").in_supply is False
    assert "0505" in unreached(mini, GERMAN) and "0604" in unreached(mini, GERMAN)


def test_10_15_a_soviet_line_crosses_westward_at_a_soviet_city(mini: Game) -> None:
    # German units hold both bridges' east ends; so-rifle-1 opens 0604 (8.25) and the line
    # crosses from it into Soviet Testgrad, then spreads over the whole west bank.
    pl = {"ge-inf-1": "0605", "ge-inf-2": "0607", "so-rifle-1": "0604", "so-rifle-2": "0505"}
    position(mini, pl, turn=1, reinforcements=False)
    sup = View(mini).supply
    assert sup.status("so-rifle-2") == SupplyStatus(True, False, None, "")
    assert sup.trace("so-rifle-2") == [H(x) for x in ("0505", "0604", "0704", "0804", "0905", "1005")]
    assert unreached(mini, SOVIET) == ["0605", "0606", "0607", "0608", "0705", "0706", "0707", "0708", "0909"]
    mini.state.control["0505"] = "german"
    mini.touch()
    assert View(mini).supply.status("so-rifle-2") == SupplyStatus(
        False, False, None, "19.85: cut off from every eastern supply source")
    assert unreached(mini, SOVIET) == sorted(
        [f"{c:02d}{r:02d}" for c in range(1, 6) for r in range(1, 11)]
        + ["0605", "0606", "0607", "0608", "0705", "0706", "0707", "0708", "0909"])


# -- each unit's standing: every branch of status, with its reason ------------------------------

def test_11_34_19_83_15_0_every_kind_of_standing_on_a_later_turn(mini: Game) -> None:
    # Germans at 0505 and 0507 seal the west bank from the east: AGSW (0102) is cut off.
    position(mini, {"ge-inf-1": "0505", "ge-inf-2": "0507", "so-hq-agsw": "0102", "so-rifle-2": "0103",
                    "so-hq-army": "0905", "so-rifle-1": "0804", "so-rifle-3": "0603", "so-rifle-4": "0603",
                    "so-cav-1": "0110"}, turn=2, reinforcements=False)
    mini.state.vars.entered = ["so-rifle-4"]
    sup = View(mini).supply
    assert sup.all_status(GERMAN) == {"ge-inf-1": SupplyStatus(True, True, None, ""),
                                      "ge-inf-2": SupplyStatus(True, True, None, "")}
    assert sup.all_status(SOVIET) == {
        "so-hq-agsw": SupplyStatus(False, True, None, "19.83: the HQ has no line of supply to an eastern source"),
        "so-hq-army": SupplyStatus(True, True, "so-hq-army", ""),
        # within AGSW's radius only, and AGSW is cut off
        "so-rifle-2": SupplyStatus(False, True, "so-hq-agsw", "11.34: its HQ is itself out of supply"),
        "so-rifle-1": SupplyStatus(True, True, "so-hq-army", ""),
        # 0603 is within both radii: AGSW lists first, but only the Army HQ is supplied
        "so-rifle-3": SupplyStatus(True, True, "so-hq-army", ""),
        # 15.0: an arrival is supplied; its commander is the first HQ that reaches it
        "so-rifle-4": SupplyStatus(True, True, "so-hq-agsw", ""),
        "so-cav-1": SupplyStatus(False, False, None, "11.34: no HQ within command radius"),
    }
    # A unit off the map has nothing to trace and is never reported cut off.
    assert sup.status("so-tank-1") == SupplyStatus(True, True, None, "")
    assert sup.trace("so-tank-1") == []
    # Lines: Germans straight to their exit, Soviets down to the HQ and on to a source.
    assert sup.trace("ge-inf-1") == [H(x) for x in ("0505", "0404", "0304", "0204", "0105")]
    assert sup.trace("so-rifle-3") == [H(x) for x in ("0603", "0704", "0804", "0905", "1005")]
    assert sup.trace("so-hq-army") == [H("0905"), H("1005")]
    assert sup.trace("so-rifle-2") == [] and sup.trace("so-hq-agsw") == [] and sup.trace("so-cav-1") == []


def test_19_85_19_82_every_kind_of_standing_on_turn_one(mini: Game) -> None:
    # so-cav-1 holds the only German exit; the west bank is sealed as above.
    position(mini, {"ge-inf-1": "0505", "ge-inf-2": "0507", "so-hq-agsw": "0102", "so-rifle-4": "0103",
                    "so-hq-army": "0905", "so-rifle-2": "0803", "so-rifle-1": "0802", "so-rifle-3": "0110",
                    "so-cav-1": "0105"}, turn=1, reinforcements=False)
    sup = View(mini).supply
    no_exit = "19.82: no line of supply to a north, west or south road exit"
    cut = "19.85: cut off from every eastern supply source"
    assert sup.all_status(GERMAN) == {"ge-inf-1": SupplyStatus(False, True, None, no_exit),
                                      "ge-inf-2": SupplyStatus(False, True, None, no_exit)}
    assert sup.all_status(SOVIET) == {
        "so-hq-agsw": SupplyStatus(False, True, None, cut),
        "so-rifle-4": SupplyStatus(False, True, "so-hq-agsw", cut),  # in command, yet cut off
        "so-hq-army": SupplyStatus(True, True, None, ""),
        "so-rifle-2": SupplyStatus(True, True, "so-hq-army", ""),
        "so-rifle-1": SupplyStatus(True, True, "so-hq-army", ""),
        "so-rifle-3": SupplyStatus(False, False, None, cut),
        "so-cav-1": SupplyStatus(False, True, "so-hq-agsw", cut),
    }
    # 19.85: on turn 1 the line runs straight to a source, not by way of the HQ.
    assert sup.trace("so-rifle-1") == [H(x) for x in ("0802", "0903", "1003", "1004", "1005")]
    assert sup.trace("ge-inf-1") == [] and sup.trace("so-rifle-4") == []


def test_11_31_11_33_command_reaches_exactly_the_hq_radius_around_enemy_zones(mini: Game) -> None:
    # The Army HQ (leadership 4) in the corner; ge-inf-1's zone at 0603 closes 0602, 0704 and
    # 0604 to the line of communications, but so-rifle-3 opens 0703 (8.25).
    position(mini, {"so-hq-army": "1001", "so-rifle-1": "0903", "ge-inf-1": "0603", "so-rifle-3": "0703",
                    "so-rifle-4": "0601"}, turn=2, reinforcements=False)
    sup = View(mini).supply
    reach = sorted(str(h) for h in sup.command)
    assert reach == ["0601", "0701", "0702", "0703", "0801", "0802", "0803", "0804", "0901", "0902",
                     "0903", "0904", "0905", "1001", "1002", "1003", "1004", "1005"]
    assert all(v == [("so-hq-army", True)] for v in sup.command.values())
    # 0601 is exactly four steps out: in command.  Five steps (0806, 1006) is beyond.
    assert sup.status("so-rifle-4") == SupplyStatus(True, True, "so-hq-army", "")
    assert sup.trace("so-rifle-4") == [H(x) for x in ("0601", "0701", "0801", "0901", "1001", "1002", "1003",
                                                      "1004", "1005")]


def test_15_0_an_arrival_traces_by_way_of_its_hq_after_turn_one(mini: Game) -> None:
    position(mini, {"so-hq-army": "1001", "so-rifle-1": "0903", "so-rifle-2": "0903"}, turn=2,
             reinforcements=False)
    mini.state.vars.entered = ["so-rifle-1"]
    sup = View(mini).supply
    assert sup.status("so-rifle-1") == SupplyStatus(True, True, "so-hq-army", "")
    via_hq = [H(x) for x in ("0903", "0902", "1001", "1002", "1003", "1004", "1005")]
    assert sup.trace("so-rifle-1") == via_hq == sup.trace("so-rifle-2")


def test_15_0_an_arrival_cut_off_from_every_source_is_supplied_but_has_no_line(mini: Game) -> None:
    # so-rifle-1 holds 0105, the only German exit; ge-inf-3 has just arrived at 0104.
    position(mini, {"so-rifle-1": "0105", "ge-inf-3": "0104", "ge-inf-1": "0303"}, player="german", turn=2,
             reinforcements=False)
    mini.state.vars.entered = ["ge-inf-3"]
    sup = View(mini).supply
    assert sup.status("ge-inf-3") == SupplyStatus(True, True, None, "")
    assert sup.trace("ge-inf-3") == []
    assert sup.status("ge-inf-1") == SupplyStatus(
        False, True, None, "19.82: no line of supply to a north, west or south road exit")


def test_15_0_a_soviet_arrival_with_no_hq_near_traces_straight_to_a_source(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0804", "so-hq-army": "0101"}, turn=2, reinforcements=False)
    mini.state.vars.entered = ["so-rifle-1"]
    sup = View(mini).supply
    assert sup.status("so-rifle-1") == SupplyStatus(True, False, None, "")
    assert sup.trace("so-rifle-1") == [H("0804"), H("0905"), H("1005")]
