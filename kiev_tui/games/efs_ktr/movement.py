"""Ground movement (10, 11.3, 11.5, 11.9): what a path costs and the hexes a stack reaches.

Allowances (10.1-10.3 and the Movement Phase Chart as the play book's sequence lists it): in
the Axis Movement phase every Axis unit has its full MA; in the Axis Motorized phase motorized
and cavalry units move at half MA; in the Soviet Motorized phase Soviet motorized units have
their full MA, cavalry half, and units an HQ activated their full MA (10.24c); in the Soviet
Movement phase every Soviet unit not activated moves, motorized ones at half MA; in a Reaction
phase motorized units move at half MA (10.3).  Artillery, AT and AA have orange MAs: motorized
costs, but no Motorized or Reaction phase unless activated (10.58).  Halves are kept (10, Note
Two), so MPs are ``Fraction`` values.

Costs (10.7 with the Dry chart of tables.toml): a hex's terrain cost, woods adding theirs on top
(10.72, woods stored on the base terrain in map.toml), a minor river hexside +1; along a road
(10.74) the road rate instead (a main road 1/2, a minor road 1/2 into clear and 1 into other
terrain), paid for a hex only if the unit leaves it by road too or stops there (10.74, fourth
example), a road entry still sparing the river's cost.  Motorized and orange units keep to roads
in swamp (10.78); no one enters a lake (10.77); an unbridged major river takes a whole MA from the
adjacent hex in the Movement phase (10.76c).  Entering an enemy zone costs 1 MP more (10.64) and
ends the move (10.65); no move goes straight from one enemy zone to another (10.66) except
infiltration (11.5).  Enemy units are never entered (10.54): attacking on the move is an
overrun (overrun.py).  One-hex movement (11.9) and infiltration (11.54) spend the whole MA.
Strategic movement (11.3) multiplies the allowance by 3/2, keeps to roads, and stays three
hexes from enemy combat units; Sumy disregards its supply condition (PB 10.44a).

``path_cost`` judges one path exactly; ``reachable`` searches for the hexes a stack may end in,
each with its cost and path, and offers exactly the hexes some path reaches that ``path_cost``
accepts (tests/test_efs_move.py checks the two agree).
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from typing import Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import Reach
from kiev_tui.games.efs_ktr.board import MOTORIZED, MOVEMENT, REACTION, Board
from kiev_tui.games.efs_ktr.schema import AXIS
from kiev_tui.games.efs_ktr.zoc import in_enemy_zoc

MP = Fraction
NORMAL, STRATEGIC, ONE_HEX, INFILTRATION = "normal", "strategic", "one_hex", "infiltration"
MODES = (NORMAL, STRATEGIC, ONE_HEX, INFILTRATION)
PHASES = (MOVEMENT, MOTORIZED, REACTION)
HALF = Fraction(1, 2)
MUD = frozenset({"mud"})
STRATEGIC_DISTANCE = 3  # 11.32d: at least two hexes between the unit and any enemy combat unit


# -- who moves, and how far -------------------------------------------------------------------------
def moves_as_motorized(board: Board, uid: str) -> bool:
    """Has a Motorized phase (red MA): motorized, not artillery/AT/AA (10.21, 10.58)."""
    return board.is_motorized(uid) and not board.is_orange(uid) and not board.is_cavalry(uid)


def yellow_ma(board: Board, uid: str) -> bool:
    """May infiltrate (11.52): motorized with MA 7 or more, or cavalry (yellow MA 6)."""
    if board.is_cavalry(uid):
        return True
    return moves_as_motorized(board, uid) and board.ma(uid) >= 7


def allowance(board: Board, uid: str, phase: str, mode: str = NORMAL) -> MP | Illegal:
    """This phase's MP for ``uid``, or why it may not move now (10.1-10.3, 10.24c, 10.58, 11.31)."""
    if phase not in PHASES:
        return Illegal("10.0", f"'{phase}' is not a phase ground units move in")
    side = board.side(uid)
    if board.units[uid].layer == "air" or board.ma(uid) <= 0:
        return Illegal("10.52", f"{uid} has no movement allowance")
    base = MP(board.ma(uid))
    if uid in board.out_of_supply and not board.supply_disregarded:
        base = max(MP(0), base - 2)  # 6.71: two less before halving
    full, half = base, base / 2
    motor = moves_as_motorized(board, uid)
    if phase == REACTION:
        if not motor:  # 10.3, 10.58: only motorized units react
            return Illegal("10.3", f"{uid} is not a motorized unit: it cannot make Reaction Movement")
        bad = reaction_bars(board, uid)
        if bad is not None:
            return bad
        mp = half
    elif side == AXIS and phase == MOVEMENT:
        mp = full  # Movement Phase Chart: every Axis unit at full MA
    elif side == AXIS:
        if not (motor or board.is_cavalry(uid)):  # 10.21, 10.58b
            return Illegal("10.58", f"{uid} does not move in the Axis Motorized Movement phase")
        mp = half
    elif phase == MOTORIZED:
        if uid in board.activated:  # 10.24c: an activated unit moves its full MA
            mp = full
        elif motor:
            mp = full
        elif board.is_cavalry(uid):
            mp = half
        else:  # 10.24c, 10.58c
            return Illegal("10.58", f"{uid} moves in the Soviet Motorized phase only if an HQ activates it")
    else:
        if uid in board.activated:  # 10.24c: it moved in the Motorized phase instead
            return Illegal("10.24", f"{uid} was activated and does not move in the Movement phase")
        mp = half if motor else full
    if mode == STRATEGIC:
        if phase != MOVEMENT:  # 11.31
            return Illegal("11.31", "strategic movement is made only in the Movement phase")
        mp = mp * 3 / 2  # 11.31: half as much again
    return mp


