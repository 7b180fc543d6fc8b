"""The events of moves and battles in SPI Kiev (the rest are in events.py), each able to tell
itself in words for the log.  Imported by the first move or battle, not to draw the first frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kiev_tui.engine.events import Event


def route(start: str, path: tuple[str, ...]) -> str:
    """Where a stack went, for people: "from 0703 to 0604 via 0603" (issue 35: every move line
    says where it began)."""
    via = f" via {' > '.join(path[:-1])}" if len(path) > 1 else ""
    return f"from {start} to {path[-1]}{via}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    units: tuple[str, ...]
    path: tuple[str, ...]
    cost: float
    stopped_in_zoc: bool = False
    start: str = ""  # the hex the stack moved from ("" in events made before it was kept)

    def describe(self) -> str:
        if not self.start or not self.path:
            return self.record()
        tail = " and stop in an enemy zone of control" if self.stopped_in_zoc else ""
        return f"{', '.join(self.units)} move {route(self.start, self.path)} ({self.cost:g} MP){tail}"

    def record(self) -> str:  # the journal line saves hold, without the start hex
        tail = " and stop in an enemy zone of control" if self.stopped_in_zoc else ""
        return f"{', '.join(self.units)} move {' > '.join(self.path)} ({self.cost:g} MP){tail}"


@dataclass(frozen=True, slots=True)
class Railed(Event):
    kind: ClassVar[str] = "railed"
    units: tuple[str, ...]
    path: tuple[str, ...]
    start: str = ""

    def describe(self) -> str:
        if not self.start or not self.path:
            return self.record()
        return f"{', '.join(self.units)} go by rail {route(self.start, self.path)} ({len(self.path)} rail hexes)"

    def record(self) -> str:  # the journal line saves hold, without the start hex
        return f"{', '.join(self.units)} go by rail {' > '.join(self.path)} ({len(self.path)} rail hexes)"


@dataclass(frozen=True, slots=True)
class Entered(Event):
    kind: ClassVar[str] = "entered"
    units: tuple[str, ...]
    hex: str
    cost: float
    rail: bool = False

    def describe(self) -> str:
        how = " by rail" if self.rail else f" ({self.cost:g} MP)"
        return f"Reinforcements {', '.join(self.units)} enter at {self.hex}{how}"


@dataclass(frozen=True, slots=True)
class Relieved(Event):
    kind: ClassVar[str] = "relieved"
    reliever: str
    unit: str

    def describe(self) -> str:
        return f"{self.reliever} relieves {self.unit}, which may now move freely (22.2)"


# -- combat (9.0-9.8, 13.0) -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind = "revealed"
    unit: str
    designation: str
    attack: int
    defense: int
    asterisk: bool

    def describe(self) -> str:
        star = " with an asterisk (19.61)" if self.asterisk else ""
        nothing = " - a no-strength unit (13.3)" if self.attack == 0 and self.defense == 0 else ""
        return f"Untried {self.unit} is revealed: {self.designation}, {self.attack}-{self.defense}{star}{nothing}"


@dataclass(frozen=True, slots=True)
class CombatResolved(Event):
    kind = "combat_resolved"
    battle: str  # "attack" or "overrun"
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    attack: int
    defense: int
    column: str
    die: int
    result: str
    details: tuple[str, ...]

    def describe(self) -> str:
        head = (f"{self.battle.capitalize()}: {', '.join(self.attackers)} against {', '.join(self.targets)}: "
                f"{self.attack} to {self.defense}, column {self.column}, die {self.die}: result {self.result}")
        return head + ("" if not self.details else " [" + "; ".join(self.details) + "]")


@dataclass(frozen=True, slots=True)
class StepLost(Event):
    kind = "step_lost"
    unit: str
    eliminated: bool
    note: str = ""

    def describe(self) -> str:
        return f"{self.unit} {'is eliminated' if self.eliminated else 'loses a step'}{(' (' + self.note + ')') if self.note else ''}"


@dataclass(frozen=True, slots=True)
class Retreated(Event):
    kind = "retreated"
    unit: str
    path: tuple[str, ...]
    start: str = ""

    def describe(self) -> str:
        if not self.start or not self.path:
            return self.record()
        return f"{self.unit} retreats {route(self.start, self.path)}"

    def record(self) -> str:  # the journal line saves hold, without the start hex
        if not self.path:
            return f"{self.unit} has nowhere to retreat and is eliminated (9.71)"
        return f"{self.unit} retreats {' > '.join(self.path)}"


@dataclass(frozen=True, slots=True)
class Advanced(Event):
    kind = "advanced"
    units: tuple[str, ...]
    path: tuple[str, ...]
    start: str = ""

    def describe(self) -> str:
        if not self.start or not self.path:
            return self.record()
        return f"{', '.join(self.units)} advance {route(self.start, self.path)}"

    def record(self) -> str:  # the journal line saves hold, without the start hex
        return f"{', '.join(self.units)} advance {' > '.join(self.path)}"
