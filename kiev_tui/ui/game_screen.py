"""The game screen: map, tracker, inspector, log, status line and key bar, and which keys work.

It knows no game: it asks the rule system (`game.rules`) and the game's presentation adapter
(`ui/adapter.py`) everything, so a game without an adapter still opens and plays here.  What
the keys of play do is in `controller.py` (`PlayControls`), saving and loading in `files.py`
(`FileCommands`); both are mixed into `GameScreen`.  A game with commands of its own (Kiev's
attacks, overruns, rail moves) subclasses the screen, adds its keys as `GAME_KEYS` and
overrides the hooks (`select_in_phase`, `act_on`, `find_reach`, `answer_pending`, ...).

The screen never changes the game except through `game.apply(action)` and `game.undo()`;
refusals are shown with their rule case, and `r` opens the rules at that case.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual._context import NoActiveAppError
from textual.screen import Screen

from kiev_tui import gcpause
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.later import later
from kiev_tui.ui.adapter import Overlay, adapter_for, occupancy, side_of
from kiev_tui.ui.controller import PlayControls, toggle
from kiev_tui.ui.files import FileCommands
from kiev_tui.ui.hexmap import COMPACT, FULL, HexMap, hex_text
from kiev_tui.ui.logview import WrapLog
from kiev_tui.ui.widgets import KeyBar, Panel

if TYPE_CHECKING:
    from kiev_tui.ui.app import KievApp

__all__ = ["GameScreen", "KeyBar", "MIN_SIZE", "Panel", "READ_ONLY_ACTIONS", "binding", "toggle"]

# The smallest terminal the game is played in: the 32-column side panel plus five hex columns
# of map, and six hex rows with the status line and the key bar.  Below it the panels would be
# scraps (at 40x12 the map was six cells wide), so the screen asks for a bigger window instead.
MIN_SIZE = (60, 16)
# Keys that only open something to read (each screen fits any size): they work in a window
# too small for the map; the keys that play wait until the map can be seen.
READ_ONLY_ACTIONS = frozenset({"help", "rules", "legend", "score"})
# Keys that would put another game in place of the one a player plays his e-mail part in.
PART_LOCKED = frozenset({"load", "new_game"})
# Keys that work while a resumed game's save is still being checked (issue 33): looking only.
WHILE_CHECKING = READ_ONLY_ACTIONS | frozenset({"cursor", "column", "log", "zoom", "inspect_wide", "goto"})
# Keys a seat at a hosted game does without: the record is the host's, no other game replaces it.
NET_LOCKED = frozenset({"load", "new_game"})

def binding(keys: str, action: str, text: str, display: str | None = None, show: bool = True) -> Binding:
    """A key of the game screen: priority over the map's own keys, a plain-ASCII label."""
    # every key shown in the footer gets a plain-ASCII label (Textual would draw arrows etc.)
    return Binding(keys, action, text, show=show, key_display=display or keys.split(",")[0], priority=True)


_b = binding

#: The keys every game has, before a game's own keys in the key bar ...
HEAD_KEYS = [
    _b("up,k", "cursor('N')", "", show=False),
    _b("down,j", "cursor('S')", "", show=False),
    _b("left,h", "column(-1)", "", show=False),
    _b("right,l", "column(1)", "", show=False),
    _b("w", "cursor('N')", "", show=False),
    _b("s", "cursor('S')", "", show=False),
    _b("q", "cursor('NW')", "", show=False),
    _b("e", "cursor('NE')", "", show=False),
    _b("a", "cursor('SW')", "", show=False),
    _b("d", "cursor('SE')", "", show=False),
    _b("enter,space", "select", "Select", "Enter"),
    _b("escape", "cancel", "Back", "Esc"),
    _b("tab", "next_actor", "Next", "Tab"),
]
#: ... and after them.
TAIL_KEYS = [
    _b("p", "pending", "Answer"),
    _b("P", "end_phase", "End phase"),
    _b("question_mark", "help", "Help", "?"),
    _b("u", "undo", "Undo"),
    _b("r", "rules", "Rules"),
    _b("g", "goto", "Go to", show=False),
    _b("C", "choose", "Choose", show=False),  # the rules' choices for this side (views and secrets)
    *[_b(str(n), f"pick({n})", "", show=False) for n in range(1, 10)],
    _b("L", "legend", "Legend", show=False),
    _b("v", "score", "Score", show=False),
    _b("I", "inspect_wide", "Inspector", show=False),
    _b("z", "zoom", "Zoom", show=False),
    _b("S", "save", "Save", show=False),
    _b("O", "load", "Load", show=False),
    _b("N", "new_game", "New", show=False),
    _b("pageup", "log(-1)", "", show=False),
    _b("pagedown", "log(1)", "", show=False),
]