def reaction_bars(board: Board, uid: str) -> Illegal | None:
    """14.11a-b: why ``uid`` may not react now, or None.  The Soviet command conditions (14.11c)
    are the caller's: it passes only units an HQ may send."""
    h = board.hex_of.get(uid)
    if h is None:
        return Illegal("14.11", f"{uid} is not on the map")
    if not board.declared or min(h.distance(d) for d in board.declared) > 3:  # 14.11
        return Illegal("14.11", f"{uid} is not within three hexes of a Defender Hex")
    if h in board.declared or in_enemy_zoc(board, h, board.side(uid)):  # 14.11a
        return Illegal("14.11", f"{uid} begins in an enemy zone or a Defender Hex")
    if uid in board.overrun_marked or (uid in board.out_of_supply and not board.supply_disregarded):  # 14.11b
        return Illegal("14.11", f"{uid} carries an Overrun or Out of Supply marker")
    return None


def _reaction_into(board: Board, stack: "Stack", b: Hex) -> Illegal | None:
    """14.13: a reacting unit comes next to an enemy unit only in a hex a friendly unit holds, and
    one that projects a zone only into a Defender Hex."""
    if stack.phase != REACTION:
        return None
    if not any(board.owner(n) not in (None, stack.side) for n in board.gmap.neighbours(b)):
        return None
    if not board.friendly_combat_in(b, stack.side):
        return Illegal("14.13", f"a reacting unit moves next to the enemy only into a hex friendly units hold "
                                f"({board.hid(b)} holds none)")
    if stack.zoc and b not in board.declared:
        return Illegal("14.13", "a reacting unit with a zone goes next to the enemy only into a Defender Hex")
    return None


# -- terrain ----------------------------------------------------------------------------------------
def _tec(board: Board) -> Mapping[str, Mapping[str, Mapping[str, object]]]:
    return board.tables.tec  # type: ignore[return-value]


def hex_cost(board: Board, h: Hex) -> MP | None:
    """Off-road cost to enter ``h``: its terrain, woods on top, a settlement's + (10.72); None if no
    unit may enter it (10.77)."""
    tec = _tec(board)
    base, woods = board.terrain(h)
    row = tec["terrain"][base]
    if row.get("prohibited"):
        return None
    cost = MP(str(row["mp"]))
    if woods:
        cost += MP(str(tec["overlay"]["woods"]["mp_plus"]))  # 10.72: a "+" terrain
    town = board.settlement(h)
    if town:
        cost += MP(str(tec["settlement"][town]["mp_plus"]))
    return cost


