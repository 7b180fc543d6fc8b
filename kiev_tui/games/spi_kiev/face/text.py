"""What SPI Kiev's panels say, as plain strings: unit names and values, the hex and the unit
inspector, the turn tracker and the score.

Both faces say these: the Textual face (``present.py``, ``adapter.py``) and plain line mode
(``plain.py``).  Plain mode must start without Textual, so this module imports no Textual, no
Rich and none of the Textual face's modules (tests/test_plain.py checks it).
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.games.spi_kiev import directive, rail, strength, victory
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.face.glyphs import type_letter
from kiev_tui.games.spi_kiev.movement import movement_allowance, mp_spent
from kiev_tui.games.spi_kiev.state import kiev_vars
from kiev_tui.games.spi_kiev.strength import current_strength
from kiev_tui.games.spi_kiev.supply import Supply, SupplyStatus
from kiev_tui.ui import text as ui_text
from kiev_tui.ui.names import replace_ids

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

PHASE_TITLE = {MOVEMENT: "Movement", COMBAT: "Combat", MECHANIZED: "Mechanized movement"}
#: the tracker's short names, so a whole player-turn fits its 32 columns at 80x24
TRACKER_TITLE = {MOVEMENT: "move", COMBAT: "combat", MECHANIZED: "mech"}

__all__ = ["PHASE_TITLE", "current_strength", "directive_turns", "hex_lines", "inspector_lines", "inspector_unit",
           "mud_turns", "name_ids", "pick_mark", "play_lines", "score_line", "score_lines", "score_now_lines",
           "side_name", "stack_order", "steps_left", "strength_text", "supply_all", "supply_text", "tracker_lines",
           "turn_date", "turn_head", "unit_lines", "unit_name", "vp_text"]


# -- units -------------------------------------------------------------------------------------

def side_name(side: str) -> str:
    return "German" if side == GERMAN else "Soviet"


def unit_name(view: View, uid: str) -> str:
    """What a person calls a unit: "226 rifle XX", "untried rifle XX" (never its id)."""
    d = view.udef(uid)
    kind = d.type.replace("_", " ")
    size = d.size
    if kind.lower() == size.lower():
        kind = ""  # an HQ's type and size are both "HQ": say it once
    elif kind == "leader":
        size = ""  # a leader's counter carries the HQ size mark, but he is a leader, not an HQ
    if view.untried(uid):
        return f"untried {kind} {size}".strip()
    name = d.designation if kind.lower() in d.designation.lower() else f"{d.designation} {kind}"
    return " ".join(f"{name} {size}".split())


def name_ids(view: View, text: str) -> str:
    """`text` with every unit id in it replaced by that unit's name as the player knows it."""
    return replace_ids(view.game.scenario.catalog, text, lambda uid: unit_name(view, uid))


def steps_left(view: View, uid: str) -> int:
    return max(0, len(view.udef(uid).steps) - view.state.units[uid].step)


def strength_text(view: View, uid: str) -> str:
    if view.untried(uid):
        return "?-?"  # 13.0: nobody knows an untried unit's values until it fights
    a, d = current_strength(view, uid)
    return f"{min(a, 9)}-{min(d, 9)}"


def stack_order(view: View, ids: list[str]) -> list[str]:
    """Combat units first, strongest on top; HQs and leaders underneath."""
    def key(uid: str) -> tuple[bool, int, int, str]:
        a, d = current_strength(view, uid)
        return (view.is_hq_like(uid), -a, -d, uid)
    return sorted(ids, key=key)


def supply_all(view: View) -> dict[str, SupplyStatus]:
    sup = Supply(view)
    out: dict[str, SupplyStatus] = {}
    for side in (GERMAN, SOVIET):
        out.update(sup.all_status(side))
    return out


# -- the hex and unit inspector ------------------------------------------------------------------

_FEATURE_WORDS = (("major_river", "major river"), ("minor_river", "minor river"), ("lake", "lake"),
                  ("railroad", "rail"), ("road", "road"))


