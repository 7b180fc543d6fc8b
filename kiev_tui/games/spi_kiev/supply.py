"""Supply and command: lines of supply (12.1, 19.8) and lines of communications (11.3)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from operator import is_
from typing import TYPE_CHECKING, cast

from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap

from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View, _kept, enemy_of

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True, slots=True)
class SupplyStatus:
    """One unit's supply and command standing at this instant."""

    in_supply: bool
    in_command: bool  # Soviet: a line of communications reaches some HQ (9.15, 11.33)
    hq: str | None = None  # the HQ it traces to (Soviet)
    why: str = ""  # one line, with the case, when out of supply

    @property
    def label(self) -> str:
        if self.in_supply:
            return f"in supply via {self.hq}" if self.hq else "in supply"
        return "OUT OF SUPPLY"


#: The statuses given so far, each made once: a phase start judges every unit of a side, and
#: most share one of a few answers (the status is immutable, so sharing is safe).
_STATUSES: dict[tuple[bool, bool, str | None, str], SupplyStatus] = {}


def _status(in_supply: bool, in_command: bool, hq: str | None, why: str) -> SupplyStatus:
    key = (in_supply, in_command, hq, why)
    got = _STATUSES.get(key)
    if got is None:
        if len(_STATUSES) >= 4096:  # pragma: no mutate: a bound on a cache
            _STATUSES.clear()
        got = _STATUSES[key] = SupplyStatus(in_supply, in_command, hq, why)
    return got


def supply_sources(view: View, side: str) -> list[Hex]:
    """Map-edge road (and, for the Soviets, rail) exits that feed a side (19.82, 19.84)."""
    exits = _source_exits(view.map)[side]
    if side == GERMAN:
        return [h for h in exits if not view.occupied_by(h, SOVIET)]
    # 19.84: a source stops feeding once the Germans control it.
    return [h for h in exits if not (view.occupied_by(h, GERMAN) or view.enemy_controlled_for_tracing(h, SOVIET))]


def _source_exits(gmap: "GameMap") -> dict[str, tuple[Hex, ...]]:
    """The exits that may feed each side, in hex order: which of them feed now depends on the
    units alone (``supply_sources``).  Worked out again only when the map's exits or areas K-N
    are other objects (all of them immutable), as when a test edits its map."""
    key = (gmap.road_exits, gmap.rail_exits, *(gmap.areas.get(a) for a in ("K", "L", "M", "N")))
    cached = gmap.derived.get("supply_exits")  # pragma: no mutate: memo key only
    if cached is None or len(cached[0]) != len(key) or not all(map(is_, cached[0], key)):
        area_n = gmap.areas.get("N")
        # 19.82: German road exits on the north, west and south edges, area N's excepted.
        german = tuple(h for h in sorted(gmap.road_exits) if gmap.edges_of(h) & {"north", "west", "south"}
                       and not (area_n is not None and h in area_n.hexes))
        # 19.84: road or rail exits in areas K-N (the east side, N at its corner).
        areas = [gmap.areas[a] for a in ("K", "L", "M", "N") if a in gmap.areas]
        soviet = tuple(h for h in sorted(gmap.road_exits | gmap.rail_exits) if any(h in a.hexes for a in areas))
        cached = gmap.derived["supply_exits"] = (key, {GERMAN: german, SOVIET: soviet})  # pragma: no mutate: memo
    return cast("dict[str, tuple[Hex, ...]]", cached[1])


