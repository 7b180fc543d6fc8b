"""The methods of kiev_tui.games.spi_kiev.face.screen that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in screen.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from kiev_tui.games.spi_kiev.face.screen import (  # noqa: F401
    Action, Attack, COMBAT, Enter, Hex, Illegal, MECHANIZED, MOVEMENT, Overrun, RailMove,
    RemoveExcess, SOVIET, acting, enemy_of, movement, present, rail, stacking, toggle,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.face.screen import View


class KievGameScreen:
    """Methods of screen.KievGameScreen that a new game's first frame never calls."""

    def act_on(self, h: Hex) -> bool:
        if self.view().occupied_by(h, enemy_of(self.game.state.player)):
            self.action_overrun()
            return True
        if self.rail_mode:
            self.do_rail(h)
            return True
        return False
    # -- Kiev's commands ---------------------------------------------------------------------

    def select_at(self, h: Hex) -> None:
        """As the generic selection, plus a stack held in an enemy zone (it may overrun) and rail riders."""
        view = self.view()
        st = self.game.state
        own = self._own_stack(view, h)
        if not own:
            ids = view.at(h)
            if ids:
                self.say(f"Those are {present.side_name(view.side(ids[0]))} units; "
                         f"it is the {present.side_name(self.game.actor)} player's turn")
            else:
                self.say("No units here")
            return
        movers = [u for u in own if acting.can_move(view, u, zoc=False)]
        riders = self._rail_riders(view, own)
        if riders and not movers:  # came on by rail: the railway is their only way on (5.33)
            self._offer_rail(riders, h)
            return
        if not movers:
            self.refuse_stack(own)  # the rules say why (stopped, phase, zone of control...)
            return
        self.set_selection(tuple(movers), h)
        if not any(r.ok for r in self.overlay.reach.values()) and view.in_enemy_zoc(h, st.player):
            self.last_case = "8.23"
            self.say("In an enemy zone of control (8.23): this stack may only overrun (o on an adjacent enemy)")

    def _rail_riders(self, view: View, own: list[str]) -> tuple[str, ...]:
        """Units here that came on by rail this phase and may still ride on (5.33, 19.3)."""
        v = view.vars
        riders = tuple(u for u in own if u in v.rail_entry and u not in v.railed)
        if not riders or self.game.state.phase != MOVEMENT or self.game.state.pending is not None:
            return ()
        return riders if rail.destinations(view, riders) else ()

    def _offer_rail(self, units: tuple[str, ...], h: Hex) -> None:
        """Select a stack that came by rail, in rail mode: the next step is plain to see."""
        self.rail_mode = True
        self.set_selection(units, h)
        self.say("Came on by rail: they may go on only by rail (5.33). Cursor to a rail hex, Enter; Esc leaves them")

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
        if self.game.state.pending is None and all(acting.can_move(view, u, zoc=False) for u in units):
            self.set_selection(units, h)
            if not any(r.ok for r in self.overlay.reach.values()) and not view.in_enemy_zoc(h, self.game.state.player):
                self.clear_selection()
        else:
            self.clear_selection()
        self.message = message
        self.refresh_all()

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
            self.overlay.attackers = toggle(self.overlay.attackers, uid)
            self.refresh_all()
            return
        self.pick_unit(own, uid, h)  # the shared controls' selection toggle

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
        from kiev_tui.games.spi_kiev.face.combat_ui import integrity_items

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

        from kiev_tui.ui.dialogs import PickScreen  # the dialogs load with the first one opened (issue 33)
        self.app.push_screen(PickScreen("Divisional integrity (20.2): which division does GD join?", choices),
                             picked)

    def _preview_overrun(self, units: tuple[str, ...], target: str, integrity: str) -> None:
        from kiev_tui.games.spi_kiev.face.combat_ui import overrun_preview

        def played() -> None:
            self._continue_with(units, self.cursor)

        lines, illegal = overrun_preview(self.game, units, target, integrity)
        self._confirm_roll("Overrun", lines, illegal, Overrun(units, target, integrity), played=played)

    def _confirm_roll(self, title: str, lines: list[str], illegal: Illegal | None, action: Action,
                      on_yes: Callable[[], None] = lambda: None, played: Callable[[], None] = lambda: None) -> None:
        """Show a combat preview; on yes, `on_yes`, play the action (the roll), then `played`."""
        from kiev_tui.games.spi_kiev.face.combat_ui import PreviewScreen

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
        # by e-mail the die is not rolled here: the attack goes to the other player unresolved
        by_mail = getattr(self.app, "part", None) is not None
        ask = "Send it in your turn file? (y/n)" if by_mail else "Roll the die? (y/n)"
        self.app.push_screen(PreviewScreen(self.game, title, lines, ask,
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
                able = [u for u in own if acting.can_attack(view, u)] or own
                self.overlay.attackers = self.overlay.attackers + tuple(able)
        else:
            self.overlay.targets = toggle(self.overlay.targets, str(h))
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
        from kiev_tui.games.spi_kiev.face.combat_ui import integrity_items

        self._with_integrity(integrity_items(self.game, attackers, targets),
                             lambda division: self._preview_attack(attackers, targets, division))

    def _preview_attack(self, attackers: tuple[str, ...], targets: tuple[str, ...], integrity: str) -> None:
        from kiev_tui.games.spi_kiev.face.combat_ui import attack_preview

        def clear_plan() -> None:
            self.overlay.attackers, self.overlay.targets = (), ()

        lines, illegal = attack_preview(self.game, attackers, targets, integrity)
        self._confirm_roll("Combat preview", lines, illegal, Attack(attackers, targets, integrity), on_yes=clear_plan)

    def action_pending(self) -> None:
        if self.game.state.pending is None:
            self.say("No combat result is waiting")
            return
        from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen, roll_line

        actor = self.game.actor
        if actor != self.seat:  # the choice is the other side's: they take the keyboard first (4.1)
            prompt = str(self.game.state.pending.get("prompt", ""))
            roll = roll_line(self.game)
            self.hand_off(actor, f"The {present.side_name(actor)} player answers a combat result:\n"
                                 f"{present.name_ids(self.view(), prompt)}" + (f"\n{roll}" if roll else ""))
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
        from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen

        rail_hexes: set[str] = set()
        if self.game.state.player == SOVIET:  # 19.3: only the Soviets come on by train
            rail_hexes = {str(h) for _, _, hexes in due for h in hexes if rail.is_rail_hex(view, h)}

        def done(choice: tuple[tuple[str, ...], str, bool] | None) -> None:
            if choice is None:
                return
            units, hex_id, by_rail = choice
            action = Enter(units, hex_id, by_rail)
            # 5.0 with 15.0: a new group ends the move of the stack in hand; ask before its MP are lost
            legal = self.game.check(action, side=self.seat) is None
            caution = movement.ends_hand(self.view(), units) if legal else None
            if caution is None:
                self._bring_on(action)
                return

            def answered(yes: bool | str | None) -> None:
                if yes is True:
                    self._bring_on(action)
                else:
                    self.last_case = caution.case  # r reads 5.0
                    who = self.name_ids(", ".join(caution.units))
                    self.say(f"Reinforcements not brought on: {who} {'keeps' if len(caution.units) == 1 else 'keep'} moving")

            why = self.name_ids(f"[{caution.case}] {caution.why} (rules {caution.case})")
            from kiev_tui.ui.dialogs import ConfirmScreen
            self.app.push_screen(ConfirmScreen("Bring these reinforcements on now?", [why],
                                               "Enter or y: bring them on   Esc: keep moving the stack in hand"),
                                 answered)

        self.app.push_screen(EntryScreen(due, rail_hexes), done)

    def _bring_on(self, action: Enter) -> None:
        """Play the entry; the group goes on moving from its hex (by road or, if it came by train, rail)."""
        if self.play(action):
            h = Hex.parse(action.hex)
            self.move_cursor(h)
            if not action.rail:
                self._continue_with(action.units, h)
            else:
                riders = self._rail_riders(self.view(), list(action.units))
                if riders:
                    self._offer_rail(riders, h)

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
        from kiev_tui.ui.dialogs import PickScreen
        self.app.push_screen(PickScreen(f"Overstacked {self.cursor}: which unit is eliminated? (7.0)", items), done)
