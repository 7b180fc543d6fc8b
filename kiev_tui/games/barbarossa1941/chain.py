"""One combat as ONE chain of prompts, in 6's order, each answered by its side from options.

An ``attack`` (or an ``overrun``) pushes a frame of kind "combat" on the prompt stack.  Its
``stage`` walks through 6's routine: air and naval support (attacker, then defender, 11.2;
the Baltic Fleet is the Soviet side's, 12.9), artillery (defender, then attacker, 12.12), airborne support (attacker, 12.5), Zhukov (the Soviet player,
12.13), the coup de main (attacker, 12.6), the defender's reaction move (5.3: options that are
moves on the map), the assault leaders (attacker first, 6), the roll, the losses (the attacker
first, then the defender, who may take its second step as a retreat, 6, 6.1) and the advance
(6.1; after an overrun, entering the hex, 7.2).  A stage with no real choice (one option only,
or only "none") is answered at once and not asked; the roll is always asked of the attacker.

The frame is plain data (saves hold it); ``options`` lists every answer; ``answer`` applies one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.prompts import Option, Prompt
from kiev_tui.games.barbarossa1941 import air, combat, movement, overrun, retreat
from kiev_tui.games.barbarossa1941.actions import (Advance, AirSupport, Airborne, Artillery, CoupDeMain, Leader,
                                                   NavalSupport, React, Retreat, RollCombat, TakeLoss, Zhukov)
from kiev_tui.games.barbarossa1941.allowance import REACTION
from kiev_tui.games.barbarossa1941.board import Board, other
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

KIND = "combat"
STAGES = ("air_attacker", "naval_attacker", "air_defender", "naval_defender", "artillery_defender", "artillery_attacker", "airborne", "zhukov",
          "coup", "reaction", "leader_attacker", "leader_defender", "roll", "loss_attacker", "loss_defender",
          "advance", "done")
#: Who answers each stage: the attacker, the defender, or the Soviet player (12.13).
OWNER = {"air_attacker": "a", "naval_attacker": "a", "air_defender": "d", "naval_defender": "d",
         "artillery_defender": "d", "artillery_attacker": "a",
         "airborne": "a", "zhukov": "soviet", "coup": "a", "reaction": "d", "leader_attacker": "a",
         "leader_defender": "d", "roll": "a", "loss_attacker": "a", "loss_defender": "d", "advance": "a",
         "done": "a"}
CASE = {"air_attacker": "11.2", "naval_attacker": "12.9", "air_defender": "11.2", "naval_defender": "12.9",
        "artillery_defender": "12.12",
        "artillery_attacker": "12.12", "airborne": "12.5", "zhukov": "12.13", "coup": "12.6", "reaction": "5.3",
        "leader_attacker": "6", "leader_defender": "6", "roll": "6", "loss_attacker": "6", "loss_defender": "6",
        "advance": "6.1", "done": "6"}
OVERRUN_SKIPS = frozenset({"naval_attacker", "naval_defender", "artillery_defender", "artillery_attacker", "coup", "reaction"})  # 7.2, 5.3


def new_frame(side: str, attackers: tuple[str, ...], target: str, is_overrun: bool = False,
              coup: str = "") -> dict[str, Any]:
    """The frame an attack pushes: who attacks what, and every option still unanswered."""
    return {"kind": KIND, "side": side, "stage": STAGES[0], "attacker": side, "defender": other(side),
            "attackers": list(attackers), "target": target, "overrun": is_overrun, "air_a": "", "air_d": "",
            "art_a": False, "art_d": False, "fleet": False, "fleet_mined": False, "dropped": "", "zhukov": False, "coup": coup, "leader_a": "",
            "leader_d": "", "loss_a": 0, "loss_d": 0, "taken_a": 0, "taken_d": 0, "may_retreat": False,
            "retreat": "", "gone": []}


def owner_of(frame: dict[str, Any], stage: str) -> str:
    who = OWNER[stage]
    return str(frame["attacker"] if who == "a" else frame["defender"] if who == "d" else who)


def _target(game: "Game", frame: dict[str, Any]) -> Hex:
    return game.scenario.map.grid.parse(str(frame["target"]))


def attackers_alive(board: Board, frame: dict[str, Any]) -> list[str]:
    return [u for u in frame["attackers"] if u in board.hex_of]


def defenders(board: Board, frame: dict[str, Any], target: Hex) -> list[str]:
    return [u for u in board.at(target) if board.side(u) == frame["defender"]]


def _leader_ok(board: Board, uid: str) -> bool:
    t = board.udef(uid).type
    return combat._quality(board, uid) is not None and (t not in ("airborne", "fort")
                                                        or bool(board.udef(uid).extra.get("permanent")))


def leader_options(board: Board, frame: dict[str, Any], target: Hex, role: str) -> list[str]:
    """The units that may lead the side's assault (6): with a quality; motorized if any attacker is."""
    if role == "a":
        units = attackers_alive(board, frame)
        if any(combat._motorized(board, u) for u in units):
            units = [u for u in units if combat._motorized(board, u)]
    else:
        units = [u for u in defenders(board, frame, target) if board.is_formation(u) or combat._permanent(board, u)]
    return [u for u in units if _leader_ok(board, u)]


