"""Issue 36 item 6: a side whose seat dropped is taken back only with its token.

On loopback TCP: after the Soviet seat drops, a raw client's hello for "soviet" without the token
(or with another) is refused in one line, its action is never applied and the host logs the
refusal; the real player's next `join` finds the token this account kept and takes the side back,
also from a host resumed from its autosave.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.net.seat import SeatError, SeatLink
from kiev_tui.net.tokens import TokenStore, state_folder
from kiev_tui.net.wire import VERSION, Address, encode
from test_net_support import SCENARIO, SEED, HostThread, Seat, turn_actions

ROOT = Path(__file__).resolve().parent.parent
KEPT = "the soviet side is kept for its player, whose seat dropped: only that seat's token takes it back"


def _tcp(h: HostThread) -> Address:
    where = next(w for w in h.where if w.startswith("tcp:"))
    return Address("tcp", host="127.0.0.1", port=int(where.rsplit(":", 1)[1]))


def _raw_hello(address: Address, extra: bytes = b"", **hello: object) -> tuple[list[dict], bool]:
    """A bare TCP client: its hello (and ``extra`` lines right after); every message the host
    sent, and whether the host then closed the connection."""
    with socket.create_connection((address.host, address.port), timeout=10) as sock:
        sock.sendall(encode("hello", **hello) + extra)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        return [json.loads(line) for line in data.splitlines()], True


def _dropped_soviet(h: HostThread, address: Address) -> str:
    """The Soviet player joins, then his seat drops; his token."""
    seat = Seat(address, "soviet", retry=0)
    token = seat.link.token
    seat.close()
    gone = Seat(address, "german")  # waits until the host has seen the Soviet seat go
    gone.wait(lambda: "soviet" not in gone.link.present)
    gone.close()
    return token


def test_a_stranger_without_the_token_is_refused_and_the_real_token_rejoins(tmp_path: Path) -> None:
    game = Game.new(SCENARIO, SEED)
    first = turn_actions()[0][1]
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock", tcp=True) as h:
        address = _tcp(h)
        token = _dropped_soviet(h, address)
        said = len(h.said)
        # the stranger's hello and his move in one packet: neither seats him nor plays
        messages, closed = _raw_hello(address, encode("act", ref=1, action=first.to_toml()), side="soviet")
        assert closed
        assert messages == [{"v": VERSION, "t": "error", "code": "token", "why": KEPT, "game": game.game_id}]
        assert h.game.log == []
        messages, _ = _raw_hello(address, side="soviet", token="0" * 32)  # a guessed token: the same
        assert [m["code"] for m in messages] == ["token"]
        refusals = [line for line in h.said[said:] if line.startswith("refused")]  # the host's log
        assert refusals == [f"refused a seat for soviet (token): {KEPT}"] * 2
        # the real player's next join: a new link, the token this account kept
        again = Seat(address, "soviet")
        try:
            assert again.link.token == token
            assert again.play(first).kind == "accepted"
            assert len(h.game.log) == 1
        finally:
            again.close()


def test_a_link_of_another_account_has_no_token_and_is_refused_in_one_line(tmp_path: Path) -> None:
    with HostThread(Game.new(SCENARIO, SEED), tmp_path / "net.toml", tmp_path / "h.sock", tcp=True) as h:
        address = _tcp(h)
        _dropped_soviet(h, address)
        other = SeatLink(address, "soviet", retry=0, store=TokenStore(tmp_path / "elsewhere"))
        try:
            other.connect()
            raise AssertionError("a seat without the token was seated")
        except SeatError as exc:
            assert exc.code == "token"
            assert exc.why == (f"{KEPT} (this account keeps no token for the soviet side of game "
                               f"{h.game.game_id[:8]} at {address})")
        assert other.replica is None


def test_a_host_resumed_from_its_autosave_keeps_each_side_its_players(tmp_path: Path) -> None:
    save, sock = tmp_path / "net.toml", tmp_path / "h.sock"
    with HostThread(Game.new(SCENARIO, SEED), save, sock, tcp=True) as h:
        address = _tcp(h)
        token = _dropped_soviet(h, address)
    kept = save.with_name("net.tokens.toml")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    resumed = HostThread(load_game(save), save, sock, tcp=True)
    resumed.addresses[1] = address  # the same port again: the seats' tokens are kept by address
    with resumed as h:
        assert _tcp(h) == address
        messages, _ = _raw_hello(address, side="soviet")
        assert [(m["code"], m["why"]) for m in messages] == [("token", KEPT)]
        again = Seat(address, "soviet")
        assert again.link.token == token
        again.close()


def test_the_token_file_is_this_accounts_alone(tmp_path: Path) -> None:
    with HostThread(Game.new(SCENARIO, SEED), tmp_path / "net.toml", tmp_path / "h.sock", tcp=True) as h:
        address = _tcp(h)
        seat = Seat(address, "soviet")
        seat.close()
        folder = state_folder()
        assert folder == Path(os.environ["XDG_STATE_HOME"]) / "kiev-tui" / "seats"
        path = TokenStore().path(address, h.game.game_id, "soviet")
        assert path.parent == folder and stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert TokenStore().get(address, h.game.game_id, "soviet") == seat.link.token
        assert TokenStore().get(address, "another-game", "soviet") == ""


def test_a_token_that_cannot_be_kept_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = TokenStore(blocker / "seats")
    address = Address("tcp", host="127.0.0.1", port=1)
    why = store.put(address, "g", "soviet", "a" * 32)
    assert why == (f"cannot keep this seat's token in {store.path(address, 'g', 'soviet')} (Not a directory): "
                   "once this join ends, no later join can take the side back")
    assert store.get(address, "g", "soviet") == ""


def test_join_refused_for_a_kept_side_exits_3_in_one_line_and_rejoins_with_its_token(tmp_path: Path) -> None:
    with HostThread(Game.new(SCENARIO, SEED), tmp_path / "net.toml", tmp_path / "h.sock", tcp=True) as h:
        address = _tcp(h)
        _dropped_soviet(h, address)
        env = dict(os.environ, PYTHONPATH=str(ROOT), KIEV_TUI_SAVES=str(tmp_path / "saves"))
        argv = [sys.executable, "-m", "kiev_tui", "join", str(address), "--side", "soviet", "--plain", "--retry", "0"]
        stranger = subprocess.run(argv, input="", capture_output=True, text=True, timeout=60,
                                  env=dict(env, XDG_STATE_HOME=str(tmp_path / "stranger")))
        assert stranger.returncode == 3
        assert stranger.stderr == (f"error: {KEPT} (this account keeps no token for the soviet side of game "
                                   f"{h.game.game_id[:8]} at {address})\n")
        player = subprocess.run(argv, input="", capture_output=True, text=True, timeout=60, env=env)
        assert player.returncode == 0, player.stderr
        assert "Your move, Soviet player" in player.stdout


def test_a_damaged_tokens_file_is_one_line_and_the_host_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "net.toml"
    kept = save.with_name("net.tokens.toml")
    kept.write_text("tokens = [not toml\n")
    with HostThread(Game.new(SCENARIO, SEED), save, tmp_path / "h.sock", tcp=True) as h:
        warnings = [line for line in h.said if line.startswith("warning:")]
        assert len(warnings) == 1
        assert warnings[0].startswith(f"warning: {kept}: cannot read the seats' tokens (")
        assert warnings[0].endswith("); each side goes to its first seat")
        seat = Seat(_tcp(h), "soviet")  # the side is free: its first seat takes it, and a new token is kept
        seat.close()
    assert tomllib.loads(kept.read_text())["tokens"]["soviet"] == seat.link.token
