"""The game map: hex terrain, hexside features, named hexes, areas and lines, from TOML."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from kiev_tui.engine.errors import shorten
from kiev_tui.engine.hexes import IDENTITY, PARITIES, Grid, Hex, HexError, Hexside
from kiev_tui.engine.tomlio import Reader, load_toml

if TYPE_CHECKING:
    from kiev_tui.engine.rules import Schema

_NONE: frozenset[str] = frozenset()


def one_of(items: Sequence[str]) -> str:
    """'a or b' for two choices, 'one of a, b, c' for more: how messages list a vocabulary."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} or {items[1]}"
    return f"one of {', '.join(items)}"


@dataclass(frozen=True, slots=True)
class Area:
    name: str
    side: str  # the side the area belongs to, or "" for a zone of no side (weather, ports)
    hexes: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class River:
    name: str
    kind: str  # one of the schema's river kinds
    hexsides: tuple[Hexside, ...]


@dataclass
class GameMap:
    """Everything printed on the map sheet that the rules read."""

    game: str
    columns: int
    rows: int
    scale_km: float = 8.0
    default_terrain: str = ""
    terrain_of: dict[Hex, str] = field(default_factory=dict)
    settlement_of: dict[Hex, str] = field(default_factory=dict)
    name_of: dict[Hex, str] = field(default_factory=dict)
    features: dict[Hexside, frozenset[str]] = field(default_factory=dict)
    rivers: dict[str, River] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    lines: dict[str, frozenset[Hexside]] = field(default_factory=dict)
    road_exits: frozenset[Hex] = frozenset()
    rail_exits: frozenset[Hex] = frozenset()
    reconstructed: bool = False
    grid: Grid = IDENTITY  # how the map prints its hex ids
    impassable_terrains: frozenset[str] = frozenset()  # from the game's schema
    impassable_hexsides: frozenset[str] = frozenset()
    settlement_kinds: tuple[str, ...] = ()  # from the game's schema, largest first

    def __post_init__(self) -> None:
        # Internal columns run from c0 (1, or 2 when the first printed column stands low).
        self._c0 = c0 = self.grid.first_internal_column
        self._c1 = c0 + self.columns - 1
        self._hexes = [Hex(c, r) for c in range(c0, self._c1 + 1) for r in range(1, self.rows + 1)]
        # Each hex of the map once: neighbours are these objects, not six new tuples a hex.
        on = {h: h for h in self._hexes}
        self._adj: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(on[n] for n in h.neighbours() if n in on) for h in self._hexes
        }
        self._share_hexes()
        self._by_name = {name.lower(): h for h, name in self.name_of.items()}
        # Both orders of every hexside, so hot loops look features up without building Hexsides.
        self._pair: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for side, feats in self.features.items():
            self._pair[(side.a, side.b)] = feats
            self._pair[(side.b, side.a)] = feats
        self._blocked = frozenset(h for h, t in self.terrain_of.items() if t in self.impassable_terrains)
        if self.default_terrain in self.impassable_terrains:
            self._blocked = frozenset(h for h in self._hexes if self.terrain(h) in self.impassable_terrains)
        self._blocked_sides: set[tuple[Hex, Hex]] = set()
        for (a, b), feats in self._pair.items():
            if not feats.isdisjoint(self.impassable_hexsides):
                self._blocked_sides.add((a, b))
        #: Tables a rule system derives from the map once (cleared whenever the map changes).
        self.derived: dict[str, object] = {}

    def _share_hexes(self) -> None:
        """Make every table name the map's own hex and hexside objects: read from TOML, each
        table held its own copies (817 hexes and 171 hexsides more than the map has on the
        campaign map, about 55 KiB of a ready-built scenario: issue 33, round 7).  The tables
        keep their keys, values and order; only which equal object stands for a hex changes."""
        own = self.own_hex
        sides: dict[Hexside, Hexside] = {}

        def side(s: Hexside) -> Hexside:
            got = sides.get(s)
            if got is None:
                got = sides[s] = Hexside(own(s.a), own(s.b))
            return got

        for table in (self.terrain_of, self.settlement_of, self.name_of):
            items = [(own(h), v) for h, v in table.items()]
            table.clear()  # an equal key written again would keep the old object
            table.update(items)
        items_f = [(side(s), f) for s, f in self.features.items()]
        self.features.clear()
        self.features.update(items_f)
        for name, river in self.rivers.items():
            self.rivers[name] = replace(river, hexsides=tuple(side(s) for s in river.hexsides))
        for name, area in self.areas.items():
            self.areas[name] = replace(area, hexes=frozenset(own(h) for h in area.hexes))
        for name, line in self.lines.items():
            self.lines[name] = frozenset(side(s) for s in line)
        self.road_exits = frozenset(own(h) for h in self.road_exits)
        self.rail_exits = frozenset(own(h) for h in self.rail_exits)

    def __getstate__(self) -> dict[str, object]:
        """The map as pickled (the ready-built scenario), without the tables the first frame does
        not read (issue 33, round 7): ``features`` when the two-way table of hexsides holds the
        same, the rivers and lines kept as text; each is made again when first read (_Unpickled)."""
        pair = self.__dict__.get("_pair")
        same = isinstance(pair, dict) and list(_features_from(pair).items()) == list(self.features.items())
        chains = _pack_chains(self)  # (reading the tables makes those left out by an earlier pickle)
        state = dict(self.__dict__)
        if same:
            del state["features"]
        if chains is not None:  # the rivers and lines (not read by the first frame either) as text
            del state["rivers"], state["lines"]
            state["_chains"] = chains
        return state

    def own_hex(self, h: Hex) -> Hex:
        """The map's own object for hex ``h`` (equal to it), or ``h`` itself off the map."""
        col, row = h
        if self._c0 <= col <= self._c1 and 1 <= row <= self.rows:
            return self._hexes[(col - self._c0) * self.rows + row - 1]
        return h

    # -- geometry ---------------------------------------------------------
    def on_map(self, h: Hex) -> bool:
        return self._c0 <= h.col <= self._c1 and 1 <= h.row <= self.rows

    def extent(self) -> str:
        """The map's size in its own ids, for messages: '34 columns x 33 rows' or the id ranges."""
        g = self.grid
        if g.first_column == 1 and g.first_row == 1 and not g.sheet:
            return f"{self.columns} columns x {self.rows} rows"
        last_c, last_r = g.first_column + self.columns - 1, g.first_row + self.rows - 1
        sheet = f"sheet {g.sheet}, " if g.sheet else ""
        return f"{sheet}columns {g.first_column:02d}-{last_c:02d} x rows {g.first_row:02d}-{last_r:02d}"

    def hexes(self) -> list[Hex]:
        return list(self._hexes)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """Adjacent hexes that are on the map."""
        return self._adj.get(h, ())

    def edges_of(self, h: Hex) -> set[str]:
        """Which map edges ('north', 'south', 'east', 'west') this hex lies on."""
        out: set[str] = set()
        if h.row == 1:
            out.add("north")
        if h.row == self.rows:
            out.add("south")
        if h.col == self._c0:
            out.add("west")
        if h.col == self._c1:
            out.add("east")
        return out

    # -- terrain ----------------------------------------------------------
    def terrain(self, h: Hex) -> str:
        return self.terrain_of.get(h, self.default_terrain)

    def settlement(self, h: Hex) -> str | None:
        return self.settlement_of.get(h)

    def name(self, h: Hex) -> str | None:
        return self.name_of.get(h)

    def find(self, name: str) -> Hex | None:
        """A named hex by its name (case-insensitive)."""
        return self._by_name.get(name.lower())

    def side_features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self._pair.get((a, b), _NONE)

    def set_side_features(self, a: Hex, b: Hex, feats: frozenset[str]) -> None:
        """Change one hexside (map editors and tests); keeps the fast lookup in step."""
        self.features[Hexside(a, b)] = feats
        self._pair[(a, b)] = feats
        self._pair[(b, a)] = feats
        for pair in ((a, b), (b, a)):
            if feats.isdisjoint(self.impassable_hexsides):
                self._blocked_sides.discard(pair)
            else:
                self._blocked_sides.add(pair)
        self.derived.clear()

    def has(self, a: Hex, b: Hex, feature: str) -> bool:
        return feature in self._pair.get((a, b), _NONE)

    def is_impassable(self, h: Hex) -> bool:
        """True for a hex of a terrain no unit enters (the schema's impassable terrains)."""
        return h in self._blocked

    def is_impassable_side(self, a: Hex, b: Hex) -> bool:
        # Neither hex may be impassable terrain, nor the hexside an impassable feature.
        return a in self._blocked or b in self._blocked or (a, b) in self._blocked_sides

    def road_hexes(self) -> set[Hex]:
        return {h for side, f in self.features.items() if "road" in f for h in side.hexes()}

    def rail_hexes(self) -> set[Hex]:
        return {h for side, f in self.features.items() if "railroad" in f for h in side.hexes()}

    def settlements(self) -> dict[Hex, str]:
        return dict(self.settlement_of)

    def is_large(self, kind: str) -> bool:
        """True for the game's largest kind of settlement (drawn in capitals), when it has
        several kinds; a map built without a schema knows "city" as its large kind."""
        kinds = self.settlement_kinds
        if not kinds:
            return kind == "city"
        return len(kinds) > 1 and kind == kinds[0]

    def area(self, name: str) -> Area:
        return self.areas[name]


