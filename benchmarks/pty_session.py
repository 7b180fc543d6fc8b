"""Drive a program through a real pseudo-terminal and count the bytes it writes.

What a player on a slow SSH link pays for is bytes: the first full paint, then each
small change.  A session starts the program on the slave side of ``os.openpty`` with a
given window size, reads the master side until the output goes quiet, and records how
many bytes each step produced.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from dataclasses import dataclass, field
from typing import Sequence


@dataclass
class PtySession:
    argv: Sequence[str]
    width: int
    height: int
    cwd: str | None = None
    env: dict[str, str] | None = None
    quiet: float = 0.6  # seconds with no output that count as "the screen settled"
    limit: float = 20.0  # never wait longer than this for one step
    proc: subprocess.Popen | None = None
    master: int = -1
    transcript: bytearray = field(default_factory=bytearray)

    def start(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.height, self.width, 0, 0))
        env = dict(os.environ if self.env is None else self.env)
        env.update({"TERM": env.get("TERM_FOR_BENCH", "xterm-256color"), "COLUMNS": str(self.width),
                    "LINES": str(self.height)})
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen(list(self.argv), stdin=slave, stdout=slave, stderr=slave, cwd=self.cwd,
                                     env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master

    def read_until_quiet(self, first_byte_timeout: float | None = None) -> int:
        """Bytes written until nothing more came for ``quiet`` seconds."""
        got = 0
        start = time.monotonic()
        last = start
        wait_first = self.limit if first_byte_timeout is None else first_byte_timeout
        while True:
            now = time.monotonic()
            if now - start > self.limit:
                break
            timeout = (wait_first - (now - start)) if got == 0 else self.quiet - (now - last)
            if timeout <= 0:
                break
            ready, _, _ = select.select([self.master], [], [], timeout)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break  # the child closed the terminal
            if not chunk:
                break
            self._answer_queries(chunk)
            got += len(chunk)
            self.transcript.extend(chunk)
            last = time.monotonic()
        return got

    def _answer_queries(self, chunk: bytes) -> None:
        # A real terminal answers a cursor-position request; a silent one can stall some apps.
        if b"\x1b[6n" in chunk:
            os.write(self.master, f"\x1b[{self.height};{self.width}R".encode())

    def send(self, keys: bytes, wait: float = 2.0) -> int:
        """Type ``keys``; bytes written in answer (waiting up to ``wait`` s for the first one)."""
        os.write(self.master, keys)
        return self.read_until_quiet(first_byte_timeout=wait)

    def resize(self, width: int, height: int) -> int:
        self.width, self.height = width, height
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGWINCH)
        return self.read_until_quiet(first_byte_timeout=2.0)

    def close(self, quit_keys: bytes = b"\x11") -> None:
        """Ask the program to quit; stop it (and only it) if it does not."""
        if self.proc is None:
            return
        try:
            os.write(self.master, quit_keys)
        except OSError:
            pass
        deadline = time.monotonic() + 3.0
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    os.read(self.master, 65536)
                except OSError:
                    break
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        os.close(self.master)
        self.proc = None

    def __enter__(self) -> "PtySession":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
