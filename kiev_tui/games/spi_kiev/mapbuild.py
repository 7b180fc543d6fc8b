"""Build the SPI Kiev map (``data/spi_kiev/map.toml``) from real geography (``geo.toml``).

The rulebook has no map, so we draw one (DATA-GAPS.md): places, rivers, roads, railways and
terrain areas given as latitude/longitude are projected onto the 8 km hex grid (17.0) and
rasterised the same way every run:

- a terrain polygon claims every hex whose centre lies inside it;
- a river becomes a chain of hexsides meeting end to end at hex corners (a path along the
  hex borders), so that it can be followed and can cut the map in two (22.1);
- a road or railway becomes the hexsides between consecutive hexes of the hex path it passes
  through, so movement along it never jumps (10.23, 5.31);
- a road or railway that runs off the map marks its last map hex as an exit (19.82, 19.84, 23.0).

Run ``python -m kiev_tui.games.spi_kiev.mapbuild`` to rewrite map.toml, ``--check`` to fail
(exit 1) when the committed map differs from a fresh build.

Internally hexes and hex corners live on an integer lattice: hex (col, row) has its centre
at ``X = 3*col``, ``Y = 2*row + (1 if col is even)``; its corners are ``(X±2, Y)`` and
``(X±1, Y±1)``.  One X unit is a quarter hex width (2.31 km), one Y unit half a hex height
(4 km), so distances are measured as ``sqrt((dX**2)/3 + dY**2)`` in units of 4 km.
"""

from __future__ import annotations

import math
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from kiev_tui.engine.hexes import Hex, Hexside
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.mapgeo import (  # noqa: F401  (cell_neighbours, cell_center: read by the tests)
    Cell,
    Frame,
    LatticeBuilder,
    MapBuildError,
    Point,
    cell_center,
    cell_neighbours,
    nearest_cell,
    point_in_polygon,
    render_map,
    run_builder,
    side_sort_key,
)

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "spi_kiev"
GEO_PATH = DATA_DIR / "geo.toml"
MAP_PATH = DATA_DIR / "map.toml"


# -- projection ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Projection:
    """DATA-GAPS.md's projection from latitude/longitude to fractional (col, row)."""

    lat0: float
    lon0: float
    col0: float
    row0: float
    km_per_degree: float
    col_km: float
    row_km: float

    def grid(self, lat: float, lon: float) -> tuple[float, float]:
        col = self.col0 + (lon - self.lon0) * math.cos(math.radians(lat)) * self.km_per_degree / self.col_km
        row = self.row0 + (self.lat0 - lat) * self.km_per_degree / self.row_km
        return col, row

    def lattice(self, lat: float, lon: float) -> Point:
        col, row = self.grid(lat, lon)
        return 3.0 * col, 2.0 * row



def parse_cell(text: str) -> Cell:
    h = Hex.parse(text)
    return h.col, h.row


def cell_id(cell: Cell) -> str:
    return f"{cell[0]:02d}{cell[1]:02d}"


def side_id(a: Cell, b: Cell) -> str:
    return str(Hexside(Hex(*a), Hex(*b)))



# -- geo.toml shape -----------------------------------------------------------------------

_GEO_KEYS: dict[str, tuple[set[str], set[str]]] = {   # section: (required keys, optional keys)
    "map": ({"game", "columns", "rows", "scale_km"}, set()),
    "projection": ({"lat0", "lon0", "col0", "row0", "km_per_degree", "col_km", "row_km"}, set()),
    "settlement": ({"name", "kind", "lat", "lon"}, {"hex"}),
    "river": ({"name", "kind", "points"}, {"joins"}),
    "road": ({"name", "points"}, set()),
    "railroad": ({"name", "points"}, set()),
    "terrain": ({"name", "terrain", "polygon"}, set()),
    "lines": ({"rivers", "from", "to"}, set()),
}


def _check_keys(where: str, table: Any, section: str) -> None:
    if not isinstance(table, dict):
        raise MapBuildError(f"{where}: expected a table")
    required, optional = _GEO_KEYS[section]
    missing = sorted(required - set(table))
    unknown = sorted(set(table) - required - optional)
    if missing:
        raise MapBuildError(f"{where}: missing key {missing[0]!r}")
    if unknown:
        raise MapBuildError(f"{where}: unknown key {unknown[0]!r} (a typo?)")


