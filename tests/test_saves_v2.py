"""Saves of rules version 2 are refused by name since issue 35 made the rules version 3.

The three files under fixtures/saves_v2/ were made by the bot with rules version 2 while
``state.vars`` was still a dict of strings: a mini game stopped on a pending battle, a whole
mini game, and 700 actions of the campaign.  They replayed exactly until issue 35 changed the
rules (12.23's floor of one per unit, 19.63 counting the HQ, 11.23 after 19.65): the campaign's
journal then differs (an out-of-supply 1-strength unit is now worth 1, not 0.5), so version 2
saves are refused with one line naming both versions.  The files are kept unedited as the
proof; fixtures/saves_v3/ holds the same three kinds of game made under version 3
(test_saves_v3.py replays them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.saves import load_game

SAVES = Path(__file__).resolve().parent / "fixtures" / "saves_v2"
MINI = Path(__file__).resolve().parent / "fixtures" / "mini" / "scenarios" / "mini.toml"

NAMES = ("campaign_700.toml", "mini_mid_battle.toml", "mini_over.toml")


def local_copy(name: str, tmp_path: Path) -> Path:
    """The save with its mini scenario path made absolute, so the test runs from any folder."""
    text = (SAVES / name).read_text(encoding="utf-8")
    text = text.replace('scenario = "tests/fixtures/mini/scenarios/mini.toml"', f'scenario = "{MINI.as_posix()}"')
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_version_2_save_is_refused_naming_the_versions(name: str, tmp_path: Path) -> None:
    path = local_copy(name, tmp_path)
    with pytest.raises(DataError) as err:
        load_game(path)
    assert err.value.line() == (
        f"{path}: save.rules_version: made by an older or newer version of these rules (2; this program "
        "plays version 3), so it cannot be replayed")
