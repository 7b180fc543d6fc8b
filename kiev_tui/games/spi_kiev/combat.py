"""Combat (9.0-9.8, 13.0, 19.6-19.7): attacks, reveals, the CRT, losses, retreats and advances.

A battle runs as a small state machine kept in the Battle record (``vars.battle``): the die is rolled
when the attack is applied, then each part of the result that needs a decision becomes
``state.pending`` for the player who must make it (the defender's part first, 9.68).
Overruns (overrun.py) use the same machinery.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Event, Note
from kiev_tui.engine.hexes import Hex, HexError

from kiev_tui.games.spi_kiev import system
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance,
                                             Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, SOVIET, View, enemy_of
from kiev_tui.games.spi_kiev.strength import (Modifier, UnitStrength, attack, check_integrity, combat_values,
                                              defence, final, has_strength, integrity_choices, odds_column)
from kiev_tui.games.spi_kiev.tables import CombatTables
from kiev_tui.games.spi_kiev.supply import Supply
from kiev_tui.games.spi_kiev.state import Battle, KievVars, added, kiev_vars
from kiev_tui.games.spi_kiev.untried import pool
from kiev_tui.games.spi_kiev.tables import CRT, check_tables

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


# -- events -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind = "revealed"
    unit: str
    designation: str
    attack: int
    defense: int
    asterisk: bool

    def describe(self) -> str:
        star = " with an asterisk (19.61)" if self.asterisk else ""
        nothing = " - a no-strength unit (13.3)" if self.attack == 0 and self.defense == 0 else ""
        return f"Untried {self.unit} is revealed: {self.designation}, {self.attack}-{self.defense}{star}{nothing}"


@dataclass(frozen=True, slots=True)
class CombatResolved(Event):
    kind = "combat_resolved"
    battle: str  # "attack" or "overrun"
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    attack: int
    defense: int
    column: str
    die: int
    result: str
    details: tuple[str, ...]

    def describe(self) -> str:
        head = (f"{self.battle.capitalize()}: {', '.join(self.attackers)} against {', '.join(self.targets)}: "
                f"{self.attack} to {self.defense}, column {self.column}, die {self.die}: result {self.result}")
        return head + ("" if not self.details else " [" + "; ".join(self.details) + "]")


@dataclass(frozen=True, slots=True)
class StepLost(Event):
    kind = "step_lost"
    unit: str
    eliminated: bool
    note: str = ""

    def describe(self) -> str:
        return f"{self.unit} {'is eliminated' if self.eliminated else 'loses a step'}{(' (' + self.note + ')') if self.note else ''}"


@dataclass(frozen=True, slots=True)
class Retreated(Event):
    kind = "retreated"
    unit: str
    path: tuple[str, ...]

    def describe(self) -> str:
        if not self.path:
            return f"{self.unit} has nowhere to retreat and is eliminated (9.71)"
        return f"{self.unit} retreats {' > '.join(self.path)}"


@dataclass(frozen=True, slots=True)
class Advanced(Event):
    kind = "advanced"
    units: tuple[str, ...]
    path: tuple[str, ...]

    def describe(self) -> str:
        return f"{', '.join(self.units)} advance {' > '.join(self.path)}"


def battle(game: "Game") -> Battle:
    """The battle being settled (every combat choice pending belongs to one)."""
    return _battle_of_vars(kiev_vars(game.state))


def _battle_of(view: View) -> Battle:
    return _battle_of_vars(view.vars)


def _battle_of_vars(v: KievVars) -> Battle:
    if v.battle is None:
        raise KeyError("no battle is being fought")
    return v.battle


# -- tables and previews ------------------------------------------------------------------

def crt(game: "Game") -> CRT:
    sc = game.scenario
    cached = sc.derived.get("crt")
    if not isinstance(cached, CRT):
        cached = sc.derived["crt"] = check_tables(sc.tables_path, sc.tables)
    return cached


def combat_tables(game: "Game") -> CombatTables:
    """The defence multipliers combat reads from the scenario's tables.toml (10.4, 10.32, 19.53)."""
    return combat_values(View(game))


def _column(table: CRT, a: int, d: int) -> str:
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


def _parse_hexes(ids: tuple[str, ...]) -> list[Hex] | Illegal:
    try:
        return [Hex.parse(t) for t in ids]
    except HexError as exc:
        return Illegal("9.1", str(exc))


def _attacker_hexes(view: View, attackers: tuple[str, ...]) -> list[Hex]:
    return sorted({h for u in attackers if (h := view.hex_of(u)) is not None})