def supply_links(gmap: "GameMap") -> dict[Hex, list[tuple[Hex, tuple[str, str] | None]]]:
    """The map's static supply graph, built once per map.

    Each link carries None when always open, or the two hex ids whose friendly city would
    open an unbridged major-river crossing (10.15).  Lakes are never linked (10.16).
    """
    cached = gmap.derived.get("supply_links")  # pragma: no mutate: memo key only
    if cached is not None:
        return cast("dict[Hex, list[tuple[Hex, tuple[str, str] | None]]]", cached)
    out: dict[Hex, list[tuple[Hex, tuple[str, str] | None]]] = {}
    # one (hex, None) per hex, shared by the links of its neighbours: 6,700 tuples fewer (issue 33)
    open_to: dict[Hex, tuple[Hex, None]] = {}
    for h in gmap.hexes():
        lst: list[tuple[Hex, tuple[str, str] | None]] = []
        for n in gmap.neighbours(h):
            if gmap.is_impassable_side(h, n):
                continue
            if gmap.has(h, n, "major_river") and not (gmap.has(h, n, "road") or gmap.has(h, n, "railroad")):
                cities = tuple(str(x) if gmap.settlement(x) == "city" else "" for x in (h, n))
                if not any(cities):
                    continue
                lst.append((n, (cities[0], cities[1])))
            else:
                link = open_to.get(n)
                if link is None:
                    link = open_to[n] = (n, None)
                lst.append(link)
        out[h] = lst
    gmap.derived["supply_links"] = out  # pragma: no mutate: memo key only
    gmap.derived["swamps"] = frozenset(h for h in gmap.hexes() if gmap.terrain(h) == "swamp")
    return out


def swamp_hexes(gmap: "GameMap") -> frozenset[Hex]:
    if "swamps" not in gmap.derived:  # a ready-built map keeps the swamps without the links (issue 33)
        supply_links(gmap)
    return cast("frozenset[Hex]", gmap.derived["swamps"])


def closed_to(view: View, side: str) -> frozenset[Hex]:
    """Hexes no line of a side enters: enemy units, and the enemy's blocking zone where no
    friend stands (12.1 and 11.31; 8.25: a friend in a hex opens it).

    Worked out once per placement (it reads the stacks and their zones only): the views of an
    action and of the next one's check share it (issue 33)."""
    memo = view.placement_memo()
    key = "closed " + side  # pragma: no mutate: memo key only
    got = memo.get(key)
    if got is None:
        stacks = _stack_hexes(view)
        got = memo[key] = frozenset((view.side_zones(enemy_of(side))[1] | stacks[enemy_of(side)]) - stacks[side])
    return cast("frozenset[Hex]", got)


def _stack_hexes(view: View) -> dict[str, frozenset[Hex]]:
    """The hexes each side's stacks stand in, once per placement."""
    memo = view.placement_memo()
    got = memo.get("stack hexes")  # pragma: no mutate: memo key only
    if got is None:
        side_of = view.side
        german: set[Hex] = set()
        soviet: set[Hex] = set()
        for h, ids in view.occupancy.items():
            (german if side_of(ids[0]) == GERMAN else soviet).add(h)
        got = memo["stack hexes"] = {GERMAN: frozenset(german), SOVIET: frozenset(soviet)}
    return cast("dict[str, frozenset[Hex]]", got)


def closed_bits(view: View, side: str) -> int:
    """``closed_to`` as a bit set (SupplyBits' numbering), once per placement: the bits of the
    enemy's blocking zone and stacks, less those of the side's own stacks (the same hexes as
    ``closed_to``'s, set by set).  A zone the enemy's units have not changed is the same object
    placement after placement, and its bits are kept with it."""
    memo = view.placement_memo()
    key = "closed bits " + side  # pragma: no mutate: memo key only
    got = memo.get(key)
    if got is None:
        graph = supply_bits(view.map)
        stacks = _stack_hexes(view)
        zone = graph.zone_bits(view.side_zones(enemy_of(side))[1])
        got = memo[key] = (zone | graph.bits(stacks[enemy_of(side)])) & ~graph.bits(stacks[side])
    return cast(int, got)


