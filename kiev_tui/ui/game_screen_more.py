"""The methods of kiev_tui.ui.game_screen that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in game_screen.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.ui.game_screen import (  # noqa: F401
    COMPACT, FULL, HexMap, Text, WrapLog, adapter_for,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.ui.game_screen import Game, Illegal


class GameScreen:
    """Methods of game_screen.GameScreen that a new game's first frame never calls."""

    def take_verified(self, game: Game) -> None:
        """Play on with ``game``, the checked replay of the snapshot on screen: same position, so the
        cursor and the map stay; the log's lines are written again where the replay words them otherwise."""
        shown = [e.describe() for e in self.game.journal]
        told = [e.describe() for e in game.journal]
        self.game = game
        self.held = ""
        if len(shown) == len(told) == self._logged:
            entries = list(game.journal)  # the same lines, some in fuller words: written over in place
            self.query_one("#log", WrapLog).retell(lambda i: self._log_line(entries[i]))
        elif shown != told:
            self._logged = 0
            self.query_one("#log", WrapLog).clear()
        self.refresh_all()

    def set_game(self, game: Game) -> None:
        """Show another game (new or loaded) in this screen."""
        self.game = game
        self.held = ""
        self.adapter = adapter_for(game)
        self.seat = game.phase.owner  # a pending answer of the other side is handed over first
        self.clear_selection()
        hexmap = self.query_one(HexMap)
        hexmap.set_map(game.scenario.map)
        self._fit_side()  # another game's map has another width
        hexmap.painter.first_side = self.adapter.first_side(game)
        self.cursor = self._first_cursor()
        hexmap.painter.cursor = self.cursor
        self._logged = 0
        self.query_one("#log", WrapLog).clear()
        self.last_case = None
        self.refresh_all()
        hexmap.scroll_to_hex(self.cursor, True)

    def selection_note(self) -> str | None:
        """What the status line says about the selected stack and the hex under the cursor."""
        r = self.overlay.reach.get(self.cursor)
        if r is None:
            return None
        return f"{r.cost:g} MP" if r.ok else f"no: [{r.case}] {r.why}"

    def refuse(self, illegal: Illegal) -> None:
        self.last_case = illegal.case
        self.say(f"Refused [{illegal.case}] {illegal.why} (r: read {illegal.case})")
        # the status line cuts a long reason at 80 columns: the log keeps it whole
        self.query_one("#log", WrapLog).add(Text(self.name_ids(f"Refused [{illegal.case}] {illegal.why}")))
    # -- key actions: screens -------------------------------------------------------------

    def action_help(self) -> None:
        title = f"Help: {self.adapter.phase_title(self.game, self.game.state.phase)} phase"
        from kiev_tui.ui.dialogs import TextScreen  # the dialogs load with the first one opened (issue 33)
        self.app.push_screen(TextScreen(title, self.adapter.phase_help(self.game), on_rules=self.action_rules))

    def action_legend(self) -> None:
        rows = self.adapter.legend(self.game, self.kapp.glyphs)
        width = max(len(g) for g, _ in rows)
        body = "\n".join(f"  {g:<{width}}  {meaning}" for g, meaning in rows)
        from kiev_tui.ui.dialogs import TextScreen
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
        from kiev_tui.ui.dialogs import TextScreen
        self.app.push_screen(TextScreen(title, "\n".join(lines)))

    def action_inspect_wide(self) -> None:
        """Map, or tracker and inspector across the whole width (80x24 has no room for both)."""
        wide = not self.has_class("-inspect")
        self.set_class(wide, "-inspect")
        self._fit_side()
        if not wide:
            self.query_one(HexMap).center_when_sized(self.cursor)
        self.say("Tracker and inspector full width; I for the map" if wide else "")

    def action_zoom(self) -> None:
        hexmap = self.query_one(HexMap)
        hexmap.zoom = COMPACT if hexmap.zoom == FULL else FULL
        self._fit_side()
        self.say(f"Zoom: {hexmap.zoom}")

    def action_log(self, delta: int) -> None:
        log = self.query_one("#log", WrapLog)
        log.scroll_relative(y=delta * max(1, log.size.height - 1), animate=False)