def _strengths(view: View, attackers: tuple[str, ...], targets: list[Hex], overrun: bool, integrity: str,
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
    hexes = _parse_hexes(targets)
    if isinstance(hexes, Illegal):
        return Preview((), (), None, None, None, {}, hexes)
    return _preview(game, view, attackers, hexes, False, integrity, illegal)


def _preview(game: "Game", view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool,
             integrity: str, illegal: Illegal | None) -> Preview:
    table = crt(game)
    a_total, a_parts, _, d_parts, per_hex = _strengths(view, attackers, hexes, overrun, integrity)
    unknown = [p.unit for p in a_parts + d_parts if p.base is None]
    notes: list[str] = []
    if not unknown:
        a = final(a_total, has_strength(view, a_parts))
        d = sum(per_hex)
        col = _column(table, a, d)
        outcome = _special_outcome(view, attackers, hexes, overrun, integrity)
        if outcome:
            return Preview(tuple(a_parts), tuple(d_parts), a, d, col, {outcome: 1.0}, illegal, tuple(notes))
        chances: dict[str, float] = {}
        for die in range(1, 7):
            r = table.result(col, die)
            chances[r] = chances.get(r, 0.0) + 1 / 6
        return Preview(tuple(a_parts), tuple(d_parts), a, d, col, chances, illegal, tuple(notes))
    chances = _sampled_chances(game, view, attackers, hexes, overrun, integrity, unknown)
    notes.append(f"{len(unknown)} untried unit(s): their strength is drawn when the battle is fought (13.2)")
    return Preview(tuple(a_parts), tuple(d_parts), None, None, None, chances, illegal, tuple(notes))


def _sampled_chances(game: "Game", view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool,
                     integrity: str, unknown: list[str]) -> dict[str, float]:
    """Average over faces still in the pool, with a private generator (the game's dice untouched)."""
    rng = random.Random(0x4B1E5)
    table = crt(game)
    counts: dict[str, float] = {}
    samples = 240
    st = game.state
    saved = {u: st.units[u].face for u in unknown}
    try:
        for _ in range(samples):
            used = set(kiev_vars(st).pool_used)
            for u in unknown:
                left = [f for f in _pool(view, u) if f not in used]
                if not left:
                    continue
                face = rng.choice(left)
                used.add(face)
                st.units[u].face = face
            v2 = View(game)
            outcome = _special_outcome(v2, attackers, hexes, overrun, integrity)
            if outcome:
                counts[outcome] = counts.get(outcome, 0.0) + 1
                continue
            a_total, a_parts, _, _, per_hex = _strengths(v2, attackers, hexes, overrun, integrity)
            a = final(a_total, has_strength(v2, a_parts))
            col = _column(table, a, sum(per_hex))
            for die in range(1, 7):
                r = table.result(col, die)
                counts[r] = counts.get(r, 0.0) + 1 / 6
    finally:
        for u, f in saved.items():
            st.units[u].face = f
    return {k: v / samples for k, v in counts.items()}


def _pool(view: View, uid: str) -> list[str]:
    draw = pool(view.catalog).draw_of.get(uid, "")
    return sorted(f.id for f in pool(view.catalog).faces.values() if f.draw == draw)


def _special_outcome(view: View, attackers: tuple[str, ...], hexes: list[Hex], overrun: bool = False,
                     integrity: str = "") -> str:
    """19.65 and 19.63: battles decided by no-strength units before any die is rolled."""
    # 19.65: an attack whose total is nothing never happens, whoever makes it.
    a_total, a_parts = attack(view, view.supply, list(attackers), overrun, integrity)
    if all(p.base is not None for p in a_parts) and final(a_total, has_strength(view, a_parts)) == 0:
        return "attack cancelled (19.65)"
    # 19.63: HQs are not revealed and have no printed strength, so they do not count here.
    soviet_def = [u for h in hexes for u in view.at(h) if view.side(u) == SOVIET and not view.is_hq_like(u)]
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
    hexes = _parse_hexes(a.targets)
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


# -- resolution ------------------------------------------------------------------------------

def reveal(game: "Game", uids: list[str]) -> None:
    """13.2: untried units show their true face at the instant of battle, drawn from the pool."""
    view = View(game)
    used = kiev_vars(game.state).pool_used
    for uid in uids:
        if not view.untried(uid):
            continue
        left = [f for f in _pool(view, uid) if f not in used]
        if not left:
            raise RuntimeError(f"the untried pool for {uid} is empty")
        face_id = game.choose(f"the true face of untried {uid} (13.1)", left)
        used.append(face_id)
        game.state.units[uid].face = face_id
        face = pool(game.scenario.catalog).faces[face_id]
        game.emit(Revealed(uid, face.designation, face.attack, face.defense, face.asterisk))
        if face.asterisk:
            battle(game).asterisk = True  # 19.61


def start_battle(game: "Game", kind: str, attackers: tuple[str, ...], targets: tuple[str, ...],
                 integrity: str = "", passengers: tuple[str, ...] = ()) -> None:
    """Commit a battle: reveal, settle 19.63/19.65, roll, and queue the result's parts."""
    st = game.state
    view = View(game)
    hexes = [Hex.parse(t) for t in targets]
    v = kiev_vars(st)
    retreated_into = set(v.retreated_into)
    defenders = [u for h in hexes for u in view.at(h)]
    origin = {u: st.units[u].hex for u in list(attackers) + defenders}
    v.battle = Battle(kind, list(attackers), list(targets), defenders, origin,
                      zone=sorted(str(h) for h in _battle_zone(view, hexes)), integrity=integrity,
                      passengers=list(passengers))
    if kind == "attack":
        v.attacked = added(v.attacked, attackers)  # 9.14
        v.defended = added(v.defended, [u for u in defenders if u not in retreated_into])
    _fight(game)


def _defence_question(game: "Game") -> dict[str, Any] | None:
    """20.2: GD defending beside regiments of two divisions: the German names one, once per hex."""
    b = battle(game)
    view = View(game)
    answered = b.defence_integrity
    for t in b.targets:
        ids = [u for u in view.at(Hex.parse(t)) if view.side(u) == GERMAN]
        choices = integrity_choices(view, ids) if ids else []
        if choices and t not in answered:
            return {"kind": "integrity", "side": GERMAN, "hex": t, "choices": choices,
                    "prompt": f"german player: GD in {t} counts with which division: {', '.join(choices)} (20.2)"}
    return None


def _fight(game: "Game") -> None:
    """Ask the defender's 20.2 question if any, then reveal, settle 19.63/19.65, roll and queue."""
    st = game.state
    b = battle(game)
    question = _defence_question(game)
    if question is not None:
        st.pending = question
        return
    kind, attackers, targets, integrity = b.kind, tuple(b.attackers), tuple(b.targets), b.integrity
    hexes = [Hex.parse(t) for t in targets]
    defenders = list(b.defenders)
    retreated_into = set(kiev_vars(st).retreated_into)
    reveal(game, [u for u in list(attackers) + defenders])
    view = View(game)
    overrun = kind == "overrun"
    special = _special_outcome(view, attackers, hexes, overrun, integrity)
    if special.startswith("attack cancelled"):
        for u in attackers:
            if not view.is_hq_like(u):  # an HQ or leader only lends its rating (11.35)
                system.eliminate(game, u, "19.65", "its attack had no strength at all")
        game.emit(Note("The attack does not take place: the attackers' total strength is zero (19.65)."))
        _finish(game)
        return
    if special.startswith("defenders eliminated"):
        for u in defenders:
            if game.state.units[u].status == "map" and not view.is_hq_like(u):
                system.eliminate(game, u, "19.63", "every Soviet unit in the battle proved a no-strength unit")
        view = View(game)
        if not any(view.at(h) for h in hexes):
            b.stages = [["advance", "E"]]
            _run(game)
            return
        # An HQ left alone in the hex still defends (19.66): the battle goes on against it.
    a_total, a_parts, _, d_parts, per_hex = _strengths(view, attackers, hexes, overrun, integrity,
                                                       b.defence_integrity)
    a = final(a_total, has_strength(view, a_parts))
    d = sum(per_hex)
    table = crt(game)
    col = _column(table, a, d)
    die = game.roll(f"{kind} at {', '.join(targets)} ({col})")
    result = table.result(col, die)
    details = tuple(f"{p.unit} {p.value:g} ({'; '.join(f'{m.case} {m.text}' for m in p.mods)})" if p.mods
                    else f"{p.unit} {p.value:g}" for p in a_parts + d_parts if p.value is not None)
    if table.is_reconstructed(col, die):
        details += ("this CRT entry is reconstructed (see data/spi_kiev/SOURCES.md)",)
    game.emit(CombatResolved(kind, tuple(attackers), tuple(targets), a, d, col, die, result, details))
    b.result = result
    dfn = "eng" if result == "eng" else result.split("/")[1]
    # 9.76: a unit that retreated into a hex attacked again is lost with any loss or retreat there
    # (an engaged result too); overruns record no such units (apply_retreat), as they are not combat.
    if dfn != "-":
        for u in defenders:
            if u in retreated_into and st.units[u].status == "map":
                system.eliminate(game, u, "9.76", "it had retreated into a hex that was attacked again")
    if result == "eng":
        b.stages = [["defender", "eng"], ["attacker", "eng"]]
    else:
        att, dfn = result.split("/")
        b.stages = [["defender", dfn], ["attacker", att], ["advance", dfn]]
    _run(game)


def check_choose_integrity(view: View, a: ChooseIntegrity) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "integrity":
        return Illegal("20.2", "no divisional integrity question is waiting")
    if a.division not in p["choices"]:
        return Illegal("20.2", f"GD cannot count with {a.division} here (it can join: {', '.join(p['choices'])})")
    return None


def apply_choose_integrity(game: "Game", a: ChooseIntegrity) -> None:
    st = game.state
    p = st.pending
    assert p is not None
    battle(game).defence_integrity[p["hex"]] = a.division
    st.pending = None
    _fight(game)


def _battle_zone(view: View, hexes: list[Hex]) -> set[Hex]:
    """Hexes enemy-occupied or enemy-controlled when the battle began (for 9.77)."""
    zone = set(hexes)
    for h in hexes:
        for n in view.map.neighbours(h):
            if not view.map.has(h, n, "major_river"):
                zone.add(n)
    return zone


def involved(game: "Game", who: str) -> list[str]:
    """Units of one side of the current battle still on the map."""
    b = battle(game)
    # 6.17: an HQ sharing the overrunning stack's hex shares its losses and retreats.
    ids = b.defenders if who == "defender" else b.attackers + b.passengers
    return [u for u in ids if game.state.units[u].status == "map"]


def side_of(game: "Game", who: str) -> str:
    return game.state.player if who == "attacker" else enemy_of(game.state.player)


def _run(game: "Game") -> None:
    """Work through the battle's queued parts until one needs a player's decision."""
    st = game.state
    b = battle(game)
    while b.stages:
        who, part = b.stages[0]
        if who == "advance":
            b.stages.pop(0)
            if _offer_advance(game, part):
                return
            continue
        units = involved(game, who)
        if part == "-" or not units:
            b.stages.pop(0)
            continue
        side = side_of(game, who)
        if part == "E":
            b.stages.pop(0)
            for u in units:
                system.eliminate(game, u, "9.65", "an E result")
            if who == "attacker":
                b.attacker_lost = True
            continue
        steps = 1 if part == "eng" else int(part)
        hexes = 0 if part == "eng" else steps
        pbm = bool(game.scenario.params.get("pbm_asterisk", False))
        # 25.11 (play-by-mail option): any asterisk unit in the battle bars the Soviet retreat,
        # tried or not; the option takes the place of 19.61.
        no_retreat = pbm and side == SOVIET and hexes > 0 and any(View(game).asterisk(u) for u in units)
        forced_retreat = not pbm and side == SOVIET and b.asterisk and part != "eng"  # 19.61
        if forced_retreat:
            b.stages.pop(0)
            _ask_retreat(game, who, hexes, "19.61: an asterisk unit was revealed, so the Soviet units must retreat")
            return
        if no_retreat:
            hexes = 0
        why = " (an asterisk unit fights here: no retreat, 25.11)" if no_retreat else " (engaged: no retreat, 9.69)"
        st.pending = {
            "kind": "loss_or_retreat", "side": side, "who": who, "units": units, "steps": steps,
            "hexes": hexes, "may_lose_steps": True,
            "prompt": (f"{side} player: lose {steps} step(s) from {', '.join(units)}"
                       + (f" or retreat them {hexes} hex(es)" if hexes else why)),
        }
        if no_retreat:
            st.pending["no_retreat"] = "25.11"
        return
    _finish(game)


def _finish(game: "Game") -> None:
    st = game.state
    v = kiev_vars(st)
    b, v.battle = v.battle, None
    st.pending = None
    if b is not None and b.kind == "overrun":
        from kiev_tui.games.spi_kiev import overrun
        overrun.after_battle(game, b)


def _ask_retreat(game: "Game", who: str, hexes: int, why: str) -> None:
    side = side_of(game, who)
    if who == "attacker":
        battle(game).attacker_lost = True
    units = involved(game, who)
    game.state.pending = {
        "kind": "retreat", "side": enemy_of(side), "who": who, "units": units, "hexes": hexes,
        "prompt": f"{enemy_of(side)} player: choose the retreat of {', '.join(units)}, {hexes} hex(es) each (19.7). {why}".strip(),
    }


# -- losses ----------------------------------------------------------------------------------

def steps_left(view: View, uid: str) -> int:
    d = view.udef(uid)
    return len(d.steps) - view.state.units[uid].step


def lose_step(game: "Game", uid: str, case: str) -> None:
    """Remove one step: flip, replace (rpl counters, 19.24) or eliminate (9.61, 9.62)."""
    st = game.state
    view = View(game)
    d = view.udef(uid)
    u = st.units[uid]
    nxt = u.step + 1
    if nxt >= len(d.steps):
        system.eliminate(game, uid, case, "its last step was lost")
        return
    if d.rpl_step and nxt + 1 == d.rpl_step:
        v = kiev_vars(st)
        if v.rpl_left <= 0:
            system.eliminate(game, uid, "19.24", "no rpl counter is left for its third step")
            return
        v.rpl_left -= 1
        u.step = nxt
        game.emit(StepLost(uid, False, "an rpl 1-2-7 counter now stands for it (19.24)"))
        return
    u.step = nxt
    game.emit(StepLost(uid, False, f"now {d.steps[nxt][0]}-{d.steps[nxt][1]}"))


def check_take_losses(view: View, a: TakeLosses) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "loss_or_retreat":
        return Illegal("9.66", "no result is waiting for step losses")
    if view.vars.battle is None:
        return Illegal("9.66", "no battle in progress")
    units = p["units"]
    available = sum(steps_left(view, u) for u in units)
    need = min(p["steps"], available)
    if len(a.units) != need:
        return Illegal("9.67", f"name exactly {need} step loss(es), one unit id per step")
    for uid in set(a.units):
        if uid not in units:
            return Illegal("9.67", f"{uid} did not take part in this battle")
        if a.units.count(uid) > steps_left(view, uid):
            return Illegal("9.61", f"{uid} has only {steps_left(view, uid)} step(s) to lose")
    return None


def apply_take_losses(game: "Game", a: TakeLosses) -> None:
    st = game.state
    b = battle(game)
    p = st.pending
    assert p is not None
    for uid in a.units:
        if st.units[uid].status == "map":
            lose_step(game, uid, "9.67")
    if p["who"] == "attacker":
        b.attacker_lost = True
    b.stages.pop(0)
    st.pending = None
    _run(game)


def check_choose_retreat(view: View, a: ChooseRetreat) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "loss_or_retreat":
        return Illegal("9.66", "no result is waiting for a choice")
    if p.get("no_retreat"):
        return Illegal("25.11", "an asterisk unit is in this battle, so the Soviet units may not retreat")
    if p["hexes"] == 0:
        return Illegal("9.69", "an engaged result allows no retreat")
    return None


def apply_choose_retreat(game: "Game", a: ChooseRetreat) -> None:
    p = game.state.pending
    assert p is not None
    b = battle(game)
    b.stages.pop(0)
    if p["who"] == "attacker":
        b.attacker_lost = True
    _ask_retreat(game, p["who"], p["hexes"], "")


# -- retreats --------------------------------------------------------------------------------

def _retreat_paths(view: View, uid: str, hexes: int, who: str, zone: set[str]) -> tuple[list[tuple[str, ...]], bool]:
    """Every legal retreat path for one unit, and whether only a major river stopped it.

    9.71 no enemy units or enemy-controlled hexes unless a friendly combat unit is there;
    9.73 each hex farther from the start; 9.77 an attacker after a split result avoids the
    battle's zone; 19.52 no major river crossing unless a road or railroad crosses it;
    9.78 a crossing only when nothing else is open.
    """
    start = view.hex_of(uid)
    if start is None:
        return [], False
    side = view.side(uid)
    enemy = enemy_of(side)
    blocked_by_river = False

    def ok_hex(h: Hex) -> bool:
        if view.occupied_by(h, enemy) or view.map.terrain(h) == "lake":
            return False
        friendly_combat = any(not view.is_hq_like(u) for u in view.at(h) if view.side(u) == side)
        if view.enemy_controlled_for_tracing(h, side) and not friendly_combat:
            return False
        if who == "attacker" and str(h) in zone and not friendly_combat:
            return False  # 9.77
        return True

    paths: list[tuple[tuple[str, ...], bool]] = []

    def walk(cur: Hex, path: list[Hex], crossed: bool) -> None:
        nonlocal blocked_by_river
        if len(path) == hexes:
            paths.append((tuple(str(h) for h in path), crossed))
            return
        for n in view.map.neighbours(cur):
            if start.distance(n) != len(path) + 1 or view.map.is_impassable_side(cur, n):
                continue
            if not ok_hex(n):
                continue
            cross = view.map.has(cur, n, "major_river")
            if cross and not (view.map.has(cur, n, "road") or view.map.has(cur, n, "railroad")):
                blocked_by_river = True  # 19.52
                continue
            walk(n, path + [n], crossed or cross)

    walk(start, [], False)
    dry = [p for p, c in paths if not c]
    legal = dry if dry else [p for p, _ in paths]  # 9.78: a bridge only as a last resort
    # 9.74: into a vacant hex if at all possible; stacking limits always.
    def final_ok(p: tuple[str, ...]) -> bool:
        end = Hex.parse(p[-1])
        mine = [u for u in view.at(end) if view.side(u) == side]
        combat_here = sum(1 for u in mine if not view.is_hq_like(u))
        hq_here = sum(1 for u in mine if view.is_hq_like(u))
        if view.is_hq_like(uid):
            return hq_here < 1
        return combat_here < 3
    legal = [p for p in legal if final_ok(p)]
    vacant = [p for p in legal if not view.at(Hex.parse(p[-1]))]
    return (vacant or legal), blocked_by_river and not paths


def retreat_options(game: "Game") -> dict[str, list[tuple[str, ...]]]:
    """Legal paths for each unit of the pending retreat (empty list: it cannot retreat)."""
    p = game.state.pending
    if p is None or p["kind"] != "retreat":
        return {}
    view = View(game)
    zone = set(battle(game).zone)
    return {u: _retreat_paths(view, u, p["hexes"], p["who"], zone)[0] for u in p["units"]}


def check_retreat(view: View, a: Retreat) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "retreat":
        return Illegal("9.7", "no retreat is waiting")
    if sorted(a.units) != sorted(p["units"]) or len(a.paths) != len(a.units):
        return Illegal("9.7", f"give one path for each of {', '.join(p['units'])}")
    zone = set(_battle_of(view).zone)
    for uid, path in zip(a.units, a.paths):
        options, _ = _retreat_paths(view, uid, p["hexes"], p["who"], zone)
        if not path:
            if options:
                return Illegal("19.7", f"{uid} has a safe retreat, so it may not be retreated to its destruction")
            continue
        if tuple(path) not in options:
            return Illegal("9.71", f"{' > '.join(path)} is not a legal retreat for {uid}")
    if _overstacked(view, a.units, a.paths):
        if safe_assignment(view, p) is not None:
            return Illegal("9.74", "these retreats would overstack a hex while a way that fits exists (19.7)")
    return None


def _overstacked(view: View, units: tuple[str, ...], paths: tuple[tuple[str, ...], ...]) -> list[str]:
    """Units that would end beyond the limits of their final hex (in the order given)."""
    side = view.side(units[0])
    combat_in: dict[str, int] = {}
    hq_in: dict[str, int] = {}
    excess: list[str] = []
    for uid, path in zip(units, paths):
        if not path:
            continue
        end = path[-1]
        here = [u for u in view.at(Hex.parse(end)) if view.side(u) == side and u not in units]
        if view.is_hq_like(uid):
            hq_in[end] = hq_in.get(end, sum(1 for u in here if view.is_hq_like(u))) + 1
            if hq_in[end] > 1:
                excess.append(uid)
        else:
            combat_in[end] = combat_in.get(end, sum(1 for u in here if not view.is_hq_like(u))) + 1
            if combat_in[end] > 3:
                excess.append(uid)
    return excess


def safe_assignment(view: View, p: dict[str, Any]) -> tuple[tuple[str, ...], ...] | None:
    """A retreat for every unit that overstacks nothing, if one exists (9.74, 19.7)."""
    zone = set(_battle_of(view).zone)
    units = tuple(p["units"])
    options = [_retreat_paths(view, u, p["hexes"], p["who"], zone)[0] or [()] for u in units]
    # Only the final hex matters for stacking: try one path per distinct end hex.
    pruned = [list({path[-1] if path else "": path for path in opts}.values()) for opts in options]
    count = 0
    for combo in itertools.product(*pruned):
        count += 1
        if count > 5000:
            break
        if not _overstacked(view, units, combo):
            return combo
    return None


def apply_retreat(game: "Game", a: Retreat) -> None:
    st = game.state
    p = st.pending
    assert p is not None
    b = battle(game)
    view = View(game)
    zone = set(b.zone)
    side = view.side(a.units[0])
    excess = set(_overstacked(view, a.units, a.paths))
    for uid, path in zip(a.units, a.paths):
        if uid in excess:
            game.emit(Retreated(uid, tuple(path)))
            system.eliminate(game, uid, "9.74", "no room for it at the end of its retreat")
            continue
        if not path:
            _, river_only = _retreat_paths(view, uid, p["hexes"], p["who"], zone)
            if river_only:
                # 19.52: penned against a major river, the unit loses steps instead.
                game.emit(Note(f"{uid} cannot retreat across the major river and loses steps instead (19.52)"))
                for _ in range(p["hexes"]):
                    if st.units[uid].status == "map":
                        lose_step(game, uid, "19.52")
                continue
            game.emit(Retreated(uid, ()))
            system.eliminate(game, uid, "9.71", "no legal retreat")
            continue
        end = Hex.parse(path[-1])
        if b.kind == "attack" and any(view.side(u) == side for u in view.at(end)):
            v = kiev_vars(st)
            v.retreated_into = added(v.retreated_into, [uid])  # 9.76 (never after an overrun)
        for h in path:
            system.claim(game, Hex.parse(h), side)
        st.units[uid].hex = path[-1]
        b.retreat_paths[uid] = list(path)
        game.emit(Retreated(uid, tuple(path)))
    st.pending = None
    _run(game)


# -- advance after combat ------------------------------------------------------------------------

def _beaten(game: "Game", side: str) -> list[str]:
    """The units of the side that lost the battle, seen from the side that may advance."""
    b = battle(game)
    return b.defenders if side == game.state.player else b.attackers


def _all_eliminated_in(game: "Game", beaten: list[str], h: str) -> bool:
    """9.84: every unit that stood in this hex when the battle began was eliminated."""
    st = game.state
    here = [u for u in beaten if battle(game).origin.get(u) == h]
    return bool(here) and all(st.units[u].status == "eliminated" for u in here)


def _offer_advance(game: "Game", part: str) -> bool:
    """Queue the winner's optional advance (9.8); return True if a decision is now pending."""
    st = game.state
    b = battle(game)
    if b.kind == "overrun":
        return False  # 9.86: no advance after an overrun (its own rule moves the stack in)
    view = View(game)
    vacated = [t for t in b.targets if not view.at(Hex.parse(t))]
    attackers = [u for u in involved(game, "attacker") if st.units[u].hex == b.origin[u]]
    if vacated and attackers and b.result != "eng":
        beaten = _beaten(game, st.player)
        wiped = any(_all_eliminated_in(game, beaten, t) for t in vacated)
        hexes = 2 if part == "E" or wiped else int(part)  # 9.84, 9.85
        st.pending = {"kind": "advance", "side": st.player, "units": attackers, "max": hexes,
                      "vacated": vacated, "prompt": f"{st.player} player: advance up to {hexes} hex(es) with "
                      f"{', '.join(attackers)}, or decline"}
        return True
    # A defender may follow a beaten attacker, never after a split result (9.68).
    result = b.result or ""
    if "/" in result and result.split("/")[1] == "-" and result.split("/")[0] != "-":
        defenders = [u for u in involved(game, "defender") if st.units[u].hex == b.origin[u]
                     and u not in kiev_vars(st).retreated_into]  # 9.76, 9.81: they did not fight
        gone = [b.origin[u] for u in b.attackers if st.units[u].hex != b.origin[u]]
        gone = sorted({h for h in gone if not view.at(Hex.parse(h))})
        if defenders and gone:
            side = enemy_of(st.player)
            att = result.split("/")[0]
            wiped = any(_all_eliminated_in(game, _beaten(game, side), h) for h in gone)
            hexes = 2 if att == "E" or wiped else int(att)  # 9.84, 9.85
            st.pending = {"kind": "advance", "side": side, "units": defenders, "max": hexes,
                          "vacated": gone, "prompt": f"{side} player: advance up to {hexes} hex(es) "
                          f"with {', '.join(defenders)}, or decline"}
            return True
    return False


def advance_options(game: "Game") -> dict[str, Any]:
    """The units that may advance and every legal path for them (9.8)."""
    p = game.state.pending
    if p is None or p["kind"] != "advance":
        return {}
    view = View(game)
    return {"units": list(p["units"]), "paths": _advance_paths(view, p)}


def _advance_paths(view: View, p: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every path the advance may take: the vacated hex, then (9.84) any open neighbour where
    the whole hex was eliminated, or else (9.81, 9.85) on along that hex's path of retreat."""
    st = view.state
    b = _battle_of(view)
    side = p["side"]
    enemy = enemy_of(side)
    limit = int(p["max"])
    beaten = b.defenders if side == st.player else b.attackers
    stop_in_zoc = side == SOVIET  # 9.82: Soviet advances halt on entering a German zone
    out: list[tuple[str, ...]] = []
    for first in p["vacated"]:
        out.append((first,))
        if limit < 2 or (stop_in_zoc and view.in_enemy_zoc(Hex.parse(first), side)):
            continue
        here = [u for u in beaten if b.origin.get(u) == first]
        if here and all(st.units[u].status == "eliminated" for u in here):
            # 9.84: after an elimination, the second hex is any vacant or friendly hex next to it.
            f = Hex.parse(first)
            for n in view.map.neighbours(f):
                if view.occupied_by(n, enemy) or view.map.is_impassable_side(f, n) or view.map.terrain(n) == "lake":
                    continue
                if view.map.has(f, n, "major_river") and view.river_guarded(n, side):
                    continue  # 10.13: not across a major river into the zone of a unit on its bank
                out.append((first, str(n)))
            continue
        for u in here:
            seq = [first] + list(b.retreat_paths.get(u, []))
            for k in range(2, min(limit, len(seq)) + 1):
                cand = tuple(seq[:k])
                if view.occupied_by(Hex.parse(cand[-1]), enemy):
                    break
                out.append(cand)
                if stop_in_zoc and view.in_enemy_zoc(Hex.parse(cand[-1]), side):
                    break
    return sorted(set(out))


def check_advance(view: View, a: Advance) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "advance":
        return Illegal("9.8", "no advance is on offer")
    if not a.units or any(u not in p["units"] for u in a.units) or len(set(a.units)) != len(a.units):
        return Illegal("9.81", f"only {', '.join(p['units'])} may advance")
    if tuple(a.path) not in _advance_paths(view, p):
        return Illegal("9.82", f"{' > '.join(a.path)} is not along the path of retreat (or is too long)")
    end = Hex.parse(a.path[-1])
    side = p["side"]
    here = sum(1 for u in view.at(end) if view.side(u) == side and not view.is_hq_like(u))
    moving = sum(1 for u in a.units if not view.is_hq_like(u))
    if here + moving > 3:
        return Illegal("7.0", f"advancing would put more than three combat units in {end}")
    return None


def apply_advance(game: "Game", a: Advance) -> None:
    st = game.state
    side = st.pending["side"] if st.pending else st.player
    for h in a.path:
        system.claim(game, Hex.parse(h), side)
    for u in a.units:
        st.units[u].hex = a.path[-1]
    v = kiev_vars(st)
    v.advanced = added(v.advanced, a.units)  # 9.83
    game.emit(Advanced(a.units, a.path))
    st.pending = None
    _run(game)


def check_decline(view: View, a: DeclineAdvance) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "advance":
        return Illegal("9.83", "no advance is on offer")
    return None


def apply_decline(game: "Game", a: DeclineAdvance) -> None:
    game.state.pending = None
    _run(game)


def apply_attack(game: "Game", a: Attack) -> None:
    start_battle(game, "attack", a.attackers, a.targets, a.integrity)


system.HANDLERS[Attack] = (check_attack, apply_attack)
system.HANDLERS[TakeLosses] = (check_take_losses, apply_take_losses)
system.HANDLERS[ChooseRetreat] = (check_choose_retreat, apply_choose_retreat)
system.HANDLERS[Retreat] = (check_retreat, apply_retreat)
system.HANDLERS[Advance] = (check_advance, apply_advance)
system.HANDLERS[DeclineAdvance] = (check_decline, apply_decline)
system.HANDLERS[ChooseIntegrity] = (check_choose_integrity, apply_choose_integrity)


__all__ = ["preview", "Preview", "check_attack", "retreat_options", "advance_options", "reveal",
           "start_battle", "lose_step", "steps_left", "Modifier"]
