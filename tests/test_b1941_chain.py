"""Barbarossa 1941: one combat as one prompt chain in 6's order (6, 6.1, 5.3), exact under FixedDice.

Position (tests/b41_system_helpers.py): turn 2, clear weather, hexes 1620/1621 west of 1720, no
river, city or railway on them.  ge-ak-1, ge-ak-2: 4 combat, quality 4, two steps; so-a-8 and
so-a-7: 4 combat, quality 2, two steps; so-mc-1-10: motorized, 3 combat, quality 2, 4 MP.
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941 import movement
from kiev_tui.games.barbarossa1941.actions import Artillery, Attack, React
from kiev_tui.games.barbarossa1941.allowance import REACTION
from kiev_tui.games.barbarossa1941.system import board_of

from tests.b41_system_helpers import answer, position, stage


def _where(game, *uids):
    return {u: (game.state.units[u].status, game.state.units[u].hex, game.state.units[u].step) for u in uids}


def _axis_attack(dice, extra=None):
    placed = {"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720", **(extra or {})}
    game = position(placed, dice=dice)
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    return game


def test_6_chain_asks_in_order_and_resolves_exactly() -> None:
    game = _axis_attack([4])
    # no air corps on the map, no Soviet artillery before turn 7, no river, no reaction unit:
    # those stages have only "none" and are not asked; the Axis artillery is (a railway is near)
    assert (stage(game), game.actor) == ("artillery_attacker", "axis")
    answer(game, "artillery", label="no artillery")
    assert (stage(game), game.actor) == ("leader_attacker", "axis")
    answer(game, "leader", "ge-ak-1")
    assert (stage(game), game.actor) == ("roll", "axis")
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 4:1, +0 on the die"]  # 8:4 is 2:1, +2 for quality
    answer(game, "roll")
    # 4:1, die 4: A1D2.  The leaders take the first steps; the defender's second may be a retreat.
    assert _where(game, "ge-ak-1", "so-a-8") == {"ge-ak-1": ("map", "1620", 1), "so-a-8": ("map", "1720", 1)}
    assert (stage(game), game.actor) == ("loss_defender", "soviet")
    p = game.rules.prompt(game)
    assert {(o.verb, o.hex) for o in p.options if o.verb == "retreat"} == {("retreat", "1721"), ("retreat", "1821")}
    answer(game, "retreat", hex="1821")
    assert _where(game, "so-a-8") == {"so-a-8": ("map", "1821", 1)}  # 6: the second step became the retreat
    assert (stage(game), game.actor) == ("advance", "axis")
    answer(game, "advance", label="ge-ak-1, ge-ak-2 advance into 1720")
    assert game.state.pending is None
    assert _where(game, "ge-ak-1", "ge-ak-2") == {"ge-ak-1": ("map", "1720", 1), "ge-ak-2": ("map", "1720", 0)}


def test_6_1_retreat_into_an_enemy_zone_costs_a_step() -> None:
    game = _axis_attack([4])
    answer(game, "artillery", label="no artillery")
    answer(game, "leader", "ge-ak-1")
    answer(game, "roll")
    answer(game, "retreat", hex="1721")  # next to ge-ak-2 in 1621: an uncancelled enemy zone
    assert _where(game, "so-a-8") == {"so-a-8": ("eliminated", None, 2)}
    assert stage(game) == "advance"


def test_6_defender_may_take_the_second_step_as_a_loss() -> None:
    game = _axis_attack([4])
    answer(game, "artillery", label="no artillery")
    answer(game, "leader", "ge-ak-2")
    answer(game, "roll")
    answer(game, "take_loss", "so-a-8")
    assert _where(game, "so-a-8", "ge-ak-2") == {"so-a-8": ("eliminated", None, 2), "ge-ak-2": ("map", "1621", 1)}


def test_6_artillery_is_one_automatic_loss() -> None:
    game = _axis_attack([1])
    answer(game, "artillery", label="spend an artillery point: one automatic loss to the other side")
    assert game.state.vars.art_used == {"axis": 1} and game.state.vars.art_turn == {"axis": 1}
    answer(game, "leader", "ge-ak-1")
    answer(game, "roll")  # 4:1, die 1: A1D1, plus the artillery's D1 = A1D2
    assert _where(game, "ge-ak-1", "so-a-8")["ge-ak-1"] == ("map", "1620", 1)
    assert stage(game) == "loss_defender"  # the second step (the artillery's) may still be a retreat
    p = game.rules.prompt(game)
    assert {o.hex for o in p.options if o.verb == "retreat"} == {"1721", "1821"}


def test_6_sides_alternate_and_the_owner_chooses_its_losses() -> None:
    placed = {"ge-ak-1": "1621", "ge-ak-2": "1621", "so-a-8": "1720", "so-a-7": "1721"}
    game = position(placed, player="soviet", dice=[1])
    game.apply(Attack(("so-a-8", "so-a-7"), "1621"), side="soviet")
    seen = []
    for verb, unit, label in (("artillery", None, "no artillery"), ("leader", "so-a-8", None),
                              ("leader", "ge-ak-1", None), ("roll", None, None)):
        seen.append((stage(game), game.actor))
        answer(game, verb, unit, label=label)
    # 12.12: the defender answers artillery first; 6: the attacker names its leader first
    assert seen == [("artillery_defender", "axis"), ("leader_attacker", "soviet"), ("leader_defender", "axis"),
                    ("roll", "soviet")]
    # 8:8 is 1:1, quality 2 against 4 moves two columns to 1:3; die 1: A2
    assert _where(game, "so-a-8")["so-a-8"] == ("map", "1720", 1)  # the leader's step
    assert (stage(game), game.actor) == ("loss_attacker", "soviet")
    p = game.rules.prompt(game)
    assert sorted(o.unit for o in p.options) == ["so-a-7", "so-a-8"]
    answer(game, "take_loss", "so-a-7")
    assert _where(game, "so-a-7", "so-a-8") == {"so-a-7": ("map", "1721", 1), "so-a-8": ("map", "1720", 1)}
    assert game.state.pending is None  # no defender loss; nothing to advance into


def test_6_a_unit_attacks_once_and_a_hex_is_attacked_once() -> None:
    game = _axis_attack([4])
    bad = game.check(Attack(("ge-ak-1",), "1720"), side="axis")
    assert bad is not None  # a prompt waits
    answer(game, "artillery", label="no artillery")
    answer(game, "leader", "ge-ak-1")
    answer(game, "roll")
    answer(game, "take_loss", "so-a-8")
    answer(game, "advance", label="stay")
    again = game.check(Attack(("ge-ak-2",), "1720"), side="axis")
    assert again is not None and again.case == "6"


def test_5_3_reaction_move_reinforces_the_defender() -> None:
    game = _axis_attack([2, 3], {"so-mc-1-10": "1822"})
    answer(game, "artillery", label="no artillery")
    assert (stage(game), game.actor) == ("reaction", "soviet")
    p = game.rules.prompt(game)
    assert p.case == "5.3"
    targets = {o.hex for o in p.options if o.verb == "react"}
    assert "1720" in targets and "1821" in targets
    board = board_of(game)
    for o in p.options:  # every option is a legal reaction move on the map
        if o.action.unit:
            path = [board.gmap.grid.parse(h) for h in o.action.path]
            assert isinstance(movement.path_cost(board, (o.action.unit,), path, REACTION), dict)
    assert set(game.rules.legal(game, "soviet")) == {o.action for o in p.options}
    answer(game, "react", "so-mc-1-10", hex="1720")  # d6 2 <= quality 2: it moves
    assert _where(game, "so-mc-1-10") == {"so-mc-1-10": ("map", "1720", 0)}
    assert game.state.vars.reacted == ["so-mc-1-10"]
    answer(game, "leader", "ge-ak-1")
    assert (stage(game), game.actor) == ("leader_defender", "soviet")
    answer(game, "leader", "so-mc-1-10")
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 2:1, +0 on the die"]  # 8:7 is 1:1, +2 columns
    answer(game, "roll")  # 2:1, die 3: A1D1; the leaders lose them
    assert _where(game, "so-mc-1-10", "so-a-8", "ge-ak-1") == {
        "so-mc-1-10": ("map", "1720", 1), "so-a-8": ("map", "1720", 0), "ge-ak-1": ("map", "1620", 1)}
    assert game.state.pending is None


def test_5_3_failed_reaction_test_leaves_the_unit() -> None:
    game = _axis_attack([3, 3], {"so-mc-1-10": "1822"})
    answer(game, "artillery", label="no artillery")
    answer(game, "react", "so-mc-1-10", hex="1720")  # d6 3 > quality 2: no move
    assert _where(game, "so-mc-1-10") == {"so-mc-1-10": ("map", "1822", 0)}
    answer(game, "leader", "ge-ak-1")
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 4:1, +0 on the die"]


def test_5_3_no_reaction_in_mud() -> None:
    # turn 6: mud in both zones (12.3): the reaction stage offers nothing and is not asked
    game = position({"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720", "so-mc-1-10": "1822"}, turn=6,
                    dice=[4])
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    if stage(game) == "artillery_attacker":
        answer(game, "artillery", label="no artillery")
    assert stage(game) == "leader_attacker"
    bad = movement.may_react(board_of(game), "so-mc-1-10", board_of(game).gmap.grid.parse("1720"), [])
    assert bad is not None and bad.case == "12.3"


def test_5_3_a_unit_under_attack_does_not_react() -> None:
    placed = {"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720", "so-mc-1-10": "1822"}
    game = position(placed, dice=[4])
    game.state.vars.attacked.append("1822")  # attacked earlier this phase
    game.memo.clear()
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    answer(game, "artillery", label="no artillery")
    assert stage(game) == "leader_attacker"
    assert React("so-mc-1-10", ("1821", "1720")) not in set(game.rules.legal(game, "soviet"))


def _through(game, until):
    """Answer every stage before ``until`` with its first option ("none")."""
    while stage(game) not in (until, ""):
        p = game.rules.prompt(game)
        game.apply(p.options[0].action, side=p.side)


def test_12_6_coup_de_main_lifts_the_river_halving() -> None:
    # 0120 -> 0221 and 0120 -> 0220 cross a river; turn 2 allows one coup de main
    game = position({"ge-ak-1": "0120", "ge-ak-2": "0120", "so-a-8": "0221", "so-a-7": "0220"}, dice=[5, 4])
    game.apply(Attack(("ge-ak-1",), "0221"), side="axis")
    _through(game, "coup")
    assert (stage(game), game.actor) == ("coup", "axis")
    answer(game, "coup_de_main", label="try a coup de main (it succeeds on 4 or more)")  # d6 5
    assert game.state.vars.coups == 1
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 2:1, +0 on the die"]  # 4:4, +2 quality, no halving
    answer(game, "roll")  # 2:1, die 4: A1D1
    assert game.state.pending is None
    # the turn's only coup is used: the next river attack is not asked about one
    game.apply(Attack(("ge-ak-2",), "0220"), side="axis")
    seen = []
    while stage(game) not in ("roll", ""):
        seen.append(stage(game))
        p = game.rules.prompt(game)
        game.apply(p.options[0].action, side=p.side)
    assert "coup" not in seen and stage(game) == "roll"
    assert [o.label for o in game.rules.prompt(game).options] == ["roll 1 die at 3:2, +0 on the die"]


def test_12_6_failed_coup_de_main_keeps_the_halving() -> None:
    game = position({"ge-ak-1": "0120", "so-a-8": "0221"}, dice=[3, 4])
    game.apply(Attack(("ge-ak-1",), "0221"), side="axis")
    _through(game, "coup")
    answer(game, "coup_de_main", label="try a coup de main (it succeeds on 4 or more)")  # d6 3
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 3:2, +0 on the die"]  # 2:4 is 1:2, +2 columns


def test_12_9_the_baltic_fleet_supports_the_defence_once_a_turn() -> None:
    placed = {"ge-ak-1": "1303", "ge-ak-2": "1204", "so-a-8": "1304", "so-vmf": "1205"}
    game = position(placed, dice=[4])
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1304"), side="axis")
    assert (stage(game), game.actor) == ("naval_defender", "soviet")  # after the air support of both sides
    answer(game, "naval_support", label="the Baltic Fleet supports the Soviet side")
    assert game.state.vars.fleet_used == 2
    _through(game, "roll")
    p = game.rules.prompt(game)
    assert p.options[0].label.endswith("-1 on the die")  # 12.9: -1 to the attacker's die


def test_12_5_a_dropped_unit_supports_one_attack_and_is_lost() -> None:
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.games.barbarossa1941.actions import Drop

    game = position({"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720"}, turn=3, phase="movement",
                    dice=[2, 4], control={"1318": "axis"})
    assert game.check(Drop("ge-fjd-7", "1922"), side="axis").case == "12.5"  # never on a major city
    game.apply(Drop("ge-fjd-7", "1721"), side="axis")  # d6 2: it survives (1-5)
    assert game.state.units["ge-fjd-7"].hex == "1721" and game.state.vars.dropped == {"ge-fjd-7": "1721"}
    game.apply(EndPhase(), side="axis")
    assert game.state.phase == "combat"
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    _through(game, "airborne")
    assert (stage(game), game.actor) == ("airborne", "axis")
    answer(game, "airborne", "ge-fjd-7")
    _through(game, "leader_attacker")
    answer(game, "leader", "ge-ak-1")
    p = game.rules.prompt(game)
    assert p.options[0].label == "roll 1 die at 4:1, +1 on the die"
    answer(game, "roll")  # 4:1, die 4+1 = 5: A1D2
    assert game.state.units["ge-fjd-7"].status == "map"  # until the combat is over
    answer(game, "take_loss", "so-a-8")
    assert game.state.units["ge-fjd-7"].status == "eliminated"  # 12.5: lost whatever the result


def test_12_5_a_failed_drop_loses_the_unit() -> None:
    from kiev_tui.games.barbarossa1941.actions import Drop

    game = position({"so-a-8": "1720"}, turn=3, phase="movement", dice=[6], control={"1318": "axis"})
    game.apply(Drop("ge-fjd-7", "1721"), side="axis")  # d6 6: lost (it survives on 1-5)
    assert game.state.units["ge-fjd-7"].status == "eliminated" and game.state.vars.drops == {"axis": 1}


def test_7_overrun_is_one_chain_and_the_stack_moves_on() -> None:
    from kiev_tui.games.barbarossa1941.actions import Move, Overrun

    game = position({"ge-pzk-41": "1620", "so-a-8": "1720"}, steps={"so-a-8": 1}, phase="movement", dice=[3])
    game.apply(Overrun(("ge-pzk-41",), "1720"), side="axis")
    assert game.state.vars.spent == {"ge-pzk-41": 2}  # 7: clear's MP plus 1
    assert (stage(game), game.actor) == ("roll", "axis")  # no artillery, reaction or coup in an overrun (7.2)
    p = game.rules.prompt(game)
    assert [o.label for o in p.options] == ["roll 1 die at 5:1, +0 on the die"]  # 4:2, +3 quality
    answer(game, "roll")  # 5:1, die 3: A1D2, the defender's one step caps it
    assert _where(game, "so-a-8", "ge-pzk-41") == {"so-a-8": ("eliminated", None, 2),
                                                   "ge-pzk-41": ("map", "1620", 1)}
    answer(game, "advance", label="ge-pzk-41 enter 1720")
    assert game.state.units["ge-pzk-41"].hex == "1720" and game.state.vars.overran == {"ge-pzk-41": "1720"}
    assert game.check(Move(("ge-pzk-41",), ("1820",)), side="axis") is None  # 7.2: it goes on


def test_12_13_zhukov_once_the_axis_holds_ten_points() -> None:
    game = position({"so-a-8": "1720", "so-a-7": "1721", "ge-ak-1": "1621"}, player="soviet", dice=[4])
    gmap = game.scenario.map
    for city in ("Moscow", "Leningrad"):  # 6 + 4 VP (13): the option opens (12.13)
        game.state.control[gmap.grid.id(gmap.find(city))] = "axis"
    game.memo.clear()
    game.apply(Attack(("so-a-8", "so-a-7"), "1621"), side="soviet")
    _through(game, "zhukov")
    assert (stage(game), game.actor) == ("zhukov", "soviet")
    answer(game, "zhukov", label="use the Zhukov option")
    assert game.state.vars.zhukov_used == 2
    _through(game, "roll")
    p = game.rules.prompt(game)
    assert p.options[0].label.endswith("+1 on the die")
    answer(game, "roll")  # 8:4 is 2:1, quality 2 - 4 = -2: 1:1; die 4+1 = 5: A1D1, plus Zhukov's A1
    assert game.state.units["so-a-8"].step == 1  # the leader's step; Zhukov's second is chosen next
    assert (stage(game), game.actor) == ("loss_attacker", "soviet")
    answer(game, "take_loss", "so-a-7")
    assert [game.state.units[u].step for u in ("so-a-8", "so-a-7", "ge-ak-1")] == [1, 1, 1]


def test_12_13_no_zhukov_below_ten_points() -> None:
    game = position({"so-a-8": "1720", "ge-ak-1": "1621"}, player="soviet", dice=[4])
    game.apply(Attack(("so-a-8",), "1621"), side="soviet")
    seen = []
    while stage(game) not in ("roll", ""):
        seen.append(stage(game))
        p = game.rules.prompt(game)
        game.apply(p.options[0].action, side=p.side)
    assert "zhukov" not in seen


def test_6_air_and_naval_support_attacker_then_defender() -> None:
    placed = {"so-a-8": "1304", "ge-ak-1": "1204", "so-vmf": "1205", "ge-air-1": "1105"}
    game = position(placed, player="soviet", dice=[4], control={"1105": "axis"})
    game.apply(Attack(("so-a-8",), "1204"), side="soviet")
    assert (stage(game), game.actor) == ("naval_attacker", "soviet")  # no Soviet air corps: its air is not asked
    answer(game, "naval_support", label="the Baltic Fleet supports the Soviet side")
    assert (stage(game), game.actor) == ("air_defender", "axis")
    answer(game, "air_support", "ge-air-1")
    assert stage(game) not in ("naval_defender",) and game.state.vars.fleet_used == 2


def test_5_3_half_of_an_odd_mp_rounds_up() -> None:
    from kiev_tui.games.barbarossa1941.allowance import reaction_allowance

    clear = position({"ge-pzk-41": "1620"}, turn=2)
    assert reaction_allowance(board_of(clear), "ge-pzk-41") == 3  # 5 MP: half is 2.5, rounded up
    freeze = position({"ge-pzk-41": "1620"}, turn=8)
    assert reaction_allowance(board_of(freeze), "ge-pzk-41") == 2  # 12.3: freeze gives 3 MP, half is 2
