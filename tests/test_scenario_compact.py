"""Issue 33, round 7: the ready-built scenario holds less at the first frame.

Every table of the map names the map's own hex and hexside objects (one object a hex), the map's
``features`` is left out of its pickle and made again from the two-way table of hexsides when
first read, and the unit catalogue shares equal strings, steps and factor tables.  The answers
are those of a scenario built without the cache, for every hex and hexside of the map.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex, Hexside
from kiev_tui.engine.mapdata import GameMap, River, _features_from
from kiev_tui.engine.registry import default_scenario
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.spi_kiev.untried import pool

from tests.conftest import MINI


@pytest.fixture
def ready_and_plain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Scenario, Scenario]:
    """The default scenario read back ready-built from a fresh cache, and built without the cache."""
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    load_scenario(default_scenario())  # builds it and fills the cache
    ready = load_scenario(default_scenario())
    monkeypatch.setenv("KIEV_TUI_CACHE", "off")
    return ready, load_scenario(default_scenario())


def test_the_ready_built_map_answers_as_the_map_built_afresh(ready_and_plain: tuple[Scenario, Scenario]) -> None:
    ready, plain = ready_and_plain
    got, want = ready.map, plain.map
    assert [k for k in ("features", "rivers", "lines") if k in vars(got)] == []  # not read yet: not made
    assert got.hexes() == want.hexes() and len(got.hexes()) == 1122
    for h in want.hexes():
        assert (got.terrain(h), got.settlement(h), got.name(h), got.is_impassable(h)) == \
            (want.terrain(h), want.settlement(h), want.name(h), want.is_impassable(h))
        assert got.neighbours(h) == want.neighbours(h)
        for n in want.neighbours(h):
            assert got.side_features(h, n) == want.side_features(h, n)
            assert got.is_impassable_side(h, n) == want.is_impassable_side(h, n)
    # made when first read: the same hexsides, in the same order, with the same features
    assert list(got.features.items()) == list(want.features.items())
    assert len(got.features) == 730
    assert "features" in vars(got)
    assert got.road_hexes() == want.road_hexes() and got.rail_hexes() == want.rail_hexes()
    assert (got.rivers, got.areas, got.lines, got.road_exits, got.rail_exits) == \
        (want.rivers, want.areas, want.lines, want.road_exits, want.rail_exits)
    assert list(got.rivers) == list(want.rivers) and len(got.rivers) == 14
    assert [list(ln) for ln in got.lines.values()] == [list(ln) for ln in want.lines.values()]
    assert "_chains" not in vars(got)
    # one object a hexside among the rivers and lines made again
    made = [s for r in got.rivers.values() for s in r.hexsides] + [s for ln in got.lines.values() for s in ln]
    assert len({id(s) for s in made}) == len(set(made))


def test_every_table_names_the_maps_own_hexes(ready_and_plain: tuple[Scenario, Scenario]) -> None:
    for sc in ready_and_plain:
        gmap = sc.map
        own = {id(h) for h in gmap.hexes()}
        named = [*gmap.terrain_of, *gmap.settlement_of, *gmap.name_of, *gmap.road_exits, *gmap.rail_exits,
                 *(h for a in gmap.areas.values() for h in a.hexes), *(h for pair in gmap._pair for h in pair),
                 *sc.setup.values(), *(h for hs in sc.control.values() for h in hs),
                 *(h for r in sc.reinforcements for h in r.hexes)]
        assert len(named) > 3000
        assert [h for h in named if id(h) not in own] == []
        on_rivers = [s for r in gmap.rivers.values() for s in r.hexsides] + [s for ln in gmap.lines.values() for s in ln]
        assert len(on_rivers) == 514
        assert [s for s in on_rivers if id(s.a) not in own or id(s.b) not in own] == []
    # built afresh, a hexside of a river or a line is the object that keys the map's features
    plain = ready_and_plain[1].map
    keys = {id(s) for s in plain.features}
    assert [s for r in plain.rivers.values() for s in r.hexsides if id(s) not in keys] == []
    assert [s for ln in plain.lines.values() for s in ln if id(s) not in keys] == []


def test_own_hex_is_the_maps_object_or_the_hex_itself_off_the_map() -> None:
    gmap = GameMap("g", 3, 2)
    h = Hex(2, 2)
    assert gmap.own_hex(Hex(2, 2)) is gmap.hexes()[3]
    assert gmap.own_hex(h) == h
    off = Hex(4, 1)
    assert gmap.own_hex(off) is off
    assert gmap.own_hex(Hex(0, 1)) == Hex(0, 1) and gmap.own_hex(Hex(1, 3)) == Hex(1, 3)


def test_a_pickled_map_makes_its_features_again_when_first_read() -> None:
    gmap = Game.new(MINI, seed=1).scenario.map
    want = list(gmap.features.items())
    back = pickle.loads(pickle.dumps(gmap))
    assert "features" not in vars(back)
    assert list(back.features.items()) == want
    assert back.features is back.features  # made once
    with pytest.raises(AttributeError):
        object.__new__(GameMap).features  # noqa: B018  (a map not made yet has no two-way table)
    # read through the class, not through a ``__getattr__`` that would slow every attribute read
    assert "__getattr__" not in vars(GameMap)


def test_features_written_around_the_two_way_table_are_kept_in_the_pickle() -> None:
    gmap = Game.new(MINI, seed=1).scenario.map
    side = next(iter(gmap.features))
    gmap.features[side] = frozenset({"something"})  # not through set_side_features: _pair differs
    back = pickle.loads(pickle.dumps(gmap))
    assert back.features[side] == frozenset({"something"})
    assert "features" in vars(back)


def test_features_from_the_two_way_table_keep_the_order_written() -> None:
    a, b, c = Hex(2, 2), Hex(2, 1), Hex(3, 2)
    road, river = frozenset({"road"}), frozenset({"minor_river"})
    gmap = GameMap("g", 4, 4, features={Hexside(a, b): road, Hexside(a, c): river})
    gmap.set_side_features(c, Hex(3, 3), road)  # written after: last
    got = _features_from(gmap._pair)
    assert list(got.items()) == [(Hexside(b, a), road), (Hexside(a, c), river), (Hexside(c, Hex(3, 3)), road)]
    assert list(got.items()) == list(gmap.features.items())


def test_the_catalogue_shares_equal_strings_steps_and_factors(ready_and_plain: tuple[Scenario, Scenario]) -> None:
    ready, plain = ready_and_plain
    assert ready.catalog == plain.catalog
    for catalog in (ready.catalog, plain.catalog):
        drawn = pool(catalog).draw_of  # the game's placeholders for drawn counters (13.1) aside
        units = [u for uid, u in catalog.units.items() if uid not in drawn]
        assert len(units) == 190 - 54
        for field in ("side", "type", "size", "designation", "division", "note", "steps", "factors"):
            values = [getattr(u, field) for u in units]
            assert len({id(v) for v in values}) == len({v if field != "factors" else tuple(v.items())
                                                        for v in values}), field
        assert len({id(u.factors) for u in units}) == 19
        assert len({id(v) for u in units for v in u.factors.values()}) == len(
            {v for u in units for v in u.factors.values()})


@dataclass(frozen=True, slots=True)
class Wide(River):
    """A game's own kind of river."""

    width: int = 2


