"""The main screen: map, tracker, inspector, log, status line and footer; the keys of play.

The screen never changes the game except through `game.apply(action)` and `game.undo()`;
refusals are shown with their rule case, and `r` opens the rules at that case.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from rich.segment import Segment
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.events import Click

from kiev_tui.engine import savepaths
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import DataError, Illegal
from kiev_tui.engine.game import Game, new_seed
from kiev_tui.engine.hexes import Direction, Hex, HexError
from kiev_tui.games.spi_kiev import rail, reinforcements, stacking
from kiev_tui.games.spi_kiev.actions import Attack, Enter, Move, Overrun, RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT, SOVIET, View, enemy_of
from kiev_tui.ui import present
from kiev_tui.ui.combat_ui import PendingScreen, PreviewScreen, attack_preview, integrity_items, overrun_preview
from kiev_tui.ui.dialogs import (AskScreen, ConfirmScreen, EntryScreen, HandoffScreen, PickScreen, ScoreScreen,
                                 TextScreen, list_saves)
from kiev_tui.ui.glyphs import legend
from kiev_tui.ui.help import RULES_BY_PHASE, phase_help
from kiev_tui.ui.hexmap import COMPACT, FULL, HexMap
from kiev_tui.ui.logview import WrapLog
from kiev_tui.ui.names import name_ids

if TYPE_CHECKING:
    from kiev_tui.ui.app import KievApp

# The smallest terminal the game is played in: the 32-column side panel plus five hex columns
# of map, and six hex rows with the status line and the key bar.  Below it the panels would be
# scraps (at 40x12 the map was six cells wide), so the screen asks for a bigger window instead.
MIN_SIZE = (60, 16)
# Keys that only open something to read (each screen fits any size): they work in a window
# too small for the map; the keys that play wait until the map can be seen.
READ_ONLY_ACTIONS = frozenset({"help", "rules", "legend", "score"})


def _span_region(a: str, b: str, y: int) -> Region:
    """The cells of row ``y`` that differ between two renderings of it."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    if len(a) != len(b):
        end = max(len(a), len(b))  # the tail has shifted: everything after the change differs
    else:
        end = len(a)
        while end > start and a[end - 1] == b[end - 1]:
            end -= 1
    return Region(start, y, max(1, end - start), 1)


class Panel(Widget):
    """Text in a box of fixed size, drawn line by line.

    An update never re-lays out the screen, and only the cells that changed are sent to the
    terminal: moving the cursor over the map changes a few words of the inspector, not all of it.
    """

    # The margin is drawn as part of the text, not as CSS padding: padding is painted in a
    # style of its own, which costs two style changes per line on the wire.
    MARGIN = 1

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown = ""
        self._wrap_lines = True
        self._rows: list[str] = []

    def show(self, text: str, wrap: bool = True) -> None:
        """Show text, word-wrapped to the box, or as one line cut short with '...'."""
        if text == self._shown and wrap == self._wrap_lines:
            return
        self._shown = text
        self._wrap_lines = wrap
        self._rewrap(partial=True)

    def _wrap(self) -> list[str]:
        width = self.content_region.width - self.MARGIN
        if width <= 0:
            return self._shown.split("\n")
        if not self._wrap_lines:
            line = self._shown.replace("\n", " ")
            return [line if len(line) <= width else line[: max(0, width - 3)] + "..."]
        return [line.plain for line in Text(self._shown).wrap(self.app.console, width)]

    def _rewrap(self, partial: bool) -> None:
        new = self._wrap()
        old, self._rows = self._rows, new
        if not partial or not self.is_mounted:
            self.refresh()
            return
        visible = self.content_region.height
        for y in range(min(max(len(old), len(new)), visible)):  # never spill into the next panel
            a = old[y] if y < len(old) else ""
            b = new[y] if y < len(new) else ""
            if a == b:
                continue
            region = _span_region(a, b, y).translate((self.MARGIN, 0))
            if len(b) < len(a):
                # a shorter line: repaint to the panel's edge, which at the screen's edge the
                # wire layer sends as one "erase to end of line" instead of spaces (wire.py)
                region = Region(region.x, y, max(1, self.size.width - region.x), 1)
            self.refresh(region)

    def on_resize(self) -> None:
        self._rewrap(partial=False)

    def render(self) -> Text:
        """The whole text (painting goes through render_line; this serves readers and tests)."""
        return Text(self._shown)

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        text = " " * self.MARGIN + (self._rows[y] if y < len(self._rows) else "")
        return Strip([Segment(text[:width].ljust(width), self.rich_style)], width)


