"""Stalin's Directive (22.0): the stand-fast order that pins Soviet units in the pocket."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import SOVIET, View
from kiev_tui.games.spi_kiev.state import kiev_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def settings(game: "Game") -> dict[str, Any]:
    d = game.scenario.tables.get("stalins_directive", {})
    return {
        "automatic_turns": list(d.get("automatic_turns", [7, 8, 9])),
        "roll_from_turn": int(d.get("roll_from_turn", 10)),
        "previous_turn_bonus": int(d.get("previous_turn_bonus", 1)),
        "in_force_max": int(d.get("in_force_max", 4)),
    }


def determine(game: "Game") -> None:
    """At the start of a game-turn, decide whether the order holds this turn (22.0)."""
    s = settings(game)
    turn = game.state.turn
    history = kiev_vars(game.state).directive
    if turn in s["automatic_turns"]:
        history[turn] = True
        game.emit(Note(f"Stalin's Directive is in force on turn {turn} (22.0)."))
    elif turn >= s["roll_from_turn"]:
        bonus = s["previous_turn_bonus"] if history.get(turn - 1) else 0
        roll = game.roll("Stalin's Directive (22.0)")
        in_force = roll + bonus <= s["in_force_max"]
        history[turn] = in_force
        game.emit(Note(f"Stalin's Directive: roll {roll}{' +1' if bonus else ''} = {roll + bonus}: "
                       f"{'in force' if in_force else 'lifted'} on turn {turn} (22.0)."))


def in_force(game: "Game") -> bool:
    return bool(kiev_vars(game.state).directive.get(game.state.turn))


def exempt(view: View, uid: str, start: Hex) -> str | None:
    """Why a Soviet unit is free of the order this phase, or None if it is bound (22.1)."""
    d = view.catalog.units[uid]
    if d.side != SOVIET:
        return "German"
    if d.hq:
        return "an HQ (22.1)"
    west = view.map.areas.get("west_of_stalin_line")
    if west is not None and start in west.hexes:
        return "west of the Seim-Desna-Dnieper line (22.1)"
    if uid in view.vars.relieved:
        return "relieved (22.2)"
    return None
