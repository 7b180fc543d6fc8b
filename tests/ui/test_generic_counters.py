"""The generic face shows what a game's schema declares (issue 30): named factors in the
inspector and hex markers on the map, with no code of that game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.rules import Counters, HexMarker
from kiev_tui.ui.adapter import DefaultAdapter, Overlay
from kiev_tui.ui.glyphs import ASCII
from kiev_tui.ui.hexmap import parse_hex

from tests import tiny_game
from tests.tiny_game import tiny  # noqa: F401  (the fixture registers Tiny for the test)

COUNTERS = Counters(factors=("attack", "defence"), step_factors=("attack", "defence"),
                    hex_markers=(HexMarker("fort", "^"), HexMarker("rail_break", "%", "cut rail")))


@pytest.fixture
def declared(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> Game:  # noqa: F811
    monkeypatch.setattr(tiny_game.TinyRules, "schema", dataclasses.replace(tiny_game.SCHEMA, counters=COUNTERS))
    return Game.new(tiny, seed=3)


def test_the_inspector_names_each_factor_and_each_hex_marker(declared: Game) -> None:
    declared.state.hex_markers = {"0202": ["rail_break", "fort"]}
    lines = DefaultAdapter().inspector_lines(declared, parse_hex(declared.scenario.map, "0202"), None, ())
    assert lines[1:] == ["Markers: fort, cut rail", "Axis stack of 1 (keys 1-1 pick):",
                         "1 1 infantry  attack 1 defence 1"]


def test_the_map_draws_a_declared_marker_by_its_glyph_and_ignores_an_undeclared_one(declared: Game) -> None:
    declared.state.hex_markers = {"0303": ["fort"], "0202": ["rail_break"], "0404": ["flood"]}
    looks = DefaultAdapter().hex_looks(declared, None, Overlay(), ASCII)
    at = lambda hid: looks.get(parse_hex(declared.scenario.map, hid))  # noqa: E731
    assert (at("0303").mark, at("0303").letter) == ("^", "")
    assert (at("0202").mark, at("0202").letter) == ("%", "I")
    assert at("0404") is None


def test_a_game_declaring_nothing_keeps_attack_defence(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    lines = DefaultAdapter().inspector_lines(game, parse_hex(game.scenario.map, "0202"), None, ())
    assert lines[1:] == ["Axis stack of 1 (keys 1-1 pick):", "1 1 infantry  1-1"]
