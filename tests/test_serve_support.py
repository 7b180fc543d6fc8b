"""Support for the `kiev-tui serve` tests (no tests here): throwaway keys, a server process on loopback, and an
OpenSSH client on a pty whose screen is kept in a small terminal."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.ptyprog import PtyProgram
from tests.ui.vt import Terminal as _Terminal

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "mini.toml"
SSH = "/usr/bin/ssh"
SSH_KEYGEN = "/usr/bin/ssh-keygen"


class Terminal(_Terminal):
    """The tests' small terminal, which also clears the screen (ESC [ 2 J) as the lobby does."""

    def _csi(self, params: str, final: str) -> None:
        if final == "J" and params == "2":
            blank = (" ", frozenset(), "", "")
            self.grid = [[blank] * self.width for _ in range(self.height)]
            return
        super()._csi(params, final)


def make_key(folder: Path, name: str, comment: str) -> Path:
    """A new ed25519 key pair without a passphrase; the private key's path."""
    path = folder / name
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)], check=True)
    return path


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES", "KIEV_TUI_PLAYER", "COLUMNS", "LINES",
                        "SSH_AUTH_SOCK")}
    env["PYTHONPATH"] = str(ROOT)
    return env


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    folder: Path

    def children(self) -> list[int]:
        """Process ids whose parent is the server (its games and hosts)."""
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                if ppid == self.proc.pid:
                    found.append(int(entry))
        return found

    def stop(self) -> None:
        """SIGTERM, as an init system stops it; the server ends its children on the way out."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(folder: Path, authorized: Path, *extra: str) -> Server:
    """`kiev-tui serve` on 127.0.0.1, any free port (read from its first line)."""
    argv = [sys.executable, "-m", "kiev_tui", "serve", "--port", "0", "--host-keys", str(folder / "host_key"),
            "--authorized-keys", str(authorized), "--state", str(folder / "state"), *extra]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=open(folder / "serve.log", "wb"),
                            env=clean_env(), cwd=folder, start_new_session=True)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    line = proc.stdout.readline().decode() if ready else ""
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    if m is None:
        proc.kill()
        proc.wait()
        raise AssertionError(f"serve did not start: {line!r} {(folder / 'serve.log').read_text()[-2000:]}")
    return Server(proc, int(m.group(1)), folder)


class PtyClient(PtyProgram):
    """A program (here the OpenSSH client) on a pty, its screen kept in a test terminal."""

    QUIET = 0.3
    TAIL = 1500
    TERMINAL = Terminal  # the one above, which clears the screen as the lobby does

    def __init__(self, argv: list[str], width: int = 100, height: int = 30) -> None:
        super().__init__(argv, width, height, clean_env())

    def wait_exit(self, timeout: float = 20.0) -> int | None:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.1)
        self.settle(0.05, 1.0)  # what it wrote just before it ended
        return self.proc.poll()

    def close(self) -> None:
        self.stop()


def ssh_argv(port: int, key: Path, *extra: str) -> list[str]:
    return [SSH, "-p", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-F", "/dev/null",
            *extra, "127.0.0.1"]


def wait_gone(pids: list[int], timeout: float = 15.0) -> list[int]:
    """The processes among `pids` still running after `timeout` seconds (zombies count as gone)."""
    end = time.monotonic() + timeout
    while True:
        alive = [p for p in pids if _running(p)]
        if not alive or time.monotonic() > end:
            return alive
        time.sleep(0.1)


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
