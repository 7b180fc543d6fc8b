"""Phase bookkeeping in system.py (5.3 rail moves, 7.0 removals) that mutation testing found
unpinned."""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.events import Eliminated, Railed

from tests.conftest import position


def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def overstacked(game: Game, **kw: object) -> Game:
    return position(game, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                           "so-rifle-4": "0904", "ge-inf-1": "0203"}, turn=2, reinforcements=False, **kw)


def test_7_0_removing_an_excess_unit_eliminates_it_citing_7_0(mini: Game) -> None:
    overstacked(mini)
    mini.apply(RemoveExcess("so-rifle-4"))
    u = mini.state.units["so-rifle-4"]
    assert (u.status, u.hex) == ("eliminated", None)
    last = [e for e in mini.journal if isinstance(e, Eliminated)][-1]
    assert (last.unit, last.case, last.reason) == ("so-rifle-4", "7.0", "removed from an overstacked hex")


def test_7_0_removal_refusals_cite_7_0(mini: Game) -> None:
    overstacked(mini)
    assert refusal(mini, RemoveExcess("nope")) == "[7.0] nope is not on the map"
    assert refusal(mini, RemoveExcess("so-cav-1")) == "[7.0] so-cav-1 is not on the map"
    assert refusal(mini, RemoveExcess("ge-inf-1")) == \
        "[7.0] only the owner removes excess units, at the end of his own movement phase"
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904"}, turn=2, reinforcements=False)
    assert refusal(mini, RemoveExcess("so-rifle-1")) == "[7.0] so-rifle-1's hex is within the stacking limit"


def test_7_0_no_removal_in_the_combat_phase(mini: Game) -> None:
    overstacked(mini, phase="combat")
    assert refusal(mini, RemoveExcess("so-rifle-4")) == \
        "[7.0] overstacking is settled at the end of a movement phase"


def test_7_0_no_removal_while_a_combat_result_waits(mini: Game) -> None:
    overstacked(mini)
    mini.state.pending = {"kind": "retreat"}
    assert refusal(mini, RemoveExcess("so-rifle-4")) == "[9.6] settle the pending combat result first"


def test_5_33_a_rail_move_ends_the_units_move_and_counts_against_capacity(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-hq-army": "1007"}, turn=2, reinforcements=False)
    mini.state.vars.rail_used = 0
    mini.apply(RailMove(("so-rifle-1", "so-hq-army"), ("0907", "0807")))
    v = mini.state.vars
    assert v.rail_used == 1  # 11.21: the HQ rides free
    assert mini.state.units["so-rifle-1"].hex == "0807" and mini.state.units["so-hq-army"].hex == "0807"
    for key in ("railed", "moved", "stopped"):
        assert set(getattr(v, key)) >= {"so-rifle-1", "so-hq-army"}, key
    assert v.stop_case["so-rifle-1"] == "5.33" and v.stop_case["so-hq-army"] == "5.33"
    assert v.active == []
    ev = [e for e in mini.journal if isinstance(e, Railed)][-1]
    assert (ev.units, ev.path) == (("so-rifle-1", "so-hq-army"), ("0907", "0807"))


def test_23_1_a_reinforcement_going_on_by_rail_is_counted_once(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    mini.state.vars.rail_used = 3
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert mini.state.vars.rail_used == 4
    mini.apply(RailMove(("so-t01-rifle-1",), ("0907", "0807")))
    assert mini.state.vars.rail_used == 4
    assert mini.state.units["so-t01-rifle-1"].hex == "0807"


# -- what the phase object reports (4.2: what must happen before the phase may end) -----------

def test_23_0_7_0_the_phase_lists_reinforcements_due_and_overstacks(mini: Game) -> None:
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.game import Phase
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904", "so-rifle-4": "0904",
                    "so-hq-army": "0905"}, turn=1)
    assert mini.phase == Phase(1, "first", "movement", "soviet", "soviet", ("movement", "combat"), (
        "bring on 2 reinforcement(s): so-t01-rifle-1, so-t01-rifle-2 (23.0)",
        "0904 holds 4 combat units (limit 3): remove the excess (7.0)"), "", False)
    assert refusal(mini, EndPhase()) == \
        "[23.0] reinforcements may not be held back: so-t01-rifle-1, so-t01-rifle-2 must enter first"


