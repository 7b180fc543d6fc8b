"""Hex ids and hex-grid arithmetic shared by every game.

Ids are four digits ``CCRR``: column from 01 at the west edge, row from 01 at the north
edge.  Hexes are flat-topped and stand in vertical columns; even-numbered columns sit half
a hex lower than odd ones (as on SPI maps)::

     ____      ____
    /0101\\____/0301\\
    \\____/0201\\____/
    /0102\\____/0302\\
    \\____/0202\\____/

So 0201 touches 0101 on its south-east side and 0102 on its north-east side.
Internally a hex converts to axial coordinates ``q = col``, ``r = row - (col - 1) // 2``,
which makes distance the usual cube-coordinate formula.

A map whose printed ids differ (odd columns low, numbering from another column or row, a
map-sheet letter) has a ``Grid`` that translates its ids to and from these hexes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Iterator, NamedTuple

from kiev_tui.engine.errors import shorten
from kiev_tui.later import later

# ASCII digits only (\d would take Arabic-Indic or full-width ones too), and the whole string:
# fullmatch, because '$' also matches before a final newline.
_HEX_RE = re.compile(r"([0-9]{2})([0-9]{2})")


class HexError(ValueError):
    """A string that is not a well-formed CCRR hex id."""


class Direction(Enum):
    """The six hexside directions of a flat-topped hex, clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def opposite(self) -> "Direction":
        return Direction((self.value + 3) % 6)


# Axial steps (dq, dr) for each direction.
_AXIAL_STEP: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, -1),
    Direction.NE: (1, -1),
    Direction.SE: (1, 0),
    Direction.S: (0, 1),
    Direction.SW: (-1, 1),
    Direction.NW: (-1, 0),
}


_PARSED: dict[str, "Hex"] = {}