def road_rate(board: Board, kind: str, h: Hex) -> MP:
    """The road cost into ``h`` (10.74): main road 1/2; minor road 1/2 into clear, 1 into other."""
    row = _tec(board)["hexside"][kind]
    return MP(str(row["mp_clear"] if board.is_clear(h) else row["mp_other"]))


def river_plus(board: Board, a: Hex, b: Hex) -> MP:
    kind = board.river(a, b)
    if kind is None:
        return MP(0)
    return MP(str(_tec(board)["hexside"][kind].get("mp_plus", 0)))


def _swamp_bars(board: Board, motor: bool, a: Hex | None, b: Hex) -> bool:
    """10.78: in Dry or Mud weather a motorized or orange unit enters or leaves swamp only by road."""
    if not motor or board.weather not in ("dry", "mud"):
        return False
    swampy = board.terrain(b)[0] == "swamp" or (a is not None and board.terrain(a)[0] == "swamp")
    return swampy and (a is None or board.road(a, b) is None)


def could_enter(board: Board, uid: str, a: Hex, b: Hex) -> bool:
    """Could ``uid`` in ``a`` enter the adjacent ``b`` by its terrain alone, enemy units aside
    (12.52): not a lake (10.77), not swamp off the road for a motorized unit (10.78)."""
    return hex_cost(board, b) is not None and not _swamp_bars(board, board.is_motorized(uid), a, b)


# -- the stack --------------------------------------------------------------------------------------
class Stack:
    """A moving stack: its units, side, the slowest allowance (10.53) and what limits its path."""

    def __init__(self, board: Board, units: Sequence[str], phase: str, mode: str,
                 spent: Mapping[str, MP] | None) -> None:
        self.units = tuple(units)
        self.side = board.side(units[0])
        self.phase = phase
        self.mode = mode
        self.motor = any(board.is_motorized(u) for u in units)  # 10.78: motorized or orange
        self.heavy = any(board.is_armor(u) or board.is_artillery(u) or board.is_orange(u) for u in units)
        left = []
        for u in units:
            mp = allowance(board, u, phase, mode)
            assert not isinstance(mp, Illegal)
            left.append(mp - MP((spent or {}).get(u, 0)))
        self.left = min(left)  # 10.53: the slowest unit's MA
        self.fresh = all(not (spent or {}).get(u, 0) for u in units)
        self.zoc = any(board.own_zoc(u) and board.is_combat(u) for u in units)  # 3.42


def stack_for(board: Board, units: Sequence[str], phase: str, mode: str = NORMAL,
              spent: Mapping[str, MP] | None = None) -> tuple[Stack, Hex] | Illegal:
    """The stack about to move, or why it may not (10.4, 10.52, 10.53)."""
    if mode not in MODES:
        return Illegal("10.4", f"'{mode}' is not a kind of movement")
    if not units:
        return Illegal("10.4", "choose at least one unit to move")
    if len(set(units)) != len(units):
        return Illegal("10.53", "a unit is listed twice")
    starts = set()
    for uid in units:
        if uid not in board.units:
            return Illegal("10.4", f"no counter {uid}")
        if uid in board.hex_of:
            starts.add(board.hex_of[uid])
        else:
            starts.add(None)
        mp = allowance(board, uid, phase, mode)
        if isinstance(mp, Illegal):
            return mp
    if len({board.side(u) for u in units}) != 1:
        return Illegal("10.53", "a stack is units of one side")
    if len(starts) != 1:
        return Illegal("10.53", "units moving together must start in the same hex")
    start = starts.pop()
    return Stack(board, units, phase, mode, spent), start  # type: ignore[return-value]


def _ezoc(board: Board, stack: Stack, h: Hex) -> bool:
    return in_enemy_zoc(board, h, stack.side)


