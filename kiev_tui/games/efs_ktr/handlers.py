"""Each Kiev to Rostov action outside the combat chain: its check and its apply.

Movement and entry (10, 8.12, 11.3, 11.5, 11.9), overrun (11.4), Declared Attack markers (12.3),
Soviet HQ activation (10.24c, 22.12a, 22.41) and what Non-Op HQs forbid (22.22-22.25),
stacking excess (3.32) and the start of a combat
(15.2).  The chain each attack or overrun starts is chain.py.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine import sequence
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex, HexError

from kiev_tui.games.efs_ktr import air, combat, movement, nonop, overrun, stacking
from kiev_tui.games.efs_ktr.actions import Activate, Attack, Declare, Disband, Interdict, Move, Overrun, ToCadre
from kiev_tui.games.efs_ktr.board import CADRE, MOTORIZED, PENDING
from kiev_tui.games.efs_ktr.schema import SOVIET
from kiev_tui.games.efs_ktr.state import efs_vars
from kiev_tui.games.efs_ktr.zoc import in_enemy_zoc, projectors

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

SUPPORT_RANGE = 3  # 14.2, 15.4: hexes from the Defender Hex (the chart card's qualifier is not in our text)


def _sys() -> Any:
    from kiev_tui.games.efs_ktr import system
    return system


def owner(game: "Game") -> str:
    return sequence.current(game).owner


def parse(game: "Game", text: str) -> Hex | Illegal:
    try:
        return game.scenario.map.grid.parse(text)
    except (HexError, ValueError) as exc:
        return Illegal("10.4", f"'{text}' is not a hex of this map ({exc})")


def _own_units(game: "Game", units: tuple[str, ...], case: str) -> Illegal | None:
    side = owner(game)
    for uid in units:
        d = game.scenario.catalog.units.get(uid)
        if d is None:
            return Illegal(case, f"no counter {uid}")
        if d.side != side:
            return Illegal(case, f"{uid} is not a unit of the {side} player")
    return None


def declared_already(game: "Game") -> Illegal | None:
    """12.0: attacks are declared once all movement is done, so the first declaration of the
    phasing side closes its movement for the phase (moves and overruns alike)."""
    s, st = _sys(), game.state
    if st.phase == s.DECLARE_PHASE.get(st.player) and owner(game) == st.player and efs_vars(st).declared:
        return Illegal("12.0", "attacks are declared once all movement is over: nothing moves after "
                               "the first declaration")
    return None


# -- movement ------------------------------------------------------------------------------------

def check_move(game: "Game", a: Move) -> Illegal | None:
    s, st = _sys(), game.state
    if st.phase not in s.MOVE_PHASES:
        return Illegal("10.0", "ground units move only in a Movement, Motorized or Reaction phase")
    bad = _own_units(game, a.units, "10.4") or declared_already(game)
    if bad:
        return bad
    v = efs_vars(st)
    for uid in a.units:
        if uid in v.done:
            return Illegal("10.65", f"{uid} has ended its movement this phase")
    pending = [u for u in a.units if st.units[u].status == PENDING]
    enter = bool(pending)
    if enter:
        if len(pending) != len(a.units):
            return Illegal("8.12", "arriving reinforcements enter as a stack of their own")
        due = s.due(game, owner(game))
        if any(u not in due for u in a.units):
            return Illegal("8.1", "these units are not due to arrive yet")
        if st.phase == "reaction":
            return Illegal("8.12", "reinforcements enter in their own side's movement phases")
        if not a.path:
            return Illegal("8.12", "name the entry hex first")
        h = parse(game, a.path[0])
        if isinstance(h, Illegal):
            return h
        if h not in s.entry_hexes(game, a.units[0]):
            return Illegal("8.12", f"these reinforcements enter at {', '.join(game.scenario.map.grid.id(x) for x in s.entry_hexes(game, a.units[0]))}")
    elif any(st.units[u].status != "map" for u in a.units):
        return Illegal("10.4", "only units on the map move")
    if a.mode not in movement.MODES:
        return Illegal("10.4", f"'{a.mode}' is not a kind of movement")
    if st.phase == "reaction" and owner(game) == SOVIET and react_hqs(game, a.units) is None:
        b = s.board(game)
        if any(u in b.hex_of and b.non_op_over(b.hex_of[u]) for u in a.units):
            return Illegal("22.24c", "a unit within a Non-Op HQ's command range does not react")
        return Illegal("22.12", "each Soviet unit that reacts needs an operational HQ in range with a "
                                "command point for it (22.12b, 14.11c)")
    if not enter and owner(game) == SOVIET:
        bar = nonop.move_bar(game, a.units)  # 22.25g
        if bar is not None:
            return bar
    cost = movement.path_cost(s.board(game), a.units, a.path, st.phase, move_mode(game, a, enter), s.spent_of(game),
                              enter)
    return cost if isinstance(cost, Illegal) else None


def move_mode(game: "Game", a: Move, enter: bool = False) -> str:
    """The kind of movement a move makes: as named, except that a plain one-hex step the normal
    costs refuse is one-hex movement when that is legal (11.9), as reachable() offers it."""
    s = _sys()
    if a.mode != movement.NORMAL or enter or len(a.path) != 2:
        return a.mode
    b, phase, spent = s.board(game), game.state.phase, s.spent_of(game)
    if isinstance(movement.path_cost(b, a.units, a.path, phase, a.mode, spent), Illegal):
        if not isinstance(movement.path_cost(b, a.units, a.path, phase, movement.ONE_HEX, spent), Illegal):
            return movement.ONE_HEX
    return a.mode


def apply_move(game: "Game", a: Move) -> None:
    s, st = _sys(), game.state
    v = efs_vars(st)
    b = s.board(game)
    enter = any(st.units[u].status == PENDING for u in a.units)
    mode = move_mode(game, a, enter)
    cost = movement.path_cost(b, a.units, a.path, st.phase, mode, s.spent_of(game), enter)
    assert not isinstance(cost, Illegal)
    side = b.side(a.units[0])
    if side == SOVIET and not enter:
        nonop.note_move(game, a.units)  # 22.25g: before the MP spent mark them as moved
    if st.phase == "reaction" and side == SOVIET:  # 22.12b: the HQs that send them
        for uid, hq in (react_hqs(game, a.units) or {}).items():
            v.hq_react.setdefault(hq, []).append(uid)
    for uid in a.units:
        st.units[uid].status, st.units[uid].hex = "map", a.path[-1]
        v.spent[uid] = str(Fraction(v.spent.get(uid, "0")) + cost)
    stars = s.star_hexes(game)
    for h in a.path:  # 3.21: a hex belongs to the last side to enter it
        if h in stars or h in st.control:
            st.control[h] = side
    after = s.board(game)  # while an action is applied, a fresh board of the moved position
    end = b.parse(a.path[-1])
    if mode in (movement.ONE_HEX, movement.INFILTRATION) or in_enemy_zoc(after, end, side):
        v.done.extend(u for u in a.units if u not in v.done)  # 10.65, 11.9, 11.54
    game.emit(Note(f"{', '.join(a.units)} {'enter' if enter else 'move'} {' > '.join(a.path)} "
                   f"({movement.fmt(cost)} MP{', ' + mode.replace('_', '-') + ' movement' if mode != 'normal' else ''})"))


# -- overrun -------------------------------------------------------------------------------------

def check_overrun(game: "Game", a: Overrun) -> Illegal | None:
    s, st = _sys(), game.state
    if st.phase not in (s.MOVEMENT, MOTORIZED) or owner(game) != st.player:
        return Illegal("11.4", "overruns are made in the phasing player's Movement and Motorized phases")
    bad = _own_units(game, a.units, "11.41") or declared_already(game)
    if bad:
        return bad
    if any(u in efs_vars(st).done for u in a.units):
        return Illegal("11.43", "a unit of the stack has ended its movement this phase")
    for uid in a.units:  # the stack must still be able to move now
        mp = movement.allowance(s.board(game), uid, st.phase)
        if isinstance(mp, Illegal):
            return mp
    if owner(game) == SOVIET:
        bar = nonop.move_bar(game, a.units)  # 22.25g: an overrun is movement too
        if bar is not None:
            return bar
    got = overrun.check(s.board(game), a.units, a.target, st.phase, s.spent_of(game))
    if isinstance(got, Illegal):
        return got
    left = min(movement.allowance(s.board(game), u, st.phase) - s.spent_of(game).get(u, Fraction(0))  # type: ignore[operator]
               for u in a.units)
    if got.cost > left:
        return Illegal("11.43", f"the overrun costs {movement.fmt(got.cost)} MP and the stack has {movement.fmt(left)}")
    return None


def apply_overrun(game: "Game", a: Overrun) -> None:
    from kiev_tui.games.efs_ktr import chain

    s, st = _sys(), game.state
    ov = overrun.check(s.board(game), a.units, a.target, st.phase, s.spent_of(game))
    assert not isinstance(ov, Illegal)
    v = efs_vars(st)
    if owner(game) == SOVIET:
        nonop.note_move(game, a.units)  # 22.25g
    for uid in a.units:
        v.spent[uid] = str(Fraction(v.spent.get(uid, "0")) + ov.cost)
    roll = game.roll(f"overrun of {a.target}", 10)
    out = combat.resolve_overrun(ov.table_input(), s.more(game), roll)
    assert not isinstance(out, Illegal), out
    game.emit(Note(f"Overrun of {a.target} by {', '.join(a.units)} at {ov.odds}-1: roll {out.roll}, "
                   f"modified {out.modified}: {'succeeds' if out.succeeded else 'fails'} (11.43)"))
    chain.start_overrun(game, ov, out)


# -- declared attacks ----------------------------------------------------------------------------

def defenders_at(game: "Game", h: Hex, side: str) -> list[str]:
    b = _sys().board(game)
    return [u for u in b.at(h) if b.side(u) != side]


def combat_hexes(game: "Game", hex_id: str) -> list[str]:
    """The Defender Hexes of the attack declared on ``hex_id``: that hex first, then the others
    declared with it (12.8); just ``hex_id`` for a one-hex attack."""
    return [hex_id, *efs_vars(game.state).declared_with.get(hex_id, [])]


def owed_hexes(b: Any, uid: str, hexes: list[Hex]) -> list[Hex]:
    """12.7: the enemy hexes, other than ``hexes``, whose zones reach ``uid``'s hex: if ``uid``
    attacks, each of them must be attacked as well (by it or by another unit)."""
    here = b.hex_of.get(uid)
    if here is None:
        return []
    return sorted(set(projectors(b, here, b.side(uid))) - set(hexes), key=b.hid)


def declarers_for(game: "Game", hex_id: str) -> tuple[str, ...]:
    """The units of the phasing side that may declare an attack on ``hex_id`` alone: next to it,
    combat units with some attack strength, not artillery (12.11, 12.33), and in its zone or able
    to enter it (12.5)."""
    b = _sys().board(game)
    side = owner(game)
    h = b.parse(hex_id)
    return tuple(sorted(u for m in b.gmap.neighbours(h) for u in b.at(m)
                        if b.side(u) == side and not b.is_artillery(u) and b.is_combat(u) and b.attack(u) > 0
                        and may_attack_from(b, u, h)))


def _check_declare_base(game: "Game", a: Declare) -> tuple[Illegal | None, list[Hex]]:
    """Every check of a declaration but 12.7's; with the Defender Hexes it names."""
    s, st = _sys(), game.state
    side = owner(game)
    if side != st.player or st.phase != s.DECLARE_PHASE.get(side):
        return Illegal("12.3", "attacks are declared in the phasing player's phase before the enemy's reaction"), []
    names = (a.hex, *a.also)
    if len(set(names)) != len(names):
        return Illegal("12.8", "a Defender Hex is named twice"), []
    hexes = []
    for name in names:
        h = parse(game, name)
        if isinstance(h, Illegal):
            return h, []
        if name in efs_vars(st).declared or s.DECLARED in st.hex_markers.get(name, []):
            return Illegal("15.23", f"{name} already carries a Declared Attack marker"), []
        if not defenders_at(game, h, side):
            return Illegal("12.35", f"{name} holds no enemy unit"), []
        hexes.append(h)
    b = s.board(game)
    if not a.units:
        return Illegal("12.33", "name the units that make the attack"), []
    bad = _own_units(game, a.units, "12.33")
    if bad:
        return bad, []
    for uid in a.units:
        here = b.hex_of.get(uid)
        for h, name in zip(hexes, names):
            if here is None or h not in b.gmap.neighbours(here):
                return Illegal("12.8" if a.also else "15.21", f"{uid} is not next to {name}"
                               + (": in a multi-hex attack every unit is next to every Defender Hex" if a.also else "")), []
        if b.is_artillery(uid):
            return Illegal("12.33", f"{uid} is artillery: its support is not counted at declaration"), []
        if not b.is_combat(uid) or b.attack(uid) <= 0:  # 12.11
            return Illegal("12.11", f"{uid} has no attack strength: it cannot attack"), []
        for h, name in zip(hexes, names):
            if not may_attack_from(b, uid, h):  # 12.61 (12.8: 12.5 holds for every Defender Hex)
                return Illegal("12.61", f"{uid} cannot attack {name}: no zone from it covers {b.hid(here)} "
                                        f"and {uid} could not enter it"), []
    att = sum(b.attack(u) for u in a.units)
    dfs = sum(b.defence(u) for h in hexes for u in defenders_at(game, h, side) if not b.is_artillery(u))  # 12.34
    return combat.declarable(att, dfs, s.tables(game)), hexes


