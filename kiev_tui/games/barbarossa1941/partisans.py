"""Partisans (12.7) and the people's militia (12.11): the Soviet counters the VP track brings.

Partisans (from 18 VP, 13): placed at the start of the Soviet operations phase, one per hex, in
the USSR at least 5 hexes inside its western border (depth 5 or more, depth 1 being next to an
Axis country), at least one of those on the map north of the Bobruisk row (rows 01-15); they
never move.  One in an Axis zone of control, or in a hex with an Axis unit, is taken off until the
end of the turn; eliminated ones come back the next turn.  On the map a partisan makes a rail hex
cost 4 of the 20 (12.7, 10.1, 9.2).  Apart from that, a partisan may appear at any moment, even
before 18 VP, in a Russian major city the Axis holds without a garrison (no Axis formation in it);
the city's VP are then lost to the Axis for good (12.7, victory.py).  The rule system offers it the
moment an action leaves such a city empty, and again in each Soviet partisan phase.  We do not let
a partisan be placed where it would be withdrawn at once (in an Axis zone).

Militia (from 5 VP, 13): a Soviet major city the Soviet side holds raises one the first time in
the game an Axis unit stands next to it, if a militia counter is free then; a city raises at most
one, and a destroyed militia is free again the next turn for another city (12.11).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.games.barbarossa1941 import stacking, zoc
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.reinforcements import campaign, held_by
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.setup_check import border_depth
from kiev_tui.games.barbarossa1941.tables import Campaign

CASE = "12.7"
MILITIA_CASE = "12.11"
_DEPTH: dict[int, tuple[GameMap, dict[Hex, int]]] = {}


def depth(gmap: GameMap) -> dict[Hex, int]:
    """How deep inside the USSR each of its hexes lies (1: next to an Axis country), cached per map."""
    hit = _DEPTH.get(id(gmap))
    if hit is None or hit[0] is not gmap:
        hit = (gmap, border_depth(gmap))
        _DEPTH[id(gmap)] = hit
    return hit[1]


def row(board: Board, h: Hex) -> int:
    return int(board.gmap.grid.id(h)[2:])


def is_partisan(board: Board, uid: str) -> bool:
    return board.udef(uid).type == "partisan"


def on_map(board: Board) -> list[str]:
    return sorted(u for u in board.hex_of if is_partisan(board, u))


def rail_hex_cost(board: Board, h: Hex) -> int:
    """Rail points a hex costs for rail movement and 9.2's count: 4 with a partisan, else 1 (12.7)."""
    if any(is_partisan(board, u) for u in board.at(h)):
        return board.tables.rail.partisan_hex_cost
    return board.tables.rail.points_per_step


def _axis_threat(board: Board, h: Hex) -> bool:
    """An Axis zone on ``h``, or an Axis unit in it (12.7)."""
    return any(board.side(u) == AXIS for u in board.at(h)) or h in zoc.zone_map(board, AXIS)


def to_withdraw(board: Board) -> list[str]:
    """Partisans to take off now: in an Axis zone or sharing a hex with an Axis unit (12.7)."""
    return [u for u in on_map(board) if _axis_threat(board, board.hex_of[u])]


def site_problem(board: Board, uid: str, h: Hex, camp: Campaign | None = None) -> Illegal | None:
    """Why a partisan may not go on ``h`` in the partisan phase, the north rule aside (12.7)."""
    c = campaign(camp).partisans
    gid = board.gmap.grid.id(h)
    need = board.tables.victory.partisan_depth
    d = depth(board.gmap).get(h)
    if d is None:
        return Illegal(CASE, f"{gid} is not in the USSR")
    if d < need:
        return Illegal(CASE, f"{gid} lies {d} hexes inside the border; partisans go {need} or more inside")
    if board.gmap.is_impassable(h) or board.gmap.terrain(h) == "lake":
        return Illegal(CASE, f"{gid} is water")
    if c.one_per_hex and any(is_partisan(board, u) and u != uid for u in board.at(h)):
        return Illegal(CASE, f"{gid} already has partisans")
    if not c.placed_in_axis_zoc and _axis_threat(board, h):
        return Illegal(CASE, f"{gid} is in an Axis zone of control or holds Axis units: the partisans would go at once")
    return None


def check_partisan(board: Board, uid: str, h: Hex, remaining: int = 0, camp: Campaign | None = None) -> Illegal | None:
    """Why partisan ``uid`` may not be placed on ``h`` now (12.7), or None.

    ``remaining``: partisans still to be placed this phase after this one; when it is 0 the
    partisans on the map, this one included, must have ``north_min`` north of the Bobruisk row.
    """
    c = campaign(camp).partisans
    if uid not in board.units or not is_partisan(board, uid):
        return Illegal(CASE, f"{uid} is no partisan counter")
    if uid in board.hex_of:
        return Illegal(CASE, f"{uid} is on the map already: partisans do not move")
    bad = site_problem(board, uid, h, camp)
    if bad is not None:
        return bad
    if remaining == 0:
        north = sum(1 for u in on_map(board) if row(board, board.hex_of[u]) <= c.north_last_row)
        north += row(board, h) <= c.north_last_row
        if north < c.north_min:
            return Illegal(CASE, f"one partisan must stand north of the Bobruisk row (rows 01-{c.north_last_row:02d})")
    return None


