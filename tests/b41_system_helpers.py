"""Positions for Barbarossa 1941's rule-system tests: a real game with only the units a test names.

``position(placements, turn=2, phase="combat", player="axis", dice=[...])`` starts the historical
scenario with fixed dice, takes every counter off the map and puts back only ``placements``
(unit id -> hex id), on the turn and phase given, with fresh bookkeeping.  Hexes 1620/1621 (west)
and 1720 (east) are clear, in the south weather zone, with no river or city around; the railway
through 1519-1520-1620 and 1619 is Axis rail (``axis_rail``: taken over by its markers, 10.2)
unless a test says otherwise.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.prompts import Prompt
from kiev_tui.games.barbarossa1941.state import B41Vars

HISTORICAL = "barbarossa1941/historical"


def position(placements: Mapping[str, str], turn: int = 2, phase: str = "combat", player: str = "axis",
             dice: Iterable[int] = (), steps: Mapping[str, int] | None = None,
             control: Mapping[str, str] | None = None,
             axis_rail: Iterable[str] = ("1519", "1520", "1619", "1620")) -> Game:
    game = Game.new(HISTORICAL, dice=FixedDice(list(dice)))
    st = game.state
    for u in st.units.values():
        u.status, u.hex, u.step, u.markers = "pending", None, 0, set()
    for uid, h in placements.items():
        st.units[uid].status, st.units[uid].hex = "map", h
    for uid, n in (steps or {}).items():
        st.units[uid].step = n
    st.turn, st.phase, st.player, st.half = turn, phase, player, 0
    st.prompts = []
    st.vars = B41Vars()
    st.vars.rail = {"markers": ["", "", ""], "taken": sorted(axis_rail), "used": {}, "moved": []}
    st.control.update(control or {})
    game.memo.clear()
    return game


def stage(game: Game) -> str:
    top = game.state.pending
    return "" if top is None else str(top.get("stage", top["kind"]))


def pick(p: Prompt, verb: str, unit: str | None = None, hex: str | None = None, label: str | None = None) -> int:
    """The index of the option with this verb (and unit / hex / exact label, when given)."""
    for i, o in enumerate(p.options):
        if o.verb == verb and (unit is None or o.unit == unit) and (hex is None or o.hex == hex) \
                and (label is None or o.label == label):
            return i
    raise AssertionError(f"no '{verb}' option for {unit or hex}: {[o.label for o in p.options]}")


def answer(game: Game, verb: str, unit: str | None = None, hex: str | None = None, label: str | None = None) -> None:
    """Answer the waiting prompt with the named option, as its side."""
    p = game.rules.prompt(game)
    assert p is not None
    game.apply(p.answer([pick(p, verb, unit, hex, label)]), side=p.side)


def new_game(ref: str, seed: int) -> "Game":
    """A new game with every set-up choice left at the scenario's default hex (15): the set-up
    prompts come first in a new game, and most tests start from the book's set-up."""
    from kiev_tui.engine.game import Game

    game = Game.new(ref, seed=seed)
    while game.state.pending is not None and game.state.pending["kind"] == "setup":
        p = game.rules.prompt(game)
        game.apply(next(o.action for o in p.options if o.verb == "setup_defaults"), side=p.side)
    return game
