"""The prompts of Kiev to Rostov's combat chain with their options, and each side's legal actions.

Every prompt lists every answer (losses and advances are held to 200 options); the hidden
choices' options carry no salt (Game.apply adds it) and the reveal's one option is read from the
owner's own secret, so a copy without it offers nothing there (it is not that side's prompt).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Iterator

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.prompts import Option, Prompt

from kiev_tui.games.efs_ktr import chain, movement, nonop, stacking
from kiev_tui.games.efs_ktr.actions import (Activate, Advance, AirLta, AirMission, AirPairs, AirRoles, Attack, AttackerOrder, Declare,
                                            Disband, Interdict, Move,
                                            Overrun, RevealAir, RevealOrder, Retreat, SetOrder, Support, TakeLosses,
                                            ToCadre)
from kiev_tui.games.efs_ktr.board import MOTORIZED, NO_RETREAT, ADDITIONAL_RETREAT
from kiev_tui.games.efs_ktr.state import efs_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

ORDERS = ("", NO_RETREAT, ADDITIONAL_RETREAT)


def _sys() -> Any:
    from kiev_tui.games.efs_ktr import system
    return system


def prompt(game: "Game") -> Prompt | None:
    st = game.state
    top = st.pending
    c = efs_vars(st).combat
    if top is None or not c:
        return None
    side, kind, h = str(top["side"]), str(top["kind"]), str(top["hex"])
    if kind == "air_mission":
        opts = [Option("air", "no air units" if not combo else "place " + ", ".join(combo), AirMission(",".join(combo)),
                       hex=h)
                for combo in chain.mission_choices(game, c, side)]
        what = "an interdiction mission" if c["kind"] == "interdiction" else "close air support"
        return Prompt(side, kind, "17.21", f"{side}: which air units fly {what} over {h}?", tuple(opts))
    if kind in ("reveal_air", "reveal_order"):
        key = "air" if kind == "reveal_air" else "order"
        sec = st.secrets.get(side, {}).get(key)
        opts = ()
        if sec is not None:
            act: Action = (RevealAir(sec["choice"], sec["salt"]) if key == "air"
                           else RevealOrder(sec["choice"], sec["salt"]))
            opts = (Option("reveal", f"reveal: {sec['choice'] or 'none'}", act, hex=h),)
        return Prompt(side, kind, "17.31" if key == "air" else "15.59", f"{side}: turn your face-down {key} on {h} over",
                      opts)
    if kind == "air_roles":
        return Prompt(side, kind, "17.31b2", f"{side}: which dual-purpose fighters over {h} serve as mission units?",
                      tuple(Option("roles", "all fire" if not combo else "mission units: " + ", ".join(combo),
                                   AirRoles(combo), hex=h)
                            for combo in chain.role_options(game, c, side)))
    if kind == "air_lta":
        return Prompt(side, kind, "17.33e", f"{side}: Local Tactical Advantage over {h}: new targets for your free fighters",
                      tuple(Option("pair", ", ".join(f"{f} at {t}" for f, t in pairs),
                                   AirLta(tuple(f"{f}>{t}" for f, t in pairs)), hex=h)
                            for pairs in chain.lta_options(game, c)))
    if kind == "air_pairs":
        return Prompt(side, kind, "17.33", f"{side}: match your firing air units with enemy air units over {h}",
                      tuple(Option("pair", ", ".join(f"{f} at {t}" for f, t in pairs),
                                   AirPairs(tuple(f"{f}>{t}" for f, t in pairs)), hex=h)
                            for pairs in chain.pair_options(game, c)))
    if kind == "support":
        art = chain.defence_artillery(game, c)
        opts = [Option("support", "no artillery" if not combo else "support with " + ", ".join(combo), Support(combo),
                       hex=h)
                for n in range(0, len(art) + 1) for combo in itertools.combinations(art, n)
                if not combo or chain.support_allowed(game, c, combo)]
        return Prompt(side, kind, "14.21", f"{side}: which artillery supports the defence of {h}?", tuple(opts))
    if kind == "set_order":
        return Prompt(side, kind, "14.31", f"{side}: the face-down order for {h}",
                      tuple(Option("order", o.replace("_", " ") or "no order", SetOrder(o), hex=h) for o in ORDERS))
    if kind == "attacker_order":
        return Prompt(side, kind, "15.58", f"{side}: an order for the attack on {h}?",
                      tuple(Option("order", o.replace("_", " ") or "no order", AttackerOrder(o), hex=h) for o in ORDERS))
    if kind == "take_losses":
        opts = chain.loss_options(game, c, side)
        n = c["losses"][side]["steps"]
        return Prompt(side, kind, "16.21", f"{side}: which units lose the {n} step(s) at {h}?",
                      tuple(Option("lose", ", ".join(o), TakeLosses(o), hex=h) for o in opts))
    if kind == "zoc_step":
        return Prompt(side, kind, "16.46", f"{side}: which unit loses the step for retreating through the enemy zone?",
                      tuple(Option("lose", u, TakeLosses((u,)), hex=h, unit=u) for u in chain.zoc_units(game, c)))
    if kind == "retreat":
        who = str(top.get("who", side))
        b = _sys().board(game)
        ropts = chain.retreat_options(game, c, who) or []
        return Prompt(side, kind, "16.4", f"{side}: the retreat path of the {who} units from {h}",
                      tuple(Option("retreat", (" > ".join(b.hid(x) for x in r.path) or "no path") + f" ({r.fate})",
                                   Retreat(tuple(b.hid(x) for x in r.path)), hex=h) for r in ropts))
    if kind == "advance":
        return Prompt(side, kind, "16.5", f"{side}: advance into {h}?",
                      tuple(Option("advance", "stay" if not o else "advance " + ", ".join(o), Advance(o), hex=h)
                            for o in chain.advance_options(game, c)))
    return None


MAX_DECLARE_HEXES = 3  # a multi-hex declaration offered by legal() names at most three hexes


def _multi_declares(game: "Game", b: Any, side: str) -> Iterator[Declare]:
    """12.8: two or three enemy hexes declared as one attack, with every unit next to all of them."""
    from kiev_tui.games.efs_ktr import handlers

    seen: set[tuple[Any, ...]] = set()
    for h in sorted({h for u, h in b.hex_of.items() if b.side(u) == side}, key=b.hid):
        enemy = sorted((n for n in b.gmap.neighbours(h) if b.owner(n) not in (None, side)), key=b.hid)
        for k in range(2, min(MAX_DECLARE_HEXES, len(enemy)) + 1):
            for group in itertools.combinations(enemy, k):
                if group in seen:
                    continue
                seen.add(group)
                atk = tuple(sorted(u for m in b.gmap.neighbours(group[0]) for u in b.at(m)
                                   if b.side(u) == side and not b.is_artillery(u) and b.is_combat(u) and b.attack(u) > 0
                                   and all(g in b.gmap.neighbours(m) for g in group[1:])
                                   and all(handlers.may_attack_from(b, u, g) for g in group)))  # 12.5, 12.8
                d = Declare(b.hid(group[0]), atk, tuple(b.hid(g) for g in group[1:]))
                if atk and handlers.check_declare(game, d) is None:
                    yield d


def legal(game: "Game", side: str) -> Iterator[Action]:
    st = game.state
    s = _sys()
    if st.over or game.rules.actor(game) != side:
        return
    p = prompt(game)
    if st.pending is not None:
        if p is not None and p.side == side:
            yield from (o.action for o in p.options)
        return
    if s.check_end_phase(game) is None:
        yield EndPhase()
    from kiev_tui.games.efs_ktr import handlers

    b = s.board(game)
    if st.phase in s.MOVE_PHASES:
        for h in sorted(stacking.excess(b, side)):  # 3.32: what may go to the Cadre Box
            for u in b.at(h):
                if b.side(u) == side:
                    yield ToCadre(u)
        if st.phase == MOTORIZED and side == "soviet":
            for hq in [u for u in b.hex_of if b.is_hq(u) and b.side(u) == side]:
                for u in sorted(b.hex_of):
                    a = Activate(hq, u)
                    if handlers.check_activate(game, a) is None:
                        yield a
        due = s.due(game, side)
        if due and st.phase != "reaction" and handlers.declared_already(game) is None:  # 12.0
            for e in s.entry_hexes(game, due[0]):
                grp = tuple(u for u in due if e in s.entry_hexes(game, u))
                for reach in movement.reachable(b, grp, st.phase, movement.NORMAL, {}, e).values():
                    m = Move(grp, reach.path)
                    if reach.ok and handlers.check_move(game, m) is None:
                        yield m
        spent = s.spent_of(game)
        stacks: dict[Any, list[str]] = {}
        moving_over = handlers.declared_already(game) is not None  # 12.0: declaring ends movement
        for uid in ([] if moving_over else game.rules.actable(game)):
            if st.units[uid].status == "map":
                stacks.setdefault(b.hex_of[uid], []).append(uid)
        for h, units in sorted(stacks.items()):
            groups = [(u,) for u in units] + ([tuple(units)] if len(units) > 1 else [])
            for g in groups:
                if st.phase == "reaction" and side == "soviet" and handlers.react_hqs(game, g) is None:
                    continue  # 22.12b: no HQ point left to send them
                if side == "soviet" and nonop.move_bar(game, g) is not None:
                    continue  # 22.25g: too many would begin moving inside a Non-Op range
                for reach in movement.reachable(b, g, st.phase, movement.NORMAL, spent).values():
                    if reach.ok:  # a one-hex move (11.9) is taken as such from its plain path
                        yield Move(g, reach.path)
            if st.phase != "reaction" and st.player == side:
                for n in b.gmap.neighbours(h):
                    if b.owner(n) not in (None, side):
                        ov = Overrun(tuple(units), b.hid(n))
                        if handlers.check_overrun(game, ov) is None:
                            yield ov
        if st.phase == s.DECLARE_PHASE.get(side) and st.player == side:
            seen = set()
            for uid, h in sorted(b.hex_of.items()):
                if b.side(uid) != side:
                    continue
                for n in b.gmap.neighbours(h):
                    if n in seen or b.owner(n) in (None, side):
                        continue
                    seen.add(n)
                    atk = handlers.declarers_for(game, b.hid(n))  # 12.5: unit by unit
                    d = Declare(b.hid(n), atk)
                    if atk and handlers.check_declare(game, d) is None:
                        yield d
            yield from _multi_declares(game, b, side)
    elif st.phase == "disband":
        for hq in sorted(efs_vars(st).non_op):
            if handlers.check_disband(game, Disband(hq)) is None:
                yield Disband(hq)
    elif st.phase == "air_interdiction":
        for hexid in handlers.interdiction_targets(game):
            yield Interdict(hexid)
    elif st.phase == s.COMBAT:
        for hexid in sorted(efs_vars(st).declared):
            atk = tuple(handlers.attackers_for(game, hexid))
            if not atk:
                continue
            art = tuple(handlers.artillery_for(game, hexid, side))
            tries = [Attack(hexid, atk, art)] + ([Attack(hexid, atk, (a,)) for a in art] if len(art) > 1 else [])
            tries += [Attack(hexid, atk, ())] if art else []
            for t in tries:
                if handlers.check_attack(game, t) is None:
                    yield t
