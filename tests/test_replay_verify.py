"""`replay --verify` and load compare everything a save holds with its replay (issue 16):
recorded rolls, journal lines, the header; the first difference names its action."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.events import Reloaded
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.games.spi_kiev import bot

from tests.conftest import MINI
from tests.test_dice import first_roll, replay_on

runner = CliRunner()


@pytest.fixture(scope="module")
def rolled_save(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """An entropy-free save (a fixed die of 2) whose last action rolled; and that action's number."""
    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, dice=FixedDice([2])), prefix)
    game.apply(attack, side=side)
    path = tmp_path_factory.mktemp("v") / "rolled.toml"
    save_game(game, path)
    return path, len(game.log)


def edit(path: Path, folder: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = tomllib.loads(path.read_text())
    change(data)
    out = folder / "edited.toml"
    out.write_text(tomli_w.dumps(data))
    return out


def refused(path: Path) -> str:
    """`replay --verify` on the file: exit 2 and one line, which is returned."""
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    return lines[0]


def test_a_good_save_verifies(rolled_save: tuple[Path, int]) -> None:
    path, n = rolled_save
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0, result.stderr
    assert f"{n} actions replayed; every recorded roll (1)" in result.stdout


def test_a_die_changed_by_hand_in_the_log_is_refused_naming_the_action(rolled_save: tuple[Path, int],
                                                                       tmp_path: Path) -> None:
    path, n = rolled_save
    out = edit(path, tmp_path, lambda d: d["action"][n - 1].update(dice=[6]))
    line = refused(out)
    # A fixed list cannot be recomputed, so the forged 6 plays on and the position shows it.
    assert f": action {n}: " in line and "overrun" in line and "[" not in line.split(": action")[0]


def test_a_die_changed_in_the_journal_is_refused_naming_the_action(rolled_save: tuple[Path, int],
                                                                   tmp_path: Path) -> None:
    path, n = rolled_save

    def change(d: dict[str, Any]) -> None:
        lines = d["journal"]["lines"]
        i = next(k for k, text in enumerate(lines) if text.startswith("Die roll #1"))
        lines[i] = lines[i][:-1] + "6"

    line = refused(edit(path, tmp_path, change))
    assert line.endswith(f"action {n}: overrun: journal line "
                         f"{next(k for k, t in enumerate(tomllib.loads(path.read_text())['journal']['lines']) if t.startswith('Die roll #1')) + 1}"
                         " of the save says 'Die roll #1 for overrun at 0403 (1-1): 6', the replay says "
                         "'Die roll #1 for overrun at 0403 (1-1): 2'")


def test_a_journal_line_added_or_dropped_is_refused(rolled_save: tuple[Path, int], tmp_path: Path) -> None:
    path, n = rolled_save
    assert "the save's journal has lines no action made ('The Soviets surrender')" in refused(
        edit(path, tmp_path, lambda d: d["journal"]["lines"].append("The Soviets surrender")))
    assert f"action {n}: overrun: the replay says" in refused(
        edit(path, tmp_path, lambda d: d["journal"]["lines"].pop()))


def test_a_seeded_roll_changed_everywhere_is_refused_by_the_seed(tmp_path: Path) -> None:
    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, seed=4), prefix)
    game.apply(attack, side=side)
    n, die = len(game.log), game.rolled[-1][0]
    path = save_game(game, tmp_path / "seeded.toml")
    other = die % 6 + 1
    line = refused(edit(path, tmp_path, lambda d: d["action"][n - 1].update(dice=[other])))
    assert line.endswith(f"action {n}.dice: overrun: random value 1 is recorded as {other}, "
                         f"but the seeded source gives {die}")


def test_the_count_of_draws_is_compared(rolled_save: tuple[Path, int], tmp_path: Path) -> None:
    path, _ = rolled_save
    assert "final.rolls: the save says 3 random draws, its replay made 1" in refused(
        edit(path, tmp_path, lambda d: d["final"].update(rolls=3)))


def test_an_entropy_save_with_a_seed_is_refused(rolled_save: tuple[Path, int], tmp_path: Path) -> None:
    path, _ = rolled_save
    assert "save.seed: a game with fixed dice has no seed" in refused(
        edit(path, tmp_path, lambda d: d["save"].update(seed=5)))


def test_a_format_1_save_still_verifies() -> None:
    corpus = Path(__file__).resolve().parent / "corpus" / "save_good.toml"
    result = runner.invoke(app, ["replay", "--verify", str(corpus)])
    assert result.exit_code == 0, result.stderr


# -- hot-seat: going back to an earlier save of the same game is told in the journal -----------------

def test_loading_an_earlier_save_of_the_same_game_is_logged_and_saved(tmp_path: Path) -> None:
    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, seed=None), prefix[:20])
    early = save_game(game, tmp_path / "early.toml")
    replay_on(game, prefix[20:])
    game.apply(attack, side=side)
    back = load_game(early)
    event = game.note_reload("early.toml", back)
    assert isinstance(event, Reloaded)
    assert event.describe() == (f"Reloaded an earlier save of this game (early.toml): back from action "
                                f"{len(prefix) + 1} to action 20, turn {back.state.turn}, {back.state.player} "
                                f"{back.state.phase} phase; 1 random draw(s) made since are thrown away")
    assert back.journal[-1] is event
    again = load_game(save_game(back, tmp_path / "after.toml"))
    assert [e.describe() for e in again.journal] == [e.describe() for e in back.journal]
    assert again.notices == back.notices
    assert game.note_reload("x", load_game(save_game(game, tmp_path / "now.toml"))) is None  # not behind
    assert Game.new(MINI, seed=None).note_reload("early.toml", load_game(early)) is None  # another game


