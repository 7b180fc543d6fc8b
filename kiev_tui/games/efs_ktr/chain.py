"""The combat chain of Kiev to Rostov (15.0, 17, 14.2-14.3, 16; 11.43 for overruns) as prompts.

An attack runs through stages, each a prompt of one side or a step the rules do by themselves:
the attacker's air units placed face down (17.21), the defender's (17.24), both turned up
(17.31a), each side's dual-purpose fighters declared mission or firing units (17.31b2, public),
air combat with Local Tactical Advantage's second shots, and AA (17.3-17.4, rolled here),
defensive artillery (14.21), the defender's face-down order (14.32), the attacker's face-up
order (15.58), the defender's order turned (15.59), the CRT roll (15.8), losses chosen by their
owners (16.21), the retreat (16.4) and the advance (16.5).  ``v.combat`` holds the combat's
public facts; a hidden choice's only public trace is its commitment, and ``after_commit`` moves
the chain on without looking at the secret, so a sealed copy of the game reaches the same public
position.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import OddsPreview
from kiev_tui.engine.view import check_reveal, commit, is_hidden, reveal

from kiev_tui.games.efs_ktr import air, combat, nonop, retreat
from kiev_tui.games.efs_ktr.actions import (AirLta, AirMission, AirPairs, AirRoles, Advance, Attack, AttackerOrder, RevealAir,
                                            RevealOrder, Retreat, SetOrder, Support, TakeLosses)
from kiev_tui.games.efs_ktr.board import ADDITIONAL_RETREAT, AIR_READY, CADRE, ELIMINATED, NO_RETREAT, other
from kiev_tui.games.efs_ktr.combat import Combatant, CombatInput
from kiev_tui.games.efs_ktr.schema import AXIS, SOVIET
from kiev_tui.games.efs_ktr.state import efs_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.games.efs_ktr.board import Board

AIR_STAGES = ("cas_a", "cas_d", "reveal_air_a", "reveal_air_d", "air_roles_a", "air_roles_d", "air", "air_pairs", "air_fire",
              "air_lta", "aa_fire")
ATTACK_STAGES = (*AIR_STAGES, "support_d", "order_d", "order_a",
                 "reveal_order_d", "roll", "loss_a", "loss_d", "retreat_a", "zoc_a", "retreat_d", "zoc_d", "advance",
                 "end")
INTERDICTION_STAGES = (*AIR_STAGES, "end")
OVERRUN_WON = ("loss_d", "retreat_d", "enter", "end")
OVERRUN_LOST = ("loss_a", "end")
MAX_OPTIONS = 200


def _sys() -> Any:
    from kiev_tui.games.efs_ktr import system
    return system


def air_unit(game: "Game", uid: str) -> air.AirUnit:
    d = game.scenario.catalog.units[uid]
    x = d.extra
    return air.AirUnit(uid, d.side, str(x.get("air_role", air.BOMBER)), int(x.get("acr", 0)), int(x.get("cas", 0)),
                       int(x.get("interdiction", 0)), int(x.get("aa_drm", 0)))


def ready_air(game: "Game", side: str) -> list[str]:
    st = game.state
    flew = set(efs_vars(st).flown)
    return sorted(u for u, s in st.units.items() if s.status == AIR_READY and u not in flew
                  and game.scenario.catalog.units[u].side == side)


def stage_list(c: dict[str, Any]) -> tuple[str, ...]:
    if c["kind"] == "attack":
        return ATTACK_STAGES
    if c["kind"] == "interdiction":
        return INTERDICTION_STAGES
    return OVERRUN_WON if c.get("won") else OVERRUN_LOST


def dhexes(c: dict[str, Any]) -> list[str]:
    """The combat's Defender Hexes (15.26), the hex it was declared on first."""
    return list(c.get("hexes") or [c["hex"]])


def side_of(c: dict[str, Any], stage: str) -> str:
    if stage.endswith("_a"):
        return str(c["attacker"])
    if stage.endswith("_d"):
        return str(c["defender"])
    return str(c["attacker"])


# -- starting ------------------------------------------------------------------------------------

def start_attack(game: "Game", a: Attack) -> None:
    from kiev_tui.games.efs_ktr.handlers import live_hexes

    st = game.state
    side = st.player
    b = _sys().board(game)
    hexes = [b.hid(h) for h in live_hexes(game, a.hex)] or [a.hex]
    dfn = [u for x in hexes for u in b.at(b.parse(x)) if b.side(u) != side]
    efs_vars(st).combat = {"kind": "attack", "hex": a.hex, "attacker": side, "defender": other(side),
                           "attackers": list(a.attackers), "artillery": list(a.artillery), "defenders": dfn,
                           "dart": [], "stage": "cas_a", "air": {}, "cas": {}, "aorder": "", "dorder": ""}
    if len(hexes) > 1:  # 15.26: one combat against every Defender Hex of the declaration
        efs_vars(st).combat["hexes"] = hexes
    game.emit(Note(f"Attack on {' and '.join(hexes)} by {', '.join(a.attackers)}"
                   + (f" with {', '.join(a.artillery)} in support" if a.artillery else "") + " (15.2)"))
    run(game)


def start_interdiction(game: "Game", hex_id: str) -> None:
    """13.12: an interdiction mission over ``hex_id``: the Axis places, the Soviet opposes (17.21)."""
    efs_vars(game.state).combat = {"kind": "interdiction", "hex": hex_id, "attacker": AXIS, "defender": SOVIET,
                                   "attackers": [], "artillery": [], "defenders": [], "dart": [],
                                   "stage": "cas_a", "air": {}, "cas": {}, "aorder": "", "dorder": ""}
    game.emit(Note(f"Axis interdiction mission over {hex_id} (13.12)"))
    run(game)


def mission_kind(c: dict[str, Any]) -> str:
    return air.INTERDICTION if c["kind"] == "interdiction" else air.CAS


