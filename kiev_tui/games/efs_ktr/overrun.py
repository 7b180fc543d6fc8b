"""Overrun (11.4): who may, from where, at what MP cost and odds; what happens after.

An overrun is movement: a motorized stack (or Soviet cavalry, 11.41) in its Movement or
Motorized phase stands next to an enemy hex and pays 1 MP plus the cost of entering the target
hex (the road rate when a road joins the two hexes, else its terrain and the hexside's, 11.43b),
with no ZOC cost.  It needs odds of 5-1 for an all-German stack and 7-1 for any other (11.42a),
12-1 and a motorized engineer against a city, major city or fortification (11.42c2); never in
Mud, Snow or Arctic weather (11.42b); never across a major river or lake hexside or into
mountain or alpine, into swamp only in Frost (11.42c); never from a hex that any enemy hex other
than the target puts in its zone (11.42d); never out of supply (11.42e), with artillery (11.42f)
or by one-hex movement (11.42g).

The roll itself is the Overrun Table's (combat.py reads it): ``check`` returns the facts that
table needs (odds, whether every defender is artillery, whether they are already overrun, the
target's terrain), and ``retreat.options(..., kind="overrun")`` gives the defenders' retreat
(11.43j).  ``after_success`` says where the stack stands and whether it may move on (11.43l).
Every Sumy Axis unit is German, so "German" here means the Axis side (PB 10.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.board import MOTORIZED, MOVEMENT, Board
from kiev_tui.games.efs_ktr.movement import (MP, NORMAL, allowance, hex_cost, moves_as_motorized, river_plus,
                                             road_rate)
from kiev_tui.games.efs_ktr.schema import AXIS
from kiev_tui.games.efs_ktr.zoc import in_enemy_zoc, projectors

if TYPE_CHECKING:
    from kiev_tui.games.efs_ktr.combat import OverrunInput

MIN_ODDS_GERMAN, MIN_ODDS_OTHER, MIN_ODDS_FORTIFIED = 5, 7, 12  # 11.42a, 11.42c2
OVERRUN_MP = 1  # 11.43b
NO_OVERRUN_WEATHER = frozenset({"mud", "snow", "arctic"})  # 11.42b
FORTIFIED_SETTLEMENTS = frozenset({"city", "major_city"})  # 11.42c2


@dataclass(frozen=True, slots=True)
class Overrun:
    """A legal overrun, with what the Overrun Table reads (11.43d-h)."""

    units: tuple[str, ...]
    source: Hex
    target: Hex
    attack: int
    defence: int
    odds: int  # n of n-1, rounded down for the defender
    min_odds: int
    cost: Fraction  # MP each unit pays for the attempt (11.43b)
    all_artillery: bool  # the Overrun Table's defender condition
    already_overrun: bool  # 11.44d
    terrain: tuple[str, ...]  # the target's terrain features the table may modify for: hill, woods, city ...
    engineer: bool = False  # a motorized engineer in the stack (11.42c2)

    def table_input(self) -> "OverrunInput":
        """The facts combat.py's Overrun Table reads (11.43d-i)."""
        from kiev_tui.games.efs_ktr.combat import OverrunInput

        return OverrunInput(self.attack, self.defence, self.min_odds == MIN_ODDS_GERMAN, self.all_artillery,
                            self.already_overrun, self.terrain,
                            city_or_fortification=self.min_odds == MIN_ODDS_FORTIFIED,
                            motorized_engineer=self.engineer)


def cost(board: Board, source: Hex, target: Hex) -> Fraction:
    """11.43b: 1 MP, plus the target hex by road if a road joins the hexes, else terrain + hexside."""
    road = board.road(source, target)
    if road is not None:
        return MP(OVERRUN_MP) + road_rate(board, road, target)
    base = hex_cost(board, target)
    assert base is not None
    return MP(OVERRUN_MP) + base + river_plus(board, source, target)


