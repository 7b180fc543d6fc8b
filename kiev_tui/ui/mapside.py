"""A map beside a dialog: while the player chooses, the choice is drawn on the map.

A combat preview, a loss or retreat, a retreat path, an advance: each is a decision about
hexes, so the dialog sits in a column on the right and the rest of the screen stays map,
with the battle's attackers `( )`, its targets `> <` and the path under the list cursor
(`*1 *2 ...`, in the order the unit would enter the hexes) marked as on the main map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui import present
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


def supply_of(app: Any, game: "Game", view: Any) -> dict[str, Any]:
    """The supply of every unit, from the game screen's cache when there is one (it is slow)."""
    for screen in reversed(getattr(app, "screen_stack", [])):
        supply = getattr(screen, "supply", None)
        if callable(supply) and getattr(screen, "game", None) is game:
            return supply(view)  # type: ignore[no-any-return]
    return present.supply_all(view)


def path_marks(path: Iterable[str], glyphs: Glyphs) -> dict[str, str]:
    """Each hex of a path with its place in it: the first hex entered is 1."""
    return {h: f"{glyphs.path}{n}" for n, h in enumerate(path, 1)}


class MapBeside(HexMap):
    """The map of a dialog: not focusable (the list keeps the keys), centred on the battle."""

    def __init__(self, game: "Game", glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(game.scenario.map, glyphs, id=id)
        self.can_focus = False
        self.game = game

    def show(self, overlay: present.Overlay, centre: Hex | None = None) -> None:
        """Draw the position with this overlay; bring `centre` into view."""
        view = self.game.rules.view(self.game)  # type: ignore[attr-defined]
        self.update_looks(present.hex_looks(view, supply_of(self.app, self.game, view), overlay, self.painter.g))
        if centre is not None:
            if self.size.width and self.size.height:
                self.scroll_to_hex(centre)
            else:
                self.center_when_sized(centre)


def battle_overlay(game: "Game") -> present.Overlay:
    """The battle being resolved: its attackers and targets, framed as when it was planned."""
    battle = game.state.vars.get("battle") or {}
    units = game.state.units
    attackers = tuple(u for u in battle.get("attackers", []) if u in units and units[u].status == "map")
    return present.Overlay(attackers=attackers, targets=tuple(str(t) for t in battle.get("targets", [])))
