"""The German's last player-turn (the "endgame" part of ``Level.parts``): moves for the final count.

The Soviet moves first in every game-turn (19.11) and the game ends after turn 13 (19.12), so
nothing the German does in its phases of turn 13 can be answered: every Soviet unit out of supply
when the German's last phase ends is a German VP, the front HQ ten (24.3).  Two things follow,
both played on look-ahead copies of the position (``sandbox``, the AI's own dice):

- ``cut_move``: before the usual moves of the last movement and mechanized phases, the hexes
  that lie on the Soviet units' traced lines of supply and command (unit to HQ to source, 11.34,
  19.83) or beside a Soviet supply source (19.84) are ranked by how many units trace through
  them; for the best few, one German combat unit that can get there is moved on a copy, and the
  move that leaves the most Soviet VP out of supply is played (while one gains at least a VP);
- ``cut_loss``: a move the usual scoring picks in those phases is tried on a copy first, and
  what it would give back (a unit whose zone of control was cutting a line walks away) is
  charged to it.

Earlier in the game a cut is undone by the Soviet's next movement, so this part plays only
then.  Every trial is one rules question of the phase's budget (``KievAI.budget``), and the
number of trials per phase is capped (``TRIALS``), so the search stays deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex

from kiev_tui.ai.base import sandbox
from kiev_tui.games.spi_kiev.acting import can_move
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import GERMAN, MECHANIZED, SOVIET, View
from kiev_tui.games.spi_kiev.supply import closed_to

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

PART = "endgame"  # the name of this part in ``Level.parts``
HEXES_PER_CALL = 10  # the best-ranked hexes tried each time a cut is looked for
TRIALS = 60  # look-ahead copies per phase for cuts (``cut_move``), at most
MIN_GAIN = 1  # VP a cut must gain to be played


def out_of_supply_vp(game: Game) -> int:
    """The German's VP for the Soviet units out of supply if the game ended now (24.3)."""
    view = game.rules.position(game)
    front = str(game.scenario.victory.get("soviet_front_hq", ""))
    per_unit = int(game.scenario.victory.get("soviet_unit_points", 1))
    big = int(game.scenario.victory.get("soviet_front_hq_points", 10))
    return sum(big if uid == front else per_unit
               for uid, st in view.supply.all_status(SOVIET).items() if not st.in_supply)


def applies(ai: "KievAI", game: Game) -> bool:
    """Whether this part plays now: the German's last player-turn, with the part in its level."""
    return ai.side == GERMAN and PART in ai.level.parts and ai.last_word(game)


def line_weights(ctx: "Ctx", worth: "Callable[[str], float | None]", source: float) -> dict[Hex, float]:
    """Hexes a German unit there would sit across, worth what ``worth`` gives each Soviet unit in
    supply tracing through a hex it would shut (None: the unit does not count), and ``source`` for
    a hex that shuts a Soviet source (11.31: a German zone closes a hex with no Soviet unit in it;
    19.84).  The endgame and the pocket parts (ai_pocket.py) weigh the same lines differently."""
    sup = ctx.sup
    soviet = set(ctx.enemy_hexes)
    out: dict[Hex, float] = {}
    for uid, st in sup.all_status(SOVIET).items():
        if not st.in_supply:
            continue
        w = worth(uid)
        if w is None:
            continue
        seen: set[Hex] = set()
        for x in sup.trace(uid)[1:]:
            if x in soviet:
                continue  # 8.25: a Soviet unit there keeps the hex open
            for y in (x, *ctx.reach[x]):
                if y not in soviet and y not in seen:
                    seen.add(y)
                    out[y] = out.get(y, 0.0) + w
    for h in ctx.source_zone():
        if h not in soviet:
            out[h] = out.get(h, 0.0) + source  # 19.84: a German unit here shuts a source
    return out


def _weights(ctx: "Ctx") -> dict[Hex, float]:
    """The last turn's lines: every Soviet unit in supply counts 1, the front HQ 10 (its VP weight)."""
    front = str(ctx.game.scenario.victory.get("soviet_front_hq", ""))
    return line_weights(ctx, lambda uid: 10.0 if uid == front else 1.0, 1.0)


