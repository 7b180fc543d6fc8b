"""The methods of kiev_tui.games.spi_kiev.tables that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in tables.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations



class CRT:
    """Methods of tables.CRT that a new game's first frame never calls."""

    def is_reconstructed(self, column: str, die: int) -> bool:
        return self.reconstructed[die][self.columns.index(column)]
