"""The generic face answers any game's prompts from their options: Tiny's set-up choice and its
two-step town choice (tests/tiny_game.py) play by keys with no Tiny face code."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.registry import get_adapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import PromptScreen

from tests.tiny_game import MUSTER, register_tiny, unregister_tiny
from tests.ui.helpers import game_screen, goto, keys

SIZE = (120, 36)


@pytest.fixture
def muster() -> Iterator[Path]:
    register_tiny()
    try:
        yield MUSTER
    finally:
        unregister_tiny()


def _labels(app: object) -> list[str]:
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, PromptScreen)
    return list(screen.query_one("#options").items)


async def test_tiny_setup_and_town_chain_by_keys_in_the_generic_face(muster: Path) -> None:
    assert get_adapter("tiny") is None  # the default face: no Tiny code
    game = Game.new(muster, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # the game opens with the axis player's set-up prompt
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.title_text == "axis player: where does 2 infantry start? (T6)"
        assert _labels(app) == ["1. 2 infantry starts in 0102", "2. 2 infantry starts in 0101"]
        await keys(pilot, "2", "enter")
        await pilot.pause()
        assert (game.state.units["ax-2"].status, game.state.units["ax-2"].hex) == ("map", "0101")
        screen = game_screen(app)
        assert app.screen is screen and game.state.prompts == []

        await goto(pilot, "0202")
        await keys(pilot, "enter", "e", "enter")  # ax-1 into Northby (0301): the town choice
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert _labels(app) == ["1. fortify 0301", "2. forage a neighbouring hex"]
        await keys(pilot, "down", "enter")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)  # the second step opens at once
        assert [f["kind"] for f in game.state.prompts] == ["town", "forage"]
        assert _labels(app) == ["1. forage 0201", "2. forage 0202", "3. forage 0302", "4. forage 0401",
                                "5. forage 0402"]
        await keys(pilot, "5", "enter")
        await pilot.pause()
        assert (game.state.prompts, game.state.vars.foraged) == ([], ["0402"])
        assert app.screen is screen
        assert [a.kind for a in game.log] == ["place", "move", "forage", "forage_at"]


async def test_escape_leaves_the_prompt_waiting_and_p_opens_it_again(muster: Path) -> None:
    game = Game.new(muster, seed=3)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await keys(pilot, "escape")
        await pilot.pause()
        assert app.screen is game_screen(app) and len(game.state.prompts) == 1
        await keys(pilot, "p")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await keys(pilot, "enter")
        await pilot.pause()
        assert game.state.units["ax-2"].hex == "0102"


async def test_a_pick_n_prompt_ticks_options_and_sends_one_combined_action(muster: Path) -> None:
    from kiev_tui.engine.prompts import Option, Prompt
    from tests.tiny_game import TinyMove

    opts = tuple(Option("go", f"{u} goes", TinyMove((u,), ("0201",)), unit=u) for u in ("ax-1", "ax-2", "ax-3"))
    p = Prompt("axis", "pick", "T9", "which two go?", opts, pick=(2, 2),
               combine=lambda chosen: TinyMove(tuple(str(o.unit) for o in chosen), ("0201",)))
    game = Game.new(muster, seed=3)
    app = build_app(game)
    got: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "escape")  # leave the set-up prompt waiting
        await pilot.pause()
        app.push_screen(PromptScreen(p), got.append)
        await pilot.pause()
        assert app.screen.foot == "Space to tick 2, Enter to send, Esc to cancel"
        await keys(pilot, "space", "enter")  # one ticked: refused in the foot line, the dialog stays
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen) and got == []
        await keys(pilot, "3", "space", "enter")
        await pilot.pause()
        assert got == [TinyMove(("ax-1", "ax-3"), ("0201",))]


async def test_the_generic_prompt_dialog_answers_a_kiev_battle_choice() -> None:
    from kiev_tui.games.spi_kiev.actions import Overrun, TakeLosses
    from tests.conftest import position
    from tests.ui.helpers import new_mini

    game = position(new_mini(seed=1), {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "so-rifle-3": "0405"},
                    player="german", reinforcements=False)
    game.apply(Overrun(("ge-1pz-1", "ge-1pz-2"), "0405"), side="german")
    p = game.rules.prompt(game)
    assert (p.side, p.kind, p.case) == ("soviet", "loss_or_retreat", "9.66")
    got: list[object] = []
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(PromptScreen(p), got.append)  # the generic dialog, not Kiev's own
        await pilot.pause()
        assert _labels(app)[0] == "1. lose step(s): so-rifle-3"
        await keys(pilot, "1", "enter")
        await pilot.pause()
    assert got == [TakeLosses(("so-rifle-3",))]
    game.apply(got[0], side="soviet")  # type: ignore[arg-type]
    assert game.state.units["so-rifle-3"].status == "eliminated" and game.state.prompts == []
