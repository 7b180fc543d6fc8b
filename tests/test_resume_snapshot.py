"""Issue 33: a resumed game is shown from its save's final snapshot at once, and the save's replay
is checked after the first frame; nothing can be played until it passes, a save that fails is
set aside with one line to the player, and `replay` / `load` on the command line still check
everything before they answer.

The check is held back in these tests by an event the test sets, so what the screen does while
the save is being checked is seen every time, whatever the speed of the machine.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kiev_tui.engine import saves
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, load_snapshot, read_save, save_game
from kiev_tui.engine.tomlio import dump_toml
from kiev_tui.games.spi_kiev import bot
from kiev_tui.ui.app import CHECKING, build_app

from tests.ptyprog import PtyProgram
from tests.ui.helpers import MINI, game_screen, screen_text

ROOT = Path(__file__).resolve().parent.parent
TAMPERED_AT = 3  # the action whose recorded hash the tampered save changes (counted from 1)


class Stop(Exception):
    pass


def mini_save(folder: Path, name: str = "autosave-tester.toml") -> tuple[Path, Game]:
    """A mini game played by the random player until the side to move may end its phase, saved."""
    box: dict[str, Game] = {}

    def stop(game: Game, _action: object) -> None:
        if len(game.log) >= 12 and game.state.pending is None and game.check(EndPhase()) is None:
            box["game"] = game
            raise Stop

    with pytest.raises(Stop):
        bot.play_game(MINI, 3, on_action=stop)
    game = box["game"]
    path = folder / name
    folder.mkdir(parents=True, exist_ok=True)
    save_game(game, path)
    return path, game


def tamper(path: Path) -> None:
    """Change one action's recorded hash: the snapshot still matches its own hash, the replay does not."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["action"][TAMPERED_AT - 1]["hash"] = "0" * 16
    path.write_text(dump_toml(data), encoding="utf-8")


