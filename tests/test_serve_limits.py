"""The limits of `kiev-tui serve` (issue 36, item 4): games per player and in all, hosts running at
once, the idle stop of a host nobody sits at, and a player ending one of his games.

The lobby runs in this process on a scripted console, against games written to a state folder;
the idle stop and the room for a host start real `kiev-tui host` processes (a second or two each).
"""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import AsyncIterator

import pytest

from kiev_tui.engine.saves import load_game
from kiev_tui.serve.hosted import ENDED, SAVE, HostedRooms, Seat, Table
from kiev_tui.serve.keys import Player
from kiev_tui.serve.limits import Limits
from kiev_tui.serve.rooms import offers
from tests.test_serve_support import MINI, clean_env

ALICE = Player("SHA256:alice", "alice")
BOB = Player("SHA256:bob", "bob")


class Done(Exception):
    """The script of keys has run out."""


class ScriptConsole:
    """Keys from a script (then Done); what was written kept as text."""

    width = 100
    height = 24
    term = "xterm"

    def __init__(self, keys: str) -> None:
        self.keys = list(keys)
        self.out: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    async def key(self, timeout: float | None = None) -> str:
        if not self.keys:
            raise Done
        return self.keys.pop(0)

    def text(self) -> str:
        return "".join(self.out)


def _table(root: Path, gid: str, **seats: Player) -> Table:
    folder = root / "games" / gid
    folder.mkdir(parents=True)
    table = Table(gid, folder, str(MINI), "Test position", ("german", "soviet"), "2026-12-05 23:00 UTC")
    for side, player in seats.items():
        table.seats[side] = Seat(player.fingerprint, player.name)
    table.write()
    return table


@pytest.fixture
async def made(tmp_path: Path) -> AsyncIterator[list[HostedRooms]]:
    """Rooms made by a test are closed after it (their hosts stopped)."""
    made: list[HostedRooms] = []
    yield made
    for rooms in made:
        await rooms.close()


def _rooms(root: Path, made: list[HostedRooms], **limits: float) -> HostedRooms:
    rooms = HostedRooms(root, offers([str(MINI)]), Limits(**limits))  # type: ignore[arg-type]
    made.append(rooms)
    return rooms


async def _lobby(rooms: HostedRooms, player: Player, keys: str) -> tuple[object, ScriptConsole]:
    console = ScriptConsole(keys)
    try:
        choice = await rooms.lobby(console, player, "kiev-tui")  # type: ignore[arg-type]
    except Done:
        choice = None
    return choice, console


