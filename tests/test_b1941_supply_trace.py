"""Barbarossa 1941, how a supply line is traced (8): the trace that stops at the first hex of the
net, the hexes each position keeps as blocked, and the same answers as the whole reach.

The positions stand on test_b1941_supply's Soviet line: a railway along row 1 from 0101 to the
east-edge exit 0901, Moscow on 0501, all of it USSR.
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941 import supply as s
from kiev_tui.games.barbarossa1941.board import INFANTRY, Board
from kiev_tui.games.barbarossa1941.schema import SOVIET
from tests.b41_rules_helpers import H, board
from tests.test_b1941_supply import soviet_line

REACH = "b41.supply.reach"


def net(b: Board) -> frozenset:  # type: ignore[type-arg]
    return s.supply(b).nets[SOVIET]


def test_8_trace_stops_at_the_first_hex_of_the_net() -> None:
    b = board(soviet_line(), {"so-a-7": "0504"})
    # three hexes up to row 1 with 3 MP: found, and the partial trace is not kept as a reach
    assert s.traces_to(b, H("0504"), SOVIET, INFANTRY, 3, net(b)) is True
    assert (REACH, H("0504"), SOVIET, INFANTRY, 3) not in b.memo
    assert s._reach(b, H("0504"), SOVIET, INFANTRY, 3)[H("0501")] == 3


def test_8_a_trace_that_finds_no_net_keeps_its_whole_reach() -> None:
    b = board(soviet_line(), {})  # no unit there: supply() itself traces nothing from 0505
    assert s.traces_to(b, H("0505"), SOVIET, INFANTRY, 3, net(b)) is False  # four hexes from row 1
    kept = b.memo[(REACH, H("0505"), SOVIET, INFANTRY, 3)]
    fresh = board(soviet_line(), {})
    assert kept == s._reach(fresh, H("0505"), SOVIET, INFANTRY, 3)
    assert (len(kept), kept[H("0502")], kept[H("0505")]) == (34, 3, 0)  # every hex within 3 MP
    assert H("0501") not in kept


def test_8_blocked_hexes_are_enemy_units_and_zones_no_friendly_unit_cancels() -> None:
    b = board(soviet_line(), {"so-a-7": "0504", "so-a-8": "0503", "ge-ak-23": "0603"})
    blocked = s._blocked(b, SOVIET)
    # 8: the enemy unit's hex; 4: its zone (0502, 0503, 0602, 0604, 0702, 0703) but 0503, where a
    # friendly unit cancels it for supply
    assert blocked == {H(x) for x in ("0502", "0602", "0603", "0604", "0702", "0703")}
    assert blocked == frozenset(h for h in b.gmap.hexes() if not s._passable(b, h, SOVIET))


def test_8_early_stop_gives_the_whole_reach_answer_for_every_start() -> None:
    # every hex of the line as a start, with 1 to 4 MP: stopping early never changes the answer
    gmap = soviet_line()
    place = {"so-a-7": "0504", "so-a-8": "0503", "ge-ak-23": "0603"}
    got, want = [], []
    for h in sorted(gmap.hexes()):
        for mp in (1, 2, 3, 4):
            b, whole = board(gmap, place), board(gmap, place)
            got.append(s.traces_to(b, h, SOVIET, INFANTRY, mp, net(b)))
            want.append(any(x in net(whole) for x in s._reach(whole, h, SOVIET, INFANTRY, mp)))
    assert got == want
    assert (sum(want), len(want)) == (116, 252)  # 63 hexes, 4 MP each; 116 starts reach the net
