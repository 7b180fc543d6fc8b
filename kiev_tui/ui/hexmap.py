"""The hex map: a Line-API scroll view drawing interlocking flat-topped hexes as text.

Full zoom uses the layout of ARCHITECTURE.md: each hex column is 5 cells wide and each hex
2 rows tall, even columns half a hex lower; hexside features are drawn on the borders.
Compact zoom drops the borders: 3x2 cells per hex.  The terrain fills and hexside marks are
the game's (``MapSymbols``, from its adapter): this module names no terrain or feature.

What a hex shows is a small value (`HexLook`).  When the position changes the map compares the
new looks with the old ones and refreshes only the text rows of the hexes that differ, so a
cursor move repaints two rows, not the screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.later import later
from kiev_tui.ui.glyphs import ASCII, RIVER, WAY, Glyphs, MapSymbols, short_names, symbols_for
from kiev_tui.ui.widgets import PaintStyle

FULL = "full"
COMPACT = "compact"


def hex_text(gmap: GameMap, h: Hex) -> str:
    """The hex id a player reads and types: the map's own numbering (parity, first column, sheet)."""
    return gmap.grid.id(h)


def parse_hex(gmap: GameMap, text: str) -> Hex:
    """A hex from the id a player reads (HexError, a ValueError, if it is not one)."""
    return gmap.grid.parse(text)


@dataclass(frozen=True, slots=True)
class HexLook:
    """Everything that can change about how one hex is drawn."""

    letter: str = ""  # type letter of the top unit ('' when the hex is empty)
    strength: str = ""  # the top unit's "attack-defence", as on the counter; "?-?" while untried
    count: int = 0  # units in the stack
    steps: int = 0  # steps left in the top unit
    side: str = ""  # side of the stack
    mark: str = ""  # out of supply / enemy zone marker glyph
    reach: str = ""  # overlay when the selected stack can get here: glyph + cost
    frame: str = ""  # '(' selected or attacker, '>' attack target


# -- styles (colour only repeats what the glyphs already say) ---------------------------------
# Chosen for the wire as well as the eye: every change of style between neighbouring cells
# costs bytes, and a bold cell next to a plain one costs a reset, so bold is kept for counters
# and cities.  The 16 ANSI colours throughout (the player's own palette, the shortest codes).
# Borders and hex numbers share one style: the terminal's default colour, dimmed, which every
# palette shows against its own background.
S_BORDER = Style(dim=True)
S_CITY = Style(bold=True, color="bright_white")
S_TOWN = Style(color="white")
S_ID = S_BORDER
# counters: the first side (the schema lists it first) black on white, every other side white on red
S_FIRST = Style(color="black", bgcolor="white", bold=True)
S_SECOND = Style(color="bright_white", bgcolor="red", bold=True)
S_MARK = Style(color="bright_red", bold=True)
S_REACH = Style(color="bright_cyan", bold=True)
S_PATH = Style(color="black", bgcolor="bright_cyan", bold=True)
S_FRAME = Style(color="bright_yellow", bold=True)
S_CURSOR = Style(reverse=True, bold=True)
S_BLANK = Style()

Cell = tuple[str, Style]
#: What one set of hexside features draws: the mark's cell and role (None when nothing is
#: drawn), then the first-ranked river and way among them with their priorities (the compact map).
SideLook = tuple[Cell | None, str, Cell | None, int, Cell | None, int]
_NO_SIDE: SideLook = (None, "", None, 0, None, 0)


def _style(text: str) -> Style:
    return Style.parse(text) if text else S_BLANK


