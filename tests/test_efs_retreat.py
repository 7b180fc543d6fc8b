"""Kiev to Rostov retreats and advance after combat (16.4-16.5, 11.43j) on Sumy positions.

A lone Soviet cavalry stack at 1805 retreats from an Axis attacker at 1806, whose zone covers
1705 and 1905; the other cases change that position one thing at a time.
"""

from __future__ import annotations

import dataclasses

from kiev_tui.engine.errors import Illegal
from kiev_tui.games.efs_ktr import retreat as R
from kiev_tui.games.efs_ktr.board import ADDITIONAL_RETREAT
from tests.efs_positions import M16, M25, PZ, hx, map_copy, position, tutorial_soviet_motorized

CAV = ["so-11-96-5c"]


def base(**extra: str) -> "R.Board":
    return position({"so-11-96-5c": "1805", "ax-10mot-9pz": "1806", **extra}, phase="combat")


def paths(opts: object, fate: str | None = None) -> set[str]:
    assert isinstance(opts, list), opts
    return {" ".join(hx_id(h) for h in r.path) for r in opts if fate is None or r.fate == fate}


def hx_id(h: "R.Hex") -> str:
    return base().hid(h)


def test_16_4_two_hexes_away_from_the_defender_hex() -> None:
    b = base()
    opts = R.options(b, CAV)
    assert isinstance(opts, list) and all(len(r.path) == 2 for r in opts)
    assert paths(opts, R.SAFE) == {"1704 1604", "1704 1605", "1704 1703", "1804 1703", "1804 1803", "1804 1903",
                                   "1904 1903", "1904 2004", "1904 2005"}
    assert R.check_path(b, CAV, ["1804", "1803"]) == R.Retreat((hx("1804"), hx("1803")), R.SAFE, "16.4")
    assert R.check_path(b, CAV, ["1804", "1704"]) == Illegal(
        "16.4", "not a legal 2-hex retreat away from the combat: 1804 1704")  # 1704 is no farther away


def test_16_46_one_vacant_hex_in_an_enemy_zone() -> None:
    b = base()
    got = R.check_path(b, CAV, ["1705", "1605"])
    assert got == R.Retreat((hx("1705"), hx("1605")), R.ZOC_ROLL, "16.46", steps_lost=1)
    # a friendly combat unit in 1705 cancels the zone there (16.44)
    b2 = base(**{"so-5-136-9c": "1705"})
    assert R.check_path(b2, CAV, ["1705", "1605"]) == R.Retreat((hx("1705"), hx("1605")), R.SAFE, "16.4")


def test_16_44_no_retreat_ends_in_an_enemy_zone() -> None:
    b = base()
    assert "1705 1706" not in paths(R.options(b, CAV))  # 1706 lies in the 10th's zone
    # ending in a friendly-held hex in an enemy zone: one hex farther, or the Cadre Box
    b2 = base(**{"ax-11mot-9pz": "1503", "so-5-136-9c": "1604"})
    cadre = [r for r in R.options(b2, CAV) if r.path == (hx("1704"), hx("1604"))]  # type: ignore[union-attr]
    assert cadre == [R.Retreat((hx("1704"), hx("1604")), R.TO_CADRE, "16.44", extended=1)]
    # a Declared Attack marker on the last hex sends it one farther too
    b3 = base().replace(declared=frozenset({hx("1703")}))
    opts = R.options(b3, CAV)
    assert {"1704 1703 1702", "1804 1703 1702"} <= paths(opts) and "1804 1703" not in paths(opts)


def test_16_45_never_two_vacant_hexes_in_enemy_zones() -> None:
    ring = {"ax-33pz-9pz": "1606", "ax-11mot-9pz": "1604", "ax-9rec-9pz": "1803", "ax-60mot-16m": "2004",
            "ax-156mot-16m": "2006", "ax-341rec-16m": "1807"}
    b = position({"so-11-96-5c": "1805", **ring}, phase="combat")
    assert R.options(b, CAV) == [R.Retreat((), R.TO_ELIMINATED, "16.45")]


def test_16_42b_surrounded_units_are_eliminated() -> None:
    ring = dict(zip(list(PZ) + list(M16[:2]), ("1804", "1806", "1704", "1705", "1904", "1905")))
    b = position({"so-11-96-5c": "1805", **ring}, phase="combat")
    assert R.options(b, CAV) == [R.Retreat((), R.TO_ELIMINATED, "16.42")]


def test_16_42c_off_the_map_edge_to_the_cadre_box() -> None:
    b = position({"ax-20mot-10m": "1007", "so-227rd": "1105", "so-129tb": "1107", "so-1tb": "1109"}, phasing="soviet")
    assert R.options(b, ["ax-20mot-10m"]) == [R.Retreat((), R.TO_CADRE, "16.42", off_map=True)]
    # with a way along the map, the edge is no exit (rulings)
    b2 = b.moved({"so-227rd": hx("1205")})
    assert paths(R.options(b2, ["ax-20mot-10m"])) == {"1006 1005"}


