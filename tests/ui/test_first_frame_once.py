"""Issue 33, round 4: the first frame paints the side panels and the map once, not twice.

A panel wraps its text for the width it is painted at, so the Resize that arrives after the
first frame finds nothing to redo; the map's looks set before any row is painted ask for one
repaint of the map, not for every changed hex's rows.
"""

from __future__ import annotations

from textual.app import App, ComposeResult

from kiev_tui.ui.app import build_app
from kiev_tui.ui.hexmap import HexMap
from kiev_tui.ui.widgets import Panel

from tests.conftest import position
from tests.ui.helpers import game_screen, new_mini

TEXT = "one two three four five six seven eight nine ten eleven twelve"


class _OnePanel(App[None]):
    def compose(self) -> ComposeResult:
        yield Panel(id="p")

    def on_mount(self) -> None:
        self.query_one(Panel).show(TEXT)  # before the first layout: the panel has no width yet


async def test_a_panel_is_wrapped_for_the_width_it_is_painted_at() -> None:
    app = _OnePanel()
    async with app.run_test(size=(20, 8)) as pilot:
        await pilot.pause()
        panel = app.query_one(Panel)
        assert panel.content_region.width == 20
        assert panel._wrapped_at == 20
        assert [panel.render_line(y).text.rstrip() for y in range(4)] == [
            " one two three four", " five six seven", " eight nine ten", " eleven twelve"]
        asked: list[object] = []
        real = panel.refresh
        panel.refresh = lambda *a, **k: asked.append(a) or real(*a, **k)  # type: ignore[method-assign]
        panel.on_resize()  # the same width: the rows it painted are right, nothing to repaint
        assert asked == []
        panel._wrapped_at = 30  # as if it had been wrapped for another width: wrapped again and repainted
        panel.on_resize()
        assert asked == [()] and panel._wrapped_at == 20


async def test_the_game_screen_paints_its_panels_and_map_once() -> None:
    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-3": "0505"}, player="german", reinforcements=False)
    app = build_app(game)
    first_rows: list[str | None] = []
    invalidated: list[object] = []
    real_line, real_invalidate = Panel.render_line, HexMap._invalidate

    def line(self: Panel, y: int) -> object:
        if y == 0:
            first_rows.append(self.id)
        return real_line(self, y)

    def invalidate(self: HexMap, h: object, cursor_only: bool = False) -> None:
        invalidated.append(h)
        real_invalidate(self, h, cursor_only)

    Panel.render_line = line  # type: ignore[method-assign,assignment]
    HexMap._invalidate = invalidate  # type: ignore[method-assign]
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            hexmap = game_screen(app).query_one(HexMap)
            assert hexmap.rows_painted > 0 and len(hexmap.painter.looks) > 0
            # the looks came before any row was painted: no hex's rows were invalidated one by one
            assert invalidated == []
            # the tracker's and inspector's first rows were painted once (before: again after the Resize)
            assert (first_rows.count("tracker"), first_rows.count("inspector")) == (1, 1)
    finally:
        Panel.render_line = real_line  # type: ignore[method-assign]
        HexMap._invalidate = real_invalidate  # type: ignore[method-assign]
