"""The functions of reinforcements.py that a new game's first frame never calls (issue 33, round 7).

reinforcements.py hands them out on first use (its module ``__getattr__``), so ``reinforcements.check_enter`` and
``from kiev_tui.games.spi_kiev.reinforcements import check_enter`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.reinforcements import (
    Hex,
    HexError,
    Illegal,
    MOVEMENT,
    SOVIET,
    capacity,
    counted,
    due_now,
    enemy_of,
    entry_hexes,
    is_rail_hex,
    schedule,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.reinforcements import View


def check_enter(view: View, units: tuple[str, ...], hex_id: str, rail: bool) -> Illegal | None:
    st = view.state
    if st.pending is not None:
        return Illegal("9.83", "a combat result is waiting to be settled first")
    if st.phase != MOVEMENT:
        return Illegal("15.0", "reinforcements enter only in the initial movement phase")
    if not units or len(set(units)) != len(units):
        return Illegal("15.0", "name each entering unit once")
    due = set(due_now(view))
    for u in units:
        if u not in st.units:
            return Illegal("15.0", f"there is no unit '{u}'")
        if view.side(u) != st.player:
            return Illegal("15.0", f"{u} is not a reinforcement of the {st.player} player")
        if u not in due:
            return Illegal("23.0", f"{u} is not due to arrive now")
    try:
        h = Hex.parse(hex_id)
    except HexError as exc:
        return Illegal("23.0", str(exc))
    for u in units:
        if h not in entry_hexes(view, u):
            if view.occupied_by(h, enemy_of(st.player)):
                return Illegal("23.0", f"{h} holds enemy units: reinforcements cannot enter there")
            edge = f"road{' or rail' if st.player == SOVIET else ''} edge hex of {u}'s entry area"
            named = schedule(view)[u][2]
            if named:
                return Illegal("23.0", f"{h} is neither a {edge} nor one of the hexes the scenario names for it "
                                       f"({', '.join(map(str, named))})")
            return Illegal("23.0", f"{h} is not a {edge}")
    if rail:
        if st.player != SOVIET:
            return Illegal("19.3", "only the Soviet player may move units by rail")
        if not is_rail_hex(view, h):
            return Illegal("15.0", f"{h} has no railroad to arrive by")
        used, limit = capacity(view)
        if used + counted(view, units) > limit:
            return Illegal("19.3", f"rail capacity is {limit} units a turn; {used} already used")
    return None