class Hex(NamedTuple):
    """One hex, by column and row (both 1-based as printed on the map).

    A NamedTuple, so hashing and comparison run at C speed: hexes key every hot table.
    """

    col: int
    row: int

    @classmethod
    def parse(cls, text: str) -> "Hex":
        """Read a ``CCRR`` id such as ``"0319"``; raise HexError otherwise."""
        hit = _PARSED.get(text) if isinstance(text, str) else None
        if hit is not None:
            return hit
        if not isinstance(text, str):
            raise HexError(f"hex id must be a string like '0319', not {shorten(repr(text))}")
        # No stripping: a hex id with spaces or a newline around it would be stored as it is.
        m = _HEX_RE.fullmatch(text)
        if not m:
            raise HexError(f"{shorten(text)!r} is not a hex id (four digits CCRR, e.g. 0319)")
        col, row = int(m.group(1)), int(m.group(2))
        if col < 1 or row < 1:
            raise HexError(f"'{text}' is not a hex id (column and row start at 01)")
        h = cls(col, row)
        if len(_PARSED) < 20000:  # positions name the same few thousand hexes over and over
            _PARSED[text] = h
        return h

    def __str__(self) -> str:
        return f"{self.col:02d}{self.row:02d}"

    def __repr__(self) -> str:
        return f"Hex({self.col:02d}{self.row:02d})"

    @property
    def id(self) -> str:
        return str(self)

    # -- axial conversion -------------------------------------------------
    @property
    def axial(self) -> tuple[int, int]:
        return self.col, self.row - (self.col - 1) // 2

    @classmethod
    def from_axial(cls, q: int, r: int) -> "Hex":
        return cls(q, r + (q - 1) // 2)

    # -- neighbourhood ----------------------------------------------------
    def step(self, direction: Direction) -> "Hex":
        """The hex across the given side (it may lie off any particular map)."""
        col, row = self  # axial and from_axial written out: the map draws every hexside with this
        dq, dr = _AXIAL_STEP[direction]
        q = col + dq
        return tuple.__new__(Hex, (q, row - (col - 1) // 2 + dr + (q - 1) // 2))

    def neighbours(self) -> list["Hex"]:
        """All six adjacent hexes, clockwise from north (ids below 01 included).

        The same hexes as ``step`` in each Direction, with the axial arithmetic written out:
        maps build their adjacency from this for every hex at start-up.
        """
        col, row = self
        r = row - (col - 1) // 2
        east, west = col + 1, col - 1
        dq_e, dq_w = r + (east - 1) // 2, r + (west - 1) // 2
        new = tuple.__new__
        return [new(Hex, (col, row - 1)), new(Hex, (east, dq_e - 1)), new(Hex, (east, dq_e)),
                new(Hex, (col, row + 1)), new(Hex, (west, dq_w + 1)), new(Hex, (west, dq_w))]

    def distance(self, other: "Hex") -> int:
        q1, row1 = self  # the axial conversion written out: a hot path of searches and checks
        q2, row2 = other
        dq, dr = q1 - q2, (row1 - (q1 - 1) // 2) - (row2 - (q2 - 1) // 2)
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    direction_to = later("kiev_tui.engine.hexes_more")

    def ring(self, radius: int) -> list["Hex"]:
        """Hexes at exactly ``radius`` from this one (radius 0 is the hex itself)."""
        if radius < 0:
            raise ValueError("radius must be >= 0")
        if radius == 0:
            return [self]
        out: list[Hex] = []
        q, r = self.axial
        # Start radius steps to the south-west, then walk each of the six sides.
        dq, dr = _AXIAL_STEP[Direction.SW]
        cur = (q + dq * radius, r + dr * radius)
        for d in (Direction.N, Direction.NE, Direction.SE, Direction.S, Direction.SW, Direction.NW):
            sq, sr = _AXIAL_STEP[d]
            for _ in range(radius):
                out.append(Hex.from_axial(*cur))
                cur = (cur[0] + sq, cur[1] + sr)
        return out

    def within(self, radius: int) -> Iterator["Hex"]:
        for k in range(radius + 1):
            yield from self.ring(k)


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The side shared by two adjacent hexes, as an unordered pair."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if self.a.distance(self.b) != 1:
            raise HexError(f"{self.a} and {self.b} are not adjacent, so share no hexside")
        if self.b < self.a:
            first, second = self.b, self.a
            object.__setattr__(self, "a", first)
            object.__setattr__(self, "b", second)

    @classmethod
    def of(cls, h1: Hex, h2: Hex) -> "Hexside":
        return cls(h1, h2)

    parse = later("kiev_tui.engine.hexes_more")

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"

    def hexes(self) -> tuple[Hex, Hex]:
        return self.a, self.b

    other = later("kiev_tui.engine.hexes_more")


def hexside(h1: Hex | str, h2: Hex | str) -> Hexside:
    """Convenience: the hexside between two hexes given as Hex or id strings."""
    a = h1 if isinstance(h1, Hex) else Hex.parse(h1)
    b = h2 if isinstance(h2, Hex) else Hex.parse(h2)
    return Hexside(a, b)


def path_back(parent: dict[Hex, Hex], start: Hex, end: Hex) -> tuple[str, ...]:
    """The hexes entered from ``start`` to ``end`` (start excluded), read off a search's parents."""
    path: list[str] = []
    cur = end
    while cur != start:
        path.append(str(cur))
        cur = parent[cur]
    return tuple(reversed(path))


def H(text: str) -> Hex:
    """Short alias for Hex.parse, handy in tests and data code."""
    return Hex.parse(text)


PARITIES = ("even_low", "odd_low")
_SHEET_RE = re.compile(r"[A-Z]")


class Grid:
    """How one map prints its hex ids, and how they map onto the internal even-low grid.

    A map may number its columns with the even or the odd ones half a hex lower, start its
    columns and rows at any number, and put a map-sheet letter before every id ("J3733").
    Inside the engine a Hex is always (col, row) on the even-low grid with the first row at
    1: the grid shifts columns by an odd or even amount on the way in and out, so
    neighbours, distances and hexsides keep working unchanged.  The first printed column
    lands on internal column 1 when it stands high, on 2 when it stands low.  The default
    grid (even_low, from 0101, no letter) is the identity and reads ids with ``Hex.parse``.
    """

    __slots__ = ("parity", "first_column", "first_row", "sheet", "identity", "col_shift", "row_shift",
                 "parse", "id", "_cache", "_re")

    parse: "Callable[[str], Hex]"
    id: "Callable[[Hex], str]"

    def __init__(self, parity: str = "even_low", first_column: int = 1, first_row: int = 1, sheet: str = "") -> None:
        if parity not in PARITIES:
            raise ValueError(f"parity must be even_low or odd_low, not {shorten(repr(parity))}")
        if sheet and not _SHEET_RE.fullmatch(sheet):
            raise ValueError(f"a sheet is one capital letter A-Z, not {shorten(repr(sheet))}")
        self.parity = parity
        self.first_column = first_column
        self.first_row = first_row
        self.sheet = sheet
        low_first = (first_column % 2 == 0) == (parity == "even_low")
        # Internal column = printed column - col_shift; the shift keeps "low" on even internal columns.
        self.col_shift = first_column - (2 if low_first else 1)
        self.row_shift = first_row - 1
        self.identity = self.col_shift == 0 and self.row_shift == 0 and not sheet
        self._cache: dict[str, Hex] = {}
        self._re = re.compile(re.escape(sheet) + r"([0-9]{2})([0-9]{2})")
        if self.identity:
            self.parse = Hex.parse
            self.id = Hex.__str__
        else:
            self.parse = self._parse
            self.id = self._id

    @property
    def first_internal_column(self) -> int:
        """The internal column of the first printed column: 1 (it stands high) or 2 (low)."""
        return self.first_column - self.col_shift

    def example(self) -> str:
        """An id of this grid's form, for messages."""
        return f"{self.sheet}{self.first_column:02d}{self.first_row:02d}" if not self.identity else "0319"

    def form(self) -> str:
        """This grid's id form in words, for messages."""
        letter = f"the sheet letter {self.sheet} then " if self.sheet else ""
        return f"{letter}four digits CCRR, e.g. {self.example()}"

    _parse = later("kiev_tui.engine.hexes_more")

    def _id(self, h: Hex) -> str:
        return f"{self.sheet}{h.col + self.col_shift:02d}{h.row + self.row_shift:02d}"

    side = later("kiev_tui.engine.hexes_more")

    def side_id(self, side: Hexside) -> str:
        return f"{self.id(side.a)}/{self.id(side.b)}"

    def __repr__(self) -> str:
        return (f"Grid(parity={self.parity!r}, first_column={self.first_column}, first_row={self.first_row}, "
                f"sheet={self.sheet!r})")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Grid) and (self.parity, self.first_column, self.first_row, self.sheet)
                == (other.parity, other.first_column, other.first_row, other.sheet))

    def __hash__(self) -> int:
        return hash((self.parity, self.first_column, self.first_row, self.sheet))


#: The grid of maps that say nothing about theirs: even columns low, numbered from 0101.
IDENTITY = Grid()
