"""The functions of prompting.py that a new game's first frame never calls (issue 33, round 7).

prompting.py hands them out on first use (its module ``__getattr__``), so ``prompting.legal`` and
``from kiev_tui.games.spi_kiev.prompting import legal`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from kiev_tui.games.spi_kiev.prompting import (
    Attack,
    COMBAT,
    EndPhase,
    Enter,
    MECHANIZED,
    MOVEMENT,
    Move,
    Overrun,
    RailMove,
    RemoveExcess,
    enemy_of,
    prompt,
    rail,
    reinforcements,
    stacking,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.prompting import Action, View


def legal(game: "Game", side: str) -> Iterator[Action]:
    """The side's legal actions now, lazily, each one passing ``game.check``.

    While a prompt waits: its answers.  Otherwise EndPhase when it is legal and, by phase:
    moving (5.0, 7.0), every due reinforcement at each entry hex by road or rail (11.0, 19.3), a
    unit to remove from an overstacked hex (8.0), each actable unit alone and each hex's
    actable units together to every hex they can reach by road or rail, and the overruns those
    groups could make next to them (10.0); combat (9.0), for each enemy hex next to actable
    units, the attack by all of them and by each alone.  Units are grouped as one unit or a
    whole stack, not every subset of a stack (a stack of n has 2^n - 1 groups)."""
    if game.state.over or game.actor != side:
        return
    top = prompt(game)
    if top is not None:
        yield from top.actions()
        return
    if game.check(EndPhase(), side=side) is None:
        yield EndPhase()
    view: View = game.rules.position(game)
    phase = game.state.phase

    def passing(acts: Iterator[Action]) -> Iterator[Action]:
        return (a for a in acts if game.check(a, side=side) is None)

    if phase in (MOVEMENT, MECHANIZED):
        yield from passing(_entries(view))
        yield from passing(RemoveExcess(u) for h in sorted(stacking.over_limit(view, side))
                           for u in view.at(h) if view.side(u) == side)
        for units in _groups(game, view):
            yield from passing(Move(units, tuple(r.path)) for r in game.rules.reachable(game, units, explain=False).values()
                               if r.ok and r.path)
            yield from passing(RailMove(units, path) for path in rail.reach(view, units).values())
            start = view.hex_of(units[0])
            if start is not None:
                yield from passing(Overrun(units, str(n)) for n in view.map.neighbours(start)
                                   if view.occupied_by(n, enemy_of(side)))
    elif phase == COMBAT:
        actable = set(game.rules.actable(game))
        for t in sorted({n for u in actable if (h := view.hex_of(u)) is not None
                         for n in view.map.neighbours(h) if view.occupied_by(n, enemy_of(side))}):
            near = tuple(u for n in view.map.neighbours(t) for u in view.at(n) if u in actable)
            singles = [(u,) for u in near] if len(near) > 1 else []
            yield from passing(Attack(units, (str(t),)) for units in [near, *singles])


def _entries(view: View) -> Iterator[Action]:
    """Each reinforcement ready now at each of its entry hexes, by road and by rail."""
    for uid in reinforcements.ready_to_enter(view):
        for h in reinforcements.entry_hexes(view, uid):
            yield Enter((uid,), str(h), False)
            yield Enter((uid,), str(h), True)


def _groups(game: "Game", view: View) -> list[tuple[str, ...]]:
    """Each actable unit alone, then each hex's actable units together (when more than one)."""
    actable = list(game.rules.actable(game))
    by_hex: dict[Any, list[str]] = {}
    for u in actable:
        by_hex.setdefault(view.hex_of(u), []).append(u)
    return [(u,) for u in actable] + [tuple(us) for h, us in by_hex.items() if h is not None and len(us) > 1]