def loc_links(gmap: "GameMap") -> dict[Hex, tuple[Hex, ...]]:
    """For each hex, the neighbours a line of communications may step to (no impassable
    hexside, no lake: Kiev's lake hexes and hexsides are impassable, 10.16), in the map's
    neighbour order; built once per map."""
    cached = gmap.derived.get("loc_links")  # pragma: no mutate: memo key only
    if cached is None:
        cached = {h: _kept(gmap.neighbours(h),
                           tuple(n for n in gmap.neighbours(h) if not gmap.is_impassable_side(h, n)))
                  for h in gmap.hexes()}
        gmap.derived["loc_links"] = cached  # pragma: no mutate: memo key only
    return cast("dict[Hex, tuple[Hex, ...]]", cached)


class SupplyBits:
    """The supply graph with each hex as one bit of a Python int, built once per map.

    A hex's bit is col * stride + row, so every link from a hex to a neighbour is a shift by one
    of a few distances; ``moves`` holds, per distance, the hexes whose link that way is always
    open, and a whole ring of the flood advances in a dozen integer operations.
    """

    def __init__(self, gmap: "GameMap") -> None:
        links = supply_links(gmap)
        stride = max(h.row for h in links) + 2
        self.index: dict[Hex, int] = {h: h.col * stride + h.row for h in links}
        index = self.index
        masks: dict[int, int] = {}
        crossings: list[tuple[int, int, str, str]] = []
        for h, lst in links.items():
            for n, city_only in lst:
                if city_only is None:
                    d = index[n] - index[h]
                    masks[d] = masks.get(d, 0) | 1 << index[h]
                else:
                    crossings.append((1 << index[h], 1 << index[n], city_only[0], city_only[1]))
        self.moves: tuple[tuple[int, int], ...] = tuple(sorted(masks.items()))
        self.crossings = tuple(crossings)
        self.swamp = self.bits(swamp_hexes(gmap))
        #: the bits of the last zones asked about, by the zone's id (kept with the zone itself,
        #: so an id is never that of another set)
        self._zones: dict[int, tuple[frozenset[Hex], int]] = {}
        #: the hexes of the last floods, by their inputs (sources, closed hexes, open crossings)
        self.floods: dict[tuple[int, int, tuple[tuple[int, int], ...]], int] = {}

    def zone_bits(self, zone: frozenset[Hex]) -> int:
        """``bits(zone)``, kept for the last few zones (zones are immutable sets)."""
        kept = self._zones.get(id(zone))
        if kept is not None and kept[0] is zone:
            return kept[1]
        if len(self._zones) >= 16:  # pragma: no mutate: a bound on a cache
            self._zones.clear()
        got = self.bits(zone)
        self._zones[id(zone)] = (zone, got)
        return got

    def bits(self, hexes: "Iterable[Hex]") -> int:
        index = self.index
        out = 0
        for h in hexes:
            i = index.get(h)
            if i is not None:
                out |= 1 << i
        return out


def supply_bits(gmap: "GameMap") -> SupplyBits:
    cached = gmap.derived.get("supply_bits")  # pragma: no mutate: memo key only
    if cached is None:
        cached = gmap.derived["supply_bits"] = SupplyBits(gmap)
    return cast(SupplyBits, cached)


def flood_bits(g: SupplyBits, sources: int, closed: int, crossings: tuple[tuple[int, int], ...]) -> int:
    """The hexes a side's lines reach from ``sources`` on the bit sets of ``g``, through none of
    ``closed``, crossing an unbridged major river only by ``crossings`` (10.15)."""
    reached = ring = sources  # sources spread even from a swamp
    shut = reached | closed
    swamp = g.swamp
    while ring:
        nxt = 0
        for d, mask in g.moves:
            x = ring & mask
            if x:
                nxt |= x << d if d > 0 else x >> -d
        for hb, nb in crossings:
            if ring & hb:
                nxt |= nb
        nxt &= ~shut
        shut |= nxt
        reached |= nxt
        ring = nxt & ~swamp  # 12.11: a line may end in a swamp but not pass through one
    return reached


