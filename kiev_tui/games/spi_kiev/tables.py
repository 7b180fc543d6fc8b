"""The Combat Results Table and other charts of tables.toml, checked on load."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiev_tui.engine.crt import ODDS, CombatTable
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.tomlio import Reader
from kiev_tui.later import handed_out, later

RESULT_RE = re.compile(r"eng|(?:-|E|[1-3])/(?:-|E|[1-3])")  # fullmatch: "$" lets a final newline in
COLUMNS = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]


@dataclass(frozen=True, slots=True)
class CRT:
    columns: tuple[str, ...]
    rows: dict[int, tuple[str, ...]]
    reconstructed: dict[int, tuple[bool, ...]]
    above_highest: str = ""  # the column for ratios past the last one (9.4; default: the last)
    below_lowest: str = ""  # the column for ratios under the first one (default: the first)

    @property
    def reader(self) -> CombatTable:
        """The engine's CRT reader over these columns and clamps (9.4), one d6."""
        return CombatTable(self.columns, ODDS, self.above_highest, self.below_lowest, 1, 6)

    def result(self, column: str, die: int) -> str:
        return self.rows[die][self.columns.index(column)]

    is_reconstructed = later("kiev_tui.games.spi_kiev.tables_more")


@dataclass(frozen=True, slots=True)
class CombatTables:
    """The Terrain Effects Chart's defence values as combat reads them (10.4, 10.32, 19.53)."""

    terrain_defense: dict[str, float]  # hex terrain (and "city") -> defence multiplier
    hexside_defense: dict[str, float]  # "minor_river" / "major_river" -> multiplier when attacked across
    max_multiplier: float  # 10.32: terrain never multiplies defence beyond this
    hex_defense: dict[str, float]  # special hexes (19.53 Kiev) -> multiplier while in supply


#: 10.4: the rows of the Terrain Effects Chart the rules read, and the values each must give.
#: The chart in tables.toml is the only source of these numbers: a row or value missing there
#: is a data error at load, never a silent fallback to numbers written in the code.
TERRAIN_ROWS = ("clear", "woods", "swamp", "city")
HEXSIDE_ROWS = {"minor_river": ("mp_german", "mp_soviet", "defense"),
                "major_river": ("mp_german", "mp_soviet", "defense"),
                "road": ("mp_mech",)}


def check_tec(path: str | Path, data: dict[str, Any]) -> None:
    """10.4: [tec] has every row and value the rules read, none negative; else a DataError."""
    root = Reader(path, data)
    tec = root.table("tec")
    tec.only(["terrain", "hexside", "note", "max_defense_multiplier", "hex_defense"])
    tec.num("max_defense_multiplier")  # 10.32
    for group in ("terrain", "hexside"):
        g = tec.table(group)
        for name in g.keys():
            row = g.table(name)
            for key in ("mp", "mp_mech", "mp_other", "mp_german", "mp_soviet", "defense"):
                if key in row.data:
                    val = row.num(key)
                    if val < 0:
                        raise row.fail(key, "must not be negative")
    terrain = tec.table("terrain")
    for name in TERRAIN_ROWS:
        if name not in terrain.data:
            raise terrain.fail(name, f"the terrain chart has no '{name}' row (10.4)")
        row = terrain.table(name)
        for mclass in ("mp_mech", "mp_other"):
            if mclass not in row.data and "mp" not in row.data:
                raise row.fail("mp", f"'{name}' gives no movement cost ({mclass} or mp) (10.4)")
        if "defense" not in row.data:
            raise row.fail("defense", f"'{name}' gives no defence multiplier (10.4)")
    hexside = tec.table("hexside")
    for name, keys in HEXSIDE_ROWS.items():
        if name not in hexside.data:
            raise hexside.fail(name, f"the terrain chart has no '{name}' hexside row (10.4)")
        row = hexside.table(name)
        for key in keys:
            if key not in row.data:
                raise row.fail(key, f"the '{name}' hexside row gives no {key} (10.4)")


def check_combat_values(path: str | Path, data: dict[str, Any]) -> CombatTables:
    """Read and check the defence values of tables.toml's [tec]; raises DataError with file and key."""
    check_tec(path, data)
    root = Reader(path, data)
    tec = root.table("tec")
    terrain: dict[str, float] = {}
    hexside: dict[str, float] = {}
    for group, out in (("terrain", terrain), ("hexside", hexside)):
        g = tec.table(group)
        for name in g.keys():
            row = g.table(name)
            if "defense" in row.data:
                val = row.num("defense")
                if val < 1:
                    raise row.fail("defense", "a defence multiplier is at least 1")
                out[name] = float(val)
    cap = float(tec.num("max_defense_multiplier"))
    if cap < 1:
        raise tec.fail("max_defense_multiplier", "a defence multiplier is at least 1")
    special: dict[str, float] = {}
    hexes = tec.table("hex_defense", required=False)
    for key in hexes.keys():
        if not re.fullmatch(r"[0-9]{4}", key):
            raise hexes.fail(key, f"'{key}' is not a hex id like 0319")
        val = hexes.num(key)
        if val < 1:
            raise hexes.fail(key, "a defence multiplier is at least 1")
        special[key] = float(val)
    return CombatTables(terrain, hexside, cap, special)


#: Functions written in tables_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'check_tables'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.tables_more", _LATER)