def test_9_6_a_pending_result_comes_first_and_names_who_answers(mini: Game) -> None:
    from kiev_tui.engine.actions import EndPhase
    position(mini, {"so-rifle-1": "0904", "so-hq-army": "0905"}, turn=2, reinforcements=False)
    mini.state.pending = {"side": "german", "prompt": "german player: lose 1 step"}
    mini.touch()
    ph = mini.phase
    assert (ph.todo, ph.pending) == (("german player: lose 1 step",), "german")
    assert refusal(mini, EndPhase()) == "[9.6] german player: lose 1 step"
    mini.state.pending = {"kind": "x"}
    mini.touch()
    ph = mini.phase
    assert (ph.todo, ph.pending) == (("settle the pending combat result",), "")
    assert refusal(mini, EndPhase()) == "[9.6] a combat result must be settled first"


# -- 4.2 as changed by 19.1: the order of phases, player-turns and game-turns ----------------

def end(game: Game) -> list[object]:
    from kiev_tui.engine.actions import EndPhase
    return list(game.apply(EndPhase()))


def where(game: Game) -> tuple[int, str, str]:
    st = game.state
    return (st.turn, st.player, st.phase)


def test_19_1_a_game_turn_is_the_soviet_player_turn_then_the_german_one(mini: Game) -> None:
    from kiev_tui.engine.events import GameOver, PhaseBegan, PhaseEnded, PlayerChanged
    from kiev_tui.engine.game import Phase
    from kiev_tui.games.spi_kiev.events import SupplyChecked

    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, turn=1, reinforcements=False)
    # 19.13: no Soviet mechanized phase; 19.14: no air phase for either side
    assert mini.phase.phases == ("movement", "combat")
    assert end(mini) == [PhaseEnded(1, "soviet", "movement"), PhaseBegan(1, "soviet", "combat")]
    assert end(mini) == [PhaseEnded(1, "soviet", "combat"), PlayerChanged("german"),
                         SupplyChecked("german", ()), PhaseBegan(1, "german", "movement")]
    assert mini.phase.phases == ("movement", "combat", "mechanized")
    assert end(mini) == [PhaseEnded(1, "german", "movement"), PhaseBegan(1, "german", "combat")]
    # 12.21: supply is checked again as the mechanized phase begins
    assert end(mini) == [PhaseEnded(1, "german", "combat"), SupplyChecked("german", ()),
                         PhaseBegan(1, "german", "mechanized")]
    # 4.2 C: the turn marker moves on and the Soviet player begins the next game-turn
    assert end(mini) == [PhaseEnded(1, "german", "mechanized"), PlayerChanged("soviet"),
                         SupplyChecked("soviet", ("so-rifle-1",)), PhaseBegan(2, "soviet", "movement")]
    seen = [where(mini)]
    while where(mini) != (3, "german", "mechanized"):
        end(mini)
        seen.append(where(mini))
    assert seen == [(2, "soviet", "movement"), (2, "soviet", "combat"), (2, "german", "movement"),
                    (2, "german", "combat"), (2, "german", "mechanized"), (3, "soviet", "movement"),
                    (3, "soviet", "combat"), (3, "german", "movement"), (3, "german", "combat"),
                    (3, "german", "mechanized")]
    assert mini.state.over is False
    # the fixture has 3 game-turns: the last phase of turn 3 ends the game (24.0)
    assert end(mini) == [PhaseEnded(3, "german", "mechanized"), GameOver(
        "soviet", "German 11 VP, Soviet 30 VP; the German needed a lead of 30 and has -19.")]
    assert (mini.state.over, where(mini)) == (True, (3, "german", "mechanized"))
    assert mini.phase == Phase(3, "second", "mechanized", "german", "german", ("movement", "combat", "mechanized"), (), "", True)
    assert mini.state.vars.final_score == {
        "german": 11, "soviet": 30, "margin": 30, "winner": "soviet",
        "lines": [{"side": "german", "what": "holds Westburg (0202, city)", "points": 10},
                  {"side": "soviet", "what": "holds Testgrad (0505, city)", "points": 25},
                  {"side": "soviet", "what": "holds Eastville (0805, town)", "points": 5},
                  {"side": "german", "what": "out of supply at the end: 101", "points": 1}]}


