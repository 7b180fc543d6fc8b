"""Combat (6, with 5's chart, 8.1, 11.2, 12.3-12.13): who may attack, the odds, the die and the result.

One combat is one defending hex attacked by units next to it (6).  ``plan`` checks the attack
and the options the players chose (air corps, artillery, Zhukov, coup de main, a dropped airborne
unit, the assault leaders) and gives everything the Combat Results Table needs: both strengths,
the column before and after its shifts, the die modifier, how many dice, the automatic losses.
``resolve`` reads the table for the dice the caller rolled (the game's dice source; nothing here
draws a number) and gives the step losses of each side, with the major city's minimum attacker
loss and each side's losses capped at the steps it has, and whether the defender may turn its
second step into a one-hex retreat.  ``preview`` is the same plan as the engine's odds preview,
every modifier typed with its case and the chance of each result.

Supply is asked through ``SupplyView`` (the supply module answers it; ``BoardSupply`` reads the
Isolated markers on the board and the supply cities named in tables.toml).  Readings of unclear
cases are in docs/rulings.md, Barbarossa 1941, "Combat, retreat and overrun".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Protocol, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import Modifier, OddsPreview
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.board import MOTORIZED, Board, other
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.tables import Result
from kiev_tui.games.barbarossa1941.terrain import RIVER, water_open

FINLAND_AREA = "finland"  # 12.2: the Finns' 1940 border
#: 12.9: the waters a coastal hex of the Baltic Fleet touches (the map's sea names).
BALTIC_WATERS = ("Baltic Sea", "Gulf of Bothnia", "Gulf of Finland", "Gulf of Riga")
#: 12.3: an attack led by one of these ignores extreme cold's die penalty.
COLD_EXEMPT_TYPES = frozenset({"mountain", "shock_army"})


# ------------------------------------------------------------------------------------ supply


class SupplyView(Protocol):
    """What combat, retreat and overrun ask of supply (8, 8.1, 8.2, 12.12)."""

    def isolated(self, uid: str) -> bool: ...

    def sources(self, side: str) -> frozenset[Hex]: ...

    def controlled_rail(self, side: str, h: Hex) -> bool: ...


@dataclass(frozen=True)
class BoardSupply:
    """Supply as the board shows it, until the supply module's answers are passed instead.

    Isolated: the board's Isolated markers (8).  Sources: the supply cities of tables.toml and
    the rail exits on the side's map edge (8.2), without checking the rail link to the edge.
    Controlled rail: any hex a railway touches (10.2's ownership is the rail module's to add).
    """

    board: Board

    def isolated(self, uid: str) -> bool:
        return uid in self.board.isolated

    def sources(self, side: str) -> frozenset[Hex]:
        sup, gmap = self.board.tables.supply, self.board.gmap
        names = sup.axis_cities if side == AXIS else sup.russian_major_cities
        edge = sup.axis_rail_edge if side == AXIS else sup.soviet_rail_edge
        found = {gmap.find(n) for n in names}
        found |= {h for h in gmap.rail_exits if edge in gmap.edges_of(h)}
        return frozenset(h for h in found if h is not None)

    def controlled_rail(self, side: str, h: Hex) -> bool:
        return h in self.board.gmap.rail_hexes()


# ------------------------------------------------------------------------------------ options


@dataclass(frozen=True)
class Options:
    """What the players chose for one combat, in 6's order (the option chain asks for them).

    ``coup_de_main``: None if not tried, else whether the roll succeeded (12.6; ``coup_roll``).
    ``zhukov``: the Soviet side uses the Zhukov option in this combat, attacking or defending
    (12.13); whether it is available this turn is the caller's bookkeeping.
    ``dropped``: an airborne unit dropped this turn supporting the attack (12.5).
    """

    air_attacker: str | None = None  # 11.2: an air corps of the attacking side
    air_defender: str | None = None
    artillery_defender: bool = False  # 12.12
    artillery_attacker: bool = False
    dropped: str | None = None  # 12.5
    zhukov: bool = False  # 12.13
    coup_de_main: bool | None = None  # 12.6
    overrun: bool = False  # 7
    fleet: bool = False  # 12.9: the Baltic Fleet supports the Soviet side
    fleet_mined: bool = False  # 12.9: the Axis holds the four cities that close the gulf


def coup_roll(board: Board, die: int) -> bool:
    """Does a coup de main succeed on this d6 (12.6: 4 to 6)?"""
    return die >= board.tables.coup_de_main.success_min


def coup_allowed(board: Board, used_this_turn: int) -> Illegal | None:
    """May the Axis try another coup de main this turn (12.6: two on turn 1, one on turn 2)?"""
    cap = board.tables.coup_de_main.allowed(board.turn)
    if used_this_turn >= cap:
        return Illegal("12.6", f"no coup de main left on turn {board.turn} ({cap} allowed)")
    return None


def fleet_reaches(board: Board, target: Hex, mined: bool) -> Illegal | None:
    """Can the Baltic Fleet support a combat in ``target`` (12.9)?  A coastal hex within range of a
    naval base the Axis does not occupy; once the gulf is mined, only Leningrad and its two
    coastal neighbours."""
    bf, gmap = board.tables.baltic_fleet, board.gmap
    where = gmap.grid.id(target)
    if not any(board.udef(u).type == "fleet" and board.side(u) == SOVIET for u in board.hex_of):
        return Illegal("12.9", "the Baltic Fleet is not in play")
    if mined:
        if where not in bf.mined_hexes:
            return Illegal("12.9", f"the gulf is mined: the fleet supports only {', '.join(bf.mined_hexes)}")
        return None
    if not any(gmap.terrain(n) == "sea" and gmap.name(n) in BALTIC_WATERS for n in gmap.neighbours(target)):
        return Illegal("12.9", f"{where} is not on the Baltic coast")
    bases = [gmap.find(n) for n in bf.bases]
    if not any(b is not None and board.owner(b) != AXIS and target.distance(b) <= bf.range for b in bases):
        return Illegal("12.9", f"{where} is more than {bf.range} hexes from every Soviet naval base")
    return None


# ------------------------------------------------------------------------------------ the plan


@dataclass(frozen=True)
class Plan:
    """One combat, checked and ready for its dice (6)."""

    attackers: tuple[str, ...]
    target: Hex
    defenders: tuple[str, ...]  # every unit in the hex, forts included
    attacker_leader: str
    defender_leader: str
    attack: int  # after halving, fractions dropped (the defender's favour, 6)
    defense: int
    base_column: int  # index before shifts
    column: int  # index after shifts
    die_modifier: int
    dice: int  # 1, or 2 from seven steps on the larger side (6)
    automatic: Result  # artillery and Zhukov (12.12, 12.13), added to the table's result
    attacker_steps: int  # what each side can lose: the cap on its losses
    defender_steps: int
    may_retreat: bool  # may the defender turn a step into a retreat at all (6, 12.5, 12.8)
    no_retreat_case: str  # why not, when it may not
    eliminated_anyway: tuple[str, ...]  # airborne units lost whatever happens (12.5)
    column_name: str  # the column after shifts, as the table prints it
    modifiers: tuple[Modifier, ...] = ()
    floor: int = 0  # the hex's minimum attacker loss ("All: A1", 5)


@dataclass(frozen=True)
class Roll:
    die: int
    modified: int  # die plus modifiers, before the table's rows clamp it
    result: Result


@dataclass(frozen=True)
class Outcome:
    """The result of one combat (6): losses before the defender's retreat choice."""

    rolls: tuple[Roll, ...]
    table: Result  # the rolls' results added together
    losses: Result  # with automatic losses, the floor and the caps
    retreat_option: bool  # the defender may take its second step as a 1-hex retreat (6)


