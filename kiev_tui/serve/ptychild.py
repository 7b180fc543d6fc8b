"""One program on a pseudo-terminal of a given size, driven from asyncio.

The server copies the SSH channel's bytes into the pty's master side and the program's output
back out.  The child gets its own session and process group, so stopping it (a dropped login)
signals that group and nothing else of the server.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import termios
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from kiev_tui.serve.ledger import Ledger

MAX_PENDING = 65536  # keys typed ahead of a busy child, at most
#: A bracketed paste's markers: a paste cut without its end would turn every later key into
#: pasted text (issue 36), so a cut closes an open paste and drops the rest of it.
PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
GRACE = 3.0  # seconds a child has to end after SIGHUP and again after SIGTERM


def set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(1, height), max(1, width), 0, 0))


def _without_partial_marker(data: bytes) -> bytes:
    """``data`` less a paste marker cut in its middle at the end (it would garble the next one)."""
    for n in range(len(PASTE_END) - 1, 0, -1):
        tail = data[-n:]
        if PASTE_START.startswith(tail) or PASTE_END.startswith(tail):
            return data[:-n]
    return data


class PtyChild:
    """A child process whose stdin, stdout and stderr are one pty; `output` gets what it writes."""

    live: "set[PtyChild]" = set()  # every child not yet closed, for the server's shutdown
    #: where the server lists the process groups it started (ledger.py), so a server killed
    #: with SIGKILL has its game screens ended by the next one
    ledger: "Ledger | None" = None

    def __init__(self, proc: asyncio.subprocess.Process, master: int, output: Callable[[bytes], None]) -> None:
        self.proc = proc
        self.master = master
        self._output = output
        self.eof = asyncio.get_running_loop().create_future()
        self.bytes_out = 0
        self._pending = bytearray()
        self._writing = False
        self._paste_open = False  # the keys taken so far leave a bracketed paste open
        self._dropping_paste = False  # a paste was cut: its rest is dropped up to its end marker
        self._tail = b""  # the last bytes taken, to find a marker split across two writes
        PtyChild.live.add(self)
        if PtyChild.ledger is not None:
            PtyChild.ledger.add("screen", proc.pid)
        asyncio.get_running_loop().add_reader(master, self._readable)

    @classmethod
    async def start(cls, argv: Sequence[str], width: int, height: int, env: Mapping[str, str],
                    output: Callable[[bytes], None], cwd: str | None = None) -> "PtyChild":
        master, slave = os.openpty()
        try:
            set_size(slave, width, height)
            os.set_blocking(master, False)
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=dict(env), cwd=cwd,
                start_new_session=True, close_fds=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        return cls(proc, master, output)

    def _readable(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # Linux says EIO once the child has closed its side: that is the end
            chunk = b""
        if not chunk:
            self._stop_reading()
            return
        self.bytes_out += len(chunk)
        self._output(chunk)

    def pause(self) -> None:
        """Stop taking the child's output for a while (the client is slow to read it)."""
        if self.master >= 0 and not self.eof.done():
            asyncio.get_running_loop().remove_reader(self.master)

    def resume(self) -> None:
        if self.master >= 0 and not self.eof.done():
            asyncio.get_running_loop().add_reader(self.master, self._readable)

    def _stop_reading(self) -> None:
        if self.master >= 0:
            asyncio.get_running_loop().remove_reader(self.master)
        if not self.eof.done():
            self.eof.set_result(None)

    def write(self, data: bytes) -> None:
        """Keys from the player; a child already gone takes nothing.  What the pty cannot take
        now waits (up to MAX_PENDING bytes: a flood of pasted text is cut, never the server's
        loop blocked).  A cut inside a bracketed paste ends the paste there and drops its rest,
        so the program never waits for an end marker that was thrown away."""
        if self.master < 0:
            return
        if self._dropping_paste:
            end = data.find(PASTE_END)
            if end < 0:
                return
            data = data[end + len(PASTE_END):]
            self._dropping_paste = False
        room = max(0, MAX_PENDING - len(self._pending))
        kept = data[:room]
        if len(kept) < len(data):
            kept = _without_partial_marker(kept)
            if self._open_after(kept):
                rest = data[len(kept):]
                kept += PASTE_END
                self._dropping_paste = PASTE_END not in rest
        if not kept:
            return
        self._paste_open = self._open_after(kept)
        self._tail = (self._tail + kept)[-(len(PASTE_END) - 1):]
        was_empty = not self._pending
        self._pending.extend(kept)
        if was_empty:
            self._flush()

    def _open_after(self, kept: bytes) -> bool:
        """Whether a bracketed paste is still open once ``kept`` is taken."""
        probe = self._tail + kept
        start, end = probe.rfind(PASTE_START), probe.rfind(PASTE_END)
        if start < 0 and end < 0:
            return self._paste_open
        return start > end

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending and self.master >= 0:
            try:
                n = os.write(self.master, self._pending)
            except BlockingIOError:
                if not self._writing:
                    loop.add_writer(self.master, self._flush)
                    self._writing = True
                return
            except OSError:
                self._pending.clear()
                break
            del self._pending[:n]
        if self._writing and self.master >= 0:
            loop.remove_writer(self.master)
        self._writing = False

    def resize(self, width: int, height: int) -> None:
        """The client's new window size, and SIGWINCH so the program reads it (it has no
        controlling terminal to get the signal from the kernel)."""
        if self.master < 0:
            return
        set_size(self.master, width, height)
        self._signal(signal.SIGWINCH)

    def _signal(self, sig: int) -> None:
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    async def wait(self) -> int:
        """The child's exit status, once it has ended and all its output has been passed on."""
        code = await self.proc.wait()
        try:
            await asyncio.wait_for(asyncio.shield(self.eof), 1.0)  # the last paint before the exit
        except asyncio.TimeoutError:
            pass
        return code

    async def stop(self) -> int:
        """End the child: SIGHUP (a hung-up terminal), then SIGTERM, then SIGKILL; close the pty."""
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            if self.proc.returncode is not None:
                break
            self._signal(sig)
            try:
                await asyncio.wait_for(self.proc.wait(), GRACE)
            except asyncio.TimeoutError:
                continue
        code = await self.proc.wait()
        self.close()
        return code

    def close(self) -> None:
        PtyChild.live.discard(self)
        if PtyChild.ledger is not None:
            PtyChild.ledger.remove(self.proc.pid)
        if self.master >= 0:
            self._stop_reading()
            if self._writing:
                asyncio.get_running_loop().remove_writer(self.master)
                self._writing = False
            os.close(self.master)
            self.master = -1
