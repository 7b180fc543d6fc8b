"""Replay and load, round 4 (issue 33): every write of a unit's status, hex, step or face is
noted (engine/units.py ``WRITES``), and the state hash and Kiev's placement rely on that to
skip the units nobody wrote.  Whatever is written, in whichever order with hashes and views in
between, both must give what a fresh computation gives."""

from __future__ import annotations

import json
import random

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.units import WRITES, UnitState
from kiev_tui.games.spi_kiev.common import View, placement


def fresh_text(game: Game) -> str:
    """The text the hash is of, as json writes it from the plain data (no reuse of anything)."""
    raw = game.state._raw()
    raw.pop("secrets", None)
    return json.dumps(raw, sort_keys=True, separators=(",", ":"))


def fresh_occupancy(game: Game) -> dict[Hex, list[str]]:
    occ: dict[Hex, list[str]] = {}
    for u in game.state.units.values():
        if u.status == "map" and u.hex is not None:
            occ.setdefault(Hex.parse(u.hex), []).append(u.id)
    return {h: sorted(ids) for h, ids in occ.items()}


def test_a_write_is_noted_by_the_units_id_and_a_copy_notes_nothing() -> None:
    u = UnitState("ge-x", "map", "0101")
    _, ids = WRITES.current
    n = len(ids)
    u.hex = "0202"
    u.step = 1
    u.markers = {"m"}  # markers are not noted: readers look at them themselves
    assert WRITES.current[1][n:] == ["ge-x", "ge-x"]
    twin = u.copied()
    assert WRITES.current[1][n:] == ["ge-x", "ge-x"]
    assert twin == u and twin.markers is not u.markers


def test_the_list_starts_again_under_a_new_generation() -> None:
    generation, ids = WRITES.current
    u = UnitState("ge-y")
    for _ in range(WRITES.MAX + 1):
        u.step = 0
    later, now = WRITES.current
    assert later == generation + 1
    assert now is not ids and 0 < len(now) <= WRITES.MAX


def test_hash_and_placement_follow_every_write() -> None:
    game = Game.new("spi_kiev/campaign", seed=3)
    rng = random.Random(7)
    units = list(game.state.units.values())
    hexes = [str(h) for h in game.scenario.map.hexes()][:400]
    for i in range(300):
        u = rng.choice(units)
        what = rng.randrange(6)
        if what == 0:
            u.hex = rng.choice(hexes)
        elif what == 1:
            u.status = rng.choice(["map", "map", "eliminated", "pending"])
        elif what == 2:
            u.step = rng.choice([0, 1, True, False])  # True writes "true": equal to 1, not the same text
        elif what == 3:
            u.face = rng.choice([None, "f1"])
        elif what == 4:
            u.markers.add("dug-in") if rng.random() < 0.5 else u.markers.clear()  # in place: not noted
        else:
            u.hex = u.hex  # a write of the same value
        if i % 3 == 0:
            assert game.state.canonical_json() == fresh_text(game), i
        if i % 4 == 0:
            occupancy = View(game).occupancy
            assert occupancy == fresh_occupancy(game), i
            assert list(occupancy) == list(fresh_occupancy(game)), i  # in the order a fresh count walks
    assert game.state.canonical_json() == fresh_text(game)
    assert placement(game, game.state).occupancy == fresh_occupancy(game)


def test_two_positions_hashed_by_turns_each_hash_their_own_units() -> None:
    game = Game.new("spi_kiev/campaign", seed=3)
    other = game.state.copy()
    first = next(iter(game.state.units))
    for n in range(5):
        game.state.units[first].step = n % 2
        other.units[first].step = 1 - n % 2
        assert game.state.canonical_json() == fresh_text(game)
        assert f'"{first}":{{"hex":' in other.canonical_json()
        assert json.loads(other.canonical_json())["units"][first]["step"] == 1 - n % 2
        assert json.loads(game.state.canonical_json())["units"][first]["step"] == n % 2
