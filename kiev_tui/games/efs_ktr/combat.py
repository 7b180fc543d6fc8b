"""Combat in Kiev to Rostov (EFS 12.3, 15-16, 11.4, 22.4): odds, modifiers, the roll, the result.

Everything here works on explicit inputs, never on a board: a ``CombatInput`` names each
attacking and defending unit with the values it has now (its step's factors, type, division,
the hexsides it attacks across), the defender hexes' terrain, the artillery, the net close air
support points (``air.py``), the orders and the supply state.  The rule system builds one from
its position and passes the die it rolled (the game's dice source); nothing here draws a number.

``plan`` checks the combat and gives both strengths, the odds column and every modifier typed as
a ``Modifier`` (netted and held to +/-3, 15.7).  ``resolve`` reads the CRT for a roll and turns
the printed cell into what each side must do: steps to lose (with asterisks, orders and the
armor/engineer first-loss rules), retreat length, eliminations, and who may advance.
``allocate_losses`` checks the owner's loss order (16.21).  ``preview`` is the engine's odds
preview with each modifier and the chance of every result.  ``overrun_*`` read the Overrun Table
(11.4) and ``retreat_through_zoc`` the Retreat Table (16.46).  Readings of unclear cases are in
docs/rulings.md, "EFS: combat and air".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.rules import Modifier, OddsPreview
from kiev_tui.games.efs_ktr.schema import AXIS, SOVIET, split_terrain
from kiev_tui.games.efs_ktr.tables import Cell, MoreTables, Side, Tables

NO_RETREAT, ADDITIONAL_RETREAT = "no_retreat", "additional_retreat"
ORDERS = ("", NO_RETREAT, ADDITIONAL_RETREAT)
#: 15.67a: armor-type units (red attack factor) and the partners that make combined arms with them.
ARMOR_TYPES = frozenset({"armor", "tank"})
CAB_PARTNERS = frozenset({"recon", "motorized", "motorcycle", "engineer"})
#: 15.67a, 16.32c: defenders that deny combined arms and answer armor attrition.
ANTI_ARMOR_TYPES = frozenset({"armor", "tank", "anti_tank", "anti_aircraft"})
ARTILLERY = "artillery"
#: 15.61b, 15.67b: terrain where every defender denies the combined arms bonus.
CAB_DENYING_TERRAIN = frozenset({"swamp", "mountain", "alpine"})
CAB_DENYING_SETTLEMENTS = frozenset({"city", "major_city"})
#: 16.41a2: terrain where a non-German No Retreat force takes no second extra loss.
NO_RETREAT_SAFE_TERRAIN = frozenset({"hill", "mountain", "alpine"})
NO_RETREAT_SAFE_SETTLEMENTS = frozenset({"city", "major_city"})
#: 15.63: defender terrain that lets declared engineers give their -1.
ENGINEER_SETTLEMENTS = frozenset({"city", "major_city"})
#: 16.24: where a unit removed from play goes.
CADRE, ELIMINATED = "cadre", "eliminated"
#: 15.68: what a division's counters are called by its kind.
PANZER, MOTORIZED_DIV, SS_MOTORIZED = "panzer", "motorized", "ss_motorized"


@dataclass(frozen=True)
class Combatant:
    """One unit in a combat as it stands now.

    attack/defence: its current step's factors (16.23), support: an artillery unit's support
    strength (14.2); steps: steps it has left; division: its formation ("9 Pz"); german: for
    16.41a1 (SS counts as German); river/major_river/fortified_line: an attacker that attacks the
    defender hex only across such hexsides (15.61b, 15.52b, 18.21); from_swamp: attacks out of a
    swamp hex (15.52a); overrun_marker: a defender already overrun this phase (11.44d).
    """

    uid: str
    type: str
    attack: float = 0
    defence: float = 0
    steps: int = 1
    division: str = ""
    german: bool = False
    support: float = 0
    river: bool = False
    major_river: bool = False
    fortified_line: bool = False
    from_swamp: bool = False
    out_of_supply: bool = False
    overrun_marker: bool = False

    @property
    def armor(self) -> bool:
        return self.type in ARMOR_TYPES


@dataclass(frozen=True)
class CombatInput:
    """One declared combat, every fact the CRT needs (15.2-15.8).

    terrains/settlements: one entry per defender hex (its terrain name, "woods" over clear
    included, and its settlement or ""); attack_artillery/defence_artillery: the artillery units
    lending support (a defence one may also stand among the defenders: its support then replaces
    its defence, 15.54); attacker_cas/defender_cas: the CAS points left after air combat and AA
    (air.cas_points); attack_supplied: False only where attack supply is in force and none was
    spent (pass True where a scenario disregards it, PB 10.44a); formations: division -> kind
    (panzer, motorized, ss_motorized) for 15.68; soviet_artillery_allowed: how many Soviet
    artillery units may support this combat (one, more when stacked with an HQ, PB 11.3, 22.14).
    """

    attacker: str
    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    terrains: tuple[str, ...] = ("clear",)
    settlements: tuple[str, ...] = ("",)
    attack_artillery: tuple[Combatant, ...] = ()
    defence_artillery: tuple[Combatant, ...] = ()
    attacker_cas: int = 0
    defender_cas: int = 0
    attack_order: str = ""
    defence_order: str = ""
    attack_supplied: bool = True
    mandated: bool = False
    defender_out_of_supply: bool = False
    strongpoint: bool = False
    engineer_effects: bool = False
    weather: str = "dry"
    formations: Mapping[str, str] = field(default_factory=dict)
    soviet_artillery_allowed: int = 1
    attacker_in_no_retreat_terrain: bool = False  # 16.41a2 for an attacker's own hexes

    @property
    def defender(self) -> str:
        return SOVIET if self.attacker == AXIS else AXIS


@dataclass(frozen=True)
class Plan:
    """A checked combat: strengths, odds, modifiers (15.5-15.7)."""

    attack: float
    defence: float
    column: str | None  # None: worse than 1-4 (15.57), the attacker is eliminated
    modifiers: tuple[Modifier, ...]
    raw_drm: int
    drm: int  # netted and capped (15.7)
    zero_defence: bool = False  # every defender had 0 defence: the attack is cancelled (15.54 note)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideLoss:
    """What one side must do after the roll (16.1-16.4)."""

    steps: int = 0  # steps to remove, all included
    eliminated: bool = False  # "e": every unit to the Eliminated Box (16.24)
    retreat: int = 0  # hexes each surviving unit retreats: 0, 2, or 3 (16.4, 16.41b)
    star_steps: int = 0  # of steps, those the asterisk added (16.31)
    order_steps: int = 0  # of steps, those No Retreat added (16.41a), or -1 Additional Retreat saved
    first_loss_types: frozenset[str] = frozenset()  # the first step lost must be one of these (16.32)
    retreat_by_enemy: bool = False  # Additional Retreat: the other player picks the path (16.41b1)


@dataclass(frozen=True)
class Outcome:
    roll: int
    box: int
    cell: str  # the printed result, e.g. "1*/R"
    attacker: SideLoss
    defender: SideLoss
    attacker_may_advance: bool  # if the defender hex is emptied (16.5, 16.41b4)


# ---------------------------------------------------------------------------------------- plan


def _check(inp: CombatInput) -> Illegal | None:
    if inp.attacker not in (AXIS, SOVIET):
        return Illegal("15.2", f"'{inp.attacker}' is not a side")
    if not inp.attackers or not inp.defenders:
        return Illegal("15.21", "a combat needs attacking and defending units")
    if any(u.type == ARTILLERY for u in inp.attackers):
        return Illegal("15.21", "artillery does not attack; it lends support strength (15.4)")
    if len(inp.terrains) != len(inp.settlements) or not inp.terrains:
        return Illegal("15.61d", "one terrain and one settlement per defender hex")
    for name, order in (("attacker", inp.attack_order), ("defender", inp.defence_order)):
        if order not in ORDERS:
            return Illegal("14.31", f"the {name}'s order must be no_retreat, additional_retreat or none")
    for group, side in ((inp.attack_artillery, inp.attacker), (inp.defence_artillery, inp.defender)):
        if any(u.type != ARTILLERY or u.support <= 0 for u in group):
            return Illegal("14.2", "only artillery with a support strength lends support")
        if side == SOVIET and len(group) > max(1, inp.soviet_artillery_allowed):
            return Illegal("PB 11.3", f"{len(group)} Soviet artillery units; this combat allows "
                                      f"{max(1, inp.soviet_artillery_allowed)} (22.14)")
    ids = [u.uid for u in (*inp.attackers, *inp.defenders)]
    if len(set(ids)) != len(ids):
        return Illegal("15.23", "a unit takes part in a combat once")
    if inp.attack_artillery and not inp.attack_supplied:
        return Illegal("15.32c", "no artillery support for an attack without attack supply")
    return None


def _highest_terrain_drm(tables: Tables, terrain: str, settlement: str) -> tuple[int, str]:
    """15.61a: the highest DRM of the hex's terrain, its woods and its settlement."""
    tec = tables.tec
    base, woods = split_terrain(terrain)
    best, name = int(tec["terrain"].get(base, {}).get("drm", 0)), base
    if woods and int(tec["overlay"]["woods"]["drm"]) > best:
        best, name = int(tec["overlay"]["woods"]["drm"]), "woods"
    if settlement and int(tec["settlement"][settlement]["drm"]) > best:
        best, name = int(tec["settlement"][settlement]["drm"]), settlement.replace("_", " ")
    return best, name


