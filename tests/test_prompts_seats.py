"""Tiny's prompts (set-up choice, two-step town choice) played by a net seat pair on loopback and
by a PBEM pair of folders, each side answering from the prompt's options: no Tiny face code."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.pbem import protocol
from kiev_tui.pbem.files import Folder, read_record
from kiev_tui.plain.session import PlainSession

from test_net_support import HostThread, Seat
from tests.tiny_game import MUSTER, TinyMove, register_tiny, unregister_tiny

runner = CliRunner()


@pytest.fixture
def muster() -> Iterator[Path]:
    register_tiny()
    try:
        yield MUSTER
    finally:
        unregister_tiny()


def _option(game: Game, label: str) -> Any:
    p = game.rules.prompt(game)
    assert p is not None
    return next(o.action for o in p.options if o.label == label)


def test_a_net_seat_pair_answers_the_prompts_from_its_own_copy(muster: Path, tmp_path: Path) -> None:
    game = Game.new(muster, 2)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as h:
        seats = {side: Seat(h.address, side) for side in ("axis", "allies")}
        try:
            axis, allies = seats["axis"], seats["allies"]
            place = _option(axis.game, "ax-2 starts in 0102")  # read from the seat's copy of the game
            refused = allies.play(place)  # the allies seat may not answer the axis choice
            assert (refused.kind, refused.illegal.case, refused.illegal.why) == (
                "refused", "T1", "the axis player must answer now, not the allies player")
            assert axis.play(place).kind == "accepted"
            assert axis.play(TinyMove(("ax-1",), ("0301",))).kind == "accepted"
            axis.wait_known(2)
            assert axis.play(_option(axis.game, "forage a neighbouring hex")).kind == "accepted"
            axis.wait_known(3)
            allies.wait_known(3)
            assert [f["kind"] for f in allies.game.state.prompts] == ["town", "forage"]  # the deeper stack travels
            assert axis.play(_option(axis.game, "forage 0302")).kind == "accepted"
            for seat in seats.values():
                seat.wait_known(4)
                assert seat.game.state_hash() == h.game.state_hash()
            assert (h.game.state.vars.foraged, h.game.state.prompts) == (["0302"], [])
            saved = load_game(h.host.save_path)
            assert [a.kind for a in saved.log] == ["place", "move", "forage", "forage_at"]
            assert saved.state_hash() == h.game.state_hash()
        finally:
            for seat in seats.values():
                seat.close()


def _cli(*args: Any, input: str | None = None) -> str:
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def test_a_pbem_pair_answers_the_prompts_in_plain_mode(muster: Path, tmp_path: Path) -> None:
    anna, boris = Folder(tmp_path / "anna", "t"), Folder(tmp_path / "boris", "t")
    _cli("pbem", "new", muster, "--me", "axis", "--name", "t", "--dir", anna.dir)
    _cli("pbem", "join", anna.turn(0), "--dir", boris.dir)
    # before Anna answers, Boris's seat is refused the axis set-up choice with its case
    me, messages = read_record(boris.record)
    copy = protocol.replay(messages, "record").game
    assert me == "allies" and copy is not None and copy.rules.prompt(copy).kind == "setup"
    session = PlainSession(copy, width=120)
    session.seat = "allies"  # Boris at his own copy, out of turn
    assert session.handle("pick 1") == ["Refused [T1] the axis player must answer now, not the allies player (rules T1)"]

    said = _cli("pbem", "turn", boris.turn(1), "--dir", anna.dir, "--plain",
                input="pick 2\nmove 0202 0301\npick 2\npick 4\nend\n")
    assert "axis forages 0401 (T5.1)" in said and "Your part ends: the allies player has the move now." in said
    sent = tomllib.loads(anna.turn(2).read_text())
    assert [a["kind"] for a in sent["action"]] == ["place", "move", "forage", "forage_at", "end_phase"]
    assert "message 2 checked" in _cli("pbem", "turn", anna.turn(2), "--dir", boris.dir, "--plain", input="quit\n")
    replayed = protocol.replay(read_record(boris.record)[1], "x").game
    assert replayed is not None
    st = replayed.state
    assert (st.units["ax-2"].hex, st.vars.foraged, st.prompts, st.player) == ("0101", ["0401"], [], "allies")
