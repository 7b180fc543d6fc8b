"""Kiev's presentation adapter: how the Textual face names, draws and explains SPI Kiev.

The registry (`kiev_tui.games`) hands `ADAPTER` to the face; the generic game screen asks it
everything game-specific, and plays on `KievGameScreen`, which adds Kiev's own commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import acting, reinforcements
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.face import present, text
from kiev_tui.games.spi_kiev.face.glyphs import KIEV_SYMBOLS, legend, type_letter
from kiev_tui.games.spi_kiev.face.help import RULES_BY_PHASE, phase_help
from kiev_tui.games.spi_kiev.state import kiev_vars
from kiev_tui.later import later
from kiev_tui.ui.adapter import DefaultAdapter, Overlay
from kiev_tui.ui.glyphs import Glyphs, MapSymbols
from kiev_tui.ui.hexmap import HexLook

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.rules import Schema
    from kiev_tui.ui.game_screen import GameScreen


def _view(game: "Game") -> View:
    return game.rules.position(game)  # type: ignore[no-any-return]


class KievAdapter(DefaultAdapter):
    """SPI Kiev on screen: German capitals and Soviet small letters, supply marks, its help and cases."""

    def screen_class(self) -> "type[GameScreen]":
        from kiev_tui.games.spi_kiev.face.screen import KievGameScreen

        return KievGameScreen

    # -- names ------------------------------------------------------------------------------
    def side_name(self, game: "Game", side: str) -> str:
        return text.side_name(side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return text.unit_name(_view(game), uid)

    def name_ids(self, game: "Game", engine_text: str) -> str:
        return text.name_ids(_view(game), engine_text)

    def type_letter(self, game: "Game", unit_type: str, side: str) -> str:
        return type_letter(unit_type, side)

    def first_side(self, game: "Game") -> str:
        return GERMAN

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return text.stack_order(_view(game), ids)

    # -- the map and panels -----------------------------------------------------------------
    def supply(self, game: "Game") -> Any:
        return text.supply_all(_view(game))

    def hex_looks(self, game: "Game", supply: Any, overlay: Overlay, glyphs: Glyphs) -> dict[Hex, HexLook]:
        return present.hex_looks(_view(game), supply, overlay, glyphs)

    def map_symbols(self, schema: "Schema") -> MapSymbols:
        return KIEV_SYMBOLS

    def legend(self, game: "Game", glyphs: Glyphs) -> list[tuple[str, str]]:
        return legend(glyphs)

    def inspector_lines(self, game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...]) -> list[str]:
        return text.inspector_lines(_view(game), h, supply, chosen)

    def tracker_lines(self, game: "Game") -> list[str]:
        return text.tracker_lines(game)

    def phase_title(self, game: "Game", phase: str) -> str:
        return text.PHASE_TITLE.get(phase, phase)

    def phase_help(self, game: "Game") -> str:
        return phase_help(game.state.phase)

    rules_cases = later("kiev_tui.games.spi_kiev.face.adapter_more")

    def goto_prompt(self, game: "Game") -> tuple[str, str]:
        return "Go to hex: four digits (e.g. 0319) or a place name", "0319"

    # -- play -------------------------------------------------------------------------------
    def can_move(self, game: "Game", uid: str) -> bool:
        # a stack held in an enemy zone may still be selected: it may overrun (6.0, 8.23)
        return acting.can_move(_view(game), uid, zoc=False)

    def actors(self, game: "Game") -> list[Hex]:
        return present.actors(_view(game))

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> "Action":
        return Move(units, path)

    end_phase_notes = later("kiev_tui.games.spi_kiev.face.adapter_more")
    score_now = later("kiev_tui.games.spi_kiev.face.adapter_more")
    final_score = later("kiev_tui.games.spi_kiev.face.adapter_more")


ADAPTER = KievAdapter()
