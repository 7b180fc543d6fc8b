"""The operational layer of Kiev's computer player: a plan per phase above the candidate actions.

At the start of each of its phases the AI reads the position once and writes down, in a few
lists, what the turn is about: the objectives (towns and cities by victory points, Kiev, the
margin the German needs, 24.0), the Soviet river line (hexes whose every side facing the Germans
is a river, 10.12 and 10.14), pockets (Soviet units out of supply, or whose HQ's supply line German
armour can reach, 11.34 and 24.3), Soviet HQ placements that bring the most units into command
(11.33), reserves, Soviet counter-attack targets (a lone or weakened German stack cutting Soviet
supply or holding a Soviet town), German garrisons for towns it holds near the enemy and for its
start cities, and the German armour free to exploit.  The tactical scoring in ``ai.py`` then
reads the plan: each list adds a term to the score of a move or an attack.  The plan also says,
in lines of text, why (``Plan.lines``, ``Plan.why``): ``--explain`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import GERMAN, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.strength import combat_values

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

# Weights the plan adds to the tactical scoring, in victory points.
W_RIVER = 0.4  # a Soviet combat unit on a river-line hex, per step of the defence multiplier above 1
W_RIVER_HOLD = 1.0  # more for one that is there already (it holds the line rather than leave it)
W_PLAN_GARRISON = 1.2  # per VP: the German unit the plan names as a town's garrison, in that town
W_POCKET = 0.8  # per Soviet unit out of supply in an attacked hex, weighted by the chance of a hit
W_COUNTER = 0.15  # per VP of a counter-attack target's worth, weighted by the chance of a hit
W_COUNTER_SETUP = 0.5  # a Soviet combat unit in command ending next to a counter-attack target
W_EXPLOIT = 0.6  # extra pull toward the objectives for German armour not in contact
W_FREE = 0.6  # per German armoured attacker held in a Soviet zone of control, weighted by the chance of a hit
W_STUCK = 1.0  # German armour ending next to the enemy with no attack at 2.5 to 1 or better from there
W_OBJECTIVE = 1.5  # the turn's chosen objectives pull this much harder than other towns
OBJECTIVES = 4  # towns and cities the plan names as the turn's objectives
GARRISON_REACH = 3  # a garrison is named only among units this many hexes or fewer from the town
THREAT = 3  # a town with an enemy unit this close is threatened
POCKET_REACH = 5  # German armour this close to a hex of an HQ's supply line can cut it this turn


@dataclass(frozen=True)
class Pocket:
    """Soviet combat units the German can destroy or cut off: ``cut`` (out of supply now) or
    ``threatened`` (their HQ's supply line runs within reach of German armour)."""

    state: str
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    hq: str | None
    where: Hex | None = None  # threatened: the hex of the supply line nearest the armour

    def text(self) -> str:
        hexes = " ".join(str(h) for h in self.hexes[:6]) + (" ..." if len(self.hexes) > 6 else "")
        via = f" (HQ {self.hq})" if self.hq else ""
        at = f", its line passes {self.where}" if self.where is not None else ""
        return f"{self.state}: {len(self.units)} units at {hexes}{via}{at}"


@dataclass
class Plan:
    """One side's plan for one phase (see the module's docstring)."""

    side: str
    turn: int
    phase: str
    objectives: list[tuple[Hex, int, str]] = field(default_factory=list)  # hex, VP, who holds it
    margin: int = 0  # German VP minus Soviet VP now
    needed: int = 0  # the German's winning margin (24.0)
    river: dict[Hex, float] = field(default_factory=dict)  # Soviet: river-line hexes and their multiplier
    pockets: list[Pocket] = field(default_factory=list)
    hq_targets: dict[str, tuple[Hex, int, int]] = field(default_factory=dict)  # HQ -> hex, new, all commanded
    reserves: list[str] = field(default_factory=list)
    counters: dict[Hex, tuple[float, str]] = field(default_factory=dict)  # German hex -> worth, why
    garrisons: dict[Hex, str] = field(default_factory=dict)  # German town -> the unit named to hold it
    held: dict[Hex, str] = field(default_factory=dict)  # German town -> its present lone garrison
    exploit: set[str] = field(default_factory=set)  # German armour free to move on

    def objective_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h, _, _ in self.objectives)

    def pocket_units(self) -> dict[str, Pocket]:
        return {u: p for p in self.pockets for u in p.units}

    def lines(self) -> list[str]:
        """The plan in a few lines of text: what the side is after this phase and why."""
        head = f"plan, turn {self.turn}, {self.side} {self.phase}:"
        out = [head]
        if self.objectives:
            out.append("  objectives: " + ", ".join(f"{h} ({vp} VP, {owner})" for h, vp, owner in self.objectives))
        out.append(f"  score: German {self.margin:+d} against the Soviet; the German needs {self.needed:+d} (24.0)")
        if self.side == SOVIET:
            if self.river:
                rh = sorted(self.river)
                out.append(f"  river line: {len(rh)} hexes facing the Germans across rivers: "
                           + " ".join(str(h) for h in rh[:10]) + (" ..." if len(rh) > 10 else ""))
            for hq, (h, new, total) in sorted(self.hq_targets.items()):
                out.append(f"  HQ {hq}: best at {h}, commanding {total} units ({new} no other HQ commands)")
            for h, (w, why) in sorted(self.counters.items()):
                out.append(f"  counter-attack {h}: {why} (worth {w:.0f} VP)")
            if self.reserves:
                out.append(f"  reserves: {len(self.reserves)} units six or more hexes behind the front")
        else:
            for p in self.pockets:
                out.append(f"  pocket {p.text()}")
            for h, u in sorted(self.held.items()):
                out.append(f"  garrison {h}: {u} stays")
            for h, u in sorted(self.garrisons.items()):
                out.append(f"  garrison {h}: {u} goes there")
            if self.exploit:
                out.append(f"  exploitation: {len(self.exploit)} armoured units not in contact move on the objectives")
        return out

    def why(self, game: Game, view: View, uid: str, dest: Hex | None) -> str:
        """The plan's part in one unit's move to ``dest``: which list named it, if any."""
        if dest is None:
            return ""
        if self.garrisons.get(dest) == uid:
            return f"garrison for {dest} (the plan's)"
        if self.held.get(dest) == uid:
            return f"stays as {dest}'s garrison"
        if uid in self.hq_targets:
            h, new, total = self.hq_targets[uid]
            return f"HQ: plan's best hex {h} commands {total} ({new} new)" + (" - reached" if h == dest else "")
        if dest in self.river:
            return f"holds the river line at {dest} (defence x{self.river[dest]:g})"
        near = [h for h in self.counters if h.distance(dest) == 1]
        if near:
            return f"sets up the counter-attack on {near[0]}"
        if uid in self.exploit:
            return "armour exploiting toward the objectives"
        if uid in self.reserves:
            return "reserve moving up"
        return ""