def check_declare(game: "Game", a: Declare) -> Illegal | None:
    bad, hexes = _check_declare_base(game, a)
    if bad is not None:
        return bad
    b = _sys().board(game)
    for uid in a.units:  # 12.7: a hex that will owe an attack must be one that can be declared
        for q in owed_hexes(b, uid, hexes):
            if q in b.declared:
                continue
            qid = b.hid(q)
            if _check_declare_base(game, Declare(qid, declarers_for(game, qid)))[0] is not None:
                return Illegal("12.7", f"{uid} is in the zone of {qid} too, and no attack on {qid} can be "
                                       "declared: every hex whose zone reaches an attacker is attacked as well")
    return None


def owed_declarations(game: "Game") -> list[tuple[str, str, Declare]]:
    """12.7 at the end of the declaring phase: for each hex whose zone reaches a declaring unit and
    that carries no marker yet, while an attack on it by every unit that may make it would be
    accepted: the declaring unit, the hex it was declared against, and that declaration."""
    b = _sys().board(game)
    v = efs_vars(game.state)
    out: list[tuple[str, str, Declare]] = []
    seen: set[Hex] = set()
    for first, units in sorted(v.declared.items()):
        hexes = [b.parse(x) for x in combat_hexes(game, first)]
        for uid in units:
            for q in owed_hexes(b, uid, hexes):
                qid = b.hid(q)
                d = Declare(qid, declarers_for(game, qid))
                if q not in b.declared and q not in seen and check_declare(game, d) is None:
                    seen.add(q)
                    out.append((uid, first, d))
    return out


