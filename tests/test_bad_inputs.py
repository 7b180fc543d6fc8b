"""Hard inputs: every broken file gives one clear line naming file and key, exit 2, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app

CORPUS = Path(__file__).parent / "corpus"
runner = CliRunner()

# file -> (command, a fragment the one-line message must contain)
CASES: dict[str, tuple[str, str]] = {
    "map_truncated.toml": ("validate", "malformed TOML"),
    "map_wrong_type.toml": ("validate", "map.columns: expected a whole number"),
    "map_unknown_key.toml": ("validate", "map.colour: unknown key"),
    "map_hex_off_map.toml": ("validate", "hexes.4512: hex 4512 is off the map"),
    "map_bad_hexside.toml": ("validate", "hexsides.road[0]"),
    "map_unknown_terrain.toml": ("validate", "unknown terrain 'volcano'"),
    "units_bad_steps.toml": ("validate", "unit[0].steps[0]"),
    "units_duplicate_id.toml": ("validate", "unit[1].id: unit id 'x' is used twice"),
    "units_bad_side.toml": ("validate", "unit[0].side"),
    "scenarios/unknown_unit.toml": ("validate", "setup.ge-nonexistent: no unit"),
    "scenarios/unit_in_two_places.toml": ("validate", "one place only"),
    "scenarios/hex_off_map.toml": ("validate", "setup.ge-inf-1: hex 1212 is off the map"),
    "scenarios/bad_turn_type.toml": ("validate", "scenario.turns: expected a whole number"),
    "tables_bad_result.toml": ("validate", "crt.row[0].results[11]: 'x/y' is not a CRT result"),
    "tables_missing_row.toml": ("validate", "no row for die roll(s) 6"),
    "save_truncated.toml": ("replay", "malformed TOML"),
    "save_tampered_log.toml": ("replay", "action 1: the replay diverges"),
    "save_unknown_action.toml": ("replay", "unknown action 'airdrop'"),
    "save_bad_format.toml": ("replay", "save.format"),
    "save_wrong_seed_type.toml": ("replay", "save.seed: expected a whole number"),
    # issue 13: files that once hung, crashed with a traceback, or were believed
    "save_scenario_dev_zero.toml": ("replay", "save.scenario: cannot load scenario '/dev/zero': /dev/zero: not a regular file"),
    "save_scenario_unknown_game.toml": ("replay", "no rule system for game 'chess'"),
    "save_seed_5000_digits.toml": ("replay", "(syntax): a whole number has more than 4300 digits"),
    "save_header_turn_wrong.toml": ("replay", "save.turn: the save says turn 4, its replay ends in turn 1"),
    "save_move_to_hex_with_newline.toml": ("replay", "action 1: the replay refuses this move action"),
    "scenarios/unknown_game.toml": ("validate", "scenario.game: no rule system for game 'chess'"),
    "map_scale_minus_inf.toml": ("validate", "map.scale_km: -inf is not a number this program can use"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_broken_file_gives_one_clear_line(name: str) -> None:
    command, fragment = CASES[name]
    path = CORPUS / name
    result = runner.invoke(app, [command, str(path)])
    assert result.exit_code == 2, result.output
    err = result.stderr.strip().splitlines()
    assert len(err) == 1, result.stderr
    assert err[0].startswith(f"error: {path}"), err[0]
    assert fragment in err[0]
    assert "Traceback" not in result.output + result.stderr


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 27


def test_every_corpus_file_has_a_case() -> None:
    on_disk = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.toml")}
    assert on_disk - set(CASES) == {"save_good.toml"}


def test_good_save_in_corpus_replays() -> None:
    result = runner.invoke(app, ["replay", str(CORPUS / "save_good.toml")])
    assert result.exit_code == 0, result.stderr
    assert "matches" in result.stdout


def test_missing_file_and_bad_action_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2 and "file not found" in result.stderr
    acts = tmp_path / "acts.toml"
    acts.write_text('[[action]]\nkind = "move"\nunits = ["so-rifle-1"]\npath = ["99x1"]\n')
    result = runner.invoke(app, ["script", "tests/fixtures/mini/scenarios/mini.toml", str(acts)])
    # A bad hex id inside an action is a refusal, reported with its case, not a crash.
    assert result.exit_code == 0 and "REFUSED" in result.stdout


def test_a_failed_load_never_touches_the_save(tmp_path: Path) -> None:
    target = tmp_path / "broken.toml"
    shutil.copy(CORPUS / "save_tampered_log.toml", target)
    before = target.read_bytes()
    runner.invoke(app, ["load", str(target)])
    assert target.read_bytes() == before