def river_mult(ctx: "Ctx", h: Hex) -> float:
    """The defence multiplier a Soviet stack at h would have against every German that can come at
    it: each side of h facing a hex nearer the Germans is a river (major 10.14, minor 10.12), and
    there are German units within three hexes; 1.0 otherwise."""
    near = ctx.dist_enemy(h, 9)
    if near < 1 or near > 3:
        return 1.0
    gmap, tab = ctx.gmap, combat_values(ctx.view)
    worst = None
    for n in gmap.neighbours(h):
        if ctx.dist_enemy(n, 9) >= near or gmap.is_impassable_side(h, n):
            continue
        f = gmap.side_features(h, n)
        m = (tab.hexside_defense.get("major_river", 1.0) if "major_river" in f
             else tab.hexside_defense.get("minor_river", 1.0) if "minor_river" in f else 1.0)
        worst = m if worst is None else min(worst, m)
    return float(worst) if worst is not None else 1.0


def build_plan(ai: "KievAI", game: Game, ctx: "Ctx", full: bool = True) -> Plan:
    """The plan for the phase now beginning, from the position as ``ctx`` reads it.  ``full``
    adds what only the explanation reads (each Soviet HQ's best hex: a reachability search per
    HQ; the scoring weighs HQ placement hex by hex itself)."""
    view = ctx.view
    st = game.state
    sc = game.rules.score(game)
    vic = game.scenario.victory
    plan = Plan(ai.side, st.turn, st.phase, margin=sc.points.get(GERMAN, 0) - sc.points.get(SOVIET, 0),
                needed=int(vic.get("margin", 0)))
    plan.objectives = _objectives(ai, game, ctx)
    if ai.side == SOVIET:
        if st.phase == MOVEMENT:
            plan.river = _river_line(ctx)
            plan.hq_targets = _hq_targets(ai, game, ctx) if full else {}
            plan.reserves = sorted(u for h, ids in ctx.my_hexes.items() if ctx.dist_enemy(h, 9) >= 6
                                   and not game.scenario.map.settlement(h)
                                   for u in ids if not view.is_hq_like(u))
        plan.counters = _counters(ai, game, ctx)
    else:
        plan.pockets = pockets(game, view, ctx)
        if st.phase in (MOVEMENT, "mechanized"):
            plan.held, plan.garrisons = _garrisons(ai, game, ctx)
            plan.exploit = {u for h, ids in ctx.my_hexes.items() if ctx.dist_enemy(h, 9) >= 2
                            for u in ids if view.udef(u).mechanized and not view.is_hq_like(u)
                            and u not in plan.held.values() and u not in plan.garrisons.values()}
    return plan


