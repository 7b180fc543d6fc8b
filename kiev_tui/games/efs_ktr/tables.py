"""Kiev to Rostov's charts (data/efs_ktr/tables.toml), checked and typed.

``check_tables`` refuses a bad file with a DataError naming the file, the key and the reason
(``kiev-tui validate`` calls it); ``load_tables`` gives frozen values: the d10 Combat Results
Table with boxes 0-11 (15.5-15.8) and the Dry Terrain Effects Chart.  Every value we supplied
is marked reconstructed in the file and kept so here, so a face can tell the book's from ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from kiev_tui.engine.tomlio import Reader, load_toml

#: One side of a cell: nothing, all eliminated, or steps with an optional "*" (16.3) and "R" (16.4).
SIDE_RE = re.compile(r"-|e|([1-4])(\*?)(R?)|R")
ODDS_RE = re.compile(r"([1-9][0-9]?)-([1-9][0-9]?)")
TERRAIN_KEYS = ("mp", "mp_plus", "drm", "prohibited", "motorized_road_only", "reconstructed")
HEXSIDE_KEYS = ("mp_plus", "drm", "attack_factor", "whole_ma", "mp_clear", "mp_other", "reconstructed")


class Side(NamedTuple):
    """What a CRT cell does to one side: steps lost, all eliminated, the "*" and the retreat."""

    steps: int
    eliminated: bool = False
    star: bool = False
    retreat: bool = False

    @property
    def severity(self) -> float:
        """How bad the result is for its side; the CRT's monotone rule compares these."""
        return 99.0 if self.eliminated else self.steps + (0.25 if self.star else 0) + (0.5 if self.retreat else 0)


class Cell(NamedTuple):
    attacker: Side
    defender: Side
    text: str


def parse_side(text: str) -> Side | None:
    m = SIDE_RE.fullmatch(text)
    if m is None:
        return None
    if text == "-":
        return Side(0)
    if text == "e":
        return Side(0, eliminated=True)
    if text == "R":
        return Side(0, retreat=True)
    return Side(int(m.group(1)), star=bool(m.group(2)), retreat=bool(m.group(3)))


def parse_cell(text: str) -> Cell | None:
    """'1*/R' -> attacker one step and a "*", defender a retreat; None if it is no cell."""
    parts = text.split("/") if isinstance(text, str) else []
    if len(parts) != 2:
        return None
    a, d = parse_side(parts[0]), parse_side(parts[1])
    return None if a is None or d is None else Cell(a, d, text)


def odds_value(column: str) -> float:
    a, d = column.split("-")
    return int(a) / int(d)


@dataclass(frozen=True, slots=True)
class CRT:
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]  # rows[box - box_min][column index]
    reconstructed_cells: frozenset[tuple[int, str]]  # (box, column) we supplied
    box_min: int
    box_max: int
    net_drm_cap: int
    below_lowest: Cell

    def cell(self, column: str, box: int) -> Cell:
        return self.rows[box - self.box_min][self.columns.index(column)]

    def column_for(self, attack: float, defence: float) -> str | None:
        """The column of these odds, rounded in the defender's favour (15.5); None under 1-4."""
        ratio = attack / defence
        best = None
        for col in self.columns:
            if odds_value(col) <= ratio + 1e-9:
                best = col
        return best

    def box(self, roll: int, drm: int) -> int:
        """The box a d10 roll reads with its net modifier, capped (15.7) and kept on the table (15.81g)."""
        net = max(-self.net_drm_cap, min(self.net_drm_cap, drm))
        return max(self.box_min, min(self.box_max, roll + net))


@dataclass(frozen=True, slots=True)
class Tables:
    crt: CRT
    tec: dict[str, Any]  # the [tec] table as written (checked)
    stacking_limit: int


def check_tables(path: Path, data: dict[str, Any]) -> None:
    """Raise DataError if tables.toml cannot serve the rules (validate's hook)."""
    _read(path, data)


def load_tables(path: str | Path) -> Tables:
    p = Path(path)
    return _read(p, load_toml(p, cache=True))


def _read(path: Path, data: dict[str, Any]) -> Tables:
    root = Reader(path, data)
    root.only(["crt", "tec"])
    return Tables(_read_crt(root.table("crt")), data["tec"], _read_tec(root.table("tec")))


