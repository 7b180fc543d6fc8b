"""`kiev-tui serve` killed with SIGKILL, and started again on the same state folder (issue 36, item 3).

Each host holds a lifeline (a pipe only the server writes to): when the server dies, the host
saves and stops by itself.  The server lists what it started in a ledger; the next server on
the folder ends whatever of the old one still runs, removes its sockets, and the lobby resumes
every game from its autosave.  A lock keeps a second server off a folder in use.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiev_tui.engine.saves import load_game
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.serve.ledger import LEDGER, LOCK, Ledger, start_time
from tests.test_serve import GAME, LOBBY, MOVED, back_to_lobby, new_game, play_a_move
from tests.test_serve_support import (MINI, PtyClient, Server, clean_env, make_key, ssh_argv, start_server,
                                      wait_gone)


@pytest.fixture
def alice(tmp_path: Path) -> tuple[Path, Path]:
    key = make_key(tmp_path, "alice", "alice@laptop")
    auth = tmp_path / "authorized_keys"
    auth.write_text(Path(f"{key}.pub").read_text())
    return key, auth


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def _kill9(srv: Server) -> list[int]:
    """SIGKILL the server alone (not its children); the children it had."""
    kids = srv.children()
    os.kill(srv.proc.pid, signal.SIGKILL)
    srv.proc.wait()
    return kids


def test_a_host_whose_lifeline_is_cut_saves_and_stops(tmp_path: Path) -> None:
    """`kiev-tui host --lifeline FD`: end of file on FD (its server died) stops it, status 0, saved."""
    read_end, write_end = os.pipe()
    save = tmp_path / "save.toml"
    proc = subprocess.Popen([sys.executable, "-m", "kiev_tui", "host", str(MINI), "--save", str(save), "--listen",
                             f"unix:{tmp_path / 'h.sock'}", "--lifeline", str(read_end)], pass_fds=(read_end,),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env(), cwd=tmp_path)
    os.close(read_end)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(b"hosting ")
        assert proc.stdout.readline().startswith(b"listening on unix:")
        os.write(write_end, b"x")  # bytes mean nothing: the host goes on
        time.sleep(0.3)  # (nothing to wait for: this checks that nothing happens)
        assert proc.poll() is None
        os.close(write_end)
        write_end = -1
        out, err = proc.communicate(timeout=20)
    finally:
        if write_end >= 0:
            os.close(write_end)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert b"the process that started this host is gone: saving the game and stopping" in err
    assert out.decode().strip().endswith(f"host stopped; the game is in {save}")
    assert not (tmp_path / "h.sock").exists()
    assert len(load_game(save).log) == 0  # saved, and it verifies


def test_lifeline_must_be_an_open_descriptor(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "kiev_tui", "host", str(MINI), "--save", str(tmp_path / "s.toml"),
                           "--lifeline", "987"], capture_output=True, env=clean_env(), cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.decode().strip().splitlines()[-1] == "error: --lifeline 987: not an open file descriptor"


def test_a_second_server_on_the_same_state_folder_is_refused(tmp_path: Path, alice: tuple[Path, Path]) -> None:
    srv = start_server(tmp_path, alice[1], "--scenario", str(MINI))
    try:
        state = tmp_path / "state"
        proc = subprocess.run([sys.executable, "-m", "kiev_tui", "serve", "--port", "0", "--host-keys",
                               str(tmp_path / "host_key"), "--authorized-keys", str(alice[1]), "--state", str(state)],
                              capture_output=True, env=clean_env(), cwd=tmp_path, timeout=60)
        assert proc.returncode == 2
        assert proc.stderr.decode().strip() == (f"error: {state.resolve() / LOCK}: another kiev-tui serve uses "
                                                f"this state folder (pid {srv.proc.pid})")
    finally:
        srv.stop()
    assert srv.proc.returncode == 0


def test_the_ledger_ends_what_is_alive_and_spares_a_reused_pid(tmp_path: Path) -> None:
    """A listed group still running is ended; an entry whose pid now names another process (its start
    time differs) is left alone; sockets left behind are removed; the ledger starts empty."""
    ours = subprocess.Popen(["sleep", "60"], start_new_session=True)
    stranger = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        games = tmp_path / "games" / "g1"
        games.mkdir(parents=True)
        import socket

        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(games / "host.sock"))
        sock.close()
        (tmp_path / LEDGER).write_text(
            f'[[process]]\nkind = "host"\npid = {ours.pid}\nstarted = {start_time(ours.pid)}\ngame = "g1"\n'
            f'socket = "{games / "host.sock"}"\n'
            f'[[process]]\nkind = "screen"\npid = {stranger.pid}\nstarted = {start_time(stranger.pid) - 1}\n')
        ledger = Ledger.claim(tmp_path)
        try:
            assert ours.wait(timeout=10) == -signal.SIGTERM
            assert stranger.poll() is None
            assert not (games / "host.sock").exists()
            assert (tmp_path / LEDGER).read_text().splitlines()[1:] == ["process = []"]
            assert (tmp_path / LOCK).read_text() == f"{os.getpid()}\n"
        finally:
            ledger.close()
    finally:
        for p in (ours, stranger):
            if p.poll() is None:
                p.kill()
            p.wait()


def test_kill_9_of_serve_then_a_new_server_resumes_the_game(tmp_path: Path, alice: tuple[Path, Path]) -> None:
    key, auth = alice
    srv = start_server(tmp_path, auth, "--scenario", str(MINI))
    ssh = PtyClient(ssh_argv(srv.port, key))
    again: Server | None = None
    old: list[int] = []
    try:
        assert ssh.wait_for(LOBBY), ssh.tail()
        new_game(ssh)
        play_a_move(ssh.text, ssh.send, lambda rx: ssh.wait_for(rx, 30))
        listed = [(e["kind"], e["pid"], e["game"], e["started"] == start_time(e["pid"]))
                  for e in load_toml(tmp_path / "state" / LEDGER)["process"]]
        old = _kill9(srv)
        assert sorted("host" in _cmdline(p) for p in old) == [False, True]  # the game's host and alice's screen
        host = next(p for p in old if "host" in _cmdline(p))
        screen = next(p for p in old if p != host)
        gid = next((tmp_path / "state" / "games").iterdir()).name
        assert sorted(listed) == [("host", host, gid, True), ("screen", screen, "", True)]  # the ledger had both
        assert ssh.wait_exit() == 255  # the link is gone with the server
        ssh.close()
        again = start_server(tmp_path, auth, "--scenario", str(MINI))
        assert wait_gone(old, 15) == []  # nothing of the old server is left
        assert list((tmp_path / "state" / "games").glob("*/host.sock")) == []
        ssh = PtyClient(ssh_argv(again.port, key))
        assert ssh.wait_for(LOBBY), ssh.tail()
        ssh.send(b"r")
        assert ssh.wait_for(r"Resume which game\?(.|\n)*1  as soviet: "), ssh.text()
        ssh.send(b"1")
        assert ssh.wait_for(GAME, 60), ssh.tail()
        assert ssh.wait_for(MOVED, 30), ssh.text()  # the move made before the kill
        back_to_lobby(ssh)
        ssh.send(b"q")
        assert ssh.wait_exit() == 0
        kids = again.children()
        again.stop()
        assert again.proc.returncode == 0
        assert wait_gone(kids) == []
        assert (tmp_path / "state" / LEDGER).read_text().splitlines()[1:] == ["process = []"]
    finally:
        ssh.close()
        for s in (srv, again):
            if s is not None and s.proc.poll() is None:
                s.stop()
        for pid in old:  # a failed run must not leave the killed server's children behind
            for kill in (os.killpg, os.kill):
                try:
                    kill(pid, signal.SIGKILL)
                except OSError:
                    pass
