"""Movement (5.1-5.2, 8.2, 10.x, 11.2, 19.5, 22.x): legal paths, costs and the reachable map."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError, path_back
from kiev_tui.engine.rules import Reach

from kiev_tui.games.spi_kiev import directive
from kiev_tui.games.spi_kiev.common import GERMAN, MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.state import KievVars
from kiev_tui.games.spi_kiev.terrain import cached_step_cost
from kiev_tui.later import handed_out

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


__all__ = ["Reach", "reachable", "check_move", "move_block", "movement_allowance", "mp_spent", "common_start",
           "may_start_moving", "mud"]


def mud(game: "Game") -> bool:
    return game.state.turn in game.scenario.params.get("mud_turns", [])


def movement_allowance(view: View, uid: str) -> int:
    """This phase's movement allowance: mud (19.9) and supply at phase start (5.25) applied."""
    game = view.game
    d = view.udef(uid)
    ma = d.ma
    if mud(game):
        mud_tbl = game.scenario.tables.get("mud", {})
        if d.type == "cavalry":
            ma = int(mud_tbl.get("cavalry_ma", 6))
        else:
            ma = ma // int(mud_tbl.get("ma_divisor", 2))
    if uid in view.vars.oos_start:
        ma = ma // 2  # 5.25, 12.21: out of supply when the phase began
    return ma


def mp_spent(view: View, uid: str) -> float:
    return float(view.vars.mp.get(uid, 0.0))


def common_start(view: View, units: tuple[str, ...]) -> Hex | Illegal:
    if not units:
        return Illegal("5.1", "choose at least one unit to move")
    if len(set(units)) != len(units):
        return Illegal("5.1", "a unit is listed twice")
    hexes = set()
    for uid in units:
        if uid not in view.state.units:
            return Illegal("5.1", f"there is no unit '{uid}'")
        if view.state.units[uid].status != "map":
            return Illegal("5.1", f"{uid} is not on the map")
        hexes.add(view.state.units[uid].hex or "")
    if len(hexes) != 1:
        return Illegal("5.1", "units moving together must start in the same hex")
    return Hex.parse(hexes.pop())


def may_start_moving(view: View, units: tuple[str, ...]) -> Illegal | None:
    """Checks shared by every kind of movement: whose turn, which phase, which units."""
    st = view.state
    if st.pending is not None:
        return Illegal("9.83", "a combat result is waiting to be settled first")
    if st.phase not in (MOVEMENT, MECHANIZED):
        return Illegal("4.2", f"units move only in a movement phase, not the {st.phase} phase")
    for uid in units:
        if uid in st.units and view.side(uid) != st.player:
            return Illegal("5.21", f"{uid} belongs to the {view.side(uid)} player, who is not moving now")
        if uid in st.units and st.phase == MECHANIZED:
            d = view.udef(uid)
            if not (d.mechanized or d.hq or d.leader):
                return Illegal("4.2", f"{uid} is not mechanized, cavalry or an HQ: it cannot move in the mechanized phase")
    return None


def _parse_path(path: tuple[str, ...]) -> list[Hex] | Illegal:
    out = []
    for text in path:
        try:
            out.append(Hex.parse(text))
        except HexError as exc:
            return Illegal("5.1", str(exc))
    return out


def _railed_why(v: KievVars, uid: str) -> str:
    """Why a unit that used the railway may not move normally, and what it may still do (5.33)."""
    if uid in v.rail_entry and uid not in v.railed:
        return f"{uid} came on by rail this phase: it may go on only by rail, not move normally"
    return f"{uid} moved by rail this phase and cannot also move normally"


def move_block(view: View, uid: str, how: str = "move") -> Illegal | None:
    """What this unit already did this phase that bars a move of this kind, or None.

    The one place that reads the phase's movement record.  ``how``: "move" (a normal move),
    "reach" (the same, in the short words the map shows), "overrun" or "rail".
    """
    v = view.vars
    if how == "rail":
        if uid in v.moved and uid not in v.rail_entry:
            return Illegal("5.33", f"{uid} has already moved normally this phase")
        if uid in v.railed:
            return Illegal("5.33", f"{uid} has already moved by rail this phase")
        return None
    if uid in v.railed or uid in v.rail_entry:
        # 5.33: a rail move is the unit's whole movement for the phase
        return Illegal("5.33", f"{uid} moved by rail this phase" if how == "overrun" else _railed_why(v, uid))
    if uid in v.stopped:
        case = v.stop_case.get(uid)
        if how == "overrun":
            # 8.21: a stack halted by an enemy zone may still overrun out of it (6.0); 6.22 and
            # the rest end its movement
            if case != "8.21":
                return Illegal(case or "6.22", f"{uid} may not move again this phase")
        elif how == "reach":
            return Illegal(case or "8.21", f"{uid} has stopped for this phase")
        else:
            return Illegal(case or "8.21", f"{uid} has stopped for this phase and cannot move again")
    if uid in v.moved and uid not in v.active:
        # 5.0: once another stack has moved, an earlier stack's move is over
        more = " (another stack has moved since)" if how == "move" else ""
        return Illegal("5.0", f"{uid} already finished its move this phase{more}")
    return None


@dataclass(frozen=True, slots=True)
class Caution:
    """What a legal action costs that the player may not expect: the case and one line."""

    case: str
    why: str
    units: tuple[str, ...]  # the units it concerns

    def __str__(self) -> str:
        return f"[{self.case}] {self.why}"


def _phase_start_hex(view: View, uid: str) -> Hex | None:
    h = view.vars.start_hex.get(uid)
    return Hex.parse(h) if h else None


def may_relieve(view: View, units: tuple[str, ...]) -> Illegal | None:
    """22.2: relieving is a move out of a higher-numbered hexrow, by road or by rail (22.22); a
    unit that came on the map this turn (by road or rail) began the move in no such hexrow."""
    v = view.vars
    for u in units:
        if u in v.entered:
            return Illegal("22.2", f"{u} is a reinforcement arriving this turn: it comes from off the map, not from a higher hexrow, and cannot relieve")
    return None


def check_relief(view: View, units: tuple[str, ...], start: Hex, end: Hex, relieve: str) -> Illegal | None:
    """22.2: a unit from a higher-numbered hexrow frees one unit in the hex it stops in."""
    if not directive.in_force(view.game):
        return Illegal("22.2", "relieving only matters while Stalin's Directive is in force")
    if len(units) != 1:
        return Illegal("22.21", "one unit relieves one other unit: move the relieving unit alone")
    mover = units[0]
    if view.is_hq_like(mover):
        return Illegal("22.23", "an HQ cannot relieve another unit")
    if relieve not in view.state.units or view.state.units[relieve].hex != str(end) or view.side(relieve) != SOVIET:
        return Illegal("22.2", f"{relieve} is not a Soviet unit in {end}")
    origin = _phase_start_hex(view, mover) or start
    if origin.col <= end.col:
        return Illegal("22.2", f"the relieving unit must come from a higher-numbered hexrow than {end.col:02d}")
    if mover in view.vars.relievers:
        return Illegal("22.21", f"{mover} has already relieved a unit this turn")
    return None


#: Functions written in movement_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'check_move', '_directive_bound', 'ends_hand', 'reachable'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.movement_more", _LATER)
