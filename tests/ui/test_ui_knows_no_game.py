"""The Textual face knows no game: kiev_tui/ui reaches a game only through the registry (issue 14)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import kiev_tui.ui

UI = Path(kiev_tui.ui.__file__).resolve().parent
REGISTRY = "kiev_tui.engine.registry"
GAMES = "kiev_tui.games"  # the shipped games: never imported by a face, not even to list them


def _ui_modules() -> list[Path]:
    return sorted(UI.glob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a file, `from x import y` counted as x.y too."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.lineno, node.module))
            out.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
    return out


def test_the_ui_package_has_the_modules_this_test_reads() -> None:
    names = {p.name for p in _ui_modules()}
    assert {"adapter.py", "app.py", "game_screen.py", "widgets.py", "hexmap.py", "dialogs.py"} <= names


def test_no_ui_module_imports_a_game_package() -> None:
    bad = []
    for path in _ui_modules():
        for line, module in _imports(path):
            if module == GAMES or module.startswith(GAMES + "."):
                bad.append(f"{path.name}:{line}: {module}")
    assert bad == []


def test_the_ui_uses_the_registry() -> None:
    used = {module for path in _ui_modules() for _, module in _imports(path)}
    assert f"{REGISTRY}.get_adapter" in used  # the adapter of the scenario's game


def test_no_ui_source_line_names_spi_kiev_or_its_sides() -> None:
    hits = [f"{p.name}:{n}: {line.strip()}" for p in _ui_modules()
            for n, line in enumerate(p.read_text().splitlines(), 1)
            if any(word in line.lower() for word in ("spi_kiev", "german", "soviet"))]
    assert hits == []


#: SPI Kiev's terrain and hexside words: the map's symbols come from the game (MapSymbols).
KIEV_MAP_WORDS = r"woods|swamp|lake|major_river|minor_river|railroad"


def test_no_ui_module_or_the_text_map_names_kievs_terrain() -> None:
    """Neither the Textual map nor `kiev-tui map` names SPI Kiev's terrain, comments included (-I: no .pyc)."""
    root = UI.parent.parent
    found = subprocess.run(["grep", "-rnIE", KIEV_MAP_WORDS, "kiev_tui/ui", "kiev_tui/textmap.py"],
                           cwd=root, capture_output=True, text=True)
    assert found.returncode == 1, found.stdout  # grep's "nothing found"
    assert found.stdout == ""


def test_the_terrain_grep_catches_a_kiev_word() -> None:
    """The pattern itself: it finds each word as the grep above would."""
    for line in ('fill = {"woods": "^"}', "# a swamp hex", "lake", "major_river", "minor_river", "railroad"):
        assert re.search(KIEV_MAP_WORDS, line)
    assert not re.search(KIEV_MAP_WORDS, "rough river road rail")


def test_the_import_check_catches_a_game_import(tmp_path: Path) -> None:
    """The check itself: a module importing a game's package or the games list is reported, the
    registry is not."""
    sample = tmp_path / "sample.py"
    sample.write_text("from kiev_tui.engine.registry import get_adapter\nfrom kiev_tui.games.spi_kiev import common\n"
                      "import kiev_tui.games.tiny.system\nfrom kiev_tui import games\nimport kiev_tui.games\n")
    found = [(line, m) for line, m in _imports(sample) if m == GAMES or m.startswith(GAMES + ".")]
    assert found == [(2, "kiev_tui.games.spi_kiev"), (2, "kiev_tui.games.spi_kiev.common"),
                     (3, "kiev_tui.games.tiny.system"), (4, "kiev_tui.games"), (5, "kiev_tui.games")]


#: What the generic text module (kiev_tui/ui/text.py) must never import: plain line mode
#: says its text too and must start without Textual.
TEXTUAL_SIDE = ("textual", "rich", "kiev_tui.ui.hexmap", "kiev_tui.ui.glyphs", "kiev_tui.ui.widgets",
                "kiev_tui.ui.adapter", "kiev_tui.ui.game_screen", "kiev_tui.ui.app")


def test_the_generic_text_module_imports_no_textual() -> None:
    """ui/text.py, read and run: no Textual or Rich import, none of the Textual face's modules."""
    bad = [f"text.py:{line}: {m}" for line, m in _imports(UI / "text.py")
           if any(m == name or m.startswith(name + ".") for name in TEXTUAL_SIDE)]
    assert bad == []
    probe = ("import sys, kiev_tui.ui.text\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')"
             " or m in ('kiev_tui.ui.hexmap', 'kiev_tui.ui.glyphs', 'kiev_tui.ui.widgets', 'kiev_tui.ui.adapter')))\n")
    res = subprocess.run([sys.executable, "-c", probe], cwd=UI.parent.parent, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "[]\n"


def test_the_textual_default_adapter_says_the_generic_text() -> None:
    """DefaultAdapter's names and values are those of ui/text.py, which plain mode says too."""
    from kiev_tui.engine.game import Game
    from kiev_tui.ui import text
    from kiev_tui.ui.adapter import DefaultAdapter
    from tests.conftest import MINI

    game = Game.new(MINI, seed=3)
    ad = DefaultAdapter()
    ids = sorted(u for u, us in game.state.units.items() if us.status == "map")
    assert ids
    assert ad.stack_order(game, ids) == text.stack_order(game, ids)
    for uid in ids:
        assert ad.unit_name(game, uid) == text.unit_name(game, uid)
        assert ad.strength(game, uid) == text.strength(game, uid)
        assert ad.steps_left(game, uid) == text.steps_left(game, uid)
    assert text.phase_title("mechanized_movement") == "Mechanized movement"
    assert text.phase_line("Axis", ["move", "fight"], "fight", text.phase_title) == "Axis player: move > [FIGHT]"
