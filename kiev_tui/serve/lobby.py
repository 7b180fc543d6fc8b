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
MARK = "  1  "  # what stands before each row of a list: its key
ELLIPSIS = "\u2026"
MIN_NAME = 16  # a name cut shorter says too little: the facts then take a line of their own


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


@dataclass(frozen=True, slots=True)
class Row:
    """One entry of a list: a name, which gives way first in a narrow window, then the facts
    a player chooses by (whose side is open, turn and phase), never cut while a line can hold them.

    `facts` are pieces joined by blanks; in a narrow window they wrap, whole pieces, onto lines
    of their own under the name.
    """

    name: str
    facts: tuple[str, ...] = ()


def clip(text: str, room: int) -> str:
    """`text` in at most `room` characters: cut, its last character an ellipsis."""
    if len(text) <= room:
        return text
    return text[: room - 1] + ELLIPSIS if room > 0 else ""


def lay_out(item: str | Row, room: int) -> list[str]:
    """The lines one entry takes in `room` columns: a plain text is cut; a Row shortens its name,
    and if the name would keep fewer than MIN_NAME characters, puts its facts on lines below."""
    if isinstance(item, str):
        return [item[:room]]
    facts = " ".join(item.facts)
    if not facts:
        return [clip(item.name, room)]
    if len(item.name) + 1 + len(facts) <= room or room - 1 - len(facts) >= MIN_NAME:
        return [f"{clip(item.name, room - 1 - len(facts))} {facts}"]
    lines = [clip(item.name, room), ""]
    for piece in item.facts:
        if lines[-1] and len(lines[-1]) + 1 + len(piece) > room:
            lines.append("")
        lines[-1] = clip(f"{lines[-1]} {piece}" if lines[-1] else piece, room)  # one piece too long is cut
    return lines


def paginate(heights: Sequence[int], free: int) -> list[range]:
    """Entries (each `heights[i]` lines) split into pages of at most nine that fit in `free`
    lines; an entry taller than that has a page of its own.  Always at least one page."""
    spans: list[range] = []
    start, used = 0, 0
    for at, height in enumerate(heights):
        if at > start and (at - start == len(DIGITS) or used + height > free):
            spans.append(range(start, at))
            start, used = at, 0
        used += height
    spans.append(range(start, len(heights)))
    return spans


async def pick(console: Console, title: str, items: Sequence[str | Row]) -> int | None:
    """A numbered list on a clear screen, as many to a page as the window holds and at most
    nine (m shows the next page); the index chosen, None for Esc, b or q.  No line reaches the
    window's last column, where the terminal would wrap it."""
    page = 0
    while True:
        room = console.width - 1 - len(MARK)  # laid out again at each page: the window may have changed
        laid = [lay_out(item, room) for item in items]
        # the title, a blank line, "m more", "b back" and the cursor's line stay on screen too
        spans = paginate([len(lines) for lines in laid], console.height - title.count("\n") - 5)
        page %= len(spans)
        shown = spans[page]
        console.write(f"{CLEAR}{title}\n\n")
        for n, at in enumerate(shown):
            first_line, *more = laid[at]
            console.write(f"  {DIGITS[n]}  {first_line}\n")
            for line in more:
                console.write(f"{' ' * len(MARK)}{line}\n")
        if len(spans) > 1:
            console.write(f"  m  more (page {page + 1} of {len(spans)})\n")
        console.write("  b  back\n")
        while True:
            key = await console.key()
            if key in BACK_KEYS or key in QUIT_KEYS:
                return None
            if key in DIGITS and DIGITS.index(key) < len(shown):
                return shown[DIGITS.index(key)]
            if key in ("m", "M") and len(spans) > 1:
                page += 1
                break


def banner(console: Console, player: Player, title: str) -> None:
    console.write(CLEAR)
    console.write(f"{title}\nSigned in as {player.name} (key {player.fingerprint})\n")
