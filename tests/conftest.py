"""Shared fixtures: the 10x10 test scenario and helpers to build hand-made positions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

# The parsed-data cache (kiev_tui/datacache.py) of this test run lives in a folder of its own,
# shared with the processes the tests start, never the player's own cache.
_RUN_FOLDERS = [tempfile.mkdtemp(prefix="kiev-tui-cache-")]
os.environ["KIEV_TUI_CACHE"] = _RUN_FOLDERS[0]

# Saves of this test run go to a folder of its own, never the player's saves/ (issue 35): a face
# that falls back to the default folder writes here.  Tests that test the default unset it.
os.environ["KIEV_TUI_SAVES"] = tempfile.mkdtemp(prefix="kiev-tui-saves-")
_RUN_FOLDERS.append(os.environ["KIEV_TUI_SAVES"])

# The per-user save key (kiev_tui/engine/savekey.py, under XDG_CONFIG_HOME) and the seats' tokens
# (kiev_tui/net/tokens.py, under XDG_STATE_HOME) of this run live in folders of its own, never in
# the player's home; each test gets fresh ones (the fixture below).
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="kiev-tui-config-")
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="kiev-tui-state-")
_RUN_FOLDERS += [os.environ["XDG_CONFIG_HOME"], os.environ["XDG_STATE_HOME"]]

# `make mutate`: mutmut's coverage run sets MUTANT_UNDER_TEST=stats, which a child process would
# inherit and then fail to record outside mutmut's folder; this process keeps its own copy.
if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    del os.environ["MUTANT_UNDER_TEST"]

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.system import begin_phase

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "mini" / "scenarios" / "mini.toml"
SHARED = ROOT.parent / "shared"


def _player_saves() -> set[str]:
    folder = ROOT / "saves"
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


_SAVES_BEFORE = _player_saves()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if any test left a file in the player's own saves/ folder (issue 35); remove
    this run's own folders, so runs do not pile up in the temporary folder."""
    import shutil

    for folder in _RUN_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)
    added = sorted(_player_saves() - _SAVES_BEFORE)
    if added:
        print(f"\nFAILED: tests wrote into the player's saves/ folder: {', '.join(added)}")
        session.exitstatus = 1


@pytest.fixture(autouse=True)
def _own_xdg_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test, and every process it starts, keeps its save key and seat tokens in fresh
    temporary folders: no test reads or writes the player's ~/.config or ~/.local/state."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))


@pytest.fixture
def mini() -> Game:
    return Game.new(MINI, seed=7)


def clear(game: Game) -> None:
    """Take every unit off the map (tests then place only what they need)."""
    for u in game.state.units.values():
        if u.status == "map":
            u.status = "pending"
            u.hex = None


def put(game: Game, uid: str, hex_id: str) -> None:
    u = game.state.units[uid]
    u.status = "map"
    u.hex = hex_id


def position(game: Game, placements: dict[str, str], player: str = "soviet", phase: str = "movement",
             turn: int = 1, reinforcements: bool = True) -> Game:
    """A hand-made position: only the listed units on the map, phase bookkeeping fresh.

    ``reinforcements=False`` drops this game's reinforcement schedule, so that nothing is due.
    """
    if not reinforcements:
        game.scenario.reinforcements = []
    clear(game)
    for uid, h in placements.items():
        put(game, uid, h)
    st = game.state
    st.turn, st.player, st.phase = turn, player, phase
    st.pending = None
    game._sink = []  # begin_phase reports events; collect and drop them here
    begin_phase(game)
    game._sink = None
    game._undo.clear()
    game.touch()
    return game


def ai_played(game: Game, ai: Any, side: str = "german", most: int = 10) -> list[Any]:
    """The actions an AI decides and plays in turn (each checked first) until it ends the phase, at most ``most``."""
    from kiev_tui.engine.actions import EndPhase

    played: list[Any] = []
    while len(played) < most:
        act = ai.decide(game)
        played.append(act)
        if isinstance(act, EndPhase):
            break
        assert game.check(act, side=side) is None
        game.apply(act, side=side)
    return played
