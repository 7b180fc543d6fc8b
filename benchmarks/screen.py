"""What a recorded terminal byte stream drew, and when: the logic behind the pty figures.

A pty session records every chunk it read with the time it arrived.  Feeding the chunks to a
small terminal (the one the UI tests use, `tests/ui/vt.py`) tells when the screen first
looked the way it finally settled: that moment is the *first frame*.  A partial paint (a side
panel before the map) does not count, and a second identical frame sent afterwards adds bytes
but not time.

`plain_redraw` is the floor for the paints: the bytes a plain writer, with no tricks beyond
"erase to end of line", needs to turn one screen into another.
"""

from __future__ import annotations

import codecs
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/ui/vt.py lives at the top of the repository, beside us
    sys.path.insert(0, str(ROOT))

from tests.ui.vt import ON, Cell, Terminal  # noqa: E402

Grid = list[list[Cell]]
Events = Sequence[tuple[float, bytes]]


@dataclass(frozen=True)
class Frame:
    """When the screen first matched its settled picture: seconds since spawn, bytes read until then."""

    seconds: float
    bytes: int
    chunk: int  # index of the chunk that completed it


def screens(events: Events, width: int, height: int) -> list[Grid]:
    """The picture after each chunk of `events`."""
    term = Terminal(width, height)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    out: list[Grid] = []
    for _, chunk in events:
        term.feed(decoder.decode(chunk))
        out.append(term.cells())
    return out


def blank(width: int, height: int) -> Grid:
    return Terminal(width, height).cells()


def first_frame(events: Events, width: int, height: int) -> Frame | None:
    """The first moment the screen looked as it does after the last chunk; None if nothing was drawn."""
    if not events:
        return None
    pictures = screens(events, width, height)
    final = pictures[-1]
    if final == blank(width, height):
        return None
    read = 0
    for i, ((t, chunk), picture) in enumerate(zip(events, pictures)):
        read += len(chunk)
        if picture == final:
            return Frame(t, read, i)
    raise AssertionError("the last picture always equals itself")


def settled(events: Events, width: int, height: int) -> Grid:
    """The picture after every chunk."""
    return screens(events, width, height)[-1] if events else blank(width, height)


_SGR_ON = {name: code for code, name in ON.items()}


def _colour(value: str, base: int) -> str:
    # vt keeps 16-colour codes as given ("34", "44") and others as "5;N" or "2;R;G;B"
    if not value:
        return ""
    if ";" in value:
        return f"{base};{value}"
    return value


def sgr(cell: Cell) -> bytes:
    """One full SGR sequence that sets the style of `cell` from a reset."""
    _, attrs, fg, bg = cell
    codes = ["0"] + sorted(str(_SGR_ON[a]) for a in attrs if a in _SGR_ON)
    codes += [c for c in (_colour(fg, 38), _colour(bg, 48)) if c]
    return f"\x1b[{';'.join(codes)}m".encode()


def plain_redraw(before: Grid, after: Grid) -> int:
    """Bytes a plain writer sends to turn `before` into `after`.

    For each run of changed cells on a row: one cursor move, a full SGR wherever the style
    changes, the characters; a run that reaches the right edge ending in blanks of one style
    ends with "erase to end of line" instead of the blanks.
    """
    total = 0
    pen: tuple[frozenset[str], str, str] = (frozenset(), "", "")
    for y, (old, new) in enumerate(zip(before, after)):
        width = len(new)
        x = 0
        while x < width:
            if old[x] == new[x]:
                x += 1
                continue
            end = x
            while end < width and old[end] != new[end]:
                end += 1
            total += len(f"\x1b[{y + 1};{x + 1}H")
            erase_from = end
            last = new[-1]
            if end == width and last[0] == " " and not last[1]:  # plain blanks up to the edge: one erase
                while erase_from > x and new[erase_from - 1] == last:
                    erase_from -= 1
                if end - erase_from <= 3:  # "\x1b[K" is three bytes: not worth it for fewer blanks
                    erase_from = end
            for cell in new[x:erase_from]:
                style = (cell[1], cell[2], cell[3])
                if style != pen:
                    total += len(sgr(cell))
                    pen = style
                total += len(cell[0].encode())
            if erase_from < end:
                cell = new[erase_from]
                style = (cell[1], cell[2], cell[3])
                if style != pen:
                    total += len(sgr(cell))
                    pen = style
                total += len(b"\x1b[K")
            x = end
    return total
