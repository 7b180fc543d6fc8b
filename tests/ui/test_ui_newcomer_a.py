"""Issue 20, what a new player tripped over: fresh dice, confirmations, go-to, names, rail entries."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen

from tests.ui.helpers import game_screen, keys, new_mini, screen_text, status

SIZE = (120, 40)


async def test_new_game_in_the_ui_rolls_fresh_dice(tmp_path: Path) -> None:
    game = new_mini()
    app = build_app(game, save_path=tmp_path / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "N", "y")
        first = game_screen(app).game
        await keys(pilot, "N", "y")
        second = game_screen(app).game
        assert first is not game and second is not first
        assert len({game.seed, first.seed, second.seed}) == 3
