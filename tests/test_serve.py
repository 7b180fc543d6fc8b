"""`kiev-tui serve` on loopback: the OpenSSH client and asyncssh's client log in by key, get the
lobby, start a game (a `kiev-tui host` with a `join` seat on the login's pty), make a move and
leave cleanly; a friend joins the open side and sees the move; a dropped login ends its own
seat only, and its player takes his side back; unknown keys and passwords are refused (issue 15)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Callable, Iterator

import asyncssh
import pytest

from tests.test_serve_support import (MINI, PtyClient, Server, Terminal, make_key, ssh_argv, start_server,
                                      wait_gone)

LOBBY = r"Signed in as alice \(key SHA256:"
GAME = r"Sequence of play"
MOVED = r"enters? at|entered|arriv"  # a Soviet reinforcement came on: one action applied
SOVIET = b"2"  # the mini scenario's sides are german, soviet; the Soviet player moves first


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    alice = make_key(tmp_path, "alice", "alice@laptop")
    bob = make_key(tmp_path, "bob", "bob@desk")
    mallory = make_key(tmp_path, "mallory", "mallory@elsewhere")
    auth = tmp_path / "authorized_keys"
    auth.write_text("# the club's players\n" + Path(f"{alice}.pub").read_text()
                    + "restrict,pty " + Path(f"{bob}.pub").read_text())
    return {"alice": alice, "bob": bob, "mallory": mallory, "auth": auth}


def _serve(tmp_path: Path, keys: dict[str, Path], *extra: str) -> Iterator[Server]:
    srv = start_server(tmp_path, keys["auth"], "--scenario", str(MINI), *extra)
    try:
        yield srv
    finally:
        kids = srv.children()
        srv.stop()
        assert srv.proc.returncode == 0, (tmp_path / "serve.log").read_text()[-3000:]
        assert wait_gone(kids) == [], "serve left a child running"


@pytest.fixture
def server(tmp_path: Path, keys: dict[str, Path]) -> Iterator[Server]:
    yield from _serve(tmp_path, keys)


@pytest.fixture
def local_server(tmp_path: Path, keys: dict[str, Path]) -> Iterator[Server]:
    yield from _serve(tmp_path, keys, "--local")


def play_a_move(text: Callable[[], str], send: Callable[[bytes], None], wait_for: Callable[[str], bool]) -> None:
    """On the mini scenario's opening screen: bring on a Soviet reinforcement (23.0)."""
    send(b"i")
    assert wait_for(r"Reinforcements due now"), text()
    send(b"\t")  # to the list of entry hexes
    time.sleep(0.3)
    send(b"\r")
    assert wait_for(MOVED), text()


def new_game(ssh: PtyClient, side: bytes = SOVIET) -> None:
    """From the lobby: a new game of the mini scenario, this player on `side`."""
    ssh.send(b"n")
    assert ssh.wait_for(r"Which scenario\?(.|\n)*1  Test position"), ssh.text()
    ssh.send(b"1")
    assert ssh.wait_for(r"Which side will you play\?(.|\n)*2  soviet"), ssh.text()
    ssh.send(side)
    assert ssh.wait_for(GAME, 60), ssh.tail()
    ssh.settle()


def back_to_lobby(ssh: PtyClient, lobby: str = LOBBY) -> None:
    ssh.send(b"\x11")  # ctrl+q
    end = time.monotonic() + 20
    while not ssh.wait_for(lobby, 0.5) and time.monotonic() < end:
        if "Quit without saving?" in ssh.text():
            ssh.send(b"y")
    assert ssh.wait_for(lobby + r"(.|\n)*q  log out", 5), ssh.text()


# -- the OpenSSH client -----------------------------------------------------------------------