def _quality(board: Board, uid: str) -> int | None:
    u = board.udef(uid)
    if "quality" in u.factors:
        q = u.factor("quality", board.step(uid))
        return int(q) if q else None
    return bu.quality(u)


def _steps_left(board: Board, uid: str) -> int:
    """Steps a unit can still lose: stacking points, or a permanent fort's own steps (12.4)."""
    u = board.udef(uid)
    if u.extra.get("permanent"):
        return len(u.steps) - board.step(uid)
    return board.points(uid)


def _is_airborne(board: Board, uid: str) -> bool:
    return board.udef(uid).type == "airborne"


def _is_fort(board: Board, uid: str) -> bool:
    return board.udef(uid).type == "fort"


def _permanent(board: Board, uid: str) -> bool:
    return bool(board.udef(uid).extra.get("permanent"))


def _motorized(board: Board, uid: str) -> bool:
    return board.movement_class(uid) == MOTORIZED


def check_attack(board: Board, attackers: Sequence[str], target: Hex) -> Illegal | None:
    """May these units attack the hex together (6, 12.2, 12.5, 12.10)?"""
    grid = board.gmap.grid
    if not attackers:
        return Illegal("6", "choose at least one unit to attack")
    if len(set(attackers)) != len(attackers):
        return Illegal("6", "a unit is listed twice")
    if not board.gmap.on_map(target) or not board.at(target):
        return Illegal("6", f"{grid.id(target)} holds no unit to attack")
    where = grid.id(target)
    sides = set()
    for uid in attackers:
        if uid not in board.hex_of:
            return Illegal("6", f"{uid} is not on the map")
        sides.add(board.side(uid))
        if not board.is_formation(uid):
            return Illegal("6", f"{uid} is not a combat unit: it cannot attack")
        h = board.hex_of[uid]
        if h.distance(target) != 1:
            return Illegal("6", f"{uid} is not next to {where}")
        if not water_open(board, h, target):  # 12.10: no attack across a lake or strait hexside
            return Illegal("12.10", f"{uid} cannot attack {where} across impassable water")
        if board.nation(uid) == "finnish" and FINLAND_AREA in board.gmap.areas \
                and h not in board.gmap.areas[FINLAND_AREA].hexes:
            return Illegal("12.2", f"{uid} stands beyond the Finns' 1940 border: Finns attack only from Finland")
    if len(sides) != 1:
        return Illegal("6", "units of both sides cannot attack together")
    side = sides.pop()
    if not any(board.side(u) != side for u in board.at(target)):
        return Illegal("6", f"{where} holds your own units")
    if not any(board.side(u) != side and ((board.is_formation(u) and not _is_airborne(board, u))
                                          or _permanent(board, u)) for u in board.at(target)):
        # 12.4, 12.5: a lone field fort or airborne corps is not fought; it falls when a unit enters
        return Illegal("6", f"{where} holds no enemy combat unit to attack")
    nations = {board.nation(u) for u in attackers}
    if {"romanian", "hungarian"} <= nations:
        return Illegal("12.2", "Romanian and Hungarian units may not attack together")
    airborne = [u for u in attackers if _is_airborne(board, u)]
    for uid in airborne:  # 12.5: an airborne corps fights only stacked with another Soviet unit that attacks
        mates = [u for u in attackers if u != uid and not _is_airborne(board, u)
                 and board.hex_of[u] == board.hex_of[uid]]
        if not mates:
            return Illegal("12.5", f"{uid} attacks only together with another unit of its hex")
    if len(airborne) == len(attackers):
        return Illegal("12.5", "airborne units cannot attack on their own")
    return None


