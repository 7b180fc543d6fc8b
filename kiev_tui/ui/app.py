"""The Textual app: `build_app` for tests, `run_app` for the command line."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete

from kiev_tui.engine import savepaths
from kiev_tui.engine.game import Game
from kiev_tui.later import later
from kiev_tui.ui.adapter import adapter_for
from kiev_tui.ui.game_screen import WHILE_CHECKING, GameScreen
from kiev_tui.ui.glyphs import ASCII, UNICODE, Glyphs
from kiev_tui.ui.cellwidth import install as _cell_widths
from kiev_tui.ui.keychars import install as _key_characters
from kiev_tui.ui.lightstrip import install as _light_strips

_light_strips()  # Textual's strips make their caches when first used, not each one seven at birth (issue 33)
_key_characters()  # a key press asks no Unicode names for Textual's own key names (issue 33)
_cell_widths()  # the map's river glyph measured without Rich's Unicode width table (issue 33)

if os.name == "posix" and not os.environ.get("TEXTUAL_DRIVER"):
    # fewer bytes per screen update: a driver that sends only what changed (ui/wire.py)
    from kiev_tui.ui.driver import ShadowDriver as _Driver
else:
    _Driver = None  # Windows, or a driver named in the environment (textual-serve's web driver)


class KievApp(App[None]):
    """One app, one game at a time, shown on the game's GameScreen (its adapter chooses it)."""

    TITLE = "kiev-tui"
    ENABLE_COMMAND_PALETTE = False
    # Scroll bars are drawn with block characters: none at all in ASCII-only mode.
    CSS = """
    KievApp.-ascii * { scrollbar-size: 0 0; }
    """

    def __init__(self, game: Game, save_path: Path | None = None, ascii: bool = False, mouse: bool = True,
                 saves_dir: Path | None = None, part: Any = None, net: Any = None,
                 notice: list[str] | None = None, verify: Path | None = None,
                 verify_data: dict[str, Any] | None = None) -> None:
        # ANSI colours stay ANSI: the map is drawn in the terminal's own 16 colours (the
        # player's palette), and `ESC[34m` is a third the bytes of a 256-colour code.
        super().__init__(ansi_color=True, driver_class=_Driver)
        self.mouse = mouse  # off: the terminal is never asked for mouse reports (run_app)
        self.part = part  # a game by e-mail: the one side's part played here (kiev_tui/pbem/part.py)
        self.net = net  # a seat at a hosted game: its link to the host (kiev_tui/net/seat.py)
        self.net_gone = False  # the host went away and did not come back (join's exit status)
        self.notice = list(notice or [])  # what the player must read first (an autosave not resumed)
        self.game = game
        # issue 33: ``game`` is this save's snapshot (saves.load_snapshot), shown at once; the save's
        # replay is checked by a worker after the first frame and nothing is played until it passes.
        self.verify = Path(verify) if verify is not None else None
        self._verify_data = verify_data
        #: Keys typed while the save is checked, played in order once it passes (None: not holding).
        self._held_keys: list[events.Key] | None = None
        self.save_path = Path(save_path) if save_path is not None else None
        self.ascii = ascii
        self.glyphs: Glyphs = ASCII if ascii else UNICODE
        # where the save and load dialogs look: the autosave's folder, else the player's saves folder
        if saves_dir is None:
            saves_dir = self.save_path.parent if self.save_path is not None else savepaths.saves_dir()
        self.saves_dir = Path(saves_dir)
        self.animation_level = "none"  # nothing moves by itself on a slow link
        if ascii:
            self.add_class("-ascii")
        self.adopt(game)

    show_game = later("kiev_tui.ui.app_more")

    #: One line saying why the app stopped on an internal error ("" while it has not).
    crash = ""
    #: Where the game as it stood was written after such an error (None: nothing was written).
    crash_save: Path | None = None
    crash_kept = ""  # what became of the game after such an error, in words

    def panic(self, *renderables: Any) -> None:
        """An error outside the app's own loop (Textual's input thread) ends the app: note it."""
        self._crashed("an internal error while reading the keyboard")
        super().panic(*renderables)

    def _handle_exception(self, error: Exception) -> None:
        # Textual's one hook for any error the app did not catch; it ends the app with code 1.
        self._crashed(f"{type(error).__name__}: {error}")
        super()._handle_exception(error)

    _crashed = later("kiev_tui.ui.app_more")

    def _print_error_renderables(self) -> None:
        """After a crash the details go to a file beside the saves and the player reads one line."""
        if not self.crash:
            super()._print_error_renderables()
            return
        from rich.console import Console

        log = None
        try:
            self.saves_dir.mkdir(parents=True, exist_ok=True)
            log = savepaths.unused_path_for("crash-details", self.saves_dir).with_suffix(".log")
            with open(log, "x", encoding="utf-8") as out:
                console = Console(file=out, width=120, color_system=None)
                for renderable in self._exit_renderables:
                    console.print(renderable)
        except OSError:
            log = None
        self._exit_renderables.clear()
        sys.stderr.write(crash_line(self.crash, self.crash_kept, log) + "\n")

    def adopt(self, game: Game) -> None:
        """Make `game` the one being played, saving itself at the end of every phase."""
        self.game = game
        if self.save_path is not None:
            game.autosave_to(self.save_path)

    async def action_quit(self) -> None:
        """ctrl+q: leave at once if nothing would be lost, else ask first (only y says yes)."""
        title = QUIT_TITLE if self.part is None else QUIT_PART_TITLE
        lost = unsaved_lines(self.game) if self.part is None else self.part.unsent()
        if self.net is not None and not getattr(self.net, "local", False):
            lost = []  # the host has every action: a seat loses nothing by leaving
        if not lost:
            self.exit()
            return
        from kiev_tui.ui.dialogs import SAVE_FIRST, ConfirmScreen  # the dialogs load with the first one opened (issue 33)
        if isinstance(self.screen, ConfirmScreen) and self.screen.title_text == title:
            return  # already asking

        saving = self.part is None  # S saves a game; a turn file by e-mail is written by its own keys
        screen = self.screen_stack[1] if len(self.screen_stack) > 1 else None

        def done(yes: bool | str | None) -> None:
            if yes == SAVE_FIRST and isinstance(screen, GameScreen):
                screen.save_then(self.exit)  # quits once the save is written
            elif yes is True:
                self.exit()

        question = "Quit and lose them? (y/n, S save and quit)" if saving else "Quit and lose them? (y/n)"
        self.push_screen(ConfirmScreen(title, lost, question, enter_answers=False,
                                       save_key=saving), done)

    def pop_screen(self) -> AwaitComplete:
        """Close the screen on top, unless it is the game itself.

        Nothing in the app means to close the game screen: a stray close (a dialog closed
        twice by keys sent together) would leave the terminal blank.  Dialogs close only
        once (`dialogs.OnceScreen`); this is the second line of defence.
        """
        if isinstance(self.screen, GameScreen):
            return AwaitComplete.nothing()
        return super().pop_screen()

    def on_mount(self) -> None:
        # the game's adapter (found by the scenario's game) picks the screen it is played on
        adapter = adapter_for(self.game)
        screen = adapter.screen_class()(self.game, adapter)
        if self.part is not None:  # by e-mail: the player plays his own side only, whoever has the turn
            screen.part = self.part
            screen.seat = self.part.side
        if self.verify is not None and self.game.unverified:
            # Nothing on screen says so: the first frame is the game as it will be played, and keys
            # typed meanwhile wait (on_event) and are played once the check passes.
            screen.held = CHECKING
        self.push_screen(screen)
        if screen.held:
            self._held_keys = []  # the check itself starts once the screen is painted (start_check)
        if self.net is not None:  # a seat: one side, its actions played by the host (kiev_tui/net/)
            from kiev_tui.net.face import attach

            attach(self, screen, self.net)
        if not self.is_headless:
            self.set_interval(1.0, self._check_terminal)
        if self.notice:
            self._tell_notice(screen)

    # -- issue 33: a resumed save checked after the first frame ----------------------------------
    async def on_event(self, event: events.Event) -> None:
        # While the save is checked every key that may play waits (quitting aside), in order: a
        # player who types at once plays those keys the moment the check passes, and none if it
        # fails.  Keys that only look (help, rules, the cursor, the log) work at once, as long as
        # nothing typed before them waits: keys never overtake one another.
        if (isinstance(event, events.Key) and self._held_keys is not None and not event.is_forwarded
                and event.key not in KEYS_NOT_HELD):
            if self._held_keys or not self.looks_only(event.key):
                self._held_keys.append(event)
                event.stop()
                return
        await super().on_event(event)

    looks_only = later("kiev_tui.ui.app_more")
    start_check = later("kiev_tui.ui.app_more")
    _check_save = later("kiev_tui.ui.app_more")
    _checked = later("kiev_tui.ui.app_more")
    _check_failed = later("kiev_tui.ui.app_more")
    _tell_notice = later("kiev_tui.ui.app_more")

    def _check_terminal(self) -> None:
        """Leave when the terminal has gone away without a hang-up signal.

        Over SSH a dropped link sends SIGHUP, which ends the program; but a terminal closed
        some other ways just makes every read return nothing, and Textual's input loop would
        then spin on one core for ever.  The autosave of the last phase end is already on disk.
        """
        try:
            alive = os.isatty(sys.__stdin__.fileno())  # type: ignore[union-attr]
        except (OSError, ValueError, AttributeError):
            alive = False
        if not alive:
            threading.Timer(3.0, os._exit, (1,)).start()  # if giving back the terminal hangs
            self.exit(return_code=1)


