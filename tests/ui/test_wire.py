"""The shadow-screen writer draws exactly what Textual's own output draws, in fewer bytes.

Each check feeds the same frames twice into the small terminal of `vt.py`: once as Textual
writes them, once through `kiev_tui.ui.wire.ShadowScreen`, and compares every cell after
every frame.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
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
from kiev_tui.ui.driver import ShadowDriver
from kiev_tui.ui.wire import PLAIN, SYNC_END, SYNC_START, ShadowScreen, change
from tests.ui.helpers import goto, keys
from tests.ui.vt import Terminal


def differences(a: Terminal, b: Terminal) -> list[tuple[int, int, Any, Any]]:
    """Cells that differ between two terminals: (row, column, in a, in b)."""
    ca, cb = a.cells(), b.cells()
    return [(y, x, ca[y][x], cb[y][x]) for y in range(len(ca)) for x in range(len(ca[y])) if ca[y][x] != cb[y][x]]


def console(system: str = "256") -> Console:
    return Console(color_system=system, force_terminal=True, width=80)


class Pair:
    """Textual's bytes into one terminal, the shadow's into another; every frame compared."""

    def __init__(self, width: int, height: int, sync: bool = True) -> None:
        self.shadow = ShadowScreen(width, height)
        self.theirs, self.ours = Terminal(width, height), Terminal(width, height)
        self.sync = sync
        self.their_bytes = self.our_bytes = 0

    def frame(self, text: str) -> str:
        """One frame as Textual's `_display` writes it; what the shadow sent for it."""
        chunks = [SYNC_START, text, SYNC_END] if self.sync else [text]
        theirs = "".join(chunks)
        ours = "".join(self.shadow.write(c) for c in chunks) + self.shadow.flush()
        self.theirs.feed(theirs)
        self.ours.feed(ours)
        self.their_bytes += len(theirs.encode())
        self.our_bytes += len(ours.encode())
        assert not differences(self.ours, self.theirs)
        return ours

    def resize(self, width: int, height: int) -> None:
        """The window changes size; both terminals keep what still fits (as xterm does)."""
        for term in (self.theirs, self.ours):
            old = term.grid
            term.width, term.height = width, height
            term.grid = [[old[y][x] if y < len(old) and x < len(old[0]) else (" ", frozenset(), "", "")
                          for x in range(width)] for y in range(height)]
        self.shadow.resize(width, height)


# -- the style arithmetic --------------------------------------------------------------------

def pen(style: Style, system: ColorSystem = ColorSystem.STANDARD) -> wire.Pen:
    """The pen the shadow reads from Textual's own codes for a style."""
    screen = ShadowScreen(4, 1)
    screen.write(f"\x1b[{Strip.render_ansi(style, system)}m")
    assert screen.pen is not None
    return screen.pen


def test_change_sends_only_what_differs() -> None:
    blue = pen(Style(color="blue"))
    bold_blue = pen(Style(color="blue", bold=True))
    red_on_white = pen(Style(color="red", bgcolor="white"))
    assert change(PLAIN, blue) == "\x1b[34m"
    assert change(blue, bold_blue) == "\x1b[1m"  # add bold, colour already set
    assert change(bold_blue, blue) == "\x1b[;34m"  # bold must go: reset (an empty parameter), then blue
    assert change(blue, PLAIN) == "\x1b[m"
    assert change(blue, red_on_white) == "\x1b[31;47m"
    assert change(blue, blue) == ""
    assert change(None, blue) == "\x1b[;34m"  # nothing known: from a reset
    # the terminal's own colours are no colour at all
    assert pen(Style(color="default", bgcolor="default")) == PLAIN


# -- frames with known answers ---------------------------------------------------------------

def screen_with(rows: list[str], sync: bool = True) -> tuple[Pair, str]:
    pair = Pair(cell_len(rows[0]), len(rows), sync)
    full = "\n".join(f"\x1b[{y + 1};1H{row}" for y, row in enumerate(rows)) + "\x1b[1;1H"
    return pair, full


