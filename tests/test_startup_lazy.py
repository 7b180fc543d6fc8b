"""Issue 33: what `kiev-tui play --no-resume` imports before its first frame.

A fresh interpreter runs `play` as the console script does (cli.play_game), with the app run
headless and stopped once the game screen has been drawn; the modules loaded by then are
listed.  The rules reference, the computer players, the network and e-mail code, the save
writer and its signing, the TOML parser (with the data cache filled) and Typer must not be
among them: each is imported when first used, never to show the first frame.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, sys
import kiev_tui.cli as cli

def start(game, path, **opts):
    from kiev_tui.ui import app as ui_app
    from kiev_tui.ui.game_screen import GameScreen

    app = ui_app.build_app(game, save_path=path, **opts)
    seen = {}

    def drawn():
        if not isinstance(app.screen, GameScreen):  # not on screen yet: ask again after the next refresh
            app.call_after_refresh(drawn)
            return
        seen["screen"] = type(app.screen).__module__
        seen["modules"] = sorted(sys.modules)
        # the map tables made on first use that the first frame must not make (issue 33, round 7)
        seen["map_tables"] = sorted(k for k in ("features", "rivers", "lines") if k in vars(game.scenario.map))
        app.exit()

    app.call_later(lambda: app.call_after_refresh(drawn))
    app.run(headless=True)
    print(json.dumps(seen))

cli._start_ui = start
cli.main()
"""

#: Modules the first frame must do without (exact names; each is the entry to a heavy part).
NOT_FOR_THE_FIRST_FRAME = (
    # the rules reference (its model and search index) and its screen
    "kiev_tui.rulesref", "kiev_tui.rulesref.model", "kiev_tui.rulesref.search", "kiev_tui.ui.rules_screen",
    # the computer players
    "kiev_tui.ai", "kiev_tui.ai.local", "kiev_tui.games.spi_kiev.ai", "kiev_tui.games.spi_kiev.bot",
    # hosting, joining, the SSH server, play by e-mail, plain mode
    "kiev_tui.net", "kiev_tui.net.seat", "kiev_tui.net.host", "kiev_tui.serve", "kiev_tui.pbem",
    "kiev_tui.pbem.chain", "kiev_tui.plain", "kiev_tui.plain.loop",
    # saving and signing: imported by the first save or autosave
    "kiev_tui.engine.saves", "kiev_tui.engine.savekey",
    # Kiev's combat rules and screens and the unit-moving actions: imported by the first action of
    # their kind (handlers.py) or the key that opens them (face/screen.py), issue 33 round 2
    "kiev_tui.games.spi_kiev.combat", "kiev_tui.games.spi_kiev.battle", "kiev_tui.games.spi_kiev.retreat",
    "kiev_tui.games.spi_kiev.advance", "kiev_tui.games.spi_kiev.overrun", "kiev_tui.games.spi_kiev.preview",
    "kiev_tui.games.spi_kiev.moving", "kiev_tui.games.spi_kiev.face.combat_ui",
    "kiev_tui.games.spi_kiev.face.dialogs", "kiev_tui.ui.mapside", "kiev_tui.games.spi_kiev.events_play",
    # the dialogs (confirm, pick, ask, text, score, new game): imported by the key or event that
    # opens the first one (issue 33, round 4)
    "kiev_tui.ui.dialogs",
    # the TOML parser: every data file comes from the filled cache (sequence.toml too); our own
    # parsing, checking and atomic writing too (tomlio.py hands them out, issue 33 round 7)
    "tomllib", "kiev_tui.engine.tomltext",
    # the full command line, and the table of its commands (issue 33, round 6)
    "typer", "click", "pydantic", "kiev_tui.cliapp",
    # Textual's RichLog and the pretty printer its module imports: the log panel is a ScrollView
    # of its own (issue 33, round 7)
    "textual.widgets._rich_log", "rich.pretty",
    # the methods of the screen, the app and their mixins that the first frame never calls (moves,
    # battles, files, dialogs, help): each class keeps a stand-in (kiev_tui/later.py, round 7)
    "kiev_tui.ui.controller_more", "kiev_tui.ui.files_more", "kiev_tui.ui.app_more",
    "kiev_tui.ui.game_screen_more", "kiev_tui.games.spi_kiev.face.screen_more",
    # ... and of the map, the adapter, the game, its state, dice, prompts, hexes and rules
    "kiev_tui.ui.adapter_more", "kiev_tui.ui.hexmap_more", "kiev_tui.engine.game_more",
    "kiev_tui.engine.state_more", "kiev_tui.engine.rules_more", "kiev_tui.engine.prompts_more",
    "kiev_tui.engine.dice_more", "kiev_tui.engine.hexes_more", "kiev_tui.engine.units_more",
    "kiev_tui.engine.actions_more", "kiev_tui.games.spi_kiev.state_more",
    "kiev_tui.games.spi_kiev.common_more", "kiev_tui.engine.crt_more", "kiev_tui.engine.sequence_more",
    "kiev_tui.games.spi_kiev.tables_more", "kiev_tui.games.spi_kiev.face.adapter_more",
    "kiev_tui.games.spi_kiev.untried_more",
    "kiev_tui.ui.wire_more", "kiev_tui.ui.widgets_more",
    # ... and functions handed out by their module's __getattr__: the path finder and the move check,
    # the rail move, the legal-answers list, the choices and score texts, the entry check, the
    # divisional integrity questions, the registry's plain faces and players, the views' seals
    "kiev_tui.games.spi_kiev.movement_more", "kiev_tui.games.spi_kiev.rail_more",
    "kiev_tui.games.spi_kiev.prompting_more", "kiev_tui.ui.text_more",
    "kiev_tui.games.spi_kiev.reinforcements_more", "kiev_tui.games.spi_kiev.strength_more",
    "kiev_tui.engine.registry_more", "kiev_tui.engine.view_more",
)


