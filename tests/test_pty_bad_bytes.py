"""Bytes that are not UTF-8 never end a game (issue 36, item 1).

An 8-bit Alt key, a Latin-1 terminal or a badly set SSH client sends bytes such as 0xFF.
Textual's input thread decoded strictly, so one such byte ended the app with status 0 and lost
the moves since the last phase end.  These tests type them on a real pty: into `kiev-tui play`
and through a `kiev-tui serve` login.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from tests.test_pty_hardening import ESC, game_screen_answers, new_mini_app, quit_cleanly
from tests.test_serve import GAME, LOBBY, SOVIET, Screen, _connect, keys, server  # noqa: F401 (fixtures)
from tests.test_serve_support import Server

#: Bytes no UTF-8 text holds: never a lead byte, a lone continuation byte, a lead byte whose
#: continuation never comes (the next key is ASCII), and a surrogate's encoding.
BAD = [b"\xff", b"\xfe", b"\x80", b"\xc3", b"\xed\xa0\x80"]
#: Keys that look around without changing the game: cursor moves, help and back, inspector.
HARMLESS = [b"w", b"a", b"s", b"d", b"e", b"q", b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"]


def storm(n: int, seed: int) -> bytes:
    """``n`` keys, about one in five of them a byte sequence that is not UTF-8."""
    rng = random.Random(seed)
    return b"".join(rng.choice(BAD) if rng.random() < 0.2 else rng.choice(HARMLESS) for _ in range(n))


def test_one_bad_byte_in_play_is_ignored(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        app.send(b"\xff")
        app.settle()
        assert app.alive(), app.tail()
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def test_a_storm_of_keys_and_bad_bytes_in_play(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        keys = storm(2000, seed=36)
        assert keys.count(b"\xff") > 50  # the storm really holds bad bytes
        for i in range(0, len(keys), 512):  # as a paste or a held key arrives: many keys a read
            app.send(keys[i:i + 512])
            app.pump(0.05)
        app.settle(0.5, 60)
        assert app.alive(), app.tail()
        app.send(ESC)
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


@pytest.mark.asyncio
async def test_bad_bytes_through_a_serve_seat(server: Server, keys: dict[str, Path]) -> None:  # noqa: F811
    async with await _connect(server.port, keys["alice"]) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        screen = Screen(process, 100, 30)
        assert await screen.wait_for(LOBBY), screen.raw[-1500:]
        process.stdin.write(b"n")
        assert await screen.wait_for(r"Which scenario\?"), screen.term.text()
        process.stdin.write(b"1")
        assert await screen.wait_for(r"Which side will you play\?"), screen.term.text()
        process.stdin.write(SOVIET)
        assert await screen.wait_for(GAME, 60), screen.raw[-1500:]
        await screen.settle()
        process.stdin.write(b"\xff" + storm(400, seed=7) + b"\xfe")
        await screen.settle(0.5, 60)
        process.stdin.write(ESC)
        await screen.settle()
        screen.raw.clear()
        process.stdin.write(b"?")
        assert await screen.wait_for(r"Help: \w+ phase", 30), screen.term.text()
        assert b"Traceback" not in screen.raw and b"UnicodeDecodeError" not in screen.raw
        process.stdin.write(ESC)
        assert await screen.wait_for(GAME, 30), screen.term.text()
        process.stdin.write(b"\x11")  # ctrl+q: back to the lobby, the game kept
        end = time.monotonic() + 30
        while not await screen.wait_for(LOBBY, 0.5) and time.monotonic() < end:
            if "Quit without saving?" in screen.term.text():
                process.stdin.write(b"y")
        assert await screen.wait_for(LOBBY, 5), screen.term.text()
        process.stdin.write(b"q")
        result = await asyncio.wait_for(process.wait(), 30)
        assert result.exit_status == 0
