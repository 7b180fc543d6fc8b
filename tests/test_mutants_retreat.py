"""Retreat after combat (9.7, 19.52, 19.7): every path offered, every refusal, every end position.

Battles are fought on the 10 x 10 fixture map with loaded dice; the Germans attack from the
west (columns 06-07) and the Soviets stand in columns 08-10.  The fixture's major river runs
between columns 05 and 06 and is bridged by a road only on 0505/0605.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import Attack, ChooseRetreat, Overrun, Retreat
from kiev_tui.games.spi_kiev.events import Retreated
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.retreat import retreat_options

from tests.conftest import position
from tests.spi_helpers import die_for, fight, lines, load_dice, pending, refusal, where

PZ = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")


# -- the paths offered ------------------------------------------------------------------------------

def test_9_73_9_71_a_three_hex_retreat_offers_every_path_that_moves_away(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"},
          PZ, "0804", "-/3")
    assert retreat_options(mini) == {}  # the loser first chooses between steps and a retreat
    mini.apply(ChooseRetreat())
    assert pending(mini) == {"kind": "retreat", "side": "german", "who": "defender", "units": ["so-rifle-3"],
                             "hexes": 3,
                             "prompt": "german player: choose the retreat of so-rifle-3, 3 hex(es) each (19.7)."}
    # 0803 and 0703 lie in the zone of the panzers at 0704; every hex is one farther from 0804.
    assert retreat_options(mini) == {"so-rifle-3": [
        ("0904", "0903", "0902"), ("0904", "0903", "1002"), ("0904", "1003", "1002"),
        ("0905", "1005", "1006"), ("0905", "0906", "1006"), ("0905", "0906", "0907"),
        ("0805", "0906", "1006"), ("0805", "0906", "0907"), ("0805", "0806", "0907"),
        ("0805", "0806", "0807"), ("0805", "0806", "0707"), ("0805", "0706", "0707"),
        ("0805", "0706", "0606")]}
    assert refusal(mini, Retreat(("so-rifle-3",), ((),))) == \
        "[19.7] so-rifle-3 has a safe retreat, so it may not be retreated to its destruction"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0904", "0903"),))) == \
        "[9.71] 0904 > 0903 is not a legal retreat for so-rifle-3"
    assert refusal(mini, Retreat(("so-rifle-3", "so-rifle-3"), (("0904", "0903", "0902"),) * 2)) == \
        "[9.7] give one path for each of so-rifle-3"
    assert refusal(mini, Retreat(("so-rifle-3",), (("0904", "0903", "0902"), ("0905", "1005", "1006")))) == \
        "[9.7] give one path for each of so-rifle-3"
    mini.state.control["0805"] = "german"  # as if the Germans had passed through Eastville
    n = len(mini.journal)
    mini.apply(Retreat(("so-rifle-3",), (("0805", "0806", "0807"),)))
    # Passing through the town takes it back (24.0); then the Germans may follow.
    assert lines(mini, n) == ["Eastville (0805) now belongs to the soviet player (24.0)",
                              "so-rifle-3 retreats 0805 > 0806 > 0807"]
    assert where(mini, "so-rifle-3") == ["0807"]
    assert list(mini.state.vars.retreated_into) == []  # 9.76: it ended in a vacant hex
    assert pending(mini)["kind"] == "advance"
    assert combat.advance_options(mini)["paths"] == [("0804",), ("0804", "0805"), ("0804", "0805", "0806")]


def test_8_25_9_71_a_friendly_unit_opens_an_enemy_controlled_hex_to_the_retreat(mini: Game) -> None:
    base = {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"}
    open_ways = [("0904", "0903"), ("0904", "1003"), ("0904", "1004"), ("0905", "1004"), ("0905", "1005"),
                 ("0905", "0906"), ("0805", "0906"), ("0805", "0806"), ("0805", "0706")]
    fight(mini, base, PZ, "0804", "-/2")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": open_ways}
    # A rifle division or an HQ at 0803 cancels the panzers' zone there for the retreat (8.25).
    for friend in ("so-rifle-1", "so-hq-army"):
        fight(mini, {**base, friend: "0803"}, PZ, "0804", "-/2")
        mini.apply(ChooseRetreat())
        assert retreat_options(mini) == {"so-rifle-3": [("0803", "0802"), ("0803", "0903")] + open_ways}


def test_9_71_9_74_into_friendly_hexes_only_when_no_vacant_one_is_left(mini: Game) -> None:
    # so-rifle-3 at the map edge 1004: ge-1pz-1 at 0904 controls 0905 and 1003 (8.25: a friend there
    # lifts its zone).
    base = {"ge-1pz-1": "0904", "so-rifle-3": "1004"}
    fight(mini, {**base, "so-rifle-1": "1003"}, ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1005",)]}  # vacant, so 1003 is not offered
    fight(mini, {**base, "so-rifle-1": "1003", "so-rifle-2": "1005", "so-rifle-4": "1005"}, ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1003",), ("1005",)]}  # 1005 holds two: room for one
    fight(mini, {**base, "so-rifle-1": "1003", "so-rifle-2": "1005", "so-rifle-4": "1005", "so-cav-1": "1005"},
          ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1003",)]}  # three combat units fill 1005 (7.0)
    n = len(mini.journal)
    mini.apply(Retreat(("so-rifle-3",), (("1003",),)))
    assert lines(mini, n)[0] == "so-rifle-3 retreats 1003"
    assert where(mini, "so-rifle-3") == ["1003"]
    assert list(mini.state.vars.retreated_into) == ["so-rifle-3"]  # 9.76: it joined a friendly stack


def test_11_22_9_74_an_hq_retreats_only_where_no_hq_stands(mini: Game) -> None:
    place = {"ge-1pz-1": "0904", "ge-1pz-2": "0904", "ge-1pz-3": "0904", "so-rifle-3": "1004",
             "so-hq-army": "1004", "so-rifle-1": "1003", "so-hq-agsw": "1003",
             "so-rifle-2": "1005", "so-rifle-4": "1005", "so-cav-1": "1005"}
    fight(mini, place, ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1003",)], "so-hq-army": [("1005",)]}
    assert mini.check(Retreat(("so-hq-army", "so-rifle-3"), (("1005",), ("1003",)))) is None
    mini.apply(Retreat(("so-rifle-3", "so-hq-army"), (("1003",), ("1005",))))
    assert where(mini, "so-rifle-3", "so-hq-army") == ["1003", "1005"]
    assert list(mini.state.vars.retreated_into) == ["so-rifle-3", "so-hq-army"]


# -- the owner's choice between ways that fit and ways that overstack (9.74, 9.75, 19.7) ---------

TWO_ROOMS = {"ge-1pz-1": "0904", "ge-1pz-2": "0904", "ge-1pz-3": "0904",
             "so-rifle-3": "1004", "so-tank-1": "1004", "so-hq-army": "1004",
             "so-rifle-1": "1003", "so-rifle-2": "1003", "so-hq-agsw": "1003",
             "so-rifle-4": "1005", "so-cav-1": "1005", "so-hq-late": "1005"}


def test_9_74_19_7_no_overstacking_retreat_while_one_that_fits_exists(mini: Game) -> None:
    # 1003 and 1005 each have room for one more combat unit and none for another HQ.
    fight(mini, TWO_ROOMS, ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    units = ("so-rifle-3", "so-tank-1", "so-hq-army")
    assert retreat_options(mini) == {"so-rifle-3": [("1003",), ("1005",)], "so-tank-1": [("1003",), ("1005",)],
                                     "so-hq-army": []}
    assert refusal(mini, Retreat(units, (("1003",), ("1005",)))) == \
        "[9.7] give one path for each of so-hq-army, so-rifle-3, so-tank-1"
    overstack = "[9.74] these retreats would overstack a hex while a way that fits exists (19.7)"
    for a, b in ((("1003",), ("1003",)), (("1005",), ("1005",))):
        assert refusal(mini, Retreat(units, (a, b, ()))) == overstack
        # The HQ with nowhere to go, named first, does not end the checks of the others.
        assert refusal(mini, Retreat(units[::-1], ((), b, a))) == overstack
    assert refusal(mini, Retreat(units[::-1], ((), ("0905",), ("1003",)))) == \
        "[9.71] 0905 is not a legal retreat for so-tank-1"
    n = len(mini.journal)
    mini.apply(Retreat(units[::-1], ((), ("1003",), ("1005",))))
    assert lines(mini, n)[:4] == ["so-hq-army has nowhere to retreat and is eliminated (9.71)",
                                  "so-hq-army is eliminated (no legal retreat, 9.71)",
                                  "so-tank-1 retreats 1003", "so-rifle-3 retreats 1005"]
    assert mini.journal[n] == Retreated("so-hq-army", ())  # the journal records the empty path
    assert where(mini, *units) == ["1005", "1003", None]
    assert list(mini.state.vars.retreated_into) == ["so-tank-1", "so-rifle-3"]


def test_9_74_the_excess_is_eliminated_when_no_way_fits(mini: Game) -> None:
    # 1003 has room for one combat unit; ge-inf-1 at 1006 controls 1005.
    fight(mini, {"ge-1pz-1": "0904", "ge-1pz-2": "0904", "ge-1pz-3": "0904", "ge-inf-1": "1006",
                 "so-rifle-3": "1004", "so-tank-1": "1004", "so-rifle-1": "1003", "so-rifle-2": "1003"},
          ("ge-1pz-1",), "1004", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1003",)], "so-tank-1": [("1003",)]}
    assert mini.check(Retreat(("so-tank-1", "so-rifle-3"), (("1003",), ("1003",)))) is None
    n = len(mini.journal)
    mini.apply(Retreat(("so-tank-1", "so-rifle-3"), (("1003",), ("1003",))))
    # The later-named unit is the one in excess.
    assert lines(mini, n)[:3] == ["so-tank-1 retreats 1003", "so-rifle-3 retreats 1003",
                                  "so-rifle-3 is eliminated (no room for it at the end of its retreat, 9.74)"]
    assert where(mini, "so-tank-1", "so-rifle-3") == ["1003", None]
    assert list(mini.state.vars.retreated_into) == ["so-tank-1"]


def test_9_76_a_retreat_into_friends_after_an_overrun_is_not_recorded(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0904", "ge-inf-1": "1006", "so-rifle-3": "1004", "so-rifle-1": "1003"},
             player="german", phase="movement", turn=2, reinforcements=False)
    # The overrun counts the panzers' 6 as 3, against so-rifle-3's 2 halved out of supply: 3-1.
    assert overrun_preview(mini, ("ge-1pz-1",), "1004").column == "3-1"
    load_dice(mini, [die_for(mini, "3-1", "-/1")])
    mini.apply(Overrun(("ge-1pz-1",), "1004"))
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1003",)]}
    mini.apply(Retreat(("so-rifle-3",), (("1003",),)))
    assert where(mini, "so-rifle-3") == ["1003"]
    assert list(mini.state.vars.retreated_into) == []  # overrun is not combat (9.76)


# -- major rivers (19.52, 9.78) -----------------------------------------------------------------------

def test_19_52_penned_against_a_major_river_the_unit_loses_steps_instead(mini: Game) -> None:
    # ge-1pz-1 (two steps) at 0604: 0603 and 0605 are in Soviet zones, 0504 and 0505 lie across
    # the unbridged river; a 3-hex result takes both its steps and nothing more.
    fight(mini, {"so-rifle-4": "0704", "so-tank-1": "0704", "so-rifle-1": "0705", "so-hq-army": "0804",
                 "ge-1pz-1": "0604"}, ("so-rifle-4", "so-tank-1", "so-rifle-1"), "0604", "-/3", player="soviet")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"ge-1pz-1": []}
    assert refusal(mini, Retreat(("ge-1pz-1",), (("0505",),))) == "[9.71] 0505 is not a legal retreat for ge-1pz-1"
    assert mini.check(Retreat(("ge-1pz-1",), ((),))) is None
    n = len(mini.journal)
    mini.apply(Retreat(("ge-1pz-1",), ((),)))
    assert lines(mini, n)[:3] == [
        "ge-1pz-1 cannot retreat across the major river and loses steps instead (19.52)",
        "ge-1pz-1 loses a step (now 3-1)",
        "ge-1pz-1 is eliminated (its last step was lost, 19.52)"]
    assert mini.state.units["ge-1pz-1"].status == "eliminated"


def test_19_52_one_step_lost_per_hex_of_the_result(mini: Game) -> None:
    fight(mini, {"so-rifle-4": "0704", "so-tank-1": "0704", "so-rifle-1": "0705", "so-hq-army": "0804",
                 "ge-inf-1": "0604", "ge-1pz-2": "0604"}, ("so-rifle-4", "so-tank-1", "so-rifle-1"), "0604", "-/1",
          player="soviet")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"ge-1pz-2": [], "ge-inf-1": []}
    n = len(mini.journal)
    mini.apply(Retreat(("ge-inf-1", "ge-1pz-2"), ((), ())))
    assert lines(mini, n)[:4] == [
        "ge-inf-1 cannot retreat across the major river and loses steps instead (19.52)",
        "ge-inf-1 loses a step (now 3-4)",
        "ge-1pz-2 cannot retreat across the major river and loses steps instead (19.52)",
        "ge-1pz-2 loses a step (now 0-1)"]
    assert [(mini.state.units[u].status, mini.state.units[u].step) for u in ("ge-inf-1", "ge-1pz-2")] == \
        [("map", 1), ("map", 1)]
    assert where(mini, "ge-inf-1", "ge-1pz-2") == ["0604", "0604"]
    assert mini.state.pending is None and mini.state.vars.battle is None  # 0604 is still held


def test_9_71_penned_by_enemy_zones_alone_the_unit_is_eliminated(mini: Game) -> None:
    # so-rifle-3 at 1004: 0904 attacks, ge-inf-1 at 1002 controls 1003, ge-inf-2 at 1006 controls 1005.
    fight(mini, {"ge-1pz-1": "0904", "ge-inf-1": "1002", "ge-inf-2": "1006", "so-rifle-3": "1004"},
          ("ge-1pz-1",), "1004", "-/2")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": []}
    n = len(mini.journal)
    mini.apply(Retreat(("so-rifle-3",), ((),)))
    assert lines(mini, n)[:2] == ["so-rifle-3 has nowhere to retreat and is eliminated (9.71)",
                                  "so-rifle-3 is eliminated (no legal retreat, 9.71)"]
    assert mini.state.units["so-rifle-3"].status == "eliminated"


def test_9_78_19_52_a_bridge_only_when_no_dry_way_is_open(mini: Game) -> None:
    # so-rifle-4 at 0605: 0506 is across the unbridged river, 0505 across the road bridge.
    place = {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "so-rifle-4": "0605"}
    fight(mini, place, PZ, "0605", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-4": [("0606",)]}  # 0604 is in the panzers' zone
    fight(mini, {**place, "ge-inf-1": "0706"}, PZ, "0605", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-4": [("0505",)]}
    n = len(mini.journal)
    mini.apply(Retreat(("so-rifle-4",), (("0505",),)))
    assert lines(mini, n)[0] == "so-rifle-4 retreats 0505"
    assert where(mini, "so-rifle-4") == ["0505"]


def test_19_52_9_73_a_two_hex_retreat_over_the_bridge(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "ge-inf-1": "0706",
                 "ge-inf-2": "0706", "so-rifle-4": "0605"}, PZ, "0605", "-/2")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-4": [("0505", "0504"), ("0505", "0405"), ("0505", "0404")]}


# -- the attacker's retreat after a split result (9.77) -------------------------------------------

def split(game: Game, extra: dict[str, str], result: str = "1/1") -> Game:
    """ge-1pz-1 and ge-inf-1 at 0704 beat so-rifle-4 at 0804 back to 0904, then must give ground."""
    fight(game, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-4": "0804", **extra},
          ("ge-1pz-1", "ge-inf-1"), "0804", result)
    game.apply(ChooseRetreat())
    assert retreat_options(game) == {"so-rifle-4": [("0904",), ("0905",), ("0805",)]}
    game.apply(Retreat(("so-rifle-4",), (("0904",),)))
    game.apply(ChooseRetreat())
    return game


def test_9_77_the_attacker_keeps_out_of_the_battles_hexes(mini: Game) -> None:
    split(mini, {})
    assert pending(mini) == {"kind": "retreat", "side": "soviet", "who": "attacker",
                             "units": ["ge-1pz-1", "ge-inf-1"], "hexes": 1,
                             "prompt": "soviet player: choose the retreat of ge-1pz-1, ge-inf-1, 1 hex(es) each (19.7)."}
    # 0705 is no longer in a Soviet zone, but it touched the defender's hex during the battle.
    assert retreat_options(mini) == {"ge-1pz-1": [("0703",), ("0604",), ("0603",)],
                                     "ge-inf-1": [("0703",), ("0604",), ("0603",)]}
    assert refusal(mini, Retreat(("ge-1pz-1", "ge-inf-1"), (("0705",), ("0703",)))) == \
        "[9.71] 0705 is not a legal retreat for ge-1pz-1"
    n = len(mini.journal)
    mini.apply(Retreat(("ge-inf-1", "ge-1pz-1"), (("0603",), ("0703",))))
    assert lines(mini, n)[:2] == ["ge-inf-1 retreats 0603", "ge-1pz-1 retreats 0703"]
    assert where(mini, "ge-1pz-1", "ge-inf-1", "so-rifle-4") == ["0703", "0603", "0904"]
    assert mini.state.pending is None and mini.state.vars.battle is None  # no advance for the Soviets (9.68)


def test_9_77_8_25_a_friendly_combat_unit_opens_a_battle_hex_an_hq_does_not(mini: Game) -> None:
    # A 2/- result: so-rifle-4 holds 0804, so 0705 is in its zone and part of the battle (9.77).
    att = ("ge-1pz-1", "ge-inf-1")
    west = [("0703", "0702"), ("0703", "0802"), ("0703", "0602")]
    south = [("0604", "0605"), ("0603", "0602")]  # 0503, 0504 and 0505 lie across the river
    for friend, through in (("ge-inf-2", [("0705", "0706"), ("0705", "0605")]), ("ge-leader", [])):
        fight(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0704", "so-rifle-4": "0804", friend: "0705"},
              att, "0804", "2/-")
        mini.apply(ChooseRetreat())
        assert pending(mini)["who"] == "attacker"
        assert retreat_options(mini) == {u: west + through + south for u in att}


def test_9_77_9_74_no_way_that_fits_through_the_battles_hexes(mini: Game) -> None:
    # so-rifle-1 at 0603 bars 0603 and 0604; 0703 holds two German divisions: room for one more.
    split(mini, {"so-rifle-1": "0603", "ge-inf-2": "0703", "ge-inf-3": "0703"})
    assert retreat_options(mini) == {"ge-1pz-1": [("0703",)], "ge-inf-1": [("0703",)]}
    # The empty 0705 would hold one of them, but it is closed to the attacker (9.77): both go to 0703.
    both = Retreat(("ge-1pz-1", "ge-inf-1"), (("0703",), ("0703",)))
    assert mini.check(both) is None
    n = len(mini.journal)
    mini.apply(both)
    assert lines(mini, n)[:3] == ["ge-1pz-1 retreats 0703", "ge-inf-1 retreats 0703",
                                  "ge-inf-1 is eliminated (no room for it at the end of its retreat, 9.74)"]
    assert where(mini, "ge-1pz-1", "ge-inf-1") == ["0703", None]
    assert list(mini.state.vars.retreated_into) == ["ge-1pz-1"]


# -- hexes and hexsides no retreat crosses (10.16, 19.52) ------------------------------------------

def test_10_16_no_retreat_into_a_lake(mini: Game) -> None:
    # so-rifle-3 at 0908 beside the lake 0909; ge-1pz-1 at 0807 controls 0808 and 0907.
    fight(mini, {"ge-1pz-1": "0807", "so-rifle-3": "0908"}, ("ge-1pz-1",), "0908", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("1007",), ("1008",)]}


def test_10_16_no_retreat_across_an_all_lake_hexside(mini: Game) -> None:
    gmap = mini.scenario.map
    before = gmap.side_features(H("1004"), H("1005"))
    gmap.set_side_features(H("1004"), H("1005"), frozenset({"lake"}))
    try:
        # The vacant 1005 is cut off, so so-rifle-3 joins so-rifle-1 at 1003 (9.74).
        fight(mini, {"ge-1pz-1": "0904", "so-rifle-3": "1004", "so-rifle-1": "1003"}, ("ge-1pz-1",), "1004", "-/1")
        mini.apply(ChooseRetreat())
        assert retreat_options(mini) == {"so-rifle-3": [("1003",)]}
    finally:
        gmap.set_side_features(H("1004"), H("1005"), before)


def test_19_52_a_railroad_bridges_the_major_river_too(mini: Game) -> None:
    # so-rifle-3 at 0607: ge-1pz-1 at 0707 and ge-inf-1 at 0708 control 0606, 0608 and 0706;
    # 0508 lies across the unbridged river, 0507 across the railroad bridge.
    fight(mini, {"ge-1pz-1": "0707", "ge-inf-1": "0708", "so-rifle-3": "0607"}, ("ge-1pz-1",), "0607", "-/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("0507",)]}


def test_9_7_no_retreat_answer_without_a_retreat_waiting(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0904", "so-rifle-3": "1004"}, ("ge-1pz-1",), "1004", "-/1")
    assert pending(mini)["kind"] == "loss_or_retreat"
    assert refusal(mini, Retreat(("so-rifle-3",), (("1003",),))) == "[9.7] no retreat is waiting"
    mini.state.pending = None
    assert refusal(mini, Retreat(("so-rifle-3",), (("1003",),))) == "[9.7] no retreat is waiting"
    assert retreat_options(mini) == {}


def test_11_22_9_74_two_hqs_with_one_way_out_lose_the_second(mini: Game) -> None:
    # One attack on 0804 and 0805 from 0705; ge-inf-1 at 0903 and ge-inf-2 at 0907 close every
    # other hex, so all four defenders can only fall back to 0905, where one HQ fits (11.22).
    place = {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "ge-inf-1": "0903", "ge-inf-2": "0907",
             "so-rifle-3": "0804", "so-hq-army": "0804", "so-rifle-2": "0805", "so-hq-agsw": "0805"}
    position(mini, place, player="german", phase="combat", turn=2, reinforcements=False)
    assert combat.preview(mini, list(PZ), ["0804", "0805"]).column == "2-1"
    load_dice(mini, [die_for(mini, "2-1", "-/1")])
    mini.apply(Attack(PZ, ("0804", "0805")))
    mini.apply(ChooseRetreat())
    units = ("so-hq-army", "so-rifle-3", "so-hq-agsw", "so-rifle-2")
    assert retreat_options(mini) == {u: [("0905",)] for u in units}
    assert mini.check(Retreat(units, (("0905",),) * 4)) is None
    n = len(mini.journal)
    mini.apply(Retreat(units, (("0905",),) * 4))
    assert lines(mini, n)[:5] == ["so-hq-army retreats 0905", "so-rifle-3 retreats 0905", "so-hq-agsw retreats 0905",
                                  "so-hq-agsw is eliminated (no room for it at the end of its retreat, 9.74)",
                                  "so-rifle-2 retreats 0905"]
    assert where(mini, *units) == ["0905", "0905", None, "0905"]


def test_9_75_9_74_retreats_are_simultaneous_so_stacks_may_trade_hexes(mini: Game) -> None:
    # One attack on 0804 and 0805 from 0705; ge-inf-1 at 0903 and ge-inf-2 at 0907 close the
    # other hexes, and 0905 holds two Soviet divisions: no vacant hex is left to either stack.
    place = {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "ge-inf-1": "0903", "ge-inf-2": "0907",
             "so-rifle-3": "0804", "so-tank-1": "0804", "so-hq-army": "0804",
             "so-rifle-1": "0805", "so-rifle-2": "0805", "so-hq-agsw": "0805", "so-rifle-4": "0905", "so-cav-1": "0905"}
    position(mini, place, player="german", phase="combat", turn=2, reinforcements=False)
    assert combat.preview(mini, list(PZ), ["0804", "0805"]).column == "1-1"
    load_dice(mini, [die_for(mini, "1-1", "-/1")])
    mini.apply(Attack(PZ, ("0804", "0805")))
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {
        "so-hq-army": [("0905",)], "so-rifle-3": [("0905",), ("0805",)], "so-tank-1": [("0905",), ("0805",)],
        "so-hq-agsw": [("0905",)], "so-rifle-1": [("0804",), ("0905",)], "so-rifle-2": [("0804",), ("0905",)]}
    # The two stacks trade hexes: each arrives as the other leaves, two divisions a hex (9.75).
    units = ("so-hq-army", "so-rifle-3", "so-tank-1", "so-hq-agsw", "so-rifle-1", "so-rifle-2")
    paths = (("0905",), ("0805",), ("0805",), ("0905",), ("0804",), ("0804",))
    assert mini.check(Retreat(units, paths)) is None  # both HQs must go to 0905: no way fits
    n = len(mini.journal)
    mini.apply(Retreat(units, paths))
    assert lines(mini, n)[:7] == [
        "so-hq-army retreats 0905", "so-rifle-3 retreats 0805", "so-tank-1 retreats 0805", "so-hq-agsw retreats 0905",
        "so-hq-agsw is eliminated (no room for it at the end of its retreat, 9.74)",
        "so-rifle-1 retreats 0804", "so-rifle-2 retreats 0804"]
    assert where(mini, *units) == ["0905", "0805", "0805", None, "0804", "0804"]


def test_9_77_19_52_an_attacker_shut_in_by_the_battle_and_the_river_loses_steps(mini: Game) -> None:
    # ge-inf-1 at 0604 attacks so-rifle-3 at 0704 (1/1); so-rifle-1 at 0706 controls 0605 and 0705.
    fight(mini, {"ge-inf-1": "0604", "so-rifle-3": "0704", "so-rifle-1": "0706"}, ("ge-inf-1",), "0704", "1/1")
    mini.apply(ChooseRetreat())
    assert retreat_options(mini) == {"so-rifle-3": [("0703",), ("0803",), ("0804",)]}
    mini.apply(Retreat(("so-rifle-3",), (("0804",),)))
    mini.apply(ChooseRetreat())
    # 0603 is free of Soviet zones now, but it touched the defender's hex (9.77); 0504 and 0505
    # lie across the unbridged river.
    assert retreat_options(mini) == {"ge-inf-1": []}
    n = len(mini.journal)
    mini.apply(Retreat(("ge-inf-1",), ((),)))
    assert lines(mini, n)[:2] == ["ge-inf-1 cannot retreat across the major river and loses steps instead (19.52)",
                                  "ge-inf-1 loses a step (now 3-4)"]
    # It kept its hex, so it may still advance into the one the defender left (9.68).
    assert pending(mini)["kind"] == "advance" and pending(mini)["units"] == ["ge-inf-1"]
