"""Advance after combat (9.8): who is offered it, how far, along which paths, and where units end.

Battles are fought on the 10 x 10 fixture map with loaded dice.  The fixture's major river runs
between columns 05 and 06 (bridged by a road only on 0505/0605) and 0909 is a lake.
"""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import (
    Advance, Attack, ChooseRetreat, DeclineAdvance, Overrun, Retreat, TakeLosses,
)
from kiev_tui.games.spi_kiev.advance import advance_options
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.retreat import retreat_options

from tests.conftest import position
from tests.spi_helpers import die_for, fight, lines, load_dice, pending, refusal, where

PZ = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")
REDS = ("so-rifle-4", "so-tank-1", "so-rifle-1")


def pen_at_the_river(game: Game, extra: dict[str, str], result: str = "-/3") -> Game:
    """The Soviets at 0704/0705 wipe out ge-1pz-1, penned at 0604 against the unbridged river."""
    fight(game, {"so-rifle-4": "0704", "so-tank-1": "0704", "so-rifle-1": "0705", "so-hq-army": "0804",
                 "ge-1pz-1": "0604", **extra}, REDS, "0604", result, player="soviet")
    game.apply(ChooseRetreat())
    game.apply(Retreat(("ge-1pz-1",), ((),)))
    assert game.state.units["ge-1pz-1"].status == "eliminated"
    return game


# -- 9.84: after an elimination, any open hex next to the vacated one ------------------------------

def test_9_84_9_85_a_wiped_out_hex_allows_two_hexes_whatever_the_result(mini: Game) -> None:
    pen_at_the_river(mini, {})
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": list(REDS), "max": 2, "vacated": ["0604"],
                             "prompt": "soviet player: advance up to 2 hex(es) with so-rifle-4, so-tank-1, "
                                       "so-rifle-1, or decline"}
    # Across the major river too (0504, 0505) while no German guards its bank (10.13).
    assert advance_options(mini) == {"units": list(REDS), "paths": [
        ("0604",), ("0604", "0504"), ("0604", "0505"), ("0604", "0603"), ("0604", "0605"), ("0604", "0704"),
        ("0604", "0705")]}


def test_9_84_10_13_not_across_the_river_into_a_guarded_hex(mini: Game) -> None:
    # ge-inf-1 at 0503 (on the river bank) controls 0504; 0505 stays open.
    pen_at_the_river(mini, {"ge-inf-1": "0503"})
    assert advance_options(mini)["paths"] == [
        ("0604",), ("0604", "0505"), ("0604", "0603"), ("0604", "0605"), ("0604", "0704"), ("0604", "0705")]
    # ge-inf-1 at 0504 is itself in the way and controls 0505 from its bank.
    pen_at_the_river(mini, {"ge-inf-1": "0504"})
    assert advance_options(mini)["paths"] == [
        ("0604",), ("0604", "0603"), ("0604", "0605"), ("0604", "0704"), ("0604", "0705")]


def test_9_82_a_soviet_advance_into_a_german_zone_goes_no_farther(mini: Game) -> None:
    # Three German divisions fill 0603, so ge-1pz-1 has no room there and dies; 0604 is in their zone.
    pen_at_the_river(mini, {"ge-inf-1": "0603", "ge-inf-2": "0603", "ge-inf-3": "0603"}, "-/1")
    assert advance_options(mini)["paths"] == [("0604",)]


def test_9_84_not_into_a_lake_or_an_enemy_hex(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0808", "ge-1pz-2": "0808", "ge-1pz-3": "0808", "so-rifle-3": "0908",
                 "so-rifle-1": "1008"}, PZ, "0908", "-/E")
    # 0909 is a lake and so-rifle-1 holds 1008; 0808 is the panzers' own hex.
    assert advance_options(mini) == {"units": list(PZ), "paths": [
        ("0908",), ("0908", "0807"), ("0908", "0808"), ("0908", "0907"), ("0908", "1007")]}


# -- 9.81, 9.82, 9.85: along the path of retreat --------------------------------------------------

def test_9_81_the_path_ends_where_an_enemy_unit_stands(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804",
                 "so-rifle-1": "0904"}, PZ, "0804", "-/3")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("0904", "0903", "0902"),)))  # through so-rifle-1's hex
    assert pending(mini)["max"] == 3
    assert advance_options(mini)["paths"] == [("0804",)]
    assert refusal(mini, Advance(("ge-1pz-1",), ("0804", "0904", "0903"))) == \
        "[9.82] 0804 > 0904 > 0903 is not along the path of retreat (or is too long)"