def path_cost(board: Board, units: Sequence[str], path: Sequence[Hex | str], phase: str,
              mode: str = NORMAL, spent: Mapping[str, MP] | None = None, enter: bool = False) -> MP | Illegal:
    """The MP the stack spends along ``path``, or the first rule the path breaks.

    ``path`` starts at the stack's hex (or, with ``enter``, at the map-edge hex a reinforcement
    comes in by, whose cost it pays, 8.12).  ``spent``: MP each unit already spent this phase.
    One-hex movement and infiltration return the whole allowance: nothing is left (10.64).
    """
    got = stack_for(board, units, phase, mode, spent)
    if isinstance(got, Illegal):
        return got
    stack, start = got
    hexes = [board.parse(h) if isinstance(h, str) else h for h in path]
    if not hexes:
        return Illegal("10.4", "a path names at least one hex")
    if enter:
        if start is not None:
            return Illegal("8.12", "these units are already on the map")
        if not board.on_map(hexes[0]) or not board.gmap.edges_of(hexes[0]):
            return Illegal("8.12", f"{hexes[0]} is not a map-edge hex")
    elif start is None:
        return Illegal("10.4", "these units are not on the map")
    elif hexes[0] != start:
        return Illegal("10.4", f"the path must begin where the stack stands ({board.hid(start)})")
    if mode in (ONE_HEX, INFILTRATION):
        if enter or len(hexes) != 2:
            return Illegal("11.91" if mode == ONE_HEX else "11.51", "this movement is one hex into an adjacent hex")
        return _one_step_move(board, stack, hexes[0], hexes[1])
    if mode == STRATEGIC:
        bad = _strategic_bars(board, stack, hexes, enter)
        if bad is not None:
            return bad
    total = MP(0)
    legs = list(zip(hexes, hexes[1:]))
    if enter:  # 8.12: the entry hex is paid as if entered from off the map
        first = _enter_cost(board, stack, None, hexes[0], hexes[1] if len(hexes) > 1 else None)
        if isinstance(first, Illegal):
            return first
        total += first
        if _ezoc(board, stack, hexes[0]):
            if len(hexes) > 1:  # 10.65
                return Illegal("10.65", f"{board.hid(hexes[0])} is in an enemy zone: the units stop there")
            if mode == STRATEGIC:  # 10.63a
                return Illegal("10.63", "strategic movement never enters an enemy zone")
            total += MP(str(board.tables.tec["enemy_zoc_mp"]))  # 10.64
    for i, (a, b) in enumerate(legs):
        nxt = hexes[i + 2] if i + 2 < len(hexes) else None
        prev_zoc = _ezoc(board, stack, a)
        if (i > 0 or enter) and prev_zoc:  # 10.65
            return Illegal("10.65", f"{board.hid(a)} is in an enemy zone: the units stop there")
        step = _enter_cost(board, stack, a, b, nxt)
        if isinstance(step, Illegal):
            return step
        bar = _reaction_into(board, stack, b)
        if bar is not None:
            return bar
        total += step
        if _ezoc(board, stack, b):
            if prev_zoc:  # 10.66
                return Illegal("10.66", f"{board.hid(a)} and {board.hid(b)} are both in enemy zones: only "
                                        "infiltration goes straight from one to the other")
            if mode == STRATEGIC:  # 10.63a
                return Illegal("10.63", "strategic movement never enters an enemy zone")
            if stack.phase == REACTION:  # 10.63c, 10.64 exception one
                if not board.friendly_combat_in(b, stack.side):
                    return Illegal("10.63", f"a reacting unit enters an enemy zone only where friendly "
                                            f"combat units stand ({board.hid(b)} has none)")
            else:
                total += MP(str(board.tables.tec["enemy_zoc_mp"]))  # 10.64
    if total > stack.left:
        return Illegal("10.52", f"the path costs {fmt(total)} MP and the stack has {fmt(stack.left)}"
                       + (" (one-hex movement may still take it one hex, 11.9)" if len(legs) == 1 and stack.fresh
                          else ""))
    return total