class LocBits:
    """``loc_links`` as shifts on bit sets numbered as SupplyBits numbers hexes: a line of
    communications grows a ring at a time (11.31), in a few integer operations per ring."""

    def __init__(self, gmap: "GameMap") -> None:
        index = supply_bits(gmap).index
        masks: dict[int, int] = {}
        for h, near in loc_links(gmap).items():
            for n in near:
                d = index[n] - index[h]
                masks[d] = masks.get(d, 0) | 1 << index[h]
        self.index = index
        self.moves: tuple[tuple[int, int], ...] = tuple(sorted(masks.items()))

    def reach(self, start: Hex, radius: int, closed: int) -> int:
        """The hexes within ``radius`` steps of ``start`` by links that avoid ``closed``
        (``start`` itself always): the same hexes as the breadth-first search of _loc_reach."""
        reached = ring = 1 << self.index[start]
        shut = reached | closed
        for _ in range(radius):
            nxt = 0
            for d, mask in self.moves:
                x = ring & mask
                if x:
                    nxt |= x << d if d > 0 else x >> -d
            nxt &= ~shut
            if not nxt:
                break
            shut |= nxt
            reached |= nxt
            ring = nxt
        return reached


def loc_bits(gmap: "GameMap") -> LocBits:
    cached = gmap.derived.get("loc_bits")  # pragma: no mutate: memo key only
    if cached is None:
        cached = gmap.derived["loc_bits"] = LocBits(gmap)
    return cast(LocBits, cached)


class SupplyMap:
    """Which hexes can trace a line of supply for a side, computed once per position.

    ``reaches`` comes from a flood a ring at a time on bit sets (replay floods at every phase
    start); the breadth-first tree that ``path`` walks is grown only when a line is drawn.
    """

    def __init__(self, view: View, side: str) -> None:
        self.view = view
        self.side = side
        self.sources = supply_sources(view, side)
        self._graph = supply_bits(view.map)
        self.reached = self._flood()

    def _closed(self) -> frozenset[Hex]:
        return closed_to(self.view, self.side)

    def _flood(self) -> int:
        g = self._graph
        control = self.view.state.control
        side = self.side
        sources = g.bits(self.sources)
        closed = closed_bits(self.view, side)
        # 10.15: an unbridged major river, crossed only at a friendly city (the crossings open
        # to the side are the same all through one flood)
        crossings = tuple((hb, nb) for hb, nb, a, b in g.crossings if control.get(a) == side or control.get(b) == side)
        # The flood depends on these alone (and the map): the same inputs as an earlier flood,
        # as when a battle or a move changed nothing near this side's lines, give its hexes.
        key = (sources, closed, crossings)
        kept = g.floods.get(key)
        if kept is not None:
            return kept
        reached = flood_bits(g, sources, closed, crossings)
        if len(g.floods) >= 32:  # pragma: no mutate: a bound on a cache
            g.floods.clear()
        g.floods[key] = reached
        return reached

    @cached_property
    def parent(self) -> dict[Hex, Hex | None]:
        """The breadth-first tree of the flood (each hex -> the hex its line comes from)."""
        v = self.view
        links = supply_links(v.map)
        closed = self._closed()
        control = v.state.control
        swamp = swamp_hexes(v.map)
        parent: dict[Hex, Hex | None] = {}
        q: deque[Hex] = deque()
        for src in self.sources:
            parent[src] = None
            q.append(src)
        while q:
            h = q.popleft()
            # 12.11: a line may end in a swamp but not pass through one (sources excepted).
            if h in swamp and parent[h] is not None:
                continue
            for n, city_only in links[h]:
                if n in parent:
                    continue
                if city_only is not None and control.get(city_only[0]) != self.side \
                        and control.get(city_only[1]) != self.side:
                    continue  # 10.15: an unbridged major river, crossed only at a friendly city
                if n in closed:
                    continue
                parent[n] = h
                q.append(n)
        return parent

    def reaches(self, h: Hex) -> bool:
        i = self._graph.index.get(h)
        return i is not None and (self.reached >> i) & 1 == 1

    def path(self, h: Hex) -> list[Hex]:
        out: list[Hex] = []
        cur: Hex | None = h if self.reaches(h) else None
        while cur is not None:
            out.append(cur)
            cur = self.parent[cur]
        return out