def hex_lines(view: View, h: Hex) -> list[str]:
    """The hex itself: number, name, terrain, owner, then each hexside feature and its sides.

    Features are grouped ("road N SE SW") rather than listed side by side: shorter, and two
    neighbouring hexes often share lines, so a cursor move rewrites less of the panel.
    """
    gmap = view.map
    by_feature: dict[str, list[str]] = {}
    for d in Direction:
        n = h.step(d)
        if gmap.on_map(n):
            for f in gmap.side_features(h, n):
                by_feature.setdefault(f, []).append(d.name)
    sides = [f"{word} {' '.join(by_feature[f])}" for f, word in _FEATURE_WORDS if f in by_feature]
    head = ui_text.hex_head(gmap, view.state.control, h, side_name)
    return [head] + (["  " + "; ".join(sides)] if sides else [])


def pick_mark(number: int | None, chosen: bool) -> str:
    """The two characters ahead of a unit in the inspector: its key (1-9) and '*' if chosen."""
    return (f"{number}" if number is not None and number <= 9 else " ") + ("*" if chosen else " ")


def _value(v: float | None) -> str:
    return "?" if v is None else f"{v:g}"


def fighting(view: View, ids: list[str]) -> tuple[dict[str, tuple[str, str]], str]:
    """What a stack fights with now, from the rules' own strength functions: each unit's attack
    and defence (integrity 20.0, supply 12.23, its hex's terrain 10.x but no river, which depends
    on where the attack comes from) and the stack's totals, rounded once as in a battle (9.32)."""
    if not ids:
        return {}, ""
    h = view.hex_of(ids[0])
    if h is None:
        return {}, ""
    sup = view.supply
    a_total, a_parts = strength.attack(view, sup, list(ids))
    d_total, d_parts = strength.defence(view, sup, h, [])
    att = {p.unit: _value(p.value) for p in a_parts}
    dfn = {p.unit: _value(p.value) for p in d_parts}
    per = {u: (att.get(u, "0"), dfn.get(u, "0")) for u in ids}
    total = (f"{strength.final(a_total, strength.has_strength(view, a_parts))}-"
             f"{strength.final(d_total, any(p.base for p in d_parts if p.base is not None))}")
    if any(view.untried(u) for u in ids):
        total += " + ?-?"  # 13.0: the untried units' values are unknown to both players
    return per, total


def supply_text(view: View, uid: str, s: SupplyStatus) -> str:
    """A unit's supply and (Soviet) command standing in a few words: "in supply, HQ AGSW"."""
    text = "in supply" if s.in_supply else "OUT OF SUPPLY"
    if view.side(uid) != GERMAN:
        if s.hq:
            text += f", HQ {view.udef(s.hq).designation}"
        elif not s.in_command:
            text += ", no HQ in range"
    return text


def _status_lines(view: View, uid: str, pad: str) -> list[str]:
    """What the unit did this turn, and where a German division's other regiments are (20.0)."""
    d = view.udef(uid)
    v = view.vars
    status = []
    if uid in v.stopped:
        status.append(f"stopped ({v.stop_case.get(uid, '8.21')})")
    elif uid in v.moved and uid not in v.active:
        status.append("has moved")
    if uid in v.railed:
        status.append("went by rail")
    if uid in v.attacked:
        status.append("has attacked")
    lines = [pad + ", ".join(status)] if status else []
    if d.division and view.side(uid) == GERMAN:
        partners = [u for u, ud in view.catalog.units.items() if ud.division == d.division and u != uid]
        if partners:
            where = []
            for p in sorted(partners):
                ph = view.hex_of(p)
                where.append(f"{view.udef(p).designation}@{ph if ph else view.state.units[p].status}")
            lines.append(f"{pad}division {d.division}: {', '.join(where)}")
    return lines