def integrity_divisions(inp: CombatInput) -> tuple[str, ...]:
    """15.68: the divisions giving the -1 Panzer Division Integrity bonus, panzer ones first.

    A panzer division needs its armor regiment, one motorized regiment and either the second
    motorized regiment or its recon unit; a motorized division its two regiments and recon unit
    (an SS one three of its four components); each motorized division needs a panzer division
    qualifying in the same combat (15.68b).  A component with an Out of Supply marker does not
    count unless the attack is attack supplied (15.68c1, 15.32b).
    """
    if inp.attacker != AXIS:
        return ()
    by_div: dict[str, Counter[str]] = {}
    for u in inp.attackers:
        if u.division and (not u.out_of_supply or inp.attack_supplied) and u.german:
            by_div.setdefault(u.division, Counter())[u.type] += 1
    panzers, motorized = [], []
    for div, c in sorted(by_div.items()):
        kind = inp.formations.get(div, "")
        if kind == PANZER and c["armor"] and c["motorized"] and (c["motorized"] >= 2 or c["recon"]):
            panzers.append(div)
        elif kind == MOTORIZED_DIV and c["motorized"] >= 2 and c["recon"]:
            motorized.append(div)
        elif kind == SS_MOTORIZED and sum(c.values()) >= 3:
            motorized.append(div)
    return (*panzers, *motorized[: len(panzers)])


