"""Issue 36 item 7: Ctrl-D in plain mode on a terminal asks, as `quit` does, before moves are lost.

On a real pty: with a move unsaved, Ctrl-D asks the question; `n` goes back to the prompt with the
game as it was, a second Ctrl-D at the question quits.  With nothing unsaved Ctrl-D quits at once.
From a pipe the end of input quits without a question (docs/PLAIN.md).
"""

from __future__ import annotations

import io
import time
from pathlib import Path

from kiev_tui.engine.game import Game
from kiev_tui.plain.loop import run
from tests.test_pty_hardening import MINI, App
from tests.test_pty_plain import wait_prompt

CTRL_D = b"\x04"
QUESTION = "1 action(s) since the last save would be lost; quit anyway? (y/n) "


def _start(tmp_path: Path) -> App:
    app = App(tmp_path, "play", "--plain", "--no-resume", "--seed", "3", str(MINI), width=80, height=24)
    assert wait_prompt(app, 0), app.tail()
    return app


def _ended(app: App, timeout: float = 30.0) -> int | None:
    end = time.monotonic() + timeout
    while app.alive() and time.monotonic() < end:
        app.pump(0.1)
    return app.proc.poll()


def test_ctrl_d_with_an_unsaved_move_asks_and_a_second_ctrl_d_quits(tmp_path: Path) -> None:
    app = _start(tmp_path)
    try:
        start = len(app.raw)
        app.send(b"move 0703 0603\r")
        assert wait_prompt(app, start), app.tail()
        start = len(app.raw)
        app.send(CTRL_D)
        assert wait_prompt(app, start), app.tail()
        assert bytes(app.raw[start:]).decode().endswith(QUESTION), app.tail()
        assert app.alive()
        start = len(app.raw)
        app.send(b"n\r")  # not quitting: back at the prompt, the move still there
        assert wait_prompt(app, start), app.tail()
        assert bytes(app.raw[start:]).decode().endswith("T1 Soviet movement> "), app.tail()
        start = len(app.raw)
        app.send(b"undo\r")  # the move was kept: undo takes it back
        assert wait_prompt(app, start), app.tail()
        assert "Took back: move units=102 rifle XX path=0603" in bytes(app.raw[start:]).decode(), app.tail()
        start = len(app.raw)
        app.send(b"move 0703 0603\r")
        assert wait_prompt(app, start), app.tail()
        start = len(app.raw)
        app.send(CTRL_D)
        assert wait_prompt(app, start), app.tail()
        assert bytes(app.raw[start:]).decode().endswith(QUESTION), app.tail()
        app.send(CTRL_D)  # a second end of input at the question quits
        assert _ended(app) == 0, app.tail()
    finally:
        app.stop()


def test_ctrl_d_then_yes_quits(tmp_path: Path) -> None:
    app = _start(tmp_path)
    try:
        start = len(app.raw)
        app.send(b"move 0703 0603\r")
        assert wait_prompt(app, start), app.tail()
        start = len(app.raw)
        app.send(CTRL_D)
        assert wait_prompt(app, start), app.tail()
        assert bytes(app.raw[start:]).decode().endswith(QUESTION), app.tail()
        app.send(b"y\r")
        assert _ended(app) == 0, app.tail()
    finally:
        app.stop()


def test_ctrl_d_with_nothing_unsaved_quits_at_once(tmp_path: Path) -> None:
    app = _start(tmp_path)
    try:
        start = len(app.raw)
        app.send(CTRL_D)
        assert _ended(app) == 0, app.tail()
        assert "quit anyway" not in bytes(app.raw[start:]).decode()
    finally:
        app.stop()


def test_piped_input_that_ends_quits_without_a_question() -> None:
    game = Game.new(MINI, 3)
    out = io.StringIO()
    assert run(game, stdin=io.StringIO("move 0703 0603\n"), stdout=out, width=80) == 0
    assert game.unsaved == 1  # a move was lost, as on a pipe the docs say: nothing is asked
    assert "quit anyway" not in out.getvalue()