def unit_lines(view: View, uid: str, supply: dict[str, SupplyStatus], lead: str = "") -> list[str]:
    """One unit as plain mode lists it: identity; strengths, steps and movement; supply and
    command; then anything else.  ``lead`` goes ahead of the first line."""
    pad = "   "
    d = view.udef(uid)
    st = view.state.units[uid]
    kind = d.type.replace("_", " ")
    name = d.designation if kind in d.designation else f"{d.designation} {kind}"  # "untried rifle", once
    lines = [f"{lead}{type_letter(d.type, view.side(uid))} {name} {d.size}".rstrip()]
    ma = movement_allowance(view, uid)
    move = f"MA {ma} MP {max(0.0, ma - mp_spent(view, uid)):g}"
    if view.untried(uid):
        lines.append(f"{pad}untried ?-? (13.0); {move}")
    else:
        a, df = current_strength(view, uid)
        fa, fd = d.steps[0]
        revealed = " revealed" if st.face is not None else ""
        lines.append(f"{pad}{a}-{df} of {fa}-{fd}, {steps_left(view, uid)}/{len(d.steps)} steps{revealed}; {move}")
    s = supply.get(uid)
    if s is not None:
        lines.append(pad + supply_text(view, uid, s))
        if s.why and not s.in_supply:
            lines.append(f"{pad}({s.why})")
    return lines + _status_lines(view, uid, pad)


def inspector_unit(view: View, uid: str, lead: str, fights: tuple[str, str], supply: str | None) -> list[str]:
    """One unit of the inspector in two lines (a unit that did something this turn, or a German
    regiment, has more): what its counter says, then steps, movement points if some are spent,
    what it fights with now and, where the stack's units differ in it, its supply.

    At full strength the counter's own attack-defence-movement stands alone ("4-4-6", then
    "2 steps"); a unit that lost a step adds its full values and total steps ("2-2-6 of 4-4",
    then "1/2 steps").  The unit's movement allowance is the third figure, so the MP left are
    said only once some are spent.
    """
    d = view.udef(uid)
    st = view.state.units[uid]
    kind = d.type.replace("_", " ")
    name = d.designation if kind in d.designation else f"{d.designation} {kind}"  # "untried rifle", once
    ma = movement_allowance(view, uid)
    spent = mp_spent(view, uid)
    if view.untried(uid):
        counter, steps = f"?-?-{ma}", "untried (13.0)"  # nobody knows its values or steps until it fights
    else:
        a, df = current_strength(view, uid)
        fa, fd = d.steps[0]
        left, total = steps_left(view, uid), len(d.steps)
        if left == total and (a, df) == (fa, fd):
            counter, steps = f"{a}-{df}-{ma}", f"{left} step{'s' if left != 1 else ''}"
        else:
            counter, steps = f"{a}-{df}-{ma} of {fa}-{fd}", f"{left}/{total} steps"
        if st.face is not None:
            steps += ", revealed"
    parts = [steps]
    if spent:
        parts.append(f"{max(0.0, ma - spent):g} MP left")
    parts.append(f"fights {fights[0]}-{fights[1]}")
    if supply is not None:
        parts.append(supply)
    return [f"{lead}{type_letter(d.type, view.side(uid))} {name} {d.size} {counter}",
            "  " + ", ".join(parts)] + _status_lines(view, uid, "  ")


def _feature_lines(view: View, h: Hex) -> list[str]:
    """The hexside features in exactly two lines (water, then ways; blank where there is less):
    the stack below then starts on the same row for every hex, so a move between two stacks
    rewrites only what differs, and the features stay put when a stack comes or goes."""
    _, *sides = hex_lines(view, h)
    if not sides:
        return ["", ""]
    groups = sides[0].strip().split("; ")
    water = [g for g in groups if not g.startswith(("rail ", "road "))]
    ways = [g for g in groups if g.startswith(("rail ", "road "))]
    lines = ["  " + "; ".join(part) for part in (water, ways) if part]
    return lines + [""] * (2 - len(lines))


