"""Saves written before the rule state became typed (issue 14) still load and replay exactly.

The three files under fixtures/saves_v2/ were made by the bot with rules version 2 while
``state.vars`` was still a dict of strings: a mini game stopped on a pending battle, a whole
mini game, and 700 actions of the campaign (rail, overruns, advances, retreats into friends).
Loading replays every action and checks its recorded hash, then the final snapshot's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.saves import load_game

SAVES = Path(__file__).resolve().parent / "fixtures" / "saves_v2"
MINI = Path(__file__).resolve().parent / "fixtures" / "mini" / "scenarios" / "mini.toml"

EXPECTED = {
    # file: (actions, final hash, turn, phase, pending kind or "", game over)
    "mini_mid_battle.toml": (55, "24995184851df21c", 3, "mechanized", "loss_or_retreat", False),
    "mini_over.toml": (63, "288e60f25d72b8cb", 3, "mechanized", "", True),
    "campaign_700.toml": (700, "67f2534e676b79fd", 13, "mechanized", "", False),
}


def local_copy(name: str, tmp_path: Path) -> Path:
    """The save with its mini scenario path made absolute, so the test runs from any folder."""
    text = (SAVES / name).read_text(encoding="utf-8")
    text = text.replace('scenario = "tests/fixtures/mini/scenarios/mini.toml"', f'scenario = "{MINI.as_posix()}"')
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_version_2_save_replays_to_its_recorded_hashes(name: str, tmp_path: Path) -> None:
    actions, final_hash, turn, phase, pending, over = EXPECTED[name]
    game = load_game(local_copy(name, tmp_path))
    assert len(game.log) == actions
    assert game.state_hash() == final_hash
    assert (game.state.turn, game.state.phase, game.state.over) == (turn, phase, over)
    assert (game.state.pending or {}).get("kind", "") == pending