class _Lines(dict):  # type: ignore[type-arg]
    """Each side's supply flood, run only when that side is first asked about."""

    def __init__(self, view: View) -> None:
        super().__init__()
        self.view = view

    def __missing__(self, side: str) -> SupplyMap:
        flood = SupplyMap(self.view, side)
        self[side] = flood
        return flood


class Supply:
    """Supply and command status of every unit of both sides for one position."""

    def __init__(self, view: View) -> None:
        self.view = view

    @cached_property
    def lines(self) -> "_Lines":
        return _Lines(self.view)

    def _loc_reach(self, hq: str) -> dict[Hex, int]:
        """Hexes within an HQ's command radius by a legal line of communications (11.31)."""
        v = self.view
        start = v.hex_of(hq)
        if start is None:
            return {}
        radius = v.udef(hq).leadership
        links = loc_links(v.map)
        # 11.31: not through enemy units, nor enemy-controlled hexes without a friend there.
        closed = self._soviet_closed
        dist = {start: 0}
        q: deque[Hex] = deque([start])
        while q:
            h = q.popleft()
            far = dist[h]
            if far >= radius:
                continue
            for n in links[h]:
                if n in dist or n in closed:
                    continue
                dist[n] = far + 1
                q.append(n)
        return dist

    @cached_property
    def _soviet_closed(self) -> frozenset[Hex]:
        return closed_to(self.view, SOVIET)

    def trace(self, uid: str) -> list[Hex]:
        """The line a unit's supply follows, from the unit to its source (through its HQ for
        Soviet units after turn 1); empty if it is out of supply."""
        v = self.view
        h = v.hex_of(uid)
        st = self.status(uid)
        if h is None or not st.in_supply:
            return []
        side = v.side(uid)
        if side == GERMAN or v.state.turn == 1 or v.catalog.units[uid].hq or st.hq is None:
            return self.lines[side].path(h)
        hq_hex = v.hex_of(st.hq)
        assert hq_hex is not None
        dist = self._loc_all[st.hq]
        path = [h]
        cur = h
        while cur != hq_hex:  # walk down the distances back to the HQ
            cur = next(n for n in v.map.neighbours(cur) if dist.get(n) == dist[cur] - 1)
            path.append(cur)
        return path + self.lines[SOVIET].path(hq_hex)[1:]

    @cached_property
    def soviet_hqs(self) -> list[str]:
        v = self.view
        return sorted(u.id for u in v.state.on_map() if v.catalog.units[u.id].hq and v.side(u.id) == SOVIET)

    @cached_property
    def command(self) -> dict[Hex, list[tuple[str, bool]]]:
        """For each hex, the HQs whose line of communications reaches it, and whether each is supplied."""
        out: dict[Hex, list[tuple[str, bool]]] = {}
        line = self.lines[SOVIET]
        for hq in self.soviet_hqs:
            h = self.view.hex_of(hq)
            supplied = h is not None and line.reaches(h)
            for n in self._loc_all[hq]:
                out.setdefault(n, []).append((hq, supplied))
        return out

    def command_at(self, h: Hex) -> list[tuple[str, bool]]:
        """``command.get(h, [])`` for one hex, without working out every HQ's reach into every hex:
        a phase start asks about the hexes its units stand in, a small part of the HQs' reach."""
        if "command" in self.__dict__:
            return self.command.get(h, [])
        got = self._command_at.get(h)
        if got is None:
            i = loc_bits(self.view.map).index.get(h)
            # 11.31: a line of communications steps from hex to adjacent hex, so an HQ farther
            # away than its radius as the crow flies cannot reach h: its reach is not worked out.
            got = self._command_at[h] = [] if i is None else [
                (hq, self._hq_supplied(hq)) for hq, start, radius in self._hq_places
                if start.distance(h) <= radius and self._loc_bits(hq) >> i & 1]
        return got

    @cached_property
    def _hq_places(self) -> list[tuple[str, Hex, int]]:
        """Each Soviet HQ on the map with its hex and command radius, in ``soviet_hqs`` order."""
        v = self.view
        out: list[tuple[str, Hex, int]] = []
        for hq in self.soviet_hqs:
            start = v.hex_of(hq)
            if start is not None:
                out.append((hq, start, v.udef(hq).leadership))
        return out

    def _loc_bits(self, hq: str) -> int:
        """The HQ's ``_loc_reach`` as a bit set (what command_at asks: is a hex in it), once."""
        got = self._loc_bits_of.get(hq)
        if got is None:
            v = self.view
            graph = loc_bits(v.map)
            start = v.hex_of(hq)
            got = self._loc_bits_of[hq] = 0 if start is None or start not in graph.index else \
                graph.reach(start, v.udef(hq).leadership, closed_bits(v, SOVIET))
        return got

    @cached_property
    def _loc_bits_of(self) -> dict[str, int]:
        return {}

    @cached_property
    def _loc_bits_all(self) -> dict[str, int]:
        """Each Soviet HQ's ``_loc_reach`` as a bit set."""
        return {hq: self._loc_bits(hq) for hq in self.soviet_hqs}

    @cached_property
    def _command_at(self) -> dict[Hex, list[tuple[str, bool]]]:
        return {}

    def _hq_supplied(self, hq: str) -> bool:
        h = self.view.hex_of(hq)
        return h is not None and self.lines[SOVIET].reaches(h)

    def status(self, uid: str) -> SupplyStatus:
        v = self.view
        h = v.hex_of(uid)
        side = v.side(uid)
        if h is None:
            return _status(True, True, None, "")
        d = v.catalog.units[uid]
        # 9.15, 11.33: a Soviet combat unit attacks only within an HQ's line of communications.
        # 15.0 and 19.85 waive supply, never this, so it is judged before either applies.
        reach = [] if side == GERMAN or d.hq else self.command_at(h)
        in_command = side == GERMAN or d.hq or bool(reach)
        commander = reach[0][0] if reach else None
        if str(uid) in v.vars.entered:
            return _status(True, in_command, commander, "")  # 15.0: in supply on the turn of arrival
        if side == GERMAN:
            ok = self.lines[GERMAN].reaches(h)
            return _status(ok, True, None, "" if ok else "19.82: no line of supply to a north, west or south road exit")
        if v.state.turn == 1:
            # 19.85: on turn 1 Soviet lines run straight to a source, any length, no HQ needed.
            ok = self.lines[SOVIET].reaches(h)
            return _status(ok, in_command, commander, "" if ok else "19.85: cut off from every eastern supply source")
        if d.hq:
            ok = self.lines[SOVIET].reaches(h)
            return _status(ok, True, uid if ok else None,
                                "" if ok else "19.83: the HQ has no line of supply to an eastern source")
        # 8.25: the unit's own hex holds a friendly unit, so zones there never cut the line.
        supplied = [hq for hq, s in reach if s]
        if supplied:
            return _status(True, True, supplied[0], "")
        if reach:
            return _status(False, True, reach[0][0], "11.34: its HQ is itself out of supply")
        return _status(False, False, None, "11.34: no HQ within command radius")

    @cached_property
    def _loc_all(self) -> dict[str, dict[Hex, int]]:
        return {hq: self._loc_reach(hq) for hq in self.soviet_hqs}

    def all_status(self, side: str) -> dict[str, SupplyStatus]:
        return {u.id: self.status(u.id) for u in self.view.state.on_map() if self.view.side(u.id) == side}
