"""A seat on the game screen (Pilot), against a host on a thread: the German screen waits for the
Soviet player, sees his moves arrive, gets the move with a bell, and its own action goes to the host."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter
from kiev_tui.net.seat import SeatLink
from kiev_tui.ui.app import KievApp, build_app
from kiev_tui.ui.dialogs import HandoffScreen
from tests.conftest import MINI
from tests.ui.helpers import game_screen, keys, status
from test_net_support import HostThread, Seat

SIZE = (120, 40)
SOVIET_TURN = [Enter(("so-t01-rifle-1",), "1005"), Enter(("so-t01-rifle-2",), "1005"), EndPhase(), EndPhase()]


async def until(pilot: Pilot, cond, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


@pytest.fixture
def hosted(tmp_path: Path):
    with HostThread(Game.new(MINI, seed=7), tmp_path / "net.toml", tmp_path / "h.sock") as h:
        yield h


def _german_app(h: HostThread) -> tuple[KievApp, SeatLink]:
    link = SeatLink(h.address, "german", retry=5)
    link.connect()
    assert link.replica is not None
    return build_app(link.replica.game, net=link), link


async def test_the_german_seat_waits_sees_the_soviet_moves_and_gets_the_move(hosted: HostThread) -> None:
    ui, link = _german_app(hosted)
    soviet = Seat(hosted.address, "soviet")
    bells: list[int] = []
    try:
        async with ui.run_test(size=SIZE) as pilot:
            ui.bell = lambda: bells.append(1)  # type: ignore[method-assign]
            await pilot.pause()
            await until(pilot, lambda: "Waiting for the Soviet player" in status(ui))
            # the German player tries to end the Soviet phase: refused here, with the rule, nothing sent
            await keys(pilot, "P", "y")
            assert "Refused [4.1] it is the soviet player's turn, not the german player's" in status(ui)
            assert hosted.game.log == [] and link.sent < 300
            for action in SOVIET_TURN[:2]:
                soviet.play(action)
            await until(pilot, lambda: len(ui.game.log) == 2)
            assert "Soviet: " in status(ui)  # his move, as it arrives
            assert ui.game.state.units["so-t01-rifle-1"].hex == "1005"
            for action in SOVIET_TURN[2:]:
                soviet.play(action)
            await until(pilot, lambda: "Your move, German player." in status(ui))
            assert bells == [1]
            assert not isinstance(ui.screen, HandoffScreen)  # no hand-over screen: he has his own
            assert game_screen(ui).seat == "german" and ui.game.actor == "german"
            # his own action goes to the host, which plays it for every seat
            await keys(pilot, "P", "y")
            await until(pilot, lambda: len(ui.game.log) == 5)
            assert hosted.game.sides[-1] == "german" and hosted.game.log[-1] == EndPhase()
            soviet.wait_known(5)
            assert soviet.game.state_hash() == ui.game.state_hash() == hosted.game.state_hash()
            await keys(pilot, "u")  # undo is a request to the host, which takes it back for every seat
            await until(pilot, lambda: "Undone: your last action" in status(ui))
            assert len(ui.game.log) == len(hosted.game.log) == 4
            soviet.wait(lambda: soviet.link.replica is not None and soviet.link.replica.known == 4)
            assert game_screen(ui).check_action("load", ()) is False  # no loading another game over the host's
            await keys(pilot, "ctrl+q")  # nothing to lose: leaves at once
            assert not ui.is_running
    finally:
        link.close()
        soviet.close()


async def test_a_spectator_screen_shows_whom_it_waits_for_and_cannot_act(hosted: HostThread) -> None:
    link = SeatLink(hosted.address, "spectator", retry=5)
    link.connect()
    assert link.replica is not None
    ui = build_app(link.replica.game, net=link)
    try:
        async with ui.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await until(pilot, lambda: "Waiting for the Soviet player" in status(ui))
            await keys(pilot, "P", "y")
            assert "Refused [4.1]" in status(ui)
            assert hosted.game.log == []
    finally:
        link.close()


async def test_enter_on_the_other_sides_pending_choice_waits_instead_of_handing_over(tmp_path: Path) -> None:
    import random

    from kiev_tui.games.spi_kiev import bot

    played: list[tuple[str, object]] = []

    class Stop(Exception):
        pass

    def on(g: Game, action: object) -> None:
        played.append((g.sides[-1], action))
        if g.state.pending is not None and g.actor == "soviet" and g.state.player == "german":
            raise Stop

    with pytest.raises(Stop):
        bot.play_game(MINI, 1, on_action=on, max_actions=300)
    game = Game.new(MINI, seed=1)
    for side, action in played:  # the host's game stands where the Soviet player must answer a German attack
        game.apply(action, side=side)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as h:
        ui, link = _german_app(h)
        soviet = Seat(h.address, "soviet")
        try:
            async with ui.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await until(pilot, lambda: "Waiting for the Soviet player" in status(ui))
                assert "p" not in [k for k, _, _ in game_screen(ui).working_keys()]  # not his to answer
                await keys(pilot, "enter")
                assert not isinstance(ui.screen, HandoffScreen)
                assert "The Soviet player answers" in status(ui)
                answer = bot.answer_pending(soviet.game, random.Random(1))
                assert answer is not None and soviet.play(answer).kind == "accepted"
                await until(pilot, lambda: len(ui.game.log) == len(played) + 1)
                assert ui.game.state_hash() == h.game.state_hash()
        finally:
            link.close()
            soviet.close()
