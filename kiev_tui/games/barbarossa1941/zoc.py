"""Zones of control (4, with 12.8 and 12.10): who has one, where it reaches, and what cancels it.

A stack of at least two stacking points has a zone (4).  It covers those of the six
neighbouring hexes that a unit of the stack could enter with its whole MP in its weather
(12.3): the hex's terrain cost at most that MP; rivers, 5.1's one-hex minimum and 5.4's bonus
do not count (docs/rulings.md, Barbarossa 1941, 4).  No zone reaches into a major city, across
a lake or strait hexside while it is impassable, into sea, or into a lake hex, where no unit
may stop (4, 12.10).  On turn 1 Soviet zones stop at the USSR's border (12.8).  Zones of both
sides work at once (4): a unit stands in the enemy's zone whatever its own.

A friendly unit in a hex cancels the enemy zone there for supply (8), rail movement (10.1) and
retreat (6.1), not for movement (5.1): ``blocks`` answers for each purpose.
"""

from __future__ import annotations

from typing import cast

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.allowance import movement_allowance
from kiev_tui.games.barbarossa1941.board import Board, other
from kiev_tui.games.barbarossa1941.schema import SOVIET
from kiev_tui.games.barbarossa1941.terrain import hex_cost, water_open

#: What an enemy zone may hamper; all but movement are lifted by a friendly unit in the hex (4).
MOVEMENT, SUPPLY, RAIL, RETREAT = "movement", "supply", "rail", "retreat"
CANCELLABLE = frozenset({SUPPLY, RAIL, RETREAT})
USSR_AREA = "ussr"  # 12.8: the state border of turn 1


def stack_points(board: Board, h: Hex) -> int:
    return sum(board.points(u) for u in board.at(h))


def has_zone(board: Board, h: Hex) -> bool:
    """Does the stack in ``h`` have a zone: two stacking points or more (4)?"""
    return stack_points(board, h) >= board.tables.stacking.zoc_min_steps


def reaches(board: Board, uid: str, b: Hex) -> bool:
    """Could ``uid`` enter the adjacent hex ``b`` by spending its whole MP, as 4 measures a zone?"""
    a = board.hex_of[uid]
    gmap = board.gmap
    tec = board.tables.tec
    town = gmap.settlement(b)
    if (town and not tec.settlement[town].zoc_into) or not tec.terrain[gmap.terrain(b)].zoc_into:
        return False  # 4: never into a major city (the chart's zoc_into = false)
    if not water_open(board, a, b):  # 4, 12.10: not across impassable water
        return False
    if not tec.terrain[gmap.terrain(b)].end_move:  # 12.10: a lake hex (ruling)
        return False
    if board.turn == 1 and board.side(uid) == SOVIET and USSR_AREA in gmap.areas \
            and b not in gmap.areas[USSR_AREA].hexes:
        return False  # 12.8: Soviet zones do not cross the state border on turn 1
    mp = movement_allowance(board, uid)
    if mp <= 0 or not board.is_formation(uid):
        return False
    cost = hex_cost(board, b, board.movement_class(uid))
    return isinstance(cost, int) and cost <= mp  # 4: the whole MP must pay the hex


