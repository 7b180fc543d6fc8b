"""Stacking (3, with 12.2's Romanian-Hungarian bar): what one hex may hold.

A hex holds at most six stacking points of its side, one point per step left (3).  Counters
worth no step (airborne corps, field forts, partisans) add nothing; air corps are on the air
layer and the Baltic Fleet is no formation (docs/rulings.md, Barbarossa 1941, 3).  The limit is
judged where a unit stops: a move, retreat, advance, reaction move, arrival or replacement may
not leave a hex over it, while a moving stack may pass through a full hex.  Since every action
that could break it is refused, no excess ever needs removing; ``violations`` is the invariant
a position must satisfy (and a loaded or hand-made position is checked with it).
"""

from __future__ import annotations

from typing import Iterable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.board import Board

CASE = "3"
ALLIES_CASE = "12.2"
#: 12.2: these nations never share a hex.
APART = ("romanian", "hungarian")


def limit(board: Board) -> int:
    return board.tables.stacking.max_steps  # 3


def hex_points(board: Board, h: Hex, adding: Iterable[str] = (), leaving: Iterable[str] = ()) -> int:
    """Stacking points in ``h`` once ``adding`` arrive and ``leaving`` go (3)."""
    gone = set(leaving)
    ids = [u for u in board.at(h) if u not in gone] + [u for u in adding if u not in board.at(h)]
    return sum(board.points(u) for u in ids)


def check_hex(board: Board, h: Hex, adding: Iterable[str] = (), leaving: Iterable[str] = (),
              extra_points: int = 0) -> Illegal | None:
    """Would ``h`` be legal once ``adding`` stop there and ``leaving`` go?  (3, 12.2)

    ``extra_points``: steps a unit already there is about to gain (a replacement, 9.2).
    """
    gone = set(leaving)
    ids = [u for u in board.at(h) if u not in gone] + [u for u in adding if u not in board.at(h)]
    total = sum(board.points(u) for u in ids) + extra_points
    cap = limit(board)
    where = board.gmap.grid.id(h)
    if total > cap:  # 3
        return Illegal(CASE, f"{where} would hold {total} stacking points; a hex holds at most {cap}")
    nations = {board.nation(u) for u in ids}
    if all(n in nations for n in APART):  # 12.2
        return Illegal(ALLIES_CASE, f"Romanian and Hungarian units may not stack together ({where})")
    return None


def violations(board: Board, side: str | None = None) -> dict[Hex, Illegal]:
    """Every hex (of ``side``, or of both) breaking the stacking rules, with the refusal (3, 12.2)."""
    out: dict[Hex, Illegal] = {}
    for h, ids in board.occupied().items():
        if side is not None and board.side(ids[0]) != side:
            continue
        bad = check_hex(board, h)
        if bad is not None:
            out[h] = bad
    return out
