"""The engine holds no game's vocabulary: sides, unit types, terrain and hex ids come from each game.

A throw-away game ("vocab": sides axis/allies, terrain rough, odd columns low) is registered for
these tests only; SPI Kiev's data still refuses its words.  The last tests read the engine's
source: no side or terrain name of Kiev and no rule case number may creep back in.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from kiev_tui.engine import registry
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game, Phase
from kiev_tui.engine.hexes import IDENTITY, Grid, Hex
from kiev_tui.engine.mapdata import load_map
from kiev_tui.engine.rules import Cases, Schema
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.engine.units import UnitState, load_units

ENGINE = Path(__file__).resolve().parents[1] / "kiev_tui" / "engine"
KIEV_DATA = Path(__file__).resolve().parents[1] / "data" / "spi_kiev"

SCHEMA = Schema(
    sides=("axis", "allies"),
    side_names={"axis": "Axis", "allies": "Allies"},
    unit_types={"axis": ("grenadier",), "allies": ("guards", "armour")},
    terrains=("open", "rough", "sea"),
    impassable_terrains=frozenset({"sea"}),
    settlements=("port",),
    hexside_features=("trail", "cliff"),
    impassable_hexsides=frozenset({"cliff"}),
    river_kinds=("wide", "narrow"),
    scenario_keys=("weather",),
    unit_keys=("elite",),
)


class VocabRules:
    """Just enough of a rule system to load data and referee whose turn it is."""

    id = "vocab"
    version = "1"
    schema = SCHEMA
    cases = Cases(game_over="T9.9", wrong_side="T1.1")

    def setup(self, game: Game) -> GameState:
        sc = game.scenario
        units = {uid: UnitState(uid) for uid in sc.catalog.units}
        for uid, h in sc.setup.items():
            units[uid].status, units[uid].hex = "map", sc.map.grid.id(h)
        return GameState(turn=1, player=sc.first_player, phase="move", units=units)

    def phase(self, game: Game) -> Phase:
        st = game.state
        return Phase(st.turn, "", st.phase, st.player, st.player, ("move",), over=st.over)

    def actor(self, game: Game) -> str:
        return game.state.player

    def check(self, game: Game, action: Any) -> None:
        return None

    def apply(self, game: Game, action: Any) -> None:
        # What an action sees of the engine's memo: whether it is applying, and an empty cache.
        game.memo["written while applying"] = True
        self.seen = (game.applying, dict(game.memo))


@pytest.fixture
def vocab() -> Iterator[VocabRules]:
    system = VocabRules()
    registry.register("vocab", system)
    yield system
    registry.unregister("vocab")


MAP = """
[map]
game = "vocab"
columns = 4
rows = 4
default_terrain = "open"
parity = "odd_low"

[hexes]
"0202" = { terrain = "rough", settlement = "port", name = "Tor" }
"0404" = { terrain = "sea" }

[hexsides]
trail = ["0101/0102"]
cliff = ["0303/0304"]

[[river]]
name = "Big"
kind = "wide"
hexsides = ["0201/0202"]

[[river]]
name = "Small"
kind = "narrow"
hexsides = ["0201/0202", "0302/0303"]

[areas.West]
side = "allies"
hexes = ["0101", "0102"]
"""

UNITS = """
[[unit]]
id = "ax-1"
side = "axis"
type = "grenadier"
designation = "1"
steps = [[4, 4]]
ma = 4
elite = true

[[unit]]
id = "al-1"
side = "allies"
type = "guards"
designation = "1"
steps = [[3, 3], [1, 1]]
ma = 5
"""

SCENARIO = """
[scenario]
id = "vocab/test"
game = "vocab"
title = "Test"
turns = 3
first_player = "axis"
weather = "fog"

[setup]
"ax-1" = "0303"
"al-1" = "0101"

[[reinforcement]]
side = "allies"
turn = 2
areas = ["West"]
units = []

