"""A battle from the roll to the last decision (9.5-9.6, 13.2, 19.6, 20.2, 25.11).

The battle is the Battle record in ``vars.battle``: attacking rolls the die at once, then each
part of the result that needs a decision is pushed on the prompt stack (``state.prompts``) for
the player who makes it (the defender's part first, 9.68) and popped when answered; ``run``
works through the parts until one waits.  ``prompt`` gives each waiting choice its options.
Retreats (retreat.py) and advances (advance.py) hand back to ``run``; overruns (overrun.py)
use the same machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev import changes
from kiev_tui.games.spi_kiev.actions import Attack, ChooseIntegrity, ChooseRetreat, TakeLosses
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View, enemy_of
from kiev_tui.games.spi_kiev.events_play import CombatResolved, Revealed, StepLost
from kiev_tui.games.spi_kiev.preview import column, crt, special_outcome, strengths, untried_faces
from kiev_tui.games.spi_kiev.state import Battle, KievVars, added, kiev_vars
from kiev_tui.games.spi_kiev.strength import final, has_strength, integrity_choices
from kiev_tui.games.spi_kiev.untried import pool

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def battle(game: "Game") -> Battle:
    """The battle being settled (every combat choice pending belongs to one)."""
    return _battle_of_vars(kiev_vars(game.state))


def battle_of_view(view: View) -> Battle:
    return _battle_of_vars(view.vars)


def _battle_of_vars(v: KievVars) -> Battle:
    if v.battle is None:
        raise KeyError("no battle is being fought")
    return v.battle


def reveal(game: "Game", uids: list[str]) -> None:
    """13.2: untried units show their true face at the instant of battle, drawn from the pool."""
    view = View(game)
    used = kiev_vars(game.state).pool_used
    for uid in uids:
        if not view.untried(uid):
            continue
        left = [f for f in untried_faces(view, uid) if f not in used]
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
                 integrity: str, passengers: tuple[str, ...] = ()) -> None:
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
        choices = integrity_choices(view, ids)  # empty without GD or without a choice
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
        st.push_prompt(question)
        return
    kind, attackers, targets, integrity = b.kind, tuple(b.attackers), tuple(b.targets), b.integrity
    hexes = [Hex.parse(t) for t in targets]
    defenders = list(b.defenders)
    retreated_into = set(kiev_vars(st).retreated_into)
    reveal(game, [u for u in list(attackers) + defenders])
    view = View(game)
    overrun = kind == "overrun"
    special = special_outcome(view, attackers, hexes, overrun, integrity)
    if special.startswith("attack cancelled"):
        for u in attackers:
            if not view.is_hq_like(u):  # an HQ or leader only lends its rating (11.35)
                changes.eliminate(game, u, "19.65", "its attack had no strength at all")
        game.emit(Note("The attack does not take place: the attackers' total strength is zero (19.65)."))
        if not _send_back_hqs(game):
            _finish(game)
        return
    if special.startswith("defenders eliminated"):
        for u in defenders:  # 19.63: no HQ is among them (with one, the battle is fought)
            if game.state.units[u].status == "map":
                changes.eliminate(game, u, "19.63", "every Soviet unit in the battle proved a no-strength unit")
        b.stages = [["advance", "E"]]
        run(game)
        return
    a_total, a_parts, _, d_parts, per_hex = strengths(view, attackers, hexes, overrun, integrity,
                                                       b.defence_integrity)
    a = final(a_total, has_strength(view, a_parts))
    d = sum(per_hex)
    table = crt(game)
    col = column(table, a, d)
    die = game.roll(f"{kind} at {', '.join(targets)} ({col})")
    result = table.result(col, die)
    details = tuple(f"{p.unit} {p.value:g} ({'; '.join(f'{m.case} {m.text}' for m in p.mods)})" if p.mods
                    else f"{p.unit} {p.value:g}" for p in a_parts + d_parts if p.value is not None)
    if table.is_reconstructed(col, die):
        details += ("this CRT entry is reconstructed (see data/spi_kiev/SOURCES.md)",)
    game.emit(CombatResolved(kind, tuple(attackers), tuple(targets), a, d, col, die, result, details))
    b.result = result
    # 9.76: a unit that retreated into a hex attacked again is lost with any loss or retreat there
    # (an engaged result too); overruns record no such units (apply_retreat), as they are not combat.
    if not result.endswith("/-"):
        for u in defenders:
            if u in retreated_into and st.units[u].status == "map":
                changes.eliminate(game, u, "9.76", "it had retreated into a hex that was attacked again")
    if result == "eng":
        b.stages = [["defender", "eng"], ["attacker", "eng"]]
    else:
        att, dfn = result.split("/")
        b.stages = [["defender", dfn], ["attacker", att], ["advance", dfn]]
    run(game)


def _send_back_hqs(game: "Game") -> bool:
    """11.23 after 19.65: an HQ or leader whose hex lost its last combat unit to the cancelled
    attack may not stay alone in an enemy zone; it goes back one hex, the enemy choosing the way
    as for any retreat (19.7), and moves no more this phase.  True if a retreat now waits."""
    st = game.state
    b = battle(game)
    view = View(game)
    side = st.player
    froms = {b.origin[u] for u in b.attackers if b.origin.get(u)}
    alone: list[str] = []
    for h in sorted(str(x) for x in froms):
        here = view.at(Hex.parse(h))
        mine = [u for u in here if view.side(u) == side]
        if mine and all(view.is_hq_like(u) for u in mine) and view.in_enemy_zoc(Hex.parse(h), side):
            alone.extend(mine)
    if not alone:
        return False
    kiev_vars(st).stop(alone, "11.23")
    enemy = enemy_of(side)
    st.push_prompt({
        "kind": "retreat", "side": enemy, "who": "attacker", "units": alone, "hexes": 1,
        "prompt": f"{enemy} player: choose the retreat of {', '.join(alone)}, 1 hex (19.7). 11.23: an HQ "
                  f"may not stay alone in an enemy zone once its companions proved to have no strength",
    })
    return True


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
    st.pop_prompt()  # answered; _fight pushes the next question or ends the battle
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


def run(game: "Game") -> None:
    """Work through the battle's queued parts until one needs a player's decision."""
    from kiev_tui.games.spi_kiev.advance import offer_advance  # advance.py builds on this module
    st = game.state
    b = battle(game)
    while b.stages:
        who, part = b.stages[0]
        if who == "advance":
            b.stages.pop(0)
            if offer_advance(game, part):
                return
            continue  # pragma: no mutate: the advance is always the last part
        units = involved(game, who)
        if part == "-" or not units:
            b.stages.pop(0)
            continue
        side = side_of(game, who)
        if part == "E":
            b.stages.pop(0)
            for u in units:
                changes.eliminate(game, u, "9.65", "an E result")
            if who == "attacker":
                b.attacker_lost = True
            continue
        steps = 1 if part == "eng" else int(part)
        hexes = 0 if part == "eng" else steps
        pbm = bool(game.scenario.params.get("pbm_asterisk"))
        # 25.11 (play-by-mail option): any asterisk unit in the battle bars the Soviet retreat,
        # tried or not; the option takes the place of 19.61.
        no_retreat = pbm and side == SOVIET and hexes > 0 and any(View(game).asterisk(u) for u in units)
        forced_retreat = not pbm and side == SOVIET and b.asterisk and part != "eng"  # 19.61
        if forced_retreat:
            b.stages.pop(0)
            ask_retreat(game, who, hexes, "19.61: an asterisk unit was revealed, so the Soviet units must retreat")
            return
        if no_retreat:
            hexes = 0
        why = " (an asterisk unit fights here: no retreat, 25.11)" if no_retreat else " (engaged: no retreat, 9.69)"
        frame: dict[str, Any] = {
            "kind": "loss_or_retreat", "side": side, "who": who, "units": units, "steps": steps,
            "hexes": hexes, "may_lose_steps": True,
            "prompt": (f"{side} player: lose {steps} step(s) from {', '.join(units)}"
                       + (f" or retreat them {hexes} hex(es)" if hexes else why)),
        }
        if no_retreat:
            frame["no_retreat"] = "25.11"
        st.push_prompt(frame)
        return
    _finish(game)


def _finish(game: "Game") -> None:
    st = game.state
    v = kiev_vars(st)
    b, v.battle = v.battle, None
    st.prompts = [f for f in st.prompts if f.get("kind") not in BATTLE_KINDS]  # the battle's choices end with it
    if b is not None and b.kind == "overrun":
        from kiev_tui.games.spi_kiev import overrun
        overrun.after_battle(game, b)


#: the kinds of choice a battle pushes on the prompt stack
BATTLE_KINDS = frozenset({"integrity", "loss_or_retreat", "retreat", "advance"})


def ask_retreat(game: "Game", who: str, hexes: int, why: str) -> None:
    side = side_of(game, who)
    if who == "attacker":
        battle(game).attacker_lost = True
    units = involved(game, who)
    game.state.push_prompt({
        "kind": "retreat", "side": enemy_of(side), "who": who, "units": units, "hexes": hexes,
        "prompt": f"{enemy_of(side)} player: choose the retreat of {', '.join(units)}, {hexes} hex(es) each (19.7). {why}".strip(),
    })


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
        changes.eliminate(game, uid, case, "its last step was lost")
        return
    if d.rpl_step and nxt + 1 == d.rpl_step:
        v = kiev_vars(st)
        if v.rpl_left <= 0:
            changes.eliminate(game, uid, "19.24", "no rpl counter is left for its third step")
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
    st.pop_prompt()  # answered; run pushes the next question or ends the battle
    run(game)


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
    p = game.state.pop_prompt()  # answered by a retreat: the retreat question takes its place
    battle(game).stages.pop(0)
    ask_retreat(game, p["who"], p["hexes"], "")  # marks an attacker's retreat as its loss (6.23)


def apply_attack(game: "Game", a: Attack) -> None:
    start_battle(game, "attack", a.attackers, a.targets, a.integrity)
