"""The lean terminal writer draws exactly what Textual's own writer draws, in fewer bytes.

Each check renders the same screen updates twice, with Textual's renderers and with
`kiev_tui.ui.wire`, into the small terminal of `vt.py`, and compares every cell.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual import _compositor
from textual.geometry import Region
from textual.strip import Strip

from kiev_tui.engine.game import Game
from kiev_tui.ui import wire
from kiev_tui.ui.app import build_app
from tests.ui.helpers import goto, keys
from tests.ui.vt import Terminal

assert wire.install(), "the lean writer no longer fits this Textual: look at kiev_tui/ui/wire.py"
ORIGINAL_LAYOUT = wire.ORIGINAL["layout"]
ORIGINAL_CHOPS = wire.ORIGINAL["chops"]

def make_styles() -> list[Style | None]:
    # Fresh objects for each example: Textual caches a style's codes on the style itself, for
    # whichever colour system it met first, so shared styles would mix colour systems.
    return [
        None,
        Style(),
        Style(color="blue"),
        Style(color="bright_red", bold=True),
        Style(dim=True),
        Style(color="black", bgcolor="white", bold=True),
        Style(color="bright_white", bgcolor="red", bold=True),
        Style(reverse=True, bold=True),
        Style(underline=True, color="yellow"),
        Style(color="grey50"),
        Style(color="#ff8800", bgcolor="#102030"),
        Style(color="default", bgcolor="default"),
        Style(bgcolor="grey11"),
        Style(italic=True, strike=True),
    ]


STYLES = make_styles()


def differences(a: Terminal, b: Terminal) -> list[tuple[int, int, Any, Any]]:
    """Cells that differ between two terminals: (row, column, in a, in b)."""
    ca, cb = a.cells(), b.cells()
    return [(y, x, ca[y][x], cb[y][x]) for y in range(len(ca)) for x in range(len(ca[y])) if ca[y][x] != cb[y][x]]


def console(system: str = "256") -> Console:
    return Console(color_system=system, force_terminal=True, width=80)


# -- the style arithmetic --------------------------------------------------------------------

def test_change_sends_only_what_differs() -> None:
    cs = ColorSystem.STANDARD
    blue = wire.pen_of(Style(color="blue"), cs)
    bold_blue = wire.pen_of(Style(color="blue", bold=True), cs)
    red_on_white = wire.pen_of(Style(color="red", bgcolor="white"), cs)
    assert wire.change(wire.PLAIN, blue) == "\x1b[34m"
    assert wire.change(blue, bold_blue) == "\x1b[1m"  # add bold, colour already set
    assert wire.change(bold_blue, blue) == "\x1b[0;34m"  # bold must go: reset, then blue
    assert wire.change(blue, wire.PLAIN) == "\x1b[0m"
    assert wire.change(blue, red_on_white) == "\x1b[31;47m"
    assert wire.change(blue, blue) == ""
    # the terminal's own colours are no colour at all
    assert wire.pen_of(Style(color="default", bgcolor="default"), cs) == wire.PLAIN


# -- random updates, cell by cell ------------------------------------------------------------

WIDTH, HEIGHT = 24, 3
CUTS = [0, 7, 15, WIDTH]  # three "widgets" side by side on every line

cell_st = st.tuples(st.sampled_from(" ab-#="), st.integers(0, len(STYLES) - 1))
line_st = st.lists(cell_st, min_size=WIDTH, max_size=WIDTH)


def _strip(cells: list[tuple[str, int]], breaks: set[int], styles: list[Style | None]) -> Strip:
    """Cells joined into segments: runs of one style, also broken at arbitrary places."""
    segments: list[Segment] = []
    for i, (ch, s) in enumerate(cells):
        style = styles[s]
        if segments and i not in breaks and segments[-1].style is style:
            segments[-1] = Segment(segments[-1].text + ch, style)
        else:
            segments.append(Segment(ch, style))
    return Strip(segments, len(cells))


def _chops(lines: list[list[tuple[str, int]]], breaks: set[int], styles: list[Style | None]) -> list[dict[int, Strip]]:
    return [{CUTS[i]: _strip(line[CUTS[i]:CUTS[i + 1]], breaks, styles) for i in range(len(CUTS) - 1)} for line in lines]


def _layout(chops: list[dict[int, Strip]]) -> Any:
    return _compositor.LayoutUpdate([list(c.values()) for c in chops], Region(0, 0, WIDTH, HEIGHT))


@settings(max_examples=150, deadline=None)
@given(old=st.lists(line_st, min_size=HEIGHT, max_size=HEIGHT),
       new=st.lists(line_st, min_size=HEIGHT, max_size=HEIGHT),
       spans=st.lists(st.tuples(st.integers(0, HEIGHT - 1), st.integers(0, WIDTH - 1), st.integers(1, WIDTH)),
                      min_size=1, max_size=5),
       breaks=st.sets(st.integers(0, 6)),
       system=st.sampled_from(["standard", "256", "truecolor"]))
def test_random_updates_draw_the_same_cells(old, new, spans, breaks, system) -> None:
    con = console(system)
    # what changes lies inside the spans; everything else on screen stays as it was
    spans = sorted({(y, min(a, b), max(a + 1, b)) for y, a, b in spans})
    merged: dict[int, list[tuple[int, int]]] = {}
    for y, x1, x2 in spans:
        row = merged.setdefault(y, [])
        if row and x1 <= row[-1][1]:
            row[-1] = (row[-1][0], max(row[-1][1], x2))
        else:
            row.append((x1, x2))
    flat = [(y, x1, x2) for y in sorted(merged) for x1, x2 in merged[y]]
    after = [list(line) for line in old]
    for y, x1, x2 in flat:
        after[y][x1:x2] = new[y][x1:x2]
    styles = make_styles()
    old_chops, new_chops = _chops(old, breaks, styles), _chops(after, breaks, styles)

    theirs, ours = Terminal(WIDTH, HEIGHT), Terminal(WIDTH, HEIGHT)
    theirs.feed(ORIGINAL_LAYOUT(_layout(old_chops), con))
    ours.feed(wire.render_layout(_layout(old_chops), con))
    assert not differences(ours, theirs)

    chop_ends = [CUTS[1:] for _ in range(HEIGHT)]
    update = _compositor.ChopsUpdate(new_chops, flat, chop_ends)
    theirs.feed(ORIGINAL_CHOPS(update, con))
    ours.feed(wire.render_chops(update, con))
    expected = Terminal(WIDTH, HEIGHT)
    expected.feed(ORIGINAL_LAYOUT(_layout(new_chops), con))
    assert not differences(theirs, expected)
    assert not differences(ours, expected)


# -- the real app ----------------------------------------------------------------------------

def _record(app: Any) -> list[Any]:
    updates: list[Any] = []
    shown = app._display

    def display(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, _compositor.CompositorUpdate):
            updates.append(renderable)
        shown(screen, renderable)

    app._display = display
    return updates


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_app_draws_the_same_screen_in_fewer_bytes(size: tuple[int, int]) -> None:
    app = build_app(Game.new("spi_kiev/campaign", seed=3))
    width, height = size
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        updates = _record(app)
        app.screen.refresh()  # one full repaint, then the small ones of play
        await pilot.pause()
        await keys(pilot, "s", "w", "d", "d", "l", "q")
        await goto(pilot, "0319")
        await keys(pilot, "enter", "escape", "tab", "enter", "escape", "question_mark", "escape")
    con = console("256")
    theirs, ours = Terminal(width, height), Terminal(width, height)
    their_bytes = our_bytes = 0
    assert any(isinstance(u, _compositor.LayoutUpdate) for u in updates)
    assert sum(isinstance(u, _compositor.ChopsUpdate) for u in updates) >= 6
    for update in updates:
        original = ORIGINAL_LAYOUT if isinstance(update, _compositor.LayoutUpdate) else ORIGINAL_CHOPS
        a, b = original(update, con), type(update).render_segments(update, con)
        theirs.feed(a)
        ours.feed(b)
        their_bytes += len(a.encode())
        our_bytes += len(b.encode())
        assert not differences(ours, theirs)
    assert our_bytes < their_bytes