def options_of(frame: dict[str, Any], board: Board, leaders: tuple[str, str] | None = None) -> combat.Options:
    coup = frame["coup"]
    return combat.Options(air_attacker=frame["air_a"] or None, air_defender=frame["air_d"] or None,
                          artillery_defender=bool(frame["art_d"]), artillery_attacker=bool(frame["art_a"]),
                          dropped=frame["dropped"] or None, zhukov=bool(frame["zhukov"]),
                          coup_de_main=None if not coup else coup == "yes", overrun=bool(frame["overrun"]),
                          fleet=bool(frame.get("fleet")), fleet_mined=bool(frame.get("fleet_mined")))


def trial_plan(game: "Game", board: Board, frame: dict[str, Any], **change: Any) -> combat.Plan | Illegal:
    """The combat's plan with the options answered so far (and ``change``), with the chosen leaders
    or, before they are named, the first each side could name."""
    from dataclasses import replace

    from kiev_tui.games.barbarossa1941.system import supply_of

    target = _target(game, frame)
    la = frame["leader_a"] or next(iter(leader_options(board, frame, target, "a")), "")
    ld = frame["leader_d"] or next(iter(leader_options(board, frame, target, "d")), "")
    opts = replace(options_of(frame, board), **change)
    return combat.plan(board, attackers_alive(board, frame), target, la, ld, opts, supply_of(game, board))


def _art_left(game: "Game", side: str) -> bool:
    """Has the side an artillery point it may spend now (12.12)?"""
    from kiev_tui.games.barbarossa1941.system import tables_of

    art = tables_of(game).artillery
    v = game.state.vars
    total, cap = (art.axis_points, art.axis_max_per_turn) if side == AXIS else (art.soviet_points,
                                                                                 art.soviet_max_per_turn)
    return v.art_used.get(side, 0) < total and v.art_turn.get(side, 0) < cap


def gulf_mined(game: "Game") -> bool:
    """12.9: the gulf is mined once the Axis holds all the cities the table names; held as supply
    reads it (units there, else the last side there, else the country: ``supply.fleet_mined``)."""
    from kiev_tui.games.barbarossa1941.phases_supply import fleet_mined

    return fleet_mined(game)


def zhukov_available(game: "Game") -> bool:
    """12.13: once a turn, from the turn the Axis holds the table's VP (victory rules keep the count)."""
    from kiev_tui.games.barbarossa1941.system import axis_vp, tables_of

    v = game.state.vars
    return v.zhukov_used != game.state.turn and axis_vp(game) >= tables_of(game).combat.zhukov_from_vp


