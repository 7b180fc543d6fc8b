"""Events: what happened, in order, as typed values that can also be told in words."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base class of everything Game.apply reports."""

    kind: ClassVar[str] = "event"
    #: Undo may not step back over an event of a kind that sets this (rolls, reveals, hand-overs).
    barrier: ClassVar[bool] = False

    def describe(self) -> str:
        return self.kind

    def record(self) -> str:
        """The line a save or a turn file keeps in its journal, and replay compares.

        The same as ``describe()`` unless an event's words for people changed after saves were
        made: then ``record()`` keeps the older words, so that those saves still replay."""
        return self.describe()

    def audience(self) -> frozenset[str] | None:
        """Who may see this event: None is everyone, else the set of sides (views and secrets)."""
        return None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d


@dataclasses.dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A die roll from the game's seeded generator."""

    kind: ClassVar[str] = "rolled"
    barrier: ClassVar[bool] = True
    purpose: str
    sides: int
    value: int
    number: int  # how many rolls the game has made, this one included

    def describe(self) -> str:
        return f"Die roll #{self.number} for {self.purpose}: {self.value}"


@dataclasses.dataclass(frozen=True, slots=True)
class Drawn(Event):
    """A random pick (e.g. an untried unit's hidden face), made and shown at once."""

    kind: ClassVar[str] = "drawn"
    barrier: ClassVar[bool] = True
    purpose: str
    choice: str

    def describe(self) -> str:
        return f"Drawn for {self.purpose}: {self.choice}"


@dataclasses.dataclass(frozen=True, slots=True)
class _PhaseEdge(Event):
    """A phase begins or ends: "Turn 3: <side> combat phase begins"."""

    verb: ClassVar[str] = ""
    turn: int
    player: str
    phase: str
    #: the turn as the game numbers it (the rules' ``turn_label``, "Game-turn 50"); "" says "Turn N"
    label: str = ""

    def describe(self) -> str:
        return f"{self.label or f'Turn {self.turn}'}: {self.player} {self.phase} phase {self.verb}"

    def record(self) -> str:
        # the words saves and turn files kept before the label: they still replay, in either direction
        return f"Turn {self.turn}: {self.player} {self.phase} phase {self.verb}"

    def to_dict(self) -> dict[str, Any]:
        d = Event.to_dict(self)
        if not self.label:
            del d["label"]  # a game that numbers its turns 1, 2, ... reports what it always did
        return d


@dataclasses.dataclass(frozen=True, slots=True)
class PhaseEnded(_PhaseEdge):
    kind: ClassVar[str] = "phase_ended"
    verb: ClassVar[str] = "ends"


@dataclasses.dataclass(frozen=True, slots=True)
class PhaseBegan(_PhaseEdge):
    kind: ClassVar[str] = "phase_began"
    verb: ClassVar[str] = "begins"


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerChanged(Event):
    """The other player takes over: hidden choices are final from here."""

    kind: ClassVar[str] = "player_changed"
    barrier: ClassVar[bool] = True
    player: str

    def describe(self) -> str:
        return f"The {self.player} player now has the move"


@dataclasses.dataclass(frozen=True, slots=True)
class Note(Event):
    """Free text the rule system wants in the log (a summary line, a reminder)."""

    kind: ClassVar[str] = "note"
    text: str

    def describe(self) -> str:
        return self.text


@dataclasses.dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winner: str
    summary: str

    def describe(self) -> str:
        return f"Game over: {self.winner} victory. {self.summary}"


@dataclasses.dataclass(frozen=True, slots=True)
class Reloaded(Event):
    """An earlier save of this same game was loaded over it (hot-seat): the other player is told.

    Game.note_reload adds it to the journal outside any action; saves keep it apart from the
    replayed events (their [[reload]] list) and put it back in its place on loading.
    """

    kind: ClassVar[str] = "reloaded"
    file: str
    was_at: int  # actions the game had played when the save was loaded over it
    back_to: int  # actions the save holds
    rolls_discarded: int  # random values drawn since the save, now thrown away
    turn: int
    player: str
    phase: str

    def describe(self) -> str:
        lost = f"; {self.rolls_discarded} random draw(s) made since are thrown away" if self.rolls_discarded else ""
        return (f"Reloaded an earlier save of this game ({self.file}): back from action {self.was_at} "
                f"to action {self.back_to}, turn {self.turn}, {self.player} {self.phase} phase{lost}")


@dataclasses.dataclass(frozen=True, slots=True)
class AutosaveFailed(Event):
    """The save at a phase end could not be written; the game itself goes on untouched.

    Game.apply returns it after the game's own events but keeps it out of the journal: it is
    news about the disk, not about the game, and a reloaded game must tell the same story.
    """

    kind: ClassVar[str] = "autosave_failed"
    path: str
    reason: str

    def describe(self) -> str:
        return f"Autosave to {self.path} failed ({self.reason}); play on and save under another name"


# -- views and secrets (issue 30) ---------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class Committed(Event):
    """A side made a hidden choice: everyone sees the commitment, no one the choice."""

    kind: ClassVar[str] = "committed"
    barrier: ClassVar[bool] = True  # undo would keep the chosen position in its history
    side: str
    key: str
    digest: str

    def describe(self) -> str:
        return f"{self.side} made a hidden choice ({self.key})"


@dataclasses.dataclass(frozen=True, slots=True)
class SecretNoted(Event):
    """The owner's own record of its hidden choice: addressed to that side alone."""

    kind: ClassVar[str] = "secret_noted"
    side: str
    key: str
    choice: str

    def describe(self) -> str:
        return f"Your hidden choice ({self.key}): {self.choice}"

    def audience(self) -> frozenset[str] | None:
        return frozenset({self.side})


@dataclasses.dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A hidden choice made public; its hash matched the commitment."""

    kind: ClassVar[str] = "revealed"
    barrier: ClassVar[bool] = True
    side: str
    key: str
    choice: str

    def describe(self) -> str:
        return f"{self.side} reveals {self.key}: {self.choice}"
