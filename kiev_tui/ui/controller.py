"""Playing on the game screen: the cursor, the selection, moving, ending the phase, the hand-off.

`PlayControls` is mixed into `GameScreen` (game_screen.py), which holds the panels; this part
holds what the keys of play do.  It knows no game: every question goes to the rule system
(`game.rules`) or to the game's adapter (`self.adapter`), and every change to `game.apply` or
`game.undo`.  A game's own screen overrides the hooks `select_in_phase`, `act_on`,
`find_reach` and `answer_pending` rather than these methods.

A game by e-mail (`kiev-tui pbem turn`) sets `part`: one side plays alone, never hands over,
and the session ends with his part (`end_part`); the action that draws dice is not rolled here
but kept in the part, to go into the turn file unresolved (kiev_tui/pbem/part.py).

A seat at a hosted game (`kiev-tui join`) sets `net`: one side plays, its actions go to the
host, and what the host accepts comes back through kiev_tui/net/face.py (never applied here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.dice import DiceNeeded
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Direction, Hex
from kiev_tui.engine.rules import turn_label
from kiev_tui.later import later
from kiev_tui.ui.adapter import Overlay, occupancy, side_of
from kiev_tui.engine.view import visible_to
from kiev_tui.ui import text as ui_text
from kiev_tui.ui.hexmap import HexMap, parse_hex

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

_DIRS = {"N": Direction.N, "NE": Direction.NE, "SE": Direction.SE, "S": Direction.S,
         "SW": Direction.SW, "NW": Direction.NW}


#: The only keys offered while a computer opponent acts: they look, move the cursor or save a copy,
#: and change nothing in the game (ending a phase, undo, a new or loaded game, every move wait).
WHILE_COMPUTER_ACTS = frozenset({"cursor", "column", "goto", "next_actor", "cancel", "help", "rules", "legend",
                                 "score", "inspect_wide", "zoom", "log", "save"})


def toggle(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """`items` with `item` dropped if it is there, else added at the end."""
    return tuple(i for i in items if i != item) if item in items else items + (item,)


class PlayControls:
    """The keys of play, for `GameScreen` (which provides the attributes and panels named here)."""

    # set by GameScreen.__init__
    game: "Game"
    adapter: Any
    cursor: Hex
    overlay: Overlay
    sel_hex: Hex | None
    message: str
    last_case: str | None
    seat: str
    held: str
    _handing_off: bool
    part: Any = None  # a game by e-mail: the player's part (pbem/part.py); None in hot-seat play
    net: Any = None  # a seat at a hosted game: its link to the host (net/seat.py); None in hot-seat play
    net_move: Any = None  # the stack moved and where, while the host has not yet answered the move

    # -- the computer opponent ----------------------------------------------------------------
    def computer_acting(self) -> bool:
        """True while a computer opponent (kiev_tui/ai/local.py) has the move: its own phases and
        its answers to combat choices.  Its actions arrive one by one between the screen's own."""
        side = getattr(self.net, "ai_side", None)
        if side is None or getattr(self.net, "stalled", False):
            return False  # no computer here, or it failed: the keys are the player's again
        return not self.game.state.over and self.game.actor == side

    def locked_while_computer_acts(self, action: str) -> bool:
        """Whether this key waits for the computer to finish (``check_action`` offers it not)."""
        return action.split("(", 1)[0] not in WHILE_COMPUTER_ACTS and self.computer_acting()

    play = later("kiev_tui.ui.controller_more")
    after = later("kiev_tui.ui.controller_more")
    hand_off = later("kiev_tui.ui.controller_more")

    def end_part(self) -> None:
        """A game by e-mail: the player's part is over; leave, and the command writes the turn file."""
        self.app.exit()

    def check_pending(self) -> None:
        if self._handing_off or self.app.screen is not self or self.held:
            return  # (held: a resumed save is being checked; asked again once it passes)
        if self.net is not None and self.game.actor != self.seat:
            return  # the other player's move: the status line says whom we wait for
        st = self.game.state
        if self.adapter.pending(self.game) is not None:
            self.action_pending()
        elif not st.over and self.seat != self.game.actor:  # the other side has answered: hand back
            actor = self.game.actor
            self.hand_off(actor, f"Back to the {self.adapter.side_name(self.game, actor)} player's turn.")

    show_score = later("kiev_tui.ui.controller_more")

    # -- selection ------------------------------------------------------------------------
    def clear_selection(self) -> None:
        self.overlay = Overlay()
        self.sel_hex = None

    _own_stack = later("kiev_tui.ui.controller_more")
    select_at = later("kiev_tui.ui.controller_more")
    refuse_stack = later("kiev_tui.ui.controller_more")
    set_selection = later("kiev_tui.ui.controller_more")

    def find_reach(self, units: tuple[str, ...]) -> None:
        """Fill the overlay with where the selected units may go."""
        self.overlay.reach = dict(self.game.reachable(units))

    def _refresh_path(self) -> None:
        if not self.overlay.selected:
            self.overlay.path = ()
            return
        r = self.overlay.reach.get(self.cursor)
        self.overlay.path = tuple(r.path) if r is not None and r.ok else ()

    move_cursor = later("kiev_tui.ui.controller_more")

    def action_cursor(self, direction: str) -> None:
        self.move_cursor(self.cursor.step(_DIRS[direction]))

    def action_column(self, delta: int) -> None:
        self.move_cursor(Hex(self.cursor.col + delta, self.cursor.row))

    action_goto = later("kiev_tui.ui.controller_more")

    def on_hex_map_clicked(self, event: HexMap.Clicked) -> None:
        if event.hex == self.cursor:
            self.action_select()
        else:
            self.move_cursor(event.hex)

    action_next_actor = later("kiev_tui.ui.controller_more")

    # -- key actions: play ----------------------------------------------------------------
    def select_in_phase(self, h: Hex) -> bool:
        """A game's own use of Enter in this phase (Kiev: building an attack); True if handled."""
        return False

    def act_on(self, h: Hex) -> bool:
        """A game's own use of Enter on a hex with a stack selected (Kiev: overrun, rail); True if handled."""
        return False

    action_select = later("kiev_tui.ui.controller_more")
    do_move = later("kiev_tui.ui.controller_more")
    _continue_with = later("kiev_tui.ui.controller_more")
    action_cancel = later("kiev_tui.ui.controller_more")
    action_pick = later("kiev_tui.ui.controller_more")
    pick_unit = later("kiev_tui.ui.controller_more")
    action_pending = later("kiev_tui.ui.controller_more")
    answer_pending = later("kiev_tui.ui.controller_more")
    action_choose = later("kiev_tui.ui.controller_more")
    action_undo = later("kiev_tui.ui.controller_more")
    action_end_phase = later("kiev_tui.ui.controller_more")
