"""Terrain effects on movement (5's Terrain Effects Chart, 5.1, 12.10), read from tables.toml.

Costs come from ``[tec]``: a hex's terrain gives the MP to enter it (foot or motorized column);
a city uses the other terrain of its hex.  Water follows 12.10: sea is never entered, the lake
hexes (Ladoga, Onega, Peipus) and the lake and strait hexsides only in extreme cold (the
weather of the zone the water lies in), a lake hex is never a place to stop, and the Kerch
strait opens, at 1 MP more, to whichever side rules the Black Sea (8.2).  The river's
extra MP depends on enemy zones and is added by ``movement`` through ``river_extra``.
"""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.board import MOTORIZED, Board
from kiev_tui.games.barbarossa1941.tables import HexsideEffect, TerrainEffect

RIVER = "major_river"
WATER_SIDES = ("lake", "strait")


def _row(board: Board, h: Hex) -> TerrainEffect:
    return board.tables.tec.terrain[board.gmap.terrain(h)]


def hex_cost(board: Board, h: Hex, mclass: str) -> int | Illegal:
    """MP to enter ``h`` for a unit of movement class ``mclass``, or why it cannot (5, 5.1, 12.10)."""
    row = _row(board, h)
    if not row.passable and board.weather(h) not in row.passable_in:
        where = board.gmap.grid.id(h)  # named only when refused: the costs are asked thousands of times
        # 12.10: sea never; a lake hex only while frozen (extreme cold)
        if row.passable_in:
            return Illegal("12.10", f"{where} is a lake: it may be crossed only in extreme cold")
        return Illegal("12.10", f"{where} is sea: no unit enters it")
    # 5.1: cavalry pays the foot column, motorized units (and mobile groups) the motorized one
    cost = row.mp_motorized if mclass == MOTORIZED else row.mp_nonmotorized
    assert cost is not None  # the tables' reader requires a cost wherever a unit may go
    return cost


def may_end(board: Board, h: Hex) -> Illegal | None:
    """A lake hex may be crossed but no move ends there (12.10)."""
    if not _row(board, h).end_move:
        return Illegal("12.10", f"no move may end in the lake hex {board.gmap.grid.id(h)}")
    return None


def _side_effect(board: Board, a: Hex, b: Hex) -> HexsideEffect | None:
    for name in WATER_SIDES:
        if board.gmap.has(a, b, name):
            return board.tables.tec.hexside[name]
    return None


def water_open(board: Board, a: Hex, b: Hex) -> bool:
    """False while a lake or strait hexside between a and b is impassable (12.10, and 4 for zones)."""
    eff = _side_effect(board, a, b)
    return eff is None or eff.passable or board.weather(b) in eff.passable_in


def crossing_cost(board: Board, a: Hex, b: Hex, side: str) -> int | Illegal:
    """Extra MP for the hexside a/b apart from rivers, or why it cannot be crossed (12.10)."""
    if water_open(board, a, b):
        return 0  # no water, or frozen: 12.10 ignores the hexside in extreme cold
    kerch = board.tables.tec.kerch
    pair = {board.gmap.grid.id(a), board.gmap.grid.id(b)}
    if pair == set(kerch.hexes) and board.naval.get(kerch.sea) == side:
        return kerch.mp_extra  # 12.10: the Kerch crossing, for the side ruling the Black Sea
    what = "strait" if board.gmap.has(a, b, "strait") else "lake"
    why = f"the {what} between {board.gmap.grid.id(a)} and {board.gmap.grid.id(b)} is impassable except in extreme cold"
    if what == "strait" and pair == set(kerch.hexes):
        why += " or for the side that rules the Black Sea"
    return Illegal("12.10", why)


def river_extra(board: Board, a: Hex, b: Hex, into_enemy_zoc: bool) -> int:
    """The river's +1 MP: only into an enemy zone, and not in freeze or extreme cold (5, 12.10)."""
    if not into_enemy_zoc or not board.gmap.has(a, b, RIVER):
        return 0
    eff = board.tables.tec.hexside[RIVER]
    return eff.mp_extra_into_zoc if board.weather(b) in eff.mp_extra_in else 0


def enter_cost(board: Board, a: Hex, b: Hex, mclass: str, side: str) -> int | Illegal:
    """MP to go from a into the adjacent b, rivers aside: hex plus water hexside (5, 12.10)."""
    cost = hex_cost(board, b, mclass)
    if isinstance(cost, Illegal):
        return cost
    extra = crossing_cost(board, a, b, side)
    if isinstance(extra, Illegal):
        return extra
    return cost + extra
