"""Fewer bytes on the wire: a shadow of the terminal's screen, and only the differences sent.

A player on a slow SSH link pays for every byte.  Textual (8.x) writes each styled run as
``ESC[<every code>m text ESC[0m``, rewrites whole rows for a small change, and sends an
identical second full frame at start and whenever a screen is pushed or popped.

`ShadowScreen` reads what Textual writes (cursor positioning, SGR, text, synchronized-output
markers), keeps for every cell the character and pen the terminal shows, and at the end of
each frame sends only the cells that changed, with the shortest pen changes and cursor moves.
It is pure text in, text out: `kiev_tui.ui.driver` puts it between Textual and the terminal
(the supported `App(driver_class=...)` route), and `tests/ui/test_wire.py` checks through a
terminal emulator that the screen ends up the same, cell for cell, as with Textual's output.

Correctness first: whatever the parser does not understand is passed on unchanged and the
shadow forgotten, so the next frames are sent whole until the shadow is known again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from operator import is_

from rich.cells import _is_single_cell_widths

from kiev_tui.later import later
from kiev_tui.ui.cellwidth import get_character_cell_size  # Rich's answers, without its table for ours

# SGR parameters that switch on each attribute bit, in bit order (Textual's own table).
_ATTRIBUTE_CODES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53")
_BIT_OF = {int(code): 1 << bit for bit, code in enumerate(_ATTRIBUTE_CODES)}
# SGR parameters that switch attribute bits off again.
_OFF = {22: 0b11, 23: 0b100, 24: 0b1000 | 1 << 9, 25: 0b110000, 27: 1 << 6, 28: 1 << 7, 29: 1 << 8,
        54: 0b11 << 10, 55: 1 << 12}

# (attribute bits, foreground codes, background codes): what the terminal is set to.
Pen = tuple[int, str, str]
PLAIN: Pen = (0, "", "")

# Attributes that show on a blank cell (underline, reverse, strike, overline and the like).
_SHOWS_ON_BLANK = sum(1 << bit for bit in (3, 6, 8, 9, 10, 11, 12))

SYNC_START = "\x1b[?2026h"
SYNC_END = "\x1b[?2026l"

# Private modes that change nothing on the screen: passed on as they come.
_HARMLESS_MODES = frozenset({"7", "12", "25", "1000", "1001", "1002", "1003", "1004", "1005", "1006", "1007",
                             "1015", "1016", "2004", "2048"})
_ALT_SCREEN = frozenset({"1049", "1047", "47"})

_TOKEN = re.compile(
    r"(?P<t>[^\x00-\x1f\x7f-\x9f]+)"
    r"|\x1b\[(?P<p>[0-?]*)(?P<i>[ -/]*)(?P<f>[@-~])"
    r"|(?P<o>\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))"
    r"|(?P<c>\x1b.?|[\x00-\x1f\x7f-\x9f])", re.S)
# An escape sequence cut off at the end of one write, to be finished by the next.
_CUT = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*)?")

_PIECE = 1024  # characters tokenized at once


def _tokens(data: str) -> Iterator[tuple[str, str, str, str, str, str]]:
    """`_TOKEN.findall(data)`, a piece at a time.

    A whole frame at once made a list of some 2,000 tuples, and CPython keeps that many freed
    tuples for reuse: about 0.2 MiB held from the first frame on (issue 33).  A piece ends where
    a control sequence (ESC [) begins that no escape just before it can have taken in, so every
    token is found exactly as in the whole string.
    """
    start, n = 0, len(data)
    while start < n:
        end = data.find("\x1b[", start + _PIECE)
        while end > 0 and data[end - 1] == "\x1b":
            end = data.find("\x1b[", end + 1)
        if end < 0:
            end = n
        yield from _TOKEN.findall(data, start, end)
        start = end


TAIL = ""  # the right half of a double-width character (no real cell holds an empty string)
_GLYPHS: dict[str, str] = {}  # each non-ASCII character seen, once


def _attribute_codes(bits: int) -> list[str]:
    return [code for bit, code in enumerate(_ATTRIBUTE_CODES) if bits & (1 << bit)]


_changes: dict[tuple[Pen | None, Pen], str] = {}


def change(old: Pen | None, new: Pen) -> str:
    """The shortest SGR sequence that takes the terminal from `old` (None: unknown) to `new`."""
    key = (old, new)
    done = _changes.get(key)
    if done is None:
        if len(_changes) > 65536:  # pens are few in practice; never let the table grow without end
            _changes.clear()
        done = _changes[key] = _change(old, new)
    return done


def _change(old: Pen | None, new: Pen) -> str:
    if old == new:
        return ""
    if new == PLAIN:
        return "\x1b[m"  # no parameter reads as 0 (ECMA-48): one byte less than ESC[0m
    bits, fg, bg = new
    fresh = ["", *_attribute_codes(bits)] + [c for c in (fg, bg) if c]  # "ESC[;1m": reset, then bold
    if old is None or old[0] & ~bits:
        codes = fresh  # an attribute must go off (or nothing is known): reset, then the new pen
    else:
        step = _attribute_codes(bits & ~old[0])
        if fg != old[1]:
            step.append(fg or "39")
        if bg != old[2]:
            step.append(bg or "49")
        codes = step if len(";".join(step)) <= len(";".join(fresh)) else fresh
    return f"\x1b[{';'.join(codes)}m"


def blank_like_erased(pen: Pen) -> bool:
    """Whether spaces in this pen look like cells erased to the terminal's default."""
    return not pen[2] and not pen[0] & _SHOWS_ON_BLANK


class _Unknown(Exception):
    """Something in Textual's output that the shadow cannot follow."""


class ShadowScreen:
    """Textual's output in, the changes to the terminal's screen out.

    `write` takes what Textual writes and gives back what to send now; `flush` ends a frame
    written without synchronized-output markers.  Not thread-safe: the driver holds a lock.
    """

    EL_MIN = 4  # changed blank cells at a row's end worth one "erase to end of line"

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self._pens: dict[Pen, Pen] = {PLAIN: PLAIN}  # one object per pen: cells compare with `is`
        self._blank: dict[Pen, Pen] = {PLAIN: PLAIN}  # pen -> what a space in it shows
        self._sgr: dict[tuple[Pen | None, str], Pen | None] = {}
        self._cut = ""
        self.cursor_hidden = False  # until Textual hides it: then no input method looks for it
        self.reset()

    # -- state -------------------------------------------------------------------------------

    def reset(self) -> None:
        """Nothing known about the terminal: the next frames are sent whole."""
        w, h = self.width, self.height
        self.want = [[None] * w for _ in range(h)]  # what Textual has drawn (chars; None: unknown)
        self.want_pen: list[list[Pen | None]] = [[None] * w for _ in range(h)]
        # What the terminal shows.  A row the terminal shows as drawn is the very list of `want`
        # (issue 33, round 7: the shadow's second copy of the screen, 80 KiB at 120x40, is not
        # kept); `_text` gives it a list of its own before writing into it.
        self.shown = list(self.want)
        self.shown_pen: list[list[Pen | None]] = list(self.want_pen)
        self._lo = [w] * h  # per row, the span written since the last frame end
        self._hi = [0] * h
        self._dirty = False
        self._drawing = False  # a frame has begun: positioning, pens or text since the last frame end
        self.x: int | None = None  # Textual's cursor and pen, as its output leaves them
        self.y: int | None = None
        self.pen: Pen | None = PLAIN  # Textual writes unstyled text meaning the terminal's plain pen
        self._parked = False  # the hidden cursor was left away from where Textual put it (home)
        self.tx: int | None = None  # the terminal's cursor and pen, as our output leaves them
        self.ty: int | None = None
        self.sure = False  # tx was reached only through single-width characters
        self.tpen: Pen | None = None
        self.raw = False  # the rest of this frame is passed on unchanged
        self._cursor: tuple[int | None, int | None] = (None, None)  # Textual's cursor at the last frame end
        self.sync_open = False  # Textual began a synchronized update
        self.sync_sent = False  # ... and we passed its start on
        self.out: list[str] = []

    def forget(self) -> None:
        """The terminal's screen is no longer known (the cells Textual writes next are all sent)."""
        for row in (*self.want, *self.want_pen, *self.shown, *self.shown_pen):
            row[:] = [None] * self.width
        self._lo = [self.width] * self.height
        self._hi = [0] * self.height
        self._dirty = False
        self.tx = self.ty = None
        self.tpen = None
        self._parked = False  # another screen (or none known): its cursor is not ours to move back

    def resize(self, width: int, height: int) -> None:
        """The terminal has a new size: what it shows is no longer known."""
        if (width, height) != (self.width, self.height):
            self._send(self._diff())  # drawn before the change was seen: sent as it is
            kept = self.out, self.sync_open, self.sync_sent, self.pen, self.tpen  # a new size keeps the pens
            self.width, self.height = width, height
            self.reset()
            self.out, self.sync_open, self.sync_sent, self.pen, self.tpen = kept

    def _intern(self, pen: Pen) -> Pen:
        known = self._pens.get(pen)
        if known is None:
            known = self._pens[pen] = pen
            self._blank[pen] = pen if pen[0] & _SHOWS_ON_BLANK else self._intern_plain((0, "", pen[2]))
        return known

    def _intern_plain(self, pen: Pen) -> Pen:
        known = self._pens.get(pen)
        if known is None:
            known = self._pens[pen] = pen
            self._blank[pen] = pen
        return known

    # -- input -------------------------------------------------------------------------------

    def write(self, data: str) -> str:
        """Take what Textual writes; return what to send to the terminal now."""
        if len(self._pens) > 4096:
            self._new_tables()
        if self._cut:
            data, self._cut = self._cut + data, ""
        cut = data.rfind("\x1b")
        if cut >= 0 and _CUT.fullmatch(data, cut):
            data, self._cut = data[:cut], data[cut:]
        sgr = self._sgr
        for text, params, inter, final, osc, ctrl in _tokens(data):
            if self.raw:
                self._raw_token(text, params, inter, final, osc, ctrl)
                continue
            try:
                if text:
                    self._text(text)
                elif final == "m" and not inter:  # SGR, the commonest sequence: inline
                    self._drawing = True
                    pen = sgr.get((self.pen, params), False)
                    if pen is False:
                        pen = sgr[self.pen, params] = self._parse_sgr(self.pen, params)
                    if pen is None:
                        raise _Unknown
                    self.pen = pen
                elif final:
                    self._csi(params, inter, final, f"\x1b[{params}{inter}{final}")
                elif osc:
                    if osc.startswith("\x1b]8;"):
                        raise _Unknown  # a hyperlink belongs to the cells: not kept in the shadow
                    self.out.append(osc)  # title, clipboard, pointer shape: nothing drawn
                else:
                    self._control(ctrl)
            except _Unknown:
                self._give_up(text, params, inter, final, osc, ctrl)
        return self._take()

    def flush(self) -> str:
        """The end of a frame sent without synchronized-output markers."""
        if not self.sync_open:
            self._send(self._diff())
            self.raw = self._drawing = False
        return self._take()

    _new_tables = later("kiev_tui.ui.wire_more")

    def _take(self) -> str:
        out = "".join(self.out)
        self.out = []
        return out

    def _send(self, text: str) -> None:
        """Drawing for the terminal: inside the frame's synchronized update if Textual asked for one."""
        if text:
            if self.sync_open and not self.sync_sent:
                self.out.append(SYNC_START)
                self.sync_sent = True
            self.out.append(text)

    def _text(self, text: str) -> None:
        self._drawing = True
        x, y, pen = self.x, self.y, self.pen
        if x is None or y is None or pen is None:
            raise _Unknown
        chars, pens = self.want[y], self.want_pen[y]
        if chars is self.shown[y]:  # the row was in step with the terminal: it keeps its own copy now
            self.shown[y] = chars[:]
        if pens is self.shown_pen[y]:
            self.shown_pen[y] = pens[:]
        w = self.width
        if text.isascii() or _is_single_cell_widths(text):
            end = x + len(text)
            if end > w:
                raise _Unknown  # off the screen
            if chars[x] == TAIL or (end < w and chars[end] == TAIL):
                self._break_wide(y, x, end)
            # one str object per distinct character: a slice of non-ASCII text makes a new one per
            # cell, 2,000 box-drawing glyphs kept twice over a map (170 KiB, issue 33)
            chars[x:end] = text if text.isascii() else [_GLYPHS.setdefault(c, c) for c in text]
            blank = self._blank[pen]
            pens[x:end] = [pen] * len(text)
            if blank is not pen and " " in text:
                for i, ch in enumerate(text, x):
                    if ch == " ":
                        pens[i] = blank
        else:
            sizes = [get_character_cell_size(ch) for ch in text]
            end = x + sum(sizes)
            if 0 in sizes or end > w:
                raise _Unknown  # combining marks and joiners: where they go is the terminal's guess
            if chars[x] == TAIL or (end < w and chars[end] == TAIL):
                self._break_wide(y, x, end)
            blank = self._blank[pen]
            at = x
            for ch, size in zip(text, sizes):
                chars[at] = ch
                pens[at] = blank if ch == " " else pen
                if size == 2:
                    chars[at + 1] = TAIL
                    pens[at + 1] = pen
                at += size
        if x < self._lo[y]:
            self._lo[y] = x
        if end > self._hi[y]:
            self._hi[y] = end
        self._dirty = True
        self.x = end

    _break_wide = later("kiev_tui.ui.wire_more")

    def _csi(self, params: str, inter: str, final: str, seq: str) -> None:
        if final in ("H", "f") and not inter:
            self._drawing = True
            if params.startswith(("?", "<", ">", "=")):
                raise _Unknown
            parts = params.split(";") if params else []
            if len(parts) > 2 or not all(p.isdigit() for p in parts if p):
                raise _Unknown
            y = int(parts[0]) - 1 if parts and parts[0] else 0
            x = int(parts[1]) - 1 if len(parts) > 1 and parts[1] else 0
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise _Unknown
            self.x, self.y = x, y
        elif params.startswith("?") and final in "hl" and not inter:
            modes = params[1:].split(";")
            if modes == ["2026"]:
                self._sync(final == "h")
            elif all(mode in _HARMLESS_MODES for mode in modes):
                if "25" in modes:
                    self._show_cursor(final == "h")
                self.out.append(seq)
            elif len(modes) == 1 and modes[0] in _ALT_SCREEN:
                self._alt_screen(final == "h", seq)
            else:
                raise _Unknown
        elif (final == "p" and inter == "$") or (final == "u" and params[:1] in "<>=?" and params) \
                or (final in "nc" and not inter) or (final == "q" and inter == " "):
            self.out.append(seq)  # queries, keyboard protocol and cursor shape: nothing drawn
        else:
            raise _Unknown

    def _control(self, ch: str) -> None:
        if ch == "\x07":
            self.out.append(ch)
        elif ch == "\r":
            self.x = 0
        elif ch == "\n":
            # Textual ends each row of a full update so; the next row begins with a cursor move
            if self.y is None or self.y + 1 >= self.height:
                raise _Unknown
            self.y += 1
            self.x = None
        else:
            raise _Unknown

    def _parse_sgr(self, pen: Pen | None, params: str) -> Pen | None:
        """The pen after an SGR sequence (None: one this shadow does not follow)."""
        try:
            codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
        except ValueError:
            return None  # colon sub-parameters (curly underlines and the like)
        if pen is None and codes[0] != 0:
            return None
        bits, fg, bg = pen or PLAIN
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                bits, fg, bg = PLAIN
            elif c in _BIT_OF:
                bits |= _BIT_OF[c]
            elif c in _OFF:
                bits &= ~_OFF[c]
            elif 30 <= c <= 37 or 90 <= c <= 97:
                fg = str(c)
            elif 40 <= c <= 47 or 100 <= c <= 107:
                bg = str(c)
            elif c == 39:
                fg = ""
            elif c == 49:
                bg = ""
            elif c in (38, 48):
                rest = codes[i + 1:]
                if rest[:1] == [5] and len(rest) >= 2 and 0 <= rest[1] <= 255:
                    value, i = f"{c};5;{rest[1]}", i + 2
                elif rest[:1] == [2] and len(rest) >= 4 and all(0 <= v <= 255 for v in rest[1:4]):
                    value, i = f"{c};2;{rest[1]};{rest[2]};{rest[3]}", i + 4
                else:
                    return None
                if c == 38:
                    fg = value
                else:
                    bg = value
            else:
                return None
            i += 1
        return self._intern((bits, fg, bg))

    _sync = later("kiev_tui.ui.wire_more")

    def _alt_screen(self, on: bool, seq: str) -> None:
        self._send(self._diff())
        if not on and self.tpen != PLAIN:
            self.out.append("\x1b[0m")  # leave the pen as the main screen expects it
        self.out.append(seq)
        self.forget()
        if on:
            # A known start: a cleared screen (most terminals clear it already; now all do).
            self.out.append("\x1b[0m\x1b[2J")
            blank = [" "] * self.width
            plain = [PLAIN] * self.width
            for y in range(self.height):
                self.want[y][:] = blank
                self.shown[y][:] = blank
                self.want_pen[y][:] = plain
                self.shown_pen[y][:] = plain
            self.tpen = PLAIN

    _give_up = later("kiev_tui.ui.wire_more")
    _raw_token = later("kiev_tui.ui.wire_more")

    # -- output ------------------------------------------------------------------------------

    def _diff(self) -> str:
        """The cells written since the last frame end that the terminal does not show yet."""
        out: list[str] = []
        if not self._dirty:
            self._place_cursor(out)
            return "".join(out)
        self._dirty = False
        w = self.width
        lo_of, hi_of = self._lo, self._hi
        want, want_pen, shown, shown_pen = self.want, self.want_pen, self.shown, self.shown_pen
        for y in range(self.height):
            lo = lo_of[y]
            if lo >= w:
                continue
            hi = hi_of[y]
            lo_of[y], hi_of[y] = w, 0
            self._row(out, y, lo, hi)
            wc, wp = want[y], want_pen[y]
            if wc == shown[y] and all(map(is_, wp, shown_pen[y])):  # in step: one list for both
                shown[y], shown_pen[y] = wc, wp
        self._place_cursor(out)
        return "".join(out)

    def _show_cursor(self, show: bool) -> None:
        """Textual shows or hides the terminal's cursor: a cursor about to show is put where
        Textual means it to be first (a hidden one at home may have been left elsewhere)."""
        self.cursor_hidden = not show
        if show and self._parked and self.x is not None and self.y is not None \
                and (self.tx, self.ty) != (self.x, self.y):
            self._send(self._move(self.x, self.y))
            self.tx, self.ty = self.x, self.y
        self._parked = False

    def _place_cursor(self, out: list[str]) -> None:
        """Leave the terminal's (hidden) cursor where Textual put it, as input methods look there.

        Home, the top-left cell, is where Textual leaves its cursor when no input has asked for
        it: a hidden cursor is not sent back there after every frame (3 bytes a cursor move)."""
        where = (self.x, self.y)
        if where == (0, 0) and self.cursor_hidden:
            self._cursor = where
            self._parked = self._parked or (self.tx, self.ty) != where
            return
        self._parked = False
        if where[0] is not None and where[1] is not None and (self.tx, self.ty) != where \
                and (out or where != self._cursor):
            out.append(self._move(*where))  # type: ignore[arg-type]
            self.tx, self.ty = where
            self.sure = True
        self._cursor = where

    def _row(self, out: list[str], y: int, lo: int, hi: int) -> None:
        wc, wp = self.want[y], self.want_pen[y]
        sc, sp = self.shown[y], self.shown_pen[y]
        w = self.width
        el_from = -1  # from here one "erase to end of line" does the rest of the row (-1: not looked yet)
        x = lo
        while x < hi:
            if wc[x] == sc[x] and wp[x] is sp[x]:
                x += 1
                continue
            if wc[x] == TAIL and x > 0:
                x -= 1  # a double-width character is written from its left half
            if el_from < 0:
                el_from = self._erase_from(y, x, hi)
            if x >= el_from:
                self._erase_to_end(out, x, y)
                return
            self._goto(out, x, y)
            x = self._run(out, y, x, hi, el_from)

    def _erase_from(self, y: int, x: int, hi: int) -> int:
        """The first changed cell at or after x from which the row is plain blanks to its end,
        if enough cells change there to be worth an EL; else the width (never)."""
        wc, wp = self.want[y], self.want_pen[y]
        sc, sp = self.shown[y], self.shown_pen[y]
        w = self.width
        start = w
        while start > x and wc[start - 1] == " " and wp[start - 1] is PLAIN:
            start -= 1
        changed = [i for i in range(start, hi) if sc[i] != " " or sp[i] is not PLAIN]
        return changed[0] if len(changed) >= self.EL_MIN else w

    _erase_to_end = later("kiev_tui.ui.wire_more")

    def _run(self, out: list[str], y: int, x: int, hi: int, stop: int) -> int:
        """Write the run of changed cells that starts at x (the cursor is there); where it ends.

        The run goes on over a few unchanged cells when writing them again is cheaper than
        moving the cursor past them.  It ends at `stop`, where an EL takes over.
        """
        wc, wp = self.want[y], self.want_pen[y]
        sc, sp = self.shown[y], self.shown_pen[y]
        w = self.width
        end = min(hi, stop)
        first = True
        append = out.append
        tpen = self.tpen
        while x < end:
            ch, pen = wc[x], wp[x]
            if not first and ch == sc[x] and pen is sp[x]:
                self.tpen = tpen
                skip = self._gap(wc, wp, sc, sp, x, end)
                if not skip:
                    break
                append(skip)
                x += len(skip)
                self.tx = x if x < w else None
                continue
            first = False
            if ch is None or pen is None or ch == TAIL:
                self.tpen = tpen
                self.tx = None  # nothing known to write here: the next write moves the cursor
                return x + 1
            if pen is not tpen and not (ch == " " and self._blank_fits(pen, tpen)):
                if ch != " ":
                    append(change(tpen, pen))
                    tpen = pen
                else:
                    self.tpen = tpen
                    self._pen_for_blank(out, pen, wc, wp, x, hi)
                    tpen = self.tpen
            append(ch)
            sc[x] = ch
            sp[x] = pen
            x += 1
            if not ch.isascii():
                if x < w and wc[x] == TAIL:
                    sc[x], sp[x] = TAIL, wp[x]
                    x += 1
                    self.sure = False
                elif not _is_single_cell_widths(ch):
                    self.sure = False
        self.tpen = tpen
        self.tx = x if x < w else None  # after the last column: wrapped or not, not sure where
        return x

    GAP_MAX = 4  # unchanged cells a run may write again rather than step over

    def _gap(self, wc: list, wp: list, sc: list, sp: list, x: int, hi: int) -> str:
        """Unchanged cells from x to the next changed one, if writing them costs less than a move."""
        end = x
        while end < hi and end - x <= self.GAP_MAX and wc[end] == sc[end] and wp[end] is sp[end]:
            end += 1
        if end >= hi or end - x > self.GAP_MAX:
            return ""
        tpen = self.tpen
        for i in range(x, end):
            ch = wc[i]
            if not (ch.isascii() and (wp[i] is tpen or (ch == " " and self._blank_fits(wp[i], tpen)))):
                return ""  # another pen, or a character whose width the terminal might see otherwise
        if end - x >= (3 if end - x == 1 else 4):
            return ""  # "ESC[C" is 3 bytes, "ESC[nC" 4
        return "".join(wc[x:end])

    def _blank_fits(self, pen: Pen, tpen: Pen | None) -> bool:
        """Whether a space written in `tpen` looks like a space in `pen` (a blank-normalised pen)."""
        if pen is tpen:
            return True
        return (tpen is not None and not pen[0] and tpen[2] == pen[2]
                and not tpen[0] & _SHOWS_ON_BLANK)

    def _pen_for_blank(self, out: list[str], pen: Pen, wc: list, wp: list, x: int, hi: int) -> None:
        """Set a pen in which a space shows as `pen` says, choosing the one cheapest now and next."""
        tpen = self.tpen
        candidates: list[Pen] = [pen]
        if tpen is not None and not pen[0]:
            candidates.append(self._intern((tpen[0] & ~_SHOWS_ON_BLANK, tpen[1], pen[2])))
        for i in range(x + 1, hi):  # the next character that is not a space, if a space in its pen fits
            if wc[i] != " ":
                nxt = wp[i]
                if nxt is not None and self._blank.get(nxt) is pen:
                    candidates.insert(0, nxt)
                break
        best = min(candidates, key=lambda p: len(change(tpen, p)))
        out.append(change(tpen, best))
        self.tpen = best

    def _goto(self, out: list[str], x: int, y: int) -> None:
        if (self.tx, self.ty) != (x, y):
            out.append(self._move(x, y))
            self.tx, self.ty = x, y
            self.sure = True

    def _move(self, x: int, y: int) -> str:
        """The shortest way to put the terminal's cursor at column x of row y."""
        best = _cup(x, y)
        tx, ty = self.tx, self.ty
        if tx is None or ty is None or not self.sure:
            return best
        dy = y - ty
        vertical = "" if dy == 0 else (("\x1b[B" if dy == 1 else f"\x1b[{dy}B") if dy > 0
                                       else ("\x1b[A" if dy == -1 else f"\x1b[{-dy}A"))
        dx = x - tx
        if dx == 0:
            horizontal = ""
        else:
            rel = ("\x1b[C" if dx == 1 else f"\x1b[{dx}C") if dx > 0 else ("\x1b[D" if dx == -1 else f"\x1b[{-dx}D")
            cha = "\x1b[G" if x == 0 else f"\x1b[{x + 1}G"
            horizontal = rel if len(rel) <= len(cha) else cha
        step = vertical + horizontal
        return step if len(step) < len(best) else best


def _cup(x: int, y: int) -> str:
    """Absolute cursor position, with the default (first row, first column) left out."""
    if x == 0:
        return "\x1b[H" if y == 0 else f"\x1b[{y + 1}H"
    return f"\x1b[;{x + 1}H" if y == 0 else f"\x1b[{y + 1};{x + 1}H"