def _objectives(ai: "KievAI", game: Game, ctx: "Ctx") -> list[tuple[Hex, int, str]]:
    """The turn's objectives: the enemy's towns (the German's) or our threatened ones (the
    Soviet's), by VP and nearness to our own units; Kiev (25 VP) counts most."""
    mine = list(ctx.my_hexes)
    cands: list[tuple[float, str, Hex, int, str]] = []
    for key, owner in ctx.control.items():
        h = Hex.parse(key)
        vp = ai.vp_of(game, h)
        if not vp:
            continue
        if ai.side == GERMAN and owner != GERMAN:
            d = min((h.distance(m) for m in mine), default=20)
        elif ai.side == SOVIET and owner == SOVIET:
            d = ctx.dist_enemy(h, 9)
            if d > 6:
                continue
        else:
            continue
        cands.append((-vp * 0.82 ** d, key, h, vp, owner))
    cands.sort()
    return [(h, vp, owner) for _, _, h, vp, owner in cands[:OBJECTIVES]]


def _river_line(ctx: "Ctx") -> dict[Hex, float]:
    out: dict[Hex, float] = {}
    for h, d in ctx.edist.items():
        if 1 <= d <= 3:
            m = river_mult(ctx, h)
            if m > 1.0:
                out[h] = m
    return out


def hq_cover(ctx: "Ctx", hq: str, h: Hex) -> tuple[int, int]:
    """Soviet combat units an HQ at h would have within its command radius: those no other
    supplied HQ commands (11.33), and all of them."""
    radius = ctx.view.udef(hq).leadership
    return ctx._uncommanded_near(hq, h, radius), ctx._covered(h, radius)


def _hq_targets(ai: "KievAI", game: Game, ctx: "Ctx") -> dict[str, tuple[Hex, int, int]]:
    """For each Soviet HQ, the hex it can reach this phase that commands the most units no other HQ
    does (then the most in all), kept supplied and two or more hexes from the Germans."""
    view = ctx.view
    out: dict[str, tuple[Hex, int, int]] = {}
    line = ctx.sup.lines[SOVIET]
    for hq in ctx.sup.soviet_hqs:
        start = view.hex_of(hq)
        if start is None:
            continue
        ai.budget.spend()
        reach = game.rules.reachable(game, (hq,), explain=False)
        best: tuple[tuple[int, int, int], Hex] | None = None
        for h in [start, *(x for x, r in reach.items() if r.ok)]:
            if ctx.dist_enemy(h, 9) <= 1 or not line.reaches(h) or not ctx.fits(hq, h):
                continue
            new, total = hq_cover(ctx, hq, h)
            key = (new, total, -h.distance(start))
            if best is None or key > best[0]:
                best = (key, h)
        if best is not None:
            out[hq] = (best[1], best[0][0], best[0][1])
    return out


def pockets(game: Game, view: View, ctx: "Ctx | None" = None) -> list[Pocket]:
    """Soviet combat units out of supply now, grouped by the HQ they trace to (``cut``), and the
    units of each supplied HQ whose supply line German armour within ``POCKET_REACH`` hexes can
    cut this turn (``threatened``, 11.34)."""
    sup = view.supply
    cut: dict[str | None, list[str]] = {}
    fed: dict[str, list[str]] = {}
    for uid, s in sorted(sup.all_status(SOVIET).items()):
        if view.is_hq_like(uid) or view.hex_of(uid) is None:
            continue
        if not s.in_supply:
            cut.setdefault(s.hq, []).append(uid)
        elif s.hq and s.hq != uid:
            fed.setdefault(s.hq, []).append(uid)
    out: list[Pocket] = []
    for hq, units in sorted(cut.items(), key=lambda kv: (kv[0] or "", kv[1])):
        hexes = tuple(sorted({h for u in units if (h := view.hex_of(u)) is not None}))
        out.append(Pocket("cut", tuple(units), hexes, hq))
    if view.state.turn <= 1:
        return out  # 19.85: on turn 1 the Soviet traces straight to a source, with no HQ line to cut
    armour = [h for h, ids in view.occupancy.items() if view.side(ids[0]) == GERMAN
              and any(view.udef(u).mechanized and not view.is_hq_like(u) for u in ids)]
    if not armour:
        return out
    for hq, units in sorted(fed.items()):
        if len(units) < 2:
            continue
        line = sup.trace(hq)
        near: tuple[int, Hex] | None = None
        for x in line[1:]:
            if view.occupied_by(x, SOVIET):
                continue
            d = min(x.distance(a) for a in armour)
            if d <= POCKET_REACH and (near is None or d < near[0]):
                near = (d, x)
        if near is not None:
            hexes = tuple(sorted({h for u in units if (h := view.hex_of(u)) is not None}))
            out.append(Pocket("threatened", tuple(units), hexes, hq, near[1]))
    return out


