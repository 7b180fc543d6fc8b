"""`play` resumes only the autosave of the scenario asked for, and a damaged autosave is moved
aside and explained in the game, never silently replaced (issue 35, items 1 and 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kiev_tui import cli
from kiev_tui.engine.saves import load_game
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import PickScreen

from tests.ui.helpers import MINI, new_mini

AUTOSAVE = Path("saves") / "autosave-tester.toml"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[Any, dict[str, Any]]]:
    """The CLI in a folder of its own, with the UI replaced by a note of what it was given."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KIEV_TUI_SAVES", raising=False)
    monkeypatch.setenv("KIEV_TUI_PLAYER", "tester")
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(cli, "_start_ui", lambda game, save_path, **opts: calls.append((game, opts)))
    (tmp_path / "saves").mkdir()
    return calls


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(cli.app, list(args))


def mini_autosave(tmp_path: Path) -> bytes:
    """A mini game one action in, as this player's autosave; its bytes."""
    from tests.test_app_survival import ready_to_end_phase

    game = ready_to_end_phase(5)
    game.save(tmp_path / AUTOSAVE)
    return (tmp_path / AUTOSAVE).read_bytes()


def test_another_scenario_starts_new_and_keeps_the_autosave_aside(started: list[Any], tmp_path: Path) -> None:
    saved = mini_autosave(tmp_path)
    result = run_cli("play", "spi_kiev/campaign", "--seed", "3")
    assert result.exit_code == 0, result.output
    [(game, opts)] = started
    assert game.scenario.id == "spi_kiev/campaign" and len(game.log) == 0
    assert not (tmp_path / AUTOSAVE).exists()  # nothing the new game writes can replace it
    assert (tmp_path / "saves" / "previous-mini.toml").read_bytes() == saved
    assert opts["notice"] == ["Your game of Test position on a 10 x 10 map was not resumed: spi_kiev/campaign was asked for.",
                              "It was kept as saves/previous-mini.toml.", "A new game has started."]


def test_the_same_scenario_resumes(started: list[Any], tmp_path: Path) -> None:
    saved = mini_autosave(tmp_path)
    assert run_cli("play", "--scenario", str(MINI)).exit_code == 0
    [(game, opts)] = started
    assert len(game.log) == len(load_game(tmp_path / AUTOSAVE).log) > 0
    assert "notice" not in opts and (tmp_path / AUTOSAVE).read_bytes() == saved


@pytest.fixture
def tiny_data_only() -> Any:
    """Tiny registered with its data and no rules (every shipped game has its rules now)."""
    from kiev_tui.engine import registry
    from tests.test_data_only_game import TinyData

    registry.register_data("tiny", TinyData())
    try:
        yield
    finally:
        registry.unregister("tiny")


@pytest.mark.parametrize("name, why", [
    ("nonsense/xyz", "data/nonsense/scenarios/xyz.toml: file not found"),
    ("tiny-duel", "has its data but no rule system yet"),
])
def test_a_scenario_that_cannot_be_played_is_refused_before_the_autosave_is_touched(
        started: list[Any], tmp_path: Path, name: str, why: str, tiny_data_only: None) -> None:
    from tests.tiny_game import DUEL

    saved = mini_autosave(tmp_path)
    result = run_cli("play", str(DUEL) if name == "tiny-duel" else name)
    assert result.exit_code == 2 and started == []
    assert len(result.output.strip().splitlines()) == 1 and why in result.output, result.output
    assert (tmp_path / AUTOSAVE).read_bytes() == saved
    assert sorted(p.name for p in (tmp_path / "saves").iterdir()) == ["autosave-tester.toml"]


def test_a_damaged_autosave_is_moved_aside_and_explained(started: list[Any], tmp_path: Path) -> None:
    saved = mini_autosave(tmp_path)
    (tmp_path / AUTOSAVE).write_bytes(saved[: len(saved) // 2])  # cut short, as a full disk leaves it
    result = run_cli("play")
    assert result.exit_code == 0, result.output
    [(game, opts)] = started
    assert len(game.log) == 0 and game.scenario.id == "spi_kiev/campaign"
    assert not (tmp_path / AUTOSAVE).exists()
    assert (tmp_path / "saves" / "damaged-autosave.toml").read_bytes() == saved[: len(saved) // 2]
    first, kept, new = opts["notice"]
    assert first.startswith("The autosave could not be resumed: saves/autosave-tester.toml")
    assert (kept, new) == ("It was kept as saves/damaged-autosave.toml.", "A new game has started.")


async def test_the_game_says_why_and_offers_to_load(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    new_mini(seed=4).save(saves / "other.toml")
    notice = ["The autosave could not be resumed: it was cut short", "It was kept as saves/damaged-autosave.toml.",
              "A new game has started."]
    app = build_app(new_mini(), save_path=saves / "autosave-tester.toml", notice=notice)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        assert app.screen.title_text == "\n".join(notice)
        await pilot.press("down", "enter")  # "Load a saved game"
        await pilot.pause()
        assert isinstance(app.screen, PickScreen) and app.screen.title_text == "Load a saved game"
        assert [label for label, _ in app.screen.items] == ["other.toml"]
