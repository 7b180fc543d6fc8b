"""Overrun (6.0 with 19.4): a mechanized stack attacks on the move for 3 MP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError

from kiev_tui.games.spi_kiev import changes
from kiev_tui.games.spi_kiev.actions import Overrun
from kiev_tui.games.spi_kiev.battle import start_battle
from kiev_tui.games.spi_kiev.common import MECHANIZED, MOVEMENT, View
from kiev_tui.games.spi_kiev.events_play import Moved
from kiev_tui.games.spi_kiev.movement import common_start, move_block, movement_allowance, mp_spent
from kiev_tui.games.spi_kiev.preview import Preview, preview_battle
from kiev_tui.games.spi_kiev.state import Battle, added, kiev_vars
from kiev_tui.games.spi_kiev.strength import check_integrity

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

OVERRUN_COST = 3.0


def check_overrun(view: View, a: Overrun) -> Illegal | None:
    st = view.state
    if st.pending is not None:
        return Illegal("9.6", "settle the pending combat result first")
    if st.phase not in (MOVEMENT, MECHANIZED):
        return Illegal("6.11", "overruns happen only in a movement phase")
    start = common_start(view, a.units)
    if isinstance(start, Illegal):
        return Illegal("6.13", start.why)
    for u in a.units:
        if view.side(u) != st.player:
            return Illegal("5.21", f"{u} is not the phasing player's unit")
    try:
        target = Hex.parse(a.target)
    except HexError as exc:
        return Illegal("6.14", str(exc))
    if start.distance(target) != 1:
        return Illegal("6.0", f"{target} is not adjacent to the stack")
    enemy = [u for u in view.at(target) if view.side(u) != st.player]
    if not enemy:
        return Illegal("6.0", f"{target} holds no enemy units")
    if view.map.has(start, target, "major_river"):
        return Illegal("10.13", "no overrun across a major river hexside")
    if view.map.is_impassable_side(start, target):
        return Illegal("10.16", "no overrun across a lake hexside")
    combat_units = [u for u in a.units if not view.is_hq_like(u)]
    if not combat_units:
        return Illegal("19.43", "HQs and leaders only add to an overrun by combat units")
    v = view.vars
    for u in combat_units:
        if not view.udef(u).mechanized:
            return Illegal("19.41", f"{u} is not mechanized: only armour, motorized infantry and cavalry overrun")
    for u in a.units:
        if u in v.oos_start:
            return Illegal("6.12", f"{u} was out of supply when the phase began")
        done = move_block(view, u, "overrun")
        if done is not None:
            return done
        if mp_spent(view, u) + OVERRUN_COST > movement_allowance(view, u) + 1e-9:
            return Illegal("6.16", f"{u} lacks the 3 MP an overrun costs")
    # 6.13: the stack began the phase together and has moved only as one.
    starts = {v.start_hex.get(u) for u in a.units}
    sigs = {tuple(v.sig.get(u, ())) for u in a.units}
    if len(starts) != 1 or len(sigs) != 1:
        return Illegal("6.13", "overrunning units must have begun the phase stacked and moved only together")
    # 6.17: nobody else may stand in the hex, an HQ excepted.
    others = [u for u in view.at(start) if u not in a.units and view.side(u) == st.player]
    if any(not view.is_hq_like(u) for u in others):
        return Illegal("6.17", "other friendly units in the hex would not take part: no overrun from here")
    return check_integrity(view, a.units, a.integrity)  # 20.2


def apply_overrun(game: "Game", a: Overrun) -> None:
    v = kiev_vars(game.state)
    v.mp = {**v.mp, **{u: float(v.mp.get(u, 0.0)) + OVERRUN_COST for u in a.units}}
    v.moved = added(v.moved, a.units)
    v.active = list(a.units)
    view = View(game)
    here = view.hex_of(a.units[0])
    passengers = tuple(u for u in view.at(here) if u not in a.units) if here is not None else ()
    start_battle(game, "overrun", a.units, (a.target,), a.integrity, passengers=passengers)


def after_battle(game: "Game", battle: Battle) -> None:
    """6.22-6.24: a clean win carries the stack into the hex to move on; anything else stops it."""
    st = game.state
    view = View(game)
    target = Hex.parse(battle.targets[0])
    alive = [u for u in battle.attackers if st.units[u].status == "map"]
    v = kiev_vars(st)
    if not view.at(target) and not battle.attacker_lost and alive:
        start = st.units[alive[0]].hex or ""
        for u in alive:
            st.units[u].hex = str(target)
        changes.claim(game, target, st.player)
        v.overran = added(v.overran, alive)  # may leave the hex even inside a zone (6.24, 8.23)
        v.active = list(alive)
        if any(u in v.stopped for u in alive):
            v.stopped = [u for u in v.stopped if u not in alive]
        game.emit(Moved(tuple(alive), (str(target),), 0.0, False, start))
        return
    case = "6.23" if battle.attacker_lost else "6.22"
    v.stop(alive, case)


def overrun_preview(game: "Game", units: tuple[str, ...] | list[str], target: str,
                    integrity: str = "") -> Preview:
    view = View(game)
    units = tuple(units)
    illegal = check_overrun(view, Overrun(units, target, integrity))
    try:
        hexes = [Hex.parse(target)]
    except HexError as exc:
        return Preview((), (), None, None, None, {}, Illegal("6.14", str(exc)))
    return preview_battle(game, view, units, hexes, True, integrity, illegal)
