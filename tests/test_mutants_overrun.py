"""Overrun (6.0-6.2, 19.4) refusals and bookkeeping that mutation testing found unpinned.

Each refusal must cite its own case; the stack here is the German 1 Pz panzer regiment
ge-1pz-1 (6-2, MA 10) at 0704 against the Soviet so-rifle-3 (1-2) at 0804, in the German
movement phase.
"""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Move, Overrun
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.preview import Preview

from tests.conftest import position
from tests.spi_helpers import load_dice


def pos(game: Game, placements: dict[str, str], **kw: object) -> Game:
    kw.setdefault("player", "german")
    return position(game, placements, reinforcements=False, **kw)  # type: ignore[arg-type]


def base(game: Game, **kw: object) -> Game:
    return pos(game, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, **kw)


def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


OV = Overrun(("ge-1pz-1",), "0804")


def test_6_11_no_overrun_in_the_combat_phase(mini: Game) -> None:
    base(mini, phase="combat")
    assert refusal(mini, OV) == "[6.11] overruns happen only in a movement phase"


def test_9_6_no_overrun_while_a_combat_result_waits(mini: Game) -> None:
    base(mini)
    mini.state.pending = {"kind": "retreat"}
    assert refusal(mini, OV) == "[9.6] settle the pending combat result first"