def combined_arms(inp: CombatInput, river_drm: bool) -> bool:
    """15.67: armor with a recon/motorized/engineer partner against a force without armor,
    anti-tank or anti-aircraft; not when every defender is behind a river (read as: the river DRM
    applies, 15.61b; docs/rulings.md), in swamp, a strongpoint, a city or major city (15.67b,
    18.36), nor in Mud, Snow or Arctic weather (15.67c)."""
    types = {u.type for u in inp.attackers}
    if not types & ARMOR_TYPES or not types & CAB_PARTNERS:
        return False
    if any(u.type in ANTI_ARMOR_TYPES for u in inp.defenders):
        return False
    if inp.weather in ("mud", "snow", "arctic") or inp.strongpoint or river_drm:
        return False
    if all(u.major_river for u in inp.attackers):
        return False
    denied = [split_terrain(t)[0] in CAB_DENYING_TERRAIN or s in CAB_DENYING_SETTLEMENTS
              for t, s in zip(inp.terrains, inp.settlements)]
    return not all(denied)


def strengths(inp: CombatInput) -> tuple[float, float, tuple[Modifier, ...]]:
    """15.51-15.55: attack and defence totals with support, halvings and caps, fractions kept."""
    mods: list[Modifier] = []
    city = any(s in ("city", "major_city") for s in inp.settlements)
    swamp = any(split_terrain(t)[0] == "swamp" for t in inp.terrains)
    raw_attack = sum(u.attack for u in inp.attackers)
    attack = 0.0
    for u in inp.attackers:
        f = 1.0
        if u.from_swamp:  # 15.52a
            f /= 2
            mods.append(Modifier("15.52a", f"{u.uid} attacks out of swamp: halved", factor=0.5, unit=u.uid))
        if u.major_river and inp.weather not in ("frost", "snow", "arctic"):  # 15.52b
            f /= 2
            mods.append(Modifier("15.52b", f"{u.uid} attacks across a major river: halved", factor=0.5, unit=u.uid))
        if city and u.armor:  # 15.52c
            f /= 2
            mods.append(Modifier("15.52c", f"{u.uid} is armor attacking into a city: halved", factor=0.5, unit=u.uid))
        attack += u.attack * f
    support = float(sum(u.support for u in inp.attack_artillery))
    if support > raw_attack:  # 15.4: support never exceeds the attack strength, before halving
        mods.append(Modifier("15.4", f"artillery support {support:g} held to the attack strength {raw_attack:g}"))
        support = raw_attack
    if support and swamp:  # 15.52a: support fired into swamp is halved
        support /= 2
        mods.append(Modifier("15.52a", "artillery fires into swamp: support halved", factor=0.5, unit="attack"))
    if support:
        mods.append(Modifier("15.4", f"artillery support +{support:g}"))
    attack += support
    if 0 < attack < 1:  # 15.51 note: halving never takes a force under one
        attack = 1.0
    supporting = {u.uid for u in inp.defence_artillery}
    defence = float(sum(u.defence for u in inp.defenders if u.uid not in supporting))
    dsupport = float(sum(u.support for u in inp.defence_artillery))
    if dsupport > defence:  # 15.55b
        mods.append(Modifier("15.55b", f"defensive support {dsupport:g} held to the defence strength {defence:g}"))
        dsupport = defence
    if dsupport:
        mods.append(Modifier("14.21", f"defensive artillery support +{dsupport:g}"))
    return attack, defence + dsupport, tuple(mods)