async def _until(check, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_a_player_at_his_limit_may_not_start_or_join_another_game(
        tmp_path: Path, made: list[HostedRooms], caplog: pytest.LogCaptureFixture) -> None:
    _table(tmp_path, "a1", soviet=ALICE)
    _table(tmp_path, "b1", german=BOB)
    rooms = _rooms(tmp_path, made, games_per_player=1)
    why = "You hold a side in as many games as this server allows a player (1): end one with e first."
    with caplog.at_level(logging.WARNING, "kiev_tui.serve"):
        choice, console = await _lobby(rooms, ALICE, "nx")
        assert choice is None
        assert f"\n{why} (any key)\n" in console.text()
        assert "Which scenario?" not in console.text()
        choice, console = await _lobby(rooms, ALICE, "j1x")  # bob's game has its Soviet side open
        assert choice is None
        assert f"\n{why} (any key)\n" in console.text()
    assert [r.getMessage() for r in caplog.records] == [f"refused: alice: {why}"] * 2
    assert rooms.tables["b1"].free_sides() == ["soviet"]
    assert len(rooms.tables) == 2


async def test_a_player_under_his_limit_gets_the_scenarios(tmp_path: Path, made: list[HostedRooms]) -> None:
    _table(tmp_path, "a1", soviet=ALICE)
    rooms = _rooms(tmp_path, made, games_per_player=2)
    choice, console = await _lobby(rooms, ALICE, "n")
    assert "Which scenario?" in console.text()
    assert "You hold a side" not in console.text()


async def test_the_server_at_its_most_games_starts_no_new_one(
        tmp_path: Path, made: list[HostedRooms], caplog: pytest.LogCaptureFixture) -> None:
    _table(tmp_path, "b1", german=BOB)
    _table(tmp_path, "b2", german=BOB)
    rooms = _rooms(tmp_path, made, max_games=2)
    why = "This server keeps as many games as it may (2): one must end before another starts."
    with caplog.at_level(logging.WARNING, "kiev_tui.serve"):
        choice, console = await _lobby(rooms, ALICE, "nx")
    assert choice is None
    assert f"\n{why} (any key)\n" in console.text()
    assert [r.getMessage() for r in caplog.records] == [f"refused: alice: {why}"]


async def test_a_player_ends_one_of_his_games(tmp_path: Path, made: list[HostedRooms]) -> None:
    _table(tmp_path, "a1", soviet=ALICE)
    _table(tmp_path, "b1", german=BOB, soviet=ALICE)
    rooms = _rooms(tmp_path, made, games_per_player=2)
    choice, console = await _lobby(rooms, BOB, "")
    assert "  e  end one of your games\n" in console.text()
    choice, console = await _lobby(rooms, ALICE, "e2n")  # n: not confirmed
    assert "End which game? (its save is kept on the server)" in console.text()
    assert sorted(rooms.tables) == ["a1", "b1"]
    rooms.tables["b1"].seated = 1  # bob is at it now
    choice, console = await _lobby(rooms, ALICE, "e2yx")
    assert "\nSomeone is at that game now; it was not ended. (any key)\n" in console.text()
    assert sorted(rooms.tables) == ["a1", "b1"]
    rooms.tables["b1"].seated = 0
    version = rooms.version
    choice, console = await _lobby(rooms, ALICE, "e2y")
    assert choice is None
    assert sorted(rooms.tables) == ["a1"]
    assert rooms.version == version + 1  # every idle lobby redraws without it
    assert (tmp_path / ENDED / "b1" / "table.toml").exists()
    assert not (tmp_path / "games" / "b1").exists()
    assert sorted(HostedRooms(tmp_path, offers([str(MINI)])).tables) == ["a1"]  # gone after a restart too


async def test_a_host_nobody_sits_at_stops_saved_and_comes_back(tmp_path: Path, made: list[HostedRooms]) -> None:
    _table(tmp_path, "a1", soviet=ALICE)
    rooms = _rooms(tmp_path, made, idle_minutes=0.02)  # 1.2 seconds
    table = rooms.tables["a1"]
    choice, console = await _lobby(rooms, ALICE, "r1")  # resume: the host starts, the seat would be next
    assert choice is not None and choice.game == "a1"
    first = table.host
    assert first is not None and table.running()
    rooms.sat_down(choice)  # alice's screen runs: the host stays
    await asyncio.sleep(3 * 1.2)  # three idle periods pass (the check is that nothing happens)
    assert table.host is first and table.running()
    rooms.stood_up(choice)
    assert await _until(lambda: table.host is None)
    assert first.returncode == 0  # asked to stop, not killed
    assert len(load_game(table.folder / SAVE).log) == 0  # saved, and it verifies
    assert "a1" in rooms.tables
    choice, console = await _lobby(rooms, ALICE, "r1")  # resumable from the lobby
    assert choice is not None and table.running() and table.host is not first
    assert "Starting the game's host..." in console.text()


async def test_more_hosts_than_allowed_stop_an_idle_one_or_are_refused(
        tmp_path: Path, made: list[HostedRooms], caplog: pytest.LogCaptureFixture) -> None:
    _table(tmp_path, "a1", soviet=ALICE)
    _table(tmp_path, "a2", soviet=ALICE)
    rooms = _rooms(tmp_path, made, max_running=1, idle_minutes=0)
    one, two = rooms.tables["a1"], rooms.tables["a2"]
    choice, _ = await _lobby(rooms, ALICE, "r1")
    assert choice is not None and one.running()
    choice, _ = await _lobby(rooms, ALICE, "r2")  # nobody at a1: its host makes room
    assert choice is not None and two.running() and not one.running()
    assert one.host is None
    rooms.sat_down(choice)  # alice is at a2 now
    with caplog.at_level(logging.WARNING, "kiev_tui.serve"):
        choice, console = await _lobby(rooms, ALICE, "r1x")
    assert choice is None
    assert ("\nAll 1 games this server runs at once have players at them now; try again later. (any key)\n"
            in console.text())
    assert [r.getMessage() for r in caplog.records] == [
        "refused: game a1: 1 hosts run, each with a login at it (--max-running 1)"]
    assert two.running() and not one.running()


def test_serve_help_shows_the_limits_and_their_defaults() -> None:
    env = clean_env() | {"COLUMNS": "200"}
    out = subprocess.run([sys.executable, "-m", "kiev_tui", "serve", "--help"], capture_output=True, text=True,
                         env=env, timeout=60).stdout
    rows = {m.group(1): m.group(2) for m in re.finditer(r"(--[a-z-]+)\s.*?\[default: ([0-9.]+)\]", out)}
    assert {k: rows.get(k) for k in ("--games-per-player", "--max-games", "--max-running", "--idle-minutes")} == {
        "--games-per-player": "4", "--max-games": "200", "--max-running": "20", "--idle-minutes": "30.0"}
