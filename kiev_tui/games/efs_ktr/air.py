"""Air power in Kiev to Rostov (EFS 9, 13, 15.1, 17; PB 5.13c, 10.4): pure functions, dice passed in.

Boxes (9.1, 17.26): ``air_ready``, ``air_flown``, ``air_damaged``, ``air_destroyed``.  A mission
goes: the attacker places up to three units (17.21b), the defender answers (17.24); all are
revealed and dummies go back to the Ready Box (PB 10.4); bombers, and dual-purpose fighters their
owners declare so once face up, are mission units, the other fighters fire (17.31); when both
sides have units there and someone fires, the Air Initiative Table decides whether air combat
happens and who matches the pairs (17.32); each pair's firer reads the Air Combat Table column of
its ACR less the target's (17.33); with Local Tactical Advantage the initiative side's firers
whose opponents left shoot once more at targets that cannot answer (17.33e); surviving mission units take AA fire from eligible
ground units in or next to the mission hex (17.4); what survives gives CAS points (15.13,
15.65) or an interdiction level (13.14).  Readings of unclear cases: docs/rulings.md, "EFS:
combat and air".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from kiev_tui.engine.errors import Illegal
from kiev_tui.games.efs_ktr.schema import AXIS, SOVIET
from kiev_tui.games.efs_ktr.tables import AIR_RESULTS, MoreTables

READY, FLOWN, DAMAGED, DESTROYED = "air_ready", "air_flown", "air_damaged", "air_destroyed"
FIGHTER, BOMBER, DUMMY = "fighter", "bomber", "dummy"
CAS, INTERDICTION = "cas", "interdiction"
#: 17.33d: where an air combat or AA result sends its unit.
RESULT_BOX = {"A": FLOWN, "D": DAMAGED, "X": DESTROYED}


@dataclass(frozen=True)
class AirUnit:
    """An air unit's ratings (17.33, 15.65, 13.14) and its own modifier against AA fire (PB 11.1)."""

    uid: str
    side: str
    role: str  # fighter, bomber or dummy (17.11, 17.25)
    acr: int = 0
    cas: int = 0
    interdiction: int = 0
    aa_drm: int = 0


@dataclass(frozen=True)
class AAUnit:
    """A ground unit in the mission hex or next to it, as AA eligibility needs it (17.42)."""

    uid: str
    side: str
    type: str
    size: str = ""  # "XX" division, "III" regiment, "II" battalion, "X" brigade, "HQ"
    zoc: bool = True
    division: str = ""


# ----------------------------------------------------------------------------- readiness (9.1)


def logistics_pause_drm(side: str, pause_in_effect: bool, more: MoreTables) -> int:
    """PB 5.13c: the Axis adds +1 to readiness while its Logistics Pause lasts, else nothing.
    Sumy (GT50-53) comes after any pause can end (GT38 at the latest, PB 5.11-5.12): pass False."""
    return more.air.axis_logistics_pause_drm if side == AXIS and pause_in_effect else 0


def readiness(unit: AirUnit, box: str, roll: int | None, more: MoreTables, drm: int = 0,
              storm: bool = False) -> str | Illegal:
    """9.11-9.13: the box an air unit ends the Air Readiness Phase in.

    A dummy returns to Ready without a roll; a Ready unit stays (unless a Storm sends it to
    Flown first, 9.12); a Flown unit goes to Ready on a modified roll within its side's Flown
    range, a Damaged one to Flown within the Damaged range; Destroyed units never roll.
    ``roll`` is needed only when the unit rolls (0 reads 10).
    """
    if unit.role == DUMMY:
        return READY
    if box == DESTROYED:
        return DESTROYED
    if box == READY and not storm:
        return READY
    if box not in (READY, FLOWN, DAMAGED):
        return Illegal("9.11", f"'{box}' is not an air box")
    if roll is None or not 0 <= roll <= 10:
        return Illegal("9.11", "this unit rolls for readiness: give a d10 roll")
    modified = (roll or 10) + drm
    if box == DAMAGED:
        return FLOWN if modified <= more.air.damaged_max[unit.side] else DAMAGED
    return READY if modified <= more.air.flown_max[unit.side] else FLOWN


# ----------------------------------------------------------------------------------- missions