def mission_choices(game: "Game", c: dict[str, Any], side: str) -> list[tuple[str, ...]]:
    """17.21: the placements ``side`` may make (none included): up to three Ready units; in an
    interdiction mission the Axis flies units with an interdiction rating (or a dummy) and the
    Soviet opposes with fighters only (13.11, 17.21 note)."""
    ready = ready_air(game, side)
    if c["kind"] == "interdiction":
        units = {u: air_unit(game, u) for u in ready}
        if side == AXIS:
            ready = [u for u in ready if units[u].interdiction > 0 or units[u].role == air.DUMMY]
        else:
            ready = [u for u in ready if air.check_interdiction_opposition([units[u]]) is None]
    elif side == SOVIET and _sys().board(game).non_op_over(_sys().board(game).parse(c["hex"])):
        ready = [u for u in ready if air_unit(game, u).role == air.FIGHTER]  # 22.25c: fighters only oppose
    out: list[tuple[str, ...]] = []
    least = 1 if c["kind"] == "interdiction" and side == AXIS else 0  # 17.21: a mission needs a unit
    for n in range(least, min(_sys().more(game).air.max_units_per_side, len(ready)) + 1):  # 17.21b
        out.extend(itertools.combinations(ready, n))
    return out


def start_overrun(game: "Game", ov: Any, out: combat.OverrunOutcome) -> None:
    st = game.state
    b = _sys().board(game)
    side = b.side(ov.units[0])
    c = {"kind": "overrun", "hex": b.hid(ov.target), "attacker": side, "defender": other(side),
         "attackers": list(ov.units), "artillery": [], "defenders": [u for u in b.at(ov.target)],
         "dart": [], "won": out.succeeded, "stage": "", "losses": {}}
    c["losses"] = {side: {"steps": out.attacker_steps, "elim": False, "first": [], "retreat": 0, "by_enemy": False},
                   other(side): {"steps": out.defender_steps, "elim": False, "first": [], "retreat": 2 if out.succeeded else 0,
                                 "by_enemy": True}}
    c["stage"] = stage_list(c)[0]
    efs_vars(st).combat = c
    if not out.succeeded:  # 11.43m: the stack stops next to the target
        v = efs_vars(st)
        v.done.extend(u for u in ov.units if u not in v.done)
    run(game)


# -- the driver ----------------------------------------------------------------------------------

def _next(c: dict[str, Any]) -> None:
    stage = c["stage"]
    if stage in ("zoc_a", "zoc_d", "advance"):  # the next stack's retreat, the next emptied hex's advance
        q = c.get("aq") if stage == "advance" else c.get("rq", {}).get(side_of(c, stage))
        if q:
            q.pop(0)
        if q:
            c["stage"] = "advance" if stage == "advance" else "retreat_" + stage[-1]
            return
    stages = stage_list(c)
    c["stage"] = stages[stages.index(stage) + 1]


def run(game: "Game", public_only: bool = False) -> None:
    """Move the chain on until it needs a player's answer or ends.  ``public_only``: after a
    commitment, where nothing may be rolled (every path from there stops at a reveal first)."""
    st = game.state
    v = efs_vars(st)
    while v.combat and not st.over:
        c = v.combat
        stage = c["stage"]
        if stage in ("retreat_a", "retreat_d", "advance"):
            _queue(game, c, stage)
        frame = _frame_for(game, c, stage)
        if frame is not None:
            st.push_prompt(frame)
            return
        assert not (public_only and stage in ("air", "roll", "retreat_a", "retreat_d")) or not _needs_roll(c, stage)
        _auto(game, c, stage)
        if stage == "end":
            return
        _next(c)


def _needs_roll(c: dict[str, Any], stage: str) -> bool:
    return stage in ("air", "roll")


def _frame_for(game: "Game", c: dict[str, Any], stage: str) -> dict[str, Any] | None:
    st = game.state
    side = side_of(c, stage)
    base = {"side": side, "hex": c["hex"]}
    if stage in ("cas_a", "cas_d"):
        choices = mission_choices(game, c, side)
        return {"kind": "air_mission", **base} if len(choices) > 1 or any(choices) else None
    if stage in ("reveal_air_a", "reveal_air_d"):
        return {"kind": "reveal_air", **base} if "air" in st.commitments.get(side, {}) else None
    if stage == "support_d":
        return {"kind": "support", **base} if defence_artillery(game, c) else None
    if stage == "order_d":
        return {"kind": "set_order", **base} if may_order(game, c, side) else None
    if stage == "order_a":
        return {"kind": "attacker_order", **base} if may_order(game, c, side) else None
    if stage == "reveal_order_d":
        return {"kind": "reveal_order", **base} if "order" in st.commitments.get(side, {}) else None
    if stage in ("loss_a", "loss_d"):
        return {"kind": "take_losses", **base} if len(loss_options(game, c, side)) > 1 else None
    if stage in ("retreat_a", "retreat_d"):
        opts = retreat_options(game, c, side)
        if opts is None or len(opts) <= 1:
            return None
        chooser = c["attacker"] if c["losses"][side].get("by_enemy") else side
        return {"kind": "retreat", "side": chooser, "hex": stack_hex(game, c, side), "who": side}
    if stage == "air_pairs":
        ini = c.get("ini", {})
        return ({"kind": "air_pairs", "side": ini["side"], "hex": c["hex"]}
                if ini.get("combat") and len(pair_options(game, c)) > 1 else None)
    if stage in ("air_roles_a", "air_roles_d"):  # 17.31b2: only a side with a dual-purpose fighter is asked
        return {"kind": "air_roles", **base} if len(role_options(game, c, side)) > 1 else None
    if stage == "air_lta":
        ini = c.get("ini", {})
        return ({"kind": "air_lta", "side": ini["side"], "hex": c["hex"]}
                if ini.get("lta") and len(lta_options(game, c)) > 1 else None)
    if stage in ("zoc_a", "zoc_d"):
        z = c.get("zoc")
        return ({"kind": "zoc_step", "side": side, "hex": stack_hex(game, c, side)}
                if z and z["side"] == side and len(zoc_units(game, c)) > 1 else None)
    if stage == "advance":
        return {"kind": "advance", "side": side, "hex": advance_target(c)} if len(advance_options(game, c)) > 1 else None
    return None