def sites(board: Board, uid: str, remaining: int = 0, camp: Campaign | None = None) -> frozenset[Hex]:
    """Every hex partisan ``uid`` may be placed on now, for the partisan phase's prompt (12.7)."""
    return frozenset(h for h in depth(board.gmap) if check_partisan(board, uid, h, remaining, camp) is None)


# -- partisans in a Russian major city (12.7) ----------------------------------------------------


def russian_major_cities(board: Board) -> list[Hex]:
    """tables.toml's supply.russian_major_cities on the map (every Soviet major city but Lvov, Riga)."""
    return [h for h in (board.gmap.find(n) for n in board.tables.supply.russian_major_cities) if h is not None]


def garrisoned(board: Board, h: Hex) -> bool:
    """An Axis formation stands in ``h`` (12.7, 13: a fort or an air corps is no garrison)."""
    return any(board.side(u) == AXIS and board.is_formation(u) for u in board.at(h))


def city_sites(board: Board, control: Mapping[Hex, str]) -> frozenset[Hex]:
    """Russian major cities the Axis holds (it was last in them, 13) with no Axis formation in them
    (12.7): where partisans may rise at any moment."""
    return frozenset(h for h in russian_major_cities(board) if control.get(h) == AXIS and not garrisoned(board, h))


def check_city_partisan(board: Board, uid: str, h: Hex, control: Mapping[Hex, str],
                        camp: Campaign | None = None) -> Illegal | None:
    """Why partisan ``uid`` may not rise in city ``h`` now (12.7), or None."""
    if not campaign(camp).partisans.city_partisan_any_time:
        return Illegal(CASE, "partisans rise in cities only under the partisan rule")
    if uid not in board.units or not is_partisan(board, uid) or uid in board.hex_of:
        return Illegal(CASE, f"{uid} is no partisan counter off the map")
    if h not in city_sites(board, control):
        return Illegal(CASE, f"{board.gmap.grid.id(h)} is no Russian major city the Axis holds without a garrison "
                             f"(an Axis formation in it)")
    return None


# -- militia (12.11) -------------------------------------------------------------------------------


def militia_cities(board: Board, control: Mapping[Hex, str]) -> list[Hex]:
    """Major cities of the USSR the Soviet side holds (12.11's "Soviet-controlled major city")."""
    ussr = board.gmap.areas["ussr"].hexes if "ussr" in board.gmap.areas else frozenset()
    return [h for h, kind in sorted(board.gmap.settlements().items())
            if kind == "major_city" and h in ussr and held_by(board, control, h) == SOVIET]


def approached(board: Board) -> frozenset[Hex]:
    """Soviet-country major cities with an Axis unit next to them now (the system adds these to
    the cities ever approached after each Axis move, starting with the set-up)."""
    ussr = board.gmap.areas["ussr"].hexes if "ussr" in board.gmap.areas else frozenset()
    out = set()
    for h, kind in board.gmap.settlements().items():
        if kind == "major_city" and h in ussr and any(
                board.side(u) == AXIS for n in board.gmap.neighbours(h) for u in board.at(n)):
            out.add(h)
    return frozenset(out)


def militia_sites(board: Board, control: Mapping[Hex, str], seen_before: Iterable[Hex],
                  raised: Iterable[Hex]) -> frozenset[Hex]:
    """Cities that may raise a militia at this moment (12.11): held by the Soviet side, with an
    Axis unit next to them now for the first time (``seen_before``: cities approached before this
    move), and not having raised one already (``raised``)."""
    before, done = set(seen_before), set(raised)
    return frozenset(h for h in militia_cities(board, control)
                     if h in approached(board) and h not in before and h not in done)


def check_militia(board: Board, uid: str, h: Hex, control: Mapping[Hex, str], seen_before: Iterable[Hex],
                  raised: Iterable[Hex], available: Iterable[str]) -> Illegal | None:
    """Why militia ``uid`` may not be placed on ``h`` now (12.11), or None.

    ``available``: militia counters free now (from the 5 VP event, a destroyed one from the next
    turn on)."""
    if uid not in set(available):
        return Illegal(MILITIA_CASE, f"{uid} is not available")
    if board.udef(uid).type != "militia":
        return Illegal(MILITIA_CASE, f"{uid} is no militia")
    gid = board.gmap.grid.id(h)
    if h in set(raised):
        return Illegal(MILITIA_CASE, f"{gid} has raised its militia already: each city raises one")
    if h not in militia_sites(board, control, seen_before, raised):
        return Illegal(MILITIA_CASE, f"{gid} is no Soviet major city an Axis unit has just come next to for the first time")
    return stacking.check_hex(board, h, adding=[uid])
