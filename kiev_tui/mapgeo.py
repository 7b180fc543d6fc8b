"""Hex-lattice geometry that every map builder shares (``geo.toml`` -> ``map.toml``).

A builder projects latitude/longitude onto a lattice and rasterises places, rivers, lines and
areas onto hexes the same way every run.  Cells are (col, row) on the engine's internal
even-low grid (``engine/hexes.py``): hex (col, row) has its centre at ``X = 3*col``,
``Y = 2*row + (1 if col is even)`` and its corners at ``(X±2, Y)`` and ``(X±1, Y±1)``; one X
unit is a quarter hex width, one Y unit half a hex height, so a distance is
``sqrt(dX**2 / 3 + dY**2)`` in half hex heights.  A builder supplies the projection and how
its map prints ids (``LatticeBuilder.lattice``, ``parse_cell``, ``side_text``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from kiev_tui.engine.errors import DataError

Cell = tuple[int, int]          # (col, row), may lie off the map
Corner = tuple[int, int]        # lattice point of a hex corner
Point = tuple[float, float]     # lattice point (X, Y), floats

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


def dist2(ax: float, ay: float, bx: float, by: float) -> float:
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
            cand = (dist2(x, y, cx, cy), col, row)
            if best is None or cand < best:
                best = cand
    assert best is not None
    return best[1], best[2]


def nearest_corner(p: Point) -> Corner:
    """The hex corner nearest to a lattice point: always a corner of the hex containing it."""
    cands = sorted((dist2(p[0], p[1], cx, cy), cx, cy) for cx, cy in cell_corners(nearest_cell(p)))
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


# -- the map frame ------------------------------------------------------------------------

@dataclass(frozen=True)
class Frame:
    """The map's cells: ``columns`` lattice columns from ``first_column``, rows from 1."""

    columns: int
    rows: int
    first_column: int = 1   # 2 on a map whose first printed column stands low (hexes.Grid)

    @property
    def last_column(self) -> int:
        return self.first_column + self.columns - 1

    def on_map(self, cell: Cell) -> bool:
        return self.first_column <= cell[0] <= self.last_column and 1 <= cell[1] <= self.rows

    def in_graph(self, cell: Cell) -> bool:
        return (self.first_column - _MARGIN <= cell[0] <= self.last_column + _MARGIN
                and 1 - _MARGIN <= cell[1] <= self.rows + _MARGIN)

    def cells(self) -> list[Cell]:
        return [(c, r) for c in range(self.first_column, self.last_column + 1) for r in range(1, self.rows + 1)]


class CornerGraph:
    """Hex corners joined by hexsides, over the map and a margin around it."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.adj: dict[Corner, set[Corner]] = {}
        self.side_cells: dict[frozenset[Corner], tuple[Cell, Cell]] = {}
        for col in range(frame.first_column - _MARGIN, frame.last_column + _MARGIN + 1):
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
        return self._search(a, {b}, f"no corner path from {a} to {b}")

    def path_to_any(self, a: Corner, targets: set[Corner]) -> list[Corner]:
        """Shortest corner path from a to the nearest corner of targets."""
        return self._search(a, targets, f"no corner path from {a} to the target river")

    def _search(self, a: Corner, targets: set[Corner], failure: str) -> list[Corner]:
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
        raise MapBuildError(failure)

    def hexside_cells(self, a: Corner, b: Corner) -> tuple[Cell, Cell]:
        return self.side_cells[frozenset((a, b))]

    def side_corners(self, c1: Cell, c2: Cell) -> tuple[Corner, Corner]:
        """The two corners of the side between adjacent cells c1 and c2."""
        shared = sorted(set(cell_corners(c1)) & set(cell_corners(c2)))
        if len(shared) != 2:
            raise MapBuildError(f"{c1} and {c2} are not adjacent")
        return shared[0], shared[1]


# -- helpers ------------------------------------------------------------------------------

def side_sort_key(text: str) -> tuple[int, int, int, int]:
    a, b = text.split("/")
    return int(a[:2]), int(a[2:]), int(b[:2]), int(b[2:])


def remove_loops(seq: Sequence[Any]) -> list[Any]:
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


def densify(points: Sequence[Point], step: float = _SAMPLE_STEP) -> list[Point]:
    if not points:
        return []
    out = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.sqrt(dist2(x0, y0, x1, y1))
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


# -- rivers and lines, for any builder ----------------------------------------------------

class LatticeBuilder(ABC):
    """The frame, its corner graph, and rivers and railways traced along it."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.graph = CornerGraph(frame)
        self.settlements: dict[str, Cell] = {}    # name -> cell, the anchors of lines
        self.river_corners: dict[str, list[Corner]] = {}

    @abstractmethod
    def lattice(self, lat: float, lon: float) -> Point:
        """Where a latitude/longitude falls on the lattice (the builder's projection)."""

    @abstractmethod
    def parse_cell(self, text: str) -> Cell:
        """A cell from a hex id as the map prints it."""

    @abstractmethod
    def side_text(self, a: Cell, b: Cell) -> str:
        """The hexside between two adjacent cells as the map prints it."""

    # rivers --------------------------------------------------------------------------
    def _river_corner_seq(self, points: Sequence[Any], name: str) -> list[Corner]:
        """Corner sequence (before loop removal) of a river's point list."""
        seq: list[Corner] = []
        run: list[Point] = []

        def flush() -> None:
            for p in densify(run):
                if self.frame.in_graph(nearest_cell(p)):
                    seq.append(nearest_corner(p))
            run.clear()

        for i, item in enumerate(points):
            if isinstance(item, str):
                flush()
                a, b = item.split("/")
                ca, cb = self.graph.side_corners(self.parse_cell(a), self.parse_cell(b))
                ref: Point | None = None
                if seq:
                    ref = (float(seq[-1][0]), float(seq[-1][1]))
                    first, second = sorted((ca, cb), key=lambda c: (dist2(ref[0], ref[1], *c), c))
                else:
                    nxt = self._first_point_after(points, i)
                    first, second = sorted((ca, cb), key=lambda c: (-dist2(nxt[0], nxt[1], *c), c))
                seq.extend((first, second))
                run.append((float(second[0]), float(second[1])))
            else:
                run.append(self.lattice(float(item[0]), float(item[1])))
        flush()
        if not seq:
            raise MapBuildError(f"river {name!r} has no point near the map")
        return seq

    def _first_point_after(self, points: Sequence[Any], i: int) -> Point:
        for item in points[i + 1:]:
            if isinstance(item, str):
                a, b = item.split("/")
                ca, cb = self.graph.side_corners(self.parse_cell(a), self.parse_cell(b))
                return (ca[0] + cb[0]) / 2.0, (ca[1] + cb[1]) / 2.0
            return self.lattice(float(item[0]), float(item[1]))
        raise MapBuildError("a river needs a point after its first pinned hexside")

    def build_river(self, river: dict) -> list[Corner]:
        name = river["name"]
        raw = self._river_corner_seq(river["points"], name)
        path: list[Corner] = [raw[0]]
        for c in raw[1:]:
            if c != path[-1]:
                path.extend(self.graph.path(path[-1], c)[1:])
        path = remove_loops(path)
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
                anchors.append(self.lattice(float(item[0]), float(item[1])))
        cells: list[Cell] = []
        for p in densify(anchors):
            c = nearest_cell(p)
            if not cells:
                cells.append(c)
            elif c != cells[-1]:
                cells.extend(cell_line(cells[-1], c)[1:])
        return remove_loops(cells)

    def trace_lines(self, kind: str) -> tuple[set[str], set[Cell]]:
        sides: set[str] = set()
        exits: set[Cell] = set()
        for line in self.geo.get(kind, []):
            cells = self.line_cells(line["points"], f"{kind} {line['name']!r}")
            for a, b in zip(cells, cells[1:]):
                on_a, on_b = self.frame.on_map(a), self.frame.on_map(b)
                if on_a and on_b:
                    sides.add(self.side_text(a, b))
                elif on_a != on_b:
                    exits.add(a if on_a else b)
        return sides, exits


