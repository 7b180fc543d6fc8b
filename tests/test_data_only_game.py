"""A game with data but no rules yet: validated and drawn, refused for play in one line.

Barbarossa 1941 is such a game until its rule system exists; these tests use a registration
of Tiny's vocabularies alone, so they hold whatever that game's data becomes.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterator

import pytest
from typer.testing import CliRunner

from kiev_tui.engine import registry
from kiev_tui.cli import app
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.scenario import load_scenario
from tests.tiny_game import DUEL, SCHEMA, TINY_DIR


@dataclasses.dataclass
class TinyData:
    """Tiny's vocabularies with one extra scenario table and one extra reinforcement key."""

    id: str = "tiny"
    schema: object = dataclasses.replace(SCHEMA, scenario_tables=("choices",), reinforcement_keys=("anywhere",))


@pytest.fixture
def data_only() -> Iterator[TinyData]:
    data = TinyData()
    registry.register_data("tiny", data)
    try:
        yield data
    finally:
        registry.unregister("tiny")


def _copy(tmp_path: Path, extra: str) -> Path:
    folder = tmp_path / "tiny"
    (folder / "scenarios").mkdir(parents=True)
    for name in ("map.toml", "units.toml", "tables.toml"):
        (folder / name).write_text((TINY_DIR / name).read_text())
    path = folder / "scenarios" / "duel.toml"
    path.write_text(DUEL.read_text() + extra)
    return path


def test_a_data_only_game_has_a_schema_but_no_rule_system(data_only: TinyData) -> None:
    assert registry.known("tiny") and not registry.playable("tiny")
    assert registry.get_schema("tiny").sides == ("axis", "allies")
    assert registry.get_data("tiny") is data_only
    with pytest.raises(ValueError, match="^game 'tiny' has its data but no rule system yet"):
        registry.get_system("tiny")


def test_its_scenario_loads_with_the_games_own_tables(data_only: TinyData, tmp_path: Path) -> None:
    path = _copy(tmp_path, '\n[choices]\n"ax-1" = ["0202", "0102"]\n\n'
                           '[[reinforcement]]\nside = "allies"\nturn = 2\nhexes = ["0605"]\nanywhere = "town"\n')
    sc = load_scenario(path)
    assert sc.extra == {"choices": {"ax-1": ["0202", "0102"]}}
    (r,) = sc.reinforcements
    assert (r.areas, [sc.map.grid.id(h) for h in r.hexes], dict(r.extra)) == ((), ["0605"], {"anywhere": "town"})


def test_a_table_the_game_does_not_read_is_refused(data_only: TinyData, tmp_path: Path) -> None:
    path = _copy(tmp_path, '\n[choice]\n"ax-1" = ["0202"]\n')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert "choice" in exc.value.line()


def test_a_reinforcement_hex_off_the_map_names_its_key(data_only: TinyData, tmp_path: Path) -> None:
    path = _copy(tmp_path, '\n[[reinforcement]]\nside = "allies"\nturn = 2\nhexes = ["0999"]\n')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.key == "reinforcement[0].hexes[0]"


def test_new_game_is_refused_in_one_line(data_only: TinyData) -> None:
    with pytest.raises(DataError) as exc:
        Game.new(DUEL)
    assert exc.value.key == "scenario.game"
    assert "no rule system yet" in exc.value.reason
    result = CliRunner().invoke(app, ["new", str(DUEL), "--no-ui"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith(f"error: {DUEL}: scenario.game: game 'tiny' has its data")


def test_validate_and_map_work_without_rules(data_only: TinyData) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["validate", str(TINY_DIR)])
    assert result.exit_code == 0, result.output
    drawn = runner.invoke(app, ["map", "--scenario", str(DUEL), "--units"])
    assert drawn.exit_code == 0, drawn.output
    assert "Legend:" in drawn.output


def test_the_largest_settlement_kind_is_drawn_in_capitals(data_only: TinyData) -> None:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.mapdata import GameMap
    from kiev_tui.textmap import render
    from kiev_tui.ui.adapter import map_rows
    from kiev_tui.ui.glyphs import ASCII

    gmap = GameMap("tiny", 4, 4, settlement_of={Hex(1, 1): "major_city", Hex(3, 3): "minor_city"},
                   name_of={Hex(1, 1): "Moscow", Hex(3, 3): "Orel"}, settlement_kinds=("major_city", "minor_city"))
    text = render(gmap)
    assert "MOSC" in text and "orel" in text
    rows = dict((meaning, glyph) for glyph, meaning in map_rows(gmap, ASCII))
    assert rows["a major city (name in capitals, shortened to 4 letters)"] == "MOSC"
    assert rows["a minor city (name in small letters, shortened to 4 letters)"] == "orel"
    single = GameMap("tiny", 4, 4, settlement_of={Hex(1, 1): "town"}, name_of={Hex(1, 1): "Dorf"},
                     settlement_kinds=("town",))
    assert "dorf" in render(single)  # one kind only: nothing is the large one


def test_the_victory_table_is_checked_by_the_games_hook(tmp_path: Path) -> None:
    """check_victory is a method of the game's data (a hook, like validate_tables), called with a
    reader of the [victory] table; the engine's Schema holds no callable."""
    seen: list[dict] = []

    @dataclasses.dataclass
    class Judged(TinyData):
        def check_victory(self, reader: object, catalog: object, hex_on_map: object) -> None:
            seen.append(dict(reader.data))  # type: ignore[attr-defined]
            if "towns" in reader.data:  # type: ignore[attr-defined]
                raise reader.fail("towns", "not a key of this game's victory")  # type: ignore[attr-defined]

    registry.register_data("tiny", Judged())
    try:
        assert load_scenario(_copy(tmp_path / "a", "\n[victory]\nmargin = 2\n")).victory == {"margin": 2}
        with pytest.raises(DataError) as exc:
            load_scenario(_copy(tmp_path / "b", "\n[victory]\ntowns = 3\n"))
    finally:
        registry.unregister("tiny")
    assert exc.value.line().endswith("victory.towns: not a key of this game's victory")
    assert seen == [{"margin": 2}, {"towns": 3}]
    assert "check_victory" not in {f.name for f in dataclasses.fields(SCHEMA)}
