"""Kiev to Rostov's words for both faces: unit names, the panels' lines, the phases' help, and the
list of the actions a player may take now besides moving and ending the phase.

Nothing here imports Textual: plain mode (``plain.py``) prints these lines, the Textual adapter
(``adapter.py``) shows them in its panels.  Every answer about the position comes from the rule
system; the face never reads ``state.secrets`` (face-down air units and orders stay hidden: only
the revealed orders of ``vars.orders`` and the public boxes are shown).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.hexes import Hex
from kiev_tui.ui import text as ui_text

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

AXIS, SOVIET = "axis", "soviet"
SIDE_NAME = {AXIS: "Axis", SOVIET: "Soviet"}
NATION = {AXIS: "German", SOVIET: "Soviet"}

#: Unit size symbols (the counter's top line) as words.
SIZE_NAME = {"II": "battalion", "III": "regiment", "X": "brigade", "XX": "division", "XXX": "corps",
             "XXXX": "army", "I": "company"}

TYPE_NAME = {"armor": "armour", "motorized": "motorized infantry", "recon": "reconnaissance",
             "infantry": "infantry", "artillery": "artillery", "air": "air unit", "rifle": "rifle",
             "cavalry": "cavalry", "tank": "tank", "anti_aircraft": "anti-aircraft", "hq": "headquarters"}

#: The map letter of each type: capitals Axis, small letters Soviet (the case is the side).
TYPE_LETTER = {
    AXIS: {"armor": "A", "motorized": "M", "recon": "R", "infantry": "I", "artillery": "G", "air": "W"},
    SOVIET: {"rifle": "r", "cavalry": "c", "tank": "t", "motorized": "m", "artillery": "g",
             "anti_aircraft": "k", "hq": "h", "air": "w"},
}

PHASE_TITLE = {"weather": "Weather", "supply": "Supply", "replacements": "Replacements",
               "reinforcements": "Reinforcements", "air_readiness": "Air readiness",
               "air_interdiction": "Air interdiction", "movement": "Movement", "reaction": "Reaction",
               "combat": "Combat", "motorized": "Motorized", "engineering": "Engineering",
               "surrender": "Surrender", "record": "Record", "disband": "Disbanding"}

STATUS_NAME = {"cadre": "in the Cadre Box", "eliminated": "in the Eliminated Box", "pending": "not yet arrived",
               "air_ready": "in the Ready Box", "air_flown": "in the Flown Box",
               "air_damaged": "in the Damaged Box", "air_destroyed": "in the Destroyed Box"}

#: What each phase is for and its cases (EFS series rules; PB the playbook), in our words.
PHASE_HELP = {
    "reinforcements": "Reinforcements (8.0, 8.12): units due this game-turn enter at their hexes; select "
                      "one in its entry hex and move it as in movement. PB 10.44 drops weather, supply and "
                      "replacements in Sumy. End with P.",
    "air_readiness": "Air readiness (9.11): air units in the Flown and Damaged Boxes roll to return to the "
                     "Ready Box. Nothing to do by hand: end with P.",
    "air_interdiction": "Axis air interdiction (13.12-13.14, 17.23): press C to fly a mission over a hex; the "
                        "air units are then placed face down (a hidden choice). End with P.",
    "movement": "Movement (10.0, 10.4): select a stack with Enter, move it along the lit hexes (MP shown). "
                "Entering an enemy zone stops a unit (10.6). Press C to overrun (11.4), declare an attack "
                "(12.3, 12.35: the Axis declares now) or send an overstacked unit to the Cadre Box (3.32).",
    "reaction": "Reaction (10.3): the player not phasing may move motorized units at half their allowance; "
                "a Soviet HQ sends them with its points (22.12b). End with P.",
    "combat": "Combat (15.0): press C and pick a declared attack (15.2) with its artillery (15.4); then the "
              "chain asks each player in turn: air units face down (17.21), defending artillery (14.21), "
              "the defender's face-down order (14.31), the attacker's order (15.58), losses (16.21), "
              "retreat (16.4) and advance (16.5). Every declared attack must be made (12.36).",
    "motorized": "Motorized movement (10.0, 10.24): motorized units move again; a Soviet HQ activates "
                 "units first (C: 10.24c, 22.12a, 22.41). The Soviet declares its attacks now (C, 12.3). "
                 "Overruns (11.4) are in C too.",
    "engineering": "Engineering (4.2): nothing to build in Sumy (PB 10.44). End with P.",
    "surrender": "Soviet surrender (4.2): not used in Sumy. End with P.",
    "record": "Game-turn record interphase (4.2 D): markers come off and the turn marker moves on.",
    "disband": "Non-Op HQ disbanding (22.26b): the Soviet may send one Non-Op HQ to the Cadre Box (C) "
               "instead of its recovery roll; every other Non-Op HQ then rolls (22.26a). End with P.",
}

RULES_BY_PHASE = {
    "reinforcements": ["8.0", "8.12", "PB 10.44"], "air_readiness": ["9.11"],
    "air_interdiction": ["13.12", "13.14", "17.23"], "movement": ["10.4", "10.6", "11.4", "12.35", "3.32"],
    "reaction": ["10.3", "22.12"], "combat": ["15.0", "15.2", "14.31", "16.21", "16.4", "16.5", "17.21"],
    "motorized": ["10.24", "22.12", "12.3", "11.4"], "engineering": ["4.2"], "surrender": ["4.2"],
    "record": ["4.2"], "disband": ["22.26b", "22.26a"],
}

FEATURE_NAME = {"main_road": "main road", "minor_road": "minor road", "minor_river": "river",
                "major_river": "major river"}

#: The action kinds the face offers from the rules' legal list (moves and phase ends have keys).
CHOICE_KINDS = ("declare", "attack", "overrun", "activate", "interdict", "to_cadre", "disband")


def side_name(side: str) -> str:
    return SIDE_NAME.get(side, side.capitalize())


def udef(game: "Game", uid: str) -> Any:
    return game.scenario.catalog.units[uid]


def unit_name(game: "Game", uid: str) -> str:
    """The unit's plain name ('33rd Panzer Regiment'), else its designation."""
    d = udef(game, uid)
    return str(d.extra.get("name") or d.designation or uid)


