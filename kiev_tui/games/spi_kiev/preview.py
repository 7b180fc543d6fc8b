"""Proposing an attack (9.1-9.4, 13.2, 19.63, 19.65): who may attack whom, and the odds.

Nothing here changes the game: the CRT and combat values are read once per scenario, and a
preview with untried units samples their faces with its own generator, never the game's dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.rules import Modifier as TypedModifier

from kiev_tui.games.spi_kiev.actions import Attack
from kiev_tui.games.spi_kiev.common import COMBAT, SOVIET, View
from kiev_tui.games.spi_kiev.state import kiev_vars
from kiev_tui.games.spi_kiev.strength import (Modifier, UnitStrength, attack, check_integrity, combat_values, defence, final,
                                              has_strength, odds_column)
from kiev_tui.games.spi_kiev.tables import CRT, CombatTables, check_tables
from kiev_tui.games.spi_kiev.untried import pool

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def crt(game: "Game") -> CRT:
    sc = game.scenario
    cached = sc.derived.get("crt")  # pragma: no mutate: a missed cache only reads the same CRT again
    if not isinstance(cached, CRT):
        cached = sc.derived["crt"] = check_tables(sc.tables_path, sc.tables)
    return cached


def combat_tables(game: "Game") -> CombatTables:
    """The defence multipliers combat reads from the scenario's tables.toml (10.4, 10.32, 19.53)."""
    return combat_values(View(game))


def column(table: CRT, a: int, d: int) -> str:
    return odds_column(a, d, table.columns, table.above_highest, table.below_lowest)


@dataclass(frozen=True, slots=True)
class Preview:
    """What a proposed battle looks like before anything is committed."""

    attackers: tuple[UnitStrength, ...]
    defenders: tuple[UnitStrength, ...]
    attack: int | None
    defense: int | None
    column: str | None
    chances: dict[str, float]
    illegal: Illegal | None
    notes: tuple[str, ...] = ()
    #: modifiers of the whole battle, not of one unit (6.0: the overrun halves the attack)
    battle_mods: tuple[Modifier, ...] = field(default=(), compare=False)

    @property
    def modifiers(self) -> tuple[TypedModifier, ...]:
        """Every modifier as the engine types it (issue 30): each unit's, then the battle's.
        Kiev has no column shifts or die modifiers; its multipliers are factors."""
        own = tuple(TypedModifier(m.case, m.text, factor=m.factor, unit=us.unit)
                    for us in self.attackers + self.defenders for m in us.mods)
        return own + tuple(TypedModifier(m.case, m.text, factor=m.factor, unit="attack") for m in self.battle_mods)


def parse_hexes(ids: tuple[str, ...]) -> list[Hex] | Illegal:
    try:
        return [Hex.parse(t) for t in ids]
    except HexError as exc:
        return Illegal("9.1", str(exc))


def _attacker_hexes(view: View, attackers: tuple[str, ...]) -> list[Hex]:
    return sorted({h for u in attackers if (h := view.hex_of(u)) is not None})


def strengths(view: View, attackers: tuple[str, ...], targets: list[Hex], overrun: bool, integrity: str,
               defence_integrity: dict[str, str] | None = None
               ) -> tuple[float, list[UnitStrength], float, list[UnitStrength], list[int]]:
    sup = view.supply
    a_total, a_parts = attack(view, sup, list(attackers), overrun, integrity)
    d_total = 0.0
    d_parts: list[UnitStrength] = []
    per_hex: list[int] = []
    # 9.76: newcomers add nothing (only combat records them: apply_retreat, never an overrun).
    excluded = set(view.vars.retreated_into)
    ah = _attacker_hexes(view, attackers)
    for t in targets:
        tot, parts = defence(view, sup, t, ah, excluded, (defence_integrity or {}).get(str(t), ""))
        d_parts.extend(parts)
        any_def = any(p.base for p in parts if p.base is not None)
        per_hex.append(final(tot, any_def))
        d_total += tot
    return a_total, a_parts, d_total, d_parts, per_hex