def unmet_declarations(game: "Game") -> Illegal | None:
    """12.7: the declaring phase ends only once no hex is owed an attack that could be declared."""
    owed = owed_declarations(game)
    if not owed:
        return None
    uid, first, d = owed[0]
    return Illegal("12.7", f"{uid}, declared against {first}, is in the zone of {d.hex}: declare an attack on {d.hex} too")


def may_attack_from(b: Any, uid: str, target: Hex) -> bool:
    """12.5-12.61: a unit attacks a hex whose units put its own hex in their zone (12.51), or one
    whose terrain it could enter (12.52); neither, and it may not attack it (12.61)."""
    here = b.hex_of[uid]
    return target in projectors(b, here, b.side(uid)) or movement.could_enter(b, uid, here, target)


def apply_declare(game: "Game", a: Declare) -> None:
    st = game.state
    for name in (a.hex, *a.also):  # 12.35: a marker on each Defender Hex
        st.hex_markers.setdefault(name, [])
        if _sys().DECLARED not in st.hex_markers[name]:
            st.hex_markers[name].append(_sys().DECLARED)
    efs_vars(st).declared[a.hex] = list(a.units)
    if a.also:
        efs_vars(st).declared_with[a.hex] = list(a.also)
    where = " and ".join((a.hex, *a.also))
    game.emit(Note(f"Declared Attack on {where} by {', '.join(a.units)} ({'12.8' if a.also else '12.35'})"))


