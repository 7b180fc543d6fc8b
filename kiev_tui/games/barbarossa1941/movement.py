"""Movement (5.1-5.4, with 12.2, 12.8, 12.10): the cost of a path and the hexes a stack reaches.

A unit pays the terrain of each hex it enters (terrain.py), stops as soon as it enters an enemy
zone, pays 1 MP more to leave one and goes straight from one enemy zone to another only when it
is faster than every enemy unit making those zones (5.1).  A river costs 1 MP more into an enemy
zone (5, 12.10).  A unit that ends its movement-phase move outside enemy zones has 1 MP more
(5.4).  Each unit may always move one hex in a phase if nothing else forbids it (5.1).  Enemy
units are never entered: attacking them on the move is an overrun (7), another action.

``path_cost`` judges one path exactly, unit by unit; ``reachable`` searches the map for the hexes
a stack may end in, each with its cost and path, or the case and reason it may not, and offers
exactly the hexes some path reaches that ``path_cost`` accepts.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import Reach
from kiev_tui.games.barbarossa1941.allowance import (EXPLOITATION, MOVEMENT, PHASES, REACTION, allowance,
                                                     movement_allowance)
from kiev_tui.games.barbarossa1941.board import CAVALRY, MOTORIZED, Board
from kiev_tui.games.barbarossa1941.schema import SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import enter_cost, may_end, river_extra
from kiev_tui.games.barbarossa1941.zoc import in_enemy_zoc, projecting

FINLAND_AREA = "finland"  # 12.2: Finnish units beyond their 1940 border
CLOSED_SEAS = ("Black Sea", "Sea of Azov")  # 12.2: no Italian unit next to these


@dataclass(frozen=True, slots=True)
class Mover:
    """One unit of a moving stack, with what its move depends on."""

    uid: str
    side: str
    mclass: str
    nation: str
    allowance: int  # this phase's MP, before 5.4's bonus
    spent: int  # MP already spent this phase
    ignores_zoc: bool  # 12.8: a German motorized unit on turn 1 ignores Soviet zones
    bonus: int  # 5.4's extra MP if the move enters no enemy zone (movement phase only)


def ignores_zoc(board: Board, uid: str, phase: str) -> bool:
    """German motorized units ignore Soviet zones when moving on turn 1, not in reaction (12.8)."""
    return (board.turn == 1 and phase in (MOVEMENT, EXPLOITATION) and board.nation(uid) == "german"
            and board.side(uid) != SOVIET and board.movement_class(uid) == MOTORIZED)


def enemy_zoc(board: Board, m: Mover, h: Hex) -> bool:
    """Is ``h`` in an enemy zone as far as this unit's move is concerned (4, 12.8)?"""
    return not m.ignores_zoc and in_enemy_zoc(board, h, m.side)


def movers(board: Board, units: Sequence[str], phase: str,
           spent: Mapping[str, int] | None = None) -> tuple[list[Mover], Hex] | Illegal:
    """The stack about to move, or why it may not (5.1, 5.2, 5.3, 12.11)."""
    if phase not in PHASES:
        return Illegal("5", f"'{phase}' is not a phase units move in")
    if not units:
        return Illegal("5.1", "choose at least one unit to move")
    if len(set(units)) != len(units):
        return Illegal("5.1", "a unit is listed twice")
    starts = set()
    for uid in units:
        if uid not in board.hex_of:
            return Illegal("5.1", f"{uid} is not on the map")
        starts.add(board.hex_of[uid])
    if len(starts) != 1:
        return Illegal("5.1", "units moving together must start in the same hex")
    out = []
    for uid in units:
        if board.is_static(uid):  # 12.4, 12.7, 12.9, 12.11: static counters never move
            return Illegal("12.11", f"{uid} is static and never moves")
        mp = allowance(board, uid, phase)
        if isinstance(mp, Illegal):
            return mp
        if phase == REACTION and board.movement_class(uid) not in (MOTORIZED, CAVALRY):
            return Illegal("5.3", f"{uid} is neither motorized nor cavalry: it cannot react")
        bonus = board.tables.movement.strategic_bonus_mp if phase == MOVEMENT else 0  # 5.4: not in exploitation
        out.append(Mover(uid, board.side(uid), board.movement_class(uid), board.nation(uid), mp,
                         (spent or {}).get(uid, 0), ignores_zoc(board, uid, phase), bonus))
    return out, starts.pop()


