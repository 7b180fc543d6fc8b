"""A scripted game-turn of the Battle of Sumy through the Textual UI with its own face: keys move
a stack, C interdicts, declares and attacks, every prompt of the combat chain (hidden air units
and order included) is answered in its dialog, every hand-over screen is passed, P ends each
phase, until game-turn 51 begins.  On the way the face's panels and lists are checked."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr.face.adapter import EfsAdapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import HandoffScreen, PickScreen, TextScreen

from tests.ui.efs_drive import ui_game_turn
from tests.ui.helpers import game_screen, goto, keys, screen_text


async def test_efs_scripted_game_turn_through_the_face() -> None:
    game = Game.new("efs_ktr/sumy", seed=7)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert isinstance(screen.adapter, EfsAdapter)
        shown = screen_text(app)
        assert "Game-turn 50 (GT50-GT53), Dry" in shown
        assert "Strategic segment: [REINFORCEMENTS]" in shown

        await goto(pilot, "1208")
        inspector = str(screen.query_one("#inspector").render()).splitlines()
        assert inspector[0] == "Hex 1208, clear"
        assert inspector[1].startswith("Axis stack of 4, 7 stacking points")
        assert inspector[2] == "1 10th Motorized Infantry Regiment 3-3-7 steps 2/2 SP 2"

        await keys(pilot, "question_mark")
        assert isinstance(app.screen, TextScreen) and "Reinforcements (8.0, 8.12)" in screen_text(app)
        await keys(pilot, "escape", "L")
        legend = screen_text(app)
        assert "woods on hill (10.72: both costs count)" in legend and "minor road crossing a hexside" in legend
        await keys(pilot, "escape", "C")
        assert not isinstance(app.screen, PickScreen)  # nothing to pick in the reinforcements phase

        played = await ui_game_turn(pilot, game)
        assert game.state.turn == 2 and not game.state.over
        assert played.moved and played.declared == ["1506", "1407"] and played.attacks == 2
        assert played.interdicted == 1
        assert {"air_mission:17.21", "set_order:14.31", "attacker_order:15.58", "reveal_order:15.59"} <= set(
            played.prompts)
        assert "soviet" in played.handed_to and "axis" in played.handed_to
        kinds = [a.kind for a in game.log]
        assert {"move", "interdict", "declare", "attack", "air_mission", "set_order", "end_phase"} <= set(kinds)
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "axis"
        await keys(pilot, "space")
        assert "Game-turn 51 (GT50-GT53)" in screen_text(app)
