"""Build the Barbarossa 1941 map (``data/barbarossa1941/map.toml``) from ``geo.toml``.

The rulebook prints no map, only hex ids (set-ups of 15 and 17, the border zone of 13, the
Kerch crossing of 12.10, the entry hexes of 9.1 and 15.3).  We rebuild it from geography:

- places, coasts, terrain, rivers, railways and the June 1941 frontiers are given in
  latitude/longitude and projected with RESEARCH-NEXT.md A.2's fit (a Lambert conformal conic,
  then a similarity transform onto the hex grid), odd columns half a hex low;
- a place whose hex the book gives carries ``hex = "CCRR"`` and stands there, whatever the
  projection says; the rest stand on the hex the projection gives;
- a terrain polygon claims every hex whose centre lies inside it (later polygons win), then
  ``[[hex]]`` entries set single hexes, each with its reason;
- rivers become chains of hexsides meeting at hex corners; railways the hexsides between
  consecutive hexes of their path; a railway leaving the map marks its last hex as an exit;
- countries are polygons too; the border lines are the hexsides where two of them meet.

Run ``python -m kiev_tui.games.barbarossa1941.mapbuild`` to rewrite map.toml, ``--check`` to
fail (exit 1) when the committed map differs from a fresh build.  Every error in geo.toml is a
DataError naming the file, the key and the reason (``check_geo_file`` for ``kiev-tui validate``).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.hexes import Grid, Hex, HexError, Hexside
from kiev_tui.engine.tomlio import Reader, load_toml
from kiev_tui.games.barbarossa1941.schema import SCHEMA
from kiev_tui.mapgeo import (Cell, Frame, LatticeBuilder, MapBuildError, Point, cell_center, cell_distance,
                             cell_neighbours, nearest_cell, point_in_polygon, render_map, run_builder,
                             side_sort_key)

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "barbarossa1941"
GEO_PATH = DATA_DIR / "geo.toml"
MAP_PATH = DATA_DIR / "map.toml"

PLACE_KINDS = ("major_city", "minor_city", "place")  # a "place" is a name only, no settlement
WATER = ("sea", "lake")  # terrains a polygon names its hexes after (the Sea of Azov, Ladoga...)


# -- projection ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ConicProjection:
    """A spherical Lambert conformal conic, then a similarity transform onto the hex grid.

    ``grid`` gives the printed column and a row measure in which a hex of a low column has
    its centre at row + 0.5 (RESEARCH-NEXT.md A.2).
    """

    lat1: float
    lat2: float
    lat0: float
    lon0: float
    radius_km: float
    scale: float      # hex widths (flat to flat) per km
    cos: float        # the transform's rotation and mirror (y runs south on the grid)
    sin: float
    x0: float         # grid offset, in hex widths
    y0: float

    def km(self, lat: float, lon: float) -> tuple[float, float]:
        """Conic coordinates in km, x east and y north of the origin."""
        p1, p2, p0 = (math.radians(v) for v in (self.lat1, self.lat2, self.lat0))

        def t(phi: float) -> float:
            return math.tan(math.pi / 4 + phi / 2)

        n = math.log(math.cos(p1) / math.cos(p2)) / math.log(t(p2) / t(p1))
        f = math.cos(p1) * t(p1) ** n / n
        rho = self.radius_km * f / t(math.radians(lat)) ** n
        rho0 = self.radius_km * f / t(p0) ** n
        theta = n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    def grid(self, lat: float, lon: float) -> tuple[float, float]:
        x, y = self.km(lat, lon)
        gx = self.scale * (self.cos * x + self.sin * y) + self.x0
        gy = self.scale * (self.sin * x - self.cos * y) + self.y0
        return gx / (math.sqrt(3) / 2), gy


# -- reading geo.toml ---------------------------------------------------------------------

def _point(reader: Reader, key: str, value: Any) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise reader.fail(key, "expected [latitude, longitude]")
    lat, lon = float(value[0]), float(value[1])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise reader.fail(key, f"[{lat}, {lon}] is not a latitude and longitude")
    return lat, lon


def _polygon(reader: Reader, key: str) -> list[tuple[float, float]]:
    """A polygon's corners, its edges cut into steps of a quarter degree at most: an edge
    runs along a parallel or meridian as drawn, not along the projection's straight chord."""
    value = reader.get(key, list)
    if len(value) < 3:
        raise reader.fail(key, "a polygon needs at least three points")
    corners = [_point(reader, f"{key}[{i}]", p) for i, p in enumerate(value)]
    out: list[tuple[float, float]] = []
    for (lat0, lon0), (lat1, lon1) in zip(corners, corners[1:] + corners[:1]):
        steps = max(1, math.ceil(max(abs(lat1 - lat0), abs(lon1 - lon0)) / 0.25))
        out += [(lat0 + (lat1 - lat0) * i / steps, lon0 + (lon1 - lon0) * i / steps) for i in range(steps)]
    return out