def test_9_82_the_soviets_follow_a_german_retreat_only_up_to_a_german_zone(mini: Game) -> None:
    position(mini, {"so-rifle-4": "0904", "so-tank-1": "0904", "so-rifle-1": "0904", "so-hq-army": "1004",
                    "ge-1pz-2": "0804", "ge-inf-2": "0603"}, player="soviet", phase="combat", turn=2,
             reinforcements=False)
    mini.state.units["ge-1pz-2"].step = 1  # 0-1: 15 against 1
    assert combat.preview(mini, list(REDS), ["0804"]).column == "10-1"
    load_dice(mini, [die_for(mini, "10-1", "-/3")])
    mini.apply(Attack(REDS, ("0804",)))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-2",), (("0704", "0703", "0702"),)))
    # 0704 is in the zone of ge-inf-2 at 0603: the Soviets stop there (the Germans would not).
    assert advance_options(mini) == {"units": list(REDS), "paths": [("0804",), ("0804", "0704")]}
    n = len(mini.journal)
    mini.apply(Advance(("so-tank-1",), ("0804", "0704")))
    assert lines(mini, n)[0] == "so-tank-1 advance 0804 > 0704"
    assert where(mini, *REDS) == ["0904", "0704", "0904"]
    assert list(mini.state.vars.advanced) == ["so-tank-1"]
    assert mini.state.pending is None and mini.state.vars.battle is None


# -- the defender follows a beaten attacker (9.68, 9.81) ------------------------------------------

TWO_FRONTS = {"ge-1pz-1": "0704", "ge-inf-1": "0705", "so-rifle-4": "0804", "so-rifle-2": "0804",
              "so-hq-army": "0905"}


def test_9_81_9_85_the_defenders_follow_each_attackers_path(mini: Game) -> None:
    fight(mini, TWO_FRONTS, ("ge-1pz-1", "ge-inf-1"), "0804", "2/-")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-1", "ge-inf-1"), (("0703", "0702"), ("0706", "0707"))))
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": ["so-rifle-2", "so-rifle-4"], "max": 2,
                             "vacated": ["0704", "0705"],
                             "prompt": "soviet player: advance up to 2 hex(es) with so-rifle-2, so-rifle-4, or decline"}
    # 0703 and 0706 lie in the zones of the retreated Germans: the Soviets stop there (9.82).
    assert advance_options(mini) == {"units": ["so-rifle-2", "so-rifle-4"],
                                     "paths": [("0704",), ("0704", "0703"), ("0705",), ("0705", "0706")]}
    assert refusal(mini, Advance(("ge-1pz-1",), ("0704",))) == "[9.81] only so-rifle-2, so-rifle-4 may advance"
    n = len(mini.journal)
    mini.apply(Advance(("so-rifle-4", "so-rifle-2"), ("0705", "0706")))
    assert lines(mini, n)[0] == "so-rifle-4, so-rifle-2 advance 0705 > 0706"
    assert where(mini, "so-rifle-2", "so-rifle-4") == ["0706", "0706"]
    assert list(mini.state.vars.advanced) == ["so-rifle-4", "so-rifle-2"]


def test_9_84_9_85_the_defenders_go_two_hexes_after_an_attacker_is_wiped_out(mini: Game) -> None:
    fight(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804", "so-rifle-2": "0804", "so-hq-army": "0905"},
          ("ge-1pz-2",), "0804", "E/-")
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": ["so-rifle-2", "so-rifle-4"], "max": 2,
                             "vacated": ["0704"],
                             "prompt": "soviet player: advance up to 2 hex(es) with so-rifle-2, so-rifle-4, or decline"}
    assert advance_options(mini)["paths"] == [
        ("0704",), ("0704", "0603"), ("0704", "0604"), ("0704", "0703"), ("0704", "0705"), ("0704", "0803"),
        ("0704", "0804")]


def test_9_68_no_advance_for_the_defender_after_a_split_result(mini: Game) -> None:
    fight(mini, TWO_FRONTS, ("ge-1pz-1", "ge-inf-1"), "0804", "1/1")
    mini.apply(TakeLosses(("so-rifle-2",)))  # so-rifle-4 holds 0804
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-1", "ge-inf-1"), (("0703",), ("0706",))))
    assert where(mini, "so-rifle-4") == ["0804"]
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert advance_options(mini) == {}


