"""Random legal play of Barbarossa 1941 with every check on: ``kiev-tui selfplay --check`` runs
the generic invariants after every action and a save/reload at every phase end
(``kiev_tui/selfcheck.py``); here this game's own invariants are added (3: stacking; 12.9: only
the fleet at sea; never both sides in one hex).  Two seeds in the normal suite, 20 seeds of each
scenario under ``make soak`` (``-m slow``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941 import bot, stacking
from kiev_tui.games.barbarossa1941.system import board_of
from kiev_tui.selfcheck import CheckFailed, SelfCheck, invariants
from tests.b41_system_helpers import new_game

SCENARIOS = ("historical", "hypothetical", "typhoon")


def b41_invariants(game: Game, action: Action) -> None:
    """This game's own: no hex with both sides' ground units, nothing but the fleet at sea, and no
    side overstacked once its movement or exploitation phase is over (3)."""
    board = board_of(game)
    gmap = game.scenario.map
    for h, ids in board.occupied().items():
        sides = {board.side(u) for u in ids}
        assert len(sides) == 1, f"both sides in {gmap.grid.id(h)}: {ids}"
        if gmap.terrain(h) == "sea":
            assert all(board.udef(u).type == "fleet" for u in ids), f"{ids} at sea in {gmap.grid.id(h)}"
    if action.kind == "end_phase" and game.log and len(game.log) >= 2:
        over = {gmap.grid.id(h): i for h, i in stacking.violations(board).items()}
        assert not over, f"overstacked after {game.phase}: {over}"


def play_checked(scenario: str, seed: int, folder: Path) -> tuple[bot.Result, SelfCheck]:
    ref = f"barbarossa1941/{scenario}"
    check = SelfCheck(ref, seed, folder)

    def on(game: Game, action: Action) -> None:
        check(game, action)
        b41_invariants(game, action)

    result = bot.play_game(ref, seed, on_action=on)
    check.finish()
    return result, check


def test_invariants_see_a_unit_put_off_the_map() -> None:
    game = new_game("barbarossa1941/typhoon", 1)
    assert invariants(game) == []
    uid = next(u for u, s in game.state.units.items() if s.status == "map")
    game.state.units[uid].hex = "9999"
    assert invariants(game) == [f"{uid}: hex 9999 is off the map"]
    game.state.units[uid].hex = None
    assert invariants(game) == [f"{uid}: status map with hex None"]


def test_a_save_that_reloads_elsewhere_is_caught(tmp_path: Path) -> None:
    game = new_game("barbarossa1941/typhoon", 1)
    check = SelfCheck("barbarossa1941/typhoon", 2, tmp_path)  # the mirror rolls with another seed

    with pytest.raises(CheckFailed):
        while True:  # the first phase end whose actions drew dice differs
            act = EndPhase() if game.state.pending is None else bot.answer_from_options(game, random.Random(1))
            game.apply(act)
            check(game, act)
            if game.state.turn > 2:
                break


# the normal suite's two seeds: one in process with this game's invariants, one by the command
def test_selfplay_check_seed_1_of_typhoon(tmp_path: Path) -> None:
    result, check = play_checked("typhoon", 1, tmp_path)
    assert result.over and result.turns == 10
    assert check.actions == result.actions and check.reloads >= 50


@pytest.mark.slow  # the --check option's CLI path runs in make test through tests/test_efs_selfplay.py
def test_selfplay_cli_check_option_seed_2() -> None:
    res = CliRunner().invoke(app, ["selfplay", "--scenario", "barbarossa1941/typhoon", "--seed", "2", "--check"])
    assert res.exit_code == 0, res.output
    assert "game over after turn 10" in res.stdout and "saved and reloaded at" in res.stdout


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", range(1, 21))
def test_selfplay_check_twenty_seeds_of_each_scenario(scenario: str, seed: int, tmp_path: Path) -> None:
    result, check = play_checked(scenario, seed, tmp_path)
    assert result.over and result.turns == 10
    assert check.reloads >= 50
