"""Retreats and advance after combat (16.4-16.5, with 10.55, 10.78, 11.43j and 16.24).

A retreat moves a unit or stack two hexes away from the Defender Hex (16.4), three under an
Additional Retreat order (16.41b), two after a successful overrun (11.43j); each hex is one hex
farther from the hex it left (ruling: "away" counts hexes).  It never enters an enemy-held hex,
a lake, an unfrozen major river or lake hexside (16.43d) or, for motorized and orange units in Dry
or Mud weather, a swamp off its roads (10.78 note).  Advances and retreats spend no MP (10.4).

Enemy zones (16.44-16.46): a friendly combat unit in a hex cancels the enemy zone there for a
retreat; a vacant hex in an enemy zone may be passed once, at the cost of one step and a roll on
the Retreat Table (16.46: combat.py reads the table), never twice running (16.45: Eliminated
Box); the retreat may not end in an enemy zone, and ending in a friendly-held hex in one, or on a
Declared Attack marker, takes it one hex farther, where the same again sends it to the Cadre Box
(16.44).  An overrun's retreat passes no vacant enemy-zone hex at all (11.43j: Cadre Box); an
Additional Retreat passes none where only the enemy has a zone (16.41b2).  The stack may not end
over the stacking limit: one hex farther, then the Cadre Box (16.47).  With no path at all it is
eliminated if enemy units and impassable terrain ring it (16.42b), goes to the Cadre Box if the
map edge is its only way out (16.42c, 10.55), and otherwise to the Eliminated Box (16.45).

Who picks: the owner, except under Additional Retreat and after an overrun, when the other
player does and must take a path that costs nothing if there is one (16.41b1; docs/rulings.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.board import ADDITIONAL_RETREAT, CADRE, ELIMINATED, Board
from kiev_tui.games.efs_ktr.movement import _swamp_bars
from kiev_tui.games.efs_ktr.stacking import check_hex
from kiev_tui.games.efs_ktr.zoc import FROZEN, in_enemy_zoc, retreat_blocked, uncontested_enemy

NORMAL, ADDITIONAL, OVERRUN = "normal", "additional", "overrun"
KINDS = {NORMAL: 2, ADDITIONAL: 3, OVERRUN: 2}  # 16.4, 16.41b, 11.43j
#: Fates, best first: a clean retreat, a retreat that pays 16.46's step and roll, then removals.
SAFE, ZOC_ROLL, TO_CADRE, TO_ELIMINATED = "safe", "zoc_roll", CADRE, ELIMINATED


@dataclass(frozen=True, slots=True)
class Retreat:
    """One way a retreat can go: its hexes (origin excluded), where it ends and what it costs.

    ``fate``: SAFE; ZOC_ROLL (one step now, then the Retreat Table, 16.46); or the box the units go
    to.  ``extended``: the hexes added by 16.44 or 16.47.  ``case``: the rule deciding the fate.
    """

    path: tuple[Hex, ...]
    fate: str
    case: str
    steps_lost: int = 0
    extended: int = 0
    off_map: bool = False

    @property
    def end(self) -> Hex | None:
        """Where the units stand after it; None when they leave the map."""
        return None if self.fate in (TO_CADRE, TO_ELIMINATED) or not self.path else self.path[-1]

    @property
    def clean(self) -> bool:
        return self.fate == SAFE


def _stack(board: Board, units: Sequence[str]) -> tuple[Hex, str] | Illegal:
    if not units:
        return Illegal("16.4", "no unit to retreat")
    starts = {board.hex_of.get(u) for u in units}
    if None in starts or len(starts) != 1:
        return Illegal("16.4", "a retreating stack is units of one hex")
    sides = {board.side(u) for u in units}
    if len(sides) != 1:
        return Illegal("16.4", "a retreating stack is units of one side")
    start = starts.pop()
    assert start is not None
    return start, sides.pop()


def _open(board: Board, units: Sequence[str], side: str, a: Hex, b: Hex) -> bool:
    """May the retreat step from ``a`` into the adjacent ``b`` at all (16.42-16.43, 10.78)?"""
    if board.owner(b) not in (None, side):
        return False
    if board.terrain(b)[0] == "lake" and board.weather not in FROZEN:  # 10.77, 16.43d
        return False
    if board.river(a, b) == "major_river" and board.road(a, b) is None and board.weather not in FROZEN:
        return False  # 16.43d: unbridged major river
    motor = any(board.is_motorized(u) for u in units)
    return not _swamp_bars(board, motor, a, b)  # 10.78 note


def _zoc_hex(board: Board, side: str, h: Hex) -> bool:
    """A vacant (of friendly combat units) hex in an enemy zone: the kind 16.45-16.46 count."""
    return retreat_blocked(board, h, side)


def _end_trouble(board: Board, side: str, h: Hex) -> bool:
    """16.44: an end hex in an enemy zone or under a Declared Attack marker."""
    return in_enemy_zoc(board, h, side) or h in board.declared


def options(board: Board, units: Sequence[str], kind: str = NORMAL, origin: Hex | None = None) -> list[Retreat] | Illegal:
    """Every retreat the units could be given, with its fate (16.4-16.47), best fates first.

    ``origin``: the Defender Hex the retreat runs away from (the units' hex unless given: an
    attacker's retreat runs from its own hex, 16.11e).  Always at least one answer: when no path
    exists the single answer is the box the units go to.
    """
    got = _stack(board, units)
    if isinstance(got, Illegal):
        return got
    start, side = got
    if kind not in KINDS:
        return Illegal("16.4", f"'{kind}' is not a kind of retreat")
    away_from = origin or start
    # the retreating units have left: their own zone no longer contests a hex (16.41b2, rulings)
    board = board.moved({u: None for u in units})
    for u in units:
        if board.ma(u) <= 0:  # 16.42a: a unit with no MA cannot retreat
            return [Retreat((), TO_ELIMINATED, "16.42")]
    length = KINDS[kind]
    found: list[Retreat] = []
    edge_exit = False

    def walk(path: tuple[Hex, ...], zoc_used: bool) -> None:
        nonlocal edge_exit
        here = path[-1] if path else start
        if len(path) == length:
            found.extend(_finish(board, units, side, away_from, path, zoc_used))
            return
        if board.gmap.edges_of(here):
            edge_exit = True  # 16.42c: the map edge is a way out
        for n in board.gmap.neighbours(here):
            if n.distance(away_from) != here.distance(away_from) + 1:
                continue  # 16.4: every hex farther away
            if not _open(board, units, side, here, n):
                continue
            z = _zoc_hex(board, side, n)
            if z:
                if zoc_used:  # 16.45, 16.46: one vacant enemy-zone hex at most
                    continue
                if len(path) + 1 == length:  # 16.44: a retreat never ends in an enemy zone
                    continue
                if kind == OVERRUN:  # 11.43j
                    continue
                if kind == ADDITIONAL and uncontested_enemy(board, n, side):  # 16.41b2
                    continue
            walk(path + (n,), zoc_used or z)

    walk((), False)
    if any(r.case != "16.47" for r in found):  # 16.47: over the limit only if nothing else remains
        found = [r for r in found if r.case != "16.47"]
    if found:
        order = {SAFE: 0, ZOC_ROLL: 1, TO_CADRE: 2, TO_ELIMINATED: 3}
        found.sort(key=lambda r: (order[r.fate], r.extended, [board.hid(h) for h in r.path]))
        return found
    return [_no_path(board, units, side, start, edge_exit, kind)]


def _no_path(board: Board, units: Sequence[str], side: str, start: Hex, edge_exit: bool, kind: str) -> Retreat:
    if kind == OVERRUN:
        return Retreat((), TO_CADRE, "11.43")  # 11.43j: whatever blocks the way, the Cadre Box
    ringed = all(not _open(board, units, side, start, n) for n in board.gmap.neighbours(start))
    if ringed and not board.gmap.edges_of(start):
        return Retreat((), TO_ELIMINATED, "16.42")  # 16.42b: surrounded by enemy units and impassable terrain
    if edge_exit:
        return Retreat((), TO_CADRE, "16.42", off_map=True)  # 16.42c, 10.55
    return Retreat((), TO_ELIMINATED, "16.45")  # 16.45: only through enemy zones


def _finish(board: Board, units: Sequence[str], side: str, away_from: Hex, path: tuple[Hex, ...],
            zoc_used: bool) -> list[Retreat]:
    """Apply 16.44's and 16.47's extra hex to a full-length path, and 16.46's price."""
    end = path[-1]
    fate, why, lost = (ZOC_ROLL, "16.46", 1) if zoc_used else (SAFE, "16.4", 0)
    over = check_hex(board, end, adding=units) is not None
    trouble = _end_trouble(board, side, end)
    if not (over or trouble):
        return [Retreat(path, fate, why, lost)]
    # 16.44 / 16.47: one hex farther, each open one a choice; with none, the Cadre Box
    case = "16.44" if trouble else "16.47"
    out = []
    for n in board.gmap.neighbours(end):
        if n.distance(away_from) != end.distance(away_from) + 1 or not _open(board, units, side, end, n):
            continue
        if _end_trouble(board, side, n) or check_hex(board, n, adding=units) is not None:
            continue
        out.append(Retreat(path + (n,), fate, case, lost, 1))
    return out or [Retreat(path, TO_CADRE, case, extended=1)]


def choices(board: Board, units: Sequence[str], kind: str = NORMAL, origin: Hex | None = None) -> list[Retreat] | Illegal:
    """The retreats the choosing player may pick (16.41b1): under Additional Retreat and after an
    overrun the enemy picks, and only among the best fate there is; the owner may pick any."""
    opts = options(board, units, kind, origin)
    if isinstance(opts, Illegal) or kind == NORMAL:
        return opts
    top = opts[0].fate
    return [r for r in opts if r.fate == top]


def check_path(board: Board, units: Sequence[str], path: Sequence[Hex | str], kind: str = NORMAL,
               origin: Hex | None = None) -> Retreat | Illegal:
    """Is ``path`` (the hexes after the start, 16.44's extra hex included if any) a retreat the
    choosing player may give these units?  Returns its fate."""
    hexes = tuple(board.parse(h) if isinstance(h, str) else h for h in path)
    allowed = choices(board, units, kind, origin)
    if isinstance(allowed, Illegal):
        return allowed
    for r in allowed:
        if r.path == hexes:
            return r
    every = options(board, units, kind, origin)
    assert not isinstance(every, Illegal)
    if any(r.path == hexes for r in every):
        return Illegal("16.41", "a path that costs the units nothing exists: the enemy must choose one")
    if not hexes:
        return Illegal("16.4", "the units can retreat: give their path")
    return Illegal("16.4", f"not a legal {KINDS[kind]}-hex retreat away from the combat: "
                           f"{' '.join(board.hid(h) for h in hexes)}")


def apply(board: Board, units: Sequence[str], r: Retreat, overrun: bool = False) -> Board:
    """The position after the retreat ``r``: the units in its last hex, or in its box (16.24,
    16.42, 16.44-16.47); after an overrun they carry an Overrun marker (11.44).  Steps lost
    (16.46's, the roll's) are the caller's: it applies them first."""
    moved = board.moved({u: (r.end if r.end is not None else None) for u in units})
    if r.end is None:
        boxes = dict(board.boxes)
        boxes.update({u: r.fate for u in units})
        moved = moved.replace(boxes=boxes)
    if overrun and r.end is not None:
        moved = moved.replace(overrun_marked=moved.overrun_marked | frozenset(units))
    return moved


def kind_for(order: str | None, overrun: bool = False) -> str:
    """The retreat kind of a force under ``order`` (14.31) or after an overrun (11.43j)."""
    if overrun:
        return OVERRUN
    return ADDITIONAL if order == ADDITIONAL_RETREAT else NORMAL


# -- advance after combat (16.5) --------------------------------------------------------------------
def check_advance(board: Board, units: Sequence[str], target: Hex, attackers: Sequence[str],
                  attacker_order: str | None = None) -> Illegal | None:
    """May ``units`` advance into the emptied Defender Hex ``target`` (16.5)?

    ``attackers``: the units that took part and won.  Enemy zones do not matter (16.53).
    """
    if attacker_order == ADDITIONAL_RETREAT:  # 16.41b4
        return Illegal("16.41", "attackers under Additional Retreat orders do not advance")
    if board.owner(target) not in (None, board.side(units[0]) if units else None):
        return Illegal("16.5", f"{board.hid(target)} still holds enemy units")
    for u in units:
        if u not in attackers:  # 16.52
            return Illegal("16.52", f"{u} did not take part in the attack")
        if board.is_artillery(u):  # 16.52
            return Illegal("16.52", f"{u} is artillery: artillery does not advance")
        here = board.hex_of.get(u)
        if here is None or target not in board.gmap.neighbours(here):  # 16.53, 16.55
            return Illegal("16.53", f"{u} is not next to {board.hid(target)}")
        if not _open(board, [u], board.side(u), here, target):  # 16.5: terrain limitations
            return Illegal("16.5", f"{u} cannot enter {board.hid(target)} across that terrain")
    return check_hex(board, target, adding=units, case="16.54")  # 16.54
