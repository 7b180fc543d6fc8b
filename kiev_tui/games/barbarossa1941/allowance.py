"""How many MP a unit has: its printed movement, then the weather (12.3), exploitation (5.2),
reaction (5.3) and the strategic bonus (5.4).

A unit's weather is that of the zone it stands in when it starts to move (12.3; docs/rulings.md,
Barbarossa 1941).  Figures come from tables.toml: ``[weather.effect.*]``, ``[exploitation]``,
``[reaction]`` and ``[movement]``.
"""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.games.barbarossa1941.board import CAVALRY, MOTORIZED, Board

MOVEMENT, EXPLOITATION, REACTION = "movement", "exploitation", "reaction"
PHASES = (MOVEMENT, EXPLOITATION, REACTION)


def printed_mp(board: Board, uid: str) -> int:
    """The movement potential on the counter (1); static units have none (12.11)."""
    return 0 if board.is_static(uid) else board.udef(uid).ma


def movement_allowance(board: Board, uid: str) -> int:
    """MP in the movement phase before 5.4's bonus: the weather may set it (12.3)."""
    mp = printed_mp(board, uid)
    if mp == 0:
        return 0
    h = board.hex_of[uid]
    eff = board.tables.weather.effects[board.weather(h)]
    mclass = board.movement_class(uid)
    # 12.3: mud gives everyone 2 MP but cavalry 3; freeze and extreme cold 2 on foot, 3 otherwise
    fixed = eff.mp_motorized if mclass == MOTORIZED else eff.mp_cavalry if mclass == CAVALRY else eff.mp_infantry
    return fixed or mp


def exploitation_allowance(board: Board, uid: str) -> int | Illegal:
    """MP in the exploitation phase, or why the unit has none (5.2, 8.1, 12.3)."""
    if board.movement_class(uid) != MOTORIZED:
        return Illegal("5.2", "only motorized units move in the exploitation phase")
    if uid in board.isolated:
        return Illegal("8.1", "an isolated motorized unit has no exploitation move")
    h = board.hex_of[uid]
    cond = board.weather(h)
    eff = board.tables.weather.effects[cond]
    if eff.exploitation == "none":  # 12.3: mud, extreme cold
        return Illegal("12.3", f"no exploitation in {cond.replace('_', ' ')}")
    if eff.exploitation == "fixed":  # 5.2, 12.3: freeze gives every motorized unit 2 MP
        return eff.exploitation_mp
    ex = board.tables.exploitation
    mp = printed_mp(board, uid)
    return -(-mp // ex.divisor) if ex.round_up else mp // ex.divisor  # 5.2: half, rounded up


def reaction_allowance(board: Board, uid: str) -> int:
    """Half the unit's MP (in its weather), rounded as tables.toml says (5.3, 12.3)."""
    r = board.tables.reaction
    mp = movement_allowance(board, uid)
    return -(-mp // r.move_divisor) if r.round_up else mp // r.move_divisor


def allowance(board: Board, uid: str, phase: str) -> int | Illegal:
    """The MP a unit may spend in ``phase`` (movement, exploitation, reaction), 5.4 aside."""
    if phase == EXPLOITATION:
        return exploitation_allowance(board, uid)
    if phase == REACTION:
        cond = board.weather(board.hex_of[uid])
        if not board.tables.weather.effects[cond].reaction:  # 12.3: none in mud or extreme cold
            return Illegal("12.3", f"no reaction movement in {cond.replace('_', ' ')}")
        return reaction_allowance(board, uid)
    return movement_allowance(board, uid)
