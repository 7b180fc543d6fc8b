"""Overrun (7, 7.1, 7.2, with 5.1 and 12.6): an attack a motorized stack makes during its move.

A stack of motorized units in supply that did not start its move in an enemy zone may attack
an adjacent hex in the movement or exploitation phase, never in a reaction move (7).  It pays
the defender's terrain MP plus 1 (7) and the combat is resolved as any other (``combat.plan``
with ``Options(overrun=True)``): air support is allowed, artillery and naval support are not
(7.2).  No overrun into a major city, swamp or arctic, nor across a river unless a coup de
main succeeded, whose river halving still applies (7.1, 12.6).  A stack that has entered an
enemy zone has stopped (5.1), so it overruns nothing from there.  Afterwards the stack may
enter the hex if it is empty and move on with the MP it has left (7.2).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.allowance import EXPLOITATION, MOVEMENT, allowance
from kiev_tui.games.barbarossa1941.board import MOTORIZED, Board
from kiev_tui.games.barbarossa1941.combat import BoardSupply, SupplyView
from kiev_tui.games.barbarossa1941.movement import ignores_zoc
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import RIVER, crossing_cost, hex_cost, may_end
from kiev_tui.games.barbarossa1941.zoc import in_enemy_zoc


def _in_zone(board: Board, uid: str, h: Hex, phase: str) -> bool:
    """Is ``h`` in an enemy zone for this unit's move (4; German armour on turn 1 ignores it, 12.8)?"""
    return not ignores_zoc(board, uid, phase) and in_enemy_zoc(board, h, board.side(uid))


def overrun_cost(board: Board, units: Sequence[str], target: Hex, phase: str, start: Hex,
                 spent: Mapping[str, int] | None = None, coup_de_main: bool | None = None,
                 supply: SupplyView | None = None) -> int | Illegal:
    """MP each unit of the stack pays to overrun ``target`` (7), or why it may not (7, 7.1, 12.6).

    ``start``: where the stack began this move; ``spent``: MP already spent this phase;
    ``coup_de_main``: the result of a coup de main tried against a river hexside (12.6).
    """
    grid = board.gmap.grid
    where = grid.id(target)
    if phase not in (MOVEMENT, EXPLOITATION):
        return Illegal("7", "an overrun is made in the movement or exploitation phase, not in a reaction move")
    if not units or len(set(units)) != len(units):
        return Illegal("7", "choose the units of one stack, each once")
    here = {board.hex_of.get(u) for u in units}
    if None in here or len(here) != 1:
        return Illegal("7", "an overrun is made by one stack")
    at = here.pop()
    assert at is not None
    sup = supply if supply is not None else BoardSupply(board)
    side = board.side(units[0])
    for uid in units:
        if board.movement_class(uid) != MOTORIZED:
            return Illegal("7", f"{uid} is not motorized: only motorized units overrun")
        if sup.isolated(uid):
            return Illegal("7", f"{uid} is out of supply: it may not overrun")
        if _in_zone(board, uid, start, phase):
            return Illegal("7", f"{uid} began its move in an enemy zone of control ({grid.id(start)})")
        if _in_zone(board, uid, at, phase):
            return Illegal("5.1", f"{uid} has entered an enemy zone at {grid.id(at)} and stopped there")
    if at.distance(target) != 1:
        return Illegal("7", f"{where} is not next to the stack")
    if board.owner(target) in (None, side):
        return Illegal("7", f"{where} holds no enemy unit to overrun")
    tec, gmap = board.tables.tec, board.gmap
    town = gmap.settlement(target)
    terrain = gmap.terrain(target)
    if town and not tec.settlement[town].overrun:
        return Illegal("7.1", f"no overrun into a {town.replace('_', ' ')} ({where})")
    if not tec.terrain[terrain].overrun:
        return Illegal("7.1" if terrain != "arctic" else "12.10", f"no overrun into {terrain} ({where})")
    if gmap.has(at, target, RIVER) and not tec.hexside[RIVER].overrun and not coup_de_main:
        return Illegal("7.1", f"no overrun across a river into {where} without a successful coup de main (12.6)")
    cost = hex_cost(board, target, MOTORIZED)
    if isinstance(cost, Illegal):
        return cost
    cross = crossing_cost(board, at, target, side)
    if isinstance(cross, Illegal):
        return cross
    total = cost + cross + board.tables.movement.overrun_extra_mp  # 7: the terrain's MP plus 1
    for uid in units:
        mp = allowance(board, uid, phase)
        if isinstance(mp, Illegal):
            return mp
        used = (spent or {}).get(uid, 0)
        if used + total > mp:
            return Illegal("7", f"{uid} needs {total} MP to overrun {where} but has {mp - used} left")
    return total


def check_enter(board: Board, units: Sequence[str], target: Hex) -> tuple[str, ...] | Illegal:
    """May the overrunning stack enter the attacked hex now (7.2: only if it is empty)?  Gives the
    enemy field forts destroyed there (12.4)."""
    side = board.side(units[0])
    where = board.gmap.grid.id(target)
    if any(board.side(u) != side and (board.is_formation(u) or board.udef(u).extra.get("permanent"))
           for u in board.at(target)):
        return Illegal("7.2", f"{where} still holds enemy units: the stack may not enter it")
    bad = may_end(board, target) or check_hex(board, target, adding=units)
    if bad is not None:
        return bad
    return tuple(u for u in board.at(target) if board.side(u) != side and board.udef(u).type == "fort")
