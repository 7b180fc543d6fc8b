"""Views and secrets on the generic Textual face (issue 30): Tiny's hidden target is picked,
kept from the other player across the hot-seat hand-off, and revealed, with no Tiny face code."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, PickScreen

from tests.tiny_game import AXIS, tiny  # noqa: F401  (the fixture registers Tiny for the test)
from tests.ui.helpers import game_screen, keys, screen_text, status

SIZE = (120, 36)


async def test_the_hidden_target_shows_only_to_its_owner_in_hot_seat(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        await keys(pilot, "C")
        assert isinstance(app.screen, PickScreen)
        assert [label for label, _ in app.screen.items] == ["target town=0301", "target town=0404"]
        await keys(pilot, "enter")  # the first: Northby
        assert app.screen is screen
        salt = game.state.secrets[AXIS]["target"]["salt"]
        assert "Your hidden choice (target): 0301" in status(app)  # the owner is told, at his own turn
        await keys(pilot, "P")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "y")
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "allies"
        assert salt not in screen_text(app) and "hidden choice (target): 0301" not in screen_text(app)
        await keys(pilot, "space")
        shown = screen_text(app)
        assert screen.seat == "allies"
        assert "axis made a hidden choice (target)" in shown  # the commitment is public
        assert salt not in shown and "Your hidden choice" not in shown
        await keys(pilot, "C")  # the allies' own choices: every town, nothing of the axis's
        assert isinstance(app.screen, PickScreen)
        assert [label for label, _ in app.screen.items] == ["target town=0301", "target town=0404"]
        assert salt not in screen_text(app)
        await keys(pilot, "escape", "P", "y")
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "axis"
        await keys(pilot, "space", "C")
        assert isinstance(app.screen, PickScreen)
        assert [label for label, _ in app.screen.items] == [f"reveal town=0301 salt={salt}"]
        await keys(pilot, "enter")
        assert game.state.commitments == {} and [a.kind for a in game.log][-1] == "reveal"
        assert "axis reveals target: 0301" in screen_text(app)
