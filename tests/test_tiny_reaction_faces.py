"""Tiny's reaction phase (T4: after a player's movement the other side may dig in one unit) played
through the generic faces with no Tiny face code: plain mode, a net seat pair on loopback and a
PBEM pair of folders.  In each, the dig-in phase is acted by the non-phasing side (game.actor),
and the phasing side is refused with Tiny's wrong-side case T1.  The Textual face: tests/ui."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.pbem.files import Folder, read_record
from kiev_tui.pbem.protocol import replay
from kiev_tui.plain.session import PlainSession

from tests.test_net_support import HostThread, Seat
from tests.tiny_game import DIG, TinyMove, tiny  # noqa: F401  (the fixture registers Tiny)

runner = CliRunner()
AXIS_MOVE = TinyMove(("ax-1",), ("0301",))
DIG_AL1 = TinyMove(("al-1",), ("0404",))  # al-1 touches no enemy: it steps into Southby and digs in
AXIS_IN_DIG = TinyMove(("ax-2",), ("0202",))  # the phasing side tries to act in the other's phase
T1 = "[T1] it is the allies player's turn, not the axis player's"


def test_plain_mode_hands_the_dig_in_phase_to_the_non_phasing_side(tiny: Path) -> None:  # noqa: F811
    g = Game.new(DIG, seed=1)
    s = PlainSession(g, 72)
    assert s.handle("move 0202 0301") == ["1 infantry march 0301 (1 MP)"]
    out = s.handle("end")
    assert out[2:5] == ["The Allies player may dig in one unit (T4)", "Allies player's turn: dig in phase",
                        "Turn 1 of 2"]
    assert out[5:8] == ["Axis player: movement > [DIG IN] (Allies)", "Allies player: movement > dig in (Axis)",
                        "then: end of turn"]
    assert (s.seat, g.actor, g.state.player) == ("allies", "allies", "axis")
    assert s.prompt() == "T1 Axis dig in, Allies to act> "
    # the keyboard is the Allies' now: an Axis stack is not theirs to move, and the engine says T1
    assert s.handle("move 0102 0202") == ["no units of the Allies player in 0102"]
    assert str(g.check(AXIS_IN_DIG, side="axis")) == T1
    assert s.handle("move 0504 0404 0403") == [
        "Refused [T4.1] a unit digging in steps into one next hex only (rules", "  T4.1)"]
    assert s.handle("move 0504 0404") == ["1 infantry march 0404 (1 MP)", "1 infantry digs in at 0404 (T4)"]
    out = s.handle("end")  # back to the Allies' own movement: no hand-over, the seat stays
    assert out == ["Turn 1: axis dig_in phase ends", "The allies player now has the move",
                   "Turn 1: allies movement phase begins"]
    assert (g.state.player, g.state.phase, g.actor, s.seat) == ("allies", "movement", "allies", "allies")
    assert g.sides == ["axis", "axis", "allies", "allies"]


def _net_play(seat: Seat, action: Action) -> Any:
    return seat.play(action)


def test_a_net_seat_pair_plays_the_reaction_phase_by_the_non_phasing_seat(tiny: Path, tmp_path: Path) -> None:  # noqa: F811
    game = Game.new(DIG, seed=1)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as h:
        seats = {side: Seat(h.address, side) for side in ("axis", "allies")}
        try:
            assert _net_play(seats["axis"], AXIS_MOVE).kind == "accepted"
            assert _net_play(seats["axis"], EndPhase()).kind == "accepted"
            for seat in seats.values():
                seat.wait_known(2)
                assert (seat.game.actor, seat.game.state.player, seat.game.state.phase) == ("allies", "axis", "dig_in")
            refused = _net_play(seats["axis"], AXIS_IN_DIG)  # the phasing seat: the host refuses it
            assert refused.kind == "refused" and str(refused.illegal) == T1
            assert _net_play(seats["allies"], DIG_AL1).kind == "accepted"
            assert _net_play(seats["allies"], EndPhase()).kind == "accepted"
            for seat in seats.values():
                seat.wait_known(4)
                with seat.link.lock:
                    assert seat.game.hashes[-1] == h.game.hashes[-1]
            assert h.game.sides == ["axis", "axis", "allies", "allies"]
            assert h.game.state.vars.dug == ["al-1"] and h.game.actor == "allies"
        finally:
            for seat in seats.values():
                seat.close()


def _cli(*args: Any) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def _actions(acts: list[Action], path: Path) -> Path:
    path.write_text(tomli_w.dumps({"action": [a.to_toml() for a in acts]}))
    return path


def test_a_pbem_pair_sends_the_dig_in_phase_to_the_non_phasing_player(tiny: Path, tmp_path: Path) -> None:  # noqa: F811
    anna, boris = Folder(tmp_path / "anna", "tiny"), Folder(tmp_path / "boris", "tiny")
    assert _cli("pbem", "new", DIG, "--me", "axis", "--name", "tiny", "--dir", anna.dir).exit_code == 0
    assert _cli("pbem", "join", anna.turn(0), "--dir", boris.dir).exit_code == 0
    assert _cli("pbem", "turn", boris.turn(1), "--dir", anna.dir).exit_code == 0
    # Anna's part ends with her movement: the dig-in phase that follows is the Allies'
    bad = _cli("pbem", "turn", "--dir", anna.dir, "--actions",
               _actions([AXIS_MOVE, EndPhase(), AXIS_IN_DIG], tmp_path / "a.toml"))
    assert bad.exit_code == 2 and f"action 3: this move action is refused: {T1}" in bad.stderr
    ok = _cli("pbem", "turn", "--dir", anna.dir, "--actions", _actions([AXIS_MOVE, EndPhase()], tmp_path / "a.toml"))
    assert ok.exit_code == 0, ok.stderr
    assert "Turn 1, axis dig_in; the next turn file comes from the allies player" in ok.stdout
    sent = tomllib.loads(anna.turn(2).read_text())
    assert [(a["kind"], a["side"]) for a in sent["action"]] == [("move", "axis"), ("end_phase", "axis")]
    # Boris digs in, ends the dig-in phase, moves nothing and ends his movement: the Axis dig-in is next
    ok = _cli("pbem", "turn", anna.turn(2), "--dir", boris.dir, "--actions",
              _actions([DIG_AL1, EndPhase(), EndPhase()], tmp_path / "b.toml"))
    assert ok.exit_code == 0, ok.stderr
    _, messages = read_record(boris.record)
    pos = replay(messages, "boris")
    assert pos.game is not None
    g = pos.game
    assert (g.state.player, g.state.phase, g.actor, pos.waiting_for()) == ("allies", "dig_in", "axis", "axis")
    assert g.state.vars.dug == ["al-1"]
