"""Saves of rules version 3 load and replay exactly (issue 35 made the rules version 3).

The three files under fixtures/saves_v3/ were made by the random bot (kiev_tui/games/spi_kiev/
bot.py, as those of saves_v2 were): the mini scenario with seed 5 stopped on its first pending
loss-or-retreat after 20 actions, the whole mini game of seed 4, and the first 700 actions of
the campaign with seed 3 (it holds 12.23's floor of one in its journal).  Loading replays every
action and checks its recorded hash, dice and journal lines, then the final snapshot's hash.
The two finished games reach the same hashes as their version-2 counterparts: issue 35 changed
only the journal's strength lines there, which is why version 2 is refused rather than replayed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.saves import load_game

SAVES = Path(__file__).resolve().parent / "fixtures" / "saves_v3"
MINI = Path(__file__).resolve().parent / "fixtures" / "mini" / "scenarios" / "mini.toml"

EXPECTED = {
    # file: (actions, final hash, turn, phase, pending kind or "", game over)
    "mini_mid_battle.toml": (20, "6862504f30f18f3c", 2, "movement", "loss_or_retreat", False),
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
def test_a_version_3_save_replays_to_its_recorded_hashes(name: str, tmp_path: Path) -> None:
    actions, final_hash, turn, phase, pending, over = EXPECTED[name]
    game = load_game(local_copy(name, tmp_path))
    assert len(game.log) == actions
    assert game.state_hash() == final_hash
    assert (game.state.turn, game.state.phase, game.state.over) == (turn, phase, over)
    assert (game.state.pending or {}).get("kind", "") == pending
