"""Replacements (9.2, 9.21, 9.22, 12.5, 12.8, 12.11): the points a side has each turn and what they
buy.

Points come from the loss markers (9.21: one for every 4 German, or 5 Soviet infantry, steps
eliminated), the campaign pools (9.22: German 5 infantry at most 2 a turn and 3 motorized one a
turn, 7 FjD traded for one more, 12.5; the Finnish and Romanian single step from turn 3) and the
Soviet complement (9.22, by turn and cities held).  They buy, one step per unit per turn:

* ``replenish`` a reduced unit on the spot (9.2: in supply, on or next to a friendly rail hex,
  German units within 20 rail hexes of the border; an enemy zone does not matter);
* ``rebuild`` an eliminated Soviet army that may return (units.toml ``rebuild = "any_city"``: the
  4-2-3 armies) with one step in a city the Soviet side holds (9.2);
* ``ersatz``: a 3-3-3 ersatz corps for a German corps destroyed, entering as a German
  reinforcement (9.2, 9.1);
* ``mobile_group``: a cavalry corps or a named mobile group flipped to its motorized face for a
  motorized point (12.11);
* ``shock``: a shock army in place of a full-strength army, one a turn from turn 7, for an
  infantry point (12.11);
* ``trade_fjd``: 7 FjD given up for one more German infantry step (12.5).

Everything is a pure function of a ``Board`` and a ``ReplaceContext`` the rule system fills.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941 import stacking
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.board import CAVALRY_TYPES, Board
from kiev_tui.games.barbarossa1941.reinforcements import ENTRY, Arrival, campaign, cities_held, entry_hexes, held_by
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.tables import Campaign, Tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

CASE = "9.2"
INFANTRY, MOTORIZED, FINNISH, ROMANIAN = "infantry", "motorized", "finnish", "romanian"
#: The loss markers of 9.21.
GERMAN_INFANTRY, GERMAN_MOTORIZED, SOVIET_INFANTRY = "german_infantry", "german_motorized", "soviet_infantry"
TRACKS = (GERMAN_INFANTRY, GERMAN_MOTORIZED, SOVIET_INFANTRY)
#: What a replacement point may buy.
REPLENISH, REBUILD, ERSATZ, MOBILE_GROUP, SHOCK, TRADE_FJD = (
    "replenish", "rebuild", "ersatz", "mobile_group", "shock", "trade_fjd")
FJD = "ge-fjd-7"


# -- the loss markers (9.21) ----------------------------------------------------------------------


def track_of(board: Board, uid: str, isolated_or_surrounded: bool = False,
             camp: Campaign | None = None) -> str | None:
    """The loss marker a step of ``uid`` destroyed in combat moves, or None (9.21, 9.22).

    Not counted: a unit isolated or surrounded by enemy zones as it dies; cavalry (and mobile
    groups), militia, airborne and forts (9.22); counters worth no step; the minor allies' and
    the Soviet motorized units' losses (9.21 names German infantry and motorized, Soviet infantry).
    """
    c = campaign(camp).replace
    u = board.udef(uid)
    if isolated_or_surrounded or not board.is_formation(uid) or bu.loss_steps(u) == 0:
        return None
    if u.type in board.tables.replacements.not_counted or u.type in CAVALRY_TYPES:
        return None
    motorized = bu.is_motorized(u, board.step(uid))
    if u.side == SOVIET:
        return SOVIET_INFANTRY if (not motorized or c.soviet_motorized_track) else None
    if board.nation(uid) != "german" and not c.allied_track:
        return None
    return GERMAN_MOTORIZED if motorized else GERMAN_INFANTRY


def convert(tables: Tables, track: str, steps: int) -> tuple[int, int]:
    """(points, marker left) for a marker on ``steps`` (9.21): 7 Soviet steps give 1, leaving 2."""
    r = tables.replacements
    ratio = {GERMAN_INFANTRY: r.german_infantry_ratio, GERMAN_MOTORIZED: r.german_motorized_ratio,
             SOVIET_INFANTRY: r.soviet_infantry_ratio}[track]
    return steps // ratio, steps % ratio


# -- the points of a phase --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pools:
    """What is left of the campaign's fixed points (9.22, 12.5, 17.1)."""

    german_infantry: int
    german_motorized: int
    finnish: int
    romanian: int