def validate_geo(geo: dict) -> None:
    """Refuse a geo.toml with unknown or missing keys, naming the table and key."""
    top = {"meta", "map", "projection", "settlement", "river", "road", "railroad", "terrain", "areas", "lines"}
    unknown = sorted(set(geo) - top)
    if unknown:
        raise MapBuildError(f"geo: unknown section {unknown[0]!r}")
    for section in ("map", "projection"):
        _check_keys(section, geo.get(section), section)
    for section in ("settlement", "river", "road", "railroad", "terrain"):
        for i, table in enumerate(geo.get(section, [])):
            _check_keys(f"{section}[{i}] {table.get('name', '')!r}", table, section)
    for i, t in enumerate(geo.get("terrain", [])):
        if t["terrain"] not in ("clear", "woods", "swamp", "lake"):
            raise MapBuildError(f"terrain[{i}]: terrain must be clear, woods, swamp or lake")
    for i, r in enumerate(geo.get("river", [])):
        if r["kind"] not in ("major", "minor"):
            raise MapBuildError(f"river[{i}] {r['name']!r}: kind must be major or minor")
    for name, spec in geo.get("lines", {}).items():
        _check_keys(f"lines.{name}", spec, "lines")
    for name, spec in geo.get("areas", {}).items():
        if not isinstance(spec, dict) or spec.get("side") not in ("german", "soviet"):
            raise MapBuildError(f"areas.{name}: side must be german or soviet")
        extra = sorted(set(spec) - {"side", "edges", "west_of_line"})
        if extra:
            raise MapBuildError(f"areas.{name}: unknown key {extra[0]!r} (a typo?)")
        if ("edges" in spec) == ("west_of_line" in spec):
            raise MapBuildError(f"areas.{name}: give either edges or west_of_line")
        if "west_of_line" in spec and spec["west_of_line"] not in geo.get("lines", {}):
            raise MapBuildError(f"areas.{name}: no line named {spec['west_of_line']!r}")


# -- the builder --------------------------------------------------------------------------

class _Builder(LatticeBuilder):
    def __init__(self, geo: dict) -> None:
        m = geo["map"]
        super().__init__(Frame(int(m["columns"]), int(m["rows"])))
        self.geo = geo
        self.proj = Projection(**{k: float(v) for k, v in geo["projection"].items()})
        self.settlement_rows: dict[Cell, dict[str, str]] = {}

    def lattice(self, lat: float, lon: float) -> Point:
        return self.proj.lattice(lat, lon)

    def parse_cell(self, text: str) -> Cell:
        return parse_cell(text)

    def side_text(self, a: Cell, b: Cell) -> str:
        return side_id(a, b)

    # settlements ---------------------------------------------------------------------
    def place_settlements(self) -> None:
        for s in self.geo.get("settlement", []):
            name = s["name"]
            if name in self.settlements:
                raise MapBuildError(f"settlement {name!r} is listed twice")
            cell = parse_cell(s["hex"]) if "hex" in s else nearest_cell(self.proj.lattice(s["lat"], s["lon"]))
            if not self.frame.on_map(cell):
                raise MapBuildError(f"settlement {name!r} projects off the map ({cell})")
            if cell in self.settlement_rows:
                other = self.settlement_rows[cell]["name"]
                raise MapBuildError(f"{name!r} and {other!r} both fall in hex {cell_id(cell)}")
            if s["kind"] not in ("city", "town", "place"):
                raise MapBuildError(f"settlement {name!r}: kind must be city, town or place")
            self.settlements[name] = cell
            # A "place" is only a name on the map (a road anchor): no town or city, so no
            # victory points (24.1).
            row = {"name": name} if s["kind"] == "place" else {"settlement": s["kind"], "name": name}
            self.settlement_rows[cell] = row

    # terrain -------------------------------------------------------------------------
    def terrain(self) -> dict[Cell, str]:
        out: dict[Cell, str] = {}
        areas = [(a["terrain"], [self.proj.lattice(lat, lon) for lat, lon in a["polygon"]])
                 for a in self.geo.get("terrain", [])]
        for cell in self.frame.cells():
            centre = cell_center(cell)
            for kind, poly in areas:
                if point_in_polygon((float(centre[0]), float(centre[1])), poly):
                    out[cell] = kind
        for cell in self.settlement_rows:
            if out.get(cell) in ("swamp", "lake"):
                del out[cell]   # a town stands on dry ground; keeps supply into it (12.11)
        return out

    # areas ---------------------------------------------------------------------------
    def edge_area(self, spec: dict) -> list[Cell]:
        cells: list[Cell] = []
        for e in spec["edges"]:
            lo, hi = int(e["from"]), int(e["to"])
            edge = e["edge"]
            for i in range(lo, hi + 1):
                if edge == "north":
                    cells.append((i, 1))
                elif edge == "south":
                    cells.append((i, self.frame.rows))
                elif edge == "west":
                    cells.append((1, i))
                elif edge == "east":
                    cells.append((self.frame.columns, i))
                else:
                    raise MapBuildError(f"unknown edge {edge!r}")
        return sorted(set(c for c in cells if self.frame.on_map(c)))

    def stalin_line(self, spec: dict) -> tuple[list[tuple[Cell, Cell]], set[frozenset[Cell]]]:
        """22.1's line as a hexside chain, and the set of sides that close it off to the edges."""
        upper, lower = spec["rivers"]
        start = frozenset(parse_cell(x) for x in spec["from"].split("/"))
        end = frozenset(parse_cell(x) for x in spec["to"].split("/"))
        up = self.river_corners[upper]
        lo = self.river_corners[lower]
        up_sides = [frozenset(self.graph.hexside_cells(a, b)) for a, b in zip(up, up[1:])]
        lo_sides = [frozenset(self.graph.hexside_cells(a, b)) for a, b in zip(lo, lo[1:])]
        if start not in up_sides:
            raise MapBuildError(f"{upper} does not follow hexside {spec['from']}")
        if end not in lo_sides:
            raise MapBuildError(f"{lower} does not follow hexside {spec['to']}")
        i = up_sides.index(start)
        junction = up[-1]
        if junction not in lo:
            raise MapBuildError(f"{upper} does not end on {lower}")
        j = lo.index(junction)
        k = lo_sides.index(end)
        if k < j:
            raise MapBuildError(f"{spec['to']} lies upstream of the {upper} mouth")
        chain_sides = up_sides[i:] + lo_sides[j:k + 1]
        closure = set(up_sides[:i]) | set(lo_sides[k + 1:])
        chain = [tuple(sorted(s)) for s in chain_sides]
        return chain, set(chain_sides) | closure  # type: ignore[return-value]

    def fill_west(self, blocked: set[frozenset[Cell]]) -> list[Cell]:
        """Hexes reachable from the west edge without crossing a blocked hexside."""
        seen = {(1, r) for r in range(1, self.frame.rows + 1)}
        queue = deque(sorted(seen))
        while queue:
            cur = queue.popleft()
            for n in cell_neighbours(cur):
                if self.frame.on_map(n) and n not in seen and frozenset((cur, n)) not in blocked:
                    seen.add(n)
                    queue.append(n)
        return sorted(seen)

    # everything ----------------------------------------------------------------------
    def build(self) -> dict:
        geo = self.geo
        m = geo["map"]
        self.place_settlements()
        terrain = self.terrain()

        hexes: dict[str, dict[str, str]] = {}
        for cell in sorted(set(terrain) | set(self.settlement_rows)):
            row: dict[str, str] = {"terrain": terrain.get(cell, "clear")}
            row.update(self.settlement_rows.get(cell, {}))
            hexes[cell_id(cell)] = row

        rivers_out: list[dict[str, Any]] = []
        for river in geo.get("river", []):
            corners = self.build_river(river)
            runs = self.on_map_runs(corners)
            for n, run in enumerate(runs):
                rivers_out.append({
                    "name": river["name"] if n == 0 else f"{river['name']} ({n + 1})",
                    "kind": river["kind"],
                    "hexsides": [side_id(a, b) for a, b in run],
                })

        roads, road_exits = self.trace_lines("road")
        rails, rail_exits = self.trace_lines("railroad")

        areas: dict[str, dict[str, Any]] = {}
        lines: dict[str, dict[str, Any]] = {}
        blocked_by: dict[str, set[frozenset[Cell]]] = {}
        for name, spec in geo.get("lines", {}).items():
            chain, blocked = self.stalin_line(spec)
            lines[name] = {"hexsides": [side_id(a, b) for a, b in chain]}
            blocked_by[name] = blocked
        for name, spec in geo.get("areas", {}).items():
            if "west_of_line" in spec:
                cells = self.fill_west(blocked_by[spec["west_of_line"]])
            else:
                cells = self.edge_area(spec)
            areas[name] = {"side": spec["side"], "hexes": [cell_id(c) for c in cells]}

        return {
            "map": {
                "game": m["game"],
                "columns": self.frame.columns,
                "rows": self.frame.rows,
                "scale_km": m["scale_km"],
                "default_terrain": "clear",
                "reconstructed": True,
            },
            "hexes": hexes,
            "hexsides": {
                "road": sorted(roads, key=side_sort_key),
                "railroad": sorted(rails, key=side_sort_key),
                "lake": [],
            },
            "river": rivers_out,
            "edges": {
                "road_exits": [cell_id(c) for c in sorted(road_exits)],
                "rail_exits": [cell_id(c) for c in sorted(rail_exits)],
            },
            "areas": areas,
            "lines": lines,
        }


