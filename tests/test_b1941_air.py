"""Barbarossa 1941: aviation (11, 11.1, 11.2, 12.3): bases, rebasing, support in combat, corps coming back.

ge-air-1 and ge-air-2: 2 columns, range 6; so-air-1: 1 column, range 5.  Cities near the test
hexes: Gomel 1318 and Chernigov 1319 (minor), Kiev 1121 and Kharkov 1922 (major), Orel 1919.
"""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.games.barbarossa1941 import air
from kiev_tui.games.barbarossa1941.actions import Attack, EndRebasing, Move, Rebase
from kiev_tui.games.barbarossa1941.system import HOOKS, air_hexes, board_of, control_of, flown

from tests.b41_system_helpers import answer, position, stage

AXIS_CITIES = {"1318": "axis", "1319": "axis", "1121": "axis", "1919": "axis"}


def _attack(extra, turn=2, dice=(4,)):
    placed = {"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720", **extra}
    game = position(placed, turn=turn, dice=dice, control=AXIS_CITIES)
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    return game


def test_11_2_air_support_both_sides_shift_the_columns() -> None:
    game = _attack({"ge-air-1": "1318", "ge-air-2": "1216", "so-air-1": "1922"})
    assert (stage(game), game.actor) == ("air_attacker", "axis")
    p = game.rules.prompt(game)
    # ge-air-2 at Mogilev is 7 hexes away, beyond its range of 6
    assert [(o.verb, o.unit) for o in p.options] == [("air_support", None), ("air_support", "ge-air-1")]
    answer(game, "air_support", "ge-air-1")
    assert flown(game) == {"ge-air-1"}
    assert (stage(game), game.actor) == ("air_defender", "soviet")
    answer(game, "air_support", "so-air-1")
    answer(game, "artillery", label="no artillery")
    answer(game, "leader", "ge-ak-1")
    p = game.rules.prompt(game)
    # 8:4 is 2:1; +2 quality, +2 German air, -1 Soviet air: five columns to... 2:1 + 3 = 5:1
    assert [o.label for o in p.options] == ["roll 1 die at 5:1, +0 on the die"]
    answer(game, "roll")  # 5:1, die 4: A1D2
    assert game.state.units["ge-ak-1"].step == 1 and game.state.units["so-a-8"].step == 1


def test_11_2_a_corps_flies_once_a_turn() -> None:
    game = _attack({"ge-air-1": "1318", "so-a-7": "1721"}, dice=(4,))
    answer(game, "air_support", "ge-air-1")
    answer(game, "artillery", label="no artillery")
    answer(game, "leader", "ge-ak-1")
    answer(game, "roll")
    answer(game, "take_loss", "so-a-8")
    answer(game, "advance", label="stay")
    b = board_of(game)
    refused = air.check_support(b, air_hexes(game), flown(game), "ge-air-1", "axis", b.gmap.grid.parse("1721"))
    assert refused is not None and refused.case == "11.2"
    HOOKS.new_turn(game)  # the turn marker moves on: every corps may fly again
    assert flown(game) == frozenset()


def test_12_3_no_air_support_in_mud() -> None:
    game = _attack({"ge-air-1": "1318"}, turn=6)
    assert stage(game) != "air_attacker"  # nothing to choose: the stage is not asked
    b = board_of(game)
    refused = air.check_support(b, air_hexes(game), flown(game), "ge-air-1", "axis", b.gmap.grid.parse("1720"))
    assert refused is not None and refused.case == "12.3"


def test_11_1_rebasing_range_capacity_and_control() -> None:
    # a corps garrisons Kiev, or the empty city would at once offer the Soviet a partisan (12.7)
    game = position({"ge-air-1": "1318", "ge-air-2": "1319", "ge-ak-1": "1121"}, phase="air_rebasing",
                    control=AXIS_CITIES)
    assert game.check(Rebase("ge-air-1", "1121"), side="axis") is None  # Kiev: a major city within range
    full = game.check(Rebase("ge-air-1", "1319"), side="axis")
    assert full is not None and full.case == "11.1" and "limit" in full.why  # a minor city bases one corps
    theirs = game.check(Rebase("ge-air-1", "1922"), side="axis")
    assert theirs is not None and theirs.case == "11.1" and "not a city of the axis side" in theirs.why
    game.state.control["2517"] = "axis"
    game.memo.clear()
    far = game.check(Rebase("ge-air-1", "2517"), side="axis")  # Tambov
    assert far is not None and far.case == "11.1" and "range is 6" in far.why
    nocity = game.check(Rebase("ge-air-1", "1620"), side="axis")
    assert nocity is not None and "no city" in nocity.why
    game.apply(Rebase("ge-air-1", "1121"), side="axis")
    once = game.check(Rebase("ge-air-1", "1318"), side="axis")
    assert once is not None and once.case == "11.1" and "already rebased" in once.why  # no hopping on
    game.apply(Rebase("ge-air-2", "1121"), side="axis")  # a major city bases two
    assert air_hexes(game) == {"ge-air-1": board_of(game).gmap.grid.parse("1121"),
                               "ge-air-2": board_of(game).gmap.grid.parse("1121")}
    wrong = game.check(Rebase("ge-air-1", "1318"), side="soviet")
    assert wrong is not None and wrong.case == "2"


