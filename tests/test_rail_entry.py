"""Reinforcements that came on together, by rail or by road, may go on (issue 20 item 7).

Mini map: a railroad along row 07 (0107-1007); the Soviet turn-1 reinforcements (two rifle
units) enter in area K, whose only rail exit is 1007.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter, Move, RailMove

PAIR = ("so-t01-rifle-1", "so-t01-rifle-2")


def test_5_0_a_stack_that_entered_together_may_split_and_move_on(mini: Game) -> None:
    mini.apply(Enter(PAIR, "1005"))
    mini.apply(Move(PAIR[:1], ("0905",)))
    # the other unit entered in the same hand: it is not finished because its stack-mate moved on
    assert mini.check(Move(PAIR[1:], ("1004",))) is None
    mini.apply(Move(PAIR[1:], ("1004",)))
    assert mini.state.units[PAIR[1]].hex == "1004"


def test_5_0_a_stack_is_finished_once_a_unit_from_outside_it_moves(mini: Game) -> None:
    mini.apply(Enter(PAIR, "1005"))
    mini.apply(Move(PAIR[:1], ("0905",)))
    mini.apply(Move(("so-rifle-2",), ("0702",)))  # another stack: the hand has left the pair
    bad = mini.check(Move(PAIR[1:], ("1004",)))
    assert bad is not None and bad.case == "5.0"


def test_5_33_units_that_came_by_rail_ride_on_together_after_others_moved(mini: Game) -> None:
    mini.apply(Enter(PAIR, "1007", True))
    mini.apply(Move(("so-rifle-2",), ("0702",)))  # some other stack moves meanwhile
    assert mini.check(RailMove(PAIR, ("0907", "0807"))) is None
    mini.apply(RailMove(PAIR[:1], ("0907",)))  # one rides on; its stack-mate may still follow
    assert mini.check(RailMove(PAIR[1:], ("0907", "0807"))) is None


def test_5_33_a_rail_arrival_may_not_move_normally_and_is_told_how_to_go_on(mini: Game) -> None:
    mini.apply(Enter(PAIR, "1007", True))
    bad = mini.check(Move(PAIR, ("1006",)))
    assert bad is not None and bad.case == "5.33"
    assert bad.why == "so-t01-rifle-1 came on by rail this phase: it may go on only by rail, not move normally"
