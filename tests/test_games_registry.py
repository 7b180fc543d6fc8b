"""The games registry: listed games, games registered in memory, and games found by their package."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

from kiev_tui import games
from kiev_tui.engine import registry
from kiev_tui.engine.game import Game

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder searched as part of kiev_tui.games, so a package written there is a game package."""
    games.__path__.append(str(tmp_path))
    try:
        yield tmp_path
    finally:
        games.__path__.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("kiev_tui.games.found")]:
            del sys.modules[name]
        registry.unregister("found")


def test_a_game_package_is_found_without_being_listed(plugin_dir: Path) -> None:
    pkg = plugin_dir / "found"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    # The package's rule system is the tiny test game's, under another name.
    (pkg / "system.py").write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from tiny_game import SYSTEM\n")
    assert "found" not in registry.names()
    system = registry.get_system("found")
    assert system.schema.sides == ("axis", "allies")
    assert registry.get_adapter("found") is None and registry.get_bot("found") is None
    assert "found" in registry.names()


def test_a_scenario_naming_a_found_game_loads_with_its_rules(plugin_dir: Path, tmp_path: Path) -> None:
    pkg = plugin_dir / "found"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "system.py").write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\nfrom tiny_game import SYSTEM\n")
    data = tmp_path / "data" / "found"
    (data / "scenarios").mkdir(parents=True)
    for name in ("map.toml", "units.toml", "tables.toml"):
        (data / name).write_text((FIXTURES / "tiny" / name).read_text())
    duel = (FIXTURES / "tiny" / "scenarios" / "duel.toml").read_text()
    assert 'game = "tiny"' in duel
    (data / "scenarios" / "duel.toml").write_text(duel.replace('game = "tiny"', 'game = "found"'))
    game = Game.new(data / "scenarios" / "duel.toml", seed=3)
    assert game.scenario.game == "found"
    assert game.actor == "axis"


def test_an_unknown_game_is_refused_naming_it() -> None:
    for name in ("nope", "Bad", "engine", "../spi_kiev", 7):
        with pytest.raises(ValueError, match="no rule system for game"):
            registry.get_system(name)  # type: ignore[arg-type]


def test_kiev_is_listed_with_its_adapter_and_bot() -> None:
    assert registry.get_system("spi_kiev").id == "spi_kiev"
    assert registry.get_adapter("spi_kiev") is not None
    assert callable(registry.get_bot("spi_kiev").play_game)


def test_the_shipped_games_set_the_default_scenario() -> None:
    """kiev_tui/games (imported by kiev_tui/__init__) lists Kiev and names the bare start's scenario."""
    assert games.DEFAULT_SCENARIO == "spi_kiev/campaign"
    assert registry.default_scenario() == "spi_kiev/campaign"
    assert registry.default_game() == "spi_kiev"
    assert Game.new(seed=3).scenario.id == "spi_kiev/campaign"


def test_a_game_is_found_only_in_the_packages_named_to_the_registry(plugin_dir: Path) -> None:
    """Discovery searches the packages given to add_package: the registry itself names none."""
    pkg = plugin_dir / "found"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "system.py").write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\nfrom tiny_game import SYSTEM\n")
    saved = list(registry._PACKAGES)
    registry._PACKAGES.clear()
    try:
        assert not registry.known("found")
        registry.add_package("kiev_tui.games")
        registry.add_package("kiev_tui.games")  # once is enough
        assert registry._PACKAGES == ["kiev_tui.games"]
        assert registry.known("found")
    finally:
        registry._PACKAGES[:] = saved
