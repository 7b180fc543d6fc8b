"""SPI Kiev combat rules fixed after the case-by-case audit (issue 12), one test per case.

Each test builds a position on the fixture map (see tests/test_spi_kiev_combat.py for its
terrain) and asserts the exact outcome the rulebook asks for.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.spi_kiev import bot, combat
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance,
                                             Move, Overrun, Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.tables import check_tables

from tests.conftest import FIXTURES, position
from tests.spi_helpers import die_for, load_dice, pending


def case(game: Game, action: object) -> str | None:
    bad = game.check(action)  # type: ignore[arg-type]
    return None if bad is None else bad.case


def battle(game: Game, placements: dict[str, str], player: str = "german", turn: int = 1) -> Game:
    return position(game, placements, player=player, phase="combat", turn=turn, reinforcements=False)


def overrun_pos(game: Game, placements: dict[str, str], player: str = "german", turn: int = 1) -> Game:
    return position(game, placements, player=player, phase="movement", turn=turn, reinforcements=False)


def status(game: Game, uid: str) -> str:
    return game.state.units[uid].status


def resolved(events: list) -> list:  # type: ignore[type-arg]
    return [e for e in events if e.kind == "combat_resolved"]


# -- 6.12 / 12.21: an overrunning stack's supply is the one it had when the phase began ----------

def test_6_12_overrun_strength_uses_supply_at_the_start_of_the_phase(mini: Game) -> None:
    # The tank starts within its HQ's radius (in supply), then drives out of it and overruns.
    overrun_pos(mini, {"so-tank-1": "0807", "so-hq-army": "1010", "ge-inf-1": "0802"}, player="soviet", turn=2)
    assert mini.state.vars.oos_start == []
    mini.apply(Move(("so-tank-1",), ("0806", "0805", "0804", "0803")))
    assert not View(mini).supply.status("so-tank-1").in_supply  # cut off by now...
    p = overrun_preview(mini, ["so-tank-1"], "0802")
    assert p.attack == 2  # ...yet in supply for the whole phase (12.21): 5 halved once for the overrun
    assert not any(m.case == "12.23" for s in p.attackers for m in s.mods)
    load_dice(mini, [6])
    events = mini.apply(Overrun(("so-tank-1",), "0802"))
    assert resolved(events)[0].attack == 2


# -- 9.76 -----------------------------------------------------------------------------------------

def _retreat_into_friend(mini: Game) -> None:
    """so-rifle-3 (0804) is beaten and its only retreat is into so-rifle-1's hex 0904."""
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0806", "ge-inf-2": "1004",
                  "so-rifle-3": "0804", "so-rifle-1": "0904"})
    first = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    load_dice(mini, [die_for(mini, first.column, "-/1")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(ChooseRetreat())
    assert combat.retreat_options(mini)["so-rifle-3"] == [("0904",)]
    mini.apply(Retreat(("so-rifle-3",), (("0904",),)))
    mini.apply(DeclineAdvance())


def test_9_76_an_engaged_result_also_eliminates_a_unit_that_retreated_into_the_hex(mini: Game) -> None:
    _retreat_into_friend(mini)
    p = combat.preview(mini, ["ge-inf-2"], ["0904"])
    assert {s.unit for s in p.defenders} == {"so-rifle-1"}
    load_dice(mini, [die_for(mini, p.column, "eng")])
    mini.apply(Attack(("ge-inf-2",), ("0904",)))
    assert status(mini, "so-rifle-3") == "eliminated"
    p2 = pending(mini)
    assert p2["kind"] == "loss_or_retreat" and p2["units"] == ["so-rifle-1"]


def test_9_81_a_unit_that_retreated_in_does_not_follow_a_beaten_attacker(mini: Game) -> None:
    _retreat_into_friend(mini)
    p = combat.preview(mini, ["ge-inf-2"], ["0904"])
    load_dice(mini, [die_for(mini, p.column, "1/-")])
    mini.apply(Attack(("ge-inf-2",), ("0904",)))
    assert status(mini, "so-rifle-3") == "map"  # the hex itself suffered nothing (9.76)
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-inf-2",), (combat.retreat_options(mini)["ge-inf-2"][0],)))
    p2 = pending(mini)
    assert p2["kind"] == "advance" and p2["side"] == "soviet" and p2["units"] == ["so-rifle-1"]


def test_9_76_does_not_apply_to_overruns(mini: Game) -> None:
    # First overrun: so-rifle-3 retreats into so-rifle-1's hex; the stack rolls in behind it.
    FORCE = ("ge-1pz-1", "ge-1pz-2")  # (6 + 1) doubled for integrity, halved: 7
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-inf-1": "0806", "ge-inf-2": "1004",
                       "so-rifle-3": "0804", "so-rifle-1": "0904"})
    first = overrun_preview(mini, FORCE, "0804")
    load_dice(mini, [die_for(mini, first.column, "-/1")])
    mini.apply(Overrun(FORCE, "0804"))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("0904",),)))
    assert mini.state.units["ge-1pz-1"].hex == "0804"
    assert "so-rifle-3" not in mini.state.vars.retreated_into
    # Second overrun on 0904: both Soviet units defend, and a loss is theirs to share.
    p = overrun_preview(mini, FORCE, "0904")
    shares = {s.unit: s.value for s in p.defenders}
    assert set(shares) == {"so-rifle-1", "so-rifle-3"} and shares["so-rifle-3"] == 2
    assert p.defense == 7
    load_dice(mini, [die_for(mini, p.column, "1/1")])
    mini.apply(Overrun(FORCE, "0904"))
    assert status(mini, "so-rifle-3") == "map"
    assert pending(mini)["units"] == ["so-rifle-1", "so-rifle-3"]


