"""The log panel: a RichLog that keeps what was written and wraps it again when its width changes.

Textual's RichLog wraps a line once, when it is written, at the width of that moment; after a
resize (or once its scroll bar appears) old lines would be cut at the panel's edge.  This one
keeps the source lines and writes them all again whenever the width they were wrapped at is
no longer the width on show.

A resumed game has hundreds of journal lines, and the player sees the last dozen: `show_tail`
builds only the newest lines, and the older ones are built a chunk at a time when the view
comes near the top of what is built (page up, the wheel, the scroll bar).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from rich.text import Text
from textual.widgets import RichLog


class WrapLog(RichLog):
    """A read-only log whose lines always fit the panel's width."""

    #: Older lines built at once when the player scrolls back towards the top of what is built.
    CHUNK = 100

    def __init__(self, *, max_lines: int = 5000, **kwargs: Any) -> None:
        super().__init__(max_lines=max_lines, wrap=True, markup=False, highlight=False, min_width=1, **kwargs)
        self._source: list[Text] = []
        self._wrapped_at = 0  # the width every line of _source is written at (0: none written yet)
        self._older: Callable[[int], Text] | None = None  # builds line i of the history (0 the oldest)
        self._first = 0  # the oldest line of the history still kept
        self._unbuilt = 0  # lines of the history from _first on, before _source, not built yet
        self._backfill_due = False

    @property
    def unbuilt(self) -> int:
        """How many older lines are still to be built (0 once the whole history is in the log)."""
        return self._unbuilt

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
            for line in new:
                self.write(line)
        # else the width is not known yet, or changed: _fit writes everything at the new width
        # (and the write may have brought a scroll bar, a narrower text area: checked after layout)
        self.call_after_refresh(self._fit)

    def show_tail(self, count: int, line_at: Callable[[int], Text], tail: int) -> None:
        """Start the log afresh with a history of `count` lines, building only the last `tail`
        now; `line_at(i)` builds line i (0 the oldest) when the player scrolls back to it."""
        self.clear()
        first = count - min(count, self.max_lines) if self.max_lines is not None else 0
        start = max(first, count - max(0, tail))
        self._older, self._first, self._unbuilt = line_at, first, start - first
        self.add_lines(line_at(i) for i in range(start, count))

    @property
    def built(self) -> int:
        """How many of the newest lines are built (the rest wait for the player to scroll back)."""
        return len(self._source)

    def retell(self, line_at: Callable[[int], Text]) -> None:
        """The same history in other words: the built lines written again at once (no empty log
        in between), the older ones built with ``line_at`` when scrolled back to."""
        if self._older is not None:
            self._older = line_at
        first = self._first + self._unbuilt
        new = [line_at(i) for i in range(first, first + len(self._source))]
        if [t.plain for t in new] == [t.plain for t in self._source]:
            return
        self._source = new
        if self._wrapped_at:
            self._rewrite(self._wrapped_at, True)
            self.scroll_end(animate=False, immediate=True)

    def clear(self) -> "WrapLog":
        self._source = []
        self._wrapped_at = 0
        self._older = None
        self._first = self._unbuilt = 0
        super().clear()
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

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

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
            return  # nothing is written yet: _fit writes all of it
        rows, y = len(self.lines), self.scroll_y
        self._rewrite(self._wrapped_at, False)
        self.scroll_to(y=y + len(self.lines) - rows, animate=False, immediate=True)

    def _rewrite(self, width: int, to_end: bool) -> None:
        self._wrapped_at = width
        super().clear()
        last = len(self._source) - 1
        for i, line in enumerate(self._source):
            # RichLog holds writes back until it knows its size: the last one carries the scroll
            self.write(line, scroll_end=to_end and i == last)

    def _fit(self) -> None:
        """Wrap every line again if the width on show is not the one they were wrapped to."""
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_at or not self._source:
            return
        self._rewrite(width, True)
        self.scroll_end(animate=False, immediate=True)
