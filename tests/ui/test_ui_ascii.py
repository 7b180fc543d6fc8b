"""ASCII-only mode: not one character above 127 on any screen the game shows."""

from __future__ import annotations

from textual.app import App

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.hexmap import HexMap
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, ScoreScreen, TextScreen
from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
from kiev_tui.ui.rules_screen import RulesScreen

from tests.conftest import position
from tests.ui.helpers import goto, keys, new_mini, screen_text


def non_ascii(app: App) -> set[str]:
    return {ch for ch in screen_text(app) if ord(ch) > 127}


async def test_every_screen_of_a_campaign_turn_is_plain_ascii() -> None:
    app = build_app(Game.new("spi_kiev/campaign", seed=1941), ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not non_ascii(app)
        await keys(pilot, "z")  # compact zoom
        assert not non_ascii(app)
        await keys(pilot, "z", "enter")  # a selection with costs on the map
        assert not non_ascii(app)
        for key, screen in (("question_mark", TextScreen), ("L", TextScreen), ("i", EntryScreen),
                            ("P", ConfirmScreen), ("r", RulesScreen)):
            await keys(pilot, key)
            assert isinstance(app.screen, screen)
            assert not non_ascii(app), key
            await keys(pilot, "escape")


async def test_combat_dialogs_hand_off_and_score_are_plain_ascii() -> None:
    game = position(new_mini(seed=1), {"ge-inf-1": "0304", "ge-inf-2": "0305", "so-rifle-3": "0404"},
                    player="german", phase="combat", turn=3, reinforcements=False)
    app = build_app(game, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await goto(pilot, "0304")
        await keys(pilot, "enter")
        await goto(pilot, "0404")
        await keys(pilot, "enter", "c")
        assert isinstance(app.screen, ConfirmScreen)
        assert not non_ascii(app)
        await keys(pilot, "y")
        assert isinstance(app.screen, HandoffScreen)  # the Soviet player answers (issue 20)
        assert not non_ascii(app)
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen)
        assert not non_ascii(app)
        await keys(pilot, "enter")
        while game.state.pending is not None:
            await keys(pilot, "n" if game.state.pending["kind"] == "advance" else "enter")
        while isinstance(app.screen, HandoffScreen):  # and back to the German player
            await keys(pilot, "space")
        await keys(pilot, "P", "y")  # into the mechanized phase
        await keys(pilot, "P", "y")  # the end of the last turn
        assert isinstance(app.screen, ScoreScreen)
        assert not non_ascii(app)

    game = position(new_mini(), {"so-rifle-1": "0705"}, phase="combat", reinforcements=False)
    app = build_app(game, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("question_mark", "L"):  # long texts: scrolling without scroll bars
            await keys(pilot, key)
            assert isinstance(app.screen, TextScreen)
            assert not non_ascii(app), key
            await keys(pilot, "escape")
        await keys(pilot, "P", "y")
        assert isinstance(app.screen, HandoffScreen)
        assert not non_ascii(app)


async def test_no_color_keeps_every_meaning_in_glyphs(monkeypatch: object) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # type: ignore[attr-defined]
    game = position(new_mini(), {"so-rifle-1": "0705", "so-rifle-2": "0805", "ge-inf-1": "0906"},
                    reinforcements=False)
    app = build_app(game, ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.no_color
        await goto(pilot, "0705")
        await keys(pilot, "enter", "e")
        text = screen_text(app)
        assert "(r4-5)" in text  # the selected stack: brackets, not a colour
        # the cursor on a path hex, with its cost: the hex's inside in reverse video, which
        # NO_COLOR keeps (an attribute, not a colour); its hexsides keep their own glyphs
        screen = app.screen
        painter = screen.query_one(HexMap).painter
        x, y = painter.origin(screen.cursor)
        inside = painter.row(y + 1)[x + 1:x + 5]
        assert "".join(ch for ch, _ in inside) == "*1  "
        assert [bool(st.reverse) for _, st in inside] == [True, True, True, True]
        assert "*1" in text
        assert "+2" in text  # other reachable hexes and their cost
        assert "I5-7" in text and "_3z_" in text  # German: capital letter; 3 steps; in a Soviet zone
