"""Untried Soviet counters (13.0, 19.6): the pool of hidden faces and the counters drawn from it.

units.toml lists the faces ([[untried]]) and what a counter of each draw pile shows before it
is revealed ([untried_types]).  A scenario's reinforcement asks for counts per pile; each gets
a counter id now and its true face is drawn from the pool when it first fights (13.1).  The
engine reads none of this: it reaches Kiev through the rule system's ``read_units`` and
``prepare_scenario`` hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.units import UnitCatalog, UnitDef
from kiev_tui.later import handed_out, later

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.tomlio import Reader

#: The key of the pool in ``UnitCatalog.extra``.
UNTRIED = "untried"
DRAW_TYPES = ("rifle", "cavalry", "armor")
#: The unit type a counter of each draw pile shows while untried.
DRAW_UNIT_TYPE = {"rifle": "rifle", "cavalry": "cavalry", "armor": "tank"}
FACE_SIDE = "soviet"  # only Soviet counters come untried (13.0)


@dataclass(frozen=True, slots=True)
class UntriedFace:
    """The hidden true side of an untried Soviet counter (13.0, 19.6)."""

    id: str
    draw: str
    type: str
    size: str
    designation: str
    attack: int
    defense: int
    ma: int
    asterisk: bool = False
    reconstructed: bool = False

    @property
    def no_strength(self) -> bool:
        return self.attack == 0 and self.defense == 0


@dataclass(frozen=True, slots=True)
class UntriedType:
    """What every counter of one draw pile shows before it is revealed."""

    draw: str
    ma: int
    size: str
    mechanized: bool


@dataclass
class UntriedPool:
    faces: dict[str, UntriedFace] = field(default_factory=dict)
    types: dict[str, UntriedType] = field(default_factory=dict)
    #: Counter id -> its draw pile, for every untried counter a scenario gave an id.
    draw_of: dict[str, str] = field(default_factory=dict)

    faces_of = later("kiev_tui.games.spi_kiev.untried_more")


def pool(catalog: UnitCatalog) -> UntriedPool:
    """The catalog's untried pool (empty for a catalog read without Kiev's tables)."""
    found = catalog.extra.get(UNTRIED)
    if found is None:
        found = catalog.extra[UNTRIED] = UntriedPool()
    return found  # type: ignore[no-any-return]


def untried_id(side: str, turn: int, draw: str, k: int) -> str:
    return f"{'so' if side == FACE_SIDE else 'ge'}-t{turn:02d}-{draw}-{k}"


#: Functions written in untried_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'read_units', 'add_placeholders'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.untried_more", _LATER)