def start_pools(tables: Tables, params: Mapping[str, Any] | None = None) -> Pools:
    """The pools at the start: 9.22's, or the scenario's (17.1: Typhoon's infantry 2, motorized 0,
    allies 0; its [scenario] replacement_points)."""
    r = tables.replacements
    rp = dict((params or {}).get("replacement_points", {}))
    allies = rp.get("axis_allies")
    return Pools(int(rp.get("axis_infantry", r.german_infantry_pool)), int(rp.get("axis_motorized", r.german_motorized_pool)),
                 int(allies if allies is not None else r.finnish_pool), int(allies if allies is not None else r.romanian_pool))


@dataclass(frozen=True, slots=True)
class Budget:
    """A side's replacement points for one phase, and where each comes from (9.21, 9.22)."""

    side: str
    turn: int
    base_infantry: int  # from the loss markers
    base_motorized: int
    complement_infantry: int  # Soviet, 9.22
    complement_motorized: int
    pool_infantry: int  # German campaign steps usable this turn (at most 2, 9.22)
    pool_motorized: int  # at most 1
    finnish: int  # from turn 3, once in the campaign
    romanian: int
    tracks: Mapping[str, int] = field(default_factory=dict)  # the markers once converted
    lines: tuple[str, ...] = ()

    @property
    def infantry(self) -> int:
        return self.base_infantry + self.complement_infantry + self.pool_infantry

    @property
    def motorized(self) -> int:
        return self.base_motorized + self.complement_motorized + self.pool_motorized

    def left(self, kind: str) -> int:
        return {INFANTRY: self.infantry, MOTORIZED: self.motorized, FINNISH: self.finnish,
                ROMANIAN: self.romanian}[kind]


def soviet_cities(board: Board, control: Mapping[Hex, str], isolated: Iterable[Hex] = ()) -> int:
    """Soviet major cities held and not cut off (9.22's count): major cities of the USSR the Soviet
    side holds, less those the supply rules find isolated."""
    cut = set(isolated)
    ussr = board.gmap.areas["ussr"].hexes if "ussr" in board.gmap.areas else frozenset()
    return sum(1 for h in cities_held(board, control, SOVIET, major_only=True) if h in ussr and h not in cut)


def motorized_cities(board: Board, control: Mapping[Hex, str], camp: Campaign | None = None) -> int:
    """How many of Leningrad and Kharkov the Soviet side holds (9.22)."""
    names = campaign(camp).replace.motorized_cities
    hexes = [board.gmap.find(n) for n in names]
    return sum(1 for h in hexes if h is not None and held_by(board, control, h) == SOVIET)