def _leader_check(board: Board, units: Sequence[str], leader: str, role: str) -> Illegal | None:
    if leader not in units:
        return Illegal("6", f"the {role}'s assault leader {leader} is not in the combat")
    if _quality(board, leader) is None:
        return Illegal("6", f"{leader} has no quality: it cannot lead an assault")
    return None


def plan(board: Board, attackers: Sequence[str], target: Hex, attacker_leader: str, defender_leader: str,
         options: Options = Options(), supply: SupplyView | None = None) -> Plan | Illegal:
    """Check one combat and work out its odds, die modifier, dice and automatic losses (6)."""
    bad = check_attack(board, attackers, target)
    if bad is not None:
        return bad
    sup = supply if supply is not None else BoardSupply(board)
    tabs, gmap = board.tables, board.gmap
    crt, tec = tabs.crt, tabs.tec
    side = board.side(attackers[0])
    enemy = other(side)
    defenders = tuple(u for u in board.at(target) if board.side(u) == enemy)  # 12.5: not a unit dropped there
    terrain, town = gmap.terrain(target), gmap.settlement(target)
    weather = tabs.weather.effects[board.weather(target)]
    mods: list[Modifier] = []

    # -- the assault leaders (6) ------------------------------------------------------------
    bad = _leader_check(board, attackers, attacker_leader, "attacker")
    if bad is not None:
        return bad
    fighting = [u for u in defenders if board.is_formation(u) or _permanent(board, u)]
    bad = _leader_check(board, fighting, defender_leader, "defender")
    if bad is not None:
        return bad
    motorized = any(_motorized(board, u) for u in attackers)
    if motorized and not _motorized(board, attacker_leader):
        return Illegal("6", "a motorized unit takes part: the assault leader must be motorized")

    # -- options that may be refused ----------------------------------------------------------
    if options.overrun and (options.artillery_attacker or options.artillery_defender):
        return Illegal("7.2", "no artillery support in an overrun")
    if options.fleet:
        if options.overrun:
            return Illegal("7.2", "no naval support in an overrun")
        if board.turn == 1:
            return Illegal("12.8", "no Soviet naval support on turn 1")
        bad = fleet_reaches(board, target, options.fleet_mined)
        if bad is not None:
            return bad
    if options.zhukov and SOVIET not in (side, enemy):
        return Illegal("12.13", "the Zhukov option is the Soviet player's")
    river_units = [u for u in attackers if gmap.has(board.hex_of[u], target, RIVER)]
    if options.coup_de_main is not None:
        if side != AXIS or not any(board.nation(u) == "german" for u in river_units):
            return Illegal("12.6", "a coup de main is tried only by German units attacking across a river")
    dropped = options.dropped
    if dropped is not None:
        if dropped not in board.hex_of or not _is_airborne(board, dropped) or board.side(dropped) != side:
            return Illegal("12.5", f"{dropped} is not a friendly airborne unit on the map")
        if board.hex_of[dropped].distance(target) > 1:
            return Illegal("12.5", f"{dropped} supports only an attack on its hex or next to it")

    # -- strengths (5, 12.4, 12.6) -------------------------------------------------------------
    total = Fraction(0)
    for uid in attackers:
        value = Fraction(bu.combat(board.udef(uid), board.step(uid)))
        if _motorized(board, uid) and tec.halves_motorized(terrain, town):
            value /= 2
            mods.append(Modifier("5", f"{uid}: motorized, halved attacking this terrain", factor=0.5, unit=uid))
        if uid in river_units and tec.hexside[RIVER].halve_attack_across:
            if options.coup_de_main and not options.overrun:
                mods.append(Modifier("12.6", f"{uid}: coup de main, the river does not halve it", unit=uid))
            else:
                value /= 2
                mods.append(Modifier("5", f"{uid}: halved attacking across a river", factor=0.5, unit=uid))
        total += value
    attack = int(total)  # 6: fractions go the defender's way
    defense = 0
    for uid in defenders:
        if board.is_formation(uid) or _permanent(board, uid):
            defense += bu.combat(board.udef(uid), board.step(uid))
    if any(_permanent(board, u) for u in defenders):
        mods.append(Modifier("12.4", "the permanent fortress adds its value to the defence"))

    # -- columns (5, 6, 11.2, 12.3, 12.10) --------------------------------------------------------
    base = crt.column_index(attack, defense)
    shift = 0
    qa, qd = _quality(board, attacker_leader) or 0, _quality(board, defender_leader) or 0
    q = crt.quality_shift(qa, qd)
    if q:
        mods.append(Modifier("6", f"assault leaders' quality {qa} against {qd}", column_shift=q))
        shift += q
    hex_shift = tec.hex_shift(terrain, town, motorized)
    if hex_shift:
        case = "12.10" if terrain == "arctic" and tec.terrain[terrain].combat_shift(motorized) == hex_shift else "5"
        what = f"{town.replace('_', ' ')}" if town and tec.settlement[town].combat_shift(motorized) == hex_shift \
            else terrain
        mods.append(Modifier(case, f"defender in {what}", column_shift=hex_shift))
        shift += hex_shift
    for uid, sign, role in ((options.air_attacker, 1, "attacker"), (options.air_defender, -1, "defender")):
        if uid is None:
            continue
        own = side if sign > 0 else enemy
        if uid not in board.units or board.udef(uid).type != "air" or board.side(uid) != own:
            return Illegal("11.2", f"{uid} is not an air corps of the {role}")
        if not weather.air_support:
            return Illegal("12.3", f"no air support in {board.weather(target).replace('_', ' ')}")
        cols = bu.air_support(board.udef(uid))[0]
        mods.append(Modifier("11.2", f"{role}'s air corps {uid}", column_shift=sign * cols))
        shift += sign * cols
        if board.nation(uid) == "german" and cols > weather.german_air_bonus:
            cut = cols - weather.german_air_bonus
            mods.append(Modifier("12.3", f"German air support halved in {board.weather(target)}",
                                 column_shift=-sign * cut))
            shift -= sign * cut
    column = crt.shifted(base, shift)

    # -- die modifiers (8.1, 12.3, 12.4, 12.5, 12.8, 12.13) -----------------------------------------
    cm = tabs.combat
    if board.turn == 1 and side == AXIS and any(board.nation(u) == "german" for u in attackers):
        mods.append(Modifier("12.8", "turn 1: German attack", die_modifier=cm.die_turn1_german))
    if any(sup.isolated(u) for u in attackers):
        mods.append(Modifier("8.1", "an isolated unit attacks", die_modifier=cm.die_isolated_attacker))
    if any(sup.isolated(u) for u in fighting if not _permanent(board, u)):
        mods.append(Modifier("8.1", "an isolated unit defends", die_modifier=cm.die_isolated_defender))
    if any(_is_fort(board, u) and not _permanent(board, u) for u in defenders):
        mods.append(Modifier("12.4", "field fortification", die_modifier=tec.fortification.die))
    if weather.attack_die:
        lu = board.udef(attacker_leader)
        exempt = lu.type in COLD_EXEMPT_TYPES or board.nation(attacker_leader) == "finnish" \
            or bool(lu.extra.get("guards"))
        if not exempt:
            mods.append(Modifier("12.3", f"attacking in {board.weather(target).replace('_', ' ')}",
                                 die_modifier=weather.attack_die))
    ab = tabs.airborne
    eliminated: list[str] = []
    for uid in attackers:
        if _is_airborne(board, uid):
            mods.append(Modifier("12.5", f"airborne corps {uid} attacks", die_modifier=ab.attack_die))
            eliminated.append(uid)
    if dropped is not None:
        mods.append(Modifier("12.5", f"dropped airborne unit {dropped} supports", die_modifier=ab.attack_die))
        eliminated.append(dropped)
    others = [u for u in fighting if not _is_airborne(board, u) and board.is_formation(u)]
    for uid in defenders:
        if _is_airborne(board, uid) and others:
            mods.append(Modifier("12.5", f"airborne corps {uid} defends", die_modifier=ab.defense_die))
            eliminated.append(uid)
    if options.fleet:
        sign = 1 if side == SOVIET else -1
        mods.append(Modifier("12.9", f"the Baltic Fleet supports the {'attack' if sign > 0 else 'defence'}",
                             die_modifier=sign * tabs.baltic_fleet.support_die))
    if options.zhukov and side == SOVIET:
        mods.append(Modifier("12.13", "Zhukov attacks", die_modifier=cm.zhukov_attack_die))
    die_mod = sum(m.die_modifier for m in mods)

    # -- automatic losses (12.12, 12.13) ---------------------------------------------------------
    auto_att = auto_def = 0
    art = tabs.artillery
    for chosen, who, units in ((options.artillery_defender, enemy, fighting),
                               (options.artillery_attacker, side, list(attackers))):
        if not chosen:
            continue
        if who == SOVIET and board.turn < art.soviet_from_turn:
            return Illegal("12.12", f"Soviet artillery support starts on turn {art.soviet_from_turn}")
        near = [u for u in units if board.is_formation(u) and any(
            sup.controlled_rail(who, h) for h in (board.hex_of[u], *gmap.neighbours(board.hex_of[u])))]
        if not near:
            return Illegal("12.12", "artillery needs a unit of the combat on or next to a railway its side holds")
        if who == side:
            auto_def += art.losses
        else:
            auto_att += art.losses
        mods.append(Modifier("12.12", f"{'attacker' if who == side else 'defender'}'s artillery: "
                                      f"one automatic loss to the other side"))
    if options.zhukov:
        if side == SOVIET:
            auto_att += cm.zhukov_attack_own_loss
            mods.append(Modifier("12.13", "Zhukov attacks: one automatic Soviet loss"))
        else:
            auto_att += cm.zhukov_defense_loss_each
            auto_def += cm.zhukov_defense_loss_each
            mods.append(Modifier("12.13", "Zhukov defends: one automatic loss to each side"))

    # -- dice, caps and the retreat (6, 12.5, 12.8) ------------------------------------------------
    att_steps = sum(_steps_left(board, u) for u in attackers)
    def_steps = sum(_steps_left(board, u) for u in defenders)
    dice = crt.dice(max(att_steps, def_steps))
    floor = max([tec.terrain[terrain].attacker_min_loss] +
                ([tec.settlement[town].attacker_min_loss] if town else []))
    if floor:
        mods.append(Modifier("5", f"attacking a {town.replace('_', ' ') if town else terrain}: the attacker "
                                  f"loses at least {floor}"))
    may, why = True, ""
    if board.turn == 1 and enemy == SOVIET:
        may, why = False, "12.8"
    elif any(board.is_static(u) and (board.is_formation(u) or _permanent(board, u)) for u in defenders):
        may, why = False, "6"
    elif dropped is not None and board.hex_of[dropped] == target:
        may, why = False, "12.5"
    return Plan(tuple(attackers), target, defenders, attacker_leader, defender_leader, attack, defense, base,
                column, die_mod, dice, Result(auto_att, auto_def), att_steps, def_steps, may, why,
                tuple(eliminated), crt.columns[column], tuple(mods), floor)


