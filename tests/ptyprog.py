"""A program on a pseudo-terminal, its screen kept in a small test terminal (tests.ui.vt).

The pty tests of the game (`test_pty_hardening.py`) and of the SSH server (`test_serve_*`)
drive their programs through this one class; each adds how its own program starts and quits.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from pathlib import Path
from typing import Mapping

from tests.ui.vt import Terminal


class PtyProgram:
    QUIET = 0.15  # seconds without output that count as "settled"
    TAIL = 800  # bytes of raw output shown when a test fails
    TERMINAL: type[Terminal] = Terminal  # what keeps the screen (a subclass may know more codes)

    def __init__(self, argv: list[str], width: int, height: int, env: Mapping[str, str],
                 cwd: Path | None = None) -> None:
        self.width, self.height = width, height
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=dict(env),
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.term = self.TERMINAL(width, height)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.raw = bytearray()

    def pump(self, timeout: float) -> int:
        """Read what the program wrote within `timeout` seconds: how many bytes (0: nothing)."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return 0
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            return 0
        if b"\x1b[6n" in chunk:  # a real terminal answers where its cursor is
            os.write(self.master, f"\x1b[{self.height};{self.width}R".encode())
        self.raw.extend(chunk)
        self.term.feed(self.decoder.decode(chunk))
        return len(chunk)

    def settle(self, quiet: float | None = None, limit: float = 10.0) -> int:
        """Read until the program has been quiet for `quiet` seconds (or `limit` has passed)."""
        quiet = self.QUIET if quiet is None else quiet
        got = 0
        end = time.monotonic() + limit
        while time.monotonic() < end:
            n = self.pump(quiet)
            if not n:
                break
            got += n
        return got

    def text(self) -> str:
        return self.term.text()

    def wait_for(self, pattern: str, timeout: float = 30.0) -> bool:
        """Whether the screen shows `pattern` (a regular expression) within `timeout` seconds."""
        end = time.monotonic() + timeout
        rx = re.compile(pattern)
        while True:
            if rx.search(self.text()):
                return True
            if time.monotonic() > end or not self.alive():
                self.settle(0.05, 1.0)
                return bool(rx.search(self.text()))
            self.pump(0.1)

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, n: int | None = None) -> str:
        return bytes(self.raw[-(n or self.TAIL):]).decode("utf-8", "replace")

    def stop(self) -> None:
        """End the program's whole process group if it still runs, and close the pty."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        os.close(self.master)
