"""Barbarossa 1941, building field fortifications (12.4, 13's 8 VP event).

Small made-up map: 0303 is a city, 0306 and 0106 are not next to one.
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941 import forts as F
from tests.b41_rules_helpers import H, board, small_map

CITY = {"0303": "minor_city"}
ALL = frozenset(small_map().hexes())


def test_12_4_forts_a_turn() -> None:
    b = board(small_map(settlement=CITY), {})
    assert [F.per_turn(b, "soviet", t, False) for t in (1, 2, 5)] == [0, 2, 2]
    assert F.per_turn(b, "soviet", 5, True) == 3  # 13: 8 VP
    assert [F.per_turn(b, "axis", t, False) for t in (3, 4)] == [0, 1]
    bad = F.check_build(b, "soviet", H("0303"), 3, 2, ALL)
    assert bad is not None and bad.case == "12.4"
    assert F.check_build(b, "soviet", H("0303"), 3, 2, ALL, mobilized=True) is None
    early = F.check_build(b, "axis", H("0303"), 3, 0, ALL)
    assert early is not None and "turn 4" in early.why


def test_12_4_on_or_next_to_a_city_in_supply() -> None:
    b = board(small_map(settlement=CITY), {})
    assert F.check_build(b, "soviet", H("0304"), 2, 0, ALL) is None
    far = F.check_build(b, "soviet", H("0306"), 2, 0, ALL)
    assert far is not None and "city" in far.why
    cut = F.check_build(b, "soviet", H("0304"), 2, 0, ALL - {H("0304")})
    assert cut is not None and "supply" in cut.why


def test_12_4_not_in_an_enemy_zone_unless_a_friend_is_there() -> None:
    b = board(small_map(settlement=CITY), {"ge-ak-23": "0305"})
    zoned = F.check_build(b, "soviet", H("0304"), 2, 0, ALL)
    assert zoned is not None and "zone" in zoned.why
    b = board(small_map(settlement=CITY), {"ge-ak-23": "0305", "so-a-11": "0304"})
    assert F.check_build(b, "soviet", H("0304"), 2, 0, ALL) is None


def test_12_4_at_most_3_german_forts_and_one_a_hex() -> None:
    gmap = small_map(settlement={"0303": "minor_city", "0603": "minor_city"})
    b = board(gmap, {"ge-fort-1": "0302", "ge-fort-2": "0303", "ge-fort-3": "0304"}, turn=5)
    capped = F.check_build(b, "axis", H("0603"), 5, 0, ALL)
    assert capped is not None and "3 intact" in capped.why
    b = board(gmap, {"ge-fort-1": "0303"}, turn=5)
    assert F.check_build(b, "axis", H("0303"), 5, 0, ALL).case == "12.4"  # type: ignore[union-attr]
    assert F.spare_counters(b, "axis") == ["ge-fort-2", "ge-fort-3"]


def test_12_4_soviet_moves_one_fort_a_turn_for_free() -> None:
    b = board(small_map(settlement=CITY), {"so-fort-1": "0302"})
    assert F.check_build(b, "soviet", H("0304"), 3, 2, ALL, moving="so-fort-1") is None
    twice = F.check_build(b, "soviet", H("0304"), 3, 2, ALL, moving="so-fort-1", moved=1)
    assert twice is not None and twice.case == "12.4"
    axis = board(small_map(settlement=CITY), {"ge-fort-1": "0302"}, turn=5)
    assert F.check_build(axis, "axis", H("0304"), 5, 0, ALL, moving="ge-fort-1").case == "12.4"  # type: ignore[union-attr]


def test_12_4_sites_for_the_prompt() -> None:
    b = board(small_map(settlement=CITY), {"ge-ak-23": "0305"})
    got = {b.gmap.grid.id(h) for h in F.sites(b, "soviet", ALL)}
    assert got == {"0303", "0302", "0203", "0204", "0403", "0404"} - {"0304"}