def _inside(poly: list[Point], centres: dict[Cell, Point]) -> list[Cell]:
    """The cells whose centre lies inside a lattice polygon (a bounding box first: it is quick)."""
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [c for c, (x, y) in centres.items()
            if x0 <= x <= x1 and y0 <= y <= y1 and point_in_polygon((x, y), poly)]


class _Builder(LatticeBuilder):
    """One build of the map from a parsed geo.toml; every complaint is a DataError."""

    def __init__(self, path: str | Path, data: dict[str, Any]) -> None:
        self.root = root = Reader(path, data)
        self.geo = data  # LatticeBuilder.trace_lines reads [[railroad]] from it
        root.only(["meta", "map", "projection", "place", "terrain", "hex", "river", "railroad",
                   "sea_area", "lake_side", "strait", "country", "zone", "line"])
        m = root.table("map")
        m.only(["game", "columns", "rows", "parity", "scale_km", "default_country", "note"])
        if m.str("game") != "barbarossa1941":
            raise m.fail("game", f"this builder makes the barbarossa1941 map, not {m.str('game')!r}")
        self.meta = m
        columns, rows = m.int("columns"), m.int("rows")
        for key, value in (("columns", columns), ("rows", rows)):
            if not 1 <= value <= 99:
                raise m.fail(key, f"must be between 1 and 99, not {value}")
        try:
            self.grid_ids = Grid(m.str("parity"))
        except ValueError as exc:
            raise m.fail("parity", str(exc)) from None
        super().__init__(Frame(columns, rows, self.grid_ids.first_internal_column))
        self.shift = self.grid_ids.first_internal_column - self.grid_ids.first_column
        p = root.table("projection")
        names = ["lat1", "lat2", "lat0", "lon0", "radius_km", "scale", "cos", "sin", "x0", "y0"]
        p.only(names + ["note"])
        self.proj = ConicProjection(**{k: float(p.num(k)) for k in names})
        self.place_rows: dict[Cell, dict[str, str]] = {}
        self.place_keys: dict[str, Reader] = {}

    # ids -----------------------------------------------------------------------------
    def lattice(self, lat: float, lon: float) -> Point:
        col, y = self.proj.grid(lat, lon)
        return 3.0 * (col + self.shift), 2.0 * y

    def parse_cell(self, text: str) -> Cell:
        h = self.grid_ids.parse(text)
        return h.col, h.row

    def side_text(self, a: Cell, b: Cell) -> str:
        return self.grid_ids.side_id(Hexside(Hex(*a), Hex(*b)))

    def cell_id(self, cell: Cell) -> str:
        return self.grid_ids.id(Hex(*cell))

    def hex_at(self, reader: Reader, key: str) -> Cell:
        """A hex id from the file, on the map, or a DataError naming the key."""
        text = reader.str(key)
        try:
            cell = self.parse_cell(text)
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        if not self.frame.on_map(cell):
            raise reader.fail(key, f"hex {text} is off the map ({self.frame.columns} columns x "
                                   f"{self.frame.rows} rows)")
        return cell

    def side_at(self, reader: Reader, key: str, text: str) -> tuple[Cell, Cell]:
        try:
            side = self.grid_ids.side(text)
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        cells = (side.a.col, side.a.row), (side.b.col, side.b.row)
        for c in cells:
            if not self.frame.on_map(c):
                raise reader.fail(key, f"hexside {text} touches hex {self.cell_id(c)}, which is off the map")
        return cells

    def projected(self, lat: float, lon: float) -> Cell:
        return nearest_cell(self.lattice(lat, lon))

    # places --------------------------------------------------------------------------
    def place_all(self) -> None:
        for r in self.root.tables("place"):
            r.only(["name", "kind", "lat", "lon", "hex", "case", "note"])
            name, kind = r.str("name"), r.str("kind")
            if kind not in PLACE_KINDS:
                raise r.fail("kind", f"must be one of {', '.join(PLACE_KINDS)}, not {kind!r}")
            lat, lon = _point(r, "lat", [r.num("lat"), r.num("lon")])
            if name in self.settlements:
                raise r.fail("name", f"place {name!r} is listed twice")
            if "hex" in r.data:
                cell = self.hex_at(r, "hex")
                r.str("case")  # the book's case that gives the hex: required with it
            else:
                cell = self.projected(lat, lon)
                if not self.frame.on_map(cell):
                    raise r.fail("lat", f"{name!r} projects off the map (give hex = \"CCRR\" or drop it)")
            if cell in self.place_rows:
                other = self.place_rows[cell]["name"]
                raise r.fail("name", f"{name!r} and {other!r} both fall in hex {self.cell_id(cell)}")
            self.settlements[name] = cell
            self.place_keys[name] = r
            row = {"name": name} if kind == "place" else {"settlement": kind, "name": name}
            self.place_rows[cell] = row

    # terrain -------------------------------------------------------------------------
    def terrain(self) -> tuple[dict[Cell, str], dict[Cell, str]]:
        """Terrain of every hex that is not clear, and the names of sea and lake hexes."""
        out: dict[Cell, str] = {}
        land: dict[Cell, str] = {}  # the last land terrain under each hex, for towns on a shore
        water_name: dict[Cell, str] = {}
        centres = {c: (float(cell_center(c)[0]), float(cell_center(c)[1])) for c in self.frame.cells()}
        for r in self.root.tables("terrain"):
            r.only(["name", "terrain", "polygon", "note"])
            name, kind = r.str("name"), r.str("terrain")
            if kind not in SCHEMA.terrains:
                raise r.fail("terrain", f"unknown terrain {kind!r} (expected one of {', '.join(SCHEMA.terrains)})")
            poly = [self.lattice(lat, lon) for lat, lon in _polygon(r, "polygon")]
            for cell in _inside(poly, centres):
                out[cell] = kind
                if kind in WATER:
                    water_name[cell] = name
                else:
                    land[cell] = kind
                    water_name.pop(cell, None)
        for r in self.root.tables("sea_area"):  # a named part of a sea: renames, never adds water
            r.only(["name", "polygon", "note"])
            name = r.str("name")
            poly = [self.lattice(lat, lon) for lat, lon in _polygon(r, "polygon")]
            for cell in _inside(poly, centres):
                if out.get(cell) == "sea":
                    water_name[cell] = name
        for cell in self.place_rows:
            if out.get(cell) in WATER:  # a town stands on land: the land polygon under it, or clear
                out[cell] = land.get(cell, "clear")
                water_name.pop(cell, None)
        for r in self.root.tables("hex"):
            r.only(["hex", "terrain", "country", "name", "why"])
            cell = self.hex_at(r, "hex")
            r.str("why")  # every single-hex decision carries its reason
            if "terrain" in r.data:
                kind = r.str("terrain")
                if kind not in SCHEMA.terrains:
                    raise r.fail("terrain", f"unknown terrain {kind!r}")
                if kind in SCHEMA.impassable_terrains and cell in self.place_rows:
                    raise r.fail("terrain", f"hex {r.str('hex')} holds {self.place_rows[cell]['name']!r}; "
                                            f"it cannot be {kind}")
                out[cell] = kind
                if kind not in WATER:
                    water_name.pop(cell, None)
                elif "name" in r.data:  # a hex turned to water takes the name of its sea or lake
                    water_name[cell] = r.str("name")
            if "name" in r.data and r.data.get("terrain") not in WATER:
                raise r.fail("name", "only a hex set to sea or lake takes a name here; towns are [[place]]")
        return {c: k for c, k in out.items() if k != "clear"}, water_name

    # hexside features ----------------------------------------------------------------
    def listed_sides(self, section: str) -> list[str]:
        out: list[str] = []
        for r in self.root.tables(section):
            r.only(["name", "hexsides", "note"])
            r.str("name")
            for i, text in enumerate(r.strs("hexsides")):
                a, b = self.side_at(r, f"hexsides[{i}]", text)
                out.append(self.side_text(a, b))
        return out

    def rivers(self, sea: set[Cell]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        built: set[str] = set()
        for r in self.root.tables("river"):
            r.only(["name", "kind", "points", "joins", "note"])
            name, kind = r.str("name"), r.str("kind")
            if kind not in SCHEMA.river_kinds:
                raise r.fail("kind", f"river kind must be one of {', '.join(SCHEMA.river_kinds)}, not {kind!r}")
            points = r.get("points", list)
            for i, item in enumerate(points):
                if isinstance(item, str):
                    self.side_at(r, f"points[{i}]", item)
                else:
                    _point(r, f"points[{i}]", item)
            joins = r.str("joins", None)
            if joins is not None and joins not in built:
                raise r.fail("joins", f"river {joins!r} is not listed before {name!r}")
            try:
                corners = self.build_river({"name": name, "points": points, "joins": joins})
            except MapBuildError as exc:
                raise r.fail("points", str(exc)) from None
            built.add(name)
            runs = [part for run in self.on_map_runs(corners) for part in self._off_the_sea(run, sea)]
            for n, run in enumerate(runs):
                out.append({"name": name if n == 0 else f"{name} ({n + 1})", "kind": kind,
                            "hexsides": [self.side_text(a, b) for a, b in run]})
        return out

    @staticmethod
    def _off_the_sea(run: list[tuple[Cell, Cell]], sea: set[Cell]) -> list[list[tuple[Cell, Cell]]]:
        """A river's hexsides without those on a sea hex (its mouth): a river ends at the coast."""
        parts: list[list[tuple[Cell, Cell]]] = [[]]
        for a, b in run:
            if a in sea or b in sea:
                if parts[-1]:
                    parts.append([])
            else:
                parts[-1].append((a, b))
        return [part for part in parts if part]

    def railways(self) -> tuple[list[str], list[Cell]]:
        for r in self.root.tables("railroad"):
            r.only(["name", "points", "note"])
            r.str("name")
            for i, item in enumerate(r.get("points", list)):
                if isinstance(item, str):
                    if item not in self.settlements:
                        raise r.fail(f"points[{i}]", f"no place named {item!r}")
                else:
                    _point(r, f"points[{i}]", item)
        sides, exits = self.trace_lines("railroad")
        return sorted(sides, key=side_sort_key), sorted(exits, key=lambda c: self.cell_id(c))

    # countries, zones and border lines -----------------------------------------------
    def countries(self, sea: set[Cell]) -> dict[str, tuple[str, set[Cell]]]:
        if not self.root.tables("country"):
            return {}
        default = self.meta.str("default_country")
        owner: dict[Cell, str] = {c: default for c in self.frame.cells() if c not in sea}
        sides: dict[str, str] = {}
        centres = {c: (float(cell_center(c)[0]), float(cell_center(c)[1])) for c in owner}
        for r in self.root.tables("country"):
            r.only(["name", "side", "polygon", "note"])
            name, side = r.str("name"), r.str("side")
            if side and side not in SCHEMA.sides:
                raise r.fail("side", f"side must be one of {', '.join(SCHEMA.sides)} or \"\", not {side!r}")
            if name in sides and sides[name] != side:
                raise r.fail("side", f"country {name!r} was given side {sides[name]!r} before")
            sides[name] = side
            if "polygon" not in r.data:
                continue  # a country named only (the default one: every hex no polygon claims)
            poly = [self.lattice(lat, lon) for lat, lon in _polygon(r, "polygon")]
            for cell in _inside(poly, centres):
                owner[cell] = name
        if default not in sides:
            raise self.meta.fail("default_country", f"no [[country]] named {default!r}")
        for r in self.root.tables("hex"):
            if "country" in r.data:
                name, cell = r.str("country"), self.hex_at(r, "hex")
                if name not in sides:
                    raise r.fail("country", f"no [[country]] named {name!r}")
                if cell in sea:
                    raise r.fail("country", f"hex {r.str('hex')} is sea, which belongs to no country")
                owner[cell] = name
        out: dict[str, tuple[str, set[Cell]]] = {name: (side, set()) for name, side in sides.items()}
        for cell, name in owner.items():
            out[name][1].add(cell)
        return out

    def zones(self) -> dict[str, set[Cell]]:
        out: dict[str, set[Cell]] = {}
        for r in self.root.tables("zone"):
            r.only(["name", "rows", "hexes", "places", "note"])
            name = r.str("name")
            cells: set[Cell] = set()
            if "rows" in r.data:
                lo, hi = self._rows(r)
                cells |= {c for c in self.frame.cells() if lo <= c[1] <= hi}
            for i, _ in enumerate(r.strs("hexes", [])):
                cells.add(self._listed_hex(r, i))
            for i, place in enumerate(r.strs("places", [])):
                if place not in self.settlements:
                    raise r.fail(f"places[{i}]", f"no place named {place!r}")
                cells.add(self.settlements[place])
            out[name] = cells
        return out

    def _listed_hex(self, r: Reader, i: int) -> Cell:
        text = r.data["hexes"][i]
        try:
            cell = self.parse_cell(text)
        except HexError as exc:
            raise r.fail(f"hexes[{i}]", str(exc)) from None
        if not self.frame.on_map(cell):
            raise r.fail(f"hexes[{i}]", f"hex {text} is off the map")
        return cell

    def _rows(self, r: Reader) -> tuple[int, int]:
        """``rows = [first, last]``; either may be a place's name: that place's row (12.7)."""
        value = r.get("rows", list)
        if len(value) != 2:
            raise r.fail("rows", "expected [first row, last row]")
        out: list[int] = []
        for i, v in enumerate(value):
            if isinstance(v, str):
                if v not in self.settlements:
                    raise r.fail(f"rows[{i}]", f"no place named {v!r}")
                out.append(self.settlements[v][1])
            elif isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= self.frame.rows:
                out.append(v)
            else:
                raise r.fail(f"rows[{i}]", f"expected a row 1-{self.frame.rows} or a place's name")
        return out[0], out[1]

    def border_lines(self, owner: dict[Cell, str]) -> dict[str, list[str]]:
        """Hexsides where one country meets another (``with = "*"``: any other country)."""
        out: dict[str, list[str]] = {}
        for r in self.root.tables("line"):
            r.only(["name", "country", "with", "note"])
            name, a, b = r.str("name"), r.str("country"), r.str("with")
            known = set(owner.values())
            for key, value in (("country", a), ("with", b)):
                if value != "*" and value not in known:
                    raise r.fail(key, f"no country named {value!r} holds a hex")
            sides: set[str] = set()
            for cell, who in owner.items():
                if who != a:
                    continue
                for n in cell_neighbours(cell):
                    other = owner.get(n)
                    if other is not None and other != a and (b == "*" or other == b):
                        sides.add(self.side_text(cell, n))
            out[name] = sorted(sides, key=side_sort_key)
        return out

    # everything ----------------------------------------------------------------------
    def build(self) -> dict[str, Any]:
        self.place_all()
        terrain, water_name = self.terrain()
        sea = {c for c, k in terrain.items() if k in SCHEMA.impassable_terrains}
        hexes: dict[str, dict[str, str]] = {}
        for cell in sorted(set(terrain) | set(self.place_rows) | set(water_name), key=self.cell_id):
            row: dict[str, str] = {"terrain": terrain.get(cell, "clear")}
            if cell in water_name:
                row["name"] = water_name[cell]
            row.update(self.place_rows.get(cell, {}))
            hexes[self.cell_id(cell)] = row
        rivers = self.rivers(sea)
        rails, exits = self.railways()
        lakes = self.listed_sides("lake_side")
        straits = self.listed_sides("strait")
        countries = self.countries(sea)
        owner = {c: name for name, (_, cells) in countries.items() for c in cells}
        areas: dict[str, dict[str, Any]] = {}
        for name, (side, cells) in countries.items():
            areas[name] = {"side": side, "hexes": sorted((self.cell_id(c) for c in cells))}
        for name, cells in self.zones().items():
            if name in areas:
                raise self.root.fail("zone", f"{name!r} is a country's name too")
            areas[name] = {"side": "", "hexes": sorted(self.cell_id(c) for c in cells)}
        m = self.meta
        return {
            "map": {
                "game": m.str("game"),
                "columns": self.frame.columns,
                "rows": self.frame.rows,
                "parity": self.grid_ids.parity,
                "scale_km": m.num("scale_km"),
                "default_terrain": "clear",
                "reconstructed": True,
            },
            "hexes": hexes,
            "hexsides": {"railroad": rails, "lake": sorted(set(lakes), key=side_sort_key),
                         "strait": sorted(set(straits), key=side_sort_key)},
            "river": rivers,
            "edges": {"rail_exits": [self.cell_id(c) for c in exits]},
            "areas": areas,
            "lines": {name: {"hexsides": sides} for name, sides in self.border_lines(owner).items()},
        }


def build_map(path: str | Path, data: dict[str, Any]) -> dict[str, Any]:
    """The map.toml document for a parsed geo.toml (DataError naming file, key and reason)."""
    try:
        return _Builder(path, data).build()
    except MapBuildError as exc:
        raise DataError(path, "", str(exc)) from None


def check_geo_file(path: Path, data: dict[str, Any]) -> None:
    """``kiev-tui validate`` on geo.toml: valid when the builder can make a map of it."""
    build_map(path, data)


HEADER = [
    "# Barbarossa 1941 map, GENERATED by kiev_tui/games/barbarossa1941/mapbuild.py from geo.toml.",
    "# Do not edit by hand: change data/barbarossa1941/geo.toml and run",
    "#     python -m kiev_tui.games.barbarossa1941.mapbuild",
    "# The whole map is reconstructed from geography; see SOURCES.md (section Map).",
    "",
]


def render_map_toml(doc: dict[str, Any]) -> str:
    return render_map(doc, HEADER)


def build_text(path: Path) -> str:
    return render_map_toml(build_map(path, load_toml(path)))


def book_distance(doc: dict[str, Any], a: str, b: str) -> int:
    """Hexes between two printed ids of the built map (for tests and SOURCES.md)."""
    g = Grid(doc["map"]["parity"])
    ha, hb = g.parse(a), g.parse(b)
    return cell_distance((ha.col, ha.row), (hb.col, hb.row))


def main(argv: Iterable[str] | None = None) -> int:
    return run_builder(argv, what="data/barbarossa1941/map.toml", module="kiev_tui.games.barbarossa1941.mapbuild",
                       geo_path=GEO_PATH, map_path=MAP_PATH, build_text=build_text)


if __name__ == "__main__":
    sys.exit(main())
