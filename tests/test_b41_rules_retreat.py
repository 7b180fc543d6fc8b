"""Barbarossa 1941, retreat and advance after combat (6, 6.1, 12.4, 12.8).

On the made-up map 0404's neighbours are 0403, 0503, 0504, 0405, 0304 and 0303.  A Soviet
supply source on 0704 is three hexes from 0404; of 0404's neighbours only 0503 and 0504 are
nearer to it (two hexes).  ge-ak-26 on 0604 holds both of them in its zone.
"""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.games.barbarossa1941 import combat as c, retreat as r, zoc
from kiev_tui.games.barbarossa1941.tables import Result
from tests.b41_rules_helpers import CLEAR, H, board, small_map
from tests.test_b41_rules_combat import Supply

SRC = Supply(sources={"soviet": {"0704"}, "axis": {"0101"}})
WEST = {"ge-ak-23": "0303", "ge-ak-1": "0304"}


def pos(turn: int = CLEAR, gmap=None, **extra: str):  # type: ignore[no-untyped-def]
    place = {"so-a-7": "0404", **WEST, **extra}
    return board(gmap or small_map(), place, turn=turn)


def named(b, got):  # type: ignore[no-untyped-def]
    assert not isinstance(got, Illegal), got
    return {b.gmap.grid.id(h): n for h, n in got.items()}


def test_6_1_retreat_goes_toward_a_supply_source() -> None:
    b = pos()
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0503": 0, "0504": 0}
    assert r.check_retreat(b, ["so-a-7"], H("0405"), SRC) == \
        Illegal("6.1", "0405 does not lead toward a supply source of the soviet side")
    assert r.check_retreat(b, ["so-a-7"], H("0606"), SRC) == Illegal("6", "a retreat is one hex: 0606 is not next to 0404")


def test_6_1_retreat_into_an_enemy_zone_costs_a_step() -> None:
    b = pos(**{"ge-ak-26": "0604"})
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0503": 1, "0504": 1}


def test_6_1_a_friendly_unit_cancels_the_zone_for_the_retreat() -> None:
    b = pos(**{"ge-ak-26": "0604", "so-a-8": "0503"})
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0503": 0, "0504": 1}


def test_6_1_no_retreat_through_enemy_units() -> None:
    b = pos(**{"ge-ak-26": "0503"})
    assert r.check_retreat(b, ["so-a-7"], H("0503"), SRC) == \
        Illegal("6.1", "0503 holds enemy units: no retreat through them")
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0504": 1}  # 0504 is in ge-ak-26's zone


def test_6_1_no_hex_left_the_stack_stays() -> None:
    b = pos(**{"ge-ak-26": "0503", "ge-ak-38": "0504"})
    assert r.retreat_hexes(b, ["so-a-7"], SRC) == \
        Illegal("6.1", "no hex to retreat into from 0404: the stack stays and takes the losses")


def test_6_1_retreat_respects_stacking() -> None:
    b = pos(**{"so-a-8": "0503", "so-a-11": "0503"})  # 4 points there; so-a-7 brings 2 more: 6 is fine
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0503": 0, "0504": 0}
    b = pos(**{"so-a-8": "0503", "so-a-11": "0503", "so-a-3": "0503"})
    bad = r.check_retreat(b, ["so-a-7"], H("0503"), SRC)
    assert isinstance(bad, Illegal) and bad.case == "3"


def test_6_1_retreat_not_into_sea() -> None:
    b = pos(gmap=small_map(terrain={"0503": "sea"}))
    assert named(b, r.retreat_hexes(b, ["so-a-7"], SRC)) == {"0504": 0}


def test_6_static_units_and_turn_one_soviets_do_not_retreat() -> None:
    b = board(small_map(), {"so-opol-1": "0404"})
    assert r.retreat_hexes(b, ["so-opol-1"], SRC) == Illegal("6", "so-opol-1 is static and cannot retreat")
    assert r.retreat_hexes(pos(turn=1), ["so-a-7"], SRC) == Illegal("12.8", "Soviet units do not retreat on turn 1")


def test_6_1_advance_into_the_emptied_hex_whatever_the_zones() -> None:
    # so-a-8 on 0405 has a zone over 0404; the winners advance anyway
    b = board(small_map(), {"so-fort-1": "0404", "so-a-8": "0405", **WEST})
    assert zoc.in_enemy_zoc(b, H("0404"), "axis")
    assert r.check_advance(b, ["ge-ak-23", "ge-ak-1"], H("0404"), ["ge-ak-23", "ge-ak-1"]) == ("so-fort-1",)
    assert r.check_advance(b, ["ge-ak-23"], H("0404"), ["ge-ak-1"]) == \
        Illegal("6.1", "ge-ak-1 did not take part in the attack on 0404")
    held = pos()
    assert r.check_advance(held, ["ge-ak-23"], H("0404"), ["ge-ak-23"]) == \
        Illegal("6.1", "0404 still holds enemy units: only the winner of the hex advances")


def test_6_1_advance_within_the_stacking_limit() -> None:
    b = board(small_map(), {"ge-ak-23": "0303", "ge-ak-1": "0303", "ge-ak-26": "0303", "ge-ak-38": "0404"})
    # 0404 is already German (the defender was destroyed and a unit stands there): 2 + 6 > 6
    bad = r.check_advance(b, ["ge-ak-23", "ge-ak-1", "ge-ak-26"], H("0404"), ["ge-ak-23", "ge-ak-1", "ge-ak-26"])
    assert isinstance(bad, Illegal) and bad.case == "3"
    assert r.check_advance(b, ["ge-ak-23", "ge-ak-1"], H("0404"), ["ge-ak-23", "ge-ak-1"]) == ()


def test_6_the_second_step_as_a_retreat() -> None:
    # ge-ak-23 and ge-ak-1 (7) against so-a-7 (4): 3:2, +2 quality, 3:1; a 5 gives A1D2
    b = pos(**{"ge-ak-23": "0403", "ge-ak-1": "0303"})
    p = c.plan(b, ["ge-ak-23", "ge-ak-1"], H("0404"), "ge-ak-23", "so-a-7")
    o = c.resolve(b, p, [5])
    assert o.losses == Result(1, 2) and o.retreat_option
    assert r.losses_with_retreat(b, o, ["so-a-7"], H("0504"), SRC) == 1  # one step and the retreat
    assert r.losses_with_retreat(b, o, ["so-a-7"], H("0503"), SRC) == 2  # 0503 lies in ge-ak-23's zone
    z = pos(**{"ge-ak-23": "0403", "ge-ak-1": "0303", "ge-ak-26": "0604"})
    assert r.losses_with_retreat(z, o, ["so-a-7"], H("0504"), SRC) == 2  # ge-ak-26's zone: the step comes back
    one = c.resolve(b, p, [3])
    assert r.losses_with_retreat(b, one, ["so-a-7"], H("0504"), SRC) == \
        Illegal("6", "this result leaves the defender no retreat: it takes every step")
