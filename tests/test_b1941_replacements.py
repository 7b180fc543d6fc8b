"""Barbarossa 1941, replacements (9.2, 9.21, 9.22, 12.5, 12.8, 12.11).

Positions on a small made-up map: a rail line runs down column 03 (0301-0307); 0303 and 0306
are cities.
"""

from __future__ import annotations

import dataclasses

from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941 import replacements as RP
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.units import read_ersatz
from tests.b41_rules_helpers import DATA, H, board, catalog, small_map, tables

RAIL = frozenset(H(f"03{r:02d}") for r in range(1, 8))
CITIES = {"0303": "minor_city", "0306": "major_city"}


def soviet_budget(turn: int = 3, infantry: int = 2, motorized: int = 1) -> RP.Budget:
    return RP.Budget("soviet", turn, infantry, motorized, 0, 0, 0, 0, 0, 0)


def axis_budget(turn: int = 3, infantry: int = 1, motorized: int = 1, finnish: int = 0) -> RP.Budget:
    return RP.Budget("axis", turn, infantry, motorized, 0, 0, 0, 0, finnish, 0)


def ctx(side: str, b: RP.Budget, units: list[str], **kw: object) -> RP.ReplaceContext:
    return RP.ReplaceContext(side, b, supplied=frozenset(units), friendly_rail=RAIL, **kw)  # type: ignore[arg-type]


# -- points ------------------------------------------------------------------------------------------


def test_9_21_book_example_seven_soviet_steps() -> None:
    # the marker on 7: one step, the marker goes back to 2
    assert RP.convert(tables(), RP.SOVIET_INFANTRY, 7) == (1, 2)
    assert RP.convert(tables(), RP.GERMAN_INFANTRY, 9) == (2, 1)
    assert RP.convert(tables(), RP.GERMAN_MOTORIZED, 3) == (0, 3)


def test_9_22_what_the_loss_markers_count() -> None:
    b = board(small_map(), {"ge-ak-23": "0101", "ge-pzk-41": "0102", "so-a-11": "0103", "so-cav-11": "0104",
                            "so-opol-1": "0105", "so-ab-1": "0106", "so-mc-5-26": "0201", "ro-a-3": "0202",
                            "fi-c-6": "0203"}, lost={"so-cav-11": 1})
    assert RP.track_of(b, "ge-ak-23") == RP.GERMAN_INFANTRY
    assert RP.track_of(b, "ge-pzk-41") == RP.GERMAN_MOTORIZED
    assert RP.track_of(b, "so-a-11") == RP.SOVIET_INFANTRY
    for uid in ("so-cav-11", "so-opol-1", "so-ab-1", "so-mc-5-26", "ro-a-3", "fi-c-6"):
        assert RP.track_of(b, uid) is None, uid
    # 9.22: a unit isolated or surrounded as it dies is not counted
    assert RP.track_of(b, "ge-ak-23", isolated_or_surrounded=True) is None


def test_12_8_soviet_turn_1_base_only_at_most_two() -> None:
    b = RP.budget(tables(), "soviet", 1, {RP.SOVIET_INFANTRY: 17}, RP.start_pools(tables()), cities=9, motorized_held=2)
    assert (b.infantry, b.motorized, b.complement_infantry) == (2, 0, 0)
    assert b.tracks[RP.SOVIET_INFANTRY] == 2


def test_9_22_soviet_complement() -> None:
    pools = RP.start_pools(tables())

    def got(turn: int, cities: int, held: int) -> tuple[int, int]:
        b = RP.budget(tables(), "soviet", turn, {}, pools, cities=cities, motorized_held=held)
        return b.complement_infantry, b.complement_motorized

    assert got(2, 3, 2) == (2, 0)  # motorized from turn 3
    assert got(3, 3, 2) == (2, 1)
    assert got(4, 2, 1) == (1, 0)
    assert got(6, 3, 1) == (3, 1)
    assert got(7, 2, 0) == (2, 0)  # "2 or 1": two with two cities (ruling)
    assert got(7, 1, 0) == (1, 0)
    assert got(8, 0, 0) == (1, 1)
    b = RP.budget(tables(), "soviet", 3, {RP.SOVIET_INFANTRY: 11}, pools, cities=4, motorized_held=2)
    assert (b.infantry, b.motorized, b.tracks[RP.SOVIET_INFANTRY]) == (4, 1, 1)


