"""Plain-text drawing of a hex map, for `kiev-tui map` and a quick look at a position.

Flat-topped hexes interlock when each column is 5 characters wide and each hex 2 rows tall,
even columns one row lower.  Hexside features are drawn on the borders so they read without
colour: '~' a minor river, '=' / '#' a major river, the inside shows terrain and settlement.
"""

from __future__ import annotations

from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.mapdata import GameMap

TERRAIN_FILL = {"clear": "    ", "woods": "^^^^", "swamp": ",,,,", "lake": "~~~~"}
LEGEND = [
    ("^^^^", "woods"), (",,,,", "swamp"), ("~~~~", "lake"), ("KIEV", "city (upper case)"),
    ("nezh", "town (lower case)"), ("~", "minor river on a hexside"), ("= #", "major river on a hexside"),
    ("*", "railroad crosses the hexside"), (".", "road crosses the hexside"),
    ("G3 / S2", "German / Soviet stack and its size"),
]


def _side_char(gmap: GameMap, a: Hex, b: Hex, plain: str) -> str:
    if not gmap.on_map(b):
        return plain
    f = gmap.side_features(a, b)
    if "major_river" in f:
        return "=" if plain == "_" else "#"
    if "minor_river" in f:
        return "~"
    if "railroad" in f:
        return "*"
    if "road" in f:
        return "."
    return plain


def _inside(gmap: GameMap, h: Hex, stacks: dict[Hex, str] | None) -> str:
    if stacks and h in stacks:
        return stacks[h][:4].ljust(4)
    kind = gmap.settlement(h)
    if kind:
        name = (gmap.name(h) or str(h))[:4]
        return (name.upper() if kind == "city" else name.lower()).ljust(4)
    return TERRAIN_FILL.get(gmap.terrain(h), "    ")


def render(gmap: GameMap, stacks: dict[Hex, str] | None = None, ids: bool = False) -> str:
    """The whole map as text.  ``ids`` puts the hex number in every plain clear hex."""
    width = 5 * gmap.columns + 2
    height = 2 * gmap.rows + 2
    grid = [[" "] * width for _ in range(height)]
    for h in gmap.hexes():
        x = 5 * (h.col - 1)
        y = 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0)
        top = _side_char(gmap, h, h.step(Direction.N), "_")
        bottom = _side_char(gmap, h, h.step(Direction.S), "_")
        for k in range(4):
            if grid[y][x + 1 + k] == " ":
                grid[y][x + 1 + k] = top
            grid[y + 2][x + 1 + k] = bottom
        grid[y + 1][x] = _side_char(gmap, h, h.step(Direction.NW), "/")
        grid[y + 1][x + 5] = _side_char(gmap, h, h.step(Direction.NE), "\\")
        grid[y + 2][x] = _side_char(gmap, h, h.step(Direction.SW), "\\")
        grid[y + 2][x + 5] = _side_char(gmap, h, h.step(Direction.SE), "/")
        inside = _inside(gmap, h, stacks)
        if ids and inside == "    ":
            inside = str(h)
        for k, ch in enumerate(inside):
            grid[y + 1][x + 1 + k] = ch
    return "\n".join("".join(row).rstrip() for row in grid)
