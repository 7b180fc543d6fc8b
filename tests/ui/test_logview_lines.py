"""The log panel draws a row only when it is on show (Textual's line API, issue 33): what it
draws is what a RichLog writing the same lines draws, styles of unit names included, and the
rows it counts without drawing are the rows Rich wraps a line into."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import RichLog

from kiev_tui.ui.logview import WrapLog

LINES = [
    "Turn 3: the soviet movement phase begins",
    "ge-16pz-2 moves 0312 > 0313 > 0414 > 0415 > 0516 > 0517, through woods and across a river at last",
    "a-word-far-too-long-for-any-row-of-the-panel-so-rich-folds-it-at-the-edge-of-the-row-and-goes-on-folding-it",
    "tab\there, and two  spaces, then a   gap",
    "",
    "two lines\nin one entry, the second rather longer than the first one is",
    "so-5-army-19 attacks 0920 at 3-1: DE, ge-1-mtn-49 is eliminated",
]


def styled(plain: str) -> Text:
    """A line as the game screen builds it: unit names in colours of their own."""
    text = Text(plain)
    for name, colour in (("ge-16pz-2", "bold red"), ("so-5-army-19", "green"), ("ge-1-mtn-49", "red")):
        at = plain.find(name)
        if at >= 0:
            text.stylize(colour, at, at + len(name))
    return text


class Pair(App[None]):
    """A WrapLog and a RichLog side by side, the same size."""

    CSS = "WrapLog, RichLog { width: 34; height: 8; }"

    def compose(self) -> ComposeResult:
        yield WrapLog(id="wrap")
        yield RichLog(id="rich", wrap=True, markup=False, highlight=False, min_width=1)


def plain_rows(strips: list[Any]) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in strips]


def segments(strips: list[Any]) -> list[list[tuple[str, Any]]]:
    return [[(seg.text, seg.style) for seg in strip] for strip in strips]


async def test_the_rows_are_those_a_richlog_writes() -> None:
    app = Pair()
    async with app.run_test(size=(80, 24)) as pilot:
        wrap, rich = app.query_one("#wrap", WrapLog), app.query_one("#rich", RichLog)
        await pilot.pause()
        wrap.add_lines(styled(p) for p in LINES)
        for p in LINES:
            rich.write(styled(p))
        await pilot.pause()
        await pilot.pause()
        assert wrap.scrollable_content_region.width == rich.scrollable_content_region.width == 32
        assert segments(wrap.lines) == segments(rich.lines)  # the words, the wrapping and every style
        assert wrap.rows == len(rich.lines) == 19
        assert wrap.virtual_size.height == rich.virtual_size.height == 19
        assert wrap.scroll_y == wrap.max_scroll_y == rich.scroll_y == 11  # following the end
        shown = [plain_rows([wrap.render_line(y)]) for y in range(8)]
        assert shown == [plain_rows([rich.render_line(y)]) for y in range(8)]


@pytest.mark.parametrize("width", [1, 2, 5, 12, 33, 80])
def test_the_rows_counted_are_the_rows_rich_wraps(width: int) -> None:
    console = Console(width=200)
    for plain in LINES + ["x" * 40, " leading", "trailing ", "  ", "\t"]:
        text = styled(plain)
        text.expand_tabs()
        assert WrapLog._count(text, width) == len(text.wrap(console, width)), (plain, width)


async def test_only_the_rows_on_show_are_styled() -> None:
    app = Pair()
    async with app.run_test(size=(80, 24)) as pilot:
        wrap = app.query_one("#wrap", WrapLog)
        await pilot.pause()
        wrap.show_tail(200, lambda i: Text(f"line {i} of the journal"), tail=60)
        await pilot.pause()
        await pilot.pause()
        assert (wrap.built, wrap.unbuilt, wrap.rows) == (60, 140, 60)
        assert sorted(wrap._drawn) == list(range(52, 60))  # the last eight: the panel is 8 rows high
        wrap.retell(lambda i: Text(f"entry {i} of the journal"))
        await pilot.pause()
        assert sorted(wrap._drawn) == list(range(52, 60))  # told again: still only the rows on show
        assert plain_rows([wrap.render_line(7)])[0].rstrip() == "entry 199 of the journal"


async def test_a_count_rich_does_not_agree_with_is_put_right_when_drawn() -> None:
    app = Pair()
    async with app.run_test(size=(80, 24)) as pilot:
        wrap = app.query_one("#wrap", WrapLog)
        await pilot.pause()
        wrap.add_lines([Text("first"), Text("second")])
        await pilot.pause()
        await pilot.pause()
        wrap._rows[0] = 3  # as if the count had been wrong
        wrap._restart()
        assert wrap.rows == 4
        assert plain_rows([wrap._render_line(1, 0, 32)])[0].rstrip() == "second"  # drawn: 1 row, not 3
        assert (wrap.rows, wrap._rows) == (2, [1, 1])
