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
from kiev_tui.later import later

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

    check = later("kiev_tui.engine.game_more")
    _check = later("kiev_tui.engine.game_more")
    _wrong_side = later("kiev_tui.engine.game_more")
    apply = later("kiev_tui.engine.game_more")
    _phase_end_hook = later("kiev_tui.engine.game_more")

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

    roll = later("kiev_tui.engine.game_more")
    choose = later("kiev_tui.engine.game_more")
    note_reload = later("kiev_tui.engine.game_more")

    # -- undo -------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    undo = later("kiev_tui.engine.game_more")

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

    state_hash = later("kiev_tui.engine.game_more")
    state_hash_extra = later("kiev_tui.engine.game_more")

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