# -- choosing the advance: who, how many, and what it changes (7.0, 9.81, 9.83, 24.0) -----------

def test_7_0_9_81_an_advance_may_not_overstack_its_last_hex(mini: Game) -> None:
    fight(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804", "so-rifle-2": "0804", "so-hq-army": "0804",
                 "so-rifle-1": "0705", "so-tank-1": "0705", "so-hq-agsw": "0705"}, ("ge-1pz-2",), "0804", "E/-")
    units = ["so-hq-army", "so-rifle-2", "so-rifle-4"]
    assert pending(mini)["units"] == units
    assert ("0704", "0705") in advance_options(mini)["paths"]
    only = "[9.81] only so-hq-army, so-rifle-2, so-rifle-4 may advance"
    assert refusal(mini, Advance((), ("0704",))) == only
    assert refusal(mini, Advance(("so-rifle-4", "so-rifle-4"), ("0704",))) == only
    assert refusal(mini, Advance(("so-rifle-4", "so-rifle-1"), ("0704",))) == only
    # 0705 holds two combat units and an HQ: two more combat units would make four.
    assert refusal(mini, Advance(("so-rifle-4", "so-rifle-2"), ("0704", "0705"))) == \
        "[7.0] advancing would put more than three combat units in 0705"
    # One combat unit and an HQ make three combat units there: allowed (HQs do not count, 11.22).
    assert mini.check(Advance(("so-rifle-4", "so-hq-army"), ("0704", "0705"))) is None
    n = len(mini.journal)
    mini.apply(Advance(("so-rifle-4", "so-hq-army"), ("0704", "0705")))
    assert lines(mini, n)[0] == "so-rifle-4, so-hq-army advance 0704 > 0705"
    assert where(mini, "so-rifle-4", "so-hq-army", "so-rifle-2") == ["0705", "0705", "0804"]
    assert list(mini.state.vars.advanced) == ["so-rifle-4", "so-hq-army"]


def test_24_0_9_83_an_advance_takes_the_towns_it_enters(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"},
          PZ, "0804", "-/E")
    n = len(mini.journal)
    mini.apply(Advance(("ge-1pz-1",), ("0804", "0805")))
    assert lines(mini, n) == ["Eastville (0805) now belongs to the german player (24.0)",
                              "ge-1pz-1 advance 0804 > 0805"]
    assert mini.state.control["0805"] == "german"
    assert list(mini.state.vars.advanced) == ["ge-1pz-1"]
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert refusal(mini, Advance(("ge-1pz-2",), ("0804",))) == "[9.8] no advance is on offer"


def test_24_0_a_defenders_advance_takes_the_town_for_the_defender(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0805", "so-rifle-4": "0804", "so-rifle-2": "0804",
                 "so-hq-army": "0905"}, ("ge-1pz-1", "ge-inf-1"), "0804", "2/-")
    mini.state.control["0805"] = "german"  # as if ge-inf-1 had taken Eastville
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-1", "ge-inf-1"), (("0703", "0702"), ("0806", "0807"))))
    assert advance_options(mini)["paths"] == [("0704",), ("0704", "0703"), ("0805",), ("0805", "0806")]
    n = len(mini.journal)
    mini.apply(Advance(("so-rifle-2",), ("0805",)))
    assert lines(mini, n) == ["Eastville (0805) now belongs to the soviet player (24.0)",
                              "so-rifle-2 advance 0805"]
    assert mini.state.control["0805"] == "soviet"


def test_9_83_the_winner_may_decline(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"},
          PZ, "0804", "-/E")
    assert mini.check(DeclineAdvance()) is None
    mini.apply(DeclineAdvance())
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert where(mini, *PZ) == ["0704", "0704", "0704"]
    assert list(mini.state.vars.advanced) == []
    assert refusal(mini, DeclineAdvance()) == "[9.83] no advance is on offer"


# -- when no advance is offered (9.68, 9.69, 9.86) -------------------------------------------------

