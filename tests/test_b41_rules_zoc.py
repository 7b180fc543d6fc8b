"""Barbarossa 1941, zones of control (4, with 12.8 and 12.10): who has one and where it reaches.

On the made-up map 0404 (an even column, standing high) has the neighbours 0403, 0503, 0504,
0405, 0304 and 0303.
"""

from __future__ import annotations

import dataclasses

from kiev_tui.games.barbarossa1941 import zoc
from kiev_tui.games.barbarossa1941.board import Board
from tests.b41_rules_helpers import CLEAR, COLD, MUD, H, board, catalog, ids, real_map, small_map, tables

RING = {"0403", "0503", "0504", "0405", "0304", "0303"}


def test_4_a_single_step_has_no_zone() -> None:
    b = board(small_map(), {"ge-bef-101": "0404"})
    assert zoc.has_zone(b, H("0404")) is False
    assert zoc.zone_map(b, "axis") == {}


def test_4_two_steps_cover_the_six_neighbours() -> None:
    b = board(small_map(), {"ge-ak-23": "0404"})
    assert ids(b.gmap, zoc.zone_map(b, "axis")) == RING
    # two one-step units make a zone together
    b = board(small_map(), {"ge-bef-101": "0404", "ro-kav": "0404"})
    assert ids(b.gmap, zoc.zone_map(b, "axis")) == RING


def test_4_a_reduced_two_step_unit_alone_has_no_zone() -> None:
    b = board(small_map(), {"ge-ak-23": "0404"}, lost={"ge-ak-23": 1})
    assert zoc.zone_map(b, "axis") == {}


def test_4_no_zone_into_a_major_city() -> None:
    gmap = small_map(settlement={"0403": "major_city", "0503": "minor_city"})
    b = board(gmap, {"ge-ak-23": "0404"})
    assert ids(gmap, zoc.zone_map(b, "axis")) == RING - {"0403"}


def test_4_12_10_no_zone_across_a_lake_hexside_unless_frozen() -> None:
    gmap = small_map(sides={"lake": ["0404/0405"], "strait": ["0404/0304"]})
    assert ids(gmap, zoc.zone_map(board(gmap, {"ge-ak-23": "0404"}, turn=CLEAR), "axis")) == RING - {"0405", "0304"}
    # 12.10: in extreme cold the lake and strait hexsides are ignored
    assert ids(gmap, zoc.zone_map(board(gmap, {"ge-ak-23": "0404"}, turn=COLD), "axis")) == RING


def test_12_10_no_zone_into_sea_or_a_lake_hex() -> None:
    gmap = small_map(terrain={"0503": "lake", "0504": "sea"})
    for turn in (CLEAR, COLD):
        assert ids(gmap, zoc.zone_map(board(gmap, {"ge-ak-23": "0404"}, turn=turn), "axis")) == RING - {"0503", "0504"}


def test_4_a_zone_reaches_only_where_the_whole_mp_would_take_the_unit() -> None:
    gmap = small_map(terrain={"0403": "mountain", "0405": "swamp"})
    # clear: a panzer corps (5 MP) reaches mountain (3) and swamp (2)
    assert ids(gmap, zoc.zone_map(board(gmap, {"ge-pzk-56": "0404"}, turn=CLEAR), "axis")) == RING
    # mud: every unit has 2 MP (12.3); mountain costs a motorized unit 3, so no zone goes there
    mud = board(gmap, {"ge-pzk-56": "0404"}, turn=MUD)
    assert ids(gmap, zoc.zone_map(mud, "axis")) == RING - {"0403"}
    # an infantry corps pays 2 for mountain and keeps its zone there
    assert ids(gmap, zoc.zone_map(board(gmap, {"ge-ak-23": "0404"}, turn=MUD), "axis")) == RING
    # in a mixed stack the zone goes where any of its units reaches; the infantry makes it alone
    both = board(gmap, {"ge-pzk-56": "0404", "ge-ak-23": "0404"}, turn=MUD)
    zone = zoc.stack_zone(both, H("0404"))
    assert zone[H("0403")] == ("ge-ak-23",)
    assert zone[H("0405")] == ("ge-ak-23", "ge-pzk-56")


def test_4_static_units_reach_nothing() -> None:
    # 12.11: militia never move, so two militia make no zone although they hold two steps
    b = board(small_map(), {"so-opol-1": "0404", "so-opol-2": "0404"})
    assert zoc.stack_points(b, H("0404")) == 2
    assert zoc.zone_map(b, "soviet") == {}
    # with a one-step unit that moves, the stack's two points give it a zone
    b = board(small_map(), {"so-opol-1": "0404", "so-cav-2": "0404"}, lost={"so-cav-2": 1})
    assert ids(b.gmap, zoc.zone_map(b, "soviet")) == RING


