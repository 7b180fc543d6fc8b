"""Retreat and advance after combat (6, 6.1, 12.4, 12.5, 12.8).

A defender that takes its second step as a retreat moves its stack one hex (6).  The hex must
lie toward a supply source of its side (6.1: nearer, in hexes, to the closest one than the hex
it leaves), may hold no enemy unit, must be one every unit of the stack could enter and stop in,
and the stack must fit there (3).  Retreating into an enemy zone that no friendly unit cancels
costs one more step (6.1, ``zoc.retreat_loss``).  With no such hex the stack stays and takes the
losses.  Victorious attackers may then advance into the emptied hex, whatever the enemy zones,
within the stacking limit; a field fort there is destroyed (12.4).
"""

from __future__ import annotations

from typing import Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.combat import BoardSupply, Outcome, SupplyView
from kiev_tui.games.barbarossa1941.schema import SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import crossing_cost, hex_cost, may_end
from kiev_tui.games.barbarossa1941.zoc import retreat_loss


def _distance(sources: frozenset[Hex], h: Hex) -> int | None:
    return min((h.distance(s) for s in sources), default=None)


def _stack(board: Board, units: Sequence[str]) -> tuple[Hex, str] | Illegal:
    if not units:
        return Illegal("6.1", "no unit to retreat")
    starts = {board.hex_of.get(u) for u in units}
    if None in starts or len(starts) != 1:
        return Illegal("6.1", "a retreating stack is units of one hex")
    start = starts.pop()
    assert start is not None
    for uid in units:
        if board.is_static(uid):  # 6: garrisons and militia take their losses
            return Illegal("6", f"{uid} is static and cannot retreat")
    side = board.side(units[0])
    if board.turn == 1 and side == SOVIET:
        return Illegal("12.8", "Soviet units do not retreat on turn 1")
    return start, side


def check_retreat(board: Board, units: Sequence[str], to: Hex, supply: SupplyView | None = None) -> int | Illegal:
    """Extra steps the stack loses retreating into ``to`` (0 or 1), or why it may not go there (6.1)."""
    got = _stack(board, units)
    if isinstance(got, Illegal):
        return got
    start, side = got
    grid = board.gmap.grid
    where = grid.id(to)
    if not board.gmap.on_map(to) or start.distance(to) != 1:
        return Illegal("6", f"a retreat is one hex: {where} is not next to {grid.id(start)}")
    owner = board.owner(to)
    if owner is not None and owner != side:
        return Illegal("6.1", f"{where} holds enemy units: no retreat through them")
    for uid in units:
        cost = hex_cost(board, to, board.movement_class(uid))
        if isinstance(cost, Illegal):
            return cost
    cross = crossing_cost(board, start, to, side)
    if isinstance(cross, Illegal):
        return cross
    bad = may_end(board, to) or check_hex(board, to, adding=units)
    if bad is not None:
        return bad
    sources = (supply or BoardSupply(board)).sources(side)
    here, there = _distance(sources, start), _distance(sources, to)
    if here is None or there is None or there >= here:
        return Illegal("6.1", f"{where} does not lead toward a supply source of the {side} side")
    return retreat_loss(board, to, side)  # 6.1: an uncancelled enemy zone costs a step


def retreat_hexes(board: Board, units: Sequence[str], supply: SupplyView | None = None) -> dict[Hex, int] | Illegal:
    """Every hex the stack may retreat into, each with its extra loss; or why none (6, 6.1, 12.8)."""
    got = _stack(board, units)
    if isinstance(got, Illegal):
        return got
    start, _ = got
    out: dict[Hex, int] = {}
    for n in board.gmap.neighbours(start):
        r = check_retreat(board, units, n, supply)
        if not isinstance(r, Illegal):
            out[n] = r
    if not out:
        return Illegal("6.1", f"no hex to retreat into from {board.gmap.grid.id(start)}: the stack stays "
                              f"and takes the losses")
    return out


def losses_with_retreat(board: Board, outcome: Outcome, units: Sequence[str], to: Hex,
                        supply: SupplyView | None = None) -> int | Illegal:
    """Steps the defender loses when it takes its second step as a retreat into ``to`` (6, 6.1).

    ``units``: the defenders still standing once the other steps are taken (they retreat together).
    """
    if not outcome.retreat_option:
        return Illegal("6", "this result leaves the defender no retreat: it takes every step")
    extra = check_retreat(board, units, to, supply)
    if isinstance(extra, Illegal):
        return extra
    return outcome.losses.defender - 1 + extra


def check_advance(board: Board, attackers: Sequence[str], vacated: Hex, units: Sequence[str]) -> tuple[str, ...] | Illegal:
    """May these surviving attackers advance into the emptied hex (6.1)?  Gives the forts destroyed (12.4).

    Enemy zones do not matter (6.1); the stacking limit does (3).
    """
    grid = board.gmap.grid
    where = grid.id(vacated)
    if not units:
        return Illegal("6.1", "choose at least one unit to advance")
    if len(set(units)) != len(units):
        return Illegal("6.1", "a unit is listed twice")
    side = board.side(units[0])
    enemy_left = [u for u in board.at(vacated) if board.side(u) != side
                  and (board.is_formation(u) or board.udef(u).extra.get("permanent"))]
    if enemy_left:
        return Illegal("6.1", f"{where} still holds enemy units: only the winner of the hex advances")
    for uid in units:
        if uid not in attackers or uid not in board.hex_of:
            return Illegal("6.1", f"{uid} did not take part in the attack on {where}")
        if board.is_static(uid):
            return Illegal("6.1", f"{uid} is static and does not advance")
        cost = hex_cost(board, vacated, board.movement_class(uid))
        if isinstance(cost, Illegal):
            return cost
        cross = crossing_cost(board, board.hex_of[uid], vacated, side)
        if isinstance(cross, Illegal):
            return cross
    bad = may_end(board, vacated) or check_hex(board, vacated, adding=units)
    if bad is not None:
        return bad
    forts = tuple(u for u in board.at(vacated) if board.side(u) != side and board.udef(u).type == "fort")
    return forts if board.tables.tec.fortification.lost_on_enemy_entry else ()
