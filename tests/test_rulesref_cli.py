"""`kiev-tui rules`: cases, sections and searches from the command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kiev_tui.rulesref.cli import register

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("version")  # a second command, as in the real CLI, so `rules` is a subcommand
    def version() -> None:
        typer.echo("0")

    return app


def run(app: typer.Typer, *args: str, env: dict[str, str] | None = None):
    # no styles unless a test asks for them, whatever the terminal running the tests does
    base = {"NO_COLOR": None, "FORCE_COLOR": None, "TERM": "dumb", "COLUMNS": "80"}
    return CliRunner().invoke(app, ["rules", *args, "--data-dir", str(FIXTURES)], env={**base, **(env or {})})


def test_one_case(app: typer.Typer) -> None:
    result = run(app, "9.66")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("9.66  Numeric results: steps or hexes")
    assert "as a blend of both." in out
    assert "See: 9.67, 9.7" in out
    assert "Taking one step" not in out  # 9.67 is a sibling, not part of 9.66


def test_bracketed_id(app: typer.Typer) -> None:
    assert run(app, "[9.66]").stdout == run(app, "9.66").stdout


def test_whole_section(app: typer.Typer) -> None:
    out = run(app, "9.6").stdout
    headings = [line for line in out.splitlines() if re.match(r"^\d", line)]
    assert headings == ["9.6  Results and steps", "9.66  Numeric results: steps or hexes", "9.67  Taking one step"]
    assert "9.7" not in headings


def test_playbook_case_in_another_game(app: typer.Typer) -> None:
    result = run(app, "PB 3.1", "--game", "efs_ktr")
    assert result.exit_code == 0
    assert "PB 3.1  Weather" in result.stdout
    assert "PB 3.11  Historical weather" in result.stdout
    assert run(app, "pb3.1", "-g", "efs_ktr").stdout == result.stdout


def test_table_and_reconstructed_mark(app: typer.Typer) -> None:
    out = run(app, "10.2").stdout
    assert "(reconstructed)" in out
    assert "| mechanized | 2    |" in out


def test_unknown_case_is_one_line_on_stderr(app: typer.Typer) -> None:
    result = run(app, "99.9")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "99.9" in lines[0] and "spi_kiev" in lines[0]


def test_unknown_game(app: typer.Typer) -> None:
    result = run(app, "9.66", "--game", "chess")
    assert result.exit_code == 2
    assert "chess" in result.stderr and "spi_kiev" in result.stderr


def test_bad_data_is_one_line_and_exit_2(app: typer.Typer, tmp_path: Path) -> None:
    (tmp_path / "spi_kiev").mkdir()
    (tmp_path / "spi_kiev" / "rules.toml").write_text("[book\n")
    result = CliRunner().invoke(app, ["rules", "9.66", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "rules.toml" in result.stderr
    assert "Traceback" not in result.output


def test_search_lists_ranked_hits_with_excerpts(app: typer.Typer) -> None:
    result = run(app, "--search", "major river")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("4 cases in spi_kiev matching 'major river'")
    hit_lines = [line for line in lines[1:] if not line.startswith(" ")]
    assert hit_lines == [
        "10.13  Crossing a major river",
        "9.78  Retreat over water",
        "10.2  Woods",
        "10.3  Streams",
    ]
    excerpts = [line for line in lines[1:] if line.startswith("    ")]
    assert len(excerpts) == 4
    assert "major river" in excerpts[1]


def test_search_all_games_names_the_game(app: typer.Typer) -> None:
    out = run(app, "--search", "weather", "--all").stdout
    assert "in all games" in out
    assert re.search(r"^efs_ktr  PB 3\.1 ", out, re.M)


def test_search_without_hits(app: typer.Typer) -> None:
    result = run(app, "-s", "zeppelin")
    assert result.exit_code == 0
    assert "No case" in result.stdout


def test_contents_without_arguments(app: typer.Typer) -> None:
    out = run(app).stdout
    assert "Toy Kiev reference" in out
    assert "9.0  Combat" in out and "10.0  Terrain" in out


def test_case_and_search_together_is_an_error(app: typer.Typer) -> None:
    result = run(app, "9.66", "--search", "river")
    assert result.exit_code == 2


def test_highlights_are_bold_underline_and_no_color_is_honoured(app: typer.Typer) -> None:
    result = run(app, "--search", "major river", env={"FORCE_COLOR": "1", "NO_COLOR": "1", "TERM": "xterm-256color"})
    out = result.stdout
    assert "\x1b[1;4mmajor river\x1b[0m" in out  # bold + underline, readable without colour
    codes = re.findall(r"\x1b\[([0-9;]*)m", out)
    params = {p for code in codes for p in code.split(";") if p}
    assert params <= {"0", "1", "2", "3", "4"}, params  # no colour codes (30-49, 38;5, ...)


def test_plain_output_has_no_escape_codes(app: typer.Typer) -> None:
    assert not ANSI.search(run(app, "--search", "river").stdout)


@pytest.mark.parametrize("args", [("9.0",), ("10.2",), ("--search", "river"), ("--search", "major", "--all")])
def test_output_fits_80_columns_even_on_a_wide_terminal(app: typer.Typer, args: tuple[str, ...]) -> None:
    result = run(app, *args, env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        assert len(line) <= 80, line
        assert line == line.rstrip(), repr(line)
