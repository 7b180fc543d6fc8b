"""The actions a player can take in SPI Kiev (each has a TOML form for saves and scripts)."""

from __future__ import annotations

from dataclasses import dataclass

from kiev_tui.engine.actions import Action, ActionRegistry, EndPhase

__all__ = ["ACTIONS", "EndPhase", "Move", "RailMove", "Enter", "RemoveExcess", "Attack", "Overrun",
           "TakeLosses", "ChooseRetreat", "Retreat", "Advance", "DeclineAdvance", "ChooseIntegrity"]

#: Kiev's actions by TOML kind (KievRules.actions): what its saves and scripts may hold.
ACTIONS = ActionRegistry("spi_kiev")


@ACTIONS.action("move")
@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move a stack (some or all of the units in one hex) along a path of adjacent hexes (5.1)."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    relieve: str = ""  # 22.2: the unit this mover relieves in its final hex


@ACTIONS.action("rail")
@dataclass(frozen=True, slots=True)
class RailMove(Action):
    """Move units by rail along connected friendly rail hexes (5.3, 19.3)."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    relieve: str = ""  # 22.2 with 22.22: the unit this rider relieves in its final hex


@ACTIONS.action("enter")
@dataclass(frozen=True, slots=True)
class Enter(Action):
    """Bring reinforcements onto an entry hex of their area (15.0, 23.0)."""

    units: tuple[str, ...]
    hex: str
    rail: bool = False


@ACTIONS.action("remove_excess")
@dataclass(frozen=True, slots=True)
class RemoveExcess(Action):
    """Eliminate a unit of the owner's choice from an overstacked hex (7.0)."""

    unit: str


@ACTIONS.action("attack")
@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack one or more adjacent enemy hexes with the given units (9.1, 9.2)."""

    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    integrity: str = ""  # 20.2: the division GD counts with when it could join two


@ACTIONS.action("overrun")
@dataclass(frozen=True, slots=True)
class Overrun(Action):
    """Overrun an adjacent enemy hex with a stack during movement (6.0, 19.4)."""

    units: tuple[str, ...]
    target: str
    integrity: str = ""  # 20.2: the division GD counts with when it could join two


@ACTIONS.action("take_losses")
@dataclass(frozen=True, slots=True)
class TakeLosses(Action):
    """Answer a numeric or engaged result by removing steps, one unit id per step (9.66, 9.67)."""

    units: tuple[str, ...]


@ACTIONS.action("choose_retreat")
@dataclass(frozen=True, slots=True)
class ChooseRetreat(Action):
    """Answer a numeric result by retreating instead of losing steps (9.66); the enemy then
    picks the paths (19.7)."""


@ACTIONS.action("retreat")
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Answer a numeric result by retreating every affected unit; one path per unit (9.7, 19.7).

    ``paths`` pairs up with ``units``; each path lists the hexes entered, in order.
    """

    units: tuple[str, ...]
    paths: tuple[tuple[str, ...], ...]


@ACTIONS.action("advance")
@dataclass(frozen=True, slots=True)
class Advance(Action):
    """Advance victorious units after combat along the path of retreat (9.8)."""

    units: tuple[str, ...]
    path: tuple[str, ...]


@ACTIONS.action("decline_advance")
@dataclass(frozen=True, slots=True)
class DeclineAdvance(Action):
    """Give up the advance after combat (9.83: it is never compulsory)."""


@ACTIONS.action("choose_integrity")
@dataclass(frozen=True, slots=True)
class ChooseIntegrity(Action):
    """Name the division Gross Deutschland counts with when its stack is attacked (20.2)."""

    division: str
