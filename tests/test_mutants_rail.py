"""Rail movement (5.3, 19.3) cases that mutation testing found unpinned.

Fixture map: a railroad along hexrow 07, from the west edge (0107) to the east edge (1007),
with a bridge over the major river at 0507/0607.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.rail import destinations

from tests.conftest import position


def test_19_3_rail_destinations_reach_exactly_the_rail_hex_limit(mini: Game) -> None:
    # With a limit of 3 rail hexes, the train from 1007 reaches 0907, 0807 and 0707 and no
    # farther; each along the railroad itself (5.31).
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    mini.scenario.params["rail_hexes"] = 3
    try:
        dest = destinations(View(mini), ("so-rifle-1",))
    finally:
        mini.scenario.params["rail_hexes"] = 25
    assert dest == {H("0907"): ("0907",), H("0807"): ("0907", "0807"),
                    H("0707"): ("0907", "0807", "0707")}


def test_19_3_rail_destinations_run_the_whole_line_within_25_hexes(mini: Game) -> None:
    # The fixture line is ten hexes long: with the book's 25-hex limit every other rail hex
    # of the line is a destination, each by the straight path along the line.
    position(mini, {"so-rifle-1": "1007"}, turn=2, reinforcements=False)
    dest = destinations(View(mini), ("so-rifle-1",))
    cols = ["09", "08", "07", "06", "05", "04", "03", "02", "01"]
    expected = {H(f"{c}07"): tuple(f"{x}07" for x in cols[:i + 1]) for i, c in enumerate(cols)}
    assert dest == expected


def test_5_31_no_rail_destinations_from_a_hex_without_a_railroad(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1006"}, turn=2, reinforcements=False)
    assert destinations(View(mini), ("so-rifle-1",)) == {}


def test_5_33_no_rail_destinations_from_a_rail_hex_in_a_german_zone(mini: Game) -> None:
    # 0807 lies in the zone of the German unit at 0806: the train cannot start there (19.3).
    position(mini, {"so-rifle-1": "0807", "ge-inf-1": "0806"}, turn=2, reinforcements=False)
    assert destinations(View(mini), ("so-rifle-1",)) == {}

