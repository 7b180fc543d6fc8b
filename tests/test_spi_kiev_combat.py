"""SPI Kiev combat, one test per case, plus the rulebook's worked examples (fixture map).

Fixture map: a major river between hexrows 05 and 06 (road bridge 0505/0605, rail bridge
0507/0607), minor river 0201/0301-0203/0303, woods 0303 and 0404, swamp 0707 and 0608,
cities 0505 and 0202, town 0805.  Dice are loaded where the test needs a given result.
"""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseRetreat, DeclineAdvance, Move, Overrun,
                                             Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.strength import odds_column, terrain_multiplier
from kiev_tui.games.spi_kiev.victory import score

from tests.conftest import position
from tests.spi_helpers import die_for, load_dice, pending

COLS = ("1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")


def case(game: Game, action: object) -> str | None:
    bad = game.check(action)  # type: ignore[arg-type]
    return None if bad is None else bad.case


def battle(game: Game, placements: dict[str, str], player: str = "german", turn: int = 1) -> Game:
    return position(game, placements, player=player, phase="combat", turn=turn, reinforcements=False)


def status(game: Game, uid: str) -> str:
    return game.state.units[uid].status


# -- who may attack (9.1, 9.2) --------------------------------------------------------------

def test_9_11_attacks_only_in_the_combat_phase(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german", reinforcements=False)
    assert case(mini, Attack(("ge-1pz-1",), ("0804",))) == "9.11"


def test_9_12_attacking_is_voluntary(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    assert case(mini, EndPhase()) is None


def test_9_14_each_unit_attacks_once_and_is_attacked_once(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0705", "so-rifle-4": "0804"})
    load_dice(mini, [3])  # 6 against 8: 1-2, die 3: 1/- (the attacker loses a step or retreats)
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert case(mini, Attack(("ge-1pz-1",), ("0804",))) == "9.14"
    assert case(mini, Attack(("ge-inf-1",), ("0804",))) == "9.14"


def test_9_15_soviet_units_attack_only_within_command_radius(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0704", "ge-inf-1": "0703", "so-hq-army": "1010"}, player="soviet", turn=2)
    assert case(mini, Attack(("so-rifle-1",), ("0703",))) == "9.15"
    battle(mini, {"so-rifle-1": "0704", "ge-inf-1": "0703", "so-hq-army": "0806"}, player="soviet", turn=2)
    assert case(mini, Attack(("so-rifle-1",), ("0703",))) is None


def test_9_23_every_attacker_must_touch_every_target(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0702", "so-rifle-3": "0804", "so-rifle-1": "0803"})
    assert case(mini, Attack(("ge-1pz-1", "ge-inf-1"), ("0804",))) == "9.23"
    # 0704 touches both 0803 and 0804: one unit may attack two hexes at once.
    assert case(mini, Attack(("ge-1pz-1",), ("0803", "0804"))) is None


def test_9_21_all_units_in_a_hex_defend_together(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804", "so-rifle-1": "0804"})
    p = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    assert {s.unit for s in p.defenders} == {"so-rifle-3", "so-rifle-1"}
    assert p.defense == 7 and p.attack == 6 and p.column == "1-2"


# -- strengths (9.3, 10.x, 11.x, 12.23, 19.53, 20, 21) ---------------------------------------

def test_9_4_rulebook_example_26_to_9_is_2_to_1() -> None:
    assert odds_column(26, 9, COLS) == "2-1"
    assert odds_column(29, 10, COLS) == "2-1"  # the procedure's own example
    assert odds_column(5, 9, COLS) == "1-2"  # rounded in the defender's favour
    assert odds_column(50, 2, COLS) == "10-1" and odds_column(1, 9, COLS) == "1-3"


def test_10_4_woods_and_10_26_city_double_the_defence(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0303", "ge-inf-1": "0203", "so-rifle-2": "0505"}, player="german")
    # woods and the minor river 0203/0303: two bonuses, so 5 tripled (10.32)
    assert combat.preview(mini, ["ge-inf-1"], ["0303"]).defense == 15
    battle(mini, {"so-rifle-1": "0404", "ge-inf-1": "0304"})
    assert combat.preview(mini, ["ge-inf-1"], ["0404"]).defense == 10  # woods alone: doubled
    battle(mini, {"so-rifle-2": "0505", "ge-inf-1": "0504"})
    assert combat.preview(mini, ["ge-inf-1"], ["0505"]).defense == 10


def test_10_12_minor_river_doubles_only_if_every_attacker_is_across_it(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0302", "ge-inf-1": "0202", "ge-inf-2": "0301"})
    # 0202->0302 crosses the minor river, 0301->0302 does not: no bonus.
    assert combat.preview(mini, ["ge-inf-1", "ge-inf-2"], ["0302"]).defense == 5
    assert combat.preview(mini, ["ge-inf-1"], ["0302"]).defense == 10


def test_10_14_major_river_triples(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0604", "ge-inf-1": "0504"})
    p = combat.preview(mini, ["ge-inf-1"], ["0604"])
    assert p.defense == 15
    assert any(m.case == "10.14" for s in p.defenders for m in s.mods)


def test_10_32_rulebook_example_city_across_a_minor_river_is_tripled(mini: Game) -> None:
    # Westburg (0202) is a city; 0302 attacks it across the minor river 0202/0302.
    battle(mini, {"so-rifle-1": "0202", "ge-inf-1": "0302"})
    p = combat.preview(mini, ["ge-inf-1"], ["0202"])
    assert p.defense == 15
    assert any(m.case == "10.32" for s in p.defenders for m in s.mods)


def test_10_32_never_more_than_triple_but_integrity_adds(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0202", "ge-1pz-3": "0202", "so-rifle-1": "0302"}, player="soviet")
    p = combat.preview(mini, ["so-rifle-1"], ["0202"])
    # 3 + 3 defence, tripled (city across the river), doubled for integrity: 36.
    assert p.defense == 36


def test_19_53_kiev_tripled_in_supply_doubled_out_of_it() -> None:
    game = Game.new("spi_kiev/campaign", seed=1)
    view = View(game)
    assert terrain_multiplier(view, H("0319"), [H("0318")], True)[0] == 3
    assert terrain_multiplier(view, H("0319"), [H("0318")], False)[0] == 2
    # Out of supply Kiev is an ordinary city, so the Dnieper still adds its bonus (10.32, rulings).
    assert terrain_multiplier(view, H("0319"), [H("0419")], False)[0] == 3


def test_12_23_out_of_supply_halved_and_9_32_rounded_once_never_below_one(mini: Game) -> None:
    # German infantry cut off from both western exits: halved on attack.
    battle(mini, {"ge-inf-1": "0304", "so-rifle-1": "0105", "so-rifle-2": "0107", "so-rifle-3": "0305"})
    p = combat.preview(mini, ["ge-inf-1"], ["0305"])
    assert p.attack == 2  # 5 halved to 2.5, rounded down once
    assert any(m.case == "12.23" for s in p.attackers for m in s.mods)


def test_11_37_rulebook_example_hq_adds_its_rating_capped(mini: Game) -> None:
    # 6-8-6 with a rating-4 HQ attacks with 10; 1-2-6 with the same HQ attacks with 2.
    battle(mini, {"so-rifle-4": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"}, player="soviet")
    assert combat.preview(mini, ["so-rifle-4", "so-hq-army"], ["0704"]).attack == 10
    battle(mini, {"so-rifle-3": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"}, player="soviet")
    assert combat.preview(mini, ["so-rifle-3", "so-hq-army"], ["0704"]).attack == 2


def test_11_38_19_66_hq_defends_at_half_its_rating_only_when_alone(mini: Game) -> None:
    battle(mini, {"so-hq-army": "0804", "ge-inf-1": "0704"})
    assert combat.preview(mini, ["ge-inf-1"], ["0804"]).defense == 2
    battle(mini, {"so-hq-army": "0804", "so-rifle-3": "0804", "ge-inf-1": "0704"})
    assert combat.preview(mini, ["ge-inf-1"], ["0804"]).defense == 2  # only the 1-2's defence


def test_21_0_leaders_add_rating_to_attack_and_half_to_defence(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-4": "0804"})
    assert combat.preview(mini, ["ge-1pz-1", "ge-leader"], ["0804"]).attack == 8
    battle(mini, {"ge-inf-1": "0704", "ge-leader": "0704", "so-rifle-4": "0804"}, player="soviet")
    assert combat.preview(mini, ["so-rifle-4"], ["0704"]).defense == 8  # 7 + half of 2


def test_20_0_regiments_of_one_division_stacked_are_doubled(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-4": "0804"})
    assert combat.preview(mini, ["ge-1pz-1", "ge-1pz-2"], ["0804"]).attack == 14


def test_20_11_other_units_in_the_stack_add_face_value(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-inf-1": "0704", "so-rifle-4": "0804"})
    assert combat.preview(mini, ["ge-1pz-1", "ge-1pz-2", "ge-inf-1"], ["0804"]).attack == 19


def test_20_12_lone_regiments_and_infantry_divisions_are_not_doubled(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-2pz-1": "0704", "so-rifle-4": "0804"})
    assert combat.preview(mini, ["ge-1pz-1", "ge-2pz-1"], ["0804"]).attack == 12


def test_20_2_gross_deutschland_pairs_with_any_mechanized_regiment(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804"})
    assert combat.preview(mini, ["ge-1pz-1", "ge-gd"], ["0804"]).attack == 16
    # With two divisions present, GD doubles only one of them (the German's choice).
    battle(mini, {"ge-1pz-1": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804"})
    p = combat.preview(mini, ["ge-1pz-1", "ge-2pz-1", "ge-gd"], ["0804"], integrity="2 Pz")
    assert p.attack == 6 + 12 + 4


# -- results (9.5, 9.6) ---------------------------------------------------------------------------

def test_9_66_a_number_means_lose_steps_or_retreat_never_both(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [2])  # 6 against 2: 3-1, die 2: -/1
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    p = pending(mini)
    assert p["kind"] == "loss_or_retreat" and p["side"] == "soviet" and p["steps"] == 1 and p["hexes"] == 1
    assert case(mini, EndPhase()) == "9.6"
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert status(mini, "so-rifle-3") == "eliminated"


def test_9_67_rulebook_example_three_defenders_and_minus_one(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-inf-1": "0704",
                  "so-rifle-1": "0804", "so-rifle-2": "0804", "so-rifle-3": "0804"})
    load_dice(mini, [1])  # 19 against 12: 1-1, die 1: -/1
    mini.apply(Attack(("ge-1pz-1", "ge-1pz-2", "ge-inf-1"), ("0804",)))
    assert pending(mini)["units"] == ["so-rifle-1", "so-rifle-2", "so-rifle-3"]
    # Either one of the three is lost and the others stay...
    assert case(mini, TakeLosses(("so-rifle-2",))) is None
    assert case(mini, TakeLosses(("so-rifle-2", "so-rifle-3"))) == "9.67"
    # ...or all three retreat one hex, the German choosing where (19.7).
    mini.apply(ChooseRetreat())
    p = pending(mini)
    assert p["kind"] == "retreat" and p["side"] == "german" and p["units"] == ["so-rifle-1", "so-rifle-2", "so-rifle-3"]


def test_9_65_e_eliminates_and_9_84_winner_advances_up_to_two_hexes(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [1])  # 16 against 2: 8-1, die 1: -/E
    mini.apply(Attack(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804",)))
    assert status(mini, "so-rifle-3") == "eliminated"
    p = pending(mini)
    assert p["kind"] == "advance" and p["max"] == 2
    paths = combat.advance_options(mini)["paths"]
    assert ("0804",) in paths and any(len(x) == 2 and x[0] == "0804" for x in paths)
    mini.apply(Advance(("ge-1pz-1", "ge-1pz-2"), ("0804", "0904")))
    assert mini.state.units["ge-1pz-1"].hex == "0904"


def test_9_69_engaged_costs_each_side_a_step_with_no_retreat_or_advance(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [5])  # 3-1, die 5: eng
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert case(mini, ChooseRetreat()) == "9.69"
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert pending(mini)["side"] == "german"
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert mini.state.pending is None
    assert mini.state.units["ge-1pz-1"].step == 1


def test_9_68_split_result_defender_first_then_attacker_who_may_still_advance(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [3])  # 11 against 8: 1-1, die 3: eng -> use 2-1 instead
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "ge-inf-2": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [3])  # 16 against 8: 2-1, die 3: 1/1
    mini.apply(Attack(("ge-1pz-1", "ge-inf-1", "ge-inf-2"), ("0804",)))
    assert pending(mini)["side"] == "soviet"
    mini.apply(TakeLosses(("so-rifle-4",)))
    assert pending(mini)["side"] == "german"
    mini.apply(TakeLosses(("ge-inf-2",)))
    p = pending(mini)
    assert p["kind"] == "advance" and p["side"] == "german"


def test_9_61_german_divisions_step_down_and_19_24_rpl_counters_are_the_third_step(mini: Game) -> None:
    battle(mini, {"ge-inf-1": "0704", "so-rifle-4": "0804", "so-rifle-1": "0804"}, player="soviet")
    combat.lose_step.__call__  # noqa: B018 - documented entry point
    mini._sink = []
    combat.lose_step(mini, "ge-inf-1", "9.61")
    assert mini.state.units["ge-inf-1"].step == 1  # 5-7 -> 3-4
    combat.lose_step(mini, "ge-inf-1", "9.61")
    assert mini.state.units["ge-inf-1"].step == 2 and mini.state.vars.rpl_left == 0  # 1-2 rpl
    combat.lose_step(mini, "ge-inf-1", "9.61")
    assert status(mini, "ge-inf-1") == "eliminated"
    # With no rpl counter left, the second step is the last.
    combat.lose_step(mini, "ge-inf-2", "9.61")
    combat.lose_step(mini, "ge-inf-2", "9.61")
    mini._sink = None
    assert status(mini, "ge-inf-2") == "eliminated"


# -- untried units (13.0, 19.6) -------------------------------------------------------------------

def _untried_battle(mini: Game, pick: int, extra: dict[str, str] | None = None) -> None:
    placements = {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804"}
    placements.update(extra or {})
    battle(mini, placements)
    # Pool order: rifle-201 (3-3), rifle-202 (0-0), rifle-203 (5-5 *).
    load_dice(mini, [2], picks=[pick])


def test_13_2_untried_units_are_revealed_when_the_battle_is_fought(mini: Game) -> None:
    _untried_battle(mini, 0)
    p = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    assert p.defense is None and p.chances  # unknown strength, chances averaged over the pool
    events = mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    kinds = [e.kind for e in events]
    assert kinds.index("revealed") < kinds.index("rolled")  # revealed before the die
    assert mini.state.units["so-t01-rifle-1"].face == "rifle-201"


def test_19_61_a_revealed_asterisk_unit_must_retreat(mini: Game) -> None:
    _untried_battle(mini, 2)
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))  # 6 against 5: 1-1, die 2: 1/1
    p = pending(mini)
    assert p["kind"] == "retreat" and p["side"] == "german"  # no choice of step losses


def test_19_63_no_strength_units_are_eliminated_only_if_all_are(mini: Game) -> None:
    _untried_battle(mini, 1)
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert status(mini, "so-t01-rifle-1") == "eliminated"
    _untried_battle(mini, 1, {"so-rifle-4": "0804"})
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert status(mini, "so-t01-rifle-1") == "map"  # fights on beside a real division


def test_19_64_no_strength_units_may_absorb_step_losses(mini: Game) -> None:
    _untried_battle(mini, 1, {"so-rifle-4": "0804"})
    load_dice(mini, [1], picks=[1])  # 6 against 8: 1-2, die 1: 1/1
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert case(mini, TakeLosses(("so-t01-rifle-1",))) is None


def test_19_65_an_attack_with_no_strength_is_cancelled_and_the_attackers_lost(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "ge-inf-1": "0704", "so-hq-army": "0905"}, player="soviet")
    load_dice(mini, [], picks=[1])
    mini.apply(Attack(("so-t01-rifle-1",), ("0704",)))
    assert status(mini, "so-t01-rifle-1") == "eliminated"
    assert status(mini, "ge-inf-1") == "map" and mini.rolls == 1  # the draw only, no die


# -- retreats (9.7, 19.5, 19.7) ---------------------------------------------------------------------

def _retreat_pending(mini: Game, placements: dict[str, str], attackers: tuple[str, ...], target: str,
                     die: int) -> None:
    battle(mini, placements)
    load_dice(mini, [die])
    mini.apply(Attack(attackers, (target,)))
    mini.apply(ChooseRetreat())


def test_19_7_the_enemy_picks_the_path_but_never_a_fatal_one_if_a_safe_one_exists(mini: Game) -> None:
    _retreat_pending(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, ("ge-1pz-1",), "0804", 2)
    opts = combat.retreat_options(mini)["so-rifle-3"]
    assert opts and all(H("0804").distance(H(p[-1])) == 1 for p in opts)
    assert case(mini, Retreat(("so-rifle-3",), ((),))) == "19.7"
    assert case(mini, Retreat(("so-rifle-3",), (opts[0],))) is None


def test_9_71_no_retreat_into_enemy_zones_and_9_73_each_hex_farther_away(mini: Game) -> None:
    _retreat_pending(mini, {"ge-1pz-1": "0704", "ge-inf-1": "1002", "so-rifle-3": "0804"},
                     ("ge-1pz-1",), "0804", 1)  # 3-1, die 1: -/2
    opts = combat.retreat_options(mini)["so-rifle-3"]
    view = View(mini)
    for path in opts:
        assert len(path) == 2 and H("0804").distance(H(path[1])) == 2
        assert not any(view.enemy_controlled_for_tracing(H(h), "soviet") for h in path)


def test_9_71_a_unit_with_no_retreat_is_eliminated(mini: Game) -> None:
    # Surrounded in the corner: German zones cover every way out of 1001.
    _retreat_pending(mini, {"ge-1pz-1": "0901", "ge-inf-1": "0903", "so-rifle-3": "1001"},
                     ("ge-1pz-1",), "1001", 2)
    assert combat.retreat_options(mini)["so-rifle-3"] == []
    mini.apply(Retreat(("so-rifle-3",), ((),)))
    assert status(mini, "so-rifle-3") == "eliminated"


def test_9_74_retreat_into_a_vacant_hex_if_possible(mini: Game) -> None:
    _retreat_pending(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804", "so-rifle-1": "0805"},
                     ("ge-1pz-1",), "0804", 2)
    opts = combat.retreat_options(mini)["so-rifle-3"]
    assert opts and all(not View(mini).at(H(p[-1])) for p in opts)


def test_9_76_a_retreated_unit_is_lost_if_its_new_hex_is_hit_again(mini: Game) -> None:
    # German zones close every way out of 0804 but the friendly hex 0904.
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0806", "ge-inf-2": "1004",
                  "so-rifle-3": "0804", "so-rifle-1": "0904"})
    first = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    load_dice(mini, [die_for(mini, first.column, "-/1"), 1])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(ChooseRetreat())
    assert combat.retreat_options(mini)["so-rifle-3"] == [("0904",)]
    mini.apply(Retreat(("so-rifle-3",), (("0904",),)))
    mini.apply(DeclineAdvance())
    assert "so-rifle-3" in mini.state.vars.retreated_into
    p = combat.preview(mini, ["ge-inf-2"], ["0904"])
    assert {s.unit for s in p.defenders} == {"so-rifle-1"}  # the newcomer adds nothing
    assert p.column not in ("1-3",)  # die 1 then hits the defender
    mini.apply(Attack(("ge-inf-2",), ("0904",)))
    assert status(mini, "so-rifle-3") == "eliminated"


def test_19_52_no_retreat_across_a_major_river_without_a_bridge(mini: Game) -> None:
    # 0604 has the river at its back (0504/0503 across it) and Germans on its east.
    _retreat_pending(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0703", "ge-inf-2": "0705",
                            "so-rifle-3": "0604"}, ("ge-1pz-1",), "0604", 2)
    assert combat.retreat_options(mini)["so-rifle-3"] == []
    mini.apply(Retreat(("so-rifle-3",), ((),)))
    # Penned against the river: it loses steps instead (its only step).
    assert status(mini, "so-rifle-3") == "eliminated"
    assert any("19.52" in e.describe() for e in mini.journal)


def test_9_77_after_a_split_result_the_attacker_avoids_the_battle_zone(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "ge-inf-2": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [3])  # 2-1, die 3: 1/1
    mini.apply(Attack(("ge-1pz-1", "ge-inf-1", "ge-inf-2"), ("0804",)))
    mini.apply(TakeLosses(("so-rifle-4",)))
    mini.apply(ChooseRetreat())
    zone = set(mini.state.vars.battle.zone)
    for paths in combat.retreat_options(mini).values():
        assert all(p[-1] not in zone for p in paths)


# -- advance after combat (9.8) ------------------------------------------------------------------

def test_9_85_advance_no_farther_than_the_retreat(mini: Game) -> None:
    _retreat_pending(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, ("ge-1pz-1",), "0804", 2)
    path = combat.retreat_options(mini)["so-rifle-3"][0]
    mini.apply(Retreat(("so-rifle-3",), (path,)))
    p = pending(mini)
    assert p["max"] == 1
    assert all(len(x) <= 1 for x in combat.advance_options(mini)["paths"])


def test_9_82_soviet_advances_stop_on_entering_a_german_zone(mini: Game) -> None:
    # ge-inf-1 (3-4) is beaten -/2 and retreats two hexes, so the Soviets are offered two; but
    # the hex it left, 0704, lies in the zone of ge-inf-2 at 0603, and they must stop there.
    battle(mini, {"so-rifle-4": "0804", "so-rifle-1": "0804", "so-rifle-2": "0804", "so-hq-army": "0905",
                  "ge-inf-1": "0704", "ge-inf-2": "0603"}, player="soviet", turn=2)
    mini.state.units["ge-inf-1"].step = 1
    reds = ("so-rifle-4", "so-rifle-1", "so-rifle-2")
    assert combat.preview(mini, list(reds), ["0704"]).column == "3-1"  # 14 to 4
    load_dice(mini, [die_for(mini, "3-1", "-/2")])
    mini.apply(Attack(reds, ("0704",)))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-inf-1",), (("0703", "0702"),)))
    assert pending(mini)["max"] == 2
    assert combat.advance_options(mini) == {"units": list(reds), "paths": [("0704",)]}
    assert str(mini.check(Advance(("so-rifle-4",), ("0704", "0703")))) == \
        "[9.82] 0704 > 0703 is not along the path of retreat (or is too long)"


def test_9_83_units_that_advanced_may_not_attack_again(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804",
                  "so-rifle-1": "0905"})
    load_dice(mini, [1])
    mini.apply(Attack(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804",)))
    mini.apply(Advance(("ge-1pz-1",), ("0804",)))
    assert mini.state.pending is None
    assert case(mini, Attack(("ge-1pz-1",), ("0905",))) == "9.83"  # it also attacked (9.14): 9.83 names why
    assert case(mini, Attack(("ge-1pz-2",), ("0905",))) == "9.14"  # attacked but stayed put
    assert case(mini, DeclineAdvance()) == "9.83"


# -- overrun (6.0, 19.4) ----------------------------------------------------------------------------

def overrun_pos(mini: Game, placements: dict[str, str], phase: str = "movement") -> Game:
    return position(mini, placements, player="german", phase=phase, reinforcements=False)


def test_19_41_only_mechanized_units_overrun(mini: Game) -> None:
    overrun_pos(mini, {"ge-inf-1": "0704", "so-rifle-3": "0804"})
    assert case(mini, Overrun(("ge-inf-1",), "0804")) == "19.41"
    overrun_pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    assert case(mini, Overrun(("ge-1pz-1",), "0804")) is None


def test_6_0_overrun_strength_is_halved(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    assert overrun_preview(mini, ["ge-1pz-1"], "0804").attack == 3


def test_19_43_hqs_and_leaders_add_their_full_rating_to_an_overrun(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-3": "0804"})
    assert overrun_preview(mini, ["ge-1pz-1", "ge-leader"], "0804").attack == 5


def test_6_12_only_units_in_supply_when_the_phase_began(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"})
    mini.state.vars.oos_start = ["ge-1pz-1"]
    mini.touch()
    assert case(mini, Overrun(("ge-1pz-1",), "0804")) == "6.12"


def test_6_13_the_stack_must_have_begun_the_phase_together(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0703", "ge-1pz-2": "0702", "so-rifle-3": "0804"})
    mini.apply(Move(("ge-1pz-2",), ("0703",)))
    mini.apply(Move(("ge-1pz-1", "ge-1pz-2"), ("0704",)))
    assert case(mini, Overrun(("ge-1pz-1", "ge-1pz-2"), "0804")) == "6.13"


def test_6_17_no_overrun_from_a_hex_with_idle_friends_except_an_hq(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-3": "0804"})
    assert case(mini, Overrun(("ge-1pz-1",), "0804")) == "6.17"
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-3": "0804"})
    assert case(mini, Overrun(("ge-1pz-1",), "0804")) is None


def test_10_13_no_overrun_across_a_major_river(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0504", "so-rifle-3": "0604"})
    assert case(mini, Overrun(("ge-1pz-1",), "0604")) == "10.13"


def test_6_22_a_failed_overrun_stops_the_stack(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [6])  # 0 against 8: 1-3, die 6: E/-
    mini.apply(Overrun(("ge-1pz-2",), "0804"))
    assert status(mini, "ge-1pz-2") == "eliminated"
    overrun_pos(mini, {"ge-1pz-1": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [4])  # 3 against 8: 1-3, die 4: 2/-
    mini.apply(Overrun(("ge-1pz-1",), "0804"))
    mini.apply(TakeLosses(("ge-1pz-1", "ge-1pz-1")))
    assert status(mini, "ge-1pz-1") == "eliminated"


def test_6_23_any_loss_to_the_overrunning_stack_stops_it(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"})
    load_dice(mini, [4])  # (6+1+1)x2=16, halved 8 against 2: 4-1, die 4: -/1
    mini.apply(Overrun(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), "0804"))
    mini.apply(TakeLosses(("so-rifle-3",)))
    # A clean win: the stack moves in (6.24) and may go on.
    assert mini.state.units["ge-1pz-1"].hex == "0804"
    assert case(mini, Move(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0904",))) is None


def test_6_24_a_clean_win_moves_the_stack_in_ignoring_zones(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704",
                       "so-rifle-3": "0804", "so-rifle-1": "0905"})
    load_dice(mini, [1])  # 8 against 2: 4-1, die 1: -/2
    mini.apply(Overrun(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), "0804"))
    mini.apply(TakeLosses(("so-rifle-3",)))
    assert mini.state.units["ge-1pz-1"].hex == "0804"  # 0804 is in 0905's zone: no matter
    assert mini.state.vars.mp["ge-1pz-1"] == 3


# -- victory (24.0) -----------------------------------------------------------------------------------

def test_24_1_towns_and_cities_score_for_whoever_holds_them(mini: Game) -> None:
    sc = score(View(mini), final=False)
    # Soviet: Testgrad 0505 (25 here) and Eastville 0805 (5); German: Westburg 0202 (10).
    assert sc.soviet == 30 and sc.german == 10


def test_24_2_24_3_points_for_destroyed_units_and_out_of_supply_soviets(mini: Game) -> None:
    for uid in ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3", "ge-inf-1", "so-hq-agsw", "so-rifle-1"):
        mini.state.units[uid].status = "eliminated"
        mini.state.units[uid].hex = None
    mini.touch()
    sc = score(View(mini), final=False)
    lines = {w: p for s, w, p in sc.lines}
    assert any("1 Pz" in w and p == 25 for w, p in lines.items())  # whole division
    assert sc.soviet == 30 + 25 + 5  # plus one lone infantry division (5, see rulings)
    assert sc.german == 10 + 10 + 1  # front HQ 10, one other unit 1


def test_24_0_the_german_needs_the_margin(mini: Game) -> None:
    sc = score(View(mini), final=False)
    assert sc.margin == 30 and sc.winner == "soviet"


def test_9_74_units_with_no_room_at_the_end_of_a_forced_retreat_are_eliminated(mini: Game) -> None:
    # Three defenders, one way out, and that hex already holds two friends: one is lost.
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "ge-inf-1": "0806",
                  "ge-inf-2": "1004", "so-rifle-1": "0804", "so-rifle-2": "0804", "so-rifle-3": "0804",
                  "so-rifle-4": "0904", "so-cav-1": "0904"})
    p = combat.preview(mini, ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"], ["0804"])
    load_dice(mini, [die_for(mini, p.column, "-/1")])
    mini.apply(Attack(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0804",)))
    mini.apply(ChooseRetreat())
    units = tuple(pending(mini)["units"])
    assert combat.safe_assignment(View(mini), pending(mini)) is None
    mini.apply(Retreat(units, tuple(("0904",) for _ in units)))
    lost = [u for u in units if status(mini, u) == "eliminated"]
    assert len(lost) == 2  # 0904 takes one more combat unit (7.0)


def test_9_1_the_engine_lists_who_may_attack_which_hex(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0703", "so-rifle-3": "0804", "so-rifle-1": "0803"})
    opts = combat.attack_options(mini)
    assert opts["0804"] == ["ge-1pz-1"]
    assert sorted(opts["0803"]) == ["ge-1pz-1", "ge-inf-1"]


def test_6_17_an_hq_in_the_overrunning_hex_shares_adverse_results(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-4": "0804"})
    load_dice(mini, [3])  # 3 against 8: 1-3, die 3: 2/-
    mini.apply(Overrun(("ge-1pz-1",), "0804"))
    p = pending(mini)
    assert "ge-leader" in p["units"]  # it did not fight but takes part in the loss or retreat


def test_20_2_gd_in_an_overrun_counts_with_the_division_named(mini: Game) -> None:
    overrun_pos(mini, {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-3": "0804"})
    force = ("ge-1pz-2", "ge-2pz-1", "ge-gd")
    with_1pz = overrun_preview(mini, force, "0804", integrity="1 Pz").attack
    with_2pz = overrun_preview(mini, force, "0804", integrity="2 Pz").attack
    assert with_1pz is not None and with_2pz is not None and with_2pz > with_1pz
    load_dice(mini, [6])
    events = mini.apply(Overrun(force, "0804", integrity="2 Pz"))
    resolved = [e for e in events if e.kind == "combat_resolved"]
    assert resolved and resolved[0].attack == with_2pz


def test_20_2_only_a_division_gd_can_join_may_be_named(mini: Game) -> None:
    battle(mini, {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-4": "0804"})
    force = ("ge-1pz-2", "ge-2pz-1", "ge-gd")
    assert case(mini, Attack(force, ("0804",), integrity="3 Pz")) == "20.2"
    assert case(mini, Attack(force, ("0804",), integrity="2 Pz")) is None
    # without GD among the attackers there is nothing to name
    assert case(mini, Attack(("ge-1pz-2", "ge-2pz-1"), ("0804",), integrity="2 Pz")) == "20.2"
    overrun_pos(mini, {"ge-2pz-1": "0704", "ge-gd": "0704", "so-rifle-3": "0804"})
    assert case(mini, Overrun(("ge-2pz-1", "ge-gd"), "0804", integrity="1 Pz")) == "20.2"
    assert case(mini, Overrun(("ge-2pz-1", "ge-gd"), "0804", integrity="2 Pz")) is None
