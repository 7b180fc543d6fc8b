"""The functions of movement.py that a new game's first frame never calls (issue 33, round 7).

movement.py hands them out on first use (its module ``__getattr__``), so ``movement.check_move`` and
``from kiev_tui.games.spi_kiev.movement import check_move`` work as before.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.movement import (
    Caution,
    GERMAN,
    Illegal,
    Reach,
    SOVIET,
    _parse_path,
    _phase_start_hex,
    cached_step_cost,
    check_relief,
    common_start,
    directive,
    may_relieve,
    may_start_moving,
    move_block,
    movement_allowance,
    mp_spent,
    path_back,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.movement import Hex, View


def ends_hand(view: View, units: tuple[str, ...]) -> Caution | None:
    """Whether moving (or bringing on) ``units`` now ends the move of the stack still in hand while
    its units have movement points left; None if not (5.0: once the hand leaves a stack, its move
    is over, and bringing on another group of reinforcements is such a move, 15.0)."""
    v = view.vars
    held = [u for u in v.active if u not in units]
    if not held or set(units) & set(v.active):
        return None  # nothing in hand, or the hand goes on with (part of) the same stack
    left: list[str] = []
    spare = 0.0
    for u in held:
        if view.state.units[u].status != "map" or move_block(view, u) is not None:
            continue  # stopped, gone, or came by rail: it had no move left to lose
        more = movement_allowance(view, u) - mp_spent(view, u)
        if more > 1e-9:
            left.append(u)
            spare = max(spare, more)
    if not left:
        return None
    where = view.hex_of(left[0])
    return Caution("5.0", f"{', '.join(left)} in {where} still {'has' if len(left) == 1 else 'have'} "
                          f"{spare:g} MP; moving or bringing on other units now ends {'its' if len(left) == 1 else 'their'} "
                          f"move for this phase", tuple(left))


def check_move(view: View, units: tuple[str, ...], path: tuple[str, ...], relieve: str = "") -> Illegal | None:
    """Is this normal (non-rail) move legal?  Exact per-unit costs along the given path."""
    game = view.game
    st = view.state
    bad = may_start_moving(view, units)
    if bad:
        return bad
    start = common_start(view, units)
    if isinstance(start, Illegal):
        return start
    hexes = _parse_path(path)
    if isinstance(hexes, Illegal):
        return hexes
    if not hexes:
        return Illegal("5.1", "the path is empty")
    v = view.vars
    if relieve:
        bad = may_relieve(view, units)
        if bad:
            return bad
    for uid in units:
        done = move_block(view, uid)
        if done is not None:
            return done
    side = st.player
    enemy = SOVIET if side == GERMAN else GERMAN
    # 8.23: no leaving an enemy zone, except straight after a successful overrun (6.24).
    if view.in_enemy_zoc(start, side) and not all(u in v.overran for u in units):
        return Illegal("8.23", f"the stack starts in an enemy zone of control at {start} and may not leave it")
    has_combat = any(not view.is_hq_like(u) for u in units)
    spent = {u: mp_spent(view, u) for u in units}
    budget = {u: movement_allowance(view, u) for u in units}
    fresh = all(spent[u] == 0 for u in units)
    total = dict.fromkeys(units, 0.0)
    dir_bound = _directive_bound(view, units, start)
    prev = start
    for i, h in enumerate(hexes):
        if prev.distance(h) != 1:
            return Illegal("5.1", f"{h} is not adjacent to {prev}: a path goes hex by hex")
        if not view.map.on_map(h):
            return Illegal("5.1", f"{h} is off the map")
        if view.occupied_by(h, enemy):
            return Illegal("5.22", f"{h} holds enemy units: only an overrun may go there (6.0)")
        if i > 0 and view.in_enemy_zoc(prev, side):
            return Illegal("8.21", f"the stack entered an enemy zone of control at {prev} and must stop there")
        in_zoc = view.in_enemy_zoc(h, side)
        if view.map.has(prev, h, "major_river") and view.river_guarded(h, side):
            # 10.13: only the zone of an enemy unit standing on the river's bank bars the crossing.
            return Illegal("10.13", f"cannot cross the major river into {h}: an enemy unit on the river bank controls it and no friendly unit is there")
        if in_zoc and not has_combat and not any(not view.is_hq_like(u) for u in view.at(h) if view.side(u) == side):
            return Illegal("11.23", f"an HQ or leader may enter the enemy zone at {h} only where a friendly combat unit is")
        if dir_bound and not view.map.has(prev, h, "road") and h.col > prev.col:
            return Illegal("22.1", f"Stalin's Directive: {', '.join(dir_bound)} may not move east into hexrow {h.col:02d} except along a road")
        for u in units:
            c = cached_step_cost(view.map, game.scenario.tables, view.udef(u), prev, h)
            if isinstance(c, Illegal):
                return c
            total[u] += c
        prev = h
    end = hexes[-1]
    if dir_bound and end.col > start.col:
        return Illegal("22.25", f"Stalin's Directive: {', '.join(dir_bound)} must end in hexrow {start.col:02d} or lower")
    if not (fresh and len(hexes) == 1):  # 5.14: a stack that has not moved may always go one hex
        for u in units:
            if spent[u] + total[u] > budget[u] + 1e-9:
                return Illegal("5.11", f"{u} needs {spent[u] + total[u]:g} MP but has a movement allowance of {budget[u]} this phase")
    if relieve:
        return check_relief(view, units, start, end, relieve)
    return None


def _directive_bound(view: View, units: tuple[str, ...], start: Hex) -> list[str]:
    game = view.game
    if view.state.player != SOVIET or not directive.in_force(game):
        return []
    return [u for u in units if directive.exempt(view, u, _phase_start_hex(view, u) or start) is None]


def reachable(view: View, units: tuple[str, ...], explain: bool = True) -> dict[Hex, Reach]:
    """Every hex the stack may end its move in now, with cost and path; other hexes say why not.

    Mixed stacks are searched with the dearest unit's cost per hex and the smallest MP left,
    which never offers an illegal hex; ``check_move`` judges any path exactly.
    """
    game = view.game
    st = view.state
    out: dict[Hex, Reach] = {}
    start = common_start(view, units)
    if isinstance(start, Illegal):
        return out
    blocked = may_start_moving(view, units)
    v = view.vars
    if blocked is None:
        for uid in units:
            done = move_block(view, uid, "reach")
            if done is not None:
                blocked = done  # the last unit held back speaks for the stack
    side = st.player
    if blocked is None and view.in_enemy_zoc(start, side) and not all(u in v.overran for u in units):
        blocked = Illegal("8.23", f"the stack starts in an enemy zone of control at {start}")
    if blocked is not None:
        for h in view.map.hexes():
            if h != start:
                out[h] = Reach(None, (), blocked.case, blocked.why)
        return out
    enemy = SOVIET if side == GERMAN else GERMAN
    has_combat = any(not view.is_hq_like(u) for u in units)
    left = min(movement_allowance(view, u) - mp_spent(view, u) for u in units)
    fresh = all(mp_spent(view, u) == 0 for u in units)
    dir_bound = bool(_directive_bound(view, units, start))
    tables = game.scenario.tables
    gmap = view.map
    # One representative per movement class: units that move alike pay alike.
    defs = list({(d.side, d.mechanized, d.hq or d.leader): d for d in (view.udef(u) for u in units)}.values())
    enemy_hexes = {h for h, ids in view.occupancy.items() if view.side(ids[0]) == enemy}
    friendly_combat = {h for h, ids in view.occupancy.items()
                       if any(view.side(u) == side and not view.is_hq_like(u) for u in ids)}
    friendly_any = {h for h, ids in view.occupancy.items() if view.side(ids[0]) == side}
    zoc = view.side_zones(enemy)[0]
    guarded = view.zoc_river_guard[enemy]  # 10.13
    best: dict[Hex, float] = {start: 0.0}
    parent: dict[Hex, Hex] = {}
    why: dict[Hex, tuple[str, str]] = {}
    heap: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
    tick = 0
    while heap:
        cost, _, h = heapq.heappop(heap)
        if cost > best.get(h, float("inf")) + 1e-9:
            continue
        if h != start and h in zoc:
            continue  # 8.21: entering an enemy zone ends the move
        for n in gmap.neighbours(h):
            if n in enemy_hexes:
                continue  # 5.22: every enemy hex gets its refusal below
            in_zoc = n in zoc
            if n in guarded and n not in friendly_any and gmap.has(h, n, "major_river"):
                why.setdefault(n, ("10.13", "an enemy unit on the bank controls this hex: no crossing the major river into it"))
                continue
            if in_zoc and not has_combat and n not in friendly_combat:
                why.setdefault(n, ("11.23", "an HQ alone may not enter an enemy zone"))
                continue
            if dir_bound and n.col > h.col and not gmap.has(h, n, "road"):
                why.setdefault(n, ("22.1", "Stalin's Directive forbids moving east here"))
                continue
            step = 0.0
            illegal = None
            for d in defs:
                c = cached_step_cost(gmap, tables, d, h, n)
                if isinstance(c, Illegal):
                    illegal = c
                    break
                if c > step:
                    step = c
            if illegal is not None:
                why.setdefault(n, (illegal.case, illegal.why))
                continue
            new = cost + step
            if new > left + 1e-9 and not (fresh and h == start):
                why.setdefault(n, ("5.11", f"needs {new:g} MP, only {left:g} left"))
                continue
            if new + 1e-9 < best.get(n, float("inf")):
                best[n] = new
                parent[n] = h
                tick += 1
                heapq.heappush(heap, (new, tick, n))
    far = Reach(None, (), "5.11", "beyond the stack's movement allowance or cut off by zones of control")
    enemy_there = Reach(None, (), "5.22", "enemy units are there (only an overrun may enter)")
    east = Reach(None, (), "22.25", "Stalin's Directive: the move must end in this hexrow or a lower one")
    reasons: dict[tuple[str, str], Reach] = {}
    for h in (view.map.hexes() if explain else list(best)):
        if h == start:
            continue
        if h in best:
            if dir_bound and h.col > start.col:
                out[h] = east
                continue
            out[h] = Reach(best[h], path_back(parent, start, h))
        elif h in enemy_hexes:
            out[h] = enemy_there
        elif h in why:
            # Shared Reach objects: most refusals repeat the same case and words.
            key = why[h]
            r = reasons.get(key)
            if r is None:
                r = reasons[key] = Reach(None, (), key[0], key[1])
            out[h] = r
        else:
            out[h] = far
    return out
