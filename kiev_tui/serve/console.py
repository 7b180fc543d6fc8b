"""The SSH session as the server sees it: text out, keys in, the window's size, and a hang-up.

The lobby is plain text on the client's terminal (which OpenSSH puts in raw mode when a pty is
given): single keys choose, lines end in CR LF.  While a game runs, the session's bytes go to
the game's pty unchanged and its window changes resize that pty.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncssh

from kiev_tui.serve.ptychild import PtyChild

# Past this many bytes waiting for a slow client, the game's output is held back (the game then
# waits on its own terminal) instead of piling up in the server's memory.
HIGH_WATER = 1 << 20
CLEAR = "\x1b[0m\x1b[H\x1b[2J"
# A client may claim any window size; a game screen of a million cells would cost the server
# its memory, so the pty is never made larger than this (the picture is then cut, not the server).
MAX_WIDTH, MAX_HEIGHT = 400, 150


def _clamp(value: int, most: int) -> int:
    return max(10, min(int(value), most))


class Hangup(Exception):
    """The client is gone (end of input, a dropped connection, a closed channel)."""


class Console:
    """One login's terminal: `write` text, `key` waits for the next key press."""

    def __init__(self, process: Any) -> None:  # asyncssh.SSHServerProcess
        self.process = process
        width, height, _pw, _ph = process.get_terminal_size()
        self.width, self.height = _clamp(width or 80, MAX_WIDTH), _clamp(height or 24, MAX_HEIGHT)
        self.term = process.get_terminal_type() or ""

    def write(self, text: str) -> None:
        self.raw(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))

    def raw(self, data: bytes) -> None:
        try:
            self.process.stdout.write(data)
        except (BrokenPipeError, ConnectionError, asyncssh.Error) as exc:
            raise Hangup(str(exc)) from None

    def _resized(self, exc: asyncssh.TerminalSizeChanged) -> None:
        self.width = _clamp(exc.width or self.width, MAX_WIDTH)
        self.height = _clamp(exc.height or self.height, MAX_HEIGHT)

    async def read(self) -> bytes:
        """The next bytes the client sends; a resize is noted and not returned."""
        while True:
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as exc:
                self._resized(exc)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                return b"\x03"  # a break or a signal from the client means stop, like ctrl+c
            except (asyncssh.Error, ConnectionError, OSError) as exc:
                raise Hangup(str(exc)) from None
            if not data:
                raise Hangup("end of input")
            return bytes(data)

    async def key(self, timeout: float | None = None) -> str:
        """One key press: its first character (an escape sequence reads as ESC); "" when
        `timeout` seconds pass without one."""
        if timeout is None:
            data = await self.read()
        else:
            try:
                data = await asyncio.wait_for(self.read(), timeout)
            except asyncio.TimeoutError:
                return ""
        return data[:1].decode("latin-1")

    async def run_child(self, argv: list[str], env: dict[str, str], cwd: str | None = None) -> int:
        """Run a program on a pty of this window's size until it ends; its exit status.

        A hang-up stops the program (and only it) and raises Hangup.
        """
        paused: list[asyncio.Task[None]] = []

        def out(chunk: bytes) -> None:
            self.raw(chunk)
            chan = self.process.channel
            if chan.get_write_buffer_size() > HIGH_WATER and not paused:
                child.pause()
                paused.append(asyncio.ensure_future(drained()))

        async def drained() -> None:
            try:
                await self.process.stdout.drain()
            except (asyncssh.Error, ConnectionError, OSError):
                gone.set()  # the client went away while the game waited for it to read
            finally:
                paused.clear()
                child.resume()

        def safe_out(chunk: bytes) -> None:
            try:
                out(chunk)
            except Hangup:
                gone.set()

        gone = asyncio.Event()
        child = await PtyChild.start(argv, self.width, self.height, env, safe_out, cwd=cwd)

        async def pump() -> None:
            while True:
                try:
                    data = await self.process.stdin.read(4096)
                except asyncssh.TerminalSizeChanged as exc:
                    self._resized(exc)
                    child.resize(self.width, self.height)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue  # the game has its own quit keys
                except (asyncssh.Error, ConnectionError, OSError):
                    return
                if not data:
                    return
                child.write(bytes(data))

        reader = asyncio.ensure_future(pump())
        ended = asyncio.ensure_future(child.wait())
        lost = asyncio.ensure_future(gone.wait())
        try:
            await asyncio.wait({reader, ended, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, lost, *paused):
                task.cancel()
        if ended.done():
            child.close()
            return ended.result()
        ended.cancel()
        await child.stop()  # the login is gone: its game child goes, nothing else
        raise Hangup("the client left during the game")
