"""The fast `kiev-tui rules` path (kiev_tui/entry.py, rulesref/fastcli.py, rulesref/textout.py).

It must print byte for byte what the Typer command printed, read the rules from the data cache
once they are parsed, keep the one-line errors, and never import Typer, Rich, Textual or the
engine for a look-up (issue 19).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from kiev_tui import entry
from kiev_tui.rulesref import model, richout, textout
from kiev_tui.rulesref.cli import register
from kiev_tui.rulesref.fastcli import parse, run
from kiev_tui.rulesref.model import GAMES, load_reference
from kiev_tui.rulesref.search import SearchIndex, search

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "rules"
PLAIN_ENV = {"NO_COLOR": None, "FORCE_COLOR": None, "TTY_COMPATIBLE": None, "TERM": "dumb", "COLUMNS": "80",
             "LINES": None}
STYLED_ENV = {**PLAIN_ENV, "FORCE_COLOR": "1", "TERM": "xterm-256color"}

# What `kiev-tui rules 9.66` and `COLUMNS=40 kiev-tui rules 9.6` printed through Typer and
# Rich for the fixture book, before the fast path existed.
CASE_9_66 = """\
9.66  Numeric results: steps or hexes
  A number against a side is paid either in steps or in hexes of retreat, never
  as a blend of both.
  See: 9.67, 9.7
"""
SECTION_9_6_AT_40 = """\
9.6  Results and steps
  Counters wear down one step at a time;
  a result says how many steps or hexes
  a side gives up.
  See: 9.66, 9.67

9.66  Numeric results: steps or hexes
  A number against a side is paid either
  in steps or in hexes of retreat, never
  as a blend of both.
  See: 9.67, 9.7

9.67  Taking one step
  The owner picks which counter gives up
  the single step.
