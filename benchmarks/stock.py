"""The floor of a cursor move: stock Textual moving a 6-cell box, with a one-line status.

No kiev_tui code and no custom driver: the box is a 6x1 `Static` placed with the `offset`
style, the status line a `Label` whose text is replaced.  When a key moves the box, Textual's
compositor works out which regions changed (the cells the box left and entered, the status
text) and writes only those: the least a Textual app pays per cursor move.

The keys are the game's: w/s one row up/down, q/e/a/d one row and three columns
diagonally, h/l six columns left/right; so the same walk can be typed into both.
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Label, Static

BOX = 6
MOVES = {"w": (0, -1), "s": (0, 1), "q": (-3, -1), "e": (3, -1), "a": (-3, 1), "d": (3, 1),
         "h": (-BOX, 0), "l": (BOX, 0)}


class Stock(App[None]):
    CSS = """
    #box { width: 6; height: 1; background: $accent; }
    #status { dock: bottom; }
    """
    BINDINGS = [Binding(key, f"go('{key}')", show=False) for key in MOVES]

    def __init__(self) -> None:
        super().__init__()
        self.bx, self.by = 40, 15

    def compose(self) -> ComposeResult:
        yield Static(" " * BOX, id="box")
        yield Label("", id="status")

    def on_mount(self) -> None:
        self._place()

    def _place(self) -> None:
        self.query_one("#box", Static).styles.offset = (self.bx, self.by)
        self.query_one("#status", Label).update(f"box at column {self.bx}, row {self.by}")

    def action_go(self, key: str) -> None:
        dx, dy = MOVES[key]
        width, height = self.size
        self.bx = min(max(0, self.bx + dx), max(0, width - BOX))
        self.by = min(max(0, self.by + dy), max(0, height - 2))
        self._place()


def main() -> int:
    Stock().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
