"""The strong Soviet's counter-attacks set up (the "counter" part of ``Level.parts``; issue 34).

Counted on tuning seeds (docs/AI.md, "Where the strong Soviet's turns retake the towns"), the
strong Soviet attacked German towns some two or three times a game, mostly at 1-1 or with untried
units, and destroyed under two German units a game, while a German unit lost is worth five or
eight VP to it (24.2) and a Soviet one only one to the German (24.3).  Its movement score had no
term for ending next to a German stack it could hit well in the combat phase that follows (the
German's has one, ``W_SETUP``), so its units came together beside a German hex only by chance.
Nor did it see where its units could attack from: a hex in a German zone of control reads as out
of command while it is empty (lines of communications do not enter it, 11.31), although a Soviet
unit standing there opens it (8.25), so every move next to a German stack but into a friend's
hex cost the move the full command penalty (``ai.W_COMMAND``).  This part reads no plan and adds
one term to the Soviet movement score (``Ctx._soviet``, through ``term``):

- ``setup``: a Soviet combat unit in command of a supplied HQ (only those may attack, 11.33)
  ending next to a German stack gains, for the best such stack, ``W_SETUP`` per VP of what a hit
  there wins (the German units' worth and the town's VP), scaled by how far the Soviet attack
  already beside it plus the unit's own clears 1.5 to 1 (full at 4 to 1).  The defence is the
  stack's, times its hex's terrain, halved for units out of supply (the preview's rule);
- in a hex read as out of command where the unit would be commanded once there
  (``commanded_on_entry``), ``setup`` counts as in command and ``W_ENTERED`` of the penalty is
  given back, only when there is a hit to set up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import SOVIET
from kiev_tui.games.spi_kiev.supply import closed_bits, closed_to, loc_bits, loc_links

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

PART = "counter"  # the name of this part in ``Level.parts``
W_SETUP = 0.15  # per VP a hit on the German stack would win, at full odds
ODDS_LOW = 1.5  # odds at or below which ending beside the stack gains nothing
ODDS_FULL = 4.0  # odds from which the term counts in full
W_ENTERED = 0.75  # VP of the command penalty (ai.W_COMMAND, 3.0) given back there (see ``term``)


def applies(ai: "KievAI") -> bool:
    """Whether this AI is a Soviet that plays by this part."""
    return ai.side == SOVIET and PART in ai.level.parts


def defence(ctx: "Ctx", e: Hex) -> float:
    """The German stack's defence in its hex as the Soviet sees it: terrain and supply (halved
    when out of supply) counted, worked out once per decision."""
    cache = ctx.soviet_def
    got = cache.get(e)
    if got is None:
        view, ai = ctx.view, ctx.ai
        d = 0.0
        for u in ctx.enemy_hexes[e]:
            dfn = ai.strength(view, u)[1]
            if not ctx.sup.status(u).in_supply:
                dfn /= 2.0  # out of supply: half its defence (the preview's own rule)
            d += dfn
        got = cache[e] = max(0.5, d * ai.terrain_mult(ctx.game, e))
    return got


def prize(ctx: "Ctx", e: Hex) -> float:
    """What a hit on the German stack in e wins: its units' worth and the town's VP."""
    cache = ctx.soviet_prize
    got = cache.get(e)
    if got is None:
        got = cache[e] = (sum(ctx.ai.worth(ctx.view, u) for u in ctx.enemy_hexes[e])
                          + ctx.ai.vp_of(ctx.game, e))
    return got


def setup(ctx: "Ctx", uid: str, h: Hex, commanded: bool) -> float:
    """The term for a Soviet combat unit ending in h (0 when the part is off or the unit could
    not attack from there, 11.33)."""
    if not commanded or not applies(ctx.ai):
        return 0.0
    view, gmap = ctx.view, ctx.gmap
    att = ctx.ai.strength(view, uid)[0]
    if att <= 0:
        return 0.0
    start = view.hex_of(uid)
    best = 0.0
    for e in gmap.neighbours(h):
        if e not in ctx.enemy_hexes or gmap.is_impassable_side(h, e):
            continue
        already = ctx.my_att_adj.get(e, 0.0)
        if start is not None and e in gmap.neighbours(start):
            already -= att  # its own attack is in the sum already: count it once
        ratio = (already + att) / defence(ctx, e)
        share = min(1.0, max(0.0, (ratio - ODDS_LOW) / (ODDS_FULL - ODDS_LOW)))
        best = max(best, W_SETUP * share * prize(ctx, e))
    return best


def _short_reach(ctx: "Ctx") -> list[int]:
    """Each supplied Soviet HQ's line-of-communications reach one step short of its radius, as
    bit sets (``supply.loc_bits``), worked out once per decision."""
    if ctx.soviet_reach is None:
        view, sup = ctx.view, ctx.sup
        graph = loc_bits(view.map)
        closed = closed_bits(view, SOVIET)
        out: list[int] = []
        for hq in sup.soviet_hqs:
            start = view.hex_of(hq)
            radius = view.udef(hq).leadership
            if start is None or start not in graph.index or radius < 1 or not sup.lines[SOVIET].reaches(start):
                continue
            out.append(graph.reach(start, radius - 1, closed))
        ctx.soviet_reach = out
    return ctx.soviet_reach


def commanded_on_entry(ctx: "Ctx", h: Hex) -> bool:
    """Whether a Soviet unit ending in h would be in command of a supplied HQ although no line of
    communications reaches h now: h is empty but in a German zone of control, which shuts lines
    only while no Soviet unit stands in it (8.25, 11.31), so an HQ whose line reaches a neighbour
    of h a step inside its radius commands the unit once it is there."""
    if not applies(ctx.ai) or h in ctx.enemy_hexes or h not in closed_to(ctx.view, SOVIET):
        return False
    graph = loc_bits(ctx.view.map)
    near = [graph.index[n] for n in loc_links(ctx.view.map)[h] if n in graph.index]
    return any(bits >> i & 1 for bits in _short_reach(ctx) for i in near)


def term(ctx: "Ctx", uid: str, h: Hex, commanded: bool) -> float:
    """The part's term for a Soviet combat unit ending in h next to a German stack; ``commanded``
    is the movement score's reading of h (a supplied HQ's line reaches it now).  A hex in a German
    zone of control reads as out of command while it is empty, and costs the move ``W_COMMAND``;
    where the unit would be commanded once there (``commanded_on_entry``) and sets up a hit, it
    gains ``setup`` and ``W_ENTERED`` of that penalty back.  Giving the whole penalty back (the
    rules' reading) swung the strong match by some 90-115 VP a game to the Soviet on tuning
    seeds, half of it some 55: docs/AI.md."""
    gain = setup(ctx, uid, h, commanded or commanded_on_entry(ctx, h))
    if gain > 0 and not commanded:
        gain += W_ENTERED
    return gain