class MapPainter:
    """Pure drawing: which character and style each cell of the map has."""

    def __init__(self, gmap: GameMap, glyphs: Glyphs = ASCII, zoom: str = FULL, first_side: str = "",
                 symbols: MapSymbols | None = None) -> None:
        self.map = gmap
        self.first_side = first_side  # its counters are drawn in the first style, every other side's in the second
        # the internal column of the map's first column: 2 where that column stands half a hex low
        self.c0: int = gmap.grid.first_internal_column
        self.g = glyphs
        self.zoom = zoom
        self._looks: dict[Hex, HexLook] = {}
        self.framed: list[Hex] = []
        self.cursor: Hex | None = None
        self._side_cache: dict[tuple[Hex, Direction], Cell] = {}
        # the game's symbols, worked out once per map: a cell per filled terrain, and what each
        # set of hexside features draws (a map has a handful of distinct sets)
        self.symbols = symbols if symbols is not None else symbols_for(gmap.game)
        self._fills: dict[str, Cell] = {t: (f.char(glyphs), _style(f.style)) for t, f in self.symbols.fills.items()}
        self._sides: dict[frozenset[str], SideLook] = {}
        self._summaries: dict[Hex, tuple[Cell, Cell]] = {}  # per hex, like _side_cache
        # one short name per settlement and width, never the same for two (CHRN, chrk)
        places = {h: (gmap.name(h) or hex_text(gmap, h), kind) for h, kind in gmap.settlements().items()}
        self.short = {4: short_names(places, 4, gmap.is_large), 3: short_names(places, 3, gmap.is_large)}

    @property
    def looks(self) -> dict[Hex, HexLook]:
        return self._looks

    @looks.setter
    def looks(self, looks: dict[Hex, HexLook]) -> None:
        self._looks = looks
        self.framed = [h for h, look in looks.items() if look.frame]

    # -- geometry -------------------------------------------------------------------------
    @property
    def size(self) -> Size:
        cols, rows = self.map.columns, self.map.rows
        if self.zoom == FULL:
            return Size(5 * cols + 1, 2 * rows + 2)
        return Size(3 * cols, 2 * rows + 1)

    def shift(self, col: int) -> int:
        return 1 if col % 2 == 0 else 0

    def origin(self, h: Hex) -> tuple[int, int]:
        """Top-left cell of a hex: for full zoom the left end of its top border."""
        if self.zoom == FULL:
            return 5 * (h.col - self.c0), 2 * (h.row - 1) + self.shift(h.col)
        return 3 * (h.col - self.c0), 2 * (h.row - 1) + self.shift(h.col)

    rows_of = later("kiev_tui.ui.hexmap_more")

    def region_of(self, h: Hex) -> Region:
        x, y = self.origin(h)
        return Region(x, y, 6, 3) if self.zoom == FULL else Region(x, y, 3, 2)

    hex_at = later("kiev_tui.ui.hexmap_more")

    # -- one cell at a time ---------------------------------------------------------------
    def _side(self, h: Hex, d: Direction) -> Cell:
        """The glyph on one diagonal hexside of an on-map hex (north and south are border rows)."""
        key = (h, d)
        cell = self._side_cache.get(key)
        if cell is None:
            plain = "/" if d in (Direction.NW, Direction.SE) else "\\"
            cell = self._feature(h, h.step(d), plain)
            self._side_cache[key] = cell
        return cell

    def _side_look(self, a: Hex, b: Hex) -> SideLook:
        feats = self.map.side_features(a, b)
        if not feats:
            return _NO_SIDE
        found = self._sides.get(feats)
        if found is None:
            sym, g = self.symbols, self.g
            mark, river, way = sym.mark(feats), sym.best(feats, RIVER), sym.best(feats, WAY)
            found = ((mark.char(g), _style(mark.style)) if mark else None, mark.role if mark else "",
                     (river.char(g), _style(river.style)) if river else None, river.priority if river else 0,
                     (way.char(g), _style(way.style)) if way else None, way.priority if way else 0)
            self._sides[feats] = found
        return found

    def _feature(self, a: Hex, b: Hex, plain: str) -> Cell:
        return self._marked(a, b, plain)[0]

    def _marked(self, a: Hex, b: Hex, plain: str) -> tuple[Cell, str]:
        """The cell of a hexside (its feature's mark, else the plain border) and the mark's role."""
        if not self.map.on_map(b):
            return (plain, S_BORDER), ""
        look = self._side_look(a, b)
        if look[0] is None:
            return (plain, S_BORDER), ""
        return look[0], look[1]

    def _bottom(self, h: Hex) -> list[Cell]:
        """The four cells of a hex's south border: the hexside glyph, with steps and marker."""
        s = h.step(Direction.S)
        (glyph, style), role = self._marked(h, s, "_")
        if role == WAY:  # a road crosses the border in its middle; a river runs its whole length
            cells = [("_", S_BORDER), (glyph, style), (glyph, style), ("_", S_BORDER)]
        else:
            cells = [(glyph, style)] * 4
        look = self.looks.get(h)
        if look is not None and look.letter:
            # positions: steps left, supply/zone marker, units in the stack; when the selected
            # stack can get here, its cost takes the place of the steps and the marker, so
            # "+4" never reads as "+" and 4 steps (the inspector still has the steps)
            if look.steps:
                cells[1] = (str(min(look.steps, 9)), S_BORDER if glyph == "_" else style)
            if look.mark:
                cells[2] = (look.mark, S_MARK)
            if look.reach:
                st = S_PATH if look.reach[0] == self.g.path else S_REACH
                for i, ch in enumerate(look.reach[:3]):  # a 2-character cost leaves the marker
                    cells[i] = (ch, st)
            if look.count > 1:
                cells[3] = (str(min(look.count, 9)), S_FRAME)
        return cells

    def _name_over(self, h: Hex) -> list[Cell] | None:
        """A city or town with units in it: its name on the top border, where the units hide it.

        Only where that border is plain: no feature at all on the north hexside, and
        no stack in the hex above (whose steps and count are drawn there).
        """
        kind = self.map.settlement(h)
        look = self.looks.get(h)
        if not kind or look is None or not look.letter:
            return None
        above = h.step(Direction.N)
        if self.map.on_map(above):
            if self.map.side_features(h, above):
                return None
            up = self.looks.get(above)
            if up is not None and up.letter:
                return None
        st = S_CITY if self.map.is_large(kind) else S_TOWN
        return [(ch, st) for ch in self.short[4][h].ljust(4, "_")]

    def _inside(self, h: Hex) -> list[Cell]:
        """The four cells inside a hex (full zoom)."""
        look = self.looks.get(h) or HexLook()
        if look.letter:
            st = S_FIRST if look.side == self.first_side else S_SECOND
            text = f"{look.letter}{look.strength}".ljust(4)
            return [(ch, st) for ch in text[:4]]
        if look.reach:
            text = look.reach[:4].ljust(4)
            st = S_PATH if look.reach[0] == self.g.path else S_REACH
            # keep a terrain fill (it matters to the cost), never a hex number or name
            filled = self.map.terrain(h) in self._fills
            base = self._plain_inside(h) if filled and not self.map.settlement(h) else [(" ", S_BLANK)] * 4
            return [(ch, st) if ch != " " else base[i] for i, ch in enumerate(text)]
        return self._plain_inside(h)

    def _plain_inside(self, h: Hex) -> list[Cell]:
        kind = self.map.settlement(h)
        if kind:
            st = S_CITY if self.map.is_large(kind) else S_TOWN
            return [(ch, st) for ch in self.short[4][h].ljust(4)]
        fill = self._fills.get(self.map.terrain(h))
        if fill is None:  # a plain terrain (no fill of its own): the hex id
            return [(ch, S_ID) for ch in hex_text(self.map, h)[-4:]]  # column and row, no sheet letter
        return [fill] * 4

    _compact = later("kiev_tui.ui.hexmap_more")
    _summary = later("kiev_tui.ui.hexmap_more")

    # -- rows -----------------------------------------------------------------------------
    def row(self, y: int, x0: int = 0, x1: int | None = None) -> list[Cell]:
        """The cells of one text row of the map: every cell, or those from x0 up to x1.

        A part of a row is drawn only from the hex columns it touches (issue 33: the first
        frame shows less than half the map's width, and drew every column of its rows).
        """
        width = self.size.width
        x1 = width if x1 is None else min(x1, width)
        x0 = max(0, x0)
        cells: list[Cell] = [(" ", S_BLANK)] * width
        cols, rows, c0 = self.map.columns, self.map.rows, self.c0
        step = 5 if self.zoom == FULL else 3
        # the hex columns whose cells (a column's, and the side cell at its left) reach into x0..x1
        first = c0 + x0 // step
        last = min(c0 + cols, c0 + x1 // step + 1)
        if self.zoom == COMPACT:
            for col in range(first, last):
                k = y - self.shift(col)
                if k < 0 or k >= 2 * rows:
                    continue
                h = Hex(col, k // 2 + 1)
                x = 3 * (col - c0)
                cells[x:x + 3] = self._compact(h, k % 2)
            self._cursor_compact(y, cells)
            return cells if (x0, x1) == (0, width) else cells[x0:x1]
        for col in range(first, last):
            x = 5 * (col - c0)
            k = y - self.shift(col)
            if k < 0:
                continue
            r, part = k // 2 + 1, k % 2
            if part == 0:
                # a border row: bottom of hex r-1, top of hex r
                if r - 1 >= 1:
                    cells[x + 1:x + 5] = self._bottom(Hex(col, r - 1))
                elif r <= rows:
                    cells[x + 1:x + 5] = [("_", S_BORDER)] * 4
                if r <= rows:
                    over = self._name_over(Hex(col, r))
                    if over is not None:
                        cells[x + 1:x + 5] = over
            elif r <= rows:
                cells[x + 1:x + 5] = self._inside(Hex(col, r))
        # side cells between columns: x = 5 * (col - c0) for col = c0 .. c0 + cols
        for col in range(first, min(last + 1, c0 + cols + 1)):
            x = 5 * (col - c0)
            cell = self._side_cell(col, y)
            if cell is not None:
                cells[x] = cell
        self._frames(y, cells)
        return cells if (x0, x1) == (0, width) else cells[x0:x1]

    def _side_cell(self, col: int, y: int) -> Cell | None:
        """The cell at the left edge of column `col` (the right edge of column col-1)."""
        rows = self.map.rows
        if self.c0 <= col < self.c0 + self.map.columns:
            k = y - self.shift(col) - 1
            if k >= 0:
                r, part = k // 2 + 1, k % 2
                if r <= rows:
                    return self._side(Hex(col, r), Direction.NW if part == 0 else Direction.SW)
        left = col - 1
        if left >= self.c0:
            k = y - self.shift(left) - 1
            if k >= 0:
                r, part = k // 2 + 1, k % 2
                if r <= rows:
                    return self._side(Hex(left, r), Direction.NE if part == 0 else Direction.SE)
        return None

    def _frames(self, y: int, cells: list[Cell]) -> None:
        """Brackets either side of the inside of selected hexes and targets; the cursor's inside."""
        for h in self.framed:
            if self._inside_row(h) == y:
                x = self.origin(h)[0]
                left, right = ("(", ")") if self.looks[h].frame == "(" else (">", "<")
                cells[x], cells[x + 5] = (left, S_FRAME), (right, S_FRAME)
        if self.cursor is not None and self._inside_row(self.cursor) == y:
            x = self.origin(self.cursor)[0]
            # the cursor is the inside of its hex in reverse: the hexsides either side (a river,
            # a road, a selection's brackets) stay as they are, and a cursor move rewrites four
            # cells of the old hex and four of the new, nothing else (docs/PERFORMANCE.md)
            for i in range(x + 1, x + 5):
                ch, st = cells[i]
                # a dimmed hex number takes the cursor's own look: one style run for the whole
                # cursor, where dim inside bold costs a reset and two style changes on every move
                cells[i] = (ch, S_CURSOR if st == S_BORDER else st + S_CURSOR)

    _cursor_compact = later("kiev_tui.ui.hexmap_more")

    def _inside_row(self, h: Hex) -> int:
        return self.origin(h)[1] + 1

    text = later("kiev_tui.ui.hexmap_more")


def to_strip(cells: list[Cell]) -> Strip:
    """Join runs of one style into segments."""
    segments: list[Segment] = []
    run: list[str] = []
    style: Style | None = None
    for ch, st in cells:
        if st is not style and st != style:
            if run:
                segments.append(Segment("".join(run), style))
            run, style = [], st
        run.append(ch)
    if run:
        segments.append(Segment("".join(run), style))
    return Strip(segments, len(cells))


#: Hexes of map kept in sight beyond the cursor when the view scrolls to follow it.
MARGIN_HEXES = 2


class HexMap(PaintStyle, ScrollView, can_focus=True):
    """The map panel: row strips cached, only the rows of changed hexes refreshed."""

    DEFAULT_CSS = """
    HexMap { background: $surface; }
    """

    class Clicked(Message):
        """The player clicked a hex."""

        def __init__(self, hex: Hex) -> None:
            self.hex = hex
            super().__init__()

    zoom: reactive[str] = reactive(FULL, init=False)

    def __init__(self, gmap: GameMap, glyphs: Glyphs = ASCII, *, id: str | None = None, first_side: str = "",
                 symbols: MapSymbols | None = None) -> None:
        super().__init__(id=id)
        self.painter = MapPainter(gmap, glyphs, first_side=first_side, symbols=symbols)
        self._strips: dict[int, tuple[int, Strip]] = {}  # row -> (first cell, its strip)
        self.rows_painted = 0  # rows rebuilt so far: tests check a cursor move stays cheap
        self.virtual_size = self.painter.size
        self._center_on: Hex | None = None  # centre here as soon as the widget has a size

    def center_when_sized(self, h: Hex) -> None:
        """Centre the view on a hex now, or at the first layout (before anything is drawn)."""
        if self.size.width and self.size.height:
            self.scroll_to_hex(h, True)
        else:
            self._center_on = h

    def _size_updated(self, *args: Any, **kwargs: Any) -> Any:
        # Textual sizes the widget during layout, before the first paint (the Resize event
        # comes after it): centring here means the first paint is already the right part of
        # the map, not the top-left corner followed by a second full paint.
        result = super()._size_updated(*args, **kwargs)
        if self._center_on is not None and self.size.width and self.size.height:
            self.scroll_to_hex(self._center_on, True)
        return result

    def on_resize(self) -> None:
        # Again once the layout has settled (a breakpoint may have changed the panel widths
        # since the first layout); a no-op when the view is already right.
        if not (self.size.width and self.size.height):
            return
        if self._center_on is not None:
            h, self._center_on = self._center_on, None
            self.scroll_to_hex(h, True)
        elif self.painter.cursor is not None:
            # a smaller window (or panel) keeps the cursor in view: the player must see
            # where Enter would act; a scroll only when it has gone off the edge
            self.scroll_to_hex(self.painter.cursor)

    set_map = later("kiev_tui.ui.hexmap_more")

    def update_looks(self, looks: dict[Hex, HexLook]) -> None:
        """Show new looks; only the rows of hexes whose look changed are redrawn."""
        old = self.painter.looks
        self.painter.looks = looks
        if not self.rows_painted:  # before the first frame: it paints every row anyway (issue 33)
            self.refresh()
            return
        changed = {h for h in old.keys() | looks.keys() if old.get(h) != looks.get(h)}
        for h in changed:
            self._invalidate(h)

    set_cursor = later("kiev_tui.ui.hexmap_more")

    def watch_zoom(self, zoom: str) -> None:
        self.painter.zoom = zoom
        self._strips.clear()
        self.virtual_size = self.painter.size
        self.refresh()
        if self.painter.cursor is not None:
            self.call_after_refresh(self.scroll_to_hex, self.painter.cursor, True)

    def scroll_to_hex(self, h: Hex, center: bool = False) -> None:
        region = self.painter.region_of(h)
        if center:
            self.scroll_to_center_region(region)
        else:
            self.scroll_with_margin(region)

    scroll_with_margin = later("kiev_tui.ui.hexmap_more")

    def viewport(self) -> Size:
        """The cells of map on show: the content less any scroll bars the map will need.

        Worked out here, not read from Textual, because during the first layout the scroll
        bars are not placed yet and the view would be centred a little off (and then scroll
        on the first cursor move).
        """
        w, ht = self.content_region.size
        vw, vh = self.virtual_size
        bar_v = self.styles.scrollbar_size_vertical if vh > ht else 0
        bar_h = self.styles.scrollbar_size_horizontal if vw > w - bar_v else 0
        if not bar_v and vh > ht - bar_h:
            bar_v = self.styles.scrollbar_size_vertical
        return Size(max(1, w - bar_v), max(1, ht - bar_h))

    def scroll_to_center_region(self, region: Region) -> None:
        w, ht = self.viewport()
        x = max(0, min(region.x + region.width // 2 - w // 2, self.virtual_size.width - w))
        y = max(0, min(region.y + region.height // 2 - ht // 2, self.virtual_size.height - ht))
        self.scroll_to(x, y, animate=False, immediate=True)

    _invalidate = later("kiev_tui.ui.hexmap_more")

    # -- Line API -------------------------------------------------------------------------
    def _strip(self, y: int, x0: int, x1: int) -> tuple[int, Strip]:
        """Map row ``y`` as a strip covering at least cells x0 to x1, and the cell it starts at.

        A row not drawn yet is drawn for the cells on show (issue 33); one kept but wanted
        elsewhere (the view scrolled sideways) is drawn whole, after which scrolling only crops it.
        """
        got = self._strips.get(y)
        if got is not None and got[0] <= x0 and x1 <= got[0] + got[1].cell_length:
            return got
        if got is not None:
            x0, x1 = 0, self.painter.size.width
        got = self._strips[y] = (x0, to_strip(self.painter.row(y, x0, x1)))
        self.rows_painted += 1
        return got

    def render_line(self, y: int) -> Strip:
        sx, sy = self.scroll_offset
        vy = sy + y
        width = self.scrollable_content_region.width
        size = self.painter.size
        if vy >= size.height:
            return Strip.blank(width, self.rich_style)
        start, strip = self._strip(vy, max(0, sx), min(size.width, sx + width))
        return strip.crop_extend(sx - start, sx - start + width, self.rich_style)

    def on_click(self, event: Click) -> None:
        sx, sy = self.scroll_offset
        h = self.painter.hex_at(event.x + sx, event.y + sy)
        if h is not None:
            self.post_message(self.Clicked(h))