def test_6_13_overrunning_units_start_in_one_hex(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0703", "so-rifle-3": "0804"})
    assert refusal(mini, Overrun(("ge-1pz-1", "ge-1pz-2"), "0804")) == \
        "[6.13] units moving together must start in the same hex"
    assert refusal(mini, Overrun((), "0804")) == "[6.13] choose at least one unit to move"


def test_5_21_only_the_phasing_player_overruns(mini: Game) -> None:
    base(mini, player="soviet")
    assert refusal(mini, OV) == "[5.21] ge-1pz-1 is not the phasing player's unit"


def test_6_14_6_0_the_target_is_one_adjacent_enemy_hex(mini: Game) -> None:
    base(mini)
    assert refusal(mini, Overrun(("ge-1pz-1",), "zz")) == \
        "[6.14] 'zz' is not a hex id (four digits CCRR, e.g. 0319)"
    assert refusal(mini, Overrun(("ge-1pz-1",), "0904")) == "[6.0] 0904 is not adjacent to the stack"
    assert refusal(mini, Overrun(("ge-1pz-1",), "0703")) == "[6.0] 0703 holds no enemy units"


def test_10_16_no_overrun_across_an_all_lake_hexside(mini: Game) -> None:
    base(mini)
    mini.scenario.map.set_side_features(H("0704"), H("0804"), frozenset({"lake"}))
    assert refusal(mini, OV) == "[10.16] no overrun across a lake hexside"


def test_10_13_the_major_river_refusal_cites_10_13(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0504", "so-rifle-3": "0604"})
    assert refusal(mini, Overrun(("ge-1pz-1",), "0604")) == "[10.13] no overrun across a major river hexside"


def test_19_43_a_leader_alone_cannot_overrun(mini: Game) -> None:
    pos(mini, {"ge-leader": "0704", "so-rifle-3": "0804"})
    assert refusal(mini, Overrun(("ge-leader",), "0804")) == \
        "[19.43] HQs and leaders only add to an overrun by combat units"


def test_19_41_infantry_in_the_stack_bars_the_overrun(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-3": "0804"})
    assert refusal(mini, Overrun(("ge-1pz-1", "ge-inf-1"), "0804")) == \
        "[19.41] ge-inf-1 is not mechanized: only armour, motorized infantry and cavalry overrun"


def test_6_12_the_refusal_names_the_unit_out_of_supply_at_the_start(mini: Game) -> None:
    base(mini)
    mini.state.vars.oos_start = ["ge-1pz-1"]
    assert refusal(mini, OV) == "[6.12] ge-1pz-1 was out of supply when the phase began"


def test_5_33_a_unit_that_came_by_rail_does_not_overrun(mini: Game) -> None:
    base(mini)
    mini.state.vars.railed = ["ge-1pz-1"]
    assert refusal(mini, OV) == "[5.33] ge-1pz-1 moved by rail this phase"
    base(mini)
    mini.state.vars.rail_entry = ["ge-1pz-1"]
    assert refusal(mini, OV) == "[5.33] ge-1pz-1 moved by rail this phase"


def test_8_23_a_unit_stopped_by_entering_a_zone_may_still_overrun(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0703", "so-rifle-3": "0804"})
    mini.apply(Move(("ge-1pz-1",), ("0704",)))
    assert "ge-1pz-1" in mini.state.vars.stopped
    assert mini.check(OV) is None


def test_6_22_a_stopped_stack_without_a_recorded_case_is_refused_under_6_22(mini: Game) -> None:
    base(mini)
    mini.state.vars.stopped = ["ge-1pz-1"]
    assert refusal(mini, OV) == "[6.22] ge-1pz-1 may not move again this phase"


def test_6_23_the_refusal_after_a_loss_cites_6_23(mini: Game) -> None:
    base(mini)
    mini.state.vars.stopped = ["ge-1pz-1"]
    mini.state.vars.stop_case = {"ge-1pz-1": "6.23"}
    assert refusal(mini, OV) == "[6.23] ge-1pz-1 may not move again this phase"


def test_5_0_a_unit_whose_move_is_over_cannot_overrun(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0703", "ge-1pz-2": "0702", "so-rifle-3": "0804"})
    mini.apply(Move(("ge-1pz-1",), ("0704",)))
    mini.apply(Move(("ge-1pz-2",), ("0602",)))
    assert refusal(mini, OV) == "[5.0] ge-1pz-1 already finished its move this phase"


def test_6_16_an_overrun_needs_3_mp_left(mini: Game) -> None:
    base(mini)
    mini.state.vars.mp = {"ge-1pz-1": 7.5}
    assert refusal(mini, OV) == "[6.16] ge-1pz-1 lacks the 3 MP an overrun costs"
    mini.state.vars.mp = {"ge-1pz-1": 7.0}
    assert mini.check(OV) is None


def test_6_13_units_that_moved_apart_cannot_overrun_together(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-3": "0804"})
    mini.state.vars.start_hex["ge-1pz-2"] = "0703"
    assert refusal(mini, Overrun(("ge-1pz-1", "ge-1pz-2"), "0804")) == \
        "[6.13] overrunning units must have begun the phase stacked and moved only together"


def test_6_17_the_refusal_for_idle_friends_cites_6_17(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-3": "0804"})
    assert refusal(mini, OV) == \
        "[6.17] other friendly units in the hex would not take part: no overrun from here"


def test_6_0_an_overrun_costs_3_mp_and_the_preview_agrees(mini: Game) -> None:
    base(mini)
    p = overrun_preview(mini, ("ge-1pz-1",), "0804")
    # 6.0: attack halved (6 -> 3) against the defence 2: the 1-1 column.
    assert (p.attack, p.defense, p.column, p.illegal) == (3, 2, "1-1", None)
    bad = overrun_preview(mini, ("ge-1pz-1",), "zz")
    assert bad.illegal is not None and bad.illegal.case == "6.14"
    load_dice(mini, [6])  # 1-1, die 6: 2/-: the stack loses
    mini.apply(OV)
    assert mini.state.vars.mp["ge-1pz-1"] == 3.0
    assert "ge-1pz-1" in mini.state.vars.moved


# -- after the overrun (6.22-6.24) -------------------------------------------------------------

def test_6_23_a_loss_to_the_overrunning_stack_stops_it_under_6_23(mini: Game) -> None:
    from tests.spi_helpers import die_for
    from kiev_tui.games.spi_kiev.actions import TakeLosses
    base(mini)
    # Turn 1: every unit is supplied (19.85); 6 halved to 3 against 2: 1-1.
    assert overrun_preview(mini, ("ge-1pz-1",), "0804").column == "1-1"
    load_dice(mini, [die_for(mini, "1-1", "1/1")])
    mini.apply(OV)
    mini.apply(TakeLosses(("so-rifle-3",)))
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert mini.state.units["so-rifle-3"].status == "eliminated"
    # The hex is empty, but the stack lost a step: it stops where it is (6.23, not 6.24).
    assert mini.state.units["ge-1pz-1"].hex == "0704" and mini.state.units["ge-1pz-1"].step == 1
    assert mini.state.vars.stop_case["ge-1pz-1"] == "6.23"
    assert "ge-1pz-1" in mini.state.vars.stopped
    illegal = mini.check(Move(("ge-1pz-1",), ("0804",)))
    assert illegal is not None and illegal.case == "6.23"


def test_6_24_a_clean_win_carries_the_stack_in_and_frees_it_to_move_on(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import TakeLosses
    from kiev_tui.games.spi_kiev.events import Moved
    from tests.spi_helpers import die_for
    pos(mini, {"ge-1pz-1": "0703", "so-rifle-3": "0804"})
    mini.apply(Move(("ge-1pz-1",), ("0704",)))  # into the Soviet zone: stopped (8.21)
    assert "ge-1pz-1" in mini.state.vars.stopped
    assert overrun_preview(mini, ("ge-1pz-1",), "0804").column == "1-1"
    load_dice(mini, [die_for(mini, "1-1", "-/1")])
    mini.apply(OV)
    mini.apply(TakeLosses(("so-rifle-3",)))
    v = mini.state.vars
    assert mini.state.units["ge-1pz-1"].hex == "0804"
    assert "ge-1pz-1" in v.overran and v.active == ["ge-1pz-1"]
    assert "ge-1pz-1" not in v.stopped
    moved = [e for e in mini.journal if isinstance(e, Moved)][-1]
    assert moved == Moved(("ge-1pz-1",), ("0804",), 0.0, False, "0704")
    assert moved.describe() == "ge-1pz-1 move from 0704 to 0804 (0 MP)"  # no zone stops it: it may move on
    # 1 MP for the first step and 3 for the overrun spent: it may go on.
    assert v.mp["ge-1pz-1"] == 4.0
    assert mini.check(Move(("ge-1pz-1",), ("0904",))) is None


def test_6_14_the_preview_of_an_overrun_on_no_hex_is_empty_and_says_why(mini: Game) -> None:
    base(mini)
    why = Illegal("6.14", "'zz' is not a hex id (four digits CCRR, e.g. 0319)")
    assert overrun_preview(mini, ("ge-1pz-1",), "zz") == Preview((), (), None, None, None, {}, why)


def test_20_2_the_overrun_preview_checks_the_division_named_for_gd(mini: Game) -> None:
    # 20.2: the preview judges the division the player names, as the overrun itself would.
    base(mini)
    p = overrun_preview(mini, ("ge-1pz-1",), "0804", integrity="9pz")
    assert str(p.illegal) == \
        "[20.2] GD cannot count with 9pz here (it can join: none: GD is not attacking beside a mechanized regiment)"
    assert refusal(mini, Overrun(("ge-1pz-1",), "0804", "9pz")) == str(p.illegal)


def test_6_16_the_overrun_preview_carries_the_refusal(mini: Game) -> None:
    base(mini)
    mini.state.vars.mp = {"ge-1pz-1": 8.0}
    mini.state.vars.moved = ["ge-1pz-1"]
    mini.state.vars.active = ["ge-1pz-1"]
    p = overrun_preview(mini, ("ge-1pz-1",), "0804")
    assert str(p.illegal) == "[6.16] ge-1pz-1 lacks the 3 MP an overrun costs"
    assert (p.attack, p.defense, p.column) == (3, 2, "1-1")  # the odds still show


def test_6_17_a_leader_in_the_overrunning_hex_rides_along_as_a_passenger(mini: Game) -> None:
    # 6.17: an HQ or leader may share the hex; it takes no part but shares the stack's fate.
    from tests.spi_helpers import die_for
    pos(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [die_for(mini, "1-1", "1/1")])
    mini.apply(OV)
    b = mini.state.vars.battle
    assert b is not None
    assert (b.kind, b.attackers, b.targets, b.passengers) == ("overrun", ["ge-1pz-1"], ["0804"], ["ge-leader"])
    assert mini.state.vars.mp == {"ge-1pz-1": 3.0}


def test_6_22_a_defender_left_in_the_hex_stops_the_stack_where_it_stands(mini: Game) -> None:
    # Two defenders, one step lost: the hex still holds a Soviet unit and the Germans lost
    # nothing, so the stack stays in its own hex and stops under 6.22 (not 6.23).
    from kiev_tui.games.spi_kiev.actions import TakeLosses
    from tests.spi_helpers import die_for
    pz = ("ge-1pz-1", "ge-1pz-2")
    pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-3": "0804", "so-rifle-1": "0804"})
    load_dice(mini, [die_for(mini, "1-1", "-/1")])
    mini.apply(Overrun(pz, "0804"))
    mini.apply(TakeLosses(("so-rifle-3",)))
    v = mini.state.vars
    assert [mini.state.units[u].hex for u in pz] == ["0704", "0704"]
    assert mini.state.units["so-rifle-1"].hex == "0804"
    assert v.stop_case == {"ge-1pz-1": "6.22", "ge-1pz-2": "6.22"}
    assert refusal(mini, Move(pz, ("0703",))) == "[6.22] ge-1pz-1 has stopped for this phase and cannot move again"


def test_6_24_24_0_a_clean_overrun_of_a_town_takes_it(mini: Game) -> None:
    # The stack that clears Eastville moves in, and the town changes hands at once.
    from kiev_tui.games.spi_kiev.actions import TakeLosses
    from tests.spi_helpers import die_for
    pos(mini, {"ge-1pz-1": "0705", "so-rifle-3": "0805"})
    assert mini.state.control["0805"] == "soviet"
    load_dice(mini, [die_for(mini, "1-1", "-/1")])
    mini.apply(Overrun(("ge-1pz-1",), "0805"))
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert mini.state.units["ge-1pz-1"].hex == "0805"
    assert mini.state.control == {"0505": "soviet", "0805": "german", "0202": "german"}