def unit_kind(game: "Game", uid: str) -> str:
    """'German armour regiment (III), 9 Pz division': nationality, type, size and division."""
    d = udef(game, uid)
    what = f"{NATION.get(d.side, d.side.capitalize())} {TYPE_NAME.get(d.type, d.type.replace('_', ' '))}"
    size = str(d.size or "")
    if size:
        what += f" {SIZE_NAME.get(size, '')} ({size})".replace("  ", " ")
    if d.division:
        what += f", {d.division} division"
    return what


def type_letter(unit_type: str, side: str) -> str:
    letter = TYPE_LETTER.get(side, {}).get(unit_type, unit_type[:1] or "?")
    return letter.upper() if side == AXIS else letter.lower()


def values(game: "Game", uid: str) -> tuple[int, int, int]:
    """Attack, defence and movement on the unit's present step (16.22-16.23)."""
    d = udef(game, uid)
    step = min(game.state.units[uid].step, max(len(d.steps) - 1, 0))
    a, df = d.steps[step] if d.steps else (0, 0)
    return int(a), int(df), int(d.ma)


def steps_left(game: "Game", uid: str) -> int:
    return max(0, len(udef(game, uid).steps) - game.state.units[uid].step)


def stacking_points(game: "Game", uid: str) -> int:
    """3.31: the printed stacking points (the same on every step; 0 for an HQ)."""
    pts = udef(game, uid).factors.get("stacking", (0,))
    return int(pts[0]) if pts else 0


def stack_order(game: "Game", ids: list[str]) -> list[str]:
    """Combat units first, the strongest attack first, HQs and air last, ties by id."""
    def key(uid: str) -> tuple[int, int, int, str]:
        a, df, _ = values(game, uid)
        back = 1 if udef(game, uid).type in ("hq", "air") else 0
        return (back, -a, -df, uid)

    return sorted(ids, key=key)


def mp_spent(game: "Game", uid: str) -> str | None:
    """MP spent this phase ('3', '5/2'), None outside a movement phase or when nothing is spent."""
    from kiev_tui.games.efs_ktr.state import efs_vars

    st = game.state
    if st.phase not in ("movement", "motorized", "reaction", "reinforcements"):
        return None
    spent = efs_vars(st).spent.get(uid)
    if spent is None:
        return None
    f = Fraction(spent)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def markers(game: "Game", uid: str) -> list[str]:
    """The public markers on a unit: Non-Op side, overrun, activated, declared attacker, done moving."""
    from kiev_tui.games.efs_ktr.state import efs_vars

    v = efs_vars(game.state)
    out = []
    if uid in v.non_op:
        out.append("Non-Op")  # 22.21
    if uid in v.overrun_marked:
        out.append("Overrun")  # 11.44
    if uid in v.activated:
        out.append("activated")  # 10.24c
    if any(uid in units for units in v.declared.values()):
        out.append("declared attacker")  # 12.35
    if uid in v.fought:
        out.append("has fought")  # 15.23
    if uid in v.done:
        out.append("may not move on")
    return out


