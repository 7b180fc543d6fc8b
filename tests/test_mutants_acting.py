"""Who may still act this phase (acting.py): 4.2 (which units move in which phase), 5.0 (a
finished move), 8.23 and 6.24 (enemy zones), 9.14 (one attack each), asked unit by unit.

Fixture map: all clear except where map.toml says; a Soviet rifle division has 6 MP.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.acting import actable, can_act, can_attack, can_move
from kiev_tui.games.spi_kiev.actions import Attack, Move

from tests.conftest import position
from tests.spi_helpers import load_dice


def pos(game: Game, placements: dict[str, str], **kw: object) -> Game:
    return position(game, placements, reinforcements=False, **kw)  # type: ignore[arg-type]


def test_4_2_only_the_phasing_players_units_on_the_map_may_move(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"})
    view = mini.rules.position(mini)
    assert can_move(view, "so-rifle-1") is True
    assert can_move(view, "ge-inf-1") is False  # not the phasing player's unit
    assert can_move(view, "no-such-unit") is False
    # a reinforcement not yet on the map has nothing to move from
    assert can_move(view, "so-rifle-2") is False
    assert can_act(view, "so-rifle-1") is True and can_act(view, "ge-inf-1") is False


def test_4_2_nothing_moves_in_the_combat_phase(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, phase="combat")
    assert can_move(mini.rules.position(mini), "so-rifle-1") is False


def test_5_0_a_unit_moves_while_it_has_movement_points_left(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0901", "so-rifle-2": "1010", "ge-inf-1": "0110"})
    mini.apply(Move(("so-rifle-1",), ("0902", "0903", "0904", "0905", "0906")))
    assert mini.state.vars.mp["so-rifle-1"] == 5.0
    assert can_move(mini.rules.position(mini), "so-rifle-1") is True  # one MP left of six
    mini.apply(Move(("so-rifle-1",), ("0907",)))
    assert mini.state.vars.mp["so-rifle-1"] == 6.0
    view = mini.rules.position(mini)
    assert can_move(view, "so-rifle-1") is False  # all six spent
    assert actable(view) == ["so-rifle-2"]


def test_5_0_a_stack_put_down_may_not_move_again(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0901", "so-rifle-2": "1010", "ge-inf-1": "0110"})
    mini.apply(Move(("so-rifle-1",), ("0902",)))
    mini.apply(Move(("so-rifle-2",), ("1009",)))
    view = mini.rules.position(mini)
    assert can_move(view, "so-rifle-1") is False  # 5 MP left, but its move is over
    assert can_move(view, "so-rifle-2") is True


def test_4_2_the_mechanized_phase_moves_mechanized_units_and_leaders_only(mini: Game) -> None:
    pos(mini, {"ge-inf-1": "0101", "ge-1pz-1": "0103", "ge-leader": "0105", "so-rifle-1": "1010"},
        player="german", phase="mechanized")
    view = mini.rules.position(mini)
    assert [can_move(view, u) for u in ("ge-inf-1", "ge-1pz-1", "ge-leader")] == [False, True, True]
    assert actable(view) == ["ge-1pz-1", "ge-leader"]


def test_4_2_a_headquarters_moves_in_a_mechanized_phase(mini: Game) -> None:
    # The Soviets never get the phase in Kiev (19.13), but the standard rule lets HQs move in
    # it even when they are not mechanized; a Soviet HQ is the fixture's only such counter.
    pos(mini, {"so-hq-army": "1005", "so-rifle-1": "1007", "ge-inf-1": "0101"}, phase="mechanized")
    view = mini.rules.position(mini)
    assert can_move(view, "so-hq-army") is True
    assert can_move(view, "so-rifle-1") is False


def test_8_23_a_unit_in_an_enemy_zone_stays_unless_it_overran(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0702", "so-rifle-3": "0804"}, player="german")
    view = mini.rules.position(mini)
    assert can_move(view, "ge-1pz-1") is False  # 8.23
    assert can_move(view, "ge-1pz-1", zoc=False) is True  # it may still overrun (6.0)
    assert can_move(view, "ge-1pz-2") is True
    assert actable(view) == ["ge-1pz-2"]
    mini.state.vars.overran = ["ge-1pz-1"]  # 6.24: its overrun frees it from the zone
    mini.touch()
    view = mini.rules.position(mini)
    assert can_move(view, "ge-1pz-1") is True
    assert actable(view) == ["ge-1pz-2", "ge-1pz-1"]


# -- the combat phase: who may attack (9.1, 9.14) ---------------------------------------------

def test_9_1_an_attacker_must_touch_an_enemy_and_not_be_a_leader(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "ge-inf-1": "0101", "ge-inf-2": "0604",
               "so-rifle-3": "0804"}, player="german", phase="combat")
    view = mini.rules.position(mini)
    who = ("ge-1pz-1", "ge-leader", "ge-inf-1", "ge-inf-2", "so-rifle-3", "ge-inf-3", "no-such-unit")
    # ge-inf-2 touches only its own side; so-rifle-3 is not the phasing player's; ge-inf-3 is
    # not on the map
    assert [can_attack(view, u) for u in who] == [True, False, False, False, False, False, False]
    assert [can_act(view, u) for u in who] == [True, False, False, False, False, False, False]
    assert actable(view) == ["ge-1pz-1"]


def test_9_1_nobody_attacks_in_a_movement_phase(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german")
    assert can_attack(mini.rules.position(mini), "ge-1pz-1") is False


def test_9_14_a_unit_attacks_once_per_phase(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0703", "so-rifle-3": "0804", "so-rifle-4": "0803"},
        player="german", phase="combat")
    assert actable(mini.rules.position(mini)) == ["ge-1pz-2", "ge-1pz-1"]
    load_dice(mini, [6])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    view = mini.rules.position(mini)
    assert can_attack(view, "ge-1pz-1") is False
    assert can_attack(view, "ge-1pz-2") is True
    assert actable(view) == ["ge-1pz-2"]


def test_9_1_soviet_attackers_look_for_german_neighbours(mini: Game) -> None:
    pos(mini, {"so-rifle-3": "0804", "so-rifle-4": "0904", "ge-1pz-1": "0704"}, phase="combat")
    view = mini.rules.position(mini)
    assert [can_attack(view, u) for u in ("so-rifle-3", "so-rifle-4", "ge-1pz-1")] == [True, False, False]