def budget(tables: Tables, side: str, turn: int, tracks: Mapping[str, int], pools: Pools,
           cities: int = 0, motorized_held: int = 0) -> Budget:
    """The points ``side`` may spend in its replacement phase of ``turn`` (9.21, 9.22, 12.8).

    ``tracks``: the loss markers; ``pools``: the campaign pools left; ``cities``: Soviet non-isolated
    major cities (``soviet_cities``); ``motorized_held``: of Leningrad and Kharkov
    (``motorized_cities``).  Points not spent in the phase are lost (the markers moved anyway).
    """
    r = tables.replacements
    new = dict(tracks)
    lines: list[str] = []
    if side == AXIS:
        if turn < 2:  # 2.1: the Axis replacement phase starts on turn 2
            return Budget(side, turn, 0, 0, 0, 0, 0, 0, 0, 0, new, ("no Axis replacements on turn 1 (2.1)",))
        inf, new[GERMAN_INFANTRY] = convert(tables, GERMAN_INFANTRY, tracks.get(GERMAN_INFANTRY, 0))
        mot, new[GERMAN_MOTORIZED] = convert(tables, GERMAN_MOTORIZED, tracks.get(GERMAN_MOTORIZED, 0))
        lines.append(f"loss markers: {inf} infantry, {mot} motorized (9.21)")
        p_inf = min(r.german_infantry_per_turn, pools.german_infantry)
        p_mot = min(r.german_motorized_per_turn, pools.german_motorized)
        lines.append(f"campaign steps usable: {p_inf} infantry, {p_mot} motorized (9.22)")
        fin = pools.finnish if turn >= r.finnish_from_turn else 0
        rom = pools.romanian if turn >= r.romanian_from_turn else 0
        return Budget(side, turn, inf, mot, 0, 0, p_inf, p_mot, fin, rom, new, tuple(lines))
    inf, new[SOVIET_INFANTRY] = convert(tables, SOVIET_INFANTRY, tracks.get(SOVIET_INFANTRY, 0))
    if turn == 1 and inf > r.soviet_turn1_max:  # 12.8: base points only, at most 2
        lines.append(f"turn 1: {inf} base steps cut to {r.soviet_turn1_max} (12.8)")
        inf = r.soviet_turn1_max
    lines.append(f"loss marker: {inf} infantry (9.21)")
    c_inf = c_mot = 0
    if turn > 1:  # 12.8: no complement on turn 1
        c_inf = r.soviet_complement(r.soviet_infantry, turn, cities)
        c_mot = r.soviet_complement(r.soviet_motorized, turn, motorized_held)
        lines.append(f"complement: {c_inf} infantry with {cities} major cities, {c_mot} motorized with "
                     f"{motorized_held} of Leningrad and Kharkov (9.22)")
    return Budget(side, turn, inf, 0, c_inf, c_mot, 0, 0, 0, 0, new, tuple(lines))


def spend(b: Budget, kind: str, pools: Pools) -> tuple[Budget, Pools]:
    """Take one point of ``kind`` (base and complement first, the campaign pool last)."""
    if kind in (FINNISH, ROMANIAN):
        return dataclasses.replace(b, **{kind: getattr(b, kind) - 1}), dataclasses.replace(pools, **{kind: getattr(pools, kind) - 1})
    for name in (f"base_{kind}", f"complement_{kind}"):
        if getattr(b, name) > 0:
            return dataclasses.replace(b, **{name: getattr(b, name) - 1}), pools
    name = f"pool_{kind}"
    pool = f"german_{kind}"
    return dataclasses.replace(b, **{name: getattr(b, name) - 1}), dataclasses.replace(pools, **{pool: getattr(pools, pool) - 1})


# -- what the points buy ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replace:
    """One replacement: ``kind`` for ``uid`` (on ``hex`` for a rebuild, ersatz or shock army;
    ``target``: the army a shock army replaces, the corps an ersatz stands for)."""

    kind: str
    uid: str
    hex: Hex | None = None
    target: str = ""


@dataclass(frozen=True, slots=True)
class ReplaceContext:
    """What the rule system knows that the board does not (8, 9.2, 10.2, 12.11)."""

    side: str
    budget: Budget
    control: Mapping[Hex, str] = field(default_factory=dict)
    supplied: frozenset[str] = frozenset()  # units in supply (8)
    friendly_rail: frozenset[Hex] = frozenset()  # the side's rail net (10.2)
    rail_to_border: Mapping[str, int] = field(default_factory=dict)  # German units: rail hexes (9.2, 12.7)
    eliminated: frozenset[str] = frozenset()  # units destroyed and off the map
    done: frozenset[str] = frozenset()  # units that had their step this turn
    ersatz_for: frozenset[str] = frozenset()  # German corps already replaced by an ersatz
    ersatz_free: tuple[str, ...] = ()  # ersatz counters still off the map and never used (9.2)
    shocks_available: tuple[str, ...] = ()  # shock armies the calendar has made available (15.3)
    shocks_this_turn: int = 0
    entered: Mapping[Hex, int] = field(default_factory=dict)  # 9.1 entries this turn
    fjd_available: bool = False  # 7 FjD in hand and not dropped (12.5)