def test_an_identical_frame_sends_nothing_not_even_an_empty_pair() -> None:
    pair, full = screen_with(["hello world ", "second line "])
    first = pair.frame(full)
    assert first.startswith(SYNC_START) and first.endswith(SYNC_END)
    assert pair.frame(full) == ""
    pair.sync = False
    assert pair.frame(full) == ""


def test_a_changed_cell_is_all_that_is_sent() -> None:
    pair, full = screen_with(["hello world ", "second line "])
    pair.frame(full)
    assert pair.frame(full.replace("world", "wOrld")) == f"{SYNC_START}\x1b[7CO\x1b[H{SYNC_END}"
    pair.sync = False
    # a style change: the pen is set, then back to plain only when the next cell needs it
    assert pair.frame("\x1b[2;1H\x1b[1;34msecond\x1b[0m line \x1b[1;1H") == "\x1b[B\x1b[1;34msecond\x1b[H"


def test_a_row_in_step_with_the_terminal_is_one_list_and_a_written_one_gets_its_own() -> None:
    """Issue 33, round 7: the shadow keeps no second copy of a row the terminal shows as drawn."""
    pair, full = screen_with(["hello world ", "second line "], sync=False)
    shadow = pair.shadow
    pair.frame(full)
    assert all(shadow.shown[y] is shadow.want[y] and shadow.shown_pen[y] is shadow.want_pen[y] for y in range(2))
    # written again, a row is compared with what the terminal shows, not with itself
    assert pair.frame("\x1b[2;1HsecOnd line \x1b[1;1H") == "\x1b[2;4HO\x1b[H"
    assert shadow.shown[1] is shadow.want[1]
    assert "".join(shadow.want[1]) == "secOnd line "
    # a write the frame has not sent yet: the row keeps the terminal's copy until it is sent
    shadow.write("\x1b[1;1HHELLO")
    assert shadow.shown[0] is not shadow.want[0]
    assert "".join(shadow.shown[0]) == "hello world " and "".join(shadow.want[0]) == "HELLO world "


def test_a_short_gap_is_written_again_and_a_long_one_stepped_over() -> None:
    pair, full = screen_with(["abcdefghijklmnop"], sync=False)
    pair.frame(full)
    assert pair.frame("\x1b[1;1HAbCdefghiJklmnop\x1b[1;1H") == "AbC\x1b[6CJ\x1b[H"


def test_a_blank_row_end_is_erased_with_one_el() -> None:
    pair, full = screen_with(["a long line of text", "x" * 19], sync=False)
    pair.frame(full)
    assert pair.frame("\x1b[1;1Ha" + " " * 18 + "\x1b[1;1H") == "\x1b[C\x1b[K\x1b[H"


def test_the_screen_is_cleared_and_known_when_the_app_takes_the_alternate_screen() -> None:
    shadow = ShadowScreen(10, 2)
    assert shadow.write("\x1b[?1049h") == "\x1b[?1049h\x1b[0m\x1b[2J"
    # a blank frame on a cleared screen: only the (hidden) cursor is put where Textual left it
    assert shadow.write("\x1b[1;1H          \n\x1b[2;1H          \x1b[1;1H") + shadow.flush() == "\x1b[H"


def test_harmless_sequences_pass_at_once_and_others_make_the_next_frame_whole() -> None:
    pair, full = screen_with(["abcd", "efgh"], sync=False)
    pair.frame(full)
    shadow = pair.shadow
    assert shadow.write("\x1b[?25l\x07\x1b]22;default\x07\x1b[?2026$p") == "\x1b[?25l\x07\x1b]22;default\x07\x1b[?2026$p"
    assert pair.frame(full) == ""
    # a cursor position this shadow does not read: passed on, and the frame goes as it came
    assert shadow.write("\x1b[1:2Hx") + shadow.flush() == "\x1b[1:2Hx"
    pair.theirs.feed("\x1b[1:2Hx")
    pair.ours.feed("\x1b[1:2Hx")
    again = pair.frame(full)
    assert "abcd" in again and "efgh" in again
    # an erase this shadow does not model: passed on as it is, the shadow forgotten
    # (the hidden cursor was not sent home after the last frame: it goes there first)
    assert shadow.write("\x1b[2K") == "\x1b[H\x1b[2K"
    pair.theirs.feed("\x1b[2K")
    pair.ours.feed("\x1b[2K")
    again = pair.frame(full)
    assert "abcd" in again and "efgh" in again