def first_frame_modules(tmp: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("TEXTUAL", "KIEV_TUI_SAVES", "KIEV_TUI_CACHE")}
    env.update({"PYTHONPATH": str(ROOT), "KIEV_TUI_SAVES": str(tmp / "saves"), "KIEV_TUI_CACHE": str(tmp / "cache"),
                "KIEV_TUI_PLAYER": "tester"})
    done = subprocess.run([sys.executable, "-c", PROBE, "play", "--no-resume"], env=env, cwd=tmp,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_first_frame_imports_nothing_it_does_not_show(tmp_path: Path) -> None:
    first_frame_modules(tmp_path)  # the first start fills the per-user cache of parsed data
    seen = first_frame_modules(tmp_path)
    modules = set(seen["modules"])  # type: ignore[arg-type]
    # the probe did reach the first frame of a Kiev game
    assert seen["screen"] == "kiev_tui.games.spi_kiev.face.screen"
    assert {"textual.app", "kiev_tui.ui.app", "kiev_tui.games.spi_kiev.system"} <= modules
    loaded = sorted(m for m in NOT_FOR_THE_FIRST_FRAME if m in modules)
    assert loaded == []
    assert seen["map_tables"] == []  # the ready-built map's features, rivers, lines: made when first read


def test_the_probe_sees_a_module_the_first_frame_does_import(tmp_path: Path) -> None:
    # The same probe, once the rules reference is imported up front, lists it: the check above
    # would catch an eager import.
    env_probe = PROBE.replace("import kiev_tui.cli as cli", "import kiev_tui.cli as cli\nimport kiev_tui.rulesref.model")
    env = {k: v for k, v in os.environ.items() if k not in ("TEXTUAL", "KIEV_TUI_SAVES", "KIEV_TUI_CACHE")}
    env.update({"PYTHONPATH": str(ROOT), "KIEV_TUI_SAVES": str(tmp_path / "saves"),
                "KIEV_TUI_CACHE": str(tmp_path / "cache"), "KIEV_TUI_PLAYER": "tester"})
    done = subprocess.run([sys.executable, "-c", env_probe, "play", "--no-resume"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    modules = set(json.loads(done.stdout.strip().splitlines()[-1])["modules"])
    assert "kiev_tui.rulesref.model" in modules


def test_the_events_of_moves_and_battles_are_found_where_they_were() -> None:
    # spi_kiev/events.py keeps what the set-up emits; the rest moved to events_play.py (issue 33)
    from kiev_tui.games.spi_kiev import events, events_play

    assert events.Moved is events_play.Moved and events.CombatResolved is events_play.CombatResolved
    assert events.route("0703", ("0603", "0604")) == "from 0703 to 0604 via 0603"
    assert sorted(events._PLAY) == sorted(n for n in vars(events_play) if n == "route" or (
        isinstance(getattr(events_play, n), type) and getattr(events_play, n).__module__ == events_play.__name__))
    try:
        events.Nothing  # noqa: B018
    except AttributeError as exc:
        assert "Nothing" in str(exc)
    else:
        raise AssertionError("an unknown name was found")
