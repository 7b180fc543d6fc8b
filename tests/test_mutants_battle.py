"""The battle from the roll to the last decision (9.5-9.7, 13.2, 19.2, 19.6, 20.2, 25.11), pinned whole.

Mutation testing of battle.py found the questions a battle puts to the players, the log lines
it writes and the battle record itself checked one field at a time; these tests compare each
of them in full.  Fixture map: the major river runs between columns 05 and 06 (see
tests/test_spi_kiev_combat.py for the rest of its terrain).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import Attack, ChooseIntegrity, ChooseRetreat, Overrun, Retreat, TakeLosses
from kiev_tui.games.spi_kiev.common import View

from tests.conftest import FIXTURES, position
from tests.spi_helpers import die_for, lines as log, load_dice, pending, refusal


def battle(game: Game, placements: dict[str, str], player: str = "german", turn: int = 2) -> Game:
    """A combat phase; on turn 2 the Soviet units, far from any HQ, are out of supply (12.23)."""
    return position(game, placements, player=player, phase="combat", turn=turn, reinforcements=False)


def status(game: Game, uid: str) -> str:
    return game.state.units[uid].status


def attack(game: Game, attackers: tuple[str, ...], targets: tuple[str, ...], result: str,
           picks: list[int] | None = None) -> None:
    """Attack with the die that gives ``result`` in the column the preview shows."""
    p = combat.preview(game, list(attackers), list(targets))
    load_dice(game, [die_for(game, p.column, result)], picks=picks)
    game.apply(Attack(attackers, targets))


# -- the battle record and the defender's question (9.14, 9.6, 9.66, 9.77) --------------------------

ACROSS = {"ge-1pz-1": "0705", "ge-inf-1": "0705", "so-rifle-3": "0605", "so-rifle-1": "0605"}


def test_9_66_9_77_the_battle_record_and_the_defenders_question(mini: Game) -> None:
    battle(mini, ACROSS)
    mini.state.vars.attacked = ["ge-inf-2"]
    mini.state.vars.defended = ["so-rifle-2"]
    n = len(mini.journal)
    attack(mini, ("ge-1pz-1", "ge-inf-1"), ("0605",), "-/2")
    # 9.66: a number means lose that many steps or retreat that many hexes; the defender answers first.
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "soviet", "who": "defender", "units": ["so-rifle-1", "so-rifle-3"],
        "steps": 2, "hexes": 2, "may_lose_steps": True,
        "prompt": "soviet player: lose 2 step(s) from so-rifle-1, so-rifle-3 or retreat them 2 hex(es)"}
    # 9.77: the zone is the target and its neighbours, but not those across the major river (0504, 0505).
    assert mini.state.vars.battle.to_dict() == {
        "kind": "attack", "attackers": ["ge-1pz-1", "ge-inf-1"], "targets": ["0605"],
        "defenders": ["so-rifle-1", "so-rifle-3"],
        "origin": {"ge-1pz-1": "0705", "ge-inf-1": "0705", "so-rifle-1": "0605", "so-rifle-3": "0605"},
        "asterisk": False, "zone": ["0604", "0605", "0606", "0705", "0706"],
        "stages": [["defender", "2"], ["attacker", "-"], ["advance", "2"]], "retreat_paths": {},
        "attacker_lost": False, "integrity": "", "passengers": [], "result": "-/2"}
    # 9.14: both sides are marked for this phase, beside the units marked before.
    assert mini.state.vars.attacked == ["ge-inf-2", "ge-1pz-1", "ge-inf-1"]
    assert mini.state.vars.defended == ["so-rifle-2", "so-rifle-1", "so-rifle-3"]
    assert log(mini, n) == [
        "Die roll #1 for attack at 0605 (3-1): 1",
        "Attack: ge-1pz-1, ge-inf-1 against 0605: 11 to 3, column 3-1, die 1: result -/2 "
        "[ge-1pz-1 6; ge-inf-1 5; so-rifle-1 2.5 (12.23 out of supply: halved); "
        "so-rifle-3 1 (12.23 out of supply: halved)]"]
    # 9.67: both one-step units are lost; the attacker's "-" asks nothing, the advance is offered.
    n = len(mini.journal)
    mini.apply(TakeLosses(("so-rifle-1", "so-rifle-3")))
    assert log(mini, n)[:2] == ["so-rifle-1 is eliminated (its last step was lost, 9.67)",
                                "so-rifle-3 is eliminated (its last step was lost, 9.67)"]
    assert pending(mini)["kind"] == "advance" and pending(mini)["side"] == "german"


def test_9_76_9_14_a_unit_that_retreated_in_is_not_marked_attacked_and_is_lost(mini: Game) -> None:
    battle(mini, ACROSS)
    mini.state.vars.retreated_into = ["so-rifle-3"]
    n = len(mini.journal)
    attack(mini, ("ge-1pz-1", "ge-inf-1"), ("0605",), "-/2")
    assert mini.state.vars.defended == ["so-rifle-1"]
    assert log(mini, n)[2:] == ["so-rifle-3 is eliminated (it had retreated into a hex that was attacked again, 9.76)"]
    assert pending(mini)["units"] == ["so-rifle-1"]


def test_9_67_a_loss_larger_than_the_steps_there_takes_every_step(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    attack(mini, ("ge-1pz-1",), ("0804",), "-/2")
    assert pending(mini)["steps"] == 2
    assert refusal(mini, TakeLosses(("so-rifle-3", "so-rifle-3"))) == \
        "[9.67] name exactly 1 step loss(es), one unit id per step"
    assert mini.check(TakeLosses(("so-rifle-3",))) is None


def test_9_66_the_battle_is_asked_for_only_while_one_is_fought(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    with pytest.raises(KeyError, match="^'no battle is being fought'$"):
        combat.battle(mini)
    # A loss question left without its battle (a damaged save) is refused, not settled.
    mini.state.pending = {"kind": "loss_or_retreat", "side": "soviet", "who": "defender", "units": ["so-rifle-3"],
                          "steps": 1, "hexes": 1, "may_lose_steps": True, "prompt": ""}
    assert refusal(mini, TakeLosses(("so-rifle-3",))) == "[9.66] no battle in progress"


# -- losses (9.61, 9.67, 19.24) ----------------------------------------------------------------------

# ge-1pz-1 on its reduced side (3-1, one step left) and ge-inf-1 (5-7, three steps) attack
# so-rifle-4 (8, halved out of supply): 8 against 4 is 2-1, where die 6 gives 2/-.
TWO_LOSSES = {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-4": "0804"}


def two_losses(game: Game) -> None:
    battle(game, TWO_LOSSES)
    game.state.units["ge-1pz-1"].step = 1
    game.touch()
    assert combat.preview(game, ["ge-1pz-1", "ge-inf-1"], ["0804"]).column == "2-1"
    attack(game, ("ge-1pz-1", "ge-inf-1"), ("0804",), "2/-")


def test_9_61_a_unit_gives_no_more_steps_than_it_has(mini: Game) -> None:
    two_losses(mini)
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "german", "who": "attacker", "units": ["ge-1pz-1", "ge-inf-1"],
        "steps": 2, "hexes": 2, "may_lose_steps": True,
        "prompt": "german player: lose 2 step(s) from ge-1pz-1, ge-inf-1 or retreat them 2 hex(es)"}
    assert combat.steps_left(View(mini), "ge-1pz-1") == 1
    assert combat.steps_left(View(mini), "ge-inf-1") == 3
    assert refusal(mini, TakeLosses(("ge-1pz-1", "ge-1pz-1"))) == "[9.61] ge-1pz-1 has only 1 step(s) to lose"
    assert refusal(mini, TakeLosses(("ge-inf-1", "so-rifle-4"))) == "[9.67] so-rifle-4 did not take part in this battle"
    assert mini.check(TakeLosses(("ge-1pz-1", "ge-inf-1"))) is None


def test_9_61_19_24_steps_down_to_an_rpl_counter_and_no_hex_is_left_to_advance_into(mini: Game) -> None:
    two_losses(mini)
    n = len(mini.journal)
    mini.apply(TakeLosses(("ge-inf-1", "ge-inf-1")))
    assert log(mini, n) == ["ge-inf-1 loses a step (now 3-4)",
                            "ge-inf-1 loses a step (an rpl 1-2-7 counter now stands for it (19.24))"]
    assert mini.state.units["ge-inf-1"].step == 2 and mini.state.vars.rpl_left == 0
    # 9.8: the attackers held their hex, so the defender has nothing to advance into; the battle ends.
    assert mini.state.pending is None and mini.state.vars.battle is None


def test_19_24_no_rpl_counter_left_eliminates_the_unit_at_its_third_step(mini: Game) -> None:
    battle(mini, {"ge-inf-1": "0704", "ge-inf-2": "0703"}, player="soviet")
    mini.state.vars.rpl_left = 1
    mini._sink = []
    combat.lose_step(mini, "ge-inf-1", "9.67")
    combat.lose_step(mini, "ge-inf-1", "9.67")  # takes the last rpl counter
    combat.lose_step(mini, "ge-inf-2", "9.67")
    combat.lose_step(mini, "ge-inf-2", "9.67")  # none left
    combat.lose_step(mini, "ge-inf-1", "9.61")
    events, mini._sink = mini._sink, None
    assert [e.describe() for e in events] == [
        "ge-inf-1 loses a step (now 3-4)",
        "ge-inf-1 loses a step (an rpl 1-2-7 counter now stands for it (19.24))",
        "ge-inf-2 loses a step (now 3-4)",
        "ge-inf-2 is eliminated (no rpl counter is left for its third step, 19.24)",
        "ge-inf-1 is eliminated (its last step was lost, 9.61)"]
    assert mini.state.vars.rpl_left == 0


# -- engaged (9.69) and split results (9.68) ---------------------------------------------------------

def test_9_69_engaged_asks_each_side_for_a_step_and_refuses_a_retreat(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, turn=1)
    attack(mini, ("ge-1pz-1",), ("0804",), "eng")
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "soviet", "who": "defender", "units": ["so-rifle-3"], "steps": 1,
        "hexes": 0, "may_lose_steps": True,
        "prompt": "soviet player: lose 1 step(s) from so-rifle-3 (engaged: no retreat, 9.69)"}
    assert refusal(mini, ChooseRetreat()) == "[9.69] an engaged result allows no retreat"
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "german", "who": "attacker", "units": ["ge-1pz-1"], "steps": 1,
        "hexes": 0, "may_lose_steps": True,
        "prompt": "german player: lose 1 step(s) from ge-1pz-1 (engaged: no retreat, 9.69)"}
    n = len(mini.journal)
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert log(mini, n) == ["ge-1pz-1 loses a step (now 3-1)"]
    # 9.69: no advance after an engaged result; the battle is over.
    assert mini.state.pending is None and mini.state.vars.battle is None


def test_9_68_19_7_an_attacker_that_retreats_has_its_path_chosen_by_the_defender(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "ge-inf-2": "0704", "so-rifle-4": "0804"})
    attack(mini, ("ge-1pz-1", "ge-inf-1", "ge-inf-2"), ("0804",), "1/1")
    mini.apply(TakeLosses(("so-rifle-4",)))
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "german", "who": "attacker",
        "units": ["ge-1pz-1", "ge-inf-1", "ge-inf-2"], "steps": 1, "hexes": 1, "may_lose_steps": True,
        "prompt": "german player: lose 1 step(s) from ge-1pz-1, ge-inf-1, ge-inf-2 or retreat them 1 hex(es)"}
    assert mini.state.vars.battle.attacker_lost is False
    mini.apply(ChooseRetreat())
    assert pending(mini) == {
        "kind": "retreat", "side": "soviet", "who": "attacker", "units": ["ge-1pz-1", "ge-inf-1", "ge-inf-2"],
        "hexes": 1, "prompt": "soviet player: choose the retreat of ge-1pz-1, ge-inf-1, ge-inf-2, 1 hex(es) each (19.7)."}
    assert mini.state.vars.battle.attacker_lost is True
    assert mini.state.vars.battle.stages == [["advance", "1"]]


def test_9_68_6_23_an_attacker_that_takes_its_loss_in_steps_has_lost(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "ge-inf-2": "0704", "so-rifle-4": "0804"})
    attack(mini, ("ge-1pz-1", "ge-inf-1", "ge-inf-2"), ("0804",), "1/1")
    mini.apply(TakeLosses(("so-rifle-4",)))
    assert mini.state.vars.battle.attacker_lost is False  # the defender's loss is not the attacker's
    mini.apply(TakeLosses(("ge-inf-2",)))
    # The hex is empty, so the advance waits; the attacker's step loss is on the battle record.
    assert pending(mini)["kind"] == "advance" and pending(mini)["side"] == "german"
    assert mini.state.vars.battle.attacker_lost is True
    assert mini.state.vars.battle.stages == []


def test_9_65_an_e_result_for_the_attacker_leaves_the_defender_the_advance(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804"})
    n = len(mini.journal)
    attack(mini, ("ge-1pz-2",), ("0804",), "E/-")
    assert log(mini, n)[2:] == ["ge-1pz-2 is eliminated (an E result, 9.65)"]
    assert mini.state.vars.battle.attacker_lost is True
    assert pending(mini)["kind"] == "advance" and pending(mini)["side"] == "soviet"


def test_9_65_an_e_result_for_the_defender(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"})
    n = len(mini.journal)
    attack(mini, ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804",), "-/E")
    assert log(mini, n)[2:] == ["so-rifle-3 is eliminated (an E result, 9.65)"]
    assert mini.state.vars.battle.attacker_lost is False


# -- untried units (13.2, 19.61, 19.63, 19.65) and the play-by-mail option (25.11) -----------------

# Pool order for so-t01-rifle-1: rifle-201 (3-3), rifle-202 (0-0), rifle-203 (5-5 *).
UNTRIED = {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"}


def test_19_61_a_revealed_asterisk_forces_the_soviet_retreat_but_not_the_german(mini: Game) -> None:
    battle(mini, UNTRIED, turn=1)
    load_dice(mini, [die_for(mini, "1-1", "1/1")], picks=[2])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert mini.state.vars.battle.asterisk is True
    assert pending(mini) == {
        "kind": "retreat", "side": "german", "who": "defender", "units": ["so-t01-rifle-1"], "hexes": 1,
        "prompt": "german player: choose the retreat of so-t01-rifle-1, 1 hex(es) each (19.7). "
                  "19.61: an asterisk unit was revealed, so the Soviet units must retreat"}
    assert mini.state.vars.battle.attacker_lost is False
    path = combat.retreat_options(mini)["so-t01-rifle-1"][0]
    mini.apply(Retreat(("so-t01-rifle-1",), (path,)))
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "german", "who": "attacker", "units": ["ge-1pz-1"], "steps": 1,
        "hexes": 1, "may_lose_steps": True,
        "prompt": "german player: lose 1 step(s) from ge-1pz-1 or retreat them 1 hex(es)"}


def test_19_61_9_69_an_engaged_result_still_costs_the_asterisk_unit_a_step(mini: Game) -> None:
    battle(mini, UNTRIED, turn=1)
    load_dice(mini, [die_for(mini, "1-1", "eng")], picks=[2])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert pending(mini)["kind"] == "loss_or_retreat" and pending(mini)["hexes"] == 0


def test_19_61_a_soviet_attacker_with_an_asterisk_retreats_when_it_loses(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0905", "ge-1pz-2": "0704"}, player="soviet")
    load_dice(mini, [die_for(mini, "1-1", "1/1")], picks=[2])  # 5 against 3 (motorized regiment): 1-1
    mini.apply(Attack(("so-t01-rifle-1",), ("0704",)))
    mini.apply(TakeLosses(("ge-1pz-2",)))
    assert pending(mini) == {
        "kind": "retreat", "side": "german", "who": "attacker", "units": ["so-t01-rifle-1"], "hexes": 1,
        "prompt": "german player: choose the retreat of so-t01-rifle-1, 1 hex(es) each (19.7). "
                  "19.61: an asterisk unit was revealed, so the Soviet units must retreat"}
    assert mini.state.vars.battle.attacker_lost is True


def test_25_11_the_option_bars_the_retreat_with_its_own_reason(mini: Game) -> None:
    mini.scenario.params["pbm_asterisk"] = True
    battle(mini, UNTRIED, turn=1)
    load_dice(mini, [die_for(mini, "1-1", "1/1")], picks=[2])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "soviet", "who": "defender", "units": ["so-t01-rifle-1"], "steps": 1,
        "hexes": 0, "may_lose_steps": True, "no_retreat": "25.11",
        "prompt": "soviet player: lose 1 step(s) from so-t01-rifle-1 (an asterisk unit fights here: no retreat, 25.11)"}
    assert refusal(mini, ChooseRetreat()) == \
        "[25.11] an asterisk unit is in this battle, so the Soviet units may not retreat"
    mini.apply(TakeLosses(("so-t01-rifle-1",)))
    # The German attacker's own part is untouched by the option.
    assert pending(mini)["hexes"] == 1 and "no_retreat" not in pending(mini)


def test_25_11_an_engaged_result_keeps_its_own_reason(mini: Game) -> None:
    mini.scenario.params["pbm_asterisk"] = True
    battle(mini, UNTRIED, turn=1)
    load_dice(mini, [die_for(mini, "1-1", "eng")], picks=[2])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert pending(mini)["prompt"] == "soviet player: lose 1 step(s) from so-t01-rifle-1 (engaged: no retreat, 9.69)"
    assert "no_retreat" not in pending(mini)


def test_25_11_off_the_soviet_units_without_an_asterisk_may_retreat(mini: Game) -> None:
    mini.scenario.params["pbm_asterisk"] = True
    battle(mini, UNTRIED, turn=1)
    load_dice(mini, [die_for(mini, "2-1", "-/1")], picks=[0])  # rifle-201, 3-3: 6 against 3
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert pending(mini)["hexes"] == 1 and "no_retreat" not in pending(mini)
    assert mini.check(ChooseRetreat()) is None


def test_13_2_an_empty_pool_is_an_error_not_a_guess(mini: Game) -> None:
    battle(mini, UNTRIED, turn=1)
    mini.state.vars.pool_used = ["rifle-201", "rifle-202", "rifle-203"]
    with pytest.raises(RuntimeError, match="^the untried pool for so-t01-rifle-1 is empty$"):
        mini.apply(Attack(("ge-1pz-1",), ("0804",)))


def test_19_65_a_cancelled_attack_is_logged_and_ends_the_battle(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"}, player="soviet")
    load_dice(mini, [], picks=[1])  # rifle-202, 0-0
    n = len(mini.journal)
    mini.apply(Attack(("so-t01-rifle-1", "so-hq-army"), ("0704",)))
    assert log(mini, n)[2:] == [
        "so-t01-rifle-1 is eliminated (its attack had no strength at all, 19.65)",
        "The attack does not take place: the attackers' total strength is zero (19.65)."]
    # The HQ, left alone in ge-inf-1's zone, goes back a hex first (11.23); then the battle ends.
    assert pending(mini)["kind"] == "retreat"
    mini.apply(Retreat(("so-hq-army",), (("0905",),)))
    assert mini.state.pending is None and mini.state.vars.battle is None


def test_19_63_lone_no_strength_defenders_are_lost_and_the_winner_may_go_two_hexes(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"})
    load_dice(mini, [], picks=[1])  # rifle-202, 0-0
    n = len(mini.journal)
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert log(mini, n)[2:] == [
        "so-t01-rifle-1 is eliminated (every Soviet unit in the battle proved a no-strength unit, 19.63)"]
    assert mini.rolls == 1  # the draw only: no die is rolled
    assert pending(mini) == {"kind": "advance", "side": "german", "units": ["ge-1pz-1"], "max": 2,
                             "vacated": ["0804"],
                             "prompt": "german player: advance up to 2 hex(es) with ge-1pz-1, or decline"}


# -- 20.2: Gross Deutschland's division ---------------------------------------------------------------------

GD = {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804", "so-hq-army": "0804",
      "ge-inf-1": "0705"}


def test_20_2_the_german_player_is_asked_once_for_the_hex_with_gd(mini: Game) -> None:
    battle(mini, GD, player="soviet")
    assert refusal(mini, ChooseIntegrity("1 Pz")) == "[20.2] no divisional integrity question is waiting"
    mini.apply(Attack(("so-rifle-4", "so-hq-army"), ("0705", "0704")))
    assert pending(mini) == {
        "kind": "integrity", "side": "german", "hex": "0704", "choices": ["1 Pz", "2 Pz"],
        "prompt": "german player: GD in 0704 counts with which division: 1 Pz, 2 Pz (20.2)"}
    assert refusal(mini, ChooseIntegrity("3 Pz")) == "[20.2] GD cannot count with 3 Pz here (it can join: 1 Pz, 2 Pz)"
    assert mini.check(ChooseIntegrity("2 Pz")) is None
    load_dice(mini, [6])
    n = len(mini.journal)
    mini.apply(ChooseIntegrity("2 Pz"))
    assert mini.state.vars.battle.defence_integrity == {"0704": "2 Pz"}
    # GD doubles with ge-2pz-1 (2 + 2, doubled), ge-1pz-2 counts at face: 7 + 3 + 8 = 18 against 10.
    assert log(mini, n) == [
        "Die roll #1 for attack at 0705, 0704 (1-2): 6",
        "Attack: so-rifle-4, so-hq-army against 0705, 0704: 10 to 18, column 1-2, die 6: result 3/- "
        "[so-rifle-4 6; so-hq-army 4 (11.37 adds its rating 4, capped at its stack's 6); ge-inf-1 7; ge-1pz-2 3; "
        "ge-2pz-1 4 (20.0 divisional integrity: doubled); ge-gd 4 (20.0 divisional integrity: doubled)]"]
    # 9.67: three steps are asked of two one-step units, so both are lost.
    assert pending(mini) == {
        "kind": "loss_or_retreat", "side": "soviet", "who": "attacker", "units": ["so-rifle-4", "so-hq-army"],
        "steps": 3, "hexes": 3, "may_lose_steps": True,
        "prompt": "soviet player: lose 3 step(s) from so-rifle-4, so-hq-army or retreat them 3 hex(es)"}
    assert refusal(mini, TakeLosses(("so-rifle-4", "so-hq-army", "so-hq-army"))) == \
        "[9.67] name exactly 2 step loss(es), one unit id per step"
    assert mini.check(TakeLosses(("so-rifle-4", "so-hq-army"))) is None


def test_20_2_an_attack_counts_gd_with_the_division_the_attacker_named(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [4])
    n = len(mini.journal)
    mini.apply(Attack(("ge-1pz-2", "ge-2pz-1", "ge-gd"), ("0804",), integrity="2 Pz"))
    # GD doubles with ge-2pz-1 (6 + 2, doubled = 16) and ge-1pz-2 counts at face: 17 against 4.
    assert log(mini, n) == [
        "Die roll #1 for attack at 0804 (4-1): 4",
        "Attack: ge-1pz-2, ge-2pz-1, ge-gd against 0804: 17 to 4, column 4-1, die 4: result -/1 "
        "[ge-1pz-2 1; ge-2pz-1 12 (20.0 divisional integrity: doubled); ge-gd 4 (20.0 divisional integrity: doubled); "
        "so-rifle-4 4 (12.23 out of supply: halved)]"]
    assert mini.state.vars.battle.integrity == "2 Pz"


# -- 9.5: the battle log names every modifier and flags a reconstructed CRT entry ----------------

def test_10_4_12_23_the_log_lists_each_modifier_of_a_unit(mini: Game) -> None:
    battle(mini, {"ge-inf-1": "0304", "ge-1pz-1": "0304", "so-rifle-1": "0404"})
    load_dice(mini, [1])
    n = len(mini.journal)
    mini.apply(Attack(("ge-inf-1", "ge-1pz-1"), ("0404",)))
    # so-rifle-1 defends 5, doubled in the woods and halved out of supply: 11 against 5 is 2-1.
    assert log(mini, n)[1] == (
        "Attack: ge-inf-1, ge-1pz-1 against 0404: 11 to 5, column 2-1, die 1: result -/1 "
        "[ge-inf-1 5; ge-1pz-1 6; so-rifle-1 5 (10.4 woods: defence doubled; 12.23 out of supply: halved)]")


def test_6_0_an_overrun_is_fought_at_half_strength(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-3": "0804"}, player="german",
             phase="movement", turn=1, reinforcements=False)
    load_dice(mini, [6])
    n = len(mini.journal)
    mini.apply(Overrun(("ge-1pz-1", "ge-1pz-2"), "0804"))
    # (6 + 1) doubled for integrity is 14, halved for the overrun: 7 against 2, column 3-1.
    assert log(mini, n) == [
        "Die roll #1 for overrun at 0804 (3-1): 6",
        "Overrun: ge-1pz-1, ge-1pz-2 against 0804: 7 to 2, column 3-1, die 6: result 1/- "
        "[ge-1pz-1 12 (20.0 divisional integrity: doubled); ge-1pz-2 2 (20.0 divisional integrity: doubled); "
        "so-rifle-3 2]"]


def test_9_5_a_reconstructed_crt_entry_is_named_in_the_battle_log(tmp_path: Path) -> None:
    root = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", root)
    tables = root / "tables.toml"
    old = 'die = 2\nresults = ["1/-", "eng", "1/1", "-/1", "-/1",'
    text = tables.read_text()
    assert old in text
    tables.write_text(text.replace("die = 2\n", "die = 2\nreconstructed = true\n", 1))
    game = Game.new(root / "scenarios" / "mini.toml", seed=7)
    battle(game, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    n = len(game.journal)
    load_dice(game, [2])
    game.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert log(game, n)[1] == (
        "Attack: ge-1pz-1 against 0804: 6 to 1, column 6-1, die 2: result -/2 "
        "[ge-1pz-1 6; so-rifle-3 1 (12.23 out of supply: halved); "
        "this CRT entry is reconstructed (see data/spi_kiev/SOURCES.md)]")
