"""The German's middle turns against the strong Soviet (the "midgame" part of ``Level.parts``;
issue 34).

Counted on tuning seeds (docs/AI.md, "Where the strong Soviet's turns retake the towns"), the
strong Soviet takes back its towns in turns 3-12 almost only by walking into German towns left
empty: some three in four empty ones are retaken whatever their distance from the Soviet units
(its infantry moves far by road, its reserves by rail), about one in four of those in a German
zone of control, and next to none of those with a German combat unit in them; its
attacks on German garrisons are few, at poor odds.  The "hold" part valued a lone unit in a
German town only within four hexes of a Soviet unit, where a third of the lost VP were.  This
part reads no plan and gives two terms of the German movement score (``Ctx._german``):

- ``hold_near``: a lone combat unit ending in a German town counts the town's hold value as far
  as ``HOLD_NEAR`` hexes from a Soviet unit (the "hold" part's four hexes otherwise);
- ``screen``: a combat unit whose zone of control would cover an empty German town that no other
  German stack covers is worth ``W_SCREEN`` per VP of that town (8.21: a Soviet unit must stop on
  entering it, so fewer reach it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import GERMAN

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

PART = "midgame"  # the name of this part in ``Level.parts``
HOLD_NEAR = 9  # hexes from a Soviet unit within which a German town wants its garrison
HOLD_NEAR_BASE = 4  # the same without this part
W_SCREEN = 0.6  # per VP of an empty German town that a unit's zone of control alone covers


def hold_near(ai: "KievAI") -> int:
    """How far from the nearest Soviet unit a German town still wants a lone garrison."""
    return HOLD_NEAR if ai._uses(PART) else HOLD_NEAR_BASE


def _towns(ctx: "Ctx") -> dict[Hex, int]:
    """German towns within ``HOLD_NEAR`` of a Soviet unit with at most one German combat unit in
    them (one that may be the mover's own start), by VP; worked out once per position."""
    if ctx.screened is None:
        ctx.screened = {}
        for key, owner in ctx.control.items():
            if owner != GERMAN:
                continue
            n = Hex.parse(key)
            vp = ctx.ai.vp_of(ctx.game, n)
            if vp and ctx.my_combat.get(n, 0) <= 1 and ctx.dist_enemy(n, HOLD_NEAR + 1) <= HOLD_NEAR:
                ctx.screened[n] = vp
    return ctx.screened


def screen(ctx: "Ctx", uid: str, h: Hex) -> float:
    """What a combat unit ending in ``h`` adds by covering with its zone of control empty German
    towns no other German stack covers (0 without the part, or for an HQ or leader)."""
    ai, view = ctx.ai, ctx.view
    if not ai._uses(PART) or view.is_hq_like(uid):
        return 0.0
    towns = _towns(ctx)
    near = [n for n in ctx.reach[h] if n in towns]
    if not near:
        return 0.0
    start = view.hex_of(uid)
    alone_at_start = start is not None and ctx.my_combat.get(start, 0) == 1
    total = 0.0
    for n in near:
        if ctx.my_combat.get(n, 0) and n != start:
            continue  # someone else holds it
        if n == start and ctx.my_combat.get(n, 0) > 1:
            continue  # someone else stays in it
        others = ctx.zoc_count.get(n, 0)
        if alone_at_start and start is not None and n in ctx.reach[start]:
            others -= 1  # the unit's own zone now: it goes with it
        if others > 0:
            continue
        total += W_SCREEN * towns[n]
    return total
