"""Issue 33: a resumed game's snapshot is read from the save parsed without its actions
(saves.read_save_front); the check after the first frame parses the whole file itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.saves import load_game, load_snapshot, read_save, read_save_front

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
