"""Stalin's Directive (22.0-22.2) cases that mutation testing found unpinned.

``directive.exempt`` says why a unit is free of the order, citing the case that frees it, or
None when the unit is bound.  Fixture map: hexrows 01-05 are west of the Stalin line.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.directive import exempt

from tests.conftest import position


def test_22_0_german_units_are_never_bound_by_the_directive(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0806"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "ge-inf-1", H("0806")) == "German"


def test_22_1_a_soviet_hq_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-hq-army": "0905"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-hq-army", H("0905")) == "an HQ (22.1)"


def test_22_1_a_unit_west_of_the_line_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0405"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-rifle-1", H("0405")) == "west of the Seim-Desna-Dnieper line (22.1)"


def test_22_2_a_relieved_unit_is_free_of_the_directive(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0805"}, turn=7, reinforcements=False)
    mini.state.vars["relieved"] = ["so-rifle-1"]
    assert exempt(View(mini), "so-rifle-1", H("0805")) == "relieved (22.2)"


def test_22_1_a_soviet_combat_unit_east_of_the_line_is_bound(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0805"}, turn=7, reinforcements=False)
    assert exempt(View(mini), "so-rifle-1", H("0805")) is None
