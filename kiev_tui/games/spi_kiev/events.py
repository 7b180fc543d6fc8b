"""Events of the SPI Kiev rule system, each able to tell itself in words for the log.

The events of moves and battles are in events_play.py, imported with the first move or battle
(issue 33: a new game's first frame needs only the three here); they are found here by name
all the same (``from kiev_tui.games.spi_kiev.events import Moved`` works as before)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kiev_tui.engine.events import Event


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    kind: ClassVar[str] = "eliminated"
    unit: str
    case: str
    reason: str

    def describe(self) -> str:
        return f"{self.unit} is eliminated ({self.reason}, {self.case})"


@dataclass(frozen=True, slots=True)
class SupplyChecked(Event):
    kind: ClassVar[str] = "supply_checked"
    side: str
    out_of_supply: tuple[str, ...]

    def describe(self) -> str:
        if not self.out_of_supply:
            return f"Supply check: every {self.side} unit is in supply"
        return f"Supply check: {len(self.out_of_supply)} {self.side} units out of supply: {', '.join(self.out_of_supply)}"


@dataclass(frozen=True, slots=True)
class ControlChanged(Event):
    kind: ClassVar[str] = "control_changed"
    hex: str
    side: str
    name: str

    def describe(self) -> str:
        return f"{self.name or self.hex} ({self.hex}) now belongs to the {self.side} player (24.0)"


#: The events kept in events_play.py, by name.
_PLAY = frozenset({"route", "Moved", "Railed", "Entered", "Relieved", "Revealed", "CombatResolved", "StepLost",
                   "Retreated", "Advanced"})


def __getattr__(name: str) -> Any:
    if name in _PLAY:
        from kiev_tui.games.spi_kiev import events_play

        return getattr(events_play, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
