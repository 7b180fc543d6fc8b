"""Loading a save fast (issue 19) without checking less or replaying into anything else.

The shortcuts replay takes (the state's hash text built from reused parts, supply floods on bit
sets, zones and occupancy shared by every view of one placement of the units) are each compared
here with the plain computation they replace, on every position of whole random games.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any, Callable

import pytest

from kiev_tui.engine import registry
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.state import GameState, PlainVars
from kiev_tui.engine.units import UnitState
from kiev_tui.engine.tomlio import dump_toml, load_toml
from kiev_tui.games.spi_kiev import common, supply
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View, enemy_of, zoc_reach

CAMPAIGN = "spi_kiev/campaign"


def bot_game(seed: int, max_actions: int, on_action: Callable[[Game], None] | None = None) -> Game:
    """A game of Kiev's random player, stopped after ``max_actions`` actions (or at its end)."""
    holder: dict[str, Game] = {}

    def keep(game: Game, _act: Any) -> None:
        holder["game"] = game
        if on_action is not None:
            on_action(game)

    registry.get_bot("spi_kiev").play_game(CAMPAIGN, seed=seed, max_actions=max_actions, on_action=keep)
    return holder["game"]


def plain_text(state: GameState) -> str:
    return json.dumps(state._raw(), sort_keys=True, separators=(",", ":"))


# -- the state's hash -----------------------------------------------------------------------

def test_the_hashed_text_is_json_of_the_state_after_every_action() -> None:
    seen = []

    def compare(game: Game) -> None:
        assert game.state.canonical_json() == plain_text(game.state)
        seen.append(game.hashes[-1])

    game = bot_game(3, 160, compare)
    assert len(seen) >= 160 and len(set(seen)) > 100  # positions, not one position again and again
    assert game.state_hash() == game.hashes[-1]


def _units(**fields: Any) -> dict[str, UnitState]:
    return {"a": UnitState("a", "map", "0101", 1), "b": UnitState("b", **fields)}


def test_a_step_of_true_is_not_mistaken_for_a_step_of_one() -> None:
    one = GameState(1, "german", "movement", units=_units(status="map", hex="0202", step=1))
    true = GameState(1, "german", "movement", units=_units(status="map", hex="0202", step=True))
    assert one.canonical_json() == plain_text(one)  # the text of step 1 is now known
    assert '"step":true' in true.canonical_json()
    assert true.canonical_json() == plain_text(true)
    assert true.hash() != one.hash()


def test_equal_values_of_other_types_are_not_mistaken_for_each_other() -> None:
    # A hand-edited snapshot may hold numbers where text belongs: 1 and 1.0 are equal, not the same text.
    for marked in (set(), {"m"}):
        texts = []
        for odd in (1, 1.0, True):
            state = GameState(1, "german", "movement", units=_units(status="map", hex=odd, markers=set(marked)))
            assert state.canonical_json() == plain_text(state)
            texts.append(state.canonical_json())
        assert len(set(texts)) == 3


def test_markers_and_values_no_game_writes_give_the_plain_text() -> None:
    marked = GameState(1, "german", "movement", units=_units(status="map", hex="0202", markers={"z", "y"}))
    assert marked.canonical_json() == plain_text(marked)
    odd = GameState(1, "german", "movement", units=_units(status=["map"], hex={"x": 1}), prompts=[{"k": [1, 2]}])
    assert odd.canonical_json() == plain_text(odd)  # unhashable values: told, never cached
    assert '"pending":{"k":[1,2]}' in odd.canonical_json()


def test_a_large_table_of_numbers_is_not_mistaken_for_an_equal_table_of_flags() -> None:
    ones = {f"u{i:02d}": 1 for i in range(20)}
    first = GameState(1, "german", "movement", vars=PlainVars({"start_hex": dict(ones)}))
    flags = GameState(1, "german", "movement", vars=PlainVars({"start_hex": {k: True for k in ones}}))
    assert first.canonical_json() == plain_text(first)
    assert flags.canonical_json() == plain_text(flags)
    assert '"u00":true' in flags.canonical_json()
    ids = {f"u{i:02d}": f"{i:04d}" for i in range(20)}
    kept = GameState(1, "german", "movement", vars=PlainVars({"start_hex": dict(ids)}))
    assert kept.canonical_json() == plain_text(kept)
    kept.vars.data["start_hex"]["u07"] = None  # changed in place: the text follows the table, not its identity
    assert kept.canonical_json() == plain_text(kept)
    assert '"u07":null' in kept.canonical_json()