# -- 19.63 / 19.65: no-strength battles --------------------------------------------------------

def test_19_63_a_no_strength_unit_beside_an_hq_is_not_eliminated(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804", "so-hq-army": "0804"})
    load_dice(mini, [6], picks=[1])  # the untried unit draws rifle-202, a 0-0
    events = mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    # The HQ is a Soviet unit of the battle and no no-strength unit: both stay (19.63), and the
    # HQ, the one defender with a strength, defends at half its rating 4: 6 against 2, 3-1, die 6.
    assert status(mini, "so-t01-rifle-1") == "map"
    assert status(mini, "so-hq-army") == "map"
    r = resolved(events)
    assert len(r) == 1 and r[0].defense == 2 and r[0].column == "3-1" and r[0].die == 6


def test_19_65_any_attack_totalling_zero_is_cancelled(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "so-rifle-3": "0804"})
    mini.state.units["ge-1pz-2"].step = 1  # its 0-1 side
    mini.touch()
    p = combat.preview(mini, ["ge-1pz-2"], ["0804"])
    assert p.chances == {"attack cancelled (19.65)": 1.0}
    events = mini.apply(Attack(("ge-1pz-2",), ("0804",)))
    assert mini.rolls == 0 and not resolved(events)
    assert status(mini, "ge-1pz-2") == "eliminated" and status(mini, "so-rifle-3") == "map"


