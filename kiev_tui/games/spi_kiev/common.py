"""Shared vocabulary of the SPI Kiev rule system: sides, unit classes, a cached view of the state."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from itertools import compress
from operator import attrgetter, ne, or_
from typing import TYPE_CHECKING, Any, cast

from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.units import WRITES, UnitDef
from kiev_tui.games.spi_kiev.state import KievVars, kiev_vars
from kiev_tui.games.spi_kiev.untried import UNTRIED
from kiev_tui.later import later

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.state import GameState
    from kiev_tui.engine.units import UnitState
    from kiev_tui.games.spi_kiev.supply import Supply

GERMAN = "german"
SOVIET = "soviet"

MOVEMENT = "movement"
COMBAT = "combat"
MECHANIZED = "mechanized"


def _kept(whole: tuple[Hex, ...], part: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """``part`` of a hex's neighbours, or the map's own tuple of them when nothing was left out
    (one tuple a hex kept, not one more per table: issue 33)."""
    return whole if len(part) == len(whole) else part


def zoc_reach(gmap: "GameMap") -> dict[Hex, tuple[Hex, ...]]:
    """For each hex, the hexes a unit there controls (8.12), derived once per map."""
    cached = gmap.derived.get("zoc_reach")  # pragma: no mutate: memo key only
    if cached is None:
        # 8.12: no zone across a major river, an impassable hexside, or into a lake.
        cached = {h: _kept(gmap.neighbours(h), tuple(n for n in gmap.neighbours(h)
                                                     if not gmap.has(h, n, "major_river")
                                                     and not gmap.is_impassable_side(h, n)))
                  for h in gmap.hexes()}
        gmap.derived["zoc_reach"] = cached  # pragma: no mutate: memo key only
    return cast("dict[Hex, tuple[Hex, ...]]", cached)


class _ReachSets(dict):  # type: ignore[type-arg]
    """``zoc_reach`` as frozensets, made for a hex when first asked for: only hexes that hold a
    stack are (a frozenset of six hexes takes 700 bytes: 0.7 MiB for every hex of the campaign
    map, issue 33)."""

    def __init__(self, reach: dict[Hex, tuple[Hex, ...]]) -> None:
        super().__init__()
        self.reach = reach

    def __missing__(self, h: Hex) -> frozenset[Hex]:
        got = self[h] = frozenset(self.reach[h])
        return got


def zoc_reach_sets(gmap: "GameMap") -> dict[Hex, frozenset[Hex]]:
    """``zoc_reach`` as frozensets: a union of sets reuses their stored hashes, of tuples not."""
    cached = gmap.derived.get("zoc_reach_sets")  # pragma: no mutate: memo key only
    if cached is None:
        cached = gmap.derived["zoc_reach_sets"] = _ReachSets(zoc_reach(gmap))
    return cast("dict[Hex, frozenset[Hex]]", cached)


def zoc_from(gmap: "GameMap") -> dict[Hex, tuple[Hex, ...]]:
    """For each hex, the hexes whose units' zone of control covers it (``zoc_reach`` turned round)."""
    cached = gmap.derived.get("zoc_from")  # pragma: no mutate: memo key only
    if cached is None:
        into: dict[Hex, list[Hex]] = {}
        for h, reach in zoc_reach(gmap).items():
            for c in reach:
                into.setdefault(c, []).append(h)
        cached = gmap.derived["zoc_from"] = {c: tuple(hs) for c, hs in into.items()}
    return cast("dict[Hex, tuple[Hex, ...]]", cached)


def river_banks(gmap: "GameMap") -> frozenset[Hex]:
    """Hexes with at least one major-river hexside, derived once per map (10.13)."""
    cached = gmap.derived.get("river_banks")  # pragma: no mutate: memo key only
    if cached is None:
        cached = frozenset(h for h in gmap.hexes() if any(gmap.has(h, n, "major_river") for n in gmap.neighbours(h)))
        gmap.derived["river_banks"] = cached  # pragma: no mutate: memo key only
    return cast("frozenset[Hex]", cached)