def point_kind(board: Board, uid: str) -> str | None:
    """The point a step for ``uid`` costs: its nation's own for Finns and Romanians, none for the
    Italians, Slovaks and Hungarians (9.22); motorized for a unit motorized on its full face."""
    nat = board.nation(uid)
    if nat in (FINNISH, ROMANIAN):
        return nat
    if nat in ("italian", "slovak", "hungarian"):
        return None
    return MOTORIZED if bu.is_motorized(board.udef(uid), 0) else INFANTRY


def _near_rail(board: Board, h: Hex, rail: frozenset[Hex]) -> bool:
    return h in rail or any(n in rail for n in board.gmap.neighbours(h))


def _conditions(board: Board, uid: str, ctx: ReplaceContext, camp: Campaign) -> Illegal | None:
    """9.2's conditions on a unit on the map taking a step: supply, rail, one a turn, stacking."""
    r = board.tables.replacements
    if uid in ctx.done:
        return Illegal(CASE, f"{uid} has had its replacement step this turn")
    if uid not in ctx.supplied:
        return Illegal(CASE, f"{uid} is out of supply")
    h = board.hex_of[uid]
    if camp.replace.rail_adjacent and not _near_rail(board, h, ctx.friendly_rail):
        return Illegal(CASE, f"{uid} is neither on nor next to a friendly rail hex")
    if board.nation(uid) == "german":
        reach = ctx.rail_to_border.get(uid)
        if reach is None or reach > r.rail_hexes_german:
            return Illegal(CASE, f"{uid} is more than {r.rail_hexes_german} rail hexes from the border")
    return stacking.check_hex(board, h, extra_points=1)


def _pay(b: Budget, kind: str | None, uid: str) -> Illegal | None:
    if kind is None:
        return Illegal("9.22", f"{uid}'s nation receives no replacements")
    if b.left(kind) < 1:
        return Illegal("9.22", f"no {kind} replacement point left this turn")
    return None


