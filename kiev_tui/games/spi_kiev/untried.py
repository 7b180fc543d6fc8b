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
from kiev_tui.later import later

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


def read_units(root: "Reader", catalog: UnitCatalog) -> None:
    """Read [untried_types] and [[untried]] of units.toml into the catalog's pool."""
    from kiev_tui.games.spi_kiev.schema import SCHEMA

    types: dict[str, UntriedType] = {}
    tt = root.table("untried_types", required=False)
    for draw in tt.keys():
        if draw not in DRAW_TYPES:
            raise tt.fail(draw, f"unknown draw type (expected {', '.join(DRAW_TYPES)})")
        t = tt.table(draw)
        t.only(["ma", "size", "mechanized", "note"])
        types[draw] = UntriedType(draw, t.int("ma"), t.str("size", ""), t.bool("mechanized", False))
    faces: dict[str, UntriedFace] = {}
    soviet_types = SCHEMA.unit_types[FACE_SIDE]
    for f in root.tables("untried"):
        f.only(["id", "draw", "type", "size", "designation", "attack", "defense", "ma", "asterisk",
                "reconstructed", "note"])
        draw = f.str("draw")
        if draw not in types:
            raise f.fail("draw", f"draw type '{draw}' has no [untried_types.{draw}] table")
        ftype = f.str("type")
        if ftype not in soviet_types:
            raise f.fail("type", f"'{ftype}' is not a Soviet unit type")
        fid = f.str("id", f"{draw}-{f.str('designation')}")
        if fid in faces:
            raise f.fail("id", f"untried face '{fid}' is listed twice")
        faces[fid] = UntriedFace(fid, draw, ftype, f.str("size", ""), f.str("designation"),
                                 f.int("attack"), f.int("defense"), f.int("ma"),
                                 f.bool("asterisk", False), f.bool("reconstructed", False))
    catalog.extra[UNTRIED] = UntriedPool(faces, types)


def untried_id(side: str, turn: int, draw: str, k: int) -> str:
    return f"{'so' if side == FACE_SIDE else 'ge'}-t{turn:02d}-{draw}-{k}"


def add_placeholders(s: "Scenario") -> None:
    """Give every drawn reinforcement a counter id now; its true face is drawn at reveal (13.1)."""
    p = pool(s.catalog)
    for i, r in enumerate(s.reinforcements):
        for draw, _n in r.draw:
            if draw not in p.types:
                raise DataError(s.path, f"reinforcement[{i}].draw.{draw}", f"no untried draw type '{draw}'")
    for draw in p.types:
        need = sum(n for r in s.reinforcements for d, n in r.draw if d == draw)
        have = len(p.faces_of(draw))
        if need > have:
            raise DataError(s.path, "reinforcement", f"{need} untried {draw} units are due but the pool holds {have} faces")
    for i, r in enumerate(s.reinforcements):
        extra: list[str] = []
        for draw, n in r.draw:
            t = p.types[draw]
            for k in range(1, n + 1):
                uid = untried_id(r.side, r.turn, draw, k)
                if uid in s.catalog.units:  # it would silently replace a real counter
                    raise DataError(s.path, f"reinforcement[{i}].draw.{draw}",
                                    f"unit id '{uid}' of units.toml is the id this draw gives its untried "
                                    f"unit {k}; rename the unit")
                s.catalog.units[uid] = UnitDef(
                    id=uid, side=r.side, type=DRAW_UNIT_TYPE[draw], size=t.size, designation=f"untried {draw}",
                    division="", steps=((0, 0),), ma=t.ma, mechanized=t.mechanized,
                )
                p.draw_of[uid] = draw
                extra.append(uid)
        if extra:
            # The drawn counters join the listed ones; entry hexes and the game's own keys stay.
            s.reinforcements[i] = replace(r, units=r.units + tuple(extra), draw=())
