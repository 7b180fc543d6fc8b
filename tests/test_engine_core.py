"""Engine core on the fixture scenario: apply/check, events, dice, undo, action TOML forms."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from kiev_tui.engine.actions import Action, EndPhase, action_from_toml, action_types
from kiev_tui.engine.errors import DataError, IllegalAction
from kiev_tui.engine.events import Rolled
from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import ACTIONS, Move

from tests.conftest import MINI

SAMPLE_VALUES: dict[typing.Any, typing.Any] = {
    str: "0101",
    int: 3,
    bool: True,
    tuple[str, ...]: ("so-rifle-1", "so-rifle-2"),
    tuple[tuple[str, ...], ...]: (("0101", "0102"), ("0103",)),
}


@pytest.mark.parametrize("kind", sorted(action_types(ACTIONS)))
def test_every_action_type_round_trips_through_toml(kind: str) -> None:
    import tomllib

    import tomli_w

    cls = action_types(ACTIONS)[kind]
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: SAMPLE_VALUES[hints[f.name]] for f in dataclasses.fields(cls)}
    act = cls(**kwargs)
    text = tomli_w.dumps({"action": [act.to_toml()]})
    back = action_from_toml(tomllib.loads(text)["action"][0], registry=ACTIONS)
    assert back == act
    assert isinstance(back, Action)


def test_unknown_action_kind_and_key_are_named() -> None:
    with pytest.raises(DataError, match="unknown action 'teleport'"):
        action_from_toml({"kind": "teleport"}, registry=ACTIONS)
    with pytest.raises(DataError, match=r"action\.speed"):
        action_from_toml({"kind": "move", "units": ["a"], "path": ["0101"], "speed": 3}, registry=ACTIONS)
    with pytest.raises(DataError, match=r"action\.path.*missing"):
        action_from_toml({"kind": "move", "units": ["a"]}, registry=ACTIONS)
    with pytest.raises(DataError, match="expected a string"):
        action_from_toml({"kind": "move", "units": [1], "path": ["0101"]}, registry=ACTIONS)


def test_apply_is_the_only_door_and_refusals_carry_a_case(mini: Game) -> None:
    bad = Move(("ge-inf-1",), ("0204",))
    illegal = mini.check(bad)
    assert illegal is not None and illegal.case == "5.21"
    with pytest.raises(IllegalAction) as exc:
        mini.apply(bad)
    assert exc.value.illegal == illegal
    assert mini.log == []


def test_events_are_returned_and_journaled(mini: Game) -> None:
    events = mini.apply(Move(("so-rifle-1",), ("0706",)))
    assert [e.kind for e in events] == ["moved"]
    assert mini.journal[-1] is events[-1]
    assert mini.state.units["so-rifle-1"].hex == "0706"


def test_undo_steps_back_until_a_player_change(mini: Game) -> None:
    h0 = mini.state_hash()
    mini.apply(Move(("so-rifle-1",), ("0706",)))
    assert mini.can_undo
    assert mini.undo()
    assert mini.state_hash() == h0 and mini.log == []
    # Bring on the reinforcements, then end both Soviet phases: the hand-over is a barrier.
    for uid in ("so-t01-rifle-1", "so-t01-rifle-2"):
        mini.apply(_enter(uid))
    mini.apply(EndPhase())
    mini.apply(EndPhase())
    assert mini.state.player == "german"
    assert not mini.can_undo and not mini.undo()


def _enter(uid: str) -> Action:
    from kiev_tui.games.spi_kiev.actions import Enter

    return Enter((uid,), "1005")


def test_dice_are_seeded_and_every_roll_is_an_event() -> None:
    g1, g2 = Game.new(MINI, seed=5), Game.new(MINI, seed=5)
    g1._sink, g2._sink = [], []
    rolls1 = [g1.roll("test") for _ in range(20)]
    rolls2 = [g2.roll("test") for _ in range(20)]
    events = g1._sink
    g1._sink = g2._sink = None
    assert rolls1 == rolls2
    assert all(1 <= r <= 6 for r in rolls1)
    assert [e.value for e in events if isinstance(e, Rolled)] == rolls1
    assert g1.rolls == 20


def test_emit_outside_apply_is_a_programming_error(mini: Game) -> None:
    with pytest.raises(RuntimeError):
        mini.roll("stray")
