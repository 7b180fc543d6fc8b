"""Combat through the UI: an overrun, and an attack through to the retreat and the advance.

Seeds are chosen so the die gives a -/1 result (checked below, so a change in the dice shows).
"""

from __future__ import annotations

from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import Attack
from kiev_tui.ui.app import build_app
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, PickScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.conftest import position
from tests.ui.helpers import game_screen, goto, keys, new_mini, screen_text

SIZE = (120, 40)


async def test_overrun_then_the_defender_takes_the_loss() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "so-rifle-3": "0405"},
                    player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d")  # select the panzer regiments, cursor onto the enemy
        assert game_screen(app).cursor.id == "0405"
        await keys(pilot, "o")
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "Overrun of 0405" in text and "3-1" in text and "[20.0]" in text
        await keys(pilot, "y")
        assert game.state.pending is not None and game.state.pending["kind"] == "loss_or_retreat"
        # hot seat: the map is hidden until the Soviet player, who answers, has the keyboard
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "soviet"
        assert "hand the keyboard to the SOVIET player" in screen_text(app)
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen)
        assert "SOVIET PLAYER" in screen_text(app)
        await keys(pilot, "enter")  # lose the step
        assert game.state.units["so-rifle-3"].status == "eliminated"
        assert game.state.units["ge-1pz-1"].hex == "0405"  # 6.24: the overrunners move in
        assert game.sides[-2:] == ["german", "soviet"]  # each side submitted its own action
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "german"  # handed back
        await keys(pilot, "space")
        assert isinstance(app.screen, GameScreen) and game_screen(app).seat == "german"


async def test_attack_preview_retreat_and_advance() -> None:
    game = position(new_mini(seed=1), {"ge-inf-1": "0304", "ge-inf-2": "0305", "so-rifle-3": "0404",
                                       "so-hq-army": "0505"}, player="german", phase="combat",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0304")
        await keys(pilot, "enter")
        await goto(pilot, "0305")
        await keys(pilot, "enter")
        await goto(pilot, "0404")
        await keys(pilot, "enter")
        assert game_screen(app).overlay.attackers == ("ge-inf-1", "ge-inf-2")
        assert game_screen(app).overlay.targets == ("0404",)
        await keys(pilot, "c")
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "Odds column: 2-1" in text
        assert "[10.4] woods: defence doubled" in text  # every modifier with its case
        assert "33.3%" in text  # the chance of each result
        await keys(pilot, "y")
        pending = game.state.pending
        assert pending is not None and pending["kind"] == "loss_or_retreat" and pending["side"] == "soviet"
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "soviet"
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen)
        await keys(pilot, "R")  # the Soviet player retreats rather than lose the step
        assert game.state.pending is not None and game.state.pending["kind"] == "retreat"
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "german"  # 19.7
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen)
        assert "GERMAN PLAYER" in screen_text(app)  # 19.7: the enemy picks the path
        await keys(pilot, "enter")
        assert game.state.units["so-rifle-3"].hex == "0504"
        assert game.state.pending is not None and game.state.pending["kind"] == "advance"
        await keys(pilot, "tab", "space")  # to the units; untick ge-inf-1: only ge-inf-2 goes
        await keys(pilot, "tab", "enter")  # back to the ways; the first one
        assert game.state.pending is None
        assert game.state.units["ge-inf-2"].hex == "0404"
        assert game.state.units["ge-inf-1"].hex == "0304"
        assert isinstance(app.screen, GameScreen)
        log = screen_text(app)
        assert "advance" in log