def _near_closed_sea(board: Board, h: Hex) -> bool:
    gmap = board.gmap
    return any(gmap.terrain(n) == "sea" and gmap.name(n) in CLOSED_SEAS for n in gmap.neighbours(h))


def falls_on_entry(board: Board, h: Hex, uids: Sequence[str]) -> bool:
    """Does every enemy counter in ``h`` fall when this stack enters it (12.4, 12.5)?

    A field fort is destroyed by the first enemy ground unit entering (12.4); an airborne unit
    with no other unit of its side in the hex is destroyed when a unit of quality 3 or more
    enters (12.5); partisans are taken off by an Axis unit in their hex (12.7).  Anything else there
    (a formation, the permanent fortress) must be fought.
    """
    side = board.side(uids[0])
    enemy = [u for u in board.at(h) if board.side(u) != side]
    if not enemy:
        return False
    need = board.tables.airborne.destroyed_by_quality
    strong = any((_quality(board, u) or 0) >= need for u in uids)
    for u in enemy:
        d = board.udef(u)
        if d.type == "fort" and not d.extra.get("permanent"):
            continue  # 12.4
        if d.type == "partisan":
            continue  # 12.7: an Axis unit may share their hex, and they are taken off at once
        if d.type == "airborne" and strong and all(board.udef(o).type in ("airborne", "fort") for o in enemy):
            continue  # 12.5: alone (or with forts only), it is overrun by a good enough unit
        return False
    return True


def _quality(board: Board, uid: str) -> int | None:
    u = board.udef(uid)
    if "quality" in u.factors:
        q = u.factor("quality", board.step(uid))
        return int(q) if q else None
    return None


def step(board: Board, stack: Sequence[Mover], a: Hex, b: Hex) -> list[int] | Illegal:
    """Each unit's MP to go from ``a`` into the adjacent ``b``, or why it may not (5, 5.1, 12.2, 12.10).

    The caller has already refused leaving a hex of an enemy zone the stack entered (5.1).
    """
    grid = board.gmap.grid
    where = grid.id(b)
    owner = board.owner(b)
    if owner is not None and owner != stack[0].side and not falls_on_entry(board, b, [m.uid for m in stack]):
        return Illegal("7", f"{where} holds enemy units: only an overrun attacks them on the move")
    costs = []
    for m in stack:
        leaving = enemy_zoc(board, m, a)
        entering = enemy_zoc(board, m, b)
        if leaving and entering:
            # 5.1: straight from one enemy zone into another only for a unit faster than their makers
            makers = projecting(board, a, m.side) | projecting(board, b, m.side)
            top = max(movement_allowance(board, e) for e in makers)
            speed = movement_allowance(board, m.uid)
            if speed <= top:
                return Illegal("5.1", f"{m.uid} ({speed} MP) is not faster than the enemy units ({top} MP) whose "
                                      f"zones cover {grid.id(a)} and {where}: it must pass through a free hex")
        if m.nation == "finnish" and entering and FINLAND_AREA in board.gmap.areas \
                and b not in board.gmap.areas[FINLAND_AREA].hexes:
            return Illegal("12.2", f"Finnish units may not enter an enemy zone beyond their 1940 border ({where})")
        if m.nation == "italian" and _near_closed_sea(board, b):
            return Illegal("12.2", f"Italian units may not enter {where}, next to the Black Sea or the Sea of Azov")
        cost = enter_cost(board, a, b, m.mclass, m.side)
        if isinstance(cost, Illegal):
            return cost
        cost += river_extra(board, a, b, entering)  # 5, 12.10
        if leaving:
            cost += board.tables.movement.leave_zoc_mp  # 5.1: leaving an enemy zone
        costs.append(cost)
    return costs


def _budget(board: Board, m: Mover, end: Hex) -> int:
    """MP the unit may have spent on reaching ``end``: 5.4's bonus unless it ends in an enemy zone."""
    return m.allowance - m.spent + (0 if enemy_zoc(board, m, end) else m.bonus)


