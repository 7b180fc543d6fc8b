"""Movement (5.0-5.3, 8.2, 10.13, 11.23, 19.9, 22.1) cases that mutation testing found
unpinned: what ``reachable`` offers and why it refuses each other hex, and the movement
allowance in mud and out of supply.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.movement import movement_allowance, reachable

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
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-1": "0804"}, player="german")  # 0704 is in its zone
    assert said(mini, ("ge-1pz-1",), "0703") == \
        refused("8.23", "the stack starts in an enemy zone of control at 0704")
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


# -- 22.2: relieving a unit bound by Stalin's Directive --------------------------------------

def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def under_directive(game: Game, placements: dict[str, str]) -> Game:
    pos(game, placements, turn=7)
    game.state.vars.directive = {7: True}
    game.touch()
    return game


def test_22_2_no_relief_without_the_directive(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"}, turn=7)
    mini.state.vars.directive = {7: False}
    assert refusal(mini, Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) == \
        "[22.2] relieving only matters while Stalin's Directive is in force"


def test_22_21_one_unit_relieves_one_unit(mini: Game) -> None:
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903", "so-tank-1": "0903"})
    assert refusal(mini, Move(("so-rifle-2", "so-tank-1"), ("0803", "0703"), relieve="so-rifle-1")) == \
        "[22.21] one unit relieves one other unit: move the relieving unit alone"


def test_22_23_the_hq_refusal_says_why(mini: Game) -> None:
    under_directive(mini, {"so-rifle-1": "0703", "so-hq-army": "0903"})
    assert refusal(mini, Move(("so-hq-army",), ("0803", "0703"), relieve="so-rifle-1")) == \
        "[22.23] an HQ cannot relieve another unit"


def test_22_2_the_relieved_unit_must_be_a_soviet_unit_where_the_move_ends(mini: Game) -> None:
    under_directive(mini, {"so-rifle-1": "0702", "so-rifle-2": "0903", "ge-inf-1": "0110"})
    move = Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")
    assert refusal(mini, move) == "[22.2] so-rifle-1 is not a Soviet unit in 0703"  # it is one hex away
    move = Move(("so-rifle-2",), ("0803", "0703"), relieve="nobody")
    assert refusal(mini, move) == "[22.2] nobody is not a Soviet unit in 0703"
    move = Move(("so-rifle-2",), ("0803", "0703"), relieve="ge-inf-1")
    assert refusal(mini, move) == "[22.2] ge-inf-1 is not a Soviet unit in 0703"


def test_22_2_a_move_along_the_hexrow_does_not_relieve(mini: Game) -> None:
    # From hexrow 07 to hexrow 07: not a higher-numbered hexrow than the relieved unit's.
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0704"})
    assert refusal(mini, Move(("so-rifle-2",), ("0703",), relieve="so-rifle-1")) == \
        "[22.2] the relieving unit must come from a higher-numbered hexrow than 07"
    assert mini.check(Move(("so-rifle-2",), ("0703",))) is None


def test_22_2_the_hexrow_the_reliever_began_the_phase_in_counts(mini: Game) -> None:
    # The reliever began the phase in hexrow 09 and stepped west to 0803; going on along hexrow
    # 08 to relieve a unit there still comes from hexrow 09.
    under_directive(mini, {"so-rifle-1": "0802", "so-rifle-2": "0903"})
    mini.apply(Move(("so-rifle-2",), ("0803",)))
    assert mini.check(Move(("so-rifle-2",), ("0802",), relieve="so-rifle-1")) is None


def test_22_21_a_unit_relieves_once_a_turn(mini: Game) -> None:
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"})
    mini.state.vars.relievers = ["so-rifle-2"]
    assert refusal(mini, Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) == \
        "[22.21] so-rifle-2 has already relieved a unit this turn"


def test_22_2_an_arrival_cannot_relieve_and_a_rider_may_not_walk_on_and_each_is_told_why(mini: Game) -> None:
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"})
    mini.state.vars.entered = ["so-rifle-2"]
    assert refusal(mini, Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) == (
        "[22.2] so-rifle-2 is a reinforcement arriving this turn: it comes from off the map, "
        "not from a higher hexrow, and cannot relieve")
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"})
    mini.state.vars.railed = ["so-rifle-2"]
    # Relief by rail is allowed (22.22), but a rider may not walk on afterwards (5.33).
    assert refusal(mini, Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) == \
        "[5.33] so-rifle-2 moved by rail this phase and cannot also move normally"


# -- check_move: every refusal of a normal move, with the words the player reads -------------

def test_5_1_the_units_must_be_named_once_on_the_map_in_one_hex(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-rifle-2": "0906", "so-hq-army": "0907"})
    assert refusal(mini, Move((), ("0904",))) == "[5.1] choose at least one unit to move"
    assert refusal(mini, Move(("so-rifle-1", "so-rifle-1"), ("0904",))) == "[5.1] a unit is listed twice"
    assert refusal(mini, Move(("so-rifle-1", "so-nobody"), ("0904",))) == "[5.1] there is no unit 'so-nobody'"
    assert refusal(mini, Move(("so-rifle-1", "so-rifle-3"), ("0904",))) == "[5.1] so-rifle-3 is not on the map"
    assert refusal(mini, Move(("so-rifle-1", "so-rifle-2"), ("0904",))) == \
        "[5.1] units moving together must start in the same hex"


def test_5_1_the_path_must_be_hex_ids_one_step_apart_on_the_map(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "1005", "so-hq-army": "0907"})
    assert refusal(mini, Move(("so-rifle-1",), ("zz",))) == \
        "[5.1] 'zz' is not a hex id (four digits CCRR, e.g. 0319)"
    assert refusal(mini, Move(("so-rifle-1",), ())) == "[5.1] the path is empty"
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[5.1] 0904 is not adjacent to 1005: a path goes hex by hex"
    assert refusal(mini, Move(("so-rifle-1",), ("0905", "0705"))) == \
        "[5.1] 0705 is not adjacent to 0905: a path goes hex by hex"
    assert refusal(mini, Move(("so-rifle-1",), ("1105",))) == "[5.1] 1105 is off the map"


def test_9_83_4_2_5_21_who_may_move_and_when(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-tank-1": "0906", "so-hq-army": "0907", "ge-inf-1": "0102"})
    assert refusal(mini, Move(("ge-inf-1",), ("0103",))) == \
        "[5.21] ge-inf-1 belongs to the german player, who is not moving now"
    mini.state.phase = "combat"
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[4.2] units move only in a movement phase, not the combat phase"
    mini.state.phase = "mechanized"
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[4.2] so-rifle-1 is not mechanized, cavalry or an HQ: it cannot move in the mechanized phase"
    assert mini.check(Move(("so-tank-1",), ("0806",))) is None
    assert mini.check(Move(("so-hq-army",), ("0807",))) is None


def test_5_22_8_21_8_23_enemy_units_and_zones_on_the_path(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "ge-inf-1": "0903", "so-hq-army": "0907"})
    assert refusal(mini, Move(("so-rifle-1",), ("0904", "0903"))) == \
        "[5.22] 0903 holds enemy units: only an overrun may go there (6.0)"
    assert refusal(mini, Move(("so-rifle-1",), ("0904", "0804"))) == \
        "[8.21] the stack entered an enemy zone of control at 0904 and must stop there"
    assert mini.check(Move(("so-rifle-1",), ("0904",))) is None
    pos(mini, {"so-rifle-1": "0904", "ge-inf-1": "0903", "so-hq-army": "0907"})
    assert refusal(mini, Move(("so-rifle-1",), ("0905",))) == \
        "[8.23] the stack starts in an enemy zone of control at 0904 and may not leave it"


def test_6_24_8_23_only_a_stack_that_all_overran_may_leave_the_zone(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-1": "0804"}, player="german")
    mini.state.vars.overran = ["ge-1pz-1"]
    assert mini.check(Move(("ge-1pz-1",), ("0703",))) is None
    assert refusal(mini, Move(("ge-1pz-1", "ge-1pz-2"), ("0703",))) == \
        "[8.23] the stack starts in an enemy zone of control at 0704 and may not leave it"


def test_10_13_the_move_refusal_across_a_guarded_major_river(mini: Game) -> None:
    pos(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605", "so-rifle-2": "0602"}, player="german")
    assert refusal(mini, Move(("ge-inf-1",), ("0604",))) == \
        "[10.13] cannot cross the major river into 0604: an enemy unit on the river bank controls it and no friendly unit is there"


def test_11_23_an_hq_enters_an_enemy_zone_only_beside_a_friendly_combat_unit(mini: Game) -> None:
    pos(mini, {"so-hq-army": "0806", "ge-inf-1": "0803"})
    assert refusal(mini, Move(("so-hq-army",), ("0805", "0804"))) == \
        "[11.23] an HQ or leader may enter the enemy zone at 0804 only where a friendly combat unit is"
    assert mini.check(Move(("so-hq-army",), ("0805",))) is None
    pos(mini, {"so-hq-army": "0806", "so-rifle-1": "0806", "ge-inf-1": "0803"})
    assert mini.check(Move(("so-hq-army", "so-rifle-1"), ("0805", "0804"))) is None  # with a combat unit
    pos(mini, {"so-hq-army": "0806", "so-rifle-1": "0804", "ge-inf-1": "0803"})
    assert mini.check(Move(("so-hq-army",), ("0805", "0804"))) is None  # to a combat unit already there


def test_22_1_22_25_the_directive_refusals_name_the_bound_units_and_the_hexrow(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0802", "so-hq-army": "0702"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert refusal(mini, Move(("so-rifle-1",), ("0902",))) == \
        "[22.1] Stalin's Directive: so-rifle-1 may not move east into hexrow 09 except along a road"
    assert mini.check(Move(("so-hq-army",), ("0802", "0902"))) is None  # 22.1: HQs are free
    pos(mini, {"so-rifle-1": "0805", "so-hq-army": "0806"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert refusal(mini, Move(("so-rifle-1",), ("0905",))) == \
        "[22.25] Stalin's Directive: so-rifle-1 must end in hexrow 08 or lower"
    assert mini.check(Move(("so-rifle-1",), ("0905", "0904", "0804"))) is None


def test_5_11_each_unit_of_a_stack_pays_its_own_costs(mini: Game) -> None:
    # Along the road from 0905: the tank pays half a point a hex (10.23), the rifle the terrain:
    # 1 + 1 + 1 + (city 1 + major river 2) = 6 to Testgrad 0505, exactly its allowance.
    pos(mini, {"so-rifle-1": "0905", "so-tank-1": "0905", "so-hq-army": "0907"})
    road = ("0805", "0705", "0605", "0505")
    assert mini.check(Move(("so-tank-1", "so-rifle-1"), road)) is None
    assert refusal(mini, Move(("so-tank-1", "so-rifle-1"), road + ("0405",))) == \
        "[5.11] so-rifle-1 needs 7 MP but has a movement allowance of 6 this phase"


def test_5_11_points_spent_earlier_in_the_move_count(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.mp = {"so-rifle-1": 5.0}
    mini.state.vars.moved = ["so-rifle-1"]
    mini.state.vars.active = ["so-rifle-1"]
    assert mini.check(Move(("so-rifle-1",), ("0904",))) is None
    assert refusal(mini, Move(("so-rifle-1",), ("0904", "0804"))) == \
        "[5.11] so-rifle-1 needs 7 MP but has a movement allowance of 6 this phase"


def test_5_14_one_hex_always_but_only_for_a_unit_that_spent_nothing(mini: Game) -> None:
    # Mud and no supply at the start leave ge-1pz-2 an allowance of 2; woods over the minor
    # river costs it 4.
    pos(mini, {"ge-1pz-2": "0203"}, player="german")
    mini.scenario.params["mud_turns"] = [2]
    mini.state.vars.oos_start = ["ge-1pz-2"]
    assert mini.check(Move(("ge-1pz-2",), ("0303",))) is None
    assert refusal(mini, Move(("ge-1pz-2",), ("0303", "0304"))) == \
        "[5.11] ge-1pz-2 needs 5 MP but has a movement allowance of 2 this phase"
    mini.state.vars.mp = {"ge-1pz-2": 0.5}
    mini.state.vars.moved = ["ge-1pz-2"]
    mini.state.vars.active = ["ge-1pz-2"]
    assert refusal(mini, Move(("ge-1pz-2",), ("0303",))) == \
        "[5.11] ge-1pz-2 needs 4.5 MP but has a movement allowance of 2 this phase"


def test_5_0_5_33_8_21_what_the_unit_already_did_bars_a_new_move(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.moved = ["so-rifle-1"]
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[5.0] so-rifle-1 already finished its move this phase (another stack has moved since)"
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.stopped = ["so-rifle-1"]
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[8.21] so-rifle-1 has stopped for this phase and cannot move again"
    mini.state.vars.stop_case = {"so-rifle-1": "6.23"}
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[6.23] so-rifle-1 has stopped for this phase and cannot move again"
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907"})
    mini.state.vars.railed = ["so-rifle-1"]
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[5.33] so-rifle-1 moved by rail this phase and cannot also move normally"


def test_5_33_a_unit_that_came_on_by_rail_and_rode_on_has_moved_by_rail(mini: Game) -> None:
    # It arrived by rail (23.0) and went on by rail: its movement is spent, not only its walk.
    pos(mini, {"so-rifle-1": "0907", "so-hq-army": "0906"})
    mini.state.vars.rail_entry = ["so-rifle-1"]
    mini.state.vars.railed = ["so-rifle-1"]
    assert refusal(mini, Move(("so-rifle-1",), ("0807",))) == \
        "[5.33] so-rifle-1 moved by rail this phase and cannot also move normally"


# -- reachable: the search itself ------------------------------------------------------------

def test_5_11_10_23_a_mixed_stack_moves_at_its_slowest_units_pace(mini: Game) -> None:
    # Tank (MA 8, half a point a road hex) and rifle (MA 6, the terrain): the stack pays the
    # rifle's costs and has the rifle's 6 points.
    pos(mini, {"so-rifle-1": "0905", "so-tank-1": "0905", "so-hq-army": "0907"})
    stack = ("so-tank-1", "so-rifle-1")
    assert said(mini, stack, "0705") == (2.0, ("0805", "0705"), "", "")
    r = mini.reachable(stack)[H("0505")]
    assert (r.cost, r.case) == (6.0, "") and mini.check(Move(stack, r.path)) is None  # two equal ways
    assert said(mini, stack, "0405") == refused("5.11", "needs 7 MP, only 6 left")
    assert said(mini, ("so-tank-1",), "0405") == (2.5, ("0805", "0705", "0605", "0505", "0405"), "", "")


def test_10_16_a_lake_hex_is_refused_with_its_reason(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0908", "so-hq-army": "0907"})
    assert said(mini, ("so-rifle-1",), "0909") == refused("10.16", "0909 cannot be entered: all-lake hex or hexside")


def test_10_13_a_friendly_unit_on_the_far_bank_opens_the_crossing(mini: Game) -> None:
    # 0604 is in the zone of the Soviet unit on the bank at 0605, but a German unit stands in
    # it: the German may cross the major river to join it (3 for the river, 1 the hex).
    pos(mini, {"ge-inf-1": "0504", "ge-inf-2": "0604", "so-rifle-1": "0605", "so-rifle-2": "0602"},
        player="german")
    assert said(mini, ("ge-inf-1",), "0604") == (4.0, ("0604",), "", "")


def test_11_23_an_hq_may_join_a_combat_unit_in_an_enemy_zone_but_not_another_hq(mini: Game) -> None:
    pos(mini, {"so-hq-army": "0806", "so-hq-agsw": "0804", "ge-inf-1": "0803"})
    assert said(mini, ("so-hq-army",), "0804") == refused("11.23", "an HQ alone may not enter an enemy zone")
    pos(mini, {"so-hq-army": "0806", "so-rifle-1": "0804", "ge-inf-1": "0803"})
    assert said(mini, ("so-hq-army",), "0804") == (2.0, ("0805", "0804"), "", "")
    pos(mini, {"so-hq-army": "0806", "so-rifle-1": "0806", "ge-inf-1": "0803"})
    assert said(mini, ("so-hq-army", "so-rifle-1"), "0804") == (2.0, ("0805", "0804"), "", "")


def test_5_0_the_last_unit_held_back_speaks_for_the_stack(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0905", "so-rifle-2": "0905", "so-hq-army": "0907"})
    mini.state.vars.stopped = ["so-rifle-1"]
    assert said(mini, ("so-rifle-1", "so-rifle-2"), "0904") == refused("8.21", "so-rifle-1 has stopped for this phase")
    mini.state.vars.moved = ["so-rifle-2"]
    assert said(mini, ("so-rifle-1", "so-rifle-2"), "0904") == \
        refused("5.0", "so-rifle-2 already finished its move this phase")
    assert H("0905") not in mini.reachable(("so-rifle-1", "so-rifle-2"))  # the start hex is not listed


def test_5_1_without_explanations_only_the_reachable_hexes_are_listed(mini: Game) -> None:
    # Mud and no supply: MA 1 for the rifle, so one hex on each side.
    pos(mini, {"so-rifle-1": "0905", "ge-inf-1": "0903", "so-hq-army": "0907"})
    mini.scenario.params["mud_turns"] = [2]
    mini.state.vars.oos_start = ["so-rifle-1"]
    reach = reachable(View(mini), ("so-rifle-1",), explain=False)
    assert {str(h): (r.cost, r.path) for h, r in reach.items()} == {
        "0904": (1.0, ("0904",)), "0906": (1.0, ("0906",)), "0804": (1.0, ("0804",)),
        "0805": (1.0, ("0805",)), "1004": (1.0, ("1004",)), "1005": (1.0, ("1005",))}
    assert len(reachable(View(mini), ("so-rifle-1",))) == 99


def test_22_1_the_directive_lets_a_unit_go_east_by_road_but_not_end_there(mini: Game) -> None:
    # From 0905 the road goes on east to 1005 (22.1 allows it, 22.25 refuses the end there);
    # 1004 lies east off the road.  Mud and no supply leave the rifle one hex (MA 1).
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0906"}, turn=7)
    mini.scenario.params["mud_turns"] = [7]
    mini.state.vars.oos_start = ["so-rifle-1"]
    mini.state.vars.directive = {7: True}
    mini.touch()
    assert said(mini, ("so-rifle-1",), "1005") == \
        refused("22.25", "Stalin's Directive: the move must end in this hexrow or a lower one")
    assert said(mini, ("so-rifle-1",), "1004") == refused("22.1", "Stalin's Directive forbids moving east here")
    assert said(mini, ("so-rifle-1",), "0904") == (1.0, ("0904",), "", "")


def test_5_14_a_stack_is_fresh_only_if_no_unit_of_it_has_spent_points(mini: Game) -> None:
    # so-rifle-1 has half a point left, so-rifle-2 all six: the stack has half a point, and the
    # one-hex allowance of 5.14 does not apply because one of its units has moved.
    pos(mini, {"so-rifle-1": "0905", "so-rifle-2": "0905", "so-hq-army": "0907"})
    mini.state.vars.mp = {"so-rifle-1": 5.5}
    mini.state.vars.moved = ["so-rifle-1"]
    mini.state.vars.active = ["so-rifle-1"]
    stack = ("so-rifle-1", "so-rifle-2")
    assert said(mini, stack, "0904") == refused("5.11", "needs 1 MP, only 0.5 left")
    assert refusal(mini, Move(stack, ("0904",))) == \
        "[5.11] so-rifle-1 needs 6.5 MP but has a movement allowance of 6 this phase"


def test_6_24_an_overrunner_leaving_the_zone_moves_on_freely(mini: Game) -> None:
    # Out of the zone it started in (the overrun's hex), the stack goes on hex by hex.
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-1": "0804"}, player="german")
    mini.state.vars.overran = ["ge-1pz-1"]
    assert mini.check(Move(("ge-1pz-1",), ("0703", "0702"))) is None


def test_10_13_crossing_into_an_unguarded_hex_then_into_the_guarded_one(mini: Game) -> None:
    # 0604 is guarded from across the river only: entered from 0603, on its own bank, it is open.
    pos(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605"}, player="german")
    assert mini.check(Move(("ge-inf-1",), ("0603", "0604"))) is None


def test_22_1_a_move_along_the_hexrow_off_the_road_is_allowed(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0802", "so-hq-army": "0702"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert mini.check(Move(("so-rifle-1",), ("0803", "0804"))) is None


def test_22_1_a_unit_that_began_the_phase_west_of_the_line_stays_free(mini: Game) -> None:
    # 22.1: it began the phase west of the Seim-Desna-Dnieper line, so it may go on east after
    # crossing it, and end further east than where this leg began.
    pos(mini, {"so-rifle-1": "0405", "so-hq-army": "0406"}, turn=7)
    mini.state.vars.directive = {7: True}
    mini.apply(Move(("so-rifle-1",), ("0505", "0605")))
    assert mini.check(Move(("so-rifle-1",), ("0705",))) is None
    assert said(mini, ("so-rifle-1",), "0705") == (1.0, ("0705",), "", "")


def test_5_22_a_german_stack_may_not_walk_into_soviet_units(mini: Game) -> None:
    pos(mini, {"ge-inf-1": "0702", "so-rifle-1": "0704"}, player="german")
    assert refusal(mini, Move(("ge-inf-1",), ("0703", "0704"))) == \
        "[5.22] 0704 holds enemy units: only an overrun may go there (6.0)"
    assert said(mini, ("ge-inf-1",), "0704") == refused("5.22", "enemy units are there (only an overrun may enter)")


def test_5_11_one_point_of_movement_reaches_the_ring_around_the_stack(mini: Game) -> None:
    # Mud and no supply leave the rifle 1 MP; around 0903 every hex is clear ground.  The ring
    # one hex out costs 1; each hex of the second ring says it needs 2 of the 1 left; beyond
    # that the search never looked.
    pos(mini, {"so-rifle-1": "0903"})
    mini.scenario.params["mud_turns"] = [2]
    mini.state.vars.oos_start = ["so-rifle-1"]
    start = H("0903")
    reach = mini.reachable(("so-rifle-1",))
    far = refused("5.11", "beyond the stack's movement allowance or cut off by zones of control")
    for h, r in reach.items():
        got = (r.cost, r.path, r.case, r.why)
        d = start.distance(h)
        if d == 1:
            assert got == (1.0, (str(h),), "", ""), h
        elif d == 2:
            assert got == refused("5.11", "needs 2 MP, only 1 left"), h
        else:
            assert got == far, h
    assert len(reach) == 99


def test_5_11_10_4_a_cheaper_road_path_found_later_replaces_a_dearer_one(mini: Game) -> None:
    # From 0102 the tank first reaches 0205 across open ground (4 MP); the road from 0105 is
    # found later and costs 3.5: the search must keep the cheaper one, even half an MP cheaper.
    position(mini, {"so-tank-1": "0102"}, turn=2, reinforcements=False)
    r = reachable(View(mini), ("so-tank-1",))[H("0205")]
    assert (r.cost, r.path) == (3.5, ("0103", "0104", "0105", "0205"))


def test_10_4_a_refused_step_does_not_end_the_search_of_the_other_neighbours(mini: Game) -> None:
    # 0609 lies across the major river from 0509 (1 + 2 for a Soviet crossing, then 1 for the hex).
    position(mini, {"so-tank-1": "0408"}, turn=2, reinforcements=False)
    r = reachable(View(mini), ("so-tank-1",))[H("0609")]
    assert (r.cost, r.path) == (4.0, ("0509", "0609"))


def test_11_23_a_zone_an_hq_may_not_enter_does_not_close_the_other_ways(mini: Game) -> None:
    # The HQ at 0303 may not step into the German zone round 0505, but the hexes beyond its
    # other neighbours stay open at their own cost.
    position(mini, {"so-hq-army": "0303", "ge-inf-1": "0505"}, turn=2, reinforcements=False)
    reach = reachable(View(mini), ("so-hq-army",))
    assert (reach[H("0404")].case, reach[H("0404")].why) == ("11.23", "an HQ alone may not enter an enemy zone")
    assert (reach[H("0105")].cost, reach[H("0105")].path) == (3.0, ("0304", "0204", "0105"))


def test_11_21_an_hq_on_the_road_waits_for_the_infantry_it_moves_with(mini: Game) -> None:
    # Alone, the HQ runs the road at half an MP a hex (11.21); stacked with a rifle division
    # listed first, the stack pays the rifle's full hex cost.
    position(mini, {"so-rifle-1": "0205", "so-hq-army": "0205"}, turn=2, reinforcements=False)
    assert reachable(View(mini), ("so-hq-army",))[H("0305")].cost == 0.5
    stack = reachable(View(mini), ("so-rifle-1", "so-hq-army"))
    assert [(stack[H(h)].cost, stack[H(h)].path) for h in ("0305", "0405")] == \
        [(1.0, ("0305",)), (2.0, ("0305", "0405"))]


def test_9_83_no_move_while_an_overrun_result_waits(mini: Game) -> None:
    # An overrun in the movement phase can leave a retreat choice for the mover; no other move
    # may start until it is settled, and the map offers no hex meanwhile.
    pos(mini, {"so-rifle-1": "0905", "so-hq-army": "0907", "ge-inf-1": "0102"})
    mini.state.pending = {"kind": "retreat", "side": "soviet", "units": ["so-rifle-1"]}
    assert refusal(mini, Move(("so-rifle-1",), ("0904",))) == \
        "[9.83] a combat result is waiting to be settled first"
    assert said(mini, ("so-rifle-1",), "0904") == refused("9.83", "a combat result is waiting to be settled first")


def test_22_1_22_25_the_directive_refusals_name_every_bound_unit_of_the_stack(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0802", "so-rifle-2": "0802", "so-hq-army": "0702"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert refusal(mini, Move(("so-rifle-1", "so-rifle-2"), ("0902",))) == \
        "[22.1] Stalin's Directive: so-rifle-1, so-rifle-2 may not move east into hexrow 09 except along a road"
    pos(mini, {"so-rifle-1": "0805", "so-rifle-2": "0805", "so-hq-army": "0806"}, turn=7)
    mini.state.vars.directive = {7: True}
    assert refusal(mini, Move(("so-rifle-1", "so-rifle-2"), ("0905",))) == \
        "[22.25] Stalin's Directive: so-rifle-1, so-rifle-2 must end in hexrow 08 or lower"


def test_22_2_without_a_recorded_start_hex_the_move_s_first_hex_counts(mini: Game) -> None:
    # A save that predates the table of phase-start hexes loads with none; the reliever's own
    # start hex then decides which hexrow it came from.
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903", "so-rifle-3": "0704"})
    mini.state.vars.start_hex = {}
    assert mini.check(Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) is None
    assert refusal(mini, Move(("so-rifle-3",), ("0703",), relieve="so-rifle-1")) == \
        "[22.2] the relieving unit must come from a higher-numbered hexrow than 07"


def test_a_move_checked_without_a_relief_named_relieves_nobody(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.movement import check_move
    under_directive(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903"})
    assert check_move(View(mini), ("so-rifle-2",), ("0803", "0703")) is None