def unit_line(game: "Game", uid: str) -> str:
    """'33rd Panzer Regiment 4-3-7 steps 2/3 SP 2 MP spent 3 [Overrun]' on one line."""
    from kiev_tui.games.efs_ktr.state import efs_vars

    d = udef(game, uid)
    u = game.state.units[uid]
    if d.type == "air":  # 17.25, 17.33: an air unit is rated by ACR and CAS, not attack-defence
        role = str(d.extra.get("air_role", ""))
        line = f"{unit_name(game, uid)} {role} ACR {d.extra.get('acr', 0)} CAS {d.extra.get('cas', 0)}"
        if d.extra.get("interdiction"):
            line += f" interdiction {d.extra.get('interdiction')}"
    else:
        a, df, m = values(game, uid)
        line = f"{unit_name(game, uid)} {a}-{df}-{m} steps {steps_left(game, uid)}/{len(d.steps)}"
        line += f" SP {stacking_points(game, uid)}"
        if d.type == "artillery" and d.extra.get("support"):
            line += f" support {d.extra.get('support')}"
        if d.type == "hq" and uid in efs_vars(game.state).non_op:  # 22.21: the back shows recovery
            line += f" recovery {d.extra.get('recovery', 0)} range {d.extra.get('command_range', 0)}"
        elif d.type == "hq":
            line += f" command {d.extra.get('command', 0)} range {d.extra.get('command_range', 0)}"
        spent = mp_spent(game, uid)
        if spent is not None:
            line += f" MP spent {spent}"
    if u.status != "map":
        line += f", {STATUS_NAME.get(u.status, u.status.replace('_', ' '))}"
    marks = markers(game, uid)
    return line + (f" [{', '.join(marks)}]" if marks else "")


def hex_lines(game: "Game", h: Hex) -> list[str]:
    """The hex: number, place, terrain (woods on top named), holder; its hexsides; its markers."""
    from kiev_tui.games.efs_ktr.state import efs_vars

    gmap = game.scenario.map
    hid = gmap.grid.id(h)
    lines = [ui_text.hex_head(gmap, game.state.control, h, side_name).replace("_", " ")]
    sides: dict[str, list[str]] = {}
    for n in gmap.neighbours(h):
        for f in gmap.side_features(h, n):
            sides.setdefault(FEATURE_NAME.get(f, f.replace("_", " ")), []).append(gmap.grid.id(n))
    for name, toward in sorted(sides.items()):
        lines.append(f"{name} toward {', '.join(sorted(toward))}")
    v = efs_vars(game.state)
    marks = []
    if "declared_attack" in game.state.hex_markers.get(hid, []):
        marks.append("Declared Attack (12.35)")
    if hid in v.orders:  # only orders already turned face up (15.59) are in vars
        marks.append(f"order {v.orders[hid].replace('_', ' ')}")
    if hid in v.interdiction:
        marks.append(f"interdiction level {v.interdiction[hid]} (13.14)")
    if marks:
        lines.append("Markers: " + ", ".join(marks))
    return lines


def stack_lines(game: "Game", h: Hex, chosen: tuple[str, ...] = ()) -> list[str]:
    hid = game.scenario.map.grid.id(h)
    ids = stack_order(game, [u for u, s in game.state.units.items() if s.status == "map" and s.hex == hid])
    if not ids:
        return []
    side = udef(game, ids[0]).side
    total = sum(stacking_points(game, u) for u in ids)
    lines = [f"{side_name(side)} stack of {len(ids)}, {total} stacking points (keys 1-{min(len(ids), 9)} pick):"]
    for n, uid in enumerate(ids, 1):
        num = str(n) if n <= 9 else " "
        mark = "*" if uid in chosen else " "
        lines.append(f"{num}{mark}{unit_line(game, uid)}")
        lines.append(f"    {unit_kind(game, uid)}")
    return lines


def inspector_lines(game: "Game", h: Hex, chosen: tuple[str, ...] = ()) -> list[str]:
    head, *rest = hex_lines(game, h)
    return [head, *stack_lines(game, h, chosen), *rest]


def game_turn(game: "Game") -> int:
    """The game-turn number the record track shows (PB 10.41: Sumy's turn 1 is GT50)."""
    return int(game.scenario.params.get("first_game_turn", 1)) + game.state.turn - 1


def turn_head(game: "Game") -> str:
    first = int(game.scenario.params.get("first_game_turn", 1))
    return f"Game-turn {game_turn(game)} (GT{first}-GT{first + game.scenario.turns - 1}), Dry"


def box_lines(game: "Game") -> list[str]:
    """Each side's units off the map by box (public: the counters in the boxes face up)."""
    lines = []
    for side in (AXIS, SOVIET):
        boxes: dict[str, int] = {}
        for uid, u in game.state.units.items():
            if udef(game, uid).side == side and u.status not in ("map", "pending"):
                boxes[u.status] = boxes.get(u.status, 0) + 1
        if boxes:
            words = ", ".join(f"{n} {s.replace('air_', '').replace('_', ' ')}" for s, n in sorted(boxes.items()))
            lines.append(f"{side_name(side)} boxes: {words}")
    return lines


