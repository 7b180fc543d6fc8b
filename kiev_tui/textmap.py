"""Plain-text drawing of a hex map, for `kiev-tui map` and a quick look at a position.

Flat-topped hexes interlock when each column is 5 characters wide and each hex 2 rows tall,
even columns one row lower.  The characters are the game's own ASCII set (`ui/glyphs.py`),
so this map, the game's map in --ascii mode and both legends agree: a test checks that this
drawing and the game's map drawing of the same map are the same text.
"""

from __future__ import annotations

from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.ui.glyphs import ASCII, map_legend, short_names

G = ASCII
TERRAIN_FILL = {t: G.fill(t) * 4 for t in ("clear", "woods", "swamp", "lake")}
LEGEND = map_legend(G) + [
    ("G3 / S2", "German / Soviet stack and its size (kiev-tui map --units)"),
]


def _side_char(gmap: GameMap, a: Hex, b: Hex, plain: str) -> str:
    if not gmap.on_map(b):
        return plain
    f = gmap.side_features(a, b)
    if "major_river" in f:
        return G.major
    if "minor_river" in f:
        return G.minor
    if "lake" in f:
        return G.lake
    if "railroad" in f:
        return G.rail
    if "road" in f:
        return G.road
    return plain


def _border(gmap: GameMap, a: Hex, b: Hex) -> str:
    """The 4 cells of a north or south border: a road or railroad crosses it in the middle."""
    glyph = _side_char(gmap, a, b, "_")
    return f"_{glyph * 2}_" if glyph in (G.rail, G.road) else glyph * 4


def _inside(gmap: GameMap, h: Hex, stacks: dict[Hex, str] | None, names: dict[Hex, str]) -> str:
    if stacks and h in stacks:
        return stacks[h][:4].ljust(4)
    if gmap.settlement(h):
        return names[h].ljust(4)
    return TERRAIN_FILL.get(gmap.terrain(h), "    ")


def render(gmap: GameMap, stacks: dict[Hex, str] | None = None, ids: bool = False) -> str:
    """The whole map as text.  ``ids`` puts the hex number in every plain clear hex."""
    width = 5 * gmap.columns + 2
    height = 2 * gmap.rows + 2
    grid = [[" "] * width for _ in range(height)]
    places = {h: (gmap.name(h) or gmap.grid.id(h), kind) for h, kind in gmap.settlements().items()}
    names = short_names(places, 4)
    c0 = gmap.grid.first_internal_column  # 2 on a map whose first printed column stands low
    for h in gmap.hexes():
        x = 5 * (h.col - c0)
        y = 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0)
        top = _border(gmap, h, h.step(Direction.N))
        bottom = _border(gmap, h, h.step(Direction.S))
        for k in range(4):
            if grid[y][x + 1 + k] == " ":
                grid[y][x + 1 + k] = top[k]
            grid[y + 2][x + 1 + k] = bottom[k]
        grid[y + 1][x] = _side_char(gmap, h, h.step(Direction.NW), "/")
        grid[y + 1][x + 5] = _side_char(gmap, h, h.step(Direction.NE), "\\")
        grid[y + 2][x] = _side_char(gmap, h, h.step(Direction.SW), "\\")
        grid[y + 2][x + 5] = _side_char(gmap, h, h.step(Direction.SE), "/")
        inside = _inside(gmap, h, stacks, names)
        if ids and inside == "    ":
            inside = gmap.grid.id(h)[-4:]  # the column and row, without a sheet letter
        for k, ch in enumerate(inside):
            grid[y + 1][x + 1 + k] = ch
    if stacks:
        # a city or town under a stack: its name on the top border, as in the game (hexmap.py)
        for h in stacks:
            above = h.step(Direction.N)
            if not gmap.settlement(h) or (gmap.on_map(above) and (gmap.side_features(h, above) or above in stacks)):
                continue
            x = 5 * (h.col - c0)
            y = 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0)
            for k, ch in enumerate(names[h].ljust(4, "_")):
                grid[y][x + 1 + k] = ch
    return "\n".join("".join(row).rstrip() for row in grid)