def inspector_lines(view: View, h: Hex, supply: dict[str, SupplyStatus], chosen: tuple[str, ...] = ()) -> list[str]:
    """The hex under the cursor: its head line, its hexside features in two lines, then the
    stack, its side and what it fights with now (with the supply of its units when they share
    it), then unit by unit (keys 1-9 pick units) in two lines each.

    Fields keep their places from hex to hex, and nothing is said twice, so moving the cursor
    rewrites few cells: the features do not move when a stack comes or goes, and two stacks
    side by side differ only in their numbers and names (docs/PERFORMANCE.md, issue 33).
    """
    head = hex_lines(view, h)[0]
    ids = stack_order(view, view.at(h))
    features = _feature_lines(view, h)
    if not ids:
        while features and not features[-1]:
            features.pop()  # trailing blank lines draw nothing
        return [head, *features]
    per, total = fighting(view, ids)
    said = {(supply_text(view, u, supply[u]), supply[u].why) if u in supply else None for u in ids}
    shared = said.pop() if len(said) == 1 else None
    top = f"{side_name(view.side(ids[0]))}: fights {total}"
    lines = [head, *features]
    if shared is not None:
        text, why = shared
        lines.append(f"{top}, {text}")
        if why and not all(supply[u].in_supply for u in ids):
            lines.append(f"  ({why})")
    else:
        lines.append(top)
    for n, uid in enumerate(ids, 1):
        own = None if shared is not None or uid not in supply else supply_text(view, uid, supply[uid])
        lines.extend(inspector_unit(view, uid, pick_mark(n, uid in chosen), per.get(uid, ("?", "?")), own))
        s = supply.get(uid)
        if shared is None and s is not None and s.why and not s.in_supply:
            lines.append(f"  ({s.why})")
    return lines


# -- the turn tracker ------------------------------------------------------------------------------

def turn_date(game: "Game", turn: int) -> str:
    start = game.scenario.params.get("start_date")
    if not start:
        return ""
    try:
        d = _dt.date.fromisoformat(str(start)) + _dt.timedelta(days=int(game.scenario.params.get("days_per_turn", 2)) * (turn - 1))
    except ValueError:
        return ""
    return d.strftime("%d %b %Y").lstrip("0")


def mud_turns(game: "Game") -> set[int]:
    return set(game.scenario.params.get("mud_turns", []))


def directive_turns(game: "Game") -> set[int]:
    """Turns the directive is known to hold: the fixed ones, and those already rolled in force."""
    known = {t for t, on in kiev_vars(game.state).directive.items() if on}
    return known | set(directive.settings(game)["automatic_turns"])


def turn_head(game: "Game") -> str:
    """"Turn 3 of 10, 30 Aug 1941 (mud)": the first line of either face's tracker."""
    st = game.state
    date = turn_date(game, st.turn)
    mud = " (mud)" if st.turn in mud_turns(game) else ""
    return f"Turn {st.turn} of {game.scenario.turns}" + (f", {date}" if date else "") + mud


def vp_text(game: "Game") -> str:
    """The victory points as they would stand if the game ended now (24.0), on one line."""
    sc = victory.score(game.rules.position(game), final=False)
    return f"VP: German {sc.german}, Soviet {sc.soviet}"


def score_line(game: "Game") -> str:
    """The tracker's score line, with the key that opens the full score."""
    return vp_text(game) + " (v)"


def play_lines(game: "Game", score: str) -> list[str]:
    """Below the turn: the phases, the ``score`` line, the directive and rail use; or the end."""
    st = game.state
    if st.over:
        return ["The game is over."]
    lines = [ui_text.phase_line(side_name(st.player), game.phase.phases, st.phase, lambda p: PHASE_TITLE.get(p, p)),
             score]  # high up: the narrow tracker shows only its first lines
    if directive.in_force(game) and st.player != GERMAN:
        lines.append("Stalin's Directive is in force (22.0)")
    if st.phase == MOVEMENT and st.player != GERMAN:
        used, limit = rail.capacity(game.rules.position(game))
        lines.append(f"Rail: {used}/{limit} units used this turn")
    return lines


