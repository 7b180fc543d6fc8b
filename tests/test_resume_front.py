"""Issue 33: a resumed game's snapshot is read from the save parsed without its actions
(saves.read_save_front); the check after the first frame parses the whole file itself."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiev_tui.engine import saves, tomlio
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.saves import load_game, load_snapshot, read_save, read_save_front
from kiev_tui.engine.scenario import load_scenario

from tests.test_resume_snapshot import mini_save


def test_the_front_is_the_save_without_its_actions(tmp_path: Path) -> None:
    path, game = mini_save(tmp_path)
    whole = read_save(path)
    front, complete = read_save_front(path)
    assert complete is False
    assert len(whole["action"]) == len(game.log) >= 12
    assert front == {k: v for k, v in whole.items() if k != "action"}
    shown = load_snapshot(path, front)
    assert shown.state_hash() == game.state_hash()
    assert [e.describe() for e in shown.journal] == [e.describe() for e in load_snapshot(path, whole).journal]
    assert load_game(path).state_hash() == game.state_hash()  # the check reads the whole file


def test_a_save_laid_out_otherwise_is_parsed_whole(tmp_path: Path) -> None:
    path, _ = mini_save(tmp_path)
    text = path.read_text(encoding="utf-8")
    # a table between two actions: no single run of actions to leave out
    first = text.index("[[action]]")
    second = text.index("[[action]]", first + 1)
    moved = text[:second] + "[journal]\nlines = []\n\n" + text[second:].replace("[journal]\n", "[journal_]\n", 1)
    odd = tmp_path / "odd.toml"
    odd.write_text(moved, encoding="utf-8")
    front, complete = read_save_front(odd)
    assert complete is True and front == read_save(odd) and len(front["action"]) >= 12
    no_actions = tmp_path / "none.toml"
    no_actions.write_text(text[:first] + text[text.index("[final]"):], encoding="utf-8")
    front, complete = read_save_front(no_actions)
    assert complete is True and front == read_save(no_actions)


def test_a_broken_front_gets_the_error_of_the_whole_file(tmp_path: Path) -> None:
    path, _ = mini_save(tmp_path)
    text = path.read_text(encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("[final]\n", "[final]\nhash = \n", 1), encoding="utf-8")
    with pytest.raises(DataError) as whole:
        read_save(broken)
    with pytest.raises(DataError) as front:
        read_save_front(broken)
    assert str(front.value) == str(whole.value)


def test_the_front_is_cut_where_the_line_by_line_reading_cut_it(tmp_path: Path) -> None:
    """The run of actions is found by searching for lines that open with "[" (issue 33): an
    action header with blanks after it still counts, and the text kept is exactly the file's
    text before the first action and from the first table after the last one."""
    path, _ = mini_save(tmp_path)
    text = path.read_text(encoding="utf-8")
    padded = text.replace("[[action]]\n", "[[action]]  \n")
    odd = tmp_path / "padded.toml"
    odd.write_text(padded, encoding="utf-8")
    seen: list[str] = []
    real = tomlio.parse_toml_text

    def kept(p: Path, t: str) -> dict[str, object]:
        seen.append(t)
        return real(p, t)

    tomlio.parse_toml_text = kept  # type: ignore[assignment]
    try:
        front, complete = read_save_front(odd)
    finally:
        tomlio.parse_toml_text = real  # type: ignore[assignment]
    assert complete is False
    assert seen == [padded[:padded.index("[[action]]")] + padded[padded.index("[final]"):]]
    assert front == {k: v for k, v in read_save(odd).items() if k != "action"}


def test_reading_the_front_needs_no_tomllib(tmp_path: Path) -> None:
    """The quick parser reads what save_game writes; Python's own is imported only when it
    declines (4 ms of a resumed game's start)."""
    path, _ = mini_save(tmp_path)
    code = ("import sys; from kiev_tui.engine.saves import read_save_front; "
            f"front, whole = read_save_front({str(path)!r}); print(whole, 'tomllib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert out.stdout.split() == ["False", "False"]
    broken = tmp_path / "odd.toml"
    broken.write_text(path.read_text(encoding="utf-8").replace("[final]\n", "[final]\n# a comment\n", 1),
                      encoding="utf-8")
    code = code.replace(repr(str(path)), repr(str(broken)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert out.stdout.split() == ["False", "True"]  # a comment: tomllib reads that part


def _nest_lists(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _nest(depth: int) -> dict[str, object]:
    """A table whose deepest table sits ``depth`` levels below it."""
    value: dict[str, object] = {}
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize(("value", "where", "why"), [
    ({"a": {"b": [1, 2.5, {"c": math.nan}]}}, "a.b[2].c", "nan is not a number"),
    ({"a": [1.0, -math.inf]}, "a[1]", "-inf is not a number"),
    ({"x": [_nest_lists(33)]}, "x[0]", "nested more than 32 deep"),
])
def test_the_values_check_finds_what_the_named_walk_words(value: dict[str, object], where: str, why: str) -> None:
    with pytest.raises(DataError) as got:
        tomlio._check_values(Path("f.toml"), value)
    assert where in str(got.value) and why in str(got.value)


def test_clean_values_are_checked_without_naming_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names of keys are built only to word a refusal: a clean file never walks them."""
    def named(*_args: object) -> None:
        raise AssertionError("the named walk ran on clean data")

    monkeypatch.setattr(tomlio, "_refuse", named)
    tomlio._check_values(Path("f.toml"), {"a": [1, 2.5, "x", {"b": [True, [0.0]]}], "c": {"d": {}}})
    assert tomlio._clean({"a": [[[]]]}) is True
    assert tomlio._clean({"a": [1e308, -1e308]}) is True
    assert tomlio._clean({"a": [math.inf]}) is False
    assert tomlio._clean(_nest(tomlio.MAX_DEPTH)) is True
    assert tomlio._clean(_nest(tomlio.MAX_DEPTH + 1)) is False


def test_the_check_shares_the_snapshots_scenario(tmp_path: Path) -> None:
    """A resumed game's check replays on the scenario its snapshot was shown with (no second
    load, one map in memory), and only when the save names that very scenario."""
    path, game = mini_save(tmp_path)
    front, _ = read_save_front(path)
    shown = load_snapshot(path, front)
    checked = load_game(path, scenario=shown.scenario)
    assert checked.scenario is shown.scenario
    assert checked.state_hash() == game.state_hash() == shown.state_hash()
    assert checked.log == game.log
    other = load_scenario("spi_kiev/campaign")
    assert load_game(path, scenario=other).scenario is not other  # another scenario: loaded as named
    assert load_game(path).scenario is not shown.scenario


def test_a_save_with_options_loads_its_own_scenario(tmp_path: Path) -> None:
    """Options are set on the scenario object itself, so a save that sets some never shares one."""
    path, game = mini_save(tmp_path)
    shown = load_snapshot(path)
    header = saves._Header(saves.Reader(path, read_save(path)))
    header.options = {"x": 1}
    seen: list[object] = []
    real = saves.load_scenario

    def loading(ref: str) -> object:
        seen.append(ref)
        return real(ref)

    saves.load_scenario = loading  # type: ignore[assignment]
    try:
        try:
            header.new_game(path, shown.scenario)
        except DataError:
            pass  # (x is no option of the game: refused after the scenario was loaded)
    finally:
        saves.load_scenario = real  # type: ignore[assignment]
    assert seen == [header.scenario_ref]