def test_12_8_soviet_zones_stop_at_the_border_on_turn_1() -> None:
    every = [f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 8)]
    gmap = small_map(areas={"ussr": [h for h in every if not h.startswith("03")]})
    assert ids(gmap, zoc.zone_map(board(gmap, {"so-a-7": "0404"}, turn=1), "soviet")) == RING - {"0303", "0304"}
    assert ids(gmap, zoc.zone_map(board(gmap, {"so-a-7": "0404"}, turn=CLEAR), "soviet")) == RING
    # Axis zones are not limited
    assert ids(gmap, zoc.zone_map(board(gmap, {"ge-ak-23": "0404"}, turn=1), "axis")) == RING


def test_4_opposing_zones_work_both_ways() -> None:
    b = board(small_map(), {"ge-ak-23": "0404", "so-a-7": "0405"})
    assert zoc.in_enemy_zoc(b, H("0405"), "soviet") is True
    assert zoc.in_enemy_zoc(b, H("0404"), "axis") is True
    assert zoc.projecting(b, H("0405"), "soviet") == frozenset({"ge-ak-23"})


def test_4_a_friendly_unit_cancels_a_zone_for_supply_rail_and_retreat_only() -> None:
    b = board(small_map(), {"ge-ak-23": "0404", "so-a-7": "0405", "so-fort-1": "0304"})
    for purpose, expected in (("movement", True), ("supply", False), ("rail", False), ("retreat", False)):
        assert zoc.blocks(b, H("0405"), "soviet", purpose) is expected, purpose
    # an empty hex of the zone blocks everything; a fort is no unit that cancels it (ruling)
    for purpose in ("movement", "supply", "rail", "retreat"):
        assert zoc.blocks(b, H("0304"), "soviet", purpose) is True, purpose
        assert zoc.blocks(b, H("0606"), "soviet", purpose) is False, purpose
    # 6.1: retreating into an uncancelled zone costs a step more
    assert zoc.retreat_loss(b, H("0304"), "soviet") == 1
    assert zoc.retreat_loss(b, H("0405"), "soviet") == 0
    assert zoc.retreat_loss(b, H("0606"), "soviet") == 0


def test_4_real_map_the_8th_army_by_ladoga() -> None:
    # 17.2 sets the 8th Army at 1405: Leningrad (1304, a major city) and the Ladoga lake hexes
    # 1404 and 1504 take no zone, even in extreme cold; 1305, 1406 and Volkhov (1505) do
    m = real_map()
    for turn in (CLEAR, COLD):
        b = board(m, {"so-a-7": "1405"}, turn=turn)
        assert ids(m, zoc.zone_map(b, "soviet")) == {"1305", "1406", "1505"}
    # between Leningrad and Ladoga at 1303: neither the city nor the lake hexes 1403 and 1404
    b = board(m, {"so-a-7": "1303"}, turn=CLEAR)
    assert ids(m, zoc.zone_map(b, "soviet")) == {"1302", "1204", "1203"}


def test_9_2_surrounded_by_uncancelled_enemy_zones() -> None:
    # corps at 0204 (covering 0303, 0304), 0502 (0403, 0503) and 0505 (0504, 0405) ring 0404
    gmap = small_map()
    ring = {"ge-ak-23": "0204", "ge-ak-38": "0502", "ge-ak-28": "0505"}
    b = board(gmap, {"so-a-7": "0404", **ring})
    assert RING <= ids(gmap, zoc.zone_map(b, "axis"))
    assert zoc.surrounded(b, H("0404"), "soviet") is True
    # a Soviet unit in a neighbouring hex cancels the zone there and opens the ring
    b = board(gmap, {"so-a-7": "0404", "so-a-11": "0503", **ring})
    assert zoc.surrounded(b, H("0404"), "soviet") is False
    # one corps fewer leaves 0504 and 0405 free
    b = board(gmap, {"so-a-7": "0404", "ge-ak-23": "0204", "ge-ak-38": "0502"})
    assert zoc.surrounded(b, H("0404"), "soviet") is False
    # water is no way out: with sea on 0504 and 0405 the two corps close the ring
    sea = small_map(terrain={"0405": "sea", "0504": "sea"})
    b = board(sea, {"so-a-7": "0404", "ge-ak-23": "0204", "ge-ak-38": "0502"})
    assert zoc.surrounded(b, H("0404"), "soviet") is True
    # enemy units in a neighbouring hex close it as well
    b = board(gmap, {"so-a-7": "0404", "ge-ak-23": "0204", "ge-ak-38": "0502", "ge-bef-101": "0504",
                     "ge-bef-102": "0405"})
    assert zoc.surrounded(b, H("0404"), "soviet") is True


def test_4_the_chart_decides_where_zones_may_go() -> None:
    # the major city's zoc_into = false in tables.toml is what keeps zones out; flipped, they go in
    tabs = tables()
    towns = dict(tabs.tec.settlement)
    towns["major_city"] = dataclasses.replace(towns["major_city"], zoc_into=True)
    edited = dataclasses.replace(tabs, tec=dataclasses.replace(tabs.tec, settlement=towns))
    gmap = small_map(settlement={"0403": "major_city"})
    b = Board(gmap, edited, catalog().units, {"ge-ak-23": H("0404")}, turn=CLEAR)
    assert ids(gmap, zoc.zone_map(b, "axis")) == RING