def check_mission(units: Sequence[AirUnit], boxes: Mapping[str, str], kind: str, more: MoreTables,
                  flown_this_turn: Iterable[str] = ()) -> Illegal | None:
    """17.13, 17.21, 13.11: one side's units for one mission."""
    if kind not in (CAS, INTERDICTION):
        return Illegal("17.21", f"'{kind}' is not an air mission (cas or interdiction)")
    if not units:
        return Illegal("17.21", "a mission needs an air unit")
    if len(units) > more.air.max_units_per_side:
        return Illegal("17.21b", f"at most {more.air.max_units_per_side} air units a side on one mission")
    if len({u.side for u in units}) != 1:
        return Illegal("17.21", "one side's units per placement")
    done = set(flown_this_turn)
    for u in units:
        if boxes.get(u.uid) != READY:
            return Illegal("17.13", f"{u.uid} is not in the Ready Box")
        if u.uid in done:
            return Illegal("17.21a", f"{u.uid} has flown a mission this turn")
    return None


def check_cas_placement(side: str, attacker: str, attacker_finished: bool, declared_attack: bool,
                        side_has_mission_there: bool) -> Illegal | None:
    """15.12, 17.24: CAS goes only to a hex with a Declared Attack marker, one mission a side per
    hex; the attacker places all his CAS first, then the defender places his."""
    if not declared_attack:
        return Illegal("17.24", "close air support flies only to a hex under a declared attack")
    if side_has_mission_there:
        return Illegal("15.12", "one mission per hex in a combat phase")
    if side != attacker and not attacker_finished:
        return Illegal("17.24", "the attacker places all his close air support first")
    if side == attacker and attacker_finished:
        return Illegal("17.24", "the attacker has finished placing; the defender places now")
    return None


def check_interdiction_opposition(units: Sequence[AirUnit]) -> Illegal | None:
    """13.11, 17.21 note: only the Axis interdicts; the Soviet opposes it with fighters only."""
    for u in units:
        if u.side == SOVIET and u.role == BOMBER:
            return Illegal("17.21", "only Soviet fighters may oppose an interdiction mission")
    return None


def reveal(units: Sequence[AirUnit]) -> tuple[tuple[AirUnit, ...], tuple[str, ...]]:
    """17.31a: turn everything face up; dummies leave (back to the Ready Box, PB 10.4)."""
    real = tuple(u for u in units if u.role != DUMMY)
    return real, tuple(u.uid for u in units if u.role == DUMMY)


def firing_units(units: Sequence[AirUnit], kind: str, declared_mission: Iterable[str] = ()) -> tuple[AirUnit, ...]:
    """17.31b: bombers are mission units; a fighter fires unless it has a rating for the mission
    and its owner declared it a mission unit (a dual-purpose fighter, 17.31b2)."""
    mission = set(declared_mission)
    out = []
    for u in units:
        if u.role != FIGHTER:
            continue
        rating = u.cas if kind == CAS else u.interdiction
        if u.uid in mission and rating > 0:
            continue
        out.append(u)
    return tuple(out)


def dual_purpose(units: Sequence[AirUnit], kind: str) -> tuple[AirUnit, ...]:
    """17.31b2: the fighters among ``units`` that carry a rating for this mission (CAS or
    interdiction) and so may serve as mission units instead of firing."""
    return tuple(u for u in units if u.role == FIGHTER and (u.cas if kind == CAS else u.interdiction) > 0)


def check_declarations(units: Sequence[AirUnit], kind: str, declared_mission: Iterable[str]) -> Illegal | None:
    """17.31b2: only a fighter with a rating for this mission may be declared a mission unit,
    each once; ``units`` are the declaring side's revealed units in the hex."""
    allowed = {u.uid for u in dual_purpose(units, kind)}
    seen: set[str] = set()
    for uid in declared_mission:
        if uid not in allowed:
            return Illegal("17.31b2", f"{uid} is not a dual-purpose fighter of yours on this mission")
        if uid in seen:
            return Illegal("17.31b2", f"{uid} is declared twice")
        seen.add(uid)
    return None


@dataclass(frozen=True)
class Initiative:
    combat: bool  # False: no air combat, firing units go to Flown (17.32b2)
    side: str  # who matches the pairs, "" when no air combat
    lta: bool  # Local Tactical Advantage: a second round for unengaged firers (17.33e)
    result: str  # the table's own word


def air_initiative(roll: int, firing_sides: Iterable[str], more: MoreTables) -> Initiative | Illegal:
    """17.32: read the Air Initiative Table (0 reads 10).  A side without firing units cannot hold
    the initiative (17.32a): it passes to the side that has them, without the advantage
    (docs/rulings.md).  With no firing unit at all there is no air combat and no roll is needed."""
    sides = set(firing_sides)
    if not sides:
        return Initiative(False, "", False, "none")
    if not 0 <= roll <= 10:
        return Illegal("17.32", f"a d10 roll, not {roll}")
    result = more.air.initiative.result(roll or 10)
    if result == "none":
        return Initiative(False, "", False, result)
    side = AXIS if result.startswith(AXIS) else SOVIET
    lta = result.endswith("_lta")
    if side not in sides:
        side, lta = next(iter(sides - {side})), False
    return Initiative(True, side, lta, result)


