"""Hostile sizes and hostile data on screen (issue 13, items 1, 6 and 10)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen, HandoffScreen, PickScreen, ScoreScreen, TextScreen
from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
from kiev_tui.ui.game_screen import GameScreen
from kiev_tui.ui.rules_screen import RulesScreen

from tests.conftest import position
from tests.ui.helpers import MINI, game_screen, goto, keys, new_mini, screen_text

SIZE = (120, 40)


# -- 1: a dialog closes once, and the game screen is never closed ---------------------------------------

def _dialogs(game: Game) -> list[object]:
    return [
        ConfirmScreen("Sure?", ["a line"]),
        TextScreen("Help", "body"),
        AskScreen("Save as", "x", "x"),
        PickScreen("Pick", [("one", 1)]),
        EntryScreen([("so-rifle-1", "rifle", ["0705"])]),
        HandoffScreen("german", 1),
        ScoreScreen(["nothing"]),
        RulesScreen(),
    ]


@pytest.mark.parametrize("index", range(8), ids=["confirm", "text", "ask", "pick", "entry", "handoff", "score",
                                                 "rules"])
async def test_a_dialog_dismissed_twice_closes_once(index: int) -> None:
    game = new_mini()
    app = build_app(game)
    answers: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = _dialogs(game)[index]
        app.push_screen(dialog, answers.append)  # type: ignore[arg-type]
        await pilot.pause()
        assert app.screen is dialog
        dialog.dismiss("first")  # type: ignore[attr-defined]
        dialog.dismiss("second")  # type: ignore[attr-defined]
        dialog.dismiss("third")  # type: ignore[attr-defined]
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert answers == ["first"]
        await keys(pilot, "question_mark")  # the game screen still takes keys
        assert isinstance(app.screen, TextScreen)


async def test_the_pending_dialog_dismissed_twice_closes_once() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "so-rifle-3": "0405"},
                    player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d", "o", "y", "space")  # space: past the hand-off to the Soviet player
        assert isinstance(app.screen, PendingScreen)
        app.screen.dismiss(None)
        app.screen.dismiss(None)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_nothing_pops_the_game_screen() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        app.pop_screen()
        app.pop_screen()
        await pilot.pause()
        assert app.screen is screen and isinstance(screen, GameScreen)


# -- 6: the rules screen in a very narrow terminal -----------------------------------------------------------

@pytest.mark.parametrize("width, height", [(28, 20), (20, 10), (12, 24), (3, 5)])
async def test_the_rules_screen_at_28_columns_or_fewer(width: int, height: int) -> None:
    app = build_app(new_mini())
    async with app.run_test(size=(width, height)) as pilot:
        await keys(pilot, "r")
        assert isinstance(app.screen, RulesScreen)
        await keys(pilot, "tab", "down", "enter", "1", "b", "slash", "z", "o", "c")
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.resize_terminal(width, height)
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await keys(pilot, "escape")
        assert isinstance(app.screen, GameScreen)


# -- 10: data is shown as text, never read as markup ------------------------------------------------------------

LINK = "[@click=app.quit]quit[/]"


@pytest.fixture
def marked_scenario(tmp_path: Path) -> Path:
    """The mini scenario with Textual markup in two designations and the title."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI.parent.parent, folder)
    units = folder / "units.toml"
    text = units.read_text()
    text = text.replace('designation = "1/1"', f'designation = "{LINK}"', 1)
    text = text.replace('designation = "103"', 'designation = "[/]"', 1)
    units.write_text(text)
    scenario = folder / "scenarios" / "mini.toml"
    scenario.write_text(scenario.read_text().replace('title = "Test position on a 10 x 10 map"',
                                                     'title = "[bold]Markup[/bold] [/]"'))
    return scenario


async def test_designations_with_markup_show_as_text(marked_scenario: Path) -> None:
    game = Game.new(marked_scenario, seed=1)
    assert game.scenario.catalog.units["so-rifle-3"].designation == "[/]"
    game = position(game, {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "so-rifle-3": "0405"}, player="german",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d", "o")
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert f"{LINK} panzer III" in text  # names, not ids (issue 20)
        assert "[/] rifle XX" in text
        await keys(pilot, "y", "space")  # space: past the hand-off to the Soviet player
        assert isinstance(app.screen, PendingScreen)
        await keys(pilot, "enter")  # the loss dialog names the unit too
        assert game.state.units["so-rifle-3"].status == "eliminated"
        await keys(pilot, "space")  # and back to the German player
        assert isinstance(app.screen, GameScreen) and app.is_running
        await keys(pilot, "N")
        assert "Start [bold]Markup[/bold] [/] again from turn 1?" in screen_text(app)
        await keys(pilot, "n")
        assert isinstance(app.screen, GameScreen) and app.is_running


async def test_a_markup_link_in_data_cannot_be_clicked(marked_scenario: Path) -> None:
    """Clicking every cell of the preview never runs the `app.quit` the designation names."""
    game = position(Game.new(marked_scenario, seed=1), {"ge-1pz-1": "0305", "ge-1pz-2": "0305",
                                                         "so-rifle-3": "0405"}, player="german",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d", "o")
        lines = screen_text(app).splitlines()
        [(row, col)] = [(y, line.index(LINK)) for y, line in enumerate(lines) if LINK in line]
        for dx in range(len(LINK)):
            await pilot.click(offset=(col + dx, row))
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ConfirmScreen)
        assert game_screen(app).game is game


async def test_page_keys_in_the_rules_lists_with_no_room() -> None:
    """PageDown in a rules list that has no room on screen (a tiny terminal) pages, not crashes."""
    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "r")
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        for list_id in ("#rules-links", "#rules-results"):
            options = screen.query_one(list_id)
            options.styles.height = 0  # what a terminal a few rows high leaves it
            await pilot.pause()
            screen.show_case("9.6")  # new options, which cannot be laid out in no room
            screen._list_default()
            options.highlighted = 0  # type: ignore[attr-defined]
            options.action_page_down()  # type: ignore[attr-defined]
            options.action_page_up()  # type: ignore[attr-defined]
            await pilot.pause()
        assert app.screen is screen and app.is_running


async def test_a_space_refresh_queued_in_the_entry_dialog_is_harmless_after_it_closes() -> None:
    # Found by the 2,000-key pty test: space queues a refresh of the entry hexes; a quick Esc
    # closed the dialog first, and the refresh then queried widgets that were gone.
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = EntryScreen([("so-rifle-1", "rifle", ["0705"])])
        app.push_screen(dialog)
        await pilot.pause()
        dialog.dismiss(None)
        await pilot.pause()
        dialog._refresh_hexes()  # what the queued call runs: must do nothing, not raise
        assert isinstance(app.screen, GameScreen)