def _end_check(board: Board, stack: Sequence[Mover], end: Hex) -> Illegal | None:
    bad = may_end(board, end)  # 12.10: not in a lake hex
    if bad is not None:
        return bad
    return check_hex(board, end, adding=[m.uid for m in stack])  # 3, 12.2


def path_cost(board: Board, units: Sequence[str], path: Sequence[Hex], phase: str = MOVEMENT,
              spent: Mapping[str, int] | None = None) -> dict[str, int] | Illegal:
    """MP each unit spends moving along ``path`` (hexes entered, start excluded), or the refusal."""
    got = movers(board, units, phase, spent)
    if isinstance(got, Illegal):
        return got
    stack, start = got
    if not path:
        return Illegal("5.1", "the path is empty")
    grid = board.gmap.grid
    total = [0] * len(stack)
    prev = start
    for i, h in enumerate(path):
        if not board.gmap.on_map(h):
            return Illegal("5.1", f"{grid.id(h)} is off the map")
        if prev.distance(h) != 1:
            return Illegal("5.1", f"{grid.id(h)} is not next to {grid.id(prev)}: a move goes hex by hex")
        if i > 0 and any(enemy_zoc(board, m, prev) for m in stack):
            return Illegal("5.1", f"the stack entered an enemy zone at {grid.id(prev)} and must stop there")
        costs = step(board, stack, prev, h)
        if isinstance(costs, Illegal):
            return costs
        total = [t + c for t, c in zip(total, costs)]
        prev = h
    bad = _end_check(board, stack, prev)
    if bad is not None:
        return bad
    one_hex = len(path) == 1 and all(m.spent == 0 for m in stack)  # 5.1: one hex is always allowed
    for m, t in zip(stack, total):
        budget = _budget(board, m, prev)
        if t > budget and not one_hex:
            return Illegal("5.1", f"{m.uid} needs {t} MP but has {budget}")
    return {m.uid: t for m, t in zip(stack, total)}


@dataclass(slots=True)
class _Label:
    """One way of reaching a hex: each unit's MP spent so far, and the way before it."""

    hex: Hex
    vec: tuple[int, ...]
    parent: "_Label | None"
    dead: bool = False


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x <= y for x, y in zip(a, b))


