"""The methods of kiev_tui.ui.wire that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in wire.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.ui.wire import (  # noqa: F401
    PLAIN, SYNC_END, TAIL, _SHOWS_ON_BLANK, _Unknown, _cup, _is_single_cell_widths,
    blank_like_erased, change,
)


class ShadowScreen:
    """Methods of wire.ShadowScreen that a new game's first frame never calls."""

    def _new_tables(self) -> None:
        """Styles are few in practice; a table that grew without end is started again."""
        self._send(self._diff())  # what was drawn so far goes out with the old pens
        self._pens, self._blank, self._sgr = {PLAIN: PLAIN}, {PLAIN: PLAIN}, {}
        self.forget()
        self.pen = None if self.pen is None else self._intern(self.pen)

    def _break_wide(self, y: int, x: int, end: int) -> None:
        """Text over cells x..end-1 covers half of a double-width character at either end.

        Terminals differ in what they leave in the other half; if that character is already on
        the screen, that half is simply not known any more.  If it was drawn in this very frame,
        the frame is passed on as it is.
        """
        lo, hi = self._lo[y], self._hi[y]
        for half, other in ((x, x - 1), (end, end - 1)):
            if half < self.width and self.want[y][half] == TAIL:
                cell = other if half == x else half  # the half not written now
                if lo <= other < hi:
                    raise _Unknown
                self.want[y][cell] = self.shown[y][cell] = None
                self.want_pen[y][cell] = self.shown_pen[y][cell] = None

    def _sync(self, start: bool) -> None:
        if start:
            if not self.sync_open:
                self._send(self._diff())  # anything drawn before: a frame of its own
            self.sync_open, self.sync_sent = True, False
            return
        if not self.sync_open:
            self.out.append(SYNC_END)  # an update begun before this shadow knew (after a fault): ended
            return
        self._send(self._diff())  # the frame's changes, inside the pair (none: no pair at all)
        if self.sync_sent:
            self.out.append(SYNC_END)
        self.sync_open = self.sync_sent = False
        self.raw = self._drawing = False

    def _give_up(self, *token: str) -> None:
        """Pass a token on unchanged, with the terminal brought to where Textual's output expects it."""
        in_frame = self.sync_open or self._drawing
        self._send(self._diff())
        if self.pen is not None and self.tpen is not self.pen:
            self._send(change(self.tpen, self.pen))
        if self.x is not None and self.y is not None and (self.tx, self.ty) != (self.x, self.y):
            self._send(_cup(self.x, self.y))
        self.forget()
        self.raw = in_frame
        self._raw_token(*token)

    def _raw_token(self, text: str, params: str, inter: str, final: str, osc: str, ctrl: str) -> None:
        """A token of a frame passed on unchanged; Textual's cursor and pen still followed."""
        if final and params == "?2026" and final in "hl" and not inter:
            self._sync(final == "h")  # the end of the frame ends the raw pass too
            return
        self._send(text or osc or ctrl or f"\x1b[{params}{inter}{final}")
        try:
            if text:
                self.x = None if self.x is None or not _is_single_cell_widths(text) else self.x + len(text)
            elif final == "m" and not inter:
                self.pen = self._parse_sgr(self.pen, params)
            elif final in ("H", "f") and not inter:
                self._csi(params, "", "H", "")
            elif ctrl == "\r":
                self.x = 0
            elif not osc and not (final and params.startswith("?")):
                self.x = self.y = None
        except _Unknown:
            self.x = self.y = None
        self.tpen, self.tx, self.ty = self.pen, self.x, self.y
        self.sure = False

    def _erase_to_end(self, out: list[str], x: int, y: int) -> None:
        """Blank the row from column x to the right edge with one EL.

        The EL may start further left, over cells that are plain blanks already, where the
        cursor gets to in fewer bytes.
        """
        wc, wp, sc, sp = self.want[y], self.want_pen[y], self.shown[y], self.shown_pen[y]
        start = x
        while start > 0 and wc[start - 1] == " " and wp[start - 1] is PLAIN \
                and sc[start - 1] == " " and sp[start - 1] is PLAIN:
            start -= 1
        if start < x:
            tx = self.tx if self.sure and self.tx is not None else -1
            options = [x, start] + ([tx] if start <= tx <= x else [])
            x = min(options, key=lambda at: (len(self._move(at, y)) if (self.tx, self.ty) != (at, y) else 0, -at))
        self._goto(out, x, y)
        pen = self.tpen
        if pen is None or not blank_like_erased(pen):
            # EL fills with the pen's background: keep what is cheap to keep, drop the rest
            target = PLAIN if pen is None else self._intern((pen[0] & ~_SHOWS_ON_BLANK, pen[1], ""))
            if len(change(pen, PLAIN)) <= len(change(pen, target)):
                target = PLAIN
            out.append(change(pen, target))
            self.tpen = target
        out.append("\x1b[K")
        n = self.width - x
        self.shown[y][x:] = [" "] * n
        self.shown_pen[y][x:] = [PLAIN] * n
