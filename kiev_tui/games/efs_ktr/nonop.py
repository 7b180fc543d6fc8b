"""Non-Operational Soviet HQs (22.2) as the Battle of Sumy meets them.

An HQ turns to its Non-Op side when an overrun puts an Overrun marker on it (22.23b, 11.44e)
or when it retreats through a vacant hex in an Axis zone and lives (22.23c, 16.46); Sumy's set-up
puts none there at the start (22.23a).  While Non-Op it has no command value (22.21), so it
activates nobody, Guards included (22.24b), sends no reaction (22.24c) and issues no orders
(22.24a); inside its range of four hexes its restrictions beat any Operational HQ's help (22.22):
no activation, no reaction, no retreat orders (14.34b), one Soviet artillery unit per combat
(22.25d), no Soviet close air support (22.25c), and in each movement phase only recovery value - 1
Soviet units that start inside the range may begin to move (22.25g).  Units that came in from
outside during the phase move freely there (22.25f).  In the interphase the Soviet may disband
one Non-Op HQ to the Cadre Box (22.26b, handlers.py), then each other Non-Op HQ on the map rolls
the die: at or under its recovery value it is Operational again (22.26a).

Rules Sumy switches off are not here: strongpoints (22.25a; PB 10.44d), bridge units (22.25b:
Sumy has none), NKVD (22.25e: none in Sumy); docs/rulings.md, "EFS: Non-Operational Soviet HQs".
Case numbers are the series rules', ``../shared/rulebooks/efs-kiev-to-rostov.txt``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note

from kiev_tui.games.efs_ktr.board import MOVEMENT, Board
from kiev_tui.games.efs_ktr.schema import SOVIET
from kiev_tui.games.efs_ktr.state import efs_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def turn_non_op(game: "Game", units: Iterable[str], case: str, why: str) -> list[str]:
    """Turn the Soviet HQs among ``units`` that are still on the map to their Non-Op side (22.23);
    returns the HQs turned."""
    st = game.state
    v = efs_vars(st)
    cat = game.scenario.catalog.units
    out = []
    for u in units:
        d = cat.get(u)
        if d is None or d.type != "hq" or d.side != SOVIET or u in v.non_op or st.units[u].status != "map":
            continue
        v.non_op.append(u)
        out.append(u)
        game.emit(Note(f"{u} turns to its Non-Op side: {why} ({case})"))
    return out


def start_bar(b: Board, units: Iterable[str], phase: str, begun: dict[str, list[str]],
              started: Iterable[str]) -> Illegal | None:
    """22.25g: may ``units`` (on the map) make a move now without breaking a Non-Op HQ's limit?

    ``begun``: per Non-Op HQ, the units that already began moving inside its range this phase;
    ``started``: units that have moved this phase already (a unit's second move is not a new
    start, and one that came in from outside moves freely, 22.25f).  Every Non-Op HQ whose range
    holds the unit's hex counts it (docs/rulings.md).  The HQ itself is free in the Movement phase.
    """
    started = set(started)
    extra: dict[str, set[str]] = {}
    for u in units:
        h = b.hex_of.get(u)
        if h is None or u in started or b.side(u) != SOVIET or not b.is_combat(u):
            continue
        if b.is_non_op(u) and phase == MOVEMENT:  # 22.25g: a Non-Op HQ may always move in this phase
            continue
        for hq in b.non_op_over(h):
            if u not in begun.get(hq, []):
                extra.setdefault(hq, set()).add(u)
    for hq, new in sorted(extra.items()):
        limit = b.recovery(hq) - 1
        have = len(begun.get(hq, []))
        if have + len(new) > limit:
            return Illegal("22.25g", f"within {hq}'s range (Non-Op, recovery {b.recovery(hq)}) only {limit} Soviet "
                                     f"unit(s) may begin to move this phase; {have} already did")
    return None


def record_start(b: Board, units: Iterable[str], phase: str, begun: dict[str, list[str]],
                 started: Iterable[str]) -> None:
    """22.25g: count the units of a legal move that begin moving inside Non-Op ranges."""
    started = set(started)
    for u in units:
        h = b.hex_of.get(u)
        if h is None or u in started or b.side(u) != SOVIET or not b.is_combat(u):
            continue
        if b.is_non_op(u) and phase == MOVEMENT:
            continue
        for hq in b.non_op_over(h):
            if u not in begun.setdefault(hq, []):
                begun[hq].append(u)


def move_bar(game: "Game", units: Iterable[str]) -> Illegal | None:
    """22.25g for a Soviet move or overrun in the present phase."""
    from kiev_tui.games.efs_ktr import system

    v = efs_vars(game.state)
    return start_bar(system.board(game), units, game.state.phase, v.non_op_moved, v.spent)


def note_move(game: "Game", units: Iterable[str]) -> None:
    """Record, before the units' MP are written, who begins moving inside a Non-Op range."""
    from kiev_tui.games.efs_ktr import system

    v = efs_vars(game.state)
    record_start(system.board(game), units, game.state.phase, v.non_op_moved, v.spent)


def recover(game: "Game") -> None:
    """22.26a, in the interphase: each Non-Op HQ on the map rolls the die and turns back to its
    Operational side on a roll at or under its recovery value (0 reads 10, 2.51).  Sumy has no
    Active Box (PB 10.44c), so an HQ off the map does not roll."""
    st = game.state
    v = efs_vars(st)
    cat = game.scenario.catalog.units
    for hq in sorted(v.non_op):
        if st.units[hq].status != "map":
            continue
        value = int(cat[hq].extra["recovery"])
        roll = game.roll(f"recovery of {hq}", 10)
        back = roll <= value
        if back:
            v.non_op.remove(hq)
        game.emit(Note(f"{hq} rolls {roll} against recovery {value}: "
                       f"{'Operational again' if back else 'stays Non-Op'} (22.26a)"))
