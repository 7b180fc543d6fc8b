"""20.2 on defence in the TUI: GD beside two divisions is attacked, the German names the division."""

from __future__ import annotations

from kiev_tui.games.spi_kiev.actions import Attack, ChooseIntegrity
from kiev_tui.ui.app import build_app
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen

from tests.conftest import position
from tests.spi_helpers import load_dice
from tests.ui.helpers import keys, new_mini, screen_text

SIZE = (120, 40)


async def test_20_2_the_german_names_gds_division_when_attacked() -> None:
    game = position(new_mini(seed=1), {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704",
                                       "so-rifle-4": "0804", "so-hq-army": "0804"},
                    player="soviet", phase="combat", reinforcements=False)
    load_dice(game, [6])
    game.apply(Attack(("so-rifle-4", "so-hq-army"), ("0704",)))
    assert game.state.pending is not None and game.state.pending["kind"] == "integrity"
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "p")
        assert isinstance(app.screen, PendingScreen)
        text = screen_text(app)
        assert "GERMAN PLAYER to answer" in text and "(20.2)" in text
        assert "1 Pz" in text and "2 Pz" in text
        await keys(pilot, "down", "enter")
        await pilot.pause()
        assert game.log[-1] == ChooseIntegrity("2 Pz")
        resolved = [e for e in game.journal if e.kind == "combat_resolved"]
        assert resolved and resolved[-1].defense == 11  # 2 Pz and GD doubled, 1 Pz at face value