def _enter_cost(board: Board, stack: Stack, a: Hex | None, b: Hex, nxt: Hex | None) -> MP | Illegal:
    """The MP to enter ``b`` from ``a`` (None: from off the map) on the way to ``nxt`` (10.7)."""
    where = board.hid(b)
    if not board.on_map(b):
        return Illegal("10.55", "no unit moves off the map")
    if a is not None and b not in board.gmap.neighbours(a):
        return Illegal("10.4", f"{board.hid(a)} and {where} are not adjacent")
    owner = board.owner(b)
    if owner is not None and owner != stack.side:  # 10.54
        return Illegal("10.54", f"{where} holds enemy units: only an overrun attacks them on the move")
    base = hex_cost(board, b)
    if base is None:  # 10.77
        return Illegal("10.77", f"{where} is a lake: no unit enters it")
    if _swamp_bars(board, stack.motor, a, b) or (nxt is not None and _swamp_bars(board, stack.motor, b, nxt)):
        return Illegal("10.78", "motorized units enter and leave swamp only along a road in this weather")
    road_in = board.road(a, b) if a is not None else _exit_road(board, b)
    road_out = board.road(b, nxt) if nxt is not None else None
    if a is not None and board.river(a, b) == "major_river" and road_in is None:
        return Illegal("10.76", "an unbridged major river is crossed only by spending a whole MA from the "
                                "adjacent hex at the start of the Movement phase")
    if stack.mode == STRATEGIC:
        if road_in is None:  # 11.34
            return Illegal("11.34", "strategic movement keeps to roads")
        return road_rate(board, road_in, b)
    if road_in is not None and (nxt is None or road_out is not None):
        return road_rate(board, road_in, b)  # 10.74
    cost = base
    if a is not None and road_in is None:
        cost += river_plus(board, a, b)  # 10.72; road entry spares the river (10.74 exception)
    return cost


def _exit_road(board: Board, h: Hex) -> str | None:
    """The road a reinforcement comes in by at a road exit hex (8.12, map.toml road_exits)."""
    if h not in board.gmap.road_exits:
        return None
    kinds = [board.road(h, n) for n in board.gmap.neighbours(h)]
    return "main_road" if "main_road" in kinds else ("minor_road" if "minor_road" in kinds else None)


def _strategic_bars(board: Board, stack: Stack, hexes: Sequence[Hex], enter: bool) -> Illegal | None:
    """11.32-11.34 for the whole path."""
    first = hexes[0]
    if not enter and not any(board.road(first, n) for n in board.gmap.neighbours(first)):
        return Illegal("11.32", f"strategic movement begins on a road hex ({board.hid(first)} is not one)")
    enemies = [h for h, ids in board.occupied().items() if any(board.side(u) != stack.side and board.is_combat(u)
                                                                 for u in ids)]
    for h in hexes:
        if h in board.interdicted:  # 11.32e, 13.23
            return Illegal("13.23", f"{board.hid(h)} is in a Zone of Interdiction: no strategic movement")
        near = min((h.distance(e) for e in enemies), default=99)
        if near < STRATEGIC_DISTANCE:  # 11.32d
            return Illegal("11.32", f"{board.hid(h)} is {near} hex(es) from an enemy combat unit; strategic "
                                    f"movement keeps {STRATEGIC_DISTANCE} away")
    if not board.supply_disregarded:
        for u in stack.units:
            if u in board.out_of_supply:  # 11.32c
                return Illegal("11.32", f"{u} is not in General Supply")
    return None


def _one_step_move(board: Board, stack: Stack, a: Hex, b: Hex) -> MP | Illegal:
    """One-hex movement (11.9) or infiltration (11.5): one hex for the whole allowance."""
    if not stack.fresh:  # 11.91, 11.54: nothing spent before (in this phase: docs/rulings.md)
        return Illegal("11.91" if stack.mode == ONE_HEX else "11.54",
                       "the units have already spent MP this phase")
    step = _enter_cost(board, stack, a, b, None)
    if isinstance(step, Illegal):
        if step.case != "10.76":
            return step
        # 10.76c: across an unbridged major river, from the start of the Movement phase
        if stack.phase != MOVEMENT or stack.heavy:
            return Illegal("10.76", "only a non-armoured, non-artillery unit crosses an unbridged major river, "
                                    "in the Movement phase")
    zoc_a, zoc_b = _ezoc(board, stack, a), _ezoc(board, stack, b)
    if stack.mode == INFILTRATION:
        return _infiltration_bars(board, stack, a, b, zoc_a, zoc_b) or stack.left
    if zoc_a and zoc_b and not all(_may_infiltrate(board, u, stack.phase) for u in stack.units):  # 11.92
        return Illegal("11.92", "one-hex movement does not go from one enemy zone into another")
    if stack.motor and not board.supply_disregarded and any(u in board.out_of_supply for u in stack.units):
        return Illegal("11.94", "an Out of Supply motorized unit may not use one-hex movement")
    bar = _reaction_into(board, stack, b)
    if bar is not None:
        return bar
    if stack.phase == REACTION and zoc_b and not board.friendly_combat_in(b, stack.side):
        return Illegal("10.63", "a reacting unit enters an enemy zone only where friendly combat units stand")
    return stack.left  # 10.64 exception two: the whole MA pays for the hex