def test_rivers_and_lines_that_text_cannot_hold_stay_in_the_pickle_as_they_are() -> None:
    side = Hexside(Hex(1, 1), Hex(1, 2))
    off_row = Hexside(Hex(1, 2), Hex(1, 3))  # the map has two rows: 0103 is off it
    off_col = Hexside(Hex(2, 2), Hex(3, 2))  # and two columns: 0302 is off it
    maps = [GameMap("g", 2, 2, lines={"l": frozenset({off_row})}),
            GameMap("g", 2, 2, rivers={"r": River("r", "major", (off_col,))}),
            GameMap("g", 2, 2, rivers={"r": Wide("r", "major", (side,))}),
            GameMap("g", 2, 2, rivers={"x": River("r", "major", (side,))})]
    for gmap in maps:
        state = gmap.__getstate__()
        assert "_chains" not in state and state["rivers"] is gmap.rivers and state["lines"] is gmap.lines
        back = pickle.loads(pickle.dumps(gmap))
        assert back.rivers == gmap.rivers and back.lines == gmap.lines
    plain = GameMap("g", 2, 2, rivers={"r": River("r", "major", (side,))}, lines={"l": frozenset({side})})
    assert plain.__getstate__()["_chains"] == ((("r", "major", "\x00\x01"),), (("l", "\x00\x01"),))


def test_a_pickled_map_makes_its_rivers_and_lines_again_when_first_read() -> None:
    gmap = Game.new(MINI, seed=1).scenario.map
    rivers, lines = dict(gmap.rivers), dict(gmap.lines)
    assert rivers  # the mini map has rivers
    back = pickle.loads(pickle.dumps(gmap))
    assert "rivers" not in vars(back) and "lines" not in vars(back) and "_chains" in vars(back)
    assert back.lines == lines and back.rivers == rivers
    assert "_chains" not in vars(back) and back.rivers is back.rivers
    again = pickle.loads(pickle.dumps(back))  # a map read from a pickle pickles the same way
    assert again.rivers == rivers and again.lines == lines and again.features == gmap.features
