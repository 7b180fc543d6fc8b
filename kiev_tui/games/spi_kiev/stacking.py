"""Stacking (7.0, 11.22): three combat units plus one HQ or leader per hex."""

from __future__ import annotations

from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import View

COMBAT_LIMIT = 3
HQ_LIMIT = 1


def over_limit(view: View, side: str) -> dict[Hex, str]:
    """Hexes of ``side`` breaking the limits, with what is wrong in each."""
    out: dict[Hex, str] = {}
    for h, ids in view.occupancy.items():
        if len(ids) <= HQ_LIMIT:
            continue  # one unit is within both limits (issue 33: most hexes hold one)
        mine = [u for u in ids if view.side(u) == side]
        if not mine:
            continue
        combat = [u for u in mine if not view.is_hq_like(u)]
        hqs = [u for u in mine if view.is_hq_like(u)]
        problems = []
        if len(combat) > COMBAT_LIMIT:
            problems.append(f"{len(combat)} combat units (limit {COMBAT_LIMIT})")
        if len(hqs) > HQ_LIMIT:
            problems.append(f"{len(hqs)} HQs/leaders (limit {HQ_LIMIT})")
        if problems:
            out[h] = " and ".join(problems)
    return out


def may_remove(view: View, uid: str) -> bool:
    h = view.hex_of(uid)
    if h is None:
        return False
    problems = over_limit(view, view.side(uid)).get(h)
    if problems is None:
        return False
    hq = view.is_hq_like(uid)
    return ("HQs" in problems) if hq else ("combat units" in problems)
