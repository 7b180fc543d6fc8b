"""The rules reference screen: search as you type, read a case, follow its cross-references."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Input, OptionList, Static
from textual.timer import Timer
from textual.widgets.option_list import Option

from kiev_tui.engine.registry import default_game
from kiev_tui.rulesref.model import Case, RuleBook, RulesDataError, load_reference
from kiev_tui.rulesref.render import HIGHLIGHT, render_case
from kiev_tui.rulesref.search import Hit, Span
from kiev_tui.ui.dialogs import OnceScreen

# Hits listed while typing: more than a tall terminal shows, and each one listed costs time
# on every key (its prompt is measured for the list's height).
MAX_RESULTS = 40
MAX_LINKS = 9  # links 1-9 have a number key each
PANE_DELAY = 0.15  # seconds without a key before the best hit's case is drawn

Row = tuple[Case, tuple[Span, ...], tuple[Span, ...]]  # a listed case, its title and text matches


class Options(OptionList):
    """An OptionList whose page keys also work before it has been laid out again.

    Textual 8 pages through the lines of the last layout: a page key pressed between new
    options and the next layout (keys faster than the screen) raised KeyError and ended the app.
    """

    def _move_page(self, direction: int) -> None:
        if (self.highlighted or 0) not in self._index_to_line or not self._lines:
            if direction > 0:
                self.action_cursor_down()
            else:
                self.action_cursor_up()
            return
        super()._move_page(direction)


class RulesScreen(OnceScreen[None]):
    """Rules reference: a search box, a list of cases, the chosen case and its links."""

    BINDINGS = [
        Binding("escape", "close", "Close", priority=True),
        Binding("slash", "focus_search", "Search"),
        Binding("backspace,b", "back", "Back", key_display="b"),
        Binding("down", "focus_results", "Results", show=False),
        *[Binding(str(n), f"follow({n})", f"Link {n}", show=False) for n in range(1, MAX_LINKS + 1)],
    ]

    # Below 60 columns the case goes under the list rather than beside it; and no list is ever
    # narrower than 16 columns (a list with no room for text at all crashed Textual's wrapping).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (60, "-wide")]

    DEFAULT_CSS = """
    RulesScreen #rules-query { border: ascii $border-blurred; height: 3; }
    RulesScreen #rules-query:focus { border: ascii $border; }
    RulesScreen #rules-body { height: 1fr; }
    RulesScreen #rules-results { width: 34%; min-width: 24; height: 1fr; border: ascii $border-blurred; }
    RulesScreen #rules-results:focus { border: ascii $border; }
    RulesScreen #rules-case-pane { width: 1fr; }
    RulesScreen #rules-case-scroll { height: 1fr; border: ascii $border-blurred; padding: 0 1; }
    RulesScreen #rules-case-scroll:focus { border: ascii $border; }
    RulesScreen #rules-links { height: auto; max-height: 8; border: ascii $border-blurred; }
    RulesScreen #rules-links:focus { border: ascii $border; }
    RulesScreen #rules-links.-empty { display: none; }
    RulesScreen OptionList { min-width: 16; }
    RulesScreen #rules-case-pane { min-width: 16; }
    RulesScreen.-narrow #rules-body { layout: vertical; }
    RulesScreen.-narrow #rules-results { width: 100%; min-width: 16; height: 8; }
    RulesScreen.-narrow #rules-case-pane { width: 100%; height: 1fr; }
    """

    def __init__(
        self,
        book_ids: list[str] | None = None,
        game: str | None = None,
        initial: str | None = None,
        *,
        book: RuleBook | None = None,
        data_dir: Path | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        if game is None:  # the game a bare `kiev-tui` starts (the registry's default scenario)
            game = default_game()
        self.game = book.game if book is not None else game
        self.book_ids = list(book_ids) if book_ids else None
        self.initial = initial
        self.error: str | None = None
        if book is None:
            try:
                book = load_reference(game, data_dir)
            except RulesDataError as exc:
                self.error = str(exc)  # shown in the case pane rather than crashing the app
        self.book = book
        self.current: Case | None = None
        self.history: list[str] = []
        self._listed: list[Row] = []
        self._links: list[str] = []
        self._shown_spans: tuple[Span, ...] = ()  # the matches marked in the case shown now
        self._pending: Hit | None = None  # the best hit whose case waits for typing to pause
        self._pane_timer: Timer | None = None

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        query = Input(placeholder="Search words, or a case number such as 9.66", id="rules-query")
        query.cursor_blink = False  # a blinking cursor rewrote the box twice a second while idle
        query.border_title = "Search (/)"
        yield query
        with Horizontal(id="rules-body"):
            results = Options(id="rules-results")
            results.border_title = "Cases"
            yield results
            with Vertical(id="rules-case-pane"):
                with VerticalScroll(id="rules-case-scroll") as scroll:
                    scroll.border_title = "Case"
                    yield Static(id="rules-case-text")
                links = Options(id="rules-links", classes="-empty")
                links.border_title = "See also (1-9, Enter)"
                yield links
        yield Footer()

    def on_mount(self) -> None:
        if self.book is None:
            self.query_one("#rules-case-text", Static).update(Text(f"Rules reference unavailable: {self.error}"))
            return
        self._list_default()
        if self.initial is not None:
            case = self.book.get(self.initial)
            if case is None:
                self._say(f"No case {self.initial!r} in the {self.game} rules reference.")
            else:
                self.show_case(case.id, remember=False)
                self._highlight_in_results(case.id)
                self.query_one("#rules-results", OptionList).focus()
                return
        elif self._listed:
            self.show_case(self._listed[0][0].id, remember=False)
        self.query_one("#rules-query", Input).focus()

    # -- the results list ---------------------------------------------------------------------
    def _default_cases(self) -> list[Case]:
        assert self.book is not None
        if self.book_ids:
            found = [self.book.get(ref) for ref in self.book_ids]
            return [c for c in found if c is not None]
        return list(self.book.cases)

    def _list_default(self) -> None:
        self._fill([(c, (), ()) for c in self._default_cases()])

    def _fill(self, rows: list[Row]) -> None:
        results = self.query_one("#rules-results", OptionList)
        if [(c.id, t, x) for c, t, x in rows] == [(c.id, t, x) for c, t, x in self._listed] and results.option_count:
            # one more letter often finds the same cases: leave the list as drawn, at its top
            if rows and results.highlighted != 0:
                with results.prevent(OptionList.OptionHighlighted):
                    results.highlighted = 0
            return
        self._listed = rows
        options: list[Option] = []
        for n, (case, title_spans, _) in enumerate(rows):
            # textual Content rather than rich Text: the list draws it without a conversion
            title = Content(case.title)
            for start, end in title_spans:
                title = title.stylize(HIGHLIGHT, start, end)
            options.append(Option(Content.assemble((case.id, "bold"), " ", title), id=f"r{n}"))
        if not options:
            options.append(Option(Content("No matching case"), id="none", disabled=True))
        # programmatic highlights must not echo back as if the reader had moved the cursor
        with results.prevent(OptionList.OptionHighlighted):
            results.set_options(options)
            if rows:
                results.highlighted = 0

    def _highlight_in_results(self, case_id: str) -> None:
        for n, (case, _, _) in enumerate(self._listed):
            if case.id == case_id:
                results = self.query_one("#rules-results", OptionList)
                with results.prevent(OptionList.OptionHighlighted):
                    results.highlighted = n
                return

    @on(Input.Changed, "#rules-query")
    def _query_changed(self, event: Input.Changed) -> None:
        if self.book is None:
            return
        self._cancel_pending()
        query = event.value.strip()
        if not query:
            self._list_default()
            return
        hits: list[Hit] = self.book.index.search(query, limit=MAX_RESULTS, prefix=True)
        self._fill([(h.case, h.title_spans, h.text_spans) for h in hits])
        if hits:
            # Only the list is redrawn per key; the best hit's case follows once typing pauses
            # (drawing the case and its links on every key doubled the work of a keystroke).
            self._pending = hits[0]
            self._pane_timer = self.set_timer(PANE_DELAY, self._show_pending)

    def _show_pending(self) -> None:
        """Draw the case of the best hit of the last query (when typing has paused)."""
        hit, self._pending, self._pane_timer = self._pending, None, None
        if hit is None or self.book is None or not self.is_attached:
            return
        if self.current is not hit.case or self._shown_spans != hit.text_spans:
            self.show_case(hit.case.id, spans=hit.text_spans, remember=False)

    def _cancel_pending(self) -> None:
        if self._pane_timer is not None:
            self._pane_timer.stop()
        self._pending, self._pane_timer = None, None

    @on(Input.Submitted, "#rules-query")
    def _query_submitted(self) -> None:
        self._show_pending()  # Enter does not wait for the pause
        if self._listed:
            self.query_one("#rules-results", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#rules-results")
    def _result_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._cancel_pending()  # the reader moved: show what they chose, not the best hit
        row = self._row(event.option)
        if row is not None and (self.current is None or row[0].id != self.current.id):
            self.show_case(row[0].id, spans=row[2], remember=False)

    @on(OptionList.OptionSelected, "#rules-results")
    def _result_selected(self, event: OptionList.OptionSelected) -> None:
        row = self._row(event.option)
        if row is not None:
            self.show_case(row[0].id, spans=row[2], remember=False)
            target = "#rules-links" if self._links else "#rules-case-scroll"
            self.query_one(target).focus()

    def _row(self, option: Option) -> tuple[Case, tuple[Span, ...], tuple[Span, ...]] | None:
        if option.id is None or not option.id.startswith("r"):
            return None
        n = int(option.id[1:])
        return self._listed[n] if n < len(self._listed) else None

    # -- the case pane ------------------------------------------------------------------------
    def show_case(self, ref: str, spans: tuple[Span, ...] = (), remember: bool = True) -> bool:
        """Show a case (and its links); with `remember`, Back returns to the one shown now."""
        if self.book is None:
            return False
        case = self.book.get(ref)
        if case is None:
            self._say(f"No case {ref!r} in the {self.game} rules reference.")
            return False
        if remember and self.current is not None and self.current.id != case.id:
            self.history.append(self.current.id)
        self.current = case
        self._shown_spans = spans
        self.query_one("#rules-case-text", Static).update(render_case(case, spans, show_see=False))
        scroll = self.query_one("#rules-case-scroll", VerticalScroll)
        scroll.border_title = Text(f"Case {case.id}")
        scroll.scroll_home(animate=False)
        self._show_links(case)
        return True

    def _show_links(self, case: Case) -> None:
        assert self.book is not None
        links = self.query_one("#rules-links", OptionList)
        self._links = list(case.see)
        options: list[Option] = []
        for n, ref in enumerate(self._links, 1):
            target = self.book.get(ref)
            key = f"{n}" if n <= MAX_LINKS else " "
            label = Text.assemble((f"{key} ", "bold"), (ref, "bold"))
            if target is not None:
                label.append(f"  {target.title}")
            else:
                label.append("  (not in this reference)", style="italic")
            options.append(Option(label, id=f"l{n - 1}", disabled=target is None))
        links.set_options(options)
        if options:
            links.highlighted = 0  # so Enter follows the first link without a cursor move
        links.set_class(not options, "-empty")

    def _say(self, message: str) -> None:
        self.notify(message, severity="warning", markup=False)

    # -- actions ------------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#rules-links")
    def _link_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.startswith("l"):
            self.follow_link(int(event.option.id[1:]))

    def follow_link(self, index: int) -> bool:
        """Show the case the current case's `index`-th (0-based) cross-reference names."""
        if not 0 <= index < len(self._links):
            return False
        return self.show_case(self._links[index])

    def action_follow(self, number: int) -> None:
        self.follow_link(number - 1)

    def action_back(self) -> None:
        if self.history:
            self.show_case(self.history.pop(), remember=False)

    def action_focus_search(self) -> None:
        self.query_one("#rules-query", Input).focus()

    def action_focus_results(self) -> None:
        self._show_pending()
        self.query_one("#rules-results", OptionList).focus()

    def action_close(self) -> None:
        self.dismiss(None)
