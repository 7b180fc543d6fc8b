"""Map symbols come from the game (issue 14): the generic face and the text map draw each game's
terrain and hexsides with the symbols its adapter hands over, or symbols made from its schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.style import Style
from typer.testing import CliRunner

from kiev_tui.cli import app as cli_app
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex, Hexside
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.rules import Schema
from kiev_tui.engine.registry import get_adapter, get_system
from kiev_tui.textmap import legend as text_legend
from kiev_tui.textmap import render
from kiev_tui.ui.adapter import DefaultAdapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import TextScreen
from kiev_tui.ui.glyphs import (ASCII, BARRIER, RIVER, UNICODE, WAY, Fill, MapSymbols, SideMark, map_legend,
                                symbols_for, symbols_from_schema)
from kiev_tui.ui.hexmap import COMPACT, HexMap, MapPainter

from tests.tiny_game import SCHEMA as TINY_SCHEMA
from tests.tiny_game import tiny, tiny_data  # noqa: F401  (fixtures: Tiny registered, its data found)
from tests.ui.helpers import keys, screen_text

ROUGH = ("0302", "0303", "0403")  # Tiny's rough hexes (tests/fixtures/tiny/map.toml)
GREEN = Style(color="green")


def _inside(painter: MapPainter, h: Hex) -> list[tuple[str, Style]]:
    """The four cells inside a hex on the painter's full-zoom rows."""
    x, y = painter.origin(h)
    return painter.row(y + 1)[x + 1:x + 5]


# -- Tiny: its rough hexes are filled ------------------------------------------------------------

def test_tiny_gets_symbols_from_its_schema() -> None:
    sym = symbols_from_schema(TINY_SCHEMA)
    assert sym.fills == {"rough": Fill("^", "^", "green", "rough")}  # clear, listed first, stays plain
    assert sym.sides == {}


