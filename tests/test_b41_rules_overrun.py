"""Barbarossa 1941, overrun (7, 7.1, 7.2, with 5.1, 12.6 and 12.8).

ge-pzk-41 (4-5-5, motorized) began its move on 0302 and stands on 0403, next to 0404, having
spent 1 MP.  The defender so-a-7 is reduced to one step, so it has no zone (4) and the panzer
corps has not had to stop.  so-a-8 on 0502 (two steps) holds 0402 and 0403 in its zone.
"""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.games.barbarossa1941 import combat as c, overrun as o
from kiev_tui.games.barbarossa1941.allowance import EXPLOITATION, MOVEMENT, REACTION
from tests.b41_rules_helpers import CLEAR, H, board, small_map
from tests.test_b41_rules_combat import Supply

PZ = ["ge-pzk-41"]
SPENT = {"ge-pzk-41": 1}


def pos(gmap=None, turn: int = CLEAR, **extra: str):  # type: ignore[no-untyped-def]
    return board(gmap or small_map(), {"ge-pzk-41": "0403", "so-a-7": "0404", **extra}, turn=turn,
                 lost={"so-a-7": 1})


def cost(b, start: str = "0302", spent=SPENT, phase: str = MOVEMENT, **kw):  # type: ignore[no-untyped-def]
    return o.overrun_cost(b, PZ, H("0404"), phase, H(start), spent, **kw)


def test_7_costs_the_terrain_plus_one() -> None:
    assert cost(pos()) == 2
    assert cost(pos(small_map(terrain={"0404": "forest"}))) == 3
    assert cost(pos(small_map(terrain={"0404": "mountain"}))) == 4
    assert cost(pos(), spent={"ge-pzk-41": 4}) == Illegal("7", "ge-pzk-41 needs 2 MP to overrun 0404 but has 1 left")


def test_7_in_exploitation_not_in_reaction() -> None:
    assert cost(pos(), phase=EXPLOITATION, spent={}) == 2  # exploitation: half of 5, rounded up, is 3
    assert cost(pos(), phase=REACTION) == \
        Illegal("7", "an overrun is made in the movement or exploitation phase, not in a reaction move")


def test_7_only_motorized_stacks_in_supply() -> None:
    b = board(small_map(), {"ge-ak-23": "0403", "so-a-7": "0404"}, lost={"so-a-7": 1})
    assert o.overrun_cost(b, ["ge-ak-23"], H("0404"), MOVEMENT, H("0302")) == \
        Illegal("7", "ge-ak-23 is not motorized: only motorized units overrun")
    assert cost(pos(), supply=Supply(isolated={"ge-pzk-41"})) == \
        Illegal("7", "ge-pzk-41 is out of supply: it may not overrun")


def test_7_not_from_an_enemy_zone() -> None:
    b = pos(**{"so-a-8": "0502"})
    assert cost(b, start="0402") == Illegal("7", "ge-pzk-41 began its move in an enemy zone of control (0402)")
    assert cost(b) == Illegal("5.1", "ge-pzk-41 has entered an enemy zone at 0403 and stopped there")
    # 12.8: on turn 1 German armour ignores Soviet zones when it moves
    assert cost(pos(turn=1, **{"so-a-8": "0502"}), start="0402") == 2


def test_7_1_prohibited_areas() -> None:
    for terrain, case in (("swamp", "7.1"), ("arctic", "12.10")):
        got = cost(pos(small_map(terrain={"0404": terrain})))
        assert got == Illegal(case, f"no overrun into {terrain} (0404)")
    assert cost(pos(small_map(settlement={"0404": "major_city"}))) == Illegal("7.1", "no overrun into a major city (0404)")
    assert cost(pos(small_map(settlement={"0404": "minor_city"}))) == 2


def test_7_1_rivers_and_12_6_coup_de_main() -> None:
    b = pos(small_map(sides={"major_river": ["0403/0404"]}))
    assert cost(b) == Illegal("7.1", "no overrun across a river into 0404 without a successful coup de main (12.6)")
    assert cost(b, coup_de_main=False) == cost(b)
    assert cost(b, coup_de_main=True) == 2
    # the overrun then keeps the river's halving (12.6)
    p = c.plan(b, PZ, H("0404"), "ge-pzk-41", "so-a-7", c.Options(overrun=True, coup_de_main=True))
    assert p.attack == 2
    p = c.plan(b, PZ, H("0404"), "ge-pzk-41", "so-a-7", c.Options(coup_de_main=True))
    assert p.attack == 4


def test_7_2_air_support_but_no_artillery() -> None:
    b = pos()
    p = c.plan(b, PZ, H("0404"), "ge-pzk-41", "so-a-7", c.Options(overrun=True, air_attacker="ge-air-1"))
    assert (p.attack, p.defense, p.column_name) == (4, 2, "7:1")  # 2:1, +3 quality, +2 air
    bad = c.plan(b, PZ, H("0404"), "ge-pzk-41", "so-a-7", c.Options(overrun=True, artillery_attacker=True),
                 Supply(rail={"0403"}))
    assert bad == Illegal("7.2", "no artillery support in an overrun")
    assert c.plan(b, PZ, H("0404"), "ge-pzk-41", "so-a-7", c.Options(overrun=True, fleet=True)) == \
        Illegal("7.2", "no naval support in an overrun")


def test_7_2_enter_the_hex_only_when_it_is_free() -> None:
    assert o.check_enter(pos(), PZ, H("0404")) == Illegal("7.2", "0404 still holds enemy units: the stack may not enter it")
    empty = board(small_map(), {"ge-pzk-41": "0403", "so-fort-2": "0404"})
    assert o.check_enter(empty, PZ, H("0404")) == ("so-fort-2",)
