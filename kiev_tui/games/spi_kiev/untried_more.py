"""The methods of kiev_tui.games.spi_kiev.untried that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in untried.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations



class UntriedPool:
    """Methods of untried.UntriedPool that a new game's first frame never calls."""

    def faces_of(self, draw: str) -> list[UntriedFace]:
        return [f for f in self.faces.values() if f.draw == draw]