def check_pairs(initiative_side: str, firers: Sequence[AirUnit], targets: Sequence[AirUnit],
                pairs: Sequence[tuple[str, str]]) -> Illegal | None:
    """17.33a: the initiative side's pairing.  Every firer fires once, at an enemy unit in the
    hex; the initiative side's firers must engage every enemy firer before any attacks a mission
    unit (as far as they go round)."""
    by_id = {u.uid: u for u in (*firers, *targets)}
    fired: set[str] = set()
    for f, t in pairs:
        if f not in {u.uid for u in firers}:
            return Illegal("17.31b", f"{f} is not a firing unit")
        if f in fired:
            return Illegal("17.33a", f"{f} fires once in a round")
        if t not in by_id or by_id[t].side == by_id[f].side:
            return Illegal("17.33a", f"{t} is not an enemy air unit in the hex")
        fired.add(f)
    mine = [f for f, _ in pairs if by_id[f].side == initiative_side]
    enemy_firers = {u.uid for u in firers if u.side != initiative_side}
    engaged = {t for f, t in pairs if by_id[f].side == initiative_side and t in enemy_firers}
    at_missions = any(t not in enemy_firers for f, t in pairs if by_id[f].side == initiative_side)
    if at_missions and len(engaged) < min(len(enemy_firers), len(mine)):
        return Illegal("17.33a", "every enemy firing unit is engaged before a mission unit is attacked")
    return None


def fire(firer: AirUnit, target: AirUnit, roll: int, more: MoreTables) -> str:
    """17.33c: the Air Combat Table column of firer ACR less target ACR, read for a d10 roll."""
    return more.air.combat_column(firer.acr - target.acr).result(roll or 10)


def air_combat(pairs: Sequence[tuple[AirUnit, AirUnit]], rolls: Sequence[int], more: MoreTables) -> dict[str, str]:
    """17.33b, d: every pair fires at once; each target keeps its worst result ("-" none)."""
    if len(rolls) != len(pairs):
        raise ValueError("one roll per firing pair")
    out: dict[str, str] = {}
    for (f, t), roll in zip(pairs, rolls):
        r = fire(f, t, roll, more)
        old = out.get(t.uid, "-")
        out[t.uid] = r if AIR_RESULTS.index(r) < AIR_RESULTS.index(old) else old
    return out


def unengaged(initiative_side: str, pairs: Sequence[tuple[AirUnit, AirUnit]],
              results: Mapping[str, str]) -> tuple[str, ...]:
    """17.33e: the initiative side's firers whose opponent left (any A, D or X result): with Local
    Tactical Advantage each picks a new target, which cannot fire back."""
    out: list[str] = []
    for f, t in pairs:
        if (f.side == initiative_side and results.get(t.uid, "-") != "-"
                and results.get(f.uid, "-") == "-" and f.uid not in out):
            out.append(f.uid)
    return tuple(out)


def lta_targets(initiative_side: str, units: Sequence[AirUnit], results: Mapping[str, str]) -> tuple[AirUnit, ...]:
    """17.33e: the enemy air units still over the hex after the first round (no A, D or X):
    firing or mission units alike, any of them may be picked."""
    return tuple(u for u in units if u.side != initiative_side and u.role != DUMMY and results.get(u.uid, "-") == "-")


def check_lta(free: Sequence[str], targets: Sequence[AirUnit], pairs: Sequence[tuple[str, str]]) -> Illegal | None:
    """17.33e: each unengaged firer takes one new target among the enemy units left over the hex
    (ganging up allowed); no other unit fires in this round (docs/rulings.md)."""
    left = {u.uid for u in targets}
    fired: set[str] = set()
    for f, t in pairs:
        if f not in free:
            return Illegal("17.33e", f"{f} is not a firing unit left unengaged by the first round")
        if f in fired:
            return Illegal("17.33e", f"{f} takes one new target")
        if t not in left:
            return Illegal("17.33e", f"{t} is not an enemy air unit still over the hex")
        fired.add(f)
    if left and fired != set(free):
        missing = ", ".join(sorted(set(free) - fired))
        return Illegal("17.33e", f"every unengaged firer takes a new target: {missing} has none")
    return None


def merge_results(*rounds: Mapping[str, str]) -> dict[str, str]:
    """17.33d: over both rounds each unit keeps its worst result ("-" none)."""
    out: dict[str, str] = {}
    for r in rounds:
        for uid, res in r.items():
            old = out.get(uid, "-")
            out[uid] = res if AIR_RESULTS.index(res) < AIR_RESULTS.index(old) else old
    return out


# ---------------------------------------------------------------------------------- AA (17.4)


