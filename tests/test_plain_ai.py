"""Plain line mode against the computer (`kiev-tui play --plain --ai SIDE`): the computer plays
its turns and answers in the same transcript, with no hand-over, and never as the human's side."""

from __future__ import annotations

import io

from kiev_tui.ai.local import computer_player
from kiev_tui.engine.game import Game
from kiev_tui.plain.loop import run
from kiev_tui.plain.session import PlainSession, action_text

from tests.conftest import MINI


def transcript(game: Game, typed: str, computer_side: str) -> list[str]:
    out = io.StringIO()
    computer = computer_player(game, computer_side, "easy", seed=11, seconds=5.0)
    assert run(game, None, stdin=io.StringIO(typed), stdout=out, width=200, computer=computer) == 0
    return out.getvalue().splitlines()


def computer_lines(game: Game, side: str) -> list[str]:
    """What the transcript must say for each action the computer's side took, in order."""
    s = PlainSession(game, 200)
    return [f"Computer: {action_text(s, a)}" for a, who in zip(game.log, game.sides) if who == side]


def test_the_computer_plays_its_turn_then_the_human_has_the_keyboard_again() -> None:
    game = Game.new(MINI, seed=3)
    lines = transcript(game, "enter 1 1005\nenter 1 1005\nend\nend\nquit\n", "german")
    assert "You play the Soviet side; the computer plays the German side." in lines
    head = lines.index("German player's turn: movement phase (the computer)")
    back = lines.index("Soviet player's turn: movement phase")
    said = [line for line in lines[head:back] if line.startswith("Computer: ")]
    assert said == computer_lines(game, "german") and len(said) >= 3
    assert said[-1] == "Computer: end_phase"  # its mechanized phase ends the turn
    assert not any(line.startswith("Hand over") for line in lines)
    # Every German action was the computer's; every Soviet one was typed.
    assert [who for who in game.sides] == ["soviet"] * 4 + ["german"] * len(said)
    assert (game.state.turn, game.state.player, game.state.phase) == (2, "soviet", "movement")
    assert lines[-1].startswith("T2 Soviet movement> quit")


def test_when_the_computer_moves_first_the_opening_plays_its_turn() -> None:
    game = Game.new(MINI, seed=3)
    lines = transcript(game, "quit\n", "soviet")
    assert "You play the German side; the computer plays the Soviet side." in lines
    assert "Soviet player's turn." not in lines  # the opening does not show the human the computer's turn
    head = lines.index("Soviet player's turn: movement phase (the computer)")
    assert lines.index("German player's turn: movement phase") > head
    said = [line for line in lines if line.startswith("Computer: ")]
    assert said == computer_lines(game, "soviet")
    # 23.0: it brought on both reinforcements due before ending its movement phase.
    assert [game.state.units[u].status for u in ("so-t01-rifle-1", "so-t01-rifle-2")] == ["map", "map"]
    assert (game.state.turn, game.state.player, game.state.phase) == (1, "german", "movement")


def test_no_hand_over_pause_on_a_terminal_against_the_computer() -> None:
    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 200, pause=True, computer=computer_player(game, "german", "easy", seed=11))
    s.handle("enter 1 1005")
    s.handle("enter 1 1005")
    s.handle("end")
    out = s.handle("end")
    assert not s.handing_over and s.held == []
    assert "Soviet player's turn: movement phase" in out
    assert s.seat == "soviet" and game.actor == "soviet"


def test_the_human_cannot_take_back_the_computer_s_action() -> None:
    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 200, computer=computer_player(game, "soviet", "easy", seed=11))
    s.opening()  # the computer plays the Soviet first turn; its last action is its own
    assert game.sides[-1] == "soviet"
    n = len(game.log)
    assert s.handle("undo") == ["Nothing to undo: the last action was the computer's."]
    assert len(game.log) == n


def test_a_computer_that_never_finishes_hands_the_keyboard_over() -> None:
    import kiev_tui.plain.session as session_module

    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 200, computer=computer_player(game, "soviet", "easy", seed=11))
    old = session_module.COMPUTER_ACTIONS_MAX
    session_module.COMPUTER_ACTIONS_MAX = 1
    try:
        lines = s.opening()
    finally:
        session_module.COMPUTER_ACTIONS_MAX = old
    assert lines[-1] == "The computer did not finish its turn; you may play its side ('todo' says what is waiting)."
    assert len([line for line in lines if line.startswith("Computer: ")]) == 1
    assert s.seat == "soviet" == game.actor
