"""The floor of the start-up figures: a bare Textual app showing one label.

`make bench` starts it the way `kiev-tui` is started (a console script on the same
interpreter, benchmarks/user.py), so what the game adds on top is the difference.
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.widgets import Label


class Bare(App[None]):
    """Nothing but one label; ctrl+q quits (Textual's own binding)."""

    def compose(self) -> ComposeResult:
        yield Label("Kiev 1941")


def main() -> int:
    Bare().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
