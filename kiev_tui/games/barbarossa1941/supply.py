"""Supply and isolation (8, 8.1, 8.2, with 10.2, 12.4 and the optional 14.3.5); naval moves (12.1)
and the mined gulf (12.9), which read the same ports.

A unit is in supply when it can trace a line of no more MP than it has now (its weather applied,
12.3; no 5.4 bonus) to a supply source or to rail joined to one (8).  The line pays the terrain of
each hex it enters with the unit's own movement class (its own hex is free), never enters enemy
units, impassable water, nor an enemy zone of control that no friendly formation cancels (4, 8).

Sources (8.2, from tables.toml ``[supply]``):
- Axis: the Axis cities it holds (Helsinki only for Finns until the Axis holds Königsberg, Riga
  and Tallinn) and the railway exits of the western map edge;
- Soviet: every major city it holds that friendly rail joins to a railway exit of the eastern edge;
- limited sources, each for a number of steps: a Russian major city cut off from the east edge
  (4 Soviet steps), and for the side with naval superiority in its sea a port cut off from its
  side's rail (2 steps).  Units reach a limited source by their own line, not by rail; when more
  units reach one than it can feed, the nearest are fed first.

Rail carries supply through friendly rail (rail.py, 10.2) free of enemy units and of enemy zones
not cancelled by a friendly formation.  Counters that are not formations (forts, Sevastopol
included, the fleet, partisans) are never out of supply.

The Isolated marker (8, 8.1) is set in the side's isolation phase (``isolation_phase``): units
that cannot trace are marked; marked units that can trace again lose the marker; marked units
that still cannot trace keep it and each such stack loses one step.  ``SupplyAnswer.isolated``
is the marker, which 8.1's penalties and every "in supply" condition on a unit read.

Rulings: docs/rulings.md, Barbarossa 1941, "Supply and rail (the rule system)".
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, field
from typing import Container, Iterable, Mapping, cast

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.allowance import movement_allowance
from kiev_tui.games.barbarossa1941.board import INFANTRY, Board, other
from kiev_tui.games.barbarossa1941.rail import RailState, country_side, enemy_there, friendly_rail, links
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import enter_cost, may_end
from kiev_tui.games.barbarossa1941.zoc import SUPPLY, blocks, surrounded, zone_map

FULL, LIMITED, OUT = "full", "limited", "out"
MAJOR = "major_city"
PARTISAN = "partisan"


# ------------------------------------------------------------------------------------ who holds what


def holder(board: Board, h: Hex) -> str | None:
    """The side that holds ``h``: the side with units there (partisans hold nothing), else the
    side that last held it (``Board.control``), else the side whose country it is (13, 10.2)."""
    for uid in board.at(h):
        if board.udef(uid).type != PARTISAN:
            return board.side(uid)
    if h in board.control:
        return board.control[h]
    return country_side(board.gmap).get(h)


def _city(board: Board, name: str) -> Hex | None:
    return board.gmap.find(name)


def helsinki_open(board: Board) -> bool:
    """Does Helsinki supply non-Finnish Axis units: the Axis holds Königsberg, Riga and Tallinn (8.2)?"""
    needs = [_city(board, n) for n in board.tables.supply.limited_city_needs]
    return all(h is not None and holder(board, h) == AXIS for h in needs)


def ports(board: Board, sea: str) -> frozenset[Hex]:
    """The ports of a sea of naval superiority (the map's port area for it, 8.2, 12.1)."""
    sup = board.tables.supply
    area = dict(zip(sup.naval_seas, sup.port_areas)).get(sea)
    if area is None or area not in board.gmap.areas:
        return frozenset()
    return board.gmap.areas[area].hexes


def naval_superiority(board: Board) -> dict[str, str]:
    """Which side has naval superiority in each sea: it holds at least the ports 8.2 asks (3 of
    the Baltic's 5, 2 of the Black Sea's 3).  The rule system stores it in ``Board.naval``."""
    out: dict[str, str] = {}
    nav = board.tables.naval
    for sea in board.tables.supply.naval_seas:
        need = int(getattr(nav, f"{sea}_superiority"))
        held = [holder(board, h) for h in ports(board, sea)]
        for side in (AXIS, SOVIET):
            if held.count(side) >= need:
                out[sea] = side
    return out


def axis_sources(board: Board) -> frozenset[Hex]:
    """The Axis full sources before any rail is traced: the Axis cities it holds and the
    west-edge railway exits with no Soviet unit on them (8.2)."""
    gmap, sup = board.gmap, board.tables.supply
    cities = {h for h in (_city(board, n) for n in sup.axis_cities) if h is not None and holder(board, h) == AXIS}
    exits = {h for h in gmap.rail_exits if sup.axis_rail_edge in gmap.edges_of(h) and not enemy_there(board, h, AXIS)}
    return frozenset(cities | exits)


def sea_of(board: Board, h: Hex) -> str | None:
    """The sea whose port ``h`` is, or None (8.2, 12.1)."""
    return next((sea for sea in board.tables.supply.naval_seas if h in ports(board, sea)), None)


def fleet_mined(board: Board) -> bool:
    """Is the Gulf mined against the Baltic Fleet: the Axis holds the four cities of 12.9?"""
    hexes = [_city(board, n) for n in board.tables.baltic_fleet.mined_when_axis_holds]
    return all(h is not None and holder(board, h) == AXIS for h in hexes)


def check_naval_move(board: Board, uid: str, to: Hex, used_this_turn: bool = False) -> Illegal | None:
    """May ``uid`` sail from its port to the port ``to`` (12.1)?  One unit of at most two steps a
    turn per side, between ports its side holds in one sea, for the side with naval superiority
    there (``Board.naval``).  The caller checks the unit has not moved this phase and spends its MP."""
    grid = board.gmap.grid
    if used_this_turn:
        return Illegal("12.1", "one naval move a turn, already made")
    if uid not in board.hex_of or not board.is_formation(uid) or board.is_static(uid):
        return Illegal("12.1", f"{uid} is not a unit that can sail")
    side, here = board.side(uid), board.hex_of[uid]
    limit = board.tables.naval.max_steps
    if board.points(uid) > limit:
        return Illegal("12.1", f"{uid} has {board.points(uid)} steps: a naval move carries at most {limit}")
    sea = sea_of(board, here)
    if sea is None:
        return Illegal("12.1", f"{uid} is not in a port")
    if sea_of(board, to) != sea or to == here:
        return Illegal("12.1", f"{grid.id(to)} is not another port of the same sea")
    if board.naval.get(sea) != side:
        return Illegal("12.1", f"the {side} side does not rule the {sea.replace('_', ' ')}")
    if holder(board, to) != side or enemy_there(board, to, side):
        return Illegal("12.1", f"{grid.id(to)} is not a port the {side} side holds")
    return may_end(board, to) or check_hex(board, to, adding=[uid])


# ------------------------------------------------------------------------------------ the answer


@dataclass(frozen=True, eq=False)
class SupplyAnswer:
    """Every unit's supply in one position (8, 8.2), and what combat and retreat ask (SupplyView).

    ``status_of``: FULL (a full source or its rail), LIMITED (fed by a limited source, named in
    ``source_of``) or OUT, for every formation on the map.
    """

    board: Board
    rail: RailState | None
    status_of: Mapping[str, str]
    source_of: Mapping[str, Hex]
    full: Mapping[str, frozenset[Hex]]  # side -> full sources (8.2)
    limited: Mapping[str, Mapping[Hex, int]]  # side -> limited source -> steps it feeds (8.2)
    nets: Mapping[str, frozenset[Hex]]  # side -> rail carrying supply from a full source (8, 10.2)
    rail_of: Mapping[str, frozenset[Hex]] = field(default_factory=dict)  # side -> friendly rail (10.2)

    # -- SupplyView (combat.py) --------------------------------------------------------------
    def isolated(self, uid: str) -> bool:
        """Under an Isolated marker: the state judged in the last isolation phase (8, 8.1)."""
        return uid in self.board.isolated

    def sources(self, side: str) -> frozenset[Hex]:
        """The side's supply sources, full and limited (8.2): what a retreat heads for (6.1)."""
        return self.full.get(side, frozenset()) | frozenset(self.limited.get(side, {}))

    def controlled_rail(self, side: str, h: Hex) -> bool:
        """Is ``h`` rail of ``side`` with no enemy unit on it (10.2; 9.2, 12.12)?"""
        return h in self.rail_of.get(side, frozenset())

    # -- the rest ----------------------------------------------------------------------------
    def status(self, uid: str) -> str:
        return self.status_of.get(uid, FULL)

    def traced(self, uid: str) -> bool:
        """Can the unit trace a supply line now (8)?  Counters outside the supply rules can."""
        return self.status(uid) != OUT

    def out_of_supply(self, side: str) -> tuple[str, ...]:
        return tuple(sorted(u for u, s in self.status_of.items() if s == OUT and self.board.side(u) == side))


def _passable(board: Board, h: Hex, side: str) -> bool:
    """May a supply line (or supply by rail) pass through ``h`` (4, 8)?"""
    return not enemy_there(board, h, side) and not blocks(board, h, side, SUPPLY)


def _spread(seeds: Iterable[Hex], ok: frozenset[Hex], net: Mapping[Hex, tuple[Hex, ...]]) -> set[Hex]:
    seen = {s for s in seeds if s in ok}
    todo = deque(sorted(seen))
    while todo:
        h = todo.popleft()
        for n in net.get(h, ()):
            if n in ok and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _blocked(board: Board, side: str) -> frozenset[Hex]:
    """The hexes no supply line of ``side`` may pass (not ``_passable``), once per Board: only a hex
    with units or in an enemy zone can be one (4, 8)."""
    key = ("b41.supply.blocked", side)
    hit = board.memo.get(key)
    if hit is None:
        maybe = set(board.occupied()) | set(zone_map(board, other(side)))
        hit = board.memo[key] = frozenset(h for h in maybe if not _passable(board, h, side))
    return cast("frozenset[Hex]", hit)


def _steps(board: Board, side: str, mclass: str) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
    """Per Board, filled as lines are traced: for a hex, each neighbour a supply line of ``side``
    and ``mclass`` may enter next with the MP it costs (8: terrain by movement class, water as
    for moves).  Every trace of the position shares it, so each hexside is priced once."""
    key = ("b41.supply.steps", side, mclass)
    hit = board.memo.get(key)
    if hit is None:
        hit = board.memo[key] = {}
    return cast("dict[Hex, tuple[tuple[Hex, int], ...]]", hit)


def _steps_from(board: Board, h: Hex, side: str, mclass: str, steps: dict[Hex, tuple[tuple[Hex, int], ...]],
                blocked: frozenset[Hex]) -> tuple[tuple[Hex, int], ...]:
    got = steps.get(h)
    if got is None:
        out = []
        for n in board.gmap.neighbours(h):
            if n in blocked:
                continue
            c = enter_cost(board, h, n, mclass, side)
            if not isinstance(c, Illegal):
                out.append((n, c))
        got = steps[h] = tuple(out)
    return got


def _trace(board: Board, start: Hex, side: str, mclass: str, mp: int,
           targets: Container[Hex] | None = None) -> tuple[dict[Hex, int], bool]:
    """Dijkstra from ``start`` within ``mp`` (8).  With ``targets`` it stops at the first hex
    reached that is one: (the hexes so far, True); else (every hex reached with its cost, False)."""
    if targets is not None and start in targets:
        return {start: 0}, True
    steps, blocked = _steps(board, side, mclass), _blocked(board, side)
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > best[h]:
            continue
        for n, c in _steps_from(board, h, side, mclass, steps, blocked):
            nd = d + c
            if nd <= mp and nd < best.get(n, mp + 1):
                best[n] = nd
                if targets is not None and n in targets:
                    return best, True
                heapq.heappush(heap, (nd, n))
    return best, False


def _reach(board: Board, start: Hex, side: str, mclass: str, mp: int) -> dict[Hex, int]:
    """Hexes a supply line from ``start`` reaches within ``mp``, each with its cost (8)."""
    key = ("b41.supply.reach", start, side, mclass, mp)
    hit = board.memo.get(key)
    if hit is not None:
        return cast("dict[Hex, int]", hit)
    best, _ = _trace(board, start, side, mclass, mp)
    board.memo[key] = best
    return best


def traces_to(board: Board, start: Hex, side: str, mclass: str, mp: int, targets: Container[Hex]) -> bool:
    """Does a supply line from ``start`` within ``mp`` reach any hex of ``targets`` (8)?  The same
    answer as looking through ``_reach``, but the trace stops at the first such hex; when none is
    reached the whole reach was traced and is kept for ``_reach``."""
    hit = board.memo.get(("b41.supply.reach", start, side, mclass, mp))
    if hit is not None:
        return any(x in targets for x in cast("dict[Hex, int]", hit))
    best, found = _trace(board, start, side, mclass, mp, targets)
    if not found:
        board.memo[("b41.supply.reach", start, side, mclass, mp)] = best
    return found


def subject(board: Board, uid: str) -> bool:
    """Is the unit under the supply rules?  Formations only: never forts (so Sevastopol's fortress
    is always in supply, 8.2), the fleet, partisans or air corps."""
    return board.is_formation(uid)


def _sources(board: Board, rail: RailState | None) -> tuple[dict[str, frozenset[Hex]], dict[str, frozenset[Hex]],
                                                            frozenset[Hex], Hex | None]:
    """Full sources and supply nets of each side, the Axis net without Helsinki, and Helsinki (8.2)."""
    gmap, sup = board.gmap, board.tables.supply
    net = links(gmap)
    ok = {s: frozenset(h for h in friendly_rail(board, rail, s) if _passable(board, h, s)) for s in (AXIS, SOVIET)}
    # Axis (8.2): its cities it holds and the west-edge rail exits it may use
    cities = {h for h in (_city(board, n) for n in sup.axis_cities) if h is not None and holder(board, h) == AXIS}
    exits = {h for h in gmap.rail_exits if sup.axis_rail_edge in gmap.edges_of(h) and h in ok[AXIS]}
    helsinki = _city(board, sup.limited_city)
    axis_full = frozenset(cities | exits)
    axis_net = _spread(axis_full, ok[AXIS], net)
    rest = axis_full - {helsinki} if helsinki is not None else axis_full
    axis_rest = frozenset(_spread(rest, ok[AXIS], net)) | rest
    # Soviet (8.2): major cities it holds that friendly rail joins to an east-edge exit
    east = {h for h in gmap.rail_exits if sup.soviet_rail_edge in gmap.edges_of(h) and h in ok[SOVIET]}
    reached = _spread(east, ok[SOVIET], net)
    majors = frozenset(h for h in reached if gmap.settlement(h) == MAJOR and holder(board, h) == SOVIET)
    soviet_net = _spread(majors, ok[SOVIET], net)  # 8: only rail joined to such a city carries supply
    full = {AXIS: axis_full, SOVIET: majors}
    nets = {AXIS: frozenset(axis_net) | axis_full, SOVIET: frozenset(soviet_net) | majors}
    return full, nets, axis_rest, helsinki


def _limited(board: Board, full: Mapping[str, frozenset[Hex]],
             nets: Mapping[str, frozenset[Hex]]) -> dict[str, dict[Hex, int]]:
    """Limited sources of each side and the steps each feeds (8.2); a city that is also a port
    adds both."""
    sup, nav = board.tables.supply, board.tables.naval
    out: dict[str, dict[Hex, int]] = {AXIS: {}, SOVIET: {}}
    for name in sup.russian_major_cities:  # 8.2: a cut-off Russian major city
        h = _city(board, name)
        if h is not None and holder(board, h) == SOVIET and h not in full[SOVIET]:
            out[SOVIET][h] = out[SOVIET].get(h, 0) + nav.city_supply_steps
    for sea in sup.naval_seas:  # 8.2: a cut-off port of the side ruling its sea
        side = board.naval.get(sea)
        if side not in (AXIS, SOVIET):
            continue
        for h in sorted(ports(board, sea)):
            if holder(board, h) == side and h not in nets[side] and h not in full[side]:
                out[side][h] = out[side].get(h, 0) + nav.port_supply_steps
    return out


def supply(board: Board, rail: RailState | None = None) -> SupplyAnswer:
    """Every formation's supply in this position (8, 8.2), computed once per Board and rail state."""
    key = ("b41.supply", rail)
    hit = board.memo.get(key)
    if hit is not None:
        return cast(SupplyAnswer, hit)
    full, nets, axis_rest, _ = _sources(board, rail)
    limited = _limited(board, full, nets)
    finnish = board.tables.supply.limited_city_nation
    open_ = helsinki_open(board)
    status: dict[str, str] = {}
    wants: dict[str, dict[Hex, int]] = {}
    for uid in sorted(board.hex_of):
        if not subject(board, uid):
            continue
        side, h = board.side(uid), board.hex_of[uid]
        mclass, mp = board.movement_class(uid), movement_allowance(board, uid)
        if side == AXIS and not open_ and board.nation(uid) != finnish:
            targets = axis_rest  # 8.2: Helsinki feeds only Finns until the three cities fall
        else:
            targets = nets[side]
        if traces_to(board, h, side, mclass, mp, targets):
            status[uid] = FULL
            continue
        status[uid] = OUT
        reach = _reach(board, h, side, mclass, mp)  # traced whole by traces_to: kept in the memo
        near = {s: reach[s] for s in limited[side] if s in reach}
        if near:
            wants[uid] = near
    source_of: dict[str, Hex] = {}
    left = {s: dict(v) for s, v in limited.items()}
    order = sorted(wants, key=lambda u: (min(wants[u].values()), u))  # the nearest are fed first (ruling)
    for uid in order:
        need = board.points(uid)
        cap = left[board.side(uid)]
        for src in sorted(wants[uid], key=lambda s: (wants[uid][s], s)):
            if cap[src] >= need:
                cap[src] -= need
                status[uid], source_of[uid] = LIMITED, src
                break
    rail_of = {s: friendly_rail(board, rail, s) for s in (AXIS, SOVIET)}
    ans = SupplyAnswer(board, rail, status, source_of, full, limited, nets, rail_of)
    board.memo[key] = ans
    return ans


def hex_in_supply(board: Board, side: str, h: Hex, rail: RailState | None = None) -> bool:
    """Is the hex itself in supply for ``side`` (12.4's forts, 12.5's drop city)?  A foot unit
    with ``supply.hex_trace_mp`` MP (its weather applied) there could trace to a source or its
    rail, full or limited."""
    ans = supply(board, rail)
    eff = board.tables.weather.effects[board.weather(h)]
    mp = eff.mp_infantry or board.tables.supply.hex_trace_mp
    if enemy_there(board, h, side):
        return False
    return traces_to(board, h, side, INFANTRY, mp, _line_ends(ans, side))


def _line_ends(ans: SupplyAnswer, side: str) -> frozenset[Hex]:
    """The hexes a hex's supply line may end in (12.4): the side's supply net, full or limited."""
    key = ("b41.supply.line_ends", ans.rail, side)
    hit = ans.board.memo.get(key)
    if hit is None or hit[0] is not ans:
        hit = ans.board.memo[key] = (ans, ans.nets[side] | frozenset(ans.limited[side]))
    return cast("tuple[SupplyAnswer, frozenset[Hex]]", hit)[1]


# ------------------------------------------------------------------------------------ 8.1


def may_exploit(board: Board, uid: str) -> Illegal | None:
    """An isolated motorized unit has no exploitation move (8.1)."""
    if uid in board.isolated:
        return Illegal("8.1", f"{uid} is isolated: no exploitation move")
    return None


def die_modifier(board: Board, attackers: Iterable[str], defenders: Iterable[str]) -> int:
    """8.1's change to the attacker's die: -2 if an isolated unit attacks, +1 if one defends."""
    cm = board.tables.combat
    mod = cm.die_isolated_attacker if any(u in board.isolated for u in attackers) else 0
    return mod + (cm.die_isolated_defender if any(u in board.isolated for u in defenders) else 0)


def counts_on_loss_track(board: Board, uid: str) -> bool:
    """Does a step this unit loses advance its side's loss marker (9.2)?  Not if it carries an
    Isolated marker, is ringed by enemy zones, or is a kind the track leaves out."""
    if uid in board.isolated or board.udef(uid).type in board.tables.replacements.not_counted:
        return False
    h = board.hex_of.get(uid)
    return h is None or not surrounded(board, h, board.side(uid))


# ------------------------------------------------------------------------------------ isolation


@dataclass(frozen=True)
class Loss:
    """Steps one stack (or one unit, 14.3.5) must lose in the isolation phase."""

    hex: Hex
    candidates: tuple[str, ...]  # the units that may take it (the owner picks)
    default: str  # the pick when the owner is not asked: the unit with the most steps left
    steps: int
    case: str


@dataclass(frozen=True)
class IsolationResult:
    """What one side's isolation phase does (8, 8.1): a pure answer the rule system applies."""

    side: str
    marked: tuple[str, ...]  # out of supply now: they get an Isolated marker
    cleared: tuple[str, ...]  # marked, but traced again: the marker goes
    kept: tuple[str, ...]  # marked and still cut off: the marker stays
    losses: tuple[Loss, ...]


@dataclass(frozen=True)
class Applied:
    isolated: frozenset[str]  # the new Board.isolated
    lost: dict[str, int]  # the new Board.lost
    eliminated: tuple[str, ...]  # units with no step left: off the map (they do not count on 9.2's track)


def _steps_left(board: Board, uid: str) -> int:
    u = board.udef(uid)
    return len(u.steps) - board.step(uid) if bu.loss_steps(u) else 0


def _loss(board: Board, h: Hex, units: Iterable[str], steps: int, case: str) -> Loss | None:
    can = tuple(sorted(u for u in units if _steps_left(board, u) > 0))
    if not can or steps <= 0:
        return None
    pick = min(can, key=lambda u: (-_steps_left(board, u), u))
    return Loss(h, can, pick, steps, case)


def isolation_phase(board: Board, side: str, rail: RailState | None = None,
                    blitzkrieg: bool = False) -> IsolationResult:
    """The isolation phase of ``side`` (8, 8.1; 14.3.5 with ``blitzkrieg``), from turn 2."""
    ans = supply(board, rail)
    marked, cleared, kept = [], [], []
    for uid in sorted(board.hex_of):
        if board.side(uid) != side or not subject(board, uid):
            continue
        out = not ans.traced(uid)
        if uid in board.isolated:
            (kept if out else cleared).append(uid)
        elif out:
            marked.append(uid)
    sup = board.tables.supply
    losses: list[Loss] = []
    stacks: dict[Hex, list[str]] = {}
    for uid in kept:
        stacks.setdefault(board.hex_of[uid], []).append(uid)
    for h in sorted(stacks):  # 8.1: one step from each stack still cut off
        got = _loss(board, h, stacks[h], sup.isolation_loss_per_stack, "8.1")
        if got is not None:
            losses.append(got)
    if blitzkrieg and side == SOVIET:  # 14.3.5: newly cut-off units next to a supplied Panzer Corps
        for uid in marked:
            h = board.hex_of[uid]
            if board.weather(h) not in sup.blitzkrieg_weather:
                continue
            if any(board.udef(p).type == sup.blitzkrieg_type and board.side(p) == other(side)
                   and p not in board.isolated for n in board.gmap.neighbours(h) for p in board.at(n)):
                got = _loss(board, h, [uid], sup.blitzkrieg_loss, "14.3.5")
                if got is not None:
                    losses.append(got)
    return IsolationResult(side, tuple(marked), tuple(cleared), tuple(kept), tuple(losses))


def apply_isolation(board: Board, result: IsolationResult,
                    picks: Mapping[Hex, str] | None = None) -> Applied | Illegal:
    """The markers and step losses of ``result`` on ``board``; ``picks`` names, per stack, the unit
    that takes the step (default: ``Loss.default``)."""
    isolated = (set(board.isolated) - set(result.cleared)) | set(result.marked)
    lost = dict(board.lost)
    out: list[str] = []
    for loss in result.losses:
        uid = (picks or {}).get(loss.hex, loss.default)
        if uid not in loss.candidates:
            return Illegal(loss.case, f"{uid} cannot take the step lost in {board.gmap.grid.id(loss.hex)}: "
                                      f"choose one of {', '.join(loss.candidates)}")
        lost[uid] = lost.get(uid, 0) + loss.steps
        if lost[uid] >= len(board.udef(uid).steps):
            out.append(uid)
    isolated -= set(out)
    return Applied(frozenset(isolated), lost, tuple(sorted(set(out))))


__all__ = ["FULL", "LIMITED", "OUT", "SupplyAnswer", "supply", "holder", "helsinki_open", "naval_superiority",
           "ports", "sea_of", "fleet_mined", "check_naval_move", "hex_in_supply", "may_exploit", "die_modifier", "counts_on_loss_track", "Loss",
           "IsolationResult", "Applied", "isolation_phase", "apply_isolation", "subject"]