def test_19_9_no_german_mechanized_phase_on_a_mud_turn(mini: Game) -> None:
    mini.scenario.params["mud_turns"] = [2]
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, player="german", phase="combat", turn=2,
             reinforcements=False)
    assert mini.phase.phases == ("movement", "combat")
    end(mini)
    assert where(mini) == (3, "soviet", "movement")
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, player="german", phase="combat", turn=1,
             reinforcements=False)
    assert mini.phase.phases == ("movement", "combat", "mechanized")
    end(mini)
    assert where(mini) == (1, "german", "mechanized")


def test_19_9_without_mud_turns_listed_every_german_turn_has_its_mechanized_phase(mini: Game) -> None:
    mini.scenario.params.pop("mud_turns", None)
    position(mini, {"ge-inf-1": "0101"}, player="german", phase="combat", turn=2, reinforcements=False)
    assert mini.phase.phases == ("movement", "combat", "mechanized")


def test_19_3_22_2_15_0_what_each_new_phase_forgets(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, turn=1, reinforcements=False)
    v = mini.state.vars
    v.rail_used, v.relieved, v.relievers, v.entered = 3, ["so-rifle-1"], ["so-rifle-2"], ["so-rifle-2"]
    end(mini)  # into the Soviet combat phase: nothing of the turn or player-turn is forgotten
    assert (v.rail_used, list(v.relieved), list(v.relievers), list(v.entered)) == \
        (3, ["so-rifle-1"], ["so-rifle-2"], ["so-rifle-2"])
    end(mini)  # the German player-turn: 15.0 arrivals are in supply only for their own player-turn
    assert (v.rail_used, list(v.relieved), list(v.relievers), list(v.entered)) == \
        (3, ["so-rifle-1"], ["so-rifle-2"], [])
    end(mini)
    end(mini)
    end(mini)  # a new game-turn: 19.3 rail capacity and 22.2 reliefs start afresh
    assert (v.rail_used, list(v.relieved), list(v.relievers), list(v.entered)) == (0, [], [], [])


def test_12_21_the_phase_records_where_own_units_began_and_who_was_out_of_supply(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, player="german", phase="mechanized",
             reinforcements=False)
    v = mini.state.vars
    assert (v.start_hex, v.oos_start) == ({"ge-inf-1": "0101"}, [])
    v.attacked = ["ge-inf-1"]
    end(mini)
    assert where(mini) == (2, "soviet", "movement")
    assert (v.start_hex, v.oos_start, list(v.attacked)) == ({"so-rifle-1": "0902"}, ["so-rifle-1"], [])
    end(mini)
    # the combat phase keeps no supply record of its own
    assert (v.start_hex, v.oos_start) == ({"so-rifle-1": "0902"}, ["so-rifle-1"])


def test_23_0_the_phase_that_brings_reinforcements_names_them(mini: Game) -> None:
    from kiev_tui.engine.events import Note, PhaseBegan, PhaseEnded, PlayerChanged
    from kiev_tui.games.spi_kiev.events import SupplyChecked

    assert mini.journal == [SupplyChecked("soviet", ()), PhaseBegan(1, "soviet", "movement"),
                            Note("Reinforcements due for the soviet player: so-t01-rifle-1, so-t01-rifle-2")]
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, phase="combat", turn=2)
    assert end(mini) == [PhaseEnded(2, "soviet", "combat"), PlayerChanged("german"), SupplyChecked("german", ()),
                         PhaseBegan(2, "german", "movement"),
                         Note("Reinforcements due for the german player: ge-inf-3")]


def test_22_0_each_new_game_turn_decides_stalins_directive(mini: Game) -> None:
    from kiev_tui.engine.events import Note

    mini.scenario.tables["stalins_directive"] = {"automatic_turns": [2]}
    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, player="german", phase="mechanized",
             reinforcements=False)
    events = end(mini)
    assert [e for e in events if isinstance(e, Note)] == [Note("Stalin's Directive is in force on turn 2 (22.0).")]
    assert mini.state.vars.directive == {2: True}


# -- set-up (24.0 control, 19.24 rpl counters, 22.0 on turn 1) -------------------------------

def fresh(**params: object) -> Any:
    """The fixture scenario, loaded anew so that a test may change it before the set-up."""
    from kiev_tui.engine.scenario import load_scenario
    from tests.conftest import MINI

    sc = load_scenario(MINI)
    sc.params.update(params)
    return sc


