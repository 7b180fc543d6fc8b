"""Issue 35: a second reinforcement group would end the move of the group still in hand (5.0 with
15.0).  The Textual face shows the rules' caution first and asks: Esc keeps the first group's MP,
Enter or y brings the second group on."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter, Move
from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import game_screen, keys, new_mini, screen_text, status

SIZE = (120, 40)
FIRST, SECOND = "so-t01-rifle-1", "so-t01-rifle-2"
WARNING = ["[5.0] untried rifle XX in 1005 still has 5 MP; moving or bringing on",  # the rules' caution, ids named
           "other units now ends its move for this phase (rules 5.0)"]


async def _second_group_asked(pilot, app, game: Game) -> None:  # type: ignore[no-untyped-def]
    await keys(pilot, "i", "tab", "enter")  # the first rifle (ticked) comes on at the first hex, 1005
    assert game.state.units[FIRST].hex == "1005" and game.state.units[SECOND].status != "map"
    assert game_screen(app).overlay.selected == (FIRST,)  # in hand, 5 MP left
    await keys(pilot, "i")
    assert isinstance(app.screen, EntryScreen)
    await keys(pilot, "tab", "down", "enter")  # the second rifle, at 1007
    assert isinstance(app.screen, ConfirmScreen)
    shown = [line.strip().strip("|").strip() for line in screen_text(app).splitlines()]
    at = shown.index("Bring these reinforcements on now?")
    assert shown[at + 1: at + 4] == [*WARNING, "Enter or y: bring them on   Esc: keep moving the stack in hand"]
    assert game.state.units[SECOND].status != "map"  # nothing placed yet


async def test_esc_keeps_the_first_groups_move() -> None:
    game = new_mini(seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await _second_group_asked(pilot, app, game)
        await keys(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        assert game.state.units[SECOND].status != "map" and len(game.log) == 1
        view = game.rules.position(game)
        assert (view.vars.active, view.vars.mp[FIRST]) == ([FIRST], 1.0)  # still in hand, 1 MP of 6 spent
        assert game_screen(app).overlay.selected == (FIRST,)  # and still selected
        assert game.check(Move((FIRST,), ("0905",))) is None  # it may still move on
        assert "Reinforcements not brought on: untried rifle XX keeps moving" in status(app)
        assert game_screen(app).last_case == "5.0"


async def test_enter_brings_the_second_group_on_and_ends_the_first_groups_move() -> None:
    for answer in ("enter", "y"):
        game = new_mini(seed=3)
        app = build_app(game)
        async with app.run_test(size=SIZE) as pilot:
            await _second_group_asked(pilot, app, game)
            await keys(pilot, answer)
            assert isinstance(app.screen, GameScreen)
            assert game.state.units[SECOND].hex == "1007" and len(game.log) == 2
            assert str(game.check(Move((FIRST,), ("0905",)))).startswith("[5.0] so-t01-rifle-1 already finished")


async def test_no_question_when_the_group_in_hand_has_no_mp_left() -> None:
    game = new_mini(seed=3)
    game.apply(Enter((FIRST,), "1005"))
    game.apply(Move((FIRST,), ("1004", "1003", "1002", "0902", "0801")))  # all 6 MP spent
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "i", "tab", "enter")  # only the second rifle is due: it comes on at once
        assert isinstance(app.screen, GameScreen)
        assert game.state.units[SECOND].hex == "1005" and len(game.log) == 3
