"""Kiev's typed bookkeeping (KievVars, Battle): its saved form is the dict the rules always
wrote, so hashes and saves made before it still hold; bad saved forms are refused by key."""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.state import GameState, PlainVars
from kiev_tui.games.spi_kiev.actions import Attack, RailMove
from kiev_tui.games.spi_kiev.state import UNSET, Battle, KievVars, kiev_vars

from tests.conftest import position
from tests.spi_helpers import load_dice


def test_a_new_game_saves_only_what_set_up_and_the_first_phase_wrote(mini: Game) -> None:
    v = kiev_vars(mini.state)
    assert v.to_dict() == {"rpl_left": 1, "pool_used": [], "directive": {}, "rail_used": 0,
                           "start_hex": {"so-rifle-1": "0705", "so-rifle-2": "0703", "so-rifle-3": "0805",
                                         "so-rifle-4": "0804", "so-tank-1": "0907", "so-cav-1": "0906",
                                         "so-hq-army": "0905", "so-hq-agsw": "1003"},
                           "oos_start": []}


def test_a_record_written_empty_is_saved_and_one_never_written_is_not(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    v = kiev_vars(mini.state)
    assert v.active == () and "active" not in v.to_dict()
    mini.apply(RailMove(("so-rifle-1",), ("0907",)))
    v = kiev_vars(mini.state)
    assert v.active == [] and v.to_dict()["active"] == []  # 5.33: a rail move leaves no stack in hand
    assert v.to_dict()["stop_case"] == {"so-rifle-1": "5.33"}
    back = KievVars.from_dict(v.to_dict())
    assert back.to_dict() == v.to_dict() and back.active == [] and back.overran == ()


def test_an_unwritten_record_cannot_be_changed_in_place() -> None:
    v = KievVars()
    with pytest.raises(AttributeError):
        v.moved.append("x")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        v.mp["x"] = 1.0  # type: ignore[index]
    assert v.mp is UNSET


def test_the_battle_record_round_trips_and_copies_apart(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german", phase="combat",
             reinforcements=False)
    load_dice(mini, [1])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    b = kiev_vars(mini.state).battle
    assert isinstance(b, Battle)
    assert (b.kind, b.attackers, b.targets, b.defenders) == ("attack", ["ge-1pz-1"], ["0804"], ["so-rifle-3"])
    assert b.origin == {"ge-1pz-1": "0704", "so-rifle-3": "0804"}
    assert Battle.from_dict(b.to_dict()) == b
    copied = mini.state.copy()
    kiev_vars(copied).battle.stages.clear()  # type: ignore[union-attr]
    assert b.stages != []


def test_directive_turns_are_numbers_in_play_and_text_when_saved() -> None:
    v = KievVars(directive={7: True, 10: False})
    assert v.to_dict()["directive"] == {"7": True, "10": False}
    assert KievVars.from_dict(v.to_dict()).directive == {7: True, 10: False}


@pytest.mark.parametrize("data, message", [
    ({"speed": 3}, "unknown key 'speed'"),
    ({"moved": "so-rifle-1"}, "'moved' must be a list of ids"),
    ({"rpl_left": 1.5}, "'rpl_left' must be a whole number"),
    ({"directive": {"seven": True}}, "'directive' must map game-turn numbers to true or false"),
    ({"mp": {"u": "far"}}, "'mp' must map units to movement points"),
    ({"battle": {"kind": "attack", "who": 1}}, "unknown key 'battle.who'"),
    ({"battle": {"kind": 3}}, "'battle.kind' must be text"),
])
def test_a_bad_saved_form_is_refused_naming_the_key(data: dict, message: str) -> None:
    with pytest.raises(ValueError) as exc:
        KievVars.from_dict(data)
    assert str(exc.value) == message


def test_game_state_from_dict_uses_the_rule_systems_factory(mini: Game) -> None:
    d = mini.state.to_dict()
    typed = GameState.from_dict(d, mini.rules.vars_from_dict)
    plain = GameState.from_dict(d)
    assert isinstance(typed.vars, KievVars) and isinstance(plain.vars, PlainVars)
    assert typed.hash() == plain.hash() == mini.state.hash()
    with pytest.raises(ValueError, match="unknown key 'x'"):
        GameState.from_dict({**d, "vars": {**d["vars"], "x": 1}}, mini.rules.vars_from_dict)
