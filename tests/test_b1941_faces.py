"""Barbarossa 1941 plays without its face package: with ``registry.get_adapter`` and
``get_plain`` giving nothing for it, the generic Textual face (by keys) and the generic plain
mode (by typed commands) each play a whole game-turn: moves, an attack in each combat phase,
every prompt of the combat chain answered from its options, every hand-over, every phase end."""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine import registry
from kiev_tui.engine.game import Game
from kiev_tui.plain.face import DEFAULT, face_for
from kiev_tui.plain.session import PlainSession
from kiev_tui.ui.adapter import DefaultAdapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import PromptScreen

from tests.ui.b1941_drive import plain_game_turn, ui_game_turn
from tests.ui.helpers import game_screen, screen_text

GAME = "barbarossa1941"


@pytest.fixture
def no_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as if games/barbarossa1941/face/ did not exist."""
    adapter, plain = registry.get_adapter, registry.get_plain
    monkeypatch.setattr(registry, "get_adapter", lambda name: None if name == GAME else adapter(name))
    monkeypatch.setattr(registry, "get_plain", lambda name: None if name == GAME else plain(name))


def _check_turn(game: Game, played: Any) -> None:
    assert game.state.turn == 2 and not game.state.over
    segments = {(p, ph) for _, p, ph in played.phases}
    # both operations phases were played through, movement and combat by each side
    assert {("axis", "movement"), ("axis", "combat"), ("soviet", "movement"), ("soviet", "combat")} <= segments
    assert played.moved and played.attacks >= 1
    assert played.prompts, "an attack's chain asks its prompts"
    # the set-up prompts of the book's free choices come first, then each attack's chain
    assert {k.split(":")[0] for k in played.prompts} == {"setup", "combat"}
    assert played.handoffs >= 2  # the Soviet reaction, the Soviet operations phase, answers


def test_generic_plain_face_plays_a_game_turn(no_face: None) -> None:
    game = Game.new(f"{GAME}/historical", seed=7)
    assert registry.get_plain(GAME) is None and face_for(game) is DEFAULT
    session = PlainSession(game, 100, pause=True)  # a hand-over waits, as on a terminal
    assert session.face is DEFAULT
    played, shown = plain_game_turn(session, limit=1200)
    _check_turn(game, played)
    # the generic face names sides from the schema and units by the rule system's catalog
    assert any("Soviet player's turn" in line for line in shown)


async def test_generic_textual_face_plays_a_game_turn(no_face: None) -> None:
    game = Game.new(f"{GAME}/historical", seed=7)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert type(screen.adapter) is DefaultAdapter
        assert isinstance(app.screen, PromptScreen)  # the Axis set-up choices are asked first (15)
        played = await ui_game_turn(pilot, game, limit=1200)
        _check_turn(game, played)
