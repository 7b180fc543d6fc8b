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
