"""Combat (9.1-9.2, 9.83, 10.16, 11.35-11.37) refusals that mutation testing found unpinned.

Every refusal must cite its own case.  Position: the German ge-1pz-1 and leader at 0704 and
ge-inf-1 at 0703 against the Soviet so-rifle-3 at 0804 and so-rifle-1 at 0803, in the
German combat phase.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import (
    Advance, Attack, ChooseRetreat, DeclineAdvance, Retreat, TakeLosses,
)

from tests.conftest import position
from tests.spi_helpers import die_for, load_dice, pending

P = {"ge-1pz-1": "0704", "ge-inf-1": "0703", "ge-leader": "0704", "so-rifle-3": "0804", "so-rifle-1": "0803"}


def battle(game: Game, placements: dict[str, str] = P, phase: str = "combat") -> Game:
    return position(game, placements, player="german", phase=phase, turn=2, reinforcements=False)


def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def test_9_6_no_attack_while_a_combat_result_waits(mini: Game) -> None:
    battle(mini)
    mini.state.pending = {"kind": "retreat"}
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == "[9.6] settle the pending combat result first"


def test_9_11_attacks_only_in_the_combat_phase_with_the_reason(mini: Game) -> None:
    battle(mini, phase="movement")
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == \
        "[9.11] attacks happen only in the combat phase (overruns during movement)"


def test_9_1_an_attack_names_its_units_and_hexes_once_each(mini: Game) -> None:
    battle(mini)
    assert refusal(mini, Attack((), ("0804",))) == "[9.1] name the attacking units and the hexes they attack"
    assert refusal(mini, Attack(("ge-1pz-1",), ())) == "[9.1] name the attacking units and the hexes they attack"
    assert refusal(mini, Attack(("ge-1pz-1", "ge-1pz-1"), ("0804",))) == "[9.1] a unit or hex is listed twice"
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804", "0804"))) == "[9.1] a unit or hex is listed twice"
    assert refusal(mini, Attack(("ge-1pz-1",), ("zz",))) == \
        "[9.1] 'zz' is not a hex id (four digits CCRR, e.g. 0319)"
    assert refusal(mini, Attack(("ge-inf-2",), ("0804",))) == "[9.1] ge-inf-2 is not on the map"


def test_9_11_only_the_phasing_players_units_attack(mini: Game) -> None:
    battle(mini)
    assert refusal(mini, Attack(("so-rifle-1",), ("0704",))) == "[9.11] so-rifle-1 is not the phasing player's unit"


def test_9_83_9_14_an_attacker_fights_once_a_phase(mini: Game) -> None:
    battle(mini)
    mini.state.vars.advanced = ["ge-1pz-1"]
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == \
        "[9.83] ge-1pz-1 advanced after combat and may not attack again this phase"
    mini.state.vars.advanced = []
    mini.state.vars.attacked = ["ge-1pz-1"]
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == "[9.14] ge-1pz-1 has already attacked this phase"


def test_9_83_9_14_a_defender_is_attacked_once_a_phase(mini: Game) -> None:
    battle(mini)
    mini.state.vars.advanced = ["so-rifle-3"]
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == \
        "[9.83] so-rifle-3 in 0804 advanced after combat and may not be attacked again this phase"
    mini.state.vars.advanced = []
    mini.state.vars.defended = ["so-rifle-3"]
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == \
        "[9.14] so-rifle-3 in 0804 has already been attacked this phase"


def test_11_35_11_37_leaders_add_only_to_units_attacking_from_their_hex(mini: Game) -> None:
    battle(mini)
    assert refusal(mini, Attack(("ge-leader",), ("0804",))) == \
        "[11.35] HQs and leaders have no attack strength of their own"
    assert refusal(mini, Attack(("ge-leader", "ge-inf-1"), ("0803",))) == \
        "[11.37] ge-leader adds its rating only to units attacking from its own hex"
    assert mini.check(Attack(("ge-leader", "ge-1pz-1"), ("0804",))) is None


def test_9_11_9_23_targets_hold_enemies_and_touch_every_attacker(mini: Game) -> None:
    battle(mini)
    assert refusal(mini, Attack(("ge-1pz-1",), ("0904",))) == "[9.11] 0904 holds no enemy units"
    assert refusal(mini, Attack(("ge-1pz-1",), ("0703",))) == "[9.11] 0703 holds no enemy units"
    assert refusal(mini, Attack(("ge-inf-1",), ("0804",))) == \
        "[9.23] ge-inf-1 is not adjacent to 0804: every attacker must touch every target hex"


def test_10_16_no_attack_across_an_all_lake_hexside(mini: Game) -> None:
    battle(mini)
    mini.scenario.map.set_side_features(H("0704"), H("0804"), frozenset({"lake"}))
    assert refusal(mini, Attack(("ge-1pz-1",), ("0804",))) == \
        "[10.16] ge-1pz-1 cannot attack across the lake hexside into 0804"


# -- settling a result: each answer out of turn cites its case ------------------------------------

def test_9_66_9_7_9_8_no_answer_without_a_question(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    assert refusal(mini, TakeLosses(("so-rifle-3",))) == "[9.66] no result is waiting for step losses"
    assert refusal(mini, ChooseRetreat()) == "[9.66] no result is waiting for a choice"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0904",),))) == "[9.7] no retreat is waiting"
    assert refusal(mini, Advance(("ge-1pz-1",), ("0804",))) == "[9.8] no advance is on offer"
    assert refusal(mini, DeclineAdvance()) == "[9.83] no advance is on offer"


def test_9_67_9_71_9_81_9_82_each_answer_is_checked_against_the_result(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    p = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    # 6 against so-rifle-3's 2, halved to 1 as no HQ supplies it (12.23): 6-1.
    assert p.column == "6-1"
    load_dice(mini, [die_for(mini, "6-1", "-/1")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert pending(mini)["kind"] == "loss_or_retreat"
    assert refusal(mini, TakeLosses(())) == "[9.67] name exactly 1 step loss(es), one unit id per step"
    assert refusal(mini, TakeLosses(("so-rifle-3", "so-rifle-3"))) == \
        "[9.67] name exactly 1 step loss(es), one unit id per step"
    assert refusal(mini, TakeLosses(("ge-1pz-1",))) == "[9.67] ge-1pz-1 did not take part in this battle"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0904",),))) == "[9.7] no retreat is waiting"
    assert refusal(mini, Advance(("ge-1pz-1",), ("0804",))) == "[9.8] no advance is on offer"
    mini.apply(ChooseRetreat())
    assert refusal(mini, Retreat((), ())) == "[9.7] give one path for each of so-rifle-3"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0703",),))) == "[9.71] 0703 is not a legal retreat for so-rifle-3"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0904", "1004"),))) == \
        "[9.71] 0904 > 1004 is not a legal retreat for so-rifle-3"
    assert refusal(mini, TakeLosses(("so-rifle-3",))) == "[9.66] no result is waiting for step losses"
    assert refusal(mini, ChooseRetreat()) == "[9.66] no result is waiting for a choice"
    mini.apply(Retreat(("so-rifle-3",), (("0904",),)))
    assert pending(mini)["kind"] == "advance" and pending(mini)["max"] == 1
    assert refusal(mini, Advance(("ge-inf-1",), ("0804",))) == "[9.81] only ge-1pz-1 may advance"
    assert refusal(mini, Advance(("ge-1pz-1",), ("0804", "0904"))) == \
        "[9.82] 0804 > 0904 is not along the path of retreat (or is too long)"
    assert refusal(mini, Advance(("ge-1pz-1",), ("0805",))) == \
        "[9.82] 0805 is not along the path of retreat (or is too long)"
    assert mini.check(Advance(("ge-1pz-1",), ("0804",))) is None


# -- advance after combat (9.8) -------------------------------------------------------------------

PZ = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")


def strike(game: Game, result: str) -> None:
    battle(game, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"})
    p = combat.preview(game, list(PZ), ["0804"])
    assert p.column == "10-1"  # (6+1+1) doubled for integrity = 16 against 1 (2 halved, unsupplied)
    load_dice(game, [die_for(game, "10-1", result)])
    game.apply(Attack(PZ, ("0804",)))


def test_9_84_after_an_elimination_the_winners_may_go_two_hexes_any_way(mini: Game) -> None:
    strike(mini, "-/E")
    assert pending(mini) == {"kind": "advance", "side": "german", "units": list(PZ), "max": 2,
                             "vacated": ["0804"],
                             "prompt": "german player: advance up to 2 hex(es) with ge-1pz-1, ge-1pz-2, ge-1pz-3, or decline"}
    assert combat.advance_options(mini) == {"units": list(PZ), "paths": [
        ("0804",), ("0804", "0704"), ("0804", "0705"), ("0804", "0803"), ("0804", "0805"), ("0804", "0904"),
        ("0804", "0905")]}


def test_9_85_9_81_after_a_retreat_the_winners_follow_its_path_as_far_as_it_went(mini: Game) -> None:
    strike(mini, "-/2")
    assert pending(mini)["kind"] == "loss_or_retreat" and pending(mini)["hexes"] == 2
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("0904", "1004"),)))
    assert pending(mini)["max"] == 2
    assert combat.advance_options(mini) == {"units": list(PZ), "paths": [("0804",), ("0804", "0904")]}
    assert refusal(mini, Advance(("ge-1pz-1", "ge-1pz-2"), ("0804", "0805"))) == \
        "[9.82] 0804 > 0805 is not along the path of retreat (or is too long)"
    mini.apply(Advance(("ge-1pz-1", "ge-1pz-2"), ("0804", "0904")))
    assert mini.state.pending is None
    assert [mini.state.units[u].hex for u in PZ] == ["0904", "0904", "0704"]
    assert mini.state.vars.advanced == ["ge-1pz-1", "ge-1pz-2"]
    assert combat.advance_options(mini) == {}
    # 9.83: advanced units may not attack again this phase.
    assert refusal(mini, DeclineAdvance()) == "[9.83] no advance is on offer"


# -- the battle log (what the player reads of a battle) -------------------------------------------

def test_13_1_9_7_9_8_the_log_of_a_battle_with_an_untried_defender(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-t01-rifle-1": "0804",
                  "so-hq-army": "0905"})
    n = len(mini.journal)
    load_dice(mini, [1], picks=[0, 0, 0, 0])  # the first rifle face (201, 3-3); die 1
    mini.apply(Attack(PZ, ("0804",)))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-t01-rifle-1",), (("0904", "1004"),)))
    mini.apply(Advance(("ge-1pz-1",), ("0804",)))
    assert [e.describe() for e in mini.journal[n:]] == [
        "Drawn for the true face of untried so-t01-rifle-1 (13.1): rifle-201",
        "Untried so-t01-rifle-1 is revealed: 201, 3-3",
        "Die roll #2 for attack at 0804 (5-1): 1",
        "Attack: ge-1pz-1, ge-1pz-2, ge-1pz-3 against 0804: 16 to 3, column 5-1, die 1: result -/2 "
        "[ge-1pz-1 12 (20.0 divisional integrity: doubled); ge-1pz-2 2 (20.0 divisional integrity: doubled); "
        "ge-1pz-3 2 (20.0 divisional integrity: doubled); so-t01-rifle-1 3]",
        "so-t01-rifle-1 retreats from 0804 to 1004 via 0904",
        "ge-1pz-1 advance from 0704 to 0804",
    ]


def test_19_61_13_3_9_71_9_67_the_other_log_lines_name_their_cases() -> None:
    assert combat.Revealed("so-x", "203", 5, 5, True).describe() == \
        "Untried so-x is revealed: 203, 5-5 with an asterisk (19.61)"
    assert combat.Revealed("so-x", "202", 0, 0, False).describe() == \
        "Untried so-x is revealed: 202, 0-0 - a no-strength unit (13.3)"
    assert combat.Revealed("so-x", "9", 0, 1, False).describe() == "Untried so-x is revealed: 9, 0-1"
    assert combat.Retreated("so-x", ()).describe() == "so-x has nowhere to retreat and is eliminated (9.71)"
    assert combat.StepLost("ge-x", False).describe() == "ge-x loses a step"
    assert combat.StepLost("ge-x", True, "its last step was lost, 9.67").describe() == \
        "ge-x is eliminated (its last step was lost, 9.67)"
    assert combat.Advanced(("a", "b"), ("0804", "0904")).describe() == "a, b advance 0804 > 0904"  # no start kept
    assert combat.Advanced(("a", "b"), ("0804", "0904"), "0704").describe() == "a, b advance from 0704 to 0904 via 0804"
    assert combat.Advanced(("a", "b"), ("0804", "0904"), "0704").record() == "a, b advance 0804 > 0904"
    assert combat.CombatResolved("overrun", ("a",), ("0804",), 3, 2, "1-1", 2, "1/1", ()).describe() == \
        "Overrun: a against 0804: 3 to 2, column 1-1, die 2: result 1/1"