def resolve(board: Board, p: Plan, dice: Sequence[int]) -> Outcome | Illegal:
    """Read the table for the rolled dice (6): each die its own result on the plan's column."""
    crt = board.tables.crt
    if len(dice) != p.dice:
        return Illegal("6", f"this combat rolls {p.dice} {'die' if p.dice == 1 else 'dice'}, not {len(dice)}")
    rolls = []
    for d in dice:
        if not 1 <= d <= crt.die_max:
            return Illegal("6", f"a d6 shows 1 to 6, not {d}")
        modified = d + p.die_modifier
        rolls.append(Roll(d, modified, crt.result(p.column, modified)))
    table = Result(sum(r.result.attacker for r in rolls), sum(r.result.defender for r in rolls))
    return Outcome(tuple(rolls), table, *_settle(board, p, table))


def _settle(board: Board, p: Plan, table: Result) -> tuple[Result, bool]:
    """Automatic losses, the hex's floor, each side's cap, and the retreat option (5, 6)."""
    att = max(table.attacker + p.automatic.attacker, p.floor)  # 5: "All: A1"
    dfn = table.defender + p.automatic.defender
    losses = Result(min(att, p.attacker_steps), min(dfn, p.defender_steps))  # nobody loses more than it has
    option = p.may_retreat and losses.defender >= board.tables.combat.retreat_instead_of_step
    return losses, option