def plan(inp: CombatInput, tables: Tables) -> Plan | Illegal:
    """Strengths, column and every DRM of one combat (15.5-15.7)."""
    bad = _check(inp)
    if bad is not None:
        return bad
    attack, defence, mods = strengths(inp)
    if all(u.defence <= 0 for u in inp.defenders) and not inp.defence_artillery:
        return Plan(attack, 0.0, None, mods, 0, 0, zero_defence=True,
                    notes=("every defender has 0 defence: removed, the attack is cancelled (15.54)",))
    column = tables.crt.column_for(attack, defence) if defence > 0 else tables.crt.columns[-1]
    drms: list[Modifier] = []
    # 15.61a, d: the highest hex terrain DRM of any defender hex
    best, name = max(_highest_terrain_drm(tables, t, s) for t, s in zip(inp.terrains, inp.settlements))
    if best:
        drms.append(Modifier("15.61a", f"defender in {name}", die_modifier=best))
    river = all(u.river for u in inp.attackers)  # 15.61b: every attacker crosses it
    if river:
        drm = int(tables.tec["hexside"]["minor_river"]["drm"])
        drms.append(Modifier("15.61b", "every attacker attacks across a river", die_modifier=drm))
    if inp.strongpoint:
        drms.append(Modifier("18.36", "strongpoint in the defender hex", die_modifier=1))
    elif all(u.fortified_line for u in inp.attackers):
        drms.append(Modifier("18.21", "every attacker attacks through a fortified line", die_modifier=1))
    if inp.defence_order == NO_RETREAT:
        drms.append(Modifier("15.62", "defender under No Retreat orders", die_modifier=1))
    if inp.engineer_effects and any(u.type == "engineer" for u in inp.attackers) and (
            river or inp.strongpoint or any(s in ENGINEER_SETTLEMENTS for s in inp.settlements)
            or all(u.fortified_line for u in inp.attackers)):
        drms.append(Modifier("15.63", "engineer effects declared", die_modifier=-1))
    net_cas = inp.attacker_cas - inp.defender_cas
    if net_cas:  # 15.65: attacker points -1 each, defender points +1 each, netted (15.13)
        who = "attacker" if net_cas > 0 else "defender"
        drms.append(Modifier("15.65", f"{who} close air support ({abs(net_cas)} net)", die_modifier=-net_cas))
    if inp.defender_out_of_supply:
        drms.append(Modifier("15.66a", "a defender is out of supply", die_modifier=-1))
    if not inp.attack_supplied:
        drms.append(Modifier("15.66b", "no attack supply", die_modifier=2))
    if combined_arms(inp, river):
        drms.append(Modifier("15.67", "combined arms", die_modifier=-1))
    for div in integrity_divisions(inp):
        drms.append(Modifier("15.68", f"{div} division integrity", die_modifier=-1))
    if any(u.overrun_marker for u in inp.defenders):
        drms.append(Modifier("11.44d", "defender already overrun", die_modifier=-1))
    raw = sum(m.die_modifier for m in drms)
    cap = tables.crt.net_drm_cap
    net = max(-cap, min(cap, raw))
    if net != raw:  # 15.7: the net never passes +/-3; this entry makes the sum the capped net
        drms.append(Modifier("15.7", f"net modifier {raw:+d} held to {net:+d}", die_modifier=net - raw))
    notes = () if column else ("odds worse than 1-4: the attacker is eliminated, the defender untouched (15.57)",)
    return Plan(attack, defence, column, (*mods, *drms), raw, net, notes=notes)


