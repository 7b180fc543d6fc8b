"""The text any game gets from its ``RuleSystem`` alone: unit names, values, the hex line, the
phase line and the score, as both faces say them.

The Textual face (``DefaultAdapter``) and plain line mode (``PlainFace``) both call these, so
the two never drift apart.  Plain mode must start without Textual: this module imports no
Textual, no Rich and none of the Textual face's modules (tests/ui/test_ui_knows_no_game.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from kiev_tui.engine.rules import turn_label
from kiev_tui.ui.names import replace_ids  # regular expressions only
from kiev_tui.later import handed_out

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.mapdata import GameMap


def side_name(game: "Game", side: str) -> str:
    """The side as the game's schema names it."""
    return str(game.rules.schema.side_name(side))


def unit_name(game: "Game", uid: str) -> str:
    """Designation, type and size ("226 rifle XX"): the type once if the designation has it."""
    d = game.scenario.catalog.units.get(uid)
    if d is None:
        return uid
    kind = str(d.type).replace("_", " ")
    name = d.designation if kind.lower() in str(d.designation).lower() else f"{d.designation} {kind}"
    return " ".join(f"{name} {getattr(d, 'size', '')}".split())


class GenericNames:
    """How any game's face names sides, units and phases from the rule system alone.  Both
    faces' defaults inherit it (``DefaultAdapter``, ``PlainFace``); a game's face overrides."""

    def side_name(self, game: "Game", side: str) -> str:
        return side_name(game, side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return unit_name(game, uid)

    def name_ids(self, game: "Game", text: str) -> str:
        """Engine text (events, refusals, prompts) with unit ids turned into names."""
        return replace_ids(game.scenario.catalog, text, lambda uid: self.unit_name(game, uid))

    def phase_title(self, game: "Game", phase: str) -> str:
        return phase_title(phase)


def strength(game: "Game", uid: str) -> tuple[int, int]:
    """The unit's attack and defence at the step it is on."""
    d = game.scenario.catalog.units[uid]
    steps = tuple(getattr(d, "steps", ()) or ((0, 0),))
    return steps[min(game.state.units[uid].step, len(steps) - 1)]  # type: ignore[no-any-return]


def steps_left(game: "Game", uid: str) -> int:
    steps = tuple(getattr(game.scenario.catalog.units[uid], "steps", ()) or ())
    return max(0, len(steps) - game.state.units[uid].step)


def stack_order(game: "Game", ids: list[str],
                values: Callable[[str], tuple[int, int]] | None = None) -> list[str]:
    """A stack top first: the strongest unit (attack, then defence), ties by id.  ``values``:
    a face's own reading of a unit's strength (an adapter subclass may override it)."""
    def key(uid: str) -> tuple[int, int, str]:
        a, d = values(uid) if values is not None else strength(game, uid)
        return (-a, -d, uid)

    return sorted(ids, key=key)


def turn_line(game: "Game") -> str:
    """The tracker's first line: "Turn 3 of 10", or with the game's own numbering (the rules'
    ``turn_label``) "Game-turn 50 (turn 1 of 4)"."""
    n, total = game.phase.turn, game.scenario.turns
    if getattr(game.rules, "turn_label", None) is None:
        return f"Turn {n} of {total}"
    return f"{turn_label(game, n)} (turn {n} of {total})"


def phase_title(phase: str) -> str:
    return phase.replace("_", " ").capitalize()


def hex_head(gmap: "GameMap", control: Mapping[str, str], h: "Hex", side_name: Callable[[str], str]) -> str:
    """One line for a hex: its id, place name and kind, terrain, and the side that holds it."""
    hid = gmap.grid.id(h)
    head = f"Hex {hid}"
    name, kind = gmap.name(h), gmap.settlement(h)
    if name:
        head += f" {name}"
    if kind:
        head += f" ({kind})"
    head += f", {gmap.terrain(h)}"
    owner = control.get(hid)
    if owner:
        head += f"; {side_name(owner)}-held"
    return head


def phase_line(player: str, phases: Sequence[str], current: str, title: Callable[[str], str]) -> str:
    """The side's phases in order, the current one in capitals: "Axis player: [MOVE] > combat"."""
    steps = [f"[{title(p).upper()}]" if p == current else title(p).lower() for p in phases]
    return f"{player} player: " + " > ".join(steps)


# -- the sequence of play (engine/sequence.py): the whole game-turn, for trackers -------------------

def sequence_lines(game: "Game", side_name: Callable[[str], str], title: Callable[[str], str],
                   head: str = "{} player: ") -> list[str]:
    """One line per segment of the game-turn, the current phase in capitals and brackets, and the
    acting side after a phase that is not the phasing side's: "Axis: [MOVEMENT] > dig in (Allies)".
    A phase that does not run this turn is in parentheses ("(mechanized)"), one that never runs in
    this game is left out; a segment nobody plays (an interphase) is one line: "then: end of turn"."""
    from kiev_tui.engine import sequence

    if getattr(game.rules, "sequence", None) is None:
        ph = game.phase
        return [phase_line(side_name(ph.phasing), ph.phases, ph.name, title)]
    here = sequence.current(game)
    ever = {(s.segment, s.phase) for t in range(1, game.scenario.turns + 1) for s in sequence.turn_steps(game, t)}
    lines: list[str] = []
    for seg, phasing, rows in sequence.data_for_tracker(game):
        if not rows:
            lines.append(f"then: {seg.name.lower()}")
            continue
        parts: list[str] = []
        for ph, owners, runs in rows:
            if (seg.id, ph.id) not in ever:
                continue
            name = title(ph.id)
            text = f"[{name.upper()}]" if (seg.id, ph.id) == (here.segment, here.phase) else name.lower()
            if not runs:
                text = f"({text})"
            elif owners != (phasing,):
                text += " (" + "+".join(side_name(o) for o in owners) + ")"
            parts.append(text)
        if not parts:  # none of its phases can run in this game now: an interphase line again
            lines.append(f"then: {seg.name.lower()}")
            continue
        lines.append((head.format(side_name(phasing)) if phasing else f"{seg.name}: ") + " > ".join(parts))
    return lines


# -- what the generic faces offer besides moving and ending the phase (C, "choose") -----------------

def _on_map(game: "Game", action: "Action") -> bool:
    """Whether every unit the action names stands on a map hex (an arrival does not yet)."""
    units = getattr(action, "units", ())
    states = game.state.units
    return all(u in states and states[u].hex is not None for u in units)


#: Functions written in text_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'choices', 'score_lines', 'action_text'})


__getattr__ = handed_out(__name__, "kiev_tui.ui.text_more", _LATER)