def stage_options(game: "Game", frame: dict[str, Any], board: Board) -> list[Option]:
    """Every answer to the frame's stage now."""
    from kiev_tui.games.barbarossa1941.system import air_hexes, flown

    stage = frame["stage"]
    target = _target(game, frame)
    tid = str(frame["target"])
    att, dfn = str(frame["attacker"]), str(frame["defender"])
    if frame["overrun"] and stage in OVERRUN_SKIPS:
        return []
    if stage in ("air_attacker", "air_defender"):
        side = att if stage == "air_attacker" else dfn
        corps = air.support_options(board, air_hexes(game), flown(game), side, target)
        key = "air_attacker" if stage == "air_attacker" else "air_defender"
        ok = [u for u in corps if not isinstance(trial_plan(game, board, frame, **{key: u}), Illegal)]
        return [Option("air_support", "no air support", AirSupport(""), hex=tid)] + [
            Option("air_support", f"air corps {u} supports", AirSupport(u), hex=tid, unit=u) for u in ok]
    if stage in ("naval_attacker", "naval_defender"):
        none = Option("naval_support", "no naval support", NavalSupport(False), hex=tid)
        side = att if stage == "naval_attacker" else dfn
        if side != SOVIET or game.state.vars.fleet_used == game.state.turn:
            return [none]
        if isinstance(trial_plan(game, board, frame, fleet=True, fleet_mined=gulf_mined(game)), Illegal):
            return [none]
        return [none, Option("naval_support", "the Baltic Fleet supports the Soviet side", NavalSupport(True),
                             hex=tid)]
    if stage in ("artillery_defender", "artillery_attacker"):
        side = dfn if stage == "artillery_defender" else att
        key = "artillery_defender" if side == dfn else "artillery_attacker"
        if not _art_left(game, side) or isinstance(trial_plan(game, board, frame, **{key: True}), Illegal):
            return [Option("artillery", "no artillery", Artillery(False), hex=tid)]
        return [Option("artillery", "no artillery", Artillery(False), hex=tid),
                Option("artillery", "spend an artillery point: one automatic loss to the other side",
                       Artillery(True), hex=tid)]
    if stage == "airborne":
        v = game.state.vars
        units = [u for u, h in sorted(v.dropped.items()) if u in board.hex_of and board.side(u) == att
                 and board.hex_of[u].distance(target) <= 1]
        ok = [u for u in units if not isinstance(trial_plan(game, board, frame, dropped=u), Illegal)]
        return [Option("airborne", "no airborne support", Airborne(""), hex=tid)] + [
            Option("airborne", f"{u} supports the attack", Airborne(u), hex=tid, unit=u) for u in ok]
    if stage == "zhukov":
        if SOVIET not in (att, dfn) or not zhukov_available(game):
            return [Option("zhukov", "no Zhukov", Zhukov(False), hex=tid)]
        return [Option("zhukov", "no Zhukov", Zhukov(False), hex=tid),
                Option("zhukov", "use the Zhukov option", Zhukov(True), hex=tid)]
    if stage == "coup":
        none = Option("coup_de_main", "no coup de main", CoupDeMain(False), hex=tid)
        if frame["coup"] or att != AXIS or combat.coup_allowed(board, game.state.vars.coups) is not None:
            return [none]
        if isinstance(trial_plan(game, board, frame, coup_de_main=True), Illegal):
            return [none]
        need = board.tables.coup_de_main.success_min
        return [none, Option("coup_de_main", f"try a coup de main (it succeeds on {need} or more)", CoupDeMain(True),
                             hex=tid)]
    if stage == "reaction":
        return [Option("react", "no reaction move", React(""), hex=tid)] + reaction_moves(game, frame, board)
    if stage in ("leader_attacker", "leader_defender"):
        role = "a" if stage == "leader_attacker" else "d"
        return [Option("leader", f"{u} leads the assault", Leader(u), hex=tid, unit=u)
                for u in leader_options(board, frame, target, role)]
    if stage == "roll":
        p = trial_plan(game, board, frame)
        what = "roll" if isinstance(p, Illegal) else (f"roll {p.dice} {'die' if p.dice == 1 else 'dice'} at "
                                                     f"{p.column_name}, {p.die_modifier:+d} on the die")
        return [Option("roll", what, RollCombat(), hex=tid)]
    if stage in ("loss_attacker", "loss_defender"):
        return loss_options(game, frame, board)
    if stage == "advance":
        return advance_options(game, frame, board)
    return []


