"""The game map: hex terrain, hexside features, named hexes, areas and lines, from TOML."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.hexes import Hex, HexError, Hexside
from kiev_tui.engine.tomlio import Reader, load_toml

TERRAINS = ("clear", "woods", "swamp", "lake")
SETTLEMENTS = ("city", "town")
HEXSIDE_FEATURES = ("road", "railroad", "lake", "minor_river", "major_river")
SIDES = ("german", "soviet")
_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Area:
    name: str
    side: str
    hexes: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class River:
    name: str
    kind: str  # "major" or "minor"
    hexsides: tuple[Hexside, ...]


@dataclass
class GameMap:
    """Everything printed on the map sheet that the rules read."""

    game: str
    columns: int
    rows: int
    scale_km: float = 8.0
    default_terrain: str = "clear"
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

    def __post_init__(self) -> None:
        self._hexes = [Hex(c, r) for c in range(1, self.columns + 1) for r in range(1, self.rows + 1)]
        self._adj: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbours() if self.on_map(n)) for h in self._hexes
        }
        self._by_name = {name.lower(): h for h, name in self.name_of.items()}
        # Both orders of every hexside, so hot loops look features up without building Hexsides.
        self._pair: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for side, feats in self.features.items():
            self._pair[(side.a, side.b)] = feats
            self._pair[(side.b, side.a)] = feats
        self._lakes = frozenset(h for h, t in self.terrain_of.items() if t == "lake")
        #: Tables a rule system derives from the map once (cleared whenever the map changes).
        self.derived: dict[str, object] = {}

    # -- geometry ---------------------------------------------------------
    def on_map(self, h: Hex) -> bool:
        return 1 <= h.col <= self.columns and 1 <= h.row <= self.rows

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
        if h.col == 1:
            out.add("west")
        if h.col == self.columns:
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
        self.derived.clear()

    def has(self, a: Hex, b: Hex, feature: str) -> bool:
        return feature in self._pair.get((a, b), _NONE)

    def is_major_river(self, a: Hex, b: Hex) -> bool:
        return "major_river" in self._pair.get((a, b), _NONE)

    def is_impassable_side(self, a: Hex, b: Hex) -> bool:
        # 10.16: all-lake or all-sea hexes and hexsides cannot be crossed.
        return a in self._lakes or b in self._lakes or "lake" in self._pair.get((a, b), _NONE)

    def road_hexes(self) -> set[Hex]:
        return {h for side, f in self.features.items() if "road" in f for h in side.hexes()}

    def rail_hexes(self) -> set[Hex]:
        return {h for side, f in self.features.items() if "railroad" in f for h in side.hexes()}

    def settlements(self) -> dict[Hex, str]:
        return dict(self.settlement_of)

    def area(self, name: str) -> Area:
        return self.areas[name]


def load_map(path: str | Path) -> GameMap:
    """Read and check a map.toml (see docs/DATA-SCHEMA.md)."""
    path = Path(path)
    root = Reader(path, load_toml(path))
    root.only(["map", "hexes", "hexsides", "river", "edges", "areas", "lines"])
    meta = root.table("map")
    meta.only(["game", "columns", "rows", "scale_km", "default_terrain", "reconstructed", "note"])
    columns, rows = meta.int("columns"), meta.int("rows")
    for key, value in (("columns", columns), ("rows", rows)):
        if not 1 <= value <= 99:
            raise meta.fail(key, f"must be between 1 and 99, not {value}")
    default = meta.str("default_terrain", "clear")
    if default not in TERRAINS:
        raise meta.fail("default_terrain", f"unknown terrain '{default}'")

    def on_map(h: Hex) -> bool:
        return 1 <= h.col <= columns and 1 <= h.row <= rows

    def parse_hex(reader: Reader, key: str, text: object) -> Hex:
        try:
            h = Hex.parse(text)  # type: ignore[arg-type]
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        if not on_map(h):
            raise reader.fail(key, f"hex {h} is off the map ({columns} columns x {rows} rows)")
        return h

    def parse_side(reader: Reader, key: str, text: object) -> Hexside:
        try:
            s = Hexside.parse(text)  # type: ignore[arg-type]
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        for h in s.hexes():
            if not on_map(h):
                raise reader.fail(key, f"hexside {s} touches hex {h}, which is off the map")
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
        if t not in TERRAINS:
            raise entry.fail("terrain", f"unknown terrain '{t}' (expected one of {', '.join(TERRAINS)})")
        if t != default:
            terrain_of[h] = t
        s = entry.str("settlement", None)
        if s is not None:
            if s not in SETTLEMENTS:
                raise entry.fail("settlement", f"unknown settlement '{s}' (city or town)")
            if t == "lake":
                raise entry.fail("settlement", "a lake hex cannot hold a city or town")
            settlement_of[h] = s
        n = entry.str("name", None)
        if n is not None:
            name_of[h] = n

    features: dict[Hexside, set[str]] = {}
    sides = root.table("hexsides", required=False)
    sides.only(["road", "railroad", "lake"])
    for feat in ("road", "railroad", "lake"):
        for i, text in enumerate(sides.strs(feat, [])):
            features.setdefault(parse_side(sides, f"{feat}[{i}]", text), set()).add(feat)

    rivers: dict[str, River] = {}
    for r in root.tables("river"):
        r.only(["name", "kind", "hexsides", "reconstructed", "note"])
        name = r.str("name")
        kind = r.str("kind")
        if kind not in ("major", "minor"):
            raise r.fail("kind", f"river kind must be 'major' or 'minor', not '{kind}'")
        if name in rivers:
            raise r.fail("name", f"river '{name}' is listed twice")
        chain = tuple(parse_side(r, f"hexsides[{i}]", t) for i, t in enumerate(r.strs("hexsides")))
        rivers[name] = River(name, kind, chain)
        for river_side in chain:
            features.setdefault(river_side, set()).add(f"{kind}_river")
    for f in features.values():
        if "major_river" in f and "minor_river" in f:
            f.discard("minor_river")  # the larger river governs a shared hexside

    edges = root.table("edges", required=False)
    edges.only(["road_exits", "rail_exits"])
    road_exits = frozenset(parse_hex(edges, f"road_exits[{i}]", t) for i, t in enumerate(edges.strs("road_exits", [])))
    rail_exits = frozenset(parse_hex(edges, f"rail_exits[{i}]", t) for i, t in enumerate(edges.strs("rail_exits", [])))
    for key, group in (("road_exits", road_exits), ("rail_exits", rail_exits)):
        for h in group:
            if not (h.row in (1, rows) or h.col in (1, columns)):
                raise edges.fail(key, f"hex {h} is not on a map edge")

    areas: dict[str, Area] = {}
    area_tbl = root.table("areas", required=False)
    for name in area_tbl.keys():
        a = area_tbl.table(name)
        a.only(["side", "hexes", "note"])
        side = a.str("side")
        if side not in SIDES:
            raise a.fail("side", f"side must be german or soviet, not '{side}'")
        areas[name] = Area(name, side, frozenset(parse_hex(a, f"hexes[{i}]", t) for i, t in enumerate(a.strs("hexes"))))

    lines: dict[str, frozenset[Hexside]] = {}
    line_tbl = root.table("lines", required=False)
    for name in line_tbl.keys():
        ln = line_tbl.table(name)
        ln.only(["hexsides", "note"])
        lines[name] = frozenset(parse_side(ln, f"hexsides[{i}]", t) for i, t in enumerate(ln.strs("hexsides")))

    return GameMap(
        game=meta.str("game"),
        columns=columns,
        rows=rows,
        scale_km=meta.num("scale_km", 8),
        default_terrain=default,
        terrain_of=terrain_of,
        settlement_of=settlement_of,
        name_of=name_of,
        features={s: frozenset(f) for s, f in features.items()},
        rivers=rivers,
        areas=areas,
        lines=lines,
        road_exits=road_exits,
        rail_exits=rail_exits,
        reconstructed=meta.bool("reconstructed", False),
    )


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


def hexes_of(ids: Iterable[str]) -> list[Hex]:
    return [Hex.parse(i) for i in ids]
