"""Where saves go (issue 13, items 2-5): plain names in the player's saves folder, one autosave
per player, nothing replaced without asking, and no game lost to a new one or to `load`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from kiev_tui import cli
from kiev_tui.engine import savepaths
from kiev_tui.engine.saves import load_game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import MINI, game_screen, keys, new_mini, status

SIZE = (120, 40)


# -- the policy: savepaths ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, file", [
    ("march", "march.toml"),
    ("march.toml", "march.toml"),
    ("Turn 3 - before the storm", "Turn 3 - before the storm.toml"),
    ("v1.2_final", "v1.2_final.toml"),
    ("Київ", "Київ.toml"),
    ("x" * 64, "x" * 64 + ".toml"),
])
def test_plain_names_go_in_the_saves_folder(tmp_path: Path, name: str, file: str) -> None:
    assert savepaths.save_path_for(name, tmp_path) == tmp_path / file


@pytest.mark.parametrize("name, why", [
    ("", "the name is empty"),
    (".", "'.' names a folder, not a file"),
    ("..", "'..' names a folder, not a file"),
    ("/", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("../escaped", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("/etc/passwd", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("data\\units", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("a\0b", "a save name cannot contain control characters"),
    ("a\x1b[31mb", "a save name cannot contain control characters"),
    ("tab\there", "a save name cannot contain control characters"),
    ("star*", "a save name may use letters, digits, '-', '_', '.' and spaces, not '*'"),
    ("semi;colon", "a save name may use letters, digits, '-', '_', '.' and spaces, not ';'"),
    ("[b]bold[/b]", "a save name may use letters, digits, '-', '_', '.' and spaces, not '['"),
    (".hidden", "a save name must start with a letter or a digit"),
    ("-rf", "a save name must start with a letter or a digit"),
    (" lead", "a save name must start with a letter or a digit"),
    ("trail.", "a save name cannot end with a dot or a space"),
    ("x" * 65, "a save name may be at most 64 characters long"),
    ("\U0001d538" * 60, "a save name may be at most 64 characters long"),  # 4 bytes each: 240 bytes
    ("autosave", "names starting with 'autosave' are kept for the automatic saves"),
    ("Autosave-bob", "names starting with 'autosave' are kept for the automatic saves"),
])
def test_other_names_are_refused_with_a_reason(tmp_path: Path, name: str, why: str) -> None:
    with pytest.raises(savepaths.BadSaveName) as refused:
        savepaths.save_path_for(name, tmp_path)
    assert str(refused.value) == why


def test_the_longest_name_saves(tmp_path: Path) -> None:
    """64 characters of 3-byte letters: the save and its temporary file both fit NAME_MAX."""
    path = savepaths.save_path_for("ж" * 64, tmp_path)
    new_mini().save(path)
    assert load_game(path).state.turn == 1
    assert [p.name for p in tmp_path.iterdir()] == ["ж" * 64 + ".toml"]


def test_the_saves_folder_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KIEV_TUI_SAVES", raising=False)
    assert savepaths.saves_dir() == Path("saves")
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "mine"))
    assert savepaths.saves_dir() == tmp_path / "mine"
    assert savepaths.save_path_for("x") == tmp_path / "mine" / "x.toml"


def test_each_player_has_an_autosave_of_their_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pwd

    monkeypatch.delenv("KIEV_TUI_PLAYER", raising=False)
    login = pwd.getpwuid(os.getuid()).pw_name
    assert savepaths.autosave_path(tmp_path) == tmp_path / f"autosave-{login}.toml"
    monkeypatch.setattr(os, "getuid", lambda: 54321)  # an account with no name
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: (_ for _ in ()).throw(KeyError(uid)))
    assert savepaths.autosave_path(tmp_path) == tmp_path / "autosave-uid54321.toml"
    monkeypatch.setenv("KIEV_TUI_PLAYER", "alice")  # people sharing one account
    assert savepaths.autosave_path(tmp_path) == tmp_path / "autosave-alice.toml"
    monkeypatch.setenv("KIEV_TUI_PLAYER", "../../etc/x")  # not a plain name: ignored
    assert savepaths.autosave_path(tmp_path) == tmp_path / "autosave-uid54321.toml"


def test_play_resumes_an_old_shared_autosave_only_if_it_is_yours(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("KIEV_TUI_PLAYER", "tester")
    legacy = tmp_path / "autosave.toml"
    assert savepaths.resume_path(tmp_path) == tmp_path / "autosave-tester.toml"
    new_mini().save(legacy)
    assert savepaths.resume_path(tmp_path) == legacy
    monkeypatch.setattr(os, "getuid", lambda: os.stat(legacy).st_uid + 1)
    assert savepaths.resume_path(tmp_path) == tmp_path / "autosave-tester.toml"


def test_no_replacing_links_or_other_players_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text("x")
    assert savepaths.replace_problem(mine) is None
    assert savepaths.replace_problem(tmp_path / "new.toml") is None
    link = tmp_path / "link.toml"
    link.symlink_to(mine)
    assert savepaths.replace_problem(link) == "link.toml is not a plain file"
    (tmp_path / "dir.toml").mkdir()
    assert savepaths.replace_problem(tmp_path / "dir.toml") == "dir.toml is not a plain file"
    monkeypatch.setattr(os, "getuid", lambda: os.stat(mine).st_uid + 1)
    assert savepaths.replace_problem(mine) == "mine.toml belongs to another player"


def test_unused_names_count_up(tmp_path: Path) -> None:
    assert savepaths.unused_path_for("old", tmp_path) == tmp_path / "old.toml"
    (tmp_path / "old.toml").write_text("")
    (tmp_path / "old-2.toml").write_text("")
    assert savepaths.unused_path_for("old", tmp_path) == tmp_path / "old-3.toml"


# -- 2 and 3: the save dialog ---------------------------------------------------------------------------

async def save_as(pilot: Any, app: Any, name: str) -> None:
    """S, then the name typed (or pasted) over the suggestion, then Enter."""
    await keys(pilot, "S")
    assert isinstance(app.screen, AskScreen)
    app.screen.query_one(Input).value = name
    await keys(pilot, "enter")


@pytest.mark.parametrize("name, why", [
    (".", "'.' names a folder, not a file"),
    ("/", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("a\0b", "a save name cannot contain control characters"),
    ("../escaped", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("sub/dir/game", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("{tmp}/absolute", "a save name cannot contain / or \\: saves always go in the saves folder"),
    ("{tmp}/data/units.toml", "a save name cannot contain / or \\: saves always go in the saves folder"),
])
async def test_the_save_dialog_refuses_what_is_not_a_plain_name(tmp_path: Path, name: str, why: str) -> None:
    saves = tmp_path / "saves"
    data = tmp_path / "data"
    data.mkdir()
    (data / "units.toml").write_text("kept")
    app = build_app(new_mini(), save_path=saves / "autosave-tester.toml")
    async with app.run_test(size=SIZE) as pilot:
        await save_as(pilot, app, name.format(tmp=tmp_path))
        assert isinstance(app.screen, GameScreen)
        assert status(app).endswith(f"Not saved: {why}")
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert files == ["data", "data/units.toml"]  # nothing written anywhere, no folder made
    assert (data / "units.toml").read_text() == "kept"


async def test_the_save_dialog_asks_before_replacing_a_save(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    game = new_mini()
    app = build_app(game, save_path=saves / "autosave-tester.toml")
    async with app.run_test(size=SIZE) as pilot:
        await save_as(pilot, app, "mine")
        first = (saves / "mine.toml").read_bytes()
        assert status(app).endswith(f"Saved to {saves / 'mine.toml'}")
        await keys(pilot, "tab", "enter", "d", "enter")  # a move, so the next save differs
        assert len(game.log) == 1
        await save_as(pilot, app, "mine.toml")
        assert isinstance(app.screen, ConfirmScreen)
        assert "mine.toml is already in" in str(app.screen.lines)
        await keys(pilot, "enter")  # Enter alone does not replace a save
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "n")
        assert status(app).endswith("Not saved: mine.toml kept as it was")
        assert (saves / "mine.toml").read_bytes() == first
        await save_as(pilot, app, "mine")
        await keys(pilot, "y")
        assert status(app).endswith(f"Saved to {saves / 'mine.toml'}")
        assert len(load_game(saves / "mine.toml").log) == 1


async def test_the_save_dialog_never_replaces_a_link(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    target = tmp_path / "units.toml"
    target.write_text("kept")
    (saves / "trap.toml").symlink_to(target)
    app = build_app(new_mini(), save_path=saves / "autosave-tester.toml")
    async with app.run_test(size=SIZE) as pilot:
        await save_as(pilot, app, "trap")
        assert isinstance(app.screen, GameScreen)
        assert status(app).endswith("Not saved: trap.toml is not a plain file")
    assert target.read_text() == "kept" and (saves / "trap.toml").is_symlink()


# -- 5: a new game keeps the one in progress ---------------------------------------------------------------

async def test_a_new_game_keeps_the_game_in_progress(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    game = new_mini()
    app = build_app(game, save_path=saves / "autosave-tester.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "tab", "enter", "d", "enter")  # one move made, no phase ended yet
        moved = game.state_hash()
        assert len(game.log) == 1
        await keys(pilot, "N")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.lines[1] == f"The game in progress is saved first, as previous-turn01-soviet-movement.toml in {saves}/."
        await keys(pilot, "y")
        kept = saves / "previous-turn01-soviet-movement.toml"
        assert status(app).endswith(f"New game; the previous one is saved as {kept}")
        assert game_screen(app).game is not game and game_screen(app).game.log == []
        assert load_game(kept).state_hash() == moved
        await keys(pilot, "tab", "enter", "d", "enter", "N", "y")  # again: a second name, nothing replaced
        assert status(app).endswith(f"New game; the previous one is saved as {saves / 'previous-turn01-soviet-movement-2.toml'}")
        assert load_game(kept).state_hash() == moved


async def test_a_new_game_with_nothing_played_saves_nothing(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    app = build_app(new_mini(), save_path=saves / "autosave-tester.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "N")
        assert app.screen.lines[1] == "The game in progress has no moves yet: there is nothing to keep."
        await keys(pilot, "y")
        assert status(app).endswith("New game")
    assert not saves.exists()


# -- 4 and 5: the autosave of `play`, `new` and `load` -------------------------------------------------------

@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[Any, Path | None]]:
    """The CLI in a folder of its own, with the UI replaced by a note of what it was given."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KIEV_TUI_SAVES", raising=False)
    monkeypatch.setenv("KIEV_TUI_PLAYER", "tester")
    calls: list[tuple[Any, Path | None]] = []
    monkeypatch.setattr(cli, "_start_ui", lambda game, save_path, **opts: calls.append((game, save_path)))
    return calls