def check_replace(board: Board, action: Replace, ctx: ReplaceContext, camp: Campaign | None = None) -> Illegal | None:
    """Why ``action`` is refused, or None (9.2, 9.22, 12.5, 12.11)."""
    c = campaign(camp)
    uid = action.uid
    if uid not in board.units:
        return Illegal(CASE, f"no unit {uid}")
    if board.side(uid) != ctx.side:
        return Illegal(CASE, f"{uid} is not a {ctx.side} unit")
    u = board.udef(uid)
    if action.kind == TRADE_FJD:
        if uid != FJD or ctx.side != AXIS or not ctx.fjd_available:
            return Illegal("12.5", "only the 7 FjD, in hand and not dropped, can be traded for a step")
        return None
    if action.kind == REPLENISH:
        if uid not in board.hex_of:
            return Illegal(CASE, f"{uid} is not on the map")
        if board.step(uid) == 0:
            return Illegal(CASE, f"{uid} has lost no step")
        if u.extra.get("motorized_by_step") is not None:
            return Illegal("12.11", f"{uid} gains a step only by turning into a mobile group")
        if u.extra.get("replenish") is False:
            return Illegal(CASE, f"{uid} can never be brought back up to strength")
        return _conditions(board, uid, ctx, c) or _pay(ctx.budget, point_kind(board, uid), uid)
    if action.kind == MOBILE_GROUP:  # 12.11
        if uid not in board.hex_of:
            return Illegal("12.11", f"{uid} is not on the map")
        by_step = u.extra.get("motorized_by_step")
        if by_step is None or u.type not in CAVALRY_TYPES:
            return Illegal("12.11", f"{uid} is no cavalry corps or mobile group")
        if board.step(uid) == 0:
            return Illegal("12.11", f"{uid} already shows its mobile-group side")
        return _conditions(board, uid, ctx, c) or _pay(ctx.budget, MOTORIZED, uid)
    if action.kind == REBUILD:  # 9.2: Soviet armies that may return, one step, in a city held
        if u.extra.get("rebuild") == "ersatz":  # 9.2: a German corps never returns; an ersatz may
            return Illegal(CASE, f"{uid} never comes back once destroyed: an ersatz corps may take its place")
        if ctx.side != SOVIET or u.extra.get("rebuild") != "any_city":
            return Illegal(CASE, f"{uid} never comes back once eliminated (only the 4-2-3 armies do)")
        if uid not in ctx.eliminated or uid in board.hex_of:
            return Illegal(CASE, f"{uid} has not been eliminated")
        if action.hex is None or action.hex not in rebuild_hexes(board, uid, ctx):
            where = board.gmap.grid.id(action.hex) if action.hex else "nowhere"
            return Illegal(CASE, f"{uid} returns in a city the Soviet side holds with room for it, not {where}")
        return _pay(ctx.budget, INFANTRY, uid)
    if action.kind == ERSATZ:  # 9.2: a German corps is replaced by a 3-3-3 ersatz corps
        corps = action.target
        if ctx.side != AXIS or corps not in board.units or board.udef(corps).extra.get("rebuild") != "ersatz":
            return Illegal(CASE, f"an ersatz corps stands in only for a destroyed German infantry, security, "
                                 f"mountain or panzer corps; {corps or 'no unit'} is none")
        if corps not in ctx.eliminated or corps in board.hex_of:
            return Illegal(CASE, f"{corps} has not been destroyed")
        if corps in ctx.ersatz_for:
            return Illegal(CASE, f"{corps} has already been replaced by an ersatz corps")
        if not bu.is_ersatz(u):
            return Illegal(CASE, f"{uid} is no ersatz corps counter")
        if uid not in ctx.ersatz_free:  # 9.2: a counter used once is gone, on the map or destroyed
            return Illegal(CASE, f"{uid} is not free: no unused ersatz counter by that name is left"
                           if ctx.ersatz_free else "no ersatz corps counter is left")
        if action.hex is None or action.hex not in ersatz_hexes(board, uid, ctx, c):
            return Illegal("9.1", "an ersatz corps enters as a German reinforcement, one a turn in each entry city")
        return _pay(ctx.budget, INFANTRY, uid)
    if action.kind == SHOCK:  # 12.11
        r = c.replace
        if ctx.side != SOVIET or u.type != "shock_army" or uid not in ctx.shocks_available:
            return Illegal("12.11", f"{uid} is no shock army available this turn")
        if ctx.budget.turn < r.shock_from_turn:
            return Illegal("12.11", f"shock armies are formed from turn {r.shock_from_turn}")
        if ctx.shocks_this_turn >= r.shock_per_turn:
            return Illegal("12.11", f"{r.shock_per_turn} shock army a turn")
        army = action.target
        if army not in board.hex_of or board.side(army) != SOVIET or board.udef(army).type != "army":
            return Illegal("12.11", "a shock army takes the place of a Soviet army on the map")
        if r.shock_replaces_full_army and board.step(army) != 0:
            return Illegal("12.11", f"{army} has lost a step: a shock army replaces a full two-step army")
        h = board.hex_of[army]
        bad = stacking.check_hex(board, h, adding=[uid], leaving=[army])
        if bad is not None:
            return bad
        return _pay(ctx.budget, INFANTRY, uid)
    return Illegal(CASE, f"'{action.kind}' is not a replacement")


def rebuild_hexes(board: Board, uid: str, ctx: ReplaceContext) -> frozenset[Hex]:
    """Cities the Soviet side holds where ``uid`` fits on its one step (9.2, 3)."""
    one = _with_one_step(board, uid)  # built once: a Board is costly to make
    return frozenset(h for h in cities_held(board, ctx.control, SOVIET)
                     if stacking.check_hex(one, h, adding=[uid]) is None)