def test_a_frame_the_shadow_cannot_follow_is_passed_on_from_there() -> None:
    pair, full = screen_with(["abcdef", "ghijkl"], sync=False)
    pair.frame(full)
    # a combining accent: where it goes is the terminal's guess, so the rest goes as it came
    rest = "e\u0301f\x1b[2;1Hghijkl\x1b[1;1H"
    sent = pair.frame("\x1b[1;1Habcd" + rest)
    assert sent.endswith(rest)
    assert "ghijkl" in pair.frame(full)  # and the next frame is whole


def test_a_resize_forgets_the_screen() -> None:
    pair, full = screen_with(["abcd", "efgh"], sync=False)
    pair.frame(full)
    pair.resize(4, 3)  # a terminal may keep, move or drop what it showed: all is sent again
    sent = pair.frame("\x1b[1;1Habcd\n\x1b[2;1Hefgh\n\x1b[3;1Hijkl\x1b[1;1H")
    assert sent == "\x1b[Habcd\x1b[2Hefgh\x1b[3Hijkl\x1b[H"


def test_double_width_characters_keep_the_shadow_in_step() -> None:
    pair, full = screen_with(["ab漢字cd  ", "efghijklmn"], sync=False)
    pair.frame(full)
    assert pair.frame(full) == ""
    pair.frame("\x1b[1;1Hab字漢cd  \x1b[1;1H")
    pair.frame("\x1b[1;1Habxy漢cd  \x1b[1;1H")
    pair.frame("\x1b[1;3H字\x1b[1;1H")
    # half of a double-width character overwritten: what the other half shows is the terminal's business
    assert pair.frame("\x1b[1;4Hq\x1b[1;1H") == "\x1b[3Cq\x1b[H"
    assert pair.shadow.shown[0][2:4] == [None, "q"]
    pair.frame(full)
    assert pair.frame(full) == ""
    # ... and if that character was drawn in the same frame, the frame goes as it came from there
    assert pair.frame("\x1b[1;1H漢\x1b[1;2Hq\x1b[1;1H").endswith("q\x1b[1;1H")
    pair.frame(full)
    assert pair.frame(full) == ""


# -- random frames, cell by cell -------------------------------------------------------------

def make_styles() -> list[Style | None]:
    # Fresh objects for each example: Textual caches a style's codes on the style itself, for
    # whichever colour system it met first, so shared styles would mix colour systems.
    return [
        None, Style(), Style(color="blue"), Style(color="bright_red", bold=True), Style(dim=True),
        Style(color="black", bgcolor="white", bold=True), Style(color="bright_white", bgcolor="red", bold=True),
        Style(reverse=True, bold=True), Style(underline=True, color="yellow"), Style(color="grey50"),
        Style(color="#ff8800", bgcolor="#102030"), Style(color="default", bgcolor="default"),
        Style(bgcolor="grey11"), Style(italic=True, strike=True),
    ]


CUTS = [0, 7, 15, 24]  # three "widgets" side by side on every line
CHARS = " ab-#=漢≈"


def random_strip(rng: random.Random, width: int, styles: list[Style | None]) -> Strip:
    segments: list[Segment] = []
    filled = 0
    while filled < width:
        ch = rng.choice(CHARS)
        if ch == "漢" and filled + 2 > width:
            ch = "a"
        style = rng.choice(styles)
        if segments and segments[-1].style is style and rng.random() < 0.7:
            segments[-1] = Segment(segments[-1].text + ch, style)
        else:
            segments.append(Segment(ch, style))
        filled += 2 if ch == "漢" else 1
    return Strip(segments, width)


