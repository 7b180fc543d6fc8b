"""A second reinforcement group ends the first group's move (5.0, 15.0): the rules say so before it
happens (issue 35), and plain mode warns, at a terminal asking for the command again."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter, Move
from kiev_tui.games.spi_kiev.movement import Caution, ends_hand
from kiev_tui.plain.session import PlainSession

from tests.conftest import MINI

FIRST, SECOND = "so-t01-rifle-1", "so-t01-rifle-2"
WHY = ("so-t01-rifle-1 in 1005 still has 5 MP; moving or bringing on other units now ends its move "
       "for this phase")


def entered_one() -> Game:
    game = Game.new(MINI, seed=3)
    game.apply(Enter((FIRST,), "1005"))
    return game


def test_5_0_the_rules_say_which_units_a_second_group_would_stop() -> None:
    game = entered_one()
    view = game.rules.position(game)
    assert ends_hand(view, (SECOND,)) == Caution("5.0", WHY, (FIRST,))
    assert ends_hand(view, (FIRST,)) is None  # the group in hand going on loses nothing
    game.apply(Enter((SECOND,), "1007"))
    # as the caution said: the first group's move is over
    assert str(game.check(Move((FIRST,), ("0905",)))).startswith("[5.0] so-t01-rifle-1 already finished its move")


def test_5_0_no_caution_once_the_group_in_hand_has_no_mp_left() -> None:
    game = entered_one()
    assert game.check(Move((FIRST,), ("0905", "0805"))) is None
    view = game.rules.position(game)
    spent = view.vars.mp[FIRST]
    game.state.vars.mp = {**view.vars.mp, FIRST: 6.0}  # its whole allowance of 6 spent
    assert ends_hand(game.rules.position(game), (SECOND,)) is None
    game.state.vars.mp = {**view.vars.mp, FIRST: spent}
    assert ends_hand(game.rules.position(game), (SECOND,)) == Caution("5.0", WHY, (FIRST,))


NOTE = ["Note [5.0] untried rifle XX in 1005 still has 5 MP; moving or bringing on other units now ends its",
        "  move for this phase (rules 5.0)"]


def test_plain_warns_before_the_next_group_ends_the_first_groups_move() -> None:
    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 100, pause=True)
    # before: as the first group comes on while another is still due, and when listing what is due
    assert s.handle("enter 1 1005") == ["Reinforcements untried rifle XX enter at 1005 (1 MP)", *NOTE]
    assert s.handle("enter")[-2:] == NOTE
    # and as it happens: the note comes first, then the second group's entry
    assert s.handle("enter 1 1007") == [*NOTE, "Reinforcements untried rifle XX enter at 1007 (1 MP)"]
    assert len(game.log) == 2


def test_plain_says_nothing_when_no_mp_would_be_lost() -> None:
    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 100)
    s.handle("enter 1 1005")
    assert s.handle("move 1005 1004 1003 1002 0902 0801")[0].endswith("(5 MP)")  # all 6 MP spent
    assert s.handle("enter") == ["Reinforcements due now (enter N[,N] HEX [rail]):", "  1. untried rifle XX: 1005 1007"]
    assert s.handle("enter 1 1007") == ["Reinforcements untried rifle XX enter at 1007 (1 MP)"]  # the last group
