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
from kiev_tui.later import handed_out

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


#: Functions written in prompting_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'legal', '_groups', '_entries'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.prompting_more", _LATER)
