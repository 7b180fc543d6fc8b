"""Keys faster than the screen: the real app on a real pseudo-terminal.

Textual's Pilot waits for the app to settle after every key, so a second Enter never reaches
a dialog that is already closing.  A player on a real terminal (or a key held down, or a
paste) sends the keys in one read; these tests do the same through a pty.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.games.spi_kiev import bot

from tests.ptyprog import PtyProgram

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "mini.toml"
PLAYER = "tester"  # KIEV_TUI_PLAYER: the autosave is saves/autosave-tester.toml
WIDTH, HEIGHT = 120, 40
ENTER, ESC, TAB = b"\r", b"\x1b", b"\t"


class App(PtyProgram):
    """`python -m kiev_tui ARGS` on a pty, with what it shows kept in a small terminal."""

    def __init__(self, cwd: Path, *args: str, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.cwd = cwd
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES")}
        env.update({"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": str(width),
                    "LINES": str(height), "KIEV_TUI_PLAYER": PLAYER})
        super().__init__([sys.executable, "-m", "kiev_tui", *args], width, height, env, cwd)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.write(self.master, b"\x11")  # ctrl+q
            except OSError:
                pass
            end = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < end:
                self.pump(0.1)
        self.stop()


def quit_cleanly(app: App) -> int:
    app.send(b"\x11")  # ctrl+q
    end = time.monotonic() + 20
    while app.alive() and time.monotonic() < end:
        app.pump(0.1)
        if "Quit without saving?" in app.text():  # moves made since the last save: say yes (issue 20)
            app.send(b"y")
            app.settle(0.1, 2.0)
    assert not app.alive(), "ctrl+q did not end the app"
    return app.proc.returncode


def game_screen_answers(app: App) -> None:
    """The game screen is on top and takes keys: `?` opens its help, Esc closes it."""
    app.settle()
    app.send(b"?")
    assert app.wait_for(r"Help: \w+ phase", 30), f"the game screen does not answer:\n{app.text()}\n{app.tail()}"
    app.send(ESC)
    assert app.wait_for(r"Sequence of play", 30), app.text()


def pending_save(saves: Path) -> Path:
    """A real (replayable) mini game stopped where the Soviet player must answer a combat result."""

    class Found(Exception):
        pass

    box: dict[str, Game] = {}

    def stop(game: Game, _action: object) -> None:
        if game.state.pending is not None:
            box["game"] = game
            raise Found

    with pytest.raises(Found):
        bot.play_game(MINI, 2, on_action=stop)
    game = box["game"]
    assert (game.state.phase, game.state.pending["kind"], len(game.log)) == ("combat", "loss_or_retreat", 9)
    saves.mkdir(exist_ok=True)
    path = saves / "pending.toml"
    game.save(path)
    return path


def new_mini_app(tmp: Path) -> App:
    app = App(tmp, "play", "--no-resume", "--scenario", str(MINI))
    assert app.wait_for(r"Sequence of play", 60), app.tail()
    app.settle()
    return app


# -- 1. two quick Enters close a dialog once -----------------------------------------------------

def test_quick_enters_in_the_save_dialog(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        app.send(b"S")
        assert app.wait_for(r"Save the game", 30), app.text()
        app.send(ENTER * 3)  # accept the suggested name; the next two land on a closing dialog
        # The save's file, not its message: the next Enter may select a stack and replace the
        # "Saved to" line between two reads of the screen on a busy machine.
        saved = tmp_path / "saves" / "turn01-soviet-movement.toml"
        end = time.monotonic() + 30
        while not saved.exists() and time.monotonic() < end and app.alive():
            app.pump(0.1)
        assert saved.exists(), app.text()
        game_screen_answers(app)
        assert [p.name for p in (tmp_path / "saves").glob("turn*.toml")] == ["turn01-soviet-movement.toml"]
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def test_quick_enters_in_the_load_dialog(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    Game.new(MINI, seed=3).save(saves / "other.toml")
    app = new_mini_app(tmp_path)
    try:
        app.send(b"O")
        assert app.wait_for(r"Load a saved game", 30), app.text()
        app.send(ENTER * 3)
        assert app.wait_for(r"Loaded .*other\.toml", 30), app.text()
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def test_quick_enters_in_the_reinforcement_dialog(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        app.send(b"i")
        assert app.wait_for(r"Reinforcements due now", 30), app.text()
        app.send(TAB)  # to the list of entry hexes
        app.settle()
        app.send(ENTER * 3)
        assert app.wait_for(r"enters? at|entered|arriv", 30), app.text()
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def soviet_takes_the_keyboard(app: App) -> None:
    """The loaded game waits for the Soviet answer: the hand-off comes first (issue 20), then the dialog."""
    assert app.wait_for(r"hand the keyboard to the SOVIET player", 60), app.tail()
    app.settle()
    app.send(b" ")


def test_quick_enters_in_the_combat_answer_dialog(tmp_path: Path) -> None:
    save = pending_save(tmp_path / "saves")
    app = App(tmp_path, "load", str(save))
    try:
        soviet_takes_the_keyboard(app)
        assert app.wait_for(r"SOVIET PLAYER to answer", 60), app.tail()
        app.settle()
        app.send(ENTER * 3)  # one step lost; the other Enters must not reach past the dialog
        app.settle(0.5)
        for _ in range(4):  # the German takes the keyboard back; his advance after combat (9.8) may ask next
            if "hand the keyboard to the" in app.text():
                app.send(b" ")
            elif "PLAYER to answer" in app.text():
                app.send(ESC)
            app.settle(0.5)
        assert app.wait_for(r"Sequence of play", 30), app.text()
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


def test_quick_keys_in_the_hand_off_screen(tmp_path: Path) -> None:
    """Any key closes the hand-off screen; a burst of them must close it only once."""
    app = new_mini_app(tmp_path)
    try:
        for n in range(2):  # 23.0: both Soviet reinforcements come on before the phase may end
            app.send(b"i")
            assert app.wait_for(r"Reinforcements due now", 30), app.text()
            app.send(TAB)
            app.settle()
            app.send(ENTER)
            if n == 1:  # 5.0: the first group, still in hand with MP left, would stop: say yes
                assert app.wait_for(r"Bring these reinforcements on now\?", 30), app.text()
                app.send(b"y")
            assert app.wait_for(r"Sequence of play", 30), app.text()
            app.settle()
        for _ in range(2):  # the Soviet movement and combat phases end: the German player is next
            app.send(b"P")
            assert app.wait_for(r"End the .* phase\?", 30), app.text()
            app.send(b"y")
            app.settle()
        assert app.wait_for(r"hand the keyboard to the GERMAN player", 30), app.text()
        app.send(b"xxx")
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()


# -- the done-when of issue 13: 2,000 random keys into every dialog ----------------------------------------------

OPENERS = [b"S", b"O", b"N", b"i", b"r", b"P", b"p", b"?", b"g", b"c", b"L", b"x", b"o"]
#: One key each (a paste counts as one): what a player, a cat or a clipboard may send.
KEYS = ([bytes([c]) for c in b"SONiPprgcyntxuLzwasdqe?0123456789 .-_/"] + [ENTER] * 12 + [TAB] * 3 + [ESC] * 3
        + [b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\x7f", b"\x1b[5~", b"\x1b[6~"])


def pastes(tmp: Path) -> list[bytes]:
    texts = ["../evil", f"{tmp}/outside/x", ".", "/", "a\x00b", "[@click=app.quit]x[/]", "autosave-tester", "[/]"]
    return [b"\x1b[200~" + t.encode() + b"\x1b[201~" for t in texts]


def test_2000_random_keys_into_every_dialog(tmp_path: Path) -> None:
    rng = random.Random(1941)
    pool = KEYS * 4 + pastes(tmp_path)
    save = pending_save(tmp_path / "saves")
    app = App(tmp_path, "load", str(save))
    sent = 0
    seen: set[str] = set()

    def burst(keys: list[bytes]) -> None:
        nonlocal sent
        app.send(b"".join(keys))
        sent += len(keys)
        app.settle(0.1, 5.0)
        assert app.alive(), f"the app ended after {sent} keys:\n{app.tail()}"

    try:
        # Every dialog once, on purpose, with a burst of Enters into it.
        soviet_takes_the_keyboard(app)
        assert app.wait_for(r"SOVIET PLAYER to answer", 60), app.tail()
        seen.add("combat answer")
        burst([ENTER] * 4 + [ESC])
        for name, opener, title, keys in [
            ("new game", b"N", r"again from turn 1\?", [ENTER] * 4),
            ("reinforcements", b"i", r"Reinforcements due now", [TAB] + [ENTER] * 4),
            ("save", b"S", r"Save the game in", [ENTER] * 4),
            ("load", b"O", r"Load a saved game", [ENTER] * 4),
            ("rules", b"r", r"Search \(/\)", [ENTER] * 4 + [ESC]),
        ]:
            for _ in range(2):  # a loaded game waiting for an answer hands off first, then asks (issue 20)
                app.send(ESC)
                app.settle(0.2)
            app.send(opener)
            if app.wait_for(title, 15):
                seen.add(name)
            burst(keys)
        assert seen == {"combat answer", "new game", "reinforcements", "save", "load", "rules"}, seen
        # Then chaos: a dialog key and whatever follows it, all in one read.
        while sent < 2000:
            burst([rng.choice(OPENERS)] + [rng.choice(pool) for _ in range(rng.randint(20, 60))])
        # Still there: back to the map, a new game, its reinforcements, the end of its first phase.
        for _ in range(4):
            app.send(ESC)
            app.settle(0.3)
        app.send(b"N")
        assert app.wait_for(r"again from turn 1\?", 30), app.text()
        app.send(b"y")
        assert app.wait_for(r"\| New game", 30), app.text()  # in the status line: the dialog has gone
        app.settle()
        for n in range(2):
            app.send(b"i")
            assert app.wait_for(r"Reinforcements due now", 30), app.text()
            app.send(TAB)
            app.settle()
            app.send(ENTER)
            if n == 1:  # 5.0: the first group is still in hand
                assert app.wait_for(r"Bring these reinforcements on now\?", 30), app.text()
                app.send(b"y")
            assert app.wait_for(r"Sequence of play", 30), app.text()
            app.settle()
        app.send(b"P")
        assert app.wait_for(r"End the .* phase\?", 30), app.text()
        app.send(b"y")
        autosave = tmp_path / "saves" / f"autosave-{PLAYER}.toml"
        end = time.monotonic() + 30
        while not autosave.exists() and time.monotonic() < end:
            app.pump(0.1)
        game_screen_answers(app)
        assert quit_cleanly(app) == 0
    finally:
        app.close()
    assert sent >= 2000
    again = load_game(autosave)
    assert (again.state.turn, again.state.player, again.state.phase) == (1, "soviet", "combat")
    # Nothing was written outside the saves folder, whatever was pasted into the save dialog.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"]
    assert all(p.is_file() and p.suffix == ".toml" for p in (tmp_path / "saves").iterdir())
