"""Kiev's reinforcement dialog: tick the units that come on together, then their entry hex."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Static

from kiev_tui.ui.dialogs import DIALOG_CSS, KEYS_HERE, Choices, Dialog, plain, while_open

UNITS_CAPTION = "Units (space ticks; the ticked units enter together):"


class EntryScreen(Dialog):
    """Reinforcements: tick the units that come on together, then choose their entry hex."""

    DEFAULT_CSS = """
    EntryScreen { align: center middle; }
    EntryScreen #entry-msg { color: $warning; }
    """ + DIALOG_CSS
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", key_display="Esc"),
        Binding("tab", "switch", "Units/hexes", key_display="Tab"),
        Binding("t", "toggle_rail", "Rail on/off"),
    ]

    def __init__(self, due: list[tuple[str, str, list[Any]]], rail_hexes: set[str] | None = None,
                 message: str = "") -> None:
        super().__init__()
        self.due = due
        self.rail_hexes = rail_hexes or set()  # entry hexes with a railroad (Soviet only)
        self.rail_allowed = bool(rail_hexes)
        self.rail = False
        self.message = message
        self._hexes: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Reinforcements due now (15.0, 23.0)", classes="dialog-title")
            yield Static(UNITS_CAPTION, id="entry-units-title")
            yield Choices([f"{n}. {label}" for n, (_, label, _) in enumerate(self.due, 1)], multi=True,
                          ticked={0} if self.due else set(), id="entry-units")
            yield Static("", id="entry-hexes-title")
            yield Choices([], id="entry-hexes")
            yield Static(plain(self.message), id="entry-msg")
            foot = "Tab switch list, space tick, Enter on a hex to bring the units on, Esc cancel"
            if self.rail_allowed:
                foot += ", t by rail"
            yield Static(foot, classes="dialog-foot")

    def on_mount(self) -> None:
        self._refresh_hexes()
        self.query_one("#entry-units", Choices).focus()

    def chosen_units(self) -> tuple[str, ...]:
        units = self.query_one("#entry-units", Choices)
        return tuple(self.due[i][0] for i in sorted(units.ticked))

    @while_open
    def _refresh_hexes(self) -> None:
        # Also called after a refresh (space): by then the dialog may be closed and emptied.
        if not self.is_attached or not self.query("#entry-units"):
            return
        units = set(self.chosen_units())
        common: set[str] | None = None
        for uid, _, hexes in self.due:
            if uid in units:
                these = {str(h) for h in hexes}
                common = these if common is None else common & these
        self._hexes = sorted(h for h in common or () if not self.rail or h in self.rail_hexes)
        self.query_one("#entry-hexes", Choices).set_items(self._hexes)
        self._captions()

    def on_descendant_focus(self) -> None:
        self._captions()

    def on_descendant_blur(self) -> None:
        self._captions()

    def _captions(self) -> None:
        """Name the list the keys go to: beside two lists, the focus must read without colour."""
        if self.dismissed or not self.query("#entry-units"):
            return
        how = "by rail" if self.rail else "by road"
        units = self.query_one("#entry-units", Choices).has_focus
        hexes = self.query_one("#entry-hexes", Choices).has_focus
        self.query_one("#entry-units-title", Static).update((KEYS_HERE if units else "") + UNITS_CAPTION)
        self.query_one("#entry-hexes-title", Static).update(
            (KEYS_HERE if hexes else "") + f"Entry hexes open to all ticked units ({how}):")

    @while_open
    def on_key(self, event: Key) -> None:
        if event.key == "space":
            self.call_after_refresh(self._refresh_hexes)

    def action_switch(self) -> None:
        self.focus_next()

    @while_open
    def action_toggle_rail(self) -> None:
        if self.rail_allowed:
            self.rail = not self.rail
            self._refresh_hexes()

    @on(Choices.Chosen, "#entry-units")
    @while_open
    def _unit_enter(self, event: Choices.Chosen) -> None:
        self.query_one("#entry-hexes", Choices).focus()

    @on(Choices.Chosen, "#entry-hexes")
    @while_open
    def _hex_chosen(self, event: Choices.Chosen) -> None:
        units = self.chosen_units()
        if units and self._hexes:
            self.dismiss((units, self._hexes[event.index], self.rail))

    def action_cancel(self) -> None:
        self.dismiss(None)
