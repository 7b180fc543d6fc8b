"""Movement (5.0-5.3, 8.2, 10.13, 11.23, 19.9, 22.1) cases that mutation testing found
unpinned: what ``reachable`` offers and why it refuses each other hex, and the movement
allowance in mud and out of supply.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.movement import movement_allowance

from tests.conftest import position


def pos(game: Game, placements: dict[str, str], **kw: object) -> Game:
    kw.setdefault("turn", 2)
    return position(game, placements, reinforcements=False, **kw)  # type: ignore[arg-type]


def said(game: Game, units: tuple[str, ...], hex_id: str) -> tuple[object, ...]:
    r = game.reachable(units)[H(hex_id)]
    return (r.cost, r.path, r.case, r.why)


def refused(case: str, why: str) -> tuple[object, ...]:
    return (None, (), case, why)


# -- a stack that may not move at all says why for every hex ------------------------------

def test_4_2_no_movement_in_the_combat_phase(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"}, phase="combat")
    assert said(mini, ("so-rifle-1",), "0904") == refused("4.2", "units move only in a movement phase, not the combat phase")


def test_5_33_after_a_rail_move_no_normal_move(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.railed = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1",), "0904") == \
        refused("5.33", "so-rifle-1 moved by rail this phase and cannot also move normally")
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.rail_entry = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1",), "0904") == \
        refused("5.33", "so-rifle-1 came on by rail this phase: it may go on only by rail, not move normally")


def test_8_21_a_stopped_unit_cites_why_it_stopped(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.stopped = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1",), "0904") == refused("8.21", "so-rifle-1 has stopped for this phase")
    mini.state.vars.stop_case = {"so-rifle-1": "6.22"}
    assert said(mini, ("so-rifle-1",), "0904") == refused("6.22", "so-rifle-1 has stopped for this phase")


def test_5_0_a_finished_move_is_not_resumed(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.moved = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1",), "0904") == refused("5.0", "so-rifle-1 already finished its move this phase")


def test_8_23_a_stack_starting_in_an_enemy_zone_stays(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "ge-inf-1": "0904", "so-hq-army": "0907"})
    assert said(mini, ("so-rifle-1",), "0906") == \
        refused("8.23", "the stack starts in an enemy zone of control at 0905")


def test_6_24_8_23_after_a_clean_overrun_the_stack_may_leave_the_zone(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-1": "0805"}, player="german")
    mini.state.vars.overran = ["ge-1pz-1"]
    assert said(mini, ("ge-1pz-1",), "0703") == (1.0, ("0703",), "", "")


# -- costs, paths and the reasons for each refused hex --------------------------------------

def test_5_11_5_22_8_21_costs_paths_and_refusals(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "ge-inf-1": "0903", "so-hq-army": "0907"})
    units = ("so-rifle-1",)
    assert said(mini, units, "0903") == refused("5.22", "enemy units are there (only an overrun may enter)")
    assert said(mini, units, "0904") == (1.0, ("0904",), "", "")   # into the German zone: it stops there
    assert said(mini, units, "0705") == (2.0, ("0805", "0705"), "", "")
    # Across the road bridge 0605/0505 into the city: rifles pay the hex, 1 + 2 river (10.13).
    assert said(mini, units, "0605") == (3.0, ("0805", "0706", "0605"), "", "")
    assert said(mini, units, "0505") == (6.0, ("0805", "0706", "0605", "0505"), "", "")
    assert said(mini, units, "0405") == refused("5.11", "needs 7 MP, only 6 left")
    assert said(mini, units, "0305") == \
        refused("5.11", "beyond the stack's movement allowance or cut off by zones of control")


def test_10_13_no_crossing_into_a_hex_guarded_from_the_bank(mini: Game) -> None:
    pos(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605", "so-rifle-2": "0602"}, player="german")
    why = "an enemy unit on the bank controls this hex: no crossing the major river into it"
    assert said(mini, ("ge-inf-1",), "0604") == refused("10.13", why)
    assert said(mini, ("ge-inf-1",), "0603") == refused("10.13", why)


def test_10_13_a_crossing_into_an_unguarded_hex_then_on_is_fine(mini: Game) -> None:
    pos(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605"}, player="german")
    # 0603 is out of the bank unit's zone: 3 (river) + 1, then 1 more into 0604 on the east bank.
    assert said(mini, ("ge-inf-1",), "0603") == (4.0, ("0603",), "", "")
    assert said(mini, ("ge-inf-1",), "0604") == (5.0, ("0603", "0604"), "", "")


def test_11_23_an_hq_alone_stays_out_of_enemy_zones(mini: Game) -> None:
    pos(mini, {"so-hq-army": "0806", "ge-inf-1": "0803"})
    assert said(mini, ("so-hq-army",), "0804") == refused("11.23", "an HQ alone may not enter an enemy zone")
    assert said(mini, ("so-hq-army",), "0805") == (1.0, ("0805",), "", "")


def test_19_51_no_crossing_the_major_river_straight_into_swamp(mini: Game) -> None:
    # Out of supply at the start (no HQ): MA 3, so the way round by the bridge (3 + swamp 2)
    # is too dear and the straight crossing is the only way left.
    pos(mini, {"so-rifle-1": "0507"})
    assert movement_allowance(View(mini), "so-rifle-1") == 3
    assert said(mini, ("so-rifle-1",), "0608") == \
        refused("19.51", "cannot cross the major river into the swamp at 0608 except along a road")


def test_22_1_22_25_under_the_directive_no_step_east_off_the_road(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0802", "so-hq-army": "0702"}, turn=7)
    mini.state.vars.directive = {7: True}
    mini.touch()
    assert said(mini, ("so-rifle-1",), "0902") == refused("22.1", "Stalin's Directive forbids moving east here")
    assert said(mini, ("so-rifle-1",), "0702") == (1.0, ("0702",), "", "")


def test_22_25_a_road_move_east_may_not_end_in_a_higher_hexrow(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0805", "so-hq-army": "0806"}, turn=7)
    mini.state.vars.directive = {7: True}
    mini.touch()
    east = refused("22.25", "Stalin's Directive: the move must end in this hexrow or a lower one")
    assert said(mini, ("so-rifle-1",), "0905") == east
    assert said(mini, ("so-rifle-1",), "0804") == (1.0, ("0804",), "", "")


def test_5_14_a_fresh_unit_may_always_move_one_hex(mini: Game) -> None:
    # Mud halves MA 10 to 5 (19.9), out of supply at the start halves it again to 2 (5.25).
    # The woods 0303 across the minor river costs this German mechanized unit 2 + 2 = 4, more
    # than it has, yet a unit that has spent nothing may always go one hex.
    pos(mini, {"ge-1pz-2": "0203"}, player="german")
    mini.scenario.params["mud_turns"] = [2]
    mini.state.vars.oos_start = ["ge-1pz-2"]
    assert movement_allowance(View(mini), "ge-1pz-2") == 2
    assert said(mini, ("ge-1pz-2",), "0303") == (4.0, ("0303",), "", "")
    assert said(mini, ("ge-1pz-2",), "0404") == refused("5.11", "needs 3 MP, only 2 left")


def test_5_11_a_unit_that_has_spent_points_is_held_to_what_is_left(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.mp = {"so-rifle-1": 5.0}
    mini.state.vars.moved = ["so-rifle-1"]
    mini.state.vars.active = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1",), "0904") == (1.0, ("0904",), "", "")
    assert said(mini, ("so-rifle-1",), "0804") == (1.0, ("0804",), "", "")
    assert said(mini, ("so-rifle-1",), "0704") == refused("5.11", "needs 2 MP, only 1 left")


# -- the movement allowance ----------------------------------------------------------------

@pytest.mark.parametrize("uid, ma", [("so-rifle-1", 3), ("ge-1pz-1", 5), ("so-cav-1", 6), ("ge-inf-1", 3)])
def test_19_9_mud_halves_every_allowance_but_cavalry_has_six(mini: Game, uid: str, ma: int) -> None:
    pos(mini, {uid: "0905"}, turn=2)
    mini.state.vars.oos_start = []
    mini.scenario.params["mud_turns"] = [2]
    assert movement_allowance(View(mini), uid) == ma


def test_19_9_the_mud_numbers_come_from_the_table(mini: Game) -> None:
    pos(mini, {"so-cav-1": "0905", "ge-1pz-1": "0904"}, turn=2)
    mini.state.vars.oos_start = []
    mini.scenario.params["mud_turns"] = [2]
    mini.scenario.tables["mud"] = {"cavalry_ma": 4, "ma_divisor": 3}
    view = View(mini)
    assert movement_allowance(view, "so-cav-1") == 4
    assert movement_allowance(view, "ge-1pz-1") == 3


def test_19_9_the_book_mud_numbers_apply_without_a_table(mini: Game) -> None:
    pos(mini, {"so-cav-1": "0905", "ge-1pz-1": "0904"}, turn=2)
    mini.state.vars.oos_start = []
    mini.scenario.params["mud_turns"] = [2]
    mini.scenario.tables.pop("mud", None)
    view = View(mini)
    assert movement_allowance(view, "so-cav-1") == 6
    assert movement_allowance(view, "ge-1pz-1") == 5


def test_19_9_no_mud_outside_the_mud_turns(mini: Game) -> None:
    pos(mini, {"so-cav-1": "0905"}, turn=2)
    mini.state.vars.oos_start = []
    mini.scenario.params["mud_turns"] = [3]
    assert movement_allowance(View(mini), "so-cav-1") == 8


def test_5_25_out_of_supply_at_the_start_halves_the_allowance(mini: Game) -> None:
    pos(mini, {"so-cav-1": "0905"}, turn=2)
    mini.state.vars.oos_start = ["so-cav-1"]
    assert movement_allowance(View(mini), "so-cav-1") == 4
