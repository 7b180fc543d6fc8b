"""Tiny's reaction phase (T4: dig in) in the Textual UI, with no Tiny face code: after the Axis
movement the keyboard goes to the Allies (the actor, not the phasing player), their stack is the
one selected, the tracker shows the whole game-turn with the dig-in phase marked as theirs, and
the Axis side is refused with T1."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen
from kiev_tui.ui.hexmap import hex_text

from tests.tiny_game import DIG, TinyMove, tiny  # noqa: F401  (the fixture registers Tiny)
from tests.ui.helpers import game_screen, goto, keys, screen_text

SIZE = (120, 36)


async def test_the_dig_in_phase_is_handed_to_the_non_phasing_side(tiny: Path) -> None:  # noqa: F811
    game = Game.new(DIG, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        text = screen_text(app)
        assert "Axis player: [MOVEMENT] > dig in (Allies)" in text
        assert "Allies player: movement > dig in (Axis)" in text
        await goto(pilot, "0202")
        await keys(pilot, "enter", "e", "enter")  # ax-1 to Northby
        assert game.state.units["ax-1"].hex == "0301"
        await keys(pilot, "P")
        assert isinstance(app.screen, ConfirmScreen) and app.screen.title_text == "End the Axis movement phase?"
        await keys(pilot, "y")
        # no change of phasing player, but the actor changed: the hand-off screen, to the Allies
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "allies"
        await keys(pilot, "space")
        assert (screen.seat, game.actor, game.state.player, game.state.phase) == ("allies", "allies", "axis", "dig_in")
        assert not game.can_undo  # the barrier at the change of actor
        assert "Axis player: movement > [DIG IN] (Allies)" in screen_text(app)
        # the phasing side's stack is not the one to act: the face says whose turn it is, the engine T1
        await goto(pilot, "0102")
        await keys(pilot, "enter")
        assert screen.overlay.selected == ()
        assert "it is the Allies player's turn" in screen.message
        assert str(game.check(TinyMove(("ax-2",), ("0202",)), side="axis")) == \
            "[T1] it is the allies player's turn, not the axis player's"
        # the Allies dig in: al-1 at 0504 steps into Southby (0404), one hex only
        await goto(pilot, "0504")
        await keys(pilot, "enter")
        assert screen.overlay.selected == ("al-1",)
        reach = {hex_text(game.scenario.map, h) for h, r in screen.overlay.reach.items() if r.ok}
        assert reach == {"0404", "0405", "0503", "0505", "0604", "0605"}  # the six next hexes, no farther
        await goto(pilot, "0404")
        await keys(pilot, "enter")
        assert game.state.units["al-1"].hex == "0404" and game.state.vars.dug == ["al-1"]
        assert game.sides == ["axis", "axis", "allies"]
        await keys(pilot, "P")
        assert app.screen.title_text == "End the Allies dig in phase?"
        await keys(pilot, "y")
        # the Allies' own movement follows: the phasing player changes, the actor does not (no hand-off)
        assert app.screen is screen
        assert (screen.seat, game.state.player, game.state.phase) == ("allies", "allies", "movement")
        assert "Allies player: [MOVEMENT] > dig in (Axis)" in screen_text(app)