def test_24_0_the_set_up_gives_listed_cities_to_the_german_and_the_rest_to_the_soviet() -> None:
    from tests.conftest import MINI

    g = Game.new(MINI, seed=7)
    assert g.state.control == {"0202": "german", "0505": "soviet", "0805": "soviet"}
    assert (g.state.turn, g.state.player, g.state.phase, g.state.over) == (1, "soviet", "movement", False)
    placed = {u: (s.status, s.hex) for u, s in g.state.units.items() if s.status == "map"}
    assert placed == {u: ("map", h) for u, h in {
        "ge-inf-1": "0203", "ge-inf-2": "0206", "ge-1pz-1": "0108", "ge-1pz-2": "0108", "ge-1pz-3": "0108",
        "ge-leader": "0108", "so-rifle-1": "0705", "so-rifle-2": "0703", "so-rifle-3": "0805",
        "so-rifle-4": "0804", "so-tank-1": "0907", "so-cav-1": "0906", "so-hq-army": "0905",
        "so-hq-agsw": "1003"}.items()}
    assert g.state.units["ge-inf-3"].hex is None and g.state.units["ge-inf-3"].status != "map"
    assert g.state.vars.rpl_left == 1  # the scenario's rpl_counters


def test_24_0_a_scenario_listing_only_soviet_holdings_gives_the_german_the_rest() -> None:
    from kiev_tui.engine.hexes import H

    sc = fresh()
    sc.control = {"soviet": [H("0805")]}
    g = Game(sc, seed=7)
    assert g.state.control == {"0202": "german", "0505": "german", "0805": "soviet"}
    sc = fresh()
    sc.control = {"german": [H("0505")], "soviet": [H("0805")]}
    g = Game(sc, seed=7)
    assert g.state.control == {"0202": "soviet", "0505": "german", "0805": "soviet"}


def test_19_24_rpl_counters_come_from_the_scenario_or_else_the_replacement_counters() -> None:
    sc = fresh(rpl_counters=5)
    assert Game(sc, seed=7).state.vars.rpl_left == 5
    sc = fresh()
    sc.params.pop("rpl_counters")
    assert Game(sc, seed=7).state.vars.rpl_left == 1  # the fixture's one ge-rpl-1


def test_22_0_the_set_up_decides_the_directive_for_turn_1() -> None:
    from kiev_tui.engine.events import Note

    sc = fresh()
    sc.tables["stalins_directive"] = {"automatic_turns": [1]}
    g = Game(sc, seed=7)
    assert g.state.vars.directive == {1: True}
    assert g.journal[0] == Note("Stalin's Directive is in force on turn 1 (22.0).")


# -- moves: what a move records (5.0, 6.13, 8.21, 24.0) ----------------------------------------

