"""`kiev-tui join` on a real terminal (a pty), against a host: the seat's game screen waits for the
Soviet player, shows his moves as they are made, gets the move, plays it through the host and quits."""

from __future__ import annotations

import time
from pathlib import Path

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter
from tests.test_pty_hardening import MINI, App, quit_cleanly
from test_net_support import HostThread, Seat

SOVIET_TURN = [Enter(("so-t01-rifle-1",), "1005"), Enter(("so-t01-rifle-2",), "1005"), EndPhase(), EndPhase()]


def test_a_seat_on_a_terminal_plays_through_the_host(tmp_path: Path) -> None:
    with HostThread(Game.new(MINI, seed=7), tmp_path / "net.toml", tmp_path / "h.sock") as h:
        app = App(tmp_path, "join", f"unix:{h.address.path}", "--side", "german", width=100, height=30)
        soviet = None
        try:
            assert app.wait_for(r"Waiting for the Soviet player"), app.tail()
            app.settle()
            bells = bytes(app.raw).count(b"\a")
            soviet = Seat(h.address, "soviet")
            for action in SOVIET_TURN:
                soviet.play(action)
            assert app.wait_for(r"Your move, German player\."), app.tail()
            app.settle()
            assert bytes(app.raw).count(b"\a") == bells + 1  # the bell: the move is his
            app.send(b"P")
            assert app.wait_for(r"End the phase\? \(y/n\)"), app.tail()
            app.send(b"y")
            end = time.monotonic() + 10
            while len(h.game.log) < 5 and time.monotonic() < end:
                app.pump(0.05)
            assert h.game.sides[4:] == ["german"] and h.game.log[4] == EndPhase()
            soviet.wait_known(5)
            assert quit_cleanly(app) == 0  # nothing to lose: the host has the game
        finally:
            if soviet is not None:
                soviet.close()
            app.close()
