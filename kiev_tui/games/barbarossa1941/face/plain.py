"""Barbarossa 1941 in plain line mode: its names and panels as lines of text, and a ``phase``
command that explains the phase with its cases.  No Textual is imported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.face import text
from kiev_tui.plain.face import PlainFace

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.plain.session import PlainSession


def cmd_phase(s: "PlainSession", args: list[str]) -> list[str]:
    """What this phase is for, the cases to read, and the weather per zone."""
    g = s.game
    cases = text.rules_cases(g)
    return [text.phase_help(g), text.weather_line(g)] + ([f"Cases: {', '.join(cases)}"] if cases else [])


class B41Plain(PlainFace):
    """Barbarossa 1941's names and panels for plain mode."""

    commands = {"phase": (cmd_phase, "phase", "what this phase is for, its rule cases and the weather", "phase")}

    def side_name(self, game: "Game", side: str) -> str:
        return text.side_name(side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return text.unit_name(game, uid)

    def phase_title(self, game: "Game", phase: str) -> str:
        return text.PHASE_TITLE.get(phase, phase.replace("_", " ").capitalize())

    def strength(self, game: "Game", uid: str) -> str:
        c, q, m = text.values(game, uid)
        return f"{c}-{q}-{m}"

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return text.stack_order(game, ids)

    def hex_lines(self, game: "Game", h: Hex) -> list[str]:
        return text.hex_lines(game, h)

    def unit_line(self, game: "Game", uid: str) -> str:
        return text.unit_line(game, uid, self._supply(game))

    def unit_lines(self, game: "Game", uid: str) -> list[str]:
        can = "may still act" if game.rules.can_act(game, uid) else "done for this phase"
        return [self.unit_line(game, uid), f"   {text.unit_kind(game, uid)}; {can}"]

    def tracker_lines(self, game: "Game") -> list[str]:
        return text.tracker_lines(game)

    def _supply(self, game: "Game") -> Any:
        memo = game.memo
        if "b41.face.supply" not in memo:
            memo["b41.face.supply"] = game.rules.supply(game)
        return memo["b41.face.supply"]


PLAIN = B41Plain()
