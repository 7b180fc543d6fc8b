"""Views and secrets over the wire (issue 30): the other seat's bytes hold Tiny's commitment,
never the hidden target town or its salt, and its copy still follows the host's public hash."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import secret_path
from kiev_tui.engine.view import Sealed, commitment
from kiev_tui.net.replica import Replica
from kiev_tui.net.wire import encode
from test_net_support import HostThread, Seat
from tests.test_views_secrets import NAME, TOWN, leaks  # noqa: F401
from tests.tiny_game import ALLIES, AXIS, TinyMove, TinyReveal, TinyTarget, tiny, tiny_data  # noqa: F401



class Wiretap:
    """A bare seat that keeps every byte the host sends it."""

    def __init__(self, h: HostThread, side: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(h.address.path)
        self.sock.sendall(encode("hello", side=side))
        self.file = self.sock.makefile("rb")
        self.bytes = b""

    def next(self, kind: str) -> dict:
        """The next message of ``kind`` (every line read is kept in ``bytes``)."""
        while True:
            line = self.file.readline()
            self.bytes += line
            msg = json.loads(line)
            if msg["t"] == kind:
                return msg

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_the_other_seat_never_receives_the_hidden_choice(tiny_data: Path, tmp_path: Path) -> None:
    game = Game.new("tiny/duel", seed=5)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as h:
        tap = Wiretap(h, ALLIES)
        axis = Seat(h.address, AXIS)
        try:
            replica = Replica.build(tap.next("welcome")["header"])
            assert axis.play(TinyTarget(TOWN)).kind == "accepted"
            salt = h.game.state.secrets[AXIS]["target"]["salt"]
            assert axis.play(TinyMove(("ax-2",), ("0202", "0203"))).kind == "accepted"
            got = [tap.next("accepted") for _ in range(2)]
            for msg in got:
                replica.apply_entry(msg)  # the public hash checks on the sealed copy
            assert replica.game.log[0] == Sealed("target", commitment(TOWN, salt))
            assert replica.game.hashes == h.game.hashes
            assert replica.game.state.secrets == {}
            wire = tap.bytes.decode()
            assert leaks(wire, salt) == []
            # the host's autosave seals it too; only the axis's side file holds it
            saved = h.host.save_path
            assert leaks(saved.read_text(), salt) == []
            assert salt in secret_path(saved, AXIS).read_text()
            # the owner's own copy has it, and reveals it; a forged reveal is refused
            with axis.link.lock:
                assert axis.game.state.secrets[AXIS]["target"] == {"choice": TOWN, "salt": salt}
            assert axis.play(EndPhase()).kind == "accepted"
            replica.apply_entry(tap.next("accepted"))
            # the allies play their whole phase facing only the commitment
            tap.sock.sendall(encode("act", ref=1, action=EndPhase().to_toml()))
            replica.apply_entry(tap.next("accepted"))
            assert leaks(tap.bytes.decode(), salt) == []
            axis.wait_known(4)
            forged = axis.play(TinyReveal("0404", salt))
            assert forged.kind == "refused" and forged.illegal is not None and forged.illegal.case == "T7"
            assert axis.play(TinyReveal(TOWN, salt)).kind == "accepted"
            replica.apply_entry(tap.next("accepted"))
            assert replica.game.hashes == h.game.hashes
            assert TOWN in tap.bytes.decode() and salt in tap.bytes.decode()  # public after the reveal
        finally:
            axis.close()
            tap.close()
