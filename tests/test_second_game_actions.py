"""Per-game action registries: two games may each have a `move` of their own (issue 14)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kiev_tui.engine.actions import Action, ActionRegistry, EndPhase, action_from_toml, action_types
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.registry import get_system
from kiev_tui.games.spi_kiev.actions import ACTIONS as KIEV_ACTIONS
from kiev_tui.games.spi_kiev.actions import Move as KievMove

NORTH = ActionRegistry("north")
SOUTH = ActionRegistry("south")


@NORTH.action("move")
@dataclass(frozen=True, slots=True)
class NorthMove(Action):
    units: tuple[str, ...]
    path: tuple[str, ...]


@SOUTH.action("move")
@dataclass(frozen=True, slots=True)
class SouthMove(Action):
    unit: str
    to: str
    forced: bool = False


def test_two_registries_each_parse_their_own_move() -> None:
    north = action_from_toml({"kind": "move", "units": ["a", "b"], "path": ["0102"]}, registry=NORTH)
    south = action_from_toml({"kind": "move", "unit": "a", "to": "0304", "forced": True}, registry=SOUTH)
    assert north == NorthMove(("a", "b"), ("0102",))
    assert south == SouthMove("a", "0304", True)
    assert north.to_toml() == {"kind": "move", "units": ["a", "b"], "path": ["0102"]}
    assert south.to_toml() == {"kind": "move", "unit": "a", "to": "0304", "forced": True}
    # the other game's fields are refused by name
    with pytest.raises(DataError, match=r"action\.unit: unknown key for action 'move' \(expected: units, path\)"):
        action_from_toml({"kind": "move", "unit": "a", "to": "0304"}, registry=NORTH)
    with pytest.raises(DataError, match=r"action\.units: unknown key for action 'move' \(expected: unit, to, forced\)"):
        action_from_toml({"kind": "move", "units": ["a"], "path": ["0102"]}, registry=SOUTH)


def test_kiev_move_and_other_moves_coexist() -> None:
    assert action_types(KIEV_ACTIONS)["move"] is KievMove
    assert action_types(NORTH)["move"] is NorthMove
    assert action_types(SOUTH)["move"] is SouthMove
    assert get_system("spi_kiev").actions is KIEV_ACTIONS


def test_every_registry_knows_end_phase() -> None:
    for reg in (NORTH, SOUTH, KIEV_ACTIONS):
        assert reg.get("end_phase") is EndPhase
        assert action_from_toml({"kind": "end_phase"}, registry=reg) == EndPhase()
    assert sorted(NORTH) == ["end_phase", "move"]
    assert "move" in SOUTH and "rail" not in SOUTH


def test_unknown_kind_names_the_registry_and_its_kinds() -> None:
    with pytest.raises(DataError) as exc:
        action_from_toml({"kind": "rail", "units": ["a"], "path": ["0102"]}, "action[3]", "x.toml", registry=SOUTH)
    assert exc.value.line() == "x.toml: action[3].kind: unknown action 'rail' for the south game (known: end_phase, move)"


def test_a_kind_is_unique_within_one_registry_only() -> None:
    reg = ActionRegistry("west")

    @reg.action("hold")
    @dataclass(frozen=True, slots=True)
    class Hold(Action):
        unit: str

    with pytest.raises(ValueError, match="action kind 'hold' registered twice in the west actions"):
        @reg.action("hold")
        @dataclass(frozen=True, slots=True)
        class Hold2(Action):
            unit: str

    with pytest.raises(ValueError, match="action kind 'end_phase' registered twice in the west actions"):
        @reg.action("end_phase")
        @dataclass(frozen=True, slots=True)
        class MyEnd(Action):
            pass

    # the same class under the same kind may join another registry; under another kind it may not
    other = ActionRegistry("east")
    other.action("hold")(Hold)
    assert other.get("hold") is Hold
    with pytest.raises(ValueError, match="Hold is already the 'hold' action"):
        other.action("stay")(Hold)
    with pytest.raises(TypeError, match="only Action subclasses"):
        other.action("thing")(int)
