"""The German's armour kept busy (issue 34): the "armour" part of ``Level.parts``.

Counted over whole campaigns, most of the German's idle armour turns were mechanized units
either held in a Soviet zone of control that made no attack (8.23: they may not leave it by
moving) or sitting alone in a town they hold.  Three hooks of ``KievAI`` read this module:

- ``held_bonus``: an attack that uses armour held in a Soviet zone of control is worth more
  per such unit (``W_HELD``), weighted by the chance of a hit (the hit is what frees it to advance and
  move on next turn);
- ``handover``: at the start of the movement phase, a foot unit that can reach a town held by a
  lone panzer unit walks in, when that costs it little and the panzer, relieved, then has a
  clearly better move than staying; the panzer is then scored again with the town held (with the
  "midgame" part, as far back as that part wants its towns held: ``HANDOVER_FAR``);
- ``keep_garrisons``: an advance after combat (which attacks from towns now bring more often)
  does not take the last combat unit out of a German town near the enemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.ai.base import sandbox
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_midgame
from kiev_tui.games.spi_kiev.acting import can_move
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import GERMAN, MOVEMENT, View

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

W_HELD = 2.0  # VP per armoured attacker held in a Soviet zone of control, times the chance of a hit
#   (0.6 until 2026-12-07: panzers held and idle were the largest share of the idle armour; docs/AI.md)
HANDOVER_NEAR = 4  # a town this close to a Soviet unit is one the "hold" part keeps garrisoned
HANDOVER_COST = 1.0  # the foot unit may give up at most this share of the town's hold value
HANDOVER_GAIN = 1.0  # the relieved panzer must gain this many VP more than the foot unit gives up
HANDOVER_TRIES = 3  # foot units tried per town (the cheapest moves first)
KEEP_GARRISONS = True  # an advance after combat leaves no German town near the enemy empty
HANDOVER_FAR = True  # with the "midgame" part, towns as far back as it holds are handed over too


def held_armour(view: View, attackers: tuple[str, ...]) -> int:
    """German armoured attackers standing in a Soviet zone of control (8.23: stuck unless the
    hex in front of them is cleared)."""
    return sum(1 for u in attackers
               if view.side(u) == GERMAN and view.udef(u).mechanized and not view.is_hq_like(u)
               and (h := view.hex_of(u)) is not None and view.in_enemy_zoc(h, GERMAN))


def held_bonus(view: View, attackers: tuple[str, ...]) -> float:
    """What an attack adds for the held armour it uses (VP, weighted later by the chance of a hit)."""
    return W_HELD * held_armour(view, attackers)


def _lone_panzer_towns(ai: "KievAI", game: "Game", view: View, ctx: "Ctx") -> list[tuple[Hex, str]]:
    """German towns near the enemy held by one combat unit, a mechanized one free to move."""
    out: list[tuple[Hex, str]] = []
    near = HANDOVER_NEAR
    if HANDOVER_FAR:
        near = max(near, ai_midgame.hold_near(ai))  # the rear towns "midgame" garrisons (ai_midgame.py)
    for h, ids in sorted(ctx.my_hexes.items()):
        if not ai.vp_of(game, h) or game.state.control.get(str(h)) != GERMAN:
            continue
        if ctx.dist_enemy(h, 10) > near:
            continue
        combat = [u for u in ids if not view.is_hq_like(u)]
        if len(combat) != 1 or not view.udef(combat[0]).mechanized:
            continue
        if combat[0] in ai._done or not can_move(view, combat[0]):
            continue
        out.append((h, combat[0]))
    return out


def _garrison(ai: "KievAI", game: "Game", view: View, ctx: "Ctx", uid: str) -> bool:
    """Whether the unit is itself the lone garrison of a German town."""
    h = view.hex_of(uid)
    if h is None or not ai.vp_of(game, h) or game.state.control.get(str(h)) != GERMAN:
        return False
    return sum(1 for u in view.at(h) if view.side(u) == GERMAN and not view.is_hq_like(u)) == 1


def handover(ai: "KievAI", game: "Game", view: View, ctx: "Ctx", tried: set[Hex]) -> Move | None:
    """A foot unit's move into a town held by a lone panzer unit, so the panzer can move on.

    Each town is weighed once per phase (``tried``).  The foot unit's cost is what its own best
    move would score less what it scores holding the town alone (once the panzer has left); the
    panzer's gain is found on a look-ahead copy with the foot unit already in the town, and must
    pass the cost by ``HANDOVER_GAIN``."""
    if game.state.phase != MOVEMENT or ai.side != GERMAN:
        return None
    from kiev_tui.games.spi_kiev.ai import Ctx  # ai.py imports this module: imported here, not at load
    foot = [u for u in ai._movable(view)
            if not view.udef(u).mechanized and not view.is_hq_like(u) and u not in ai._done
            and u not in view.vars.entered and not _garrison(ai, game, view, ctx, u)]
    if not foot:
        return None
    for town, panzer in _lone_panzer_towns(ai, game, view, ctx):
        if town in tried or ai.budget.exhausted:
            continue
        tried.add(town)
        hold = ai.vp_of(game, town) * hold_value(ai)
        options: list[tuple[float, str, tuple[str, ...]]] = []
        for u in foot:
            start = view.hex_of(u)
            if start is None or start.distance(town) > 6:
                continue
            ai.budget.spend()
            r = game.rules.reachable(game, (u,), explain=False).get(town)
            if r is None or not r.ok:
                continue
            path = tuple(r.path)
            own_gain, _ = ai._best_move(game, ctx, u)
            cost = ctx.score(u, start, ()) + own_gain - (ctx.score(u, town, path) + hold)
            if cost <= HANDOVER_COST * hold:
                options.append((cost, u, path))
        options.sort()
        for cost, u, path in options[:HANDOVER_TRIES]:
            if ai.budget.exhausted:
                break
            act = Move((u,), path)
            if game.check(act, side=ai.side) is not None:
                continue
            ai.budget.spend(2)
            trial = sandbox(game, ai.rng)
            trial.apply(act, side=ai.side)
            tv = trial.rules.position(trial)
            gain, _ = ai._best_move(trial, Ctx(ai, trial, tv), panzer)
            if gain - max(cost, 0.0) >= HANDOVER_GAIN:
                ai._done.add(u)
                ai._why = (f"hands {town} over to {u} (costs it {cost:.1f} VP): {panzer} may then "
                           f"move on for +{gain:.1f} VP")
                return act
    return None


def hold_value(ai: "KievAI") -> float:
    """Per VP, what a lone German unit ending in a German town near the enemy is worth."""
    from kiev_tui.games.spi_kiev import ai as kiev_ai
    return kiev_ai.W_GARRISON * (kiev_ai.HOLD_HELD if ai._uses("hold") else kiev_ai.HOLD_BASE)


def keep_garrisons(ai: "KievAI", game: "Game", view: View, go: list[str], value: float) -> list[str]:
    """An advance after combat leaves no German town near the enemy empty (the strong Soviet walks
    into every empty one) unless what the advance takes is worth more: of each town's combat units
    that would all go, the one with the best defence stays."""
    if not KEEP_GARRISONS:
        return go
    enemy = [h for h, ids in view.occupancy.items() if view.side(ids[0]) != GERMAN]
    out = list(go)
    for h in sorted({x for u in go if (x := view.hex_of(u)) is not None}):
        vp = ai.vp_of(game, h)
        if not vp or vp <= value or game.state.control.get(str(h)) != GERMAN:
            continue
        if not any(e.distance(h) <= HANDOVER_NEAR for e in enemy):
            continue
        here = [u for u in view.at(h) if view.side(u) == GERMAN and not view.is_hq_like(u)]
        if any(u not in go for u in here):
            continue  # someone stays anyway
        keep = max(here, key=lambda u: (ai.strength(view, u)[1], u))
        out.remove(keep)
    return out