def test_the_control_text_follows_the_table_not_its_identity() -> None:
    # Round 5 (issue 33): the control table's text is reused while the table is equal to the last.
    state = GameState(1, "german", "movement", control={"0101": "german", "0202": "soviet"})
    assert state.canonical_json() == plain_text(state)
    state.control["0202"] = "german"  # changed in place
    assert '"control":{"0101":"german","0202":"german"}' in state.canonical_json()
    other = GameState(1, "german", "movement", control={"0101": "german", "0202": "german"})
    assert other.canonical_json() == plain_text(other)
    # Values no game writes: 1 and True are equal, their texts are not.
    for odd in (1, True, 1.0):
        hand = GameState(1, "german", "movement", control={"0101": odd})  # type: ignore[dict-item]
        assert hand.canonical_json() == plain_text(hand)
    assert '"control":{"0101":true}' in GameState(1, "german", "movement", control={"0101": True}).canonical_json()  # type: ignore[dict-item]


# -- supply, command, zones and occupancy -----------------------------------------------------

def reference_flood(view: View, side: str) -> dict[Hex, Hex | None]:
    """Lines of supply as a breadth-first search, hex by hex (the code the bit sets replaced)."""
    links = supply.supply_links(view.map)
    blocking = view.zoc_blocking[enemy_of(side)]
    swamp = supply.swamp_hexes(view.map)
    parent: dict[Hex, Hex | None] = {}

    def open_hex(n: Hex) -> bool:
        ids = view.occupancy.get(n)
        if ids:
            return view.side(ids[0]) == side
        return n not in blocking

    q: deque[Hex] = deque()
    for src in supply.supply_sources(view, side):
        parent[src] = None
        q.append(src)
    while q:
        h = q.popleft()
        if h in swamp and parent[h] is not None:
            continue
        for n, city_only in links[h]:
            if n in parent:
                continue
            if city_only is not None and view.state.control.get(city_only[0]) != side \
                    and view.state.control.get(city_only[1]) != side:
                continue
            if open_hex(n):
                parent[n] = h
                q.append(n)
    return parent


def reference_command(view: View, hq: str) -> dict[Hex, int]:
    start = view.hex_of(hq)
    if start is None:
        return {}
    radius = view.udef(hq).leadership
    dist = {start: 0}
    q: deque[Hex] = deque([start])
    while q:
        h = q.popleft()
        if dist[h] >= radius:
            continue
        for n in view.map.neighbours(h):
            if n in dist or view.map.is_impassable_side(h, n) or view.map.terrain(n) == "lake":
                continue
            if view.occupied_by(n, GERMAN) or view.enemy_controlled_for_tracing(n, SOVIET):
                continue
            dist[n] = dist[h] + 1
            q.append(n)
    return dist


def reference_zones(view: View, include_hq: bool) -> dict[str, frozenset[Hex]]:
    reach = zoc_reach(view.map)
    out: dict[str, set[Hex]] = {GERMAN: set(), SOVIET: set()}
    for u in view.state.units.values():
        if u.status != "map" or u.hex is None:
            continue
        h = Hex.parse(u.hex)
        ids = sorted(x.id for x in view.state.units.values() if x.status == "map" and x.hex == u.hex)
        if not include_hq and all(view.is_hq_like(x) for x in ids):
            continue
        out[view.side(ids[0])].update(reach[h])
    return {side: frozenset(hexes) for side, hexes in out.items()}