def load_map(path: str | Path, schema: "Schema | None" = None) -> GameMap:
    """Read and check a map.toml (see docs/DATA-SCHEMA.md) against its game's schema.

    Without ``schema`` the game named by ``[map] game`` supplies it (through the registry).
    """
    path = Path(path)
    root = Reader(path, load_toml(path, cache=True))
    root.only(["map", "hexes", "hexsides", "river", "edges", "areas", "lines"])
    meta = root.table("map")
    meta.only(["game", "columns", "rows", "scale_km", "default_terrain", "parity", "first_column", "first_row",
               "sheet", "reconstructed", "note"])
    game = meta.str("game")
    if schema is None:
        from kiev_tui.engine.registry import data_for

        schema = data_for(meta, "game", game).schema
    columns, rows = meta.int("columns"), meta.int("rows")
    for key, value in (("columns", columns), ("rows", rows)):
        if not 1 <= value <= 99:
            raise meta.fail(key, f"must be between 1 and 99, not {value}")
    grid = _read_grid(meta, columns, rows)
    terrains = schema.terrains
    default = meta.str("default_terrain", terrains[0] if terrains else "")
    if default not in terrains:
        raise meta.fail("default_terrain", f"unknown terrain '{shorten(default)}'")
    c0 = grid.first_internal_column

    def on_map(h: Hex) -> bool:
        return c0 <= h.col < c0 + columns and 1 <= h.row <= rows

    def bounds() -> str:
        return GameMap(game, columns, rows, grid=grid).extent()

    def parse_hex(reader: Reader, key: str, text: object) -> Hex:
        try:
            h = grid.parse(text)  # type: ignore[arg-type]
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        if not on_map(h):
            raise reader.fail(key, f"hex {grid.id(h)} is off the map ({bounds()})")
        return h

    def parse_side(reader: Reader, key: str, text: object) -> Hexside:
        try:
            s = grid.side(text)  # type: ignore[arg-type]
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        for h in s.hexes():
            if not on_map(h):
                raise reader.fail(key, f"hexside {grid.side_id(s)} touches hex {grid.id(h)}, which is off the map")
        return s

    terrain_of: dict[Hex, str] = {}
    settlement_of: dict[Hex, str] = {}
    name_of: dict[Hex, str] = {}
    hexes = root.table("hexes", required=False)
    for key in hexes.keys():
        h = parse_hex(hexes, key, key)
        entry = hexes.table(key)
        entry.only(["terrain", "settlement", "name", "reconstructed", "note"])
        t = entry.str("terrain", default)
        if t not in terrains:
            raise entry.fail("terrain", f"unknown terrain '{shorten(t)}' (expected {one_of(terrains)})")
        if t != default:
            terrain_of[h] = t
        s = entry.str("settlement", None)
        if s is not None:
            if s not in schema.settlements:
                raise entry.fail("settlement", f"unknown settlement '{shorten(s)}' ({one_of(schema.settlements)})")
            if t in schema.impassable_terrains:
                raise entry.fail("settlement", f"a {t} hex cannot hold a {one_of(schema.settlements)}")
            settlement_of[h] = s
        n = entry.str("name", None)
        if n is not None:
            name_of[h] = n

    features: dict[Hexside, set[str]] = {}
    sides = root.table("hexsides", required=False)
    sides.only(list(schema.hexside_features))
    for feat in schema.hexside_features:
        for i, text in enumerate(sides.strs(feat, [])):
            features.setdefault(parse_side(sides, f"{feat}[{i}]", text), set()).add(feat)

    rivers: dict[str, River] = {}
    kinds = schema.river_kinds
    for r in root.tables("river"):
        r.only(["name", "kind", "hexsides", "reconstructed", "note"])
        name = r.str("name")
        kind = r.str("kind")
        if kind not in kinds:
            listed = one_of([f"'{k}'" for k in kinds]) if kinds else "none (this game has no rivers)"
            raise r.fail("kind", f"river kind must be {listed}, not '{shorten(kind)}'")
        if name in rivers:
            raise r.fail("name", f"river '{shorten(name)}' is listed twice")
        chain = tuple(parse_side(r, f"hexsides[{i}]", t) for i, t in enumerate(r.strs("hexsides")))
        rivers[name] = River(name, kind, chain)
        for river_side in chain:
            features.setdefault(river_side, set()).add(f"{kind}_river")
    for f in features.values():
        present = [k for k in kinds if f"{k}_river" in f]
        for smaller in present[1:]:
            f.discard(f"{smaller}_river")  # the larger river (listed first) governs a shared hexside

    edges = root.table("edges", required=False)
    edges.only(["road_exits", "rail_exits"])
    road_exits = frozenset(parse_hex(edges, f"road_exits[{i}]", t) for i, t in enumerate(edges.strs("road_exits", [])))
    rail_exits = frozenset(parse_hex(edges, f"rail_exits[{i}]", t) for i, t in enumerate(edges.strs("rail_exits", [])))
    for key, group in (("road_exits", road_exits), ("rail_exits", rail_exits)):
        for h in group:
            if not (h.row in (1, rows) or h.col in (c0, c0 + columns - 1)):
                raise edges.fail(key, f"hex {grid.id(h)} is not on a map edge")

    areas: dict[str, Area] = {}
    area_tbl = root.table("areas", required=False)
    for name in area_tbl.keys():
        a = area_tbl.table(name)
        a.only(["side", "hexes", "note"])
        side = a.str("side", "")
        if side and side not in schema.sides:
            raise a.fail("side", f"side must be {one_of(schema.sides)}, not '{shorten(side)}'")
        areas[name] = Area(name, side, frozenset(parse_hex(a, f"hexes[{i}]", t) for i, t in enumerate(a.strs("hexes"))))

    lines: dict[str, frozenset[Hexside]] = {}
    line_tbl = root.table("lines", required=False)
    for name in line_tbl.keys():
        ln = line_tbl.table(name)
        ln.only(["hexsides", "note"])
        lines[name] = frozenset(parse_side(ln, f"hexsides[{i}]", t) for i, t in enumerate(ln.strs("hexsides")))

    return GameMap(
        game=game,
        columns=columns,
        rows=rows,
        scale_km=meta.num("scale_km", 8),
        default_terrain=default,
        terrain_of=terrain_of,
        settlement_of=settlement_of,
        name_of=name_of,
        features=_shared_sets(features),
        rivers=rivers,
        areas=areas,
        lines=lines,
        road_exits=road_exits,
        rail_exits=rail_exits,
        reconstructed=meta.bool("reconstructed", False),
        grid=grid,
        impassable_terrains=frozenset(schema.impassable_terrains),
        impassable_hexsides=frozenset(schema.impassable_hexsides),
        settlement_kinds=tuple(schema.settlements),
    )