def test_9_69_no_advance_after_an_engaged_result(mini: Game) -> None:
    fight(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804", "so-hq-army": "0905"}, ("ge-1pz-1",), "0804", "eng")
    # Both lose a step: so-rifle-3 has no other and 0804 is empty, yet nobody may move in.
    mini.apply(TakeLosses(("so-rifle-3",)))
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert mini.state.units["so-rifle-3"].status == "eliminated"
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert where(mini, "ge-1pz-1") == ["0704"]


def test_9_86_no_advance_after_an_overrun(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0904", "so-rifle-3": "1004"}, player="german", phase="movement", turn=2,
             reinforcements=False)
    assert overrun_preview(mini, ("ge-1pz-1",), "1004").column == "3-1"
    load_dice(mini, [die_for(mini, "3-1", "-/2")])
    mini.apply(Overrun(("ge-1pz-1",), "1004"))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("1005", "1006"),)))
    # The overrun's own rule carries the stack into the hex (6.24); no advance is asked for.
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert where(mini, "ge-1pz-1") == ["1004"]


def test_9_68_no_defenders_advance_while_the_attackers_hold_their_hexes(mini: Game) -> None:
    fight(mini, TWO_FRONTS, ("ge-1pz-1", "ge-inf-1"), "0804", "1/-")
    mini.apply(TakeLosses(("ge-inf-1",)))  # the Germans lose a step rather than give ground
    assert mini.state.pending is None and mini.state.vars.battle is None
    assert where(mini, "ge-1pz-1", "ge-inf-1", "so-rifle-4") == ["0704", "0705", "0804"]


def test_9_85_a_one_hex_retreat_lets_the_defenders_follow_one_hex(mini: Game) -> None:
    # ge-inf-2 stays at 0705 (it did not attack), so only 0704 is left open.
    fight(mini, {**TWO_FRONTS, "ge-inf-2": "0705"}, ("ge-1pz-1", "ge-inf-1"), "0804", "1/-")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-1pz-1", "ge-inf-1"), (("0703",), ("0706",))))
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": ["so-rifle-2", "so-rifle-4"], "max": 1,
                             "vacated": ["0704"],
                             "prompt": "soviet player: advance up to 1 hex(es) with so-rifle-2, so-rifle-4, or decline"}
    assert advance_options(mini)["paths"] == [("0704",)]


def test_9_84_a_lone_attacker_lost_to_its_step_loss_opens_two_hexes(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-rifle-4": "0804", "so-hq-army": "0905"}, player="german",
             phase="combat", turn=2, reinforcements=False)
    mini.state.units["ge-1pz-1"].step = 1  # 3-1, its last step
    col = combat.preview(mini, ["ge-1pz-1"], ["0804"]).column
    load_dice(mini, [die_for(mini, col, "1/-")])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    mini.apply(TakeLosses(("ge-1pz-1",)))
    assert mini.state.units["ge-1pz-1"].status == "eliminated"
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": ["so-rifle-4"], "max": 2,
                             "vacated": ["0704"],
                             "prompt": "soviet player: advance up to 2 hex(es) with so-rifle-4, or decline"}


# -- two hexes attacked at once ---------------------------------------------------------------------

def test_9_85_each_vacated_hex_is_offered(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "so-rifle-3": "0804",
                    "so-rifle-2": "0805"}, player="german", phase="combat", turn=2, reinforcements=False)
    col = combat.preview(mini, list(PZ), ["0804", "0805"]).column
    load_dice(mini, [die_for(mini, col, "-/1")])
    mini.apply(Attack(PZ, ("0804", "0805")))
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3", "so-rifle-2"), (("0904",), ("0906",))))
    assert advance_options(mini) == {"units": list(PZ), "paths": [("0804",), ("0805",)]}


def test_9_84_two_wiped_out_hexes_each_open_their_neighbours(mini: Game) -> None:
    inf = ("ge-inf-1", "ge-inf-2", "ge-inf-3")
    position(mini, {"ge-1pz-1": "0705", "ge-1pz-2": "0705", "ge-1pz-3": "0705", "ge-leader": "0705",
                    "ge-inf-1": "0905", "ge-inf-2": "0905", "ge-inf-3": "0905", "so-rifle-3": "0804",
                    "so-hq-army": "0805"}, player="german", phase="combat", turn=2, reinforcements=False)
    att = PZ + inf + ("ge-leader",)
    assert combat.preview(mini, list(att), ["0804", "0805"]).column == "8-1"
    load_dice(mini, [die_for(mini, "8-1", "-/E")])
    mini.apply(Attack(att, ("0804", "0805")))
    assert pending(mini)["max"] == 2 and pending(mini)["vacated"] == ["0804", "0805"]
    assert advance_options(mini)["paths"] == [
        ("0804",), ("0804", "0704"), ("0804", "0705"), ("0804", "0803"), ("0804", "0805"), ("0804", "0904"),
        ("0804", "0905"),
        ("0805",), ("0805", "0705"), ("0805", "0706"), ("0805", "0804"), ("0805", "0806"), ("0805", "0905"),
        ("0805", "0906")]


