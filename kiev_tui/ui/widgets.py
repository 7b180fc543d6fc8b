"""The widgets of the game screen: fixed-size text panels and the one-line key bar.

Both redraw only what changed, so a cursor move sends a few words to the terminal, not a panel.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from kiev_tui.later import later


def _span_region(a: str, b: str, y: int) -> Region:
    """The cells of row ``y`` that differ between two renderings of it."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    if len(a) != len(b):
        end = max(len(a), len(b))  # the tail has shifted: everything after the change differs
    else:
        end = len(a)
        while end > start and a[end - 1] == b[end - 1]:
            end -= 1
    return Region(start, y, max(1, end - start), 1)


class PaintStyle:
    """A widget painted line by line that works out its base style once per paint.

    Textual computes ``rich_style`` afresh at every read (the backgrounds and colours of every
    ancestor blended anew), and a line-API widget reads it for each line it draws: 38 times
    for the map's rows of one frame.  While the widget is painted (``render_lines``) the value
    is kept; between paints it is read as before, so a restyle is always seen.
    """

    _paint_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._paint_style = super().rich_style  # type: ignore[misc]
        try:
            return super().render_lines(crop)  # type: ignore[misc,no-any-return]
        finally:
            self._paint_style = None

    @property
    def rich_style(self) -> Style:
        kept = self._paint_style
        return kept if kept is not None else super().rich_style  # type: ignore[misc,no-any-return]


class Panel(PaintStyle, Widget):
    """Text in a box of fixed size, drawn line by line.

    An update never re-lays out the screen, and only the cells that changed are sent to the
    terminal: moving the cursor over the map changes a few words of the inspector, not all of it.
    """

    # The margin is drawn as part of the text, not as CSS padding: padding is painted in a
    # style of its own, which costs two style changes per line on the wire.
    MARGIN = 1

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown = ""
        self._wrap_lines = True
        self._rows: list[str] = []
        self._wrapped_at = -1  # the content width _rows were wrapped for

    def show(self, text: str, wrap: bool = True) -> None:
        """Show text, word-wrapped to the box, or as one line cut short with '...'."""
        if text == self._shown and wrap == self._wrap_lines:
            return
        self._shown = text
        self._wrap_lines = wrap
        self._rewrap(partial=True)

    def _wrap(self) -> list[str]:
        width = self.content_region.width - self.MARGIN
        if width <= 0:
            return self._shown.split("\n")
        if not self._wrap_lines:
            line = self._shown.replace("\n", " ")
            return [line if len(line) <= width else line[: max(0, width - 3)] + "..."]
        return [line.plain for line in Text(self._shown).wrap(self.app.console, width)]

    def _rewrap(self, partial: bool) -> None:
        new = self._wrap()
        old, self._rows = self._rows, new
        self._wrapped_at = self.content_region.width
        if not partial or not self.is_mounted:
            self.refresh()
            return
        visible = self.content_region.height
        for y in range(min(max(len(old), len(new)), visible)):  # never spill into the next panel
            a = old[y] if y < len(old) else ""
            b = new[y] if y < len(new) else ""
            if a == b:
                continue
            region = _span_region(a, b, y).translate((self.MARGIN, 0))
            if len(b) < len(a):
                # a shorter line: repaint to the panel's edge, which at the screen's edge the
                # driver sends as one "erase to end of line" instead of spaces (ui/wire.py)
                region = Region(region.x, y, max(1, self.size.width - region.x), 1)
            self.refresh(region)

    def on_resize(self) -> None:
        if self.content_region.width != self._wrapped_at:
            self._rewrap(partial=False)
        # else render_line wrapped the text for this width already, and Textual repaints a
        # widget whose size changed: nothing to do (issue 33: the first frame painted the
        # side panels twice, once unwrapped before the Resize arrived and once after)

    def render(self) -> Text:
        """The whole text (painting goes through render_line; this serves readers and tests)."""
        return Text(self._shown)

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        if width != self._wrapped_at:  # laid out anew and painted before its Resize arrives: wrap for this width
            self._rows = self._wrap()
            self._wrapped_at = width
        text = " " * self.MARGIN + (self._rows[y] if y < len(self._rows) else "")
        return Strip([Segment(text[:width].ljust(width), self.rich_style)], width)


class KeyBar(PaintStyle, Widget):
    """The keys that work right now, on one line: ``Tab Next  Enter Select ...``.

    Textual's Footer is a widget per key and recomposes whenever the bindings change, which
    took most of the app's start-up time; this is one line, redrawn only when the keys change.
    A click on a key runs it, as with the Footer.
    """

    DEFAULT_CSS = "KeyBar { height: 1; }"
    KEY_STYLE = "bold yellow"

    def __init__(self, *, id: str | None = None, short: dict[str, str] | None = None) -> None:
        super().__init__(id=id)
        self.offered: tuple[tuple[str, str, str], ...] = ()  # (key shown, label, action) that work now
        self.keys: tuple[tuple[str, str, str], ...] = ()  # those of them on show
        self.short = {**self.SHORT, **(short or {})}  # action -> a shorter label

    # When the keys do not fit even one space apart, the labels named here get shorter first
    # (80 columns with a stack selected: every key still shows); then the always-there keys make
    # room, in YIELD_ORDER (they are in the help, which stays); the keys of the moment never go.
    SHORT = {"select": "Sel", "end_phase": "End", "pending": "Ans", "next_actor": "Next", "cancel": "Back"}
    YIELD_ORDER = ("rules", "undo", "cancel", "next_actor", "select")

    def show(self, keys: tuple[tuple[str, str, str], ...]) -> None:
        self.offered = keys
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        keys = list(self.offered)
        width = self.size.width or 80
        if self._length(keys, 1) > width:
            keys = [(k, self.short.get(action, label), action) for k, label, action in keys]
        for action in self.YIELD_ORDER:
            if self._length(keys, 1) <= width:
                break
            keys = [k for k in keys if k[2] != action]
        if tuple(keys) != self.keys:
            self.keys = tuple(keys)
            self.refresh()

    @staticmethod
    def _length(keys: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...], gap: int) -> int:
        return 1 + sum(len(k) + 1 + len(label) for k, label, _ in keys) + gap * max(0, len(keys) - 1)

    def _gap(self) -> int:
        """Two spaces between keys when they all fit, else one."""
        return 2 if self._length(self.keys, 2) <= self.size.width else 1

    _spans = later("kiev_tui.ui.widgets_more")

    def render(self) -> Text:
        """The line as text (painting goes through render_line; this serves readers and tests)."""
        return Text(" " * self._gap()).join(Text(f"{k} {label}") for k, label, _ in self.keys)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        key_style = base + self.app.console.get_style(self.KEY_STYLE)
        segments, gap = [Segment(" ", base)], " " * self._gap()
        for key, label, _ in self.keys:
            segments += [Segment(key, key_style), Segment(f" {label}{gap}", base)]
        return Strip(segments).crop_extend(0, width, base)

    def on_click(self, event: Click) -> None:
        for x1, x2, action in self._spans():
            if x1 <= event.x < x2:
                self.call_later(self.screen.run_action, action)
                return