def _auto(game: "Game", c: dict[str, Any], stage: str) -> None:
    if stage == "air":
        air_initiative(game, c)
    elif stage == "air_pairs":
        if c.get("ini", {}).get("combat"):
            opts = pair_options(game, c)
            c["pairs"] = [list(p) for p in opts[0]] if opts else []
    elif stage == "air_fire":
        resolve_air(game, c)
    elif stage == "air_lta":
        opts = lta_options(game, c) if c.get("ini", {}).get("lta") else []
        if opts:
            lta_fire(game, c, opts[0])
    elif stage == "aa_fire":
        resolve_aa(game, c)
    elif stage == "roll":
        roll_combat(game, c)
    elif stage in ("loss_a", "loss_d"):
        opts = loss_options(game, c, side_of(c, stage))
        take_losses(game, c, side_of(c, stage), opts[0] if opts else ())
    elif stage in ("retreat_a", "retreat_d"):
        side = side_of(c, stage)
        opts = retreat_options(game, c, side)
        if opts:
            do_retreat(game, c, side, opts[0])
    elif stage in ("zoc_a", "zoc_d"):
        z = c.get("zoc")
        if z and z["side"] == side_of(c, stage):
            units = zoc_units(game, c)
            finish_zoc_retreat(game, c, units[0] if units else "")
    elif stage == "advance":
        pass
    elif stage == "enter":
        enter_after_overrun(game, c)
    elif stage == "end":
        end_combat(game, c)


# -- answers -------------------------------------------------------------------------------------

KIND_OF = {AirMission: "air_mission", RevealAir: "reveal_air", AirRoles: "air_roles", AirPairs: "air_pairs", AirLta: "air_lta",
           Support: "support", SetOrder: "set_order",
           AttackerOrder: "attacker_order", RevealOrder: "reveal_order", TakeLosses: "take_losses",
           Retreat: "retreat", Advance: "advance"}


def check_answer(game: "Game", action: Action) -> Illegal | None:
    from kiev_tui.games.efs_ktr import prompting

    top = game.state.pending
    if top is None:
        return Illegal("15.0", f"no combat choice waits for '{action.kind}'")
    want = KIND_OF.get(type(action))
    if want != top["kind"] and not (want == "take_losses" and top["kind"] == "zoc_step"):
        return Illegal("15.0", f"answer the {top['kind'].replace('_', ' ')} choice first")
    side = str(top["side"])
    c = efs_vars(game.state).combat
    if isinstance(action, RevealAir):
        return check_reveal(game, side, "air", action.units, action.salt, "17.31")
    if isinstance(action, RevealOrder):
        return check_reveal(game, side, "order", action.order, action.salt, "15.59")
    if isinstance(action, AirRoles):  # 17.31b2: a reason of its own for a wrong declaration
        bad = air.check_declarations(_real(game, c)[side], mission_kind(c), action.mission)
        if bad is not None:
            return bad
    if isinstance(action, AirLta):  # 17.33e
        bad = check_lta_answer(game, c, action.pairs)
        if bad is not None:
            return bad
    p = prompting.prompt(game)
    assert p is not None
    plain = replace(action, salt="") if is_hidden(action) else action  # type: ignore[type-var]
    if plain not in {o.action for o in p.options}:
        return Illegal(p.case, f"not one of the choices offered: {action.kind} {'' if c is None else ''}".strip())
    return None


def apply_answer(game: "Game", action: Action) -> None:
    st = game.state
    top = st.pending
    assert top is not None
    side = str(top["side"])
    c = efs_vars(st).combat
    if isinstance(action, AirMission):
        commit(game, side, "air", action.units, action.salt)  # the hook moves the chain on
        return
    if isinstance(action, SetOrder):
        commit(game, side, "order", action.order, action.salt)
        return
    st.pop_prompt()
    if isinstance(action, RevealAir):
        reveal(game, side, "air", action.units)
        c["air"][side] = [u for u in action.units.split(",") if u]
        game.emit(Note(f"{side} air units on {c['hex']}: {', '.join(c['air'][side]) or 'none'} (17.31)"))
    elif isinstance(action, AirRoles):
        declare_roles(game, c, side, action.mission)
    elif isinstance(action, AirPairs):
        c["pairs"] = [p.split(">") for p in action.pairs]
    elif isinstance(action, AirLta):
        lta_fire(game, c, split_pairs(action.pairs))
    elif isinstance(action, Support):
        c["dart"] = list(action.artillery)
        if action.artillery:
            game.emit(Note(f"{', '.join(action.artillery)} support the defence of {c['hex']} (14.21)"))
    elif isinstance(action, AttackerOrder):
        c["aorder"] = action.order
        if action.order:
            spend_order_point(game, c, side)
            game.emit(Note(f"attacker order: {action.order.replace('_', ' ')} (15.58)"))
    elif isinstance(action, RevealOrder):
        reveal(game, side, "order", action.order)
        c["dorder"] = action.order
        if action.order:
            spend_order_point(game, c, side)
        for x in dhexes(c):  # 14.31: one order covers every hex of a multi-hex combat
            efs_vars(st).orders[x] = action.order
        game.emit(Note(f"defender order on {' and '.join(dhexes(c))}: {action.order.replace('_', ' ') or 'none'} (15.59)"))
    elif isinstance(action, TakeLosses) and top["kind"] == "zoc_step":
        finish_zoc_retreat(game, c, action.units[0])
    elif isinstance(action, TakeLosses):
        take_losses(game, c, str(top["side"]), action.units)
    elif isinstance(action, Retreat):
        who = str(top.get("who", side))
        opts = retreat_options(game, c, who) or []
        r = next(r for r in opts if tuple(_sys().board(game).hid(h) for h in r.path) == action.path)
        do_retreat(game, c, who, r)
    elif isinstance(action, Advance):
        advance(game, c, action.units)
    _next(c)
    run(game)


def after_commit(game: "Game", side: str, key: str) -> None:
    """The public half of a hidden choice: pop its prompt and go on (no secret is read here)."""
    st = game.state
    c = efs_vars(st).combat
    if not c or st.pending is None:
        return
    st.pop_prompt()
    game.emit(Note(f"{side} places {'air units' if key == 'air' else 'an order marker'} face down on {c['hex']}"
                   f" ({'17.21' if key == 'air' else '14.32'})"))
    _next(c)
    run(game, public_only=True)


# -- air (17.3-17.4) -----------------------------------------------------------------------------

