"""Names, not ids, and where each move began (issue 35): plain `score`, `kiev-tui state`, the lines
`pbem turn` prints; every move line says from and to, while a save's journal keeps the words
older saves hold (so they still replay)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.pbem.files import Folder
from kiev_tui.plain.session import PlainSession

from tests.conftest import MINI
from tests.test_pbem_play import BORIS_PLAIN, cli, players  # noqa: F401 - the fixture

runner = CliRunner()


def test_a_move_line_says_where_the_stack_came_from_and_the_save_keeps_its_old_words(tmp_path: Path) -> None:
    game = Game.new(MINI, seed=3)
    s = PlainSession(game, 100)
    assert s.handle("move 0703 0603 0604") == ["102 rifle XX move from 0703 to 0604 via 0603 (2 MP)"]
    assert game.journal[-1].record() == "so-rifle-2 move 0603 > 0604 (2 MP)"
    path = save_game(game, tmp_path / "g.toml")
    assert tomllib.loads(path.read_text())["journal"]["lines"][-1] == "so-rifle-2 move 0603 > 0604 (2 MP)"
    again = load_game(path)  # verified against those words
    assert again.journal[-1].describe() == "so-rifle-2 move from 0703 to 0604 via 0603 (2 MP)"
    assert PlainSession(again, 100).handle("log 1")[0].endswith("102 rifle XX move from 0703 to 0604 via 0603 (2 MP)")


def test_plain_score_names_the_units_lost() -> None:
    game = Game.new("spi_kiev/campaign", seed=1941)
    for uid in ("so-rd-226", "so-hq-agsw"):
        game.state.units[uid].status = "eliminated"
    out = PlainSession(game, 80).handle("score")
    assert out[3:7] == ["    10  holds Lyubech (0602, city)", "    10  holds Kanev (1329, city)",
                        "    10  eliminated: AGSW HQ (the front HQ)", "     1  eliminated: 226 rifle XX"]
    assert not any("so-" in line for line in out)


def test_state_names_the_units_it_lists(tmp_path: Path) -> None:
    save = save_game(Game.new("spi_kiev/campaign", seed=1941), tmp_path / "s.toml")
    result = runner.invoke(app, ["state", str(save)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        "Turn 1, soviet movement\n  to do: bring on 8 reinforcement(s): untried tank XX, untried tank XX, "
        "untried tank XX, untried rifle XX, untried rifle XX, untried rifle XX, untried rifle XX, "
        "untried rifle XX (23.0)\n")


def test_pbem_turn_prints_names_and_whole_moves(players: tuple[Folder, Folder]) -> None:  # noqa: F811
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    said = cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input="quit\n")
    assert "Reinforcements untried rifle XX enter at 1005 (1 MP)" in said
    assert "102 rifle XX move from 0703 to 0403 via 0603 > 0504 (5 MP)" in said
    before_plain = said.split("message 2 checked")[0]
    assert "so-" not in before_plain
