"""The methods of kiev_tui.engine.game that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in game.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.game import (  # noqa: F401
    AutosaveFailed, Drawn, Illegal, IllegalAction, Reloaded, Rolled, Sealed, apply_sealed, salted,
    shorten,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.game import Action, Event


class Game:
    """Methods of game.Game that a new game's first frame never calls."""

    def check(self, action: Action, side: str | None = None) -> Illegal | None:
        """None if the action is legal now, else the rule case and reason that forbid it.

        ``side`` is who submits it; None means the side whose move it is (old callers, old saves).
        """
        return self._check(action, side, None)

    def _check(self, action: Action, side: str | None, actor: str | None) -> Illegal | None:
        # ``actor``: who answers now, when the caller has it already (apply asks once per action)
        if self.state.over:
            return Illegal(self.rules.cases.game_over, "the game is over")
        if side is not None:
            wrong = self._wrong_side(side, actor)
            if wrong is not None:
                return wrong
        if isinstance(action, Sealed):  # views and secrets: another side's commitment, checked by its owner
            return None
        return self.rules.check(self, action)

    def _wrong_side(self, side: str, actor: str | None = None) -> Illegal | None:
        # The player-turn is the phasing player's; a pending choice belongs to the side it names.
        actor = self.actor if actor is None else actor
        if side == actor:
            return None
        case = self.rules.cases.wrong_side
        # Sides are named by their ids here, as the saves and the command line write them.
        if self.state.pending is not None:
            return Illegal(case, f"the {actor} player must answer now, not the {shorten(side)} player")
        return Illegal(case, f"it is the {actor} player's turn, not the {shorten(side)} player's")

    def apply(self, action: Action, side: str | None = None) -> list[Event]:
        """Play one action; raises IllegalAction (with case and reason) if it is not legal.

        ``side`` is who submits it (default: the side whose move it is); the log records it.
        """
        action = salted(action)  # views and secrets: a hidden choice gets its salt once, here
        actor_before = "" if self.state.over else self.actor  # asked once: check and the hand-over test share it
        illegal = self._check(action, side, actor_before or None)
        if illegal is not None:
            raise IllegalAction(illegal)
        acting = side if side is not None else actor_before
        # What undo and a failed action go back to; a replay keeps none (it stops at the failure).
        before = None if self.replaying else (self.state.copy(), self.dice.mark(), self.rolls, len(self.journal))
        self._sink = []
        self._rolling = []
        self.dice.begin_action()
        try:
            if isinstance(action, Sealed):
                apply_sealed(self, acting, action)
            else:
                self.rules.apply(self, action)
        except Exception:
            # A rule-system bug, or dice that cannot roll yet (DiceNeeded), leave nothing half-applied.
            if before is None:
                raise
            self.state, mark, self.rolls, _ = before
            self.dice.rewind(mark)
            raise
        finally:
            events, self._sink = self._sink, None
        self.dice.end_action()
        self.version += 1
        self.rolled.append(self._rolling)
        self.log.append(action)
        self.sides.append(acting)
        self.hashes.append(self.state_hash())
        # Views and secrets: the journal is public; an event for some sides only (a hidden
        # choice noted for its owner) goes back to the face that made it, never into the journal.
        self.journal.extend(e for e in events if e.audience() is None)
        if any(e.barrier for e in events) or (not self.state.over and self.actor != actor_before):
            self._undo.clear()  # no stepping back over a roll, a reveal or a hand-over to the other side
        elif before is not None:
            self._undo.append(before)
        if any(e.kind == "phase_ended" for e in events) and self.on_phase_end is not None:
            failed = self._phase_end_hook()
            if failed is not None:
                events.append(failed)  # returned to the face, kept out of the journal
        return events

    def _phase_end_hook(self) -> AutosaveFailed | None:
        """Run the autosave; a full disk or a folder gone must never cost the game itself."""
        assert self.on_phase_end is not None
        try:
            self.on_phase_end(self)
        except Exception as exc:  # noqa: BLE001 - the action is applied; nothing may undo that
            reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
            failed = AutosaveFailed(str(self.autosave_path or "the autosave"), reason)
            self.autosave_error = failed.describe()
            return failed
        self.autosave_error = None
        return None

    def roll(self, purpose: str, sides: int = 6) -> int:
        """Roll the game's die (its dice source); the value goes into the journal and the log."""
        if self._sink is None:
            raise RuntimeError("dice are rolled only while an action is applied")
        value = self.dice.roll(sides, purpose)
        self._rolling.append(value)
        self.rolls += 1
        self.emit(Rolled(purpose, sides, value, self.rolls))
        return value

    def choose(self, purpose: str, options: list[str]) -> str:
        """A random pick among options (e.g. a hidden counter's face), drawn now and logged."""
        if not options:
            raise ValueError(f"nothing to draw for {purpose}")
        if self._sink is None:
            raise RuntimeError("draws are made only while an action is applied")
        index = self.dice.pick(len(options), purpose)
        self._rolling.append(index)
        pick = options[index]
        self.rolls += 1
        self.emit(Drawn(purpose, pick))
        return pick

    def note_reload(self, file: str, earlier: "Game") -> Reloaded | None:
        """Log in the journal that ``earlier``, a save of this same game, replaces this one.

        Hot-seat play: the other player reads in the log that the position was taken back, and
        how many dice rolled since are thrown away.  None (nothing logged) for another game or
        a save that is not behind this one.
        """
        if earlier.game_id != self.game_id:
            return None
        if len(earlier.log) >= len(self.log) and earlier.log[:len(self.log)] == self.log:
            return None  # the save is this game as it stands, or further on
        event = Reloaded(file, len(self.log), len(earlier.log), max(0, self.rolls - earlier.rolls),
                         earlier.state.turn, earlier.state.player, earlier.state.phase)
        earlier.notices.append((len(earlier.journal), event))
        earlier.journal.append(event)
        return event

    def undo(self) -> bool:
        """Take back the last action, unless a roll, reveal or change of player came after it."""
        if not self._undo:
            return False
        state, mark, rolls, jlen = self._undo.pop()
        self.version += 1
        self.state = state
        self.dice.rewind(mark)
        self.rolls = rolls
        del self.journal[jlen:]
        self.notices = [(line, ev) for line, ev in self.notices if line < jlen]
        self.rolled.pop()
        self.log.pop()
        self.sides.pop()
        self.hashes.pop()
        return True
    # -- fingerprints -----------------------------------------------------

    def state_hash(self) -> str:
        """A fingerprint of the position, to catch a save damaged by accident or edited carelessly.

        It is no seal: anyone can recompute it after editing a save.  Seeded games keep the seed
        in it (as saves of format 1 did), so an edited seed is refused.
        """
        return self.state.hash(extra=self.state_hash_extra(self.rolls))

    def state_hash_extra(self, rolls: int) -> str:
        """What the state hash adds to the position: the count of draws and the dice's origin."""
        if self.origin.get("dice") == "seeded":
            return f"|rolls={rolls}|seed={self.origin.get('seed')}"
        return f"|rolls={rolls}|dice={self.origin.get('dice')}"
