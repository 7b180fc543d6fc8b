"""Aviation (11, 11.1, 11.2, with 12.3): air bases, rebasing, air support and corps coming back.

Air corps stand on the air layer (schema): in a city, never counted for stacking and with no
zone of control.  A minor city is a base for one corps, a major city for two (11.1).  In the
air rebasing phase a corps may move to a city of its side within its range (the second number
on the counter, 6 for the Germans, 5 for the Soviets).  When an enemy ground unit enters a base
the corps there are eliminated and come back as reinforcements ``return_after_turns`` turns
later (11.1), put by their owner on any city of his side with room (a Soviet corps: a major
city, as Soviet air corps arrive in 11).  In a combat each side may send one corps (11.2) whose
base is within its range of the attacked hex, once per turn; mud forbids it (12.3, combat.py).

Pure functions: the rule system passes the air corps' hexes, the control of cities and the
ground position (``Board``).
"""

from __future__ import annotations

from typing import Mapping

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.schema import SOVIET

MAJOR, MINOR = "major_city", "minor_city"
FLOWN = "air_flown"  # the marker of a corps that has supported a combat this turn (11.2)


def capacity(board: Board, h: Hex) -> int:
    """How many air corps a hex can base (11.1): 2 in a major city, 1 in a minor one, else none."""
    town = board.gmap.settlement(h)
    air = board.tables.air
    return air.major_city_capacity if town == MAJOR else air.minor_city_capacity if town == MINOR else 0


def air_range(board: Board, uid: str) -> int:
    """The corps' range in hexes: the counter's second number (11, 11.1)."""
    return bu.air_support(board.udef(uid))[1]


def based_at(air_hex: Mapping[str, Hex], h: Hex) -> tuple[str, ...]:
    return tuple(sorted(u for u, at in air_hex.items() if at == h))


def check_base(board: Board, air_hex: Mapping[str, Hex], control: Mapping[Hex, str], uid: str, to: Hex,
               returning: bool = False) -> Illegal | None:
    """May the corps be based at ``to``: a city of its side with room, no enemy unit there, and
    within range of its present base unless it is coming back into play (11, 11.1)?"""
    side = board.side(uid)
    where = board.gmap.grid.id(to)
    if not board.gmap.on_map(to):
        return Illegal("11.1", f"{where} is off the map")
    room = capacity(board, to)
    if room == 0:
        return Illegal("11.1", f"{where} is no city: only cities serve as air bases")
    if returning and side == SOVIET and board.gmap.settlement(to) != MAJOR:
        return Illegal("11", f"a Soviet air corps comes into play in a major city, not {where}")
    if control.get(to) != side:
        return Illegal("11.1", f"{where} is not a city of the {side} side")
    if board.owner(to) not in (None, side):
        return Illegal("11.1", f"enemy units hold {where}")
    here = [u for u in based_at(air_hex, to) if u != uid]
    if len(here) >= room:
        return Illegal("11.1", f"{where} already bases {len(here)} air corps, its limit")
    if not returning:
        start = air_hex.get(uid)
        if start is None:
            return Illegal("11.1", f"{uid} is not on the map")
        reach = air_range(board, uid)
        if start.distance(to) > reach:
            return Illegal("11.1", f"{where} is {start.distance(to)} hexes away; {uid}'s range is {reach}")
    return None


def base_options(board: Board, air_hex: Mapping[str, Hex], control: Mapping[Hex, str], uid: str,
                 returning: bool = False) -> list[Hex]:
    """Every city the corps may be based at now (11.1), in map order (its own base excluded)."""
    here = air_hex.get(uid)
    cities = sorted(h for h in board.gmap.settlements() if h != here)
    return [h for h in cities if check_base(board, air_hex, control, uid, h, returning) is None]


def check_support(board: Board, air_hex: Mapping[str, Hex], flown: frozenset[str], uid: str, side: str,
                  target: Hex) -> Illegal | None:
    """May the corps support a combat in ``target`` for ``side`` (11.2, 12.3)?"""
    if uid not in air_hex or board.udef(uid).type != "air":
        return Illegal("11.2", f"{uid} is not an air corps on the map")
    if board.side(uid) != side:
        return Illegal("11.2", f"{uid} is not an air corps of the {side} side")
    if uid in flown:
        return Illegal("11.2", f"{uid} has already flown this turn")
    cond = board.weather(target)
    if not board.tables.weather.effects[cond].air_support:
        return Illegal("12.3", f"no air support in {cond.replace('_', ' ')}")
    dist = air_hex[uid].distance(target)
    if dist > air_range(board, uid):
        return Illegal("11.2", f"the combat is {dist} hexes from {uid}'s base, beyond its range")
    return None


def support_options(board: Board, air_hex: Mapping[str, Hex], flown: frozenset[str], side: str,
                    target: Hex) -> list[str]:
    """The side's air corps that may support a combat in ``target`` (11.2)."""
    return [u for u in sorted(air_hex) if board.side(u) == side
            and check_support(board, air_hex, flown, u, side, target) is None]


def overrun_bases(board: Board, air_hex: Mapping[str, Hex], entering_side: str, h: Hex) -> tuple[str, ...]:
    """The enemy air corps eliminated when a ground unit of ``entering_side`` enters ``h`` (11.1)."""
    return tuple(u for u in based_at(air_hex, h) if board.side(u) != entering_side)


def return_turn(board: Board, turn: int) -> int:
    """The turn an air corps eliminated on ``turn`` comes back (11.1: two turns later)."""
    return turn + board.tables.air.return_after_turns