def test_16_42a_a_unit_with_no_ma_cannot_retreat() -> None:
    b = base()
    units = dict(b.units)
    units["so-11-96-5c"] = dataclasses.replace(units["so-11-96-5c"], ma=0)
    assert R.options(b.replace(units=units), CAV) == [R.Retreat((), R.TO_ELIMINATED, "16.42")]


def test_16_43d_no_retreat_over_an_unbridged_major_river() -> None:
    m = map_copy()
    for a in ("1804", "1904", "1704"):
        m.set_side_features(hx("1805"), hx(a), frozenset({"major_river"}))
    b = position({"so-11-96-5c": "1805", "ax-10mot-9pz": "1806"}, gmap=m, phase="combat")
    assert paths(R.options(b, CAV)) == {"1705 1605", "1705 1606", "1905 2005", "1905 2006"}


def test_10_78_motorized_units_retreat_into_swamp_only_by_road() -> None:
    b = position({"ax-35mot-25m": "1512", "so-295rd": "1411"}, phasing="soviet", phase="combat")
    assert not any(hx("1613") in r.path for r in R.options(b, ["ax-35mot-25m"]))  # type: ignore[union-attr]
    foot = position({"so-227rd": "1512", "ax-35mot-25m": "1411"}, phase="combat")
    assert any(hx("1613") in r.path for r in R.options(foot, ["so-227rd"]))  # type: ignore[union-attr]


def test_16_47_not_over_the_stacking_limit() -> None:
    full = {"so-295rd": "1903", "so-227rd": "1903", "so-1tb": "1903"}
    opts = R.options(base(**full), CAV)
    assert "1804 1903" not in paths(opts) and "1904 1903" not in paths(opts)  # other ways remain
    # only way out is the full hex: one hex farther (16.47)
    m = map_copy()
    for h in ("1704", "1705", "1904", "1905", "1703", "1803"):
        m.terrain_of[hx(h)] = "lake"
    tight = position({"so-11-96-5c": "1805", "ax-10mot-9pz": "1806", **full}, gmap=m, phase="combat")
    assert paths(R.options(tight, CAV)) == {"1804 1903 1902", "1804 1903 2003"}
    got = R.check_path(tight, CAV, ["1804", "1903", "1902"])
    assert got == R.Retreat((hx("1804"), hx("1903"), hx("1902")), R.SAFE, "16.47", extended=1)


def test_pb_10_4_additional_retreat_three_hexes_the_soviet_picks_safe() -> None:
    b = tutorial_soviet_motorized().moved({"so-227rd": hx("1305"), "so-129tb": hx("1305"), "so-1tb": hx("1406"),
                                           "ax-341rec-16m": hx("1306")})
    units = ["ax-20mot-10m", "ax-341rec-16m"]
    kind = R.kind_for(ADDITIONAL_RETREAT)
    got = R.check_path(b, units, ["1207", "1107", "1007"], kind)
    assert got == R.Retreat((hx("1207"), hx("1107"), hx("1007")), R.SAFE, "16.4")  # PB 10.4: to 1007
    opts = R.choices(b, units, kind)
    assert isinstance(opts, list) and all(len(r.path) == 3 and r.fate == R.SAFE for r in opts)
    # 16.41b2: never through 1206, which only the Soviet zone covers; a plain retreat may, at a price
    assert not any(hx("1206") in r.path for r in R.options(b, units, kind))  # type: ignore[union-attr]
    plain = R.options(b, units)
    assert isinstance(plain, list)
    assert {r.fate for r in plain if r.path[0] == hx("1206")} == {R.ZOC_ROLL}


def test_16_41b1_the_enemy_must_pick_a_safe_path() -> None:
    b = position({"ax-20mot-10m": "1805", "so-5-136-9c": "1806", "ax-10mot-9pz": "1606"}, phasing="soviet",
                 phase="combat")
    units = ["ax-20mot-10m"]
    every = R.options(b, units, R.ADDITIONAL)
    assert isinstance(every, list)
    costly = [r for r in every if r.fate == R.ZOC_ROLL]
    assert costly and all(r.path[0] == hx("1705") for r in costly)  # contested: the 10th's zone too
    assert not any(r.path[0] == hx("1905") for r in every)  # 16.41b2: uncontested
    assert R.check_path(b, units, [b.hid(h) for h in costly[0].path], R.ADDITIONAL) == Illegal(
        "16.41", "a path that costs the units nothing exists: the enemy must choose one")