# ------------------------------------------------------------------------------------- resolve


def _side_loss(side: Side, order: str, star_extra: int, exempt_second_loss: bool) -> SideLoss:
    """One side's printed result with its asterisk extras and its order applied (16.3, 16.41)."""
    if side.eliminated:
        return SideLoss(eliminated=True)
    steps, star, order_steps, retreat, by_enemy = side.steps, 0, 0, 0, False
    if side.star:
        star = star_extra
    if side.retreat:
        if order == NO_RETREAT:  # 16.41a: stand, one more step, a second unless exempt
            order_steps = 1 if exempt_second_loss else 2
        elif order == ADDITIONAL_RETREAT:  # 16.41b: three hexes, one step fewer with a number
            retreat, by_enemy = 3, True
            if steps:
                order_steps = -1
        else:
            retreat = 2
    return SideLoss(steps + star + order_steps, False, retreat, star, order_steps, retreat_by_enemy=by_enemy)


def _no_retreat_exempt(units: Sequence[Combatant], in_safe_terrain: bool) -> bool:
    """16.41a1-2: an all-German force, or a force all in the safe terrain, loses only one extra step."""
    return all(u.german for u in units) or in_safe_terrain


def _defender_safe_terrain(inp: CombatInput) -> bool:
    """16.41a2 for the defender: every defender hex is city, major city, hill, woods, mountain or
    alpine (the defender hexes themselves; docs/rulings.md)."""
    for t, s in zip(inp.terrains, inp.settlements):
        base, woods = split_terrain(t)
        if not (woods or base in NO_RETREAT_SAFE_TERRAIN or s in NO_RETREAT_SAFE_SETTLEMENTS or inp.strongpoint):
            return False
    return True


def read_cell(inp: CombatInput, cell: Cell) -> tuple[SideLoss, SideLoss]:
    """What a printed CRT cell asks of each side in this combat (16.1-16.41)."""
    a, d = cell.attacker, cell.defender
    # 16.31: each condition met adds one step to an asterisk
    star_extra = int(not inp.attack_supplied) + int(inp.mandated) + int(
        inp.strongpoint or all(u.fortified_line for u in inp.attackers))
    att = _side_loss(a, inp.attack_order, star_extra, _no_retreat_exempt(inp.attackers,
                                                                          inp.attacker_in_no_retreat_terrain))
    dfn = _side_loss(d, inp.defence_order, 0, _no_retreat_exempt(inp.defenders, _defender_safe_terrain(inp)))
    if a.star and a.steps and att.steps:
        if inp.engineer_effects and any(u.type == "engineer" for u in inp.attackers):  # 16.32b
            att = _with_first(att, frozenset({"engineer"}))
        elif (any(u.armor for u in inp.attackers)
              and any(u.type in ANTI_ARMOR_TYPES for u in inp.defenders)):  # 16.32c
            att = _with_first(att, ARMOR_TYPES)
            if dfn.steps:  # 16.32c note: the defender answers with an armor, AT or AA step
                dfn = _with_first(dfn, ANTI_ARMOR_TYPES)
    return att, dfn


