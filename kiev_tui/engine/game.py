"""Game: one play of a scenario under a rule system.  ``apply`` is the only door to change."""

from __future__ import annotations

import random
from kiev_tui import nossl as secrets  # no OpenSSL at start-up (issue 33)
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from kiev_tui.engine.actions import Action
from kiev_tui.engine.view import Sealed, apply_sealed, salted
from kiev_tui.engine.dice import Dice, EntropyDice, RecordedDice, SeededDice
from kiev_tui.engine.errors import DataError, Illegal, IllegalAction, shorten
from kiev_tui.engine.events import AutosaveFailed, Drawn, Event, Reloaded, Rolled
from kiev_tui.engine.registry import default_scenario, get_data, get_system
from kiev_tui.engine.rules import RuleSystem
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.engine.state import GameState

if TYPE_CHECKING:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.rules import Reach


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the game stands, and what must happen before the phase may end.

    ``phasing`` is the side whose segment (player-turn) it is; ``owner`` is the side that acts in
    this phase (a reaction phase belongs to the non-phasing side).  Who answers right now is
    ``Game.actor``: the owner, or the side a pending choice names.
    """

    turn: int
    segment: str  # the segment of the game-turn (sequence.toml), "" if the game has none
    name: str
    phasing: str
    owner: str
    phases: tuple[str, ...] = ()  # the phases of this segment, in order
    todo: tuple[str, ...] = ()  # things still required before EndPhase is legal
    pending: str = ""  # who must answer a pending choice, if any
    over: bool = False

    @property
    def player(self) -> str:
        """The phasing side (read-only, for old callers; who acts is ``owner`` / ``Game.actor``)."""
        return self.phasing

    @property
    def actor(self) -> str:
        """Who answers now: the side a pending choice names, else the phase's owner."""
        return self.pending or self.owner

    def __str__(self) -> str:
        return f"Turn {self.turn}, {self.phasing} {self.name}"


def new_seed() -> int:
    """A fresh random seed, for callers that want a seeded game nobody chose the seed of."""
    return secrets.randbelow(2**31)


def new_game_id() -> str:
    """A name for one play of a scenario, so a reload of an earlier save of it can be told apart."""
    return secrets.token_hex(8)


OPTION_TYPES = (bool, int, str)


def with_options(scenario: Scenario, options: Mapping[str, Any], where: str = "options") -> Scenario:
    """The scenario with some of its game's own [scenario] keys set (variant rules, e.g. for PBEM).

    Only keys the game's schema lists may be set, to a true/false, a whole number or a string;
    the game's own scenario checks then run again, so a variant the data cannot support is refused.
    """
    if not options:
        return scenario
    data = get_data(scenario.game)
    allowed = data.schema.scenario_keys
    for key, value in options.items():
        if key not in allowed:
            raise DataError(str(scenario.path), f"{where}.{key}",
                            f"not an option of {scenario.game} scenarios (known: {', '.join(allowed)})")
        if not isinstance(value, OPTION_TYPES):
            raise DataError(str(scenario.path), f"{where}.{key}", "an option is true/false, a whole number or a string")
        scenario.params[key] = value
    scenario.derived.clear()  # tables worked out from the old values must be worked out again
    check = getattr(data, "check_scenario", None)
    if check is not None:
        check(scenario)
    return scenario


