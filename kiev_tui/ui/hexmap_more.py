"""The methods of kiev_tui.ui.hexmap that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in hexmap.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.ui import hexmap  # hexmap.MapPainter: the class, not the namespace below
from kiev_tui.ui.hexmap import (  # noqa: F401
    FULL, Hex, HexLook, MARGIN_HEXES, Region, S_BLANK, S_BORDER, S_CITY, S_CURSOR, S_FIRST, S_FRAME,
    S_MARK, S_PATH, S_REACH, S_SECOND, S_TOWN, Style,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.ui.hexmap import Cell, GameMap


class MapPainter:
    """Methods of hexmap.MapPainter that a new game's first frame never calls."""

    def rows_of(self, h: Hex) -> range:
        """The text rows a hex's drawing touches."""
        x, y = self.origin(h)
        return range(y, y + 3) if self.zoom == FULL else range(y, y + 2)

    def hex_at(self, x: int, y: int) -> Hex | None:
        """The hex whose inside covers a cell (for mouse clicks)."""
        if self.zoom == FULL:
            col = x // 5 + self.c0
            k = y - self.shift(col) - 1
        else:
            col = x // 3 + self.c0
            k = y - self.shift(col)
        if k < 0:
            return None
        h = Hex(col, k // 2 + 1)
        return h if self.map.on_map(h) else None
    # -- compact zoom ---------------------------------------------------------------------

    def _compact(self, h: Hex, part: int) -> list[Cell]:
        look = self.looks.get(h) or HexLook()
        if part == 0:
            if look.letter:
                st = S_FIRST if look.side == self.first_side else S_SECOND
                return [(ch, st) for ch in (look.letter + look.strength.replace("-", "")).ljust(3)[:3]]
            if look.reach:
                st = S_PATH if look.reach[0] == self.g.path else S_REACH
                return [(ch, st) for ch in look.reach[:3].ljust(3)]
            kind = self.map.settlement(h)
            if kind:
                return [(ch, S_CITY if self.map.is_large(kind) else S_TOWN) for ch in self.short[3][h].ljust(3)]
            return [self._fills.get(self.map.terrain(h), (self.g.clear, S_BLANK))] * 3
        # second row: a river along a side, a way across one (or steps), then count or marker
        summary = self._summaries.get(h)
        if summary is None:
            summary = self._summaries[h] = self._summary(h)
        river, way = summary
        if look.letter:
            st = S_FIRST if look.side == self.first_side else S_SECOND
            last: Cell = (look.mark, S_MARK) if look.mark else ((str(look.count), st) if look.count > 1 else (" ", S_BLANK))
            if look.reach:
                # the cost where the steps were ("+4", not "+" after 4 steps); a longer cost
                # (10 or 4.5 MP) keeps only its mark here, and the status line has the number
                rs = S_PATH if look.reach[0] == self.g.path else S_REACH
                cost = look.reach[1] if len(look.reach) == 2 else " "
                return [river, (look.reach[0], rs), (cost, rs)]
            return [river, (str(min(look.steps, 9)) if look.steps else " ", S_BORDER), last]
        return [river, way, (" ", S_BLANK)]

    def _summary(self, h: Hex) -> tuple[Cell, Cell]:
        """A hex's sides in two cells (compact zoom): the first-ranked river along any of them
        and the first-ranked way across any; a barrier is not summarised."""
        river: Cell = (" ", S_BLANK)
        way: Cell = (" ", S_BLANK)
        river_rank = way_rank = 0
        for n in self.map.neighbours(h):
            _, _, r, rp, w, wp = self._side_look(h, n)
            if r is not None and (river[0] == " " or rp < river_rank):
                river, river_rank = r, rp
            if w is not None and (way[0] == " " or wp < way_rank):
                way, way_rank = w, wp
        return river, way

    def _cursor_compact(self, y: int, cells: list[Cell]) -> None:
        for h in self.framed:
            if self.origin(h)[1] + 1 == y:
                x = self.origin(h)[0]
                ch, st = cells[x]
                cells[x] = (self.looks[h].frame, S_FRAME) if ch == " " else (ch, st + Style(underline=True))
        if self.cursor is not None and self.cursor.col >= self.c0:
            x, top = self.origin(self.cursor)
            if y in (top, top + 1):
                for i in range(x, x + 3):
                    ch, st = cells[i]
                    cells[i] = (ch, S_CURSOR if st == S_BORDER else st + S_CURSOR)

    def text(self) -> str:
        """The whole map as plain text (tests and debugging)."""
        return "\n".join("".join(ch for ch, _ in self.row(y)).rstrip() for y in range(self.size.height))


class HexMap:
    """Methods of hexmap.HexMap that a new game's first frame never calls."""
    # -- what to show ---------------------------------------------------------------------

    def set_map(self, gmap: GameMap) -> None:
        old = self.painter
        symbols = old.symbols if gmap.game == old.map.game else None  # another game draws with its own
        self.painter = hexmap.MapPainter(gmap, old.g, old.zoom, old.first_side, symbols)
        self._strips.clear()
        self.virtual_size = self.painter.size
        self.refresh()

    def set_cursor(self, h: Hex) -> None:
        old = self.painter.cursor
        if old == h:
            return
        self.painter.cursor = h
        if old is not None:
            self._invalidate(old, cursor_only=True)
        self._invalidate(h, cursor_only=True)
        self.scroll_to_hex(h)

    def scroll_with_margin(self, region: Region) -> None:
        """Scroll only as far as keeps MARGIN_HEXES of map between the region and each edge of
        the view (less in a view too small for that): what lies next to the cursor stays in sight."""
        w, ht = self.viewport()
        step_x, step_y = (5, 2) if self.painter.zoom == FULL else (3, 2)
        mx = min(MARGIN_HEXES * step_x, max(0, (w - region.width) // 2))
        my = min(MARGIN_HEXES * step_y, max(0, (ht - region.height) // 2))
        sx, sy = int(self.scroll_offset.x), int(self.scroll_offset.y)
        x, y = sx, sy
        if region.x - mx < sx:
            x = region.x - mx
        elif region.right + mx > sx + w:
            x = region.right + mx - w
        if region.y - my < sy:
            y = region.y - my
        elif region.bottom + my > sy + ht:
            y = region.bottom + my - ht
        x = max(0, min(x, self.virtual_size.width - w))
        y = max(0, min(y, self.virtual_size.height - ht))
        if (x, y) != (sx, sy):
            self.scroll_to(x, y, animate=False, immediate=True)

    def _invalidate(self, h: Hex, cursor_only: bool = False) -> None:
        rows = [self.painter._inside_row(h)] if cursor_only and self.painter.zoom == FULL else list(self.painter.rows_of(h))
        # Repaint only the cells of this hex, not whole rows: a cursor move over SSH then
        # costs a few dozen bytes per row instead of a full screen width.
        box = self.painter.region_of(h)
        sx, sy = self.scroll_offset
        for y in rows:
            self._strips.pop(y, None)
            self.refresh(Region(box.x - sx, y - sy, box.width, 1))
