"""Plain-text drawing of a hex map, for `kiev-tui map` and a quick look at a position.

Flat-topped hexes interlock when each column is 5 characters wide and each hex 2 rows tall,
even columns one row lower.  The characters are the ASCII set of `ui/glyphs.py` and the map
symbols of the map's game (found through the registry, as the game screen finds them), so
this map, the game's map in --ascii mode and both legends agree: a test checks that this
drawing and the game's map drawing of the same map are the same text.
"""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.ui.glyphs import ASCII, WAY, MapSymbols, SideMark, default_game, map_legend, short_names, symbols_for

G = ASCII


def side_marks(sides: tuple[str, ...], names: Any) -> dict[str, str]:
    """A short mark per side for the text map: the fewest leading letters of the side names that
    tell them apart (Red R and Blue B; Axis AX and Allies AL), else the side's number."""
    for k in (1, 2):
        marks = [names.side_name(s)[:k].upper() for s in sides]
        if all(marks) and len(set(marks)) == len(marks):
            return dict(zip(sides, marks))
    return {s: str(i + 1) for i, s in enumerate(sides)}


def legend(gmap: GameMap) -> list[tuple[str, str]]:
    """The legend printed under `kiev-tui map`: the symbols of the map's game and how a stack is marked."""
    return _legend(gmap.game, gmap.grid.id(min(gmap.hexes())))


def _legend(game: str, first: str) -> list[tuple[str, str]]:
    from kiev_tui.engine.registry import get_schema

    schema = get_schema(game)
    sides = tuple(schema.sides[:2])
    marks = side_marks(tuple(schema.sides), schema)
    shown = " / ".join(f"{marks[s]}{3 - i}" for i, s in enumerate(sides))
    names = " / ".join(schema.side_name(s) for s in sides)
    return map_legend(G, symbols_for(game), first) + [(shown, f"{names} stack and its size (kiev-tui map --units)")]


def __getattr__(name: str) -> Any:
    # LEGEND: the legend of the default game's map, kept for callers that print that one
    if name == "LEGEND":
        return _legend(default_game(), "0101")
    raise AttributeError(name)


class _Marks:
    """The text map's hexside characters for one game, each set of features worked out once."""

    def __init__(self, symbols: MapSymbols) -> None:
        self.symbols = symbols
        self.fills = {t: f.char(G) * 4 for t, f in symbols.fills.items()}
        self._seen: dict[frozenset[str], SideMark | None] = {}

    def side(self, gmap: GameMap, a: Hex, b: Hex) -> SideMark | None:
        if not gmap.on_map(b):
            return None
        f = gmap.side_features(a, b)
        if not f:
            return None
        if f not in self._seen:
            self._seen[f] = self.symbols.mark(f)
        return self._seen[f]

    def char(self, gmap: GameMap, a: Hex, b: Hex, plain: str) -> str:
        m = self.side(gmap, a, b)
        return m.char(G) if m is not None else plain

    def border(self, gmap: GameMap, a: Hex, b: Hex) -> str:
        """The 4 cells of a north or south border: a way crosses it in the middle."""
        m = self.side(gmap, a, b)
        if m is None:
            return "____"
        glyph = m.char(G)
        return f"_{glyph * 2}_" if m.role == WAY else glyph * 4


def _inside(gmap: GameMap, h: Hex, stacks: dict[Hex, str] | None, names: dict[Hex, str],
            fills: dict[str, str]) -> str:
    if stacks and h in stacks:
        return stacks[h][:4].ljust(4)
    if gmap.settlement(h):
        return names[h].ljust(4)
    return fills.get(gmap.terrain(h), "    ")


def render(gmap: GameMap, stacks: dict[Hex, str] | None = None, ids: bool = False,
           symbols: MapSymbols | None = None) -> str:
    """The whole map as text.  ``ids`` puts the hex number in every plain hex.

    ``symbols`` are the map's game's (through the registry) unless given.
    """
    marks = _Marks(symbols if symbols is not None else symbols_for(gmap.game))
    width = 5 * gmap.columns + 2
    height = 2 * gmap.rows + 2
    grid = [[" "] * width for _ in range(height)]
    places = {h: (gmap.name(h) or gmap.grid.id(h), kind) for h, kind in gmap.settlements().items()}
    names = short_names(places, 4, gmap.is_large)
    c0 = gmap.grid.first_internal_column  # 2 on a map whose first printed column stands low
    for h in gmap.hexes():
        x = 5 * (h.col - c0)
        y = 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0)
        top = marks.border(gmap, h, h.step(Direction.N))
        bottom = marks.border(gmap, h, h.step(Direction.S))
        for k in range(4):
            if grid[y][x + 1 + k] == " ":
                grid[y][x + 1 + k] = top[k]
            grid[y + 2][x + 1 + k] = bottom[k]
        grid[y + 1][x] = marks.char(gmap, h, h.step(Direction.NW), "/")
        grid[y + 1][x + 5] = marks.char(gmap, h, h.step(Direction.NE), "\\")
        grid[y + 2][x] = marks.char(gmap, h, h.step(Direction.SW), "\\")
        grid[y + 2][x + 5] = marks.char(gmap, h, h.step(Direction.SE), "/")
        inside = _inside(gmap, h, stacks, names, marks.fills)
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
