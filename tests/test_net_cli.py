"""Real processes: `kiev-tui host` and two `kiev-tui join --plain` seats play a game-turn over a Unix
socket and loopback TCP; the host is killed and restarted from its autosave, a seat is killed and
joins again, a second seat for a taken side is refused."""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kiev_tui.engine.actions import Action
from kiev_tui.engine.saves import load_game
from test_net_support import SCENARIO, SEED, turn_actions

ROOT = Path(__file__).resolve().parent.parent
EXE = [sys.executable, "-m", "kiev_tui"]


def do_line(action: Action) -> str:
    """The action as plain mode's `do` command types it."""
    words = [action.kind]
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if value == f.default:
            continue
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):
            text = ";".join(",".join(v) for v in value)
        elif isinstance(value, tuple):
            text = ",".join(value)
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
        words.append(f"{f.name}={text}")
    return "do " + " ".join(words)


class Proc:
    """A child process whose output is collected by a thread; killed at the end of the test."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path) -> None:
        self.p = subprocess.Popen(EXE + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=env, cwd=cwd)
        self.out = ""
        self.err = ""
        self._threads = [threading.Thread(target=self._pump, args=(self.p.stdout, "out"), daemon=True),
                         threading.Thread(target=self._pump, args=(self.p.stderr, "err"), daemon=True)]
        for t in self._threads:
            t.start()

    def _pump(self, stream: Any, name: str) -> None:
        while True:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                return
            setattr(self, name, getattr(self, name) + chunk.decode("utf-8", "replace"))

    def wait_for(self, pattern: str, start: int = 0, timeout: float = 20.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.compile(pattern).search(self.out, start)
            if m:
                return m
            if self.p.poll() is not None:
                time.sleep(0.1)
                m = re.compile(pattern).search(self.out, start)
                if m:
                    return m
                raise AssertionError(f"process ended ({self.p.returncode}) before {pattern!r}:\n{self.out[-2000:]}\n{self.err[-2000:]}")
            time.sleep(0.01)
        raise AssertionError(f"no {pattern!r} within {timeout}s:\n{self.out[-2000:]}\n{self.err[-2000:]}")

    def send(self, line: str) -> None:
        """Type one line and wait until its answer has been printed and the next prompt shown."""
        start = len(self.out)
        assert self.p.stdin is not None
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        echo = self.wait_for(re.escape(line) + "\n", start)
        self.wait_for(r"> $|> \S", echo.end())

    def end(self, grace: float = 0.0) -> int:
        """The exit status, waiting up to ``grace`` seconds for the process to end by itself."""
        try:
            self.p.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        if self.p.poll() is None:
            self.p.kill()
        code = self.p.wait(10)
        for t in self._threads:
            t.join(5)
        return code


@pytest.fixture
def procs(tmp_path: Path):
    started: list[Proc] = []
    env = dict(os.environ, KIEV_TUI_SAVES=str(tmp_path / "saves"), PYTHONPATH=str(ROOT), COLUMNS="100")

    def start(*args: str) -> Proc:
        p = Proc(list(args), env, tmp_path)
        started.append(p)
        return p

    yield start
    for p in started:
        p.end()


def test_host_and_two_plain_seats_play_a_game_turn_through_faults(procs: Any, tmp_path: Path) -> None:
    acts = turn_actions()
    sock, save = tmp_path / "h.sock", tmp_path / "net.toml"
    host = procs("host", SCENARIO, "--seed", str(SEED), "--listen", f"unix:{sock}", "--listen", "tcp:127.0.0.1:0",
                 "--save", str(save))
    port = host.wait_for(r"listening on tcp:127\.0\.0\.1:(\d+)\n").group(1)
    tcp = f"tcp:127.0.0.1:{port}"
    seats = {"soviet": procs("join", f"unix:{sock}", "--side", "soviet", "--plain", "--retry", "30"),
             "german": procs("join", tcp, "--side", "german", "--plain", "--retry", "30")}
    seats["soviet"].wait_for(r"Your move, Soviet player: movement phase")
    seats["german"].wait_for(r"Waiting for the Soviet player\.")

    # a second seat for a side that is taken: one line, exit status 3
    twin = procs("join", f"unix:{sock}", "--side", "soviet", "--plain")
    assert twin.end(15) == 3
    assert twin.err == "error: the soviet side is taken: its seat is connected to this game now\n"

    # the wrong side's move is refused with its case; nothing is sent
    seats["german"].send(do_line(acts[0][1]))
    assert "Refused [4.1] it is the soviet player's turn, not the german player's" in seats["german"].out

    prev, before = "", {s: 0 for s in seats}
    for i, (side, action) in enumerate(acts):
        if i == 20:  # the host dies mid-turn and comes back from its autosave
            host.p.send_signal(signal.SIGKILL)
            host.end()
            assert len(load_game(save).log) == 20
            marks = {s: len(p.out) for s, p in seats.items()}
            host = procs("host", str(save), "--listen", f"unix:{sock}", "--listen", tcp)
            host.wait_for(r"resuming .* 20 actions")
            for s, p in seats.items():
                p.wait_for(r"Connected to the host again", marks[s])
        if i == 25:  # the German seat dies mid-turn and joins again: the same position
            seats["german"].p.send_signal(signal.SIGKILL)
            seats["german"].end()
            seats["german"] = procs("join", tcp, "--side", "german", "--plain")
            seats["german"].wait_for(r"Your move, German player: movement phase")
            before["german"] = 0  # a new process: its whole output is after the last action
        if i == 17:  # the German player takes his first move back through the host, and makes it again
            seats["german"].send("undo")
            assert "Undone: your last action was taken back." in seats["german"].out[-300:]
            seats["soviet"].wait_for(r"Undone: the German player took back his last action\.")
            seats["german"].send(do_line(acts[16][1]))
        if prev and side != prev:
            # the move passed to this seat: wait until its copy of the game has the other side's
            # last action, as a player waits for "Your move" (a busy machine may deliver it late)
            seats[side].wait_for(rf"Your move, {side.capitalize()} player", before[side])
        before = {s: len(p.out) for s, p in seats.items()}
        seats[side].send(do_line(action))
        assert "Refused" not in seats[side].out[-600:], seats[side].out[-600:]
        prev = side

    final = load_game(save)
    assert len(final.log) == 42 and (final.state.turn, final.state.player) == (2, "soviet")
    assert [a for a in final.log] == [a for _, a in acts]
    # the hand-overs appeared on each side: the move passed at the end of each player-turn, and to
    # the Soviet player for his answer in the middle of the German combat phase
    assert "Waiting for the German player." in seats["soviet"].out
    assert "Your move, Soviet player: answer a choice (loss or retreat)" in seats["soviet"].out
    assert "Waiting for the Soviet player." in seats["german"].out
    assert "German: 76 infantry XX loses a step" in seats["soviet"].out  # the other side's moves, as made
    assert seats["soviet"].out.rstrip().endswith("T2 Soviet movement>")

    for p in seats.values():
        assert p.p.stdin is not None
        p.p.stdin.close()  # end of input: the seat leaves, the host keeps the game
        assert p.p.wait(10) == 0
    host.p.send_signal(signal.SIGTERM)
    assert host.p.wait(10) == 0
    host.wait_for(r"host stopped; the game is in ")
    assert not sock.exists()


def test_join_with_no_host_says_so_in_one_line(procs: Any, tmp_path: Path) -> None:
    seat = procs("join", f"unix:{tmp_path / 'none.sock'}", "--side", "german", "--plain")
    assert seat.end(15) == 4
    assert seat.err.startswith("error: cannot reach the host at unix:") and seat.err.count("\n") == 1


def test_host_refuses_an_address_off_loopback(procs: Any) -> None:
    host = procs("host", SCENARIO, "--listen", "tcp:0.0.0.0:7000")
    assert host.end(15) == 2
    assert "loopback only" in host.err and host.err.count("\n") == 1


def test_a_second_host_on_a_socket_in_use_is_refused_and_a_dead_hosts_socket_is_reused(procs: Any,
                                                                                      tmp_path: Path) -> None:
    sock = tmp_path / "h.sock"
    first = procs("host", SCENARIO, "--listen", f"unix:{sock}", "--save", str(tmp_path / "a.toml"))
    first.wait_for(r"listening on unix:")
    second = procs("host", SCENARIO, "--listen", f"unix:{sock}", "--save", str(tmp_path / "b.toml"))
    assert second.end(15) == 2
    assert second.err == f"error: cannot host: {sock}: another host is listening there\n"
    first.p.send_signal(signal.SIGKILL)  # killed: its socket file stays behind
    first.end()
    assert sock.exists()
    third = procs("host", str(tmp_path / "a.toml"), "--listen", f"unix:{sock}")
    third.wait_for(r"listening on unix:")
