"""The methods of kiev_tui.engine.crt that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in crt.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.engine.crt import (  # noqa: F401
    DIFFERENTIAL, column_value,
)


class CombatTable:
    """Methods of crt.CombatTable that a new game's first frame never calls."""

    def column_index(self, attack: float, defense: float) -> int:
        """The column before shifts (odds rounded in the defender's favour); off-table values clamp."""
        above = self.columns.index(self.above_highest or self.columns[-1])
        below = self.columns.index(self.below_lowest or self.columns[0])
        if self.kind == DIFFERENTIAL:
            value = attack - defense
        else:
            if defense <= 0:
                return above
            if attack <= 0:
                return below
            value = attack / defense
        values = [column_value(c, self.kind) for c in self.columns]
        best = -1
        for i, v in enumerate(values):
            if v <= value + 1e-9:
                best = i
        if best < 0:
            return below
        if best == len(values) - 1 and value >= self._past_last(values) - 1e-9:
            return above
        return best

    def _past_last(self, values: list[float]) -> float:
        """The first ratio the last column no longer serves: its next whole step (10-1 -> 11)."""
        last = values[-1]
        return last + 1 if last >= 1 or self.kind == DIFFERENTIAL else 1

    def shifted(self, index: int, shift: int) -> int:
        """Move ``shift`` columns (negative toward the defender); shifts stop at the ends."""
        return max(0, min(len(self.columns) - 1, index + shift))

    def row(self, die: int) -> int:
        """The row a modified roll reads: clamped to the table's die_min..die_max."""
        return max(self.die_min, min(self.die_max, die))

    def cell_index(self, attack: float, defense: float, shift: int = 0, die: int = 1) -> tuple[int, int]:
        """(column index, row) of a battle after its net column shift and die modifier."""
        return self.shifted(self.column_index(attack, defense), shift), self.row(die)
