"""The Battle of Sumy played the other ways two people play, with actions made through the face:
a hot-seat plain session hands the keyboard over (the other player's choices never shown), two
seats on a host stay in step through a declared attack and its hidden choices, and the save of the
face-played game-turn verifies with ``kiev-tui replay --verify``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.plain.session import PlainSession

from test_net_support import HostThread, Seat, play_through
from tests.efs_play import plain_game_turn

SCENARIO = "efs_ktr/sumy"


def face_game_turn(seed: int = 7) -> tuple[Game, list[tuple[str, Action]]]:
    game = Game.new(SCENARIO, seed=seed)
    session = PlainSession(game, 100, pause=True)
    played, _ = plain_game_turn(session)
    assert played.attacks == 2 and played.handoffs >= 2
    return game, list(zip(game.sides, game.log))


def test_hot_seat_hand_over_hides_the_board_until_the_player_sits_down() -> None:
    game = Game.new(SCENARIO, seed=7)
    s = PlainSession(game, 100, pause=True)
    while game.state.phase != "movement":
        s.handle("end")
        if s.handing_over:
            s.release()
    s.handle("declare 1506")
    while game.state.phase != "combat":
        s.handle("end")
        if s.handing_over:
            s.release()
    s.handle("attack 1506")
    # the chain: the Axis places air face down, then the Soviet must answer: the keyboard changes hands
    while game.actor == "axis" and game.state.pending is not None:
        s.handle("pick 1")
    assert game.actor == "soviet" and s.handing_over
    salt = game.state.secrets["axis"]["air"]["salt"]
    held = s.release()
    assert held and not any(salt in line or line.lstrip().startswith("1. place") for line in held)
    assert s.seat == "soviet"
    assert s.handle("act")[0].startswith("Allowed now")  # the Soviet's own answers, by number


def test_two_seats_on_a_host_play_the_face_game_turn_in_step(tmp_path: Path) -> None:
    _, acts = face_game_turn()
    kinds = {a.kind for _, a in acts}
    assert {"declare", "attack", "air_mission", "set_order"} <= kinds
    game = Game.new(SCENARIO, 7)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as hosted:
        seats = {side: Seat(hosted.address, side) for side in ("axis", "soviet")}
        try:
            play_through(seats, acts, hosted.game)
            g = hosted.game
            assert len(g.log) == len(acts) and g.state.turn == 2
            for seat in seats.values():
                assert seat.game.state_hash() == g.state_hash()
            assert seats["soviet"].game.state.secrets.get("axis") is None  # never the Axis's secrets
        finally:
            for seat in seats.values():
                seat.close()


def test_the_face_played_save_verifies(tmp_path: Path) -> None:
    game, acts = face_game_turn()
    path = save_game(game, tmp_path / "sumy.toml")
    res = CliRunner().invoke(app, ["replay", "--verify", str(path)])
    assert res.exit_code == 0, res.output
    assert load_game(path).state_hash() == game.state_hash()