def enemy_of(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


_STATUS = attrgetter("status")
_HEX = attrgetter("hex")
_ID = attrgetter("id")
_HEXES: dict[str, Hex] = {}  # hex id -> Hex, read without a call per unit
PLACEMENTS_KEPT = 4  # replay asks about the last position or two; the face about the current one


class Placement:
    """Where the units stand, and the answers that depend on nothing else: occupancy and zones.

    Kept per game (``Game.position_cache``) with each unit's status and hex, all that occupancy
    and zones read (the catalog is fixed for the game's life): the placement after an action is
    the one the next action's check sees, and a View built in the middle of an action often
    finds the placement an earlier View of the same action built.  A placement a few units away
    from the last one is worked out from it, in the order a fresh count would give.
    """

    __slots__ = ("keys", "statuses", "hexes", "ids", "slot", "occupancy", "first", "zocs", "sources", "touched")

    def __init__(self, keys: list[str], statuses: list[str], hexes: list[str | None], ids: list[str],
                 last: "Placement | None" = None, maybe: list[int] | None = None) -> None:
        # ``maybe``: the only places where the units may differ from ``last``'s (written since)
        self.keys, self.statuses, self.hexes, self.ids = keys, statuses, hexes, ids
        self.zocs: dict[Any, Any] = {}  # each side's zones, once asked; other answers of this placement
        #: side -> what its zones may be worked out from, until they are asked: the zones of an
        #: earlier placement, the hexes whose stacks changed since and the units that moved since
        self.sources: dict[str, tuple[tuple[frozenset[Hex], frozenset[Hex]], frozenset[Hex], frozenset[str]]] = {}
        self.touched: set[Hex] = set()  # hexes whose units differ from the last placement's
        if last is None or not self._follow(last, maybe):
            self._count()

    def _count(self) -> None:
        occ: dict[Hex, list[str]] = {}
        first: dict[Hex, int] = {}  # each hex -> the place of its first unit in the list
        for i, (uid, status, hex_id) in enumerate(zip(self.ids, self.statuses, self.hexes)):
            if status == "map" and hex_id is not None:
                h = _hex(hex_id)
                here = occ.get(h)
                if here is None:
                    occ[h] = [uid]
                    first[h] = i
                else:
                    here.append(uid)
        for here in occ.values():
            here.sort()
        self.occupancy, self.first = occ, first
        self.slot = {uid: i for i, uid in enumerate(self.ids)} if len(set(self.ids)) == len(self.ids) else None

    _follow = later("kiev_tui.games.spi_kiev.common_more")


FOLLOW_AT_MOST = 12  # more units changed than this: a fresh count is as quick
#: A side's zones (movement, blocking) in ``Placement.zocs``.
_ZONES = {GERMAN: ("zones", GERMAN), SOVIET: ("zones", SOVIET)}


def _sources_after(last: Placement, touched: set[Hex], movers: list[str]) -> dict[str, Any]:
    """What each side's zones may be worked out from in the placement that follows ``last``
    (``touched``: the hexes whose stacks changed, ``movers``: the units that changed hex): the
    zones ``last`` has, or those ``last`` could have been given, with the changes since added up.
    Zones are worked out only when asked for, often for one side alone (a move asks about the
    enemy's): nothing is worked out for the other side meanwhile, however many moves follow."""
    out: dict[str, Any] = {}
    for side, key in _ZONES.items():
        zones = last.zocs.get(key)
        if zones is not None:
            out[side] = (zones, frozenset(touched), frozenset(movers))
        else:
            earlier = last.sources.get(side)
            if earlier is not None:  # none: a fresh count of this side's zones when asked
                out[side] = (earlier[0], earlier[1] | touched, earlier[2].union(movers))
    return out


def _hex(hex_id: str) -> Hex:
    h = _HEXES.get(hex_id)  # pragma: no mutate: cache only, a miss parses again
    if h is None:
        h = Hex.parse(hex_id)
        if len(_HEXES) < 20000:  # pragma: no mutate: the cache's bound (the map's few thousand ids)
            _HEXES[hex_id] = h  # pragma: no mutate: cache only
    return h


def placement(game: "Game", state: "GameState") -> Placement:
    """The placement of ``state``'s units, shared with earlier views of the same placement."""
    units = state.units
    cache = game.position_cache
    generation, writes = WRITES.current
    written = len(writes)
    seen = cache.get("placement_seen")  # pragma: no mutate: memo key only
    # No unit of the same dict written since the last answer (engine/units.py notes every write
    # of a status or hex): the same placement, without listing every unit again (issue 33).
    if seen is not None and seen[0] is units and seen[1] == generation and seen[3] == len(units):
        if seen[2] == written:
            return cast(Placement, seen[4])
        found = _placement_after(game, units, seen[4], set(writes[seen[2]:written]))
    else:
        found = _placement(game, units)
    cache["placement_seen"] = (units, generation, written, len(units), found)  # pragma: no mutate: memo
    return found


def _placement_after(game: "Game", units: "dict[str, UnitState]", last: Placement, written: set[str]) -> Placement:
    """The placement of ``units`` when ``last`` was theirs before the units ``written`` were
    written: the lists are ``last``'s with those units' places read again, and the units that
    moved are found among them alone."""
    slot = last.slot
    keys = list(units)
    if slot is None or len(written) > FOLLOW_AT_MOST or keys != last.keys or keys != last.ids:
        return _placement(game, units)
    statuses, hexes = list(last.statuses), list(last.hexes)
    maybe: list[int] = []
    for uid in written:
        i = slot.get(uid)
        if i is None:
            continue  # a unit of another position
        u = units[uid]
        statuses[i], hexes[i] = u.status, u.hex
        maybe.append(i)
    kept: list[Placement] = game.position_cache.setdefault("placements", [])
    return _kept_or_new(kept, keys, statuses, hexes, last.ids, maybe if kept and kept[-1] is last else None)


def _placement(game: "Game", units: "dict[str, UnitState]") -> Placement:
    states = units.values()
    # Lists of the values themselves, compared at C speed: no tuple per unit, no hashing.
    statuses, hexes = list(map(_STATUS, states)), list(map(_HEX, states))
    keys = list(units)
    kept: list[Placement] = game.position_cache.setdefault("placements", [])
    return _kept_or_new(kept, keys, statuses, hexes, None, None, states)


def _kept_or_new(kept: list[Placement], keys: list[str], statuses: list[str], hexes: list[str | None],
                 ids: list[str] | None, maybe: list[int] | None, states: "Any" = None) -> Placement:
    """One of the placements kept if its lists are these, else a new one (from the last kept)."""
    for i in range(len(kept) - 1, -1, -1):  # the most recent first
        found = kept[i]
        if found.hexes == hexes and found.statuses == statuses and found.keys == keys:
            if i != len(kept) - 1:
                kept.append(kept.pop(i))
            return found
    if ids is None:
        ids = list(map(_ID, states))
    found = Placement(keys, statuses, hexes, ids, kept[-1] if kept else None, maybe)
    kept.append(found)
    del kept[:-PLACEMENTS_KEPT]
    return found


class View:
    """Read-only questions about one position, with the costly answers cached.

    Build a fresh View after every change; never keep one across Game.apply.
    """

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.state = game.state
        self.map = game.scenario.map
        self.catalog = game.scenario.catalog

    @property
    def vars(self) -> KievVars:
        """What units did this phase, the battle in progress, the game's counters (typed)."""
        return kiev_vars(self.state)

    # -- units ------------------------------------------------------------
    def udef(self, uid: str) -> UnitDef:
        """The counter's values, with an untried unit's drawn face applied once revealed."""
        base = self.catalog.units[uid]
        face_id = self.state.units[uid].face
        if face_id is None:
            return base
        face = self.catalog.extra[UNTRIED].faces[face_id]
        return replace(base, type=face.type, size=face.size, designation=face.designation,
                       steps=((face.attack, face.defense),), ma=face.ma)

    def side(self, uid: str) -> str:
        return self.catalog.units[uid].side

    def untried(self, uid: str) -> bool:
        return uid in self.catalog.extra[UNTRIED].draw_of and self.state.units[uid].face is None

    asterisk = later("kiev_tui.games.spi_kiev.common_more")

    def hex_of(self, uid: str) -> Hex | None:
        u = self.state.units[uid]
        h = u.hex
        return _hex(h) if h is not None and u.status == "map" else None  # parsed once per hex id

    @cached_property
    def _where(self) -> "Placement":
        return placement(self.game, self.state)

    def placement_memo(self) -> dict[str, Any]:
        """Answers that depend on where the units stand and nothing else (zones, the hexes lines
        avoid), shared by every view of this placement."""
        return cast("dict[str, Any]", self._where.zocs)

    @cached_property
    def occupancy(self) -> dict[Hex, list[str]]:
        """Each occupied hex -> its units' ids, sorted (shared by every view of this placement:
        read it, never change it)."""
        return self._where.occupancy

    def at(self, h: Hex) -> list[str]:
        return self.occupancy.get(h, [])

    def occupant_side(self, h: Hex) -> str | None:
        ids = self.occupancy.get(h)
        return self.side(ids[0]) if ids else None

    def occupied_by(self, h: Hex, side: str) -> bool:
        return self.occupant_side(h) == side

    def is_hq_like(self, uid: str) -> bool:
        """Soviet HQs and German leaders follow the same rules (21.0)."""
        d = self.catalog.units[uid]
        return d.hq or d.leader

    @cached_property
    def supply(self) -> "Supply":
        """Supply and command for this position (computed once, on first use)."""
        from kiev_tui.games.spi_kiev.supply import Supply

        return Supply(self)

    # -- zones of control ---------------------------------------------------
    def side_zones(self, side: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """One side's zones of control (8.12): for movement, and for blocking supply, command
        and retreat (a stack of HQs and leaders only blocks none, 19.67).  Shared by every view
        of this placement, and worked out from an earlier placement's when there is one."""
        zocs = self._where.zocs
        key = _ZONES[side]
        got: tuple[frozenset[Hex], frozenset[Hex]] | None = zocs.get(key)
        if got is None:
            got = zocs[key] = self._work_out_zones(side)
        return got

    def _work_out_zones(self, side: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
        reach = zoc_reach_sets(self.map)
        units = self.catalog.units
        cache = self.game.position_cache
        hq_like = cache.get("hq_like")  # pragma: no mutate: memo key only
        if hq_like is None:  # the catalog is fixed for the game's life
            hq_like = cache["hq_like"] = frozenset(uid for uid, d in units.items() if d.hq or d.leader)
        occ = self.occupancy
        source = self._where.sources.get(side)
        if source is not None:
            (was_moving, was_blocking), hexes, movers = source
            if not any(units[u].side == side for u in movers):
                return was_moving, was_blocking  # none of the side's units moved: the same stacks
            # Only the hexes the changed stacks reach can differ, each judged again by the
            # stacks around it now.
            near = zoc_from(self.map)
            cells: frozenset[Hex] = frozenset().union(*[reach[h] for h in hexes])
            moving: set[Hex] = set()
            blocking: set[Hex] = set()
            for c in cells:
                for n in near[c]:
                    ids = occ.get(n)
                    if ids and units[ids[0]].side == side:
                        moving.add(c)
                        if not hq_like.issuperset(ids):
                            blocking.add(c)
            return (was_moving - cells) | moving, (was_blocking - cells) | blocking
        block: list[frozenset[Hex]] = []
        command: list[frozenset[Hex]] = []  # stacks of HQs and leaders alone
        for h, ids in occ.items():
            if units[ids[0]].side == side:
                (command if hq_like.issuperset(ids) else block).append(reach[h])
        blocking_zone = frozenset().union(*block)
        return blocking_zone.union(*command), blocking_zone

    @cached_property
    def zoc_movement(self) -> dict[str, frozenset[Hex]]:
        """Hexes in each side's zone of control for movement (HQs and leaders count, 19.67)."""
        return {GERMAN: self.side_zones(GERMAN)[0], SOVIET: self.side_zones(SOVIET)[0]}

    @cached_property
    def zoc_blocking(self) -> dict[str, frozenset[Hex]]:
        """Zones that block supply, command and retreat: HQs and leaders excluded (19.67, 21.0)."""
        return {GERMAN: self.side_zones(GERMAN)[1], SOVIET: self.side_zones(SOVIET)[1]}

    def in_enemy_zoc(self, h: Hex, side: str) -> bool:
        return h in self.side_zones(enemy_of(side))[0]

    @cached_property
    def zoc_river_guard(self) -> dict[str, frozenset[Hex]]:
        """Hexes in the zone of a side's units whose own hex touches a major river (10.13).

        Only such units bar a crossing; HQs and leaders count, as their zones stop movement (19.67).
        """
        zocs = self._where.zocs
        got = zocs.get("river_guard")
        if got is None:
            reach = zoc_reach(self.map)
            banks = river_banks(self.map)
            out: dict[str, set[Hex]] = {GERMAN: set(), SOVIET: set()}
            for h, ids in self.occupancy.items():
                if h in banks:
                    out[self.side(ids[0])].update(reach[h])
            got = zocs["river_guard"] = {side: frozenset(hexes) for side, hexes in out.items()}
        return got

    river_guarded = later("kiev_tui.games.spi_kiev.common_more")

    def enemy_controlled_for_tracing(self, h: Hex, side: str) -> bool:
        """8.25: a friendly unit in the hex cancels the enemy zone for supply, command and retreat."""
        return h in self.side_zones(enemy_of(side))[1] and not self.occupied_by(h, side)
