"""Railways (10, 10.1, 10.2, 10.3, with 9.2 and 12.7): whose rail each hex is, rail markers and rail moves.

The rail net is the map's ``railroad`` hexsides.  Each side's friendly rail (10.2) starts as the
rail inside its own countries (the map's areas that belong to a side).  The Axis takes Soviet rail
over with its rail markers (10.3): at the end of its operations each marker may advance up to
three connected rail hexes, none in an uncancelled Soviet zone nor holding Soviet units, and the
hexes it passes become Axis rail (``RailState.taken``).  A short stretch between two forks (at most
three hexes) is Axis as long as a marker stands on each fork.  A marker whose rail has no Soviet
rail left beyond it is free: it may start its next advance from any Axis rail hex.  Soviet units
standing on taken rail win it back (``reclaim``).

A rail move (10.1) carries a stack along connected friendly rail, at most 20 hexes (a hex with a
partisan counts 4 for the Axis, 12.7), never through enemy units nor an enemy zone that no other
friendly formation cancels; the units must be in supply, and each step of them costs a rail
point (2 a turn for the Axis, 4 for the Soviets).  The move uses the units' whole MP: the rule
system records that.  5.4's strategic movement is not by rail: it is movement.py's extra MP.

Figures come from tables.toml ``[rail]``; rulings in docs/rulings.md, Barbarossa 1941, "Supply
and rail (the rule system)".
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Grid, Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.rules import Reach
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import may_end
from kiev_tui.games.barbarossa1941.zoc import friendly_present, in_enemy_zoc

if TYPE_CHECKING:
    from kiev_tui.games.barbarossa1941.supply import SupplyAnswer

RAILROAD = "railroad"
PARTISAN = "partisan"


# ------------------------------------------------------------------------------------ the state


@dataclass(frozen=True)
class RailState:
    """What the rail rules remember between actions: the Axis rail markers and the rail it took
    over (10.2, 10.3), and the rail points each side spent this turn (10).

    ``markers``: one entry per Axis rail marker, its hex or None while it is off the map.
    ``moved``: the markers already advanced in this rail-marker phase.
    """

    markers: tuple[Hex | None, ...] = ()
    taken: frozenset[Hex] = frozenset()
    used: tuple[tuple[str, int], ...] = ()
    moved: frozenset[int] = frozenset()

    def spent(self, side: str) -> int:
        """Rail points ``side`` has spent this turn (10)."""
        return dict(self.used).get(side, 0)

    def spend(self, side: str, points: int) -> "RailState":
        used = dict(self.used)
        used[side] = used.get(side, 0) + points
        return replace(self, used=tuple(sorted(used.items())))

    def new_turn(self) -> "RailState":
        """A new game-turn: rail points come back and every marker may advance again (10, 10.3)."""
        return replace(self, used=(), moved=frozenset())

    def new_marker_phase(self) -> "RailState":
        return replace(self, moved=frozenset())

    def to_dict(self, grid: Grid) -> dict[str, Any]:
        """A plain form for saves: hexes as the map prints them."""
        return {"markers": [grid.id(h) if h is not None else None for h in self.markers],
                "taken": sorted(grid.id(h) for h in self.taken),
                "used": {s: n for s, n in self.used},
                "moved": sorted(self.moved)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], grid: Grid) -> "RailState":
        markers = tuple(grid.parse(t) if t is not None else None for t in data.get("markers", []))
        taken = frozenset(grid.parse(t) for t in data.get("taken", []))
        used = tuple(sorted((str(s), int(n)) for s, n in dict(data.get("used", {})).items()))
        return cls(markers, taken, used, frozenset(int(i) for i in data.get("moved", [])))


# ------------------------------------------------------------------------------------ the net


def links(gmap: GameMap) -> dict[Hex, tuple[Hex, ...]]:
    """Each rail hex and the hexes a railroad hexside joins it to (computed once per map)."""
    hit = gmap.derived.get("b41.rail_links")
    if hit is None:
        acc: dict[Hex, set[Hex]] = {}
        for side, feats in gmap.features.items():
            if RAILROAD in feats:
                a, b = side.hexes()
                acc.setdefault(a, set()).add(b)
                acc.setdefault(b, set()).add(a)
        hit = {h: tuple(sorted(ns)) for h, ns in acc.items()}
        gmap.derived["b41.rail_links"] = hit
    return cast("dict[Hex, tuple[Hex, ...]]", hit)


def country_side(gmap: GameMap) -> dict[Hex, str]:
    """The side whose country each hex lies in (the map's areas that belong to a side), 10.2."""
    hit = gmap.derived.get("b41.country_side")
    if hit is None:
        hit = {h: a.side for a in gmap.areas.values() if a.side in (AXIS, SOVIET) for h in a.hexes}
        gmap.derived["b41.country_side"] = hit
    return cast("dict[Hex, str]", hit)


def home_rail(board: Board, side: str) -> frozenset[Hex]:
    """Rail hexes inside ``side``'s own countries: its friendly rail at the start (10.2)."""
    countries = country_side(board.gmap)
    return frozenset(h for h in links(board.gmap) if countries.get(h) == side)


def segments(gmap: GameMap) -> tuple[tuple[Hex, Hex, tuple[Hex, ...]], ...]:
    """Every stretch of rail between two forks: (fork, fork, the hexes between), 10.3."""
    hit = gmap.derived.get("b41.rail_segments")
    if hit is None:
        net = links(gmap)
        forks = {h for h, ns in net.items() if len(ns) >= 3}
        found: set[tuple[Hex, Hex, tuple[Hex, ...]]] = set()
        for f in forks:
            for first in net[f]:
                inner: list[Hex] = []
                prev, cur = f, first
                while cur not in forks and len(net[cur]) == 2:
                    inner.append(cur)
                    prev, cur = cur, next(n for n in net[cur] if n != prev)
                if cur in forks and cur != f:
                    a, b = sorted((f, cur))
                    found.add((a, b, tuple(inner if a == f else reversed(inner))))
        hit = tuple(sorted(found))
        gmap.derived["b41.rail_segments"] = hit
    return cast("tuple[tuple[Hex, Hex, tuple[Hex, ...]], ...]", hit)


def held_segments(board: Board, rail: RailState) -> frozenset[Hex]:
    """Soviet rail the Axis holds without passing over it: the hexes of a stretch of at most
    ``segment_max`` hexes between two forks that each hold a rail marker (10.3)."""
    on = {h for h in rail.markers if h is not None}
    limit = board.tables.rail.segment_max
    return frozenset(h for a, b, inner in segments(board.gmap)
                     if a in on and b in on and len(inner) <= limit for h in inner)


def _axis_claim(board: Board, rail: RailState) -> frozenset[Hex]:
    on = {h for h in rail.markers if h is not None}
    return home_rail(board, AXIS) | rail.taken | held_segments(board, rail) | on


def enemy_there(board: Board, h: Hex, side: str) -> bool:
    """Enemy units in ``h`` that stop a rail move or a supply line: any but partisans (12.7)."""
    return any(board.side(u) != side and board.udef(u).type != PARTISAN for u in board.at(h))


def owned(board: Board, rail: RailState | None, side: str) -> frozenset[Hex]:
    """The rail that belongs to ``side`` (10.2), before enemy units and zones are considered.

    Axis: its own countries' rail, what its markers took over and hold.  Soviet: the USSR's rail
    the Axis has not taken, and taken rail a Soviet unit stands on again.
    """
    st = rail or RailState()
    key = ("b41.rail_owned", st, side)
    hit = board.memo.get(key)
    if hit is not None:
        return cast("frozenset[Hex]", hit)
    claim = _axis_claim(board, st)
    if side == AXIS:
        out = frozenset(h for h in claim if not enemy_there(board, h, AXIS))
    else:
        soviet = home_rail(board, SOVIET)
        back = {h for h in claim & soviet if enemy_there(board, h, AXIS)}  # Soviet units on taken rail
        out = frozenset((soviet - claim) | back)
    board.memo[key] = out
    return out


def friendly_rail(board: Board, rail: RailState | None, side: str) -> frozenset[Hex]:
    """Friendly rail ``side`` may use now: its own rail without enemy units on it (10.2, 12.12, 9.2)."""
    return frozenset(h for h in owned(board, rail, side) if not enemy_there(board, h, side))


def reclaim(board: Board, rail: RailState) -> RailState:
    """Taken rail and markers where Soviet units now stand go back to the Soviets (10.2)."""
    lost = {h for h in rail.taken if enemy_there(board, h, AXIS)}
    markers = tuple(None if h is not None and enemy_there(board, h, AXIS) else h for h in rail.markers)
    if not lost and markers == rail.markers:
        return rail
    return replace(rail, taken=rail.taken - lost, markers=markers)


def initial_state(board: Board, marker_hexes: Sequence[Hex] = ()) -> RailState:
    """The rail state a scenario starts with (10.3, 17.1).

    Markers named by the scenario stand on their hexes, and the rail between each and the Axis
    supply sources is Axis: the fewest rail hexes back to a source, avoiding Soviet units and
    uncancelled Soviet zones.  The rest of the ``rail.axis_markers`` markers start off the map.
    """
    from kiev_tui.games.barbarossa1941.supply import axis_sources

    net = links(board.gmap)
    home = home_rail(board, AXIS)
    seeds = sorted(axis_sources(board))
    parent: dict[Hex, Hex | None] = {h: None for h in seeds}
    todo = deque(seeds)
    while todo:  # 10.2: breadth-first from the Axis supply sources
        h = todo.popleft()
        for n in net.get(h, ()):
            if n in parent or enemy_there(board, n, AXIS):
                continue
            if in_enemy_zoc(board, n, AXIS) and not friendly_present(board, n, AXIS):
                continue
            parent[n] = h
            todo.append(n)
    taken: set[Hex] = set()
    for m in marker_hexes:
        cur: Hex | None = m
        while cur is not None and cur not in home:
            taken.add(cur)
            cur = parent.get(cur)
    total = max(len(marker_hexes), board.tables.rail.axis_markers)
    markers = tuple(marker_hexes) + (None,) * (total - len(marker_hexes))
    return RailState(markers, frozenset(taken))


# ------------------------------------------------------------------------------------ markers


def is_free(board: Board, rail: RailState, index: int) -> bool:
    """A marker off the map, or one with no Soviet rail left next to it: it may start its next
    advance anywhere on Axis rail (10.3: markers freed when two stretches join)."""
    h = rail.markers[index]
    if h is None:
        return True
    claim = home_rail(board, AXIS) | rail.taken | {m for i, m in enumerate(rail.markers) if i != index and m}
    return all(n in claim for n in links(board.gmap).get(h, ()))


def check_marker_move(board: Board, rail: RailState, index: int, path: Sequence[Hex],
                      start: Hex | None = None) -> RailState | Illegal:
    """Advance Axis rail marker ``index`` along ``path`` (hexes entered, start excluded), 10.3.

    ``start``: where a free marker begins (any Axis rail hex); a marker that is not free starts
    on its own hex.  Gives the rail state after the advance.
    """
    grid = board.gmap.grid
    tab = board.tables.rail
    if not 0 <= index < len(rail.markers):
        return Illegal("10.3", f"there is no rail marker {index}")
    if index in rail.moved:
        return Illegal("10.3", "this rail marker has already advanced this turn")
    if not path:
        return Illegal("10.3", "the path is empty")
    if len(path) > tab.marker_advance:
        return Illegal("10.3", f"a rail marker advances at most {tab.marker_advance} rail hexes, not {len(path)}")
    here = rail.markers[index]
    if start is not None and start != here:
        if not is_free(board, rail, index):
            return Illegal("10.3", f"the marker on {grid.id(here) if here else '?'} is not free: it advances "
                                   "from its own hex")
        if start not in owned(board, rail, AXIS):
            return Illegal("10.3", f"{grid.id(start)} is not Axis rail: a freed marker starts on Axis rail")
        here = start
    if here is None:
        return Illegal("10.3", "this marker is off the map: say on which Axis rail hex it starts")
    net = links(board.gmap)
    prev = here
    for h in path:
        where = grid.id(h)
        if h not in net.get(prev, ()):
            return Illegal("10.3", f"no railroad joins {grid.id(prev)} to {where}")
        if enemy_there(board, h, AXIS):
            return Illegal("10.3", f"{where} holds Soviet units")
        if in_enemy_zoc(board, h, AXIS) and not friendly_present(board, h, AXIS):
            return Illegal("10.3", f"{where} is in a Soviet zone of control")  # 10.3, cancelled by 4
        prev = h
    soviet = home_rail(board, SOVIET)
    markers = list(rail.markers)
    markers[index] = path[-1]
    return replace(rail, markers=tuple(markers), taken=rail.taken | {h for h in path if h in soviet},
                   moved=rail.moved | {index})


# ------------------------------------------------------------------------------------ rail moves


def rail_points(board: Board, units: Sequence[str]) -> int:
    """Rail points to carry these units: one per step, at least one per unit (10.1)."""
    tab = board.tables.rail
    return sum(max(tab.min_points_per_unit, board.points(u) * tab.points_per_step) for u in units)


def hex_length(board: Board, h: Hex, side: str) -> int:
    """How many of the 20 rail hexes entering ``h`` uses: 4 with a partisan there (12.7)."""
    tab = board.tables.rail
    if side == tab.partisan_slows and any(board.udef(u).type == PARTISAN for u in board.at(h)):
        return tab.partisan_hex_cost
    return 1


def _zoc_blocks(board: Board, h: Hex, side: str, movers: Sequence[str]) -> bool:
    """An enemy zone in ``h`` stops a rail move unless a friendly formation that is not moving
    stands there (4, 10.1)."""
    if not in_enemy_zoc(board, h, side):
        return False
    return not any(board.side(u) == side and board.is_formation(u) and u not in movers for u in board.at(h))


def _stack(board: Board, rail: RailState | None, units: Sequence[str],
           supply: "SupplyAnswer | None") -> tuple[Hex, str, int] | Illegal:
    """The stack about to move by rail, its side and the rail points it needs, or why not (10, 10.1)."""
    if not units:
        return Illegal("10.1", "choose at least one unit to move by rail")
    if len(set(units)) != len(units):
        return Illegal("10.1", "a unit is listed twice")
    starts = set()
    for uid in units:
        if uid not in board.hex_of:
            return Illegal("10.1", f"{uid} is not on the map")
        starts.add(board.hex_of[uid])
    if len(starts) != 1:
        return Illegal("10.1", "units moving together by rail start in the same hex")
    start = starts.pop()
    side = board.side(units[0])
    if any(board.side(u) != side for u in units):
        return Illegal("10.1", "units of both sides cannot move together")
    tab = board.tables.rail
    first = tab.axis_from_turn if side == AXIS else tab.soviet_from_turn
    if board.turn < first:  # 2.1: the Axis moves by rail from turn 2
        return Illegal("2.1" if side == AXIS else "2.2", f"no {side} rail movement before turn {first}")
    if supply is None:
        from kiev_tui.games.barbarossa1941.supply import supply as compute

        supply = compute(board, rail)
    for uid in units:
        if board.is_static(uid) or not board.is_formation(uid):
            return Illegal("10.1", f"{uid} never moves")
        if supply.isolated(uid) or not supply.traced(uid):
            return Illegal("10.1", f"{uid} is out of supply: only units in supply move by rail")
    grid = board.gmap.grid
    if start not in friendly_rail(board, rail, side):
        return Illegal("10.1", f"{grid.id(start)} is not on {side} rail")
    if _zoc_blocks(board, start, side, units):
        return Illegal("10.1", f"{grid.id(start)} is in an enemy zone of control that no other friendly unit "
                               "cancels")
    need = rail_points(board, units)
    points = tab.axis_points if side == AXIS else tab.soviet_points
    left = points - (rail or RailState()).spent(side)
    if need > left:
        return Illegal("10", f"the move needs {need} rail points and {left} of this turn's {points} are left")
    return start, side, need


def check_rail_move(board: Board, rail: RailState | None, units: Sequence[str], path: Sequence[Hex],
                    supply: "SupplyAnswer | None" = None) -> int | Illegal:
    """Rail points a rail move along ``path`` (hexes entered, start excluded) costs, or why it is
    refused (10, 10.1, 10.2, 12.7).  The caller records the points (``RailState.spend``) and that
    the units have used their whole MP."""
    got = _stack(board, rail, units, supply)
    if isinstance(got, Illegal):
        return got
    start, side, need = got
    grid = board.gmap.grid
    if not path:
        return Illegal("10.1", "the path is empty")
    ours = friendly_rail(board, rail, side)
    net = links(board.gmap)
    tab = board.tables.rail
    length, prev = 0, start
    for h in path:
        where = grid.id(h)
        if h not in net.get(prev, ()):
            return Illegal("10.1", f"no railroad joins {grid.id(prev)} to {where}")
        if enemy_there(board, h, side):
            return Illegal("10.1", f"{where} holds enemy units")
        if h not in ours:
            return Illegal("10.2", f"{where} is not {side} rail")
        if _zoc_blocks(board, h, side, units):
            return Illegal("10.1", f"{where} is in an enemy zone of control that no friendly unit cancels")
        length += hex_length(board, h, side)
        prev = h
    if length > tab.max_hexes:
        return Illegal("10.1", f"the move covers {length} rail hexes (partisans count {tab.partisan_hex_cost}), "
                               f"more than {tab.max_hexes}")
    bad = may_end(board, path[-1]) or check_hex(board, path[-1], adding=units)
    if bad is not None:
        return bad
    return need


def rail_reachable(board: Board, rail: RailState | None, units: Sequence[str],
                   supply: "SupplyAnswer | None" = None) -> dict[Hex, Reach] | Illegal:
    """Every hex the stack may end a rail move in, with the rail hexes used and the path; or why
    the stack may not move by rail at all (10.1).  Each offered path passes ``check_rail_move``."""
    got = _stack(board, rail, units, supply)
    if isinstance(got, Illegal):
        return got
    start, side, _ = got
    ours = friendly_rail(board, rail, side)
    net = links(board.gmap)
    limit = board.tables.rail.max_hexes
    best: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex] = {}
    heap = [(0, start)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > best.get(h, limit + 1):
            continue
        for n in net.get(h, ()):
            if n not in ours or enemy_there(board, n, side) or _zoc_blocks(board, n, side, units):
                continue
            nd = d + hex_length(board, n, side)
            if nd <= limit and nd < best.get(n, limit + 1):
                best[n], parent[n] = nd, h
                heapq.heappush(heap, (nd, n))
    grid = board.gmap.grid
    out: dict[Hex, Reach] = {}
    for h, d in best.items():
        if h == start or may_end(board, h) is not None or check_hex(board, h, adding=units) is not None:
            continue
        path: list[str] = []
        cur = h
        while cur != start:
            path.append(grid.id(cur))
            cur = parent[cur]
        out[h] = Reach(d, tuple(reversed(path)))
    return out


def rail_hexes_from_border(board: Board, rail: RailState | None, h: Hex) -> int | None:
    """How many Axis rail hexes lie between the Axis countries and ``h`` (9.2's 20-hex limit for
    German replacements; a partisan hex counts 4, 12.7); None if no Axis rail leads there."""
    home = home_rail(board, AXIS)
    ours = friendly_rail(board, rail, AXIS)
    if h not in ours:
        return None
    net = links(board.gmap)
    best = {s: 0 for s in home if s in ours}
    heap = [(0, s) for s in sorted(best)]
    while heap:
        d, x = heapq.heappop(heap)
        if x == h:
            return d
        if d > best[x]:
            continue
        for n in net.get(x, ()):
            if n in ours:
                nd = d + hex_length(board, n, AXIS)
                if nd < best.get(n, 10 ** 6):
                    best[n] = nd
                    heapq.heappush(heap, (nd, n))
    return None


__all__ = ["RailState", "links", "home_rail", "owned", "friendly_rail", "reclaim", "initial_state", "is_free",
           "check_marker_move", "rail_points", "check_rail_move", "rail_reachable", "rail_hexes_from_border",
           "held_segments", "segments", "enemy_there", "country_side"]
