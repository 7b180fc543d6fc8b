"""Stacking (3.3, 10.51, 16.47, 16.54): stacking points as a counter factor and the hex limit.

Each ground counter carries its stacking points as the ``stacking`` factor (3.31: zero for a
Soviet HQ); a hex may hold ten (3.32, the chart's ``stacking_limit``).  The limit is judged only
at the end of a Movement, Reaction or Combat phase (3.32, 10.51): a moving stack passes through
a full hex freely, and a unit may stop over the limit in the middle of a phase.  A retreat may
not end over it (16.47) nor may an advance (16.54): those are judged at once.  At the end of a
phase ``excess`` names what the owner must send to the Cadre Box (3.32).
"""

from __future__ import annotations

from typing import Iterable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.board import MOTORIZED, MOVEMENT, REACTION, Board

CASE = "3.32"
#: 3.32, 10.51: the phases at whose end the limit is enforced.
CHECKED_AT_END_OF = frozenset({MOVEMENT, MOTORIZED, REACTION, "combat"})


def limit(board: Board) -> int:
    return board.tables.stacking_limit  # 3.32: ten points


def points(board: Board, uid: str) -> int:
    """Stacking points of one unit (3.31); units off the map or on the air layer count none."""
    if board.units[uid].layer == "air":
        return 0
    return board.stacking(uid)


def hex_points(board: Board, h: Hex, adding: Iterable[str] = (), leaving: Iterable[str] = ()) -> int:
    """Stacking points in ``h`` once ``adding`` arrive and ``leaving`` go (3.32)."""
    gone = set(leaving)
    here = board.at(h)
    ids = [u for u in here if u not in gone] + [u for u in adding if u not in here]
    return sum(points(board, u) for u in ids)


def check_hex(board: Board, h: Hex, adding: Iterable[str] = (), leaving: Iterable[str] = (),
              case: str = CASE) -> Illegal | None:
    """Would ``h`` be within the limit once ``adding`` stop there and ``leaving`` go?"""
    total = hex_points(board, h, adding, leaving)
    cap = limit(board)
    if total > cap:
        return Illegal(case, f"{board.hid(h)} would hold {total} stacking points; a hex holds at most {cap}")
    return None


def excess(board: Board, side: str | None = None) -> dict[Hex, int]:
    """Hexes over the limit, with the points too many: the owner sends units worth at least that
    to the Cadre Box at the end of the phase (3.32)."""
    out: dict[Hex, int] = {}
    cap = limit(board)
    for h, ids in board.occupied().items():
        if side is not None and board.side(ids[0]) != side:
            continue
        total = hex_points(board, h)
        if total > cap:
            out[h] = total - cap
    return out


def end_of_phase(board: Board, phase: str, side: str | None = None) -> dict[Hex, int]:
    """What 3.32 removes at the end of ``phase``: nothing after a phase it does not check."""
    if phase not in CHECKED_AT_END_OF:
        return {}
    return excess(board, side)