# -- Soviet HQs ----------------------------------------------------------------------------------

def hq_command(game: "Game", hq: str) -> int:
    """22.12: the HQ's command value, less the interdiction level of its hex (13.24); a Non-Op
    HQ shows a recovery value instead and has no command points at all (22.21, 22.24)."""
    if hq in efs_vars(game.state).non_op:  # 22.21
        return 0
    printed = int(game.scenario.catalog.units[hq].extra.get("command", 0))
    at = game.state.units[hq].hex
    if at is None:
        return printed
    return air.interdicted_command(printed, interdiction_level_at(game, at))


def interdiction_level_at(game: "Game", hex_id: str) -> int:
    """13.15: the levels of every Zone of Interdiction over ``hex_id`` (the mission hex and its
    six neighbours), added and held to Level Two."""
    b = _sys().board(game)
    h = b.parse(hex_id)
    levels = [lvl for m, lvl in efs_vars(game.state).interdiction.items()
              if lvl and (b.parse(m) == h or b.parse(m) in b.gmap.neighbours(h))]
    return air.hex_interdiction(levels, _sys().more(game)) if levels else 0


def interdicted_hexes(game: "Game") -> set[str]:
    gmap, grid = game.scenario.map, game.scenario.map.grid
    out: set[str] = set()
    for m, lvl in efs_vars(game.state).interdiction.items():
        if not lvl:
            continue
        h = grid.parse(m)
        out.add(m)
        out.update(grid.id(n) for n in gmap.neighbours(h))
    return out