def _may_infiltrate(board: Board, uid: str, phase: str) -> bool:
    """11.52-11.53: a yellow MA, in the phase the unit spends its whole MA in."""
    if not yellow_ma(board, uid) or board.weather in MUD:
        return False
    if board.is_cavalry(uid):
        return phase == MOVEMENT  # 11.53a
    return phase == (MOVEMENT if board.side(uid) == AXIS else MOTORIZED)  # 11.53a-b


def _infiltration_bars(board: Board, stack: Stack, a: Hex, b: Hex, zoc_a: bool, zoc_b: bool) -> Illegal | None:
    for u in stack.units:
        if not yellow_ma(board, u):  # 11.52
            return Illegal("11.52", f"{u} has no yellow MA: it cannot infiltrate")
        if not _may_infiltrate(board, u, stack.phase):  # 11.53, 11.56
            return Illegal("11.53", f"{u} does not infiltrate in this phase or weather")
        if board.is_cavalry(u) and (board.is_clear(a) or board.is_clear(b)):  # 11.52b
            return Illegal("11.52", "cavalry infiltrates only from a non-clear hex into a non-clear hex")
        if u in board.out_of_supply and not board.supply_disregarded:  # 11.54
            return Illegal("11.54", f"{u} is Out of Supply")
    adjacent_enemy = any(board.owner(n) not in (None, stack.side) for n in board.gmap.neighbours(a))
    if not (zoc_a and adjacent_enemy):  # 11.55
        return Illegal("11.55", "infiltration begins in an enemy zone, next to an enemy unit")
    if not zoc_b:
        return Illegal("11.51", "infiltration goes into another enemy zone; plain movement does the rest")
    return None


# -- search -----------------------------------------------------------------------------------------
def reachable(board: Board, units: Sequence[str], phase: str, mode: str = NORMAL,
              spent: Mapping[str, MP] | None = None, entry: Hex | None = None) -> dict[Hex, Reach]:
    """Every hex the stack may end its move in, with the cheapest cost and path (10.4-10.7, 11).

    With ``entry`` the units are reinforcements coming in at that map-edge hex (8.12).  In normal
    movement the hexes only one-hex movement reaches are added with the whole allowance as cost
    and case 11.9.  Returns {} when the stack may not move at all.
    """
    key = ("reach", tuple(sorted(units)), phase, mode, tuple(sorted((spent or {}).items())), entry)
    hit = board.memo.get(key)
    if hit is not None:
        return dict(hit)  # type: ignore[call-overload]
    got = stack_for(board, units, phase, mode, spent)
    out: dict[Hex, Reach] = {}
    if isinstance(got, Illegal):
        board.memo[key] = out
        return out
    stack, start = got
    if mode in (ONE_HEX, INFILTRATION):
        if start is not None:
            for n in board.gmap.neighbours(start):
                c = path_cost(board, units, (start, n), phase, mode, spent)
                if not isinstance(c, Illegal):
                    out[n] = Reach(float(c), (board.hid(start), board.hid(n)), "11.9" if mode == ONE_HEX else "11.5")
        board.memo[key] = out
        return out
    origin = entry if start is None else start
    if origin is None:
        return out
    found = _search(board, stack, origin, entered=start is None)
    for h, (cost, path) in found.items():
        out[h] = Reach(float(cost), tuple(board.hid(p) for p in path))
    if mode == NORMAL and start is not None and stack.fresh:  # 11.9
        for n in board.gmap.neighbours(start):
            if n in out:
                continue
            c = path_cost(board, units, (start, n), phase, ONE_HEX, spent)
            if not isinstance(c, Illegal):
                out[n] = Reach(float(c), (board.hid(start), board.hid(n)), "11.9", "one-hex movement")
    out.pop(start, None) if start is not None else None
    board.memo[key] = out
    return dict(out)


