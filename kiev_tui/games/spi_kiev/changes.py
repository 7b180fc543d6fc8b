"""Kiev's state changes shared by movement and combat: placing a unit, taking a town, eliminating.

A module of its own so that the modules of each action (moving.py, battle.py, retreat.py,
advance.py, overrun.py) use them without importing the rule system (system.py) back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.events import ControlChanged, Eliminated

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def place(game: "Game", uid: str, h: Hex) -> None:
    """Put a unit in a hex and take control of a town or city there (24.0)."""
    u = game.state.units[uid]
    u.status = "map"
    u.hex = str(h)
    claim(game, h, game.scenario.catalog.units[uid].side)


def claim(game: "Game", h: Hex, side: str) -> None:
    gmap = game.scenario.map
    if gmap.settlement(h) is None:
        return
    key = str(h)
    if game.state.control.get(key) != side:
        game.state.control[key] = side
        game.emit(ControlChanged(key, side, gmap.name(h) or ""))


def eliminate(game: "Game", uid: str, case: str, reason: str) -> None:
    u = game.state.units[uid]
    u.status = "eliminated"
    u.hex = None
    game.emit(Eliminated(uid, case, reason))
