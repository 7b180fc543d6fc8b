"""Positions on the Sumy map for the EFS movement and retreat tests (not a test module)."""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import lru_cache
from typing import Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.efs_ktr.board import Board
from kiev_tui.games.efs_ktr.movement import path_cost

PZ = ("ax-33pz-9pz", "ax-10mot-9pz", "ax-11mot-9pz", "ax-9rec-9pz")
M16 = ("ax-60mot-16m", "ax-156mot-16m", "ax-341rec-16m")
M25 = ("ax-35mot-25m", "ax-119mot-25m")
GD = ("so-6-1gdm", "so-12-1gdm", "so-175-1gdm", "so-2-4gdr")


@lru_cache(maxsize=1)
def sumy() -> Scenario:
    return load_scenario("efs_ktr/sumy")


def start() -> Board:
    """The Sumy set-up, Axis Movement phase of GT50 (PB 10.4)."""
    return Board.from_scenario(sumy())


def hx(text: str) -> Hex:
    return sumy().map.grid.parse(text)


def position(units: dict[str, str], gmap: GameMap | None = None, **fields: Any) -> Board:
    """A made-up position: only ``units`` on the map (uid -> printed hex)."""
    b = start()
    board = b.replace(hex_of={u: hx(h) for u, h in units.items()}, **{"lost": {}, **fields})
    if gmap is not None:
        board = board.replace(gmap=gmap)
    return board


def map_copy() -> GameMap:
    """A copy of the Sumy map a test may change."""
    return copy.deepcopy(sumy().map)


def tutorial_motorized() -> Board:
    """PB 10.4, GT50: after the Axis Movement and Combat phases (both Soviet cavalry stacks gone,
    the 25th Motorized in 1510 and the 9th Panzer in 1508), in the Axis Motorized phase."""
    b = start()
    moves: dict[str, Hex | None] = {u: hx("1510") for u in M25}
    moves.update({u: hx("1508") for u in PZ})
    moves.update({u: hx("1409") for u in M16})
    moves.update({"ax-619art": hx("1309"), "so-11-96-5c": None, "so-131-160-5c": None})
    return b.moved(moves).replace(phase="motorized")


def tutorial_soviet_motorized() -> Board:
    """PB 10.4, GT50: the Axis moves of the Motorized phase made; the Soviet Motorized phase,
    with the 227th activated (and the rocket battalion as the HQ's Guards activation, rulings)."""
    b = tutorial_motorized()
    moves = {"ax-35mot-25m": hx("1511"), "ax-119mot-25m": hx("1709"), "ax-9rec-9pz": hx("2009"),
             "ax-60mot-16m": hx("1507"), "ax-156mot-16m": hx("1507"), "ax-20mot-10m": hx("1306")}
    moves.update({u: hx("1808") for u in PZ[:3]})
    return b.moved(moves).replace(phasing="soviet", phase="motorized",
                                  activated=frozenset({"so-227rd", "so-2-4gdr"}))


def tutorial_soviet_movement() -> Board:
    """PB 10.4, GT50: the Soviet Motorized phase's moves and the combat at 1306 done (the 20/10M
    and 341/16M retreated to 1007); the Soviet Movement phase."""
    b = tutorial_soviet_motorized()
    moves = {"so-227rd": hx("1305"), "so-129tb": hx("1305"), "so-1tb": hx("1406"), "so-72-108-9c": hx("1806"),
             "so-6-1gdm": hx("1904"), "so-12-1gdm": hx("1905"), "so-175-1gdm": hx("1905"),
             "so-2-4gdr": hx("2107"), "ax-20mot-10m": hx("1007"), "ax-341rec-16m": hx("1007")}
    return b.moved(moves).replace(phase="movement", lost={"so-227rd": 1, "ax-33pz-9pz": 2})


H = Fraction(1, 2)


def cost(board: Board, units: tuple[str, ...] | list[str], path: str, phase: str | None = None,
         **kw: object) -> Fraction | Illegal:
    """What moving ``units`` along ``path`` ("1506 1507 ...") costs, or the refusal."""
    return path_cost(board, list(units), [hx(h) for h in path.split()], phase or board.phase, **kw)  # type: ignore[arg-type]


def case(result: object) -> str:
    """The case a refusal names (the result must be a refusal)."""
    assert isinstance(result, Illegal), result
    return result.case