class _Unpickled:
    """A table of a map read from a pickle that the pickle left out (``features``, ``rivers``,
    ``lines``): made when first read and then kept in the map's own attributes, which are looked
    at first.  (Not a ``__getattr__``: a class with one has every attribute read the slow way,
    the hot ``_adj`` and ``_pair`` too.)"""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, gmap: "GameMap | None", owner: type | None = None) -> object:
        if gmap is None:
            return self
        mine = gmap.__dict__
        if self.name == "features" and "_pair" in mine:
            mine["features"] = _features_from(mine["_pair"])
        elif "_chains" in mine:
            _unpack_chains(gmap, mine.pop("_chains"))
        if self.name not in mine:
            raise AttributeError(self.name)
        return mine[self.name]


for _name in ("features", "rivers", "lines"):  # fields made by a factory: the class has no default there
    setattr(GameMap, _name, _Unpickled(_name))


def _pack_chains(gmap: GameMap) -> tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, str], ...]] | None:
    """The rivers and lines as text, each hexside two characters (the places of its hexes in the
    map's list of hexes), or None when a river is a game's own kind or a hexside is off the map."""
    c0, rows = gmap._c0, gmap.rows

    def text(sides: Iterable[Hexside]) -> str | None:
        out: list[str] = []
        for side in sides:  # Hexsides of the map's own hexes once the map is made (_share_hexes)
            for h in (side.a, side.b):
                if not gmap.on_map(h):
                    return None
                out.append(chr((h.col - c0) * rows + h.row - 1))
        return "".join(out)

    rivers: list[tuple[str, str, str]] = []
    for name, river in gmap.rivers.items():
        chain = text(river.hexsides)
        if type(river) is not River or name != river.name or chain is None:
            return None
        rivers.append((river.name, river.kind, chain))
    lines: list[tuple[str, str]] = []
    for name, line in gmap.lines.items():
        chain = text(line)
        if chain is None:
            return None
        lines.append((name, chain))
    return tuple(rivers), tuple(lines)


