"""`kiev-tui play` starts without Typer's pydantic, the network or the server (issue 19), and the
fast reading of its options gives what Typer gives, or leaves the line to Typer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kiev_tui.cli as cli
from kiev_tui.cli import app, main, play_args

from tests.conftest import MINI, ROOT

runner = CliRunner()

#: Modules the play path must not load before the screen runs.
HEAVY = ["pydantic", "asyncio", "asyncssh", "typer", "kiev_tui.net.cli", "kiev_tui.serve.cli",
         "kiev_tui.pbem.cli", "kiev_tui.rulesref.cli"]

_CHILD = """
import json, sys
import kiev_tui.cli as cli

def start_ui(game, save_path, **opts):  # where the screen would run: what is loaded by now
    print(json.dumps({"loaded": [m for m in %r if m in sys.modules], "scenario": game.scenario.id,
                      "seed": game.seed, "opts": opts}))

cli._start_ui = start_ui
sys.argv = ["kiev-tui", *sys.argv[1:]]
cli.main()
"""


def _play_child(args: list[str], tmp_path: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIEV_TUI_SAVES=str(tmp_path / "saves"))
    done = subprocess.run([sys.executable, "-c", _CHILD % HEAVY, *args], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [[], ["play", "--no-resume"], ["play", str(MINI), "--seed", "5", "--ascii"]])
def test_the_play_path_loads_no_pydantic_network_or_server(args: list[str], tmp_path: Path) -> None:
    seen = _play_child(args, tmp_path)
    assert seen["loaded"] == []
    if args[1:2] == [str(MINI)]:
        assert (seen["scenario"], seen["seed"], seen["opts"]) == (str(MINI), 5, {"ascii": True, "mouse": True})


def test_a_line_typer_must_read_still_works_the_long_way(tmp_path: Path) -> None:
    seen = _play_child(["play", "--scenario", str(MINI), "--seed", "-4"], tmp_path)  # a negative seed: Typer's
    assert (seen["scenario"], seen["seed"]) == (str(MINI), -4)
    assert "pydantic" in seen["loaded"] and "typer" in seen["loaded"]


# -- the fast reading against Typer's --------------------------------------------------------------

def _typer_reading(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: list[dict[str, Any]] = []

    def record(given: Any = None, scenario: Any = None, seed: Any = None, resume: Any = True, ascii: Any = False,
               no_mouse: Any = False, plain: Any = False, load: Any = None, ai: Any = None,
               ai_level: Any = "strong") -> None:
        seen.append({"given": given, "scenario": scenario, "seed": seed, "resume": resume, "ascii": ascii,
                     "no_mouse": no_mouse, "plain": plain, "load": load, "ai": ai, "ai_level": ai_level})

    monkeypatch.setattr(cli, "play_game", record)
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert len(seen) == 1
    return seen[0]


@pytest.mark.parametrize("argv", [
    [],
    ["play"],
    ["play", "--no-resume"],
    ["play", "--resume"],
    ["play", "spi_kiev/campaign"],
    ["play", "--scenario", "spi_kiev/campaign", "--seed", "12"],
    ["play", "--scenario=x.toml", "--seed=0", "--ascii", "--no-mouse", "--plain"],
    ["play", "--ascii", "mine/one", "--load", "saves/a.toml"],
    ["play", "--load=b.toml", "--no-resume", "game/name"],
    ["play", "--seed", "123456789012345678"],
    ["play", "--ai", "soviet", "--ai-level", "easy", "--no-resume"],
    ["play", "--ai=german", "--seed=3"],
])
def test_the_fast_reading_is_typers(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = play_args(argv)
    assert fast is not None
    assert fast == _typer_reading(argv, monkeypatch)


@pytest.mark.parametrize("argv", [
    ["play", "--help"], ["--help"], ["new"], ["play", "--seed", "x"], ["play", "--seed", "-3"],
    ["play", "--seed", "1234567890123456789"], ["play", "--seed", "\uff15"], ["play", "--seed"],
    ["play", "a", "b"], ["play", "--ascii", "--ascii"], ["play", "--resume", "--no-resume"],
    ["play", "--scenario", "--ascii"], ["play", "--scenario="], ["play", ""], ["play", "--"],
    ["play", "-"], ["play", "--colour"], ["play", "--ascii=yes"], ["play", "--load", ""],
])
def test_anything_else_goes_to_typer(argv: list[str]) -> None:
    assert play_args(argv) is None


@pytest.mark.parametrize("argv", [
    ["play", "--no-resume", "--load", "missing.toml"],
    ["play", "--no-resume", "nowhere/nothing"],
    ["play", "--no-resume", "one/a", "--scenario", "two/b"],
    ["play", "--no-resume", "--ai", "axis"],
    ["play", "--no-resume", "--ai", "soviet", "--ai-level", "grandmaster"],
    ["play", "--no-resume", "--ai", "axis", "--plain"],
])
def test_the_fast_path_fails_as_typer_does(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    typer_way = runner.invoke(app, argv)
    monkeypatch.setattr(sys, "argv", ["kiev-tui", *argv])
    assert play_args(argv) is not None  # this line takes the fast path
    with pytest.raises(SystemExit) as exc:
        main()
    err = capsys.readouterr().err
    assert (exc.value.code, err) == (typer_way.exit_code, typer_way.stderr)
    assert exc.value.code == 2 and err.startswith("error: ") and len(err.splitlines()) == 1


def _raise_eof() -> None:
    raise EOFError


def _raise_interrupt() -> None:
    raise KeyboardInterrupt


def _raise_exit() -> None:
    import typer

    raise typer.Exit(3)


def _raise_data_error() -> None:
    from kiev_tui.engine.errors import DataError

    raise DataError("x.toml", "map.rows", "must be between 1 and 99, not 0")


@pytest.mark.parametrize("happening, code", [(_raise_eof, 130), (_raise_interrupt, 130), (_raise_exit, 3),
                                              (_raise_data_error, 2)])
def test_the_fast_path_ends_as_typer_does(happening: Any, code: int, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "play_game", lambda *args, **kwargs: happening())
    ends = []
    for seed in ("1", "-1"):  # the fast path, then Typer's (a negative seed goes to Typer)
        argv = ["play", "--seed", seed]
        assert (play_args(argv) is None) == (seed == "-1")
        monkeypatch.setattr(sys, "argv", ["kiev-tui", *argv])
        with pytest.raises(SystemExit) as exc:
            main()
        out = capsys.readouterr()
        ends.append((exc.value.code, out.out, out.err))
    assert ends[0] == ends[1]
    assert ends[0][0] == code


def test_ai_seats_the_computer_on_the_screen_and_its_worker_ends_with_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from kiev_tui.ai.local import LocalAILink

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    seen: dict[str, Any] = {}

    def start_ui(game: Any, save_path: Any, **opts: Any) -> None:
        seen.update(opts, scenario=game.scenario.id)

    monkeypatch.setattr(cli, "_start_ui", start_ui)
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "play", "--no-resume", "--ai", "soviet", "--ai-level", "easy"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 0
    link = seen["net"]
    assert isinstance(link, LocalAILink)
    assert (link.ai_side, link.side, link.ai.level.name) == ("soviet", "german", "easy")
    assert link.closing
    assert (seen["ascii"], seen["mouse"], seen["scenario"]) == (False, True, "spi_kiev/campaign")
