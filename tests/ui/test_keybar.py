"""The key bar shows the keys that work right now, and a click on one runs it."""

from __future__ import annotations

from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import TextScreen
from kiev_tui.ui.game_screen import KeyBar

from tests.conftest import position
from tests.ui.helpers import game_screen, keys, new_mini

SIZE = (120, 40)


def shown(app) -> str:  # type: ignore[no-untyped-def]
    return str(game_screen(app).query_one(KeyBar).render())


async def test_keys_follow_the_phase_and_the_selection() -> None:
    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-3": "0505"}, player="german",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = shown(app)
        assert "Tab Next" in text and "P End phase" in text and "? Help" in text
        assert "c Attack" not in text  # no attacks in a movement phase
        assert "o Overrun" not in text  # nothing selected yet
        assert "i Reinforce" not in text  # nothing due
        await keys(pilot, "tab", "enter")  # select the panzer regiment
        assert "o Overrun" in shown(app)
        await keys(pilot, "escape", "P", "y")  # on to the combat phase
        assert game.state.phase == "combat"
        text = shown(app)
        assert "c Attack" in text and "o Overrun" not in text


async def test_a_click_on_a_key_runs_it() -> None:
    game = position(new_mini(), {"ge-1pz-1": "0305"}, player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bar = game_screen(app).query_one(KeyBar)
        x = next(x1 for x1, _, action in bar._spans() if action == "help")
        await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)  # the help for this phase


async def test_at_80_columns_every_key_fits() -> None:
    game = position(new_mini(), {"so-rifle-3": "0505"}, player="soviet")  # reinforcements due: 8 keys
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = shown(app)
        assert "i Reinforce" in text and "r Rules" in text
        assert len(text) + 1 <= 80


async def test_at_80_columns_the_keys_of_the_moment_stay_and_help_is_always_there() -> None:
    # A Soviet stack selected with reinforcements due: ten keys would work, more than 80 columns.
    game = position(new_mini(), {"so-rifle-3": "0505"}, player="soviet")
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await keys(pilot, "tab", "enter")
        bar = game_screen(app).query_one(KeyBar)
        offered = {action for _, _, action in bar.offered}
        assert {"rail", "overrun", "reinforce"} <= offered
        text = shown(app)
        # the labels get shorter before any key goes (issue 35): every key still shows
        assert text == "Enter Sel Esc Back Tab Next i Reinf t Rail o Ovrun P End ? Help u Undo r Rules"
        assert len(text) + 1 <= 80


async def test_wide_terminal_shows_every_key() -> None:
    game = position(new_mini(), {"so-rifle-3": "0505"}, player="soviet")
    app = build_app(game)
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        await keys(pilot, "tab", "enter")
        text = shown(app)
        assert "r Rules" in text and "u Undo" in text and "t Rail" in text
