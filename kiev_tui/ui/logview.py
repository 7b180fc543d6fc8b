"""The log panel: a RichLog that keeps what was written and wraps it again when its width changes.

Textual's RichLog wraps a line once, when it is written, at the width of that moment; after a
resize (or once its scroll bar appears) old lines would be cut at the panel's edge.  This one
keeps the source lines and writes them all again whenever the width they were wrapped at is
no longer the width on show.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog


class WrapLog(RichLog):
    """A read-only log whose lines always fit the panel's width."""

    def __init__(self, *, max_lines: int = 5000, **kwargs: Any) -> None:
        super().__init__(max_lines=max_lines, wrap=True, markup=False, highlight=False, min_width=1, **kwargs)
        self._source: list[Text] = []
        self._wrapped_at = 0  # the width the lines on show were wrapped to (0: none yet)

    def add(self, line: Text) -> None:
        """Write one line of the log, keeping it to wrap again later."""
        self._source.append(line)
        if self.max_lines is not None and len(self._source) > self.max_lines:
            del self._source[: len(self._source) - self.max_lines]
        self.write(line)
        if not self._wrapped_at:
            self._wrapped_at = self.scrollable_content_region.width
        # the write may have brought a scroll bar (a narrower text area): check after layout
        self.call_after_refresh(self._fit)

    def clear(self) -> "WrapLog":
        self._source = []
        self._wrapped_at = 0
        super().clear()
        return self

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Wrap every line again if the width on show is not the one they were wrapped to."""
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_at or not self._source:
            return
        self._wrapped_at = width
        source = self._source
        super().clear()
        for line in source:
            self.write(line, scroll_end=False)
        self.scroll_end(animate=False, immediate=True)
