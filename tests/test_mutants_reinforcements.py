"""Reinforcement entry (15.0, 23.0, 23.1) cases that mutation testing found unpinned.

Mini scenario: two Soviet rifle draws due on turn 1 in area K (the east edge, hexrow 10:
road exit 1005, rail exit 1007), the Soviet HQ so-hq-late on turn 2 in K, the German
ge-inf-3 on turn 2 in area A (the west edge: road exit 0105, rail exit 0107).
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import reinforcements as R
from kiev_tui.games.spi_kiev.actions import Enter
from kiev_tui.games.spi_kiev.common import View

from tests.conftest import position


def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def test_23_1_the_schedule_lists_every_unit_with_its_turn_and_areas(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.schedule(View(mini)) == {"ge-inf-3": (2, ("A",), ()), "so-t01-rifle-1": (1, ("K",), ()),
                                      "so-t01-rifle-2": (1, ("K",), ()), "so-hq-late": (2, ("K",), ())}


def test_23_0_only_the_phasing_players_units_due_by_now_are_due(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.due_now(View(mini)) == ["so-t01-rifle-1", "so-t01-rifle-2"]
    position(mini, {"so-rifle-1": "0905"}, turn=2)
    # Late arrivals stay due; the turn-2 HQ joins them; the German unit is not the Soviet's.
    assert R.due_now(View(mini)) == ["so-hq-late", "so-t01-rifle-1", "so-t01-rifle-2"]


def test_15_0_nothing_is_due_outside_the_movement_phase(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1, phase="combat")
    assert R.due_now(View(mini)) == []
    assert refusal(mini, Enter(("so-t01-rifle-1",), "1005")) == \
        "[15.0] reinforcements enter only in the initial movement phase"


def test_23_0_soviet_entry_hexes_are_road_and_rail_edge_hexes_of_the_area(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.entry_hexes(View(mini), "so-t01-rifle-1") == [H("1005"), H("1007")]


def test_23_0_german_entry_hexes_are_road_edge_hexes_only(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0203"}, player="german", turn=2)
    assert R.entry_hexes(View(mini), "ge-inf-3") == [H("0105")]


def test_23_0_an_enemy_occupied_entry_hex_is_closed(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "1005"}, turn=1)
    assert R.entry_hexes(View(mini), "so-t01-rifle-1") == [H("1007")]
    assert refusal(mini, Enter(("so-t01-rifle-1",), "1005")) == \
        "[23.0] 1005 holds enemy units: reinforcements cannot enter there"


def test_23_0_a_unit_with_no_schedule_has_no_entry_hexes(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.entry_hexes(View(mini), "so-rifle-2") == []


def test_23_0_an_unknown_area_is_skipped_and_the_others_still_count(mini: Game) -> None:
    from dataclasses import replace
    sched = mini.scenario.reinforcements
    sched[1] = replace(sched[1], areas=("Z", "K"))
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.entry_hexes(View(mini), "so-t01-rifle-1") == [H("1005"), H("1007")]


def test_15_0_entering_costs_the_entry_hexs_own_movement_points(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    view = View(mini)
    assert R.entry_cost(view, "so-t01-rifle-1", H("1005")) == 1.0
    # A mechanized unit entering woods pays 2 (10.4); the fixture has woods at 0404.
    assert R.entry_cost(view, "ge-1pz-1", H("0404")) == 2.0
    assert R.entry_cost(view, "ge-inf-3", H("0404")) == 1.0


def test_15_0_23_0_refusals_cite_their_cases(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert refusal(mini, Enter((), "1005")) == "[15.0] name each entering unit once"
    assert refusal(mini, Enter(("so-t01-rifle-1", "so-t01-rifle-1"), "1005")) == \
        "[15.0] name each entering unit once"
    assert refusal(mini, Enter(("nope",), "1005")) == "[15.0] there is no unit 'nope'"
    assert refusal(mini, Enter(("ge-inf-3",), "1005")) == \
        "[15.0] ge-inf-3 is not a reinforcement of the soviet player"
    assert refusal(mini, Enter(("so-hq-late",), "1005")) == "[23.0] so-hq-late is not due to arrive now"
    assert refusal(mini, Enter(("so-t01-rifle-1",), "zz")) == \
        "[23.0] 'zz' is not a hex id (four digits CCRR, e.g. 0319)"
    assert refusal(mini, Enter(("so-t01-rifle-1",), "1003")) == \
        "[23.0] 1003 is not a road or rail edge hex of so-t01-rifle-1's entry area"


def test_23_1_arriving_by_rail_needs_a_railroad_and_rail_capacity(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert refusal(mini, Enter(("so-t01-rifle-1",), "1005", rail=True)) == "[15.0] 1005 has no railroad to arrive by"
    mini.state.vars.rail_used = 7
    assert refusal(mini, Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1007", rail=True)) == \
        "[19.3] rail capacity is 8 units a turn; 7 already used"
    assert mini.check(Enter(("so-t01-rifle-1",), "1007", rail=True)) is None
    assert mini.check(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1007")) is None


def test_19_3_23_2_german_reinforcements_never_arrive_by_rail(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0203"}, player="german", turn=2)
    assert refusal(mini, Enter(("ge-inf-3",), "0105", rail=True)) == \
        "[19.3] only the Soviet player may move units by rail"
    assert refusal(mini, Enter(("ge-inf-3",), "0107")) == \
        "[23.0] 0107 is not a road edge hex of ge-inf-3's entry area"
    assert mini.check(Enter(("ge-inf-3",), "0105")) is None


def test_23_0_ready_to_enter_lists_due_units_with_an_open_entry_hex(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.ready_to_enter(View(mini)) == ["so-t01-rifle-1", "so-t01-rifle-2"]
    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "1005", "ge-inf-2": "1007"}, turn=1)
    assert R.ready_to_enter(View(mini)) == []


# -- 25.12 (play-by-mail option): the chart of historical faces ----------------------------------

def faces_with(game: Game, on: object = True, chart: object = None) -> dict[str, str]:
    game.scenario.params["pbem_historical_reinforcements"] = on
    if chart is not None:
        game.scenario.params["historical_reinforcements"] = chart
    return R.historical_faces(game.scenario)


def chart_refusal(game: Game, on: object = True, chart: object = None) -> tuple[str, str, str]:
    import pytest

    from kiev_tui.engine.errors import DataError

    with pytest.raises(DataError) as err:
        faces_with(game, on, chart)
    return err.value.file, err.value.key, err.value.reason


def test_25_12_each_drawn_counter_takes_the_charts_face_in_order(mini: Game) -> None:
    # The mini pool's faces are rifle-201, rifle-202, rifle-203 and armor-204.
    assert faces_with(mini, chart={"1": ["rifle-203", "rifle-201"]}) == \
        {"so-t01-rifle-1": "rifle-203", "so-t01-rifle-2": "rifle-201"}


def test_25_12_the_option_off_or_absent_gives_no_faces(mini: Game) -> None:
    assert R.historical_faces(mini.scenario) == {}
    assert faces_with(mini, on=False, chart={"1": ["nonsense"]}) == {}


def test_25_12_the_option_must_be_true_or_false(mini: Game) -> None:
    assert chart_refusal(mini, on="yes") == (str(mini.scenario.path), "scenario.pbem_historical_reinforcements",
                                             "must be true or false")


def test_25_12_the_option_on_needs_a_chart(mini: Game) -> None:
    assert chart_refusal(mini) == (str(mini.scenario.path), "scenario.historical_reinforcements",
                                   "25.12: the option is on but the scenario gives no chart of turns and faces")
    assert chart_refusal(mini, chart=["rifle-201"])[1:] == (
        "scenario.historical_reinforcements", "25.12: the option is on but the scenario gives no chart of turns and faces")


def test_25_12_a_turn_must_list_faces_of_the_pool(mini: Game) -> None:
    reason = "must list faces of units.toml ([[untried]] ids)"
    assert chart_refusal(mini, chart={"1": "rifle-201"}) == (str(mini.scenario.path), "scenario.historical_reinforcements.1",
                                                             reason)
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-299"]})[1:] == ("scenario.historical_reinforcements.1", reason)
    assert chart_refusal(mini, chart={"1": ["rifle-201", 202]})[1:] == ("scenario.historical_reinforcements.1", reason)


def test_25_12_a_face_is_listed_once_in_the_whole_chart(mini: Game) -> None:
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-201"]}) == (str(mini.scenario.path),
        "scenario.historical_reinforcements.1", "rifle-201 is listed twice in the chart")
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-202"], "2": ["rifle-202"]})[1:] == (
        "scenario.historical_reinforcements.2", "rifle-202 is listed twice in the chart")


def test_25_12_the_chart_must_match_the_draws_turn_by_turn(mini: Game) -> None:
    assert chart_refusal(mini, chart={"1": ["rifle-201"]}) == (str(mini.scenario.path),
        "scenario.historical_reinforcements.1", "25.12: turn 1 brings 2 rifle reinforcements but the chart names 1")
    assert chart_refusal(mini, chart={})[1:] == (
        "scenario.historical_reinforcements.1", "25.12: turn 1 brings 2 rifle reinforcements but the chart names 0")
    # A face on a turn that brings no draw of its pile.
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-202"], "3": ["armor-204"]})[1:] == (
        "scenario.historical_reinforcements.3", "25.12: turn 3 brings 0 armor reinforcements but the chart names 1")
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-202", "armor-204"]})[1:] == (
        "scenario.historical_reinforcements.1", "25.12: turn 1 brings 0 armor reinforcements but the chart names 1")


def test_25_12_chart_keys_are_turn_numbers(mini: Game) -> None:
    assert chart_refusal(mini, chart={"1": ["rifle-201", "rifle-202"], "first": []}) == (str(mini.scenario.path),
        "scenario.historical_reinforcements.first", "keys are game-turn numbers")


def test_9_83_no_reinforcement_enters_while_a_result_waits(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    mini.state.pending = {"kind": "loss_or_retreat"}
    assert refusal(mini, Enter(("so-t01-rifle-1",), "1005")) == "[9.83] a combat result is waiting to be settled first"


def test_23_0_a_road_or_rail_hexside_at_the_edge_makes_an_entry_hex(mini: Game) -> None:
    # 1003 gets a road to its inland neighbour, 1009 a railroad: the Soviets may enter at both;
    # on the west edge 0109 gets a road and 0103 a railroad: the Germans may enter only by the road.
    m = mini.scenario.map
    m.set_side_features(H("1003"), H("0903"), frozenset({"road"}))
    m.set_side_features(H("1009"), H("0909"), frozenset({"railroad"}))
    m.set_side_features(H("0109"), H("0209"), frozenset({"road"}))
    m.set_side_features(H("0103"), H("0203"), frozenset({"railroad"}))
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    assert R.entry_hexes(View(mini), "so-t01-rifle-1") == [H("1003"), H("1005"), H("1007"), H("1009")]
    position(mini, {"ge-inf-1": "0203"}, player="german", turn=2)
    assert R.entry_hexes(View(mini), "ge-inf-3") == [H("0105"), H("0109")]


def test_23_0_inland_hexes_of_an_entry_area_are_never_entry_hexes(mini: Game) -> None:
    from dataclasses import replace
    m = mini.scenario.map
    inland = frozenset(H(f"09{r:02d}") for r in range(1, 11))
    m.areas["K"] = replace(m.areas["K"], hexes=m.areas["K"].hexes | inland)
    position(mini, {"so-rifle-1": "0805"}, turn=1)
    assert R.entry_hexes(View(mini), "so-t01-rifle-1") == [H("1005"), H("1007")]


def test_23_0_a_german_entry_hex_held_by_the_soviets_is_closed(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0203", "so-rifle-1": "0105"}, player="german", turn=2)
    assert R.entry_hexes(View(mini), "ge-inf-3") == []
    assert refusal(mini, Enter(("ge-inf-3",), "0105")) == \
        "[23.0] 0105 holds enemy units: reinforcements cannot enter there"


# -- entry hexes a scenario names outright (the engine's [[reinforcement]] hexes key) -------------

def named_entry(game: Game, *hexes: str, areas: tuple[str, ...] = ()) -> Game:
    """The turn-2 Soviet HQ enters at these hexes (and its areas, if any) instead of area K."""
    from dataclasses import replace
    rs = game.scenario.reinforcements
    i = next(k for k, r in enumerate(rs) if "so-hq-late" in r.units)
    rs[i] = replace(rs[i], areas=areas, hexes=tuple(H(h) for h in hexes))
    position(game, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=2)
    game.state.units["so-t01-rifle-1"].status = game.state.units["so-t01-rifle-2"].status = "eliminated"
    return game


def test_23_0_a_named_entry_hex_need_not_be_an_edge_road_hex(mini: Game) -> None:
    named_entry(mini, "0806", "0705")
    assert R.schedule(View(mini))["so-hq-late"] == (2, (), (H("0806"), H("0705")))
    assert R.entry_hexes(View(mini), "so-hq-late") == [H("0705"), H("0806")]
    # Due and able to enter, it holds up the end of the phase (23.0) like any other arrival.
    assert R.ready_to_enter(View(mini)) == ["so-hq-late"]
    assert refusal(mini, Enter(("so-hq-late",), "1005")) == \
        "[23.0] 1005 is neither a road or rail edge hex of so-hq-late's entry area nor one of " \
        "the hexes the scenario names for it (0806, 0705)"
    assert mini.check(Enter(("so-hq-late",), "0806")) is None


def test_23_0_named_entry_hexes_add_to_the_areas_and_enemy_ones_are_barred(mini: Game) -> None:
    named_entry(mini, "0806", "0101", areas=("K",))
    assert R.entry_hexes(View(mini), "so-hq-late") == [H("0806"), H("1005"), H("1007")]
    assert refusal(mini, Enter(("so-hq-late",), "0101")) == \
        "[23.0] 0101 holds enemy units: reinforcements cannot enter there"


def test_23_0_a_german_arrival_is_barred_from_soviet_held_named_hexes_only(mini: Game) -> None:
    from dataclasses import replace
    rs = mini.scenario.reinforcements
    i = next(k for k, r in enumerate(rs) if "ge-inf-3" in r.units)
    rs[i] = replace(rs[i], hexes=(H("0304"), H("0305")))
    position(mini, {"ge-inf-1": "0304", "so-rifle-1": "0305"}, player="german", turn=2)
    # 0105 is area A's edge road hex; 0304 holds a German unit, 0305 a Soviet one.
    assert R.entry_hexes(View(mini), "ge-inf-3") == [H("0105"), H("0304")]
