"""Issue 13, command-line side: write failures, crashes of the screen, Typer's own errors, and
files no command may read (FIFOs, devices) -- each one line `error: ...`, with a non-zero status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kiev_tui.cli as cli
from kiev_tui.cli import app, main
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import save_game

from tests.conftest import MINI, ROOT

runner = CliRunner()


def one_error_line(args: list[str], fragment: str) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, f"{args}: exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    err = result.stderr.strip().splitlines()
    assert len(err) == 1, result.stderr
    assert err[0].startswith("error: ") and fragment in err[0], err[0]
    assert "Traceback" not in result.output
    return err[0]


# -- item 12: write failures ------------------------------------------------------------------------

def test_new_save_into_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "g.toml"
    line = one_error_line(["new", "--scenario", str(MINI), "--save", str(target), "--no-ui"], str(target))
    assert line == f"error: {target}: cannot write (No such file or directory)"
    assert not (tmp_path / "no").exists()  # no folder is made on the way


def test_new_save_where_a_file_stands_for_the_folder(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder")
    target = tmp_path / "plain" / "g.toml"
    line = one_error_line(["new", "--scenario", str(MINI), "--save", str(target), "--no-ui"], str(target))
    assert line == f"error: {target}: cannot write (Not a directory)"


def test_script_save_into_a_missing_folder(tmp_path: Path) -> None:
    acts = tmp_path / "acts.toml"
    acts.write_text('[[action]]\nkind = "end_phase"\n')
    target = tmp_path / "gone" / "s.toml"
    line = one_error_line(["script", str(MINI), str(acts), "--save", str(target)], str(target))
    assert line == f"error: {target}: cannot write (No such file or directory)"


def test_map_svg_into_a_missing_folder(tmp_path: Path) -> None:
    svg = tmp_path / "nowhere" / "map.svg"
    result = runner.invoke(app, ["map", "--scenario", str(MINI), "--svg", str(svg)])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"error: {svg}: cannot write (No such file or directory)"


def test_a_250_character_save_name(tmp_path: Path) -> None:
    target = tmp_path / ("s" * 250 + ".toml")
    result = runner.invoke(app, ["new", "--scenario", str(MINI), "--save", str(target), "--no-ui"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["replay", str(target)]).exit_code == 0


# -- item 12: a crash inside the terminal screen is not a success ---------------------------------

class CrashedApp:
    """Stands for the Textual app: it ran, something raised inside, Textual printed it."""

    mouse = True

    def __init__(self, code: int | None) -> None:
        self.return_code = code
        self.ran = False

    def run(self, **_: Any) -> None:
        self.ran = True


@pytest.mark.parametrize("command", ["new", "load", "play"])
def test_a_crash_inside_the_screen_gives_a_non_zero_status(command: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import kiev_tui.ui.app as ui_app

    crashed = CrashedApp(1)
    monkeypatch.setattr(ui_app, "build_app", lambda *a, **k: crashed)
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    monkeypatch.chdir(tmp_path)
    save = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    args = {"new": ["new", "--scenario", str(MINI)], "load": ["load", str(save)],
            "play": ["play", "--scenario", str(MINI), "--no-resume"]}[command]
    result = runner.invoke(app, args)
    assert crashed.ran
    assert result.exit_code == 1, result.output


def test_a_clean_quit_of_the_screen_is_status_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kiev_tui.ui.app as ui_app

    done = CrashedApp(0)
    monkeypatch.setattr(ui_app, "build_app", lambda *a, **k: done)
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    save = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    result = runner.invoke(app, ["load", str(save)])
    assert done.ran and result.exit_code == 0, result.output


# -- item 15: Typer's own errors, in the one-line form ---------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["validate"], "error: kiev-tui validate: missing argument 'path' (see kiev-tui validate --help)"),
    (["bogus"], "error: kiev-tui: no such command 'bogus' (see kiev-tui --help)"),
    (["new", "--seed", "x"], "error: kiev-tui new: invalid value for '--seed': Input should be a valid integer, "
                             "unable to parse string as an integer (see kiev-tui new --help)"),
    (["new", "--colour"], "error: kiev-tui new: no such option: --colour (see kiev-tui new --help)"),
])
def test_usage_errors_are_one_line(argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["kiev-tui", *argv])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    out = capsys.readouterr()
    assert out.err.strip().splitlines() == [message]
    assert out.out == ""


def test_main_keeps_the_exit_status_of_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "replay", str(tmp_path / "none.toml")])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'none.toml'}: file not found"
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "validate", str(MINI)])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"{MINI}: ok"


def test_help_still_works(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "validate", "--help"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 0
    assert "Check a data folder" in capsys.readouterr().out


# -- item 7: FIFOs and devices through the commands ---------------------------------------------------

def _cli_child(args: list[str], timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kiev_tui", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))


@pytest.mark.parametrize("command", ["validate", "replay", "load", "state"])
def test_a_fifo_given_to_a_command(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    try:
        out = _cli_child([command, str(fifo)])
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} hung on a FIFO")
    assert out.returncode == 2
    assert out.stderr.strip() == f"error: {fifo}: not a regular file (devices, pipes and sockets are never read)"


def test_validate_a_folder_holding_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.toml")
    (tmp_path / "units.toml").write_text((ROOT / "tests" / "fixtures" / "mini" / "units.toml").read_text())
    try:
        out = _cli_child(["validate", str(tmp_path)])
    except subprocess.TimeoutExpired:
        pytest.fail("validate hung on a FIFO inside a folder")
    assert out.returncode == 2
    assert out.stderr.strip() == (f"error: {tmp_path / 'pipe.toml'}: not a regular file "
                                  "(devices, pipes and sockets are never read)")


def test_new_with_dev_zero_as_scenario() -> None:
    try:
        out = _cli_child(["new", "--scenario", "/dev/zero", "--no-ui"])
    except subprocess.TimeoutExpired:
        pytest.fail("new hung reading /dev/zero")
    assert out.returncode == 2
    assert out.stderr.strip() == "error: /dev/zero: not a regular file (devices, pipes and sockets are never read)"


# -- items 8, 15: through the command line -----------------------------------------------------------

def test_validate_no_longer_calls_a_scenario_of_an_unknown_game_ok(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    fix = MINI.parent.parent
    text = MINI.read_text().replace('game = "spi_kiev"', 'game = "chess"')
    for key in ("map", "units", "tables"):
        text = text.replace(f'{key} = "{key}.toml"', f'{key} = "{(fix / f"{key}.toml").as_posix()}"')
    path.write_text(text)
    line = one_error_line(["validate", str(path)], "scenario.game")
    assert line == f"error: {path}: scenario.game: no rule system for game 'chess'"


def test_a_megabyte_key_is_not_echoed(tmp_path: Path) -> None:
    path = tmp_path / "units.toml"
    path.write_text("[[unit]]\n" + "k" * 1_000_000 + " = 1\n")
    line = one_error_line(["validate", str(path)], "unknown key")
    assert len(line) < 400 + len(str(path))


def test_a_tables_file_without_a_crt_is_recognised_as_tables(tmp_path: Path) -> None:
    path = tmp_path / "kiev_tables.toml"
    path.write_text("[tec.terrain.clear]\nmp = 1\n")
    assert one_error_line(["validate", str(path)], "crt") == f"error: {path}: crt: missing table"
