"""Replay and load, round 4 (issue 33): command reach as bit sets and the hexes lines avoid
kept per placement must answer exactly as the breadth-first search and a fresh count did, on
every kind of position a whole campaign of the random bot meets."""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine import registry
from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.common import SOVIET, GERMAN, View, enemy_of
from kiev_tui.games.spi_kiev.supply import Supply, closed_bits, closed_to, loc_bits, supply_bits


def fresh_closed(view: View, side: str) -> frozenset[Hex]:
    """closed_to worked out from scratch (no memo)."""
    friend = {h for h, ids in view.occupancy.items() if view.side(ids[0]) == side}
    foe = {h for h, ids in view.occupancy.items() if view.side(ids[0]) != side}
    return frozenset((view.zoc_blocking[enemy_of(side)] | foe) - friend)


def hexes_of(bits: int, index: dict[Hex, int]) -> set[Hex]:
    return {h for h, i in index.items() if bits >> i & 1}


def check_position(game: Game) -> int:
    """Compare both ways of answering on this position; the number of HQs compared."""
    view = View(game)
    for side in (GERMAN, SOVIET):
        assert closed_to(view, side) == fresh_closed(view, side)
        assert closed_bits(view, side) == supply_bits(game.scenario.map).bits(fresh_closed(view, side))
    bits_way = Supply(View(game))
    bfs_way = Supply(View(game))
    index = loc_bits(game.scenario.map).index
    for hq in bits_way.soviet_hqs:
        assert hexes_of(bits_way._loc_bits_all[hq], index) == set(bfs_way._loc_reach(hq)), hq
    asked = {Hex.parse(u.hex) for u in game.state.on_map() if u.hex} | set(list(game.scenario.map.hexes())[::7])
    for h in asked:
        assert bits_way.command_at(h) == bfs_way.command.get(h, []), h
    return len(bits_way.soviet_hqs)


@pytest.mark.parametrize("seed", [52, 8])
def test_command_reach_and_closed_hexes_match_the_search_over_a_campaign(seed: int) -> None:
    seen: dict[str, Any] = {"positions": 0, "hqs": 0}

    def every(game: Game, _act: Action) -> None:
        seen["positions"] += 1
        if seen["positions"] % 9 == 0:
            seen["hqs"] += check_position(game)

    registry.get_bot("spi_kiev").play_game("spi_kiev/campaign", seed=seed, on_action=every)
    assert seen["positions"] > 400
    assert seen["hqs"] > 100



def test_the_bit_set_flood_enters_a_swamp_but_does_not_pass_through_it() -> None:
    # 12.11: a line may end in a swamp hex but not go on from it (supply.flood_bits, used by
    # Supply and by the pocket part; deleting its swamp stop had left every other test passing)
    import copy

    from kiev_tui.games.spi_kiev.supply import flood_bits

    g = supply_bits(Game.new("spi_kiev/campaign", seed=1).scenario.map)
    dry = copy.copy(g)
    dry.swamp = 0  # the same map with its swamps taken as open ground
    everything = g.bits(set(g.index))
    for s in sorted((h for h in g.index if g.swamp >> g.index[h] & 1), key=str):
        near = sorted((n for n in g.index if n.distance(s) == 1 and not g.swamp >> g.index[n] & 1), key=str)
        for src in near:
            for beyond in (n for n in near if n.distance(src) > 1):
                closed = everything & ~g.bits({src, s, beyond})  # the only way on is through s
                if hexes_of(flood_bits(dry, g.bits({src}), closed, ()), g.index) != {src, s, beyond}:
                    continue  # a river or the map edge in the way: not a line through s
                assert hexes_of(flood_bits(g, g.bits({src}), closed, ()), g.index) == {src, s}
                return
    raise AssertionError("no swamp hex with a line in and out of it on the campaign map")
