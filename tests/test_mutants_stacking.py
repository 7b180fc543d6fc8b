"""Stacking (7.0, 11.22) cases that mutation testing found unpinned.

The limits: at most three friendly combat units in a hex at the end of a movement phase and
throughout combat, plus one HQ (a German leader counts as one, 21.0); the owner picks which
excess units go.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View
from kiev_tui.games.spi_kiev.stacking import may_remove, over_limit

from tests.conftest import position


def test_7_0_a_hex_of_the_other_side_does_not_hide_an_overstack_beyond_it(mini: Game) -> None:
    # German hexes come first in the board's listing; the Soviet overstack must still be found.
    position(mini, {"ge-inf-1": "0203", "ge-inf-2": "0206",
                    "so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-rifle-4": "0904"}, turn=2, reinforcements=False)
    view = View(mini)
    assert list(view.occupancy)[0] == H("0203")
    assert over_limit(view, SOVIET) == {H("0904"): "4 combat units (limit 3)"}
    assert over_limit(view, GERMAN) == {}


def test_7_0_11_22_both_limits_broken_in_one_hex_are_both_named(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-rifle-4": "0904", "so-hq-army": "0904", "so-hq-agsw": "0904"},
             turn=2, reinforcements=False)
    assert over_limit(View(mini), SOVIET) == {
        H("0904"): "4 combat units (limit 3) and 2 HQs/leaders (limit 1)"}


def test_7_0_a_unit_off_the_map_is_never_excess(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0904"}, turn=2, reinforcements=False)
    assert mini.state.units["so-rifle-2"].status != "map"
    assert may_remove(View(mini), "so-rifle-2") is False


def test_11_22_only_the_hq_may_go_when_only_the_hq_limit_is_broken(mini: Game) -> None:
    # Three combat units and two HQs: the combat units are within their limit, so the owner
    # removes an HQ, not a combat unit.
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-hq-army": "0904", "so-hq-agsw": "0904"}, turn=2, reinforcements=False)
    view = View(mini)
    assert may_remove(view, "so-hq-agsw") is True
    assert may_remove(view, "so-hq-army") is True
    assert may_remove(view, "so-rifle-1") is False


def test_7_0_only_a_combat_unit_may_go_when_only_the_combat_limit_is_broken(mini: Game) -> None:
    # Four combat units and one HQ: the HQ is within its own limit and cannot be the excess.
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                    "so-rifle-4": "0904", "so-hq-army": "0904"}, turn=2, reinforcements=False)
    view = View(mini)
    assert may_remove(view, "so-hq-army") is False
    assert may_remove(view, "so-rifle-4") is True