def reaction_moves(game: "Game", frame: dict[str, Any], board: Board) -> list[Option]:
    """5.3: each move a defending motorized or cavalry unit may try toward this combat."""
    v = game.state.vars
    grid = board.gmap.grid
    target = _target(game, frame)
    attacked = [grid.parse(h) for h in v.attacked]
    drop_hexes = {grid.parse(h) for u, h in v.dropped.items() if u in board.hex_of and board.side(u) != frame["defender"]}
    out: list[Option] = []
    for uid in sorted(board.hex_of):
        if board.side(uid) != frame["defender"] or uid in v.reacted:
            continue
        if movement.may_react(board, uid, target, attacked) is not None:
            continue
        for h, r in sorted(movement.reachable(board, (uid,), REACTION, explain=False).items()):
            if not r.ok or h in drop_hexes:  # 12.5: no reaction onto a dropped unit's hex
                continue
            out.append(Option("react", f"{uid} tries to react to {grid.id(h)}", React(uid, r.path),
                              hex=grid.id(h), unit=uid))
    return out


def _left(board: Board, uid: str) -> int:
    return combat._steps_left(board, uid) if uid in board.hex_of else 0


def loss_side(frame: dict[str, Any]) -> str:
    return "a" if frame["stage"] == "loss_attacker" else "d"


def loss_candidates(game: "Game", frame: dict[str, Any], board: Board) -> list[str]:
    """The units that may take the next step (6): the assault leader takes the first."""
    role = loss_side(frame)
    target = _target(game, frame)
    units = attackers_alive(board, frame) if role == "a" else defenders(board, frame, target)
    units = [u for u in units if _left(board, u) > 0]
    leader = frame["leader_a" if role == "a" else "leader_d"]
    if frame["taken_" + role] == 0 and leader in units:
        return [leader]
    return units


def loss_options(game: "Game", frame: dict[str, Any], board: Board) -> list[Option]:
    role = loss_side(frame)
    if frame["taken_" + role] >= frame["loss_" + role]:
        return []
    tid = str(frame["target"])
    out = [Option("take_loss", f"{u} loses a step", TakeLoss(u), hex=board.gmap.grid.id(board.hex_of[u]), unit=u)
           for u in loss_candidates(game, frame, board)]
    if role == "d" and frame["may_retreat"] and not frame["retreat"] and frame["taken_d"] == 1:
        for h in sorted(retreat_choices(game, frame, board)):
            out.append(Option("retreat", f"retreat to {board.gmap.grid.id(h)} instead of the second step",
                              Retreat(board.gmap.grid.id(h)), hex=board.gmap.grid.id(h)))
    return out if out else [Option("take_loss", "no unit can lose a step", TakeLoss(""), hex=tid)]


def retreaters(board: Board, frame: dict[str, Any], target: Hex) -> list[str]:
    """The defenders that retreat together: formations, less airborne units lost anyway (12.5)."""
    return [u for u in defenders(board, frame, target) if board.is_formation(u) and u not in frame["gone"]
            and board.udef(u).type != "airborne"]


def retreat_choices(game: "Game", frame: dict[str, Any], board: Board) -> dict[Hex, int]:
    from kiev_tui.games.barbarossa1941.system import supply_of

    units = retreaters(board, frame, _target(game, frame))
    if not units:
        return {}
    got = retreat.retreat_hexes(board, units, supply_of(game, board))
    return {} if isinstance(got, Illegal) else got


def advance_options(game: "Game", frame: dict[str, Any], board: Board) -> list[Option]:
    """6.1 (7.2 after an overrun): stay, each surviving attacker alone, or all of them."""
    target = _target(game, frame)
    tid = str(frame["target"])
    stay = Option("advance", "stay", Advance(()), hex=tid)
    units = [u for u in attackers_alive(board, frame) if not board.is_static(u) and board.udef(u).type != "airborne"]
    if not units:
        return [stay]
    out = [stay]
    groups = [(u,) for u in units] + ([tuple(units)] if len(units) > 1 else [])
    for g in groups:
        if frame["overrun"]:
            ok = overrun.check_enter(board, g, target)
        else:
            ok = retreat.check_advance(board, attackers_alive(board, frame), target, g)
        if not isinstance(ok, Illegal):
            out.append(Option("advance", f"{', '.join(g)} {'enter' if frame['overrun'] else 'advance into'} {tid}",
                              Advance(g), hex=tid))
    return out


