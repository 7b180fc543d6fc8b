"""Drive a program through a real pseudo-terminal: count the bytes it writes, and when.

What a player on a slow SSH link pays for is bytes: the first full paint, then each
small change.  A session starts the program on the slave side of ``os.openpty`` with a
given window size, reads the master side until the output goes quiet, and records how
many bytes each step produced.  Every chunk read is kept with its arrival time (seconds
since the spawn) in ``events``, so the first frame can be found afterwards
(benchmarks/screen.py).  Closing reaps the child with ``os.wait4``: ``rusage`` then holds
its resource use, and with ``measure=True`` the program is started through benchmarks/spawn.py,
which reports the program's own peak memory and the moments it started and ended
(``child``; see spawn.py for why the benchmark cannot ask wait4 for that itself).
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
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
    events: list[tuple[float, bytes]] = field(default_factory=list)  # (seconds since spawn, chunk)
    t0: float = 0.0
    rusage: os.struct_rusage | None = None  # the child's, once reaped by close()
    last_byte_at: float = 0.0  # seconds since spawn of the last byte read
    forced: bool = False  # True when close() had to signal the child: it did not quit on its keys
    hung_up: bool = False  # a read found the terminal closed by the program
    measure: bool = False  # start through spawn.py: `child` then holds the program's own figures
    child: dict[str, float] | None = None  # spawned, ended (seconds since t0), maxrss_kib, status
    _result: str = ""

    def start(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.height, self.width, 0, 0))
        env = dict(os.environ if self.env is None else self.env)
        env.update({"TERM": env.get("TERM_FOR_BENCH", "xterm-256color"), "COLUMNS": str(self.width),
                    "LINES": str(self.height)})
        env.pop("TEXTUAL", None)
        argv = list(self.argv)
        if self.measure:
            fd, self._result = tempfile.mkstemp(prefix="kiev-spawn-")
            os.close(fd)
            spawn = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spawn.py")
            argv = [sys.executable, "-I", "-S", spawn, self._result, *argv]
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=self.cwd,
                                     env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master

    def _read(self, timeout: float) -> int:
        """One chunk within `timeout` seconds: its length (0: nothing came, or the terminal closed)."""
        ready, _, _ = select.select([self.master], [], [], max(timeout, 0.0))
        if not ready:
            return 0
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.hung_up = True  # the child closed the terminal: it is ending
            return 0
        now = time.monotonic() - self.t0
        self._answer_queries(chunk)
        self.transcript.extend(chunk)
        self.events.append((now, chunk))
        self.last_byte_at = now
        return len(chunk)

    def read_until_quiet(self, first_byte_timeout: float | None = None, quiet: float | None = None) -> int:
        """Bytes written until nothing more came for ``quiet`` seconds."""
        quiet = self.quiet if quiet is None else quiet
        got = 0
        start = time.monotonic()
        last = start
        wait_first = self.limit if first_byte_timeout is None else first_byte_timeout
        while True:
            now = time.monotonic()
            if now - start > self.limit:
                break
            timeout = (wait_first - (now - start)) if got == 0 else quiet - (now - last)
            if timeout <= 0:
                break
            n = self._read(timeout)
            if not n:
                break
            got += n
            last = time.monotonic()
        return got

    def read_for(self, seconds: float) -> int:
        """Every byte written in the next `seconds` seconds (an idle screen should write none)."""
        got = 0
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            n = self._read(left)
            if not n and self.proc is not None and self.proc.poll() is not None:
                break
            got += n
        return got

    def read_to_end(self, limit: float) -> float | None:
        """Read until the program closes the terminal, then reap it: seconds from spawn to its end.

        None if it was still running after `limit` seconds (close() then stops it).
        """
        assert self.proc is not None
        deadline = time.monotonic() + limit
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return None
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break  # every copy of the slave side is closed: the program is ending
            if not chunk:
                break
            now = time.monotonic() - self.t0
            self.transcript.extend(chunk)
            self.events.append((now, chunk))
            self.last_byte_at = now
        else:
            return None
        self._reap(block=True)
        return time.monotonic() - self.t0

    def _answer_queries(self, chunk: bytes) -> None:
        # A real terminal answers a cursor-position request; a silent one can stall some apps.
        if b"\x1b[6n" in chunk:
            os.write(self.master, f"\x1b[{self.height};{self.width}R".encode())

    def send(self, keys: bytes, wait: float = 2.0) -> int:
        """Type ``keys``; bytes written in answer (waiting up to ``wait`` s for the first one)."""
        os.write(self.master, keys)
        return self.read_until_quiet(first_byte_timeout=wait)

    def send_timed(self, keys: bytes, wait: float = 2.0, quiet: float | None = None) -> tuple[int, float | None]:
        """Type ``keys``: (bytes in answer, seconds from the key to the answer's last byte; None if none)."""
        sent = time.monotonic() - self.t0
        os.write(self.master, keys)
        got = self.read_until_quiet(first_byte_timeout=wait, quiet=quiet)
        return got, (self.last_byte_at - sent if got else None)

    def resize(self, width: int, height: int) -> int:
        self.width, self.height = width, height
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGWINCH)
        return self.read_until_quiet(first_byte_timeout=2.0)

    def _reap(self, block: bool) -> bool:
        """Collect the child's exit and resource use if it has ended (wait4, not Popen's waitpid)."""
        assert self.proc is not None
        if self.proc.returncode is not None:
            return True  # someone (a test) already waited for it: no rusage then
        try:
            pid, status, usage = os.wait4(self.proc.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            self.proc.poll()
            return True
        if pid == 0:
            return False
        self.rusage = usage
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return True

    def close(self, quit_keys: bytes = b"\x11", confirm: bytes = b"y") -> None:
        """Ask the program to quit (``confirm`` answers a question after a second); stop it if it does not."""
        if self.proc is None:
            return
        try:
            os.write(self.master, quit_keys)
        except OSError:
            pass
        started = time.monotonic()
        confirmed = False
        while not self._reap(block=False) and time.monotonic() - started < 4.0:
            if not confirmed and confirm and time.monotonic() - started > 1.0:
                confirmed = True  # a "quit and lose ...?" question: say yes
                try:
                    os.write(self.master, confirm)
                except OSError:
                    pass
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    os.read(self.master, 65536)
                except OSError:
                    pass
        if self.proc.returncode is None:
            self.forced = True
            os.killpg(self.proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + 3.0
            while not self._reap(block=False) and time.monotonic() < deadline:
                time.sleep(0.05)
            if self.proc.returncode is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self._reap(block=True)
        os.close(self.master)
        self.proc = None
        if self.measure:
            self.child = read_result(self._result, self.t0)
            os.unlink(self._result)

    @property
    def peak_rss_mib(self) -> float | None:
        """The program's own peak resident memory, when started with ``measure`` (ru_maxrss is in KiB)."""
        return None if self.child is None else self.child["maxrss_kib"] / 1024

    @property
    def spawned_at(self) -> float:
        """Seconds from t0 until the program itself was started (0 without ``measure``)."""
        return 0.0 if self.child is None else self.child["spawned"]

    def __enter__(self) -> "PtySession":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_result(path: str, t0: float) -> dict[str, float] | None:
    """What spawn.py wrote, times made relative to `t0`; None if it wrote nothing (it was killed)."""
    try:
        with open(path) as fh:
            pairs = dict(line.strip().split("=", 1) for line in fh if "=" in line)
        got = {k: float(pairs[k]) for k in ("spawned", "ended", "maxrss_kib", "status")}
    except (OSError, KeyError, ValueError):
        return None
    got["spawned"] -= t0
    got["ended"] -= t0
    return got