class KeyBar(Widget):
    """The keys that work right now, on one line: ``Tab Next  Enter Select ...``.

    Textual's Footer is a widget per key and recomposes whenever the bindings change, which
    took most of the app's start-up time; this is one line, redrawn only when the keys change.
    A click on a key runs it, as with the Footer.
    """

    DEFAULT_CSS = "KeyBar { height: 1; }"
    KEY_STYLE = "bold yellow"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.offered: tuple[tuple[str, str, str], ...] = ()  # (key shown, label, action) that work now
        self.keys: tuple[tuple[str, str, str], ...] = ()  # those of them on show

    # When the keys do not fit even one space apart, these always-there keys make room first,
    # in this order (they are in the help, which stays); the keys of the moment never go.
    YIELD_ORDER = ("rules", "undo", "cancel", "next_actor", "select")

    def show(self, keys: tuple[tuple[str, str, str], ...]) -> None:
        self.offered = keys
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        keys = list(self.offered)
        width = self.size.width or 80
        for action in self.YIELD_ORDER:
            if self._length(keys, 1) <= width:
                break
            keys = [k for k in keys if k[2] != action]
        if tuple(keys) != self.keys:
            self.keys = tuple(keys)
            self.refresh()

    @staticmethod
    def _length(keys: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...], gap: int) -> int:
        return 1 + sum(len(k) + 1 + len(label) for k, label, _ in keys) + gap * max(0, len(keys) - 1)

    def _gap(self) -> int:
        """Two spaces between keys when they all fit, else one."""
        return 2 if self._length(self.keys, 2) <= self.size.width else 1

    def _spans(self) -> list[tuple[int, int, str]]:
        x, out, gap = 1, [], self._gap()
        for key, label, action in self.keys:
            width = len(key) + 1 + len(label)
            out.append((x, x + width, action))
            x += width + gap
        return out

    def render(self) -> Text:
        """The line as text (painting goes through render_line; this serves readers and tests)."""
        return Text(" " * self._gap()).join(Text(f"{k} {label}") for k, label, _ in self.keys)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        key_style = base + self.app.console.get_style(self.KEY_STYLE)
        segments, gap = [Segment(" ", base)], " " * self._gap()
        for key, label, _ in self.keys:
            segments += [Segment(key, key_style), Segment(f" {label}{gap}", base)]
        return Strip(segments).crop_extend(0, width, base)

    def on_click(self, event: Click) -> None:
        for x1, x2, action in self._spans():
            if x1 <= event.x < x2:
                self.call_later(self.screen.run_action, action)
                return


_DIRS = {"N": Direction.N, "NE": Direction.NE, "SE": Direction.SE, "S": Direction.S,
         "SW": Direction.SW, "NW": Direction.NW}