def preview(game: "Game", attackers: tuple[str, ...] | list[str], targets: tuple[str, ...] | list[str],
            integrity: str = "") -> Preview:
    """Odds preview of an attack, with the chance of each result; untried units averaged."""
    attackers, targets = tuple(attackers), tuple(targets)
    view = View(game)
    illegal = check_attack(view, Attack(attackers, targets, integrity))
    hexes = parse_hexes(targets)
    if isinstance(hexes, Illegal):
        return Preview((), (), None, None, None, {}, hexes)
    return preview_battle(game, view, attackers, hexes, False, integrity, illegal)


def preview_battle(game: "Game", view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool,
             integrity: str, illegal: Illegal | None) -> Preview:
    table = crt(game)
    a_total, a_parts, _, d_parts, per_hex = strengths(view, attackers, hexes, overrun, integrity)
    unknown = [p.unit for p in a_parts + d_parts if p.base is None]
    notes: list[str] = []
    # 6.0: the overrun's attack total is halved, fractions dropped (already in the total)
    whole = (Modifier("6.0", "overrun: attack strength halved, fractions dropped", 0.5),) if overrun else ()
    if not unknown:
        a = final(a_total, has_strength(view, a_parts))
        d = sum(per_hex)
        col = column(table, a, d)
        outcome = special_outcome(view, attackers, hexes, overrun, integrity)
        if outcome:
            return Preview(tuple(a_parts), tuple(d_parts), a, d, col, {outcome: 1.0}, illegal, tuple(notes), whole)
        chances: dict[str, float] = {}
        for die in range(1, 7):
            r = table.result(col, die)
            chances[r] = chances.get(r, 0.0) + 1 / 6
        return Preview(tuple(a_parts), tuple(d_parts), a, d, col, chances, illegal, tuple(notes), whole)
    chances = _sampled_chances(game, view, attackers, hexes, overrun, integrity, unknown)
    notes.append(f"{len(unknown)} untried unit(s): their strength is drawn when the battle is fought (13.2)")
    return Preview(tuple(a_parts), tuple(d_parts), None, None, None, chances, illegal, tuple(notes), whole)


def _sampled_chances(game: "Game", view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool,
                     integrity: str, unknown: list[str]) -> dict[str, float]:
    """Average over faces still in the pool, with a private generator (the game's dice untouched)."""
    rng = random.Random(0x4B1E5)
    table = crt(game)
    counts: dict[str, float] = {}
    samples = 240
    st = game.state
    try:
        for _ in range(samples):
            used = set(kiev_vars(st).pool_used)
            for u in unknown:
                left = [f for f in untried_faces(view, u) if f not in used]
                if not left:
                    continue
                face = rng.choice(left)
                used.add(face)
                st.units[u].face = face
            v2 = View(game)
            outcome = special_outcome(v2, attackers, hexes, overrun, integrity)
            if outcome:
                counts[outcome] = counts.get(outcome, 0.0) + 1
                continue
            a_total, a_parts, _, _, per_hex = strengths(v2, attackers, hexes, overrun, integrity)
            a = final(a_total, has_strength(v2, a_parts))
            col = column(table, a, sum(per_hex))
            for die in range(1, 7):
                r = table.result(col, die)
                counts[r] = counts.get(r, 0.0) + 1 / 6
    finally:
        for u in unknown:
            st.units[u].face = None  # unknown means untried: no face until it fights (13.1)
    return {k: v / samples for k, v in counts.items()}


def untried_faces(view: View, uid: str) -> list[str]:
    draw = pool(view.catalog).draw_of[uid]  # only untried counters are asked about, each has a pile
    return sorted(f.id for f in pool(view.catalog).faces.values() if f.draw == draw)


def special_outcome(view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool, integrity: str) -> str:
    """19.65 and 19.63: battles decided by no-strength units before any die is rolled."""
    # 19.65: an attack whose total is nothing never happens, whoever makes it.
    a_total, a_parts = attack(view, view.supply, list(attackers), overrun, integrity)
    if all(p.base is not None for p in a_parts) and final(a_total, has_strength(view, a_parts)) == 0:
        return "attack cancelled (19.65)"
    # 19.63: every Soviet unit in the battle counts, an HQ too; an HQ is never a no-strength unit
    # (it defends at half its rating, 19.66), so with one there the battle is fought normally.
    soviet_def = [u for h in hexes for u in view.at(h) if view.side(u) == SOVIET]
    if soviet_def and all(_no_strength(view, u) for u in soviet_def):
        return "defenders eliminated (19.63)"
    return ""