def _with_first(loss: SideLoss, types: frozenset[str]) -> SideLoss:
    return SideLoss(loss.steps, loss.eliminated, loss.retreat, loss.star_steps, loss.order_steps, types,
                    loss.retreat_by_enemy)


def resolve(inp: CombatInput, tables: Tables, roll: int) -> Outcome | Illegal:
    """Read the CRT for a d10 ``roll`` (0 is read as 10, 2.51) and give each side's losses."""
    if not 0 <= roll <= 10:
        return Illegal("2.51", f"a d10 roll is 1-10 (0 reads 10), not {roll}")
    roll = roll or 10
    p = plan(inp, tables)
    if isinstance(p, Illegal):
        return p
    if p.zero_defence:
        return Illegal("15.54", "every defender has 0 defence: the attack is cancelled and the attackers advance")
    if p.column is None:  # 15.57
        cell, box = tables.crt.below_lowest, -1
    else:
        box = tables.crt.box(roll, p.drm)
        cell = tables.crt.cell(p.column, box)
    att, dfn = read_cell(inp, cell)
    defender_gone = dfn.eliminated or dfn.retreat > 0 or dfn.steps >= sum(u.steps for u in inp.defenders)
    may_advance = (defender_gone and not att.eliminated and att.retreat == 0
                   and inp.attack_order != ADDITIONAL_RETREAT)  # 16.5, 16.41b4
    return Outcome(roll, box, cell.text, att, dfn, may_advance)


def allocate_losses(force: Sequence[Combatant], loss: SideLoss, order: Sequence[str]) -> dict[str, int] | Illegal:
    """16.21: the owner removes the steps from the force as he lists them (one uid per step).

    The first step must come from ``loss.first_loss_types`` when the force has one (16.32);
    a loss of all the force's steps or more takes every step and needs no order (16.23).
    Returns uid -> steps lost.
    """
    total = sum(u.steps for u in force)
    if loss.eliminated or loss.steps >= total:
        return {u.uid: u.steps for u in force}
    if len(order) != loss.steps:
        return Illegal("16.21", f"name {loss.steps} step(s) to lose, not {len(order)}")
    left = {u.uid: u.steps for u in force}
    types = {u.uid: u.type for u in force}
    if order and loss.first_loss_types and any(types[u] in loss.first_loss_types for u in left):
        if types.get(order[0]) not in loss.first_loss_types:
            return Illegal("16.32", f"the first step lost must be {'/'.join(sorted(loss.first_loss_types))}")
    taken: Counter[str] = Counter()
    for uid in order:
        if uid not in left:
            return Illegal("16.21", f"{uid} is not in this force")
        if taken[uid] >= left[uid]:
            return Illegal("16.23", f"{uid} has no step left to lose")
        taken[uid] += 1
    return dict(taken)


def removed_to(force: Sequence[Combatant], loss: SideLoss, taken: Mapping[str, int]) -> dict[str, str]:
    """16.24: units out of steps go to the Cadre Box, units of an "e" to the Eliminated Box."""
    if loss.eliminated:
        return {u.uid: ELIMINATED for u in force}
    return {u.uid: CADRE for u in force if taken.get(u.uid, 0) >= u.steps}


def face_after(steps: Sequence[Sequence[int]], lost: int) -> tuple[int, int] | None:
    """The (attack, defence) a unit shows after ``lost`` steps, None once it has none (16.23).

    A unit's steps are listed in loss order: full face, full face under a Step Loss marker,
    reduced face, reduced face under a marker for four steps; a three-step unit stops after the
    reduced face (docs/rulings.md).
    """
    if lost >= len(steps):
        return None
    a, d = steps[lost]
    return int(a), int(d)


