"""Bytes per cursor move through `kiev-tui serve`: what a player on a slow link pays.

An asyncssh client logs in through a counting TCP relay, starts a Kiev campaign game as the
Soviet player (a `join` seat) and walks the cursor the twelve hexes of the terminal benchmark
(benchmarks/apps.py WALK).  For every key it counts the terminal bytes the session carries and
the bytes the relay saw coming from the server (SSH framing, padding and MAC included).  Run
with `-s` to see the figures; docs/SSH.md quotes them.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Iterator

import asyncssh
import pytest

from tests.test_serve_support import Server, Terminal, make_key, start_server, wait_gone

WALK = (b"s", b"w", b"a", b"q", b"d", b"d", b"d", b"l", b"l", b"e", b"e", b"s")
QUIET = 0.5  # seconds without output that end one key's answer


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    key = make_key(tmp_path, "alice", "alice@laptop")
    auth = tmp_path / "authorized_keys"
    auth.write_text(Path(f"{key}.pub").read_text())
    srv = start_server(tmp_path, auth, "--scenario", "spi_kiev/campaign")
    try:
        yield srv, key
    finally:
        kids = srv.children()
        srv.stop()
        assert wait_gone(kids) == []


class Relay:
    """127.0.0.1:port -> the server, counting the bytes that come back."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.down = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter, count: bool) -> None:
            while data := await src.read(65536):
                if count:
                    self.down += len(data)
                dst.write(data)
                await dst.drain()
            dst.close()

        await asyncio.gather(copy(reader, up_writer, False), copy(up_reader, writer, True),
                             return_exceptions=True)

    def close(self) -> None:
        self.server.close()


async def _quiet(process: asyncssh.SSHClientProcess, term: Terminal, first: float = 5.0) -> int:
    got = 0
    wait = first
    while True:
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), wait)
        except asyncio.TimeoutError:
            return got
        if not chunk:
            return got
        got += len(chunk)
        term.feed(chunk.decode("utf-8", "replace"))
        wait = QUIET


async def _until(process: asyncssh.SSHClientProcess, term: Terminal, text: str, limit: float = 60) -> None:
    end = time.monotonic() + limit
    while text not in term.text():
        assert time.monotonic() < end, term.text()
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), 1.0)
        except asyncio.TimeoutError:
            continue
        term.feed(chunk.decode("utf-8", "replace"))


@pytest.mark.parametrize("width, height", [(120, 40), (80, 24)])
async def test_bytes_per_cursor_move_through_serve(served: tuple[Server, Path], width: int, height: int) -> None:
    srv, key = served
    relay = Relay(srv.port)
    port = await relay.start()
    try:
        async with asyncssh.connect("127.0.0.1", port, username="alice", known_hosts=None, client_keys=[str(key)],
                                    agent_path=None, compression_algs=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(width, height),
                                                encoding=None)
            term = Terminal(width, height)
            await _until(process, term, "q  log out")
            lobby = relay.down
            for k, shown in ((b"n", "Which scenario?"), (b"1", "Which side will you play?")):
                process.stdin.write(k)
                await _until(process, term, shown)
            before = relay.down
            process.stdin.write(b"2")  # soviet: the side that moves first
            await _until(process, term, "Sequence of play")
            paint = await _quiet(process, term)
            paint_wire = relay.down - before
            moves: list[int] = []
            wire: list[int] = []
            for k in WALK:
                mark = relay.down
                process.stdin.write(k)
                moves.append(await _quiet(process, term, 2.0))
                wire.append(relay.down - mark)
            process.stdin.write(b"\x11")
            await _until(process, term, "q  log out", 20)
            process.stdin.write(b"q")
            await asyncio.wait_for(process.wait(), 20)
    finally:
        relay.close()
    med, med_wire = statistics.median(moves), statistics.median(wire)
    print(f"\nserve {width}x{height}: login and lobby {lobby} B on the wire; game's first paint {paint} terminal B, "
          f"{paint_wire} wire B; "
          f"cursor move median {med:.0f} terminal B, {med_wire:.0f} wire B "
          f"(terminal {moves}; wire {wire})")
    assert all(m > 0 for m in moves), moves  # every key answered: the walk really moved the cursor
    assert med < 400, moves  # the local figure is about 220 B (docs/PERFORMANCE.md); SSH adds nothing here
    assert med_wire < med + 200, (moves, wire)  # SSH's framing per reply: tens of bytes