def _counters(ai: "KievAI", game: Game, ctx: "Ctx") -> dict[Hex, tuple[float, str]]:
    """German stacks worth a Soviet counter-attack: a single weakened combat unit (reduced, or
    defence 3 or less) or a leader or HQ alone, that cuts Soviet supply (next to a Soviet unit out
    of supply, or within a hex of an eastern supply source, 19.84) or holds a town that was not
    German at the start."""
    view = ctx.view
    start_german = {h for h in game.scenario.control.get(GERMAN, [])}
    # every eastern exit, the ones the Germans already shut included (19.84)
    sources = [s for s in sorted(ctx.gmap.road_exits | ctx.gmap.rail_exits) if _eastern(ctx, s)]
    status = ctx.sup.all_status(SOVIET)
    cut_hexes = {view.hex_of(u) for u, s in status.items() if not s.in_supply}
    out: dict[Hex, tuple[float, str]] = {}
    for h, ids in ctx.enemy_hexes.items():
        combat = [u for u in ids if not view.is_hq_like(u)]
        if len(combat) > 1:
            continue
        weak = not combat or view.state.units[combat[0]].step > 0 or ai.strength(view, combat[0])[1] <= 3
        if not weak:
            continue  # a full-strength unit is no easy target
        reasons = []
        if any(n in cut_hexes for n in ctx.gmap.neighbours(h)):
            reasons.append("it cuts Soviet units off from supply")
        if any(h.distance(s) <= 1 for s in sources):
            reasons.append("it sits on a Soviet supply source")
        vp = ai.vp_of(game, h)
        if vp and h not in start_german:
            reasons.append(f"it holds a Soviet town ({vp} VP)")
        if not reasons:
            continue
        worth = sum(ai.worth(view, u) for u in ids) + vp
        kind = "lone weakened unit" if combat and weak else "lone unit" if combat else "leader alone"
        out[h] = (worth, f"{kind} {' '.join(ids)}: " + "; ".join(reasons))
    return out


def _eastern(ctx: "Ctx", h: Hex) -> bool:
    areas = [ctx.gmap.areas[a] for a in ("K", "L", "M", "N") if a in ctx.gmap.areas]
    return any(h in a.hexes for a in areas)


def _garrisons(ai: "KievAI", game: Game, ctx: "Ctx") -> tuple[dict[Hex, str], dict[Hex, str]]:
    """German towns near the enemy (and the start cities, 24.0) and who holds them: a lone unit
    already there stays; an empty one gets the nearest foot unit within ``GARRISON_REACH`` hexes
    (never armour: it exploits)."""
    view = ctx.view
    starts = set(game.scenario.control.get(GERMAN, []))
    held: dict[Hex, str] = {}
    need: list[tuple[int, str, Hex]] = []
    for key, owner in sorted(ctx.control.items()):
        if owner != GERMAN:
            continue
        h = Hex.parse(key)
        vp = ai.vp_of(game, h)
        if not vp:
            continue
        near = ctx.dist_enemy(h, 9)
        if near > (THREAT + 2 if h in starts else THREAT) or near == 0:
            continue
        here = [u for u in view.at(h) if view.side(u) == GERMAN and not view.is_hq_like(u)]
        if len(here) == 1:
            held[h] = here[0]
        elif not here:
            need.append((-vp, key, h))
    taken: set[str] = set(held.values())
    garrisons: dict[Hex, str] = {}
    for _, _, h in sorted(need):
        best: tuple[tuple[int, int, str], str] | None = None
        for mh, ids in ctx.my_hexes.items():
            d = h.distance(mh)
            if d > GARRISON_REACH:
                continue
            combat = [u for u in ids if not view.is_hq_like(u)]
            for u in combat:
                # armour exploits and never garrisons; a town's own lone garrison stays
                if u in taken or view.udef(u).mechanized or (len(combat) == 1 and mh in held):
                    continue
                key = (d, 0, u)
                if best is None or key < best[0]:
                    best = (key, u)
        if best is not None:
            garrisons[h] = best[1]
            taken.add(best[1])
    return held, garrisons