def reachable(board: Board, units: Sequence[str], phase: str = MOVEMENT, spent: Mapping[str, int] | None = None,
              explain: bool = True) -> dict[Hex, Reach]:
    """Every hex the stack may end its move in, with cost and path; with ``explain``, every other
    hex of the map with the case and reason it may not (5.1-5.4, 12.2, 12.8, 12.10, 3).

    A search over the map that keeps, for each hex, every way of reaching it that no other way
    beats for all units at once (one way for a single unit: Dijkstra), so a stack whose units
    pay differently is offered exactly the hexes ``path_cost`` accepts.
    """
    out: dict[Hex, Reach] = {}
    got = movers(board, units, phase, spent)
    gmap = board.gmap
    if isinstance(got, Illegal):
        if explain:
            start = board.hex_of.get(units[0]) if units else None
            for h in gmap.hexes():
                if h != start:
                    out[h] = Reach(None, (), got.case, got.why)
        return out
    stack, start = got
    fresh = all(m.spent == 0 for m in stack)
    # Priority: the worst unit's MP over its budget with 5.4's bonus (<= 0: within it).
    base = [m.allowance - m.spent + m.bonus for m in stack]
    root = _Label(start, (0,) * len(stack), None)
    labels: dict[Hex, list[_Label]] = {}
    why: dict[Hex, tuple[str, str]] = {}
    heap: list[tuple[int, int, _Label]] = [(-min(base), 0, root)]
    tick = 0
    while heap:
        prio, _, lab = heapq.heappop(heap)
        h = lab.hex
        if lab.dead:
            continue
        if h != start and any(enemy_zoc(board, m, h) for m in stack):
            continue  # 5.1: the stack stops on entering an enemy zone
        if h != start and prio > 0:
            continue  # reached only by 5.1's one-hex minimum: no further
        for n in gmap.neighbours(h):
            if n == start:
                continue
            c = step(board, stack, h, n)
            if isinstance(c, Illegal):
                why.setdefault(n, (c.case, c.why))
                continue
            vec = tuple(a + b for a, b in zip(lab.vec, c))
            p = max(v - b for v, b in zip(vec, base))
            if p > 0 and not (fresh and h == start):
                why.setdefault(n, ("5.1", f"needs {max(vec)} MP, more than the stack has"))
                continue
            there = labels.setdefault(n, [])
            if any(_dominates(o.vec, vec) for o in there):
                continue
            for o in there:
                if _dominates(vec, o.vec):
                    o.dead = True
            there[:] = [o for o in there if not o.dead]
            new = _Label(n, vec, lab)
            there.append(new)
            tick += 1
            heapq.heappush(heap, (p, tick, new))
    far = Reach(None, (), "5.1", "beyond the stack's MP, or cut off by enemy zones")
    for h in (gmap.hexes() if explain else list(labels)):
        if h == start:
            continue
        if labels.get(h):
            bad = _end_check(board, stack, h)
            if bad is None:
                fits = [lab for lab in labels[h] if (fresh and lab.parent is root)
                        or all(v <= _budget(board, m, h) for m, v in zip(stack, lab.vec))]
                if fits:
                    pick = min(fits, key=lambda lab: max(lab.vec))
                    out[h] = Reach(max(pick.vec), _path_ids(board, pick))
                    continue
                lab = min(labels[h], key=lambda lab: max(lab.vec))
                uid, need, has = next((m.uid, v, _budget(board, m, h)) for m, v in zip(stack, lab.vec)
                                      if v > _budget(board, m, h))
                bad = Illegal("5.4", f"{uid} would end in an enemy zone, where the strategic MP does not count: "
                                     f"it needs {need} MP and has {has}")
            if explain:
                out[h] = Reach(None, (), bad.case, bad.why)
        elif explain and board.owner(h) not in (None, stack[0].side):
            out[h] = Reach(None, (), "7", "enemy units are there: only an overrun attacks them on the move")
        elif explain:
            r = why.get(h)
            out[h] = Reach(None, (), r[0], r[1]) if r else far
    return out


def _path_ids(board: Board, lab: _Label) -> tuple[str, ...]:
    """The hexes entered on the way to ``lab``, as the map prints their ids (start excluded)."""
    path: list[str] = []
    cur: _Label | None = lab
    while cur is not None and cur.parent is not None:
        path.append(board.gmap.grid.id(cur.hex))
        cur = cur.parent
    return tuple(reversed(path))


def may_react(board: Board, uid: str, combat: Hex, attacked: Iterable[Hex]) -> Illegal | None:
    """May ``uid`` try a reaction move toward the combat in ``combat``?  (5.3, 12.3)

    ``attacked``: every hex the enemy attacks this combat phase.  The d6 test against the unit's
    quality is the rule system's, rolled on the game's dice.
    """
    if uid not in board.hex_of:
        return Illegal("5.3", f"{uid} is not on the map")
    h = board.hex_of[uid]
    if board.movement_class(uid) not in (MOTORIZED, CAVALRY) or board.is_static(uid):
        return Illegal("5.3", f"{uid} is neither motorized nor cavalry")
    cond = board.weather(h)
    eff = board.tables.weather.effects[cond]
    if not eff.reaction:  # 12.3: none in mud or extreme cold
        return Illegal("12.3", f"no reaction movement in {cond.replace('_', ' ')}")
    if h.distance(combat) > eff.reaction_range:
        return Illegal("5.3", f"{uid} is more than {eff.reaction_range} hex(es) from the combat")
    if h in set(attacked):
        return Illegal("5.3", f"{uid} is itself under attack")
    if board.side(uid) == SOVIET and in_enemy_zoc(board, h, SOVIET):
        return Illegal("5.3", f"{uid} is Soviet and stands in an enemy zone")
    return None


__all__ = ["Mover", "movers", "falls_on_entry", "step", "path_cost", "reachable", "may_react", "ignores_zoc", "enemy_zoc"]