def _movers(ai: "KievAI", game: Game, view: View) -> list[str]:
    """German combat units that may still move this phase, the ones least needed for an attack
    (not next to a Soviet unit, weaker) first."""
    mech = game.state.phase == MECHANIZED
    out = []
    for h, ids in sorted(view.occupancy.items()):
        for u in ids:
            if (view.side(u) != GERMAN or view.is_hq_like(u) or u in ai._done or not can_move(view, u)
                    or (mech and not view.udef(u).mechanized)):
                continue
            near = any(n in view.occupancy and view.side(view.occupancy[n][0]) == SOVIET
                       for n in view.map.neighbours(h))
            out.append((near, ai.strength(view, u)[0], u))
    return [u for _, _, u in sorted(out)]


class PhaseState:
    """What the search keeps within one phase: the trials spent, each unit's reach when first
    asked (a move made since is checked again on the copy) and the hexes that gained nothing."""

    def __init__(self) -> None:
        self.trials = 0
        self.reach: dict[str, dict[Hex, tuple[str, ...]]] = {}
        self.useless: set[Hex] = set()
        self.done = False


def cut_move(ai: "KievAI", game: Game, ctx: "Ctx") -> Move | None:
    """The move that leaves the most Soviet VP out of supply at the end (24.3), if one gains."""
    state = ai._endgame
    if state.trials >= TRIALS or ai.budget.exhausted:
        return None
    view = ctx.view
    weights = _weights(ctx)
    # The first unit (in ``_movers`` order) that can end in each hex.
    who: dict[Hex, Move] = {}
    for u in _movers(ai, game, view):
        start = view.hex_of(u)
        reach = state.reach.get(u)
        if reach is None:
            ai.budget.spend()
            reach = state.reach[u] = {h: tuple(r.path) for h, r in
                                      game.rules.reachable(game, (u,), explain=False).items() if r.ok}
        if start is not None and ctx._leader_left(u, start) > 0:
            continue
        for h, path in reach.items():
            if h != start and h in weights and h not in who and h not in state.useless and ctx.fits(u, h):
                who[h] = Move((u,), path)
    ranked = sorted(who, key=lambda h: (-weights[h], str(h)))[:HEXES_PER_CALL]
    base = out_of_supply_vp(game)
    best, best_act = MIN_GAIN - 1, None
    for h in ranked:
        if state.trials >= TRIALS or ai.budget.exhausted:
            break
        state.trials += 1
        ai.budget.spend()
        act = who[h]
        if game.check(act, side=GERMAN) is not None:
            continue  # a move made since closed the way
        trial = sandbox(game, ai.rng)
        trial.apply(act, side=GERMAN)
        gain = out_of_supply_vp(trial) - base
        if gain <= 0:
            state.useless.add(h)
        if gain > best:
            best, best_act = gain, act
    return best_act


def cut_loss(ai: "KievAI", game: Game, ctx: "Ctx", act: Move) -> int:
    """Soviet VP out of supply a move would give back (its unit's zone was cutting a line)."""
    view = ctx.view
    uid = act.units[0]
    start = view.hex_of(uid)
    if start is None or [u for u in ctx._friends_at(uid, start) if not view.is_hq_like(u)]:
        return 0  # the stack left behind keeps the zone (8.1)
    closed = closed_to(view, SOVIET)
    if ctx.zoc_count.get(start, 0) and not any(ctx.zoc_count.get(n, 0) == 1 and n in closed
                                                for n in ctx.reach[start]):
        return 0  # its hex and every hex its zone shuts stay shut by other stacks
    ai.budget.spend()
    trial = sandbox(game, ai.rng)
    if trial.check(act, side=GERMAN) is not None:
        return 0
    trial.apply(act, side=GERMAN)
    return max(0, out_of_supply_vp(game) - out_of_supply_vp(trial))
