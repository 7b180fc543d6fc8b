"""Bytes that are not UTF-8 never end a game (issue 36, item 1).

An 8-bit Alt key, a Latin-1 terminal or a badly set SSH client sends bytes such as 0xFF.
Textual's input thread decoded strictly, so one such byte ended the app with status 0 and lost
the moves since the last phase end.  These tests type them on a real pty: into `kiev-tui play`
and through a `kiev-tui serve` login.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_pty_hardening import ESC, game_screen_answers, new_mini_app, quit_cleanly
from tests.test_serve import GAME, LOBBY, SOVIET, Screen, _connect, keys, server  # noqa: F401 (fixtures)
from tests.test_serve_support import Server

#: Bytes no UTF-8 text holds: never a lead byte, a lone continuation byte, a lead byte whose
#: continuation never comes (the next key is ASCII), and a surrogate's encoding.
BAD = [b"\xff", b"\xfe", b"\x80", b"\xc3", b"\xed\xa0\x80"]
#: Keys that look around without changing the game: cursor moves, help and back, inspector.
HARMLESS = [b"w", b"a", b"s", b"d", b"e", b"q", b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"]


def storm(n: int, seed: int) -> bytes:
    """``n`` keys, about one in five of them a byte sequence that is not UTF-8."""
    rng = random.Random(seed)
    return b"".join(rng.choice(BAD) if rng.random() < 0.2 else rng.choice(HARMLESS) for _ in range(n))


def test_one_bad_byte_in_play_is_ignored(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        app.send(b"\xff")
        app.settle()
        assert app.alive(), app.tail()
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def test_a_storm_of_keys_and_bad_bytes_in_play(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        keys = storm(2000, seed=36)
        assert keys.count(b"\xff") > 50  # the storm really holds bad bytes
        for i in range(0, len(keys), 512):  # as a paste or a held key arrives: many keys a read
            app.send(keys[i:i + 512])
            app.pump(0.05)
        app.settle(0.5, 60)
        assert app.alive(), app.tail()
        app.send(ESC)
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


@pytest.mark.asyncio
async def test_bad_bytes_through_a_serve_seat(server: Server, keys: dict[str, Path]) -> None:  # noqa: F811
    async with await _connect(server.port, keys["alice"]) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        screen = Screen(process, 100, 30)
        assert await screen.wait_for(LOBBY), screen.raw[-1500:]
        process.stdin.write(b"n")
        assert await screen.wait_for(r"Which scenario\?"), screen.term.text()
        process.stdin.write(b"1")
        assert await screen.wait_for(r"Which side will you play\?"), screen.term.text()
        process.stdin.write(SOVIET)
        assert await screen.wait_for(GAME, 60), screen.raw[-1500:]
        await screen.settle()
        process.stdin.write(b"\xff" + storm(400, seed=7) + b"\xfe")
        await screen.settle(0.5, 60)
        process.stdin.write(ESC)
        await screen.settle()
        screen.raw.clear()
        process.stdin.write(b"?")
        assert await screen.wait_for(r"Help: \w+ phase", 30), screen.term.text()
        assert b"Traceback" not in screen.raw and b"UnicodeDecodeError" not in screen.raw
        process.stdin.write(ESC)
        assert await screen.wait_for(GAME, 30), screen.term.text()
        process.stdin.write(b"\x11")  # ctrl+q: back to the lobby, the game kept
        end = time.monotonic() + 30
        while not await screen.wait_for(LOBBY, 0.5) and time.monotonic() < end:
            if "Quit without saving?" in screen.term.text():
                process.stdin.write(b"y")
        assert await screen.wait_for(LOBBY, 5), screen.term.text()
        process.stdin.write(b"q")
        result = await asyncio.wait_for(process.wait(), 30)
        assert result.exit_status == 0


# -- item 2: a crash says so, exits non-zero and keeps the game ---------------------------------

FAULT = '''\
import os
if os.environ.get("KIEV_TUI_TEST_FAULT") == "help":
    # The test's own fault: the help key raises inside the app, as a bug would.
    import kiev_tui.ui.game_screen as screen

    def broken_help(self):
        raise RuntimeError("a fault planted by the test")

    screen.GameScreen.action_help = broken_help
if os.environ.get("KIEV_TUI_TEST_FAULT") == "input":
    # The keyboard thread fails once the first key arrives (as the strict decoder did on 0xFF).
    import kiev_tui.ui.driver as driver

    def broken_input(self):
        import select
        select.select([self.fileno], [], [])
        raise RuntimeError("the input thread fails")

    driver.ShadowDriver.run_input_thread = broken_input
'''


def faulty_play(tmp_path: Path, fault: str) -> Any:
    """`kiev-tui play` of the mini scenario on a pty, with the named fault of FAULT planted."""
    import os
    import sys

    from tests.ptyprog import PtyProgram
    from tests.test_pty_hardening import MINI, ROOT

    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(FAULT)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES")}
    env.update({"PYTHONPATH": f"{inject}:{ROOT}", "TERM": "xterm-256color", "KIEV_TUI_PLAYER": "tester",
                "KIEV_TUI_TEST_FAULT": fault})
    app = PtyProgram([sys.executable, "-m", "kiev_tui", "play", "--no-resume", "--scenario", str(MINI)],
                     120, 40, env, cwd=tmp_path)
    assert app.wait_for(r"Sequence of play", 60), app.tail()
    return app


def line_after_screen(app: Any) -> list[str]:
    """What the program printed once it had left the full screen."""
    out = app.tail(3000)
    return out[out.index("kiev-tui stopped"):].replace("\r", "").strip().splitlines()


def test_a_crash_saves_the_game_prints_one_line_and_exits_non_zero(tmp_path: Path) -> None:
    from kiev_tui.engine.saves import load_game

    app = faulty_play(tmp_path, "help")
    try:
        app.send(b"i")  # bring on a Soviet reinforcement: one action that no autosave holds yet
        assert app.wait_for(r"Reinforcements due now", 30), app.text()
        app.send(b"\t")
        app.settle()
        app.send(b"\r")
        assert app.wait_for(r"enters? at|entered|arriv", 30), app.text()
        app.settle()
        app.send(b"?")  # the planted fault
        app.proc.wait(timeout=60)
        app.settle(0.2, 5)
    finally:
        app.stop()
    assert app.proc.returncode == 1, app.tail()
    out = app.tail(3000)
    assert "Traceback" not in out and "a fault planted by the test" in out
    saves = tmp_path / "saves"
    crash = saves / "crash-turn01-soviet-movement.toml"
    assert line_after_screen(app) == [f"kiev-tui stopped on an internal error (RuntimeError: a fault planted by the test); "
                     f"the game as it stood is saved in saves/crash-turn01-soviet-movement.toml; "
                     f"details in saves/crash-details.log"], out
    assert len(load_game(crash).log) == 1
    assert "a fault planted by the test" in (saves / "crash-details.log").read_text()


def test_a_crash_of_the_input_thread_exits_non_zero(tmp_path: Path) -> None:
    """Textual reports a failed input thread by `panic`, which left the exit status 0."""
    app = faulty_play(tmp_path, "input")
    try:
        app.send(b"w")
        app.proc.wait(timeout=60)
        app.settle(0.2, 5)
    finally:
        app.stop()
    assert app.proc.returncode == 1, app.tail()
    assert line_after_screen(app) == [
        "kiev-tui stopped on an internal error (an internal error while reading the keyboard); "
        "the last save or autosave holds the game as it stood; details in saves/crash-details.log"]
    assert "the input thread fails" in (tmp_path / "saves" / "crash-details.log").read_text()
