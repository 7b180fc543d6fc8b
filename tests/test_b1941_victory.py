"""Barbarossa 1941, victory (13, 12.7's freed cities, 14.3.1) on the real map.

Kiev (1121) and Moscow (2012) are major cities, Minsk (0915) a minor one (docs/rulings.md, Map);
1402 is a Finnish border-zone hex.
"""

from __future__ import annotations

from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941 import victory as V
from kiev_tui.games.barbarossa1941.board import Board
from tests.b41_rules_helpers import H, board, real_map, tables

KIEV, MINSK, MOSCOW = H("1121"), H("0915"), H("2012")
SOVIET_IN_KARELIA = {"so-a-7": "1402"}  # keeps the Finnish zone's point away


def test_13_minor_city_counts_for_its_last_occupant() -> None:
    b = board(real_map(), dict(SOVIET_IN_KARELIA))
    s = V.score(b, {MINSK: "axis"})
    assert (s.track, s.axis_vp) == (1, 1)
    assert [(ln.what, ln.vp) for ln in s.lines] == [("Minsk", 1)]
    assert V.score(b, {MINSK: "soviet"}).axis_vp == 0
    # partisans in the town do not take it back (12.7: they stand for an area of activity)
    b = board(real_map(), {**SOVIET_IN_KARELIA, "so-part-1": "0915"})
    assert V.score(b, {MINSK: "axis"}).axis_vp == 1


def test_13_ungarrisoned_major_city_counts_on_the_track_not_for_victory() -> None:
    empty = board(real_map(), dict(SOVIET_IN_KARELIA))
    s = V.score(empty, {KIEV: "axis"})
    assert (s.track, s.axis_vp) == (2, 0)
    held = board(real_map(), {**SOVIET_IN_KARELIA, "ge-ak-23": "1121"})
    s = V.score(held, {KIEV: "axis"})
    assert (s.track, s.axis_vp) == (2, 2)
    # a unit standing in a city holds it whatever the control record says
    assert V.score(held, {KIEV: "soviet"}).axis_vp == 2


def test_13_finnish_occupation_zone() -> None:
    assert V.score(board(real_map(), {}), {}).axis_vp == 1
    assert V.score(board(real_map(), {"so-a-7": "1402"}), {}).axis_vp == 0
    assert V.score(board(real_map(), {"so-a-7": "0804"}), {}).axis_vp == 0  # in Finland itself
    # a fort (no formation) does not deny the zone
    assert V.score(board(real_map(), {"so-fort-1": "1204"}), {}).axis_vp == 1


def test_12_7_a_city_freed_by_partisans_is_lost_for_good() -> None:
    b = board(real_map(), {**SOVIET_IN_KARELIA, "ge-ak-23": "1121", "ge-ak-26": "2012"})
    assert V.score(b, {KIEV: "axis", MOSCOW: "axis"}).axis_vp == 8
    s = V.score(b, {KIEV: "axis", MOSCOW: "axis"}, liberated={KIEV})
    assert (s.track, s.axis_vp) == (6, 6)


def test_14_3_1_bonus_points_count() -> None:
    b = board(real_map(), dict(SOVIET_IN_KARELIA))
    assert V.score(b, {MINSK: "axis"}, bonus=2).axis_vp == 3
    assert V.mandatory_attacks(1, 5) == 2
    assert V.mandatory_attacks(3, 1) == 0
    assert V.mandatory_attacks(4, 6) == 0  # only turns 1-3
    assert V.mandatory_attack_vp(2, [H("0415")]) == 1
    assert V.mandatory_attack_vp(2, [H("0415"), H("0415")]) == 1  # hexes, not combats
    assert V.mandatory_attack_vp(2, [H("0415"), H("0416")]) == 0


def test_17_1_typhoon_starts_with_9_vp_on_the_track() -> None:
    sc = load_scenario("barbarossa1941/typhoon")
    s = V.score(Board.from_scenario(sc), V.start_control(sc))
    # Kiev 2, Dnepropetrovsk 2, Lvov, Minsk, Riga, Smolensk, Velikiye Luki 1 each: the book's 9
    assert s.track == 9 == sc.params["start_vp"]
    assert s.axis_vp == 5  # Dnepropetrovsk, Lvov and Riga have no garrison


def test_13_historical_start_is_zero() -> None:
    sc = load_scenario("barbarossa1941/historical")
    s = V.score(Board.from_scenario(sc), V.start_control(sc))
    assert (s.track, s.axis_vp) == (0, 0)


def test_13_sudden_death_up_to_turn_6() -> None:
    t = tables()
    out = V.outcome(t, 20, 6, 10)
    assert out is not None and out.winner == "axis" and out.sudden_death
    assert V.outcome(t, 19, 6, 10) is None
    assert V.outcome(t, 20, 7, 10) is None
    assert V.outcome(t, 22, 10, 10) is None  # the last turn is judged at its end


def test_13_turn_10_levels() -> None:
    t = tables()
    got = {vp: V.outcome(t, vp, 10, 10, turn_over=True) for vp in (14, 15, 19, 20, 25, 26, 30, 31)}
    assert {vp: (o.level, o.winner) for vp, o in got.items() if o} == {
        14: ("soviet_major", "soviet"), 15: ("soviet_minor", "soviet"), 19: ("soviet_minor", "soviet"),
        20: ("undecided", None), 25: ("undecided", None), 26: ("axis_minor", "axis"), 30: ("axis_minor", "axis"),
        31: ("axis_total", "axis")}


def test_13_events_fire_once() -> None:
    sc = load_scenario("barbarossa1941/historical")
    first = V.events_reached(tables(), sc, 5, ())
    assert first == ["hungary_enters", "militia", "better_late_than_never", "better_late_than_never_2",
                     "fatherland_in_danger"]
    assert V.events_reached(tables(), sc, 4, first) == []
    assert V.events_reached(tables(), sc, 8, first) == ["mobilization"]
    assert V.withdrawn_by_events(sc, ["planes_for_africa", "partisans"]) == [("axis", "air", 1)]


def test_17_typhoon_events_below_9_vp_are_past() -> None:
    sc = load_scenario("barbarossa1941/typhoon")
    assert V.fired_at_start(tables(), sc) == {"hungary_enters": 4, "militia": 4, "mobilization": 4,
                                              "fatherland_in_danger": 4}


def test_13_control_changes_with_the_last_occupant() -> None:
    b = board(real_map(), {"ge-ak-23": "0915"})
    assert V.update_control(b, {MINSK: "soviet"})[MINSK] == "axis"
    # a partisan or fort does not take a city
    b = board(real_map(), {"so-part-1": "0915"})
    assert V.update_control(b, {MINSK: "axis"})[MINSK] == "axis"
