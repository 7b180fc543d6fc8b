"""The host and its seats over a Unix socket, in one process: a game-turn, refusals, faults, bytes."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.net import host as host_mod
from kiev_tui.net.seat import SeatError, SeatLink
from kiev_tui.net.wire import VERSION, encode
from test_net_support import SCENARIO, SEED, HostThread, Seat, play_through, turn_actions


@pytest.fixture
def hosted(tmp_path: Path):
    game = Game.new(SCENARIO, SEED)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as h:
        yield h


class Raw:
    """A bare connection, seated as ``side``: what a misbehaving seat could send."""

    def __init__(self, h: HostThread, side: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(h.address.path)
        self.sock.sendall(encode("hello", side=side))
        self.file = self.sock.makefile("rb")
        self.welcome = self.read()

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self) -> dict:
        """The next message but the notices of seats coming and going."""
        while True:
            msg = json.loads(self.file.readline())
            if msg["t"] != "seats":
                return msg

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def _raw(h: HostThread, side: str) -> tuple[Raw, dict]:
    raw = Raw(h, side)
    return raw, raw.welcome


def _read(raw: Raw) -> dict:
    return raw.read()


def test_two_seats_play_a_whole_game_turn_in_step_with_the_host(hosted: HostThread) -> None:
    acts = turn_actions()
    assert len(acts) == 42 and acts[-1][1] == EndPhase()
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    try:
        play_through(seats, acts, hosted.game)
        g = hosted.game
        assert (g.state.turn, g.state.player) == (2, "soviet")
        # the soviet answered a pending choice in the German combat phase: the hand-over both ways
        assert [s for s, _ in acts].count("soviet") == 17
        for seat in seats.values():
            assert seat.game.state_hash() == g.state_hash()
            assert [e.describe() for e in seat.game.journal] == [e.describe() for e in g.journal]
        # the autosave holds every action, and replays to the same position
        saved = load_game(hosted.host.save_path)
        assert len(saved.log) == 42 and saved.state_hash() == g.state_hash()
    finally:
        for seat in seats.values():
            seat.close()


def test_the_wrong_sides_action_is_refused_by_the_host_with_its_case(hosted: HostThread) -> None:
    side, first = turn_actions()[0]
    assert side == "soviet"
    raw, welcome = _raw(hosted, "german")
    soviet = Seat(hosted.address, "soviet")
    try:
        assert welcome["t"] == "welcome" and welcome["side"] == "german"
        raw.sendall(encode("act", ref=7, action=first.to_toml()))  # past the seat's own check
        answer = _read(raw)
        assert answer == {"v": VERSION, "t": "refused", "ref": 7, "case": "4.1",
                          "why": "it is the soviet player's turn, not the german player's"}
        assert hosted.game.log == []
        assert soviet.play(first).kind == "accepted"
        assert soviet.updates[-1].own and not any(u.kind == "refused" for u in soviet.updates)
    finally:
        raw.close()
        soviet.close()


def test_a_spectator_sees_every_action_and_may_not_act(hosted: HostThread) -> None:
    watcher = Seat(hosted.address, "spectator")
    soviet = Seat(hosted.address, "soviet")
    try:
        assert watcher.link.submit(turn_actions()[0][1]) == "a spectator watches and never acts"
        raw, _ = _raw(hosted, "spectator")
        raw.sendall(encode("act", ref=1, action=turn_actions()[0][1].to_toml()))
        assert _read(raw)["why"] == "a spectator watches and never acts"
        raw.close()
        play_through({"soviet": soviet, "spectator": watcher}, turn_actions()[:3], hosted.game)
        assert watcher.game.hashes == hosted.game.hashes
    finally:
        watcher.close()
        soviet.close()


def test_a_second_seat_for_a_taken_side_is_refused_in_one_line(hosted: HostThread) -> None:
    first = Seat(hosted.address, "soviet")
    try:
        with pytest.raises(SeatError) as caught:
            SeatLink(hosted.address, "soviet").connect()
        assert caught.value.code == "taken"
        assert caught.value.why == "the soviet side is taken: its seat is connected to this game now"
        other = Seat(hosted.address, "german")  # the other side is still free
        other.close()
    finally:
        first.close()


def test_a_side_whose_seat_has_gone_is_taken_back_by_its_players_next_join(hosted: HostThread) -> None:
    # the new link finds the token the first one kept (tests/test_net_tokens.py: nobody else can)
    first = Seat(hosted.address, "soviet")
    first.close()
    again = Seat(hosted.address, "soviet", retry=0)
    again.wait(lambda: "soviet" in again.link.present)
    again.close()


@pytest.mark.parametrize("line", [b"garbage\n", b"[1, 2]\n", b'{"v": 99, "t": "ping"}\n',
                                  b'{"v": 1, "t": "launch"}\n', b'{"v": 1, "t": "act", "action": 5}\n',
                                  b'{"v": 1, "t": "act", "ref": NaN, "action": {}}\n'])
def test_garbage_on_the_wire_closes_that_connection_only(hosted: HostThread, line: bytes) -> None:
    soviet = Seat(hosted.address, "soviet")
    raw, _ = _raw(hosted, "german")
    try:
        raw.sendall(line)
        error = raw.read()
        assert error["t"] == "error" and error["code"] == "protocol"
        assert raw.file.readline() == b""  # closed
        assert soviet.play(turn_actions()[0][1]).kind == "accepted"  # the other seat plays on
        soviet.wait(lambda: "german" not in soviet.link.present)  # the host told the others it left
    finally:
        raw.close()
        soviet.close()


def test_an_oversize_line_closes_that_connection_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_mod, "MAX_LINE", 4096)
    with HostThread(Game.new(SCENARIO, SEED), tmp_path / "net.toml", tmp_path / "h.sock") as h:
        soviet = Seat(h.address, "soviet")
        raw, _ = _raw(h, "german")
        try:
            try:
                raw.sendall(b"x" * 20000)
            except OSError:
                pass  # the host may have closed it before the last bytes went
            error = raw.read()
            assert error == {"v": VERSION, "t": "error", "code": "protocol", "why": "a line over the 4096-byte limit"}
            assert soviet.play(turn_actions()[0][1]).kind == "accepted"
        finally:
            raw.close()
            soviet.close()


def test_a_seat_killed_mid_turn_comes_back_to_the_same_position(hosted: HostThread) -> None:
    acts = turn_actions()
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    play_through(seats, acts[:20], hosted.game)  # the German player is half-way through his moves
    seats["german"].link.close()
    back = Seat(hosted.address, "german")
    try:
        assert back.game.state_hash() == hosted.game.state_hash()
        assert back.game.state.to_dict() == hosted.game.state.to_dict()
        assert len(back.game.log) == 20
        seats["german"] = back
        play_through(seats, acts[20:], hosted.game)
    finally:
        for seat in seats.values():
            seat.close()


def test_a_link_that_drops_redials_and_gets_only_the_actions_it_missed(hosted: HostThread) -> None:
    acts = turn_actions()
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    try:
        play_through(seats, acts[:5], hosted.game)
        german = seats["german"]
        # the host drops the German seat's connection; the seat dials again by itself
        hosted.call(hosted.host.seats["german"].writer.transport.close)
        german.wait(lambda: any(u.kind == "lost" for u in german.updates))
        german.wait(lambda: any(u.kind in ("synced", "rebuilt") for u in german.updates))
        back = next(u for u in german.updates if u.kind in ("synced", "rebuilt"))
        assert back.kind == "synced" and back.events == []  # it had all five: nothing sent again
        play_through(seats, acts[5:8], hosted.game)
    finally:
        for seat in seats.values():
            seat.close()


def test_a_host_restarted_from_its_autosave_loses_nothing(tmp_path: Path) -> None:
    acts = turn_actions()
    save, sock = tmp_path / "net.toml", tmp_path / "h.sock"
    first = HostThread(Game.new(SCENARIO, SEED), save, sock)
    first.__enter__()
    seats = {side: Seat(first.address, side, retry=20) for side in ("german", "soviet")}
    try:
        play_through(seats, acts[:25], first.game)
        before = first.game.state_hash()
        first.stop()  # the host goes away mid-turn
        resumed = load_game(save)
        assert len(resumed.log) == 25 and resumed.state_hash() == before
        assert resumed.game_id == first.game.game_id
        with HostThread(resumed, save, sock) as second:
            for seat in seats.values():  # both seats dial again and carry on from where they were
                seat.wait(lambda seat=seat: seat.link.connected and any(u.kind == "synced" for u in seat.updates),
                          timeout=20)
            play_through(seats, acts[25:], second.game)
            assert second.game.state.turn == 2
    finally:
        for seat in seats.values():
            seat.close()


def test_bytes_on_the_wire_per_game_turn_per_seat(hosted: HostThread, capsys: pytest.CaptureFixture[str]) -> None:
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    try:
        play_through(seats, turn_actions(), hosted.game)
        got = {side: seat.link.received for side, seat in seats.items()}
        sent = {side: seat.link.sent for side, seat in seats.items()}
    finally:
        for seat in seats.values():
            seat.close()
    with capsys.disabled():
        print(f"\nbytes per game-turn (42 actions): host->seat {got}, seat->host {sent}")
    # every action reaches both seats once: the two seats hear the same bytes but for the welcome,
    # the refs and the seats notices
    assert abs(got["german"] - got["soviet"]) < 400
    assert max(got.values()) < 20_000


def test_a_replica_refuses_an_action_whose_outcome_differs_from_the_hosts() -> None:
    from kiev_tui.net.replica import Replica, entry_of, game_header
    from kiev_tui.net.wire import WireError

    host_game = Game.new(SCENARIO, SEED)
    for side, action in turn_actions()[:34]:  # up to the first attack, which rolls
        host_game.apply(action, side=side)
    replica = Replica.build(game_header(host_game))
    for i in range(33):
        replica.apply_entry(entry_of(host_game, i))
    attack = entry_of(host_game, 33)
    assert attack["action"]["kind"] == "attack" and len(attack["dice"]) == 1
    with pytest.raises(WireError, match="differs from the host's"):
        Replica.build(game_header(host_game)).apply_entry({**entry_of(host_game, 0), "hash": "0" * 16})
    forged = {**attack, "dice": [attack["dice"][0] % 6 + 1]}  # another die: another position
    with pytest.raises(WireError):
        replica.apply_entry(forged)
    with pytest.raises(WireError, match="does not replay here"):
        Replica.build(game_header(host_game)).apply_entry({**entry_of(host_game, 0), "side": "german"})


@pytest.mark.parametrize("action", [
    {"kind": "move", "units": ["so-rd-297"], "path": ["zzzz"]},
    {"kind": "move", "units": ["nobody"], "path": ["1930"]},
    {"kind": "enter", "units": [], "hex": "9999"},
    {"kind": "attack", "attackers": ["so-rd-297"] * 500, "targets": ["-1"]},
    {"kind": "launch_rockets"},
    {"kind": "end_phase", "extra": 1},
    {},
])
def test_a_hostile_action_is_refused_to_that_seat_and_the_game_goes_on(hosted: HostThread, action: dict) -> None:
    raw, _ = _raw(hosted, "soviet")
    try:
        raw.sendall(encode("act", ref=3, action=action))
        answer = raw.read()
        assert answer["t"] == "refused" and answer["ref"] == 3 and answer["why"]
        assert hosted.game.log == []
        raw.sendall(encode("act", ref=4, action=turn_actions()[0][1].to_toml()))  # the same seat plays on
        accepted = raw.read()
        assert accepted["t"] == "accepted" and accepted["ref"] == 4 and accepted["n"] == 0
    finally:
        raw.close()


def test_a_rules_failure_refuses_the_action_and_the_host_serves_on(hosted: HostThread,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    raw, _ = _raw(hosted, "soviet")
    first = turn_actions()[0][1].to_toml()
    try:
        def broken(*args: object, **kwargs: object) -> None:
            raise ValueError("a bug")

        monkeypatch.setattr(hosted.game, "check", broken)
        raw.sendall(encode("act", ref=1, action=first))
        assert raw.read() == {"v": VERSION, "t": "refused", "ref": 1, "case": "",
                              "why": "not an action the rules can judge (ValueError)"}
        monkeypatch.undo()
        monkeypatch.setattr(hosted.game.rules, "apply", broken)
        raw.sendall(encode("act", ref=2, action=first))
        assert raw.read() == {"v": VERSION, "t": "refused", "ref": 2, "case": "",
                              "why": "internal error (ValueError); the game is as it was"}
        monkeypatch.undo()
        assert hosted.game.log == [] and hosted.game.state_hash() == Game.new(SCENARIO, SEED).state_hash()
        raw.sendall(encode("act", ref=3, action=first))
        assert raw.read()["t"] == "accepted"
    finally:
        raw.close()


def test_the_same_seat_dialling_again_takes_its_side_back_before_the_old_link_is_noticed(hosted: HostThread) -> None:
    first = Seat(hosted.address, "soviet", retry=0)
    try:
        assert len(first.link.token) == 32
        stranger = SeatLink(hosted.address, "soviet")
        stranger.token = "f" * 32
        with pytest.raises(SeatError, match="taken"):
            stranger.connect()
        again = SeatLink(hosted.address, "soviet")
        again.token = first.link.token  # the seat's own token: it is the same seat on a new link
        again.connect()
        first.wait(lambda: any(u.kind in ("lost", "gone") for u in first.updates))  # the old link is closed
        assert again.replica is not None and again.token == first.link.token
        again.close()
    finally:
        first.close()


def test_undo_goes_to_the_host_and_every_seat_steps_back_but_never_over_a_roll(hosted: HostThread) -> None:
    acts = turn_actions()
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    try:
        play_through(seats, acts[:33], hosted.game)  # the German combat phase, before the first attack
        before = hosted.game.state_hash()
        german, soviet = seats["german"], seats["soviet"]
        # the Soviet player may not take back the German player's move
        count = len(soviet.updates)
        assert soviet.link.request_undo() == ""
        soviet.wait(lambda: any(u.own for u in soviet.updates[count:]))
        refused = soviet.updates[-1]
        assert refused.kind == "refused" and refused.illegal is not None and refused.illegal.why == (
            "only the player who made the last action may take it back, and only while the move is still his")
        # the German player ends his combat phase early and takes it back: both copies step back with the host
        assert german.play(EndPhase()).kind == "accepted"
        soviet.wait_known(34)
        count = len(german.updates)
        assert german.link.request_undo() == ""
        german.wait(lambda: any(u.own for u in german.updates[count:]))
        assert german.updates[-1].kind == "undone"
        soviet.wait(lambda: soviet.updates[-1].kind == "undone" and soviet.updates[-1].side == "german")
        assert len(hosted.game.log) == 33 and hosted.game.state_hash() == before
        for seat in seats.values():
            with seat.link.lock:
                assert seat.game.state_hash() == before and len(seat.game.log) == 33
        assert load_game(hosted.host.save_path).state_hash() == before  # the autosave stepped back too
        play_through(seats, acts[33:39], hosted.game)  # up to the second attack: its die is rolled
        assert acts[38][1].kind == "attack" and hosted.game.actor == "german"  # his own losses to take
        count = len(german.updates)
        german.link.request_undo()
        german.wait(lambda: any(u.own for u in german.updates[count:]))
        assert german.updates[-1].kind == "refused" and german.updates[-1].illegal.why.startswith("nothing to undo")
        play_through(seats, acts[39:], hosted.game)
    finally:
        for seat in seats.values():
            seat.close()


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_mod, "HELLO_TIMEOUT", 0.3)
    with HostThread(Game.new(SCENARIO, SEED), tmp_path / "net.toml", tmp_path / "h.sock") as h:
        silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        silent.settimeout(5)
        silent.connect(h.address.path)
        try:
            assert silent.recv(100) == b""  # closed by the host, without a word
        finally:
            silent.close()


def test_three_game_turns_with_a_spectator_keep_every_copy_in_step(hosted: HostThread) -> None:
    acts = turn_actions(SEED, turns=3)
    assert len(acts) == 157
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet", "spectator")}
    try:
        play_through(seats, acts, hosted.game)  # every copy's hash compared with the host's after each action
        assert hosted.game.state.turn == 4
        assert seats["spectator"].game.state.to_dict() == hosted.game.state.to_dict()
    finally:
        for seat in seats.values():
            seat.close()


def test_an_entropy_host_sends_no_seed_and_its_seats_follow_its_rolls(tmp_path: Path) -> None:
    acts = turn_actions()
    with HostThread(Game.new(SCENARIO, None), tmp_path / "net.toml", tmp_path / "h.sock") as h:
        raw, welcome = _raw(h, "spectator")
        raw.close()
        assert welcome["header"]["origin"] == {"dice": "entropy"}
        seats = {side: Seat(h.address, side) for side in ("german", "soviet")}
        try:
            play_through(seats, acts[:34], h.game)  # up to the first attack: a die from the OS's entropy
            assert len(h.game.rolled[33]) == 1
            assert seats["german"].game.rolled[33] == h.game.rolled[33]
            saved = load_game(h.host.save_path)
            assert saved.seed is None and saved.state_hash() == h.game.state_hash()
        finally:
            for seat in seats.values():
                seat.close()


@pytest.mark.parametrize("before", [0, 3])
def test_a_replica_that_went_wrong_throws_itself_away_and_takes_the_whole_record(hosted: HostThread,
                                                                                  before: int) -> None:
    acts = turn_actions()
    seats = {side: Seat(hosted.address, side) for side in ("german", "soviet")}
    try:
        play_through(seats, acts[:before], hosted.game)
        german = seats["german"]
        with german.link.lock:  # the German copy drifts (a changed data file would do the same)
            mover = german.game.state.units[acts[before][1].units[0]]  # the next action's unit is gone here
            mover.status, mover.hex = "eliminated", None
            german.game.touch()
        old = german.game
        assert seats["soviet"].play(acts[before][1]).kind == "accepted"
        german.wait(lambda: any(u.kind == "rebuilt" for u in german.updates))
        assert any(u.kind == "note" and u.text.startswith("resynchronising with the host") for u in german.updates)
        assert german.game is not old
        with german.link.lock:
            assert german.game.state_hash() == hosted.game.state_hash() and len(german.game.log) == before + 1
        play_through(seats, acts[before + 1:before + 5], hosted.game)
    finally:
        for seat in seats.values():
            seat.close()


class _Transport:
    def __init__(self, queued: int) -> None:
        self.queued = queued

    def get_write_buffer_size(self) -> int:
        return self.queued


class _Writer:
    """What a seat's connection writes to, with as many bytes queued as the test says."""

    def __init__(self, queued: int) -> None:
        self.transport = _Transport(queued)
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        self.closed = True