def prompt(game: "Game", frame: dict[str, Any], board: Board) -> Prompt:
    stage = frame["stage"]
    opts = tuple(stage_options(game, frame, board))
    what = "overrun" if frame["overrun"] else "attack"
    text = f"{frame['side']} player: {stage.replace('_', ' ')} in the {what} on {frame['target']}"
    return Prompt(str(frame["side"]), KIND, CASE[stage], text, opts)


# -- answering ---------------------------------------------------------------------------------------

def note(game: "Game", text: str) -> None:
    game.emit(Note(text))


def next_stage(frame: dict[str, Any]) -> None:
    frame["stage"] = STAGES[STAGES.index(frame["stage"]) + 1]


def answer(game: "Game", action: Action) -> None:
    """Apply one answer to the combat on top of the stack, then run on to the next real choice."""
    from kiev_tui.games.barbarossa1941 import system as s

    st = game.state
    frame = st.pending
    board = s.board_of(game)
    v = st.vars
    stage = frame["stage"]
    side = frame["side"]
    if isinstance(action, AirSupport):
        if action.unit:
            frame["air_a" if stage == "air_attacker" else "air_d"] = action.unit
            st.units[action.unit].markers.add(air.FLOWN)  # 11.2: once a turn
            note(game, f"{action.unit} flies in support of the {side} side (11.2)")
        next_stage(frame)
    elif isinstance(action, NavalSupport):
        if action.use:
            frame["fleet"], frame["fleet_mined"] = True, gulf_mined(game)
            v.fleet_used = st.turn
            note(game, "the Baltic Fleet supports the Soviet side (12.9)")
        next_stage(frame)
    elif isinstance(action, Artillery):
        if action.use:
            frame["art_d" if stage == "artillery_defender" else "art_a"] = True
            v.art_used[side] = v.art_used.get(side, 0) + 1
            v.art_turn[side] = v.art_turn.get(side, 0) + 1
            note(game, f"the {side} side spends an artillery point (12.12)")
        next_stage(frame)
    elif isinstance(action, Airborne):
        if action.unit:
            frame["dropped"] = action.unit
            note(game, f"{action.unit} supports the attack (12.5)")
        next_stage(frame)
    elif isinstance(action, Zhukov):
        if action.use:
            frame["zhukov"] = True
            v.zhukov_used = st.turn
            note(game, "the Soviet player uses the Zhukov option (12.13)")
        next_stage(frame)
    elif isinstance(action, CoupDeMain):
        if action.attempt:
            v.coups += 1
            die = game.roll("coup de main (12.6)")
            ok = combat.coup_roll(board, die)
            frame["coup"] = "yes" if ok else "no"
            note(game, f"coup de main: {die}, {'it succeeds' if ok else 'it fails'} (12.6)")
        next_stage(frame)
    elif isinstance(action, React):
        if action.unit:
            v.reacted.append(action.unit)
            die = game.roll(f"reaction test of {action.unit} (5.3)")
            q = combat._quality(board, action.unit) or 0
            if die <= q:
                s.move_units(game, (action.unit,), action.path)
                note(game, f"{action.unit} reacts ({die} against quality {q}) to {action.path[-1]} (5.3)")
            else:
                note(game, f"{action.unit} fails its reaction test ({die} against quality {q}, 5.3)")
        next_stage(frame)
    elif isinstance(action, Leader):
        frame["leader_a" if stage == "leader_attacker" else "leader_d"] = action.unit
        next_stage(frame)
    elif isinstance(action, RollCombat):
        _roll(game, frame, board)
    elif isinstance(action, TakeLoss):
        role = loss_side(frame)
        if action.unit:
            from kiev_tui.games.barbarossa1941.phases_campaign import record_loss
            record_loss(game, action.unit, board)  # 9.21: the loss markers
            s.lose_step(game, action.unit, board)
            frame["taken_" + role] += 1
        else:
            frame["taken_" + role] = frame["loss_" + role]
        if frame["taken_" + role] >= frame["loss_" + role]:
            _end_losses(game, frame)
    elif isinstance(action, Retreat):
        to = game.scenario.map.grid.parse(action.hex)
        extra = retreat_choices(game, frame, board)[to]
        frame["retreat"] = action.hex
        frame["taken_d"] += 1  # 6: the second step becomes the retreat
        frame["loss_d"] += extra  # 6.1: an uncancelled enemy zone costs a step more
        note(game, f"the defenders will retreat to {action.hex} instead of their second step"
                   + (" and lose a step more for the enemy zone (6.1)" if extra else " (6)"))
        if frame["taken_d"] >= frame["loss_d"]:
            _end_losses(game, frame)
    elif isinstance(action, Advance):
        if action.units:
            s.move_units(game, action.units, (str(frame["target"]),))
            if frame["overrun"]:  # 7.2: the stack may move on from the hex it entered
                for uid in action.units:
                    v.overran[uid] = str(frame["target"])
            note(game, f"{', '.join(action.units)} {'enter' if frame['overrun'] else 'advance into'} "
                       f"{frame['target']} ({'7.2' if frame['overrun'] else '6.1'})")
        frame["stage"] = "done"
    run(game)