def test_16_41b2_additional_retreat_with_no_path_is_eliminated() -> None:
    b = position({"ax-20mot-10m": "1805", "so-5-136-9c": "1804", "so-72-108-9c": "1806"}, phasing="soviet",
                 phase="combat")
    assert R.options(b, ["ax-20mot-10m"], R.ADDITIONAL) == [R.Retreat((), R.TO_ELIMINATED, "16.45")]
    assert paths(R.options(b, ["ax-20mot-10m"]), R.ZOC_ROLL)  # a plain retreat pays 16.46 instead


def test_11_43j_an_overrun_retreat_passes_no_enemy_zone() -> None:
    b = base()
    assert paths(R.choices(b, CAV, R.OVERRUN)) == paths(R.options(b, CAV), R.SAFE)
    b2 = position({"so-11-96-5c": "1805", "ax-20mot-10m": "1804", "ax-10mot-9pz": "1806"}, phase="combat")
    assert R.options(b2, CAV, R.OVERRUN) == [R.Retreat((), R.TO_CADRE, "11.43")]
    assert paths(R.options(b2, CAV), R.ZOC_ROLL)


# -- advance after combat (16.5) ---------------------------------------------------------------------
def test_16_52_pb_10_4_artillery_does_not_advance() -> None:
    b = position({"ax-35mot-25m": "1411", "ax-119mot-25m": "1411", "ax-619art": "1309"}, phase="combat")
    attackers = [*M25, "ax-619art"]
    assert R.check_advance(b, list(M25), hx("1510"), attackers) is None
    assert R.check_advance(b, ["ax-619art"], hx("1510"), attackers) == Illegal(
        "16.52", "ax-619art is artillery: artillery does not advance")
    assert R.check_advance(b, ["ax-35mot-25m"], hx("1510"), ["ax-119mot-25m"]) == Illegal(
        "16.52", "ax-35mot-25m did not take part in the attack")


def test_16_53_advance_ignores_enemy_zones_into_the_attacked_hex_only() -> None:
    b = position({"ax-35mot-25m": "1510", "so-295rd": "1612"}, phase="combat")
    assert R.check_advance(b, ["ax-35mot-25m"], hx("1611"), ["ax-35mot-25m"]) is None
    assert R.check_advance(b, ["ax-35mot-25m"], hx("1712"), ["ax-35mot-25m"]) == Illegal(
        "16.53", "ax-35mot-25m is not next to 1712")


def test_16_54_pb_10_4_no_advance_over_the_limit() -> None:
    b = position({**{u: "1408" for u in PZ}, **{u: "1409" for u in M16}}, phase="combat")
    attackers = [*PZ, *M16]
    assert R.check_advance(b, list(PZ), hx("1508"), attackers) is None  # PB 10.4: the 9th Panzer advances
    assert R.check_advance(b, attackers, hx("1508"), attackers) == Illegal(
        "16.54", "1508 would hold 12 stacking points; a hex holds at most 10")


def test_16_41b4_additional_retreat_attackers_do_not_advance() -> None:
    b = position({"ax-35mot-25m": "1411"}, phase="combat")
    assert R.check_advance(b, ["ax-35mot-25m"], hx("1510"), ["ax-35mot-25m"], ADDITIONAL_RETREAT) == Illegal(
        "16.41", "attackers under Additional Retreat orders do not advance")


def test_16_41a2_no_retreat_terrain_is_the_defender_hex() -> None:
    b = base()
    assert [b.no_retreat_terrain(hx(h)) for h in ("2303", "2009", "1906", "1908", "2008", "1805", "1613")] == \
        [True, False, True, True, True, False, False]  # Sumy city, Lebedin town, hill, woods, both, clear, swamp


def test_16_45_two_contested_hexes_running_are_never_passed() -> None:
    # Additional Retreat may pass a contested vacant hex (rulings) but never two in a row
    b = position({"ax-20mot-10m": "1805", "so-5-136-9c": "1806", "so-72-108-9c": "1504", "ax-10mot-9pz": "1606"},
                 phasing="soviet", phase="combat")
    every = R.options(b, ["ax-20mot-10m"], R.ADDITIONAL)
    assert isinstance(every, list)
    starts = {tuple(b.hid(h) for h in r.path[:2]) for r in every if r.fate == R.ZOC_ROLL}
    assert ("1705", "1606") in starts and ("1705", "1706") not in starts  # 1706: both zones too


def test_16_24_apply_a_retreat() -> None:
    b = base()
    after = R.apply(b, CAV, R.Retreat((hx("1804"), hx("1803")), R.SAFE, "16.4"), overrun=True)
    assert after.hex_of["so-11-96-5c"] == hx("1803") and after.overrun_marked == frozenset(CAV)  # 11.44
    gone = R.apply(b, CAV, R.Retreat((), R.TO_ELIMINATED, "16.45"))
    assert "so-11-96-5c" not in gone.hex_of and gone.box("so-11-96-5c") == R.TO_ELIMINATED
    assert gone.at(hx("1805")) == () and b.at(hx("1805")) == ("so-11-96-5c",)  # a new Board each time
