"""Issue 33, round 5: the game's first frame is painted once, complete, and with less work.

- No paint of the game screen is made while Textual is still starting the app (its start batch,
  whose paints Textual throws away); the first paint that is made already holds the log's lines.
- A resumed save's check and the cycle collector start only once that paint is out.
- The screen's first showing is not styled a second time (its widgets were styled on mount).
- The map draws only the columns on show for a row it has not drawn yet, cell for cell what
  the whole row shows there; a row wanted elsewhere afterwards (a scroll) is drawn whole.
- A line-API widget works out its base style once per paint, not once per line.
- The supply answer is kept per position without hashing the whole state.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual import _compositor, events
from textual.dom import DOMNode
from textual.geometry import Region

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.game_screen import GameScreen
from kiev_tui.ui.glyphs import ASCII, UNICODE
from kiev_tui.ui.hexmap import COMPACT, FULL, HexMap, MapPainter
from kiev_tui.ui.logview import WrapLog

from tests.test_resume_snapshot import held_check, held_resume, until  # noqa: F401 - held_check is a fixture
from tests.ui.helpers import game_screen, keys

KIEV = "spi_kiev/campaign"
SIZE = (120, 40)


def _text(update: Any) -> str:
    return "\n".join("".join(seg.text for strip in row for seg in strip) for row in update.strips)


async def test_no_paint_inside_the_start_and_the_first_one_holds_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    app = build_app(Game.new(KIEV, 1))
    paints: list[tuple[int, str]] = []  # (the app's batch depth, the screen's text) of each full paint
    real = _compositor.Compositor.render_full_update

    def full(self: Any, *args: Any, **kwargs: Any) -> Any:
        update = real(self, *args, **kwargs)
        if isinstance(app.screen, GameScreen) and self is app.screen._compositor:
            paints.append((app._batch_count, _text(update)))
        return update

    monkeypatch.setattr(_compositor.Compositor, "render_full_update", full)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log = game_screen(app).query_one("#log", WrapLog)
        first_line = log._source[-1].plain
        assert paints, "the game screen was never painted"
        assert [depth for depth, _ in paints] == [0] * len(paints)  # none made inside the start, to be dropped
        assert first_line[:20] in paints[0][1]  # the log's newest line is in the very first paint


async def test_the_check_of_a_resumed_save_starts_after_the_first_paint(tmp_path: Path,
                                                                        held_check: threading.Event) -> None:
    _path, _game, _snap, app = held_resume(tmp_path)
    started: list[bool] = []  # whether the screen had been painted when the check was asked to start
    real = type(app).start_check

    def start_check(self: Any, screen: GameScreen) -> None:
        started.append(screen._painted)
        real(self, screen)

    type(app).start_check = start_check  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: bool(started))
            assert started == [True]
            held_check.set()
            await until(pilot, lambda: not game_screen(app).held)
    finally:
        type(app).start_check = real  # type: ignore[method-assign]


async def test_the_first_showing_is_not_restyled_a_return_is(monkeypatch: pytest.MonkeyPatch) -> None:
    restyled: list[object] = []
    real = DOMNode.update_node_styles

    def update(self: DOMNode, animate: bool = True) -> None:
        if isinstance(self, GameScreen):
            restyled.append(self)
        real(self, animate)

    monkeypatch.setattr(DOMNode, "update_node_styles", update)
    app = build_app(Game.new(KIEV, 1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert restyled == []  # styled on mount, and not once more when first shown
        screen = game_screen(app)
        screen.post_message(events.ScreenResume())  # shown again later: restyled if Textual asks
        await pilot.pause()
        assert restyled == [screen]


@pytest.mark.parametrize("zoom", [FULL, COMPACT])
@pytest.mark.parametrize("glyphs", [UNICODE, ASCII])
def test_a_part_of_a_map_row_is_that_part_of_the_whole_row(zoom: str, glyphs: Any) -> None:
    from kiev_tui.ui.adapter import Overlay, adapter_for

    game = Game.new(KIEV, 1)
    adapter = adapter_for(game)
    painter = MapPainter(game.scenario.map, glyphs, zoom, adapter.first_side(game))
    painter.looks = adapter.hex_looks(game, adapter.supply(game), Overlay(), glyphs)
    painter.cursor = sorted(painter.looks)[3]
    width, height = painter.size
    for y in range(height):
        whole = painter.row(y)
        assert len(whole) == width
        for x0 in range(0, width, 11):
            for x1 in (x0 + 1, x0 + 6, x0 + 75, width, width + 4):
                assert painter.row(y, x0, x1) == whole[x0:min(x1, width)], (y, x0, x1)


async def test_the_first_paint_draws_the_map_columns_on_show_and_a_scroll_the_whole_row() -> None:
    app = build_app(Game.new(KIEV, 1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hexmap = game_screen(app).query_one(HexMap)
        full_width = hexmap.painter.size.width
        sx = int(hexmap.scroll_offset.x)
        width = hexmap.scrollable_content_region.width
        assert 0 < width < full_width
        kept = dict(hexmap._strips)
        assert kept and all((start, strip.cell_length) == (sx, width) for start, strip in kept.values())
        y = min(kept)
        shown = hexmap.render_line(y - int(hexmap.scroll_offset.y)).text
        assert shown == "".join(ch for ch, _ in hexmap.painter.row(y))[sx:sx + width]
        hexmap.scroll_to(x=sx + 5, animate=False, immediate=True)  # sideways: the kept part no longer covers it
        moved = hexmap.render_line(y - int(hexmap.scroll_offset.y)).text
        assert hexmap._strips[y][0] == 0 and hexmap._strips[y][1].cell_length == full_width
        assert moved == "".join(ch for ch, _ in hexmap.painter.row(y))[sx + 5:sx + 5 + width]


async def test_a_widget_works_out_its_style_once_per_paint(monkeypatch: pytest.MonkeyPatch) -> None:
    app = build_app(Game.new(KIEV, 1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hexmap = game_screen(app).query_one(HexMap)
        expected = hexmap.rich_style
        computed: list[object] = []
        real = DOMNode.rich_style.fget  # type: ignore[attr-defined]

        def counting(self: DOMNode) -> Style:
            computed.append(self)
            return real(self)  # type: ignore[no-any-return]

        monkeypatch.setattr(DOMNode, "rich_style", property(counting))
        hexmap._strips.clear()
        strips = hexmap.render_lines(Region(0, 0, hexmap.size.width, hexmap.size.height))
        assert len(strips) == hexmap.size.height
        assert computed == [hexmap]  # once for the paint, not once for every row
        assert hexmap.rich_style == expected  # outside a paint it is read afresh
        assert computed == [hexmap, hexmap]


async def test_a_refresh_keeps_the_supply_answer_without_hashing_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(KIEV, 1)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        hashed: list[int] = []
        monkeypatch.setattr(game, "state_hash", lambda: hashed.append(1) or "x")
        answer = screen.supply()
        screen.refresh_all()
        await keys(pilot, "s", "w")
        assert screen.supply() is answer and hashed == []
        game.touch()  # the position changed: worked out again
        assert screen.supply() is not answer
