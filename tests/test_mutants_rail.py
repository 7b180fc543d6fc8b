"""Rail movement (5.3, 19.3) cases that mutation testing found unpinned.

Fixture map: a railroad along hexrow 07, from the west edge (0107) to the east edge (1007),
with a bridge over the major river at 0507/0607.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Enter, RailMove
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.rail import destinations

from tests.conftest import position


def test_19_3_rail_destinations_reach_exactly_the_rail_hex_limit(mini: Game) -> None:
    # With a limit of 3 rail hexes, the train from 1007 reaches 0907, 0807 and 0707 and no
    # farther; each along the railroad itself (5.31).
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    mini.scenario.params["rail_hexes"] = 3
    try:
        dest = destinations(View(mini), ("so-rifle-1",))
    finally:
        mini.scenario.params["rail_hexes"] = 25
    assert dest == {H("0907"): ("0907",), H("0807"): ("0907", "0807"),
                    H("0707"): ("0907", "0807", "0707")}


def test_19_3_rail_destinations_run_the_whole_line_within_25_hexes(mini: Game) -> None:
    # The fixture line is ten hexes long: with the book's 25-hex limit every other rail hex
    # of the line is a destination, each by the straight path along the line.
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    dest = destinations(View(mini), ("so-rifle-1",))
    cols = ["09", "08", "07", "06", "05", "04", "03", "02", "01"]
    expected = {H(f"{c}07"): tuple(f"{x}07" for x in cols[:i + 1]) for i, c in enumerate(cols)}
    assert dest == expected


def test_5_31_no_rail_destinations_from_a_hex_without_a_railroad(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1006"}, turn=2, reinforcements=False)
    assert destinations(View(mini), ("so-rifle-1",)) == {}


def test_5_33_no_rail_destinations_from_a_rail_hex_in_a_german_zone(mini: Game) -> None:
    # 0807 lies in the zone of the German unit at 0806: the train cannot start there (19.3).
    position(mini, {"so-rifle-1": "0807", "ge-inf-1": "0806"}, turn=2, reinforcements=False)
    assert destinations(View(mini), ("so-rifle-1",)) == {}



# -- refusals: each cites its case (the reason is what the player reads) -----------------------

def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def test_19_3_a_german_unit_cannot_ride_even_in_the_soviet_turn(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0207", "so-rifle-1": "1007"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("ge-inf-1",), ("0307",))) == \
        "[19.3] only the Soviet player may move units by rail"


def test_5_34_no_rail_move_in_a_mechanized_phase(mini: Game) -> None:
    # Only reachable if a scenario gave the Soviets a mechanized phase: an HQ may move in one.
    position(mini, {"so-hq-army": "1007"}, phase="mechanized", turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-hq-army",), ("0907",))) == \
        "[5.34] rail movement is allowed only in the initial movement phase"


def test_5_33_a_unit_moves_by_rail_once_a_phase(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    mini.apply(RailMove(("so-rifle-1",), ("0907",)))
    assert refusal(mini, RailMove(("so-rifle-1",), ("0807",))) == \
        "[5.33] so-rifle-1 has already moved normally this phase"


def test_5_31_a_rail_path_must_name_hexes(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-rifle-1",), ("zz",))) == \
        "[5.31] 'zz' is not a hex id (four digits CCRR, e.g. 0319)"
    assert refusal(mini, RailMove(("so-rifle-1",), ())) == "[5.31] the rail path is empty"


def test_19_3_the_refusal_names_the_hex_limit_and_the_length(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    mini.scenario.params["rail_hexes"] = 3
    try:
        assert refusal(mini, RailMove(("so-rifle-1",), ("0907", "0807", "0707", "0607"))) == \
            "[19.3] a rail move covers at most 3 rail hexes, this one 4"
    finally:
        mini.scenario.params["rail_hexes"] = 25


def test_19_3_capacity_counts_eight_units_by_the_book_when_the_scenario_says_nothing(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-rifle-2": "1007"}, turn=2, reinforcements=False)
    mini.scenario.params.pop("rail_units_per_turn", None)
    mini.scenario.params.pop("rail_hexes", None)
    mini.state.vars.rail_used = 7
    assert refusal(mini, RailMove(("so-rifle-1", "so-rifle-2"), ("0907",))) == \
        "[19.3] rail capacity is 8 units a turn; 7 already used, 2 more asked"
    assert mini.check(RailMove(("so-rifle-1",), ("0907",))) is None


def test_19_3_with_no_rail_move_yet_the_count_starts_at_zero(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    mini.state.vars.rail_used = 0
    mini.scenario.params["rail_units_per_turn"] = 1
    assert mini.check(RailMove(("so-rifle-1",), ("0907",))) is None
    # The scenario's own limit counts: with one unit used, none is left.
    mini.state.vars.rail_used = 1
    assert refusal(mini, RailMove(("so-rifle-1",), ("0907",))) == \
        "[19.3] rail capacity is 1 units a turn; 1 already used, 1 more asked"


def test_19_3_the_book_limit_of_25_rail_hexes_applies_when_the_scenario_says_nothing(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.rail import capacity, max_hexes
    mini.scenario.params.pop("rail_hexes", None)
    mini.scenario.params.pop("rail_units_per_turn", None)
    mini.state.vars.rail_used = 0
    view = View(mini)
    assert max_hexes(view) == 25
    assert capacity(view) == (0, 8)


def test_5_31_the_train_starts_only_on_a_friendly_rail_hex(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0807", "ge-inf-1": "0806"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-rifle-1",), ("0707",))) == (
        "[5.31] 0807 is not a friendly rail hex (it must have a railroad and be free of German units and zones)")


def test_19_3_a_rail_hex_held_by_a_german_unit_is_not_friendly(mini: Game) -> None:
    # The German stands on the railroad itself at 0707 (its zone covers 0807 too).
    from kiev_tui.games.spi_kiev.rail import friendly_rail
    position(mini, {"so-rifle-1": "1007", "ge-inf-1": "0707"}, turn=2, reinforcements=False)
    view = View(mini)
    assert friendly_rail(view, H("0707")) is False
    assert friendly_rail(view, H("0907")) is True


def test_5_31_each_step_must_follow_the_railroad(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-rifle-1",), ("0807",))) == "[5.31] no railroad runs from 1007 to 0807"


def test_22_22_under_the_directive_a_rail_move_may_not_end_in_a_higher_hexrow(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0807", "so-rifle-2": "0807", "so-hq-army": "0807", "so-rifle-3": "0507"},
             turn=7, reinforcements=False)
    mini.state.vars.directive = {7: True}
    assert refusal(mini, RailMove(("so-rifle-1", "so-rifle-2"), ("0907",))) == (
        "[22.22] Stalin's Directive: so-rifle-1, so-rifle-2 must end the rail move in hexrow 08 or lower")
    assert mini.check(RailMove(("so-rifle-1",), ("0707",))) is None
    # 22.1: an HQ, and a unit west of the line, are free of the order.
    assert mini.check(RailMove(("so-hq-army",), ("0907",))) is None
    assert mini.check(RailMove(("so-rifle-3",), ("0607", "0707"))) is None


def test_22_22_without_the_directive_a_rail_move_may_go_east(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0807"}, turn=7, reinforcements=False)
    mini.state.vars.directive = {7: False}
    assert mini.check(RailMove(("so-rifle-1",), ("0907",))) is None


def test_23_1_a_reinforcement_that_arrived_by_rail_rides_on_without_counting_twice(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=1)
    mini.state.vars.rail_used = 7
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert mini.state.vars.rail_used == 8
    # Its arrival used the eighth place: going on along the line needs no new one.
    assert mini.check(RailMove(("so-t01-rifle-1",), ("0907", "0807"))) is None
    assert refusal(mini, RailMove(("so-rifle-1",), ("0907",))) == \
        "[19.3] rail capacity is 8 units a turn; 8 already used, 1 more asked"


def test_5_31_a_step_to_an_adjacent_hex_off_the_railroad_is_refused_under_5_31(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-rifle-1",), ("1006",))) == "[5.31] no railroad runs from 1007 to 1006"


def test_5_1_no_rail_destinations_for_units_that_are_not_together(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-rifle-2": "0907"}, turn=2, reinforcements=False)
    assert destinations(View(mini), ("so-rifle-1", "so-rifle-2")) == {}
    assert destinations(View(mini), ()) == {}


def test_5_33_the_train_may_not_pass_a_hex_in_a_german_zone(mini: Game) -> None:
    # 0707 lies in the zone of the German unit at 0806: the line is cut there, whatever lies beyond.
    position(mini, {"so-rifle-1": "0507", "ge-inf-1": "0806"}, turn=2, reinforcements=False)
    assert refusal(mini, RailMove(("so-rifle-1",), ("0607", "0707", "0807"))) == (
        "[5.33] 0707 is German-occupied or German-controlled: the train cannot pass")
    assert mini.check(RailMove(("so-rifle-1",), ("0607",))) is None


def test_22_22_a_rail_move_that_ends_in_its_own_hexrow_is_allowed(mini: Game) -> None:
    # A spur along hexrow 08 (0807-0806) lets a bound unit go by rail without going east.
    gm = mini.scenario.map
    gm.set_side_features(H("0807"), H("0806"), frozenset({"railroad"}))
    position(mini, {"so-rifle-1": "0807", "so-hq-army": "0707"}, turn=7, reinforcements=False)
    mini.state.vars.directive = {7: True}
    assert mini.check(RailMove(("so-rifle-1",), ("0806",))) is None
    assert refusal(mini, RailMove(("so-rifle-1",), ("0907",))) == (
        "[22.22] Stalin's Directive: so-rifle-1 must end the rail move in hexrow 08 or lower")
