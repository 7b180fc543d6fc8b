"""Issue 20, what a new player tripped over: fresh dice, confirmations, go-to, names, rail entries."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen, PickScreen

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
        # issue 16: no seed at all, each roll drawn from the OS's entropy when needed; a new play each time
        assert (first.seed, second.seed, first.dice.kind, second.dice.kind) == (None, None, "entropy", "entropy")
        assert len({game.game_id, first.game_id, second.game_id}) == 3


# -- 9: nothing is lost without a question ---------------------------------------------------

async def _moved(pilot, app) -> None:  # type: ignore[no-untyped-def]
    screen = game_screen(app)
    screen.move_cursor(Hex.parse("0703"))
    await keys(pilot, "enter", "w", "enter")  # so-rifle-2 to 0702: one action, not saved yet
    assert screen.game.state.units["so-rifle-2"].hex == "0702"


def _exits(app) -> list[int]:  # type: ignore[no-untyped-def]
    calls: list[int] = []
    app.exit = lambda *a, **k: calls.append(1)  # type: ignore[method-assign]
    return calls


async def test_quit_with_unsaved_moves_asks_and_enter_does_not_quit(tmp_path: Path) -> None:
    app = build_app(new_mini(), save_path=tmp_path / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        exits = _exits(app)
        await _moved(pilot, app)
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen) and exits == []
        assert "1 action since the last save" in screen_text(app)
        await keys(pilot, "enter", "enter")  # typed ahead: must not lose the move
        assert exits == [] and isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "n")
        assert exits == [] and app.screen is game_screen(app)
        await keys(pilot, "ctrl+q", "y")
        assert exits == [1]


async def test_quit_with_nothing_unsaved_does_not_ask(tmp_path: Path) -> None:
    app = build_app(new_mini(), save_path=tmp_path / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        exits = _exits(app)
        await keys(pilot, "ctrl+q")  # a fresh game: nothing to lose
        assert exits == [1]


async def test_quit_after_a_save_does_not_ask(tmp_path: Path) -> None:
    app = build_app(new_mini(), save_path=tmp_path / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        exits = _exits(app)
        await _moved(pilot, app)
        game_screen(app).game.save(tmp_path / "kept.toml")
        await keys(pilot, "ctrl+q")
        assert exits == [1]


async def test_load_over_unsaved_moves_asks_first(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    new_mini(seed=3).save(saves / "other.toml")
    app = build_app(new_mini(), save_path=saves / "auto.toml")
    async with app.run_test(size=SIZE) as pilot:
        await _moved(pilot, app)
        moved = game_screen(app).game
        await keys(pilot, "O")
        assert isinstance(app.screen, ConfirmScreen)
        assert "1 action since the last save" in screen_text(app)
        await keys(pilot, "enter")  # never yes by Enter
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "n")
        assert game_screen(app).game is moved and app.screen is game_screen(app)
        await keys(pilot, "O", "y")
        assert isinstance(app.screen, PickScreen)  # now the list of saves
        await keys(pilot, "enter")
        assert game_screen(app).game is not moved


# -- 1: go to a hex, and nothing else -----------------------------------------------------------

async def _select_rifle(pilot, app) -> None:  # type: ignore[no-untyped-def]
    game_screen(app).move_cursor(Hex.parse("0703"))
    await keys(pilot, "enter")
    assert game_screen(app).overlay.selected == ("so-rifle-2",)


async def test_goto_waits_for_enter_and_makes_no_move() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await _select_rifle(pilot, app)
        await keys(pilot, "g", "0", "7", "0", "2")
        assert isinstance(app.screen, AskScreen)  # four digits do not close it: Enter does
        await keys(pilot, "enter")
        screen = game_screen(app)
        assert app.screen is screen and screen.cursor == Hex.parse("0702")
        assert screen.overlay.selected == ("so-rifle-2",)  # still selected, and not moved
        assert game.state.units["so-rifle-2"].hex == "0703" and not game.log


async def test_goto_escape_cancels_and_keeps_the_selection() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await _select_rifle(pilot, app)
        await keys(pilot, "g", "0", "7", "0", "2", "escape")
        screen = game_screen(app)
        assert app.screen is screen and screen.cursor == Hex.parse("0703")
        assert screen.overlay.selected == ("so-rifle-2",)


async def test_goto_ignores_spaces_typed_around_the_hex() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "g", "space", "0", "7", "0", "2", "space", "enter")
        assert game_screen(app).cursor == Hex.parse("0702")
        await keys(pilot, "g", "0", "7", " ", "0", "5", "enter")  # inside too: "07 05"
        assert game_screen(app).cursor == Hex.parse("0705")


# -- 8: names, not ids --------------------------------------------------------------------------

def _log_text(app) -> str:  # type: ignore[no-untyped-def]
    from kiev_tui.ui.logview import WrapLog

    log = game_screen(app).query_one("#log", WrapLog)
    return "\n".join(strip.text for strip in log.lines)


async def test_the_log_and_status_name_the_unit_not_its_id() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await _select_rifle(pilot, app)
        assert "Selected 102 rifle XX" in status(app)
        await keys(pilot, "w", "enter")
        assert game.journal[-1].units == ("so-rifle-2",)  # type: ignore[attr-defined]  # the data keeps ids
        log = _log_text(app)
        assert "102 rifle XX move from 0703 to 0702 (1 MP)" in log
        assert "so-rifle-2" not in log and "so-t01" not in log
        assert "102 rifle XX move from 0703 to 0702" in status(app)
        assert "so-" not in game_screen(app).query_one("#tracker").render().plain  # type: ignore[attr-defined]


async def test_a_refusal_names_the_unit_not_its_id() -> None:
    from kiev_tui.engine.actions import EndPhase

    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.play(EndPhase()) is False  # the reinforcements are still to come on
        line = status(app)
        assert "Refused [23.0]" in line and "untried rifle XX, untried rifle XX must enter first" in line, line
        assert "so-" not in line, line


async def test_dialogs_name_the_units_not_their_ids() -> None:
    from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen

    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "i")
        assert isinstance(app.screen, EntryScreen)
        text = screen_text(app)
        assert "1. untried rifle XX" in text and "2. untried rifle XX" in text
        assert "so-t01" not in text
        await keys(pilot, "escape", "P")
        assert isinstance(app.screen, ConfirmScreen)
        assert "so-t01" not in screen_text(app) and "untried rifle XX" in screen_text(app)


# -- 7: reinforcements that came by rail can plainly go on by rail ---------------------------------

async def test_rail_arrivals_are_offered_the_rail_at_once_and_on_enter() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "i", "t", "down", "space", "tab", "enter")  # both rifle units come on by rail at 1007
        screen = game_screen(app)
        pair = ("so-t01-rifle-1", "so-t01-rifle-2")
        assert game.state.units[pair[0]].hex == "1007"
        assert screen.overlay.selected == pair and screen.rail_mode  # ready to ride on
        assert "by rail" in status(app) and "Refused" not in status(app)
        await keys(pilot, "escape")
        assert not screen.overlay.selected
        await keys(pilot, "enter")  # Enter on the stack that came by rail: rail travel, not a refusal
        assert screen.overlay.selected == pair and screen.rail_mode
        assert "Refused" not in status(app) and "only by rail" in status(app)
        screen.move_cursor(Hex.parse("0807"))
        await keys(pilot, "enter")
        assert game.state.units[pair[0]].hex == "0807" and game.state.units[pair[1]].hex == "0807"


async def test_the_hand_off_at_a_change_of_player_names_the_units() -> None:
    from kiev_tui.ui.dialogs import HandoffScreen

    from tests.conftest import position

    game = position(new_mini(), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, player="german",
                    phase="mechanized", turn=1, reinforcements=True)
    game.scenario.reinforcements = [r for r in game.scenario.reinforcements if r.side == "soviet"]
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y")  # the German turn ends: turn 2, the Soviet player's reinforcements
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "soviet"
        text = screen_text(app)
        assert "so-hq-late" not in text and "bring on" in text