def test_11_1_the_common_phase_lets_both_sides_rebase() -> None:
    placed = {"ge-air-1": "1318", "so-air-1": "1922", "so-air-2": "2319"}  # Kharkov, Voronezh
    game = position(placed, phase="air_rebasing", control=AXIS_CITIES)
    game.apply(EndPhase(), side="axis")
    assert game.state.phase == "air_rebasing"  # the Soviet share of the common phase comes first
    p = game.rules.prompt(game)
    assert (p.side, p.kind, p.case) == ("soviet", "rebase", "11.1")
    assert ("end_rebasing", None) in [(o.verb, o.unit) for o in p.options]
    answer(game, "rebase", "so-air-1", hex="2319")  # Voronezh, a major city: room for two
    assert game.state.units["so-air-1"].hex == "2319" and game.state.phase == "air_rebasing"
    game.apply(EndRebasing(), side="soviet")
    # the rebasing is over: the Axis replacements phase asks its own question (9.2)
    assert game.state.phase == "replacements" and game.state.pending == {"kind": "replace", "side": "axis"}


def test_11_1_the_soviet_share_ends_when_nothing_is_left_to_rebase() -> None:
    game = position({"ge-air-1": "1318", "so-air-1": "1922"}, phase="air_rebasing", control=AXIS_CITIES)
    game.apply(EndPhase(), side="axis")
    answer(game, "rebase", "so-air-1", hex="2319")
    assert game.state.phase == "replacements" and game.state.pending == {"kind": "replace", "side": "axis"}


def test_11_1_an_enemy_unit_in_the_base_eliminates_the_corps_until_two_turns_later() -> None:
    game = position({"ge-air-1": "1919", "so-a-8": "1920", "ge-ak-1": "1121"}, phase="movement",
                    player="soviet", control=AXIS_CITIES)  # Kiev garrisoned: no partisan question (12.7)
    game.apply(Move(("so-a-8",), ("1919",)), side="soviet")
    u = game.state.units["ge-air-1"]
    assert (u.status, u.hex) == ("eliminated", None)
    assert game.state.vars.air_return == {"ge-air-1": 4}
    assert game.state.control["1919"] == "soviet"
    # turn 3: not yet; turn 4: back on any Axis city with room, whatever the distance
    game.state.turn, game.state.phase, game.state.player = 3, "air_rebasing", "axis"
    game.memo.clear()
    early = game.check(Rebase("ge-air-1", "1318"), side="axis")
    assert early is not None and early.case == "11.1" and "not due" in early.why
    game.state.turn = 4
    game.memo.clear()
    assert "ge-air-1" in {r.unit for r in game.rules.legal(game, "axis") if isinstance(r, Rebase)}
    game.apply(Rebase("ge-air-1", "1318"), side="axis")
    assert (game.state.units["ge-air-1"].status, game.state.units["ge-air-1"].hex) == ("map", "1318")
    assert game.state.vars.air_return == {}


def test_11_1_base_capacity_by_city_size() -> None:
    game = position({})
    b = board_of(game)
    g = b.gmap.grid
    assert [air.capacity(b, g.parse(h)) for h in ("1922", "1919", "1620")] == [2, 1, 0]
    ctrl = control_of(game)
    assert air.check_base(b, {}, ctrl, "so-air-1", g.parse("1919"), returning=True).case == "11"


def test_12_9_an_air_corps_attacks_the_baltic_fleet_once_a_turn() -> None:
    from kiev_tui.games.barbarossa1941.actions import AirStrike

    game = position({"ge-air-1": "0804", "ge-air-2": "0705", "so-vmf": "1205"}, dice=[2, 1],
                    control={"0804": "axis", "0705": "axis"})  # Helsinki, Tallinn; Kronstadt's sea hex
    assert AirStrike("ge-air-1") in set(game.rules.legal(game, "axis"))
    game.apply(AirStrike("ge-air-1"), side="axis")  # d6 2: a hit on 1-3
    assert game.state.units["so-vmf"].step == 1 and flown(game) == {"ge-air-1"}
    again = game.check(AirStrike("ge-air-2"), side="axis")
    assert again is not None and again.case == "12.9" and "one air corps a turn" in again.why
    HOOKS.new_turn(game)
    game.state.turn = 3
    game.state.vars.fleet_strike = 2
    game.memo.clear()
    game.apply(AirStrike("ge-air-2"), side="axis")  # d6 1: the second step: the fleet is gone
    assert game.state.units["so-vmf"].status == "eliminated"


def test_12_9_no_air_attack_on_the_fleet_in_mud() -> None:
    from kiev_tui.games.barbarossa1941.actions import AirStrike

    game = position({"ge-air-1": "0804", "so-vmf": "1205"}, turn=6, control={"0804": "axis"})
    bad = game.check(AirStrike("ge-air-1"), side="axis")
    assert bad is not None and bad.case == "12.9" and "mud" in bad.why
