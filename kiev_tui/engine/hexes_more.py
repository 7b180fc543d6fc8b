"""The methods of kiev_tui.engine.hexes that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in hexes.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.engine import hexes as _home  # the real classes: the namespaces below take their names
from kiev_tui.engine import hexes  # hexes.Hex: the class, not the namespace below
from kiev_tui.engine.hexes import (  # noqa: F401
    Direction, HexError, shorten,
)


class Hex:
    """Methods of hexes.Hex that a new game's first frame never calls."""

    def direction_to(self, other: "Hex") -> Direction:
        """Direction of an adjacent hex; ValueError if not adjacent."""
        for d in Direction:
            if self.step(d) == other:
                return d
        raise ValueError(f"{other} is not adjacent to {self}")


class Grid:
    """Methods of hexes.Grid that a new game's first frame never calls."""

    def _parse(self, text: str) -> Hex:
        hit = self._cache.get(text) if isinstance(text, str) else None
        if hit is not None:
            return hit
        if not isinstance(text, str):
            raise HexError(f"hex id must be a string like '{self.example()}', not {shorten(repr(text))}")
        m = self._re.fullmatch(text)
        if not m:
            raise HexError(f"{shorten(text)!r} is not a hex id ({self.form()})")
        h = hexes.Hex(int(m.group(1)) - self.col_shift, int(m.group(2)) - self.row_shift)
        if len(self._cache) < 20000:
            self._cache[text] = h
        return h

    def side(self, text: str) -> Hexside:
        """Read a hexside written as two of this grid's ids, ``a/b`` or ``a-b``."""
        if self.identity:
            return _home.Hexside.parse(text)
        ex = self.example()
        pair = f"{ex}/{self.id(self.parse(ex).step(Direction.S))}"
        if not isinstance(text, str):
            raise HexError(f"hexside must be a string like '{pair}', not {shorten(repr(text))}")
        parts = text.replace("-", "/").split("/")  # either separator; as re.split on [/-], faster
        if len(parts) != 2:
            raise HexError(f"{shorten(text)!r} is not a hexside (write two adjacent hexes as {pair})")
        a, b = self.parse(parts[0]), self.parse(parts[1])
        if a.distance(b) != 1:
            raise HexError(f"{self.id(a)} and {self.id(b)} are not adjacent, so share no hexside")
        return _home.Hexside(a, b)


class Hexside:
    """Methods of hexes.Hexside that a new game's first frame never calls."""

    @classmethod
    def parse(cls, text: str) -> "Hexside":
        """Read ``"2302/2401"`` (the rulebooks' notation) or ``"2302-2401"``."""
        if not isinstance(text, str):
            raise HexError(f"hexside must be a string like '2302/2401', not {shorten(repr(text))}")
        parts = text.replace("-", "/").split("/")  # either separator; as re.split on [/-], faster
        if len(parts) != 2:
            raise HexError(f"{shorten(text)!r} is not a hexside (write two adjacent hexes as 2302/2401)")
        return cls(_home.Hex.parse(parts[0]), _home.Hex.parse(parts[1]))

    def other(self, h: Hex) -> Hex:
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")
