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

import argparse
import json
import math
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.hexes import Hex, Hexside
from kiev_tui.engine.tomlio import load_toml

Cell = tuple[int, int]          # (col, row), may lie off the map
Corner = tuple[int, int]        # lattice point of a hex corner
Point = tuple[float, float]     # lattice point (X, Y), floats

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "spi_kiev"
GEO_PATH = DATA_DIR / "geo.toml"
MAP_PATH = DATA_DIR / "map.toml"

# Lattice offsets of the six corners, and the cell offset across the side between corner k
# and corner k+1 (sides SE, S, SW, NW, N, NE in that order).
_CORNERS: tuple[Corner, ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
_MARGIN = 8                     # off-map cells kept in the corner graph for off-map routing
_SAMPLE_STEP = 0.25             # sampling step along polylines, in Y units (1 km)


class MapBuildError(ValueError):
    """The geography file cannot be turned into a valid map."""


# -- lattice geometry ---------------------------------------------------------------------

def cell_center(cell: Cell) -> Corner:
    col, row = cell
    return 3 * col, 2 * row + (1 if col % 2 == 0 else 0)


def cell_corners(cell: Cell) -> list[Corner]:
    x, y = cell_center(cell)
    return [(x + dx, y + dy) for dx, dy in _CORNERS]


def _cell_at_center(x: int, y: int) -> Cell:
    col = x // 3
    return col, (y - (1 if col % 2 == 0 else 0)) // 2


def cell_neighbours(cell: Cell) -> list[Cell]:
    """Cells across each side, in side order SE, S, SW, NW, N, NE."""
    cx, cy = cell_center(cell)
    out = []
    for k in range(6):
        (ax, ay), (bx, by) = _CORNERS[k], _CORNERS[(k + 1) % 6]
        out.append(_cell_at_center(cx + (ax + bx), cy + (ay + by)))
    return out


def _dist2(ax: float, ay: float, bx: float, by: float) -> float:
    return (ax - bx) ** 2 / 3.0 + (ay - by) ** 2


def nearest_cell(p: Point) -> Cell:
    """The hex whose centre is nearest to a lattice point (ties: lowest col, then row)."""
    x, y = p
    c0 = round(x / 3)
    best: tuple[float, int, int] | None = None
    for col in (c0 - 1, c0, c0 + 1):
        par = 1 if col % 2 == 0 else 0
        r0 = round((y - par) / 2)
        for row in (r0 - 1, r0, r0 + 1):
            cx, cy = cell_center((col, row))
            cand = (_dist2(x, y, cx, cy), col, row)
            if best is None or cand < best:
                best = cand
    assert best is not None
    return best[1], best[2]


def nearest_corner(p: Point) -> Corner:
    """The hex corner nearest to a lattice point: always a corner of the hex containing it."""
    cands = sorted((_dist2(p[0], p[1], cx, cy), cx, cy) for cx, cy in cell_corners(nearest_cell(p)))
    return cands[0][1], cands[0][2]


def _axial(cell: Cell) -> tuple[int, int]:
    col, row = cell
    return col, row - (col - 1) // 2


def _from_axial(q: int, r: int) -> Cell:
    return q, r + (q - 1) // 2


def cell_distance(a: Cell, b: Cell) -> int:
    (q1, r1), (q2, r2) = _axial(a), _axial(b)
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cell_line(a: Cell, b: Cell) -> list[Cell]:
    """Hexes on the straight line from a to b inclusive (cube lerp, nudged off ties)."""
    n = cell_distance(a, b)
    if n == 0:
        return [a]
    (q1, r1), (q2, r2) = _axial(a), _axial(b)
    out: list[Cell] = []
    for i in range(n + 1):
        t = i / n
        fq = q1 + (q2 - q1) * t + 1e-6
        fr = r1 + (r2 - r1) * t + 2e-6
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        out.append(_from_axial(q, r))
    return out


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


# -- the map frame ------------------------------------------------------------------------

@dataclass(frozen=True)
class Frame:
    columns: int
    rows: int

    def on_map(self, cell: Cell) -> bool:
        return 1 <= cell[0] <= self.columns and 1 <= cell[1] <= self.rows

    def in_graph(self, cell: Cell) -> bool:
        return (1 - _MARGIN <= cell[0] <= self.columns + _MARGIN
                and 1 - _MARGIN <= cell[1] <= self.rows + _MARGIN)

    def cells(self) -> list[Cell]:
        return [(c, r) for c in range(1, self.columns + 1) for r in range(1, self.rows + 1)]


class CornerGraph:
    """Hex corners joined by hexsides, over the map and a margin around it."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.adj: dict[Corner, set[Corner]] = {}
        self.side_cells: dict[frozenset[Corner], tuple[Cell, Cell]] = {}
        for col in range(1 - _MARGIN, frame.columns + _MARGIN + 1):
            for row in range(1 - _MARGIN, frame.rows + _MARGIN + 1):
                cell = (col, row)
                corners = cell_corners(cell)
                for k, other in enumerate(cell_neighbours(cell)):
                    a, b = corners[k], corners[(k + 1) % 6]
                    self.adj.setdefault(a, set()).add(b)
                    self.adj.setdefault(b, set()).add(a)
                    self.side_cells[frozenset((a, b))] = tuple(sorted((cell, other)))  # type: ignore[assignment]

    def path(self, a: Corner, b: Corner) -> list[Corner]:
        """Shortest corner path a..b (BFS, neighbours in sorted order: deterministic)."""
        if a == b:
            return [a]
        prev: dict[Corner, Corner] = {a: a}
        queue = deque([a])
        while queue:
            cur = queue.popleft()
            for nxt in sorted(self.adj.get(cur, ())):
                if nxt not in prev:
                    prev[nxt] = cur
                    if nxt == b:
                        out = [b]
                        while out[-1] != a:
                            out.append(prev[out[-1]])
                        return out[::-1]
                    queue.append(nxt)
        raise MapBuildError(f"no corner path from {a} to {b}")

    def path_to_any(self, a: Corner, targets: set[Corner]) -> list[Corner]:
        """Shortest corner path from a to the nearest corner of targets."""
        if a in targets:
            return [a]
        prev: dict[Corner, Corner] = {a: a}
        queue = deque([a])
        while queue:
            cur = queue.popleft()
            for nxt in sorted(self.adj.get(cur, ())):
                if nxt not in prev:
                    prev[nxt] = cur
                    if nxt in targets:
                        out = [nxt]
                        while out[-1] != a:
                            out.append(prev[out[-1]])
                        return out[::-1]
                    queue.append(nxt)
        raise MapBuildError(f"no corner path from {a} to the target river")

    def hexside_cells(self, a: Corner, b: Corner) -> tuple[Cell, Cell]:
        return self.side_cells[frozenset((a, b))]

    def side_corners(self, c1: Cell, c2: Cell) -> tuple[Corner, Corner]:
        """The two corners of the side between adjacent cells c1 and c2."""
        shared = sorted(set(cell_corners(c1)) & set(cell_corners(c2)))
        if len(shared) != 2:
            raise MapBuildError(f"{c1} and {c2} are not adjacent")
        return shared[0], shared[1]


# -- helpers ------------------------------------------------------------------------------

def parse_cell(text: str) -> Cell:
    h = Hex.parse(text)
    return h.col, h.row


def cell_id(cell: Cell) -> str:
    return f"{cell[0]:02d}{cell[1]:02d}"


def side_id(a: Cell, b: Cell) -> str:
    return str(Hexside(Hex(*a), Hex(*b)))


def _side_sort_key(text: str) -> tuple[int, int, int, int]:
    a, b = text.split("/")
    return int(a[:2]), int(a[2:]), int(b[:2]), int(b[2:])


def _remove_loops(seq: Sequence[Any]) -> list[Any]:
    """Drop immediate repeats and any loop (a later return to an item already in the path)."""
    out: list[Any] = []
    index: dict[Any, int] = {}
    for item in seq:
        if item in index:
            cut = index[item]
            for gone in out[cut + 1:]:
                del index[gone]
            del out[cut + 1:]
            continue
        index[item] = len(out)
        out.append(item)
    return out


def _densify(points: Sequence[Point], step: float = _SAMPLE_STEP) -> list[Point]:
    if not points:
        return []
    out = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.sqrt(_dist2(x0, y0, x1, y1))
        n = max(1, math.ceil(length / step))
        for i in range(1, n + 1):
            t = i / n
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
    return out


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


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

class _Builder:
    def __init__(self, geo: dict) -> None:
        self.geo = geo
        m = geo["map"]
        self.frame = Frame(int(m["columns"]), int(m["rows"]))
        self.proj = Projection(**{k: float(v) for k, v in geo["projection"].items()})
        self.graph = CornerGraph(self.frame)
        self.settlements: dict[str, Cell] = {}
        self.settlement_rows: dict[Cell, dict[str, str]] = {}
        self.river_corners: dict[str, list[Corner]] = {}

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

    # rivers --------------------------------------------------------------------------
    def _river_corner_seq(self, points: Sequence[Any], name: str) -> list[Corner]:
        """Corner sequence (before loop removal) of a river's point list."""
        seq: list[Corner] = []
        run: list[Point] = []

        def flush() -> None:
            for p in _densify(run):
                if self.frame.in_graph(nearest_cell(p)):
                    seq.append(nearest_corner(p))
            run.clear()

        for i, item in enumerate(points):
            if isinstance(item, str):
                flush()
                a, b = item.split("/")
                ca, cb = self.graph.side_corners(parse_cell(a), parse_cell(b))
                ref: Point | None = None
                if seq:
                    ref = (float(seq[-1][0]), float(seq[-1][1]))
                    first, second = sorted((ca, cb), key=lambda c: (_dist2(ref[0], ref[1], *c), c))
                else:
                    nxt = self._first_point_after(points, i)
                    first, second = sorted((ca, cb), key=lambda c: (-_dist2(nxt[0], nxt[1], *c), c))
                seq.extend((first, second))
                run.append((float(second[0]), float(second[1])))
            else:
                run.append(self.proj.lattice(float(item[0]), float(item[1])))
        flush()
        if not seq:
            raise MapBuildError(f"river {name!r} has no point near the map")
        return seq

    def _first_point_after(self, points: Sequence[Any], i: int) -> Point:
        for item in points[i + 1:]:
            if isinstance(item, str):
                a, b = item.split("/")
                ca, cb = self.graph.side_corners(parse_cell(a), parse_cell(b))
                return (ca[0] + cb[0]) / 2.0, (ca[1] + cb[1]) / 2.0
            return self.proj.lattice(float(item[0]), float(item[1]))
        raise MapBuildError("a river needs a point after its first pinned hexside")

    def build_river(self, river: dict) -> list[Corner]:
        name = river["name"]
        raw = self._river_corner_seq(river["points"], name)
        path: list[Corner] = [raw[0]]
        for c in raw[1:]:
            if c != path[-1]:
                path.extend(self.graph.path(path[-1], c)[1:])
        path = _remove_loops(path)
        parent = river.get("joins")
        if parent:
            if parent not in self.river_corners:
                raise MapBuildError(f"river {name!r} joins {parent!r}, which is not built before it")
            targets = set(self.river_corners[parent])
            for i, c in enumerate(path):
                if c in targets:
                    path = path[: i + 1]
                    break
            else:
                path = path + self.graph.path_to_any(path[-1], targets)[1:]
        self.river_corners[name] = path
        return path

    def on_map_runs(self, corners: Sequence[Corner]) -> list[list[tuple[Cell, Cell]]]:
        """The river's hexsides split into runs whose two hexes are both on the map."""
        runs: list[list[tuple[Cell, Cell]]] = []
        cur: list[tuple[Cell, Cell]] = []
        for a, b in zip(corners, corners[1:]):
            c1, c2 = self.graph.hexside_cells(a, b)
            if self.frame.on_map(c1) and self.frame.on_map(c2):
                cur.append((c1, c2))
            elif cur:
                runs.append(cur)
                cur = []
        if cur:
            runs.append(cur)
        return runs

    # roads and railways --------------------------------------------------------------
    def line_cells(self, points: Sequence[Any], what: str) -> list[Cell]:
        anchors: list[Point] = []
        for item in points:
            if isinstance(item, str):
                if item not in self.settlements:
                    raise MapBuildError(f"{what}: unknown settlement {item!r}")
                cx, cy = cell_center(self.settlements[item])
                anchors.append((float(cx), float(cy)))
            else:
                anchors.append(self.proj.lattice(float(item[0]), float(item[1])))
        cells: list[Cell] = []
        for p in _densify(anchors):
            c = nearest_cell(p)
            if not cells:
                cells.append(c)
            elif c != cells[-1]:
                cells.extend(cell_line(cells[-1], c)[1:])
        return _remove_loops(cells)

    def trace_lines(self, kind: str) -> tuple[set[str], set[Cell]]:
        sides: set[str] = set()
        exits: set[Cell] = set()
        for line in self.geo.get(kind, []):
            cells = self.line_cells(line["points"], f"{kind} {line['name']!r}")
            for a, b in zip(cells, cells[1:]):
                on_a, on_b = self.frame.on_map(a), self.frame.on_map(b)
                if on_a and on_b:
                    sides.add(side_id(a, b))
                elif on_a != on_b:
                    exits.add(a if on_a else b)
        return sides, exits

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
                "road": sorted(roads, key=_side_sort_key),
                "railroad": sorted(rails, key=_side_sort_key),
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


# -- TOML output --------------------------------------------------------------------------

def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _toml_list(key: str, items: Sequence[str], per_line: int = 8) -> list[str]:
    if not items:
        return [f"{key} = []"]
    out = [f"{key} = ["]
    for i in range(0, len(items), per_line):
        out.append("    " + ", ".join(_toml_value(x) for x in items[i:i + per_line]) + ",")
    out.append("]")
    return out


def render_map_toml(doc: dict) -> str:
    """Stable TOML text for a map document: same dict in, same bytes out."""
    lines = [
        "# SPI Kiev (1979) map, GENERATED by kiev_tui/games/spi_kiev/mapbuild.py from geo.toml.",
        "# Do not edit by hand: change data/spi_kiev/geo.toml and run",
        "#     python -m kiev_tui.games.spi_kiev.mapbuild",
        "# The whole map is reconstructed from real geography; see SOURCES.md (section Map).",
        "",
        "[map]",
    ]
    lines += [f"{k} = {_toml_value(v)}" for k, v in doc["map"].items()]
    lines += ["", "[hexes]"]
    lines += [f"{_toml_value(k)} = {_toml_value(v)}" for k, v in doc["hexes"].items()]
    lines += ["", "[hexsides]"]
    for key in ("road", "railroad", "lake"):
        lines += _toml_list(key, doc["hexsides"][key], per_line=7)
    for river in doc["river"]:
        lines += ["", "[[river]]", f"name = {_toml_value(river['name'])}",
                  f"kind = {_toml_value(river['kind'])}"]
        lines += _toml_list("hexsides", river["hexsides"], per_line=7)
    lines += ["", "[edges]"]
    lines += _toml_list("road_exits", doc["edges"]["road_exits"], per_line=10)
    lines += _toml_list("rail_exits", doc["edges"]["rail_exits"], per_line=10)
    for name, area in doc["areas"].items():
        lines += ["", f"[areas.{name}]", f"side = {_toml_value(area['side'])}"]
        lines += _toml_list("hexes", area["hexes"], per_line=12)
    for name, line in doc["lines"].items():
        lines += ["", f"[lines.{name}]"]
        lines += _toml_list("hexsides", line["hexsides"], per_line=7)
    return "\n".join(lines) + "\n"


def load_geo(path: Path = GEO_PATH) -> dict:
    """The geography source; DataError (naming the file) for a FIFO, a huge or broken file."""
    return load_toml(path)


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build data/spi_kiev/map.toml from geo.toml.")
    parser.add_argument("--geo", type=Path, default=GEO_PATH, help="geography source file")
    parser.add_argument("--out", type=Path, default=MAP_PATH, help="map file to write or check")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the map file differs from a fresh build")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        text = render_map_toml(build_map(load_geo(args.geo)))
    except (MapBuildError, DataError) as exc:
        print(f"mapbuild: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"mapbuild: {args.out} is out of date; run python -m kiev_tui.games.spi_kiev.mapbuild",
                  file=sys.stderr)
            return 1
        print(f"mapbuild: {args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"mapbuild: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
