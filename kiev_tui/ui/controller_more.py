"""The methods of kiev_tui.ui.controller that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in controller.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.ui.controller import (  # noqa: F401
    Action, DiceNeeded, EndPhase, HexMap, Illegal, Overlay, occupancy, parse_hex, side_of, toggle,
    turn_label, ui_text, visible_to,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.ui.controller import Hex


class PlayControls:
    """Methods of controller.PlayControls that a new game's first frame never calls."""
    # -- playing --------------------------------------------------------------------------

    def play(self, action: Action) -> bool:
        """Check and apply one action; show the refusal or what followed."""
        if self.held:  # a resumed save still being checked (issue 33): its position is not yet trusted
            self.say(self.held)
            return False
        if self.computer_acting():  # a dialog opened before the computer took the move: nothing now
            self.say("The computer is playing: wait for your move")
            return False
        illegal = self.game.check(action, side=self.seat)
        if illegal is not None:
            self.refuse(illegal)
            return False
        if self.net is not None:  # the host plays it; its answer comes back as a message (net/face.py)
            why = self.net.submit(action)
            self.say(why or "Sent to the host")
            return False
        try:
            events = self.game.apply(action, side=self.seat)
        except DiceNeeded:
            if self.part is None:
                raise
            # commit-reveal: the die cannot be made before the other player's link arrives
            self.part.hold(action)  # the game put the position back as it was before the action
            self.clear_selection()
            self.refresh_all()
            self.end_part()
            return False
        shown = [e for e in events if visible_to(e, self.seat)]  # a secret only for its owner's seat
        self.message = shown[-1].describe() if shown else ""
        self.last_case = None
        self.after(events)
        return True

    def after(self, events: list[Any]) -> None:
        changed = [e for e in events if e.kind == "player_changed"]
        if changed:
            self.clear_selection()
        self.refresh_all()
        if self.net is not None:  # a seat never hands over: the other player has his own screen
            if self.game.state.over:
                self.call_after_refresh(self.show_score)
            else:
                self.check_pending()
            return
        if self.part is not None:
            if self.part.finished:  # the move is the other player's now, or the game is over
                self.end_part()
            else:
                self.check_pending()
        elif self.game.state.over:
            self.call_after_refresh(self.show_score)
        elif self.game.actor != self.seat and (changed or self.adapter.pending(self.game) is None):
            self.hand_off(self.game.actor)  # the side that answers now, not the phasing one
        else:
            self.check_pending()

    def hand_off(self, player: str, note: str | None = None) -> None:
        """Hide the map until `player` is at the keyboard; a `note` keeps the cursor (a mid-phase hand-over)."""
        if self.net is not None:  # a seat: the other player answers at his own screen
            self.say(self.name_ids((note or "").replace("\n", " ")) or
                     f"Waiting for the {self.adapter.side_name(self.game, player)} player")
            return
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
        from kiev_tui.ui.dialogs import HandoffScreen  # the dialogs load with the first one opened (issue 33)
        self.app.push_screen(HandoffScreen(player, turn_label(self.game), text), done)

    def show_score(self) -> None:
        heading, lines = self.adapter.final_score(self.game)

        def done(what: str | None) -> None:
            if what == "new":
                self.start_new_game()
            elif what == "quit":
                self.app.exit()

        from kiev_tui.ui.dialogs import ScoreScreen
        self.app.push_screen(ScoreScreen(lines, heading), done)

    def _own_stack(self, view: Any, h: Hex) -> list[str]:
        """The units of the side that acts now in a hex, top first."""
        player = self.game.actor
        ids = [u for u in occupancy(self.game).get(h, []) if side_of(self.game, u) == player]
        return list(self.adapter.stack_order(self.game, ids))

    def select_at(self, h: Hex) -> None:
        """Select the stack of the side to play in a hex: the units of it that may move now."""
        own = self._own_stack(self.view(), h)
        if not own:
            ids = occupancy(self.game).get(h, [])
            if ids:
                player = self.game.actor
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
        from kiev_tui.ui.dialogs import AskScreen
        self.app.push_screen(AskScreen(title, example), done)

    def action_next_actor(self) -> None:
        hexes = self.adapter.actors(self.game)
        if not hexes:
            self.say("Nothing left that can act this phase: P ends the phase")
            return
        later = [h for h in hexes if h > self.cursor]
        self.move_cursor((later or hexes)[0])

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
        if self.net is not None:
            self.net_move = (units, h)  # kept selected there once the host accepts the move
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
        if actor != self.seat and self.net is not None:
            self.say(f"The {self.adapter.side_name(self.game, actor)} player answers: {self.name_ids(pending.prompt)}")
            return
        if actor != self.seat:
            self.hand_off(actor, f"The {self.adapter.side_name(self.game, actor)} player answers:\n"
                                 f"{self.name_ids(pending.prompt)}")
            return
        self.answer_pending(pending)

    def answer_pending(self, pending: Any) -> None:
        """Open the dialog for a waiting choice: any game's prompt, answered from its options (a
        game's own screen may open a richer dialog instead)."""
        from kiev_tui.ui.dialogs import PromptScreen

        if not getattr(pending, "options", ()):
            self.say(f"waiting: {pending.prompt}")  # a choice with nothing to pick (a hand-built one)
            return

        def done(action: Any) -> None:
            if action is not None and self.play(action):
                self.call_after_refresh(self.check_pending)  # a chain: the next prompt opens at once

        title = self.name_ids(pending.text + (f" ({pending.case})" if pending.case else ""))
        self.app.push_screen(PromptScreen(pending, title, [self.name_ids(o.label) for o in pending.options]), done)

    def action_choose(self) -> None:
        """The choices the rules offer the side at the keyboard (a hidden pick, its reveal, its
        view only), then what else its rules allow that no other key plays (ui/text.py ``choices``:
        a declared attack, an attack, an overrun...)."""
        if self._handing_off:
            return  # behind the hand-off screen nobody's choices show
        opts = ui_text.choices(self.game, self.seat)
        if not opts:
            self.say("Nothing to choose now")
            return

        def done(action: Action | None) -> None:
            if action is not None and self.play(action):
                self.call_after_refresh(self.check_pending)  # an attack's chain asks at once

        from kiev_tui.ui.dialogs import PickScreen
        self.app.push_screen(PickScreen("Choose", [(self.name_ids(label), a) for label, a in opts]), done)

    def action_undo(self) -> None:
        if self.computer_acting():
            self.say("The computer is playing: wait for your move")
            return
        if self.net is not None:  # the host takes it back for every seat, or says why not
            self.say(self.net.request_undo() or "Asked the host to take back your last action")
            return
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
        if self.computer_acting():
            self.say("The computer is playing: wait for your move")
            return
        ph = self.game.phase
        lines = [f"- {t}" for t in ph.todo] + list(self.adapter.end_phase_notes(self.game))
        title = (f"End the {self.adapter.side_name(self.game, ph.owner)} "
                 f"{self.adapter.phase_title(self.game, ph.name).lower()} phase?")
        if not lines:
            lines = ["Nothing is left undone."]
        asked = (self.game.state.turn, ph.owner, ph.name)

        def done(yes: bool | None) -> None:
            if yes and asked != (self.game.state.turn, self.game.phase.owner, self.game.phase.name):
                self.say("That phase is over already: nothing was ended")  # never the next one in its place
            elif yes:
                self.clear_selection()
                self.play(EndPhase())

        lines = [self.name_ids(line) for line in lines]
        from kiev_tui.ui.dialogs import ConfirmScreen
        self.app.push_screen(ConfirmScreen(title, lines, "End the phase? (y/n)"), done)