def _toggle(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(i for i in items if i != item) if item in items else items + (item,)


def _b(keys: str, action: str, text: str, display: str | None = None, show: bool = True) -> Binding:
    # every key shown in the footer gets a plain-ASCII label (Textual would draw arrows etc.)
    return Binding(keys, action, text, show=show, key_display=display or keys.split(",")[0], priority=True)


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

    BINDINGS = [
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
        _b("i", "reinforce", "Reinforce"),
        _b("t", "rail", "Rail"),
        _b("o", "overrun", "Overrun"),
        _b("x", "remove_excess", "Remove"),
        _b("c", "attack", "Attack"),
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

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.cursor = self._first_cursor()
        self.overlay = present.Overlay()
        self.sel_hex: Hex | None = None
        self.rail_mode = False
        self.message = ""
        self.last_case: str | None = None
        self._supply_key: str = ""
        self._supply: dict[str, Any] = {}
        self._logged = 0
        self._handing_off = False
        self.seat = game.state.player  # hot-seat: the side at the keyboard, whose actions play() submits

    @property
    def kapp(self) -> "KievApp":
        return self.app  # type: ignore[return-value]

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield HexMap(self.game.scenario.map, self.kapp.glyphs, id="map")
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
        view = self.view()
        for h in present.actors(view):
            return h
        mine = sorted(h for h, ids in view.occupancy.items() if view.side(ids[0]) == self.game.state.player)
        return mine[0] if mine else Hex(1, 1)

    # -- reading the position -------------------------------------------------------------
    def view(self) -> View:
        return self.game.rules.view(self.game)  # type: ignore[attr-defined,no-any-return]

    def supply(self, view: View) -> dict[str, Any]:
        key = f"{id(self.game)}:{self.game.state_hash()}"
        if key != self._supply_key:
            self._supply = present.supply_all(view)
            self._supply_key = key
        return self._supply

    def set_game(self, game: Game) -> None:
        """Show another game (new or loaded) in this screen."""
        self.game = game
        self.seat = game.state.player
        self.clear_selection()
        hexmap = self.query_one(HexMap)
        hexmap.set_map(game.scenario.map)
        self.cursor = self._first_cursor()
        hexmap.painter.cursor = self.cursor
        self._logged = 0
        self.query_one("#log", WrapLog).clear()
        self.last_case = None
        self.refresh_all()
        hexmap.scroll_to_hex(self.cursor, True)

    def refresh_all(self) -> None:
        view = self.view()
        sup = self.supply(view)
        self._refresh_path()
        looks = present.hex_looks(view, sup, self.overlay, self.kapp.glyphs)
        self.query_one(HexMap).update_looks(looks)
        self.query_one("#tracker", Panel).show(name_ids(view, "\n".join(present.tracker_lines(self.game))))
        self._refresh_inspector(view, sup)
        self._refresh_log()
        self._refresh_status()
        self.query_one(KeyBar).show(self.working_keys())

    def _refresh_inspector(self, view: View | None = None, sup: dict[str, Any] | None = None) -> None:
        view = view or self.view()
        sup = sup if sup is not None else self.supply(view)
        chosen = self.overlay.selected + self.overlay.attackers
        lines = present.inspector_lines(view, self.cursor, sup, chosen)
        if self.overlay.targets:
            lines.append(f"Targets: {', '.join(self.overlay.targets)}")
        self.query_one("#inspector", Panel).show("\n".join(lines))

    def _refresh_log(self) -> None:
        log = self.query_one("#log", WrapLog)
        journal = self.game.journal
        if len(journal) < self._logged:  # undo took lines back
            log.clear()
            self._logged = 0
        view = self.view()
        for e in journal[self._logged:]:
            log.add(Text(name_ids(view, e.describe())))  # names, not ids (issue 20)
        self._logged = len(journal)

    def _refresh_status(self) -> None:
        st = self.game.state
        name = self.game.scenario.map.name(self.cursor)
        where = f"{self.cursor}" + (f" {name}" if name else "")
        parts = [where]
        if self.overlay.selected:
            r = self.overlay.reach.get(self.cursor)
            if self.rail_mode:
                rp = self.overlay.rail.get(self.cursor)
                parts.append(f"rail: {len(rp)} hexes" if rp else "rail: not reachable")
            elif r is not None:
                parts.append(f"{r.cost:g} MP" if r.ok else f"no: [{r.case}] {r.why}")
        if self.message:
            parts.append(self.message)
        elif st.pending is not None:
            parts.append(f"waiting: {st.pending.get('prompt', '')} (p to answer)")
        line = name_ids(self.view(), " | ".join(parts))  # refusals and prompts name units, not ids
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

        text = note if note is not None else name_ids(self.view(), "\n".join(self.game.phase.todo))
        self.app.push_screen(HandoffScreen(player, self.game.state.turn, text), done)

    def check_pending(self) -> None:
        if self._handing_off or self.app.screen is not self:
            return
        st = self.game.state
        if st.pending is not None:
            self.action_pending()
        elif not st.over and self.seat != st.player:  # the other side has answered: hand back
            self.hand_off(st.player, f"Back to the {present.side_name(st.player)} player's turn.")

    def show_score(self) -> None:
        score = self.game.state.vars.get("final_score", {})

        def done(what: str | None) -> None:
            if what == "new":
                self.start_new_game()
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(ScoreScreen(present.score_lines(score)), done)

    # -- selection ------------------------------------------------------------------------
    def clear_selection(self) -> None:
        self.overlay = present.Overlay()
        self.sel_hex = None
        self.rail_mode = False

    def _own_stack(self, view: View, h: Hex) -> list[str]:
        return present.stack_order(view, [u for u in view.at(h) if view.side(u) == self.game.state.player])

    def select_at(self, h: Hex) -> None:
        view = self.view()
        st = self.game.state
        own = self._own_stack(view, h)
        if not own:
            ids = view.at(h)
            if ids:
                self.say(f"Those are {present.side_name(view.side(ids[0]))} units; it is the {present.side_name(st.player)} player's turn")
            else:
                self.say("No units here")
            return
        movers = [u for u in own if present.can_still_move(view, u, zoc=False)]
        riders = self._rail_riders(view, own)
        if riders and not movers:  # came on by rail: the railway is their only way on (5.33)
            self._offer_rail(riders, h)
            return
        if not movers:
            # let the engine say why (stopped, phase, zone of control...)
            reach = self.game.reachable(tuple(own))
            why = next((r for r in reach.values() if not r.ok), None)
            if why is not None:
                self.refuse(Illegal(why.case, why.why))
            else:
                self.say("None of these units can move now")
            return
        self.set_selection(tuple(movers), h)
        if not any(r.ok for r in self.overlay.reach.values()) and view.in_enemy_zoc(h, st.player):
            self.last_case = "8.23"
            self.say("In an enemy zone of control (8.23): this stack may only overrun (o on an adjacent enemy)")

    def _rail_riders(self, view: View, own: list[str]) -> tuple[str, ...]:
        """Units here that came on by rail this phase and may still ride on (5.33, 19.3)."""
        v = self.game.state.vars
        riders = tuple(u for u in own if u in v.get("rail_entry", []) and u not in v.get("railed", []))
        if not riders or self.game.state.phase != MOVEMENT or self.game.state.pending is not None:
            return ()
        return riders if rail.destinations(view, riders) else ()

    def _offer_rail(self, units: tuple[str, ...], h: Hex) -> None:
        """Select a stack that came by rail, in rail mode: the next step is plain to see."""
        self.rail_mode = True
        self.set_selection(units, h)
        self.say("Came on by rail: they may go on only by rail (5.33). Cursor to a rail hex, Enter; Esc leaves them")

    def set_selection(self, units: tuple[str, ...], h: Hex) -> None:
        self.overlay = present.Overlay(selected=units)
        self.sel_hex = h
        if units:
            if self.rail_mode:
                self.overlay.rail = present.rail_reach(self.view(), units)
            else:
                self.overlay.reach = dict(self.game.reachable(units))
        self.message = f"Selected {', '.join(units)}" if units else ""
        self.refresh_all()

    def _refresh_path(self) -> None:
        if not self.overlay.selected:
            self.overlay.path = ()
            return
        if self.rail_mode:
            self.overlay.path = self.overlay.rail.get(self.cursor, ())
            return
        r = self.overlay.reach.get(self.cursor)
        self.overlay.path = r.path if r is not None and r.ok else ()

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
                view = self.view()
                hexmap.update_looks(present.hex_looks(view, self.supply(view), self.overlay, self.kapp.glyphs))
        self._refresh_inspector()
        self._refresh_status()

    def action_cursor(self, direction: str) -> None:
        self.move_cursor(self.cursor.step(_DIRS[direction]))

    def action_column(self, delta: int) -> None:
        self.move_cursor(Hex(self.cursor.col + delta, self.cursor.row))

    def action_goto(self) -> None:
        def done(text: str | None) -> None:
            text = (text or "").strip()
            if not text:
                return
            gmap = self.game.scenario.map
            try:
                h = Hex.parse("".join(text.split()))  # "07 02" as typed is 0702
            except HexError:
                found = gmap.find(" ".join(text.split()))
                if found is None:
                    self.say(f"No hex or place called {text!r}")
                    return
                h = found
            if not gmap.on_map(h):
                self.say(f"{h} is off the map ({gmap.columns:02d} columns, {gmap.rows:02d} rows)")
                return
            self.move_cursor(h)
            self.query_one(HexMap).scroll_to_hex(h, True)

        # Enter jumps and Esc cancels; never closed by itself, so no key meant for it reaches the map
        self.app.push_screen(AskScreen("Go to hex: four digits (e.g. 0319) or a place name", "0319"), done)

    def on_hex_map_clicked(self, event: HexMap.Clicked) -> None:
        if event.hex == self.cursor:
            self.action_select()
        else:
            self.move_cursor(event.hex)

    def action_next_actor(self) -> None:
        hexes = present.actors(self.view())
        if not hexes:
            self.say("Nothing left that can act this phase: P ends the phase")
            return
        later = [h for h in hexes if h > self.cursor]
        self.move_cursor((later or hexes)[0])

    # -- key actions: play ----------------------------------------------------------------
    def action_select(self) -> None:
        st = self.game.state
        if st.over:
            self.show_score()
            return
        if st.pending is not None:
            self.action_pending()
            return
        if st.phase == COMBAT:
            self.toggle_attack(self.cursor)
            return
        if not self.overlay.selected:
            self.select_at(self.cursor)
            return
        if self.cursor == self.sel_hex:
            self.clear_selection()
            self.say("Selection dropped")
            self.refresh_all()
            return
        view = self.view()
        if view.occupied_by(self.cursor, enemy_of(st.player)):
            self.action_overrun()
            return
        if self.rail_mode:
            self.do_rail(self.cursor)
            return
        r = self.overlay.reach.get(self.cursor)
        if r is not None and r.ok:
            self.do_move(self.cursor, r.path)
            return
        if self._own_stack(view, self.cursor):
            self.clear_selection()
            self.select_at(self.cursor)
            return
        if r is not None:
            self.refuse(Illegal(r.case, r.why))

    def do_move(self, h: Hex, path: tuple[str, ...]) -> None:
        units = self.overlay.selected
        if self.play(Move(units, path)):
            self._continue_with(units, h)

    def do_rail(self, h: Hex) -> None:
        units = self.overlay.selected
        path = self.overlay.rail.get(h)
        if not path:
            self.say(f"{h} cannot be reached by rail from here (friendly rail hexes only, 5.31)")
            self.last_case = "5.31"
            return
        if self.play(RailMove(units, path)):
            self.clear_selection()
            self.refresh_all()

    def _continue_with(self, units: tuple[str, ...], h: Hex) -> None:
        """Keep the stack selected where it stopped, if it can go on (5.1)."""
        message = self.message
        view = self.view()
        if self.game.state.pending is None and all(present.can_still_move(view, u, zoc=False) for u in units):
            self.set_selection(units, h)
            if not any(r.ok for r in self.overlay.reach.values()) and not view.in_enemy_zoc(h, self.game.state.player):
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
        view = self.view()
        st = self.game.state
        h = self.sel_hex if self.overlay.selected and st.phase != COMBAT else self.cursor
        own = self._own_stack(view, h)
        if not 1 <= n <= len(own):
            self.say(f"No unit {n} in the stack at {h}")
            return
        uid = own[n - 1]
        if st.phase == COMBAT:
            self.overlay.attackers = _toggle(self.overlay.attackers, uid)
            self.refresh_all()
            return
        chosen = _toggle(self.overlay.selected if self.sel_hex == h else (), uid)
        self.set_selection(tuple(u for u in own if u in chosen), h)
        if not chosen:
            self.clear_selection()
            self.refresh_all()

    def action_rail(self) -> None:
        st = self.game.state
        if st.player != SOVIET or st.phase != MOVEMENT:
            self.refuse(Illegal("5.34" if st.player == SOVIET else "19.3",
                                "only the Soviet player moves by rail, and only in the initial movement phase"))
            return
        if not self.overlay.selected:
            self.say("Select a stack first (Enter), then t for rail movement")
            return
        self.rail_mode = not self.rail_mode
        assert self.sel_hex is not None
        self.set_selection(self.overlay.selected, self.sel_hex)
        self.say("Rail movement: friendly rail hexes show their distance" if self.rail_mode else "Back to normal movement")

    def action_overrun(self) -> None:
        st = self.game.state
        if st.phase not in (MOVEMENT, MECHANIZED):
            self.refuse(Illegal("6.11", "overruns happen only in a movement phase"))
            return
        if not self.overlay.selected:
            self.say("Select the overrunning stack first, then put the cursor on the enemy hex and press o")
            return
        units, target = self.overlay.selected, str(self.cursor)
        self._with_integrity(integrity_items(self.game, units, (target,), is_overrun=True),
                             lambda division: self._preview_overrun(units, target, division))

    def _with_integrity(self, choices: list[tuple[str, str]], go_on: Callable[[str], None]) -> None:
        """Ask which division GD joins when there is a choice (20.2), then go on with it."""
        if not choices:
            go_on("")
            return

        def picked(division: str | None) -> None:
            if division:
                go_on(division)

        self.app.push_screen(PickScreen("Divisional integrity (20.2): which division does GD join?", choices),
                             picked)

    def _preview_overrun(self, units: tuple[str, ...], target: str, integrity: str) -> None:
        def played() -> None:
            self._continue_with(units, self.cursor)

        lines, illegal = overrun_preview(self.game, units, target, integrity)
        self._confirm_roll("Overrun", lines, illegal, Overrun(units, target, integrity), played=played)

    def _confirm_roll(self, title: str, lines: list[str], illegal: Illegal | None, action: Action,
                      on_yes: Callable[[], None] = lambda: None, played: Callable[[], None] = lambda: None) -> None:
        """Show a combat preview; on yes, `on_yes`, play the action (the roll), then `played`."""
        if illegal is None:
            illegal = self.game.check(action, side=self.seat)
        if illegal is not None:
            self.refuse(illegal)
            return

        def done(yes: bool | None) -> None:
            if yes:
                on_yes()
                if self.play(action):
                    played()

        # the preview sits beside the map, with the attackers and targets marked on it
        if isinstance(action, Overrun):
            attackers, targets = action.units, (action.target,)
        else:
            attackers, targets = getattr(action, "attackers", ()), getattr(action, "targets", ())
        self.app.push_screen(PreviewScreen(self.game, title, lines, "Roll the die? (y/n)",
                                           tuple(attackers), tuple(targets)), done)

    def toggle_attack(self, h: Hex) -> None:
        view = self.view()
        st = self.game.state
        ids = view.at(h)
        if not ids:
            self.say("Nothing here to attack with or against")
            return
        if view.side(ids[0]) == st.player:
            own = [u for u in self._own_stack(view, h) if not view.is_hq_like(u)]
            current = [u for u in self.overlay.attackers if u in own]
            if current:
                self.overlay.attackers = tuple(u for u in self.overlay.attackers if u not in own)
            else:
                able = [u for u in own if present.can_still_attack(view, u)] or own
                self.overlay.attackers = self.overlay.attackers + tuple(able)
        else:
            self.overlay.targets = _toggle(self.overlay.targets, str(h))
        self.message = (f"Attack: {len(self.overlay.attackers)} attacker(s), targets {', '.join(self.overlay.targets) or 'none'}"
                        " (c to see the odds)")
        self.refresh_all()

    def action_attack(self) -> None:
        st = self.game.state
        if st.phase != COMBAT:
            self.refuse(Illegal("9.11", "attacks are made only in the combat phase"))
            return
        attackers, targets = self.overlay.attackers, self.overlay.targets
        if not attackers or not targets:
            self.say("Enter on your stacks adds attackers, Enter on enemy hexes adds targets; then c")
            return
        self._with_integrity(integrity_items(self.game, attackers, targets),
                             lambda division: self._preview_attack(attackers, targets, division))

    def _preview_attack(self, attackers: tuple[str, ...], targets: tuple[str, ...], integrity: str) -> None:
        def clear_plan() -> None:
            self.overlay.attackers, self.overlay.targets = (), ()

        lines, illegal = attack_preview(self.game, attackers, targets, integrity)
        self._confirm_roll("Combat preview", lines, illegal, Attack(attackers, targets, integrity), on_yes=clear_plan)

    def action_pending(self) -> None:
        if self.game.state.pending is None:
            self.say("No combat result is waiting")
            return
        actor = self.game.actor
        if actor != self.seat:  # the choice is the other side's: they take the keyboard first (4.1)
            prompt = str(self.game.state.pending.get("prompt", ""))
            self.hand_off(actor, f"The {present.side_name(actor)} player answers a combat result:\n"
                                 f"{name_ids(self.view(), prompt)}")
            return

        def done(answer: Action | None) -> None:
            if answer is not None:
                self.play(answer)

        self.app.push_screen(PendingScreen(self.game), done)

    def action_reinforce(self) -> None:
        view = self.view()
        due = present.due_entries(view)
        if not due:
            self.say("No reinforcements are due now")
            return
        rail_hexes: set[str] = set()
        if self.game.state.player == SOVIET:  # 19.3: only the Soviets come on by train
            rail_hexes = {str(h) for _, _, hexes in due for h in hexes if rail.is_rail_hex(view, h)}

        def done(choice: tuple[tuple[str, ...], str, bool] | None) -> None:
            if choice is None:
                return
            units, hex_id, by_rail = choice
            if self.play(Enter(units, hex_id, by_rail)):
                h = Hex.parse(hex_id)
                self.move_cursor(h)
                if not by_rail:
                    self._continue_with(units, h)
                else:
                    riders = self._rail_riders(self.view(), list(units))
                    if riders:
                        self._offer_rail(riders, h)

        self.app.push_screen(EntryScreen(due, rail_hexes), done)

    def action_remove_excess(self) -> None:
        view = self.view()
        removable = [u for u in self._own_stack(view, self.cursor) if stacking.may_remove(view, u)]
        if not removable:
            self.refuse(Illegal("7.0", f"{self.cursor} is within the stacking limit: nothing to remove there"))
            return

        def done(uid: str | None) -> None:
            if uid is not None:
                self.clear_selection()
                self.play(RemoveExcess(uid))

        items = [(f"{n}. {present.unit_name(view, uid)}", uid) for n, uid in enumerate(removable, 1)]
        self.app.push_screen(PickScreen(f"Overstacked {self.cursor}: which unit is eliminated? (7.0)", items), done)

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
        view = self.view()
        lines = [f"- {t}" for t in ph.todo]
        left = present.actors(view)
        if left:
            what = "could still attack" if ph.name == COMBAT else "could still move"
            shown = ", ".join(str(h) for h in left[:12]) + (" ..." if len(left) > 12 else "")
            lines.append(f"- stacks that {what}: {shown}")
        if self.game.state.player == SOVIET and ph.name == MOVEMENT:
            lines.extend(f"- reinforcement {u} has nowhere to enter" for u in reinforcements.due_now(view)
                         if not reinforcements.entry_hexes(view, u))
        title = f"End the {present.side_name(ph.player)} {present.PHASE_TITLE.get(ph.name, ph.name).lower()} phase?"
        if not lines:
            lines = ["Nothing is left undone."]

        def done(yes: bool | None) -> None:
            if yes:
                self.clear_selection()
                self.play(EndPhase())

        lines = [name_ids(view, line) for line in lines]
        self.app.push_screen(ConfirmScreen(title, lines, "End the phase? (y/n)"), done)

    # -- key actions: screens -------------------------------------------------------------
    def action_help(self) -> None:
        self.app.push_screen(TextScreen(f"Help: {present.PHASE_TITLE.get(self.game.state.phase, '')} phase",
                                        phase_help(self.game.state.phase), on_rules=self.action_rules))

    def action_legend(self) -> None:
        rows = legend(self.kapp.glyphs)
        width = max(len(g) for g, _ in rows)
        body = "\n".join(f"  {g:<{width}}  {meaning}" for g, meaning in rows)
        self.app.push_screen(TextScreen("Legend", body))

    def action_rules(self) -> None:
        from kiev_tui.ui.rules_screen import RulesScreen

        cases = RULES_BY_PHASE.get(self.game.state.phase, [])
        initial = self.last_case or (cases[0] if cases else None)
        book_ids = ([self.last_case] if self.last_case and self.last_case not in cases else []) + cases
        self.app.push_screen(RulesScreen(book_ids=book_ids or None, game=self.game.rules.id, initial=initial))

    def action_score(self) -> None:
        """The victory points as they stand now, who holds each city and town, the losses."""
        self.app.push_screen(TextScreen("Score as it stands (24.0)", "\n".join(present.score_now_lines(self.view()))))

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
            self.kapp.adopt(game)
            self.set_game(game)
            self.say(f"Loaded {path}: {game.phase}")
            self.check_pending()

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
        for b in self.BINDINGS:
            assert isinstance(b, Binding)
            if b.show and self.check_action(b.action, ()):
                out.append((b.key_display or b.key.split(",")[0], b.description, b.action))
        return tuple(out)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.has_class("-toosmall") and action not in READ_ONLY_ACTIONS:
            return False  # nothing is played blind while the window is too small to show the map
        st = self.game.state
        moving = st.phase in (MOVEMENT, MECHANIZED) and st.pending is None and not st.over
        if action == "reinforce":
            return moving and st.phase == MOVEMENT and bool(reinforcements.due_now(self.view()))
        if action == "rail":
            return moving and st.phase == MOVEMENT and st.player == SOVIET and bool(self.overlay.selected)
        if action == "overrun":
            return moving and bool(self.overlay.selected)
        if action == "remove_excess":
            return moving and bool(stacking.over_limit(self.view(), st.player))
        if action == "attack":
            return st.phase == COMBAT and st.pending is None and not st.over
        if action == "pending":
            return st.pending is not None
        return True