def random_chops(rng: random.Random, height: int, styles: list[Style | None]) -> list[dict[int, Strip]]:
    return [{CUTS[i]: random_strip(rng, CUTS[i + 1] - CUTS[i], styles) for i in range(len(CUTS) - 1)}
            for _ in range(height)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), system=st.sampled_from(["standard", "256", "truecolor"]),
       sync=st.booleans())
def test_random_frames_draw_the_same_cells(seed: int, system: str, sync: bool) -> None:
    rng = random.Random(seed)
    con = console(system)
    styles = make_styles()
    width, height = CUTS[-1], 4
    pair = Pair(width, height, sync)
    screen = random_chops(rng, height, styles)
    pair.frame(_compositor.LayoutUpdate([list(c.values()) for c in screen], Region(0, 0, width, height))
               .render_segments(con) + "\x1b[1;1H")
    for _ in range(12):
        roll = rng.random()
        if roll < 0.15:  # the same full frame again: nothing to send
            full = _compositor.LayoutUpdate([list(c.values()) for c in screen], Region(0, 0, width, height))
            # nothing drawn: at most the (hidden) cursor put back where Textual leaves it
            sent = pair.frame(full.render_segments(con) + "\x1b[1;1H")
            assert sent in ("", "\x1b[H", f"{SYNC_START}\x1b[H{SYNC_END}")
            continue
        changed = set()
        if roll < 0.25:  # one widget redrawn in a new look
            i = rng.randrange(len(CUTS) - 1)
            for y in range(height):
                screen[y][CUTS[i]] = random_strip(rng, CUTS[i + 1] - CUTS[i], styles)
                changed.add(y)
        else:  # a few widgets change a little
            for _ in range(rng.randint(1, 3)):
                y, i = rng.randrange(height), rng.randrange(len(CUTS) - 1)
                screen[y][CUTS[i]] = random_strip(rng, CUTS[i + 1] - CUTS[i], styles)
                changed.add(y)
        # a partial update of the changed rows, and of some that did not change (as Textual does)
        spans = sorted((y, 0, width) for y in range(height) if y in changed or rng.random() < 0.3)
        update = _compositor.ChopsUpdate(screen, spans, [CUTS[1:] for _ in range(height)])
        pair.frame(update.render_segments(con) + f"\x1b[{rng.randint(1, height)};1H")
    assert pair.our_bytes < pair.their_bytes


# -- the real app ----------------------------------------------------------------------------

def _record(app: Any) -> list[tuple[tuple[int, int], Any]]:
    """Every screen update the app makes, with the size of the screen it was made for."""
    updates: list[tuple[tuple[int, int], Any]] = []
    shown = app._display

    def display(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, _compositor.CompositorUpdate):
            updates.append((tuple(app.size), renderable))
        shown(screen, renderable)

    app._display = display
    return updates


WALK_KEYS = ["w", "s", "q", "e", "a", "d", "l", "h", "tab", "enter", "escape"]