def interdiction_targets(game: "Game") -> list[str]:
    """Hexes worth an interdiction mission for the bot and the list of actions: Soviet-held hexes."""
    b = _sys().board(game)
    return sorted({b.hid(h) for u, h in b.hex_of.items() if b.side(u) == SOVIET} - set(efs_vars(game.state).interdiction))


def check_interdict(game: "Game", a: Interdict) -> Illegal | None:
    st = game.state
    if st.phase != "air_interdiction" or owner(game) != "axis":
        return Illegal("13.12", "interdiction missions are flown in the Axis Air Interdiction phase")
    h = parse(game, a.hex)
    if isinstance(h, Illegal):
        return h
    if not game.scenario.map.on_map(h):
        return Illegal("13.13", f"{a.hex} is not on the map")
    if a.hex in efs_vars(st).interdiction:
        return Illegal("13.13", f"{a.hex} already has an interdiction mission this turn")
    from kiev_tui.games.efs_ktr import chain
    c = {"kind": "interdiction"}
    if not chain.mission_choices(game, c, "axis"):
        return Illegal("13.11", "no Ready Axis air unit can fly an interdiction mission")
    return None


def apply_interdict(game: "Game", a: Interdict) -> None:
    from kiev_tui.games.efs_ktr import chain
    chain.start_interdiction(game, a.hex)


def hqs_in_range(game: "Game", h: Hex) -> list[str]:
    """22.11: Soviet HQs on the map within four hexes of ``h`` (the HQ's own hex not counted)."""
    b = _sys().board(game)
    return [u for u, at in sorted(b.hex_of.items()) if b.is_hq(u) and b.side(u) == SOVIET
            and at.distance(h) <= int(b.udef(u).extra.get("command_range", _sys().HQ_RANGE))]


def react_hqs(game: "Game", units: tuple[str, ...]) -> dict[str, str] | None:
    """22.12b: for each unit not yet reacting this phase, an HQ in its range with a command point
    to send it (each point sends one motorized unit); None when some unit has none."""
    b = _sys().board(game)
    v = efs_vars(game.state)
    sent = {u for us in v.hq_react.values() for u in us}
    used = {hq: len(us) for hq, us in v.hq_react.items()}
    out: dict[str, str] = {}
    for uid in units:
        if uid in sent:
            continue
        h = b.hex_of.get(uid)
        if h is None or b.non_op_over(h):  # 22.24c, 14.11c2: a Non-Op range keeps it still
            return None
        pick = next((hq for hq in hqs_in_range(game, h)
                                            if used.get(hq, 0) < hq_command(game, hq)), None)
        if pick is None:
            return None
        used[pick] = used.get(pick, 0) + 1
        out[uid] = pick
    return out


