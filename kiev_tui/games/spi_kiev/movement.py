"""Movement (5.1-5.2, 8.2, 10.x, 11.2, 19.5, 22.x): legal paths, costs and the reachable map."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError, path_back
from kiev_tui.engine.rules import Reach

from kiev_tui.games.spi_kiev import directive
from kiev_tui.games.spi_kiev.common import GERMAN, MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.state import KievVars
from kiev_tui.games.spi_kiev.terrain import cached_step_cost

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


__all__ = ["Reach", "reachable", "check_move", "move_block", "movement_allowance", "mp_spent", "common_start",
           "may_start_moving", "mud"]


def mud(game: "Game") -> bool:
    return game.state.turn in game.scenario.params.get("mud_turns", [])


def movement_allowance(view: View, uid: str) -> int:
    """This phase's movement allowance: mud (19.9) and supply at phase start (5.25) applied."""
    game = view.game
    d = view.udef(uid)
    ma = d.ma
    if mud(game):
        mud_tbl = game.scenario.tables.get("mud", {})
        if d.type == "cavalry":
            ma = int(mud_tbl.get("cavalry_ma", 6))
        else:
            ma = ma // int(mud_tbl.get("ma_divisor", 2))
    if uid in view.vars.oos_start:
        ma = ma // 2  # 5.25, 12.21: out of supply when the phase began
    return ma


def mp_spent(view: View, uid: str) -> float:
    return float(view.vars.mp.get(uid, 0.0))


def common_start(view: View, units: tuple[str, ...]) -> Hex | Illegal:
    if not units:
        return Illegal("5.1", "choose at least one unit to move")
    if len(set(units)) != len(units):
        return Illegal("5.1", "a unit is listed twice")
    hexes = set()
    for uid in units:
        if uid not in view.state.units:
            return Illegal("5.1", f"there is no unit '{uid}'")
        if view.state.units[uid].status != "map":
            return Illegal("5.1", f"{uid} is not on the map")
        hexes.add(view.state.units[uid].hex or "")
    if len(hexes) != 1:
        return Illegal("5.1", "units moving together must start in the same hex")
    return Hex.parse(hexes.pop())


def may_start_moving(view: View, units: tuple[str, ...]) -> Illegal | None:
    """Checks shared by every kind of movement: whose turn, which phase, which units."""
    st = view.state
    if st.pending is not None:
        return Illegal("9.83", "a combat result is waiting to be settled first")
    if st.phase not in (MOVEMENT, MECHANIZED):
        return Illegal("4.2", f"units move only in a movement phase, not the {st.phase} phase")
    for uid in units:
        if uid in st.units and view.side(uid) != st.player:
            return Illegal("5.21", f"{uid} belongs to the {view.side(uid)} player, who is not moving now")
        if uid in st.units and st.phase == MECHANIZED:
            d = view.udef(uid)
            if not (d.mechanized or d.hq or d.leader):
                return Illegal("4.2", f"{uid} is not mechanized, cavalry or an HQ: it cannot move in the mechanized phase")
    return None


def _parse_path(path: tuple[str, ...]) -> list[Hex] | Illegal:
    out = []
    for text in path:
        try:
            out.append(Hex.parse(text))
        except HexError as exc:
            return Illegal("5.1", str(exc))
    return out


def _railed_why(v: KievVars, uid: str) -> str:
    """Why a unit that used the railway may not move normally, and what it may still do (5.33)."""
    if uid in v.rail_entry and uid not in v.railed:
        return f"{uid} came on by rail this phase: it may go on only by rail, not move normally"
    return f"{uid} moved by rail this phase and cannot also move normally"


def move_block(view: View, uid: str, how: str = "move") -> Illegal | None:
    """What this unit already did this phase that bars a move of this kind, or None.

    The one place that reads the phase's movement record.  ``how``: "move" (a normal move),
    "reach" (the same, in the short words the map shows), "overrun" or "rail".
    """
    v = view.vars
    if how == "rail":
        if uid in v.moved and uid not in v.rail_entry:
            return Illegal("5.33", f"{uid} has already moved normally this phase")
        if uid in v.railed:
            return Illegal("5.33", f"{uid} has already moved by rail this phase")
        return None
    if uid in v.railed or uid in v.rail_entry:
        # 5.33: a rail move is the unit's whole movement for the phase
        return Illegal("5.33", f"{uid} moved by rail this phase" if how == "overrun" else _railed_why(v, uid))
    if uid in v.stopped:
        case = v.stop_case.get(uid)
        if how == "overrun":
            # 8.21: a stack halted by an enemy zone may still overrun out of it (6.0); 6.22 and
            # the rest end its movement
            if case != "8.21":
                return Illegal(case or "6.22", f"{uid} may not move again this phase")
        elif how == "reach":
            return Illegal(case or "8.21", f"{uid} has stopped for this phase")
        else:
            return Illegal(case or "8.21", f"{uid} has stopped for this phase and cannot move again")
    if uid in v.moved and uid not in v.active:
        # 5.0: once another stack has moved, an earlier stack's move is over
        more = " (another stack has moved since)" if how == "move" else ""
        return Illegal("5.0", f"{uid} already finished its move this phase{more}")
    return None


@dataclass(frozen=True, slots=True)
class Caution:
    """What a legal action costs that the player may not expect: the case and one line."""

    case: str
    why: str
    units: tuple[str, ...]  # the units it concerns

    def __str__(self) -> str:
        return f"[{self.case}] {self.why}"


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


def _phase_start_hex(view: View, uid: str) -> Hex | None:
    h = view.vars.start_hex.get(uid)
    return Hex.parse(h) if h else None


def may_relieve(view: View, units: tuple[str, ...]) -> Illegal | None:
    """22.2: relieving is a move out of a higher-numbered hexrow, by road or by rail (22.22); a
    unit that came on the map this turn (by road or rail) began the move in no such hexrow."""
    v = view.vars
    for u in units:
        if u in v.entered:
            return Illegal("22.2", f"{u} is a reinforcement arriving this turn: it comes from off the map, not from a higher hexrow, and cannot relieve")
    return None


def check_relief(view: View, units: tuple[str, ...], start: Hex, end: Hex, relieve: str) -> Illegal | None:
    """22.2: a unit from a higher-numbered hexrow frees one unit in the hex it stops in."""
    if not directive.in_force(view.game):
        return Illegal("22.2", "relieving only matters while Stalin's Directive is in force")
    if len(units) != 1:
        return Illegal("22.21", "one unit relieves one other unit: move the relieving unit alone")
    mover = units[0]
    if view.is_hq_like(mover):
        return Illegal("22.23", "an HQ cannot relieve another unit")
    if relieve not in view.state.units or view.state.units[relieve].hex != str(end) or view.side(relieve) != SOVIET:
        return Illegal("22.2", f"{relieve} is not a Soviet unit in {end}")
    origin = _phase_start_hex(view, mover) or start
    if origin.col <= end.col:
        return Illegal("22.2", f"the relieving unit must come from a higher-numbered hexrow than {end.col:02d}")
    if mover in view.vars.relievers:
        return Illegal("22.21", f"{mover} has already relieved a unit this turn")
    return None


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
