"""`kiev-tui serve` under faults (issue 36, "Done when"): logins that each start a game, play an
action and drop in every way a client can (the client closes, the client is killed, a 1 MiB
paste, invalid UTF-8 bytes), while the server itself is killed with SIGKILL and started again on
the same state folder.  Afterwards every game resumes from the lobby with its action, every save
verifies, nothing of a killed server is left running, and the memory of the whole server (every
process working in its state folder, hosts and game screens of killed servers included) stays
bounded.

The full soak (20 logins, 2 restarts) is `@pytest.mark.slow` (`make soak`); a small one (3 logins,
1 restart) runs with the suite.  Run with `-s` to see the figures docs/SSH.md records.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kiev_tui.engine.saves import load_game
from tests.test_serve import GAME, MOVED, back_to_lobby, new_game, play_a_move
from tests.test_serve_support import MINI, PtyClient, Server, make_key, ssh_argv, start_server, wait_gone

PASTE = b"\x1b[200~" + b"a" * (1 << 20) + b"\x1b[201~"
BAD_BYTES = b"\xff\xfe\xc3\x28\xff" * 8  # lone 0xFF and 0xFE, a cut two-byte sequence
MAX_RUNNING = 6  # serve --max-running: the hosts at once that bound the server's memory
PER_PROCESS = 64 << 20  # bytes a host, a game screen or the server itself takes at most (about 45 MB measured)


class Sampler(threading.Thread):
    """Every quarter second: the resident memory of every process whose working folder is under
    `folder` (the server, its hosts and screens, and any left by a killed server); the peak."""

    def __init__(self, folder: Path) -> None:
        super().__init__(daemon=True)
        self.folder = str(folder.resolve())
        self.peak = 0
        self.peak_procs = 0
        self.done = threading.Event()

    def processes(self) -> dict[int, int]:
        """pid -> resident bytes, for every process working under the folder."""
        found: dict[int, int] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if not os.readlink(f"/proc/{entry}/cwd").startswith(self.folder):
                    continue
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
            found[int(entry)] = rss * 1024
        return found

    def run(self) -> None:
        while not self.done.wait(0.25):
            now = self.processes()
            self.peak = max(self.peak, sum(now.values()))
            self.peak_procs = max(self.peak_procs, len(now))


@dataclass
class Figures:
    logins: int = 0
    games: int = 0
    restarts: int = 0
    resumed: int = 0
    verified: int = 0
    left: list[int] = field(default_factory=list)  # processes of a killed server alive after the restart
    peak_rss: int = 0
    peak_procs: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        return (f"soak: {self.logins} logins, {self.games} games, {self.restarts} restarts (kill -9), "
                f"{self.resumed} resumed, {self.verified} saves verified, {len(self.left)} processes left, "
                f"peak memory {self.peak_rss / 2**20:.0f} MiB in {self.peak_procs} processes at most, "
                f"{self.seconds:.0f} s")


def _drop(ssh: PtyClient, how: str) -> None:
    """The client goes: "close" ends it with SIGTERM (it closes its connection on the way out),
    "kill" with SIGKILL (no goodbye at all); its pty is closed afterwards by ssh.close()."""
    os.killpg(ssh.proc.pid, signal.SIGTERM if how == "close" else signal.SIGKILL)
    ssh.proc.wait(timeout=10)


def _paste(ssh: PtyClient) -> None:
    """A 1 MiB bracketed paste, written as fast as the client takes it."""
    for at in range(0, len(PASTE), 1 << 16):
        os.write(ssh.master, PASTE[at: at + (1 << 16)])
        ssh.pump(0)


def soak(tmp_path: Path, logins: int, kill_after: tuple[int, ...]) -> Figures:
    """Run the soak: login n plays as player p<n//2>; the server is killed (SIGKILL) right after
    each login in `kill_after` has played its action, and started again."""
    started = time.monotonic()
    players = [make_key(tmp_path, f"p{n}", f"p{n}@soak") for n in range((logins + 1) // 2)]
    auth = tmp_path / "authorized_keys"
    auth.write_text("".join(Path(f"{k}.pub").read_text() for k in players))
    sampler = Sampler(tmp_path)
    sampler.start()
    figures = Figures()
    seen: set[int] = set()  # every process any of the servers started
    options = ("--scenario", str(MINI), "--max-running", str(MAX_RUNNING))
    srv: Server = start_server(tmp_path, auth, *options)
    try:
        for n in range(logins):
            who = n // 2
            ssh = PtyClient(ssh_argv(srv.port, players[who]))
            try:
                assert ssh.wait_for(rf"Signed in as p{who} "), ssh.tail()
                figures.logins += 1
                new_game(ssh)
                figures.games += 1
                play_a_move(ssh.text, ssh.send, lambda rx: ssh.wait_for(rx, 30))
                seen.update(srv.children())
                if n in kill_after:  # the server dies under this login
                    old = srv.children()
                    os.kill(srv.proc.pid, signal.SIGKILL)
                    srv.proc.wait()
                    assert ssh.wait_exit() == 255
                    srv = start_server(tmp_path, auth, *options)
                    figures.restarts += 1
                    figures.left += wait_gone(old, 15)
                    assert figures.left == [], (tmp_path / "serve.log").read_text()[-2000:]
                elif n == 0:  # the 1 MiB paste, then the client is killed
                    _paste(ssh)
                    _drop(ssh, "kill")
                elif n == 1:  # invalid UTF-8 bytes, then the client closes
                    ssh.send(BAD_BYTES)
                    ssh.settle(0.2, 2)
                    _drop(ssh, "close")
                else:
                    _drop(ssh, "close" if n % 2 else "kill")
            finally:
                ssh.close()
        # every game resumes from the lobby, its action there
        for who, key in enumerate(players):
            mine = sum(1 for n in range(logins) if n // 2 == who)
            ssh = PtyClient(ssh_argv(srv.port, key))
            try:
                assert ssh.wait_for(rf"Signed in as p{who} (.|\n)*r  resume one of your games \({mine}\)"), ssh.text()
                for k in range(1, mine + 1):
                    ssh.send(b"r")
                    assert ssh.wait_for(rf"Resume which game\?(.|\n)*{k}  as soviet: "), ssh.text()
                    ssh.send(str(k).encode())
                    assert ssh.wait_for(GAME, 60), ssh.tail()
                    assert ssh.wait_for(MOVED, 30), ssh.text()
                    seen.update(srv.children())
                    back_to_lobby(ssh, rf"Signed in as p{who} ")
                    figures.resumed += 1
                ssh.send(b"q")
                assert ssh.wait_exit() == 0
            finally:
                ssh.close()
        for save in sorted((tmp_path / "state" / "games").glob("*/save.toml")):
            assert len(load_game(save, verify=True).log) == 1  # the one action each login played
            figures.verified += 1
    finally:
        seen.update(srv.children())
        srv.stop()
        sampler.done.set()
        sampler.join()
    assert srv.proc.returncode == 0
    figures.left += wait_gone(sorted(seen), 15)
    figures.peak_rss, figures.peak_procs = sampler.peak, sampler.peak_procs
    figures.seconds = time.monotonic() - started
    print("\n" + figures.line())
    return figures


def _check(figures: Figures, logins: int, restarts: int) -> None:
    assert (figures.logins, figures.games, figures.restarts, figures.resumed, figures.verified, figures.left) == (
        logins, logins, restarts, logins, logins, [])
    # at most MAX_RUNNING hosts, the server, the screen of the login at play, and the host and
    # screen of a killed server while they save and stop
    most = MAX_RUNNING + 4
    assert 0 < figures.peak_procs <= most
    assert 0 < figures.peak_rss < most * PER_PROCESS


def test_soak_small(tmp_path: Path) -> None:
    """Three logins (a paste, bad bytes, a server killed under the third), one restart."""
    _check(soak(tmp_path, 3, kill_after=(2,)), 3, 1)


@pytest.mark.slow
def test_soak_twenty_logins_two_restarts(tmp_path: Path) -> None:
    _check(soak(tmp_path, 20, kill_after=(7, 14)), 20, 2)
