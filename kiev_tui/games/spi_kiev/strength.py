"""Combat strengths (9.3, 10.x, 11.37-11.38, 12.23, 19.53, 19.66, 20.0-21.0) and odds (9.4)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

from kiev_tui.engine.crt import ODDS, CombatTable
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View
from kiev_tui.games.spi_kiev.supply import Supply
from kiev_tui.games.spi_kiev.tables import CombatTables, check_combat_values
from kiev_tui.later import handed_out


@dataclass(frozen=True, slots=True)
class Modifier:
    case: str
    text: str
    #: the strength multiplier it stands for (1.0: none); the engine's typed Modifier carries it
    factor: float = field(default=1.0, compare=False)


@dataclass(frozen=True, slots=True)
class UnitStrength:
    """One unit's part in a battle: printed value, final value and every modifier applied."""

    unit: str
    base: int | None  # None while untried (unknown to both players)
    value: float | None
    mods: tuple[Modifier, ...] = ()


def current_strength(view: View, uid: str) -> tuple[int, int]:
    d = view.udef(uid)
    step = view.state.units[uid].step
    return d.steps[min(step, len(d.steps) - 1)]


def integrity_partners(view: View, uid: str, integrity_choice: str = "") -> list[str]:
    """German regiments of the same division in this hex (20.0); GD joins any one division (20.2)."""
    d = view.udef(uid)
    h = view.hex_of(uid)
    if d.side != GERMAN or h is None or d.leader or d.size != "III":
        return []  # 20.12: single-counter divisions and leaders are not eligible
    mates = [u for u in view.at(h) if u != uid and view.side(u) == GERMAN and view.udef(u).size == "III"
             and not view.udef(u).leader]
    if _is_gd(d.division, d.designation):
        # 20.2: GD itself doubles beside any mechanized regiment of a division; which division's
        # regiment doubles with it (the German's choice) is settled for that regiment below.
        return [u for u in mates if view.udef(u).mechanized and view.udef(u).division]
    same = [u for u in mates if d.division and view.udef(u).division == d.division]
    if same:
        return same
    gd = [u for u in mates if _is_gd(view.udef(u).division, view.udef(u).designation)]
    if gd and d.mechanized:
        divs = sorted({view.udef(u).division for u in mates if view.udef(u).mechanized and view.udef(u).division
                       and not _is_gd(view.udef(u).division, view.udef(u).designation)} | {d.division})
        pick = integrity_choice if integrity_choice in divs else divs[0]
        if len(divs) > 1 and d.division != pick:
            return []
        return gd
    return []


def _is_gd(division: str, designation: str) -> bool:
    return division.upper() in ("GD", "GROSS DEUTSCHLAND") or designation.upper() == "GD"


def _river_across(view: View, target: Hex, attacker_hexes: list[Hex]) -> str:
    """'major' or 'minor' when every attacker strikes across such a river hexside, else ''."""
    if not attacker_hexes:
        return ""
    kinds = []
    for a in attacker_hexes:
        f = view.map.side_features(a, target)
        if "major_river" in f:
            kinds.append("major")
        elif "minor_river" in f:
            kinds.append("minor")
        else:
            return ""  # 10.12: one attacker on dry ground cancels the river bonus
    return "major" if all(k == "major" for k in kinds) else "minor"


def combat_values(view: View) -> CombatTables:
    """The scenario's defence multipliers from tables.toml, read once per scenario."""
    sc = view.game.scenario
    cached = sc.derived.get("combat_values")
    if not isinstance(cached, CombatTables):
        cached = sc.derived["combat_values"] = check_combat_values(sc.tables_path, sc.tables)
    return cached


def _times(m: float) -> str:
    return {2.0: "doubled", 3.0: "tripled"}.get(float(m), f"x{m:g}")


