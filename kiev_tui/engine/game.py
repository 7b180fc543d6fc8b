"""Game: one play of a scenario under a rule system.  ``apply`` is the only door to change."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import DataError, Illegal, IllegalAction, shorten
from kiev_tui.engine.events import AutosaveFailed, Drawn, Event, Rolled
from kiev_tui.engine.rules import RuleSystem
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.games import DEFAULT_SCENARIO, get_system

if TYPE_CHECKING:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.rules import Reach


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the game stands, and what must happen before the phase may end."""

    turn: int
    player: str
    name: str
    phases: tuple[str, ...]  # the phases of this player-turn, in order
    todo: tuple[str, ...] = ()  # things still required before EndPhase is legal
    pending: str = ""  # who must answer a pending choice, if any
    over: bool = False

    def __str__(self) -> str:
        return f"Turn {self.turn}, {self.player} {self.name}"


def new_seed() -> int:
    """A fresh random seed for a new game: two games started alike must not roll the same dice."""
    return secrets.randbelow(2**31)


class Game:
    """A scenario, a seed and the actions played so far; the state follows from them."""

    def __init__(self, scenario: Scenario, seed: int = 1941, system: RuleSystem | None = None) -> None:
        self.scenario = scenario
        if system is None:
            try:
                system = get_system(scenario.game)
            except ValueError as exc:  # a game with data only: validated and drawn, not played
                raise DataError(str(scenario.path), "scenario.game", str(exc)) from None
        self.rules: RuleSystem = system
        self.seed = seed
        self.rng = random.Random(seed)
        self.rolls = 0
        self.log: list[Action] = []
        self.sides: list[str] = []  # the side that submitted each logged action
        self._saved_mark: tuple[int, str] = (0, "")  # log length and last hash when last saved
        self.hashes: list[str] = []  # state hash after each logged action
        self.journal: list[Event] = []
        self._sink: list[Event] | None = None
        self._undo: list[tuple[GameState, Any, int, int]] = []
        self.version = 0  # bumped by every change, so position caches know when to refresh
        self.replaying = False  # while a save is replayed no undo snapshots are kept
        self.autosave_path: Path | None = None
        self.on_phase_end: Callable[["Game"], None] | None = None
        self.autosave_error: str | None = None  # why the last autosave failed, while it does
        self._memo: dict[str, Any] = {}
        self._memo_key: tuple[int, int] = (-1, 0)
        self._sink = []
        self.state: GameState = self.rules.setup(self)
        self.journal.extend(self._sink)
        self._sink = None

    @classmethod
    def new(cls, scenario: str | Path = DEFAULT_SCENARIO, seed: int = 1941) -> "Game":
        return cls(load_scenario(scenario), seed)

    # -- the referee ------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.rules.phase(self)

    @property
    def actor(self) -> str:
        """The side that may act now: the side a pending choice is for, else the phasing player."""
        own = getattr(self.rules, "actor", None)
        if own is not None:
            return str(own(self))
        ph = self.phase
        return ph.pending or ph.player

    def check(self, action: Action, side: str | None = None) -> Illegal | None:
        """None if the action is legal now, else the rule case and reason that forbid it.

        ``side`` is who submits it; None means the side whose move it is (old callers, old saves).
        """
        if self.state.over:
            return Illegal(self.rules.cases.game_over, "the game is over")
        if side is not None:
            wrong = self._wrong_side(side)
            if wrong is not None:
                return wrong
        return self.rules.check(self, action)

    def _wrong_side(self, side: str) -> Illegal | None:
        # The player-turn is the phasing player's; a pending choice belongs to the side it names.
        actor = self.actor
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
        illegal = self.check(action, side)
        if illegal is not None:
            raise IllegalAction(illegal)
        acting = side if side is not None else self.actor
        before = (self.state if self.replaying else self.state.copy(), self.rng.getstate(), self.rolls,
                  len(self.journal))
        self._sink = []
        try:
            self.rules.apply(self, action)
        except Exception:
            # A rule-system bug must not leave a half-applied action behind.
            if self.replaying:
                raise
            self.state, rng, self.rolls, _ = before
            self.rng.setstate(rng)
            raise
        finally:
            events, self._sink = self._sink, None
        self.version += 1
        self.log.append(action)
        self.sides.append(acting)
        self.hashes.append(self.state_hash())
        self.journal.extend(events)
        if any(e.barrier for e in events):
            self._undo.clear()  # no stepping back over a roll, a reveal or a hand-over
        elif not self.replaying:
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

    @property
    def applying(self) -> bool:
        """True while an action (or the set-up) is being applied: the position is in flux."""
        return self._sink is not None

    @property
    def memo(self) -> dict[str, Any]:
        """A cache for answers about the current position, emptied whenever it changes.

        Keyed by the rule system's own names.  While an action is being applied the position is
        half-changed, so each read then gets a fresh dict that nothing keeps.
        """
        if self._sink is not None:
            return {}
        key = (self.version, id(self.state))
        if key != self._memo_key:
            self._memo = {}
            self._memo_key = key
        return self._memo

    def emit(self, event: Event) -> None:
        if self._sink is None:
            raise RuntimeError("events can only be emitted while an action is applied")
        self._sink.append(event)

    def roll(self, purpose: str, sides: int = 6) -> int:
        """Roll the game's seeded die; the roll goes into the log."""
        value = self.rng.randint(1, sides)
        self.rolls += 1
        self.emit(Rolled(purpose, sides, value, self.rolls))
        return value

    def choose(self, purpose: str, options: list[str]) -> str:
        """A seeded random pick among options (e.g. a hidden counter's face), logged as drawn."""
        if not options:
            raise ValueError(f"nothing to draw for {purpose}")
        pick = options[self.rng.randrange(len(options))]
        self.rolls += 1
        self.emit(Drawn(purpose, pick))
        return pick

    # -- undo -------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        """Take back the last action, unless a roll, reveal or change of player came after it."""
        if not self._undo:
            return False
        state, rng, rolls, jlen = self._undo.pop()
        self.version += 1
        self.state = state
        self.rng.setstate(rng)
        self.rolls = rolls
        del self.journal[jlen:]
        self.log.pop()
        self.sides.pop()
        self.hashes.pop()
        return True

    def touch(self) -> None:
        """Call after editing ``state`` by hand (tests, editors): drops cached position answers."""
        self.version += 1

    # -- saved or not ---------------------------------------------------------
    def _mark(self) -> tuple[int, str]:
        return (len(self.log), self.hashes[-1] if self.hashes else "")

    def mark_saved(self) -> None:
        """Note that the game as it stands is on disk (a save, an autosave, or loaded from one)."""
        self._saved_mark = self._mark()

    @property
    def unsaved(self) -> int:
        """How many actions a quit would lose now (0: the game as it stands is on disk, or is new)."""
        if self._mark() == self._saved_mark:
            return 0
        saved = self._saved_mark[0]
        return len(self.log) - saved if len(self.log) > saved else max(1, len(self.log))

    # -- fingerprints -----------------------------------------------------
    def state_hash(self) -> str:
        # The seed is part of the fingerprint, so a save whose seed was edited is refused.
        return self.state.hash(extra=f"|rolls={self.rolls}|seed={self.seed}")

    # -- conveniences the faces use ---------------------------------------
    def reachable(self, units: list[str] | tuple[str, ...]) -> "Mapping[Hex, Reach]":
        return self.rules.reachable(self, tuple(units))

    def save(self, path: str | Path) -> None:
        from kiev_tui.engine.saves import save_game

        save_game(self, path)

    @classmethod
    def load(cls, path: str | Path) -> "Game":
        from kiev_tui.engine.saves import load_game

        return load_game(path)
