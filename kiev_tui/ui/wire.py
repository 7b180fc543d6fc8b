"""Fewer bytes on the wire: how screen updates are turned into terminal output.

A player on a slow SSH link pays for every byte.  Textual (8.x) writes each styled run of
text as ``ESC[<every code>m text ESC[0m``: the full style again and a reset after it, even
when the next run differs only in its foreground colour.  And a partial update of a widget
line is cut at the widget's right edge but not at its left, so refreshing one hex in the
middle of the map rewrote the map row from the map's left edge.

This module replaces the two `render_segments` methods of Textual's compositor updates with
versions that (1) send only the change of style from one run to the next, keeping track of
what the terminal already has, and (2) crop each partial update to the span that changed,
on both sides.  What reaches the screen is the same cell for cell; `tests/ui/test_wire.py`
checks that through a terminal emulator.

`install()` is called once when the app module is imported.  If a future Textual renames
what is patched here, `install()` leaves Textual alone and the app still works, only with
more bytes; the test suite then fails loudly so that the patch is looked at again.
"""

from __future__ import annotations

from typing import Iterable

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style

from textual import _compositor
from textual.strip import Strip

# SGR parameters that switch on each attribute bit of a Rich style, in bit order (the same
# table Textual's Strip.render_ansi uses).
_ATTRIBUTE_CODES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53")

# (attribute bits, foreground codes, background codes): what the terminal is set to.
Pen = tuple[int, str, str]
PLAIN: Pen = (0, "", "")

_pens: dict[tuple[Style, ColorSystem], Pen] = {}


def pen_of(style: Style | None, color_system: ColorSystem) -> Pen:
    """The terminal state a Rich style asks for."""
    if style is None:
        return PLAIN
    key = (style, color_system)
    pen = _pens.get(key)
    if pen is None:
        bits = style._attributes & style._set_attributes
        fg = ";".join(style._color.downgrade(color_system).get_ansi_codes()) if style._color is not None else ""
        bg = (";".join(style._bgcolor.downgrade(color_system).get_ansi_codes(False))
              if style._bgcolor is not None else "")
        # 39 and 49 are the terminal's own colours: the same as saying nothing
        pen = (bits, "" if fg == "39" else fg, "" if bg == "49" else bg)
        if len(_pens) > 8192:  # styles are few in practice; never let the table grow without end
            _pens.clear()
        _pens[key] = pen
    return pen


# Attributes that show on a blank cell (reverse, underline, strike, overline and the like).
_SHOWS_ON_BLANK = sum(1 << bit for bit in (3, 6, 8, 9, 10, 11, 12))


def blank_like_erased(pen: Pen) -> bool:
    """Whether spaces in this pen look like cells erased to the terminal's default."""
    return not pen[2] and not pen[0] & _SHOWS_ON_BLANK


def _attribute_codes(bits: int) -> list[str]:
    return [code for bit, code in enumerate(_ATTRIBUTE_CODES) if bits & (1 << bit)]


def change(old: Pen, new: Pen) -> str:
    """The shortest SGR sequence that takes the terminal from `old` to `new` ('' if none)."""
    if old == new:
        return ""
    if new == PLAIN:
        return "\x1b[0m"
    bits, fg, bg = new
    # From scratch: reset, then everything the new pen has.
    fresh = ["0", *_attribute_codes(bits)] + [c for c in (fg, bg) if c]
    if old[0] & ~bits:
        codes = fresh  # an attribute must go off: a reset is the simple, sure way
    else:
        step = _attribute_codes(bits & ~old[0])
        if fg != old[1]:
            step.append(fg or "39")
        if bg != old[2]:
            step.append(bg or "49")
        codes = step if len(";".join(step)) <= len(";".join(fresh)) else fresh
    return f"\x1b[{';'.join(codes)}m"