[control]
allies = ["0202"]
"""


def write_game(tmp_path: Path, map_text: str = MAP, scenario_text: str = SCENARIO) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "map.toml").write_text(map_text)
    (tmp_path / "units.toml").write_text(UNITS)
    (tmp_path / "tables.toml").write_text("note = 'no tables'\n")
    (tmp_path / "scenarios").mkdir()
    path = tmp_path / "scenarios" / "test.toml"
    path.write_text(scenario_text)
    return path


# -- a game with its own words ------------------------------------------------------------------

def test_a_map_of_another_game_loads_with_its_terrain_and_features(vocab: VocabRules, tmp_path: Path) -> None:
    write_game(tmp_path)
    gmap = load_map(tmp_path / "map.toml")
    g = gmap.grid
    tor = g.parse("0202")
    assert (gmap.terrain(tor), gmap.settlement(tor), gmap.name(tor)) == ("rough", "port", "Tor")
    assert gmap.terrain(g.parse("0101")) == "open"
    assert gmap.has(g.parse("0101"), g.parse("0102"), "trail")
    # The wider river governs a hexside both rivers share; the narrow one keeps its own.
    assert gmap.side_features(g.parse("0201"), tor) == frozenset({"wide_river"})
    assert gmap.side_features(g.parse("0302"), g.parse("0303")) == frozenset({"narrow_river"})
    # Impassable terrain and hexsides come from the schema.
    assert gmap.is_impassable(g.parse("0404")) and not gmap.is_impassable(tor)
    assert gmap.is_impassable_side(g.parse("0303"), g.parse("0304"))
    assert gmap.is_impassable_side(g.parse("0403"), g.parse("0404"))
    assert not gmap.is_impassable_side(g.parse("0302"), g.parse("0303"))
    assert gmap.areas["West"].side == "allies"


def test_units_of_another_game_load_with_their_sides_types_and_extra_keys(vocab: VocabRules, tmp_path: Path) -> None:
    write_game(tmp_path)
    catalog = load_units(tmp_path / "units.toml", vocab)
    assert (catalog.units["ax-1"].side, catalog.units["ax-1"].type) == ("axis", "grenadier")
    assert dict(catalog.units["ax-1"].extra) == {"elite": True}
    assert dict(catalog.units["al-1"].extra) == {}
    assert catalog.extra == {}


def test_a_scenario_of_another_game_loads_and_plays_its_first_turn(vocab: VocabRules, tmp_path: Path) -> None:
    sc = load_scenario(write_game(tmp_path))
    g = sc.map.grid
    assert (sc.game, sc.first_player, sc.params["weather"]) == ("vocab", "axis", "fog")
    assert {u: g.id(h) for u, h in sc.setup.items()} == {"ax-1": "0303", "al-1": "0101"}
    assert {s: [g.id(h) for h in hs] for s, hs in sc.control.items()} == {"allies": ["0202"]}
    assert sc.reinforcements[0].side == "allies"
    assert sc.derived == {}
    game = Game(sc, seed=3)
    assert game.actor == "axis" and game.state.units["ax-1"].hex == "0303"


def test_the_referee_cites_the_games_own_cases(vocab: VocabRules, tmp_path: Path) -> None:
    game = Game(load_scenario(write_game(tmp_path)), seed=3)
    wrong = game.check(object(), side="allies")  # type: ignore[arg-type]
    assert (wrong.case, wrong.why) == ("T1.1", "it is the axis player's turn, not the allies player's")  # type: ignore[union-attr]
    game.state.over = True
    over = game.check(object(), side="axis")  # type: ignore[arg-type]
    assert (over.case, over.why) == ("T9.9", "the game is over")  # type: ignore[union-attr]


def test_memo_is_emptied_when_the_position_changes_and_never_kept_while_applying(vocab: VocabRules,
                                                                                 tmp_path: Path) -> None:
    game = Game(load_scenario(write_game(tmp_path)), seed=3)
    game.memo["answer"] = 42
    assert game.memo == {"answer": 42} and not game.applying
    game.touch()
    assert game.memo == {}
    game.memo["answer"] = 1
    game.apply(object(), side="axis")  # type: ignore[arg-type]
    assert vocab.seen == (True, {})
    assert game.memo == {} and not game.applying
    game.memo["after"] = 2
    game.undo()
    assert game.memo == {}


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('side = "allies"\nhexes', 'side = "axis2"\nhexes', "areas.West.side", "side must be axis or allies, not 'axis2'"),
    ('terrain = "rough"', 'terrain = "woods"', "hexes.0202.terrain",
     "unknown terrain 'woods' (expected one of open, rough, sea)"),
    ('"0404" = { terrain = "sea" }', '"0404" = { terrain = "sea", settlement = "port" }', "hexes.0404.settlement",
     "a sea hex cannot hold a port"),
    ('kind = "narrow"', 'kind = "major"', "river[1].kind", "river kind must be 'wide' or 'narrow', not 'major'"),
    ('trail = ["0101/0102"]', 'road = ["0101/0102"]', "hexsides.road", "unknown key (expected one of: cliff, trail)"),
])
def test_another_games_map_refuses_words_outside_its_schema(vocab: VocabRules, tmp_path: Path, old: str, new: str,
                                                            key: str, reason: str) -> None:
    assert old in MAP
    write_game(tmp_path, MAP.replace(old, new))
    with pytest.raises(DataError) as exc:
        load_map(tmp_path / "map.toml")
    assert (exc.value.file, exc.value.key, exc.value.reason) == (str(tmp_path / "map.toml"), key, reason)


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('first_player = "axis"', 'first_player = "german"', "scenario.first_player", "first_player must be axis or allies"),
    ('side = "allies"\nturn', 'side = "soviet"\nturn', "reinforcement[0].side", "side must be axis or allies"),
    ("[control]\nallies", "[control]\nsoviet", "control.soviet", "control is listed by side: axis or allies"),
    ('"ax-1" = "0303"', '"ax-1" = "0404"', "setup.ax-1", "hex 0404 is a sea: no unit can stand there"),
    ('weather = "fog"', 'mud_turns = [2]', "scenario.mud_turns", "unknown key (expected one of: first_phase, "
     "first_player, first_turn, game, id, map, note, tables, title, turns, units, weather)"),
])
def test_another_games_scenario_refuses_words_outside_its_schema(vocab: VocabRules, tmp_path: Path, old: str, new: str,
                                                                 key: str, reason: str) -> None:
    assert old in SCENARIO
    path = write_game(tmp_path, scenario_text=SCENARIO.replace(old, new))
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert (exc.value.file, exc.value.key, exc.value.reason) == (str(path), key, reason)


# -- Kiev's data keeps its own words --------------------------------------------------------------

def test_kiev_map_refuses_rough_terrain_naming_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "map.toml"
    path.write_text('[map]\ngame = "spi_kiev"\ncolumns = 5\nrows = 5\n\n[hexes]\n"0303" = { terrain = "rough" }\n')
    with pytest.raises(DataError) as exc:
        load_map(path)
    assert exc.value.line() == (f"{path}: hexes.0303.terrain: unknown terrain 'rough' "
                                "(expected one of clear, woods, swamp, lake)")


def test_kiev_units_refuse_an_axis_side_naming_file_and_key(tmp_path: Path) -> None:
    text = (KIEV_DATA / "units.toml").read_text()
    path = tmp_path / "units.toml"
    path.write_text(text.replace('side = "soviet"', 'side = "axis"', 1))
    with pytest.raises(DataError) as exc:
        load_units(path)
    assert exc.value.line() == f"{path}: unit[0].side: side must be german or soviet, not 'axis'"


def test_kiev_units_still_carry_the_untried_pool() -> None:
    from kiev_tui.games.spi_kiev.untried import pool

    catalog = load_units(KIEV_DATA / "units.toml")
    p = pool(catalog)
    assert sorted(p.types) == ["armor", "cavalry", "rifle"]
    assert p.draw_of == {}  # counter ids for draws are given by a scenario, not by units.toml
    sc = load_scenario("spi_kiev/campaign")
    drawn = pool(sc.catalog).draw_of
    assert drawn["so-t01-rifle-1"] == "rifle" and sc.catalog.units["so-t01-rifle-1"].type == "rifle"


# -- hex grids ------------------------------------------------------------------------------------

def ids(grid: Grid, hexes: Any) -> set[str]:
    return {grid.id(h) for h in hexes}


def test_odd_low_neighbours_differ_from_even_low_as_drawn(vocab: VocabRules, tmp_path: Path) -> None:
    # Drawn by hand.  Odd-low: column 1 sits half a hex below column 2, so 0202 (a high column)
    # touches 0101 and 0102 on its west; 0303 (a low column) touches 0203 and 0204.
    write_game(tmp_path)
    odd = load_map(tmp_path / "map.toml")
    g = odd.grid
    assert ids(g, odd.neighbours(g.parse("0202"))) == {"0201", "0203", "0101", "0102", "0301", "0302"}
    assert ids(g, odd.neighbours(g.parse("0303"))) == {"0302", "0304", "0203", "0204", "0403", "0404"}
    assert ids(g, odd.neighbours(g.parse("0101"))) == {"0102", "0201", "0202"}
    # Even-low (the default): 0202 is the low one, touching 0102/0103 and 0302/0303.
    write_even = tmp_path / "even"
    write_game(write_even, MAP.replace('parity = "odd_low"\n', ""))
    even = load_map(write_even / "map.toml")
    e = even.grid
    assert e == IDENTITY
    assert ids(e, even.neighbours(e.parse("0202"))) == {"0201", "0203", "0102", "0103", "0302", "0303"}
    assert ids(e, even.neighbours(e.parse("0303"))) == {"0302", "0304", "0202", "0203", "0402", "0403"}
    assert ids(e, even.neighbours(e.parse("0101"))) == {"0102", "0201"}
    # Same ids, same count of hexes, the edges where they belong.
    assert sorted(g.id(h) for h in odd.hexes()) == sorted(e.id(h) for h in even.hexes())
    assert odd.edges_of(g.parse("0101")) == {"north", "west"}
    assert odd.edges_of(g.parse("0404")) == {"south", "east"}
    # 0101 to 0404: three steps down-right then one south (odd-low), or two south (even-low).
    assert g.parse("0101").distance(g.parse("0404")) == 4 and e.parse("0101").distance(e.parse("0404")) == 5


def test_sheet_letter_ids_round_trip_and_keep_their_geometry() -> None:
    grid = Grid("odd_low", first_column=10, first_row=1, sheet="J")
    for text in ("J1001", "J3733", "J1099", "J9901"):
        assert grid.id(grid.parse(text)) == text
    # Column 10 is even, so high in an odd-low grid: J1102 (low) touches J1002, J1003, J1202, J1203.
    assert ids(grid, grid.parse("J1102").neighbours()) == {"J1101", "J1103", "J1002", "J1003", "J1202", "J1203"}
    assert ids(grid, grid.parse("J1002").neighbours()) == {"J1001", "J1003", "J0901", "J0902", "J1101", "J1102"}
    assert grid.side_id(grid.side("J1102/J1002")) == "J1002/J1102"
    with pytest.raises(ValueError, match=r"'3733' is not a hex id \(the sheet letter J then four digits CCRR, e.g. J1001\)"):
        grid.parse("3733")
    with pytest.raises(ValueError, match="J1001 and J1201 are not adjacent"):
        grid.side("J1001/J1201")


def test_a_kiev_map_id_round_trips_unchanged() -> None:
    sc = load_scenario("spi_kiev/campaign")
    grid = sc.map.grid
    assert grid.identity and grid.parse == Hex.parse
    for text in ("0101", "0319", "3433", "1729"):
        h = grid.parse(text)
        assert h == Hex.parse(text) and grid.id(h) == text == str(h)
    assert [grid.id(h) for h in sc.map.hexes()] == [str(h) for h in sc.map.hexes()]
    assert sc.map.extent() == "34 columns x 33 rows"


def test_an_off_map_id_in_an_odd_low_map_is_refused_naming_file_and_key(vocab: VocabRules, tmp_path: Path) -> None:
    path = write_game(tmp_path, scenario_text=SCENARIO.replace('"al-1" = "0101"', '"al-1" = "0105"'))
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == f"{path}: setup.al-1: hex 0105 is off the map (4 columns x 4 rows)"
    write_game(tmp_path / "m", MAP.replace('"0404" = { terrain = "sea" }', '"0500" = { terrain = "sea" }'))
    with pytest.raises(DataError) as exc:
        load_map(tmp_path / "m" / "map.toml")
    assert exc.value.line() == f"{tmp_path / 'm' / 'map.toml'}: hexes.0500: hex 0500 is off the map (4 columns x 4 rows)"


def test_a_sheet_map_names_its_own_id_form_in_errors(vocab: VocabRules, tmp_path: Path) -> None:
    sheet_map = (MAP.replace('parity = "odd_low"', 'parity = "odd_low"\nfirst_column = 10\nsheet = "J"')
                 .replace('"0202"', '"J1102"').replace('"0404" = { terrain = "sea" }', '"J1304" = { terrain = "sea" }')
                 .replace('["0101/0102"]', '["J1001/J1002"]').replace('["0303/0304"]', '["J1203/J1204"]')
                 .replace('["0201/0202"]', '["J1101/J1102"]').replace('["0201/0202", "0302/0303"]', '["J1101/J1102"]')
                 .replace('["0101", "0102"]', '["J1001", "J1002"]'))
    write_game(tmp_path, sheet_map)
    gmap = load_map(tmp_path / "map.toml")
    assert gmap.terrain(gmap.grid.parse("J1102")) == "rough"
    assert gmap.extent() == "sheet J, columns 10-13 x rows 01-04"
    assert sorted(gmap.grid.id(h) for h in gmap.hexes())[:2] == ["J1001", "J1002"]
    for bad, reason in (('"J0905"', "hex J0905 is off the map (sheet J, columns 10-13 x rows 01-04)"),
                        ('"1102"', "'1102' is not a hex id (the sheet letter J then four digits CCRR, e.g. J1001)")):
        write_game(tmp_path / bad.strip('"'), sheet_map.replace('"J1102"', bad))
        with pytest.raises(DataError) as exc:
            load_map(tmp_path / bad.strip('"') / "map.toml")
        assert (exc.value.key, exc.value.reason) == (f"hexes.{bad.strip(chr(34))}", reason)


@pytest.mark.parametrize(("line", "key", "reason"), [
    ('parity = "odd_high"', "map.parity", "must be even_low or odd_low, not 'odd_high'"),
    ('first_column = 97', "map.first_column",
     "numbering from 97, the last of 4 would be 100: ids have two digits each for column and row"),
    ('sheet = "jj"', "map.sheet", "a map-sheet letter is one capital letter A-Z, not 'jj'"),
])
def test_grid_keys_are_checked(vocab: VocabRules, tmp_path: Path, line: str, key: str, reason: str) -> None:
    write_game(tmp_path, MAP.replace('parity = "odd_low"', line))
    with pytest.raises(DataError) as exc:
        load_map(tmp_path / "map.toml")
    assert (exc.value.key, exc.value.reason) == (key, reason)


# -- the engine's own source ----------------------------------------------------------------------

def engine_lines() -> Iterator[tuple[str, int, str]]:
    for path in sorted(ENGINE.glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            yield path.name, n, line


def test_no_engine_file_names_a_side_or_terrain_of_kiev() -> None:
    words = re.compile(r"soviet|german|lake|swamp|woods", re.IGNORECASE)
    assert [f"{f}:{n}: {line.strip()}" for f, n, line in engine_lines() if words.search(line)] == []


def test_no_engine_file_cites_a_rule_case() -> None:
    # A case number is two numbers joined by a dot ("4.1", "24.0"); version strings and
    # decimals the engine needs are listed here by file and text.
    allowed = {("mapdata.py", "8.0")}
    found = [f"{f}:{n}: {line.strip()}" for f, n, line in engine_lines()
             for m in re.finditer(r"(?<![\w.])\d+\.\d+(?![\w.])", line) if (f, m.group()) not in allowed]
    assert found == []


def test_only_registry_lines_of_the_engine_name_a_game_package() -> None:
    assert [f"{f}:{n}" for f, n, line in engine_lines() if "spi_kiev" in line] == []
    assert [f"{f}:{n}" for f, n, line in engine_lines() if "kiev_tui.games." in line] == []