# -- TOML output --------------------------------------------------------------------------

def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def toml_list(key: str, items: Sequence[str], per_line: int = 8) -> list[str]:
    if not items:
        return [f"{key} = []"]
    out = [f"{key} = ["]
    for i in range(0, len(items), per_line):
        out.append("    " + ", ".join(toml_value(x) for x in items[i:i + per_line]) + ",")
    out.append("]")
    return out



def render_map(doc: dict, header: list[str]) -> str:
    """Stable map.toml text for a map document under its comment header: same in, same bytes out.

    ``doc`` has the keys map, hexes, hexsides, river, edges, areas and lines, written in the
    order its dicts hold them."""
    lines = header + ["[map]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in doc["map"].items()]
    lines += ["", "[hexes]"]
    lines += [f"{toml_value(k)} = {toml_value(v)}" for k, v in doc["hexes"].items()]
    lines += ["", "[hexsides]"]
    for key, sides in doc["hexsides"].items():
        lines += toml_list(key, sides, per_line=7)
    for river in doc["river"]:
        lines += ["", "[[river]]", f"name = {toml_value(river['name'])}",
                  f"kind = {toml_value(river['kind'])}"]
        lines += toml_list("hexsides", river["hexsides"], per_line=7)
    lines += ["", "[edges]"]
    for key, exits in doc["edges"].items():
        lines += toml_list(key, exits, per_line=10)
    for name, area in doc["areas"].items():
        lines += ["", f"[areas.{name}]", f"side = {toml_value(area['side'])}"]
        lines += toml_list("hexes", area["hexes"], per_line=12)
    for name, line in doc["lines"].items():
        lines += ["", f"[lines.{name}]"]
        lines += toml_list("hexsides", line["hexsides"], per_line=7)
    return "\n".join(lines) + "\n"


# -- the command line ---------------------------------------------------------------------

def run_builder(argv: Iterable[str] | None, *, what: str, module: str, geo_path: Path, map_path: Path,
                build_text: Callable[[Path], str]) -> int:
    """``python -m <module>`` rewrites the map file; ``--check`` exits 1 when it is stale."""
    parser = argparse.ArgumentParser(description=f"Build {what} from its geo.toml.")
    parser.add_argument("--geo", type=Path, default=geo_path, help="geography source file")
    parser.add_argument("--out", type=Path, default=map_path, help="map file to write or check")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the map file differs from a fresh build")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        text = build_text(args.geo)
    except (MapBuildError, DataError) as exc:
        print(f"mapbuild: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"mapbuild: {args.out} is out of date; run python -m {module}", file=sys.stderr)
            return 1
        print(f"mapbuild: {args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"mapbuild: wrote {args.out}")
    return 0
