"""A second game in the same process as Kiev: the engine, saves and CLI serve any registered game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.engine import registry
from kiev_tui.cli import app
from kiev_tui.engine.actions import EndPhase, action_from_toml
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.games.spi_kiev.actions import ACTIONS as KIEV_ACTIONS
from kiev_tui.games.spi_kiev.actions import Move as KievMove
from tests.conftest import MINI
from tests.tiny_game import ACTIONS as TINY_ACTIONS
from tests.tiny_game import SYSTEM as TINY
from tests.tiny_game import TINY_DIR, Marched, TinyMove, TinyVars, tiny, tiny_data  # noqa: F401

runner = CliRunner()


def test_registered_tiny_is_found_by_name_and_by_its_scenario(tiny: Path) -> None:
    assert registry.get_system("tiny") is TINY
    assert registry.get_adapter("tiny") is None
    game = Game.new(tiny, seed=3)
    assert game.rules is TINY
    assert game.scenario.game == "tiny"
    assert game.state.player == "axis"
    assert isinstance(game.state.vars, TinyVars)
    assert game.phase.phases == ("movement",)
    assert TINY.actable(game) == ["ax-1", "ax-2"]


def test_unregistered_tiny_is_refused_naming_the_game() -> None:
    registry.unregister("tiny")
    with pytest.raises(DataError, match="no rule system for game 'tiny'"):
        Game.new(TINY_DIR / "scenarios" / "duel.toml", seed=1)


def test_rough_terrain_costs_two_movement_points(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    grid = game.scenario.map.grid
    assert game.scenario.map.terrain(grid.parse("0302")) == "rough"
    events = game.apply(TinyMove(("ax-1",), ("0302",)))
    assert [e.describe() for e in events] == ["ax-1 march 0302 (2 MP)"]
    assert game.state.units["ax-1"].hex == "0302"
    # clear 1 + rough 2 + rough 2 is 5 MP: over the 3 MP an infantry has
    illegal = game.check(TinyMove(("ax-2",), ("0202", "0302", "0303")))
    assert illegal is not None
    assert (illegal.case, illegal.why) == ("T2.4", "the path costs 5 MP, more than the 3 MP the units have")
    reach = game.reachable(("ax-2",))
    assert reach[grid.parse("0302")].cost == 3.0  # a clear hex (1) then the rough one (2)
    assert reach[grid.parse("0302")].path in (("0202", "0302"), ("0203", "0302"))
    assert reach[grid.parse("0202")].cost == 1.0  # a friendly unit's hex is passed and entered
    assert not reach[grid.parse("0403")].ok and reach[grid.parse("0403")].case == "T2.4"


def test_odd_low_neighbours_differ_from_even_low(tiny: Path, tmp_path: Path) -> None:
    game = Game.new(tiny, seed=1)
    grid = game.scenario.map.grid
    reach = game.reachable(("ax-1",))  # from 0202, an even column that stands high
    assert reach[grid.parse("0101")].cost == 1.0 and reach[grid.parse("0101")].path == ("0101",)
    assert reach[grid.parse("0103")].cost == 2.0
    assert game.check(TinyMove(("ax-1",), ("0101",))) is None
    # the same map numbered even-low: 0103 is the neighbour, 0101 is two hexes away
    copy = tmp_path / "tiny"
    shutil.copytree(TINY_DIR, copy)
    text = (copy / "map.toml").read_text()
    (copy / "map.toml").write_text(text.replace('parity = "odd_low"', 'parity = "even_low"'))
    even = Game.new(copy / "scenarios" / "duel.toml", seed=1)
    eg = even.scenario.map.grid
    far = even.reachable(("ax-1",))
    assert far[eg.parse("0101")].cost == 2.0
    assert far[eg.parse("0103")].cost == 1.0 and far[eg.parse("0103")].path == ("0103",)
    refused = even.check(TinyMove(("ax-1",), ("0101",)))
    assert refused is not None and refused.case == "T2.1"


def test_wrong_side_is_refused_with_tinys_own_case(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    wrong = game.check(TinyMove(("al-1",), ("0503",)), side="allies")
    assert wrong is not None and wrong.case == "T1"
    own = game.check(TinyMove(("al-1",), ("0503",)))
    assert own is not None
    assert (own.case, own.why) == ("T2.1", "al-1 is not a unit of the Axis player")
    game.apply(TinyMove(("ax-1",), ("0201",)))
    again = game.check(TinyMove(("ax-1",), ("0202",)))
    assert again is not None and again.case == "T2.2"
    assert TINY.actable(game) == ["ax-2"]


def _play_duel(game: Game) -> None:
    game.apply(TinyMove(("ax-1",), ("0301",)))  # takes Northby
    game.apply(EndPhase())
    game.apply(TinyMove(("al-1",), ("0503", "0403")), side="allies")
    game.apply(EndPhase(), side="allies")
    game.apply(TinyMove(("ax-2",), ("0202",)))
    game.apply(EndPhase())
    game.apply(EndPhase())


def test_a_whole_duel_ends_with_towns_counted(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    _play_duel(game)
    assert game.state.over
    score = TINY.score(game)
    assert dict(score.points) == {"axis": 1, "allies": 1}
    assert score.lines == ("Axis holds 1 town(s)", "Allies holds 1 town(s)")
    assert score.winner == ""
    assert game.state.vars.final == {"axis": 1, "allies": 1}
    assert game.journal[-1].describe() == "Game over: no victory. Axis holds 1 town(s); Allies holds 1 town(s)"
    over = game.check(TinyMove(("ax-2",), ("0203",)))
    assert over is not None and over.case == "T3"


def test_a_save_of_tiny_replays_exactly(tiny: Path, tmp_path: Path) -> None:
    game = Game.new(tiny, seed=9)
    _play_duel(game)
    path = save_game(game, tmp_path / "duel.toml")
    data = load_toml(path)
    assert data["save"]["rules"] == "tiny"
    assert data["action"][0]["kind"] == "move"
    assert data["action"][0]["path"] == ["0301"]
    back = load_game(path)
    assert back.rules is TINY
    assert back.log == game.log
    assert back.hashes == game.hashes
    assert back.state_hash() == game.state_hash()
    assert back.state.control == {"0301": "axis", "0404": "allies"}


def test_kiev_and_tiny_play_side_by_side(tiny: Path, tmp_path: Path) -> None:
    kiev = Game.new(MINI, seed=7)
    little = Game.new(tiny, seed=7)
    kiev.apply(KievMove(("so-rifle-1",), ("0704",)))
    little.apply(TinyMove(("ax-1",), ("0302",)))
    assert kiev.rules.actions is KIEV_ACTIONS and little.rules.actions is TINY_ACTIONS
    # one TOML table, two games: each registry builds its own move
    table = {"kind": "move", "units": ["u"], "path": ["0101"]}
    assert type(action_from_toml(table, registry=KIEV_ACTIONS)) is KievMove
    assert type(action_from_toml(table, registry=TINY_ACTIONS)) is TinyMove
    with pytest.raises(DataError, match="unknown key for action 'move'"):
        action_from_toml({**table, "relieve": "x"}, registry=TINY_ACTIONS)
    for g, name in ((kiev, "kiev.toml"), (little, "tiny.toml")):
        back = load_game(save_game(g, tmp_path / name))
        assert back.log == g.log and back.state_hash() == g.state_hash()
    assert isinstance(little.journal[-1], Marched)


def test_cli_new_state_replay_and_script_play_tiny(tiny_data: Path, tmp_path: Path) -> None:
    save = tmp_path / "t.toml"
    result = runner.invoke(app, ["new", "tiny/duel", "--seed", "4", "--save", str(save), "--no-ui"])
    assert result.exit_code == 0, result.output
    assert result.output == f"saved {save}\n"
    assert load_toml(save)["save"]["scenario"] == "tiny/duel"
    script = tmp_path / "moves.toml"
    script.write_text('[[action]]\nkind = "move"\nunits = ["ax-1"]\npath = ["0302", "0303"]\n'
                      '[[action]]\nkind = "move"\nunits = ["ax-1"]\npath = ["0302"]\n'
                      '[[action]]\nkind = "end_phase"\n')
    out = tmp_path / "after.toml"
    result = runner.invoke(app, ["script", "tiny/duel", str(script), "--save", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "[1] move: REFUSED [T2.4] the path costs 4 MP, more than the 3 MP the units have",
        "[2] ax-1 march 0302 (2 MP)",
        "[3] Turn 1: axis movement phase ends",
        "[3] The allies player now has the move",
        "[3] Turn 1: allies movement phase begins",
    ]
    result = runner.invoke(app, ["replay", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{out}: 2 actions replayed")
    result = runner.invoke(app, ["state", str(out)])
    assert result.exit_code == 0, result.output
    assert "Tiny duel\nTurn 1, allies movement" in result.output
    assert runner.invoke(app, ["validate", str(TINY_DIR)]).output == f"{TINY_DIR}: ok\n"


def test_cli_map_selfplay_and_scenario_arguments_for_tiny(tiny_data: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["map", "--scenario", "tiny/duel", "--units"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("AX1") == 2 and result.stdout.count("AL1") == 2  # two stacks a side
    result = runner.invoke(app, ["selfplay", "--scenario", "tiny/duel"])
    assert result.exit_code == 2
    assert result.stderr == "error: the game 'tiny' has no bot to play it\n"
    result = runner.invoke(app, ["new", "tiny/duel", "--scenario", "spi_kiev/campaign", "--no-ui"])
    assert result.exit_code == 2
    assert result.stderr == "error: two scenarios named ('tiny/duel' and 'spi_kiev/campaign'): give one\n"


def test_the_cli_imports_no_games_module() -> None:
    import ast

    import kiev_tui.cli as cli

    tree = ast.parse(Path(cli.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert sorted(m for m in imported if m.startswith("kiev_tui.games.")) == []  # no games/<game>/
    assert sorted(m for m in imported if m == "kiev_tui.games") == []  # nor the list of shipped games
    assert "registry" in [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                          and n.module == "kiev_tui.engine" for a in n.names]  # the registry is the one way in


def test_validate_checks_tiny_tables_with_tinys_own_hook(tiny: Path, tmp_path: Path) -> None:
    copy = tmp_path / "tiny"
    shutil.copytree(TINY_DIR, copy)
    (copy / "tables.toml").write_text("[terrain]\nclear = 1\nrough = 0\n")
    result = runner.invoke(app, ["validate", str(copy)])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    tables = copy / "tables.toml"
    why = "terrain.rough: a movement cost is a whole number >= 1"
    # the two scenarios (dig, duel) that cannot start from those tables (check_scenario), then the tables file
    assert lines == [f"error: {tables.resolve()}: {why}"] * 2 + [f"error: {tables}: {why}"]


def test_cli_play_takes_the_scenario_as_an_argument(tiny_data: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    result = runner.invoke(app, ["play", "tiny/duel", "--no-resume", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\nTiny duel\nTurn 1, axis movement\n")
    assert result.stdout.count("AX1") == 2