def _real(game: "Game", c: dict[str, Any]) -> dict[str, list[air.AirUnit]]:
    """The air units placed on the mission hex, dummies left out (17.31a)."""
    return {s: [u for u in (air_unit(game, x) for x in c["air"].get(s, [])) if u.role != air.DUMMY]
            for s in (AXIS, SOVIET)}


def declared(c: dict[str, Any]) -> set[str]:
    """17.31b2: the fighters their owners declared mission units over this hex (public)."""
    return {u for uids in c.get("roles", {}).values() for u in uids}


def _firing(c: dict[str, Any], units: list[air.AirUnit]) -> tuple[air.AirUnit, ...]:
    return air.firing_units(units, mission_kind(c), declared(c))


def _missions(c: dict[str, Any], units: list[air.AirUnit]) -> tuple[air.AirUnit, ...]:
    return air.mission_units(units, mission_kind(c), declared(c))


def role_options(game: "Game", c: dict[str, Any], side: str) -> list[tuple[str, ...]]:
    """17.31b2: every set of ``side``'s revealed dual-purpose fighters it may declare mission
    units (none first: an undeclared fighter fires, 17.31b3)."""
    dual = [u.uid for u in air.dual_purpose(_real(game, c)[side], mission_kind(c))]
    return [combo for n in range(len(dual) + 1) for combo in itertools.combinations(dual, n)]


def declare_roles(game: "Game", c: dict[str, Any], side: str, mission: tuple[str, ...]) -> None:
    """17.31b2: the owner's declaration, final and public (made after the units are face up)."""
    c.setdefault("roles", {})[side] = list(mission)
    dual = [u.uid for u in air.dual_purpose(_real(game, c)[side], mission_kind(c))]
    firing = [u for u in dual if u not in mission]
    game.emit(Note(f"{side} fighters over {c['hex']}: "
                   + "; ".join(part for part in (f"mission units {', '.join(mission)}" if mission else "",
                                                 f"firing units {', '.join(firing)}" if firing else "") if part)
                   + " (17.31b2)"))


def air_initiative(game: "Game", c: dict[str, Any]) -> None:
    """17.32: with a firing unit in the hex and both sides' air units there, roll for the
    initiative and whether air combat happens (17.31b3)."""
    v = efs_vars(game.state)
    real = _real(game, c)
    for s in real:
        v.flown.extend(u.uid for u in real[s])  # 17.13: they have flown this game-turn
    firing = [u for s in real for u in _firing(c, real[s])]
    c["ini"] = {"combat": False}
    if not firing or not all(real.values()):  # 17.31b3: no enemy in the hex, no air combat
        return
    roll = game.roll("air initiative", 10)
    ini = air.air_initiative(roll, {u.side for u in firing}, _sys().more(game))
    if isinstance(ini, Illegal) or not ini.combat:
        game.emit(Note(f"air initiative roll {roll}: no air combat (17.32)"))
        return
    c["ini"] = {"combat": True, "side": ini.side, "lta": ini.lta}
    game.emit(Note(f"air initiative {ini.side}{' with Local Tactical Advantage' if ini.lta else ''} (roll {roll}): "
                   f"air combat (17.32)"))


def pair_options(game: "Game", c: dict[str, Any]) -> list[tuple[tuple[str, str], ...]]:
    """17.33a: every way the initiative side's firers can each take one enemy unit in the hex."""
    side = c["ini"]["side"]
    real = _real(game, c)
    mine = list(_firing(c, real[side]))
    enemy = real[other(side)]
    firers = mine + list(_firing(c, enemy))
    out = []
    for targets in itertools.product([u.uid for u in enemy], repeat=len(mine)):
        pairs = tuple((f.uid, t) for f, t in zip(mine, targets))
        if enemy and air.check_pairs(side, firers, enemy, pairs) is None:
            out.append(pairs)
    return out[:MAX_OPTIONS]


def resolve_air(game: "Game", c: dict[str, Any]) -> None:
    """17.33a-d: the first round: every pair fires at once and the results stand together."""
    c["air_results"] = {}
    c["lta_free"] = []
    if not c.get("ini", {}).get("combat"):
        return
    real = _real(game, c)
    by_id = {u.uid: u for s in real for u in real[s]}
    side = c["ini"]["side"]
    chosen = [(by_id[f], by_id[t]) for f, t in c.get("pairs", [])]
    pairs = chosen + _answers(c, side, real, chosen)
    rolls = [game.roll(f"air combat {f.uid} on {t.uid}", 10) for f, t in pairs]
    results = air.air_combat(pairs, rolls, _sys().more(game))
    c["air_results"] = results
    c["lta_free"] = list(air.unengaged(side, pairs, results))  # 17.33e: who may fire again
    game.emit(Note("air combat: " + ", ".join(f"{f.uid} at {t.uid} ({r})" for (f, t), r in zip(pairs, rolls))
                   + "; results: " + ", ".join(f"{k} {r}" for k, r in sorted(results.items())) + " (17.33)"))


def _lta_targets(game: "Game", c: dict[str, Any]) -> tuple[air.AirUnit, ...]:
    real = _real(game, c)
    return air.lta_targets(c["ini"]["side"], [u for s in real for u in real[s]], c.get("air_results", {}))


def lta_options(game: "Game", c: dict[str, Any]) -> list[tuple[tuple[str, str], ...]]:
    """17.33e: with Local Tactical Advantage, every way the unengaged firers can each take a new
    target among the enemy units still over the hex (none when either list is empty)."""
    free = list(c.get("lta_free", []))
    targets = [u.uid for u in _lta_targets(game, c)]
    if not free or not targets:
        return []
    return [tuple(zip(free, combo)) for combo in itertools.product(targets, repeat=len(free))][:MAX_OPTIONS]


def check_lta_answer(game: "Game", c: dict[str, Any], pairs: tuple[str, ...]) -> Illegal | None:
    """17.33e: refuse a second-round answer that is not one the advantage allows."""
    if not c or not c.get("ini", {}).get("lta"):
        return Illegal("17.33e", "no Local Tactical Advantage over this hex")
    if any(p.count(">") != 1 for p in pairs):
        return Illegal("17.33e", "name each pair as firer>target")
    return air.check_lta(list(c.get("lta_free", [])), _lta_targets(game, c), split_pairs(pairs))


