"""Stalin's Directive (22.0-22.2) cases that mutation testing found unpinned.

The order holds on turns 7-9 and, from turn 10, when a die roll (plus one after a turn under
the order) is 1-4.  ``directive.exempt`` says why a unit is free of the order, citing the case that frees it, or
None when the unit is bound.  Fixture map: hexrows 01-05 are west of the Stalin line.
"""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine.events import Note, Rolled
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import directive
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.directive import exempt

from tests.conftest import position
from tests.spi_helpers import load_dice


def test_22_0_german_units_are_never_bound_by_the_directive(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0806"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "ge-inf-1", H("0806")) == "German"


def test_22_1_a_soviet_hq_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-hq-army": "0905"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-hq-army", H("0905")) == "an HQ (22.1)"


def test_22_1_a_unit_west_of_the_line_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0405"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-rifle-1", H("0405")) == "west of the Seim-Desna-Dnieper line (22.1)"


def test_22_2_a_relieved_unit_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0805"}, turn=7, reinforcements=False)
    mini.state.vars.relieved = ["so-rifle-1"]
    assert exempt(View(mini), "so-rifle-1", H("0805")) == "relieved (22.2)"


def test_22_1_a_soviet_combat_unit_east_of_the_line_is_bound(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0805"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-rifle-1", H("0805")) is None


# -- when the order is in force (22.0) ---------------------------------------------------------

def determine_on(game: Game, turn: int, history: dict[int, bool], rolls: list[int]) -> list[Any]:
    """Run the start-of-turn check for ``turn`` with the given past turns and die rolls."""
    game.state.turn = turn
    game.state.vars.directive = dict(history)
    load_dice(game, rolls)
    game._sink = []
    try:
        directive.determine(game)
        return list(game._sink)
    finally:
        game._sink = None


def notes(events: list[Any]) -> list[str]:
    return [e.text for e in events if isinstance(e, Note)]


def rolls(events: list[Any]) -> list[tuple[str, int]]:
    return [(e.purpose, e.value) for e in events if isinstance(e, Rolled)]


def test_22_0_the_book_schedule_applies_without_a_table(mini: Game) -> None:
    mini.scenario.tables.pop("stalins_directive", None)
    assert directive.settings(mini) == {"automatic_turns": [7, 8, 9], "roll_from_turn": 10,
                                        "previous_turn_bonus": 1, "in_force_max": 4}


def test_22_0_the_schedule_is_read_from_the_table(mini: Game) -> None:
    mini.scenario.tables["stalins_directive"] = {"automatic_turns": [2], "roll_from_turn": 5,
                                                 "previous_turn_bonus": 2, "in_force_max": 3}
    assert directive.settings(mini) == {"automatic_turns": [2], "roll_from_turn": 5,
                                        "previous_turn_bonus": 2, "in_force_max": 3}
    ev = determine_on(mini, 2, {}, [])
    assert mini.state.vars.directive == {2: True} and rolls(ev) == []
    ev = determine_on(mini, 5, {4: True}, [1])
    # 1 + 2 = 3, within the table's 3: in force.
    assert mini.state.vars.directive[5] is True
    assert notes(ev) == ["Stalin's Directive: roll 1 +1 = 3: in force on turn 5 (22.0)."]


@pytest.mark.parametrize("turn", [7, 8, 9])
def test_22_0_turns_7_to_9_are_under_the_order_without_a_roll(mini: Game, turn: int) -> None:
    ev = determine_on(mini, turn, {}, [])
    assert mini.state.vars.directive == {turn: True}
    assert rolls(ev) == []
    assert notes(ev) == [f"Stalin's Directive is in force on turn {turn} (22.0)."]
    assert directive.in_force(mini) is True


def test_22_0_before_turn_7_nothing_is_decided_and_the_order_is_off(mini: Game) -> None:
    ev = determine_on(mini, 6, {}, [])
    assert ev == [] and mini.state.vars.directive == {}
    assert directive.in_force(mini) is False


def test_22_0_no_record_at_all_means_the_order_is_off(mini: Game) -> None:
    mini.state.vars.directive = {}
    assert directive.in_force(mini) is False


def test_22_0_turn_10_after_an_ordered_turn_adds_one_and_holds_on_3(mini: Game) -> None:
    ev = determine_on(mini, 10, {9: True}, [3])
    assert rolls(ev) == [("Stalin's Directive (22.0)", 3)]
    assert mini.state.vars.directive[10] is True
    assert notes(ev) == ["Stalin's Directive: roll 3 +1 = 4: in force on turn 10 (22.0)."]
    assert directive.in_force(mini) is True


def test_22_0_turn_10_after_an_ordered_turn_a_4_becomes_5_and_lifts_it(mini: Game) -> None:
    ev = determine_on(mini, 10, {9: True}, [4])
    assert mini.state.vars.directive[10] is False
    assert notes(ev) == ["Stalin's Directive: roll 4 +1 = 5: lifted on turn 10 (22.0)."]
    assert directive.in_force(mini) is False


def test_22_0_after_a_lifted_turn_a_plain_4_still_holds(mini: Game) -> None:
    # Turn 11 after a lifted turn 10 (an earlier ordered turn 9 does not count): no +1.
    ev = determine_on(mini, 11, {9: True, 10: False}, [4])
    assert mini.state.vars.directive[11] is True
    assert notes(ev) == ["Stalin's Directive: roll 4 = 4: in force on turn 11 (22.0)."]


def test_22_0_after_a_lifted_turn_a_5_lifts_it(mini: Game) -> None:
    ev = determine_on(mini, 12, {11: False, 13: True}, [5])
    assert mini.state.vars.directive[12] is False
    assert notes(ev) == ["Stalin's Directive: roll 5 = 5: lifted on turn 12 (22.0)."]


def test_22_0_the_first_ordered_turn_is_recorded_in_a_game_with_no_record_yet(mini: Game) -> None:
    mini.state.turn = 7
    mini.state.vars.directive = {}
    mini._sink = []
    try:
        directive.determine(mini)
    finally:
        mini._sink = None
    assert mini.state.vars.directive == {7: True}
