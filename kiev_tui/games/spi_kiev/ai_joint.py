"""Armour that approaches a Soviet stack together (issue 34): part of the "armour" part.

Panzers two to four hexes from the Soviet line often stand idle: moving one of them next to a
Soviet stack alone scores badly, as the usual scoring weighs one unit at a time.  It sees the
odds that unit sets up alone (poor against most stacks), while two or three units side by side
would attack the stack well in the combat phase that follows.  (It also marked such a hex out of
supply, the stack's zone closing it, 12.1, until ``Ctx.german_line`` read it as the unit standing
there opens it, 8.25.)  ``approach`` weighs the group: for each Soviet stack near free German armour it picks
the fewest armoured units (up to three, one if one is enough) that can reach hexes beside it with
odds of ``JOINT_RATIO`` together, makes their moves on a look-ahead copy and scores each unit
there with the others beside it; then it ends the movement phase on the copy and values the
attack then open with the combat phase's own measure (``KievAI._attack_ev``).  The group goes
when the combat phase would make that attack and its units together gain ``JOINT_GAIN`` more than
their best moves apart; its units then move one after another (``JointState.pending``; if one of
them can no longer go, the rest are dropped).  Up to ``JOINT_ROUNDS`` groups a phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiev_tui.ai.base import sandbox
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import Reach
from kiev_tui.games.spi_kiev import ai_armour
from kiev_tui.games.spi_kiev.acting import can_move
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, MOVEMENT, View

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

JOINT = True  # the strong German weighs armour moving together next to one Soviet stack
JOINT_GAIN = 1.0  # VP the group's units, scored side by side, must gain over their best moves apart
JOINT_RATIO = 2.5  # odds the group (with what already stands beside the stack) must reach
JOINT_FAR = 4  # a unit joins only for a Soviet stack within this many hexes of it
JOINT_TARGETS = 6  # Soviet stacks tried per weighing (best odds first)
JOINT_ROUNDS = 3  # weighings per phase (each after the last group has moved)


@dataclass
class JointState:
    """This phase's joint approach: weighed once, then its moves played in turn."""
    done: bool = False
    rounds: int = 0
    pending: list[Move] = field(default_factory=list)
    target: Hex | None = None


def _free_armour(ai: "KievAI", view: View, ctx: "Ctx") -> list[str]:
    """Supplied German armour free to move and not held in a Soviet zone of control (8.23)."""
    out = []
    for u in ai._movable(view):
        h = view.hex_of(u)
        if (h is None or u in ai._done or not view.udef(u).mechanized or view.is_hq_like(u)
                or u in view.vars.oos_start or view.in_enemy_zoc(h, GERMAN)
                or u in view.vars.entered or ctx.dist_enemy(h, 9) > JOINT_FAR):
            continue
        if ai_armour._garrison(ai, ctx.game, view, ctx, u):
            continue  # a lone garrison goes only when the handover frees it (ai_armour.py)
        out.append(u)
    return out


def _options(view: View, ctx: "Ctx", u: str, t: Hex, reach: dict[Hex, Reach]
             ) -> list[tuple[float, Hex, tuple[str, ...]]]:
    """The unit's moves to a hex beside t, by its own score (best first)."""
    out = []
    for a in view.map.neighbours(t):
        r = reach.get(a)
        if r is None or not r.ok or view.map.has(a, t, "major_river"):
            continue
        if any(view.side(x) != GERMAN for x in view.at(a)) or not ctx.fits(u, a):
            continue
        path = tuple(r.path)
        out.append((ctx.score(u, a, path), a, path))
    out.sort(key=lambda x: (-x[0], str(x[1])))
    return out


def _group_value(ai: "KievAI", game: "Game", ctx: "Ctx", moves: list[Move], t: Hex
                 ) -> tuple[float, float] | None:
    """On a look-ahead copy with the moves made: what the group's units score where they end, each
    with the others beside it (their joint odds, 9.1, and its hex opened to supply by theirs,
    8.25), less what they score staying; and the attack on t then open (``KievAI._attack_ev`` once
    the movement phase ends), less the held-armour bonus for the group's own units (ai_armour.W_HELD:
    they were free before)."""
    from kiev_tui.games.spi_kiev import ai as kiev_ai  # ai.py imports this module
    ai.budget.spend(3 + len(moves))
    trial = sandbox(game, ai.rng)
    for m in moves:
        if trial.check(m, side=ai.side) is not None:
            return None
        trial.apply(m, side=ai.side)
    tv = trial.rules.position(trial)
    tctx = kiev_ai.Ctx(ai, trial, tv)
    gain = 0.0
    for m in moves:
        u, end = m.units[0], Hex.parse(m.path[-1])
        start = ctx.view.hex_of(u) or end
        took = kiev_ai.W_CAPTURE * (ctx._captures(m.path) - tctx._captures(m.path))  # towns on the way
        gain += tctx.score(u, end, m.path) + took - ctx.score(u, start, ())
    if trial.check(EndPhase(), side=ai.side) is not None:
        return None
    trial.apply(EndPhase(), side=ai.side)
    if trial.state.phase != COMBAT or trial.state.player != ai.side:
        return None
    cv = trial.rules.position(trial)
    units = ai._attack_options(cv).get(t)
    if not units:
        return None
    ev = ai._attack_ev(trial, cv, tuple(units), t)
    if ev < -1e8:
        return None
    hit = sum(pr for res, pr in ai.chances(trial, cv, tuple(units), t).items() if kiev_ai._defender_hit(res))
    return gain, ev - ai_armour.W_HELD * len(moves) * hit