def test_a_reload_notice_that_does_not_match_its_line_is_refused(tmp_path: Path) -> None:
    prefix, _, _ = first_roll()
    game = replay_on(Game.new(MINI, seed=None), prefix)
    early = load_game(save_game(replay_on(Game.new(MINI, seed=None), []), tmp_path / "e.toml"))
    early.game_id = game.game_id
    game.note_reload("e.toml", early)
    path = save_game(early, tmp_path / "n.toml")
    with pytest.raises(DataError) as err:
        load_game(edit(path, tmp_path, lambda d: d["reload"][0].update(file="other.toml")))
    assert err.value.key == "journal line 4"  # the reload's line (index 3), counted from 1 as the messages count
    assert "does not tell the reload" in err.value.reason


def test_options_are_saved_and_replayed(tmp_path: Path) -> None:
    game = Game.new(MINI, seed=None, options={"pbm_asterisk": True})
    assert game.scenario.params["pbm_asterisk"] is True
    back = load_game(save_game(game, tmp_path / "o.toml"))
    assert back.options == {"pbm_asterisk": True} and back.scenario.params["pbm_asterisk"] is True
    with pytest.raises(DataError, match="not an option of spi_kiev scenarios"):
        Game.new(MINI, seed=None, options={"cheat": True})


async def test_the_tui_load_of_an_earlier_save_tells_both_players_in_the_log(tmp_path: Path) -> None:
    from kiev_tui.ui.app import build_app
    from kiev_tui.ui.dialogs import ConfirmScreen, PickScreen

    from tests.ui.helpers import game_screen, keys, screen_text

    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, seed=None), prefix[:20])
    save_game(game, tmp_path / "early.toml")
    replay_on(game, prefix[20:])
    game.apply(attack, side=side)  # the die is cast; the save of before would undo it
    while game.state.pending is not None:  # its result settled, so the screen opens on the map
        answer = bot.answer_pending(game, random.Random(1))
        assert answer is not None
        game.apply(answer)
    played = len(game.log)
    app = build_app(game, save_path=tmp_path / "autosave.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await keys(pilot, "O")
        if isinstance(app.screen, ConfirmScreen):  # moves since the last save: asked first
            await keys(pilot, "y")
        assert isinstance(app.screen, PickScreen)
        await keys(pilot, "enter")
        await pilot.pause()
        loaded = game_screen(app).game
        assert len(loaded.log) == 20
        line = loaded.journal[-1].describe()
        assert line.startswith(f"Reloaded an earlier save of this game (early.toml): back from action {played} to action 20")
        assert f"{game.rolls} random draw(s) made since are thrown away" in line
        assert "Reloaded an earlier save" in screen_text(app)


def _numbers(line: str) -> list[int]:
    """Every action number an error line gives ('action N'), and none as an index ('action[N]')."""
    import re

    assert "action[" not in line and "journal.lines[" not in line
    return [int(m) for m in re.findall(r"\baction (\d+)\b", line)]


def test_every_replay_error_counts_actions_from_1(rolled_save: tuple[Path, int], tmp_path: Path) -> None:
    """Issue 35: a replay error numbered one action two ways (action[4] and action 5)."""
    path, n = rolled_save
    assert _numbers(refused(edit(path, tmp_path, lambda d: d["action"][n - 1].update(dice=[6])))) == [n]
    assert _numbers(refused(edit(path, tmp_path, lambda d: d["action"][0].update(hash="0" * 16)))) == [1]
    assert _numbers(refused(edit(path, tmp_path, lambda d: d["action"][1].update(speed=3)))) == [2]
    line = refused(edit(path, tmp_path, lambda d: d["journal"]["lines"].pop()))
    assert _numbers(line) == [n]
    assert line.endswith("the save's journal ends before (line 62)")


def test_script_numbers_its_actions_from_1(tmp_path: Path) -> None:
    acts = tmp_path / "a.toml"
    acts.write_text('[[action]]\nkind = "move"\nunits = ["so-rifle-1"]\npath = ["0706"]\n'
                    '[[action]]\nkind = "move"\nunits = ["ge-inf-1"]\npath = ["0204"]\n')
    result = runner.invoke(app, ["script", str(MINI), str(acts)])
    assert result.stdout.splitlines()[0].startswith("[1] ")
    assert result.stdout.splitlines()[1].startswith("[2] move: REFUSED [5.21]")
    bad = tmp_path / "b.toml"
    bad.write_text('[[action]]\nkind = "end_phase"\n[[action]]\nkind = "move"\nunits = "x"\npath = ["0706"]\n')
    result = runner.invoke(app, ["script", str(MINI), str(bad)])
    assert result.exit_code == 2
    assert f"{bad}: action 2.units: expected an array" in result.stderr