#: Journal lines built beyond a screen's height when a game is shown (older ones: on scrolling back).
LOG_SPARE = 20


class GameScreen(PlayControls, FileCommands, Screen[None]):
    """Where the game is played: the panels and keys here, play in controller.py, files in files.py."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    # Under 30 rows the tracker shrinks to its first lines (turn, score, phases), so that the
    # inspector can show a whole stack at 80x24.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    DEFAULT_CSS = """
    GameScreen #body { height: 1fr; }
    GameScreen HexMap { width: 1fr; height: 1fr; }
    GameScreen #side { width: 44; height: 1fr; }
    GameScreen.-narrow #side { width: 32; }
    GameScreen #side > * { border: none; border-top: ascii $secondary; border-title-color: $text; }
    GameScreen #tracker { height: 12; overflow: hidden; }
    GameScreen #inspector { height: 1fr; min-height: 5; overflow: hidden; }
    GameScreen #log { height: 1fr; min-height: 4; }
    GameScreen #status { height: 1; }
    GameScreen.-narrow #tracker { height: 9; }
    GameScreen.-narrow #inspector { height: 2fr; }
    GameScreen.-narrow.-short #tracker { height: 6; }
    GameScreen.-narrow.-short #inspector { height: 3fr; }
    GameScreen.-inspect HexMap { display: none; }
    GameScreen.-inspect #side { width: 1fr; layout: horizontal; }
    GameScreen.-inspect #tracker { width: 32; height: 1fr; }
    GameScreen.-inspect #inspector { width: 1fr; height: 1fr; }
    GameScreen.-inspect #log { display: none; }
    GameScreen.-inspect #status { height: 2; }
    GameScreen #toosmall { display: none; height: 1fr; }
    GameScreen.-toosmall #toosmall { display: block; }
    GameScreen.-toosmall #body, GameScreen.-toosmall #status, GameScreen.-toosmall #keys { display: none; }
    """

    BINDINGS = HEAD_KEYS + TAIL_KEYS
    #: A game's own keys (a subclass sets BINDINGS = GAME_KEYS = [...]): shown after Next.
    GAME_KEYS: ClassVar[list[Binding]] = []
    #: Shorter labels for a game's own keys (action -> label), used when the key bar is full.
    SHORT_LABELS: ClassVar[dict[str, str]] = {}

    def __init__(self, game: Game, adapter: Any = None) -> None:
        super().__init__()
        self.game = game
        self.adapter = adapter if adapter is not None else adapter_for(game)
        self.cursor = self._first_cursor()
        self.overlay = Overlay()
        self.sel_hex: Hex | None = None
        self.message = ""
        self.last_case: str | None = None
        self._supply_key: tuple[int, int, int] | None = None
        self._supply: Any = None
        self._logged = 0
        self._handing_off = False
        #: Why no action may be played yet ("" when play is open): a resumed game is shown from its
        #: save's snapshot while the save's replay is checked (KievApp.verify, issue 33).
        self.held = ""
        self._listing_keys = False
        # hot-seat: the side at the keyboard, whose actions play() submits: the phase's owner, so a
        # pending answer of the other side is handed over first (issue 20)
        self.seat = game.phase.owner
        #: What runs once the first frame is on the terminal (the cycle collector, a resumed save's check).
        self._after_first_paint: list[Callable[[], object]] = []
        try:  # issue 33: styled once, with its breakpoint classes, when first mounted
            self._set_breakpoints(update=False)
        except NoActiveAppError:
            pass  # built outside a running app: on_mount sets them

    @property
    def kapp(self) -> "KievApp":
        return self.app  # type: ignore[return-value]

    @classmethod
    def key_order(cls) -> list[Binding]:
        """Every key in the order the key bar shows them."""
        return HEAD_KEYS + list(cls.GAME_KEYS) + TAIL_KEYS

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield HexMap(self.game.scenario.map, self.kapp.glyphs, id="map",
                         first_side=self.adapter.first_side(self.game))
            with Vertical(id="side"):
                yield Panel(id="tracker")
                yield Panel(id="inspector")
                log = WrapLog(id="log", max_lines=5000)
                log.can_focus = False
                yield log
        yield Panel(id="status")
        yield KeyBar(id="keys", short=self.SHORT_LABELS)
        yield Panel(id="toosmall")

    def _set_breakpoints(self, update: bool) -> None:
        """The breakpoint classes for the terminal's size, set together (each class set on its own
        with ``update`` restyles the whole screen: four times over on the first frame)."""
        width, height = self.app.size
        narrow = width < self.HORIZONTAL_BREAKPOINTS[1][0]
        short = height < self.VERTICAL_BREAKPOINTS[1][0]
        classes = {"-narrow": narrow, "-wide": not narrow, "-short": short, "-tall": not short}
        if any(self.has_class(name) != on for name, on in classes.items()):
            for name, on in classes.items():
                self.set_class(on, name, update=False)
            if update:
                self.update_node_styles(animate=False)

    #: A paint was asked for while the app was still starting: it is made once the start is over.
    _paint_after_start = False
    #: Whether a paint of this screen has gone to the terminal.
    _painted = False

    def _compositor_refresh(self) -> None:
        # Issue 33: this screen is pushed while Textual still starts the app (inside its batch),
        # and Textual would paint the whole screen there only to throw the paint away
        # (App._display drops everything in a batch).  Nothing is painted until the start is
        # over; then one paint shows the screen as it stands, the log's lines and every other
        # change made meanwhile included (the dirty regions add up until that paint).
        app = self.app
        if app._batch_count and self is app.screen:
            if not self._paint_after_start:
                self._paint_after_start = True
                app.call_later(self._paint_started)  # the app's queue runs once its start is over
            return
        super()._compositor_refresh()
        if not self._painted and self is app.screen:
            self._painted = True
            # what waits for the first frame runs once it is out: the next time the screen is idle
            for callback in self._after_first_paint:
                self.call_after_refresh(callback)
            self._after_first_paint.clear()

    def _paint_started(self) -> None:
        """The paint held while the app started, now (what the screen's update timer would do on its next tick)."""
        self._paint_after_start = False
        if self.is_current:
            if not self._layout_required:  # (a layout paints every region dirtied meanwhile)
                self._repaint_required = True
            self._on_timer_update()

    #: Whether the screen has been on show before (its first showing needs no restyle).
    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler.  The first time the screen is shown its widgets
        # were styled as they were mounted, a moment ago, and nothing has changed since:
        # Textual would style the whole screen again (issue 33: 2 ms of the first frame).  Each
        # later return (a dialog closed over it) is restyled as Textual does it.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        # The breakpoint classes, set before the first layout rather than on the first Resize:
        # on a narrow terminal that saves a second layout and a repaint of the whole map.
        # (__init__ set them already when the app was running: then nothing is restyled here.)
        self._set_breakpoints(update=True)
        self._fit_side()
        self.query_one("#tracker").border_title = self.tracker_title()
        self.query_one("#inspector").border_title = "Inspector (I: full width)"
        self.query_one("#log").border_title = "Log"
        hexmap = self.query_one(HexMap)
        hexmap.focus()
        hexmap.painter.cursor = self.cursor
        hexmap.center_when_sized(self.cursor)
        self._fit_terminal()
        self.refresh_all()
        self.call_after_refresh(self.check_pending)
        # the cycle collector, paused while `play` starts, runs again once this frame is painted
        self._after_first_paint.append(gcpause.resume)
        if self.held:  # a resumed save: checked once this first frame is on the terminal (issue 33)
            self._after_first_paint.append(partial(self.kapp.start_check, self))

    # -- the size of the terminal -----------------------------------------------------------
    def too_small(self) -> bool:
        w, h = self.app.size
        return w < MIN_SIZE[0] or h < MIN_SIZE[1]

    def _fit_terminal(self) -> None:
        """Panels, or one line asking for a bigger window; the map back in place when it grows."""
        small = self.too_small()
        was = self.has_class("-toosmall")
        if small:
            w, h = self.app.size
            self.query_one("#toosmall", Panel).show(f"Enlarge the window to {MIN_SIZE[0]}x{MIN_SIZE[1]} (now {w}x{h})")
        if small == was:
            return
        self.set_class(small, "-toosmall")
        self.query_one(KeyBar).show(self.working_keys())
        if not small:
            hexmap = self.query_one(HexMap)
            hexmap.focus()
            hexmap.center_when_sized(self.cursor)

    def on_resize(self) -> None:
        self._fit_terminal()
        self._fit_side()
        tracker, title = self.query_one("#tracker"), self.tracker_title()
        if tracker.border_title != title:  # its narrow form, or not (set alike, it repaints the panel anyway)
            tracker.border_title = title

    def _fit_side(self) -> None:
        """Give the side panels the columns the whole map does not need: on a wide terminal
        the map would otherwise end in a blank band (35 columns at 250x80)."""
        side = self.query_one("#side")
        if self.has_class("-inspect"):
            side.styles.width = None  # the stylesheet's full width
            return
        hexmap = self.query_one(HexMap)
        w, h = self.app.size
        base = 32 if w < self.HORIZONTAL_BREAKPOINTS[1][0] else 44
        need = hexmap.painter.size.width
        if hexmap.painter.size.height > h - 2:  # status line and key bar: the map scrolls
            need += hexmap.styles.scrollbar_size_vertical
        width = max(base, w - need)
        if side.styles.width is None or side.styles.width.value != width:
            side.styles.width = width

    def _first_cursor(self) -> Hex:
        for h in self.adapter.actors(self.game):
            return h
        player = self.game.actor
        mine = sorted(h for h, ids in occupancy(self.game).items() if side_of(self.game, ids[0]) == player)
        return mine[0] if mine else min(self.game.scenario.map.hexes())

    # -- reading the position -------------------------------------------------------------
    def view(self) -> Any:
        """The rule system's cached view of the position."""
        return self.game.rules.position(self.game)

    def supply(self, view: Any = None) -> Any:
        """The adapter's supply answer for this position, worked out once per position (it is slow)."""
        # the game's own mark of a changed position (as its memo uses), not a hash of the whole
        # state: that cost a millisecond or two at every call, two calls a refresh (issue 33)
        game = self.game
        key = (id(game), game.version, id(game.state))
        if key != self._supply_key:
            self._supply = self.adapter.supply(self.game)
            self._supply_key = key
        return self._supply

    def name_ids(self, text: str) -> str:
        """Engine text with unit names instead of ids (issue 20)."""
        return str(self.adapter.name_ids(self.game, text))

    def hex_id(self, h: Hex) -> str:
        return hex_text(self.game.scenario.map, h)

    take_verified = later("kiev_tui.ui.game_screen_more")
    set_game = later("kiev_tui.ui.game_screen_more")

    def looks(self) -> Any:
        return self.adapter.hex_looks(self.game, self.supply(), self.overlay, self.kapp.glyphs)

    def refresh_all(self) -> None:
        self._refresh_path()
        self.query_one(HexMap).update_looks(self.looks())
        self.query_one("#tracker", Panel).show(self.name_ids("\n".join(self.adapter.tracker_lines(self.game))))
        self._refresh_inspector()
        self._refresh_log()
        self._refresh_status()
        self.query_one(KeyBar).show(self.working_keys())

    def _refresh_inspector(self) -> None:
        chosen = self.overlay.selected + self.overlay.attackers
        lines = list(self.adapter.inspector_lines(self.game, self.cursor, self.supply(), chosen))
        if self.overlay.targets:
            lines.append(f"Targets: {', '.join(self.overlay.targets)}")
        self.query_one("#inspector", Panel).show("\n".join(lines))

    def _refresh_log(self) -> None:
        log = self.query_one("#log", WrapLog)
        journal = self.game.journal
        if len(journal) < self._logged:  # undo took lines back
            log.clear()
            self._logged = 0
        if not self._logged and journal:
            # a resumed game has hundreds of lines: build what fits, the rest when scrolled back to
            entries = list(journal)
            log.show_tail(len(entries), lambda i: self._log_line(entries[i]), tail=self.app.size.height + LOG_SPARE)
        else:
            log.add_lines(self._log_line(e) for e in journal[self._logged:])
        self._logged = len(journal)

    def _log_line(self, entry: Any) -> Text:
        return Text(self.name_ids(entry.describe()))  # names, not ids (issue 20)

    selection_note = later("kiev_tui.ui.game_screen_more")

    def tracker_title(self) -> str:
        """The tracker's title; against the computer it names the side the computer plays."""
        ai = getattr(self.net, "ai_side", None) if self.net is not None else None
        if not ai:
            return "Sequence of play"
        name = self.adapter.side_name(self.game, ai)
        return f"Computer plays {name}" if self.has_class("-narrow") else f"Sequence of play; computer plays {name}"

    def _refresh_status(self) -> None:
        tracker = self.query_one("#tracker")
        title = self.tracker_title()
        if tracker.border_title != title:  # a new game against the computer, or one without it
            tracker.border_title = title
        name = self.game.scenario.map.name(self.cursor)
        where = self.hex_id(self.cursor) + (f" {name}" if name else "")
        parts = [where]
        if self.net is not None:
            from kiev_tui.net.face import waiting_line

            waiting = waiting_line(self)
            if waiting:
                parts.append(waiting)
        if self.overlay.selected:
            note = self.selection_note()
            if note:
                parts.append(note)
        pending = self.adapter.pending(self.game)
        if self.message:
            parts.append(self.message)
        elif pending is not None:
            parts.append(f"waiting: {pending.prompt} (p to answer)")
        # the hex alone is what the inspector's first line says already: a plain cursor move then
        # leaves this line as it is (issue 33); next to a note or a message it says where
        line = self.name_ids(" | ".join(parts)) if len(parts) > 1 else ""  # names, not ids
        self.query_one("#status", Panel).show(line, wrap=self.has_class("-inspect"))

    def say(self, text: str) -> None:
        self.message = text
        self._refresh_status()

    refuse = later("kiev_tui.ui.game_screen_more")
    action_help = later("kiev_tui.ui.game_screen_more")
    action_legend = later("kiev_tui.ui.game_screen_more")
    action_rules = later("kiev_tui.ui.game_screen_more")
    action_score = later("kiev_tui.ui.game_screen_more")
    action_inspect_wide = later("kiev_tui.ui.game_screen_more")
    action_zoom = later("kiev_tui.ui.game_screen_more")
    action_log = later("kiev_tui.ui.game_screen_more")

    # -- which keys work now ----------------------------------------------------------------
    def working_keys(self) -> tuple[tuple[str, str, str], ...]:
        """(key, label, action) of every footer key that does something now."""
        out = []
        self._listing_keys = True  # keys held during a save's check still do what the bar says, later
        try:
            for b in self.key_order():
                if b.show and self.check_action(b.action, ()):
                    out.append((b.key_display or b.key.split(",")[0], b.description, b.action))
        finally:
            self._listing_keys = False
        return tuple(out)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.held and not self._listing_keys and action.split("(", 1)[0] not in WHILE_CHECKING:
            return False  # the save on screen is not yet checked: nothing may be played from it
        if self.has_class("-toosmall") and action not in READ_ONLY_ACTIONS:
            return False  # nothing is played blind while the window is too small to show the map
        if self.locked_while_computer_acts(action):
            return False  # the computer opponent has the move (controller.py)
        if action == "pending":
            if self.net is not None and self.game.actor != self.seat:
                return False  # the other player's choice, answered at his own screen
            return self.adapter.pending(self.game) is not None
        if self.part is not None and action in PART_LOCKED:
            return False  # a game by e-mail is its record: no other game may replace it on this screen
        if self.net is not None and action in NET_LOCKED and not getattr(self.net, "local", False):
            return False  # a hosted game's record is the host's (a computer opponent's link is local)
        return True