def terrain_multiplier(view: View, target: Hex, attacker_hexes: list[Hex], in_supply: bool) -> tuple[float, list[Modifier]]:
    """Defence multiplier of a hex against these attackers, from the tables, capped (10.32)."""
    tab = combat_values(view)
    bonuses: list[tuple[float, Modifier]] = []
    special = tab.hex_defense.get(str(target))
    terrain = view.map.terrain(target)
    if special is not None and in_supply:
        # 19.53: a special hex (Kiev) replaces its city's doubling while in supply.
        bonuses.append((special, Modifier("19.53", f"{view.map.name(target) or target} in supply: defence {_times(special)}")))
    elif view.map.settlement(target) == "city":
        why = " (out of supply, 19.53)" if special is not None else ""
        city = tab.terrain_defense.get("city", 1.0)
        bonuses.append((city, Modifier("10.26", f"city: defence {_times(city)}{why}")))
    elif tab.terrain_defense.get(terrain, 1.0) > 1:
        bonuses.append((tab.terrain_defense[terrain], Modifier("10.4", f"{terrain}: defence {_times(tab.terrain_defense[terrain])}")))
    river = _river_across(view, target, attacker_hexes)
    if river == "major":
        m = tab.hexside_defense.get("major_river", 1.0)
        bonuses.append((m, Modifier("10.14", f"attacked only across a major river: defence {_times(m)}")))
    elif river == "minor":
        m = tab.hexside_defense.get("minor_river", 1.0)
        bonuses.append((m, Modifier("10.12", f"attacked only across rivers: defence {_times(m)}")))
    bonuses = [b for b in bonuses if b[0] > 1]
    mods = [m for _, m in bonuses]
    if not bonuses:
        return 1, mods
    if len(bonuses) == 1:
        mult = min(bonuses[0][0], tab.max_multiplier)
        return mult, [replace(mods[0], factor=mult)]
    # 10.32: two bonuses or more give the chart's ceiling, never more (the ceiling is the factor).
    mods.append(Modifier("10.32", f"two defensive bonuses: {_times(tab.max_multiplier)}, never more",
                         tab.max_multiplier))
    return tab.max_multiplier, mods


def defence(view: View, supply: Supply, target: Hex, attacker_hexes: list[Hex],
            excluded: set[str] | frozenset[str] = frozenset(),
            integrity_choice: str = "") -> tuple[float, list[UnitStrength]]:
    """Total defence of one hex (before the once-only rounding) and each unit's share;
    ``integrity_choice`` is the division the German named for GD (20.2)."""
    ids = [u for u in view.at(target) if u not in excluded]
    # 11.38: an HQ adds nothing to units that defend; beside only no-strength units (19.63: they
    # stay when an HQ is in the battle) it is the hex's one defender, at half its rating (19.66).
    combat_units = [u for u in ids if not view.is_hq_like(u)
                    and (view.untried(u) or current_strength(view, u)[1] > 0)]
    out: list[UnitStrength] = []
    total = 0.0
    for uid in ids:
        d = view.udef(uid)
        if view.untried(uid):
            out.append(UnitStrength(uid, None, None, (Modifier("13.2", "untried: revealed when the battle is fought"),)))
            continue
        mods: list[Modifier] = []
        if d.hq or d.leader:
            if d.hq and combat_units:
                out.append(UnitStrength(uid, 0, 0.0, (Modifier("11.38", "an HQ adds nothing to its stack's defence"),)))
                continue
            base = d.leadership // 2
            mods.append(Modifier("19.66" if d.hq else "21.0", f"half its rating {d.leadership}, rounded down: {base}"))
            value = float(base)  # 21.0: a leader's share then takes the stack's terrain and supply
        else:
            base = current_strength(view, uid)[1]
            value = float(base)
        st = supply.status(uid)
        mult, tmods = terrain_multiplier(view, target, attacker_hexes, st.in_supply)
        if mult > 1:
            value *= mult
            mods.extend(tmods)
        if integrity_partners(view, uid, integrity_choice):
            value *= 2
            mods.append(Modifier("20.0", "divisional integrity: doubled", 2.0))
        if not st.in_supply:
            value = _halved(value, base, not (d.hq or d.leader), mods)
        out.append(UnitStrength(uid, base, value, tuple(mods)))
        total += value
    return total, out


