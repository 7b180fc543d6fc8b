"""The command line on good input: validate, map, new, state, replay, script."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app

from tests.conftest import MINI, ROOT

runner = CliRunner()


def test_validate_the_shipped_kiev_data_is_clean() -> None:
    result = runner.invoke(app, ["validate", str(ROOT / "data" / "spi_kiev")])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip().endswith("ok")


def test_map_draws_kiev_with_a_legend_and_writes_svg(tmp_path: Path) -> None:
    svg = tmp_path / "map.svg"
    result = runner.invoke(app, ["map", "--svg", str(svg)])
    assert result.exit_code == 0, result.stderr
    assert "KIEV" in result.stdout and "Legend" in result.stdout
    text = svg.read_text()
    assert text.startswith("<svg") and "KIEV" in text


def test_new_state_and_replay_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    assert runner.invoke(app, ["new", "--scenario", str(MINI), "--seed", "5", "--save", str(save), "--no-ui"]).exit_code == 0
    state = runner.invoke(app, ["state", str(save), "--json"])
    assert state.exit_code == 0
    data = json.loads(state.stdout)
    assert data["state"]["turn"] == 1 and data["phase"].startswith("Turn 1")
    replay = runner.invoke(app, ["replay", str(save), "--verify"])
    assert replay.exit_code == 0 and "matches" in replay.stdout


def test_script_prints_events_and_refusals_as_json_lines(tmp_path: Path) -> None:
    acts = tmp_path / "acts.toml"
    acts.write_text(
        '[[action]]\nkind = "move"\nunits = ["so-rifle-1"]\npath = ["0706"]\n'
        '[[action]]\nkind = "move"\nunits = ["ge-inf-1"]\npath = ["0204"]\n'
        '[[action]]\nkind = "enter"\nunits = ["so-t01-rifle-1", "so-t01-rifle-2"]\nhex = "1005"\n'
        '[[action]]\nkind = "end_phase"\n'
    )
    result = runner.invoke(app, ["script", str(MINI), str(acts), "--json", "--save", str(tmp_path / "s.toml")])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(x) for x in result.stdout.strip().splitlines()]
    assert lines[0]["event"]["kind"] == "moved"
    refused = [x for x in lines if "refused" in x]
    assert refused and refused[0]["refused"]["case"] == "5.21"
    assert any(x.get("event", {}).get("kind") == "phase_ended" for x in lines)
    assert (tmp_path / "s.toml").exists()


def _started(monkeypatch: "pytest.MonkeyPatch", tmp_path: Path) -> list[tuple[int, dict]]:
    """Record what each command would open in the UI (game seed, options), in a saves folder of its own."""
    import kiev_tui.cli as cli

    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    seen: list[tuple[int, dict]] = []
    monkeypatch.setattr(cli, "_start_ui", lambda game, path, **opts: seen.append((game.seed, opts)))
    return seen


def test_the_bare_command_is_play(monkeypatch: "pytest.MonkeyPatch", tmp_path: Path) -> None:
    seen = _started(monkeypatch, tmp_path)
    bare = runner.invoke(app, [])
    assert bare.exit_code == 0, bare.stderr
    played = runner.invoke(app, ["play"])
    assert played.exit_code == 0, played.stderr
    assert [opts for _, opts in seen] == [{"ascii": False, "mouse": True}, {"ascii": False, "mouse": True}]


def test_the_bare_command_prints_the_same_overview_as_play(monkeypatch: "pytest.MonkeyPatch", tmp_path: Path) -> None:
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    bare = runner.invoke(app, [])
    played = runner.invoke(app, ["play"])
    assert bare.exit_code == 0 and played.exit_code == 0, bare.stderr
    assert bare.stdout == played.stdout
    assert "Turn 1" in bare.stdout


def test_the_bare_command_resumes_the_autosave_like_play(monkeypatch: "pytest.MonkeyPatch", tmp_path: Path) -> None:
    from kiev_tui.engine import savepaths
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.saves import save_game

    seen = _started(monkeypatch, tmp_path)
    save_game(Game.new(seed=77), savepaths.autosave_path())
    assert runner.invoke(app, []).exit_code == 0
    assert runner.invoke(app, ["play"]).exit_code == 0
    assert seen == [(77, {"ascii": False, "mouse": True}), (77, {"ascii": False, "mouse": True})]


def test_new_games_roll_fresh_dice_unless_a_seed_is_given(monkeypatch: "pytest.MonkeyPatch", tmp_path: Path) -> None:
    seen = _started(monkeypatch, tmp_path)
    for args in (["new"], ["new"], ["play", "--no-resume"], ["play", "--no-resume"], ["new", "--seed", "5"]):
        assert runner.invoke(app, args).exit_code == 0
    seeds = [s for s, _ in seen]
    # issue 16: no seed at all unless one is given: each roll comes from the OS's entropy when needed
    assert seeds[:4] == [None, None, None, None]
    assert seeds[4] == 5
