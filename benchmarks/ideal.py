"""The ideal diff: the fewest bytes that turn one screen into the next (issue 33).

The cursor rows of the benchmark compare what the program wrote for a key with the least any
writer could have written for the same change of picture.  Both pictures come from the same
recorded output, fed through the test terminal (`tests/ui/vt.py`, via `benchmarks/screen.py`).

The writer this floor imagines knows both screens and uses every control that test terminal
understands: absolute and relative cursor moves (CUP, CUU/CUD/CUF/CUB, CHA), carriage return,
a new line (sent as LF, it reaches the terminal as CR LF: Textual leaves output processing on), SGR with the shortest change from the pen it has (reset-and-set or only the
differences, `ESC[;1m` for a reset with bold), "erase to end of line", and writing unchanged
cells again where that is cheaper than stepping over them.  A space may be written in any pen
in which it looks the same.  It starts with the cursor unknown and the terminal's plain pen,
and it need not put the cursor back anywhere afterwards (Textual's writer does, the floor
does not: a few bytes of the measured figure that no picture needs).

The search is exact within those controls, row by row: per row a dynamic programme over the
runs of changed cells (jump to the next run, or write through the gap), keeping for every
reachable (pen, cursor column) the cheapest cost, carried to the next changed row.
"""

from __future__ import annotations

from typing import Iterable

from benchmarks import screen
from benchmarks.screen import Grid, _colour
from tests.ui.vt import ON, OFF, SHOWS_ON_BLANK, WIDE_TAIL, Cell

Pen = tuple[frozenset[str], str, str]  # attributes, foreground, background (as the test terminal keeps them)
PLAIN: Pen = (frozenset(), "", "")
_CODE_OF = {name: code for code, name in ON.items()}
_OFF_CODE = {name: code for code, names in OFF.items() for name in names if code != 22}
GAP_MAX = 6  # longer unchanged gaps are never cheaper to write again than to step over ("ESC[nnC")
EL = len("\x1b[K")


def _num(n: int) -> str:
    return "" if n == 1 else str(n)


def cup(x: int, y: int) -> int:
    """Bytes of the shortest absolute move to column x, row y (0-based; default parameters left out)."""
    row = "" if y == 0 else str(y + 1)
    col = "" if x == 0 else f";{x + 1}"
    return len(f"\x1b[{row}{col}H")


def move(frm: tuple[int, int] | None, x: int, y: int, height: int) -> int:
    """Bytes of the shortest way from `frm` (None: unknown) to (x, y)."""
    best = cup(x, y)
    if frm is None:
        return best
    fx, fy = frm
    dy = y - fy
    # Textual leaves the terminal's output processing on, so a line feed arrives as CR LF: the
    # start of the next row, 2 bytes (as the test terminal reads "\r\n" too)
    best = min(best, 2 + (len(f"\x1b[{_num(x)}C") if x else 0)) if dy == 1 else best
    if dy == 0:
        vertical = 0
    elif dy > 0:
        vertical = len(f"\x1b[{_num(dy)}B")
    else:
        vertical = len(f"\x1b[{_num(-dy)}A")
    dx = x - fx
    if dx == 0:
        horizontal = 0
    else:
        options = [len(f"\x1b[{'' if x == 0 else x + 1}G")]
        options.append(len(f"\x1b[{_num(dx)}C") if dx > 0 else len(f"\x1b[{_num(-dx)}D"))
        options.append(1 if x == 0 else 1 + len(f"\x1b[{_num(x)}C"))  # carriage return, then right
        horizontal = min(options)
    return min(best, vertical + horizontal)


def _codes_on(attrs: Iterable[str]) -> list[str]:
    return sorted(str(_CODE_OF[a]) for a in attrs if a in _CODE_OF)


def sgr_cost(old: Pen, new: Pen) -> int:
    """Bytes of the shortest SGR sequence from pen `old` to pen `new` (0 if they are the same)."""
    if old == new:
        return 0
    attrs, fg, bg = new
    colours = [c for c in (_colour(fg, 38), _colour(bg, 48)) if c]
    # reset first: "ESC[m" alone, or an empty first parameter (it reads as 0) before the rest
    fresh = [""] + _codes_on(attrs) + colours
    best = len(f"\x1b[{';'.join(fresh)}m") if len(fresh) > 1 else len("\x1b[m")
    oa = old[0]
    step: list[str] = []
    gone = oa - attrs
    if gone & {"bold", "dim"}:
        step.append("22")  # both off: the one that stays comes back below
        oa = oa - {"bold", "dim"}
    step += sorted(str(_OFF_CODE[a]) for a in gone - {"bold", "dim"})
    step += _codes_on(attrs - oa)
    if fg != old[1]:
        step.append(_colour(fg, 38) or "39")
    if bg != old[2]:
        step.append(_colour(bg, 48) or "49")
    return min(best, len(f"\x1b[{';'.join(step)}m"))


def _seen(pen: Pen) -> Pen:
    """How a space written in `pen` looks (as the test terminal's cells() reports it)."""
    attrs, fg, bg = pen
    shown = attrs & SHOWS_ON_BLANK
    return (frozenset(shown), fg if "reverse" in shown else "", bg)


def _fits(pen: Pen, cell: Cell) -> bool:
    ch, attrs, fg, bg = cell
    if ch == " ":
        return _seen(pen) == (attrs, fg, bg)
    return pen == (attrs, fg, bg)


State = dict[tuple[Pen, int | None], int]  # (pen, cursor column; None: not known) -> bytes so far