def test_openssh_login_lobby_game_move_and_clean_quit(server: Server, keys: dict[str, Path]) -> None:
    ssh = PtyClient(ssh_argv(server.port, keys["alice"]), width=100, height=30)
    try:
        assert ssh.wait_for(LOBBY), ssh.tail()
        new_game(ssh)
        assert ssh.wait_for(r"Your move|Soviet: \[MOVE\]"), ssh.text()  # the tracker: the whole game-turn
        kids = server.children()
        assert len(kids) == 2  # the game's host and this login's seat, both children of the server
        play_a_move(ssh.text, ssh.send, lambda rx: ssh.wait_for(rx, 30))
        back_to_lobby(ssh)
        assert len(wait_gone(kids, 10)) == 1  # the seat ended; the host keeps the game
        assert ssh.wait_for(r"r  resume one of your games \(1\)", 5), ssh.text()
        ssh.send(b"q")
        assert ssh.wait_exit() == 0, ssh.tail()
        assert "Goodbye." in ssh.tail()
    finally:
        ssh.close()


@contextlib.contextmanager
def bob_waits_while_alice_starts_a_game(server: Server, keys: dict[str, Path]) -> Iterator[tuple[PtyClient, PtyClient]]:
    """Bob idles in the lobby before any game exists; Alice logs in and starts one as the Soviet."""
    bob = PtyClient(ssh_argv(server.port, keys["bob"]))
    alice: PtyClient | None = None
    try:
        assert bob.wait_for(r"Signed in as bob(.|\n)*q  log out"), bob.tail()  # in the lobby before the game exists
        assert "join an open game" not in bob.text()
        alice = PtyClient(ssh_argv(server.port, keys["alice"]))
        assert alice.wait_for(LOBBY), alice.tail()
        new_game(alice)
        yield bob, alice
    finally:
        if alice is not None:
            alice.close()
        bob.close()


def test_a_friend_joins_the_open_side_and_a_dropped_player_takes_his_side_back(
        server: Server, keys: dict[str, Path]) -> None:
    with bob_waits_while_alice_starts_a_game(server, keys) as (bob, alice):
        assert bob.wait_for(r"j  join an open game \(1\)", 10), bob.text()  # the idle lobby shows it
        bob.send(b"j")  # join an open game: the German side of Alice's
        assert bob.wait_for(r"Join which game\?(.|\n)*1  Test position .*\[german: open, soviet: alice\] turn 1, soviet movement"), bob.text()
        bob.send(b"1")
        assert bob.wait_for(r"Waiting for the Soviet player", 60), bob.text()
        play_a_move(alice.text, alice.send, lambda rx: alice.wait_for(rx, 30))
        assert bob.wait_for(MOVED, 30), bob.text()  # Alice's move reached Bob's seat
        seats_before = set(server.children())
        os.killpg(alice.proc.pid, signal.SIGKILL)  # Alice's link drops: no goodbye, no ctrl+q
        alice.proc.wait()
        end = time.monotonic() + 20
        while len(set(server.children())) != len(seats_before) - 1 and time.monotonic() < end:
            time.sleep(0.1)
        assert len(server.children()) == len(seats_before) - 1  # her seat ended, host and Bob's seat live
        bob.send(b"?")
        assert bob.wait_for(r"Help: \w+ phase", 30), bob.text()  # Bob's game still answers
        bob.send(b"\x1b")
        again = PtyClient(ssh_argv(server.port, keys["alice"]))
        try:
            assert again.wait_for(LOBBY), again.tail()
            again.send(b"r")
            assert again.wait_for(r"Resume which game\?(.|\n)*1  as soviet: "), again.text()
            again.send(b"1")
            assert again.wait_for(GAME, 60), again.tail()
            assert again.wait_for(MOVED, 30), again.text()  # the same position: her move is there
            back_to_lobby(again)
            again.send(b"q")
            assert again.wait_exit() == 0
        finally:
            again.close()
        back_to_lobby(bob, r"Signed in as bob")
        bob.send(b"q")
        assert bob.wait_exit() == 0


def test_a_spectator_watches(server: Server, keys: dict[str, Path]) -> None:
    with bob_waits_while_alice_starts_a_game(server, keys) as (bob, alice):
        assert bob.wait_for(r"w  watch a game \(1\)", 10), bob.text()
        bob.send(b"w")
        assert bob.wait_for(r"Watch which game\?(.|\n)*1  Test position"), bob.text()
        bob.send(b"1")
        assert bob.wait_for(GAME, 60), bob.tail()
        play_a_move(alice.text, alice.send, lambda rx: alice.wait_for(rx, 30))
        assert bob.wait_for(MOVED, 30), bob.text()
        back_to_lobby(bob, r"Signed in as bob")
        bob.send(b"j")  # watching took no side: the German side is still open
        assert bob.wait_for(r"\[german: open, soviet: alice\]"), bob.text()