def check(board: Board, units: Sequence[str], target: Hex | str, phase: str,
          spent: Mapping[str, Fraction] | None = None) -> Overrun | Illegal:
    """Is this overrun allowed now?  ``spent``: MP each unit has already spent this phase."""
    tgt = board.parse(target) if isinstance(target, str) else target
    if not units:
        return Illegal("11.41", "choose the overrunning units")
    if phase not in (MOVEMENT, MOTORIZED):  # 10.13d, 10.23
        return Illegal("11.4", "overruns are made in the Movement and Motorized Movement phases")
    starts = {board.hex_of.get(u) for u in units}
    if None in starts or len(starts) != 1:  # 11.41
        return Illegal("11.41", "the overrunning units must stand stacked together")
    source = starts.pop()
    assert source is not None
    side = board.side(units[0])
    if any(board.side(u) != side for u in units):
        return Illegal("11.41", "an overrunning stack is units of one side")
    if tgt not in board.gmap.neighbours(source):  # 11.43a
        return Illegal("11.43", f"{board.hid(tgt)} is not next to the overrunning stack")
    defenders = [u for u in board.at(tgt) if board.side(u) != side]
    if not defenders:
        return Illegal("11.4", f"{board.hid(tgt)} holds no enemy unit")
    for u in units:
        if board.is_artillery(u) or board.is_orange(u):  # 11.42f
            return Illegal("11.42", f"{u} is artillery: it may not take part in an overrun")
        if not (moves_as_motorized(board, u) or (board.is_cavalry(u) and side != AXIS)):  # 11.41
            return Illegal("11.41", f"{u} is neither motorized nor Soviet cavalry")
        if u in board.out_of_supply and not board.supply_disregarded:  # 11.42e
            return Illegal("11.42", f"{u} is Out of Supply")
        mp = allowance(board, u, phase, NORMAL)
        if isinstance(mp, Illegal):
            return mp
    if board.weather in NO_OVERRUN_WEATHER:  # 11.42b
        return Illegal("11.42", f"no overrun in {board.weather} weather")
    base, woods = board.terrain(tgt)
    river = board.river(source, tgt)
    if river == "major_river" or base == "lake":  # 11.42c
        return Illegal("11.42", "no overrun across a major river or lake hexside")
    if base in ("mountain", "alpine"):
        return Illegal("11.42", "no overrun into mountain or alpine hexes")
    if base == "swamp" and board.weather != "frost":  # 11.42c1
        return Illegal("11.42", "a swamp hex is overrun only in Frost weather")
    others = projectors(board, source, side) - {tgt}
    if others:  # 11.42d
        where = ", ".join(sorted(board.hid(h) for h in others))
        return Illegal("11.42", f"the stack's hex lies in the zone of enemy units in {where} as well")
    price = cost(board, source, tgt)
    for u in units:
        mp = allowance(board, u, phase, NORMAL)
        assert not isinstance(mp, Illegal)
        left = mp - MP((spent or {}).get(u, 0))
        if price > left:  # 11.42g: one-hex movement never pays for an overrun
            return Illegal("11.42", f"{u} has {left} MP left; the overrun costs {price}")
    attack = sum(board.attack(u) for u in units)
    defence = sum(board.defence(u) for u in defenders)
    odds = attack // defence if defence > 0 else 99
    minimum = MIN_ODDS_GERMAN if side == AXIS else MIN_ODDS_OTHER  # 11.42a
    town = board.settlement(tgt)
    if town in FORTIFIED_SETTLEMENTS:  # 11.42c2
        if not any(board.utype(u) == "engineer" for u in units):
            return Illegal("11.42", f"a {town.replace('_', ' ')} is overrun only by a stack with a motorized "
                                    "engineer, at 12-1")
        minimum = MIN_ODDS_FORTIFIED
    if odds < minimum:  # 11.42a
        return Illegal("11.42", f"odds of {attack} to {defence} are under the {minimum}-1 an overrun needs")
    feats = [f for f, on in (("hill", base == "hill"), ("woods", woods), (town or "", bool(town))) if on]
    return Overrun(tuple(units), source, tgt, attack, defence, odds, minimum, price,
                   all(board.is_artillery(u) for u in defenders),
                   any(u in board.overrun_marked for u in defenders), tuple(feats),
                   any(board.utype(u) == "engineer" for u in units))


def after_success(board: Board, ov: Overrun) -> tuple[Hex, bool]:
    """11.43l: the stack enters the emptied target; may it move on (no enemy zone there)?

    ``board`` is the position after the defenders retreated.
    """
    side = board.side(ov.units[0])
    return ov.target, not in_enemy_zoc(board, ov.target, side)


def after_failure(ov: Overrun) -> Hex:
    """11.43m: the stack stays next to the target and moves no more this phase."""
    return ov.source