class Game:
    """A scenario, a source of dice and the actions played so far; the state follows from them.

    ``dice`` None means a seeded generator (``seed``, or a fresh entropy source if ``seed`` is
    None).  Every value the source gives is recorded per action (``rolled``), so replay needs
    no seed.
    """

    def __init__(self, scenario: Scenario, seed: int | None = 1941, system: RuleSystem | None = None,
                 dice: Dice | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.scenario = scenario
        if system is None:
            try:
                system = get_system(scenario.game)
            except ValueError as exc:  # a game with data only: validated and drawn, not played
                raise DataError(str(scenario.path), "scenario.game", str(exc)) from None
        self.rules: RuleSystem = system
        if dice is None:
            dice = SeededDice(seed) if seed is not None else EntropyDice()
        self.dice: Dice = dice
        # Fixed for the game's life: the state hash and the save's header say where dice came from.
        self.origin: dict[str, Any] = dict(dice.record())
        # A save of this game may carry this user's signature (engine/savekey.py) while every action
        # was played here with the program's own dice, or came from a save this user's key signed.
        self.signable = isinstance(dice, (EntropyDice, SeededDice))
        self.signature: Any = None  # load_game: what the save's signature said (a savekey.Verdict)
        #: saves.load_snapshot: the position is the save's final snapshot, its log not yet replayed
        #: (no log, no saving; the face plays nothing until load_game has checked the file).
        self.unverified = False
        self.options: dict[str, Any] = dict(options or {})
        self.game_id = new_game_id()
        self.rolls = 0
        self.rolled: list[list[int]] = []  # the random values each logged action used, in order
        self.setup_rolled: list[int] = []  # those the set-up used
        self._rolling: list[int] = self.setup_rolled
        self.notices: list[tuple[int, Reloaded]] = []  # (journal line, what) for reloads over this game
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
        #: Answers the rule system keys by the position itself (its own key must hold everything
        #: an answer depends on), so views built mid-action, after an undo or in replay share them.
        self.position_cache: dict[Any, Any] = {}
        self._sink = []
        self.state: GameState = self.rules.setup(self)
        self.journal.extend(self._sink)
        self._sink = None
        self._rolling = []

    @classmethod
    def new(cls, scenario: str | Path | None = None, seed: int | None = 1941, dice: Dice | None = None,
            options: Mapping[str, Any] | None = None) -> "Game":
        """A new game (of the registry's default scenario if none is given); ``seed=None`` (and no
        ``dice``) draws every roll from the OS's entropy."""
        ref = default_scenario() if scenario is None else scenario
        return cls(with_options(load_scenario(ref), options or {}), seed, dice=dice, options=options)

    @property
    def seed(self) -> int | None:
        """The seed of a seeded game (tests, self-play); None when the dice have no seed."""
        seed = self.origin.get("seed")
        return seed if self.origin.get("dice") == "seeded" else None

    @property
    def rng(self) -> random.Random:
        """The generator of a seeded game (tests load their own dice by setting it)."""
        source = self.dice.check if isinstance(self.dice, RecordedDice) else self.dice
        if not isinstance(source, SeededDice):
            raise AttributeError(f"a game with {self.dice.kind} dice has no generator to read")
        return source.rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        if not isinstance(self.dice, SeededDice):
            raise AttributeError(f"a game with {self.dice.kind} dice has no generator to replace")
        self.dice.rng = value

    # -- the referee ------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.rules.phase(self)

    @property
    def actor(self) -> str:
        """The side that answers now: the side a pending choice is for, else the phase's owner.

        It is not the phasing player: in a reaction phase the other side acts."""
        own = getattr(self.rules, "actor", None)
        if own is not None:
            return str(own(self))
        return self.phase.actor

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

    # -- undo -------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

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

    # -- conveniences the faces use ---------------------------------------
    def reachable(self, units: list[str] | tuple[str, ...]) -> "Mapping[Hex, Reach]":
        return self.rules.reachable(self, tuple(units))

    def save(self, path: str | Path) -> None:
        from kiev_tui.engine.saves import save_game

        save_game(self, path)

    def autosave_to(self, path: str | Path) -> None:
        """Save to ``path`` at the end of every phase; the save code (TOML writer, signing) is
        imported by the first autosave, not by starting the game (issue 33)."""
        target = Path(path)
        self.autosave_path = target

        def autosave(game: "Game") -> None:
            from kiev_tui.engine.saves import save_game

            save_game(game, target)

        self.on_phase_end = autosave

    @classmethod
    def load(cls, path: str | Path) -> "Game":
        from kiev_tui.engine.saves import load_game

        return load_game(path)