def test_floods_command_zones_and_occupancy_match_the_plain_computations(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = {"floods": 0, "hqs": 0, "views": 0}
    made = supply.SupplyMap.__init__
    reach = supply.Supply._loc_reach

    def flood(self: supply.SupplyMap, view: View, side: str) -> None:
        made(self, view, side)
        tree = reference_flood(view, side)
        assert {h for h in view.map.hexes() if self.reaches(h)} == set(tree)
        assert self.parent == tree  # the lines drawn follow the same tree as before
        checked["floods"] += 1

    def command(self: supply.Supply, hq: str) -> dict[Hex, int]:
        got = reach(self, hq)
        assert got == reference_command(self.view, hq)
        checked["hqs"] += 1
        return got

    bits_of = supply.Supply._loc_bits

    def command_bits(self: supply.Supply, hq: str) -> int:
        # issue 33, round 4: a phase start asks the HQs' reach as bit sets, not _loc_reach
        # (round 5: one HQ at a time, only those near enough to the hex asked about)
        bits = bits_of(self, hq)
        index = supply.loc_bits(self.view.map).index
        assert {h for h, i in index.items() if bits >> i & 1} == set(reference_command(self.view, hq))
        checked["hqs"] += 1
        return bits

    def views(game: Game) -> None:
        view = View(game)
        occupancy: dict[Hex, list[str]] = {}
        for u in game.state.units.values():
            if u.status == "map" and u.hex is not None:
                occupancy.setdefault(Hex.parse(u.hex), []).append(u.id)
        assert view.occupancy == {h: sorted(ids) for h, ids in occupancy.items()}
        assert list(view.occupancy) == list(occupancy)  # in the same order, for whoever walks it
        assert view.zoc_movement == reference_zones(view, True)
        assert view.zoc_blocking == reference_zones(view, False)
        checked["views"] += 1

    monkeypatch.setattr(supply.SupplyMap, "__init__", flood)
    monkeypatch.setattr(supply.Supply, "_loc_reach", command)
    monkeypatch.setattr(supply.Supply, "_loc_bits", command_bits)
    bot_game(5, 130, views)
    assert checked["views"] >= 130 and checked["floods"] > 10 and checked["hqs"] > 20


def test_a_view_after_a_hand_edit_sees_the_units_where_they_now_stand() -> None:
    game = Game.new(CAMPAIGN, seed=2)
    uid, u = next((k, u) for k, u in game.state.units.items() if u.status == "map")
    start = Hex.parse(u.hex or "")
    assert uid in View(game).at(start)
    empty = [h for h in sorted(game.scenario.map.hexes()) if h not in View(game).occupancy]
    for h in empty[:common.PLACEMENTS_KEPT + 3]:
        u.hex = str(h)  # by hand, as editors and tests do: the view still sees it
        game.touch()
        view = View(game)
        assert view.at(h) == [uid] and uid not in view.at(start)
        assert view.zoc_movement == reference_zones(view, True)
    # Many placements met: only the last few are kept.
    assert len(game.position_cache["placements"]) == common.PLACEMENTS_KEPT


# -- loading gives the game that was played -----------------------------------------------------

@pytest.mark.parametrize("seed,actions", [(11, 150), (12, 260)])
def test_a_loaded_game_is_the_live_game(seed: int, actions: int, tmp_path: Path) -> None:
    live = bot_game(seed, actions)
    back = load_game(save_game(live, tmp_path / "g.toml"))
    assert back.state.to_dict() == live.state.to_dict()
    assert back.hashes == live.hashes and len(back.hashes) >= actions
    assert [e.describe() for e in back.journal] == [e.describe() for e in live.journal]
    assert back.rolled == live.rolled and back.setup_rolled == live.setup_rolled and back.rolls == live.rolls
    assert [a.to_toml() for a in back.log] == [a.to_toml() for a in live.log] and back.sides == live.sides
    assert back.phase == live.phase


def test_an_intermediate_hash_edited_alone_is_refused_naming_its_action(tmp_path: Path) -> None:
    path = save_game(bot_game(13, 90), tmp_path / "g.toml")
    data = load_toml(path)
    k = 40
    kind = data["action"][k]["kind"]
    data["action"][k]["hash"] = "0" * 16  # the final hash and snapshot are left as they were
    path.write_text(dump_toml(data))
    with pytest.raises(DataError) as exc:
        load_game(path)
    assert exc.value.key == f"action {k + 1}"  # counted from 1, as people count (issue 35)
    assert exc.value.reason == f"the replay diverges at this {kind} action: the position differs from the one saved"


def test_undo_after_loading_takes_back_only_what_was_played_since(tmp_path: Path) -> None:
    game = Game.new(CAMPAIGN, seed=4)
    uid, reach = next((u, game.reachable([u])) for u in game.rules.actable(game)
                      if any(r.ok for r in game.reachable([u]).values()))
    goal = next(h for h, r in sorted(reach.items()) if r.ok)
    back = load_game(save_game(game, tmp_path / "g.toml"))
    assert not back.can_undo and not back.undo()  # nothing was played since the load
    loaded = back.state_hash()
    back.apply(Move((uid,), reach[goal].path))
    assert back.can_undo and back.undo()
    assert back.state_hash() == loaded and back.hashes == game.hashes and not back.log


def test_an_unbridged_crossing_carries_supply_only_beside_a_friendly_city() -> None:
    from tests.conftest import MINI, position

    game = position(Game.new(MINI, seed=7), {"ge-inf-1": "0604", "so-rifle-1": "0605", "so-rifle-2": "0607"},
                    player="german", turn=2)
    # Both bridges end in Soviet hexes: 0604 is reached over the river from Testgrad (0505) or not at all.
    for holder, reached in ((GERMAN, True), (SOVIET, False)):
        game.state.control["0505"] = holder
        game.touch()
        view = View(game)
        line = supply.SupplyMap(view, GERMAN)
        assert line.reaches(Hex.parse("0604")) is reached
        assert {h for h in view.map.hexes() if line.reaches(h)} == set(reference_flood(view, GERMAN))
