"""Barbarossa 1941's presentation adapter: how the Textual face names, draws and explains it.

The registry finds ``ADAPTER`` by convention (``games/barbarossa1941/face/adapter.py``).  It is
``DefaultAdapter`` with this game's names, map symbols, supply marks, panels and help: play
(selecting, moving, the ``C`` list of attacks and overruns, prompts) is the generic screen's.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.face import text
from kiev_tui.games.barbarossa1941.face.glyphs import B41_SYMBOLS
from kiev_tui.ui.adapter import DefaultAdapter, Overlay, map_rows
from kiev_tui.ui.glyphs import Glyphs, MapSymbols
from kiev_tui.ui.hexmap import HexLook, parse_hex

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.rules import Schema


class B41Adapter(DefaultAdapter):
    """Barbarossa 1941 on screen: Axis capitals and Soviet small letters, combat-movement on the
    counter, isolated stacks marked, the weather per zone in the tracker, help naming the cases."""

    # -- names ------------------------------------------------------------------------------
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
        """What the map prints under the letter: combat and movement, the counter's outer numbers."""
        c, _, m = text.values(game, uid)
        return c, m

    def steps_left(self, game: "Game", uid: str) -> int:
        return text.steps_left(game, uid)

    # -- the map ------------------------------------------------------------------------------
    def map_symbols(self, schema: "Schema") -> MapSymbols:
        return B41_SYMBOLS

    def supply(self, game: "Game") -> Any:
        return game.rules.supply(game)

    def hex_looks(self, game: "Game", supply: Any, overlay: Overlay, glyphs: Glyphs) -> dict[Hex, HexLook]:
        looks = super().hex_looks(game, supply, overlay, glyphs)
        gmap = game.scenario.map
        for uid, u in game.state.units.items():
            if u.status != "map" or not u.hex or not text.supply_word(supply, uid):
                continue
            h = parse_hex(gmap, u.hex)
            look = looks.get(h)
            if look is not None:
                looks[h] = dataclasses.replace(look, mark=glyphs.oos)  # isolated or cut off (8)
        return looks

    def legend(self, game: "Game", glyphs: Glyphs) -> list[tuple[str, str]]:
        return map_rows(game.scenario.map, glyphs, B41_SYMBOLS) + [
            ("P6-4", "top unit of a stack: type letter, then combat-movement as on the counter"),
            ("I G P C M S A", "capital letters, Axis: infantry, mountain, panzer, cavalry, mobile, "
                              "security, airborne; W air corps, F fort"),
            ("r s m c g o", "small letters, Soviet: army, shock army, mechanized, cavalry, mobile group, "
                            "operational group; a airborne, l militia, q partisans, w air, f fort, n fleet"),
            (glyphs.oos, "marker: a unit there is isolated or out of supply (8)"),
            ("+", "in the mark cell: an Axis rail marker (10.3)"),
            (glyphs.reach + "3", "the selected stack can reach this hex for 3 MP"),
            (glyphs.path + "3", "on the path to the cursor (3 MP so far)"),
            ("reverse", "the cursor: the inside of its hex in reverse video"),
            ("(    )", "the selected stack, or an attacker"),
        ]

    # -- the panels -----------------------------------------------------------------------------
    def inspector_lines(self, game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...]) -> list[str]:
        return text.inspector_lines(game, h, supply, chosen)

    def tracker_lines(self, game: "Game") -> list[str]:
        lines = text.tracker_lines(game)
        pending = self.pending(game)
        if pending is not None:
            lines.append(f"WAITING for the {self.side_name(game, pending.side)} player:")
        lines.extend(f"- {self.name_ids(game, item)}" for item in game.phase.todo)
        return lines

    def phase_help(self, game: "Game") -> str:
        from kiev_tui.ui.adapter import DEFAULT_KEYS

        return text.phase_help(game) + "\n\n  C                    the attacks, overruns and other choices " \
                                       "the rules allow now\n" + DEFAULT_KEYS

    def rules_cases(self, game: "Game") -> list[str]:
        return text.rules_cases(game)

    def score_now(self, game: "Game") -> tuple[str, list[str]]:
        return "Score as it stands (13)", [line.replace("_", " ") for line in self._score_lines(game)]

    def final_score(self, game: "Game") -> tuple[str, list[str]]:
        return "FINAL SCORE (13)", [line.replace("_", " ") for line in self._score_lines(game)]

    def goto_prompt(self, game: "Game") -> tuple[str, str]:
        return "Go to hex: four digits (e.g. 1415) or a place name (Smolensk)", "1415"


ADAPTER = B41Adapter()
"""Barbarossa 1941 for the Textual face; ``plain.py`` is its plain-mode twin."""