def split_pairs(pairs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """"firer>target" strings as (firer, target)."""
    return tuple((f, t) for f, t in (p.split(">", 1) for p in pairs))


def lta_fire(game: "Game", c: dict[str, Any], pairs: tuple[tuple[str, str], ...]) -> None:
    """17.33e: the unengaged firers shoot once more; their targets do not fire back."""
    if not pairs:
        return
    real = _real(game, c)
    by_id = {u.uid: u for s in real for u in real[s]}
    shots = [(by_id[f], by_id[t]) for f, t in pairs]
    rolls = [game.roll(f"local tactical advantage {f.uid} on {t.uid}", 10) for f, t in shots]
    second = air.air_combat(shots, rolls, _sys().more(game))
    c["air_results"] = air.merge_results(c.get("air_results", {}), second)
    game.emit(Note("local tactical advantage: " + ", ".join(f"{f.uid} at {t.uid} ({r})" for (f, t), r in zip(shots, rolls))
                   + "; results: " + ", ".join(f"{k} {r}" for k, r in sorted(second.items())) + " (17.33e)"))


def resolve_aa(game: "Game", c: dict[str, Any]) -> None:
    """17.33d-f, 17.4, 15.13: units hit go to their boxes, surviving mission units take AA fire,
    the rest give CAS points or the interdiction level."""
    st = game.state
    m = _sys().more(game)
    real = _real(game, c)
    results: dict[str, str] = dict(c.get("air_results", {}))
    survivors: dict[str, list[air.AirUnit]] = {}
    b = _sys().board(game)
    h = b.parse(c["hex"])
    for s in (AXIS, SOVIET):
        alive = [u for u in _missions(c, real[s]) if results.get(u.uid, "-") == "-"]
        ground = [air.AAUnit(g, b.side(g), b.utype(g), b.udef(g).size, b.own_zoc(g), b.udef(g).division)
                  for n in (h, *b.gmap.neighbours(h)) for g in b.at(n) if b.side(g) != s]
        kept = []
        for u in alive:
            if air.aa_eligible(ground):
                r = game.roll(f"AA fire at {u.uid}", 10)
                res = air.aa_fire(r, ground, u, m) or "-"
                game.emit(Note(f"AA fire at {u.uid}: roll {r}, {res} (17.4)"))
                if res != "-":
                    results[u.uid] = res
                    continue
            kept.append(u)
        survivors[s] = kept
    for s in real:
        for u in real[s]:
            st.units[u.uid].status = air.RESULT_BOX.get(results.get(u.uid, "A"), air.FLOWN)
    if c["kind"] == "interdiction":  # 13.14: what is left sets the zone's level
        level = air.interdiction_level(survivors[AXIS], m)
        efs_vars(st).interdiction[c["hex"]] = level  # 0: flown, no marker (one mission a hex, 13.13)
        game.emit(Note(f"interdiction over {c['hex']}: level {level or 'none'} (13.14)"))
        return
    a_pts, d_pts = air.cas_points(survivors[c["attacker"]], survivors[c["defender"]])
    c["cas"] = {c["attacker"]: a_pts, c["defender"]: d_pts}
    if a_pts or d_pts:
        game.emit(Note(f"close air support on {c['hex']}: attacker {a_pts}, defender {d_pts} (15.65)"))


def _answers(c: dict[str, Any], first: str, real: dict[str, list[air.AirUnit]],
             chosen: list[tuple[air.AirUnit, air.AirUnit]]) -> list[tuple[air.AirUnit, air.AirUnit]]:
    """17.33b: the other side's firers fire too: each at the unit that took it on, else at the
    first enemy mission unit, else the first enemy unit (docs/rulings.md; PB 10.4, GT51: the
    I-16 left free goes for the He111)."""
    out = []
    missions = list(_missions(c, real[first]))
    enemies = missions + [u for u in real[first] if u not in missions]
    for f in _firing(c, real[other(first)]):
        engager = next((a for a, t in chosen if t.uid == f.uid), None)
        target = engager or (enemies[0] if enemies else None)
        if target is not None:
            out.append((f, target))
    return out


# -- artillery and orders ------------------------------------------------------------------------

def defence_artillery(game: "Game", c: dict[str, Any]) -> list[str]:
    from kiev_tui.games.efs_ktr.handlers import artillery_for
    return [u for u in artillery_for(game, c["hex"], c["defender"])]


def support_allowed(game: "Game", c: dict[str, Any], units: tuple[str, ...]) -> bool:
    """14.21, PB 11.3: may these artillery units support the defence (the combat still checks)?"""
    trial = {**c, "dart": list(units)}
    return not isinstance(combat.plan(combat_input(game, trial), _sys().tables(game)), Illegal)


def order_hq(game: "Game", c: dict[str, Any], side: str) -> str | None:
    """14.34, 15.58, 22.12c: the Soviet HQ with a point left in range of the Defender Hex (or, for
    an attack, of any attacking unit's hex: docs/rulings.md)."""
    from kiev_tui.games.efs_ktr.handlers import hq_command, hqs_in_range

    b = _sys().board(game)
    if side == c["defender"]:
        hexes = [b.parse(x) for x in dhexes(c)]
    else:
        hexes = [b.hex_of[u] for u in c["attackers"] if u in b.hex_of]
    used = efs_vars(game.state).hq_orders
    for h in hexes:
        if b.non_op_over(h):
            continue  # 14.34b, 22.22: no order reaches a hex in a Non-Op HQ's range
        for hq in hqs_in_range(game, h):
            if used.get(hq, 0) < hq_command(game, hq):
                return hq
    return None


def may_order(game: "Game", c: dict[str, Any], side: str) -> bool:
    if c["kind"] != "attack":
        return False
    return side == AXIS or order_hq(game, c, side) is not None


def spend_order_point(game: "Game", c: dict[str, Any], side: str) -> None:
    if side != SOVIET:
        return
    hq = order_hq(game, c, side)
    if hq is not None:
        used = efs_vars(game.state).hq_orders
        used[hq] = used.get(hq, 0) + 1


# -- the roll ------------------------------------------------------------------------------------

FORMATION_KIND = (("SS", "ss_motorized"), ("Pz", "panzer"), ("Mot", "motorized"))


def formations(game: "Game") -> dict[str, str]:
    """15.68: each Axis division's kind, from its name (Pz panzer, Mot motorized)."""
    out: dict[str, str] = {}
    for d in game.scenario.catalog.units.values():
        if d.side == AXIS and d.division:
            for tag, kind in FORMATION_KIND:
                if tag in d.division:
                    out[d.division] = kind
                    break
    return out


def combatant(b: "Board", uid: str, target: Hex | tuple[Hex, ...] | None = None) -> Combatant:
    """The unit as it fights; ``target``: the Defender Hex(es) an attacker attacks, for its hexsides.
    Against several hexes (docs/rulings.md, 15.26): it attacks across a river (15.61b) only when
    every hexside into a Defender Hex is a river, and is halved for a major river (15.52b) when
    any one is."""
    here = b.hex_of.get(uid)
    targets = target if isinstance(target, tuple) else (() if target is None else (target,))
    rivers = [b.river(here, t) for t in targets] if here is not None else []
    return Combatant(uid, b.utype(uid), b.attack(uid), b.defence(uid), b.steps_left(uid), b.udef(uid).division,
                     b.side(uid) == AXIS, float(b.udef(uid).extra.get("support", 0)),
                     river=bool(rivers) and all(r == "minor_river" for r in rivers),
                     major_river=any(r == "major_river" for r in rivers),
                     from_swamp=here is not None and b.terrain(here)[0] == "swamp",
                     overrun_marker=uid in b.overrun_marked)


def combat_input(game: "Game", c: dict[str, Any]) -> CombatInput:
    b = _sys().board(game)
    hexes = tuple(b.parse(x) for x in dhexes(c))
    att = tuple(combatant(b, u, hexes) for u in c["attackers"] if u in b.hex_of)
    dfn = tuple(combatant(b, u) for h in hexes for u in b.at(h) if b.side(u) == c["defender"])
    art = tuple(combatant(b, u) for u in c["artillery"] if u in b.hex_of)
    dart = tuple(combatant(b, u) for u in c["dart"] if u in b.hex_of)
    soviet_art = art if c["attacker"] == SOVIET else dart
    with_hq = sum(1 for u in soviet_art if any(b.is_hq(x) and not b.is_non_op(x) for x in b.at(b.hex_of[u.uid])))
    # 22.25d: one Soviet gun in a Non-Op range; 22.25c: no Soviet CAS there (any Defender Hex in the range)
    non_op = any(b.non_op_over(h) for h in hexes)
    if non_op:
        with_hq = 1
    cas = {sd: 0 if sd == SOVIET and non_op else int(c.get("cas", {}).get(sd, 0))
           for sd in (c["attacker"], c["defender"])}
    # 15.61d: each Defender Hex's terrain and settlement (combat.plan takes the highest DRM)
    return CombatInput(c["attacker"], att, dfn, tuple(b.gmap.terrain(h) for h in hexes),
                       tuple(b.settlement(h) or "" for h in hexes), art, dart,
                       cas[c["attacker"]], cas[c["defender"]],
                       c.get("aorder", ""), c.get("dorder", ""), formations=formations(game),
                       soviet_artillery_allowed=max(1, with_hq))


def _loss(sl: combat.SideLoss) -> dict[str, Any]:
    return {"steps": sl.steps, "elim": sl.eliminated, "first": sorted(sl.first_loss_types), "retreat": sl.retreat,
            "by_enemy": sl.retreat_by_enemy}


def roll_combat(game: "Game", c: dict[str, Any]) -> None:
    inp = combat_input(game, c)
    t = _sys().tables(game)
    p = combat.plan(inp, t)
    roll = game.roll(f"combat at {c['hex']}", 10)
    out = combat.resolve(inp, t, roll)
    assert not isinstance(p, Illegal), p  # the attack and the support were checked when chosen
    if isinstance(out, Illegal):  # 15.54: an all-zero defence is removed
        for u in inp.defenders:
            _remove(game, u.uid, CADRE)
        c["losses"] = {c["attacker"]: _loss(combat.SideLoss()), c["defender"]: _loss(combat.SideLoss())}
        c["may_advance"] = True
        game.emit(Note(f"{c['hex']}: every defender has 0 defence and is removed (15.54)"))
        return
    _lift_markers(game, c)  # 15.81h: before the result is applied
    c["losses"] = {c["attacker"]: _loss(out.attacker), c["defender"]: _loss(out.defender)}
    c["may_advance"] = out.attacker_may_advance
    c["result"] = out.cell
    c["odds"] = p.column or "under 1-4"
    game.emit(Note(f"Combat at {' and '.join(dhexes(c))}: {p.attack:g} to {p.defence:g}, {p.column or 'under 1-4'}, "
                   f"DRM {p.drm:+d}; roll {out.roll}: {out.cell} (15.8)"))


# -- losses (16.2) -------------------------------------------------------------------------------

def force(game: "Game", c: dict[str, Any], side: str) -> list[Combatant]:
    b = _sys().board(game)
    if side == c["attacker"]:
        return [combatant(b, u) for u in c["attackers"] if u in b.hex_of]
    return [combatant(b, u) for x in dhexes(c) for u in b.at(b.parse(x)) if b.side(u) == side]  # 16.21: one force


def _side_loss(c: dict[str, Any], side: str) -> combat.SideLoss:
    d = c["losses"][side]
    return combat.SideLoss(int(d["steps"]), bool(d["elim"]), int(d["retreat"]), first_loss_types=frozenset(d["first"]),
                           retreat_by_enemy=bool(d["by_enemy"]))


def loss_options(game: "Game", c: dict[str, Any], side: str) -> list[tuple[str, ...]]:
    """Every way to name the steps (16.21, 16.32), or one empty answer when nothing is chosen."""
    fc = force(game, c, side)
    sl = _side_loss(c, side)
    total = sum(u.steps for u in fc)
    if not fc or sl.steps == 0 or sl.eliminated or sl.steps >= total:
        return [()]
    out: list[tuple[str, ...]] = []
    seen = set()
    for combo in itertools.combinations_with_replacement(sorted(u.uid for u in fc), sl.steps):
        for first in sorted(set(combo)):
            rest = list(combo)
            rest.remove(first)
            order = (first, *rest)
            if order in seen:
                continue
            seen.add(order)
            if not isinstance(combat.allocate_losses(fc, sl, order), Illegal):
                out.append(order)
            if len(out) >= MAX_OPTIONS:
                return out
    return out or [()]


def _remove(game: "Game", uid: str, box: str) -> None:
    u = game.state.units[uid]
    u.status, u.hex = box, None


def take_losses(game: "Game", c: dict[str, Any], side: str, order: tuple[str, ...]) -> None:
    fc = force(game, c, side)
    sl = _side_loss(c, side)
    if not fc or (sl.steps == 0 and not sl.eliminated):
        return
    taken = combat.allocate_losses(fc, sl, order)
    assert not isinstance(taken, Illegal), taken
    gone = combat.removed_to(fc, sl, taken)
    v = efs_vars(game.state)
    v.steps_lost[side] = v.steps_lost.get(side, 0) + combat.steps_lost_by(fc, taken, gone)
    for uid, n in taken.items():
        game.state.units[uid].step += n
    for uid, box in gone.items():
        _remove(game, uid, box)
    game.emit(Note(f"{side} loses {sum(taken.values())} step(s): "
                   + ", ".join(f"{u} -{n}" for u, n in sorted(taken.items()))
                   + (f"; to the {'Eliminated' if sl.eliminated else 'Cadre'} Box: {', '.join(sorted(gone))}" if gone else "")
                   + " (16.2)"))


# -- retreat and advance (16.4-16.5) -------------------------------------------------------------

def _queue(game: "Game", c: dict[str, Any], stage: str) -> None:
    """On first reaching a retreat stage: the side's stacks, one per hex, each to retreat in turn
    in hex-id order (16.4; docs/rulings.md); on reaching the advance: the emptied Defender Hexes
    in the same order (16.55)."""
    b = _sys().board(game)
    if stage == "advance":
        if "aq" not in c:
            c["aq"] = [x for x in sorted(dhexes(c)) if b.owner(b.parse(x)) is None] if c.get("may_advance") else []
        return
    side = side_of(c, stage)
    rq = c.setdefault("rq", {})
    if side in rq:
        return
    by_hex: dict[str, list[str]] = {}
    for f in force(game, c, side):
        by_hex.setdefault(b.hid(b.hex_of[f.uid]), []).append(f.uid)
    rq[side] = [sorted(by_hex[x]) for x in sorted(by_hex)]


def retreating(game: "Game", c: dict[str, Any], side: str) -> list[str]:
    """The stack whose retreat is under way: the first of the side's queue still on the map."""
    q = c.get("rq", {}).get(side)
    if q is None:
        return [f.uid for f in force(game, c, side)]
    live = set(_sys().board(game).hex_of)
    return [u for u in q[0] if u in live] if q else []


def stack_hex(game: "Game", c: dict[str, Any], side: str) -> str:
    units = retreating(game, c, side)
    b = _sys().board(game)
    return b.hid(b.hex_of[units[0]]) if units else str(c["hex"])


def retreat_options(game: "Game", c: dict[str, Any], side: str) -> list[retreat.Retreat] | None:
    d = c["losses"][side]
    units = retreating(game, c, side)
    if not d["retreat"] or not units:
        return None
    b = _sys().board(game)
    kind = retreat.OVERRUN if c["kind"] == "overrun" else retreat.kind_for(
        c["dorder"] if side == c["defender"] else c["aorder"])
    # 16.4: away from the stack's own hex: for a defender that is its Defender Hex, for an
    # attacker the hex it attacked from (16.11e; docs/rulings.md)
    opts = retreat.choices(b, units, kind, None)
    if isinstance(opts, Illegal):
        return None
    return opts[:MAX_OPTIONS]


def do_retreat(game: "Game", c: dict[str, Any], side: str, r: retreat.Retreat) -> None:
    st = game.state
    b = _sys().board(game)
    units = retreating(game, c, side)
    v = efs_vars(st)
    if r.fate == retreat.ZOC_ROLL and "zoc" not in c:  # 16.46: the owner says which unit loses the step
        c["zoc"] = {"side": side, "path": [b.hid(h) for h in r.path], "fate": r.fate, "case": r.case}
        return
    if r.fate == retreat.ZOC_ROLL:  # 16.46: a step now, then the Retreat Table
        big = str(c["zoc"]["unit"])
        st.units[big].step += 1
        v.steps_lost[side] = v.steps_lost.get(side, 0) + 1
        if st.units[big].step >= len(b.udef(big).steps):
            _remove(game, big, CADRE)
        roll = game.roll("retreat through a zone", 10)
        z = combat.retreat_through_zoc(roll, any(b.is_artillery(u) for u in units), _sys().more(game))
        game.emit(Note(f"retreat through an enemy zone: {big} loses a step, roll {roll}: "
                       f"{'escapes' if z.escaped else 'to the Cadre Box'} (16.46)"))
        if not z.escaped:
            for u in units:
                if st.units[u].status == "map":
                    v.steps_lost[side] = v.steps_lost.get(side, 0) + b.steps_left(u) - (1 if u == big else 0)
                    _remove(game, u, CADRE)
            return
        b = _sys().board(game)
        units = [u for u in units if st.units[u].status == "map"]
    after = retreat.apply(b, units, r, overrun=c["kind"] == "overrun")
    for u in units:
        if u in after.hex_of:
            st.units[u].hex = after.hid(after.hex_of[u])
        else:
            box = after.boxes.get(u, CADRE)
            v.steps_lost[side] = v.steps_lost.get(side, 0) + b.steps_left(u)
            _remove(game, u, box if box in (CADRE, ELIMINATED) else CADRE)
    if c["kind"] == "overrun":
        v.overrun_marked.extend(u for u in units if u in after.hex_of)
        nonop.turn_non_op(game, units, "22.23b", "it received an Overrun marker")
    if r.fate == retreat.ZOC_ROLL:
        nonop.turn_non_op(game, units, "22.23c", "it retreated through a vacant hex in an Axis zone")
    game.emit(Note(f"{', '.join(units)} retreat {' > '.join(after.hid(h) for h in r.path) or 'off the map'} "
                   f"({r.fate}, {r.case})"))


def zoc_units(game: "Game", c: dict[str, Any]) -> list[str]:
    """16.46: the units of the retreating stack, one of which loses the step."""
    return sorted(retreating(game, c, str(c["zoc"]["side"])))


def finish_zoc_retreat(game: "Game", c: dict[str, Any], unit: str) -> None:
    """16.46: ``unit`` loses the step, the Retreat Table is rolled, and the retreat is made."""
    z = c["zoc"]
    b = _sys().board(game)
    z["unit"] = unit
    r = retreat.Retreat(tuple(b.parse(h) for h in z["path"]), str(z["fate"]), str(z["case"]))
    do_retreat(game, c, str(z["side"]), r)
    c.pop("zoc", None)


def advance_target(c: dict[str, Any]) -> str:
    """The emptied Defender Hex the advance prompt is about (16.55: each in turn)."""
    q = c.get("aq")
    return str(q[0]) if q else str(c["hex"])


def advance_options(game: "Game", c: dict[str, Any]) -> list[tuple[str, ...]]:
    b = _sys().board(game)
    h = b.parse(advance_target(c))
    if not c.get("may_advance") or b.owner(h) is not None:
        return [()]
    moved = set(c.get("advanced", []))  # 16.51: an advanced unit has made its advance
    live = [u for u in c["attackers"] if u in b.hex_of and u not in moved]
    out: list[tuple[str, ...]] = [()]
    for n in range(1, len(live) + 1):
        for combo in itertools.combinations(live, n):
            if retreat.check_advance(b, combo, h, live, c.get("aorder") or None) is None:
                out.append(combo)
            if len(out) >= MAX_OPTIONS:
                return out
    return out


def advance(game: "Game", c: dict[str, Any], units: tuple[str, ...], case: str = "16.5") -> None:
    if not units:
        return
    st = game.state
    to = advance_target(c)
    for u in units:
        st.units[u].hex = to
    c.setdefault("advanced", []).extend(units)
    if to in _sys().star_hexes(game) or to in st.control:
        st.control[to] = c["attacker"]
    game.emit(Note(f"{', '.join(units)} {'advance' if case == '16.5' else 'move'} into {to} ({case})"))


def enter_after_overrun(game: "Game", c: dict[str, Any]) -> None:
    """11.43l: the stack enters the emptied target; in an enemy zone it stops there."""
    from kiev_tui.games.efs_ktr.zoc import in_enemy_zoc

    b = _sys().board(game)
    h = b.parse(c["hex"])
    if b.owner(h) is not None:
        return
    live = [u for u in c["attackers"] if u in b.hex_of]
    advance(game, c, tuple(live), "11.43")
    b = _sys().board(game)
    if live and in_enemy_zoc(b, h, c["attacker"]):
        v = efs_vars(game.state)
        v.done.extend(u for u in live if u not in v.done)


def _lift_markers(game: "Game", c: dict[str, Any]) -> None:
    """15.81h: the Declared Attack markers come off every Defender Hex of the combat."""
    st = game.state
    for x in {str(c["hex"]), *dhexes(c)}:
        kinds = st.hex_markers.get(x, [])
        if _sys().DECLARED in kinds:
            kinds.remove(_sys().DECLARED)
        if not kinds:
            st.hex_markers.pop(x, None)


def end_combat(game: "Game", c: dict[str, Any]) -> None:
    st = game.state
    v = efs_vars(st)
    if c["kind"] == "attack":
        _lift_markers(game, c)
        v.declared.pop(c["hex"], None)
        v.declared_with.pop(c["hex"], None)
        v.fought.extend(u for u in (*c["attackers"], *c["artillery"], *c["dart"]) if u not in v.fought)
        v.attacked.extend(u for u in c.get("defenders", []) if u not in v.attacked)  # 12.7: attacked already
    v.combat = {}


# -- odds preview --------------------------------------------------------------------------------

def preview(game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...]) -> OddsPreview | None:
    """The battle ``attackers`` would fight against ``targets`` as the position stands: in the
    Combat phase, and in the phase where the phasing side declares (12.3), where the preview also
    carries the declaration's own odds and any refusal of it (12.33-12.35)."""
    st = game.state
    declaring = st.phase == _sys().DECLARE_PHASE.get(st.player)
    if (st.phase != "combat" and not declaring) or not targets or not attackers:
        return None
    b = _sys().board(game)
    c = {"hex": targets[0], "hexes": list(targets), "attacker": st.player, "defender": other(st.player),
         "attackers": [u for u in attackers if not b.is_artillery(u)],
         "artillery": [u for u in attackers if b.is_artillery(u)], "dart": [], "cas": {}, "aorder": "", "dorder": ""}
    try:
        inp = combat_input(game, c)
    except (KeyError, ValueError) as exc:
        return OddsPreview(Illegal("15.2", str(exc)), None, None, None)
    out = combat.preview(inp, _sys().tables(game))
    if not declaring or out.illegal is not None:
        return out
    from kiev_tui.games.efs_ktr.actions import Declare
    from kiev_tui.games.efs_ktr.handlers import check_declare

    # 12.33-12.34: the declaration counts non-artillery units only, with no support (12.12)
    att = sum(b.attack(u) for u in c["attackers"] if u in b.hex_of)
    dfs = sum(b.defence(u) for t in targets for u in b.at(b.parse(t)) if b.side(u) == c["defender"] and not b.is_artillery(u))
    col = _sys().tables(game).crt.column_for(att, dfs) if dfs > 0 else None
    note = (f"declared at {att:g} to {dfs:g} ({col or 'worse than 1-4'}, 12.33-12.35); the odds above are the "
            "battle as it stands now: artillery, air and orders are added in the Combat phase (12.12)")
    return replace(out, illegal=check_declare(game, Declare(targets[0], tuple(c["attackers"]), tuple(targets[1:]))),
                   notes=(*out.notes, note))


__all__ = ["start_attack", "start_overrun", "run", "check_answer", "apply_answer", "after_commit", "preview",
           "NO_RETREAT", "ADDITIONAL_RETREAT"]