def _unpack_chains(gmap: GameMap, chains: tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, str], ...]]) -> None:
    """``_pack_chains`` undone: the same rivers and lines, one hexside object for each hexside."""
    hexes = gmap._hexes
    made: dict[str, Hexside] = {}

    def sides(text: str) -> list[Hexside]:
        out = []
        for i in range(0, len(text), 2):
            pair = text[i:i + 2]
            side = made.get(pair)
            if side is None:
                side = made[pair] = Hexside(hexes[ord(pair[0])], hexes[ord(pair[1])])
            out.append(side)
        return out

    rivers, lines = chains
    gmap.__dict__["rivers"] = {name: River(name, kind, tuple(sides(text))) for name, kind, text in rivers}
    gmap.__dict__["lines"] = {name: frozenset(sides(text)) for name, text in lines}


def _features_from(pair: dict[tuple[Hex, Hex], frozenset[str]]) -> dict[Hexside, frozenset[str]]:
    """``GameMap.features`` from its two-way table: each hexside where one of its two orders is
    first met, in the order the map wrote them, with the same set of features."""
    out: dict[Hexside, frozenset[str]] = {}
    for (a, b), feats in pair.items():
        out[Hexside(a, b)] = feats  # the second order finds the side in place: same value, same place
    return out


def _shared_sets(features: dict[Hexside, set[str]]) -> dict[Hexside, frozenset[str]]:
    """The features of each hexside, one frozenset object for all hexsides alike (a few dozen
    sets for hundreds of hexsides)."""
    shared: dict[frozenset[str], frozenset[str]] = {}
    out: dict[Hexside, frozenset[str]] = {}
    for side, feats in features.items():
        fs = frozenset(feats)
        out[side] = shared.setdefault(fs, fs)
    return out


