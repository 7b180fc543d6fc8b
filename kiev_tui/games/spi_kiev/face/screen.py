"""Kiev's game screen: the generic one plus the commands of SPI Kiev.

Attacks are built with Enter in the combat phase and previewed with `c`; `o` overruns, `t`
moves by rail (Soviet, 5.3 and 19.3), `i` brings on reinforcements (15.0, 23.0), `x` removes a
unit from an overstacked hex (7.0), `p` answers a combat result waiting for a side.  The keys,
texts and layout are those of the game screen before the split (the snapshot tests hold them).

The combat screens and previews (face/combat_ui.py, and through it the combat rules) and the
reinforcement dialog are imported by the key that opens them, never to draw the first frame
(issue 33).
"""

from __future__ import annotations

from typing import Any, Callable

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import acting, movement, rail, reinforcements, stacking
from kiev_tui.games.spi_kiev.actions import Attack, Enter, Overrun, RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT, SOVIET, View, enemy_of
from kiev_tui.games.spi_kiev.face import present
from kiev_tui.later import later
from kiev_tui.ui.game_screen import GameScreen, binding, toggle

_b = binding


class KievGameScreen(GameScreen):
    """Where SPI Kiev is played."""

    BINDINGS = GAME_KEYS = [
        _b("i", "reinforce", "Reinforce"),
        _b("t", "rail", "Rail"),
        _b("o", "overrun", "Overrun"),
        _b("x", "remove_excess", "Remove"),
        _b("c", "attack", "Attack"),
    ]
    SHORT_LABELS = {"reinforce": "Reinf", "overrun": "Ovrun", "remove_excess": "Rem"}

    def __init__(self, game: Game, adapter: Any = None) -> None:
        super().__init__(game, adapter)
        self.rail_mode = False  # the selected stack moves by rail: reach is rail hexes (5.3)

    def view(self) -> View:
        return self.game.rules.position(self.game)  # type: ignore[no-any-return]

    # -- hooks of the generic screen ---------------------------------------------------------
    def clear_selection(self) -> None:
        super().clear_selection()
        self.rail_mode = False

    def selection_note(self) -> str | None:
        if self.rail_mode:
            rp = self.overlay.rail.get(self.cursor)
            return f"rail: {len(rp)} hexes" if rp else "rail: not reachable"
        return super().selection_note()

    def find_reach(self, units: tuple[str, ...]) -> None:
        if self.rail_mode:
            self.overlay.rail = present.rail_reach(self.view(), units)
        else:
            super().find_reach(units)

    def _refresh_path(self) -> None:
        if self.overlay.selected and self.rail_mode:
            self.overlay.path = self.overlay.rail.get(self.cursor, ())
            return
        super()._refresh_path()

    def select_in_phase(self, h: Hex) -> bool:
        if self.game.state.phase == COMBAT:  # Enter builds the attack (9.1)
            self.toggle_attack(h)
            return True
        return False

    act_on = later("kiev_tui.games.spi_kiev.face.screen_more")
    select_at = later("kiev_tui.games.spi_kiev.face.screen_more")
    _rail_riders = later("kiev_tui.games.spi_kiev.face.screen_more")
    _offer_rail = later("kiev_tui.games.spi_kiev.face.screen_more")
    do_rail = later("kiev_tui.games.spi_kiev.face.screen_more")
    _continue_with = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_pick = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_rail = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_overrun = later("kiev_tui.games.spi_kiev.face.screen_more")
    _with_integrity = later("kiev_tui.games.spi_kiev.face.screen_more")
    _preview_overrun = later("kiev_tui.games.spi_kiev.face.screen_more")
    _confirm_roll = later("kiev_tui.games.spi_kiev.face.screen_more")
    toggle_attack = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_attack = later("kiev_tui.games.spi_kiev.face.screen_more")
    _preview_attack = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_pending = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_reinforce = later("kiev_tui.games.spi_kiev.face.screen_more")
    _bring_on = later("kiev_tui.games.spi_kiev.face.screen_more")
    action_remove_excess = later("kiev_tui.games.spi_kiev.face.screen_more")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False  # the window is too small to play, or nothing waits for an answer
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
        return True