def _search(board: Board, stack: Stack, origin: Hex, entered: bool) -> dict[Hex, tuple[MP, tuple[Hex, ...]]]:
    """Dijkstra over (hex, road it was entered by): a hex entered by road is charged the road rate,
    and leaving it off the road adds what the hex costs off the road (10.74, fourth example)."""
    zoc_mp = MP(str(board.tables.tec["enemy_zoc_mp"]))
    best: dict[Hex, tuple[MP, tuple[Hex, ...]]] = {}
    seen: dict[tuple[Hex, str | None], MP] = {}
    heap: list[tuple[MP, int, Hex, str | None, tuple[Hex, ...]]] = []
    tick = 0
    if entered:
        c = _enter_cost(board, stack, None, origin, None)
        if isinstance(c, Illegal):
            return best
        road = _exit_road(board, origin)
        stop = _ezoc(board, stack, origin)
        if stop:
            if stack.mode == STRATEGIC:  # 10.63a
                return best
            c += zoc_mp  # 10.64
        if c <= stack.left and (stack.mode != STRATEGIC or _strategic_bars(board, stack, [origin], True) is None):
            best[origin] = (c, (origin,))
        if stop:
            return best
        heapq.heappush(heap, (c, tick, origin, road, (origin,)))
    else:
        heapq.heappush(heap, (MP(0), tick, origin, None, (origin,)))
        if stack.mode == STRATEGIC and _strategic_bars(board, stack, [origin], False) is not None:
            return best
    while heap:
        cost, _, a, road_in, path = heapq.heappop(heap)
        if seen.get((a, road_in), None) is not None and seen[(a, road_in)] <= cost:
            continue
        seen[(a, road_in)] = cost
        zoc_a = _ezoc(board, stack, a)
        if len(path) > 1 and zoc_a:
            continue  # 10.65: stopped
        for b in board.gmap.neighbours(a):
            if b in path:
                continue
            step = _leg(board, stack, path, a, road_in, b)
            if step is None or _reaction_into(board, stack, b) is not None:
                continue
            extra, road_b = step
            c = cost + extra
            zoc_b = _ezoc(board, stack, b)
            if zoc_b:
                if zoc_a or stack.mode == STRATEGIC:  # 10.66, 10.63a
                    continue
                if stack.phase == REACTION:
                    if not board.friendly_combat_in(b, stack.side):  # 10.63c
                        continue
                else:
                    c += zoc_mp  # 10.64
            if c > stack.left:
                continue
            if stack.mode == STRATEGIC and _strategic_bars(board, stack, [b], True) is not None:
                continue
            new_path = path + (b,)
            if b not in best or c < best[b][0]:
                best[b] = (c, new_path)
            tick += 1
            heapq.heappush(heap, (c, tick, b, road_b, new_path))
    return best


def _leg(board: Board, stack: Stack, path: tuple[Hex, ...], a: Hex, road_in: str | None,
         b: Hex) -> tuple[MP, str | None] | None:
    """The MP of going a -> b, with the correction for ``a`` if it was entered by road and is now
    left off the road, and the road ``b`` is entered by (None: off-road); None if barred."""
    fix = MP(0)
    if road_in is not None and board.road(a, b) is None:
        off = hex_cost(board, a)  # 10.74: a's off-road cost, the river still spared
        if off is None:
            return None
        fix = off - road_rate(board, road_in, a)
    c = _enter_cost(board, stack, a, b, None)
    if isinstance(c, Illegal):
        return None
    return c + fix, board.road(a, b)


def fmt(mp: MP | float) -> str:
    """2.5 -> '2 1/2', the way the play book writes MPs."""
    f = MP(mp).limit_denominator(4)
    whole, rest = divmod(f, 1)
    if not rest:
        return str(int(whole))
    return f"{int(whole)} {rest.numerator}/{rest.denominator}" if whole else f"{rest.numerator}/{rest.denominator}"
