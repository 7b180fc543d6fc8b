"""Playing the computer on the game screen: the AI's moves arrive as a seat's would, the human
plays his side, and the new-game dialog offers the computer as either side."""

from __future__ import annotations

from dataclasses import replace

import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from textual.pilot import Pilot

from kiev_tui.ai.arena import RandomPlayer
from kiev_tui.ai.local import LocalAILink, ai_link
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.saves import load_game
from kiev_tui.ui.app import build_app

from tests.ui.helpers import game_screen, keys, new_mini, status

SIZE = (120, 40)


async def until(pilot: Pilot, ok: Callable[[], bool], seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < end, "timed out waiting for the screen"
        await pilot.pause(0.02)


def _against_the_soviet_computer(tmp_path: Path) -> tuple[Any, LocalAILink, Any]:
    """The mini game, the strong AI as the Soviet (seeded, no pause between its moves), its app."""
    game = new_mini()
    link = ai_link(game, "soviet", "strong", seed=5, pause=0)
    return game, link, build_app(game, save_path=tmp_path / "auto.toml", net=link)


async def test_the_computer_plays_the_soviet_turn_on_the_screen_and_hands_the_move_over(tmp_path: Path) -> None:
    game, link, app = _against_the_soviet_computer(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: game.actor == "german" and "Your move, German player." in status(app))
            screen = game_screen(app)
            assert screen.seat == "german" and app.game is game
            assert game.log and set(game.sides) == {"soviet"} and link.refused == 0
            assert game.state.units["so-t01-rifle-1"].status == "map"  # its reinforcements came on
            # the Soviet turn ended: the autosave holds it
            assert load_game(tmp_path / "auto.toml").state_hash() == game.state_hash()
            # the computer's moves stand: no undo over them
            assert link.request_undo() == "the computer's moves cannot be taken back"
            # the human's own action is played by the link, on this screen's game
            n = len(game.log)
            await keys(pilot, "P", "y")
            await until(pilot, lambda: len(game.log) == n + 1)
            assert game.sides[-1] == "german" and game.log[-1] == EndPhase()
            await keys(pilot, "u")
            await until(pilot, lambda: "Undone: your last action" in status(app))
            assert len(game.log) == n
    finally:
        link.close()


def test_a_whole_game_through_the_link_with_the_human_answering_in_the_computers_turn() -> None:
    # The link's own flow without a screen: as on the screen, every message is absorbed on this
    # ("the screen's") thread while the worker waits; the human side is played by the random bot.
    game = new_mini(seed=3)
    link = ai_link(game, "german", "strong", seed=4, pause=0)
    # On the mini map the German's attacks that the human answers come in its last turn, where
    # the "endgame" part (ai_endgame.py) now moves to cut Soviet supply instead: without it here,
    # so that the link's answering in the computer's turn is exercised.
    link.ai.level = replace(link.ai.level, parts=link.ai.level.parts - {"endgame"})  # type: ignore[attr-defined]
    inbox: "queue.Queue[tuple[dict, threading.Event]]" = queue.Queue()

    def post(msg: dict) -> None:  # what face.py's post does: hand over, wait until shown
        done = threading.Event()
        inbox.put((msg, done))
        done.wait()

    link.start(post)
    human = RandomPlayer("soviet", 9, "spi_kiev")
    answered_in_german_turn = 0
    end = time.monotonic() + 60
    try:
        while not game.state.over:
            assert time.monotonic() < end, f"stuck at {game.phase}"
            try:
                msg, done = inbox.get(timeout=0.01)
            except queue.Empty:
                msg = None
            if msg is not None:
                link.absorb(msg)
                done.set()
                continue
            if game.actor != "soviet" or link.waiting_ref:
                continue
            if game.state.pending is not None and game.state.player == "german":
                answered_in_german_turn += 1
            assert link.submit(human.decide(game)) == ""
    finally:
        link.close()
    assert link.refused == 0 and set(game.sides) == {"german", "soviet"}
    assert answered_in_german_turn > 0
    assert game.rules.score(game).winner in ("german", "soviet")


def test_ai_link_refuses_a_side_or_level_the_game_lacks() -> None:
    with pytest.raises(ValueError, match="no side 'axis' in this game"):
        ai_link(new_mini(), "axis")
    with pytest.raises(ValueError, match="unknown AI level 'hard'"):
        ai_link(new_mini(), "german", "hard")


async def test_new_game_dialog_offers_the_computer_as_either_side(tmp_path: Path) -> None:
    game = new_mini()
    app = build_app(game, save_path=tmp_path / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "N")
        body = "\n".join(app.screen.lines)
        assert "1: the computer plays German" in body and "2: the computer plays Soviet" in body
        await keys(pilot, "2")
        screen = game_screen(app)
        fresh = screen.game
        assert fresh is not game and isinstance(app.net, LocalAILink) and app.net.ai_side == "soviet"
        await until(pilot, lambda: fresh.actor == "german" and bool(fresh.log))
        assert screen.seat == "german" and set(fresh.sides) == {"soviet"}
        app.net.close()


async def test_against_the_computer_new_and_load_stay_and_quit_asks_about_unsaved_moves(tmp_path: Path) -> None:
    # a local opponent is not a host: the game is this player's own record
    game, link, app = _against_the_soviet_computer(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: game.actor == "german" and "Your move, German player." in status(app))
            screen = game_screen(app)
            assert screen.check_action("new_game", ()) is True
            assert screen.check_action("load", ()) is True
            n = len(game.log)
            move = _a_german_move(game)
            assert link.submit(move) == ""  # one move since the autosave of the Soviet turn's end
            await until(pilot, lambda: len(game.log) == n + 1)
            assert game.unsaved == 1
            await keys(pilot, "ctrl+q")
            assert app.screen.title_text == "Quit without saving?"
            await keys(pilot, "n")
    finally:
        link.close()


def _a_german_move(game: object) -> object:
    """Some legal move of a German stack (the first one found, hex by hex)."""
    from kiev_tui.ui.adapter import adapter_for

    adapter = adapter_for(game)
    for h in adapter.actors(game):
        ids = tuple(u for u in game.state.occupancy().get(str(h), []))
        for to, reach in game.reachable(ids).items():
            if reach.ok and len(reach.path) > 1:
                return adapter.move_action(game, ids, reach.path)
    raise AssertionError("no German stack can move")


class _HeldPlayer:
    """The easy AI, held before its first decision until the test lets it go."""

    def __init__(self, side: str) -> None:
        from kiev_tui.games.spi_kiev.ai import KievAI

        self.side, self.name = side, "held"
        self.inner = KievAI(side, "easy", seed=3)
        self.thinking = threading.Event()
        self.go = threading.Event()

    def decide(self, game: Any) -> Any:
        self.thinking.set()
        self.go.wait(60)
        return self.inner.decide(game)


# Every key of the game screen that plays, ends, takes back or replaces something (Kiev's own
# keys too: reinforce, rail, overrun, remove, attack).
_GAME_CHANGING_KEYS = ("P", "u", "O", "N", "enter", "p", "C", "1", "i", "t", "o", "x", "c")


async def test_no_key_changes_the_game_while_the_computer_acts(tmp_path: Path) -> None:
    game = new_mini()
    held = _HeldPlayer("soviet")
    link = LocalAILink(game, held, pause=0)  # type: ignore[arg-type]
    app = build_app(game, save_path=tmp_path / "auto.toml", net=link)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, held.thinking.is_set)
            screen = game_screen(app)
            assert game.actor == "soviet" and screen.computer_acting()
            before, logged = game.state_hash(), len(game.log)
            offered = {action for _, _, action in screen.working_keys()}
            assert not offered & {"end_phase", "undo", "select", "pending", "attack", "reinforce"}
            for key in _GAME_CHANGING_KEYS:
                await keys(pilot, key)
                assert app.screen is screen, f"{key} opened {type(app.screen).__name__} in the computer's turn"
                assert game.state_hash() == before and len(game.log) == logged, f"{key} changed the game"
            await keys(pilot, "P")  # the end-phase question must not wait behind the computer's turn
            held.go.set()
            await until(pilot, lambda: game.actor == "german" and "Your move, German player." in status(app))
            await keys(pilot, "y")  # an answer to a question that was never asked
            assert (game.state.player, game.state.phase) == ("german", "movement")
            assert "german" not in game.sides  # the player's own phase has not been ended for him
            assert {"end_phase", "undo"} <= {action for _, _, action in screen.working_keys()}
    finally:
        held.go.set()
        link.close()


class _BrokenPlayer:
    """A computer player with a bug: it fails on its first decision."""

    side, name = "soviet", "broken"

    def decide(self, game: Any) -> Any:
        raise RuntimeError("no idea")


async def test_a_failed_computer_gives_the_keys_back(tmp_path: Path) -> None:
    game = new_mini()
    link = LocalAILink(game, _BrokenPlayer(), pause=0)  # type: ignore[arg-type]
    app = build_app(game, save_path=tmp_path / "auto.toml", net=link)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "the computer player failed: RuntimeError: no idea" in status(app))
            screen = game_screen(app)
            assert game.actor == "soviet" and link.stalled and not screen.computer_acting()
            assert screen.check_action("new_game", ()) is True and screen.check_action("load", ()) is True
    finally:
        link.close()
