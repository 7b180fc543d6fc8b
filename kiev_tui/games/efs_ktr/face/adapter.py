"""Kiev to Rostov's presentation adapter (EFS; Battle of Sumy) for the Textual face.

The registry finds ``ADAPTER`` by convention (``games/efs_ktr/face/adapter.py``).  It is
``DefaultAdapter`` with this game's names, map symbols, panels and help, and a screen whose ``C``
list offers what the generic one cannot (the rules' ``options`` are only the chain's answers):
declares, attacks, overruns, HQ activations, interdictions and Cadre Box sends, from
``text.choices`` (the rules' ``legal``), so nobody types ``do KIND key=value``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.efs_ktr.face import text
from kiev_tui.games.efs_ktr.face.glyphs import EFS_SYMBOLS
from kiev_tui.ui.adapter import DefaultAdapter, map_rows
from kiev_tui.ui.glyphs import Glyphs, MapSymbols

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.rules import Schema
    from kiev_tui.ui.game_screen import GameScreen


def efs_screen() -> "type[GameScreen]":
    """The generic game screen whose C list is the face's (built lazily: Textual only here)."""
    from kiev_tui.ui.dialogs import PickScreen
    from kiev_tui.ui.game_screen import GameScreen

    class EfsGameScreen(GameScreen):
        """C lists every declare, attack, overrun, activation, interdiction and Cadre Box send
        the rules allow the player at the keyboard, and a waiting answer of that player."""

        def action_choose(self) -> None:
            if self._handing_off:
                return  # behind the hand-off screen nobody's choices show
            if self.game.actor != self.seat:
                self.say("Nothing to choose now: the other player acts")
                return
            items = [(self.name_ids(label), act) for label, act in text.choices(self.game, self.seat)]
            if not items:
                self.say("Nothing to choose now")
                return

            def done(action: Any) -> None:
                if action is not None and self.play(action):
                    self.call_after_refresh(self.check_pending)  # an attack's chain asks at once

            self.app.push_screen(PickScreen("Choose (each line ends with the case that allows it)", items), done)

    return EfsGameScreen


class EfsAdapter(DefaultAdapter):
    """Kiev to Rostov on screen: Axis capitals and Soviet small letters with attack-defence, steps
    of three- and four-step units, stacking points, MP spent, markers, boxes, help by case."""

    _screen: "type[GameScreen] | None" = None

    def screen_class(self) -> "type[GameScreen]":
        if EfsAdapter._screen is None:
            EfsAdapter._screen = efs_screen()
        return EfsAdapter._screen

    # -- names --
    def side_name(self, game: "Game", side: str) -> str:
        return text.side_name(side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return text.unit_name(game, uid)

    def type_letter(self, game: "Game", unit_type: str, side: str) -> str:
        return text.type_letter(unit_type, side)

    def first_side(self, game: "Game") -> str:
        return text.AXIS

    def phase_title(self, game: "Game", phase: str) -> str:
        return text.PHASE_TITLE.get(phase, phase.replace("_", " ").capitalize())

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return text.stack_order(game, ids)

    def strength(self, game: "Game", uid: str) -> tuple[int, int]:
        a, df, _ = text.values(game, uid)
        return a, df

    def steps_left(self, game: "Game", uid: str) -> int:
        return text.steps_left(game, uid)

    # -- the map --
    def map_symbols(self, schema: "Schema") -> MapSymbols:
        return EFS_SYMBOLS

    def legend(self, game: "Game", glyphs: Glyphs) -> list[tuple[str, str]]:
        return map_rows(game.scenario.map, glyphs, EFS_SYMBOLS) + [
            ("A6-5", "top unit of a stack: type letter, then attack-defence on its present step"),
            ("A M R I G W", "capitals, Axis: armour, motorized, reconnaissance, infantry, artillery (G), air"),
            ("r c t m g k h", "small letters, Soviet: rifle, cavalry, tank, motorized, artillery, "
                              "anti-aircraft (k), HQ"),
            ("!", "in the mark cell: a Declared Attack marker (12.35)"),
            (glyphs.reach + "3", "the selected stack can reach this hex for 3 MP"),
            (glyphs.path + "3", "on the path to the cursor (3 MP so far)"),
            ("reverse", "the cursor: the inside of its hex in reverse video"),
            ("(    )", "the selected stack, or an attacker"),
        ]

    # -- the panels --
    def inspector_lines(self, game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...]) -> list[str]:
        return text.inspector_lines(game, h, chosen)

    def tracker_lines(self, game: "Game") -> list[str]:
        lines = text.tracker_lines(game)
        pending = self.pending(game)
        if pending is not None:
            lines.append(f"WAITING for the {self.side_name(game, pending.side)} player:")
        lines.extend(f"- {self.name_ids(game, item)}" for item in game.phase.todo)
        return lines

    def phase_help(self, game: "Game") -> str:
        from kiev_tui.ui.adapter import DEFAULT_KEYS

        return (text.phase_help(game) + "\n\n  C                    declare, attack, overrun, activate, interdict, "
                "send to the Cadre Box: what the rules allow now\n" + DEFAULT_KEYS)

    def rules_cases(self, game: "Game") -> list[str]:
        return text.rules_cases(game)

    def score_now(self, game: "Game") -> tuple[str, list[str]]:
        return "Score as it stands (PB 10.45)", [text.score_line(game), *self._score_lines(game)]

    def final_score(self, game: "Game") -> tuple[str, list[str]]:
        return "FINAL SCORE (PB 10.45)", [text.score_line(game), *self._score_lines(game)]

    def goto_prompt(self, game: "Game") -> tuple[str, str]:
        return "Go to hex: four digits (e.g. 1402) or a place name (Sumy)", "1402"


ADAPTER = EfsAdapter()
"""Kiev to Rostov for the Textual face; ``plain.py`` is its plain-mode twin."""
