"""Random legal play of the Battle of Sumy with every check on: ``kiev-tui selfplay --check`` runs
the generic invariants after every action and a save/reload at every phase end (hidden air
missions and orders reloaded from their owners' side files).  Two seeds in the normal suite, 20
under ``-m slow``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import bot
from kiev_tui.selfcheck import SelfCheck

SCENARIO = "efs_ktr/sumy"


def play_checked(seed: int, folder: Path) -> tuple[bot.Result, SelfCheck]:
    check = SelfCheck(SCENARIO, seed, folder)
    hidden: list[str] = []

    def on(game: Game, action: Action) -> None:
        check(game, action)
        if action.kind in ("air_mission", "set_order"):
            hidden.append(action.kind)

    result = bot.play_game(SCENARIO, seed, on_action=on)
    check.finish()
    assert hidden, "the game made hidden choices, reloaded from the side files"
    return result, check


def test_selfplay_cli_check_two_seeds() -> None:
    res = CliRunner().invoke(app, ["selfplay", "--scenario", SCENARIO, "--seed", "1", "--games", "2", "--check"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.stdout.splitlines() if line.startswith("seed ")]
    assert len(lines) == 2
    for line in lines:
        assert "game over after turn 4" in line and "saved and reloaded at" in line


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 21))
def test_selfplay_check_twenty_seeds(seed: int, tmp_path: Path) -> None:
    result, check = play_checked(seed, tmp_path)
    # the game runs to GT53 (turn 4) unless the Axis loses six steps first (PB 10.45b: Soviet win)
    assert result.over and (result.turns == 4 or result.score["winner"] == "soviet")
    assert check.actions == result.actions and check.reloads >= 16 * (result.turns - 1)
