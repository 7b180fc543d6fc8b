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
    root.only(["crt", "tec", *MORE_TABLES])
    tables = Tables(_read_crt(root.table("crt")), data["tec"], _read_tec(root.table("tec")))
    _read_more(root)  # the overrun, retreat and air tables, checked with the rest (validate)
    return tables


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


# -- the overrun, retreat and air tables (11.4, 16.46, 9.1, 13, 15.1, 17.3-17.4) --------------

#: The tables of tables.toml after [crt] and [tec].
MORE_TABLES = ("overrun", "retreat", "air_initiative", "air_combat", "aa_fire", "air_readiness", "air_missions")
OVERRUN_RESULTS = ("succeeds_step", "succeeds", "fails", "fails_step")  # best for the overrunner first
INITIATIVE_RESULTS = ("axis_lta", "axis", "none", "soviet", "soviet_lta")
AIR_RESULTS = ("X", "D", "A", "-")  # worst for the target first
SIDES = ("axis", "soviet")


@dataclass(frozen=True, slots=True)
class RolledTable:
    """A one-die table read on a modified roll: ``results[roll - rolls_from]``, clamped to its ends."""

    rolls_from: int
    results: tuple[str, ...]
    reconstructed: tuple[bool, ...]

    def result(self, modified: int) -> str:
        i = max(0, min(len(self.results) - 1, modified - self.rolls_from))
        return self.results[i]

    @property
    def rolls_to(self) -> int:
        return self.rolls_from + len(self.results) - 1


@dataclass(frozen=True, slots=True)
class OverrunTable:
    min_odds_german: int
    min_odds_other: int
    min_odds_city_engineer: int
    net_drm_cap: int
    odds_steps: tuple[tuple[int, int], ...]  # (odds n-1 from, DRM), rising
    all_artillery_drm: int
    already_overrun_drm: int
    terrain_drm: dict[str, int]
    rolls: RolledTable

    def odds_drm(self, odds: int) -> int:
        """The odds DRM of odds ``odds``-1 (already rounded for the defender); 0 under the table."""
        drm = 0
        for start, value in self.odds_steps:
            if odds >= start:
                drm = value
        return drm


@dataclass(frozen=True, slots=True)
class RetreatTable:
    automatic_step_loss: int
    escape_max: int
    artillery_drm: int


@dataclass(frozen=True, slots=True)
class AirTables:
    initiative: RolledTable  # rolls 1-10
    combat: dict[int, RolledTable]  # ACR difference -> rolls 1-10
    aa_fire: RolledTable
    aa_side_cap: int
    aa_hq_drm: int
    aa_unit_drm: int
    flown_max: dict[str, int]
    damaged_max: dict[str, int]
    axis_logistics_pause_drm: int
    max_units_per_side: int
    interdiction_level_two: int
    interdiction_max_level: int
    cas_drm_per_point: int

    def combat_column(self, diff: int) -> RolledTable:
        """The Air Combat Table column of an ACR difference, clamped to the table's (17.33c)."""
        lo, hi = min(self.combat), max(self.combat)
        return self.combat[max(lo, min(hi, diff))]


@dataclass(frozen=True, slots=True)
class MoreTables:
    overrun: OverrunTable
    retreat: RetreatTable
    air: AirTables


def load_more_tables(path: str | Path) -> MoreTables:
    """The overrun, retreat and air tables of tables.toml (DataError on a bad file)."""
    p = Path(path)
    data = load_toml(p, cache=True)
    _read(p, data)
    return _read_more(Reader(p, data))


def read_stacking_limit(path: str | Path) -> int:
    """[tec].stacking_limit alone: a scenario check needs no more of the file (the file's own
    check reports a broken chart, once)."""
    p = Path(path)
    tec = Reader(p, load_toml(p, cache=True)).table("tec")
    limit = tec.int("stacking_limit")
    if limit < 1:
        raise tec.fail("stacking_limit", "at least 1 (3.32)")
    return limit


def _rolled(t: Reader, choices: tuple[str, ...], first: int | None, last: int | None,
            better: str = "") -> RolledTable:
    """results/reconstructed lists over consecutive rolls; ``better`` = "low" or "high": which end is
    the roller's, so the table must never get better for him the other way (the stated rule)."""
    start = t.int("rolls_from") if "rolls_from" in t.data else 1
    texts = t.strs("results")
    flags = t.get("reconstructed", list)
    if len(flags) != len(texts) or not all(isinstance(f, bool) for f in flags):
        raise t.fail("reconstructed", f"one true/false per result ({len(texts)})")
    for i, x in enumerate(texts):
        if x not in choices:
            raise t.fail(f"results[{i}]", f"'{x[:20]}' is not one of {', '.join(choices)}")
    end = start + len(texts) - 1
    if (first is not None and start > first) or (last is not None and end < last):
        raise t.fail("results", f"the rolls {start}..{end} must cover {first}..{last}")
    if better:
        ranks = [choices.index(x) for x in texts]
        if better == "high":
            ranks = ranks[::-1]
        for i in range(1, len(ranks)):
            if ranks[i] < ranks[i - 1]:
                raise t.fail(f"results[{i}]", "a roll further from the roller's end cannot give him a better result")
    return RolledTable(start, tuple(texts), tuple(flags))


def _sides(t: Reader, key: str, lo: int, hi: int) -> dict[str, int]:
    s = t.table(key)
    s.only(SIDES)
    out = {side: s.int(side) for side in SIDES}
    for side, v in out.items():
        if not lo <= v <= hi:
            raise s.fail(side, f"{lo} to {hi}, not {v}")
    return out


def _d10(t: Reader) -> None:
    if t.int("die_sides") != 10:
        raise t.fail("die_sides", "the series rolls one ten-sided die (2.51)")


