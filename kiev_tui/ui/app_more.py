"""The methods of kiev_tui.ui.app that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in app.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import Any

from kiev_tui.ui.app import (  # noqa: F401
    Game, GameScreen, WHILE_CHECKING, adapter_for, events, savepaths, threading,
)


class KievApp:
    """Methods of app.KievApp that a new game's first frame never calls."""

    def show_game(self, game: Game, screen: GameScreen, note: str = "") -> None:
        """Play a loaded `game` from now on: in `screen` when its face is the same, else on its own.

        A save of another game gets that game's screen and adapter (a Kiev screen would not
        know a Tiny position), which replaces the game screen on the stack.
        """
        self.adopt(game)
        adapter = adapter_for(game)
        kind = adapter.screen_class()
        if type(screen) is kind:
            screen.set_game(game)
            screen.say(note)
            screen.check_pending()
            return
        fresh = kind(game, adapter)
        fresh.message = note  # shown by the first refresh, once mounted

        def switch() -> None:
            if screen not in self.screen_stack:
                return  # the screen to replace has gone (the app is closing)
            if self.screen is screen:
                self.switch_screen(fresh)
            else:  # the load dialog is still closing: wait until the game screen is on top
                self.call_later(switch)

        switch()

    def _crashed(self, why: str) -> None:
        """Keep what can be kept before the app goes (issue 36): the game as it stands is saved
        beside the last good autosave, never over it, so a broken write loses nothing more."""
        if self.crash:
            return
        self.crash = " ".join(why.split())[:200]
        if self.net is not None:
            self.crash_kept = "the host keeps the game"
            return
        if self.part is not None:
            self.crash_kept = "the turn file was not written; the record is as it was"
            return
        if not self.game.unsaved:
            self.crash_kept = "the last save or autosave holds the game as it stood"
            return
        st = self.game.state
        try:
            path = savepaths.unused_path_for(f"crash-turn{st.turn:02d}-{st.player}-{st.phase}", self.saves_dir)
            self.game.save(path)
        except Exception as exc:  # noqa: BLE001 - the game is already stopping; the line says why
            self.crash_kept = f"the game could not be saved ({type(exc).__name__}); the last autosave is untouched"
            return
        self.crash_save = path
        self.crash_kept = f"the game as it stood is saved in {path}"

    def looks_only(self, key: str) -> bool:
        """Whether ``key`` typed now only looks while a resumed save is checked: on the game
        screen, a key whose every binding is a looking action (WHILE_CHECKING); on a screen one
        of those opened (help, rules, the legend, the score, go to), any key."""
        screen = self.screen
        if not isinstance(screen, GameScreen):
            # no screen that plays can open while the save is checked (check_action allows only
            # WHILE_CHECKING actions, check_pending waits for the check)
            return True
        if not screen.held:
            return False  # (the check has answered: _checked lets the held keys go in order)
        bound = screen._bindings.key_to_bindings.get(key, [])
        return bool(bound) and all(b.action.split("(", 1)[0] in WHILE_CHECKING for b in bound)

    def start_check(self, screen: GameScreen) -> None:
        """Check the resumed save in a thread of its own (GameScreen calls it once its first frame is drawn)."""
        if self.verify is None or screen.game is not self.game or not screen.held:
            return
        # A daemon thread, not a Textual thread worker: those run on the event loop's executor,
        # whose threads the interpreter joins at exit, so ctrl+q during a long check (a turn-4
        # Barbarossa autosave replays for half a minute) would hang until the check ended.
        threading.Thread(target=self._check_save, args=(screen, self.game.scenario), name="check the resumed save",
                         daemon=True).start()

    def _check_save(self, screen: GameScreen, scenario: Any = None) -> None:
        """In the worker's thread: replay and verify the save, then hand the answer to the app."""
        from kiev_tui.engine.errors import DataError
        from kiev_tui.engine.saves import load_game

        assert self.verify is not None
        try:
            # the snapshot's scenario is shared: nothing on screen changes it, and the replay only
            # reads it (the tables it works out once are kept with get-or-build, safe in two threads)
            game = load_game(self.verify, data=self._verify_data, scenario=scenario)
        except DataError as exc:
            answer: Any = exc.line()
        except Exception as exc:  # noqa: BLE001 - anything the replay raises means the save is not trusted
            answer = f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        else:
            answer = game
        try:
            self.call_from_thread(self._checked, screen, answer)
        except RuntimeError:
            pass  # the app has gone meanwhile: nothing was played, the file is as it was
        except Exception:  # noqa: BLE001 - as a Textual worker with exit_on_error=False kept it: not on the terminal
            pass

    def _checked(self, screen: GameScreen, answer: Game | str) -> None:
        held, self._held_keys = self._held_keys or [], None  # from now on keys go straight through
        self._verify_data = None
        if screen.game is not self.game or not screen.held:
            return  # the screen went on to something else meanwhile (the held keys were for the snapshot)
        if isinstance(answer, Game):
            self.adopt(answer)
            screen.take_verified(answer)
            screen.check_pending()
            for key in held:  # typed during the check: played now, in order
                self.post_message(events.Key(key.key, key.character))
            return
        self._check_failed(screen, answer)  # the keys typed meanwhile were meant for that game: dropped

    def _check_failed(self, screen: GameScreen, why: str) -> None:
        """The replay disagrees with the save: the file is moved aside, a new game starts, the
        player reads one line saying so (as `play` does with an autosave it cannot read at all)."""
        from kiev_tui.engine.saves import set_aside

        assert self.verify is not None
        try:
            target = set_aside(self.verify, "damaged-autosave")
        except (OSError, ValueError) as exc:  # the autosave would be written over: nothing is played
            screen.held = screen.message = (f"The autosave failed its check and cannot be moved aside ({exc}); "
                                            f"quit and move {self.verify} yourself")
            screen.refresh_all()
            return
        line = f"The autosave failed its check, so it was set aside as {target} and a new game has started: {why}"
        game = Game.new(self.game.scenario.path, None)
        self.show_game(game, screen, line)
        self.notice = [line]
        self._tell_notice(screen)

    def _tell_notice(self, screen: GameScreen) -> None:
        """Why the game on screen is not the one the player left, and what they may do instead."""
        from kiev_tui.ui.dialogs import PickScreen

        def chosen(answer: str | None) -> None:
            if answer == "load":
                screen.action_load()

        items: list[tuple[str, Any]] = [("Play the new game", "new"), ("Load a saved game", "load")]
        self.push_screen(PickScreen("\n".join(self.notice), items, "Enter to choose"), chosen)
