"""Issue 35, the Textual face: what a player still tripped over (one test per finding)."""

from __future__ import annotations

from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import Choices
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import keys, screen_text
from tests.ui.test_ui_newcomer_b import attack_game, plan_attack, press

SIZE = (120, 40)


# -- 1: the advance dialog -------------------------------------------------------------------

async def test_enter_on_the_first_way_advances_every_ticked_unit() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R", "enter")
        assert game.state.pending["kind"] == "advance"
        assert isinstance(app.screen, PendingScreen)
        await keys(pilot, "enter")  # the first way is highlighted: Enter takes it
        assert game.state.pending is None
        assert (game.state.units["ge-inf-1"].hex, game.state.units["ge-inf-2"].hex) == ("0404", "0404")
        assert isinstance(app.screen, GameScreen)


async def test_the_advance_dialog_shows_which_list_has_the_keys() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R", "enter")
        text = screen_text(app)
        assert "keys here > How far" in text and "keys here > Units" not in text
        assert "> 0404" in text  # the ways: the list with the keys marks its row with '>'
        assert "- [x] " in text and "> [x] " not in text  # the units: '-' without the keys
        await keys(pilot, "tab")
        assert app.screen.query_one("#pending-units", Choices).has_focus
        text = screen_text(app)
        assert "keys here > Units" in text and "keys here > How far" not in text
        assert "> [x] " in text and "- 0404" in text