def test_a_seat_that_stops_reading_is_cut_off_at_the_backlog_limit() -> None:
    within = host_mod.Conn(_Writer(host_mod.MAX_BACKLOG))  # type: ignore[arg-type]
    within.send(b"news\n")
    assert (within.writer.written, within.closed, within.sent) == ([b"news\n"], False, 5)
    behind = host_mod.Conn(_Writer(host_mod.MAX_BACKLOG + 1))  # type: ignore[arg-type]
    behind.send(b"news\n")
    assert (behind.writer.written, behind.closed, behind.writer.closed) == ([], True, True)
    behind.send(b"more\n")  # nothing more is written to a connection once it is cut off
    assert behind.writer.written == [] and behind.sent == 0
    assert host_mod.MAX_BACKLOG == 8 * 1024 * 1024


def test_a_fresh_seat_refuses_a_record_that_skips_the_first_actions() -> None:
    from kiev_tui.net.replica import game_header
    from kiev_tui.net.seat import SeatLink
    from kiev_tui.net.wire import Address, WireError

    host_game = Game.new(SCENARIO, SEED)
    seat = SeatLink(Address("127.0.0.1", 1), "german", store=None)
    welcome = {"t": "welcome", "header": game_header(host_game), "start": 3, "actions": []}
    # a seat with no replica needs the whole record: it says how many actions it was not sent
    with pytest.raises(WireError, match="only the actions after the first 3; this seat has none of the game yet"):
        seat._absorb(welcome)
