"""Which units may still do something this phase: the one answer the rules, the faces and the
bot share (the movement record itself is read by movement.move_block)."""

from __future__ import annotations

from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT, View, enemy_of
from kiev_tui.games.spi_kiev.movement import move_block, movement_allowance, mp_spent


def can_move(view: View, uid: str, zoc: bool = True) -> bool:
    """A cheap test for 'could still move this phase': right side and phase, not done, MP left.

    With ``zoc=False`` a unit held in an enemy zone still counts: it may overrun (6.0).
    """
    st = view.state
    if uid not in st.units or st.phase not in (MOVEMENT, MECHANIZED) or view.side(uid) != st.player:
        return False
    if move_block(view, uid) is not None:
        return False
    d = view.udef(uid)
    if st.phase == MECHANIZED and not (d.mechanized or d.hq or d.leader):
        return False  # 4.2: only mechanized units, cavalry and HQs move in the mechanized phase
    h = view.hex_of(uid)
    if h is None or (zoc and view.in_enemy_zoc(h, st.player) and uid not in view.vars.overran):
        return False  # 8.23: no leaving an enemy zone, except after an overrun (6.24)
    return movement_allowance(view, uid) - mp_spent(view, uid) > 0


def can_attack(view: View, uid: str) -> bool:
    """A combat unit of the phasing player that has not attacked (9.14) and touches an enemy."""
    st = view.state
    if uid not in st.units or st.phase != COMBAT or view.side(uid) != st.player or view.is_hq_like(uid):
        return False
    if uid in view.vars.attacked:
        return False
    h = view.hex_of(uid)
    if h is None:
        return False
    enemy = enemy_of(st.player)
    return any(view.occupied_by(n, enemy) for n in view.map.neighbours(h))


def can_act(view: View, uid: str) -> bool:
    """Whether the unit may still do something in the current phase."""
    if view.state.phase == COMBAT:
        return can_attack(view, uid)
    return can_move(view, uid)


def actable(view: View) -> list[str]:
    """Units of the phasing player that may still act, hex by hex in map order."""
    return [u for _, ids in sorted(view.occupancy.items()) for u in ids if can_act(view, u)]
