"""Moving onto and off stacks on the real terminal leaves the inspector saying exactly what it should.

The inspector is updated line by line and the driver sends only the cells that differ
(kiev_tui/ui/widgets.py, wire.py; issue 33 measures those bytes against the ideal diff).  A
cell missed by a partial update would leave words of the stack before on the screen, which
a Pilot test reading Textual's own full render would never see.  So this runs `kiev-tui play`
on a pseudo-terminal, walks the benchmark's first keys (off the Kiev stack, back onto it, onto
another Soviet stack, a German one, and back), and after every key compares the inspector's
cells on the terminal with the adapter's lines for that hex, worked out in this process.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from tests.ptyprog import PtyProgram

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 120, 40
SEED = 5
# key, the hex the cursor lands on, and what stands there at the start of the campaign
WALK = [(b"s", "0320", "no stack"), (b"w", "0319", "Soviet: fights 7-24"), (b"a", "0219", "Soviet: fights 4-4"),
        (b"q", "0119", "German: fights 5-7"), (b"d", "0219", "Soviet: fights 4-4"), (b"d", "0320", "no stack")]


class Play(PtyProgram):
    def __init__(self, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_COLOR", "TEXTUAL", "TEXTUAL_DRIVER", "KIEV_TUI_SAVES", "COLUMNS", "LINES")}
        env.update({"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "KIEV_TUI_PLAYER": "inspector",
                    "HOME": str(cwd)})
        super().__init__([sys.executable, "-m", "kiev_tui", "play", "--no-resume", "--seed", str(SEED)],
                         WIDTH, HEIGHT, env, cwd)

    def inspector(self) -> str:
        """The inspector's cells on the terminal, from below its title to the next panel's, as words."""
        rows = self.term.text().split("\n")
        top = next(y for y, row in enumerate(rows) if "Inspector (" in row)
        left = rows[top].index("-Inspector (")
        bottom = next(y for y in range(top + 1, len(rows)) if rows[y][left:].startswith("-"))
        return " ".join(" ".join(row[left:] for row in rows[top + 1:bottom]).split())

    def quit(self) -> None:
        self.send(b"\x11")
        end = time.monotonic() + 20
        while self.alive() and time.monotonic() < end:
            self.pump(0.1)


def expected(hex_id: str) -> str:
    """The adapter's inspector lines for the hex in the opening position, as words."""
    from kiev_tui.cli import DEFAULT_SCENARIO
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.registry import get_adapter
    from kiev_tui.ui.hexmap import parse_hex

    game = Game.new(DEFAULT_SCENARIO, SEED)
    adapter = get_adapter(game.scenario.game)
    lines = adapter.inspector_lines(game, parse_hex(game.scenario.map, hex_id), adapter.supply(game), ())
    return " ".join(" ".join(lines).split())


def test_moves_onto_and_off_stacks_leave_the_inspector_right(tmp_path: Path) -> None:
    app = Play(tmp_path)
    try:
        assert app.wait_for("Sequence of play", 60), f"no game screen:\n{app.text()}\n{app.tail()}"
        app.settle(0.5, 20)
        assert app.inspector() == expected("0319")
        for key, hex_id, stands in WALK:
            app.send(key)
            assert app.wait_for(f"Hex {hex_id}", 30), f"{key!r}: no Hex {hex_id}:\n{app.text()}"
            app.settle(0.3, 10)
            want = expected(hex_id)
            assert (stands in want) if stands != "no stack" else ("fights" not in want)
            assert app.inspector() == want, f"after {key!r} on {hex_id}:\n{app.text()}"
        app.quit()
    finally:
        app.stop()