def _no_strength(view: View, uid: str) -> bool:
    face = view.state.units[uid].face
    if uid not in pool(view.catalog).draw_of or face is None:
        return False
    return pool(view.catalog).faces[face].no_strength


# -- who may attack --------------------------------------------------------------------------

def check_attack(view: View, a: Attack) -> Illegal | None:
    st = view.state
    if st.pending is not None:
        return Illegal("9.6", "settle the pending combat result first")
    if st.phase != COMBAT:
        return Illegal("9.11", "attacks happen only in the combat phase (overruns during movement)")
    if not a.attackers or not a.targets:
        return Illegal("9.1", "name the attacking units and the hexes they attack")
    if len(set(a.attackers)) != len(a.attackers) or len(set(a.targets)) != len(a.targets):
        return Illegal("9.1", "a unit or hex is listed twice")
    hexes = parse_hexes(a.targets)
    if isinstance(hexes, Illegal):
        return hexes
    side = st.player
    v = view.vars
    for uid in a.attackers:
        if uid not in st.units or st.units[uid].status != "map":
            return Illegal("9.1", f"{uid} is not on the map")
        if view.side(uid) != side:
            return Illegal("9.11", f"{uid} is not the phasing player's unit")
        if uid in v.advanced:  # 9.83 first: an advanced unit has also attacked (9.14)
            return Illegal("9.83", f"{uid} advanced after combat and may not attack again this phase")
        if uid in v.attacked:
            return Illegal("9.14", f"{uid} has already attacked this phase")
    if all(view.is_hq_like(u) for u in a.attackers):
        return Illegal("11.35", "HQs and leaders have no attack strength of their own")
    bad_integrity = check_integrity(view, a.attackers, a.integrity)  # 20.2
    if bad_integrity is not None:
        return bad_integrity
    for uid in a.attackers:
        if view.is_hq_like(uid):
            h = view.hex_of(uid)
            if not any(view.hex_of(o) == h and not view.is_hq_like(o) for o in a.attackers):
                return Illegal("11.37", f"{uid} adds its rating only to units attacking from its own hex")
    for t in hexes:
        ids = view.at(t)
        if not ids or view.side(ids[0]) == side:
            return Illegal("9.11", f"{t} holds no enemy units")
        fresh = [u for u in ids if u not in v.retreated_into]
        for u in fresh:
            if u in v.advanced:  # 9.83 first: an advancing defender was also attacked (9.14)
                return Illegal("9.83", f"{u} in {t} advanced after combat and may not be attacked again this phase")
            if u in v.defended:
                return Illegal("9.14", f"{u} in {t} has already been attacked this phase")
        for uid in a.attackers:
            h = view.hex_of(uid)
            assert h is not None
            if h.distance(t) != 1:
                return Illegal("9.23", f"{uid} is not adjacent to {t}: every attacker must touch every target hex")
            if view.map.is_impassable_side(h, t):
                return Illegal("10.16", f"{uid} cannot attack across the lake hexside into {t}")
    if side == SOVIET:
        sup = view.supply
        for uid in a.attackers:
            if not view.is_hq_like(uid) and not sup.status(uid).in_command:
                return Illegal("9.15", f"{uid} is beyond every HQ's command radius and cannot attack")
    return None


def attack_options(game: "Game") -> dict[str, list[str]]:
    """For each enemy hex that may be attacked now, the phasing units able to join in (9.1)."""
    view = View(game)
    st = game.state
    if st.phase != COMBAT or st.pending is not None:
        return {}
    out: dict[str, list[str]] = {}
    for h, ids in sorted(view.occupancy.items()):
        if view.side(ids[0]) == st.player:
            continue
        cands = [u for n in view.map.neighbours(h) for u in view.at(n)
                 if view.side(u) == st.player and not view.map.is_impassable_side(n, h)]
        ok = [u for u in cands if check_attack(view, Attack((u,), (str(h),))) is None
              or view.is_hq_like(u)]
        if any(not view.is_hq_like(u) for u in ok):
            out[str(h)] = sorted(ok)
    return out
