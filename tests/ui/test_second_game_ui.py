"""The generic face plays a game it was never written for: Tiny (tests/tiny_game.py), which has
no presentation adapter, opens in the Textual UI, and a stack moves and the phase ends by keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.registry import get_adapter
from kiev_tui.ui.adapter import DefaultAdapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen, HandoffScreen, PickScreen, ScoreScreen, TextScreen
from kiev_tui.ui.game_screen import GameScreen
from kiev_tui.ui.hexmap import hex_text
from kiev_tui.ui.rules_screen import RulesScreen

from tests.tiny_game import tiny  # noqa: F401  (the fixture registers Tiny for the test)
from tests.ui.helpers import game_screen, goto, keys, new_mini, screen_text, status

SIZE = (120, 36)


def _positions(game: Game) -> dict[str, str | None]:
    return {uid: u.hex for uid, u in sorted(game.state.units.items())}


async def test_tiny_opens_moves_by_keys_and_ends_its_phase(tiny: Path) -> None:  # noqa: F811
    assert get_adapter("tiny") is None  # Tiny has no face of its own: the default one serves
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert type(screen) is GameScreen and type(screen.adapter) is DefaultAdapter
        text = screen_text(app)
        # the map draws Tiny's counters: the first side in capitals, the other in small letters
        assert text.count("I1-1") == 2 and text.count("i1-1") == 2
        assert "Axis player: [MOVEMENT]" in text

        await goto(pilot, "0202")
        assert hex_text(game.scenario.map, screen.cursor) == "0202"
        assert status(app) == ""  # nothing to say: the inspector names the hex (issue 33)
        await keys(pilot, "enter")
        assert screen.overlay.selected == ("ax-1",)
        # odd columns low: 0202's north-east neighbour is 0301 (Northby), one clear hex away
        await keys(pilot, "e")
        assert hex_text(game.scenario.map, screen.cursor) == "0301"
        assert screen.overlay.path == ("0301",)
        assert status(app).startswith("0301 Northby | 1 MP")
        await keys(pilot, "enter")
        assert _positions(game) == {"al-1": "0504", "al-2": "0605", "ax-1": "0301", "ax-2": "0102"}
        assert game.state.control == {"0404": "allies", "0301": "axis"}
        assert screen.overlay.selected == ()  # ax-1 has moved: nothing more to do with it
        inspector = str(screen.query_one("#inspector").render())
        assert inspector.splitlines()[:3] == ["Hex 0301 Northby (town), clear; Axis-held",
                                              "Axis stack of 1 (keys 1-1 pick):", "1 1 infantry  1-1"]

        await keys(pilot, "P")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.title_text == "End the Axis movement phase?"
        assert app.screen.lines == ["- stacks that could still act: 0102"]
        await keys(pilot, "y")
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "allies"
        await keys(pilot, "space")
        assert app.screen is screen
        st = game.state
        assert (st.turn, st.player, st.phase, st.over) == (1, "allies", "movement", False)
        assert _positions(game) == {"al-1": "0504", "al-2": "0605", "ax-1": "0301", "ax-2": "0102"}
        assert [a.kind for a in game.log] == ["move", "end_phase"]
        assert screen.seat == "allies"
        assert "Allies player: [MOVEMENT]" in screen_text(app)


async def test_tiny_refusal_names_its_own_case_and_undo_takes_the_move_back(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await goto(pilot, "0202")
        await keys(pilot, "enter")
        assert game_screen(app).overlay.selected == ("ax-1",)
        await goto(pilot, "0605")  # an enemy hex: the rules say why not, with Tiny's case
        await keys(pilot, "enter")
        assert "Refused [T2.3] 0605 holds an enemy unit" in status(app)
        assert _positions(game)["ax-1"] == "0202"
        await goto(pilot, "0203")
        await keys(pilot, "enter")
        assert _positions(game)["ax-1"] == "0203"
        await keys(pilot, "u")
        assert _positions(game)["ax-1"] == "0202" and game.log == []
        assert status(app).endswith("Undone")


async def test_tiny_played_to_the_end_shows_its_score(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for expected in (("allies", 1), ("axis", 2), ("allies", 2)):
            await keys(pilot, "P", "y")
            assert isinstance(app.screen, HandoffScreen)
            await keys(pilot, "space")
            assert (game.state.player, game.state.turn) == expected
        await keys(pilot, "v")  # the score as it stands, from the rules' own Score
        text = screen_text(app)
        assert "Score as it stands" in text and "Allies points: 1" in text and "Allies leads." in text
        await keys(pilot, "escape", "P", "y")
        assert game.state.over
        assert isinstance(app.screen, ScoreScreen)
        assert app.screen.heading == "FINAL SCORE"
        assert app.screen.lines == ["Axis points: 0", "Allies points: 1", "  Axis holds 0 town(s)",
                                    "  Allies holds 1 town(s)", "", "ALLIES VICTORY"]


async def test_tiny_saves_and_a_kiev_screen_loads_it_on_the_generic_screen(
        tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path))
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await goto(pilot, "0202")
        await keys(pilot, "enter", "e", "enter", "S")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "enter")  # the name offered: turn01-axis-movement
        assert status(app).startswith(f"0301 Northby | Saved to {tmp_path / 'turn01-axis-movement.toml'}")
    saved = tmp_path / "turn01-axis-movement.toml"
    assert Game.load(saved).state.units["ax-1"].hex == "0301"

    kiev = new_mini()
    app = build_app(kiev)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(game_screen(app)).__name__ == "KievGameScreen"
        await keys(pilot, "O")
        assert isinstance(app.screen, PickScreen) and app.screen.items == [(saved.name, saved)]
        await keys(pilot, "enter")
        await pilot.pause()
        screen = game_screen(app)
        assert type(screen) is GameScreen and screen.game.scenario.game == "tiny"
        assert app.screen is screen and app.game is screen.game
        assert screen.game.state.units["ax-1"].hex == "0301"
        assert status(app).startswith("0102 | Loaded ")  # the cursor on the Axis stack that may still move
        await keys(pilot, "P", "y", "space")
        assert screen.game.state.player == "allies"


async def test_tiny_help_and_legend_come_from_its_own_map_and_rules(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "L")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Legend"
        rows = app.screen.body.splitlines()
        assert rows[:2] == ["  /0101\\   a hex and its number (0101)",
                            "  nort     a town (name in small letters, shortened to 4 letters)"]
        assert "KIEV" not in app.screen.body and "woods" not in app.screen.body
        assert "  I / i    capital letter: Axis unit; small letter: the other side" in rows
        assert "  reverse  the cursor: the inside of its hex in reverse video" in rows
        await keys(pilot, "escape", "question_mark")
        assert app.screen.title_text == "Help: Movement phase"
        await keys(pilot, "escape", "r")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "tiny"
