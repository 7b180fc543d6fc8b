"""Resizing the terminal (issue 20): the map keeps the cursor in view, the log re-wraps to its
new width, and a window too small to play in says so instead of showing scraps of panels."""

from __future__ import annotations

from rich.text import Text

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui.app import build_app
from kiev_tui.ui.game_screen import MIN_SIZE
from kiev_tui.ui.hexmap import HexMap
from kiev_tui.ui.logview import WrapLog
from kiev_tui.ui.rules_screen import RulesScreen

from tests.ui.helpers import game_screen, goto, keys, new_mini, screen_text


def _cursor_in_view(hexmap: HexMap, h: Hex) -> bool:
    """The whole inside of the hex is within the cells of map on show."""
    x, y = hexmap.painter.origin(h)
    sx, sy = hexmap.scroll_offset
    view = hexmap.scrollable_content_region
    return sx <= x and x + 6 <= sx + view.width and sy <= y + 1 and y + 2 <= sy + view.height


async def test_cursor_stays_in_view_after_the_window_shrinks() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "0909")  # the far corner of the 10x10 map: all of it is on show at 120x40
        hexmap = game_screen(app).query_one(HexMap)
        assert hexmap.scroll_offset == (0, 0)
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert game_screen(app).cursor == Hex(9, 9)
        assert _cursor_in_view(hexmap, Hex(9, 9))
        x, y = hexmap.painter.origin(Hex(9, 9))
        row = screen_text(app).split("\n")[y + 1 - hexmap.scroll_offset.y]
        inside = hexmap.painter.row(y + 1)[x + 1:x + 5]  # the cursor: the hex's inside in reverse
        assert all(st.reverse for _, st in inside) and "".join(ch for ch, _ in inside) in row


def _log_rows(log: WrapLog) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in log.lines]


async def test_log_rewraps_to_the_new_width() -> None:
    app = build_app(new_mini())
    long = "A long line of the log that cannot fit in one row of the narrow side panel at eighty columns end"
    async with app.run_test(size=(120, 40)) as pilot:
        log = game_screen(app).query_one("#log", WrapLog)
        log.add(Text(long))
        await pilot.pause()
        wide = log.scrollable_content_region.width
        assert wide == 120 - 51 - 2  # the side panels take what the 51-column map leaves (issue 35)
        await pilot.resize_terminal(80, 24)  # the narrow layout: a 32-column side panel
        await pilot.pause()
        await pilot.pause()
        narrow = log.scrollable_content_region.width
        assert narrow == 30
        rows = _log_rows(log)
        assert max(len(r) for r in rows) <= narrow
        # every word of every line is still there, in order, none cut at the panel's edge
        assert " ".join(" ".join(rows).split()).endswith(long)
        assert " ".join(" ".join(rows).split()).startswith("Supply check: every soviet unit is in supply")
        await pilot.resize_terminal(120, 40)  # and back: the long line takes two rows again
        await pilot.pause()
        await pilot.pause()
        rows = _log_rows(log)
        assert rows[-2:] == ["A long line of the log that cannot fit in one row of the narrow",
                             "side panel at eighty columns end"]


async def test_too_small_window_says_so_and_the_map_comes_back() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        text = screen_text(app)
        w, h = MIN_SIZE
        assert (w, h) == (60, 16)
        assert "Enlarge the window to 60x16 (now 40x12)" in text
        assert "Sequence of play" not in text and "0101" not in text
        # keys do nothing while the map cannot be seen: no move made blind
        await keys(pilot, "enter")
        assert game_screen(app).overlay.selected == ()
        await keys(pilot, "r")  # but the rules, which fit any size, can still be read
        assert isinstance(app.screen, RulesScreen)
        await keys(pilot, "escape")
        assert app.screen is game_screen(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        text = screen_text(app)
        assert "Enlarge the window" not in text
        assert "/0101\\" in text and "Sequence of play" in text
        assert game_screen(app).query_one(HexMap).has_focus
        await keys(pilot, "enter")  # and they work again
        assert game_screen(app).overlay.selected == ("so-rifle-2",)


async def test_started_in_a_small_window_it_says_so_at_once() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=(59, 30)) as pilot:
        await pilot.pause()
        assert "Enlarge the window to 60x16 (now 59x30)" in screen_text(app)
        await pilot.resize_terminal(60, 16)  # exactly the minimum: playable
        await pilot.pause()
        text = screen_text(app)
        assert "Enlarge the window" not in text
        assert "Sequence of play" in text


async def test_shrunk_under_a_dialog_the_game_screen_says_so_when_it_closes() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=(120, 40)) as pilot:
        await keys(pilot, "question_mark")  # the help on top while the window shrinks
        assert app.screen is not game_screen(app)
        await pilot.resize_terminal(50, 20)
        await pilot.pause()
        await keys(pilot, "escape")
        assert app.screen is game_screen(app)
        assert "Enlarge the window to 60x16 (now 50x20)" in screen_text(app)
