"""Plain mode finds rail moves (issue 35): `reach HEX rail` lists where a stack can ride and how
far, `rail FROM TO` finds the route itself, and `map around HEX` shows hex numbers."""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev import rail
from kiev_tui.plain.session import PlainSession


@pytest.fixture()
def campaign() -> Game:
    return Game.new("spi_kiev/campaign", seed=1941)


def test_reach_rail_lists_the_rail_destinations_with_their_distance(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    out = s.handle("reach 0319 rail")
    assert out[:2] == ["By rail from 0319, 1 airborne XXX, 4 nkvd XX can reach 61 hex(es) (rail hexes;",
                       "  at most 25, 0/8 units used this turn):"]
    assert out[2] == "  0419 1  0519 2  0520 3  0618 3  0619 4  0718 4  0720 5  0817 5  0820 6  0917 6"
    assert out[-1] == "('rail 0319 HEX' takes the shortest route there)"
    listed = dict(pair.split(" ") for line in out[2:-1] for pair in line.strip().split("  "))
    view = campaign.rules.position(campaign)
    units = tuple(campaign.state.occupancy()["0319"])
    assert listed == {str(h): str(len(p)) for h, p in rail.destinations(view, units).items()}
    assert listed["2524"] == "25"  # the far end of a 25-hex ride (19.3)


def test_reach_rail_says_which_rule_bars_the_ride(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    assert s.handle("reach 0218 rail") == [
        "226 rifle XX cannot move by rail from 0218: [5.31] 0218 is not a friendly rail",
        "  hex (it must have a railroad and be free of German units and zones) (rules",
        "  5.31)"]
    assert s.handle("reach 0319 0420 rail") == ["usage: reach HEX rail  (where the stack can go by rail, in rail hexes)"]
    assert s.handle("reach 0319 to") == ["usage: reach HEX  or  reach HEX to HEX  or  reach HEX rail"]
    assert s.handle("reach 0319")[0].startswith("From 0319, 1 airborne XXX, 4 nkvd XX can reach 34 hex(es)")


def test_rail_from_to_rides_the_shortest_route(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    out = s.handle("rail 0319:2 1521")
    assert out[0].startswith("4 nkvd XX go by rail from 0319 to 1521 via 0419 > 0519 > ")
    assert campaign.log[-1].to_toml() == {
        "kind": "rail", "units": ["so-nkvd-4"],
        "path": ["0419", "0519", "0520", "0619", "0720", "0820", "0921", "1020", "1121", "1220", "1321",
                 "1421", "1521"]}
    assert campaign.state.units["so-nkvd-4"].hex == "1521"


def test_rail_from_to_refuses_a_hex_no_rail_route_reaches(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    assert s.handle("rail 0319:2 1324") == [
        "Refused [5.31] no friendly rail route runs from 0319 to 1324 within 25 rail",
        "  hexes (see 'reach 0319 rail') (rules 5.31)"]
    assert s.handle("rail 0218 0219") == [
        "Refused [5.31] 0218 is not a friendly rail hex (it must have a railroad and be",
        "  free of German units and zones) (rules 5.31)"]
    assert campaign.log == []


def test_rail_along_typed_hexes_still_works(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    assert s.handle("rail 0319:2 0419 0519") == ["4 nkvd XX go by rail from 0319 to 0519 via 0419 (2 rail hexes)"]
    assert campaign.state.units["so-nkvd-4"].hex == "0519"


def test_map_around_labels_columns_and_rows(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    out = s.handle("map around 0319 1")
    assert out == [
        "Map around 0319 (1 hexes each way; columns on top, rows at the left):",
        "     02   03   04",
        " 17/^^^^======0417\\",
        "   \\____/0318=____/",
        " 18+S1  \\KIEV=0418\\",  # 0218 holds one Soviet unit; Kiev (0319) sits half a hex lower
        "   .____+S2  =____.",
        " 19/S2  +_.._=0419+",
        "   \\_++_/0320=____.",
        " 20/S1  .____=S1  \\",
        "   +_.._/^^^^=====/",
        "(G2: a German stack of 2 units; S2: a Soviet stack of 2 units; an empty hex",
        "  shows its number)",
    ]


def test_tab_offers_rail_after_a_hex(campaign: Game) -> None:
    s = PlainSession(campaign, 80)
    assert s.completions("reach 0319 r") == ["rail"]
    assert s.completions("r 0319 ") == ["rail", "to"]