# -- 9.76: a unit that retreated into a friendly hex earlier in the phase -------------------------

def rejoin(game: Game, attackers: tuple[str, ...], result: str) -> Game:
    """so-rifle-3 falls back from 0804 into so-rifle-1's hex 0904, which ``attackers`` at 0903 then hit."""
    fight(game, {"ge-1pz-1": "0704", **{u: "0903" for u in attackers}, "so-rifle-3": "0804", "so-rifle-1": "0904",
                 "so-rifle-2": "0905", "so-rifle-4": "0805"}, ("ge-1pz-1",), "0804", "-/1")
    game.apply(ChooseRetreat())
    assert retreat_options(game) == {"so-rifle-3": [("0904",), ("0905",), ("0805",)]}  # no vacant hex
    game.apply(Retreat(("so-rifle-3",), (("0904",),)))
    game.apply(DeclineAdvance())
    assert list(game.state.vars.retreated_into) == ["so-rifle-3"]
    col = combat.preview(game, list(attackers), ["0904"]).column
    load_dice(game, [die_for(game, col, result)])
    game.apply(Attack(attackers, ("0904",)))
    return game


def test_9_76_9_81_the_winners_follow_the_survivor_of_a_hex_that_held_a_retreated_unit(mini: Game) -> None:
    rejoin(mini, ("ge-inf-1", "ge-inf-3"), "-/2")
    assert mini.state.units["so-rifle-3"].status == "eliminated"  # 9.76
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-1",), (("1004", "1005"),)))
    assert advance_options(mini) == {"units": ["ge-inf-1", "ge-inf-3"], "paths": [("0904",), ("0904", "1004")]}


def test_9_76_9_83_a_unit_that_retreated_into_the_hex_does_not_advance(mini: Game) -> None:
    rejoin(mini, ("ge-inf-1",), "1/-")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("ge-inf-1",), (("0902",),)))
    assert pending(mini) == {"kind": "advance", "side": "soviet", "units": ["so-rifle-1"], "max": 1,
                             "vacated": ["0903"],
                             "prompt": "soviet player: advance up to 1 hex(es) with so-rifle-1, or decline"}


# -- more paths of retreat ----------------------------------------------------------------------------

def test_9_82_the_germans_follow_through_a_soviet_zone_but_not_a_soviet_unit(mini: Game) -> None:
    place = {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"}
    # so-rifle-1 at 1004 controls 0904: German advances ignore Soviet zones.
    fight(mini, {**place, "so-rifle-1": "1004"}, PZ, "0804", "-/3")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("0904", "0903", "0902"),)))
    assert advance_options(mini)["paths"] == [("0804",), ("0804", "0904"), ("0804", "0904", "0903")]
    # so-rifle-1 at 0903 itself: the path ends before it.
    fight(mini, {**place, "so-rifle-1": "0903"}, PZ, "0804", "-/3")
    mini.apply(ChooseRetreat())
    mini.apply(Retreat(("so-rifle-3",), (("0904", "0903", "0902"),)))
    assert advance_options(mini)["paths"] == [("0804",), ("0804", "0904")]


def test_9_84_10_13_a_guarded_crossing_does_not_close_the_others(mini: Game) -> None:
    # ge-inf-1 at 0506 guards 0505 from its bank; 0504 stays open.
    pen_at_the_river(mini, {"ge-inf-1": "0506"})
    assert advance_options(mini)["paths"] == [
        ("0604",), ("0604", "0504"), ("0604", "0603"), ("0604", "0605"), ("0604", "0704"), ("0604", "0705")]


def test_9_84_10_16_not_across_an_all_lake_hexside(mini: Game) -> None:
    gmap = mini.scenario.map
    before = gmap.side_features(H("0804"), H("0805"))
    gmap.set_side_features(H("0804"), H("0805"), frozenset({"lake"}))
    try:
        fight(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0704", "ge-1pz-3": "0704", "so-rifle-3": "0804"},
              PZ, "0804", "-/E")
        assert advance_options(mini)["paths"] == [
            ("0804",), ("0804", "0704"), ("0804", "0705"), ("0804", "0803"), ("0804", "0904"), ("0804", "0905")]
    finally:
        gmap.set_side_features(H("0804"), H("0805"), before)