def test_5_0_a_move_spends_each_units_own_cost_and_the_stack_pays_the_slowest(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Move
    from kiev_tui.games.spi_kiev.events import ControlChanged, Moved

    position(mini, {"ge-1pz-1": "0105", "ge-inf-1": "0105", "ge-1pz-2": "0101", "so-rifle-3": "0507"},
             player="german", turn=2, reinforcements=False)
    v = mini.state.vars
    v.overran = ["ge-1pz-1", "ge-1pz-2"]
    # 10.4: the road halves the panzer's cost only
    assert mini.apply(Move(("ge-1pz-1", "ge-inf-1"), ("0205", "0305"))) == [
        Moved(("ge-1pz-1", "ge-inf-1"), ("0205", "0305"), 2.0, False, "0105")]
    assert (dict(v.mp), dict(v.sig), list(v.active), v.move_no) == (
        {"ge-1pz-1": 1.0, "ge-inf-1": 2.0}, {"ge-1pz-1": [1], "ge-inf-1": [1]}, ["ge-1pz-1", "ge-inf-1"], 1)
    assert list(v.overran) == ["ge-1pz-2"]  # 6.24: a move uses up the freedom an overrun gave
    assert [mini.state.units[u].hex for u in ("ge-1pz-1", "ge-inf-1")] == ["0305", "0305"]
    # the panzer goes on alone (5.0: the stack in hand may split), through Testgrad (24.0),
    # and stops in the Soviet zone (8.21)
    assert mini.apply(Move(("ge-1pz-1",), ("0405", "0505", "0506"))) == [
        ControlChanged("0505", "german", "Testgrad"), Moved(("ge-1pz-1",), ("0405", "0505", "0506"), 2.0, True, "0305")]
    assert (dict(v.mp), dict(v.sig), list(v.active), v.move_no) == (
        {"ge-1pz-1": 3.0, "ge-inf-1": 2.0}, {"ge-1pz-1": [1, 2], "ge-inf-1": [1]}, ["ge-1pz-1", "ge-inf-1"], 2)
    assert (list(v.moved), list(v.stopped), dict(v.stop_case)) == (
        ["ge-1pz-1", "ge-inf-1"], ["ge-1pz-1"], {"ge-1pz-1": "8.21"})
    assert mini.state.control["0505"] == "german" and mini.state.units["ge-1pz-1"].hex == "0506"
    # another stack taken in hand ends the first one's move
    assert mini.apply(Move(("ge-1pz-2",), ("0102",))) == [Moved(("ge-1pz-2",), ("0102",), 1.0, False, "0101")]
    assert (list(v.active), dict(v.sig)["ge-1pz-2"], list(v.overran)) == (["ge-1pz-2"], [3], [])


def test_24_0_moving_through_an_own_town_changes_nothing(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Move
    from kiev_tui.games.spi_kiev.events import Moved

    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=2, reinforcements=False)
    assert mini.apply(Move(("so-rifle-1",), ("0805", "0705"))) == [Moved(("so-rifle-1",), ("0805", "0705"), 2.0, False, "0905")]
    assert mini.state.control["0805"] == "soviet"


def test_22_2_a_relief_frees_the_relieved_unit_and_ends_the_relievers_move(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Move
    from kiev_tui.games.spi_kiev.events import Moved, Relieved

    position(mini, {"so-rifle-1": "0703", "so-rifle-2": "0903", "ge-inf-1": "0110"}, turn=7, reinforcements=False)
    mini.state.vars.directive = {7: True}
    mini.touch()
    assert str(mini.check(Move(("so-rifle-2",), ("0803", "0703"), relieve="nobody"))) == \
        "[22.2] nobody is not a Soviet unit in 0703"
    assert mini.apply(Move(("so-rifle-2",), ("0803", "0703"), relieve="so-rifle-1")) == [
        Moved(("so-rifle-2",), ("0803", "0703"), 2.0, False, "0903"), Relieved("so-rifle-2", "so-rifle-1")]
    v = mini.state.vars
    assert (list(v.relieved), list(v.relievers), list(v.stopped), dict(v.stop_case)) == (
        ["so-rifle-1"], ["so-rifle-2"], ["so-rifle-2"], {"so-rifle-2": "22.2"})


# -- reinforcements entering (15.0, 23.0, 5.33) -----------------------------------------------

def test_23_0_reinforcements_entering_by_road_spend_the_entry_cost_and_stay_in_hand(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter
    from kiev_tui.games.spi_kiev.events import Entered

    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=1)
    units = ("so-t01-rifle-1", "so-t01-rifle-2")
    assert mini.apply(Enter(units, "1005")) == [Entered(units, "1005", 1.0, False)]
    v = mini.state.vars
    assert (dict(v.mp), v.start_hex, list(v.entered), list(v.moved), list(v.active), v.rail_used) == (
        {"so-t01-rifle-1": 1.0, "so-t01-rifle-2": 1.0},
        {"so-rifle-1": "0905", "so-t01-rifle-1": "1005", "so-t01-rifle-2": "1005"}, list(units), list(units),
        list(units), 0)
    assert [(mini.state.units[u].status, mini.state.units[u].hex) for u in units] == [("map", "1005")] * 2
    assert (list(v.stopped), mini.state.vars.pool_used) == ([], [])  # drawn faces stay hidden (13.1)


def test_8_21_a_reinforcement_entering_next_to_the_enemy_stops(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter

    position(mini, {"so-rifle-1": "0905", "ge-1pz-1": "1004"}, turn=1)
    mini.apply(Enter(("so-t01-rifle-1",), "1005"))
    v = mini.state.vars
    assert (list(v.stopped), dict(v.stop_case)) == (["so-t01-rifle-1"], {"so-t01-rifle-1": "8.21"})


def test_5_33_reinforcements_entering_by_rail_count_against_capacity_and_spend_nothing(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter
    from kiev_tui.games.spi_kiev.events import Entered

    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=1)
    mini.state.vars.rail_used = 2
    units = ("so-t01-rifle-1", "so-t01-rifle-2")
    assert mini.apply(Enter(units, "1007", rail=True)) == [Entered(units, "1007", 0.0, True)]
    v = mini.state.vars
    assert (dict(v.mp), list(v.entered), list(v.moved), list(v.active), list(v.rail_entry), v.rail_used) == (
        {"so-t01-rifle-1": 0.0, "so-t01-rifle-2": 0.0}, list(units), [], [], list(units), 4)


def test_25_12_with_the_chart_arrivals_come_on_tried_in_chart_order(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter
    from kiev_tui.games.spi_kiev.events import Entered, Revealed
    from kiev_tui.games.spi_kiev.untried import pool

    faces = pool(mini.scenario.catalog).faces
    by_value = {(f.attack, f.defense): fid for fid, f in faces.items()}
    chart = [by_value[(5, 5)], by_value[(3, 3)]]
    mini.scenario.params["pbem_historical_reinforcements"] = True
    mini.scenario.params["historical_reinforcements"] = {"1": chart}
    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=1)
    units = ("so-t01-rifle-1", "so-t01-rifle-2")
    events = mini.apply(Enter(units, "1005"))
    assert events == [Revealed("so-t01-rifle-1", faces[chart[0]].designation, 5, 5, True),
                      Revealed("so-t01-rifle-2", faces[chart[1]].designation, 3, 3, False),
                      Entered(units, "1005", 1.0, False)]
    assert [mini.state.units[u].face for u in units] == chart
    assert mini.state.vars.pool_used == chart


def test_24_0_a_unit_put_on_a_town_takes_it(mini: Game) -> None:
    from kiev_tui.engine.hexes import H
    from kiev_tui.games.spi_kiev.events import ControlChanged
    from kiev_tui.games.spi_kiev.changes import place

    position(mini, {"ge-inf-1": "0101"}, player="german", turn=2, reinforcements=False)
    mini._sink = []
    try:
        place(mini, "ge-inf-3", H("0805"))
        place(mini, "ge-inf-2", H("0805"))  # already German: no second change
        place(mini, "ge-rpl-1", H("0303"))  # not a town or city
        events = list(mini._sink)
    finally:
        mini._sink = None
    assert events == [ControlChanged("0805", "german", "Eastville")]
    assert (mini.state.units["ge-inf-3"].status, mini.state.units["ge-inf-3"].hex) == ("map", "0805")
    assert mini.state.control == {"0202": "german", "0505": "soviet", "0805": "german"}


# -- the referee's answers to the faces ---------------------------------------------------------

def test_4_2_an_action_of_another_game_is_refused_by_name(mini: Game) -> None:
    from kiev_tui.engine.actions import Action

    class Dance(Action):
        kind = "dance"

    assert str(mini.rules.check(mini, Dance())) == "[4.2] 'dance' is not an action of this game"


def test_24_0_the_final_score_is_read_back_from_the_record(mini: Game) -> None:
    from kiev_tui.engine.rules import Score

    mini.state.over = True
    mini.state.vars.final_score = {"german": 40, "soviet": 7, "winner": "german",
                                   "lines": [{"side": "german", "what": "holds Kiev", "points": 40},
                                             {"side": "soviet", "what": "keeps its HQ", "points": 7}]}
    assert mini.rules.score(mini) == Score({"german": 40, "soviet": 7},
                                           ("German +40: holds Kiev", "Soviet +7: keeps its HQ"), "german")
    # a record with the points alone: no lines and no winner named
    mini.state.vars.final_score = {"german": 3, "soviet": 4}
    assert mini.rules.score(mini) == Score({"german": 3, "soviet": 4}, (), "")


def test_9_6_a_pending_record_without_side_kind_or_prompt_reads_as_empty_text(mini: Game) -> None:
    from kiev_tui.engine.prompts import Prompt

    mini.state.pending = {}
    assert mini.rules.prompt(mini) == Prompt("", "", "", "", ())


def test_9_6_the_phase_names_the_side_a_pending_choice_waits_for(mini: Game) -> None:
    from kiev_tui.engine.game import Phase

    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, player="german", phase="combat", turn=2,
             reinforcements=False)
    mini.state.pending = {"side": "soviet", "kind": "retreat", "prompt": "soviet player: retreat"}
    mini.touch()
    assert mini.phase == Phase(2, "second", "combat", "german", "german", ("movement", "combat", "mechanized"),
                               ("soviet player: retreat",), "soviet", False)
    assert mini.rules.actor(mini) == "soviet"
    mini.state.pending = {"kind": "retreat"}
    assert mini.rules.actor(mini) == "german"


def test_validate_names_the_file_when_the_map_builder_fails() -> None:
    import tomllib

    import pytest

    from kiev_tui.engine.errors import DataError
    from kiev_tui.games.spi_kiev.system import SYSTEM
    from tests.conftest import FIXTURES, ROOT

    with pytest.raises(DataError) as err:
        SYSTEM.validate_file("geo.toml", {"meta": {}, "settlement": []})
    assert (err.value.file, err.value.key, err.value.reason) == (
        "geo.toml", "", "the map builder cannot use it: MapBuildError('map: expected a table')")
    with (ROOT / "data" / "spi_kiev" / "geo.toml").open("rb") as f:
        assert SYSTEM.validate_file("geo.toml", tomllib.load(f)) is True
    with (FIXTURES / "mini" / "tables.toml").open("rb") as f:
        tables = tomllib.load(f)
    assert SYSTEM.validate_file("tables.toml", tables) is True
    for only, key in (("crt", "crt.columns"), ("tec", "crt")):
        with pytest.raises(DataError) as err:
            SYSTEM.validate_file("t.toml", {only: {}})
        assert (err.value.file, err.value.key) == ("t.toml", key)
    for other in ("map", "unit", "scenario", "save"):
        assert SYSTEM.validate_file("s.toml", {"crt": {}, other: {}}) is False
    assert SYSTEM.validate_file("m.toml", {"meta": {}}) is False
    assert SYSTEM.validate_file("m.toml", {"settlement": []}) is False


def test_20_2_the_odds_shown_count_gd_with_the_division_the_player_names(mini: Game) -> None:
    from kiev_tui.engine.errors import Illegal

    attackers = ("ge-gd", "ge-2pz-1", "ge-1pz-2")
    position(mini, {**dict.fromkeys(attackers, "0704"), "so-rifle-4": "0804", "so-hq-army": "0905"},
             player="german", phase="combat", turn=2, reinforcements=False)
    named = mini.rules.preview(mini, attackers, ("0804",), "2 Pz")
    assert named is not None
    assert (named.illegal, named.attack, named.defense, named.column, named.notes) == (None, 17, 8, "2-1", ())
    plain = mini.rules.preview(mini, attackers, ("0804",))
    assert plain is not None
    assert (plain.illegal, plain.attack, plain.defense, plain.column, plain.notes) == (None, 12, 8, "1-1", ())
    # an overrun (6.0) is judged with the division named too
    position(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german", turn=2, reinforcements=False)
    over = mini.rules.preview(mini, ("ge-1pz-1",), ("0804",), "9pz")
    assert over is not None
    assert (over.illegal, over.attack, over.defense, over.column, over.notes) == (Illegal(
        "20.2", "GD cannot count with 9pz here (it can join: none: GD is not attacking beside a mechanized regiment)"),
        3, 1, "3-1", ())


def test_7_0_a_movement_phase_ends_only_within_the_stacking_limit(mini: Game) -> None:
    from kiev_tui.engine.actions import EndPhase

    overstacked(mini)
    assert mini.phase.todo == ("0904 holds 4 combat units (limit 3): remove the excess (7.0)",)
    assert refusal(mini, EndPhase()) == \
        "[7.0] 0904 holds 4 combat units (limit 3): remove the excess before ending the phase"
    mini.apply(RemoveExcess("so-rifle-4"))
    assert mini.phase.todo == ()
    assert mini.check(EndPhase()) is None
    # the combat phase has no stacking check of its own (7.0 is settled as movement ends)
    overstacked(mini, phase="combat")
    assert (mini.phase.todo, mini.check(EndPhase())) == ((), None)


def test_5_33_a_rail_move_puts_the_units_at_the_end_of_the_line(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "ge-inf-1": "0101"}, turn=2, reinforcements=False)
    mini.apply(RailMove(("so-rifle-1",), ("0907", "0807", "0707")))
    assert (mini.state.units["so-rifle-1"].hex, mini.state.vars.rail_used) == ("0707", 1)


def test_5_11_the_reach_shown_explains_every_hex_out_of_reach_unless_asked_not_to(mini: Game) -> None:
    from kiev_tui.engine.hexes import H
    from kiev_tui.engine.rules import Reach

    position(mini, {"so-rifle-1": "0902", "ge-inf-1": "0101"}, turn=2, reinforcements=False)
    reach = mini.rules.reachable(mini, ("so-rifle-1",))
    assert len(reach) == 99  # every hex of the 10 x 10 map but the one the unit stands in
    assert reach[H("0101")] == Reach(None, (), "5.22", "enemy units are there (only an overrun may enter)")
    assert reach[H("0102")] == Reach(
        None, (), "5.11", "beyond the stack's movement allowance or cut off by zones of control")
    # 12.0: the lone division at 0902 traces no supply on turn 2
    assert mini.rules.supply(mini).all_status("soviet")["so-rifle-1"].in_supply is False
    short = mini.rules.reachable(mini, ("so-rifle-1",), explain=False)
    assert len(short) == 19 and H("0102") not in short
    assert short == {h: r for h, r in reach.items() if r.ok}


def test_13_2_the_odds_shown_against_an_untried_unit_say_its_strength_is_unknown(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804", "so-hq-army": "0905"},
             player="german", phase="combat", turn=2, reinforcements=False)
    p = mini.rules.preview(mini, ("ge-1pz-1",), ("0804",))
    assert p is not None
    assert (p.illegal, p.attack, p.defense, p.column, p.notes) == (
        None, None, None, None, ("1 untried unit(s): their strength is drawn when the battle is fought (13.2)",))


def test_24_3_the_score_shown_during_play_leaves_out_units_cut_off_now(mini: Game) -> None:
    # so-rifle-2 is out of supply, but the game goes on: 24.3 counts it only at the end, so the
    # running score the screens show gives the German nothing for it.
    from kiev_tui.engine.rules import Score

    position(mini, {"so-hq-agsw": "1003", "so-rifle-1": "0904", "so-rifle-2": "0101",
                    "ge-inf-1": "0203"}, turn=3, reinforcements=False)
    mini.state.control = {}
    assert mini.rules.score(mini) == Score({"german": 0, "soviet": 0}, (), "")


def test_4_0_with_the_german_player_first_his_last_phase_hands_over_to_the_soviet(mini: Game) -> None:
    # Kiev's scenarios start with the Soviet player (19.11); a scenario may name the German.
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.game import Phase
    mini.scenario.first_player = "german"
    position(mini, {"so-rifle-1": "0904", "so-hq-army": "0905", "ge-inf-1": "0101"},
             player="german", phase="mechanized", turn=2, reinforcements=False)
    mini.apply(EndPhase())
    assert mini.phase == Phase(2, "second", "movement", "soviet", "soviet", ("movement", "combat"), (), "", False)


def test_25_12_a_unit_off_the_chart_is_passed_over_and_the_rest_revealed(mini: Game) -> None:
    # The entry hook reveals chart units only; one it has no face for (an HQ, a unit revealed
    # before) is left as it is and does not stop the others.
    from kiev_tui.games.spi_kiev.moving import _reveal_historical
    mini.scenario.params["pbem_historical_reinforcements"] = True
    mini.scenario.params["historical_reinforcements"] = {"1": ["rifle-203", "rifle-201"]}
    position(mini, {"so-rifle-1": "0905", "ge-inf-1": "0101"}, turn=1)
    mini.state.units["so-t01-rifle-1"].face = "rifle-202"
    from kiev_tui.games.spi_kiev.events import Revealed
    mini._sink = []
    try:
        _reveal_historical(mini, ("so-hq-army", "so-t01-rifle-1", "so-t01-rifle-2"))
        assert mini._sink == [Revealed("so-t01-rifle-2", "201", 3, 3, False)]
    finally:
        mini._sink = None
    assert [mini.state.units[u].face for u in ("so-hq-army", "so-t01-rifle-1", "so-t01-rifle-2")] == \
        [None, "rifle-202", "rifle-201"]
    assert mini.state.vars.pool_used == ["rifle-201"]
