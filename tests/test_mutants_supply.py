"""Supply sources and the supply graph (10.15, 10.16, 12.11, 19.82, 19.84) that mutation
testing found unpinned.

Fixture map: road exits 0105 (west edge, area A) and 1005 (east edge, area K), rail exit
1007 (east, area K); a major river between hexrows 05 and 06 bridged by the road at
0505/0605 and the railroad at 0507/0607; the city Testgrad 0505 on the west bank; a lake at
0909; swamps at 0707 and 0608.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View
from kiev_tui.games.spi_kiev.supply import supply_links, supply_sources, swamp_hexes

from tests.conftest import position


def sources(game: Game, placements: dict[str, str], side: str) -> list[str]:
    position(game, placements, turn=2, reinforcements=False)
    return [str(h) for h in supply_sources(View(game), side)]


def test_19_82_german_sources_are_road_exits_on_the_north_west_and_south_edges(mini: Game) -> None:
    # 1005 is a road exit too, but on the east edge.
    assert sources(mini, {"so-rifle-1": "0905"}, GERMAN) == ["0105"]


def test_19_82_a_soviet_occupied_exit_feeds_no_german(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "0105"}, GERMAN) == []


def test_19_82_an_exit_in_area_n_feeds_no_german(mini: Game) -> None:
    from kiev_tui.engine.mapdata import Area
    mini.scenario.map.areas["N"] = Area("N", SOVIET, frozenset({H("0105")}))
    assert sources(mini, {"so-rifle-1": "0905"}, GERMAN) == []


def test_19_84_soviet_sources_are_east_road_and_rail_exits_of_areas_k_to_n(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "0905"}, SOVIET) == ["1005", "1007"]


def test_19_84_a_german_held_or_controlled_exit_feeds_no_soviet(mini: Game) -> None:
    # ge-inf-1 stands on 1005; ge-inf-2's zone covers 1007.
    assert sources(mini, {"ge-inf-1": "1005", "ge-inf-2": "0907", "so-rifle-1": "0105"}, SOVIET) == []


def test_8_25_19_84_a_soviet_unit_on_the_exit_keeps_it_open_in_a_german_zone(mini: Game) -> None:
    assert sources(mini, {"so-rifle-1": "1007", "ge-inf-2": "0907"}, SOVIET) == ["1005", "1007"]


def test_19_84_without_areas_k_to_n_the_soviets_have_no_source(mini: Game) -> None:
    del mini.scenario.map.areas["K"]
    assert sources(mini, {"so-rifle-1": "0905"}, SOVIET) == []


def test_10_15_10_16_the_supply_graph(mini: Game) -> None:
    links = {str(h): {str(n): c for n, c in lst} for h, lst in supply_links(mini.scenario.map).items()}
    # A friendly city on the bank may open an unbridged crossing (10.15): 0505 to 0604.
    assert links["0505"] == {"0504": None, "0604": ("0505", ""), "0605": None, "0506": None,
                             "0405": None, "0404": None}
    assert links["0604"]["0505"] == ("", "0505")
    # No city, no bridge: no link over the major river at 0504/0604.
    assert "0604" not in links["0504"] and "0603" not in links["0504"]
    # The railroad bridge 0507/0607 carries supply.
    assert links["0507"]["0607"] is None
    # Never into or out of a lake (10.16).
    assert links["0909"] == {} and "0909" not in links["0908"]


def test_12_11_the_swamps_are_known_to_the_supply_graph(mini: Game) -> None:
    assert swamp_hexes(mini.scenario.map) == frozenset({H("0707"), H("0608")})