def _with_one_step(board: Board, uid: str) -> Board:
    """The board with ``uid`` counted at one step, as a rebuilt unit enters (9.2)."""
    lost = dict(board.lost)
    lost[uid] = rebuilt_lost(board, uid)
    return dataclasses.replace(board, lost=lost)


def rebuilt_lost(board: Board, uid: str) -> int:
    """Steps a rebuilt unit has lost as it comes back: all but 9.2's one."""
    return max(0, len(board.udef(uid).steps) - board.tables.replacements.rebuilt_steps)


def ersatz_hexes(board: Board, uid: str, ctx: ReplaceContext, camp: Campaign | None = None) -> frozenset[Hex]:
    """Where an ersatz corps ``uid`` (a counter the system has made, in ``board.units``) may enter:
    the German entry cities, one unit a turn each (9.1, 9.2)."""
    return entry_hexes(board, Arrival(uid, AXIS, ctx.budget.turn, ENTRY, (), "9.2", "rebuild"), ctx.control,
                       ctx.entered, camp=camp)


def options(board: Board, ctx: ReplaceContext, ersatz_uid: str = "", camp: Campaign | None = None) -> list[Replace]:
    """Every replacement the side may buy now, for the phase's prompt (9.2, 12.5, 12.11).

    ``ersatz_uid``: the ersatz counter a new ersatz corps would be (in ``board.units``); "" takes
    the first of ``ctx.ersatz_free``, none offering no ersatz corps.
    """
    out: list[Replace] = []
    ersatz_uid = ersatz_uid or (ctx.ersatz_free[0] if ctx.ersatz_free else "")
    for uid in sorted(board.hex_of):
        if board.side(uid) != ctx.side:
            continue
        for kind in (REPLENISH, MOBILE_GROUP):
            a = Replace(kind, uid)
            if check_replace(board, a, ctx, camp) is None:
                out.append(a)
    for uid in sorted(ctx.eliminated):
        if uid in board.units and board.side(uid) == ctx.side == SOVIET:
            for h in sorted(rebuild_hexes(board, uid, ctx)):
                a = Replace(REBUILD, uid, h)
                if check_replace(board, a, ctx, camp) is None:
                    out.append(a)
        elif ersatz_uid and uid in board.units and board.side(uid) == ctx.side == AXIS:
            for h in sorted(ersatz_hexes(board, ersatz_uid, ctx, camp)):
                a = Replace(ERSATZ, ersatz_uid, h, uid)
                if check_replace(board, a, ctx, camp) is None:
                    out.append(a)
    for shock in ctx.shocks_available:
        for army in sorted(u for u in board.hex_of if board.side(u) == SOVIET and board.udef(u).type == "army"):
            a = Replace(SHOCK, shock, board.hex_of[army], army)
            if check_replace(board, a, ctx, camp) is None:
                out.append(a)
    if check_replace(board, Replace(TRADE_FJD, FJD), ctx, camp) is None:
        out.append(Replace(TRADE_FJD, FJD))
    return out


def cost(board: Board, action: Replace) -> str | None:
    """The point ``action`` spends (for ``spend``); None for the 7 FjD trade, which adds one."""
    if action.kind == TRADE_FJD:
        return None
    if action.kind == MOBILE_GROUP:
        return MOTORIZED
    if action.kind in (REBUILD, ERSATZ, SHOCK):
        return INFANTRY
    return point_kind(board, action.uid)


def trade_fjd(tables: Tables, pools: Pools) -> Pools:
    """12.5: the 7 FjD given up adds its step to the German infantry pool."""
    return dataclasses.replace(pools, german_infantry=pools.german_infantry + tables.replacements.fjd_infantry_steps)


def shock_armies_available(scenario: "Scenario", turn: int) -> list[str]:
    """Shock armies the calendar has made available by ``turn`` (15.3: one on each of turns 7-10)."""
    return [u for r in scenario.reinforcements if r.extra.get("place") == "replace_army" and r.turn <= turn
            for u in r.units]
