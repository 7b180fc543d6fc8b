"""The lobby a login sees first: start a game, resume one, join one, watch one, or leave.

Plain text and single keys, so it works on any terminal and costs a few hundred bytes.  Each
choice ends in a command line that runs on the login's own pty (console.Console.run_child);
when that game screen closes, the lobby comes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kiev_tui.serve.console import CLEAR, Console
from kiev_tui.serve.keys import Player

QUIT_KEYS = ("q", "Q", "\x03", "\x04")  # q, ctrl+c, ctrl+d
BACK_KEYS = ("\x1b", "b", "B")
DIGITS = "123456789"


@dataclass(frozen=True, slots=True)
class Offer:
    """A scenario the lobby offers: its reference (game/name or a path), title and sides."""

    ref: str
    title: str
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """What the login asked for: run `argv` on its pty (then come back to the lobby)."""

    argv: tuple[str, ...]
    label: str
    cwd: str | None = None  # the folder it runs in (default: the server's state folder)
    game: str = ""  # the hosted game it sits down at (its id), "" for none


async def pick(console: Console, title: str, items: Sequence[str]) -> int | None:
    """A numbered list on a clear screen, nine to a page (m shows the next page); the index
    chosen, None for Esc, b or q."""
    page = 0
    pages = max(1, -(-len(items) // len(DIGITS)))
    while True:
        first = page * len(DIGITS)
        shown = items[first: first + len(DIGITS)]
        console.write(f"{CLEAR}{title}\n\n")
        for n, text in enumerate(shown):
            console.write(f"  {DIGITS[n]}  {text}"[: console.width - 1] + "\n")  # never wrapped
        if pages > 1:
            console.write(f"  m  more (page {page + 1} of {pages})\n")
        console.write("  b  back\n")
        while True:
            key = await console.key()
            if key in BACK_KEYS or key in QUIT_KEYS:
                return None
            if key in DIGITS and DIGITS.index(key) < len(shown):
                return first + DIGITS.index(key)
            if key in ("m", "M") and pages > 1:
                page = (page + 1) % pages
                break


def banner(console: Console, player: Player, title: str) -> None:
    console.write(CLEAR)
    console.write(f"{title}\nSigned in as {player.name} (key {player.fingerprint})\n")
