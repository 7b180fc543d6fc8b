"""A scripted game-turn of Barbarossa 1941 through the Textual UI with its own face: keys select
and move a stack, C picks an attack, every prompt of the combat chain is answered in its
dialog, every hand-over screen is passed, P ends each phase, until turn 2 begins.  Along the
way the face's panels are checked: names, values, weather, help with its cases."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941.face.adapter import B41Adapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, TextScreen

from tests.ui.b1941_drive import ui_game_turn
from tests.ui.helpers import game_screen, goto, keys, screen_text
from tests.b41_system_helpers import new_game


async def test_b1941_scripted_game_turn_through_the_face() -> None:
    game = new_game("barbarossa1941/historical", 11)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert isinstance(screen.adapter, B41Adapter)
        text = screen_text(app)
        assert "Turn 1 of 10, 22 Jun - 15 Jul 1941" in text
        assert "Weather: north clear, south clear" in text
        assert "Axis: (isolation) > (air rebasing)" in text  # the turn-1 phases that do not run

        # the inspector on Königsberg: the corps by name with combat-quality-movement, steps, MP
        await goto(pilot, "0112")
        inspector = str(screen.query_one("#inspector").render()).splitlines()
        assert inspector[0] == "Hex 0112 Königsberg (major city), clear; Axis-held"
        assert inspector[2].startswith("1 XXIII Army Corps 3-4-3 steps 2/2 MP 3")
        assert inspector[3].strip() == "German infantry, Army Group North"

        # help names the movement cases
        await keys(pilot, "question_mark")
        assert isinstance(app.screen, TextScreen)
        assert "Movement (5, 5.1)" in screen_text(app)
        await keys(pilot, "escape")
        # the legend explains this game's glyphs; the score names the case
        await keys(pilot, "L")
        legend = screen_text(app)
        assert "major river along a hexside" in legend and "Kerch strait hexside (12.10)" in legend
        await keys(pilot, "escape", "v")
        assert "Score as it stands (13)" in screen_text(app) and "soviet_major" not in screen_text(app)
        await keys(pilot, "escape")

        played = await ui_game_turn(pilot, game)
        assert game.state.turn == 2 and not game.state.over
        assert {(p, ph) for _, p, ph in played.phases} >= {("axis", "movement"), ("axis", "combat"),
                                                            ("soviet", "movement"), ("soviet", "combat")}
        assert len(played.moved) >= 2 and played.attacks >= 1 and played.handoffs >= 2
        # hot seat: the Soviet player takes the keyboard first for the reaction phase (5.3)
        assert played.handed_to[0] == "soviet" and "axis" in played.handed_to
        assert played.prompts and all(p.startswith("combat:") for p in played.prompts)
        kinds = {a.kind for a in game.log}
        assert {"move", "attack", "end_phase"} <= kinds
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "axis"  # turn 2 is the Axis's
        await keys(pilot, "space")
        assert "Turn 2 of 10" in screen_text(app)


async def test_b1941_new_game_dialog_starts_the_scenario_again() -> None:
    game = new_game("barbarossa1941/typhoon", 3)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await keys(pilot, "N")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.lines[:2] == [f"Start {game.scenario.title} again from turn 1?",
                                        "The game in progress has no moves yet: there is nothing to keep."]
        await keys(pilot, "y")
        fresh = game_screen(app).game
        assert fresh is not game and fresh.scenario.id == "barbarossa1941/typhoon" and not fresh.log
        assert (fresh.state.turn, fresh.state.player, fresh.state.phase) == (game.state.turn, "axis",
                                                                              game.state.phase)
        assert isinstance(game_screen(app).adapter, B41Adapter)