def stack_zone(board: Board, h: Hex) -> dict[Hex, tuple[str, ...]]:
    """The hexes the stack in ``h`` holds in its zone, each with the units that reach it (4)."""
    if not has_zone(board, h):
        return {}
    # ``reaches`` for every unit and neighbour, with what depends on the unit alone (its MP in its
    # weather, its movement class) and on the neighbour alone worked out once: the same answers
    movers = []
    for u in board.at(h):
        mp = movement_allowance(board, u)
        if mp > 0 and board.is_formation(u):
            movers.append((u, mp, board.movement_class(u), board.side(u) == SOVIET))
    if not movers:
        return {}
    gmap, tec = board.gmap, board.tables.tec
    border = gmap.areas[USSR_AREA].hexes if board.turn == 1 and USSR_AREA in gmap.areas else None
    out: dict[Hex, tuple[str, ...]] = {}
    for n in gmap.neighbours(h):
        town, row = gmap.settlement(n), tec.terrain[gmap.terrain(n)]
        if (town and not tec.settlement[town].zoc_into) or not row.zoc_into:
            continue  # 4: never into a major city
        if not water_open(board, h, n) or not row.end_move:
            continue  # 4, 12.10: not across impassable water, nor into a lake hex
        cost: dict[str, int | Illegal] = {}
        who = []
        for u, mp, mclass, soviet in movers:
            if soviet and border is not None and n not in border:
                continue  # 12.8: Soviet zones do not cross the state border on turn 1
            c = cost.get(mclass)
            if c is None:
                c = cost[mclass] = hex_cost(board, n, mclass)
            if isinstance(c, int) and c <= mp:  # 4: the whole MP must pay the hex
                who.append(u)
        if who:
            out[n] = tuple(who)
    return out


def zone_map(board: Board, side: str) -> dict[Hex, frozenset[str]]:
    """Every hex in ``side``'s zones, with the units projecting a zone into it (4)."""
    key = ("zoc", side)
    hit = board.memo.get(key)
    if hit is not None:
        return cast("dict[Hex, frozenset[str]]", hit)
    acc: dict[Hex, set[str]] = {}
    for h, ids in board.occupied().items():
        if board.side(ids[0]) != side:
            continue
        for n, who in stack_zone(board, h).items():
            acc.setdefault(n, set()).update(who)
    out = {h: frozenset(ids) for h, ids in acc.items()}
    board.memo[key] = out
    return out


def in_enemy_zoc(board: Board, h: Hex, side: str) -> bool:
    """Is ``h`` in a zone of ``side``'s enemy (4)?  A friendly unit there changes nothing."""
    return h in zone_map(board, other(side))


def projecting(board: Board, h: Hex, side: str) -> frozenset[str]:
    """The enemy units whose zones cover ``h`` for ``side`` (5.1 compares their speed)."""
    return zone_map(board, other(side)).get(h, frozenset())


def friendly_present(board: Board, h: Hex, side: str) -> bool:
    """A friendly formation in ``h`` (a fort, partisans or the fleet do not count: rulings)."""
    return any(board.side(u) == side and board.is_formation(u) for u in board.at(h))


def blocks(board: Board, h: Hex, side: str, purpose: str) -> bool:
    """Does the enemy's zone hamper ``side`` in ``h`` for ``purpose``?  (4, 5.1, 6.1, 8, 10.1)"""
    if not in_enemy_zoc(board, h, side):
        return False
    if purpose in CANCELLABLE:  # 4: a friendly unit lifts it for supply, rail and retreat
        return not friendly_present(board, h, side)
    return True  # 4, 5.1: not for movement or exploitation


def retreat_loss(board: Board, h: Hex, side: str) -> int:
    """Extra steps a stack loses for retreating into ``h`` (6.1: an uncancelled enemy zone)."""
    return board.tables.combat.retreat_zoc_extra_loss if blocks(board, h, side, RETREAT) else 0


def surrounded(board: Board, h: Hex, side: str) -> bool:
    """Is a ``side`` stack in ``h`` ringed by enemy zones no friendly unit cancels?  (9.2's loss
    marker, read with 4 and 6.1: every neighbour holds enemy units, is water no unit may enter
    now, or lies in such a zone; docs/rulings.md, Barbarossa 1941)."""
    enemy = other(side)
    for n in board.gmap.neighbours(h):
        if board.owner(n) == enemy:
            continue
        if not water_open(board, h, n) or isinstance(hex_cost(board, n, "infantry"), Illegal) \
                or not board.tables.tec.terrain[board.gmap.terrain(n)].end_move:
            continue  # water: no way out there
        if not blocks(board, n, side, RETREAT):
            return False  # 4: a free hex, or one a friendly unit holds open
    return True
