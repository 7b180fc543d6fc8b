"""Barbarossa 1941, arrivals and withdrawals (9.1, 11, 12.5, 12.11, 13, 14.3.2-14.3.4, 15.3, 17.2).

Calendar tests read the shipped scenarios; placement tests use small made-up maps where
0303 is a city and the cities named around it stand at known distances.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.barbarossa1941 import reinforcements as R
from tests.b41_rules_helpers import H, board, ids, small_map


@lru_cache(maxsize=3)
def scen(name: str) -> Scenario:
    return load_scenario(f"barbarossa1941/{name}")


def arrivals(name: str, turn: int, side: str, **kw: object) -> list[tuple[str, str, list[str]]]:
    sc = scen(name)
    return [(a.uid, a.place, [sc.map.grid.id(h) for h in a.hexes])
            for a in R.due(sc, turn, side, **kw)]  # type: ignore[arg-type]


def test_15_3_turn_2_axis_calendar() -> None:
    assert arrivals("historical", 2, "axis") == [
        ("ge-ak-50", "hexes", ["0112"]), ("ge-ak-35", "hexes", ["0117"]), ("ge-pzk-40", "hexes", ["0117"]),
        ("ge-ak-34", "hexes", ["0121"]), ("it-csir", "hexes", ["0131"]), ("ro-a-4", "hexes", ["0729"])]
    assert arrivals("historical", 4, "axis") == []


def test_14_3_2_no_fallschirmjager() -> None:
    assert ("ge-fjd-7", "held", []) in arrivals("historical", 3, "axis")
    assert "ge-fjd-7" not in [a[0] for a in arrivals("historical", 3, "axis", options={"14.3.2"})]


def test_14_3_4_early_siberian_armies() -> None:
    assert "so-a-58" not in [a[0] for a in arrivals("historical", 6, "soviet")]
    assert ("so-a-58", "hexes", ["2618", "2625"]) in arrivals("historical", 8, "soviet")
    early = R.due(scen("historical"), 6, "soviet", options={"14.3.4"})
    a58 = [a for a in early if a.uid == "so-a-58"]
    assert len(a58) == 1 and a58[0].case == "14.3.4"
    assert "so-a-58" not in [a[0] for a in arrivals("historical", 8, "soviet", options={"14.3.4"})]
    assert "so-a-59" in [a[0] for a in arrivals("typhoon", 7, "soviet", options={"14.3.4"})]


def test_13_hungarians_come_after_3_vp() -> None:
    fired = {"better_late_than_never": 3, "better_late_than_never_2": 3}
    assert arrivals("historical", 4, "axis", fired=fired) == [("hu-gyor", "hexes", ["0124"])]
    assert arrivals("historical", 5, "axis", fired=fired) == [("hu-sich-8", "hexes", ["0124"])]
    assert arrivals("historical", 4, "axis") == []


def test_14_3_3_dietl_on_a_six() -> None:
    sc = scen("historical")
    got = R.optional_arrivals(sc, 5, {"14.3.3"}, 6)
    assert [(a.uid, [sc.map.grid.id(h) for h in a.hexes], a.case) for a in got] == [("ge-dietl", ["0804"], "14.3.3")]
    assert R.optional_arrivals(sc, 5, {"14.3.3"}, 5) == []
    assert R.optional_arrivals(sc, 5, set(), 6) == []
    assert R.optional_roll_turns(sc, {"14.3.3"}) == {"murmansk": 5}


def test_12_5_initial_airborne_corps_leave_on_turn_6() -> None:
    sc = scen("historical")
    assert R.withdrawals(sc, 6, "soviet", {"so-ab-1", "so-ab-3", "so-a-11"}) == ["so-ab-1", "so-ab-3"]
    assert R.withdrawals(sc, 5, "soviet", {"so-ab-1"}) == []
    # 17.2's 3rd Airborne Corps leaves Typhoon on turn 6 (it stands at Odessa)
    assert R.withdrawals(scen("typhoon"), 6, "soviet", {"so-ab-3"}) == ["so-ab-3"]


# -- placement ----------------------------------------------------------------------------------------

CITIES = {"0303": "minor_city", "0305": "minor_city", "0306": "minor_city", "0603": "major_city"}


def test_9_1_enemy_held_entry_goes_to_nearest_friendly_city() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"ge-ak-23": "0303"})
    control = {H("0303"): "axis", H("0305"): "soviet", H("0306"): "soviet", H("0603"): "soviet"}
    a = R.Arrival("so-a-29", "soviet", 2, R.HEXES, (H("0303"),))
    # 0305 is 2 hexes away, 0306 and 0603 further
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0305"}
    bad = R.check_place(b, a, H("0303"), control)
    assert bad is not None and bad.case == "9.1"
    assert R.check_place(b, a, H("0305"), control) is None


def test_9_1_an_enemy_zone_on_the_entry_hex_does_not_stop_arrival() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"ge-ak-23": "0304"})  # two steps: a zone over 0303
    control = {H("0303"): "soviet"}
    a = R.Arrival("so-a-29", "soviet", 2, R.HEXES, (H("0303"),))
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0303"}


def test_3_a_full_entry_hex_sends_the_unit_to_the_nearest_city() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"so-a-11": "0303", "so-a-3": "0303", "so-a-5": "0303"})  # six points
    control = {h: "soviet" for h in map(H, CITIES)}
    a = R.Arrival("so-a-29", "soviet", 2, R.HEXES, (H("0303"),))
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0305"}
    bad = R.check_place(b, a, H("0303"), control)
    assert bad is not None and bad.case == "3"


def test_9_1_calendar_lists_are_placed_in_full() -> None:
    gmap = small_map(settlement={"0303": "major_city"}, names={"0303": "Warsaw"})
    b = board(gmap, {"ge-ak-35": "0303"})  # the first of turn 2's two Warsaw arrivals is in
    control = {H("0303"): "axis"}
    a = R.Arrival("ge-pzk-40", "axis", 2, R.HEXES, (H("0303"),))
    assert R.check_place(b, a, H("0303"), control) is None


def test_9_1_national_route_one_unit_per_city_a_turn() -> None:
    gmap = small_map(settlement={"0303": "major_city", "0106": "major_city", "0505": "minor_city"},
                     names={"0303": "Warsaw", "0106": "Königsberg"})
    b = board(gmap, {})
    control = {H("0303"): "axis", H("0106"): "axis", H("0505"): "axis"}
    a = R.Arrival("ge-ak-23", "axis", 3, R.ENTRY, (), "9.2", "rebuild")
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0303", "0106"}
    assert ids(gmap, R.entry_hexes(b, a, control, entered={H("0303"): 1})) == {"0106"}
    assert R.entry_hexes(b, a, control, entered={H("0303"): 1, H("0106"): 1}) == frozenset()
    # both entry cities lost: the nearest city the Axis holds
    lost = {H("0303"): "soviet", H("0106"): "soviet", H("0505"): "axis"}
    assert ids(gmap, R.entry_hexes(b, a, lost)) == {"0505"}


def test_11_soviet_air_corps_enter_in_a_major_city_held() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"ge-ak-23": "0306"})
    control = {H("0303"): "soviet", H("0305"): "soviet", H("0306"): "soviet", H("0603"): "soviet"}
    a = R.Arrival("so-air-1", "soviet", 7, R.ANY_MAJOR, (), "11")
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0603"}
    # 11.1: a major city bases two air corps at most
    full = {"x1": H("0603"), "x2": H("0603")}
    assert R.entry_hexes(b, a, control, air=full) == frozenset()
    bad = R.check_place(b, a, H("0303"), control)
    assert bad is not None and bad.case == "11"


def test_12_11_guards_cavalry_any_city_held() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"ge-ak-23": "0306"})
    control = {H("0303"): "soviet", H("0305"): "axis", H("0306"): "soviet", H("0603"): "soviet"}
    a = R.Arrival("so-gcav-1", "soviet", 8, R.ANY_CITY, (), "12.11")
    assert ids(gmap, R.entry_hexes(b, a, control)) == {"0303", "0603"}


def test_12_11_shock_army_takes_a_full_army_s_place() -> None:
    gmap = small_map()
    b = board(gmap, {"so-a-11": "0303", "so-a-3": "0505", "so-a-29": "0202"}, lost={"so-a-3": 1})
    a = R.Arrival("so-shock-1", "soviet", 7, R.REPLACE_ARMY, (), "12.11")
    assert ids(gmap, R.entry_hexes(b, a, {})) == {"0303", "0202"}


def test_12_5_held_units_stay_off_the_map() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {})
    a = R.Arrival("ge-fjd-7", "axis", 3, R.HELD, (), "12.5")
    assert R.entry_hexes(b, a, {}) == frozenset()
    bad = R.check_place(b, a, H("0303"), {H("0303"): "axis"})
    assert bad is not None and bad.case == "12.5"


def test_15_2_cavalry_enters_reduced() -> None:
    b = board(small_map(), {})
    assert R.entry_lost(b, "so-cav-11") == 1
    assert R.entry_lost(b, "so-mg-kachalov") == 0


def test_11_1_air_corps_lost_at_base_return_two_turns_later() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {})
    control = {h: "axis" for h in map(H, CITIES)}
    de = R.returning_air(b, "ge-air-1", 4)
    assert (de.turn, de.place, de.case) == (6, R.ANY_CITY, "11.1")
    assert ids(gmap, R.entry_hexes(b, de, control)) == set(CITIES)
    so = R.returning_air(b, "so-air-1", 7)
    assert (so.turn, so.place) == (9, R.ANY_MAJOR)
    assert ids(gmap, R.entry_hexes(b, so, {h: "soviet" for h in map(H, CITIES)})) == {"0603"}


def test_9_1_campaign_table_is_checked() -> None:
    from kiev_tui.engine.errors import DataError
    from kiev_tui.engine.tomlio import load_toml
    from kiev_tui.games.barbarossa1941.tables import check_tables
    from tests.b41_rules_helpers import DATA

    data = load_toml(DATA / "tables.toml")
    check_tables(DATA / "tables.toml", data)
    data["campaign"]["arrival"]["hostile_entry"] = "anywhere"
    with pytest.raises(DataError, match="hostile_entry"):
        check_tables(DATA / "tables.toml", data)