def aa_eligible(units: Sequence[AAUnit]) -> tuple[str, ...]:
    """17.42: the units that may fire AA among those in the mission hex and its six neighbours.

    Axis: any combat unit but cavalry and units without a ZOC, AA units always (17.42a; one unit
    is enough, whatever its division's other units do).  Soviet: divisions other than cavalry,
    HQs and AA units of any size (17.42b); a division shown as regiment counters counts when two
    or more of its non-cavalry components are there (docs/rulings.md: Guards motorized).
    """
    out = []
    soviet_parts: dict[str, list[str]] = {}
    for u in units:
        if u.side == AXIS:
            if u.type == "anti_aircraft" or (u.type != "cavalry" and u.zoc and u.type != "hq"):
                out.append(u.uid)
        elif u.type in ("anti_aircraft", "hq", "naval"):
            out.append(u.uid)
        elif u.type != "cavalry" and u.size == "XX":
            out.append(u.uid)
        elif u.type != "cavalry" and u.division and u.type != "artillery":
            soviet_parts.setdefault(u.division, []).append(u.uid)
    for parts in soviet_parts.values():
        if len(parts) >= 2:
            out.extend(parts)
    return tuple(out)


def aa_drm(firing: Sequence[AAUnit], target: AirUnit, more: MoreTables) -> int:
    """17.43: the firing side's +1 per HQ and per AA unit in range, the target's own DRM; each side
    held to +/-2 before they are netted."""
    cap = more.air.aa_side_cap
    mine = sum(more.air.aa_hq_drm if u.type == "hq" else more.air.aa_unit_drm if u.type == "anti_aircraft" else 0
               for u in firing)
    theirs = target.aa_drm
    return max(-cap, min(cap, mine)) + max(-cap, min(cap, theirs))


def aa_fire(roll: int, ground: Sequence[AAUnit], target: AirUnit, more: MoreTables) -> str | None:
    """17.41-17.43: one AA shot at one enemy mission unit; None when no eligible unit is in range.
    ``ground`` is the firing side's units in the mission hex and its six neighbours."""
    eligible = set(aa_eligible([u for u in ground if u.side != target.side]))
    firing = [u for u in ground if u.uid in eligible]
    if not firing:
        return None
    return more.air.aa_fire.result((roll or 10) + aa_drm(firing, target, more))


# ---------------------------------------------------------------------------- CAS and interdiction


def mission_units(units: Sequence[AirUnit], kind: str, declared_mission: Iterable[str] = ()) -> tuple[AirUnit, ...]:
    """17.31b: the mission units of a placement (bombers and fighters declared mission units)."""
    firing = {u.uid for u in firing_units(units, kind, declared_mission)}
    return tuple(u for u in units if u.role != DUMMY and u.uid not in firing)


def cas_points(attacker_survivors: Sequence[AirUnit], defender_survivors: Sequence[AirUnit]) -> tuple[int, int]:
    """15.13: each side's CAS rating total of the mission units left after air combat and AA;
    combat.CombatInput nets them (15.65)."""
    return sum(u.cas for u in attacker_survivors), sum(u.cas for u in defender_survivors)


def interdiction_level(survivors: Sequence[AirUnit], more: MoreTables) -> int:
    """13.14: Level One for a total interdiction rating of 1, Level Two for 2 or more."""
    total = sum(u.interdiction for u in survivors if u.side == AXIS)
    if total <= 0:
        return 0
    return min(more.air.interdiction_max_level, 2 if total >= more.air.interdiction_level_two else 1)


def hex_interdiction(levels: Iterable[int], more: MoreTables) -> int:
    """13.15: a hex in several zones adds their levels, never past Level Two."""
    return min(more.air.interdiction_max_level, sum(levels))


def interdicted_command(command: int, level: int) -> int:
    """13.24: an HQ in a zone loses command equal to the level there, down to 0."""
    return max(0, command - level)


def interdicted_artillery(allowed: int, level: int) -> int:
    """13.24d: each level takes one stacked artillery unit off support; one can always fire."""
    return max(1, allowed - level)


__all__ = ["READY", "FLOWN", "DAMAGED", "DESTROYED", "AirUnit", "AAUnit", "Initiative", "readiness",
           "logistics_pause_drm", "check_mission", "check_cas_placement", "check_interdiction_opposition", "reveal", "firing_units",
           "dual_purpose", "check_declarations", "air_initiative", "check_pairs", "fire", "air_combat", "unengaged",
           "lta_targets", "check_lta", "merge_results",
           "aa_eligible", "aa_drm", "aa_fire", "mission_units", "cas_points", "interdiction_level",
           "hex_interdiction", "interdicted_command", "interdicted_artillery", "RESULT_BOX"]