def test_9_22_german_points_and_pools() -> None:
    pools = RP.start_pools(tables())
    assert pools == RP.Pools(5, 3, 1, 1)
    b = RP.budget(tables(), "axis", 3, {RP.GERMAN_INFANTRY: 9, RP.GERMAN_MOTORIZED: 4}, pools)
    assert (b.base_infantry, b.base_motorized, b.pool_infantry, b.pool_motorized) == (2, 1, 2, 1)
    assert (b.infantry, b.motorized, b.finnish, b.romanian) == (4, 2, 1, 1)
    assert dict(b.tracks) == {RP.GERMAN_INFANTRY: 1, RP.GERMAN_MOTORIZED: 0}
    # the allies' single step comes from turn 3; the Axis has no replacement phase on turn 1
    assert RP.budget(tables(), "axis", 2, {}, pools).finnish == 0
    assert RP.budget(tables(), "axis", 1, {RP.GERMAN_INFANTRY: 8}, pools).infantry == 0
    # base points first, then the campaign pool
    b1, p1 = RP.spend(b, RP.INFANTRY, pools)
    b2, p2 = RP.spend(b1, RP.INFANTRY, p1)
    b3, p3 = RP.spend(b2, RP.INFANTRY, p2)
    assert (b3.infantry, p2.german_infantry, p3.german_infantry) == (1, 5, 4)
    # the pool's limit: once 1 German infantry step is left, only 1 is usable
    assert RP.budget(tables(), "axis", 4, {}, dataclasses.replace(pools, german_infantry=1)).pool_infantry == 1


def test_17_1_typhoon_pools() -> None:
    sc = load_scenario("barbarossa1941/typhoon")
    assert RP.start_pools(tables(), sc.params) == RP.Pools(2, 0, 0, 0)


def test_12_5_fjd_traded_for_an_infantry_step() -> None:
    assert RP.trade_fjd(tables(), RP.Pools(5, 3, 1, 1)) == RP.Pools(6, 3, 1, 1)
    b = board(small_map(), {})
    c = ctx("axis", axis_budget(), [], fjd_available=True)
    assert RP.check_replace(b, RP.Replace(RP.TRADE_FJD, "ge-fjd-7"), c) is None
    bad = RP.check_replace(b, RP.Replace(RP.TRADE_FJD, "ge-fjd-7"), dataclasses.replace(c, fjd_available=False))
    assert bad is not None and bad.case == "12.5"


# -- replenishing ----------------------------------------------------------------------------------


def test_9_2_replenish_on_the_spot() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"so-a-11": "0404", "ge-ak-23": "0505"}, lost={"so-a-11": 1})
    c = ctx("soviet", soviet_budget(), ["so-a-11"])
    a = RP.Replace(RP.REPLENISH, "so-a-11")
    assert RP.check_replace(b, a, c) is None  # next to the rail, in the German zone: allowed
    for changed, why in ((dict(supplied=frozenset()), "out of supply"),
                         (dict(friendly_rail=frozenset({H("0301")})), "rail"),
                         (dict(done=frozenset({"so-a-11"})), "this turn")):
        bad = RP.check_replace(b, a, dataclasses.replace(c, **changed))  # type: ignore[arg-type]
        assert bad is not None and bad.case == "9.2" and why in bad.why
    full = board(gmap, {"so-a-11": "0404"})
    assert RP.check_replace(full, a, c).case == "9.2"  # type: ignore[union-attr]
    broke = RP.check_replace(b, a, dataclasses.replace(c, budget=soviet_budget(infantry=0)))
    assert broke is not None and broke.case == "9.22"


def test_9_2_german_units_within_20_rail_hexes() -> None:
    b = board(small_map(), {"ge-ak-23": "0303"}, lost={"ge-ak-23": 1})
    a = RP.Replace(RP.REPLENISH, "ge-ak-23")
    c = ctx("axis", axis_budget(), ["ge-ak-23"], rail_to_border={"ge-ak-23": 20})
    assert RP.check_replace(b, a, c) is None
    bad = RP.check_replace(b, a, dataclasses.replace(c, rail_to_border={"ge-ak-23": 21}))
    assert bad is not None and bad.case == "9.2" and "20 rail hexes" in bad.why


def test_9_2_mechanized_corps_are_never_replenished() -> None:
    b = board(small_map(), {"so-mc-5-26": "0303"}, lost={"so-mc-5-26": 1})
    bad = RP.check_replace(b, RP.Replace(RP.REPLENISH, "so-mc-5-26"), ctx("soviet", soviet_budget(), ["so-mc-5-26"]))
    assert bad is not None and bad.case == "9.2"


def test_9_22_allies_use_their_own_point_or_none() -> None:
    b = board(small_map(), {"fi-c-6": "0303", "it-csir": "0305"}, lost={"fi-c-6": 1, "it-csir": 1})
    c = ctx("axis", axis_budget(finnish=1), ["fi-c-6", "it-csir"])
    assert RP.check_replace(b, RP.Replace(RP.REPLENISH, "fi-c-6"), c) is None
    bad = RP.check_replace(b, RP.Replace(RP.REPLENISH, "fi-c-6"), dataclasses.replace(c, budget=axis_budget(finnish=0)))
    assert bad is not None and bad.case == "9.22"
    bad = RP.check_replace(b, RP.Replace(RP.REPLENISH, "it-csir"), c)
    assert bad is not None and bad.case == "9.22" and "no replacements" in bad.why