"""


@pytest.fixture(scope="module")
def typer_app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("version")  # a second command, so `rules` is a subcommand as in the real CLI
    def version() -> None:
        typer.echo("0")

    return app


def set_env(monkeypatch: pytest.MonkeyPatch, env: dict[str, str | None]) -> None:
    for key, value in env.items():
        if value is None:
            monkeypatch.delenv(key, raising=False)
        else:
            monkeypatch.setenv(key, value)


def fast(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
         env: dict[str, str | None]) -> tuple[int | None, str, str]:
    set_env(monkeypatch, env)
    code = run(args)
    out, err = capsys.readouterr()
    return code, out, err


def slow(app: typer.Typer, args: list[str], env: dict[str, str | None]) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["rules", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


ARGS = [
    ["9.66"], ["[9.66]"], ["9.6"], ["9.0"], [], ["--search", "major river"], ["-s", "river", "-n", "2"],
    ["--search=weather", "--all"], ["-s", "zeppelin"], ["PB 3.1", "-g", "efs_ktr"], ["pb3.1", "--game=efs_ktr"],
    ["99.9"], ["9.66", "--game", "chess"], ["9.66", "--search", "river"], ["-n3", "-s", "step"], ["10.2"],
]


@pytest.mark.parametrize("env", [PLAIN_ENV, STYLED_ENV, {**PLAIN_ENV, "COLUMNS": "47"}], ids=["plain", "styled", "narrow"])
@pytest.mark.parametrize("args", ARGS, ids=lambda a: " ".join(a) or "contents")
def test_fast_path_prints_what_the_typer_command_prints(
    typer_app: typer.Typer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    args: list[str], env: dict[str, str | None],
) -> None:
    args = [*args, "--data-dir", str(FIXTURES)]
    expected = slow(typer_app, args, env)
    assert fast(monkeypatch, capsys, args, env) == expected


def test_one_case_is_the_expected_text(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert fast(monkeypatch, capsys, ["9.66", "--data-dir", str(FIXTURES)], PLAIN_ENV) == (0, CASE_9_66, "")
    narrow = {**PLAIN_ENV, "COLUMNS": "40"}
    assert fast(monkeypatch, capsys, ["9.6", "--data-dir", str(FIXTURES)], narrow) == (0, SECTION_9_6_AT_40, "")


def test_styles_are_the_sgr_codes_rich_wrote(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = fast(monkeypatch, capsys, ["9.66", "--data-dir", str(FIXTURES)], STYLED_ENV)
    assert code == 0
    assert out.splitlines()[0] == "\x1b[1m9.66\x1b[0m  \x1b[1mNumeric results: steps or hexes\x1b[0m"
    assert out.splitlines()[-1] == "  \x1b[3mSee: 9.67, 9.7\x1b[0m"


def _rich(print_it, width: int, styled: bool) -> str:  # type: ignore[no-untyped-def]
    buf = io.StringIO()
    console = Console(file=buf, width=width, highlight=False, emoji=False, force_terminal=styled,
                      color_system="standard" if styled else None, _environ={})
    print_it(console)
    return buf.getvalue()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [80, 47])
def test_every_case_of_the_real_books_lays_out_as_rich_does(game: str, width: int) -> None:
    """Each case (and its section) of the shipped rulebooks, plain and styled, against Rich."""
    book = load_reference(game, index=False)
    for case in book.cases:
        assert textout.can_render(book.section(case.id)), case.id  # the shipped books need no fallback
        for styled in (False, True):
            ours = textout.to_text(textout.section_lines(book, case.id, width, styled), styled)
            assert ours == _rich(lambda c: richout.print_case(c, book, case.id), width, styled), case.id
    for styled in (False, True):
        assert textout.to_text(textout.contents_lines(book, width), styled) == _rich(
            lambda c: richout.print_contents(c, book), width, styled)


@pytest.mark.parametrize("query", ["major river", "supply", "zone of control", "9.66", "retreat after combat"])
def test_search_results_lay_out_as_rich_does(query: str) -> None:
    books = [load_reference(g) for g in GAMES]
    for chosen, where in (([books[0]], books[0].game), (books, "all games")):
        hits = search(query, chosen, limit=20)
        assert hits
        for width in (80, 41):
            for styled in (False, True):
                ours = textout.to_text(textout.search_lines(hits, where, query, width, len(chosen) > 1), styled)
                assert ours == _rich(lambda c: richout.print_hits(c, hits, where, query, len(chosen) > 1), width, styled)


def test_awkward_texts_lay_out_as_rich_does() -> None:
    """Random texts with double blanks, blank lines, words longer than the line and marks that
    cross line breaks, at narrow widths: every branch of the word wrap, against Rich."""
    import random

    from kiev_tui.rulesref.render import _indent, marked

    rng = random.Random(19)
    for _ in range(400):
        text = "".join(rng.choice("ab cd  efghijklmnop\n.-") for _ in range(rng.randrange(1, 90))).strip()
        if not text:
            continue
        spans = []
        for _ in range(rng.randrange(0, 4)):
            start = rng.randrange(0, len(text))
            spans.append((start, min(len(text), start + rng.randrange(1, 12))))
        spans = sorted(set(spans))
        merged: list[tuple[int, int]] = []
        for start, end in spans:  # marked() is given non-overlapping spans (the search merges them)
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        width = rng.randrange(14, 40)  # the indented parts are at least 10 wide, as render._Indented makes them
        for styled in (False, True):
            for by in (0, 2, 4):
                lines = textout.wrap(text, width - by, textout.marked_spans(merged))
                ours = textout.to_text(textout.indent(lines, by) if by else lines, styled)
                piece = _indent(marked(text, merged), by) if by else marked(text, merged)
                assert ours == _rich(lambda c: c.print(piece), width, styled), (text, merged, width, by)


def test_a_table_is_drawn_by_rich_once_then_read_from_the_cache(tmp_path: Path) -> None:
    env = {**os.environ, "KIEV_TUI_CACHE": str(tmp_path / "cache"), "COLUMNS": "80", "TERM": "dumb"}
    runs = [subprocess.run([sys.executable, "-c", PROBE, "rules", "10.2", "--data-dir", str(FIXTURES)], capture_output=True,
                           text=True, env=env, cwd=tmp_path) for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    assert "| mechanized | 2    |" in runs[0].stdout
    heavy = [[line for line in r.stderr.splitlines() if line.startswith("HEAVY:")] for r in runs]
    assert heavy[0][0].startswith("HEAVY:rich,") and "typer" not in heavy[0][0]  # drawn by Rich, no Typer
    assert heavy[1] == ["HEAVY:"]  # the second time, from the cache alone


@pytest.mark.parametrize(
    "env",
    [{"COLUMNS": "100", "LINES": "30", "TERM": "xterm"}, {"COLUMNS": "55", "TERM": "xterm"}, {"TERM": "dumb", "FORCE_COLOR": "1"},
     {"TERM": "dumb", "FORCE_COLOR": "1", "COLUMNS": "50"}, {"TERM": "dumb", "COLUMNS": "50"},
     {"COLUMNS": "abc"}, {"COLUMNS": "60", "LINES": "20", "TERM": "dumb", "FORCE_COLOR": "1"}, {"TTY_COMPATIBLE": "1", "TERM": "vt100"},
     {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TERM": "UNKNOWN", "TTY_COMPATIBLE": "1"}, {}],
)
def test_width_and_styles_are_decided_as_rich_decides(env: dict[str, str]) -> None:
    console = Console(_environ=env)
    assert textout.console_width(env) == min(console.width, 80)
    assert textout.styled_output(env) == (console.color_system is not None)


def test_options_are_read_as_click_reads_them() -> None:
    base = {"case": None, "game": "spi_kiev", "query": None, "all_games": False, "limit": 20, "data_dir": None}
    assert parse([]) == base
    assert parse(["9.66", "-gefs_ktr", "-n5", "--data-dir=/x"]) == {
        **base, "case": "9.66", "game": "efs_ktr", "limit": 5, "data_dir": Path("/x")}
    assert parse(["--search=major river", "--all", "--limit", " 7"]) == {
        **base, "query": "major river", "all_games": True, "limit": 7}
    assert parse(["-s=x"]) == {**base, "query": "=x"}  # click keeps the "=" of a short option
    # everything Typer must judge, word its error or explain: not read here
    for args in (["--help"], ["-h"], ["--bogus"], ["9.66", "extra"], ["--limit", "abc"], ["-n", "5_0"], ["--search"],
                 ["--all=1"], ["--", "9.66"], ["-s", "-x"], ["--data-dir", ""]):
        assert parse(args) is None, args


# -- the data cache --------------------------------------------------------------------------------

def _copy_fixtures(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(FIXTURES, data)
    return data


def test_a_second_load_reads_the_cache_not_the_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    data = _copy_fixtures(tmp_path)
    monkeypatch.setattr(model, "_CACHE", {})
    first = load_reference("spi_kiev", data)
    hits = [h.case.id for h in first.index.search("major river")]
    assert hits == ["10.13", "9.78", "10.2", "10.3"]

    def no_parsing(*args: object, **kwargs: object) -> object:
        raise AssertionError("the rules TOML was parsed again")

    monkeypatch.setattr(tomllib, "loads", no_parsing)
    monkeypatch.setattr(SearchIndex, "_plain", no_parsing)  # nor every case tokenized again for the index
    monkeypatch.setattr(model, "_CACHE", {})  # a new process: nothing kept in memory
    again = load_reference("spi_kiev", data)
    assert again is not first
    assert [c.id for c in again] == [c.id for c in first]
    assert again["10.2"].table == first["10.2"].table
    assert again["9.66"] == first["9.66"]
    assert [h.case.id for h in again.index.search("major river", limit=None)] == hits


def test_a_damaged_file_after_a_cached_load_is_still_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    set_env(monkeypatch, PLAIN_ENV)
    data = _copy_fixtures(tmp_path)
    monkeypatch.setattr(model, "_CACHE", {})
    assert run(["9.66", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    rules = data / "spi_kiev" / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace('title = "Numeric results: steps or hexes"\n', "", 1), encoding="utf-8")
    monkeypatch.setattr(model, "_CACHE", {})
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "rules", "9.66", "--data-dir", str(data)])
    with pytest.raises(SystemExit) as stop:
        entry.main()
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"rules: {rules}: case[2] (id '9.66').title: missing\n"

    rules.write_text("[book\n", encoding="utf-8")
    monkeypatch.setattr(model, "_CACHE", {})
    assert run(["9.66", "--data-dir", str(data)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"rules: {rules}: (syntax): malformed TOML: ")


def test_a_fifo_named_like_a_rules_file_is_refused_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_env(monkeypatch, PLAIN_ENV)
    data = _copy_fixtures(tmp_path)
    os.mkfifo(data / "spi_kiev" / "rules-3.toml")
    assert run(["9.66", "--data-dir", str(data)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"rules: {data / 'spi_kiev' / 'rules-3.toml'}: "
                   "not a regular file (devices, pipes and sockets are never read)\n")


# -- the console script ----------------------------------------------------------------------------

def test_the_console_script_is_the_fast_entry() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["kiev-tui"] == "kiev_tui.entry:main"
    assert "from kiev_tui.entry import main" in (ROOT / "kiev_tui" / "__main__.py").read_text()


HEAVY = ("typer", "click", "rich", "textual", "kiev_tui.engine", "kiev_tui.cli", "pydantic")

PROBE = """
import atexit, sys
def report():
    # The games registry (standard library only) comes with the package: kiev_tui/__init__ lists the games.
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("typer", "click", "rich", "textual", "pydantic")
                   or m.startswith(("kiev_tui.engine", "kiev_tui.cli"))
                   and m not in ("kiev_tui.engine", "kiev_tui.engine.registry"))
    sys.stderr.write("HEAVY:" + ",".join(heavy) + "\\n")