def approach(ai: "KievAI", game: "Game", view: View, ctx: "Ctx", state: JointState) -> Move | None:
    """The next move of a group of German armoured units going next to one Soviet stack together,
    or None (see the module's text)."""
    if not JOINT or game.state.phase != MOVEMENT or ai.side != GERMAN or ctx.final:
        return None
    while state.pending:
        m = state.pending.pop(0)
        u = m.units[0]
        if u in ai._done or not can_move(view, u) or game.check(m, side=ai.side) is not None:
            state.pending = []  # the group is broken: its other units are scored alone again
            break
        ai._done.add(u)
        ai._why = f"goes next to {state.target} with the armour sent there together"
        return m
    if state.done or ai.budget.exhausted:
        return None
    state.rounds += 1
    state.done = state.rounds >= JOINT_ROUNDS
    free = _free_armour(ai, view, ctx)
    if not free:
        state.done = True
        return None
    att = {u: ai.strength(view, u)[0] for u in free}
    targets = []
    for t in ctx.enemy_hexes:
        near = [u for u in free if 2 <= (view.hex_of(u) or t).distance(t) <= JOINT_FAR]
        if not near:
            continue
        already = ctx.my_att_adj.get(t, 0.0)
        top = sum(sorted((att[u] for u in near), reverse=True)[:3])
        if (already + top) / ctx.e_def[t] < JOINT_RATIO:
            continue
        targets.append(((already + top) / ctx.e_def[t], t, near))
    targets.sort(key=lambda x: (-x[0], str(x[1])))
    reach_of: dict[str, dict[Hex, Reach]] = {}
    gain_of: dict[str, float] = {}
    stay_of: dict[str, float] = {}
    best: tuple[float, Hex, list[Move]] | None = None
    for _, t, near in targets[:JOINT_TARGETS]:
        if ai.budget.exhausted:
            break
        picks: list[tuple[str, float, Hex, tuple[str, ...]]] = []
        for u in sorted(near, key=lambda x: (-att[x], x)):
            if u not in reach_of:
                ai.budget.spend()
                reach_of[u] = dict(game.rules.reachable(game, (u,), explain=False))
                stay_of[u] = ctx.score(u, view.hex_of(u) or t, ())
            taken = [p[2] for p in picks]
            opts = [o for o in _options(view, ctx, u, t, reach_of[u])
                    if taken.count(o[1]) + len(ctx._friends_at(u, o[1])) < 3]
            if opts:
                picks.append((u, opts[0][0] - stay_of[u], opts[0][1], opts[0][2]))
            if len(picks) == 3:
                break
        need = ctx.e_def[t] * JOINT_RATIO - ctx.my_att_adj.get(t, 0.0)
        # the fewest units reaching the odds (the rest stay free for their own moves)
        group = next((picks[:k] for k in range(1, len(picks) + 1)
                      if sum(att[p[0]] for p in picks[:k]) >= need), [])
        if not group:
            continue
        moves = [Move((u,), path) for u, _, _, path in group]
        got = _group_value(ai, game, ctx, moves, t)
        if got is None or got[1] <= ai.level.attack_threshold:
            continue  # the combat phase would not make the attack: the group would stand there idle
        gain, attack = got
        cost = 0.0
        for u, _, _, _ in group:
            if u not in gain_of:
                gain_of[u] = max(0.0, ai._best_move(game, ctx, u)[0])
            cost += gain_of[u]
        value = gain - cost
        if value >= JOINT_GAIN and (best is None or value > best[0]):
            best = (value, t, moves)
    if best is None:
        state.done = True
        return None
    value, t, moves = best
    first, state.pending, state.target = moves[0], moves[1:], t
    ai._done.add(first.units[0])
    who = f"{len(moves)} armoured units go" if len(moves) > 1 else "the armoured unit goes"
    ai._why = f"{who} next to {t} for an attack at good odds (+{value:.1f} VP over their moves apart)"
    return first