def check_activate(game: "Game", a: Activate) -> Illegal | None:
    s, st = _sys(), game.state
    if st.phase != MOTORIZED or st.player != SOVIET or owner(game) != SOVIET:
        return Illegal("10.24", "Soviet HQs activate units in the Soviet Motorized Movement phase")
    v = efs_vars(st)
    b = s.board(game)
    if a.hq not in b.hex_of or b.side(a.hq) != SOVIET:
        return Illegal("22.12", f"{a.hq} is not a Soviet unit on the map")
    if a.unit not in b.units or b.side(a.unit) != SOVIET:
        return Illegal("22.12", f"{a.unit} is not a Soviet unit")
    where = b.hex_of.get(a.unit)
    if where is None and a.unit in s.due(game, SOVIET):  # a due reinforcement: range to its entry hex
        entries = s.entry_hexes(game, a.unit)
        where = entries[0] if entries else None
    if where is None:
        return Illegal("22.12", f"{a.unit} is neither on the map nor due to enter")
    if not b.is_hq(a.hq):
        return Illegal("22.12", f"{a.hq} is not an HQ")
    if b.is_hq(a.unit) or b.is_cavalry(a.unit) or movement.moves_as_motorized(b, a.unit):
        return Illegal("22.12", f"{a.unit} moves in this phase anyway: only non-motorized units are activated")
    if a.unit in v.activated:
        return Illegal("10.24", f"{a.unit} is already activated")
    if a.unit in v.spent:
        return Illegal("22.12", "activation comes at the beginning of the phase, before the unit moves")
    rng = int(b.udef(a.hq).extra.get("command_range", s.HQ_RANGE))
    if b.hex_of[a.hq].distance(where) > rng:
        return Illegal("22.11", f"{a.unit} is beyond {a.hq}'s command range of {rng}")
    if b.is_non_op(a.hq):
        return Illegal("22.24b", f"{a.hq} is Non-Op: it activates no unit, Guards included")
    over = b.non_op_over(where)
    if over:  # 22.22: the Non-Op range wins over the Operational HQ's
        return Illegal("22.22", f"{a.unit} is within Non-Op {over[0]}'s range: no HQ may activate it")
    guards = bool(b.udef(a.unit).extra.get("guards", False))
    if guards and a.hq not in v.hq_guards:
        return None  # 22.41: one Guards unit per HQ, free
    if v.hq_points.get(a.hq, 0) >= hq_command(game, a.hq):
        return Illegal("22.12", f"{a.hq} has no command point left this turn")
    return None


def apply_activate(game: "Game", a: Activate) -> None:
    v = efs_vars(game.state)
    guards = bool(game.scenario.catalog.units[a.unit].extra.get("guards", False))
    if guards and a.hq not in v.hq_guards:
        v.hq_guards.append(a.hq)
        how = "Guards activation (22.41)"
    else:
        v.hq_points[a.hq] = v.hq_points.get(a.hq, 0) + 1
        how = "one command point (22.12a)"
    v.activated.append(a.unit)
    game.emit(Note(f"{a.hq} activates {a.unit}: {how}"))


def check_disband(game: "Game", a: Disband) -> Illegal | None:
    st = game.state
    if st.phase != "disband" or owner(game) != SOVIET:
        return Illegal("22.26b", "a Non-Op HQ is disbanded by the Soviet in the interphase")
    v = efs_vars(st)
    if a.hq not in v.non_op or a.hq not in st.units or st.units[a.hq].status != "map":
        return Illegal("22.26b", f"{a.hq} is not a Non-Op HQ on the map")
    if v.disbanded:
        return Illegal("22.26b", f"one HQ a turn may be disbanded, and {v.disbanded[0]} was")
    return None


def apply_disband(game: "Game", a: Disband) -> None:
    u = game.state.units[a.hq]
    u.status, u.hex = CADRE, None  # 22.26b: to the Cadre Box, still Non-Op
    efs_vars(game.state).disbanded.append(a.hq)
    game.emit(Note(f"{a.hq} is disbanded to the Cadre Box instead of its recovery roll (22.26b; the Axis "
                   f"victory point it gives does not count in Sumy, PB 10.45)"))