async def test_attack_refused_shows_the_case() -> None:
    game = position(new_mini(seed=1), {"ge-inf-1": "0204", "so-rifle-3": "0404"}, player="german",
                    phase="combat", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0204")
        await keys(pilot, "enter")
        await goto(pilot, "0404")
        await keys(pilot, "enter", "c")
        assert isinstance(app.screen, GameScreen)  # no preview for an attack that cannot be made
        assert "Refused [" in str(game_screen(app).query_one("#status").render())


async def test_20_2_the_player_names_the_division_gd_joins() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704",
                                       "so-rifle-4": "0804"}, player="german", phase="combat",
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0704")
        await keys(pilot, "enter")
        await goto(pilot, "0804")
        await keys(pilot, "enter")
        await keys(pilot, "c")
        assert isinstance(app.screen, PickScreen)  # two mechanized divisions: the German chooses
        text = screen_text(app)
        assert "Divisional integrity (20.2)" in text
        # each choice shows the attack strength it gives, from the engine's own preview
        force = ("ge-1pz-2", "ge-2pz-1", "ge-gd")
        one = combat.preview(game, force, ("0804",), integrity="1 Pz").attack
        two = combat.preview(game, force, ("0804",), integrity="2 Pz").attack
        assert (one, two) == (2 + 6 + 4, 1 + 12 + 4)
        assert f"GD counts with 1 Pz: attack strength {one:g}" in text
        assert f"GD counts with 2 Pz: attack strength {two:g}" in text
        await keys(pilot, "down", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "GD counts with 2 Pz (20.2)" in text and "(total 17)" in text
        await keys(pilot, "y")
        attack = game.log[-1]
        assert isinstance(attack, Attack) and attack.integrity == "2 Pz"


async def test_20_2_no_question_when_only_one_division_is_there() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804"},
                    player="german", phase="combat", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0704")
        await keys(pilot, "enter")
        await goto(pilot, "0804")
        await keys(pilot, "enter", "c")
        assert isinstance(app.screen, ConfirmScreen)
        assert "(total 16)" in screen_text(app)


async def test_20_2_an_overrun_with_gd_asks_too() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-2": "0305", "ge-2pz-1": "0305", "ge-gd": "0305",
                                       "so-rifle-3": "0405"}, player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d")  # select the stack, cursor onto the enemy
        await keys(pilot, "o")
        assert isinstance(app.screen, PickScreen)
        assert "GD counts with 1 Pz: attack strength" in screen_text(app)
        await keys(pilot, "down", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        assert "GD counts with 2 Pz (20.2)" in screen_text(app)
        await keys(pilot, "y")
        overrun = next(a for a in reversed(game.log) if a.kind == "overrun")
        assert overrun.integrity == "2 Pz"


async def test_4_1_the_defenders_answer_opened_by_hand_is_for_the_defender_only() -> None:
    """Esc on the hand-off leaves the choice waiting; p hands over again; the German cannot answer."""
    from kiev_tui.games.spi_kiev.actions import TakeLosses

    game = position(new_mini(seed=1), {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "so-rifle-3": "0405"},
                    player="german", reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0305")
        await keys(pilot, "enter", "d", "o", "y")
        assert isinstance(app.screen, HandoffScreen)
        screen = game_screen(app)
        assert screen.seat == "german"
        assert screen.play(TakeLosses(("so-rifle-3",))) is False  # the German at the keys cannot answer
        assert "Refused [4.1]" in str(screen.query_one("#status").render())
        assert game.state.units["so-rifle-3"].status == "map"


async def test_20_2_the_german_takes_the_keyboard_to_answer_during_a_soviet_attack() -> None:
    from kiev_tui.games.spi_kiev.actions import ChooseIntegrity
    from tests.spi_helpers import load_dice

    game = position(new_mini(seed=1), {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704",
                                       "so-rifle-4": "0804", "so-hq-army": "0804"},
                    player="soviet", phase="combat", reinforcements=False)
    load_dice(game, [6])
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "0804")
        await keys(pilot, "enter")
        await goto(pilot, "0704")
        await keys(pilot, "enter", "c", "y")
        assert game.state.pending is not None and game.state.pending["kind"] == "integrity"
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "german"
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen) and "GERMAN PLAYER to answer" in screen_text(app)
        await keys(pilot, "down", "enter")
        assert game.log[-1] == ChooseIntegrity("2 Pz") and game.sides[-2:] == ["soviet", "german"]
        # die 6 at 1-2: 3/-, the Soviet attacker's own choice: the keyboard goes back to him
        assert game.state.pending is not None and game.state.pending["side"] == "soviet"
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "soviet"
        await keys(pilot, "space")
        assert isinstance(app.screen, PendingScreen) and "SOVIET PLAYER to answer" in screen_text(app)
        assert game_screen(app).seat == "soviet"
