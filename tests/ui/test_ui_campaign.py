"""One whole game-turn of the real campaign, both sides, played only through keys."""

from __future__ import annotations

from textual.pilot import Pilot

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.ui.app import build_app
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen
from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import game_screen, goto, keys, screen_text, status

SIZE = (120, 40)


async def end_phase(pilot: Pilot, game: Game) -> None:
    before = (game.state.turn, game.state.player, game.state.phase)
    await keys(pilot, "escape", "P")
    assert isinstance(pilot.app.screen, ConfirmScreen)
    await keys(pilot, "y")
    assert (game.state.turn, game.state.player, game.state.phase) != before, status(pilot.app)
    if isinstance(pilot.app.screen, HandoffScreen):
        await keys(pilot, "space")
    assert isinstance(pilot.app.screen, GameScreen)


async def enter_three(pilot: Pilot, hex_index: int, in_hand: bool = False) -> None:
    """i, tick the first three due units, choose the hex_index-th entry hex; with a group still
    in hand, say yes to ending its move (5.0)."""
    await keys(pilot, "i")
    assert isinstance(pilot.app.screen, EntryScreen)
    await keys(pilot, "down", "space", "down", "space", "tab", *["down"] * hex_index, "enter")
    if in_hand:
        assert isinstance(pilot.app.screen, ConfirmScreen) and "[5.0]" in screen_text(pilot.app)
        await keys(pilot, "y")
    assert isinstance(pilot.app.screen, GameScreen)


async def move_somewhere(pilot: Pilot, game: Game) -> str:
    """Tab to a stack that can move, select it, go to the first hex it can reach."""
    await keys(pilot, "escape", "tab", "enter")
    screen = game_screen(pilot.app)
    units = screen.overlay.selected
    assert units, status(pilot.app)
    dest = min(h for h, r in screen.overlay.reach.items() if r.ok)
    await goto(pilot, str(dest))
    await keys(pilot, "enter")
    assert game.state.units[units[0]].hex == str(dest), status(pilot.app)
    return units[0]


def an_attack(game: Game) -> tuple[str, tuple[str, ...], str] | None:
    """A German hex, the units Enter picks there, and an adjacent Soviet hex they may attack."""
    view = View(game)
    for h, ids in sorted(view.occupancy.items()):
        units = tuple(sorted(u for u in ids if view.side(u) == "german" and not view.is_hq_like(u)))
        if not units:
            continue
        for n in view.map.neighbours(h):
            if view.occupied_by(n, "soviet") and combat.preview(game, units, (str(n),)).illegal is None:
                return str(h), units, str(n)
    return None


async def answer_everything(pilot: Pilot, game: Game) -> None:
    for _ in range(10):
        if game.state.pending is None:
            return
        assert isinstance(pilot.app.screen, PendingScreen)
        kind = game.state.pending["kind"]
        await keys(pilot, "n" if kind == "advance" else "enter")
    assert game.state.pending is None


async def test_a_full_game_turn_of_the_campaign() -> None:
    game = Game.new("spi_kiev/campaign", seed=1941)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # Soviet movement: every reinforcement on, three to a hex, then one stack moves.
        await enter_three(pilot, 0)
        await enter_three(pilot, 1, in_hand=True)
        await keys(pilot, "escape", "i", "down", "space", "tab", "down", "down", "enter")
        assert isinstance(pilot.app.screen, ConfirmScreen)  # Esc let go of the selection, not of the hand (5.0)
        await keys(pilot, "y")
        assert not game.phase.todo or all("reinforcement" not in t for t in game.phase.todo)
        await move_somewhere(pilot, game)
        await end_phase(pilot, game)
        assert (game.state.player, game.state.phase) == ("soviet", "combat")
        await end_phase(pilot, game)  # hand-off to the German player
        assert (game.state.player, game.state.phase) == ("german", "movement")
        await move_somewhere(pilot, game)
        await end_phase(pilot, game)
        # German combat: one attack, every pending choice answered from the dialogs.
        found = an_attack(game)
        assert found is not None
        where, attackers, target = found
        await goto(pilot, where)
        await keys(pilot, "enter")
        assert set(game_screen(pilot.app).overlay.attackers) == set(attackers)
        await goto(pilot, target)
        await keys(pilot, "enter", "c")
        assert isinstance(app.screen, ConfirmScreen)
        rolls = game.rolls
        await keys(pilot, "y")
        assert game.rolls > rolls
        await answer_everything(pilot, game)
        await end_phase(pilot, game)
        assert (game.state.player, game.state.phase) == ("german", "mechanized")
        await end_phase(pilot, game)
        assert (game.state.turn, game.state.player, game.state.phase) == (2, "soviet", "movement")
        assert Hex.parse(game_screen(app).cursor.id)  # the cursor is on the map for the new player
