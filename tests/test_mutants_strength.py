"""Combat strengths (9.32, 9.4, 10.12-10.32, 11.37-11.38, 12.23, 13.2, 19.43, 19.66, 20.0,
21.0) that mutation testing found unpinned: each unit's share with every modifier it gets,
as the combat screen shows it, and the odds column.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import strength as S
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.strength import Modifier as M
from kiev_tui.games.spi_kiev.strength import UnitStrength as U

from tests.conftest import position


def defence(game: Game, placements: dict[str, str], target: str, attackers_at: list[str],
            player: str = "soviet") -> tuple[float, list[U]]:
    position(game, placements, player=player, phase="combat", turn=2, reinforcements=False)
    view = View(game)
    return S.defence(view, view.supply, H(target), [H(h) for h in attackers_at])


def attack(game: Game, placements: dict[str, str], attackers: list[str], player: str = "german",
           overrun: bool = False) -> tuple[float, list[U]]:
    position(game, placements, player=player, phase="combat", turn=2, reinforcements=False)
    view = View(game)
    return S.attack(view, view.supply, attackers, overrun=overrun)


# -- defence: terrain (10.4, 10.12, 10.14, 10.26, 10.32) ----------------------------------------

def test_10_4_woods_doubles_the_defence(mini: Game) -> None:
    total, parts = defence(mini, {"ge-inf-1": "0303", "so-rifle-1": "0403", "so-hq-army": "0503"}, "0303", ["0403"])
    assert (total, parts) == (14.0, [U("ge-inf-1", 7, 14.0, (M("10.4", "woods: defence doubled"),))])


def test_10_12_a_minor_river_doubles_only_when_every_attacker_crosses_it(mini: Game) -> None:
    total, parts = defence(mini, {"ge-inf-1": "0302", "so-rifle-1": "0202"}, "0302", ["0202"])
    assert (total, parts) == (14.0, [U("ge-inf-1", 7, 14.0, (M("10.12", "attacked only across rivers: defence doubled"),))])
    total, parts = defence(mini, {"ge-inf-1": "0302", "so-rifle-1": "0202", "so-rifle-2": "0303"},
                           "0302", ["0202", "0303"])
    assert (total, parts) == (7.0, [U("ge-inf-1", 7, 7.0, ())])


def test_10_32_a_city_attacked_across_a_river_is_tripled_never_more(mini: Game) -> None:
    total, parts = defence(mini, {"ge-inf-1": "0202", "so-rifle-1": "0302"}, "0202", ["0302"])
    assert total == 21.0
    assert parts == [U("ge-inf-1", 7, 21.0, (M("10.26", "city: defence doubled"),
                                              M("10.12", "attacked only across rivers: defence doubled"),
                                              M("10.32", "two defensive bonuses: tripled, never more")))]


def test_10_14_attacked_only_across_a_major_river_tripled(mini: Game) -> None:
    total, parts = defence(mini, {"ge-inf-1": "0604", "so-rifle-1": "0504"}, "0604", ["0504"])
    assert (total, parts) == (21.0, [U("ge-inf-1", 7, 21.0, (
        M("10.14", "attacked only across a major river: defence tripled"),))])


def test_10_12_a_minor_and_a_major_river_together_count_as_rivers_doubled(mini: Game) -> None:
    # Not every attacker crosses the major river, but every one crosses a river: doubled.
    mini.scenario.map.set_side_features(H("0604"), H("0704"), frozenset({"minor_river"}))
    total, parts = defence(mini, {"ge-inf-1": "0604", "so-rifle-1": "0504", "so-rifle-2": "0704"},
                           "0604", ["0504", "0704"])
    assert (total, parts) == (14.0, [U("ge-inf-1", 7, 14.0, (M("10.12", "attacked only across rivers: defence doubled"),))])


def test_9_32_12_23_terrain_first_then_halved_for_supply(mini: Game) -> None:
    total, parts = defence(mini, {"so-rifle-1": "0404", "ge-inf-1": "0403"}, "0404", ["0403"], player="german")
    assert (total, parts) == (5.0, [U("so-rifle-1", 5, 5.0, (M("10.4", "woods: defence doubled"),
                                                            M("12.23", "out of supply: halved")))])


def test_10_4_no_attackers_no_river_bonus(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0302"}, player="soviet", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.terrain_multiplier(view, H("0302"), [], True) == (1, [])


# -- defence: HQs, leaders, untried units, integrity -------------------------------------------

def test_11_38_an_hq_adds_nothing_to_a_stack(mini: Game) -> None:
    total, parts = defence(mini, {"so-rifle-1": "0904", "so-hq-army": "0904", "ge-inf-1": "0804"},
                           "0904", ["0804"], player="german")
    assert total == 5.0
    assert parts == [U("so-hq-army", 0, 0.0, (M("11.38", "an HQ adds nothing to its stack's defence"),)),
                     U("so-rifle-1", 5, 5.0, ())]


def test_19_66_an_hq_alone_defends_with_half_its_rating(mini: Game) -> None:
    total, parts = defence(mini, {"so-hq-army": "0904", "ge-inf-1": "0804"}, "0904", ["0804"], player="german")
    assert (total, parts) == (2.0, [U("so-hq-army", 2, 2.0, (M("19.66", "half its rating 4, rounded down: 2"),))])


def test_21_0_a_leader_defends_with_half_its_rating(mini: Game) -> None:
    total, parts = defence(mini, {"ge-leader": "0704", "so-rifle-1": "0804"}, "0704", ["0804"])
    assert (total, parts) == (1.0, [U("ge-leader", 1, 1.0, (M("21.0", "half its rating 2, rounded down: 1"),))])


def test_13_2_an_untried_defender_is_unknown_until_the_battle(mini: Game) -> None:
    total, parts = defence(mini, {"so-t01-rifle-1": "0904", "ge-inf-1": "0804", "so-hq-army": "0905"},
                           "0904", ["0804"], player="german")
    assert (total, parts) == (0.0, [U("so-t01-rifle-1", None, None, (
        M("13.2", "untried: revealed when the battle is fought"),))])


def test_20_0_regiments_of_one_division_defend_doubled(mini: Game) -> None:
    total, parts = defence(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-1": "0804"}, "0704", ["0804"])
    assert total == 10.0
    assert parts == [U("ge-1pz-1", 2, 4.0, (M("20.0", "divisional integrity: doubled"),)),
                     U("ge-1pz-2", 3, 6.0, (M("20.0", "divisional integrity: doubled"),))]


# -- attack -------------------------------------------------------------------------------------

def test_20_0_regiments_of_one_division_attack_doubled(mini: Game) -> None:
    total, parts = attack(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-1": "0804"},
                          ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"])
    assert total == 16.0
    assert [(p.unit, p.base, p.value) for p in parts] == [("ge-1pz-1", 6, 12.0), ("ge-1pz-2", 1, 2.0),
                                                         ("ge-1pz-3", 1, 2.0)]


def test_21_0_11_37_a_leader_adds_its_rating_up_to_its_stacks_strength(mini: Game) -> None:
    total, parts = attack(mini, {"ge-1pz-2": "0704", "ge-leader": "0704", "so-rifle-1": "0804"},
                          ["ge-1pz-2", "ge-leader"])
    assert total == 2.0
    assert parts == [U("ge-1pz-2", 1, 1.0, ()),
                     U("ge-leader", 2, 1.0, (M("21.0", "adds its rating 2, capped at its stack's 1"),))]


def test_6_0_19_43_in_an_overrun_the_stack_is_halved_and_the_leader_capped_by_the_half(mini: Game) -> None:
    total, parts = attack(mini, {"ge-1pz-2": "0704", "ge-leader": "0704", "so-rifle-1": "0804"},
                          ["ge-1pz-2", "ge-leader"], overrun=True)
    assert total == 0.0
    assert parts[1] == U("ge-leader", 2, 0.0, (M("19.43", "adds its rating 2, capped at its stack's 0"),))
    total, parts = attack(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "so-rifle-1": "0804"},
                          ["ge-1pz-1", "ge-leader"], overrun=True)
    # 6 halved to 3; the leader adds 2 (within the halved 3).
    assert total == 5.0


def test_11_37_a_soviet_hq_adds_its_rating_to_its_stack(mini: Game) -> None:
    total, parts = attack(mini, {"so-rifle-1": "0904", "so-hq-army": "0904", "ge-inf-1": "0804"},
                          ["so-rifle-1", "so-hq-army"], player="soviet")
    assert total == 8.0
    assert parts[1] == U("so-hq-army", 4, 4.0, (M("11.37", "adds its rating 4, capped at its stack's 4"),))


def test_12_23_an_attacker_out_of_supply_is_halved(mini: Game) -> None:
    total, parts = attack(mini, {"so-rifle-1": "0904", "ge-inf-1": "0804"}, ["so-rifle-1"], player="soviet")
    assert (total, parts) == (2.0, [U("so-rifle-1", 4, 2.0, (M("12.23", "out of supply: halved"),))])


def test_6_12_an_overrunning_unit_uses_its_supply_at_the_phase_start(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-rifle-1": "0804"}, player="german", phase="movement", turn=2,
             reinforcements=False)
    mini.state.vars.oos_start = ["ge-1pz-1"]
    view = View(mini)
    total, parts = S.attack(view, view.supply, ["ge-1pz-1"], overrun=True)
    # 6 halved for supply (3), then halved for the overrun and rounded down: 1.
    assert total == 1.0
    assert parts == [U("ge-1pz-1", 6, 3.0, (M("12.23", "out of supply: halved"),))]


def test_13_2_an_untried_attacker_and_its_hq_add_nothing_before_the_reveal(mini: Game) -> None:
    total, parts = attack(mini, {"so-t01-rifle-1": "0904", "so-hq-army": "0904", "ge-inf-1": "0804"},
                          ["so-t01-rifle-1", "so-hq-army"], player="soviet")
    assert total == 0.0
    assert parts == [U("so-t01-rifle-1", None, None, (M("13.2", "untried: revealed when the battle is fought"),)),
                     U("so-hq-army", 4, 0.0, (M("11.37", "adds its rating 4, capped at its stack's 0"),))]


# -- rounding and odds (9.32, 9.4) ------------------------------------------------------------

@pytest.mark.parametrize("total, any_units, value", [(0.5, True, 1), (0.5, False, 0), (0.0, True, 1),
                                                     (0.0, False, 0), (7.5, True, 7), (2.9999999999, True, 3)])
def test_9_32_round_down_once_and_never_below_one(total: float, any_units: bool, value: int) -> None:
    assert S.final(total, any_units) == value


COLS = ("1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")


@pytest.mark.parametrize("a, d, column", [(29, 10, "2-1"), (26, 9, "2-1"), (2, 3, "1-2"), (9, 10, "1-2"),
                                          (1, 3, "1-3"), (1, 2, "1-2"), (5, 5, "1-1"), (3, 2, "1-1"),
                                          (100, 10, "10-1"), (100, 1, "10-1"), (1, 4, "1-3"),
                                          (0, 5, "1-3"), (10, 0, "10-1")])
def test_9_4_odds_rounded_in_the_defenders_favour(a: int, d: int, column: str) -> None:
    assert S.odds_column(a, d, COLS) == column


def test_9_4_ratios_off_the_table_use_the_named_clamp_columns() -> None:
    assert S.odds_column(100, 1, COLS, "6-1", "1-2") == "6-1"
    assert S.odds_column(1, 4, COLS, "6-1", "1-2") == "1-2"
    assert S.odds_column(0, 4, COLS, "6-1", "1-2") == "1-2"
    assert S.odds_column(4, 0, COLS, "6-1", "1-2") == "6-1"
    assert S.odds_column(6, 1, COLS, "6-1", "1-2") == "6-1"


# -- 20.2 Gross Deutschland -----------------------------------------------------------------------

GD_TWO = {"ge-1pz-2": "0704", "ge-2pz-1": "0704", "ge-gd": "0704", "ge-leader": "0704", "so-rifle-4": "0804"}


def test_20_2_gd_is_known_by_its_division_or_its_designation() -> None:
    assert S._is_gd("GD", "")
    assert S._is_gd("Gross Deutschland", "IR")
    assert S._is_gd("gd", "")
    assert S._is_gd("", "gd")
    assert not S._is_gd("1 Pz", "1/1")
    assert not S._is_gd("", "")


def test_20_2_gd_doubles_with_the_one_division_in_its_hex(mini: Game) -> None:
    total, parts = attack(mini, {"ge-1pz-2": "0704", "ge-gd": "0704", "so-rifle-4": "0804"}, ["ge-1pz-2", "ge-gd"])
    doubled = (M("20.0", "divisional integrity: doubled"),)
    assert (total, parts) == (6.0, [U("ge-1pz-2", 1, 2.0, doubled), U("ge-gd", 2, 4.0, doubled)])


@pytest.mark.parametrize("choice, expected", [
    ("2 Pz", (17.0, [("ge-1pz-2", 1.0, False), ("ge-2pz-1", 12.0, True), ("ge-gd", 4.0, True)])),
    ("1 Pz", (12.0, [("ge-1pz-2", 2.0, True), ("ge-2pz-1", 6.0, False), ("ge-gd", 4.0, True)])),
    ("", (12.0, [("ge-1pz-2", 2.0, True), ("ge-2pz-1", 6.0, False), ("ge-gd", 4.0, True)])),  # first in order
    ("3 Pz", (12.0, [("ge-1pz-2", 2.0, True), ("ge-2pz-1", 6.0, False), ("ge-gd", 4.0, True)])),
])
def test_20_2_beside_two_divisions_gd_doubles_only_the_named_one(mini: Game, choice: str,
                                                                 expected: tuple[float, list[tuple[str, float, bool]]]) -> None:
    position(mini, GD_TWO, player="german", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    total, parts = S.attack(view, view.supply, ["ge-1pz-2", "ge-2pz-1", "ge-gd"], integrity_choice=choice)
    doubled = (M("20.0", "divisional integrity: doubled"),)
    assert (total, [(p.unit, p.value, p.mods == doubled) for p in parts]) == expected


def test_20_2_on_defence_gd_doubles_the_division_the_german_named(mini: Game) -> None:
    position(mini, GD_TWO, player="soviet", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    doubled = (M("20.0", "divisional integrity: doubled"),)
    total, parts = S.defence(view, view.supply, H("0704"), [H("0804")], frozenset({"ge-leader"}), "2 Pz")
    assert (total, parts) == (11.0, [U("ge-1pz-2", 3, 3.0, ()), U("ge-2pz-1", 2, 4.0, doubled),
                                     U("ge-gd", 2, 4.0, doubled)])


def test_20_2_gd_never_pairs_with_a_regiment_that_is_not_mechanized(mini: Game) -> None:
    from dataclasses import replace
    units = mini.scenario.catalog.units
    units["ge-1pz-2"] = replace(units["ge-1pz-2"], mechanized=False)
    total, parts = attack(mini, {"ge-1pz-2": "0704", "ge-gd": "0704", "so-rifle-4": "0804"}, ["ge-1pz-2", "ge-gd"])
    assert (total, parts) == (3.0, [U("ge-1pz-2", 1, 1.0, ()), U("ge-gd", 2, 2.0, ())])
    view = View(mini)
    assert S.integrity_candidates(view, ["ge-gd"]) == []


def test_20_12_a_division_counter_never_doubles_beside_regiments_of_its_name(mini: Game) -> None:
    # A single-counter division sharing the regiments' division name still adds its face value.
    from dataclasses import replace
    units = mini.scenario.catalog.units
    units["ge-inf-1"] = replace(units["ge-inf-1"], division="1 Pz", mechanized=True)
    total, parts = attack(mini, {"ge-inf-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-4": "0804"},
                          ["ge-inf-1", "ge-1pz-2", "ge-1pz-3"])
    doubled = (M("20.0", "divisional integrity: doubled"),)
    assert (total, parts) == (9.0, [U("ge-inf-1", 5, 5.0, ()), U("ge-1pz-2", 1, 2.0, doubled),
                                    U("ge-1pz-3", 1, 2.0, doubled)])


def test_20_2_the_divisions_gd_may_join_and_the_choice_offered(mini: Game) -> None:
    position(mini, dict(GD_TWO, **{"ge-1pz-3": "0704", "ge-inf-1": "0704"}), player="german", phase="combat", turn=2,
             reinforcements=False)
    view = View(mini)
    # GD named after other attackers still finds its hex; leaders and division counters are no option.
    assert S.integrity_candidates(view, ["ge-1pz-2", "ge-leader", "ge-gd"]) == ["1 Pz", "2 Pz"]
    assert S.integrity_choices(view, ["ge-1pz-2", "ge-gd"]) == ["1 Pz", "2 Pz"]
    assert S.integrity_candidates(view, ["ge-1pz-2", "ge-2pz-1"]) == []
    assert S.integrity_choices(view, ["ge-1pz-2", "ge-2pz-1"]) == []
    assert S.check_integrity(view, ["ge-1pz-2", "ge-gd"], "") is None
    assert S.check_integrity(view, ["ge-1pz-2", "ge-gd"], "2 Pz") is None
    assert str(S.check_integrity(view, ["ge-1pz-2", "ge-gd"], "3 Pz")) == \
        "[20.2] GD cannot count with 3 Pz here (it can join: 1 Pz, 2 Pz)"
    assert str(S.check_integrity(view, ["ge-1pz-2", "ge-2pz-1"], "2 Pz")) == \
        "[20.2] GD cannot count with 2 Pz here (it can join: none: GD is not attacking beside a mechanized regiment)"


def test_20_2_one_division_beside_gd_is_no_choice(mini: Game) -> None:
    position(mini, {"ge-1pz-2": "0704", "ge-1pz-3": "0704", "ge-gd": "0704", "so-rifle-4": "0804"}, player="german",
             phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.integrity_candidates(view, ["ge-gd"]) == ["1 Pz"]
    assert S.integrity_choices(view, ["ge-gd"]) == []


# -- terrain values from the tables (10.26, 10.32, 19.53) ----------------------------------------

def odd_tables(game: Game) -> None:
    """Defence values none of which is the book's, so each must come from the tables."""
    tec = game.scenario.tables.setdefault("tec", {})
    tec["terrain"]["city"]["defense"] = 1.5
    tec["terrain"]["woods"]["defense"] = 2.5
    tec["hexside"]["minor_river"]["defense"] = 3.5
    tec["max_defense_multiplier"] = 4
    tec["hex_defense"] = {"0505": 5}
    game.scenario.derived.pop("combat_values", None)


