"""The methods of kiev_tui.ui.files that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in files.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import Callable

from kiev_tui.ui.files import (  # noqa: F401
    DataError, Game, Path, ai_sides, savepaths,
)


class FileCommands:
    """Methods of files.FileCommands that a new game's first frame never calls."""

    def save_then(self, then: Callable[[], None] | None) -> None:
        """Ask for a name and save; ``then`` runs once the save is written (S in the quit and
        load dialogs saves, then quits or goes on to the list of saves)."""
        from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen  # dialogs load with the first one opened (issue 33)

        st = self.game.state
        folder = self.kapp.saves_dir
        suggested = f"turn{st.turn:02d}-{st.player}-{st.phase}"

        def done(text: str | None) -> None:
            if not text:
                return
            try:  # only a plain name, and only in the saves folder
                path = savepaths.save_path_for(text, folder)
            except savepaths.BadSaveName as exc:
                self.say(f"Not saved: {exc}")
                return
            problem = savepaths.replace_problem(path)
            if problem is not None:
                self.say(f"Not saved: {problem}")
                return
            if not path.exists():
                if self._write_save(path) and then is not None:
                    then()
                return

            def replace(yes: bool | None) -> None:
                if yes:
                    if self._write_save(path) and then is not None:
                        then()
                else:
                    self.say(f"Not saved: {path.name} kept as it was")

            self.app.push_screen(ConfirmScreen("Replace a save?", [f"{path.name} is already in {folder}/."],
                                               "Replace it with this game? (y/n)", enter_answers=False), replace)

        self.app.push_screen(AskScreen(f"Save the game in {folder}/ as", suggested, suggested), done)

    def _write_save(self, path: Path) -> bool:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # the saves folder itself, nothing under it
            self.game.save(path)
        except OSError as exc:
            self.say(f"Could not save to {path}: {exc.strerror or exc}")
            return False
        self.say(f"Saved to {path}")
        return True

    def action_load(self) -> None:
        from kiev_tui.ui.dialogs import SAVE_FIRST, ConfirmScreen, list_saves

        saves = list_saves(self.kapp.saves_dir)
        if not saves:
            self.say(f"No saves in {self.kapp.saves_dir}/")
            return
        from kiev_tui.ui.app import unsaved_lines

        lost = unsaved_lines(self.game)
        if lost:  # a load replaces the game at once: ask first, and never by Enter typed ahead

            def go_on(yes: bool | str | None) -> None:
                if yes == SAVE_FIRST:  # save under a name, then choose the save to load
                    self.save_then(lambda: self._pick_save(list_saves(self.kapp.saves_dir)))
                elif yes is True:
                    self._pick_save(saves)

            self.app.push_screen(ConfirmScreen("Load over unsaved moves?", lost,
                                               "Load and lose them? (y/n, S save first)",
                                               enter_answers=False, save_key=True), go_on)
            return
        self._pick_save(saves)

    def _pick_save(self, saves: list[Path]) -> None:
        from kiev_tui.ui.dialogs import PickScreen


        def done(path: Path | None) -> None:
            if path is None:
                return
            try:
                game = Game.load(path)
            except DataError as exc:
                self.say(f"Cannot load: {exc.line()}")
                return
            except (OSError, ValueError) as exc:  # a file that changed under the list
                self.say(f"Cannot load {path.name}: {exc}")
                return
            # Hot-seat: going back to an earlier save of this game is told in the log both players read.
            self._drop_ai()  # a loaded game is played by two players at this keyboard
            back = self.game.note_reload(path.name, game)
            note = f" ({back.describe()})" if back is not None else ""
            self.kapp.show_game(game, self, f"Loaded {path}: {game.phase}{note}")

        self.app.push_screen(PickScreen("Load a saved game", [(p.name, p) for p in saves]), done)

    def action_new_game(self) -> None:
        from kiev_tui.ui.dialogs import NewGameScreen

        keep = self._keep_path()
        lines = [f"Start {self.game.scenario.title} again from turn 1?"]
        if keep is not None:
            lines.append(f"The game in progress is saved first, as {keep.name} in {keep.parent}/.")
        else:
            lines.append("The game in progress has no moves yet: there is nothing to keep.")
        question = "Go ahead? (y/n)"
        sides = ai_sides(self.game)
        if sides:
            offers = [f"{n}: the computer plays {self.game.rules.schema.side_name(s)}"
                      for n, s in enumerate(sides[:2], 1)]
            lines.append("")
            lines.append(";  ".join(["y: two players at this keyboard"] + offers))
            question = "y / " + " / ".join(str(n) for n in range(1, len(offers) + 1)) + ", or n to go on with this game"

        def done(answer: bool | str | None) -> None:
            if answer is True:
                self.start_new_game()
            elif isinstance(answer, str) and answer in sides:
                self.start_new_game(ai=answer)

        self.app.push_screen(NewGameScreen("New game", lines, question, sides[:2]), done)

    def _keep_path(self) -> Path | None:
        """Where the game in progress goes before a new one replaces it (None: nothing to keep)."""
        if not self.game.log:
            return None
        st = self.game.state
        try:
            return savepaths.unused_path_for(f"previous-turn{st.turn:02d}-{st.player}-{st.phase}",
                                             self.kapp.saves_dir)
        except savepaths.BadSaveName:
            return None

    def start_new_game(self, ai: str = "", level: str = "strong") -> None:
        """A new game of the same scenario; the one in progress is saved under a name of its own.

        ``ai``: the side the computer plays ("" for two players at this keyboard).
        """
        keep = self._keep_path()
        if keep is not None and not self._write_save(keep):
            return  # the old game could not be kept: it stays, and the message says why
        # fresh dice, never the last game's: each roll from the OS's entropy (issue 16), same variants
        game = Game.new(self.game.scenario.id, None, options=self.game.options)
        self._drop_ai()
        self.kapp.adopt(game)
        self.set_game(game)
        said = f"New game; the previous one is saved as {keep}" if keep is not None else "New game"
        if ai:
            from kiev_tui.ai.local import ai_link
            from kiev_tui.net.face import attach

            link = ai_link(game, ai, level)
            self.kapp.net = link
            attach(self.kapp, self, link)
            said += f"; the computer ({level}) plays the {game.rules.schema.side_name(ai)} side"
        self.say(said)

    def _drop_ai(self) -> None:
        """Stop the computer player of the game being replaced, if it has one: hot-seat again."""
        link = getattr(self.kapp, "net", None)
        close = getattr(link, "ai_side", None) and getattr(link, "close", None)
        if close:
            close()
            self.kapp.net = None
            self.net = None
            self.net_move = None
