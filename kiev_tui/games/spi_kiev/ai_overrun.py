"""The German's overruns hunted (the "overrun_hunt" part of ``Level.parts``; issue 34).

An overrunning stack fights at reduced strength (6.0), so against a full division the odds that
clear a hex are rarely there, and the strong German almost never overran.  Some Soviet hexes are
worth running over at lower odds, and they are also the ones where the odds are best:

- a hex holding a Soviet HQ (its units go out of command when it is lost, 24.2);
- a lone Soviet combat unit, or units out of supply (a pocket's remnant, 24.3).

On such a hex an overrun counts as done when the defender is hit (a step lost, or a retreat that
empties the hex, 6.24) and the stack comes off unhurt (``success``), not only when the hex is
emptied outright; ``bar`` then asks a lower chance of it (and allows a little more risk).
``approach`` moves a German armoured stack next to an HQ's hex or a cut-off hex when, on a
look-ahead copy, the overrun would then do its work often enough.  Neither reads the plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import GERMAN, MECHANIZED, View

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

PART = "overrun_hunt"  # the name of this part in ``Level.parts``
EASIER = 0.15  # the clearing chance asked of an overrun on a hunted hex drops by this much
RISK = 0.15  # and the chance of an attacker loss allowed rises by this much
RATIO = 2.0  # attack against terrain-weighted defence a hunted hex must face to be worth the sums
APPROACH = {MECHANIZED: (0.6, 0.35)}  # phase -> (clear, loss) a move-then-overrun needs
APPROACH_DEFAULT = (0.65, 0.35)
APPROACH_RANGE = 6  # hexes from the stack to a hunted hex


def hunted(view: View, target: Hex) -> bool:
    """A Soviet hex worth overrunning at lower odds: an HQ in it, one combat unit alone, or units
    out of supply (6.0 with 24.2, 24.3)."""
    ids = [u for u in view.at(target) if view.side(u) != GERMAN]
    if not ids:
        return False
    if any(view.is_hq_like(u) for u in ids):
        return True
    if len(ids) == 1:
        return True
    return all(not view.supply.status(u).in_supply for u in ids)


def prized(view: View, target: Hex) -> bool:
    """A hunted hex worth moving a stack for: an HQ in it (24.2) or units all out of supply (24.3);
    a lone unit in supply is run over only by a stack already beside it."""
    ids = [u for u in view.at(target) if view.side(u) != GERMAN]
    return bool(ids) and (any(view.is_hq_like(u) for u in ids)
                          or all(not view.supply.status(u).in_supply for u in ids))


def bar(view: View, target: Hex, need: float, most: float) -> tuple[float, float]:
    """The clearing chance and loss chance an overrun of ``target`` must meet."""
    if hunted(view, target):
        return need - EASIER, most + RISK
    return need, most


def success(view: View, target: Hex, chances: dict[str, float], cleared: float) -> float:
    """The chance an overrun of a hunted hex does its work: the defender hit (a step lost or a
    retreat, which empties the hex, 6.24) while the overrunning stack comes off unhurt.  Any other
    hex keeps ``cleared`` (the chance it is emptied outright)."""
    from kiev_tui.games.spi_kiev.ai import _attacker_loses, _defender_hit
    if not hunted(view, target):
        return cleared
    return sum(pr for r, pr in chances.items() if _defender_hit(r) and not _attacker_loses(r))


def worth_sums(view: View, target: Hex, att: float, dfn: float) -> bool:
    """Whether the odds are near enough to clearing a hunted hex to work them out."""
    return hunted(view, target) and att >= RATIO * max(0.5, dfn)


def approach(ai: "KievAI", game: Game, view: View, ctx: "Ctx", tried: set[Hex]) -> Move | None:
    """6.0, 6.13: an armoured stack that began the phase together moves as one next to a hunted
    hex it can then overrun; the move and the overrun are tried on a look-ahead copy
    (``KievAI.stack_approach``).  Once per stack and phase (``tried``)."""
    from kiev_tui.games.spi_kiev.ai import _clears
    need, most = APPROACH.get(game.state.phase, APPROACH_DEFAULT)
    found = ai.stack_approach(
        game, view, lambda: ctx, tried, need, most,
        lambda c, t, ratio: ratio >= 2 * RATIO and prized(view, t),
        lambda tv, t, chances: success(tv, t, chances, sum(pr for res, pr in chances.items() if _clears(res))),
        far=APPROACH_RANGE)
    if found is None:
        return None
    move, t, clear, loss = found
    ai._why = (f"hunts {t}: moves next to it to overrun it "
               f"(clears it {100 * clear:.0f}%, attacker loss {100 * loss:.0f}%)")
    return move