def build_map(geo: dict) -> dict:
    """The map.toml document (a plain dict in DATA-SCHEMA.md's shape) for a geo.toml dict."""
    validate_geo(geo)
    return _Builder(geo).build()


def render_map_toml(doc: dict) -> str:
    """Stable TOML text for a map document: same dict in, same bytes out."""
    lines = [
        "# SPI Kiev (1979) map, GENERATED by kiev_tui/games/spi_kiev/mapbuild.py from geo.toml.",
        "# Do not edit by hand: change data/spi_kiev/geo.toml and run",
        "#     python -m kiev_tui.games.spi_kiev.mapbuild",
        "# The whole map is reconstructed from real geography; see SOURCES.md (section Map).",
        "",
    ]
    return render_map(doc, lines)


def load_geo(path: Path = GEO_PATH) -> dict:
    """The geography source; DataError (naming the file) for a FIFO, a huge or broken file."""
    return load_toml(path)




def main(argv: Iterable[str] | None = None) -> int:
    return run_builder(argv, what="data/spi_kiev/map.toml", module="kiev_tui.games.spi_kiev.mapbuild",
                       geo_path=GEO_PATH, map_path=MAP_PATH,
                       build_text=lambda path: render_map_toml(build_map(load_geo(path))))


if __name__ == "__main__":
    sys.exit(main())