def zero_defence_advance(attackers: Sequence[Combatant], stacking: Mapping[str, int], limit: int,
                         order: Sequence[str]) -> tuple[str, ...] | Illegal:
    """15.54 note: after an all-zero defence the designated attackers must advance, as many as the
    stacking limit takes (docs/rulings.md: compulsory); ``order`` is the attacker's choice of
    who goes first when not all fit.  Artillery never advances (16.52)."""
    eligible = [u.uid for u in attackers if u.type != ARTILLERY]
    if sorted(order) != sorted(eligible):
        return Illegal("15.54", "list every designated non-artillery attacker once, in the order they advance")
    out, points = [], 0
    for uid in order:
        if points + stacking.get(uid, 0) <= limit:
            out.append(uid)
            points += stacking.get(uid, 0)
    return tuple(out)


def chances(inp: CombatInput, tables: Tables) -> dict[str, float]:
    """The chance of each printed result, each of the ten rolls equally likely."""
    out: dict[str, float] = {}
    for roll in range(1, 11):
        o = resolve(inp, tables, roll)
        if isinstance(o, Outcome):
            out[o.cell] = out.get(o.cell, 0.0) + 0.1
    return {k: round(v, 10) for k, v in out.items()}


def preview(inp: CombatInput, tables: Tables) -> OddsPreview:
    """The engine's odds preview: strengths, column, every modifier, the chance of each result."""
    p = plan(inp, tables)
    if isinstance(p, Illegal):
        return OddsPreview(p, None, None, None)
    column = p.column if p.column else "under 1-4"
    return OddsPreview(None, int(p.attack), int(p.defence), column, chances(inp, tables),
                       p.notes, p.modifiers)


def order_allowed(side: str, order: str, hq_points_left: int, non_op_hq_in_range: bool) -> Illegal | None:
    """14.31-14.34, 15.58, 22.12c: any Axis hex may get an order; a Soviet one needs an operational
    HQ in range with a command point left (after interdiction, 13.24c) and no Non-Op HQ in range.
    ``hq_points_left``: the best such HQ's unspent command points (0 when none is in range)."""
    if order not in ORDERS:
        return Illegal("14.31", "the orders are No Retreat and Additional Retreat")
    if not order or side == AXIS:
        return None
    if non_op_hq_in_range:
        return Illegal("14.34b", "a Non-Op HQ in range forbids Soviet orders")
    if hq_points_left < 1:
        return Illegal("14.34a", "no operational HQ in range with a command point left")
    return None


def declarable(attack: float, defence: float, tables: Tables) -> Illegal | None:
    """12.31, 12.35: an attack is declared only at 1-4 or better."""
    if defence > 0 and tables.crt.column_for(attack, defence) is None:
        return Illegal("12.35", f"{attack:g} to {defence:g} is worse than 1-4: no attack can be declared")
    return None


# ------------------------------------------------------------------------------ overrun (11.4)


@dataclass(frozen=True)
class OverrunInput:
    """One overrun: the stack's attack, the target's defence and what the table asks (11.42-11.43)."""

    attack: float
    defence: float
    all_german: bool
    defender_all_artillery: bool = False
    defender_overrun_marker: bool = False
    terrain: tuple[str, ...] = ()  # the target hex's terrain DRM names: hill, woods, strongpoint, city ...
    city_or_fortification: bool = False
    motorized_engineer: bool = False


@dataclass(frozen=True)
class OverrunOutcome:
    roll: int
    modified: int
    succeeded: bool
    defender_steps: int  # one step off the target stack (11.43j)
    attacker_steps: int  # one step off the overrunning stack
    modifiers: tuple[Modifier, ...]