def score_line(game: "Game") -> str:
    from kiev_tui.games.efs_ktr.state import efs_vars

    lost = efs_vars(game.state).steps_lost
    need = int(game.scenario.victory.get("axis_stars_needed", 5))
    held = game.rules.score(game).points.get(AXIS, 0)
    return f"Axis stars {held}/{need}; steps lost: Axis {lost.get(AXIS, 0)}/6, Soviet {lost.get(SOVIET, 0)}"


def tracker_lines(game: "Game") -> list[str]:
    """Game-turn, the stars and losses that decide Sumy (PB 10.45), the boxes, then the segments
    (strategic, Axis with the Soviet reaction, Soviet with the Axis reaction, interphase)."""
    lines = [turn_head(game), score_line(game), *box_lines(game)]
    if game.state.over:
        return lines + ["The game is over."]
    lines.extend(ui_text.sequence_lines(game, side_name, lambda p: PHASE_TITLE.get(p, ui_text.phase_title(p)),
                                        head="{}: "))
    here = sequence.current(game)
    if here.owner and game.actor != here.owner:
        lines.append(f"The {side_name(game.actor)} player answers now.")
    return lines


def phase_help(game: "Game") -> str:
    phase = game.state.phase
    return PHASE_HELP.get(phase, f"{PHASE_TITLE.get(phase, phase)}: end the phase with P when done.")


def rules_cases(game: "Game") -> list[str]:
    return list(RULES_BY_PHASE.get(game.state.phase, []))


# -- the actions a player picks from a list -------------------------------------------------------

def _names(game: "Game", ids: tuple[str, ...]) -> str:
    return ", ".join(unit_name(game, u) for u in ids) or "none"


def describe(game: "Game", action: Action) -> str:
    """A player's words for one listed action, with the case that allows it."""
    kind = action.kind
    a: Any = action
    if kind == "declare":
        if a.also:
            return f"Declare one attack on {' and '.join((a.hex, *a.also))} by {_names(game, a.units)} (12.8)"
        return f"Declare an attack on {a.hex} by {_names(game, a.units)} (12.35)"
    if kind == "attack":
        art = f", artillery {_names(game, a.artillery)}" if a.artillery else ", no artillery"
        from kiev_tui.games.efs_ktr.handlers import combat_hexes
        return f"Attack {' and '.join(combat_hexes(game, a.hex))} with {_names(game, a.attackers)}{art} (15.2)"
    if kind == "overrun":
        return f"Overrun {a.target} with {_names(game, a.units)} (11.4)"
    if kind == "activate":
        return f"Activate {unit_name(game, a.unit)} by {unit_name(game, a.hq)} (10.24c)"
    if kind == "interdict":
        return f"Fly interdiction over {a.hex} (13.12)"
    if kind == "to_cadre":
        return f"Send {unit_name(game, a.unit)} to the Cadre Box (3.32)"
    if kind == "disband":
        return f"Disband the Non-Op {unit_name(game, a.hq)} (22.26b)"
    return action.describe()


def choices(game: "Game", side: str) -> list[tuple[str, Action]]:
    """The declares, attacks, overruns, activations, interdictions and Cadre Box sends the rules
    allow ``side`` now (empty unless ``side`` acts: rules.legal yields only the actor's), then the
    waiting prompt's answers if it is this side's.  Moves and phase ends have keys of their own."""
    out: list[tuple[str, Action]] = []
    if game.state.pending is None:
        for act in game.rules.legal(game, side):
            if not isinstance(act, EndPhase) and act.kind in CHOICE_KINDS:
                out.append((describe(game, act), act))
    else:
        for opt in game.rules.options(game, side):
            act = getattr(opt, "action", opt)
            out.append((str(getattr(opt, "label", act.describe())), act))
    return out


def move_action(game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> Action:
    """The ``move`` action for hexes a player names after the stack's hex (10.4: the rules' path
    starts where the stack stands); one far hex takes the rules' cheapest path to it."""
    from kiev_tui.games.efs_ktr.actions import Move

    start = game.state.units[units[0]].hex if units else None
    if not path or start is None or path[0] == start:
        return Move(units, path)
    if len(path) == 1:
        grid = game.scenario.map.grid
        for h, r in game.rules.reachable(game, units, explain=False).items():
            if grid.id(h) == path[0] and r.ok and r.path:
                return Move(units, tuple(r.path))
    return Move(units, (start, *path))
