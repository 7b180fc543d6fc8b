"""Whole flows through the UI with Textual's Pilot, on the 10x10 test scenario."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, PickScreen, ScoreScreen
from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
from kiev_tui.ui.game_screen import GameScreen
from kiev_tui.ui.hexmap import HexMap
from kiev_tui.ui.rules_screen import RulesScreen

from tests.conftest import position
from tests.ui.helpers import game_screen, goto, keys, new_mini, screen_text, status

SIZE = (120, 40)


async def test_move_a_unit_with_keys() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0703")
        assert game_screen(app).cursor.id == "0703"
        await keys(pilot, "enter")  # select the rifle division there
        assert game_screen(app).overlay.selected == ("so-rifle-2",)
        assert "+1" in screen_text(app)  # reachable hexes show their cost
        await keys(pilot, "w")  # cursor north: 0702, on the path
        assert game_screen(app).overlay.path == ("0702",)
        await keys(pilot, "enter")
        assert game.state.units["so-rifle-2"].hex == "0702"
        assert any(e.kind == "moved" for e in game.journal)
        assert "102 rifle XX move from 0703 to 0702" in screen_text(app)  # the log says it in words, by name (issue 20)
        await keys(pilot, "u")  # undo puts it back
        assert game.state.units["so-rifle-2"].hex == "0703"


async def test_cursor_move_repaints_two_rows_only() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hexmap = game_screen(app).query_one(HexMap)
        before = hexmap.rows_painted
        await keys(pilot, "d")
        assert hexmap.rows_painted - before <= 2


async def test_illegal_move_shows_its_case_and_r_opens_the_rules_there() -> None:
    # A Soviet rifle division next to a German one starts in its zone of control (8.23).
    game = position(new_mini(), {"so-rifle-1": "0304", "ge-inf-1": "0204"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0304")
        await keys(pilot, "enter")  # selected: it could still overrun
        assert "(8.23)" in status(app)
        await keys(pilot, "e", "enter")  # but not walk away
        assert "Refused [8.23]" in status(app)
        assert game.state.units["so-rifle-1"].hex == "0304"
        await keys(pilot, "r")
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.current is not None and app.screen.current.id == "8.23"


async def test_move_refused_beyond_allowance_names_the_case() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0705")
        await keys(pilot, "enter")
        await goto(pilot, "0105")  # too far for 6 MP across the major river
        await keys(pilot, "enter")
        assert "Refused [5.11]" in status(app)
        assert game.state.units["so-rifle-1"].hex == "0705"


async def test_reinforcements_then_end_of_phase_with_confirmation() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P")
        assert isinstance(app.screen, ConfirmScreen)
        assert "reinforcement" in screen_text(app)  # the confirmation names what is undone
        await keys(pilot, "y")
        assert "Refused [23.0]" in status(app)
        assert game.state.phase == "movement"
        await keys(pilot, "i")
        assert isinstance(app.screen, EntryScreen)
        await keys(pilot, "down", "space", "tab", "enter")  # both untried rifles, first entry hex
        assert isinstance(app.screen, GameScreen)
        entered = [u for u in ("so-t01-rifle-1", "so-t01-rifle-2") if game.state.units[u].status == "map"]
        assert len(entered) == 2
        await keys(pilot, "escape", "P", "y")
        assert game.state.phase == "combat"


async def test_hot_seat_hand_off_hides_the_map() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, phase="combat", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y")
        assert game.state.player == "german"
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "GERMAN player" in text
        assert "____" not in text  # no hexes while the keyboard changes hands
        await keys(pilot, "x")
        assert isinstance(app.screen, GameScreen)
        assert "German: [MOVE] > combat > mech" in screen_text(app)  # the tracker shows the whole game-turn


async def test_save_then_load_restores_the_position(tmp_path: Path) -> None:
    game = new_mini()
    app = build_app(game, save_path=tmp_path / "autosave.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "S", "enter")  # accept the suggested name, in the saves folder
        saves = sorted(tmp_path.glob("*.toml"))
        assert [p.name for p in saves] == ["turn01-soviet-movement.toml"]
        assert "Saved to" in status(app)
        await goto(pilot, "0703")
        await keys(pilot, "enter", "w", "enter")
        assert game.state.units["so-rifle-2"].hex == "0702"
        await keys(pilot, "O", "y")  # y: yes, lose the unsaved move (issue 20)
        await keys(pilot, "enter")  # the only save in the folder
        loaded = game_screen(app).game
        assert loaded is not game
        assert loaded.state.units["so-rifle-2"].hex == "0703"
        assert app.game is loaded  # autosave follows the loaded game
        assert loaded.autosave_path == tmp_path / "autosave.toml"


async def test_autosave_at_the_end_of_a_phase(tmp_path: Path) -> None:
    game = position(new_mini(), {"so-rifle-1": "0705"}, phase="combat", reinforcements=False)
    app = build_app(game, save_path=tmp_path / "autosave.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y")
        assert (tmp_path / "autosave.toml").exists()


async def test_final_score_screen() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, player="german",
                    phase="mechanized", turn=3, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y")
        assert game.state.over
        assert isinstance(app.screen, ScoreScreen)
        text = screen_text(app)
        assert "FINAL SCORE" in text and "VICTORY" in text
        score = game.state.vars.final_score
        assert f"German points: {score['german']}" in text


async def test_help_and_legend_are_one_key_away() -> None:
    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "question_mark")
        assert "Movement phase" in screen_text(app)
        await keys(pilot, "escape", "L")
        assert "major river" in screen_text(app)
        await keys(pilot, "escape")
        assert isinstance(app.screen, GameScreen)


async def test_tab_cycles_through_stacks_that_can_act() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "so-rifle-2": "0703", "ge-inf-1": "0203"},
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0101")
        await keys(pilot, "tab")
        assert game_screen(app).cursor.id == "0703"
        await keys(pilot, "tab")
        assert game_screen(app).cursor.id == "0705"


async def test_split_a_stack_with_number_keys() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "so-rifle-2": "0705"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0705")
        await keys(pilot, "enter")
        assert set(game_screen(app).overlay.selected) == {"so-rifle-1", "so-rifle-2"}
        await keys(pilot, "1")  # drop the first unit listed
        assert len(game_screen(app).overlay.selected) == 1
        mover = game_screen(app).overlay.selected[0]
        await keys(pilot, "s", "enter")
        assert game.state.units[mover].hex == "0706"
        stayer = ({"so-rifle-1", "so-rifle-2"} - {mover}).pop()
        assert game.state.units[stayer].hex == "0705"


async def test_rail_move_shows_rail_distances_and_goes() -> None:
    game = position(new_mini(), {"so-rifle-1": "0907", "ge-inf-1": "0203"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0907")
        await keys(pilot, "enter", "t")
        rail = game_screen(app).overlay.rail
        assert rail and all(len(p) <= 25 for p in rail.values())
        assert f"{app.glyphs.rail_reach}4" in screen_text(app)  # 0507 is four rail hexes away
        await goto(pilot, "0507")
        await keys(pilot, "enter")
        assert game.state.units["so-rifle-1"].hex == "0507"
        assert any(e.kind == "railed" for e in game.journal)
        assert "Rail: 1/8" in screen_text(app)


async def test_rail_is_refused_to_the_german_player_with_its_case() -> None:
    game = position(new_mini(), {"ge-inf-1": "0407"}, player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0407")
        await keys(pilot, "enter")
        assert game_screen(app).check_action("rail", ()) is False  # not even offered in the footer
        game_screen(app).action_rail()  # even if reached some other way, the engine's case is shown
        assert "Refused [19.3]" in status(app)


async def test_new_game_starts_over_from_turn_one() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0703")
        await keys(pilot, "enter", "w", "enter")
        assert game.state.units["so-rifle-2"].hex == "0702"
        await keys(pilot, "N", "y")
        fresh = game_screen(app).game
        assert fresh is not game and fresh.state.units["so-rifle-2"].hex == "0703"
        assert fresh.scenario.id == game.scenario.id and fresh.seed != game.seed  # fresh dice (issue 20)
        assert not fresh.log


async def test_undo_cannot_step_over_a_change_of_player() -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, phase="combat",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y", "space", "u")
        assert game.state.player == "german"
        assert "Nothing to undo" in status(app)


async def test_mouse_click_puts_the_cursor_and_a_second_click_selects() -> None:
    game = position(new_mini(), {"so-rifle-2": "0703"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        hexmap = game_screen(app).query_one(HexMap)
        hexmap.scroll_to(0, 0, animate=False, immediate=True)
        await pilot.pause()
        x, y = hexmap.painter.origin(Hex(8, 5))  # Eastville
        await pilot.click(HexMap, offset=(x + 2, y + 1))
        assert game_screen(app).cursor.id == "0805"
        x, y = hexmap.painter.origin(Hex(7, 3))
        await pilot.click(HexMap, offset=(x + 2, y + 1))
        await pilot.click(HexMap, offset=(x + 2, y + 1))
        assert game_screen(app).overlay.selected == ("so-rifle-2",)


async def test_overstacked_hex_must_be_thinned_before_the_phase_ends() -> None:
    four = {"so-rifle-1": "0705", "so-rifle-2": "0705", "so-rifle-3": "0705", "so-rifle-4": "0705"}
    game = position(new_mini(), four, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "P", "y")
        assert "Refused [7.0]" in status(app)
        await goto(pilot, "0705")
        await keys(pilot, "x")
        assert isinstance(app.screen, PickScreen)
        await keys(pilot, "enter")
        gone = [u for u in four if game.state.units[u].status == "eliminated"]
        assert len(gone) == 1
        await keys(pilot, "P", "y")
        assert game.state.phase == "combat"


async def test_soviet_reinforcements_by_rail_list_only_rail_entry_hexes() -> None:
    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "i")
        entry = app.screen
        assert isinstance(entry, EntryScreen)
        by_road = list(entry._hexes)
        await keys(pilot, "t")
        assert entry._hexes == ["1007"]  # the only rail exit in area K
        assert len(by_road) > 1
        await keys(pilot, "tab", "enter")
        assert game.state.units["so-t01-rifle-1"].hex == "1007"
        assert "by rail" in screen_text(app)
