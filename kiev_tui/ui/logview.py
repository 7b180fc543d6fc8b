"""The log panel: a scrolling log that keeps its lines as text and styles a line only when it is shown.

Textual's RichLog wraps and styles every line when it is written, at the width of that moment;
after a resize (or once its scroll bar appears) old lines would be cut at the panel's edge.
This one keeps the source lines (Rich ``Text``) and draws the panel line by line (Textual's
line API): a row is wrapped and styled the first time it is on show, at the width on show, and
kept for that width.  What is not on show costs only a count of its rows, worked out from its
plain text the way Rich wraps it (corrected if Rich wraps it otherwise when it is shown).

A resumed game has hundreds of journal lines, and the player sees the last dozen: `show_tail`
builds only the newest lines, and the older ones are built a chunk at a time when the view
comes near the top of what is built (page up, the wheel, the scroll bar).  Issue 33: the
RichLog this replaces styled all of them twice on a resume (once for the snapshot's words,
once for the checked game's), most of them never seen.

It is a ScrollView of its own rather than a subclass of Textual's RichLog: RichLog's module
imports Rich's pretty printer (for objects written as they are), about 0.1 MiB of code a new
game's first frame never runs (issue 33, round 7).  What this panel kept of RichLog (its
style, focus, the line cache, the width it asks for) is written out below, as RichLog does it.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable, Iterable

from rich._wrap import divide_line
from rich.measure import measure_renderables
from rich.segment import Segment
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from kiev_tui.ui.widgets import PaintStyle


class WrapLog(PaintStyle, ScrollView, can_focus=True):
    """A read-only log whose lines always fit the panel's width."""

    # RichLog's own style, under this class's name
    DEFAULT_CSS = """
    WrapLog{
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    #: Older lines built at once when the player scrolls back towards the top of what is built.
    CHUNK = 100

    def __init__(self, *, max_lines: int | None = 5000, auto_scroll: bool = True, name: str | None = None,
                 id: str | None = None, classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.max_lines = max_lines  # the most lines kept, history included (None: no limit)
        self.min_width = 1  # the narrowest a line is drawn
        self.auto_scroll = auto_scroll  # a new line scrolls the log to its end
        self._line_cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._size_known = False  # set by the first resize with a width (RichLog's get_content_width)
        self._source: list[Text] = []
        self._wrapped_at = 0  # the width the rows below are counted for (0: none yet)
        self._rows: list[int] = []  # rows of each source line at that width
        self._starts: list[int] = [0]  # first row of each source line, and the total at the end
        self._drawn: dict[int, list[Strip]] = {}  # source line -> its styled rows at that width
        self._generation = 0  # bumped when rows move: the row cache below is keyed on it
        self._older: Callable[[int], Text] | None = None  # builds line i of the history (0 the oldest)
        self._first = 0  # the oldest line of the history still kept
        self._unbuilt = 0  # lines of the history from _first on, before _source, not built yet
        self._backfill_due = False

    # RichLog keeps its written rows in ``lines``; here they are drawn when shown, so the
    # attribute is computed (every row styled: for tests and tools, never for the screen).
    @property
    def lines(self) -> list[Strip]:
        return [strip for i in range(len(self._source)) for strip in self._styled(i)] if self._wrapped_at else []

    @property
    def unbuilt(self) -> int:
        """How many older lines are still to be built (0 once the whole history is in the log)."""
        return self._unbuilt

    @property
    def built(self) -> int:
        """How many of the newest lines are built (the rest wait for the player to scroll back)."""
        return len(self._source)

    @property
    def rows(self) -> int:
        """How many rows the built lines take at the width they are wrapped to."""
        return self._starts[-1]

    def add(self, line: Text) -> None:
        """Write one line of the log, keeping it to wrap again later."""
        self.add_lines([line])

    def add_lines(self, lines: Iterable[Text]) -> None:
        """Write lines at the end of the log, keeping them to wrap again later."""
        new = list(lines)
        self._source.extend(new)
        self._trim()
        width = self.scrollable_content_region.width
        if width > 0 and width == self._wrapped_at:
            dropped = len(self._rows) - len(self._source) + len(new)  # rows of lines _trim let go
            if dropped > 0:
                self._reindex(width)
            else:
                for line in new:
                    self._rows.append(self._count(line, width))
                    self._starts.append(self._starts[-1] + self._rows[-1])
                self._moved()
            if self.auto_scroll:
                self.scroll_end(animate=False, immediate=False, x_axis=False)
        # else the width is not known yet, or changed: _fit counts everything at the new width
        # (and the lines may have brought a scroll bar, a narrower text area: checked after layout)
        self.call_after_refresh(self._fit)

    def show_tail(self, count: int, line_at: Callable[[int], Text], tail: int) -> None:
        """Start the log afresh with a history of `count` lines, building only the last `tail`
        now; `line_at(i)` builds line i (0 the oldest) when the player scrolls back to it."""
        self.clear()
        first = count - min(count, self.max_lines) if self.max_lines is not None else 0
        start = max(first, count - max(0, tail))
        self._older, self._first, self._unbuilt = line_at, first, start - first
        self.add_lines(line_at(i) for i in range(start, count))

    def retell(self, line_at: Callable[[int], Text]) -> None:
        """The same history in other words: the built lines told again at once (no empty log
        in between), the older ones built with ``line_at`` when scrolled back to."""
        if self._older is not None:
            self._older = line_at
        first = self._first + self._unbuilt
        new = [line_at(i) for i in range(first, first + len(self._source))]
        if [t.plain for t in new] == [t.plain for t in self._source]:
            return
        self._source = new
        if self._wrapped_at:
            self._reindex(self._wrapped_at)
            self.scroll_end(animate=False, immediate=True)

    def clear(self) -> "WrapLog":
        self._source = []
        self._wrapped_at = 0
        self._rows, self._starts, self._drawn = [], [0], {}
        self._older = None
        self._first = self._unbuilt = 0
        self._moved()
        return self

    def write(self, content: Any, width: int | None = None, expand: bool = False, shrink: bool = True,
              scroll_end: bool | None = None, animate: bool = False) -> "WrapLog":
        """RichLog's write, for anything that calls it: the content joins the log as a line."""
        text = content if isinstance(content, Text) else Text(str(content))
        self.add(text)
        return self

    def _trim(self) -> None:
        """Keep at most max_lines, history included: the oldest go first, built or not."""
        if self.max_lines is None:
            return
        excess = self._unbuilt + len(self._source) - self.max_lines
        if excess <= 0:
            return
        dropped = min(excess, self._unbuilt)
        self._first += dropped
        self._unbuilt -= dropped
        if excess > dropped:
            del self._source[: excess - dropped]

    def on_resize(self, event: Resize) -> None:
        if event.size.width:
            self._size_known = True
        self.call_after_refresh(self._fit)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # as RichLog: the width of the lines once the panel has been sized, the container's before
        return self.virtual_size.width if self._size_known else container.width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._moved()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        # scrolling up to within two screens of the top: build the next chunk of older lines
        if self._unbuilt and new_value < old_value and new_value < 2 * max(1, self.size.height):
            if not self._backfill_due:
                self._backfill_due = True
                self.call_after_refresh(self._backfill)

    def _backfill(self) -> None:
        """Build the next chunk of older lines above those on show, keeping the view where it is."""
        self._backfill_due = False
        older = self._older
        if not self._unbuilt or older is None:
            return
        n = min(self._unbuilt, max(self.CHUNK, 2 * self.size.height))
        end = self._first + self._unbuilt
        self._source[:0] = [older(i) for i in range(end - n, end)]
        self._unbuilt -= n
        if self._wrapped_at <= 0:
            return  # nothing is counted yet: _fit counts all of it
        rows, y = self.rows, self.scroll_y
        self._reindex(self._wrapped_at)
        self.scroll_to(y=y + self.rows - rows, animate=False, immediate=True)

    def _fit(self) -> None:
        """Count every line's rows again if the width on show is not the one they were counted for."""
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_at or not self._source:
            return
        self._reindex(width)
        self.scroll_end(animate=False, immediate=True)

    # -- rows ------------------------------------------------------------------------------
    def _reindex(self, width: int) -> None:
        """Count the rows of every built line at ``width`` (styled rows are drawn when shown)."""
        self._wrapped_at = width
        self._drawn = {}
        self._rows = [self._count(line, width) for line in self._source]
        self._restart()

    def _restart(self) -> None:
        starts = [0]
        for n in self._rows:
            starts.append(starts[-1] + n)
        self._starts = starts
        self._moved()

    def _moved(self) -> None:
        """The rows changed: the size the scroll bar sees, and no old row drawn again."""
        self._generation += 1
        self._line_cache.clear()
        self.virtual_size = Size(self._wrapped_at, self._starts[-1])
        self.refresh()

    @staticmethod
    def _count(line: Text, width: int) -> int:
        """The rows Rich wraps ``line`` into at ``width`` (as Text.wrap divides it, folding words
        longer than a row), worked out from the plain text alone."""
        plain = line.plain.expandtabs(line.tab_size or 8) if "\t" in line.plain else line.plain
        return sum(len(divide_line(part, width, fold=True)) + 1 for part in plain.split("\n"))

    def _styled(self, i: int) -> list[Strip]:
        """The rows of source line ``i`` at the counted width, wrapped and styled as RichLog writes them."""
        got = self._drawn.get(i)
        if got is None:
            got = self._drawn[i] = self._draw(self._source[i], self._wrapped_at)
        if len(got) != self._rows[i]:  # Rich wrapped it otherwise than counted: the rows move
            self._rows[i] = len(got)
            self._restart()
        return got

    def _draw(self, line: Text, width: int) -> list[Strip]:
        """``line`` wrapped to ``width`` and styled, as RichLog's write makes its rows."""
        console = self.app.console
        options = console.options
        if "\t" in line.plain:
            line.expand_tabs()
        fits = measure_renderables(console, options, [line]).maximum
        render_width = max(min(fits, width), self.min_width)
        split = list(Segment.split_lines(console.render(line, options.update_width(render_width))))
        if not split:
            return [Strip.blank(render_width)]
        got = Strip.from_lines(split)
        for strip in got:
            strip.adjust_cell_length(render_width)
        return got

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the panel (Textual's line API), in the panel's style as RichLog draws it."""
        scroll_x, scroll_y = self.scroll_offset
        return self._render_line(scroll_y + y, scroll_x, self.scrollable_content_region.width).apply_style(
            self.rich_style)

    def _render_line(self, y: int, scroll_x: int, width: int) -> Strip:
        """Row ``y`` of the log, drawn the first time it is shown at this width (Textual's line API)."""
        if not self._wrapped_at or y >= self._starts[-1] or y < 0:
            return Strip.blank(width, self.rich_style)
        key = (y, scroll_x, width, self._generation)
        cached = self._line_cache.get(key)
        if cached is not None:
            return cached
        i = bisect_right(self._starts, y) - 1
        rows = self._styled(i)
        if self._generation != key[3]:  # the count was corrected: find the row again
            return self._render_line(y, scroll_x, width)
        strip = rows[y - self._starts[i]].crop_extend(scroll_x, scroll_x + width, self.rich_style)
        self._line_cache[(y, scroll_x, width, self._generation)] = strip
        return strip