def test_openssh_unknown_key_is_refused(server: Server, keys: dict[str, Path]) -> None:
    ssh = PtyClient(ssh_argv(server.port, keys["mallory"]))
    try:
        assert ssh.wait_exit() == 255
        assert "Permission denied (publickey)" in ssh.tail(), ssh.tail()
        assert "Signed in" not in ssh.tail()
    finally:
        ssh.close()


def test_openssh_without_a_terminal_gets_one_line(server: Server, keys: dict[str, Path]) -> None:
    ssh = PtyClient(ssh_argv(server.port, keys["alice"], "-T"))
    try:
        assert ssh.wait_exit() == 1
        assert "kiev-tui serve needs a terminal: log in with ssh -t" in ssh.tail(), ssh.tail()
    finally:
        ssh.close()


def test_local_mode_a_dropped_login_ends_its_own_game_only(local_server: Server, keys: dict[str, Path]) -> None:
    """--local: each login plays a game of its own at one keyboard (kiev-tui play)."""
    server = local_server
    first = PtyClient(ssh_argv(server.port, keys["alice"]))
    second = PtyClient(ssh_argv(server.port, keys["bob"]))
    try:
        for ssh in (first, second):
            assert ssh.wait_for(r"Signed in as"), ssh.tail()
            ssh.send(b"n")
            assert ssh.wait_for(r"Which scenario\?(.|\n)*1  Test position"), ssh.text()
            ssh.send(b"1")
            assert ssh.wait_for(GAME, 60), ssh.tail()
        games = server.children()
        assert len(games) == 2
        os.killpg(first.proc.pid, signal.SIGKILL)  # the link drops: no goodbye, no ctrl+q
        first.proc.wait()
        end = time.monotonic() + 20
        while len(wait_gone(games, 0)) != 1 and time.monotonic() < end:
            time.sleep(0.1)
        assert len(wait_gone(games, 0)) == 1  # one game ended, the other plays on
        assert server.proc.poll() is None
        second.settle(0.2, 2)
        play_a_move(second.text, second.send, lambda rx: second.wait_for(rx, 30))
        back_to_lobby(second, r"Signed in as bob")
        second.send(b"q")
        assert second.wait_exit() == 0
    finally:
        first.close()
        second.close()


# -- asyncssh's client ------------------------------------------------------------------------

class Screen:
    """What an asyncssh client session shows, kept in a test terminal."""

    def __init__(self, process: asyncssh.SSHClientProcess, width: int, height: int) -> None:
        self.process = process
        self.term = Terminal(width, height)
        self.raw = bytearray()

    async def pump(self, timeout: float) -> int:
        try:
            chunk = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except asyncio.TimeoutError:
            return 0
        if not chunk:
            return 0
        self.raw.extend(chunk)
        self.term.feed(chunk.decode("utf-8", "replace"))
        return len(chunk)

    async def settle(self, quiet: float = 0.3, limit: float = 10.0) -> int:
        got = 0
        end = time.monotonic() + limit
        while time.monotonic() < end:
            n = await self.pump(quiet)
            if not n:
                break
            got += n
        return got

    async def wait_for(self, pattern: str, timeout: float = 30.0) -> bool:
        import re

        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while not rx.search(self.term.text()):
            if time.monotonic() > end or self.process.stdout.at_eof():
                return False
            await self.pump(0.1)
        return True


async def _connect(port: int, key: Path, **kw: object) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", port, username="anyone", known_hosts=None,
                                  client_keys=[str(key)], agent_path=None, **kw)