def chances(board: Board, p: Plan) -> dict[str, float]:
    """The chance of each final result of the plan, every die face equally likely (6)."""
    faces = range(1, board.tables.crt.die_max + 1)
    out: dict[str, float] = {}
    combos = list(itertools.product(faces, repeat=p.dice))
    for dice in combos:
        o = resolve(board, p, dice)
        assert not isinstance(o, Illegal)
        key = str(o.losses) or "-"
        if o.retreat_option:
            key += " (R)"
        out[key] = out.get(key, 0.0) + 1 / len(combos)
    return out


def preview(board: Board, attackers: Sequence[str], target: Hex, attacker_leader: str, defender_leader: str,
            options: Options = Options(), supply: SupplyView | None = None) -> OddsPreview:
    """The engine's odds preview of a combat: strengths, column, every modifier, each result's chance."""
    p = plan(board, attackers, target, attacker_leader, defender_leader, options, supply)
    if isinstance(p, Illegal):
        return OddsPreview(p, None, None, None)
    notes = [f"{p.dice} {'die' if p.dice == 1 else 'dice'}"]
    if not p.may_retreat:
        notes.append(f"the defender may not retreat ({p.no_retreat_case})")
    return OddsPreview(None, p.attack, p.defense, p.column_name, chances(board, p), tuple(notes), p.modifiers)


