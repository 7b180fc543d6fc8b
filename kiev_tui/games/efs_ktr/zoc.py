"""Zones of control (3.4, 10.6, 10.79, 11.44, 16.44-16.46): who exerts one and where it reaches.

A combat unit exerts a zone into the six hexes around it (3.4) unless it carries the No ZOC band
(3.42: ``zoc = false`` in units.toml, the Guards rocket battalion); one unit with a zone gives
every combat unit of its hex a zone (3.42).  A unit under an Overrun marker has none (3.47,
11.44a).  Zones never reach into a major city (10.79), into a lake, or across an unfrozen major
river or lake hexside (3.44 and the note to 10.67); a minor river does not stop them (PB 10.4:
the 227th pays for the 20/10M's zone across the Sula).  Other units never lift a zone (3.45),
except on a retreat, where a friendly combat unit in the hex cancels it (16.44).

A hex in the zones of both sides is contested (3.46); ``contested`` answers it, and the retreat
rules decide what that means for them (docs/rulings.md, EFS: movement, zones and retreat).
"""

from __future__ import annotations

from typing import cast

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.board import Board, other
from kiev_tui.games.efs_ktr.schema import AXIS, SOVIET

FROZEN = frozenset({"snow", "arctic"})  # 10.76d, 10.77a: frozen rivers and lakes pass zones


def hex_exerts(board: Board, h: Hex) -> bool:
    """Do the units in ``h`` exert a zone into its neighbours (3.42, 3.47)?"""
    ids = [u for u in board.at(h) if board.is_combat(u)]
    live = [u for u in ids if u not in board.overrun_marked]  # 3.47, 11.44a
    return any(board.own_zoc(u) for u in live)


def reaches(board: Board, a: Hex, b: Hex) -> bool:
    """Does a zone from ``a`` reach the adjacent ``b`` (3.44, 10.79)?"""
    if board.settlement(b) == "major_city":  # 10.79
        return False
    base, _ = board.terrain(b)
    frozen = board.weather in FROZEN
    if base == "lake" and not frozen:
        return False
    if board.river(a, b) == "major_river" and not frozen:  # note to 10.67
        return False
    return True


def zone_map(board: Board, side: str) -> dict[Hex, frozenset[Hex]]:
    """Every hex in ``side``'s zones, with the hexes whose units project into it (3.4)."""
    key = ("zoc", side)
    hit = board.memo.get(key)
    if hit is not None:
        return cast("dict[Hex, frozenset[Hex]]", hit)
    acc: dict[Hex, set[Hex]] = {}
    for h, ids in board.occupied().items():
        if board.side(ids[0]) != side or not hex_exerts(board, h):
            continue
        for n in board.gmap.neighbours(h):
            if reaches(board, h, n):
                acc.setdefault(n, set()).add(h)
    out = {h: frozenset(src) for h, src in acc.items()}
    board.memo[key] = out
    return out


def in_enemy_zoc(board: Board, h: Hex, side: str) -> bool:
    """Is ``h`` in a zone of ``side``'s enemy?  Friendly units there change nothing (3.45, 10.62)."""
    return h in zone_map(board, other(side))


def projectors(board: Board, h: Hex, side: str) -> frozenset[Hex]:
    """The enemy-held hexes whose zones cover ``h`` for ``side`` (11.42d counts them)."""
    return zone_map(board, other(side)).get(h, frozenset())


def contested(board: Board, h: Hex) -> bool:
    """Both sides project a zone into ``h`` (3.46)."""
    return h in zone_map(board, AXIS) and h in zone_map(board, SOVIET)


def uncontested_enemy(board: Board, h: Hex, side: str) -> bool:
    """Only ``side``'s enemy projects a zone into ``h`` (3.46; 16.41b2 reads it)."""
    return in_enemy_zoc(board, h, side) and h not in zone_map(board, side)


def retreat_blocked(board: Board, h: Hex, side: str) -> bool:
    """Is ``h`` an enemy zone for a ``side`` retreat: in an enemy zone and no friendly combat unit
    there to cancel it (3.45, 16.44)?"""
    return in_enemy_zoc(board, h, side) and not board.friendly_combat_in(h, side)
