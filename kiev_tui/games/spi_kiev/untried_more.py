"""The methods and functions of untried.py that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in untried.py holds a `later`
stand-in for each method (kiev_tui/later.py).  The functions untried.py hands out on first use
(its module ``__getattr__``), so ``untried.read_units`` and
``from kiev_tui.games.spi_kiev.untried import read_units`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev import untried  # untried.UntriedPool: the class, not the namespace below
from kiev_tui.games.spi_kiev.untried import (
    DRAW_TYPES, DRAW_UNIT_TYPE, DataError, FACE_SIDE, UNTRIED, UnitDef, UntriedFace, UntriedType,
    pool, replace, untried_id,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.tomlio import Reader
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.games.spi_kiev.untried import UnitCatalog


class UntriedPool:
    """Methods of untried.UntriedPool that a new game's first frame never calls."""

    def faces_of(self, draw: str) -> list[UntriedFace]:
        return [f for f in self.faces.values() if f.draw == draw]


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
    catalog.extra[UNTRIED] = untried.UntriedPool(faces, types)


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