# ------------------------------------------------------------------------------------ losses


def allocate(board: Board, units: Sequence[str], leader: str, steps: int, order: Sequence[str]) -> dict[str, int] | Illegal:
    """Steps each unit loses: the assault leader the first, then the owner's ``order`` (6).

    ``order`` names the unit for each further step; units worth no step cannot take one.
    """
    if steps <= 0:
        return {} if not order else Illegal("6", "no loss to take")
    left = {u: _steps_left(board, u) for u in units}
    if leader not in left:
        return Illegal("6", f"the assault leader {leader} is not in the combat")
    taken: dict[str, int] = {}
    seq = [leader, *order]
    if len(seq) != steps:
        return Illegal("6", f"name a unit for each of the {steps} steps lost (the leader takes the first)")
    for uid in seq:
        if uid not in left:
            return Illegal("6", f"{uid} is not in the combat")
        if taken.get(uid, 0) >= left[uid]:
            return Illegal("6", f"{uid} has no step left to lose")
        taken[uid] = taken.get(uid, 0) + 1
    return taken


def losers(board: Board, taken: Mapping[str, int]) -> tuple[str, ...]:
    """Units eliminated by these losses (no step left)."""
    return tuple(sorted(u for u, n in taken.items() if n >= _steps_left(board, u)))


def participants(board: Board, ids: Iterable[str]) -> tuple[str, ...]:
    """The units that can take losses among ``ids`` (worth at least one step)."""
    return tuple(u for u in ids if _steps_left(board, u) > 0)
