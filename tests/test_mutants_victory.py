"""Victory points (24.0-24.3) cases that mutation testing found unpinned.

Mini scenario values: margin 30, city 10, town 5, Testgrad (0505) worth 25, front HQ
so-hq-agsw worth 10, each other Soviet unit 1, the whole 1 Pz division 25.  Where a scenario
leaves a value out, the book's own number applies (24.0-24.3), checked with an empty table.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.victory import Score, score

from tests.conftest import position


def eliminate(game: Game, *uids: str) -> None:
    for uid in uids:
        game.state.units[uid].status = "eliminated"
        game.state.units[uid].hex = None
    game.touch()


def test_24_1_every_settlement_held_scores_for_its_holder_and_other_hexes_score_nothing(mini: Game) -> None:
    # 0606 is plain ground, listed between the settlements: it must not stop the count.
    mini.state.control["0606"] = "german"
    mini.touch()
    sc = score(View(mini), final=False)
    assert sc.lines == [("german", "holds Westburg (0202, city)", 10),
                        ("soviet", "holds Testgrad (0505, city)", 25),
                        ("soviet", "holds Eastville (0805, town)", 5)]
    assert (sc.german, sc.soviet) == (10, 30)


def test_24_1_24_3_the_book_values_apply_when_the_scenario_gives_none(mini: Game) -> None:
    # 10 per city, 5 per town, 10 for the AGSW front HQ, 1 per other Soviet unit; 0505 is an
    # ordinary city here, as only Kiev (0319) is worth 25 by the book.
    mini.scenario.victory = {}
    eliminate(mini, "so-hq-agsw", "so-rifle-1")
    sc = score(View(mini), final=False)
    assert sc.margin == 133
    assert sc.german == 10 + 10 + 1
    assert sc.soviet == 10 + 5
    assert ("german", "eliminated: the front HQ AGSW", 10) in sc.lines


def test_24_1_kiev_is_worth_25_by_the_book() -> None:
    game = Game.new("spi_kiev/campaign", seed=1)
    game.scenario.victory = {}
    game.state.control = {"0319": "german"}
    game.touch()
    sc = score(View(game), final=False)
    assert (sc.german, sc.soviet) == (25, 0)


def test_24_2_a_lone_panzer_regiment_is_8_and_another_regiment_5_by_the_book(mini: Game) -> None:
    mini.scenario.victory = {}
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-1pz-2")
    sc = score(View(mini), final=False)
    assert sc.soviet == 8 + 5
    assert sorted(p for s, w, p in sc.lines if s == "soviet") == [5, 8]


def test_24_2_regiment_points_come_from_the_scenario_table(mini: Game) -> None:
    mini.scenario.victory["regiment_points"] = {"panzer": 7, "other": 3}
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-1pz-2")
    sc = score(View(mini), final=False)
    assert sc.soviet == 7 + 3


def test_24_2_a_whole_division_scores_once_and_its_regiments_not_again(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-1pz-2", "ge-1pz-3")
    sc = score(View(mini), final=False)
    assert sc.lines == [("soviet", "destroyed 1 Pz entirely", 25)]
    assert sc.soviet == 25


def test_24_2_a_division_missing_one_regiment_scores_per_regiment(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-1pz-2")
    sc = score(View(mini), final=False)
    assert sc.soviet == 8 + 5


def test_24_2_an_empty_formation_entry_never_scores(mini: Game) -> None:
    mini.state.control = {}
    mini.scenario.victory["formation"] = [{"name": "ghost", "units": [], "points": 40}]
    sc = score(View(mini), final=False)
    assert sc.soviet == 0 and sc.lines == []


def test_24_2_replacements_and_leaders_score_nothing_on_their_own(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "ge-rpl-1", "ge-leader")
    sc = score(View(mini), final=False)
    assert sc.soviet == 0 and sc.lines == []


def test_24_2_an_eliminated_german_infantry_division_line(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "ge-inf-1")
    sc = score(View(mini), final=False)
    assert sc.lines == [("soviet", "eliminated 1 infantry", 5)]


def test_24_3_german_points_for_eliminated_soviets_with_the_front_hq_at_10(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "so-hq-agsw", "so-rifle-1")
    sc = score(View(mini), final=False)
    assert sc.german == 11
    assert sorted(p for s, w, p in sc.lines) == [1, 10]
    assert [w for s, w, p in sc.lines if p == 10][0].startswith("eliminated: the front HQ")


def test_24_3_a_soviet_unit_out_of_supply_at_the_end_counts_as_eliminated(mini: Game) -> None:
    # so-rifle-2 stands far beyond every HQ's radius, with the Germans between it and home.
    position(mini, {"so-hq-agsw": "1003", "so-rifle-1": "0904", "so-rifle-2": "0101",
                    "ge-inf-1": "0203"}, turn=3, reinforcements=False)
    mini.state.control = {}
    view = View(mini)
    assert not view.supply.all_status("soviet")["so-rifle-2"].in_supply
    assert view.supply.all_status("soviet")["so-rifle-1"].in_supply
    final = score(view, final=True)
    assert final.german == 1
    assert final.lines == [("german", "out of supply at the end: 102", 1)]
    assert score(View(mini), final=False).german == 0


@pytest.mark.parametrize("german, soviet, winner", [(163, 30, "german"), (162, 30, "soviet")])
def test_24_0_the_german_wins_only_with_a_lead_of_at_least_133(german: int, soviet: int, winner: str) -> None:
    sc = Score(german=german, soviet=soviet)
    assert sc.margin == 133
    assert sc.winner == winner
    assert sc.to_dict() == {"german": german, "soviet": soviet, "margin": 133, "winner": winner,
                            "lines": []}


def test_24_0_score_lines_are_reported_in_the_summary_dict(mini: Game) -> None:
    sc = score(View(mini), final=False)
    d = sc.to_dict()
    assert d["lines"][0] == {"side": "german", "what": "holds Westburg (0202, city)", "points": 10}
    assert d["winner"] == "soviet" and d["margin"] == 30


def test_24_1_24_3_every_value_is_read_from_the_scenario_table(mini: Game) -> None:
    # Odd numbers, none equal to the book's, so each must come from the table.
    mini.scenario.victory = {"margin": 7, "city": 11, "town": 6, "special_hexes": {"0202": 30},
                             "soviet_front_hq": "so-hq-army", "soviet_front_hq_points": 13,
                             "soviet_unit_points": 2}
    eliminate(mini, "so-hq-army", "so-rifle-1")
    sc = score(View(mini), final=False)
    assert sc.margin == 7
    # Westburg 0202 is special (30); Testgrad 0505 an ordinary city (11); Eastville a town (6).
    assert sc.lines[:3] == [("german", "holds Westburg (0202, city)", 30),
                            ("soviet", "holds Testgrad (0505, city)", 11),
                            ("soviet", "holds Eastville (0805, town)", 6)]
    assert [p for s, w, p in sc.lines if w.startswith("eliminated: the front HQ")] == [13]
    assert sc.german == 30 + 13 + 2
    assert sc.soviet == 11 + 6


def test_24_2_a_formation_entry_without_points_scores_nothing(mini: Game) -> None:
    mini.state.control = {}
    mini.scenario.victory["formation"] = [{"units": ["ge-inf-1"]}]
    eliminate(mini, "ge-inf-1")
    sc = score(View(mini), final=False)
    assert sc.lines == [] and sc.soviet == 0


def test_24_0_the_summary_states_the_lead_against_the_margin() -> None:
    sc = Score(german=150, soviet=20)
    assert sc.summary() == "German 150 VP, Soviet 20 VP; the German needed a lead of 133 and has 130."


def test_24_2_24_3_every_elimination_line_in_order(mini: Game) -> None:
    # German losses score for the Soviet (never a Soviet loss), Soviet losses for the German.
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-inf-2", "so-hq-agsw", "so-rifle-1", "so-cav-1")
    sc = score(View(mini), final=False)
    assert sc.lines == [("soviet", "eliminated 1/1 panzer", 8),
                        ("soviet", "eliminated 2 infantry", 5),
                        ("german", "eliminated: 5 Cav", 1),
                        ("german", "eliminated: the front HQ AGSW", 10),
                        ("german", "eliminated: 101", 1)]
    assert (sc.german, sc.soviet) == (12, 13)


def test_24_2_a_table_naming_only_one_regiment_value_keeps_the_book_for_the_other(mini: Game) -> None:
    mini.state.control = {}
    eliminate(mini, "ge-1pz-1", "ge-1pz-2")
    mini.scenario.victory["regiment_points"] = {"panzer": 7}
    assert score(View(mini), final=False).lines == [("soviet", "eliminated 1/1 panzer", 7),
                                                    ("soviet", "eliminated 2/1 motorized", 5)]
    mini.scenario.victory["regiment_points"] = {"other": 3}
    assert score(View(mini), final=False).lines == [("soviet", "eliminated 1/1 panzer", 8),
                                                    ("soviet", "eliminated 2/1 motorized", 3)]


def test_24_2_a_nameless_formation_still_scores_its_points(mini: Game) -> None:
    mini.state.control = {}
    mini.scenario.victory["formation"] = [{"units": ["ge-inf-1", "ge-inf-2"], "points": 12}]
    eliminate(mini, "ge-inf-1", "ge-inf-2")
    sc = score(View(mini), final=False)
    assert sc.lines == [("soviet", "destroyed ? entirely", 12)]
    assert sc.soviet == 12


def test_24_3_the_front_hq_out_of_supply_at_the_end_counts_as_eliminated(mini: Game) -> None:
    # The scenario names so-rifle-2 its front HQ; it stands cut off beyond the Germans (as in the
    # test above). The HQ's points are the book's 10, as the table gives none.
    position(mini, {"so-hq-agsw": "1003", "so-rifle-1": "0904", "so-rifle-2": "0101", "ge-inf-1": "0203"},
             turn=3, reinforcements=False)
    mini.state.control = {}
    mini.scenario.victory = {"soviet_front_hq": "so-rifle-2"}
    view = View(mini)
    assert not view.supply.all_status("soviet")["so-rifle-2"].in_supply
    sc = score(view, final=True)
    assert sc.lines == [("german", "out of supply at the end: the front HQ 102", 10)]
    assert score(View(mini)) == sc  # the score at the end of the game is the default
    assert sc.to_dict() == {"german": 10, "soviet": 0, "margin": 133, "winner": "soviet",
                            "lines": [{"side": "german", "what": "out of supply at the end: the front HQ 102",
                                       "points": 10}]}


def test_24_0_points_add_up_per_side_and_zero_lines_are_left_out() -> None:
    sc = Score()
    sc.add("german", "a", 3)
    sc.add("soviet", "b", 4)
    sc.add("german", "c", 5)
    sc.add("soviet", "d", 0)
    assert (sc.german, sc.soviet, sc.lines) == (8, 4, [("german", "a", 3), ("soviet", "b", 4), ("german", "c", 5)])
