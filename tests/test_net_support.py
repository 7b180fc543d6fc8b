"""Helpers for the tests of `kiev-tui host` / `join` (no tests here): a host on a thread of its own,
seats that wait for the host's answers, and one game-turn of Kiev played by the random bot."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game
from kiev_tui.net.host import Host
from kiev_tui.net.seat import SeatLink, Update
from kiev_tui.net.wire import Address

SEED = 3
SCENARIO = "spi_kiev/campaign"


class _Stop(Exception):
    pass


@functools.lru_cache(maxsize=None)
def turn_actions(seed: int = SEED, turns: int = 1) -> tuple[tuple[str, Action], ...]:
    """Every action of the first ``turns`` game-turns of a seeded campaign, with the side that played
    it (the bot's game)."""
    from kiev_tui.games.spi_kiev import bot

    played: list[tuple[str, Action]] = []

    def on(game: Game, action: Action) -> None:
        played.append((game.sides[-1], action))
        if game.state.turn == turns + 1:
            raise _Stop

    try:
        bot.play_game(SCENARIO, seed, on_action=on)
    except _Stop:
        pass
    return tuple(played)


class HostThread:
    """A host serving ``game`` on a Unix socket (and loopback TCP), on its own thread and loop."""

    def __init__(self, game: Game, save: Path, sock: Path, tcp: bool = False) -> None:
        self.said: list[str] = []
        self.host = Host(game, save, self.said.append)
        self.addresses = [Address("unix", path=str(sock))] + ([Address("tcp", host="127.0.0.1", port=0)] if tcp else [])
        self.where: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()

            def ready(where: str) -> None:
                self.where.append(where)
                if len(self.where) == len(self.addresses):
                    self._ready.set()

            await self.host.serve_until(self.addresses, ready, self._stop)

        asyncio.run(main())

    def __enter__(self) -> "HostThread":
        self._thread.start()
        assert self._ready.wait(10), "the host did not start"
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
        assert not self._thread.is_alive()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def game(self) -> Game:
        return self.host.game

    def call(self, fn: Any, *args: Any) -> None:
        """Run ``fn`` on the host's own loop (its objects are not thread-safe)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(fn, *args)

    @property
    def address(self) -> Address:
        return self.addresses[0]


class Seat:
    """A SeatLink whose messages are absorbed on the reader thread; waits for the host's answers."""

    def __init__(self, address: Address, side: str, retry: float = 10.0) -> None:
        self.link = SeatLink(address, side, retry=retry)
        self.updates: list[Update] = []
        self.link.connect()
        self.link.start(self._on)

    def _on(self, msg: dict[str, Any]) -> None:
        self.updates.append(self.link.absorb(msg))

    @property
    def game(self) -> Game:
        assert self.link.replica is not None
        return self.link.replica.game

    def wait(self, cond: Any, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if cond():
                return
            time.sleep(0.005)
        raise AssertionError("timed out waiting for the host")

    def wait_known(self, n: int, timeout: float = 10.0) -> None:
        def there() -> bool:
            with self.link.lock:  # not half-way through an action
                return self.link.replica is not None and self.link.replica.known >= n
        self.wait(there, timeout)

    def play(self, action: Action) -> Update:
        """Send one action and wait for the host's answer to it."""
        count = len(self.updates)
        assert self.link.submit(action) == ""
        self.wait(lambda: any(u.own for u in self.updates[count:]))
        return next(u for u in self.updates[count:] if u.own)

    def close(self) -> None:
        self.link.close()


def play_through(seats: dict[str, Seat], actions: Iterator[tuple[str, Action]] | Any, host_game: Game) -> None:
    """Each action by the seat of its side; after each, every seat's copy is the host's position."""
    for side, action in actions:
        update = seats[side].play(action)
        assert update.kind == "accepted", (action, update)
        n = len(host_game.log)
        for seat in seats.values():
            seat.wait_known(n)
            with seat.link.lock:
                assert seat.game.hashes[-1] == host_game.hashes[-1]
