"""The methods and functions of tables.py that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in tables.py holds a `later`
stand-in for each method (kiev_tui/later.py).  The functions tables.py hands out on first use
(its module ``__getattr__``), so ``tables.check_tables`` and
``from kiev_tui.games.spi_kiev.tables import check_tables`` work as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from kiev_tui.games.spi_kiev import tables  # tables.CRT: the class, not the namespace below
from kiev_tui.games.spi_kiev.tables import (
    DataError, RESULT_RE, Reader, check_combat_values, check_tec,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.tables import Path


class CRT:
    """Methods of tables.CRT that a new game's first frame never calls."""

    def is_reconstructed(self, column: str, die: int) -> bool:
        return self.reconstructed[die][self.columns.index(column)]


def check_tables(path: str | Path, data: dict[str, Any]) -> CRT:
    """Check tables.toml's structure; return its CRT.  Raises DataError with file and key."""
    root = Reader(path, data)
    root.only(["crt", "tec", "mud", "stalins_directive", "odds", "note"])
    crt = root.table("crt")
    crt.only(["columns", "row", "note", "die", "die_sides", "reconstructed", "above_highest", "below_lowest",
              "round_toward"])
    columns = crt.strs("columns")
    if not columns:
        raise crt.fail("columns", "the CRT needs its odds columns")
    for i, c in enumerate(columns):
        if not re.fullmatch(r"[0-9]+-[0-9]+", c):
            raise crt.fail(f"columns[{i}]", f"'{c}' is not an odds column like 3-1")
    rows: dict[int, tuple[str, ...]] = {}
    recon: dict[int, tuple[bool, ...]] = {}
    for r in crt.tables("row", required=True):
        r.only(["die", "results", "reconstructed", "note"])
        die = r.int("die")
        if not 1 <= die <= 6:
            raise r.fail("die", f"die roll {die} is not 1-6")
        if die in rows:
            raise r.fail("die", f"die roll {die} appears twice")
        results = r.strs("results")
        if len(results) != len(columns):
            raise r.fail("results", f"{len(results)} results for {len(columns)} columns")
        for i, res in enumerate(results):
            if not RESULT_RE.fullmatch(res):
                raise r.fail(f"results[{i}]", f"'{res}' is not a CRT result (like -/1, 1/1, -/E or eng)")
        flags = r.get("reconstructed", (list, bool), [False] * len(results))
        if isinstance(flags, bool):
            flags = [flags] * len(results)
        if len(flags) != len(results) or not all(isinstance(f, bool) for f in flags):
            raise r.fail("reconstructed", "one true/false per result")
        rows[die] = tuple(results)
        recon[die] = tuple(flags)
    missing = [d for d in range(1, 7) if d not in rows]
    if missing:
        raise DataError(path, "crt.row", f"no row for die roll(s) {', '.join(map(str, missing))}")
    check_tec(path, data)
    clamps = {}
    for key, default in (("above_highest", columns[-1]), ("below_lowest", columns[0])):
        clamps[key] = crt.str(key, default)
        if clamps[key] not in columns:
            raise crt.fail(key, f"'{clamps[key]}' is not one of the CRT's columns")
    check_combat_values(path, data)
    return tables.CRT(tuple(columns), rows, recon, clamps["above_highest"], clamps["below_lowest"])
