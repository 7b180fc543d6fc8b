"""SPI Kiev movement rules, one test per case, on small hand-made positions (fixture map).

Fixture map: a major river between hexrows 05 and 06; a road along row 05 with a bridge
0505/0605; a railroad along row 07 (bridge 0507/0607); a minor river on 0201/0301-0203/0303;
woods 0303 and 0404; swamp 0707 and 0608; lake 0909; cities 0505 and 0202; town 0805.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Enter, Move, RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.movement import movement_allowance
from kiev_tui.games.spi_kiev.terrain import step_cost

from tests.conftest import position


def case(game: Game, action: object) -> str | None:
    illegal = game.check(action)  # type: ignore[arg-type]
    return None if illegal is None else illegal.case


def cost_of(game: Game, uid: str, dest: str) -> float | None:
    return game.reachable([uid])[H(dest)].cost


# -- sequence of play ------------------------------------------------------------------

def test_4_2_19_1_sequence_soviet_first_then_german_with_mechanized_phase(mini: Game) -> None:
    seen = []
    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0203"})
    for _ in range(5):
        seen.append((mini.state.turn, mini.state.player, mini.state.phase))
        if mini.state.phase == "movement" and mini.state.player == "soviet" and mini.state.turn == 1:
            mini.apply(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1005"))
        mini.apply(EndPhase())
    assert seen == [(1, "soviet", "movement"), (1, "soviet", "combat"), (1, "german", "movement"),
                    (1, "german", "combat"), (1, "german", "mechanized")]
    assert (mini.state.turn, mini.state.player, mini.state.phase) == (2, "soviet", "movement")


def test_19_13_no_soviet_mechanized_phase_and_phase_lists_todo(mini: Game) -> None:
    ph = mini.phase
    assert ph.phases == ("movement", "combat")
    assert any("reinforcement" in t for t in ph.todo)


def test_19_12_game_ends_after_the_last_turn_with_a_score(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.bot import play_game
    from tests.conftest import MINI

    result = play_game(MINI, 11, combat=False)
    assert result.over and result.turns == 3
    assert set(result.score) >= {"german", "soviet", "winner", "lines"}


# -- movement points -------------------------------------------------------------------

def test_5_11_movement_allowance_limits_the_move(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0910"})
    # Six clear hexes north cost 6 = MA 6; a seventh is too far.
    assert case(mini, Move(("so-rifle-1",), ("0909",))) == "10.16"  # 0909 is a lake
    assert case(mini, Move(("so-rifle-1",), ("0810", "0809", "0808", "0807", "0806", "0805"))) is None
    assert case(mini, Move(("so-rifle-1",), ("0810", "0809", "0808", "0807", "0806", "0805", "0804"))) == "5.11"


def test_5_14_a_unit_may_always_move_one_hex(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0910"}, player="german")
    mini.state.vars.oos_start = ["ge-inf-1"]  # half MA: 3, but the river crossing costs 4
    assert movement_allowance(View(mini), "ge-inf-1") == 3
    assert case(mini, Move(("ge-inf-1",), ("0604",))) is None
    assert case(mini, Move(("ge-inf-1",), ("0604", "0603"))) == "5.11"
    assert mini.reachable(["ge-inf-1"])[H("0604")].ok


def test_5_25_out_of_supply_units_move_at_half_allowance(mini: Game) -> None:
    # German infantry with every road exit cut: Soviet units sit on both west-edge exits' approaches.
    position(mini, {"ge-inf-1": "0303", "so-rifle-1": "0105", "so-rifle-2": "0107"}, player="german")
    assert "ge-inf-1" in mini.state.vars.oos_start
    assert movement_allowance(View(mini), "ge-inf-1") == 3


def test_5_22_no_moving_into_an_enemy_hex(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0805", "ge-inf-1": "0803"})
    assert case(mini, Move(("so-rifle-1",), ("0804", "0803"))) in ("5.22", "8.21")
    assert case(mini, Move(("so-rifle-1",), ("0804",))) is None
    reach = mini.reachable(["so-rifle-1"])
    assert reach[H("0803")].case == "5.22"


# -- zones of control --------------------------------------------------------------------

def test_8_21_entering_an_enemy_zone_ends_the_move(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0806", "ge-inf-1": "0803"})
    assert case(mini, Move(("so-rifle-1",), ("0805", "0804", "0704"))) == "8.21"
    mini.apply(Move(("so-rifle-1",), ("0805", "0804")))
    assert case(mini, Move(("so-rifle-1",), ("0704",))) == "8.21"


def test_8_23_no_leaving_an_enemy_zone(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0804", "ge-inf-1": "0803"})
    assert case(mini, Move(("so-rifle-1",), ("0805",))) == "8.23"
    assert mini.reachable(["so-rifle-1"])[H("0805")].case == "8.23"


def test_8_12_zones_do_not_cross_a_major_river(mini: Game) -> None:
    # ge-inf-1 at 0504 touches 0604 across the river: no zone there.
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0804"})
    view = View(mini)
    assert not view.in_enemy_zoc(H("0604"), "soviet")
    assert view.in_enemy_zoc(H("0404"), "soviet")


def test_8_25_friendly_units_do_not_cancel_enemy_zones_for_movement(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0806", "so-rifle-2": "0804", "ge-inf-1": "0803"})
    # A friend in 0804 does not let the mover pass through the zone.
    assert case(mini, Move(("so-rifle-1",), ("0805", "0804", "0704"))) == "8.21"


def test_19_67_hq_zone_stops_movement_but_not_supply(mini: Game) -> None:
    position(mini, {"so-hq-army": "0805", "ge-1pz-1": "0703"}, player="german")
    view = View(mini)
    assert view.in_enemy_zoc(H("0705"), "german")  # HQ zone stops German movement
    assert not view.enemy_controlled_for_tracing(H("0705"), "german")  # but not German supply
    assert case(mini, Move(("ge-1pz-1",), ("0704", "0705", "0605"))) == "8.21"


def test_21_0_leader_zone_stops_movement_only(mini: Game) -> None:
    position(mini, {"ge-leader": "0803", "so-rifle-1": "0806"})
    view = View(mini)
    assert view.in_enemy_zoc(H("0804"), "soviet")
    assert not view.enemy_controlled_for_tracing(H("0804"), "soviet")


# -- terrain ---------------------------------------------------------------------------

def test_10_4_woods_cost_mechanized_two_others_one(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0403", "ge-1pz-1": "0403"}, player="german")
    assert cost_of(mini, "ge-inf-1", "0404") == 1
    assert cost_of(mini, "ge-1pz-1", "0404") == 2


def test_10_11_minor_river_costs_german_two_soviet_one(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0202", "so-rifle-1": "0202"}, player="german")
    gm, tb = mini.scenario.map, mini.scenario.tables
    cat = mini.scenario.catalog.units
    # 0302 is clear across the minor river 0202/0302.
    assert step_cost(gm, tb, cat["ge-inf-1"], H("0202"), H("0302")) == 3
    assert step_cost(gm, tb, cat["so-rifle-1"], H("0202"), H("0302")) == 2


def test_10_13_major_river_costs_german_three_soviet_two(mini: Game) -> None:
    gm, tb = mini.scenario.map, mini.scenario.tables
    cat = mini.scenario.catalog.units
    assert step_cost(gm, tb, cat["ge-inf-1"], H("0504"), H("0604")) == 4
    assert step_cost(gm, tb, cat["so-rifle-1"], H("0604"), H("0504")) == 3


def test_10_31_rulebook_example_mixed_costs_add_up(mini: Game) -> None:
    gm, tb = mini.scenario.map, mini.scenario.tables
    cat = mini.scenario.catalog.units
    # Soviet unit across a minor river into clear: 1 + 1 = 2.
    assert step_cost(gm, tb, cat["so-rifle-1"], H("0201"), H("0301")) == 2
    # Soviet mechanized unit across a minor river into woods: 1 + 2 = 3.
    assert step_cost(gm, tb, cat["so-tank-1"], H("0203"), H("0303")) == 3


def test_10_23_road_half_point_for_mechanized_not_infantry(mini: Game) -> None:
    position(mini, {"so-tank-1": "1005", "so-rifle-1": "1005"})
    assert cost_of(mini, "so-tank-1", "0705") == 1.5
    assert cost_of(mini, "so-rifle-1", "0705") == 3


def test_11_21_hq_moves_as_infantry_but_uses_roads_as_mechanized(mini: Game) -> None:
    position(mini, {"so-hq-army": "1005"})
    assert cost_of(mini, "so-hq-army", "0705") == 1.5  # road
    gm, tb = mini.scenario.map, mini.scenario.tables
    assert step_cost(gm, tb, mini.scenario.catalog.units["so-hq-army"], H("0304"), H("0404")) == 1  # woods as infantry


def test_10_16_lakes_cannot_be_entered(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0908"})
    assert case(mini, Move(("so-rifle-1",), ("0909",))) == "10.16"


def test_swamp_costs_two_for_every_unit(mini: Game) -> None:
    # Reconstructed (SOURCES.md): the TEC has no swamp row; 2 MP for all, no defence effect.
    gm, tb = mini.scenario.map, mini.scenario.tables
    for uid in ("so-rifle-1", "so-tank-1"):
        assert step_cost(gm, tb, mini.scenario.catalog.units[uid], H("0706"), H("0707")) == 2


def test_10_13_no_major_river_into_enemy_zoc(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0605", "so-rifle-1": "0504"}, player="german")
    # 0505 (across the river from 0605) lies in the zone of the Soviet unit at 0504, which
    # stands on the river bank itself (10.13 counts only such units; see the rules_movement tests).
    # A road bridge does not lift the ban: the hexside is still a major river.
    assert case(mini, Move(("ge-1pz-1",), ("0505",))) == "10.13"
    position(mini, {"ge-inf-1": "0604", "so-rifle-1": "0503"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0504",))) == "10.13"
    # ...unless a friendly unit already holds the hex.
    position(mini, {"ge-inf-1": "0604", "ge-inf-2": "0504", "so-rifle-1": "0503"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0504",))) is None


def test_19_51_no_major_river_crossing_straight_into_swamp(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0508"})
    assert case(mini, Move(("so-rifle-1",), ("0608",))) == "19.51"
    gm, tb = mini.scenario.map, mini.scenario.tables
    gm.set_side_features(H("0508"), H("0608"), frozenset({"major_river", "road"}))
    try:
        assert not hasattr(step_cost(gm, tb, mini.scenario.catalog.units["so-rifle-1"], H("0508"), H("0608")), "case")
    finally:
        gm.set_side_features(H("0508"), H("0608"), frozenset({"major_river"}))
    # Leaving a swamp across the river into firm ground is allowed.
    assert not hasattr(step_cost(gm, tb, mini.scenario.catalog.units["so-rifle-1"], H("0608"), H("0508")), "case")


# -- stacking and HQs ------------------------------------------------------------------

def test_7_0_stacking_checked_at_the_end_of_the_movement_phase(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-rifle-4": "0904", "so-hq-army": "0905"}, turn=2, reinforcements=False)
    # Passing through is free; ending four combat units in one hex is not.
    mini.apply(Move(("so-rifle-1",), ("0904",)))
    assert case(mini, EndPhase()) == "7.0"
    assert any("7.0" in t for t in mini.phase.todo)
    assert case(mini, RemoveExcess("so-rifle-1")) is None
    mini.apply(RemoveExcess("so-rifle-1"))
    assert mini.state.units["so-rifle-1"].status == "eliminated"
    assert case(mini, RemoveExcess("so-rifle-2")) == "7.0"


def test_11_22_an_hq_stacks_free_but_only_one_per_hex(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-hq-army": "0904", "so-hq-agsw": "0905"}, turn=2, reinforcements=False)
    assert not any("7.0" in t for t in mini.phase.todo)
    mini.apply(Move(("so-hq-agsw",), ("0904",)))
    assert case(mini, EndPhase()) == "7.0"


def test_11_23_hq_enters_enemy_zone_only_where_a_friendly_combat_unit_is(mini: Game) -> None:
    position(mini, {"so-hq-army": "0806", "ge-inf-1": "0803", "so-rifle-1": "0704"})
    assert case(mini, Move(("so-hq-army",), ("0805", "0804"))) == "11.23"
    assert case(mini, Move(("so-hq-army",), ("0706", "0705", "0704"))) is None


def test_4_2_mechanized_phase_moves_only_mechanized_units_and_hqs(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0203", "ge-1pz-1": "0108", "ge-leader": "0108"},
             player="german", phase="mechanized")
    assert case(mini, Move(("ge-inf-1",), ("0204",))) == "4.2"
    assert case(mini, Move(("ge-1pz-1", "ge-leader"), ("0109",))) is None


def test_5_0_a_finished_move_cannot_be_resumed(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0906", "so-rifle-2": "0903"})
    mini.apply(Move(("so-rifle-1",), ("0907",)))
    mini.apply(Move(("so-rifle-1",), ("0908",)))  # same stack still in hand
    mini.apply(Move(("so-rifle-2",), ("0902",)))
    assert case(mini, Move(("so-rifle-1",), ("0808",))) == "5.0"


# -- rail ------------------------------------------------------------------------------

def test_19_3_only_the_soviet_player_moves_by_rail(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0207"}, player="german")
    assert case(mini, RailMove(("ge-inf-1",), ("0307",))) == "19.3"


def test_5_31_rail_moves_follow_connected_friendly_rail(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "ge-inf-1": "0406"})
    assert case(mini, RailMove(("so-rifle-1",), ("0907", "0807", "0707", "0607"))) is None
    # 0507 and 0407 lie in the German zone: the train cannot pass (19.3, 5.33).
    assert case(mini, RailMove(("so-rifle-1",), ("0907", "0807", "0707", "0607", "0507"))) == "5.33"
    assert case(mini, RailMove(("so-rifle-1",), ("0906",))) == "5.31"


def test_19_3_rail_capacity_eight_units_a_turn(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-rifle-2": "1007"})
    mini.state.vars.rail_used = 7
    assert case(mini, RailMove(("so-rifle-1", "so-rifle-2"), ("0907",))) == "19.3"
    assert case(mini, RailMove(("so-rifle-1",), ("0907",))) is None


def test_19_3_rail_move_at_most_the_rail_hex_limit(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"})
    mini.scenario.params["rail_hexes"] = 3
    try:
        assert case(mini, RailMove(("so-rifle-1",), ("0907", "0807", "0707", "0607"))) == "19.3"
        assert case(mini, RailMove(("so-rifle-1",), ("0907", "0807", "0707"))) is None
    finally:
        mini.scenario.params["rail_hexes"] = 25


def test_11_21_hqs_ride_the_rail_without_using_capacity(mini: Game) -> None:
    position(mini, {"so-hq-army": "1007"})
    mini.state.vars.rail_used = 8
    assert case(mini, RailMove(("so-hq-army",), ("0907",))) is None


def test_5_33_no_normal_movement_in_the_phase_of_a_rail_move(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-rifle-2": "1006"})
    mini.apply(RailMove(("so-rifle-1",), ("0907", "0807")))
    assert case(mini, Move(("so-rifle-1",), ("0806",))) == "5.33"
    mini.apply(Move(("so-rifle-2",), ("1007",)))
    assert case(mini, RailMove(("so-rifle-2",), ("0907",))) == "5.33"
    assert mini.state.vars.rail_used == 1


def test_5_34_rail_only_in_the_initial_movement_phase(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, phase="combat")
    assert case(mini, RailMove(("so-rifle-1",), ("0907",))) in ("4.2", "5.34")


# -- supply and command ------------------------------------------------------------------

def supply(game: Game, uid: str):  # type: ignore[no-untyped-def]
    return game.rules.supply(game).status(uid)  # type: ignore[attr-defined]


def test_19_82_german_supply_runs_to_a_west_edge_road_exit(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0404"}, player="german", turn=2)
    assert supply(mini, "ge-inf-1").in_supply
    # Soviet units on both exits' neighbourhoods cut it off.
    position(mini, {"ge-inf-1": "0404", "so-rifle-1": "0105", "so-rifle-2": "0107"}, player="german", turn=2)
    assert not supply(mini, "ge-inf-1").in_supply


def test_12_1_enemy_zone_blocks_supply_unless_a_friendly_unit_is_there(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.supply import SupplyMap
    position(mini, {"so-rifle-1": "0103", "ge-inf-1": "0404"}, player="german", turn=2)
    line = SupplyMap(View(mini), "german")
    assert not line.reaches(H("0104"))  # in the Soviet zone, nobody German there
    assert not line.reaches(H("0103"))  # the Soviet unit itself
    position(mini, {"so-rifle-1": "0103", "ge-inf-1": "0404", "ge-inf-2": "0104"}, player="german", turn=2)
    line = SupplyMap(View(mini), "german")
    assert line.reaches(H("0104"))  # 8.25: a German unit there cancels the zone for supply
    # HQ zones never block supply (19.67).
    position(mini, {"so-hq-army": "0103", "ge-inf-1": "0404"}, player="german", turn=2)
    assert SupplyMap(View(mini), "german").reaches(H("0104"))


def test_12_11_supply_goes_into_but_not_through_swamp(mini: Game) -> None:
    sup = mini.rules.supply(mini)  # type: ignore[attr-defined]
    line = sup.lines["soviet"]
    assert line.reaches(H("0707"))  # into the swamp
    assert all(h == H("0707") or mini.scenario.map.terrain(h) != "swamp" for h in line.path(H("0707"))[1:-1])


def test_10_15_major_river_blocks_supply_except_on_roads_rails_or_friendly_cities(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.supply import SupplyMap
    position(mini, {"ge-inf-1": "0605"}, player="german", turn=2)
    line = SupplyMap(View(mini), "german")
    # The east bank is reached only over the road and rail bridges.
    assert line.reaches(H("0604"))
    path = line.path(H("0604"))
    crossings = [(a, b) for a, b in zip(path, path[1:]) if mini.scenario.map.has(a, b, "major_river")]
    assert all(mini.scenario.map.has(a, b, "road") or mini.scenario.map.has(a, b, "railroad") for a, b in crossings)


def test_11_31_line_of_communications_no_longer_than_the_rating(mini: Game) -> None:
    # HQ rating 4: a unit four hexes away is in command, five is not.
    position(mini, {"so-hq-army": "1001", "so-rifle-1": "1005", "so-rifle-2": "1006",
                    "so-hq-agsw": "0110"}, turn=2)
    assert supply(mini, "so-rifle-1").in_supply and supply(mini, "so-rifle-1").hq == "so-hq-army"
    assert not supply(mini, "so-rifle-2").in_command


def test_11_34_an_unsupplied_hq_leaves_its_units_out_of_supply(mini: Game) -> None:
    # Germans sit on every eastern exit: the HQ cannot trace to a source.
    position(mini, {"so-hq-army": "0803", "so-rifle-1": "0804", "ge-inf-1": "1005",
                    "ge-inf-2": "1007"}, turn=2)
    st = supply(mini, "so-rifle-1")
    assert st.in_command and not st.in_supply


def test_19_85_on_turn_one_soviet_units_trace_straight_to_a_source(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0103"}, turn=1)
    assert supply(mini, "so-rifle-1").in_supply  # no HQ anywhere near, any length
    position(mini, {"so-rifle-1": "0103"}, turn=2)
    assert not supply(mini, "so-rifle-1").in_supply


def test_19_84_soviet_sources_are_eastern_exits_not_german_controlled(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.supply import supply_sources
    position(mini, {"so-rifle-1": "0803"}, turn=2)
    assert set(supply_sources(View(mini), "soviet")) == {H("1005"), H("1007")}
    position(mini, {"so-rifle-1": "0803", "ge-inf-1": "0905"}, turn=2)
    assert H("1005") not in supply_sources(View(mini), "soviet")


# -- reinforcements --------------------------------------------------------------------

def test_23_0_reinforcements_cannot_be_withheld(mini: Game) -> None:
    assert case(mini, EndPhase()) == "23.0"
    mini.apply(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1005"))
    assert case(mini, EndPhase()) is None


def test_23_0_no_entry_into_an_enemy_occupied_hex(mini: Game) -> None:
    position(mini, {"ge-inf-1": "1005"})
    assert case(mini, Enter(("so-t01-rifle-1",), "1005")) == "23.0"
    assert case(mini, Enter(("so-t01-rifle-1",), "1007")) is None


def test_15_0_entry_costs_the_entry_hex_and_units_arrive_in_supply(mini: Game) -> None:
    mini.apply(Enter(("so-t01-rifle-1",), "1005"))
    assert mini.state.vars.mp["so-t01-rifle-1"] == 1
    assert supply(mini, "so-t01-rifle-1").in_supply
    assert case(mini, Move(("so-t01-rifle-1",), ("0905", "0805", "0705", "0605", "0505"))) == "5.11"
    assert case(mini, Move(("so-t01-rifle-1",), ("0905", "0805", "0705"))) is None


def test_23_1_soviet_reinforcements_enter_untried_and_may_come_by_rail(mini: Game) -> None:
    view = View(mini)
    assert view.untried("so-t01-rifle-1")
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert mini.state.vars.rail_used == 1
    assert case(mini, RailMove(("so-t01-rifle-1",), ("0907", "0807"))) is None
    assert case(mini, Move(("so-t01-rifle-1",), ("1006",))) == "5.33"


def test_23_2_german_reinforcements_arrive_on_their_turn_in_their_area(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, player="german", turn=1)
    assert case(mini, Enter(("ge-inf-3",), "0105")) == "23.0"  # due on turn 2
    position(mini, {"so-rifle-1": "0905"}, player="german", turn=2)
    assert case(mini, Enter(("ge-inf-3",), "1005")) == "23.0"  # not its area
    assert case(mini, Enter(("ge-inf-3",), "0105")) is None


# -- mud and Stalin's Directive ---------------------------------------------------------

def test_19_9_mud_halves_allowances_cavalry_six_no_german_mechanized_phase(mini: Game) -> None:
    mini.scenario.params["mud_turns"] = [2]
    try:
        position(mini, {"so-rifle-1": "0905", "so-cav-1": "0906", "so-tank-1": "0907",
                        "so-hq-army": "0905"}, turn=2)
        view = View(mini)
        assert movement_allowance(view, "so-rifle-1") == 3
        assert movement_allowance(view, "so-cav-1") == 6
        assert movement_allowance(view, "so-tank-1") == 4
        assert mini.rules.phase(mini).phases == ("movement", "combat")  # type: ignore[attr-defined]
        position(mini, {"ge-1pz-1": "0108"}, player="german", turn=2)
        assert mini.phase.phases == ("movement", "combat")
    finally:
        mini.scenario.params["mud_turns"] = []


def _directive_game(turns: int = 13) -> Game:
    from tests.conftest import MINI
    g = Game.new(MINI, seed=3)
    g.scenario.turns = turns
    return g


def test_22_0_directive_automatic_on_turns_7_to_9_then_rolled() -> None:
    from kiev_tui.games.spi_kiev import directive
    g = _directive_game()
    for turn in range(6, 14):
        g.state.turn = turn
        g._sink = []
        directive.determine(g)
        events = g._sink
        g._sink = None
        rolled = [e for e in events if e.kind == "rolled"]
        assert bool(rolled) == (turn >= 10)
    hist = g.state.vars.directive
    assert hist[7] and hist[8] and hist[9]
    assert 6 not in hist


def test_22_1_directive_units_may_not_move_east(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0803"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert case(mini, Move(("so-rifle-1",), ("0903",))) == "22.1"
    assert case(mini, Move(("so-rifle-1",), ("0802",))) is None  # along its hexrow
    assert case(mini, Move(("so-rifle-1",), ("0703",))) is None  # to a lower hexrow
    assert not mini.reachable(["so-rifle-1"])[H("0903")].ok


def test_22_1_hqs_and_units_west_of_the_line_are_exempt(mini: Game) -> None:
    position(mini, {"so-hq-army": "0803", "so-rifle-1": "0303"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert case(mini, Move(("so-hq-army",), ("0903",))) is None
    assert case(mini, Move(("so-rifle-1",), ("0403",))) is None


def test_22_25_road_moves_any_way_but_must_end_no_further_east(mini: Game) -> None:
    position(mini, {"so-tank-1": "0805"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert case(mini, Move(("so-tank-1",), ("0905",))) == "22.25"  # east along the road, ends east
    assert case(mini, Move(("so-tank-1",), ("0905", "1004"))) == "22.1"  # east off the road
    assert case(mini, Move(("so-tank-1",), ("0905", "0904", "0804"))) is None  # road out, back west


def test_22_2_relieving_frees_the_relieved_unit(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert case(mini, Move(("so-rifle-1",), ("0803",))) == "22.1"
    mini.apply(Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1"))
    assert case(mini, Move(("so-rifle-2",), ("0603",))) == "22.2"  # the reliever must stop
    assert case(mini, Move(("so-rifle-1",), ("0803",))) is None


def test_22_23_an_hq_cannot_relieve(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0703", "so-hq-army": "0903"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert case(mini, Move(("so-hq-army",), ("0803", "0703"), relieve="so-rifle-1")) == "22.23"


# -- control ---------------------------------------------------------------------------

def test_24_0_moving_through_a_town_takes_control(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0705", "so-rifle-1": "0110"}, player="german", turn=2)
    assert mini.state.control["0805"] == "soviet"
    mini.apply(Move(("ge-1pz-1",), ("0805", "0905")))
    assert mini.state.control["0805"] == "german"
    # A zone of control alone never takes a town: a German stack that ends beside Eastville
    # puts it in his zone, and it stays Soviet.
    position(mini, {"ge-1pz-1": "0703", "so-rifle-1": "0110"}, player="german", turn=2)
    mini.state.control["0805"] = "soviet"
    mini.apply(Move(("ge-1pz-1",), ("0704", "0705")))
    assert View(mini).in_enemy_zoc(H("0805"), "soviet")
    assert mini.state.control == {"0202": "german", "0505": "soviet", "0805": "soviet"}


def test_5_3_the_engine_lists_legal_rail_destinations(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.rail import destinations
    position(mini, {"so-rifle-1": "1007", "ge-inf-1": "0406"})
    dest = destinations(View(mini), ("so-rifle-1",))
    assert H("0607") in dest and dest[H("0607")] == ("0907", "0807", "0707", "0607")
    assert H("0507") not in dest  # in the German zone
    assert all(mini.check(RailMove(("so-rifle-1",), p)) is None for p in dest.values())


def test_12_1_the_engine_shows_the_traced_line_of_supply(mini: Game) -> None:
    position(mini, {"so-hq-army": "0903", "so-rifle-1": "0804", "so-rifle-2": "0101"}, turn=2)
    sup = mini.rules.supply(mini)  # type: ignore[attr-defined]
    line = sup.trace("so-rifle-1")
    assert line[0] == H("0804") and H("0903") in line and line[-1] in (H("1005"), H("1007"))
    assert all(a.distance(b) == 1 for a, b in zip(line, line[1:]))
    assert sup.trace("so-rifle-2") == []  # beyond every HQ's radius: out of supply
