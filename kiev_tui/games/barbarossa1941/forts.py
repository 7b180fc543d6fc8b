"""Building field fortifications (12.4, 13's 8 VP event): how many, from when, and where.

The Soviet side builds 2 a turn from turn 2, 3 once the Axis has reached 8 VP (13), with at most
12 intact on the map, and may each turn take one fort down for free to build it elsewhere.  The
Axis builds one a turn from turn 4, at most 3 intact.  A fort goes on a city (minor or major) or a
hex next to one, in supply and outside enemy zones, which a friendly unit in the hex cancels
(12.4).  The counters are the units.toml forts; one fort per hex (our reading).  Sevastopol is
the permanent fort and is never built or moved.
"""

from __future__ import annotations

from typing import Container, Iterable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941 import zoc
from kiev_tui.games.barbarossa1941.board import Board, other
from kiev_tui.games.barbarossa1941.reinforcements import campaign
from kiev_tui.games.barbarossa1941.schema import SOVIET
from kiev_tui.games.barbarossa1941.tables import Campaign

CASE = "12.4"


def is_field_fort(board: Board, uid: str) -> bool:
    u = board.udef(uid)
    return u.type == "fort" and not u.extra.get("permanent", False)


def forts_on_map(board: Board, side: str) -> list[str]:
    """Intact field forts of ``side`` on the map (12.4's cap counts these)."""
    return sorted(u for u in board.hex_of if board.side(u) == side and is_field_fort(board, u))


def per_turn(board: Board, side: str, turn: int, mobilized: bool) -> int:
    """Forts ``side`` may build on ``turn`` (12.4; ``mobilized``: the Axis has reached 8 VP, 13)."""
    f = board.tables.forts
    if side == SOVIET:
        if turn < f.soviet_from_turn:
            return 0
        return f.soviet_per_turn_mobilized if mobilized else f.soviet_per_turn
    return f.axis_per_turn if turn >= f.axis_from_turn else 0


def cap(board: Board, side: str) -> int:
    f = board.tables.forts
    return f.soviet_max if side == SOVIET else f.axis_max


def spare_counters(board: Board, side: str) -> list[str]:
    """Field-fort counters of ``side`` not on the map, in id order (the next one to build)."""
    return sorted(u for u, d in board.units.items() if d.side == side and is_field_fort(board, u)
                  and u not in board.hex_of)


def near_city(board: Board, h: Hex) -> bool:
    gmap = board.gmap
    return gmap.settlement(h) is not None or any(gmap.settlement(n) is not None for n in gmap.neighbours(h))


def site_problem(board: Board, side: str, h: Hex, supplied: Container[Hex],
                 camp: Campaign | None = None) -> Illegal | None:
    """Why ``side`` may not build a fort on ``h`` (12.4), or None."""
    c = campaign(camp).forts
    gmap = board.gmap
    gid = gmap.grid.id(h)
    if not gmap.on_map(h) or gmap.is_impassable(h) or gmap.terrain(h) == "lake":
        return Illegal(CASE, f"{gid} is water")
    if board.owner(h) == other(side):
        return Illegal(CASE, f"{gid} holds enemy units")
    if c.city_adjacent and not near_city(board, h):
        return Illegal(CASE, f"{gid} is neither a city nor next to one")
    if c.needs_supply and h not in supplied:
        return Illegal(CASE, f"{gid} is out of supply")
    if c.enemy_zoc_blocks and zoc.blocks(board, h, side, zoc.SUPPLY):  # 12.4: a friendly unit cancels it
        return Illegal(CASE, f"{gid} lies in an enemy zone of control with no friendly unit there")
    if c.one_per_hex and any(board.udef(u).type == "fort" for u in board.at(h)):
        return Illegal(CASE, f"{gid} already has a fort")
    return None


def check_build(board: Board, side: str, h: Hex, turn: int, built: int, supplied: Container[Hex],
                mobilized: bool = False, moving: str = "", moved: int = 0,
                camp: Campaign | None = None) -> Illegal | None:
    """Why ``side`` may not build a fort on ``h`` now, or None (12.4).

    ``built``: forts already built this phase; ``moving``: a fort of the side taken down to be
    rebuilt here (the free move, once a turn; ``moved``: such moves made already this turn).
    """
    f = board.tables.forts
    if moving:
        if moving not in board.hex_of or board.side(moving) != side or not is_field_fort(board, moving):
            return Illegal(CASE, f"{moving} is no field fort of this side on the map")
        if side != SOVIET or moved >= f.soviet_free_moves_per_turn:
            return Illegal(CASE, "only the Soviet side moves a fort, once a turn")
        if turn < f.soviet_from_turn:
            return Illegal(CASE, f"forts are built from turn {f.soviet_from_turn}")
        return site_problem(board, side, h, supplied, camp)
    allowed = per_turn(board, side, turn, mobilized)
    if allowed == 0:
        start = f.soviet_from_turn if side == SOVIET else f.axis_from_turn
        return Illegal(CASE, f"no fort may be built before turn {start}")
    if built >= allowed:
        return Illegal(CASE, f"{allowed} forts a turn")
    if len(forts_on_map(board, side)) >= cap(board, side) or not spare_counters(board, side):
        return Illegal(CASE, f"at most {cap(board, side)} intact forts on the map")
    return site_problem(board, side, h, supplied, camp)


def sites(board: Board, side: str, supplied: Iterable[Hex], camp: Campaign | None = None) -> frozenset[Hex]:
    """Every hex ``side`` could fortify now, for the forts phase's prompt (12.4)."""
    pool = frozenset(supplied)
    return frozenset(h for h in pool if site_problem(board, side, h, pool, camp) is None)
