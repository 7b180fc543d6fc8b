"""Replay and load, round 5 (issue 33): each shortcut of this round answers as the plain
computation it replaces, on every kind of position a campaign of the random bot meets."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kiev_tui.engine import registry, sequence
from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View, enemy_of, zoc_reach
from kiev_tui.games.spi_kiev.state import KievVars
from kiev_tui.games.spi_kiev.supply import loc_links, supply_sources

CAMPAIGN = "spi_kiev/campaign"


def plain_actor(game: Game) -> str:
    """Who acts now, worked out from scratch (no memo)."""
    st = game.state
    if st.pending is not None and st.pending.get("side"):
        return str(st.pending["side"])
    return sequence.current(game).owner


def plain_sources(view: View, side: str) -> list[Hex]:
    """supply_sources as it was written before round 5: every exit judged at every call."""
    gmap = view.map
    out: list[Hex] = []
    if side == GERMAN:
        area_n = gmap.areas.get("N")
        for h in sorted(gmap.road_exits):
            if not gmap.edges_of(h) & {"north", "west", "south"}:
                continue
            if area_n is not None and h in area_n.hexes:
                continue
            if view.occupied_by(h, SOVIET):
                continue
            out.append(h)
    else:
        areas = [gmap.areas[a] for a in ("K", "L", "M", "N") if a in gmap.areas]
        for h in sorted(gmap.road_exits | gmap.rail_exits):
            if not any(h in a.hexes for a in areas):
                continue
            if view.occupied_by(h, GERMAN) or view.enemy_controlled_for_tracing(h, SOVIET):
                continue
            out.append(h)
    return out


def test_the_actor_and_the_supply_sources_match_the_plain_answers_over_a_campaign() -> None:
    seen: dict[str, Any] = {"positions": 0, "actors": set(), "sources": 0}

    def every(game: Game, _act: Action) -> None:
        seen["positions"] += 1
        actor = game.rules.actor(game)
        assert actor == plain_actor(game)
        assert game.rules.actor(game) == actor  # asked again: the kept answer
        seen["actors"].add(actor)
        if seen["positions"] % 5 == 0:
            view = View(game)
            for side in (GERMAN, SOVIET):
                got = supply_sources(view, side)
                assert got == plain_sources(view, side)
                seen["sources"] += len(got)

    registry.get_bot("spi_kiev").play_game(CAMPAIGN, seed=52, on_action=every)
    assert seen["positions"] > 400
    assert seen["actors"] == {GERMAN, SOVIET}
    assert seen["sources"] > 300


def test_the_actor_follows_a_state_edited_by_hand_without_touch() -> None:
    game = Game.new(CAMPAIGN, seed=3)
    st = game.state
    first = game.rules.actor(game)
    assert first == plain_actor(game) == st.player
    other = SOVIET if first == GERMAN else GERMAN
    # The same state object, its fields changed in place (no touch): each field the step reads counts.
    st.player = other
    assert game.rules.actor(game) == plain_actor(game) == other
    st.phase = "combat"
    assert game.rules.actor(game) == plain_actor(game) == other
    st.player = first
    assert game.rules.actor(game) == plain_actor(game) == first
    st.turn = 2
    assert game.rules.actor(game) == plain_actor(game) == first
    st.pending = {"side": other, "kind": "retreat"}
    assert game.rules.actor(game) == other
    st.pending = {"kind": "retreat"}
    assert game.rules.actor(game) == first


def plain_zones(view: View, side: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """A side's zones for movement and for blocking, from scratch: every stack of the side
    controls the hexes zoc_reach gives its hex; a stack of HQs and leaders alone blocks none."""
    reach = zoc_reach(view.map)
    stacks: dict[str, list[str]] = {}
    for u in view.state.units.values():
        if u.status == "map" and u.hex is not None:
            stacks.setdefault(u.hex, []).append(u.id)
    moving: set[Hex] = set()
    blocking: set[Hex] = set()
    for hex_id, ids in stacks.items():
        if view.side(sorted(ids)[0]) != side:
            continue
        moving.update(reach[Hex.parse(hex_id)])
        if not all(view.is_hq_like(x) for x in ids):
            blocking.update(reach[Hex.parse(hex_id)])
    return frozenset(moving), frozenset(blocking)


@pytest.mark.parametrize("seed", [8, 52])
def test_zones_asked_now_and_then_match_a_fresh_count_over_a_campaign(seed: int) -> None:
    # Zones are worked out only when asked, from the last placement whose zones are known and
    # every change since: ask for one side's at random moments, so that changes pile up between.
    pick = random.Random(seed)
    seen = {"asked": 0, "positions": 0, "zones": set()}

    def every(game: Game, _act: Action) -> None:
        seen["positions"] += 1
        side = pick.choice([None, None, None, GERMAN, SOVIET])
        if side is None:
            return
        view = View(game)
        got = view.side_zones(side)
        assert got == plain_zones(view, side), seen["positions"]
        assert view.in_enemy_zoc(next(iter(got[0])), enemy_of(side)) if got[0] else True
        seen["asked"] += 1
        seen["zones"].add(got)

    registry.get_bot("spi_kiev").play_game(CAMPAIGN, seed=seed, on_action=every)
    assert seen["positions"] > 400 and seen["asked"] > 100
    assert len(seen["zones"]) > 50  # zones that changed, not the same ones again and again


def test_a_line_of_communications_steps_one_hex_at_a_time() -> None:
    # command_at skips an HQ farther away (as the crow flies) than its radius: sound only if
    # every link of a line of communications joins hexes at distance 1.
    gmap = Game.new(CAMPAIGN, seed=1).scenario.map
    links = loc_links(gmap)
    assert sum(len(near) for near in links.values()) > 5000
    assert all(h.distance(n) == 1 for h, near in links.items() for n in near)


def test_the_bookkeepings_hash_form_writes_as_its_saved_form_over_a_campaign() -> None:
    # KievVars.hash_dict shares the live lists (no copies) for the hash text: the same JSON.
    dump = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
    seen = {"positions": 0, "keys": set()}

    def every(game: Game, _act: Action) -> None:
        v = game.state.vars
        assert isinstance(v, KievVars)
        plain = v.to_dict()
        assert dump(v.hash_dict()) == dump(plain)
        assert game.state.canonical_json() == json.dumps(game.state._raw(), sort_keys=True, separators=(",", ":"))
        seen["positions"] += 1
        seen["keys"].update(plain)

    registry.get_bot("spi_kiev").play_game(CAMPAIGN, seed=8, on_action=every)
    assert seen["positions"] > 400
    assert {"battle", "sig", "mp", "moved", "start_hex", "final_score", "stop_case"} <= seen["keys"]