# -- stacking ------------------------------------------------------------------------------------

def check_to_cadre(game: "Game", a: ToCadre) -> Illegal | None:
    s, st = _sys(), game.state
    b = s.board(game)
    if a.unit not in b.hex_of or b.side(a.unit) != owner(game):
        return Illegal("3.32", f"{a.unit} is not a unit of yours on the map")
    over = stacking.excess(b, owner(game))
    if b.hex_of[a.unit] not in over:
        return Illegal("3.32", f"{b.hid(b.hex_of[a.unit])} is not over the stacking limit")
    return None


def apply_to_cadre(game: "Game", a: ToCadre) -> None:
    u = game.state.units[a.unit]
    u.status, u.hex = CADRE, None
    game.emit(Note(f"{a.unit} goes to the Cadre Box: its hex was over the stacking limit (3.32)"))


# -- attacks -------------------------------------------------------------------------------------

def live_hexes(game: "Game", hex_id: str) -> list[Any]:
    """The Defender Hexes of the attack declared on ``hex_id`` that still hold enemy units."""
    b = _sys().board(game)
    side = game.state.player
    return [h for h in (b.parse(x) for x in combat_hexes(game, hex_id)) if defenders_at(game, h, side)]


def _adjacent_attackers(game: "Game", hexes: list[Any]) -> list[str]:
    """Units of the phasing side next to every one of ``hexes`` that may still attack (15.21a,
    15.23, 15.26), before 12.5 and 12.7 are asked."""
    b = _sys().board(game)
    side = game.state.player
    fought = set(efs_vars(game.state).fought)
    if not hexes:
        return []
    return [u for n in b.gmap.neighbours(hexes[0]) for u in b.at(n)
            if b.side(u) == side and not b.is_artillery(u) and b.is_combat(u) and u not in fought
            and b.attack(u) > 0 and all(h in b.gmap.neighbours(n) for h in hexes[1:])]


def unattacked_owed(game: "Game", uid: str, hexes: list[Any]) -> list[Any]:
    """12.7 in the Combat phase: the hexes whose zones reach ``uid`` that are neither in this
    combat, nor still under a Declared Attack marker (its attack is still to come, 12.36), nor
    held only by units already attacked this phase (15.23)."""
    b = _sys().board(game)
    done = set(efs_vars(game.state).attacked)
    return [q for q in owed_hexes(b, uid, hexes) if q not in b.declared
            and not all(u in done for u in b.at(q) if b.is_combat(u))]


def attackers_for(game: "Game", hex_id: str) -> list[str]:
    """Units of the phasing side that may still attack the Declared Attack on ``hex_id``: next to
    every one of its Defender Hexes (15.21a, 15.26), in their zones or able to enter them (15.21b-c),
    and with every other hex whose zone reaches them attacked or still to be attacked (12.7)."""
    b = _sys().board(game)
    hexes = live_hexes(game, hex_id)
    return [u for u in _adjacent_attackers(game, hexes)
            if all(may_attack_from(b, u, h) for h in hexes)  # 12.11, 12.61, 15.21b-c, 15.26
            and not unattacked_owed(game, u, hexes)]


def artillery_for(game: "Game", hex_id: str, side: str) -> list[str]:
    """Artillery of ``side`` in range of one or more of the attack's Defender Hexes (12.8, 14.21)."""
    b = _sys().board(game)
    hexes = [b.parse(x) for x in combat_hexes(game, hex_id)]
    fought = set(efs_vars(game.state).fought)
    return [u for u, at in sorted(b.hex_of.items()) if b.side(u) == side and b.is_artillery(u)
            and min(at.distance(h) for h in hexes) <= SUPPORT_RANGE and u not in fought and at not in b.declared]


