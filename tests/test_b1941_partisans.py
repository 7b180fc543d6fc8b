"""Barbarossa 1941, partisans (12.7) and militia (12.11) on the real map.

Depth inside the USSR (1: next to an Axis country): 0714 lies 4 deep, 0814 and 0810 5 deep, 0820
5 deep south of the Bobruisk row (rows 17 on).  Kiev is the major city 1121; 1120 is next to it.
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941 import partisans as P
from tests.b41_rules_helpers import H, board, real_map

KIEV = H("1121")


def test_12_7_five_hexes_inside_the_border() -> None:
    b = board(real_map(), {})
    shallow = P.check_partisan(b, "so-part-1", H("0714"))
    assert shallow is not None and shallow.case == "12.7" and "4 hexes" in shallow.why
    assert P.check_partisan(b, "so-part-1", H("0814")) is None
    outside = P.check_partisan(b, "so-part-1", H("0317"))
    assert outside is not None and "not in the USSR" in outside.why


def test_12_7_one_north_of_the_bobruisk_row() -> None:
    b = board(real_map(), {})
    south = P.check_partisan(b, "so-part-1", H("0820"))
    assert south is not None and "Bobruisk" in south.why
    assert P.check_partisan(b, "so-part-1", H("0820"), remaining=1) is None  # the other may go north
    assert P.check_partisan(b, "so-part-1", H("0810")) is None
    with_north = board(real_map(), {"so-part-2": "0810"})
    assert P.check_partisan(with_north, "so-part-1", H("0820")) is None


def test_12_7_one_per_hex_and_never_moved() -> None:
    b = board(real_map(), {"so-part-2": "0810"})
    assert P.check_partisan(b, "so-part-1", H("0810"), remaining=1).case == "12.7"  # type: ignore[union-attr]
    assert P.check_partisan(b, "so-part-2", H("0814")).case == "12.7"  # type: ignore[union-attr]


def test_12_7_withdrawn_in_an_axis_zone() -> None:
    b = board(real_map(), {"so-part-1": "0814", "so-part-2": "0810", "ge-ak-23": "0815"})
    assert P.to_withdraw(b) == ["so-part-1"]
    # nor placed where it would go at once
    clear = board(real_map(), {"ge-ak-23": "0815"})
    assert P.check_partisan(clear, "so-part-1", H("0814"), remaining=1).case == "12.7"  # type: ignore[union-attr]
    # an Axis unit too weak for a zone still removes partisans in its own hex
    b = board(real_map(), {"so-part-1": "0814", "ge-bef-101": "0814"})
    assert P.to_withdraw(b) == ["so-part-1"]


def test_12_7_rail_hex_with_partisans_costs_4() -> None:
    b = board(real_map(), {"so-part-1": "0814"})
    assert P.rail_hex_cost(b, H("0814")) == 4
    assert P.rail_hex_cost(b, H("0815")) == 1


def test_12_7_partisans_rise_in_an_ungarrisoned_russian_major_city() -> None:
    b = board(real_map(), {})
    control = {KIEV: "axis", H("0321"): "axis"}  # Kiev and Lvov
    assert P.city_sites(b, control) == frozenset({KIEV})  # Lvov is no Russian major city
    assert P.check_city_partisan(b, "so-part-1", KIEV, control) is None
    held = board(real_map(), {"ge-ak-23": "1121"})
    assert P.check_city_partisan(held, "so-part-1", KIEV, control).case == "12.7"  # type: ignore[union-attr]


def test_12_11_militia_the_first_time_an_axis_unit_comes_next_to_the_city() -> None:
    b = board(real_map(), {"ge-ak-23": "1120"})
    control = {KIEV: "soviet"}
    opol = {"so-opol-1", "so-opol-2"}
    assert P.militia_sites(b, control, (), ()) == frozenset({KIEV})
    assert P.check_militia(b, "so-opol-1", KIEV, control, (), (), opol) is None
    again = P.check_militia(b, "so-opol-1", KIEV, control, {KIEV}, (), opol)
    assert again is not None and again.case == "12.11"  # approached before: not the first time
    used = P.check_militia(b, "so-opol-2", KIEV, control, (), {KIEV}, opol)
    assert used is not None and "raised its militia" in used.why
    gone = P.check_militia(b, "so-opol-1", KIEV, control, (), (), {"so-opol-2"})
    assert gone is not None and "not available" in gone.why
    far = board(real_map(), {"ge-ak-23": "1119"})
    assert P.militia_sites(far, control, (), ()) == frozenset()
