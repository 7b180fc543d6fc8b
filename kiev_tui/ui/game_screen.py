"""The game screen: map, tracker, inspector, log, status line and key bar; the keys of play.

It knows no game: it asks the rule system (`game.rules`) and the game's presentation adapter
(`ui/adapter.py`) everything, so a game without an adapter still opens and plays here.  A game
with commands of its own (Kiev's attacks, overruns, rail moves) subclasses the screen, adds
its keys as `GAME_KEYS` and overrides the hooks below (`select_in_phase`, `act_on`, ...).

The screen never changes the game except through `game.apply(action)` and `game.undo()`;
refusals are shown with their rule case, and `r` opens the rules at that case.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from kiev_tui.engine import savepaths
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import DataError, Illegal
from kiev_tui.engine.game import Game, new_seed
from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.ui.adapter import Overlay, adapter_for, occupancy, side_of
from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen, HandoffScreen, PickScreen, ScoreScreen, TextScreen, list_saves
from kiev_tui.ui.hexmap import COMPACT, FULL, HexMap, hex_text, parse_hex
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

_DIRS = {"N": Direction.N, "NE": Direction.NE, "SE": Direction.SE, "S": Direction.S,
         "SW": Direction.SW, "NW": Direction.NW}


def toggle(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """`items` with `item` dropped if it is there, else added at the end."""
    return tuple(i for i in items if i != item) if item in items else items + (item,)


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


class GameScreen(Screen[None]):
    """Where the game is played."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

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

    def __init__(self, game: Game, adapter: Any = None) -> None:
        super().__init__()
        self.game = game
        self.adapter = adapter if adapter is not None else adapter_for(game)
        self.cursor = self._first_cursor()
        self.overlay = Overlay()
        self.sel_hex: Hex | None = None
        self.message = ""
        self.last_case: str | None = None
        self._supply_key: str = ""
        self._supply: Any = None
        self._logged = 0
        self._handing_off = False
        self.seat = game.state.player  # hot-seat: the side at the keyboard, whose actions play() submits

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
        yield KeyBar(id="keys")
        yield Panel(id="toosmall")

    def on_mount(self) -> None:
        # The breakpoint class, set before the first layout rather than on the first Resize:
        # on a narrow terminal that saves a second layout and a repaint of the whole map.
        narrow = self.app.size.width < self.HORIZONTAL_BREAKPOINTS[1][0]
        self.set_class(narrow, "-narrow")
        self.set_class(not narrow, "-wide")
        self.query_one("#tracker").border_title = "Sequence of play"
        self.query_one("#inspector").border_title = "Inspector (I: full width)"
        self.query_one("#log").border_title = "Log"
        hexmap = self.query_one(HexMap)
        hexmap.focus()
        hexmap.painter.cursor = self.cursor
        hexmap.center_when_sized(self.cursor)
        self._fit_terminal()
        self.refresh_all()
        self.call_after_refresh(self.check_pending)

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

    def _first_cursor(self) -> Hex:
        for h in self.adapter.actors(self.game):
            return h
        player = self.game.state.player
        mine = sorted(h for h, ids in occupancy(self.game).items() if side_of(self.game, ids[0]) == player)
        return mine[0] if mine else min(self.game.scenario.map.hexes())

    # -- reading the position -------------------------------------------------------------
    def view(self) -> Any:
        """The rule system's cached view of the position."""
        return self.game.rules.view(self.game)

    def supply(self, view: Any = None) -> Any:
        """The adapter's supply answer for this position, worked out once per position (it is slow)."""
        key = f"{id(self.game)}:{self.game.state_hash()}"
        if key != self._supply_key:
            self._supply = self.adapter.supply(self.game)
            self._supply_key = key
        return self._supply

    def name_ids(self, text: str) -> str:
        """Engine text with unit names instead of ids (issue 20)."""
        return str(self.adapter.name_ids(self.game, text))

    def hex_id(self, h: Hex) -> str:
        return hex_text(self.game.scenario.map, h)

    def set_game(self, game: Game) -> None:
        """Show another game (new or loaded) in this screen."""
        self.game = game
        self.adapter = adapter_for(game)
        self.seat = game.state.player
        self.clear_selection()
        hexmap = self.query_one(HexMap)
        hexmap.set_map(game.scenario.map)
        hexmap.painter.first_side = self.adapter.first_side(game)
        self.cursor = self._first_cursor()
        hexmap.painter.cursor = self.cursor
        self._logged = 0
        self.query_one("#log", WrapLog).clear()
        self.last_case = None
        self.refresh_all()
        hexmap.scroll_to_hex(self.cursor, True)

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
        for e in journal[self._logged:]:
            log.add(Text(self.name_ids(e.describe())))  # names, not ids (issue 20)
        self._logged = len(journal)

    def selection_note(self) -> str | None:
        """What the status line says about the selected stack and the hex under the cursor."""
        r = self.overlay.reach.get(self.cursor)
        if r is None:
            return None
        return f"{r.cost:g} MP" if r.ok else f"no: [{r.case}] {r.why}"

    def _refresh_status(self) -> None:
        name = self.game.scenario.map.name(self.cursor)
        where = self.hex_id(self.cursor) + (f" {name}" if name else "")
        parts = [where]
        if self.overlay.selected:
            note = self.selection_note()
            if note:
                parts.append(note)
        pending = self.adapter.pending(self.game)
        if self.message:
            parts.append(self.message)
        elif pending is not None:
            parts.append(f"waiting: {pending.prompt} (p to answer)")
        line = self.name_ids(" | ".join(parts))  # refusals and prompts name units, not ids
        self.query_one("#status", Panel).show(line, wrap=self.has_class("-inspect"))

    def say(self, text: str) -> None:
        self.message = text
        self._refresh_status()

    def refuse(self, illegal: Illegal) -> None:
        self.last_case = illegal.case
        self.say(f"Refused [{illegal.case}] {illegal.why} (r: read {illegal.case})")

    # -- playing --------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        """Check and apply one action; show the refusal or what followed."""
        illegal = self.game.check(action, side=self.seat)
        if illegal is not None:
            self.refuse(illegal)
            return False
        events = self.game.apply(action, side=self.seat)
        self.message = events[-1].describe() if events else ""
        self.last_case = None
        self.after(events)
        return True

    def after(self, events: list[Any]) -> None:
        changed = [e for e in events if e.kind == "player_changed"]
        if changed:
            self.clear_selection()
        self.refresh_all()
        if self.game.state.over:
            self.call_after_refresh(self.show_score)
        elif changed:
            self.hand_off(changed[-1].player)
        else:
            self.check_pending()

    def hand_off(self, player: str, note: str | None = None) -> None:
        """Hide the map until `player` is at the keyboard; a `note` keeps the cursor (a mid-phase hand-over)."""
        self._handing_off = True
        if note is None:
            self.cursor = self._first_cursor()
            self.query_one(HexMap).set_cursor(self.cursor)

        def done(_: None) -> None:
            self._handing_off = False
            self.seat = player
            self.refresh_all()
            self.check_pending()

        text = note if note is not None else self.name_ids("\n".join(self.game.phase.todo))
        self.app.push_screen(HandoffScreen(player, self.game.state.turn, text), done)

    def check_pending(self) -> None:
        if self._handing_off or self.app.screen is not self:
            return
        st = self.game.state
        if self.adapter.pending(self.game) is not None:
            self.action_pending()
        elif not st.over and self.seat != st.player:  # the other side has answered: hand back
            self.hand_off(st.player, f"Back to the {self.adapter.side_name(self.game, st.player)} player's turn.")

    def show_score(self) -> None:
        heading, lines = self.adapter.final_score(self.game)

        def done(what: str | None) -> None:
            if what == "new":
                self.start_new_game()
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(ScoreScreen(lines, heading), done)

    # -- selection ------------------------------------------------------------------------
    def clear_selection(self) -> None:
        self.overlay = Overlay()
        self.sel_hex = None

    def _own_stack(self, view: Any, h: Hex) -> list[str]:
        """The units of the side to play in a hex, top first."""
        player = self.game.state.player
        ids = [u for u in occupancy(self.game).get(h, []) if side_of(self.game, u) == player]
        return list(self.adapter.stack_order(self.game, ids))

    def select_at(self, h: Hex) -> None:
        """Select the stack of the side to play in a hex: the units of it that may move now."""
        own = self._own_stack(self.view(), h)
        if not own:
            ids = occupancy(self.game).get(h, [])
            if ids:
                player = self.game.state.player
                self.say(f"Those are {self.adapter.side_name(self.game, side_of(self.game, ids[0]))} units; "
                         f"it is the {self.adapter.side_name(self.game, player)} player's turn")
            else:
                self.say("No units here")
            return
        movers = [u for u in own if self.adapter.can_move(self.game, u)]
        if not movers:
            self.refuse_stack(own)
            return
        self.set_selection(tuple(movers), h)

    def refuse_stack(self, units: list[str]) -> None:
        """Say why none of these units can move: the rules' own reason and case."""
        reach = self.game.reachable(tuple(units))
        why = next((r for r in reach.values() if not r.ok), None)
        if why is not None:
            self.refuse(Illegal(why.case, why.why))
        else:
            self.say("None of these units can move now")

    def set_selection(self, units: tuple[str, ...], h: Hex) -> None:
        self.overlay = Overlay(selected=units)
        self.sel_hex = h
        if units:
            self.find_reach(units)
        self.message = f"Selected {', '.join(units)}" if units else ""
        self.refresh_all()

    def find_reach(self, units: tuple[str, ...]) -> None:
        """Fill the overlay with where the selected units may go."""
        self.overlay.reach = dict(self.game.reachable(units))

    def _refresh_path(self) -> None:
        if not self.overlay.selected:
            self.overlay.path = ()
            return
        r = self.overlay.reach.get(self.cursor)
        self.overlay.path = tuple(r.path) if r is not None and r.ok else ()

    # -- key actions: cursor --------------------------------------------------------------
    def move_cursor(self, h: Hex) -> None:
        if not self.game.scenario.map.on_map(h):
            return
        self.cursor = h
        self.message = ""
        hexmap = self.query_one(HexMap)
        hexmap.set_cursor(h)
        if self.overlay.selected:
            old = self.overlay.path
            self._refresh_path()
            if old != self.overlay.path:
                hexmap.update_looks(self.looks())
        self._refresh_inspector()
        self._refresh_status()

    def action_cursor(self, direction: str) -> None:
        self.move_cursor(self.cursor.step(_DIRS[direction]))

    def action_column(self, delta: int) -> None:
        self.move_cursor(Hex(self.cursor.col + delta, self.cursor.row))

    def action_goto(self) -> None:
        gmap = self.game.scenario.map

        def done(text: str | None) -> None:
            text = (text or "").strip()
            if not text:
                return
            try:
                h = parse_hex(gmap, "".join(text.split()))  # "07 02" as typed is 0702
            except ValueError:
                found = gmap.find(" ".join(text.split()))
                if found is None:
                    self.say(f"No hex or place called {text!r}")
                    return
                h = found
            if not gmap.on_map(h):
                self.say(f"{self.hex_id(h)} is off the map ({gmap.columns:02d} columns, {gmap.rows:02d} rows)")
                return
            self.move_cursor(h)
            self.query_one(HexMap).scroll_to_hex(h, True)

        # Enter jumps and Esc cancels; never closed by itself, so no key meant for it reaches the map
        title, example = self.adapter.goto_prompt(self.game)
        self.app.push_screen(AskScreen(title, example), done)

    def on_hex_map_clicked(self, event: HexMap.Clicked) -> None:
        if event.hex == self.cursor:
            self.action_select()
        else:
            self.move_cursor(event.hex)

    def action_next_actor(self) -> None:
        hexes = self.adapter.actors(self.game)
        if not hexes:
            self.say("Nothing left that can act this phase: P ends the phase")
            return
        later = [h for h in hexes if h > self.cursor]
        self.move_cursor((later or hexes)[0])

    # -- key actions: play ----------------------------------------------------------------
    def select_in_phase(self, h: Hex) -> bool:
        """A game's own use of Enter in this phase (Kiev: building an attack); True if handled."""
        return False

    def act_on(self, h: Hex) -> bool:
        """A game's own use of Enter on a hex with a stack selected (Kiev: overrun, rail); True if handled."""
        return False

    def action_select(self) -> None:
        if self.game.state.over:
            self.show_score()
            return
        if self.adapter.pending(self.game) is not None:
            self.action_pending()
            return
        if self.select_in_phase(self.cursor):
            return
        if not self.overlay.selected:
            self.select_at(self.cursor)
            return
        if self.cursor == self.sel_hex:
            self.clear_selection()
            self.say("Selection dropped")
            self.refresh_all()
            return
        if self.act_on(self.cursor):
            return
        r = self.overlay.reach.get(self.cursor)
        if r is not None and r.ok:
            self.do_move(self.cursor, tuple(r.path))
            return
        if self._own_stack(self.view(), self.cursor):
            self.clear_selection()
            self.select_at(self.cursor)
            return
        if r is not None:
            self.refuse(Illegal(r.case, r.why))

    def do_move(self, h: Hex, path: tuple[str, ...]) -> None:
        units = self.overlay.selected
        if self.play(self.adapter.move_action(self.game, units, path)):
            self._continue_with(units, h)

    def _continue_with(self, units: tuple[str, ...], h: Hex) -> None:
        """Keep the stack selected where it stopped, if it can go on."""
        message = self.message
        if self.adapter.pending(self.game) is None and all(self.adapter.can_move(self.game, u) for u in units):
            self.set_selection(units, h)
            if not any(r.ok for r in self.overlay.reach.values()):
                self.clear_selection()
        else:
            self.clear_selection()
        self.message = message
        self.refresh_all()

    def action_cancel(self) -> None:
        if self.overlay.selected or self.overlay.attackers or self.overlay.targets:
            self.clear_selection()
            self.say("Selection dropped")
            self.refresh_all()
        else:
            self.say("")

    def action_pick(self, n: int) -> None:
        h = self.sel_hex if self.overlay.selected and self.sel_hex is not None else self.cursor
        own = self._own_stack(self.view(), h)
        if not 1 <= n <= len(own):
            self.say(f"No unit {n} in the stack at {self.hex_id(h)}")
            return
        self.pick_unit(own, own[n - 1], h)

    def pick_unit(self, own: list[str], uid: str, h: Hex) -> None:
        """Add or drop one unit of the stack in `h` from the selection."""
        chosen = toggle(self.overlay.selected if self.sel_hex == h else (), uid)
        self.set_selection(tuple(u for u in own if u in chosen), h)
        if not chosen:
            self.clear_selection()
            self.refresh_all()

    def action_pending(self) -> None:
        """Answer the choice the game waits for: the side it names takes the keyboard first."""
        pending = self.adapter.pending(self.game)
        if pending is None:
            self.say("Nothing is waiting for an answer")
            return
        actor = self.game.actor
        if actor != self.seat:
            self.hand_off(actor, f"The {self.adapter.side_name(self.game, actor)} player answers:\n"
                                 f"{self.name_ids(pending.prompt)}")
            return
        self.answer_pending(pending)

    def answer_pending(self, pending: Any) -> None:
        """Open the game's dialog for a pending choice (this screen has none: it says what is asked)."""
        self.say(f"waiting: {pending.prompt}")

    def action_undo(self) -> None:
        if self.game.undo():
            self.clear_selection()
            self.message = "Undone"
            self.refresh_all()
        else:
            self.say("Nothing to undo: a die roll, a reveal or a change of player cannot be taken back")

    def action_end_phase(self) -> None:
        if self.game.state.over:
            self.show_score()
            return
        ph = self.game.phase
        lines = [f"- {t}" for t in ph.todo] + list(self.adapter.end_phase_notes(self.game))
        title = (f"End the {self.adapter.side_name(self.game, ph.player)} "
                 f"{self.adapter.phase_title(self.game, ph.name).lower()} phase?")
        if not lines:
            lines = ["Nothing is left undone."]

        def done(yes: bool | None) -> None:
            if yes:
                self.clear_selection()
                self.play(EndPhase())

        lines = [self.name_ids(line) for line in lines]
        self.app.push_screen(ConfirmScreen(title, lines, "End the phase? (y/n)"), done)

    # -- key actions: screens -------------------------------------------------------------
    def action_help(self) -> None:
        title = f"Help: {self.adapter.phase_title(self.game, self.game.state.phase)} phase"
        self.app.push_screen(TextScreen(title, self.adapter.phase_help(self.game), on_rules=self.action_rules))

    def action_legend(self) -> None:
        rows = self.adapter.legend(self.game, self.kapp.glyphs)
        width = max(len(g) for g, _ in rows)
        body = "\n".join(f"  {g:<{width}}  {meaning}" for g, meaning in rows)
        self.app.push_screen(TextScreen("Legend", body))

    def action_rules(self) -> None:
        from kiev_tui.ui.rules_screen import RulesScreen

        cases = list(self.adapter.rules_cases(self.game))
        initial = self.last_case or (cases[0] if cases else None)
        book_ids = ([self.last_case] if self.last_case and self.last_case not in cases else []) + cases
        self.app.push_screen(RulesScreen(book_ids=book_ids or None, game=self.game.rules.id, initial=initial))

    def action_score(self) -> None:
        """The score as it stands now (the adapter says what goes into it)."""
        title, lines = self.adapter.score_now(self.game)
        self.app.push_screen(TextScreen(title, "\n".join(lines)))

    def action_inspect_wide(self) -> None:
        """Map, or tracker and inspector across the whole width (80x24 has no room for both)."""
        wide = not self.has_class("-inspect")
        self.set_class(wide, "-inspect")
        if not wide:
            self.query_one(HexMap).center_when_sized(self.cursor)
        self.say("Tracker and inspector full width; I for the map" if wide else "")

    def action_zoom(self) -> None:
        hexmap = self.query_one(HexMap)
        hexmap.zoom = COMPACT if hexmap.zoom == FULL else FULL
        self.say(f"Zoom: {hexmap.zoom}")

    def action_log(self, delta: int) -> None:
        log = self.query_one("#log", WrapLog)
        log.scroll_relative(y=delta * max(1, log.size.height - 1), animate=False)

    def action_save(self) -> None:
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
                self._write_save(path)
                return

            def replace(yes: bool | None) -> None:
                if yes:
                    self._write_save(path)
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
        saves = list_saves(self.kapp.saves_dir)
        if not saves:
            self.say(f"No saves in {self.kapp.saves_dir}/")
            return
        from kiev_tui.ui.app import unsaved_lines

        lost = unsaved_lines(self.game)
        if lost:  # a load replaces the game at once: ask first, and never by Enter typed ahead

            def go_on(yes: bool | None) -> None:
                if yes:
                    self._pick_save(saves)

            self.app.push_screen(ConfirmScreen("Load over unsaved moves?", lost, "Load and lose them? (y/n)",
                                               enter_answers=False), go_on)
            return
        self._pick_save(saves)

    def _pick_save(self, saves: list[Path]) -> None:

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
            self.kapp.show_game(game, self, f"Loaded {path}: {game.phase}")

        self.app.push_screen(PickScreen("Load a saved game", [(p.name, p) for p in saves]), done)

    def action_new_game(self) -> None:
        keep = self._keep_path()
        lines = [f"Start {self.game.scenario.title} again from turn 1?"]
        if keep is not None:
            lines.append(f"The game in progress is saved first, as {keep.name} in {keep.parent}/.")
        else:
            lines.append("The game in progress has no moves yet: there is nothing to keep.")

        def done(yes: bool | None) -> None:
            if yes:
                self.start_new_game()

        self.app.push_screen(ConfirmScreen("New game", lines), done)

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

    def start_new_game(self) -> None:
        """A new game of the same scenario; the one in progress is saved under a name of its own."""
        keep = self._keep_path()
        if keep is not None and not self._write_save(keep):
            return  # the old game could not be kept: it stays, and the message says why
        game = Game.new(self.game.scenario.id, new_seed())  # fresh dice, never the last game's
        self.kapp.adopt(game)
        self.set_game(game)
        self.say(f"New game; the previous one is saved as {keep}" if keep is not None else "New game")

    # -- which keys work now ----------------------------------------------------------------
    def working_keys(self) -> tuple[tuple[str, str, str], ...]:
        """(key, label, action) of every footer key that does something now."""
        out = []
        for b in self.key_order():
            if b.show and self.check_action(b.action, ()):
                out.append((b.key_display or b.key.split(",")[0], b.description, b.action))
        return tuple(out)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.has_class("-toosmall") and action not in READ_ONLY_ACTIONS:
            return False  # nothing is played blind while the window is too small to show the map
        if action == "pending":
            return self.adapter.pending(self.game) is not None
        return True
