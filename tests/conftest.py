"""Shared fixtures: the 10x10 test scenario and helpers to build hand-made positions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# The parsed-data cache (kiev_tui/datacache.py) of this test run lives in a folder of its own,
# shared with the processes the tests start, never the player's own cache.
os.environ["KIEV_TUI_CACHE"] = tempfile.mkdtemp(prefix="kiev-tui-cache-")

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