async def test_asyncssh_login_lobby_game_resize_move_and_clean_quit(server: Server, keys: dict[str, Path]) -> None:
    async with await _connect(server.port, keys["alice"]) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        screen = Screen(process, 80, 24)
        assert await screen.wait_for(LOBBY), screen.raw[-1500:]
        process.stdin.write(b"n")
        assert await screen.wait_for(r"Which scenario\?"), screen.term.text()
        process.stdin.write(b"1")
        assert await screen.wait_for(r"Which side will you play\?"), screen.term.text()
        process.stdin.write(SOVIET)
        assert await screen.wait_for(GAME, 60), screen.raw[-1500:]
        await screen.settle()
        # The window grows: the game repaints at the new size (its last column now used).
        screen.term = Terminal(110, 32)
        process.change_terminal_size(110, 32)
        await screen.settle(0.5)
        rows = screen.term.text().splitlines()
        assert max(len(r.rstrip()) for r in rows) > 100, screen.term.text()
        assert any(GAME.split()[0] in r for r in rows)

        for key in (b"i", b"\t", b"\r"):
            process.stdin.write(key)
            await screen.settle(0.3)
        assert await screen.wait_for(MOVED, 30), screen.term.text()
        process.stdin.write(b"\x11")
        end = time.monotonic() + 20
        while not await screen.wait_for(LOBBY, 0.5) and time.monotonic() < end:
            if "Quit without saving?" in screen.term.text():
                process.stdin.write(b"y")
        assert await screen.wait_for(LOBBY, 5), screen.term.text()
        process.stdin.write(b"q")
        result = await asyncio.wait_for(process.wait(), 20)
        assert result.exit_status == 0


async def test_asyncssh_unknown_key_and_password_are_refused(server: Server, keys: dict[str, Path]) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(_connect(server.port, keys["mallory"]), 20)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(asyncssh.connect("127.0.0.1", server.port, username="alice", password="alice",
                                                known_hosts=None, client_keys=None, agent_path=None), 20)


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def test_a_host_that_dies_is_restarted_from_its_autosave(server: Server, keys: dict[str, Path]) -> None:
    alice = PtyClient(ssh_argv(server.port, keys["alice"]))
    try:
        assert alice.wait_for(LOBBY), alice.tail()
        new_game(alice)
        play_a_move(alice.text, alice.send, lambda rx: alice.wait_for(rx, 30))
        hosts = [p for p in server.children() if "host" in _cmdline(p)]
        assert len(hosts) == 1
        os.kill(hosts[0], signal.SIGKILL)  # no chance to say goodbye: only its autosave is left
        end = time.monotonic() + 30
        again: list[int] = []
        while not again and time.monotonic() < end:
            again = [p for p in server.children() if "host" in _cmdline(p) and p != hosts[0]]
            alice.pump(0.1)
        assert again, (server.folder / "serve.log").read_text()[-2000:]
        assert _cmdline(again[0])[-7:-2] == ["host", "save.toml", "--listen", "unix:host.sock", "--lifeline"]
        back_to_lobby(alice)
        alice.send(b"r")
        assert alice.wait_for(r"Resume which game\?(.|\n)*1  as soviet: "), alice.text()
        alice.send(b"1")
        assert alice.wait_for(GAME, 60), alice.tail()
        alice.settle()
        assert alice.wait_for(MOVED, 30), alice.text()  # the move made before the host died
        back_to_lobby(alice)
    finally:
        alice.close()


async def test_garbage_and_a_command_leave_the_server_serving(server: Server, keys: dict[str, Path]) -> None:
    held = []
    for junk in (b"GET / HTTP/1.0\r\n\r\n", b"SSH-2.0-x\r\n" + bytes(range(256)) * 40, b"\x00" * 70000):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(junk)
        await writer.drain()
        held.append(writer)  # left open: a bad client that lingers must not hold up the others
    async with await _connect(server.port, keys["alice"]) as conn:
        result = await asyncio.wait_for(conn.run("ls /", term_type="xterm", check=False), 20)
        assert result.exit_status == 1
        assert (result.stdout + result.stderr).strip() == "kiev-tui serve runs only the game; log in without a command"
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        screen = Screen(process, 80, 24)
        assert await screen.wait_for(LOBBY + r"(.|\n)*q  log out"), screen.raw[-800:]
        process.stdin.write(b"q")
        assert (await asyncio.wait_for(process.wait(), 20)).exit_status == 0
    for writer in held:
        writer.close()
    assert server.proc.poll() is None