def check_attack(game: "Game", a: Attack) -> Illegal | None:
    st = game.state
    if st.phase != _sys().COMBAT or owner(game) != st.player:
        return Illegal("15.0", "attacks are made in the phasing player's Combat phase")
    if a.hex not in efs_vars(st).declared:
        return Illegal("12.35", f"{a.hex} carries no Declared Attack marker")
    if not a.attackers:
        return Illegal("15.21", "name the attacking units")
    can = set(attackers_for(game, a.hex))
    b = _sys().board(game)
    hexes = live_hexes(game, a.hex)
    near = set(_adjacent_attackers(game, hexes))
    for uid in a.attackers:
        if uid in near and uid not in can:
            blocked = [b.hid(h) for h in hexes if not may_attack_from(b, uid, h)]
            if blocked:  # 15.21b-c
                return Illegal("15.21", f"{uid} cannot attack {blocked[0]}: no zone from it covers "
                                        f"{b.hid(b.hex_of[uid])} and {uid} could not enter it")
            owed = b.hid(unattacked_owed(game, uid, hexes)[0])  # 12.7
            return Illegal("12.7", f"{uid} is in the zone of {owed}, which is neither in this combat, nor "
                                   "under a Declared Attack marker, nor attacked already this phase")
        if uid not in can:
            if len(combat_hexes(game, a.hex)) > 1:
                return Illegal("15.26", f"{uid} cannot join the attack on {' and '.join(combat_hexes(game, a.hex))}: "
                                        "not next to every Defender Hex, artillery, or already in a combat")
            return Illegal("15.21", f"{uid} cannot attack {a.hex}: not next to it, artillery, or already in a combat")
    art = set(artillery_for(game, a.hex, st.player))
    for uid in a.artillery:
        if uid not in art:
            return Illegal("15.4", f"{uid} cannot support the attack on {a.hex}")
    if len(set(a.attackers)) != len(a.attackers) or len(set(a.artillery)) != len(a.artillery):
        return Illegal("15.25", "a unit is listed twice")
    from kiev_tui.games.efs_ktr import chain
    c = {"hex": a.hex, "hexes": [b.hid(h) for h in live_hexes(game, a.hex)], "attacker": st.player,
         "defender": chain.other(st.player), "attackers": list(a.attackers), "artillery": list(a.artillery), "dart": []}
    p = combat.plan(chain.combat_input(game, c), _sys().tables(game))  # 15.2-15.4, PB 11.3
    if isinstance(p, Illegal):
        return p
    if p.column is None and not p.zero_defence:  # 12.36: 1-4 must be reached where the units allow it
        full = {**c, "attackers": sorted(can), "artillery": sorted(art)}
        best = combat.plan(chain.combat_input(game, full), _sys().tables(game))
        if not isinstance(best, Illegal) and best.column is not None:
            return Illegal("12.36", f"{p.attack:g} to {p.defence:g} is under 1-4 and the units at hand make "
                                    f"{best.column}: a declared attack is made at 1-4 or better when it can be")
    return None


def apply_attack(game: "Game", a: Attack) -> None:
    from kiev_tui.games.efs_ktr import chain
    chain.start_attack(game, a)


def can_act(game: "Game", uid: str) -> bool:
    s, st = _sys(), game.state
    u = st.units.get(uid)
    if st.over or u is None or st.pending is not None:
        return False
    if game.scenario.catalog.units[uid].side != owner(game):
        return False
    if st.phase in s.MOVE_PHASES:
        if u.status == PENDING:
            return uid in s.due(game, owner(game)) and st.phase != "reaction"
        if u.status != "map" or uid in efs_vars(st).done:
            return False
        if owner(game) == SOVIET and nonop.move_bar(game, (uid,)) is not None:
            return False  # 22.25g: the Non-Op HQ's limit is used up
        return not isinstance(movement.allowance(s.board(game), uid, st.phase), Illegal)
    if st.phase == s.COMBAT:
        return any(uid in attackers_for(game, h) for h in efs_vars(st).declared)
    return False


HANDLERS: dict[type, tuple[Callable[..., Illegal | None], Callable[..., None]]] = {
    Move: (check_move, apply_move),
    Overrun: (check_overrun, apply_overrun),
    Declare: (check_declare, apply_declare),
    Activate: (check_activate, apply_activate),
    ToCadre: (check_to_cadre, apply_to_cadre),
    Attack: (check_attack, apply_attack),
    Interdict: (check_interdict, apply_interdict),
    Disband: (check_disband, apply_disband),
}