def _read_more(root: Reader) -> MoreTables:
    """Check and read the tables after [crt] and [tec]; every one is required."""
    o = root.table("overrun")
    o.only(["die_sides", "min_odds_german", "min_odds_other", "min_odds_city_engineer", "net_drm_cap",
            "odds_from", "odds_drm", "odds_reconstructed", "all_artillery_drm", "already_overrun_drm",
            "terrain_drm", "terrain_reconstructed", "rolls_from", "results", "reconstructed"])
    _d10(o)
    mins = (o.int("min_odds_german"), o.int("min_odds_other"), o.int("min_odds_city_engineer"))
    if not 1 <= mins[0] <= mins[1] <= mins[2]:
        raise o.fail("min_odds_german", "German <= other <= city-with-engineer minimum odds (11.42a, 11.42c2)")
    cap = o.int("net_drm_cap")
    starts, drms = o.ints("odds_from"), o.ints("odds_drm")
    if len(o.get("odds_reconstructed", list)) != len(starts) or len(drms) != len(starts) or not starts:
        raise o.fail("odds_drm", "one DRM and one reconstructed flag per odds_from entry")
    if starts != sorted(set(starts)) or drms != sorted(drms, reverse=True):
        raise o.fail("odds_drm", "better odds never give the overrunner a worse DRM (11.43f)")
    terrain = o.table("terrain_drm")
    tdrm = {k: terrain.int(k) for k in terrain.keys()}
    for i, k in enumerate(o.strs("terrain_reconstructed", [])):
        if k not in tdrm:
            raise o.fail(f"terrain_reconstructed[{i}]", f"'{k[:20]}' is not in terrain_drm")
    rolls = _rolled(o, OVERRUN_RESULTS, 1 - cap, 10 + cap, better="low")
    overrun = OverrunTable(mins[0], mins[1], mins[2], cap, tuple(zip(starts, drms)), o.int("all_artillery_drm"),
                           o.int("already_overrun_drm"), tdrm, rolls)

    r = root.table("retreat")
    r.only(["die_sides", "automatic_step_loss", "escape_max", "artillery_drm", "reconstructed"])
    _d10(r)
    retreat = RetreatTable(r.int("automatic_step_loss"), r.int("escape_max"), r.int("artillery_drm"))
    if not 0 <= retreat.escape_max <= 10 or retreat.artillery_drm < 0 or retreat.automatic_step_loss < 0:
        raise r.fail("escape_max", "an escape range within the die, a penalty and a loss not below 0 (16.46)")
    for i, k in enumerate(r.strs("reconstructed", [])):
        if k not in r.data:
            raise r.fail(f"reconstructed[{i}]", f"names '{k[:20]}', which this table does not have")

    i = root.table("air_initiative")
    i.only(["die_sides", "results", "reconstructed"])
    _d10(i)
    initiative = _rolled(i, INITIATIVE_RESULTS, 1, 10, better="low")
    if len(initiative.results) != 10:
        raise i.fail("results", "one result per roll 1-10")

    columns: dict[int, RolledTable] = {}
    for c in root.table("air_combat").tables("column", required=True):
        c.only(["diff", "results", "reconstructed"])
        col = _rolled(c, AIR_RESULTS, 1, 10, better="low")
        if len(col.results) != 10:
            raise c.fail("results", "one result per roll 1-10")
        d = c.int("diff")
        if d in columns:
            raise c.fail("diff", f"column {d} twice")
        if d - 1 in columns and any(AIR_RESULTS.index(a) < AIR_RESULTS.index(b)
                                    for a, b in zip(columns[d - 1].results, col.results)):
            raise c.fail("results", f"column {d} is worse for the firer than column {d - 1} (17.33c)")
        columns[d] = col
    if sorted(columns) != list(range(min(columns), max(columns) + 1)) or 0 not in columns:
        raise root.table("air_combat").fail("column", "consecutive ACR differences around 0")

    a = root.table("aa_fire")
    a.only(["die_sides", "side_drm_cap", "hq_drm", "aa_unit_drm", "rolls_from", "results", "reconstructed"])
    _d10(a)
    side_cap = a.int("side_drm_cap")
    aa = _rolled(a, AIR_RESULTS, 1 - 2 * side_cap, 10 + 2 * side_cap, better="high")

    rd = root.table("air_readiness")
    rd.only(["die_sides", "flown_max", "damaged_max", "axis_logistics_pause_drm", "reconstructed"])
    _d10(rd)
    flown, damaged = _sides(rd, "flown_max", 0, 10), _sides(rd, "damaged_max", 0, 10)
    for n, k in enumerate(rd.strs("reconstructed", [])):
        if k.split(".")[0] not in ("flown_max", "damaged_max"):
            raise rd.fail(f"reconstructed[{n}]", f"names '{k[:20]}', which this table does not have")

    m = root.table("air_missions")
    m.only(["max_units_per_side", "interdiction_level_two", "interdiction_max_level", "cas_drm_per_point"])
    if m.int("max_units_per_side") < 1 or m.int("interdiction_max_level") < 1 or m.int("interdiction_level_two") < 2:
        raise m.fail("max_units_per_side", "at least one unit a mission, levels One and Two (13.14, 17.21b)")
    air = AirTables(initiative, columns, aa, side_cap, a.int("hq_drm"), a.int("aa_unit_drm"), flown, damaged,
                    rd.int("axis_logistics_pause_drm"), m.int("max_units_per_side"), m.int("interdiction_level_two"),
                    m.int("interdiction_max_level"), m.int("cas_drm_per_point"))
    return MoreTables(overrun, retreat, air)
