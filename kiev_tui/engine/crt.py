"""One reader for every Combat Results Table: which column a battle reads, shifts and die rolls.

A table is a row of columns, either odds ("1-2", "3:2": attack to defence, fractions to the
defender) or differentials ("-2", "0", "+3": attack minus defence).  A ratio reads the highest
column not above it; the last column also serves ratios below the next whole step past it (11-1
does not exist, so 10-1 reads ten and a half to 1), and ratios beyond that, or under the first column,
read the clamp columns the game names.  Column shifts stop at the table's ends; a modified die
roll reads the nearest row the table has.  The games keep their own result cells; this module
only finds the cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiev_tui.later import later

ODDS, DIFFERENTIAL = "odds", "differential"
_ODDS_RE = re.compile(r"([0-9]+)[-:]([0-9]+)")
_DIFF_RE = re.compile(r"[+-]?[0-9]+")


def column_value(column: str, kind: str = ODDS) -> float:
    """'3:2' or '3-2' -> three halves (odds); '+2' -> 2 (differential); ValueError for anything else."""
    if kind == DIFFERENTIAL:
        if not _DIFF_RE.fullmatch(column):
            raise ValueError(f"'{column}' is not a differential column like -1 or +2")
        return float(int(column))
    m = _ODDS_RE.fullmatch(column)
    if m is None or int(m.group(2)) == 0:
        raise ValueError(f"'{column}' is not an odds column like 3-1 or 3:2")
    return int(m.group(1)) / int(m.group(2))


@dataclass(frozen=True, slots=True)
class CombatTable:
    """The columns of a CRT and how a battle's strengths, shifts and die roll find its cell."""

    columns: tuple[str, ...]
    kind: str = ODDS
    above_highest: str = ""  # the column for ratios past the table (default: the last)
    below_lowest: str = ""  # the column for ratios under the table (default: the first)
    die_min: int = 1  # the lowest row: a modified roll under it reads it
    die_max: int = 6  # the highest row (the die size for one die)

    def __post_init__(self) -> None:
        values = [column_value(c, self.kind) for c in self.columns]  # ValueError on a bad column
        if not values or any(b <= a for a, b in zip(values, values[1:])):
            raise ValueError("a CRT needs its columns, from the defender's best to the attacker's")
        for clamp in (self.above_highest, self.below_lowest):
            if clamp and clamp not in self.columns:
                raise ValueError(f"'{clamp}' is not one of the CRT's columns")
        if self.die_min > self.die_max:
            raise ValueError(f"die rows {self.die_min}..{self.die_max} are empty")

    column_index = later("kiev_tui.engine.crt_more")
    _past_last = later("kiev_tui.engine.crt_more")

    def column(self, attack: float, defense: float) -> str:
        return self.columns[self.column_index(attack, defense)]

    shifted = later("kiev_tui.engine.crt_more")
    row = later("kiev_tui.engine.crt_more")
    cell_index = later("kiev_tui.engine.crt_more")
