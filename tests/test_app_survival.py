"""The app survives hostile terminals: tiny and huge sizes, resizes during play, NO_COLOR,
a limited terminal over a real pty, and being closed or cut off in the middle of a game."""

from __future__ import annotations

import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import pytest

# The UI is the project's own code: if it cannot be imported the tests fail, never skip.
from kiev_tui.engine import savepaths
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.ui.app import build_app

from test_properties import MINI, check_position
ROOT = Path(__file__).resolve().parent.parent

#: Keys a player might press anywhere: cursor moves, next stack, select, cancel, help and back.
WANDER = ["d", "right", "tab", "enter", "s", "escape", "question_mark", "escape"]


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def wander(pilot, keys: list[str] = WANDER) -> None:  # type: ignore[no-untyped-def]
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


SIZES = [(40, 12), (80, 24), (120, 40), (250, 80)]  # the resize test visits more


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_every_size_from_tiny_to_huge(size: tuple[int, int]) -> None:
    game = Game.new(MINI, seed=7)
    app = build_app(game)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await wander(pilot)
        text = screen_text(app)
        assert text.strip(), "nothing on the screen"
        lines = text.splitlines()
        assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
    check_position(game)


async def test_resizes_during_play() -> None:
    game = Game.new(MINI, seed=7)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await wander(pilot, ["tab", "enter"])  # a stack selected, its reachable hexes shown
        for w, h in [(40, 12), (250, 80), (41, 13), (200, 30), (60, 50), (120, 40)]:
            await pilot.resize_terminal(w, h)
            await pilot.pause()
            await wander(pilot, ["s"])
            lines = screen_text(app).splitlines()
            assert len(lines) == h and all(len(line) <= w for line in lines), f"bad frame at {w}x{h}"
        await wander(pilot, ["escape"])


async def test_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app(Game.new(MINI, seed=7))
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await wander(pilot, ["tab", "enter", "s", "escape"])
        assert screen_text(app).strip()