def test_19_65_an_hq_is_not_eliminated_when_its_stack_attacks_with_nothing(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"}, player="soviet")
    load_dice(mini, [], picks=[1])  # rifle-202: 0-0, so the HQ adds nothing either (11.37)
    mini.apply(Attack(("so-t01-rifle-1", "so-hq-army"), ("0704",)))
    assert mini.rolls == 1  # the draw only
    assert status(mini, "so-t01-rifle-1") == "eliminated" and status(mini, "so-hq-army") == "map"
    # Alone in ge-inf-1's zone, the HQ must go back a hex (11.23): the German picks the way (19.7).
    assert mini.state.pending["kind"] == "retreat" and mini.state.pending["units"] == ["so-hq-army"]


# -- 9.32: overrun halving, rounding, and the floor of one ---------------------------------------

def test_9_32_an_overrun_halved_to_nothing_is_still_worth_one(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-2": "0704", "so-rifle-3": "0804"})
    p = overrun_preview(mini, ["ge-1pz-2"], "0804")
    assert p.attack == 1  # 1 halved is 0.5, dropped to 0, then raised to the minimum of one
    load_dice(mini, [1])
    events = mini.apply(Overrun(("ge-1pz-2",), "0804"))
    assert resolved(events)[0].attack == 1 and status(mini, "ge-1pz-2") == "map"


# -- 9.84: two hexes after an elimination ----------------------------------------------------------

def test_9_84_a_defender_that_eliminates_its_attacker_may_advance_two_hexes(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [die_for(mini, "1-3", "E/-")])  # 1 against 8
    mini.apply(Attack(("ge-1pz-2",), ("0804",)))
    assert status(mini, "ge-1pz-2") == "eliminated"
    p = pending(mini)
    assert p["kind"] == "advance" and p["side"] == "soviet" and p["max"] == 2
    paths = combat.advance_options(mini)["paths"]
    assert ("0704", "0604") in paths and ("0704", "0703") in paths
    assert not any(len(x) > 2 for x in paths)
    mini.apply(Advance(("so-rifle-4",), ("0704", "0604")))
    assert mini.state.units["so-rifle-4"].hex == "0604"


def test_9_84_a_hex_emptied_by_step_losses_also_opens_two_hexes(mini: Game) -> None:
    # -/1 taken as a step loss: the lone 1-2 is eliminated, so 0804 is wholly eliminated.
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [die_for(mini, "3-1", "-/1")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert pending(mini)["max"] == 2
    assert ("0804", "0904") in combat.advance_options(mini)["paths"]
    # The same for the defender: a 1/- costs the reduced panzer (3-1) its last step.
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-4": "0804"})
    mini.state.units["ge-1pz-1"].step = 1
    mini.touch()
    load_dice(mini, [die_for(mini, "1-3", "1/-")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert status(mini, "ge-1pz-1") == "eliminated"
    p = pending(mini)
    assert p["side"] == "soviet" and p["max"] == 2
    assert ("0704", "0604") in combat.advance_options(mini)["paths"]


def test_9_84_two_hex_paths_follow_each_hexs_own_retreat(mini: Game) -> None:
    # Two hexes attacked at once, both retreat two hexes: 0803 -> 0802 -> 0801 and 0804 -> 0803 -> 0802.
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "ge-inf-1": "0806",
                  "ge-inf-2": "1004", "ge-gd": "0904", "so-rifle-3": "0804", "so-rifle-1": "0803"})
    force = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")
    p = combat.preview(mini, force, ["0803", "0804"])
    load_dice(mini, [die_for(mini, p.column, "-/2")])
    mini.apply(Attack(force, ("0803", "0804")))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-1", "so-rifle-3"), (("0802", "0801"), ("0803", "0802"))))
    # From 0803 the way on (0802) is Soviet-held again; from 0804 it runs through 0803.
    assert combat.advance_options(mini)["paths"] == [("0803",), ("0804",), ("0804", "0803")]
    assert case(mini, Advance(("ge-1pz-1",), ("0803", "0803"))) == "9.82"


def test_9_84_after_an_elimination_the_second_hex_is_any_vacant_or_friendly_hex(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804",
                  "so-rifle-4": "0905", "ge-inf-1": "0803"})
    load_dice(mini, [1])  # 16 against 2: 8-1, die 1: -/E
    mini.apply(Attack(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804",)))
    paths = set(combat.advance_options(mini)["paths"])
    assert ("0804", "0803") in paths  # friendly-occupied
    assert ("0804", "0905") not in paths  # enemy-occupied
    assert ("0804", "0904") in paths  # vacant, German zones ignored (9.82)
    assert case(mini, Advance(("ge-1pz-1",), ("0804", "0905"))) == "9.82"
    # three Germans may not end in 0803, which already holds one
    assert case(mini, Advance(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804", "0803"))) == "7.0"


@pytest.mark.parametrize("guard, barred", [("0705", False), ("0605", True)])
def test_9_84_with_10_13_the_second_hex_across_a_major_river(mini: Game, guard: str, barred: bool) -> None:
    # 0504 -> 0604 crosses the major river. A Soviet unit at 0705 zones 0604 from off the river
    # and does not bar it; one at 0605, on the bank, does (10.13 as ruled in docs/rulings.md).
    force = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")
    battle(mini, {"ge-1pz-1": "0404", "ge-1pz-2": "0404", "ge-1pz-3": "0404", "so-rifle-3": "0504",
                  "so-rifle-4": guard})
    p = combat.preview(mini, force, ["0504"])
    load_dice(mini, [die_for(mini, p.column, "-/E")])
    mini.apply(Attack(force, ("0504",)))
    assert status(mini, "so-rifle-3") == "eliminated"
    paths = set(combat.advance_options(mini)["paths"])
    assert (("0504", "0604") in paths) is not barred
    assert ("0504", "0505") in paths  # no river on the way: open in both cases


# -- 21.0: a leader's defence follows the stack's terrain and supply ------------------------------

def test_21_0_a_leaders_defence_is_doubled_by_the_woods_with_its_stack(mini: Game) -> None:
    battle(mini, {"ge-inf-1": "0404", "ge-leader": "0404", "so-rifle-4": "0504", "so-hq-army": "0504"},
           player="soviet")
    p = combat.preview(mini, ["so-rifle-4", "so-hq-army"], ["0404"])
    assert p.defense == 16  # (7 + half of 2) doubled


def test_21_0_a_leaders_defence_is_halved_out_of_supply_with_its_stack(mini: Game) -> None:
    battle(mini, {"ge-inf-1": "0304", "ge-leader": "0304", "so-rifle-1": "0105", "so-rifle-2": "0107",
                  "so-rifle-3": "0305"}, player="soviet")
    mini.state.units["ge-inf-1"].step = 1  # 3-4
    mini.touch()
    p = combat.preview(mini, ["so-rifle-3"], ["0304"])
    assert p.defense == 2  # (4 + 1) halved, rounded down once


# -- 20.2 on defence: the German names GD's division ---------------------------------------------

GD_STACK = {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804", "so-hq-army": "0804"}


def test_20_2_on_defence_the_german_player_chooses_gds_division(mini: Game) -> None:
    results = {}
    for division in ("1 Pz", "2 Pz"):
        battle(mini, GD_STACK, player="soviet")
        load_dice(mini, [6])
        rolls = mini.rolls
        events = mini.apply(Attack(("so-rifle-4", "so-hq-army"), ("0704",)))
        assert not resolved(events) and mini.rolls == rolls  # asked before any die
        p = pending(mini)
        assert p["kind"] == "integrity" and p["side"] == "german" and p["choices"] == ["1 Pz", "2 Pz"]
        assert case(mini, ChooseIntegrity("3 Pz")) == "20.2"
        assert case(mini, TakeLosses(("ge-gd",))) == "9.66"
        events = mini.apply(ChooseIntegrity(division))
        results[division] = resolved(events)[0].defense
    # 1 Pz: (3 + 2) doubled + 2 = 12; 2 Pz: (2 + 2) doubled + 3 = 11.
    assert results == {"1 Pz": 12, "2 Pz": 11}


def test_20_2_no_question_with_only_one_division_beside_gd(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "ge-gd": "0704", "so-rifle-4": "0804", "so-hq-army": "0804"},
           player="soviet")
    load_dice(mini, [6])
    events = mini.apply(Attack(("so-rifle-4", "so-hq-army"), ("0704",)))
    assert resolved(events)[0].defense == 10  # (3 + 2) doubled


def test_20_2_the_bot_answers_the_defence_question(mini: Game) -> None:
    battle(mini, GD_STACK, player="soviet")
    load_dice(mini, [6, 6])
    mini.apply(Attack(("so-rifle-4", "so-hq-army"), ("0704",)))
    import random
    action = bot.answer_pending(mini, random.Random(1))
    assert isinstance(action, ChooseIntegrity) and action.division in ("1 Pz", "2 Pz")
    mini.apply(action)
    assert mini.state.pending is None or pending(mini)["kind"] != "integrity"


def test_20_2_a_game_paused_on_the_question_survives_a_state_round_trip(mini: Game) -> None:
    from kiev_tui.engine.state import GameState

    battle(mini, GD_STACK, player="soviet")
    mini.apply(Attack(("so-rifle-4", "so-hq-army"), ("0704",)))
    again = GameState.from_dict(mini.state.copy().to_dict(), mini.rules.vars_from_dict)
    assert again.pending == {**mini.state.pending} and again.pending["kind"] == "integrity"
    assert again.vars.battle == mini.state.vars.battle


# -- 25.11: the play-by-mail asterisk rule (scenario option) --------------------------------------

def test_25_11_off_by_default_a_tried_asterisk_unit_may_take_losses(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"})
    mini.state.units["so-t01-rifle-1"].face = "rifle-203"  # tried earlier: 5-5 with an asterisk
    mini.state.vars.pool_used = ["rifle-203"]
    mini.touch()
    load_dice(mini, [die_for(mini, "1-1", "1/1")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    p = pending(mini)
    assert p["kind"] == "loss_or_retreat" and p["hexes"] == 1  # 19.62: the asterisk is forgotten


def test_25_11_with_the_option_an_asterisk_unit_in_the_battle_bars_the_retreat(mini: Game) -> None:
    mini.scenario.params["pbm_asterisk"] = True
    battle(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"})
    mini.state.units["so-t01-rifle-1"].face = "rifle-203"
    mini.state.vars.pool_used = ["rifle-203"]
    mini.touch()
    load_dice(mini, [die_for(mini, "1-1", "1/1")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    p = pending(mini)
    assert p["kind"] == "loss_or_retreat" and p["side"] == "soviet" and p["hexes"] == 0
    assert case(mini, ChooseRetreat()) == "25.11"
    mini.apply(TakeLosses(("so-t01-rifle-1",)))
    assert status(mini, "so-t01-rifle-1") == "eliminated"


def test_25_11_with_the_option_a_revealed_asterisk_bars_the_retreat_not_the_losses(mini: Game) -> None:
    mini.scenario.params["pbm_asterisk"] = True
    battle(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"})
    load_dice(mini, [die_for(mini, "1-1", "1/1")], picks=[2])  # rifle-203, 5-5 *
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    p = pending(mini)
    assert p["kind"] == "loss_or_retreat" and p["hexes"] == 0  # 25.11 replaces 19.61


def test_25_11_the_option_must_be_true_or_false(tmp_path: Path) -> None:
    root = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", root)
    sc = root / "scenarios" / "mini.toml"
    sc.write_text(sc.read_text().replace("rpl_counters = 1", 'rpl_counters = 1\npbm_asterisk = "yes"'))
    with pytest.raises(DataError) as exc:
        load_scenario(sc)
    assert "pbm_asterisk" in str(exc.value)


# -- 16: the combat values come from tables.toml ------------------------------------------------------

def _mini_copy(tmp_path: Path, old: str, new: str) -> Path:
    root = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", root)
    t = root / "tables.toml"
    text = t.read_text()
    assert old in text
    t.write_text(text.replace(old, new, 1))
    return root / "scenarios" / "mini.toml"


WOODS = "[tec.terrain.woods]\nmp_mech = 2\nmp_other = 1\ndefense = 2"


def test_10_4_the_woods_multiplier_is_read_from_tables_toml(mini: Game, tmp_path: Path) -> None:
    placements = {"so-rifle-1": "0404", "ge-inf-1": "0304"}
    battle(mini, placements)
    p = combat.preview(mini, ["ge-inf-1"], ["0404"])
    assert (p.defense, p.column) == (10, "1-2")
    edited = Game.new(_mini_copy(tmp_path, WOODS, WOODS.replace("defense = 2", "defense = 3")), seed=7)
    battle(edited, placements)
    p = combat.preview(edited, ["ge-inf-1"], ["0404"])
    assert (p.defense, p.column) == (15, "1-3")


def test_10_32_the_cap_is_read_from_tables_toml(tmp_path: Path) -> None:
    game = Game.new(_mini_copy(tmp_path, "max_defense_multiplier = 3", "max_defense_multiplier = 2"),
                    seed=7)
    battle(game, {"so-rifle-1": "0202", "ge-inf-1": "0302"})
    assert combat.preview(game, ["ge-inf-1"], ["0202"]).defense == 10  # city across a river, capped at x2


def test_19_53_special_hexes_are_read_from_tables_toml(tmp_path: Path) -> None:
    game = Game.new(_mini_copy(tmp_path, "[mud]", '[tec.hex_defense]\n"0505" = 3\n\n[mud]'), seed=7)
    battle(game, {"so-rifle-1": "0505", "ge-inf-1": "0504"})
    assert combat.preview(game, ["ge-inf-1"], ["0505"]).defense == 15  # Testgrad now counts like Kiev


def test_19_53_the_campaign_reads_kiev_from_its_tables() -> None:
    game = Game.new("spi_kiev/campaign", seed=1)
    tables = combat.combat_tables(game)
    assert tables.hex_defense == {"0319": 3} and tables.max_multiplier == 3
    assert tables.terrain_defense["woods"] == 2 and tables.hexside_defense["major_river"] == 3


def test_9_4_the_odds_clamps_are_read_from_tables_toml(tmp_path: Path) -> None:
    game = Game.new(_mini_copy(tmp_path, '"10-1"]', '"10-1"]\nabove_highest = "9-1"'), seed=7)
    # turn 2, no HQ: so-rifle-3 is out of command, so out of supply (11.34): 2 halved to 1
    battle(game, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "ge-leader": "0704",
                  "so-rifle-3": "0804"}, turn=2)
    p = combat.preview(game, ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3", "ge-leader"], ["0804"])
    assert p.attack == 18 and p.defense == 1 and p.column == "9-1"


def test_9_4_a_clamp_that_is_not_a_column_is_refused(tmp_path: Path) -> None:
    from kiev_tui.engine.tomlio import load_toml
    sc = _mini_copy(tmp_path, '"10-1"]', '"10-1"]\nbelow_lowest = "1-9"')
    path = sc.parent.parent / "tables.toml"
    with pytest.raises(DataError) as exc:
        check_tables(path, load_toml(path))
    assert "below_lowest" in str(exc.value)


# -- tests that could not fail before ------------------------------------------------------------

def test_9_83_a_defender_that_advanced_may_not_be_attacked_again(mini: Game) -> None:
    # The Soviet defender beats off an attack, follows the beaten attacker, and is then safe.
    battle(mini, {"ge-1pz-2": "0704", "ge-inf-1": "0703", "so-rifle-4": "0804"})
    load_dice(mini, [die_for(mini, "1-3", "1/-")])
    mini.apply(Attack(("ge-1pz-2",), ("0804",)))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-2",), (combat.retreat_options(mini)["ge-1pz-2"][0],)))
    assert pending(mini)["side"] == "soviet"
    mini.apply(Advance(("so-rifle-4",), ("0704",)))
    assert "so-rifle-4" in mini.state.vars.defended  # 9.14 would refuse too, but 9.83 is the reason
    assert case(mini, Attack(("ge-inf-1",), ("0704",))) == "9.83"
