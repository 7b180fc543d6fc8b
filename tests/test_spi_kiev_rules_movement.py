"""SPI Kiev: movement, command, directive and data rules found wrong in the case-by-case audit.

Positions are built by hand on the 10x10 fixture map (see tests/test_spi_kiev_movement.py for
its layout: a major river between hexrows 05 and 06, a road along row 05 with the bridge
0505/0605) or, where the rule names real hexes, on the campaign map.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import View

from tests.conftest import ROOT, position

CAMPAIGN = ROOT / "data" / "spi_kiev" / "scenarios" / "campaign.toml"


def case(game: Game, action: object) -> str | None:
    illegal = game.check(action)  # type: ignore[arg-type]
    return None if illegal is None else illegal.case


@pytest.fixture(scope="module")
def campaign_map_game() -> Game:
    """The campaign at its set-up, shared read-only by the tests that only look."""
    return Game.new(CAMPAIGN, seed=1)


# -- 10.13: only units on the river's bank bar a crossing ---------------------------------

def test_10_13_a_zone_from_a_unit_off_the_river_does_not_bar_the_crossing(mini: Game) -> None:
    # 0704 touches 0604 but has no major-river hexside: its zone does not stop the crossing.
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0704"}, player="german")
    assert View(mini).in_enemy_zoc(H("0604"), "german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) is None
    reach = mini.reachable(["ge-inf-1"])[H("0604")]
    assert (reach.cost, reach.case) == (4.0, "")


def test_10_13_a_unit_on_the_bank_bars_the_crossing_into_its_zone(mini: Game) -> None:
    # 0605 lies on the river (hexsides 0505/0605, 0506/0605) and its zone covers 0604.
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) == "10.13"
    # The engine's map offers 0604 only by the way round: across into 0603, then north.
    reach = mini.reachable(["ge-inf-1"])[H("0604")]
    assert (reach.cost, tuple(map(str, reach.path))) == (5.0, ("0603", "0604"))


def test_10_13_an_hq_on_the_bank_bars_the_crossing_too(mini: Game) -> None:
    # HQ zones stop enemy movement (19.67), so an HQ on the bank guards it like any unit.
    position(mini, {"ge-inf-1": "0504", "so-hq-army": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) == "10.13"


def test_10_13_a_friendly_unit_in_the_hex_lifts_the_bar(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0504", "ge-inf-2": "0604", "so-rifle-1": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) is None


# -- 10.22: a city costs one MP whatever else is in the hex -------------------------------

def test_10_22_woods_cities_cost_mechanized_units_one_mp(campaign_map_game: Game) -> None:
    from kiev_tui.games.spi_kiev.terrain import step_cost

    g = campaign_map_game
    gm, tb, cat = g.scenario.map, g.scenario.tables, g.scenario.catalog.units
    assert (gm.terrain(H("0602")), gm.settlement(H("0602"))) == ("woods", "city")  # Lyubech
    assert (gm.terrain(H("1329")), gm.settlement(H("1329"))) == ("woods", "city")  # Kanev
    # No road, no river on these hexsides: only the hex itself is paid for.
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("0702"), H("0602")) == 1.0
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("1330"), H("1329")) == 1.0
    assert step_cost(gm, tb, cat["ge-id-57"], H("1330"), H("1329")) == 1.0
    # The woods next door still cost a mechanized unit 2 (10.4), and hexsides add on (10.31):
    # a Soviet tank division over the Dnieper into Kanev pays 1 + 2.
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("0602"), H("0502")) == 2.0
    assert step_cost(gm, tb, cat["so-td-10"], H("1428"), H("1329")) == 3.0