def _halved(value: float, base: int, combat_unit: bool, mods: list[Modifier]) -> float:
    """12.23: out of supply, halved; a combat unit with any strength never drops below 1 (the
    fraction above 1 is kept for the single rounding of 9.32).  An HQ's or leader's share is not a
    combat unit's strength: only its stack's floor (9.32) holds it up."""
    half = value / 2
    if combat_unit and base > 0 and half < 1:
        mods.append(Modifier("12.23", "out of supply: halved, but a unit is never worth less than 1", 1 / value))
        return 1.0
    mods.append(Modifier("12.23", "out of supply: halved", 0.5))
    return half


def attack(view: View, supply: Supply, attackers: list[str], overrun: bool = False,
           integrity_choice: str = "") -> tuple[float, list[UnitStrength]]:
    """Total attack (before the final rounding) and each unit's share; HQs and leaders add their
    rating to the units of their own hex, never more than those units' strength (11.37)."""
    out: list[UnitStrength] = []
    by_hex: dict[Hex, float] = {}
    leaders: list[str] = []
    total = 0.0
    for uid in attackers:
        d = view.udef(uid)
        if d.hq or d.leader:
            leaders.append(uid)
            continue
        if view.untried(uid):
            out.append(UnitStrength(uid, None, None, (Modifier("13.2", "untried: revealed when the battle is fought"),)))
            continue
        base = current_strength(view, uid)[0]
        value = float(base)
        mods: list[Modifier] = []
        if integrity_partners(view, uid, integrity_choice):
            value *= 2
            mods.append(Modifier("20.0", "divisional integrity: doubled", 2.0))
        # 6.12, 12.21: an overrunning unit keeps the supply it had when the movement phase began.
        in_supply = uid not in view.vars.oos_start if overrun else supply.status(uid).in_supply
        if not in_supply:
            value = _halved(value, base, True, mods)
        h = view.hex_of(uid)
        assert h is not None
        by_hex[h] = by_hex.get(h, 0.0) + value
        out.append(UnitStrength(uid, base, value, tuple(mods)))
        total += value
    if overrun:
        total = float(math.floor(total / 2))  # 6.0: overrun strength halved, fractions dropped
    for uid in leaders:
        d = view.udef(uid)
        h = view.hex_of(uid)
        own = by_hex.get(h, 0.0) if h is not None else 0.0
        if overrun:
            own = math.floor(own / 2)
        add = float(min(d.leadership, math.floor(own)))
        case = "19.43" if overrun else ("21.0" if d.leader else "11.37")
        out.append(UnitStrength(uid, d.leadership, add,
                                (Modifier(case, f"adds its rating {d.leadership}, capped at its stack's {math.floor(own)}"),)))
        total += add
    return total, out


def final(total: float, any_units: bool) -> int:
    """9.32: round down once at the very end, then a stack with any printed strength
    (``any_units``) is never worth less than one, even an overrun halved to nothing.  Each
    combat unit was already kept at 1 or more through its supply halving (12.23, ``_halved``)."""
    value = math.floor(total + 1e-9)
    return max(1, value) if any_units else value


def has_strength(view: View, parts: list[UnitStrength] | tuple[UnitStrength, ...]) -> bool:
    """Whether some combat unit among these has a printed strength (HQs and leaders only add)."""
    return any(p.base for p in parts if p.base is not None and not view.is_hq_like(p.unit))


def odds_column(attack_total: int, defence_total: int, columns: tuple[str, ...], above_highest: str = "",
                below_lowest: str = "") -> str:
    """9.4: simplify the ratio in the defender's favour; ratios off the table use the clamp
    columns tables.toml names (by default its first and last columns)."""
    return _reader(tuple(columns), above_highest, below_lowest).column(attack_total, defence_total)


@functools.lru_cache(maxsize=32)
def _reader(columns: tuple[str, ...], above: str, below: str) -> CombatTable:
    return CombatTable(columns, ODDS, above, below)  # one per table: built once, read often


__all__ = ["Modifier", "UnitStrength", "attack", "defence", "final", "has_strength", "odds_column",
           "terrain_multiplier", "combat_values",
           "integrity_partners", "integrity_choices", "integrity_candidates", "check_integrity", "current_strength", "SOVIET", "GERMAN"]


#: Functions written in strength_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'integrity_candidates', 'check_integrity', 'integrity_choices'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.strength_more", _LATER)