def tracker_lines(game: "Game") -> list[str]:
    """The Textual tracker: the turn, a row of turn numbers with mud and directive marks under
    them, the phases, the score, and what is waiting or still to do."""
    st = game.state
    turns = game.scenario.turns
    mud = mud_turns(game)
    dirs = directive_turns(game)
    nums, mud_row, dir_row = "", "", ""
    for t in range(1, turns + 1):
        cell = (">" if t == st.turn else " ") + str(t)
        nums += cell
        pad = " " * (len(cell) - 1)
        mud_row += pad + ("M" if t in mud else " ")
        dir_row += pad + ("S" if t in dirs else " ")
    played = play_lines(game, score_line(game))
    if not st.over:  # the whole game-turn (sequence.toml) after the score, which the narrow tracker keeps
        played[:2] = [played[1], *ui_text.sequence_lines(game, side_name, lambda p: TRACKER_TITLE.get(p, p), "{}: ")]
    # the phases and the score first: a short window (80x24) keeps only the tracker's first lines
    lines = [turn_head(game), *played, nums, mud_row.rstrip() or " ", dir_row.rstrip() or " ",
             "(M mud, S Stalin's Directive)"]
    if st.over:
        return lines
    if st.pending is not None:
        lines.append(f"WAITING for the {side_name(str(st.pending.get('side', '')))} player:")
    for item in game.phase.todo:
        lines.append(f"- {item}")
    return lines


# -- the score -----------------------------------------------------------------------------------

def score_now_lines(view: View) -> list[str]:
    """The score during play: points per side and why, who holds each city and town, losses.
    Blank lines part the groups (plain mode leaves them out)."""
    sc = victory.score(view, final=False)
    lines = [sc.summary(), "(Soviet units still out of supply at the end also count for the German: 24.3)", ""]
    for side in (GERMAN, SOVIET):
        lines.append(f"{side_name(side)} points: {getattr(sc, side)}")
        lines.extend(f"  {pts:>4}  {name_ids(view, named)}"  # units by name, not designation
                     for (s, _, pts), named in zip(sc.lines, sc.named) if s == side)
    lines += ["", "Cities and towns:"]
    vic = view.game.scenario.victory
    special = {str(k): int(v) for k, v in vic.get("special_hexes", {}).items()}
    gmap = view.map
    for h, kind in sorted(gmap.settlements().items()):
        pts = special.get(str(h), int(vic.get("city", 10)) if kind == "city" else int(vic.get("town", 5)))
        owner = view.state.control.get(str(h))
        held = f"{side_name(owner)}, {pts} VP" if owner else f"nobody, {pts} VP"
        lines.append(f"  {h} {gmap.name(h) or ''} ({kind}): {held}".replace("  (", " ("))
    lines.append("")
    for side in (GERMAN, SOVIET):
        gone = [u for u, us in view.state.units.items() if us.status == "eliminated" and view.side(u) == side]
        lines.append(f"{side_name(side)} units eliminated: {len(gone)}")
        if gone:
            lines.append("  " + ", ".join(unit_name(view, u) for u in sorted(gone)))
    return lines


def score_lines(score: dict[str, Any]) -> list[str]:
    """The final score as recorded when the game ended: points and why, the margin, the winner.
    A blank line sets off the verdict (plain mode leaves it out)."""
    lines = []
    for side in (GERMAN, SOVIET):
        lines.append(f"{side_name(side)} points: {score.get(side, 0)}")
        for line in score.get("lines", []):
            if line.get("side") == side:
                lines.append(f"  {line.get('points', 0):>4}  {line.get('what', '')}")
    margin = score.get("margin", 0)
    lead = int(score.get("german", 0)) - int(score.get("soviet", 0))
    lines.append("")
    lines.append(f"The German player needed a lead of {margin} points and has {lead}.")
    winner = score.get("winner", "")
    lines.append(f"{side_name(winner).upper()} VICTORY" if winner else "No winner recorded.")
    return lines