def run_cli(*args: str) -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(cli.app, list(args))
    assert result.exit_code == 0, result.output


def test_load_autosaves_to_the_players_autosave_not_over_the_save(started: list[Any], tmp_path: Path) -> None:
    save = tmp_path / "mine.toml"
    new_mini().save(save)
    run_cli("load", str(save))
    [(game, autosave)] = started
    assert autosave == Path("saves") / "autosave-tester.toml"
    assert len(game.log) == 0


def test_new_with_a_save_autosaves_to_the_players_autosave(started: list[Any], tmp_path: Path) -> None:
    run_cli("new", "--scenario", str(MINI), "--save", "first.toml")
    [(_, autosave)] = started
    assert autosave == Path("saves") / "autosave-tester.toml"
    assert (tmp_path / "first.toml").exists()


def test_play_uses_the_players_own_autosave(started: list[Any], tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    other = new_mini(seed=11)
    other.save(saves / "autosave-someone.toml")  # another player started in the same folder
    run_cli("play", "--scenario", str(MINI), "--seed", "1941")
    [(game, autosave)] = started
    assert autosave == Path("saves") / "autosave-tester.toml"
    assert game.seed == 1941  # a new game: someone else's autosave is not resumed
    mine = new_mini(seed=12)
    mine.save(saves / "autosave-tester.toml")
    run_cli("play", "--scenario", str(MINI))
    assert started[1][0].seed == 12 and started[1][1] == Path("saves") / "autosave-tester.toml"
