"""The real `kiev-tui play` on a pseudo-terminal writes through our shadow-screen driver.

Textual's own writer sends every row of a full update separated by line feeds, sends an
identical second frame at start and on every screen push and pop, and rewrites whole rows.
Our driver (kiev_tui/ui/driver.py) clears the alternate screen itself, never sends a line
feed, sends no cell twice for the same picture, and never an empty synchronized update.
If the app stopped using the driver (a Textual upgrade ignoring `driver_class`, the hook
taken out of app.py), these checks fail.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from kiev_tui.ui.wire import SYNC_END, SYNC_START
from tests.ptyprog import PtyProgram

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 120, 40
ALT_SCREEN = b"\x1b[?1049h"


class Play(PtyProgram):
    """`python -m kiev_tui play --no-resume` at the terminal's real size (no $COLUMNS/$LINES)."""

    def __init__(self, cwd: Path, sync: bool) -> None:
        self.sync = sync
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_COLOR", "TEXTUAL", "TEXTUAL_DRIVER", "KIEV_TUI_SAVES", "COLUMNS", "LINES")}
        env.update({"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "KIEV_TUI_PLAYER": "wire"})
        super().__init__([sys.executable, "-m", "kiev_tui", "play", "--no-resume"], WIDTH, HEIGHT, env, cwd)

    def pump(self, timeout: float) -> int:
        start = len(self.raw)
        n = super().pump(timeout)
        if self.sync and b"\x1b[?2026$p" in self.raw[max(0, start - 8):]:
            # as a terminal with synchronized output answers Textual's question about it
            self.sync = False
            os.write(self.master, b"\x1b[?2026;2$y")
        return n

    def step(self, keys: bytes, expect: str) -> tuple[bytes, int]:
        """Type keys until the screen shows `expect`: the bytes written, and the cells they wrote."""
        mark, written = len(self.raw), self.term.written
        self.send(keys)
        assert self.wait_for(expect, 30), f"{expect!r} not shown:\n{self.text()}\n{self.tail()}"
        self.settle(0.3, 10)
        return bytes(self.raw[mark:]), self.term.written - written

    def quit(self) -> None:
        self.send(b"\x11")  # ctrl+q: only the cursor has moved, so nothing to lose
        end = time.monotonic() + 20
        while self.alive() and time.monotonic() < end:
            self.pump(0.1)


@pytest.mark.parametrize("sync", [False, True])
def test_the_game_writes_only_what_changed(tmp_path: Path, sync: bool) -> None:
    app = Play(tmp_path, sync)
    try:
        assert app.wait_for("Sequence of play", 60), f"no game screen:\n{app.text()}\n{app.tail()}"
        app.settle(0.5, 20)
        cells = WIDTH * HEIGHT
        start = bytes(app.raw)
        assert ALT_SCREEN in start, app.tail()
        # the driver makes the screen a known blank at once (Textual itself only switches screens)
        assert start.split(ALT_SCREEN, 1)[1].startswith(b"\x1b[0m\x1b[2J")
        # the first paint draws each cell at most once: no identical second frame
        assert 0 < app.term.written <= cells
        help_open, opened = app.step(b"?", r"Help: \w+ phase")
        help_close, closed = app.step(b"\x1b", "Sequence of play")
        # a pushed and a popped screen: at most one screen's worth of cells each (Textual: two)
        assert 0 < closed <= cells
        moves = [app.step(key, ".")[0] for key in (b"s", b"w", b"a", b"q", b"d", b"d")]
        assert all(0 < len(m) < 1000 for m in moves), [len(m) for m in moves]
        after = bytes(app.raw).split(ALT_SCREEN, 1)[1]
        assert b"\n" not in after  # Textual separates the rows of a full update with line feeds
        # a cell is written again only to fill a short gap between changes (Textual: half its cells)
        assert app.term.rewrites * 10 < app.term.written
        if sync:
            assert SYNC_START.encode() in help_close
            assert (SYNC_START + SYNC_END).encode() not in after  # an unchanged frame sends nothing at all
        else:
            assert SYNC_START.encode() not in after
        app.quit()
        assert not app.alive(), "ctrl+q did not end the app"
        assert app.proc.returncode == 0
    finally:
        app.stop()


def test_after_a_suspend_the_screen_comes_back_whole(tmp_path: Path) -> None:
    """Stopped with SIGTSTP (as a shell's job control does) and continued: the terminal left the
    alternate screen in between, so nothing the driver knew of it may be taken as shown."""
    app = Play(tmp_path, sync=False)
    try:
        assert app.wait_for("Sequence of play", 60), f"no game screen:\n{app.text()}\n{app.tail()}"
        app.settle(0.5, 20)
        before = app.text()
        os.kill(app.proc.pid, signal.SIGTSTP)
        app.settle(0.5, 10)
        assert "Sequence of play" not in app.text()  # back on the main screen
        os.kill(app.proc.pid, signal.SIGCONT)
        assert app.wait_for("Sequence of play", 30), app.tail()
        app.settle(0.5, 10)
        assert app.text() == before
        app.quit()
        assert not app.alive(), "ctrl+q did not end the app"
    finally:
        app.stop()