class PenWriter:
    """Writes styled text, sending only style changes; remembers the terminal's pen."""

    __slots__ = ("color_system", "pen", "out")

    def __init__(self, color_system: ColorSystem | None) -> None:
        self.color_system = color_system or ColorSystem.TRUECOLOR
        self.pen: Pen = PLAIN
        self.out: list[str] = []

    def write(self, text: str, style: Style | None) -> None:
        if not text:
            return
        if style is not None and style._link:
            # Hyperlinks are rare here: let Textual write them its own way, from a clean pen.
            self._set(PLAIN)
            self.out.append(Strip.render_style(style, text, self.color_system))
            return
        self._set(pen_of(style, self.color_system))
        self.out.append(text)

    def strip(self, strip: Iterable, to_edge: bool = False) -> bool:
        """Write a strip; True if its blank tail was erased with EL instead of written.

        `to_edge`: the strip ends at the right edge of the screen, so "erase to end of line"
        (EL, understood by every VT100 descendant) can stand in for trailing blanks.
        """
        segments = list(strip)
        if to_edge:
            cut, blank = self._blank_tail(segments)
            if blank > 4:
                for text, style, _control in segments[:cut]:
                    self.write(text, style)
                if cut < len(segments):
                    text, style, _control = segments[cut]
                    self.write(text.rstrip(" "), style)
                if not blank_like_erased(self.pen):
                    self._set(PLAIN)
                self.out.append("\x1b[K")
                return True
        for text, style, _control in segments:
            self.write(text, style)
        return False

    def _blank_tail(self, segments: list) -> tuple[int, int]:
        """(index of the segment where the blank tail starts, blank cells in the tail)."""
        blank, i = 0, len(segments)
        while i > 0:
            text, style, control = segments[i - 1]
            if control or not blank_like_erased(pen_of(style, self.color_system)) or text.strip(" "):
                break
            blank += len(text)
            i -= 1
        if i > 0:
            text, style, control = segments[i - 1]
            trailing = len(text) - len(text.rstrip(" "))
            if trailing and not control and blank_like_erased(pen_of(style, self.color_system)):
                return i - 1, blank + trailing
        return i, blank

    def move_to(self, x: int, y: int) -> None:
        self.out.append(f"\x1b[{y + 1};{x + 1}H")

    def _set(self, pen: Pen) -> None:
        if pen != self.pen:
            self.out.append(change(self.pen, pen))
            self.pen = pen

    def finish(self) -> str:
        """Everything written, with the pen left plain for whatever Textual writes next."""
        self._set(PLAIN)
        return "".join(self.out)


def render_layout(update: _compositor.LayoutUpdate, console: Console) -> str:
    """A full-screen update: each line from its left edge, styles sent as changes."""
    writer = PenWriter(console._color_system)
    x = update.region.x
    for y, line in enumerate(update.strips, update.region.y):
        writer.move_to(x, y)
        strips = list(line)
        for i, strip in enumerate(strips):
            writer.strip(strip, to_edge=i == len(strips) - 1)
    return writer.finish()


def render_chops(update: _compositor.ChopsUpdate, console: Console) -> str:
    """A partial update: only the cells inside each dirty span, styles sent as changes."""
    writer = PenWriter(console._color_system)
    chops, chop_ends = update.chops, update.chop_ends
    at: tuple[int, int] | None = None  # where the terminal's cursor is after the last write
    for y, x1, x2 in update.spans:
        line = chops[y]
        ends = chop_ends[y]
        edge = ends[-1] if ends else 0  # the right edge of the screen
        for end, (x, strip) in zip(ends, line.items()):
            if strip is None or x >= x2 or end <= x1:
                continue
            left, right = max(x1 - x, 0), min(end, x2) - x
            if left or right < end - x:
                strip = strip.crop(left, right)
            if at != (x + left, y):
                writer.move_to(x + left, y)
            erased = writer.strip(strip, to_edge=x + right == edge)
            at = None if erased else (x + right, y)
    return writer.finish()


_installed = False
ORIGINAL: dict[str, object] = {}  # Textual's own renderers, kept for the tests that compare


def install() -> bool:
    """Use the lean renderers for every screen update from now on; True if they are in place."""
    global _installed
    if _installed:
        return True
    layout, chops = getattr(_compositor, "LayoutUpdate", None), getattr(_compositor, "ChopsUpdate", None)
    needed = ("strips", "region"), ("chops", "spans", "chop_ends")
    if layout is None or chops is None or not hasattr(layout, "render_segments") \
            or not hasattr(chops, "render_segments"):
        return False
    if not (_has_fields(layout, needed[0]) and _has_fields(chops, needed[1])):
        return False
    ORIGINAL["layout"], ORIGINAL["chops"] = layout.render_segments, chops.render_segments
    layout.render_segments = render_layout  # type: ignore[method-assign]
    chops.render_segments = render_chops  # type: ignore[method-assign]
    _installed = True
    return True


def _has_fields(cls: type, names: tuple[str, ...]) -> bool:
    import inspect

    try:
        params = list(inspect.signature(cls.__init__).parameters)
    except (TypeError, ValueError):
        return False
    return all(name in params for name in names)