def crash_line(why: str, kept: str, log: Path | None) -> str:
    """The one line a player reads after the app stopped on an internal error."""
    details = f"; details in {log}" if log is not None else ""
    return f"kiev-tui stopped on an internal error ({why}); {kept}{details}"


def exit_code(app: "KievApp") -> int:
    """The exit status of a finished app: non-zero after a crash (Textual's panic leaves 0)."""
    if getattr(app, "crash", ""):  # a stand-in app of a test may not have the attribute
        return app.return_code or 1
    return app.return_code or 0


QUIT_TITLE = "Quit without saving?"
#: Why nothing is played while a resumed save is checked (issue 33): what play() says if asked
#: (keys themselves wait in KievApp.on_event; a mouse click on the map may still ask).
CHECKING = "Checking the save's moves: keys wait until they match"
#: Keys that work at once while the save is checked (quitting loses nothing: no action is played);
#: keys that only look work at once too (KievApp.looks_only).
KEYS_NOT_HELD = frozenset({"ctrl+q", "ctrl+c"})
QUIT_PART_TITLE = "Quit without writing the turn file?"


def unsaved_lines(game: Game) -> list[str]:
    """What leaving this game now would lose, in words (empty: nothing)."""
    n = game.unsaved
    if not n:
        return []
    what = "1 action" if n == 1 else f"{n} actions"
    return [f"{what} since the last save or autosave (the autosave is made at the end of every phase).",
            "S saves the game under a name of your choice first."]


def build_app(game: Game, save_path: str | Path | None = None, ascii: bool = False, mouse: bool = True,
              part: Any = None, net: Any = None, notice: list[str] | None = None, verify: Path | None = None,
              verify_data: dict[str, Any] | None = None) -> KievApp:
    """The app for a game (tests drive it with Pilot; `run_app` runs it in the terminal).

    ``part``: a game by e-mail, where one side plays his part and the app ends with it.
    ``net``: a seat's link to a host (kiev_tui/net/seat.py), whose replica ``game`` is.
    ``verify``: the save ``game`` is the snapshot of (saves.load_snapshot); it is replayed and
    checked after the first frame, ``verify_data`` being the file as already parsed.
    """
    return KievApp(game, Path(save_path) if save_path is not None else None, ascii=ascii, mouse=mouse, part=part,
                   net=net, notice=notice, verify=verify, verify_data=verify_data)


def run_app(game: Game, save_path: str | Path | None = None, ascii: bool = False, mouse: bool = True) -> None:
    """Build the app and run it in this terminal until the players quit."""
    app = build_app(game, save_path=save_path, ascii=ascii, mouse=mouse)
    app.run(mouse=app.mouse)
    code = exit_code(app)
    if code:
        raise SystemExit(code)