def _read_grid(meta: Reader, columns: int, rows: int) -> Grid:
    """The [map] keys that say how hex ids are printed: parity, first_column, first_row, sheet."""
    parity = meta.str("parity", "even_low")
    if parity not in PARITIES:
        raise meta.fail("parity", f"must be {one_of(PARITIES)}, not '{shorten(parity)}'")
    firsts: dict[str, int] = {}
    for key, count in (("first_column", columns), ("first_row", rows)):
        first = firsts[key] = meta.int(key, 1)
        if not 0 <= first <= 99:
            raise meta.fail(key, f"must be between 0 and 99, not {first}")
        if first + count - 1 > 99:
            raise meta.fail(key, f"numbering from {first:02d}, the last of {count} would be {first + count - 1}: "
                                 "ids have two digits each for column and row")
    sheet = meta.str("sheet", "")
    if sheet and not (len(sheet) == 1 and "A" <= sheet <= "Z"):
        raise meta.fail("sheet", f"a map-sheet letter is one capital letter A-Z, not '{shorten(sheet)}'")
    return Grid(parity, firsts["first_column"], firsts["first_row"], sheet)


def connected(gmap: GameMap, start: Hex, goal: Hex, feature: str) -> bool:
    """True if a chain of hexsides carrying ``feature`` links the two hexes."""
    seen = {start}
    frontier = [start]
    while frontier:
        h = frontier.pop()
        if h == goal:
            return True
        for n in gmap.neighbours(h):
            if n not in seen and gmap.has(h, n, feature):
                seen.add(n)
                frontier.append(n)
    return False


def hexes_of(ids: Iterable[str], grid: Grid = IDENTITY) -> list[Hex]:
    return [grid.parse(i) for i in ids]
