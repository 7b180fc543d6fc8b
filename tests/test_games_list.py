"""Issue 35 item 5: `kiev-tui games` lists what can be played; `map --game` of a game with its rules
reference only is one line and exit 2; the SSH lobby offers every playable scenario; the README
tells a new player about all of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine import registry
from kiev_tui.gameslist import PLAYABLE, all_games, game_info, playable_scenarios
from kiev_tui.serve.cli import default_scenarios

from tests.conftest import ROOT

runner = CliRunner()


def test_games_lists_each_game_its_scenarios_what_plays_and_what_has_an_ai() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index("spi_kiev: Kiev: The Battle of Encirclement, 1941 (SPI, 1979)")
    assert lines[at:at + 4] == [
        "spi_kiev: Kiev: The Battle of Encirclement, 1941 (SPI, 1979)",
        "  playable; the computer can play either side: kiev-tui play spi_kiev/campaign --ai german|soviet",
        "  rules: kiev-tui rules --game spi_kiev",
        "  spi_kiev/campaign              playable, with AI  Kiev: the battle of encirclement, "
        "29 August - 26 September 1941",
    ]
    at = lines.index("barbarossa1941: Barbarossa 1941")
    assert lines[at + 1] == "  playable; no computer player yet: two players"  # its rule system exists
    b41 = [line.split()[0] for line in lines if line.startswith("  barbarossa1941/")]
    assert b41 == ["barbarossa1941/historical", "barbarossa1941/hypothetical", "barbarossa1941/typhoon"]
    assert all(line.split()[1] == "playable" for line in lines if line.startswith("  barbarossa1941/"))
    e = lines.index("efs_ktr: Barbarossa: Kiev to Rostov, 1941 (GMT East Front Series)")
    assert lines[e:e + 4] == ["efs_ktr: Barbarossa: Kiev to Rostov, 1941 (GMT East Front Series)",
                              "  playable; no computer player yet: two players",  # the rule system (issue 32)
                              "  rules: kiev-tui rules --game efs_ktr",
                              "  efs_ktr/sumy                   playable           Battle of Sumy, 27 September - "
                              "4 October 1941 (learning scenario)"]


def test_each_game_has_the_status_the_registry_and_its_data_give() -> None:
    got = {g.name: (g.status, g.ai, len(g.scenarios), g.has_map) for g in all_games()}
    assert got == {"spi_kiev": (PLAYABLE, True, 1, True), "barbarossa1941": (PLAYABLE, False, 3, True),
                   "efs_ktr": (PLAYABLE, False, 1, True)}
    assert game_info("nonsense") is None


def test_map_of_the_data_only_efs_game_draws_the_sumy_section() -> None:
    result = runner.invoke(app, ["map", "--game", "efs_ktr"])
    assert result.exit_code == 0, result.stderr
    assert "sumy" in result.stdout and "lebe" in result.stdout and "nedr" in result.stdout


def test_map_of_an_unknown_game_names_every_known_one() -> None:
    result = runner.invoke(app, ["map", "--game", "nosuch"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --game: no game 'nosuch' (known: ")
    assert sorted(result.stderr.split("known: ")[1].rstrip(")\n").split(", ")) == ["barbarossa1941", "efs_ktr", "spi_kiev"]


def test_the_lobby_offers_every_playable_scenario_even_of_a_game_the_registry_has_not_met(
        monkeypatch: pytest.MonkeyPatch) -> None:
    every = ["barbarossa1941/historical", "barbarossa1941/hypothetical", "barbarossa1941/typhoon",
             "efs_ktr/sumy", "spi_kiev/campaign"]
    assert default_scenarios() == every
    # a game found by convention only (kiev_tui/games/<name>/system.py), not yet asked for
    monkeypatch.setattr(registry, "_GAMES", {k: v for k, v in registry._GAMES.items() if k != "spi_kiev"})
    assert "spi_kiev" not in registry.names()
    assert default_scenarios() == every == playable_scenarios()


def test_the_readme_tells_of_the_computer_the_arena_every_game_and_the_games_command() -> None:
    text = (ROOT / "README.md").read_text()
    for needle in ("kiev-tui games", "--ai SIDE", "make arena", "spi_kiev/campaign", "barbarossa1941",
                   "efs_ktr", "Kiev to Rostov"):
        assert needle in text, needle
