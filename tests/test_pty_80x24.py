"""80x24 is complete: the real `kiev-tui` on a real 80x24 pseudo-terminal shows a unit's
strengths and supply in the inspector (issue 20, item 5).

At 80 columns the side panels are 32 wide and the inspector gets a handful of rows: a stack of
two stopped at its heading.  `I` gives the tracker and the inspector the whole width and height.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.test_pty_hardening import App, quit_cleanly
from tests.ui.vt import Terminal

WIDTH, HEIGHT = 80, 24
TAB = b"\t"
# "1 r 104 rifle XX 6-8-6" and "  1 step, fights 6-16": the counter's values, steps, strength now
STRENGTHS = re.compile(r"\d+-\d+-\d+\s+\d steps?, fights \d+-\d+")
SUPPLY = re.compile(r"\b(in supply|OUT OF SUPPLY)\b")


class KievTui(App):
    """The installed `kiev-tui` console script (not `python -m`), as a player starts it."""

    def __init__(self, cwd: Path, *args: str) -> None:
        import codecs
        import fcntl
        import struct
        import termios

        script = Path(sys.executable).parent / "kiev-tui"
        argv = [str(script)] if script.exists() else [sys.executable, "-m", "kiev_tui"]
        self.cwd = cwd
        self.width, self.height = WIDTH, HEIGHT
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES")}
        env.update({"TERM": "xterm-256color", "COLUMNS": str(WIDTH), "LINES": str(HEIGHT),
                    "KIEV_TUI_PLAYER": "tester"})
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
        self.proc = subprocess.Popen([*argv, *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.term = Terminal(WIDTH, HEIGHT)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.raw = bytearray()


def test_80x24_the_inspector_shows_a_units_strengths_and_supply(tmp_path: Path) -> None:
    app = KievTui(tmp_path, "play", "--no-resume", "--seed", "1")
    try:
        assert app.wait_for(r"Sequence of play", 60), app.tail()
        app.settle()
        app.send(b"I")  # tracker and inspector across the whole screen
        assert app.wait_for(r"Soviet: fights \d", 30), app.text()
        for _ in range(30):  # Tab walks the stacks that can move; untried ones show ?-?
            app.settle(0.2)
            text = app.text()
            if STRENGTHS.search(text):
                break
            app.send(TAB)
        text = app.text()
        assert STRENGTHS.search(text), text
        assert SUPPLY.search(text), text
        assert re.search(r"Soviet: fights \d+-\d+", text), text
        assert quit_cleanly(app) == 0
    finally:
        app.close()