def test_19_53_a_special_hex_in_supply_takes_its_own_value_capped(mini: Game) -> None:
    odd_tables(mini)
    position(mini, {"so-rifle-1": "0505"}, player="german", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.terrain_multiplier(view, H("0505"), [H("0405")], True) == \
        (4.0, [M("19.53", "Testgrad in supply: defence x5")])
    assert S.terrain_multiplier(view, H("0505"), [H("0405")], False) == \
        (1.5, [M("10.26", "city: defence x1.5 (out of supply, 19.53)")])
    assert S.terrain_multiplier(view, H("0202"), [H("0203")], False) == (1.5, [M("10.26", "city: defence x1.5")])


def test_10_32_two_bonuses_give_the_tables_ceiling(mini: Game) -> None:
    odd_tables(mini)
    position(mini, {"so-rifle-1": "0505"}, player="german", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.terrain_multiplier(view, H("0202"), [H("0302")], True) == \
        (4.0, [M("10.26", "city: defence x1.5"), M("10.12", "attacked only across rivers: defence x3.5"),
               M("10.32", "two defensive bonuses: x4, never more")])
    assert S.terrain_multiplier(view, H("0303"), [H("0403")], True) == (2.5, [M("10.4", "woods: defence x2.5")])
    assert S.terrain_multiplier(view, H("0302"), [H("0202")], True) == \
        (3.5, [M("10.12", "attacked only across rivers: defence x3.5")])


def test_10_4_terrain_worth_exactly_one_is_no_bonus(mini: Game) -> None:
    mini.scenario.tables["tec"]["terrain"]["woods"]["defense"] = 1
    mini.scenario.tables["tec"]["hexside"]["major_river"]["defense"] = 1
    mini.scenario.derived.pop("combat_values", None)
    position(mini, {"so-rifle-1": "0404"}, player="german", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.terrain_multiplier(view, H("0404"), [H("0403")], True) == (1, [])
    assert S.terrain_multiplier(view, H("0604"), [H("0504")], True) == (1, [])


def test_10_12_every_attacker_must_cross_the_river(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0302"}, player="soviet", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    # 0402 is dry ground: listed first or last, it cancels the river.
    assert S._river_across(view, H("0302"), [H("0402"), H("0202")]) == ""
    assert S._river_across(view, H("0302"), [H("0202"), H("0402")]) == ""
    assert S._river_across(view, H("0302"), [H("0202")]) == "minor"
    assert S._river_across(view, H("0302"), []) == ""  # no attacker, no river to cross
    assert S._river_across(view, H("0604"), [H("0504"), H("0505")]) == "major"


# -- current strength ----------------------------------------------------------------------------

def test_9_3_a_unit_fights_with_the_values_of_its_current_step(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0203"}, player="german", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.current_strength(view, "ge-inf-1") == (5, 7)
    mini.state.units["ge-inf-1"].step = 2
    assert S.current_strength(view, "ge-inf-1") == (1, 2)
    # A step past the last (a hand-edited save) reads as the last step.
    mini.state.units["ge-inf-1"].step = 3
    assert S.current_strength(view, "ge-inf-1") == (1, 2)


# -- leaders, HQs and untried units wherever they stand in the list -----------------------------

def test_21_0_a_leader_adds_half_its_rating_to_the_stacks_defence(mini: Game) -> None:
    total, parts = defence(mini, {"ge-inf-1": "0704", "ge-leader": "0704", "so-rifle-1": "0804"}, "0704", ["0804"])
    assert (total, parts) == (8.0, [U("ge-inf-1", 7, 7.0, ()),
                                    U("ge-leader", 1, 1.0, (M("21.0", "half its rating 2, rounded down: 1"),))])


def test_19_66_an_odd_rating_is_halved_rounded_down(mini: Game) -> None:
    total, parts = defence(mini, {"so-hq-agsw": "0904", "ge-inf-1": "0804"}, "0904", ["0804"], player="german")
    assert (total, parts) == (2.0, [U("so-hq-agsw", 2, 2.0, (M("19.66", "half its rating 5, rounded down: 2"),))])


def test_13_2_an_untried_defender_leaves_the_rest_of_its_stack_counted(mini: Game) -> None:
    total, parts = defence(mini, {"so-t01-rifle-1": "0904", "so-tank-1": "0904", "ge-inf-1": "0804",
                                  "so-hq-army": "0905"}, "0904", ["0804"], player="german")
    assert (total, parts) == (4.0, [U("so-t01-rifle-1", None, None, (M("13.2", "untried: revealed when the battle is fought"),)),
                                    U("so-tank-1", 4, 4.0, ())])


def test_13_2_11_37_listed_first_an_untried_unit_or_an_hq_stops_nothing(mini: Game) -> None:
    total, parts = attack(mini, {"so-t01-rifle-1": "0904", "so-rifle-1": "0904", "so-hq-army": "0904", "ge-inf-1": "0804"},
                          ["so-hq-army", "so-t01-rifle-1", "so-rifle-1"], player="soviet")
    assert (total, parts) == (8.0, [U("so-t01-rifle-1", None, None, (M("13.2", "untried: revealed when the battle is fought"),)),
                                    U("so-rifle-1", 4, 4.0, ()),
                                    U("so-hq-army", 4, 4.0, (M("11.37", "adds its rating 4, capped at its stack's 4"),))])


def test_21_0_a_leader_adds_nothing_to_units_of_another_hex(mini: Game) -> None:
    total, parts = attack(mini, {"ge-1pz-1": "0704", "ge-leader": "0703", "so-rifle-1": "0804"},
                          ["ge-1pz-1", "ge-leader"])
    assert (total, parts) == (6.0, [U("ge-1pz-1", 6, 6.0, ()),
                                    U("ge-leader", 2, 0.0, (M("21.0", "adds its rating 2, capped at its stack's 0"),))])


def test_19_43_in_an_overrun_the_leader_is_capped_by_half_its_stack(mini: Game) -> None:
    # Two 1 Pz regiments doubled: 2 + 2 = 4, halved to 2; the leader's 2 fits within that half.
    total, parts = attack(mini, {"ge-1pz-2": "0704", "ge-1pz-3": "0704", "ge-leader": "0704", "so-rifle-1": "0804"},
                          ["ge-1pz-2", "ge-1pz-3", "ge-leader"], overrun=True)
    assert total == 4.0
    assert parts[2] == U("ge-leader", 2, 2.0, (M("19.43", "adds its rating 2, capped at its stack's 2"),))


def test_9_32_only_a_combat_unit_with_a_printed_strength_keeps_the_minimum_of_one(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0904"}, player="soviet", phase="combat", turn=2, reinforcements=False)
    view = View(mini)
    assert S.has_strength(view, [U("so-hq-army", 4, 4.0), U("so-rifle-1", 4, 2.0)])
    assert not S.has_strength(view, [U("so-hq-army", 4, 4.0)])
    assert not S.has_strength(view, [U("ge-leader", 2, 1.0)])
    assert not S.has_strength(view, [U("so-t01-rifle-1", None, None)])
    assert not S.has_strength(view, [U("ge-1pz-2", 0, 0.0)])


@pytest.mark.parametrize("a, d, above, below, column", [(2, 1, "", "", "2-1"), (1, 1, "", "", "1-1"),
                                                        (100, 10, "6-1", "1-2", "10-1"), (1, 3, "6-1", "1-2", "1-3"),
                                                        (1, 1, "6-1", "1-2", "1-1")])
def test_9_4_the_last_columns_on_the_table_are_used_before_the_clamps(a: int, d: int, above: str, below: str,
                                                                       column: str) -> None:
    assert S.odds_column(a, d, COLS, above, below) == column


def test_20_2_a_regiment_that_is_not_mechanized_is_no_division_for_gd_to_choose(mini: Game) -> None:
    # An infantry regiment of another division shares the hex: GD still has one division to join.
    from dataclasses import replace
    units = mini.scenario.catalog.units
    units["ge-1pz-3"] = replace(units["ge-1pz-3"], division="0 Inf", mechanized=False)
    total, parts = attack(mini, {"ge-2pz-1": "0704", "ge-gd": "0704", "ge-1pz-3": "0704", "so-rifle-4": "0804"},
                          ["ge-2pz-1", "ge-gd"])
    doubled = (M("20.0", "divisional integrity: doubled"),)
    assert (total, parts) == (16.0, [U("ge-2pz-1", 6, 12.0, doubled), U("ge-gd", 2, 4.0, doubled)])


def test_10_32_a_ceiling_of_one_leaves_the_defence_as_printed_and_unannotated(mini: Game) -> None:
    # Tables whose ceiling is x1 cancel every terrain bonus: the unit's share shows no modifier.
    odd_tables(mini)
    mini.scenario.tables["tec"]["max_defense_multiplier"] = 1
    mini.scenario.derived.pop("combat_values", None)
    total, parts = defence(mini, {"so-rifle-1": "0505", "so-hq-army": "0506", "ge-inf-1": "0405"}, "0505", ["0405"])
    assert (total, parts) == (5.0, [U("so-rifle-1", 5, 5.0, ())])
