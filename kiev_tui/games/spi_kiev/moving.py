"""The movement actions' checkers and appliers (5.0-8.0, 15.0, 19.3, 22.2, 23.0, 25.12): Move,
RailMove, Enter and RemoveExcess.  handlers.py lists them in the rule system's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev import movement, rail, reinforcements, stacking, untried
from kiev_tui.games.spi_kiev.actions import Enter, Move, RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.changes import claim, eliminate, place
from kiev_tui.games.spi_kiev.common import MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.events_play import Entered, Moved, Railed, Relieved
from kiev_tui.games.spi_kiev.state import added, kiev_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def _check_move(view: View, a: Move) -> Illegal | None:
    return movement.check_move(view, a.units, a.path, a.relieve)


def _apply_move(game: "Game", a: Move) -> None:
    view = View(game)
    start = view.hex_of(a.units[0])
    assert start is not None  # check_move placed the stack on the map
    hexes = [Hex.parse(t) for t in a.path]
    v = kiev_vars(game.state)
    mp = dict(v.mp)
    prev = start
    total = 0.0
    from kiev_tui.games.spi_kiev.terrain import cached_step_cost
    for h in hexes:
        costs: list[float] = []
        for u in a.units:
            c = cached_step_cost(game.scenario.map, game.scenario.tables, view.udef(u), prev, h)
            assert not isinstance(c, Illegal)  # check_move refused any step that cannot be made
            mp[u] = float(mp.get(u, 0.0)) + c
            costs.append(c)
        total += max(costs)
        prev = h
    v.mp = mp
    for h in hexes:
        claim(game, h, game.state.player)  # 24.0: moving through a town or city takes it
    for u in a.units:
        game.state.units[u].hex = str(hexes[-1])
    v.moved = added(v.moved, a.units)
    # 5.0: the stack in the hand may split and its parts go on (a stack that came on together
    # too); a unit from outside it moving ends that hand
    held = list(v.active)
    v.active = held if held and set(a.units) <= set(held) else list(a.units)
    v.move_no += 1
    sig = {u: list(n) for u, n in v.sig.items()}
    for u in a.units:
        sig.setdefault(u, []).append(v.move_no)  # 6.13: which units have moved only together
    v.sig = sig
    if any(u in v.overran for u in a.units):
        v.overran = [u for u in v.overran if u not in a.units]
    stopped = View(game).in_enemy_zoc(hexes[-1], game.state.player)
    if stopped:
        v.stop(a.units, "8.21")
    game.emit(Moved(a.units, a.path, total, stopped, str(start)))
    if a.relieve:
        _relieve(game, a.units, a.relieve)


def _relieve(game: "Game", units: tuple[str, ...], relieved: str) -> None:
    """22.2: the relieved unit is free of the directive; the reliever stops for the phase."""
    v = kiev_vars(game.state)
    v.relieved = added(v.relieved, [relieved])
    v.relievers = added(v.relievers, units)
    v.stop(units, "22.2")
    game.emit(Relieved(units[0], relieved))


def _check_rail(view: View, a: RailMove) -> Illegal | None:
    return rail.check_rail(view, a.units, a.path, a.relieve)


def _apply_rail(game: "Game", a: RailMove) -> None:
    view = View(game)
    v = kiev_vars(game.state)
    start = game.state.units[a.units[0]].hex or ""
    fresh = tuple(u for u in a.units if u not in v.rail_entry)
    v.rail_used += rail.counted(view, fresh)
    for t in a.path:
        claim(game, Hex.parse(t), SOVIET)
    for u in a.units:
        game.state.units[u].hex = a.path[-1]
    v.railed = added(v.railed, a.units)
    v.moved = added(v.moved, a.units)
    v.stop(a.units, "5.33")
    v.active = []
    game.emit(Railed(a.units, a.path, start))
    if a.relieve:
        _relieve(game, a.units, a.relieve)  # 22.2 with 22.22


def _check_enter(view: View, a: Enter) -> Illegal | None:
    return reinforcements.check_enter(view, a.units, a.hex, a.rail)


def _apply_enter(game: "Game", a: Enter) -> None:
    view = View(game)
    h = Hex.parse(a.hex)
    v = kiev_vars(game.state)
    mp = dict(v.mp)
    cost = 0.0
    for u in a.units:
        place(game, u, h)
        c = 0.0 if a.rail else reinforcements.entry_cost(view, u, h)
        mp[u] = c
        cost = max(cost, c)
        v.start_hex[u] = str(h)
    v.mp = mp
    v.entered = added(v.entered, a.units)  # 15.0: in supply for this player-turn
    _reveal_historical(game, a.units)
    if a.rail:
        v.rail_used += rail.counted(view, a.units)
        v.rail_entry = added(v.rail_entry, a.units)
        v.active = []
    else:
        v.moved = added(v.moved, a.units)
        v.active = list(a.units)
        if View(game).in_enemy_zoc(h, game.state.player):
            v.stop(a.units, "8.21")
    game.emit(Entered(a.units, a.hex, cost, a.rail))


def _reveal_historical(game: "Game", units: tuple[str, ...]) -> None:
    """25.12 (play-by-mail option): reinforcements come on tried, as the chart's divisions."""
    chart = reinforcements.historical_faces(game.scenario)
    if not chart:
        return
    from kiev_tui.games.spi_kiev.events_play import Revealed

    used = kiev_vars(game.state).pool_used
    for u in units:
        face_id = chart.get(u)
        if face_id is None or game.state.units[u].face is not None:
            continue
        game.state.units[u].face = face_id
        used.append(face_id)
        face = untried.pool(game.scenario.catalog).faces[face_id]
        game.emit(Revealed(u, face.designation, face.attack, face.defense, face.asterisk))


def _check_remove(view: View, a: RemoveExcess) -> Illegal | None:
    st = view.state
    if st.pending is not None:
        return Illegal("9.6", "settle the pending combat result first")
    if a.unit not in st.units or st.units[a.unit].status != "map":
        return Illegal("7.0", f"{a.unit} is not on the map")
    if view.side(a.unit) != st.player:
        return Illegal("7.0", "only the owner removes excess units, at the end of his own movement phase")
    if st.phase not in (MOVEMENT, MECHANIZED):
        return Illegal("7.0", "overstacking is settled at the end of a movement phase")
    if not stacking.may_remove(view, a.unit):
        return Illegal("7.0", f"{a.unit}'s hex is within the stacking limit")
    return None


def _apply_remove(game: "Game", a: RemoveExcess) -> None:
    eliminate(game, a.unit, "7.0", "removed from an overstacked hex")