def overrun_odds(attack: float, defence: float) -> int:
    """Overrun odds as n-1, rounded for the defender (11.43d-f)."""
    return int(attack // defence) if defence > 0 else 99


def overrun_check(o: OverrunInput, more: MoreTables) -> Illegal | None:
    """11.42a, c2: the minimum odds of an overrun."""
    t = more.overrun
    odds = overrun_odds(o.attack, o.defence)
    if o.city_or_fortification:
        if not o.motorized_engineer or odds < t.min_odds_city_engineer:
            return Illegal("11.42c", f"a city or fortification is overrun only at {t.min_odds_city_engineer}-1 "
                                     "with a motorized engineer")
    need = t.min_odds_german if o.all_german else t.min_odds_other
    if odds < need:
        return Illegal("11.42a", f"overrun odds {odds}-1 are under the {need}-1 minimum")
    return None


def overrun_modifiers(o: OverrunInput, more: MoreTables) -> tuple[Modifier, ...]:
    """11.43f-h: odds, defender condition and terrain DRMs, the net held to +/-3."""
    t = more.overrun
    odds = overrun_odds(o.attack, o.defence)
    mods = []
    if t.odds_drm(odds):
        mods.append(Modifier("11.43f", f"overrun at {odds}-1", die_modifier=t.odds_drm(odds)))
    if o.defender_all_artillery:
        mods.append(Modifier("11.43g", "every target unit is artillery", die_modifier=t.all_artillery_drm))
    if o.defender_overrun_marker:
        mods.append(Modifier("11.44d", "target already overrun", die_modifier=t.already_overrun_drm))
    for name in o.terrain:
        if t.terrain_drm.get(name):
            mods.append(Modifier("11.43h", f"target in {name.replace('_', ' ')}", die_modifier=t.terrain_drm[name]))
    raw = sum(m.die_modifier for m in mods)
    net = max(-t.net_drm_cap, min(t.net_drm_cap, raw))
    if net != raw:
        mods.append(Modifier("11.43h", f"net modifier {raw:+d} held to {net:+d}", die_modifier=net - raw))
    return tuple(mods)


def resolve_overrun(o: OverrunInput, more: MoreTables, roll: int) -> OverrunOutcome | Illegal:
    """11.43i: read the Overrun Table for a d10 roll (0 is 10)."""
    bad = overrun_check(o, more)
    if bad is not None:
        return bad
    roll = roll or 10
    mods = overrun_modifiers(o, more)
    modified = roll + sum(m.die_modifier for m in mods)
    result = more.overrun.rolls.result(modified)
    return OverrunOutcome(roll, modified, result.startswith("succeeds"), int(result == "succeeds_step"),
                          int(result == "fails_step"), mods)


# ------------------------------------------------------------------------- retreat table (16.46)


@dataclass(frozen=True)
class ZocRetreat:
    steps_lost: int  # lost at once, whatever the roll (16.46 step 1)
    modified: int
    escaped: bool  # False: every retreating unit goes to the Cadre Box (16.46 step 3)


def retreat_through_zoc(roll: int, with_artillery: bool, more: MoreTables) -> ZocRetreat:
    """16.46: one step off, then a modified roll of 3 or less escapes; artillery makes it worse."""
    t = more.retreat
    roll = roll or 10
    modified = roll + (t.artillery_drm if with_artillery else 0)
    return ZocRetreat(t.automatic_step_loss, modified, modified <= t.escape_max)


# ------------------------------------------------------------------------ Sumy victory (PB 10.45)


def soviet_sudden_win(axis_steps_lost: int, limit: int) -> bool:
    """PB 10.45b2: the Soviet wins once the Axis has lost ``limit`` steps in play (ends play at
    once; every step the Axis loses counts, see docs/rulings.md)."""
    return axis_steps_lost >= limit


def steps_lost_by(force: Sequence[Combatant], taken: Mapping[str, int], removed: Mapping[str, str]) -> int:
    """Steps a force lost in one result: those taken, and all of any unit removed (16.24)."""
    left = {u.uid: u.steps for u in force}
    return sum(left[uid] if uid in removed else taken.get(uid, 0) for uid in left)


__all__ = ["Combatant", "CombatInput", "Plan", "SideLoss", "Outcome", "plan", "resolve", "preview", "chances",
           "read_cell", "allocate_losses", "removed_to", "face_after", "zero_defence_advance",
           "integrity_divisions", "combined_arms", "strengths", "declarable", "order_allowed", "OverrunInput", "OverrunOutcome",
           "overrun_check", "overrun_modifiers", "resolve_overrun", "overrun_odds", "ZocRetreat",
           "retreat_through_zoc", "soviet_sudden_win", "steps_lost_by"]