atexit.register(report)
sys.argv = ["kiev-tui", *sys.argv[1:]]
import kiev_tui.entry
kiev_tui.entry.main()
"""


@pytest.mark.parametrize("args", [["rules", "9.66"], ["rules", "--search", "major river", "--all"], ["rules", "-g", "efs_ktr"],
                                  ["rules", "99.9"]])
def test_a_look_up_imports_no_framework_and_no_engine(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "KIEV_TUI_CACHE": str(tmp_path / "cache"), "COLUMNS": "80", "TERM": "dumb"}
    for _ in range(2):  # the first run fills the cache, the second reads it: neither imports them
        done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=tmp_path)
        heavy = [line for line in done.stderr.splitlines() if line.startswith("HEAVY:")]
        assert heavy == ["HEAVY:"], done.stderr
        assert done.returncode == (2 if "99.9" in args else 0)
        assert done.stdout if "99.9" not in args else "no case '99.9'" in done.stderr


def test_help_and_mistakes_still_go_to_typer(tmp_path: Path) -> None:
    env = {**os.environ, "KIEV_TUI_CACHE": str(tmp_path / "cache"), "COLUMNS": "80", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-c", PROBE, "rules", "--limit", "abc", "-s", "x"], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].startswith("error: kiev-tui rules: invalid value for '--limit'")
    assert "typer" in done.stderr.splitlines()[-1]  # Typer judged it
    done = subprocess.run([sys.executable, "-m", "kiev_tui", "rules", "--help"], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert done.returncode == 0 and "--search" in done.stdout and "Usage:" in done.stdout