def _roll(game: "Game", frame: dict[str, Any], board: Board) -> None:
    p = trial_plan(game, board, frame)
    if isinstance(p, Illegal):  # the position changed under the combat (a reaction): it is called off
        note(game, f"the attack on {frame['target']} is called off: {p.why} ({p.case})")
        frame["stage"] = "done"
        return
    dice = [game.roll(f"combat on {frame['target']} (6)") for _ in range(p.dice)]
    out = combat.resolve(board, p, dice)
    assert not isinstance(out, Illegal)
    frame["loss_a"], frame["loss_d"] = out.losses.attacker, out.losses.defender
    frame["may_retreat"] = bool(out.retreat_option)
    frame["gone"] = list(p.eliminated_anyway)
    note(game, f"combat on {frame['target']}: {p.attack} against {p.defense} at {p.column_name}, "
               f"dice {', '.join(map(str, dice))} {p.die_modifier:+d}: {out.losses or 'no loss'} (6)")
    frame["stage"] = "loss_attacker"


def _end_losses(game: "Game", frame: dict[str, Any]) -> None:
    from kiev_tui.games.barbarossa1941 import system as s

    if frame["stage"] == "loss_attacker":
        frame["stage"] = "loss_defender"
        return
    board = s.board_of(game)
    for uid in frame["gone"]:  # 12.5: an airborne unit of the combat is lost whatever the result
        if game.state.units[uid].status == "map":
            s.eliminate(game, uid, "lost after its combat (12.5)")
    if frame["retreat"]:
        board = s.board_of(game)
        units = retreaters(board, frame, _target(game, frame))
        if units:
            s.move_units(game, tuple(units), (str(frame["retreat"]),))
            note(game, f"{', '.join(units)} retreat to {frame['retreat']} (6.1)")
    frame["stage"] = "advance"


def run(game: "Game") -> None:
    """Answer every stage that offers no real choice, up to the next the players must answer; at
    the end of the routine take the frame off the stack."""
    from kiev_tui.games.barbarossa1941 import system as s

    for _ in range(200):
        frame = game.state.pending
        if frame is None or frame.get("kind") != KIND:
            return
        if frame["stage"] == "done":
            game.state.pop_prompt()
            return
        board = s.board_of(game)
        frame["side"] = owner_of(frame, frame["stage"])
        opts = stage_options(game, frame, board)
        if frame["stage"] == "roll" or len(opts) > 1:
            return
        if not opts:
            next_stage(frame)
            continue
        answer(game, opts[0].action)  # the only answer: given at once, and answer() runs on
        return
    raise RuntimeError("the combat chain did not settle")