@pytest.fixture()
def held_check(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The app's check of a resumed save waits for this event before it replays the save."""
    gate = threading.Event()
    real = saves.load_game

    def waiting(*args: Any, **kwargs: Any) -> Game:
        assert gate.wait(120), "the test never let the check go on"
        return real(*args, **kwargs)

    monkeypatch.setattr(saves, "load_game", waiting)
    return gate


async def until(pilot: Any, done: Any, limit: float = 60.0) -> None:
    """Wait (a safety limit only, no speed check) until ``done()`` holds."""
    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, "the condition never held"
        await pilot.pause(0.05)


# -- the snapshot itself ------------------------------------------------------------------------

def test_the_snapshot_is_the_position_the_replay_ends_in(tmp_path: Path) -> None:
    path, game = mini_save(tmp_path)
    snap = load_snapshot(path)
    full = load_game(path)
    assert snap.unverified and not full.unverified
    assert snap.state_hash() == full.state_hash() == game.state_hash()
    assert snap.rolls == game.rolls and snap.game_id == game.game_id
    assert snap.log == []  # nothing replayed: its log is not in hand
    assert [e.describe() for e in snap.journal] == [e.record() for e in game.journal]
    with pytest.raises(ValueError):
        save_game(snap, tmp_path / "copy.toml")  # a snapshot never writes a save with no log
    assert not (tmp_path / "copy.toml").exists()


def test_a_snapshot_that_does_not_match_its_hash_is_refused(tmp_path: Path) -> None:
    path, _ = mini_save(tmp_path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["final"]["state"]["turn"] = data["final"]["state"]["turn"] + 1
    path.write_text(dump_toml(data), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_snapshot(path)
    assert err.value.key == "final.state"


def test_a_tampered_action_passes_the_snapshot_but_not_the_replay(tmp_path: Path) -> None:
    path, game = mini_save(tmp_path)
    tamper(path)
    assert load_snapshot(path).state_hash() == game.state_hash()
    with pytest.raises(DataError) as err:
        load_game(path, data=read_save(path))
    assert err.value.key == f"action {TAMPERED_AT}"


# -- (a) shown at once, playable once checked ----------------------------------------------------

def held_resume(tmp_path: Path) -> tuple[Path, Game, Game, Any]:
    """A mini save, its snapshot game and the app resuming it with the replay check to come."""
    path, game = mini_save(tmp_path)
    parsed = read_save(path)
    snap = load_snapshot(path, parsed)
    return path, game, snap, build_app(snap, save_path=path, verify=path, verify_data=parsed)


async def test_a_resumed_game_shows_at_once_and_plays_once_checked(tmp_path: Path,
                                                                   held_check: threading.Event) -> None:
    path, game, snap, app = held_resume(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.game is snap and screen.held == CHECKING
        first = screen_text(app)
        assert f"Turn {game.state.turn}" in first
        # nothing is played while the save is checked: not by key, not through play()
        assert screen.check_action("end_phase", ()) is False and screen.check_action("select", ()) is False
        assert screen.check_action("help", ()) is True and screen.check_action("cursor", ("N",)) is True
        assert screen.play(EndPhase()) is False
        await pilot.press("P", "y")  # end the phase: held, not played
        await pilot.pause()
        assert app.screen is screen  # not even the question opened
        assert (snap.log, snap.state_hash(), app.game) == ([], game.state_hash(), snap)
        # the key bar lists the keys of play all the same: they wait, and then do what it says
        assert screen_text(app).splitlines()[-1] == first.splitlines()[-1]
        held_check.set()
        await until(pilot, lambda: not screen.held)
        checked = app.game
        assert checked is not snap and screen.game is checked and not checked.unverified
        assert checked.on_phase_end is not None  # the autosave is on again for the checked game
        assert screen.check_action("end_phase", ()) is True
        # the keys typed during the check are played now, in order: P asks, y ends the phase
        await until(pilot, lambda: len(checked.log) == len(game.log) + 1)
        assert checked.log[:-1] == game.log and checked.log[-1] == EndPhase()


async def test_keys_that_only_look_work_while_the_save_is_checked(tmp_path: Path,
                                                                 held_check: threading.Event) -> None:
    """Help, the rules and the cursor answer at once during the check; a key that plays waits,
    and so does every key typed after it (keys never overtake one another)."""
    path, game, snap, app = held_resume(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.held == CHECKING
        assert [app.looks_only(k) for k in ("question_mark", "r", "d", "up", "pagedown", "z", "g")] == [True] * 7
        assert [app.looks_only(k) for k in ("P", "enter", "escape", "u", "1", "S", "O", "x")] == [False] * 8
        start = screen.cursor
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen is not screen)  # the help, before the check has answered
        assert "Help" in screen_text(app) and screen.held == CHECKING
        await pilot.press("escape")  # a key on the help screen: it closes
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("d")  # the cursor moves at once
        await pilot.pause()
        moved = screen.cursor
        assert moved != start and app._held_keys == []
        await pilot.press("enter", "d")  # Enter plays (selects): it waits, and the cursor key after it too
        await pilot.pause()
        assert screen.cursor == moved and app.screen is screen
        assert [k.key for k in app._held_keys or []] == ["enter", "d"]
        held_check.set()
        await until(pilot, lambda: not screen.held)
        await until(pilot, lambda: screen.cursor != moved)  # let go in order once the check passed
        assert app._held_keys is None and app.game.log == game.log
        assert app.game.scenario is snap.scenario  # the check replayed on the snapshot's scenario


async def test_the_check_runs_on_a_thread_that_does_not_hold_the_quit(tmp_path: Path,
                                                                      held_check: threading.Event) -> None:
    # A thread the interpreter joins at exit kept ctrl+q waiting for the whole replay (half a
    # minute for a turn-4 Barbarossa autosave): the check's thread must be a daemon.
    path, _ = mini_save(tmp_path)
    parsed = read_save(path)
    app = build_app(load_snapshot(path, parsed), save_path=path, verify=path, verify_data=parsed)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: any(t.name == "check the resumed save" for t in threading.enumerate()))
        checks = [t for t in threading.enumerate() if t.name == "check the resumed save"]
        assert [t.daemon for t in checks] == [True]
        held_check.set()
        await until(pilot, lambda: not game_screen(app).held)


# -- (b) a tampered save: caught after the first frame, told, set aside ----------------------------

async def test_a_tampered_autosave_is_caught_after_the_first_frame(tmp_path: Path,
                                                                   held_check: threading.Event) -> None:
    path, game = mini_save(tmp_path)
    tamper(path)
    parsed = read_save(path)
    snap = load_snapshot(path, parsed)  # the snapshot alone cannot tell
    app = build_app(snap, save_path=path, verify=path, verify_data=parsed)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert f"Turn {game.state.turn}" in screen_text(app) and screen.held
        assert screen.play(EndPhase()) is False
        await pilot.press("P", "y")
        await pilot.pause()
        assert (snap.log, snap.state_hash()) == ([], game.state_hash())  # no action was possible
        held_check.set()
        await until(pilot, lambda: app.game is not snap)
        await pilot.pause()
        aside = tmp_path / "damaged-autosave.toml"
        assert not path.exists() and aside.exists()
        text = " ".join(screen_text(app).split())
        assert "The autosave failed its check" in text and "new game has started" in text
        assert f"action {TAMPERED_AT}" in text
        # the keys typed during the check were dropped with the game they were meant for
        assert app.game.log == [] and app.game.state.turn == 1 and not app.game.unverified
        assert game_screen(app).held == ""
    # the file set aside is the tampered one, byte for byte what was resumed
    assert tomllib.loads(aside.read_text(encoding="utf-8"))["action"][TAMPERED_AT - 1]["hash"] == "0" * 16


# -- (c) the command line still checks everything first --------------------------------------------

def test_replay_and_load_still_verify_fully_before_answering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kiev_tui.cli as cli

    path, _ = mini_save(tmp_path, "tampered.toml")
    tamper(path)
    runner = CliRunner()
    replayed = runner.invoke(cli.app, ["replay", str(path)])
    assert replayed.exit_code == 2
    assert f"action {TAMPERED_AT}" in replayed.stderr and "diverges" in replayed.stderr
    started: list[Game] = []
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    monkeypatch.setattr(cli, "_start_ui", lambda game, *a, **k: started.append(game))
    loaded = runner.invoke(cli.app, ["load", str(path)])
    assert loaded.exit_code == 2 and f"action {TAMPERED_AT}" in loaded.stderr
    played = runner.invoke(cli.app, ["play", "--load", str(path)])
    assert played.exit_code == 2 and f"action {TAMPERED_AT}" in played.stderr
    assert started == []  # no screen opened on a save that failed its check


def test_play_on_a_terminal_resumes_from_the_snapshot_and_asks_for_the_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kiev_tui.cli as cli

    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv("KIEV_TUI_PLAYER", "tester")
    path, game = mini_save(tmp_path / "saves")
    seen: list[tuple[Game, dict[str, Any]]] = []
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    monkeypatch.setattr(cli, "_start_ui", lambda g, save, **opts: seen.append((g, opts)))
    cli.play_game()
    (shown, opts), = seen
    assert shown.unverified and shown.state_hash() == game.state_hash()
    # the snapshot came from the file parsed without its actions: the check parses all of it itself
    assert opts["verify"] == path and opts["verify_data"] is None
    seen.clear()
    monkeypatch.setattr(cli, "_interactive", lambda: False)  # printed, not shown: checked first
    cli.play_game()
    (shown, opts), = seen
    assert not shown.unverified and len(shown.log) == len(game.log) and "verify" not in opts


# -- on a real terminal --------------------------------------------------------------------------

class Play(PtyProgram):
    def __init__(self, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES")}
        env.update({"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "KIEV_TUI_PLAYER": "tester",
                    "KIEV_TUI_SAVES": str(cwd / "saves")})
        super().__init__([sys.executable, "-m", "kiev_tui", "play"], 120, 40, env, cwd)

    def quit(self) -> None:
        self.send(b"\x11")
        end = time.monotonic() + 20
        while self.alive() and time.monotonic() < end:
            self.pump(0.1)
        self.stop()


def test_pty_a_resumed_game_becomes_playable_and_a_tampered_one_is_set_aside(tmp_path: Path) -> None:
    path, game = mini_save(tmp_path / "saves")
    app = Play(tmp_path)
    try:
        assert app.wait_for(f"Turn {game.state.turn}", 60), app.tail()
        # P at once, whether or not the check is over: it waits for the check, then asks
        app.send(b"P")
        assert app.wait_for(r"End the phase\? \(y/n\)", 30), app.text()
        app.send(b"y")
        end = time.monotonic() + 60
        while len(load_game(path).log) == len(game.log) and time.monotonic() < end:
            app.pump(0.1)  # the autosave at the phase's end holds the new action
        assert len(load_game(path).log) == len(game.log) + 1
    finally:
        app.quit()
    path, game = mini_save(tmp_path / "saves")  # over the one just played
    tamper(path)
    app = Play(tmp_path)
    try:
        assert app.wait_for("The autosave failed its check", 60), app.tail()
        assert app.wait_for("Play the new game", 30)
        assert not path.exists() and (tmp_path / "saves" / "damaged-autosave.toml").exists()
    finally:
        app.quit()


def test_pty_quitting_while_the_save_is_checked_leaves_it_as_it_was(tmp_path: Path) -> None:
    path, game = mini_save(tmp_path / "saves")
    before = path.read_bytes()
    app = Play(tmp_path)
    try:
        assert app.wait_for(f"Turn {game.state.turn}", 60), app.tail()
        app.send(b"\x11")  # ctrl+q at once: nothing was played, so nothing is asked
        end = time.monotonic() + 60
        while app.alive() and time.monotonic() < end:
            app.pump(0.1)
        assert not app.alive() and app.proc.returncode == 0, app.tail()
    finally:
        app.stop()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