def _read_crt(t: Reader) -> CRT:
    t.only(["die_sides", "box_min", "box_max", "net_drm_cap", "round_toward", "above_highest",
            "below_lowest_result", "columns", "row"])
    if t.int("die_sides") != 10:
        raise t.fail("die_sides", "the series rolls one ten-sided die (2.51)")
    box_min, box_max = t.int("box_min"), t.int("box_max")
    if (box_min, box_max) != (0, 11):
        raise t.fail("box_min", "the table's boxes run 0 to 11 (15.81g)")
    cap = t.int("net_drm_cap")
    if not 0 <= cap <= 9:
        raise t.fail("net_drm_cap", f"a cap of 0-9, not {cap}")
    if t.str("round_toward") != "defender":
        raise t.fail("round_toward", "odds round in the defender's favour (15.5)")
    columns = tuple(t.strs("columns"))
    for i, col in enumerate(columns):
        if not ODDS_RE.fullmatch(col):
            raise t.fail(f"columns[{i}]", f"'{col[:20]}' is not odds like 3-2")
    values = [odds_value(c) for c in columns]
    if len(columns) < 2 or values != sorted(set(values)):
        raise t.fail("columns", "odds columns rise from left to right, each once")
    if t.str("above_highest") != columns[-1]:
        raise t.fail("above_highest", f"odds past the last column read it ({columns[-1]})")
    below = parse_cell(t.str("below_lowest_result"))
    if below is None:
        raise t.fail("below_lowest_result", "a cell like e/-")
    rows: list[tuple[Cell, ...]] = []
    rec: set[tuple[int, str]] = set()
    row_readers = t.tables("row", required=True)
    if len(row_readers) != box_max - box_min + 1:
        raise t.fail("row", f"one row per box {box_min}-{box_max}, {len(row_readers)} given")
    for i, r in enumerate(row_readers):
        r.only(["box", "results", "reconstructed"])
        if r.int("box") != box_min + i:
            raise r.fail("box", f"rows run in order: this one is box {box_min + i}")
        texts = r.strs("results")
        flags = r.get("reconstructed", list)
        if len(texts) != len(columns) or len(flags) != len(columns):
            raise r.fail("results", f"one result and one reconstructed flag per column ({len(columns)})")
        cells = []
        for j, text in enumerate(texts):
            cell = parse_cell(text)
            if cell is None:
                raise r.fail(f"results[{j}]", f"'{text[:20]}' is not a result like 1*/R")
            if not isinstance(flags[j], bool):
                raise r.fail(f"reconstructed[{j}]", "true or false")
            if flags[j]:
                rec.add((box_min + i, columns[j]))
            cells.append(cell)
        rows.append(tuple(cells))
    _check_monotone(t, rows, columns, box_min)
    return CRT(columns, tuple(rows), frozenset(rec), box_min, box_max, cap, below)


def _check_monotone(t: Reader, rows: list[tuple[Cell, ...]], columns: tuple[str, ...], box_min: int) -> None:
    """Better odds never hurt the attacker, a higher box never helps him (SOURCES.md, the CRT's rule)."""
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            key = f"row[{i}].results[{j}]"
            if j and (cell.attacker.severity > row[j - 1].attacker.severity
                      or cell.defender.severity < row[j - 1].defender.severity):
                raise t.fail(key, f"box {box_min + i}: {columns[j]} is worse for the attacker than {columns[j - 1]}")
            if i and (cell.attacker.severity < rows[i - 1][j].attacker.severity
                      or cell.defender.severity > rows[i - 1][j].defender.severity):
                raise t.fail(key, f"{columns[j]}: box {box_min + i} is better for the attacker than box {box_min + i - 1}")


def _read_tec(t: Reader) -> int:
    t.only(["stacking_limit", "enemy_zoc_mp", "terrain", "overlay", "settlement", "hexside"])
    limit = t.int("stacking_limit")
    if limit < 1:
        raise t.fail("stacking_limit", "at least 1 (3.32)")
    if t.num("enemy_zoc_mp") < 0:
        raise t.fail("enemy_zoc_mp", "cannot be negative")
    from kiev_tui.games.efs_ktr.schema import BASE_TERRAINS, SCHEMA

    needed = {"terrain": BASE_TERRAINS, "overlay": ("woods",), "settlement": SCHEMA.settlements,
              "hexside": ("minor_river", "major_river", "main_road", "minor_road")}
    for group, names in needed.items():
        g = t.table(group)
        g.only(names)
        for name in names:
            row = g.table(name)
            row.only(HEXSIDE_KEYS if group == "hexside" else TERRAIN_KEYS)
            for key in row.keys():
                if key == "reconstructed":
                    for k in row.strs(key):
                        if k not in row.data:
                            raise row.fail(key, f"names '{k[:20]}', which this row does not have")
                elif key in ("prohibited", "motorized_road_only", "whole_ma"):
                    row.bool(key)
                elif key != "drm" and row.num(key) < 0:
                    raise row.fail(key, "cannot be negative")
                elif key == "drm":
                    row.int(key)
            if group == "terrain" and "mp" not in row.data and not row.data.get("prohibited"):
                raise row.fail("mp", "missing: the cost to enter this terrain")
            if group in ("overlay", "settlement") and "mp_plus" not in row.data:
                raise row.fail("mp_plus", "missing: the cost it adds")
            if group == "hexside" and name.endswith("_road") and not {"mp_clear", "mp_other"} <= set(row.data):
                raise row.fail("mp_clear", "a road gives its cost into clear and into other terrain (10.74)")
    return limit
