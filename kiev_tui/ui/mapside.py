"""A map beside a dialog: while the player chooses, the choice is drawn on the map.

A combat preview, a loss or retreat, a retreat path, an advance: each is a decision about
hexes, so the dialog sits in a column on the right and the rest of the screen stays map,
with the battle's attackers `( )`, its targets `> <` and the path under the list cursor
(`*1 *2 ...`, in the order the unit would enter the hexes) marked as on the main map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui.adapter import Overlay, adapter_for
from kiev_tui.ui.glyphs import ASCII, Glyphs
from kiev_tui.ui.hexmap import HexMap

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

#: The dialog column is this wide (less on a narrow terminal); the map takes the rest.
SIDE_WIDTH = 52


def map_side_css(screen: str) -> str:
    """CSS that puts a screen's map on the left and its `.dialog` column on the right."""
    return f"""
    {screen} {{ layout: horizontal; align: left top; }}
    {screen} > HexMap {{ width: 1fr; height: 1fr; }}
    {screen} > .dialog {{ width: {SIDE_WIDTH}; max-width: 55%; height: 1fr; max-height: 100%; }}
    """


def glyphs_of(app: Any) -> Glyphs:
    return getattr(app, "glyphs", ASCII)


def supply_of(app: Any, game: "Game", adapter: Any) -> Any:
    """The supply of every unit, from the game screen's cache when there is one (it is slow)."""
    for screen in reversed(getattr(app, "screen_stack", [])):
        supply = getattr(screen, "supply", None)
        if callable(supply) and getattr(screen, "game", None) is game:
            return supply()
    return adapter.supply(game)


def path_marks(path: Iterable[str], glyphs: Glyphs) -> dict[str, str]:
    """Each hex of a path with its place in it: the first hex entered is 1."""
    return {h: f"{glyphs.path}{n}" for n, h in enumerate(path, 1)}


class MapBeside(HexMap):
    """The map of a dialog: not focusable (the list keeps the keys), centred on the battle."""

    def __init__(self, game: "Game", glyphs: Glyphs, *, id: str | None = None) -> None:
        adapter = adapter_for(game)
        super().__init__(game.scenario.map, glyphs, id=id, first_side=adapter.first_side(game))
        self.adapter = adapter
        self.can_focus = False
        self.game = game

    def show(self, overlay: Overlay, centre: Hex | None = None) -> None:
        """Draw the position with this overlay; bring `centre` into view."""
        supply = supply_of(self.app, self.game, self.adapter)
        self.update_looks(self.adapter.hex_looks(self.game, supply, overlay, self.painter.g))
        if centre is not None:
            if self.size.width and self.size.height:
                self.scroll_to_hex(centre)
            else:
                self.center_when_sized(centre)