async def test_tiny_rough_hexes_are_filled_on_the_games_map(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    gmap = game.scenario.map
    app = build_app(game)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        painter = app.screen.query_one(HexMap).painter
        for hex_id in ROUGH:
            assert _inside(painter, gmap.grid.parse(hex_id)) == [("^", GREEN)] * 4, hex_id
        assert _inside(painter, gmap.grid.parse("0502")) == [(ch, Style(dim=True)) for ch in "0502"]  # clear
        assert screen_text(app).count("^^^^") == 3
        await keys(pilot, "L")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Legend"
        assert "  ^^^^     rough" in app.screen.body.splitlines()


def test_tiny_legend_names_rough_and_no_kiev_terrain(tiny: Path) -> None:  # noqa: F811
    game = Game.new(tiny, seed=3)
    rows = DefaultAdapter().legend(game, ASCII)
    assert ("^^^^", "rough") in rows
    assert not any(word in meaning for _, meaning in rows for word in ("woods", "swamp", "lake", "river"))
    assert text_legend(game.scenario.map) == [
        ("/0101\\", "a hex and its number: column 01, row 01"),
        ("^^^^", "rough"),
        ("AX3 / AL2", "Axis / Allies stack and its size (kiev-tui map --units)"),
    ]


def test_tiny_rough_hexes_are_filled_in_kiev_tui_map(tiny_data: Path) -> None:  # noqa: F811
    result = CliRunner().invoke(cli_app, ["map", "--scenario", "tiny/duel", "--ids"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    gmap = Game.new(tiny_data, seed=1).scenario.map
    c0 = gmap.grid.first_internal_column
    for hex_id in ROUGH + ("0502",):
        h = gmap.grid.parse(hex_id)
        x, y = 5 * (h.col - c0), 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0)
        assert lines[y + 1][x:x + 6] == ("/0502\\" if hex_id == "0502" else "/^^^^\\"), hex_id
    assert "  ^^^^     rough" in lines
    assert "woods" not in result.stdout


# -- a schema with rivers, a barrier and ways ----------------------------------------------------

RIVERS = Schema(sides=("a", "b"), side_names={}, unit_types={}, terrains=("open", "hills", "marsh", "sea"),
                impassable_terrains=frozenset({"sea"}), hexside_features=("track", "wall", "canal"),
                impassable_hexsides=frozenset({"wall"}), river_kinds=("great", "small"))


def test_symbols_from_a_schema_with_two_river_kinds() -> None:
    sym = symbols_from_schema(RIVERS)
    assert sym.fills == {"hills": Fill("^", "^", "green", "hills"), "marsh": Fill(",", ",", "cyan", "marsh"),
                         "sea": Fill("%", "\u2591", "blue", "sea (impassable)")}  # water is never a river
    assert sym.sides == {
        "great_river": SideMark("=", "\u2248", "blue", RIVER, 0, "great river along a hexside"),
        "small_river": SideMark("~", "~", "bright_blue", RIVER, 1, "small river along a hexside"),
        "wall": SideMark("#", "#", "red", BARRIER, 2, "wall: a hexside no unit crosses"),
        "track": SideMark(".", "\u00b7", "yellow", WAY, 3, "track crossing a hexside"),
        "canal": SideMark("+", "\u253c", "magenta", WAY, 4, "canal crossing a hexside"),
    }
    assert DefaultAdapter().map_symbols(RIVERS) == sym


def _river_map() -> GameMap:
    h = Hex
    return GameMap("rivers", 3, 4, default_terrain="open", terrain_of={h(2, 2): "hills"}, features={
        Hexside(h(1, 1), h(1, 2)): frozenset({"great_river"}),
        Hexside(h(1, 2), h(1, 3)): frozenset({"small_river"}),
        Hexside(h(1, 3), h(1, 4)): frozenset({"great_river", "small_river", "track"}),
        Hexside(h(3, 1), h(3, 2)): frozenset({"track"}),
        Hexside(h(3, 2), h(3, 3)): frozenset({"track", "canal"}),
        Hexside(h(3, 3), h(3, 4)): frozenset({"wall", "track"}),
    })


def _south(painter: MapPainter, h: Hex) -> str:
    return "".join(ch for ch, _ in painter._bottom(h))


def test_the_first_river_kind_draws_with_the_major_glyph() -> None:
    gmap = _river_map()
    for glyphs, major in ((ASCII, "="), (UNICODE, "\u2248")):
        painter = MapPainter(gmap, glyphs, symbols=symbols_from_schema(RIVERS))
        assert _south(painter, Hex(1, 1)) == major * 4
        assert painter._bottom(Hex(1, 1))[0] == (major, Style(color="blue"))
        assert _south(painter, Hex(1, 2)) == "~~~~"
        assert _south(painter, Hex(1, 3)) == major * 4  # the larger river and a track: the river
        assert _south(painter, Hex(3, 3)) == "####"  # a wall before a track
        assert painter._bottom(Hex(3, 3))[0] == ("#", Style(color="red"))
    painter = MapPainter(gmap, ASCII, symbols=symbols_from_schema(RIVERS))
    assert _south(painter, Hex(3, 1)) == "_.._"  # a way crosses the border in its middle
    assert _south(painter, Hex(3, 2)) == "_.._"  # the track is listed before the canal
    assert "".join(ch for ch, _ in _inside(painter, Hex(2, 2))) == "^^^^"
    assert render(gmap, ids=True, symbols=painter.symbols) == painter.text()
    # compact zoom: the first-ranked river along any side and way across any side
    painter.zoom = COMPACT
    assert "".join(ch for ch, _ in painter._compact(Hex(1, 3), 1)) == "=. "
    assert "".join(ch for ch, _ in painter._compact(Hex(1, 2), 1)) == "=  "
    assert "".join(ch for ch, _ in painter._compact(Hex(3, 3), 1)) == " . "  # a wall is not summarised


def test_the_legend_of_a_symbol_set_lists_its_fills_and_marks() -> None:
    assert map_legend(UNICODE, symbols_from_schema(RIVERS), "J1001") == [
        ("/1001\\", "a hex and its number: column 10, row 01, map sheet J"),
        ("^^^^", "hills"), (",,,,", "marsh"), ("\u2591\u2591\u2591\u2591", "sea (impassable)"),
        ("\u2248", "great river along a hexside"), ("~", "small river along a hexside"),
        ("#", "wall: a hexside no unit crosses"), ("\u00b7", "track crossing a hexside"),
        ("\u253c", "canal crossing a hexside"),
    ]


def test_the_painter_works_out_each_set_of_hexside_features_once() -> None:
    calls: list[frozenset[str]] = []

    class Counting(MapSymbols):
        def mark(self, features: frozenset[str]) -> SideMark | None:
            calls.append(features)
            return super().mark(features)

    base = symbols_from_schema(RIVERS)
    painter = MapPainter(_river_map(), ASCII, symbols=Counting(base.fills, base.sides))
    for _ in range(3):
        painter.text()
        painter._side_cache.clear()
    assert sorted(map(sorted, calls)) == sorted(map(sorted, set(_river_map().features.values())))


def test_a_map_of_an_unknown_game_draws_plain() -> None:
    assert symbols_for("no_such_game") == MapSymbols()
    painter = MapPainter(_river_map(), ASCII)  # "rivers" is no registered game
    assert _south(painter, Hex(1, 1)) == "____"
    assert "".join(ch for ch, _ in _inside(painter, Hex(2, 2))) == "0202"


def test_a_hexside_mark_has_a_known_role() -> None:
    with pytest.raises(ValueError, match="river, barrier, way"):
        SideMark("=", "=", "blue", "moat", 0)


# -- SPI Kiev draws as it always has -------------------------------------------------------------

def test_kiev_symbols_are_its_own_and_unchanged() -> None:
    sym = get_adapter("spi_kiev").map_symbols(get_system("spi_kiev").schema)
    assert symbols_for("spi_kiev") is sym
    assert sym.fills["woods"] == Fill("^", "^", "green")
    assert sym.fills["swamp"] == Fill(",", ",", "cyan")
    assert sym.fills["lake"] == Fill("%", "\u2591", "blue", "lake (impassable)")  # issue 35: not a river's
    assert sym.sides["major_river"] == SideMark("=", "\u2248", "blue", RIVER, 0, "major river along a hexside")
    assert sym.sides["minor_river"] == SideMark("~", "~", "bright_blue", RIVER, 1, "minor river along a hexside")
    assert sym.sides["lake"] == SideMark("%", "\u2591", "blue", BARRIER, 2)
    assert sym.sides["railroad"] == SideMark("+", "\u253c", "magenta", WAY, 3, "railroad crossing a hexside")
    assert sym.sides["road"] == SideMark(".", "\u00b7", "yellow", WAY, 4, "road crossing a hexside")
    assert (sym.city, sym.town) == ("KIEV", "nezh")
    assert list(sym.fills) == ["woods", "swamp", "lake"]


def test_kiev_map_draws_each_terrain_and_feature_as_before() -> None:
    # the terrains on a small map of Kiev's (the campaign has no lake hex, only lake hexsides)
    cells = {Hex(1, 1): "woods", Hex(1, 2): "swamp", Hex(2, 1): "lake"}
    small = GameMap("spi_kiev", 2, 2, default_terrain="clear", terrain_of=cells)
    for h, (terrain, a, u, style) in zip(cells, (("woods", "^", "^", "green"), ("swamp", ",", ",", "cyan"),
                                                 ("lake", "%", "\u2591", "blue"))):
        assert MapPainter(small, ASCII)._plain_inside(h) == [(a, Style(color=style))] * 4, terrain
        assert MapPainter(small, UNICODE)._plain_inside(h) == [(u, Style(color=style))] * 4, terrain
        assert render(small).splitlines()[2 * (h.row - 1) + 1 + (h.col + 1) % 2][5 * (h.col - 1) + 1:][:4] == a * 4
    assert "".join(ch for ch, _ in MapPainter(small, ASCII)._plain_inside(Hex(2, 2))) == "0202"  # clear

    # each hexside feature, and the pairs where one is drawn before the other
    order = [({"major_river"}, "=", "\u2248", "blue"), ({"minor_river"}, "~", "~", "bright_blue"),
             ({"lake"}, "%", "\u2591", "blue"), ({"railroad"}, "+", "\u253c", "magenta"),
             ({"road"}, ".", "\u00b7", "yellow"), ({"railroad", "road"}, "+", "\u253c", "magenta"),
             ({"major_river", "road"}, "=", "\u2248", "blue"), ({"lake", "railroad"}, "%", "\u2591", "blue")]
    column = [(Hex(1, r), Hex(1, r + 1)) for r in range(1, len(order) + 1)]
    sides = GameMap("spi_kiev", 1, len(order) + 1, default_terrain="clear",
                    features={Hexside(a, b): frozenset(f) for (a, b), (f, *_) in zip(column, order)})
    ascii_, uni = MapPainter(sides, ASCII), MapPainter(sides, UNICODE)
    for (a, b), (features, ch, u, style) in zip(column, order):
        assert ascii_._feature(a, b, "/") == (ch, Style(color=style)), features
        assert uni._feature(a, b, "/") == (u, Style(color=style)), features
        assert _south(ascii_, a) == (f"_{ch * 2}_" if features <= {"road", "railroad"} else ch * 4), features


async def test_the_cursor_on_a_hex_number_is_one_style_run(tiny: Path) -> None:  # noqa: F811
    # the number inside takes the cursor's look alone: a cursor move then writes one style change
    game = Game.new(tiny, seed=3)
    gmap = game.scenario.map
    app = build_app(game)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        hexmap = app.screen.query_one(HexMap)
        painter = hexmap.painter
        h = gmap.grid.parse("0502")
        hexmap.set_cursor(h)
        await pilot.pause()
        x, y = painter.origin(h)
        cursor = Style(reverse=True, bold=True)
        border = Style(dim=True)  # the hexsides either side stay plain borders (issue 33: 8 cells a move)
        assert painter.row(y + 1)[x:x + 6] == [("/", border)] + [(ch, cursor) for ch in "0502"] + [("\\", border)]
        rough = gmap.grid.parse(ROUGH[0])
        hexmap.set_cursor(rough)
        await pilot.pause()
        x, y = painter.origin(rough)
        assert painter.row(y + 1)[x + 1:x + 5] == [("^", GREEN + cursor)] * 4  # a fill keeps its colour
        # compact zoom: the cursor's cells over anything dimmed take its look alone, too
        painter.zoom, painter.cursor = COMPACT, h
        x, y = painter.origin(h)
        cells = [(" ", Style())] * x + [("0", Style(dim=True)), ("5", GREEN), (" ", Style())] + [(" ", Style())] * 4
        painter._cursor_compact(y, cells)
        assert cells[x:x + 3] == [("0", cursor), ("5", GREEN + cursor), (" ", cursor)]