def _write(states: dict[Pen, int], cells: list[Cell], pens: list[Pen]) -> dict[Pen, int]:
    """Write `cells` one after the other from the cursor, each in a pen that shows it right."""
    cur = dict(states)
    for cell in cells:
        if cell[0] == WIDE_TAIL:
            continue  # the right half comes with its left half
        size = len(cell[0].encode())
        fitting = [p for p in pens if _fits(p, cell)]
        nxt: dict[Pen, int] = {}
        for to in fitting:
            best = min(cost + sgr_cost(p, to) for p, cost in cur.items())
            nxt[to] = best + size
        cur = nxt
    return cur


def _runs(old: list[Cell], new: list[Cell]) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of cells that differ; a changed half of a wide character takes both."""
    width = len(new)
    changed = [old[x] != new[x] for x in range(width)]
    for x in range(width):
        if changed[x] and new[x][0] == WIDE_TAIL and x > 0:
            changed[x - 1] = True
        if changed[x] and x + 1 < width and new[x + 1][0] == WIDE_TAIL:
            changed[x + 1] = True
    runs: list[tuple[int, int]] = []
    x = 0
    while x < width:
        if not changed[x]:
            x += 1
            continue
        end = x
        while end < width and changed[end]:
            end += 1
        runs.append((x, end))
        x = end
    return runs


def _row(states: State, y: int, old: list[Cell], new: list[Cell], height: int) -> State:
    """The cheapest ways to write every changed cell of row y, from `states` (the cursor already
    on this row): the cost per (pen, cursor column) they end with."""
    width = len(new)
    runs = _runs(old, new)
    if not runs:
        return states
    # the pens worth holding: each cell's own, and those the cursor arrives with
    pens = sorted({(c[1], c[2], c[3]) for c in new} | {p for p, _ in states}, key=repr)
    # blank tail: from `tail` to the right edge every cell is a plain blank of one background
    last = new[-1]
    tail = width
    if last[0] == " " and not last[1] and not last[2]:
        while tail > 0 and new[tail - 1] == last:
            tail -= 1
    # a run that reaches into the blank tail is two: its cells before the tail, then blanks that an
    # EL may clear (writing "20, clear" over "19 Kiev (city), clear" and erasing the rest)
    runs = [part for start, end in runs
            for part in (((start, tail), (tail, end)) if start < tail < end else ((start, end),))]
    el_pens = [p for p in pens if not (p[0] & SHOWS_ON_BLANK) and p[2] == last[3]]
    if not el_pens:
        el_pens = [(frozenset(), "", last[3])]
        pens = pens + el_pens
    done: State = {}  # states after an EL ended the row

    def end_at(x: int) -> int | None:
        return x if x < width else None  # after the last column a terminal's cursor is in limbo

    # at[i]: states with run i still to write: (pen, cursor column) -> cost
    at: State = dict(states)
    for i, (start, end) in enumerate(runs):
        nxt: State = {}
        # an EL from here (or from the cursor, if it already sits on blanks left of the run) ends the row
        if start >= tail:
            for (pen, cx), cost in at.items():
                if cx is not None and tail <= cx <= start:
                    at_x, m = cx, 0
                else:
                    at_x, m = start, move(None if cx is None else (cx, y), start, y, height)
                for ep in el_pens:
                    total = cost + m + sgr_cost(pen, ep) + EL
                    if total < done.get((ep, at_x), 1 << 30):
                        done[(ep, at_x)] = total
        # write the run, after a jump or through the gap from where the cursor is
        for (pen, cx), cost in at.items():
            options: list[tuple[int, list[Cell]]] = []
            if cx is not None and cx <= start and start - cx <= GAP_MAX:
                options.append((cost, new[cx:end]))  # the gap written again, then the run
            options.append((cost + move(None if cx is None else (cx, y), start, y, height), new[start:end]))
            for base, cells in options:
                for to, c in _write({pen: base}, cells, pens).items():
                    key = (to, end_at(end))
                    if c < nxt.get(key, 1 << 30):
                        nxt[key] = c
        at = nxt
    for key, c in done.items():
        if c < at.get(key, 1 << 30):
            at[key] = c
    return at


def ideal_bytes(before: Grid, after: Grid, pen: Pen = PLAIN) -> int:
    """The fewest bytes that turn screen `before` into screen `after` (0 when they are the same)."""
    height = len(after)
    # the cursor's row travels with the state: (pen, (x, y)) is folded into one key per row
    states: dict[tuple[Pen, tuple[int, int] | None], int] = {(pen, None): 0}
    for y, (old, new) in enumerate(zip(before, after)):
        runs = _runs(old, new) if old != new else []
        if not runs:
            continue
        # onto this row: at the first run's column, or a little left of it (where a move straight
        # down, or CR LF, lands) to write the gap again
        row_states: State = {}
        first = runs[0][0]
        for (p, where), cost in states.items():
            landings = {first} | {c for c in ((where[0] if where else first), 0) if c <= first <= c + GAP_MAX}
            for col in landings:
                c = cost + move(where, col, y, height)
                if c < row_states.get((p, col), 1 << 30):
                    row_states[(p, col)] = c
        out = _row(row_states, y, old, new, height)
        states = {}
        for (p, cx), cost in out.items():
            key = (p, None if cx is None else (cx, y))
            if cost < states.get(key, 1 << 30):
                states[key] = cost
    return min(states.values())


def per_key(events: "screen.Events", marks: list[int], width: int, height: int) -> list[int]:
    """The ideal diff of each key of a recorded session: `marks[i]` is the number of chunks read
    before key i was typed, `marks[-1]` after the last key settled."""
    pictures = screen.screens(events, width, height)
    start = screen.blank(width, height)

    def at(n: int) -> Grid:
        return pictures[n - 1] if n > 0 else start

    return [ideal_bytes(at(a), at(b)) for a, b in zip(marks, marks[1:])]