@pytest.mark.parametrize("size,seed", [((120, 40), 1), ((80, 24), 2)])
async def test_the_app_draws_the_same_screen_over_many_frames(size: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    app = build_app(Game.new("spi_kiev/campaign", seed=3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        updates = _record(app)
        app.screen.refresh()  # a full repaint (the first one is made before recording starts)
        await pilot.pause()
        app.screen.refresh()  # and an identical one, as Textual sends at start
        await pilot.pause()
        for _ in range(3):
            await keys(pilot, *(rng.choice(WALK_KEYS) for _ in range(8)))
            await keys(pilot, rng.choice(["question_mark", "L", "r", "v"]))  # a dialog or screen ...
            await keys(pilot, "escape")  # ... closed again
        await goto(pilot, "0319")
        await keys(pilot, "enter", "escape")
        await pilot.resize_terminal(size[0] - 13, size[1] - 5)
        await pilot.pause()
        await keys(pilot, "d", "d", "question_mark", "escape")
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await keys(pilot, "s", "w")
    con = console("256")
    assert len(updates) > 30
    for sync in (True, False):
        pair = Pair(*size, sync=sync)
        sent = []
        for at, update in updates:
            if at != (pair.shadow.width, pair.shadow.height):
                pair.resize(*at)
            sent.append(pair.frame(update.render_segments(con) + "\x1b[1;1H"))
        assert sent[1] == ""  # the identical repaint
        assert pair.our_bytes * 2 < pair.their_bytes
        assert pair.ours.rewrites * 20 < pair.theirs.rewrites


class _Broken(ShadowScreen):
    def write(self, data: str) -> str:
        raise IndexError("a fault in the shadow")


class _Writer:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def write(self, text: str) -> None:
        self.sent.append(text)


def test_a_fault_in_the_shadow_never_stops_the_game() -> None:
    driver = ShadowDriver.__new__(ShadowDriver)  # no terminal here: only the writing half is used
    driver._shadow_lock = threading.RLock()
    driver._file = None  # no terminal size from it: Textual's own guess is taken
    driver._writer_thread = writer = _Writer()  # type: ignore[assignment]
    driver._unflushed = []
    driver.shadow = _Broken(80, 24)
    driver.write("\x1b[1;1Hhello")
    assert writer.sent == ["\x1b[1;1Hhello"]  # as Textual wrote it
    assert type(driver.shadow) is ShadowScreen  # and a working shadow from now on
    driver.write("\x1b[1;1Hhello")
    driver.flush()
    assert writer.sent[1:] == ["\x1b[H\x1b[mhello"]  # nothing known of the screen or pen: sent whole
    # a fault in the middle of a synchronized update: the update goes as Textual wrote it
    driver.write(SYNC_START)
    driver.write("\x1b[1;1Hbye")
    driver.shadow = _Broken(80, 24)
    driver.write("\x1b[2;1Hx")
    driver.write(SYNC_END)
    driver.flush()
    assert writer.sent[2:] == [f"{SYNC_START}\x1b[1;1Hbye\x1b[2;1Hx", SYNC_END]


# -- issue 33: the hidden cursor stays where the last change left it --------------------------

def test_a_hidden_cursor_is_not_sent_home_after_each_frame_and_is_placed_before_it_shows() -> None:
    pair, full = screen_with(["abcdefgh", "ijklmnop"], sync=False)
    pair.frame(full)
    assert pair.shadow.write("\x1b[?25l") == "\x1b[?25l"  # Textual hides it at start
    # one cell changes; Textual puts its cursor home after the frame: no "ESC[H" (3 bytes) sent
    assert pair.frame("\x1b[2;3HK\x1b[1;1H") == "\x1b[2;3HK"
    # the next change moves relatively from where the last one ended
    assert pair.frame("\x1b[2;5HM\x1b[1;1H") == "\x1b[CM"
    # an input asks for the cursor elsewhere: it is put there (input methods look there)
    assert pair.frame("\x1b[1;4H") == "\x1b[;4H"
    # shown again (at exit, or by an input): first put where Textual means it to be
    assert pair.frame("\x1b[2;8HP\x1b[1;1H") == "\x1b[2;8HP"
    assert pair.shadow.write("\x1b[?25h") == "\x1b[H\x1b[?25h"


def test_leaving_the_alternate_screen_leaves_the_main_screens_cursor_alone() -> None:
    shadow = ShadowScreen(10, 2)
    shadow.write("\x1b[?1049h")
    shadow.write("\x1b[?25l")
    shadow.write("\x1b[1;1H          \n\x1b[2;1H          \x1b[1;1H")
    shadow.flush()
    assert shadow.write("\x1b[2;3Hx\x1b[1;1H") + shadow.flush() == "\x1b[2;3Hx"  # not sent home
    # the terminal brings back the main screen's own cursor: no move may follow (Textual's order)
    assert shadow.write("\x1b[?1049l") + shadow.write("\x1b[?25h") == "\x1b[?1049l\x1b[?25h"
