"""Kiev's combat choices as prompts with options (engine/prompts.py), and its legal actions.

The battle pushes plain frames on the prompt stack (battle.py, retreat.py, advance.py); this
module turns the top frame into a typed Prompt whose options are the actions that answer it,
so the generic face, plain mode and the random bot answer Kiev's battles with no Kiev code.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterator

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.prompts import Option, Prompt

from kiev_tui.games.spi_kiev import rail, reinforcements, stacking
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance, Enter,
                                             Move, Overrun, RailMove, RemoveExcess, Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT, View, enemy_of

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

#: Retreats and advances combine a path per unit: at most this many combinations are tried, so a
#: prompt stays quick to build (the options are then a legal sample; the safe retreat is always in).
COMBINATIONS = 200

#: The rule case each kind of combat choice answers.
CASES = {"loss_or_retreat": "9.66", "retreat": "9.7", "advance": "9.8", "integrity": "20.2"}


def prompt(game: "Game") -> Prompt | None:
    """The combat choice on top of the stack, with every answer the options offer."""
    p = game.state.pending
    if p is None:
        return None
    kind = str(p.get("kind", ""))
    options = tuple(_options(game, p, kind))
    return Prompt(str(p.get("side", "")), kind, CASES.get(kind, ""), str(p.get("prompt", "")), options)


def _legal(game: "Game", action: Action) -> bool:
    return game.check(action) is None


def _options(game: "Game", p: dict[str, Any], kind: str) -> Iterator[Option]:
    from kiev_tui.games.spi_kiev import combat
    from kiev_tui.games.spi_kiev.state import kiev_vars

    if kiev_vars(game.state).battle is None:
        return  # a choice with no battle behind it (a hand-built position) has no answer
    if kind == "integrity":
        for div in p.get("choices", ()):  # 20.2
            yield Option("integrity", f"GD counts with {div}", ChooseIntegrity(str(div)), hex=p.get("hex"))
    elif kind == "loss_or_retreat":
        yield from _loss_options(game, p)
        if _legal(game, ChooseRetreat()):
            yield Option("retreat", f"retreat {p['hexes']} hex(es) instead", ChooseRetreat())
    elif kind == "retreat":
        yield from _retreat_options(game, p, combat)
    elif kind == "advance":
        opts = combat.advance_options(game)
        units = list(opts.get("units", ()))
        # 9.81: any of the units may advance; every group while there are few (a stack is three
        # combat units, 7.0), else all of them or one at a time
        sizes = range(len(units), 0, -1) if len(units) <= 6 else (len(units), 1)
        groups = [g for n in sizes for g in itertools.combinations(units, n)]
        for path in opts.get("paths", ()):
            for g in groups:
                act = Advance(g, tuple(path))
                if _legal(game, act):
                    yield Option("advance", f"advance {', '.join(g)} to {' > '.join(path)}", act,
                                 hex=path[-1], unit=g[0] if len(g) == 1 else None)
        yield Option("decline", "do not advance", DeclineAdvance())


def _loss_options(game: "Game", p: dict[str, Any]) -> Iterator[Option]:
    """9.67: each way of spreading the step losses over the units (one id per step lost)."""
    from kiev_tui.games.spi_kiev import combat

    view = View(game)
    units = list(p.get("units", ()))
    left = {u: combat.steps_left(view, u) for u in units}
    need = min(int(p.get("steps", 0)), sum(left.values()))
    for combo in itertools.combinations_with_replacement(units, need):
        if any(n > left[u] for u, n in Counter(combo).items()):
            continue
        act = TakeLosses(tuple(combo))
        if _legal(game, act):
            label = ", ".join(f"{u} x{n}" if n > 1 else u for u, n in Counter(combo).items())
            yield Option("lose", f"lose step(s): {label}" if combo else "lose nothing", act,
                         unit=combo[0] if len(set(combo)) == 1 else None)


def _retreat_options(game: "Game", p: dict[str, Any], combat: Any) -> Iterator[Option]:
    """9.7: a path for each unit (the retreating side's enemy chooses); a legal sample at most
    COMBINATIONS combinations wide, always with the safe assignment when there is one."""
    paths = combat.retreat_options(game)
    units = tuple(p.get("units", ()))
    per_unit = [paths.get(u) or [()] for u in units]
    seen: set[tuple[tuple[str, ...], ...]] = set()
    safe = combat.safe_assignment(View(game), p)
    candidates = itertools.islice(itertools.product(*per_unit), COMBINATIONS)
    for combo in itertools.chain([safe] if safe is not None else [], candidates):
        combo = tuple(tuple(x) for x in combo)
        if combo in seen:
            continue
        seen.add(combo)
        act = Retreat(units, combo)
        if _legal(game, act):
            label = "; ".join(f"{u} {' > '.join(path) if path else 'stays (lost)'}" for u, path in zip(units, combo))
            yield Option("retreat", label, act, hex=combo[0][-1] if combo and combo[0] else None)


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