"""Kiev to Rostov in plain line mode: its names and panels as text, a ``phase`` command with the
cases, and commands that list and play what the generic mode could only take as ``do KIND
key=value``: ``act`` (every listed choice), ``declare``, ``attack``, ``overrun``, ``activate``,
``interdict`` and ``cadre``.  No Textual is imported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.actions import Action
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.face import text
from kiev_tui.plain.face import PlainFace

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.plain.session import PlainSession


def cmd_phase(s: "PlainSession", args: list[str]) -> list[str]:
    """What this phase is for and the cases to read."""
    cases = text.rules_cases(s.game)
    return [text.phase_help(s.game)] + ([f"Cases: {', '.join(cases)}"] if cases else [])


def _about(action: Action) -> str:
    """The hex (or unit) a listed action is about, for picking it by a word."""
    a: Any = action
    for name in ("hex", "target", "unit", "hq"):
        if hasattr(a, name):
            return str(getattr(a, name))
    return ""


def _list(s: "PlainSession", kind: str | None) -> list[tuple[str, Action]]:
    return [(label, act) for label, act in text.choices(s.game, s.seat) if kind is None or act.kind == kind]


def _act(s: "PlainSession", args: list[str], kind: str | None, usage: str) -> list[str]:
    """List the choices (of ``kind``), or play the one numbered N or about the hex/unit given."""
    items = _list(s, kind)
    if not args:
        if not items:
            return ["Nothing of that kind is allowed now." if kind else "Nothing to choose now."]
        head = f"Allowed now ('{usage}'):"
        return [head] + [f"  {i}. {s.face.name_ids(s.game, label)}" for i, (label, _) in enumerate(items, 1)]
    word = args[0]
    if word.isdigit() and len(word) <= 3:
        n = int(word)
        if not 1 <= n <= len(items):
            return [f"Usage: {usage}, N from 1 to {len(items)}" if items else "Nothing of that kind is allowed now."]
        return s.play(items[n - 1][1])
    found = [act for _, act in items if _about(act) == word]
    if not found:
        return [f"Nothing allowed about {word} now ('{usage.split()[0]}' alone lists what is)."]
    return s.play(found[0])


def _command(kind: str | None, usage: str, helptext: str, example: str) -> tuple[Any, ...]:
    def handler(s: "PlainSession", args: list[str]) -> list[str]:
        return _act(s, args, kind, usage)

    return (handler, usage, helptext, example)


class EfsPlain(PlainFace):
    """Kiev to Rostov's names, panels and commands for plain mode."""

    commands = {
        "phase": (cmd_phase, "phase", "what this phase is for and its rule cases", "phase"),
        "act": _command(None, "act [N]", "list every declare, attack, overrun, activation, interdiction, "
                        "Cadre Box send or waiting answer allowed now; 'act N' plays one", "act 1"),
        "declare": _command("declare", "declare [N|HEX]", "declare an attack on an enemy hex (12.35)",
                            "declare 1508"),
        "attack": _command("attack", "attack [N|HEX]", "make a declared attack, with all artillery "
                           "that may fire first (15.2, 15.4)", "attack 1508"),
        "overrun": _command("overrun", "overrun [N|HEX]", "overrun an adjacent enemy hex (11.4)", "overrun 1508"),
        "activate": _command("activate", "activate [N|UNIT]", "a Soviet HQ activates a unit (10.24c)",
                             "activate 1"),
        "interdict": _command("interdict", "interdict [N|HEX]", "fly an interdiction mission (13.12)",
                              "interdict 1503"),
        "disband": _command("disband", "disband [N|UNIT]", "disband a Non-Op Soviet HQ in the interphase "
                            "(22.26b)", "disband 1"),
        "cadre": _command("to_cadre", "cadre [N|UNIT]", "send an overstacked unit to the Cadre Box (3.32)",
                          "cadre 1"),
    }

    def side_name(self, game: "Game", side: str) -> str:
        return text.side_name(side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return text.unit_name(game, uid)

    def phase_title(self, game: "Game", phase: str) -> str:
        return text.PHASE_TITLE.get(phase, phase.replace("_", " ").capitalize())

    def strength(self, game: "Game", uid: str) -> str:
        a, df, m = text.values(game, uid)
        return f"{a}-{df}-{m}"

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return text.stack_order(game, ids)

    def hex_lines(self, game: "Game", h: Hex) -> list[str]:
        return text.hex_lines(game, h)

    def unit_line(self, game: "Game", uid: str) -> str:
        return text.unit_line(game, uid)

    def unit_lines(self, game: "Game", uid: str) -> list[str]:
        can = "may still act" if game.rules.can_act(game, uid) else "done for this phase"
        return [self.unit_line(game, uid), f"   {text.unit_kind(game, uid)}; {can}"]

    def tracker_lines(self, game: "Game") -> list[str]:
        return text.tracker_lines(game)

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> Any:
        """10.4: the rules want the path from the stack's own hex; a player types the hexes after
        it, or just the end hex (then the cheapest path the rules find there is taken)."""
        return text.move_action(game, units, path)


PLAIN = EfsPlain()