def test_3_a_replacement_step_respects_stacking() -> None:
    # 1 + 2 + 2 + 1 = six points: the reduced army cannot grow
    b = board(small_map(), {"so-a-11": "0303", "so-a-3": "0303", "so-a-5": "0303", "so-opol-1": "0303"},
              lost={"so-a-11": 1})
    bad = RP.check_replace(b, RP.Replace(RP.REPLENISH, "so-a-11"), ctx("soviet", soviet_budget(), ["so-a-11"]))
    assert bad is not None and bad.case == "3"


# -- rebuilding --------------------------------------------------------------------------------------


def test_9_2_only_4_2_3_armies_return_in_a_city_held() -> None:
    gmap = small_map(settlement=CITIES)
    b = board(gmap, {"ge-ak-23": "0306"})
    control = {H("0303"): "soviet", H("0306"): "axis"}
    c = ctx("soviet", soviet_budget(), [], control=control, eliminated=frozenset({"so-a-6", "so-a-11"}))
    assert RP.check_replace(b, RP.Replace(RP.REBUILD, "so-a-6", H("0303")), c) is None
    assert RP.check_replace(b, RP.Replace(RP.REBUILD, "so-a-6", H("0306")), c).case == "9.2"  # type: ignore[union-attr]
    bad = RP.check_replace(b, RP.Replace(RP.REBUILD, "so-a-11", H("0303")), c)  # a 5-2-3 army
    assert bad is not None and bad.case == "9.2" and "never" in bad.why
    assert RP.rebuilt_lost(b, "so-a-6") == 1
    assert RP.options(b, c) == [RP.Replace(RP.REBUILD, "so-a-6", H("0303"))]


def test_9_2_ersatz_corps_for_a_destroyed_german_corps() -> None:
    gmap = small_map(settlement={"0303": "major_city", "0106": "major_city"},
                     names={"0303": "Warsaw", "0106": "Königsberg"})
    units = dict(catalog().units)
    units["ge-ersatz-1"] = read_ersatz(DATA / "units.toml").unit("ge-ersatz-1")
    b = Board(gmap, tables(), units, {}, {}, turn=3)
    control = {H("0303"): "axis", H("0106"): "axis"}
    c = ctx("axis", axis_budget(), [], control=control, eliminated=frozenset({"ge-ak-23"}),
            entered={H("0106"): 1}, ersatz_free=("ge-ersatz-1", "ge-ersatz-2"))
    a = RP.Replace(RP.ERSATZ, "ge-ersatz-1", H("0303"), "ge-ak-23")
    assert RP.check_replace(b, a, c) is None
    assert RP.check_replace(b, dataclasses.replace(a, hex=H("0106")), c).case == "9.1"  # type: ignore[union-attr]
    again = RP.check_replace(b, a, dataclasses.replace(c, ersatz_for=frozenset({"ge-ak-23"})))
    assert again is not None and "already" in again.why
    alive = RP.check_replace(b, a, dataclasses.replace(c, eliminated=frozenset()))
    assert alive is not None and alive.case == "9.2"
    assert RP.options(b, c, ersatz_uid="ge-ersatz-1") == [a]


def test_12_11_shock_army_replaces_a_full_army() -> None:
    b = board(small_map(), {"so-a-11": "0303", "so-a-3": "0305"}, lost={"so-a-3": 1}, turn=7)
    c = ctx("soviet", soviet_budget(turn=7), [], shocks_available=("so-shock-1",))
    a = RP.Replace(RP.SHOCK, "so-shock-1", H("0303"), "so-a-11")
    assert RP.check_replace(b, a, c) is None
    reduced = RP.check_replace(b, dataclasses.replace(a, hex=H("0305"), target="so-a-3"), c)
    assert reduced is not None and reduced.case == "12.11"
    early = RP.check_replace(b, a, dataclasses.replace(c, budget=soviet_budget(turn=6)))
    assert early is not None and "turn 7" in early.why
    second = RP.check_replace(b, a, dataclasses.replace(c, shocks_this_turn=1))
    assert second is not None and second.case == "12.11"
    assert RP.cost(b, a) == RP.INFANTRY


def test_12_11_cavalry_corps_flips_to_mobile_group_for_a_motorized_point() -> None:
    b = board(small_map(), {"so-cav-11": "0303", "so-mg-kachalov": "0305"}, lost={"so-cav-11": 1})
    c = ctx("soviet", soviet_budget(), ["so-cav-11", "so-mg-kachalov"])
    a = RP.Replace(RP.MOBILE_GROUP, "so-cav-11")
    assert RP.check_replace(b, a, c) is None and RP.cost(b, a) == RP.MOTORIZED
    none_left = RP.check_replace(b, a, dataclasses.replace(c, budget=soviet_budget(motorized=0)))
    assert none_left is not None and none_left.case == "9.22"
    flipped = RP.check_replace(b, RP.Replace(RP.MOBILE_GROUP, "so-mg-kachalov"), c)
    assert flipped is not None and flipped.case == "12.11"
    # a cavalry corps never takes an ordinary replacement step
    assert RP.check_replace(b, RP.Replace(RP.REPLENISH, "so-cav-11"), c).case == "12.11"  # type: ignore[union-attr]
    assert RP.options(b, c) == [a]
