"""The server's hold on its state folder: a lock, and a ledger of every process it started.

Only one `kiev-tui serve` may use a state folder at a time: `serve.lock` is locked (flock) for
as long as the server runs, and the kernel lets go of it when the server dies, however it dies.
`processes.toml` lists each process group the server started (a game's host, a login's game
screen) with its pid and the time the kernel says it started, rewritten atomically at every
change.  A server killed with SIGKILL leaves that list behind: the next server on the folder
ends every group on it that is still alive (its pid is still that process: the start time
matches) and removes the sockets they left, before it lets anybody in.  Every game is then
resumed from its autosave when a player sits down at it (hosted.py).
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.tomlio import Reader, atomic_write_text, load_toml

log = logging.getLogger("kiev_tui.serve")

LOCK = "serve.lock"
LEDGER = "processes.toml"
END_GRACE = 5.0  # seconds an old process group has after SIGTERM before SIGKILL


def start_time(pid: int) -> int:
    """When the process started, in clock ticks since boot (field 22 of /proc/PID/stat); 0 when
    there is no such process or no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0
    if fields[0] == "Z":
        return 0  # a zombie has ended; only its parent's wait is missing
    return int(fields[19])


@dataclass(frozen=True, slots=True)
class Entry:
    """One process group the server started."""

    kind: str  # "host" (a game's referee) or "screen" (a login's game screen on its pty)
    pid: int  # the group's leader: each child is started in a session of its own
    started: int  # start_time(pid) when it was started: a reused pid will not match
    game: str = ""  # the game's id (hosts)
    socket: str = ""  # the host's socket, removed once the host is gone

    def alive(self) -> bool:
        return self.started != 0 and start_time(self.pid) == self.started


class Ledger:
    """The lock and the list of the process groups this server has running."""

    def __init__(self, root: Path, lock_fd: int) -> None:
        self.root = root
        self.path = root / LEDGER
        self._lock_fd = lock_fd  # held open (and locked) for the server's life
        self.entries: dict[int, Entry] = {}

    @classmethod
    def claim(cls, root: Path) -> "Ledger":
        """Lock the state folder (DataError if another server holds it) and clean up after the
        server that used it last: its process groups ended, its sockets removed."""
        lock_path = root / LOCK
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise DataError(lock_path, "", f"another kiev-tui serve uses this state folder (pid {other or '?'})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        ledger = cls(root, fd)
        ledger.end_leftovers()
        return ledger

    def end_leftovers(self) -> list[Entry]:
        """End the process groups a dead server left (the ones still alive); remove their sockets
        and every game's socket (no host of ours runs yet).  The entries that were alive."""
        old = self._read()
        alive = [e for e in old if e.alive()]
        for entry in alive:
            log.warning("ending a %s left by the last server: pid %d%s", entry.kind, entry.pid,
                        f" (game {entry.game})" if entry.game else "")
            _signal_group(entry.pid, signal.SIGTERM)
        deadline = time.monotonic() + END_GRACE
        while any(e.alive() for e in alive) and time.monotonic() < deadline:
            time.sleep(0.05)
        for entry in alive:
            if entry.alive():
                _signal_group(entry.pid, signal.SIGKILL)
        for entry in alive:  # SIGKILL cannot be refused; wait the moment it takes
            while entry.alive() and time.monotonic() < deadline + END_GRACE:
                time.sleep(0.05)
        sockets = {Path(e.socket) for e in old if e.socket} | set((self.root / "games").glob("*/host.sock"))
        for sock in sockets:
            try:
                if sock.is_socket():
                    sock.unlink()
            except OSError:
                pass
        self.entries.clear()
        self._write()
        return alive

    def add(self, kind: str, pid: int, game: str = "", socket: str = "") -> None:
        self.entries[pid] = Entry(kind, pid, start_time(pid), game, socket)
        self._write()

    def remove(self, pid: int) -> None:
        if self.entries.pop(pid, None) is not None:
            self._write()

    def _write(self) -> None:
        rows = [{"kind": e.kind, "pid": e.pid, "started": e.started, "game": e.game, "socket": e.socket}
                for e in self.entries.values()]
        try:
            atomic_write_text(self.path, "# processes kiev-tui serve started (see docs/SSH.md)\n"
                              + tomli_w.dumps({"process": rows}))
        except OSError as exc:  # a full disk costs the clean-up after a crash, never a game
            log.warning("cannot write %s (%s)", self.path, exc.strerror or exc)

    def _read(self) -> list[Entry]:
        if not self.path.exists():
            return []
        try:
            root = Reader(self.path, load_toml(self.path))
            root.only(["process"])
            found = []
            for one in root.tables("process"):
                one.only(["kind", "pid", "started", "game", "socket"])
                found.append(Entry(one.str("kind"), one.int("pid"), one.int("started"),
                                   one.str("game", ""), one.str("socket", "")))
            return found
        except DataError as exc:  # a broken ledger costs the clean-up, not the server
            log.warning("ledger skipped: %s", exc.line())
            return []

    def close(self) -> None:
        """The server stops cleanly: nothing of it is left running, so the ledger is empty."""
        self.entries.clear()
        self._write()
        os.close(self._lock_fd)


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
