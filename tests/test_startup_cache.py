"""Game.new from the parse cache is the same game as without it; only data files are cached, and a
file broken after a clean parse is still refused in the same words (issue 19)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from kiev_tui.engine import tomlio
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.mapdata import GameMap, load_map
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.registry import default_scenario

from tests.conftest import FIXTURES, MINI


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A fresh cache folder, and the names of the files the TOML parser really reads."""
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    seen: list[str] = []
    real = tomlio._parse

    def counting(p: Path, raw: bytes) -> dict[str, Any]:
        seen.append(p.name)
        return real(p, raw)

    monkeypatch.setattr(tomlio, "_parse", counting)
    return seen


def _tables(gmap: GameMap) -> dict[str, Any]:
    """Everything a map holds and derives, in comparable form."""
    return {"adj": gmap._adj, "pair": gmap._pair, "blocked": gmap._blocked, "blocked_sides": gmap._blocked_sides,
            "features": gmap.features, "terrain": gmap.terrain_of, "settlements": gmap.settlement_of,
            "names": gmap.name_of, "rivers": gmap.rivers, "areas": gmap.areas, "lines": gmap.lines,
            "exits": (gmap.road_exits, gmap.rail_exits), "grid": gmap.grid, "hexes": gmap.hexes()}


@pytest.mark.parametrize("scenario", [default_scenario(), str(MINI)])
def test_a_game_from_the_cache_is_the_game_without_it(scenario: str, parses: list[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = Game.new(scenario, seed=3)  # parses, and fills the cache
    assert sorted(parses) == sorted([Path(scenario).name if scenario.endswith(".toml") else "campaign.toml",
                                     "map.toml", "units.toml", "tables.toml"])
    parses.clear()
    cached = Game.new(scenario, seed=3)
    assert parses == []  # not one data file parsed again
    monkeypatch.setenv("KIEV_TUI_CACHE", "off")
    plain = Game.new(scenario, seed=3)
    assert len(parses) == 4
    for game in (first, cached):
        assert game.state.to_dict() == plain.state.to_dict()
        assert game.state_hash() == plain.state_hash()
        assert _tables(game.scenario.map) == _tables(plain.scenario.map)
        assert game.scenario.catalog == plain.scenario.catalog
        assert game.scenario.tables == plain.scenario.tables
        assert (game.scenario.setup, game.scenario.reinforcements, game.scenario.control, game.scenario.victory) == \
            (plain.scenario.setup, plain.scenario.reinforcements, plain.scenario.control, plain.scenario.victory)


def test_saves_never_enter_the_cache(parses: list[str], tmp_path: Path) -> None:
    game = Game.new(MINI, seed=3)
    path = save_game(game, tmp_path / "one.toml")
    entries = sorted((tmp_path / "cache").iterdir())
    parses.clear()
    load_game(path)
    load_game(path)
    assert parses.count("one.toml") == 2  # parsed each time
    assert sorted((tmp_path / "cache").iterdir()) == entries


def test_a_map_broken_after_a_clean_parse_is_refused_as_before(parses: list[str], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", folder)
    good = folder / "map.toml"
    text = good.read_text()
    load_map(good)  # cached now
    broken = text.replace("[map]", "[map\n", 1)
    good.write_text(broken)
    with pytest.raises(DataError) as with_cache:
        load_map(good)
    monkeypatch.setenv("KIEV_TUI_CACHE", "off")
    with pytest.raises(DataError) as without:
        load_map(good)
    assert with_cache.value.line() == without.value.line()
    assert with_cache.value.key == "(syntax)"
    good.write_text(text)  # back as it was: the entry of the clean bytes serves again
    parses.clear()
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    assert _tables(load_map(good)) == _tables(load_map(FIXTURES / "mini" / "map.toml"))
    assert parses == []


#: The axial steps (dq, dr) of the six directions, clockwise from north.
STEPS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def test_neighbours_and_distance_are_the_axial_steps() -> None:
    hexes = [Hex(c, r) for c in range(-2, 40) for r in range(-2, 40)]
    for h in hexes:
        q, r = h.axial
        assert [h.step(d) for d in Direction] == [Hex.from_axial(q + dq, r + dr) for dq, dr in STEPS]
        assert all(type(h.step(d)) is Hex for d in Direction)
        assert h.neighbours() == [h.step(d) for d in Direction]
        assert all(type(n) is Hex for n in h.neighbours())
    for a in hexes[::7]:
        for b in hexes[::5]:
            (q1, r1), (q2, r2) = a.axial, b.axial
            assert a.distance(b) == (abs(q1 - q2) + abs(r1 - r2) + abs(q1 - q2 + r1 - r2)) // 2


def test_a_map_shares_its_hexes_and_its_sets_of_features() -> None:
    gmap = Game.new(MINI, seed=1).scenario.map
    own = {id(h) for h in gmap._hexes}
    assert all(id(n) in own for ns in gmap._adj.values() for n in ns)
    kinds = {fs for fs in gmap.features.values()}
    assert len({id(fs) for fs in gmap.features.values()}) == len(kinds)


def test_entries_of_another_version_of_the_checks_are_never_read(parses: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    Game.new(MINI, seed=3)
    parses.clear()
    monkeypatch.setattr(tomlio, "PARSE_VERSION", tomlio.PARSE_VERSION + 1)
    Game.new(MINI, seed=3)
    assert sorted(parses) == ["map.toml", "mini.toml", "tables.toml", "units.toml"]