async def test_ascii_mode_draws_the_map_in_ascii() -> None:
    app = build_app(Game.new(MINI, seed=7), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wander(pilot, ["tab", "enter", "s", "escape"])
        from kiev_tui.ui.hexmap import HexMap

        hexmap = app.screen.query_one(HexMap)
        strips = [hexmap.render_line(y) for y in range(hexmap.size.height)]
        text = "".join(seg.text for strip in strips for seg in strip)
        assert text.strip() and text.isascii(), sorted({c for c in text if not c.isascii()})


def ready_to_end_phase(seed: int = 7) -> Game:
    """A mini game (played, so it saves and loads) whose first phase may end: arrivals are in."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.games.spi_kiev import bot

    game = Game.new(MINI, seed=seed)
    rng = random.Random(seed)
    while game.check(EndPhase()) is not None:
        act = next(a for a in bot.movement_actions(game, rng) if game.check(a) is None)
        game.apply(act)
    return game


async def test_closing_mid_game_keeps_the_autosave(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.toml"
    game = ready_to_end_phase()
    app = build_app(game, save_path=autosave)
    async with app.run_test(size=(120, 40)) as pilot:
        await wander(pilot, ["P", "y"])  # end the movement phase: the autosave is written
        assert game.state.phase == "combat", game.phase
        at_phase_end = game.state_hash()
        assert load_game(autosave).state_hash() == at_phase_end
        await wander(pilot, ["tab", "enter", "s"])  # something half done in the new phase
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert autosave.exists()
    again = load_game(autosave)
    assert again.state_hash() == at_phase_end
    check_position(again)


# -- through a real pseudo-terminal -------------------------------------------------------------------

if str(ROOT) not in sys.path:  # the benchmarks package lives at the top of the repository
    sys.path.insert(0, str(ROOT))
from benchmarks import pty_session  # noqa: E402


def _play(tmp: Path, width: int, height: int, *args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    base["PYTHONPATH"] = str(ROOT)
    base.update(env or {})
    return pty_session.PtySession([sys.executable, "-m", "kiev_tui", "play", "--no-resume", *args], width, height,
                                  cwd=str(tmp), env=base, quiet=0.4)


def test_limited_terminal_no_color_ascii(tmp_path: Path) -> None:
    """TERM=linux (16 colours), NO_COLOR, --ascii, 80x24: it paints, takes keys and quits cleanly."""
    s = _play(tmp_path, 80, 24, "--ascii", "--scenario", str(MINI), env={"TERM_FOR_BENCH": "linux", "NO_COLOR": "1"})
    s.start()
    try:
        first = s.read_until_quiet()
        assert first > 500, bytes(s.transcript[-400:])
        for key in (b"s", b"\t", b"\r", b"\x1b"):
            s.send(key, wait=5)
        out = bytes(s.transcript)
        assert not re.search(rb"\x1b\[[0-9;]*(38|48);[25];", out), "colour codes sent although NO_COLOR is set"
        s.send(b"\x11")  # ctrl+q
        deadline = time.monotonic() + 10
        while s.proc.poll() is None and time.monotonic() < deadline:  # type: ignore[union-attr]
            s.read_until_quiet(first_byte_timeout=0.2)
        assert s.proc.returncode == 0, bytes(s.transcript[-600:])  # type: ignore[union-attr]
        assert b"\x1b[?1049l" in bytes(s.transcript), "the terminal was not given back (alternate screen left on)"
    finally:
        s.close()


def test_a_dropped_connection_keeps_the_autosave(tmp_path: Path) -> None:
    """SIGHUP (an SSH link dropping) in the middle of a phase: the last phase end survives.

    Every step waits for what the screen or the disk shows, never for a fixed time: on a busy
    machine the app may take many seconds to start or to answer a key (issue 35).
    """
    from tests.ptyprog import PtyProgram

    game = ready_to_end_phase()
    before = len(game.log)
    saves = tmp_path / "saves"
    saves.mkdir()
    autosave = savepaths.autosave_path(saves)  # this player's own autosave
    game.save(autosave)  # `play` resumes this one
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES")}
    env.update({"PYTHONPATH": str(ROOT), "TERM": "xterm-256color"})
    app = PtyProgram([sys.executable, "-m", "kiev_tui", "play"], 100, 30, env, cwd=tmp_path)
    try:
        assert app.wait_for(r"Sequence of play", 120), app.tail()
        app.send(b"P")
        assert app.wait_for(r"End the phase\? \(y/n\)", 60), app.text()
        app.send(b"y")  # the phase ends: autosave
        deadline = time.monotonic() + 120
        while len(load_game(autosave).log) != before + 1:
            assert time.monotonic() < deadline and app.alive(), f"no autosave of the phase end:\n{app.text()}"
            app.pump(0.2)
        end = time.monotonic() + 60
        while "End the phase?" in app.text() and time.monotonic() < end:
            app.pump(0.2)  # the dialog closes once the phase has ended
        app.send(b"\t")
        app.send(b"\r")  # a stack selected, half-way through the next phase
        app.settle()
        os.killpg(app.proc.pid, signal.SIGHUP)
        app.proc.wait(timeout=60)
    finally:
        app.stop()
    again = load_game(autosave)
    assert again.state.phase == "combat" and len(again.log) == before + 1, again.phase
    check_position(again)


def test_a_vanished_terminal_ends_the_program(tmp_path: Path) -> None:
    """The terminal closes with no hang-up signal (reads just return nothing): the app leaves
    within seconds instead of spinning on a core, and the autosave is untouched."""
    saves = tmp_path / "saves"
    saves.mkdir()
    game = ready_to_end_phase()
    game.save(saves / "autosave.toml")
    saved = (saves / "autosave.toml").read_bytes()
    s = pty_session.PtySession([sys.executable, "-m", "kiev_tui", "play"], 80, 24, cwd=str(tmp_path),
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, quiet=0.4)
    s.start()
    try:
        assert s.read_until_quiet() > 500
        os.close(s.master)  # the terminal goes away; the program is not its session leader: no SIGHUP
        s.master = -1
        s.proc.wait(timeout=15)  # type: ignore[union-attr]
    finally:
        if s.proc is not None and s.proc.poll() is None:
            s.proc.kill()
    assert (saves / "autosave.toml").read_bytes() == saved
