"""Kiev to Rostov's actions (EFS; PB 10.4 for Sumy): what a player may send the rule system.

Movement (10, 11.3, 11.5, 11.9) and reinforcement entry (8.12) are ``move``; an overrun (11.4)
is ``overrun``; a Declared Attack marker (12.35) is ``declare``; a Soviet HQ activates a unit
(10.24c, 22.12a, 22.41) with ``activate`` and disbands a Non-Op HQ (22.26b) with ``disband``; the combat chain (15.0) starts with ``attack`` and is
answered through prompts: air missions and the defender's face-down order (17.21, 14.32) are
hidden choices (``air_mission``, ``set_order``) revealed later (``reveal_air``, ``reveal_order``);
the rest (``air_roles``, ``air_pairs``, ``air_lta``, ``support``, ``attacker_order``, ``take_losses``, ``retreat``, ``advance``) are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kiev_tui.engine.actions import Action, ActionRegistry

ACTIONS = ActionRegistry("efs_ktr")


@ACTIONS.action("move")
@dataclass(frozen=True, slots=True)
class Move(Action):
    """10.4: move a stack along ``path`` (its first hex is where it stands, or the entry hex of
    arriving reinforcements, 8.12); ``mode`` normal, strategic, one_hex or infiltration."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    mode: str = "normal"


@ACTIONS.action("overrun")
@dataclass(frozen=True, slots=True)
class Overrun(Action):
    """11.4: a motorized stack overruns the adjacent enemy hex ``target``."""

    units: tuple[str, ...]
    target: str


@ACTIONS.action("declare")
@dataclass(frozen=True, slots=True)
class Declare(Action):
    """12.3: place a Declared Attack marker on ``hex``; ``units`` are the attackers that make the odds;
    ``also``: further Defender Hexes of the same attack (12.8: every unit next to every one of them)."""

    hex: str
    units: tuple[str, ...]
    also: tuple[str, ...] = ()


@ACTIONS.action("activate")
@dataclass(frozen=True, slots=True)
class Activate(Action):
    """10.24c, 22.12a, 22.41: a Soviet HQ activates one unit in its range for the Motorized phase."""

    hq: str
    unit: str


@ACTIONS.action("to_cadre")
@dataclass(frozen=True, slots=True)
class ToCadre(Action):
    """3.32: send a unit of an overstacked hex to the Cadre Box at the end of a phase."""

    unit: str


@ACTIONS.action("disband")
@dataclass(frozen=True, slots=True)
class Disband(Action):
    """22.26b: in the interphase the Soviet disbands one Non-Op HQ on the map instead of rolling
    for its recovery; it goes to the Cadre Box, still Non-Op."""

    hq: str


@ACTIONS.action("interdict")
@dataclass(frozen=True, slots=True)
class Interdict(Action):
    """13.12-13.13: the Axis flies an interdiction mission over ``hex`` (the units are placed next,
    face down, as a hidden choice)."""

    hex: str


@ACTIONS.action("attack")
@dataclass(frozen=True, slots=True)
class Attack(Action):
    """15.2, 15.4: resolve the Declared Attack on ``hex`` (the first hex it was declared on; a
    multi-hex attack takes in its other Defender Hexes, 15.26) with these attackers and artillery."""

    hex: str
    attackers: tuple[str, ...]
    artillery: tuple[str, ...] = ()


# -- the combat chain's answers -----------------------------------------------------------------

@ACTIONS.action("air_mission")
@dataclass(frozen=True, slots=True)
class AirMission(Action):
    """17.21, 17.24: place air units face down on the mission hex (``units``: ids joined by
    commas, "" for none).  A hidden choice: only its hash is public until ``reveal_air``."""

    secret_key: ClassVar[str] = "air"
    secret_field: ClassVar[str] = "units"
    units: str
    salt: str = ""


@ACTIONS.action("reveal_air")
@dataclass(frozen=True, slots=True)
class RevealAir(Action):
    """17.31a: turn the air units placed on the mission hex face up."""

    units: str
    salt: str


@ACTIONS.action("air_roles")
@dataclass(frozen=True, slots=True)
class AirRoles(Action):
    """17.31b2: once the air units are face up, their owner names the dual-purpose fighters that
    serve as mission units (``mission``); the others fire.  Public and final."""

    mission: tuple[str, ...] = ()


@ACTIONS.action("air_pairs")
@dataclass(frozen=True, slots=True)
class AirPairs(Action):
    """17.33a: the initiative side matches each of its firing units with an enemy air unit
    ("firer>target" for each)."""

    pairs: tuple[str, ...]


@ACTIONS.action("air_lta")
@dataclass(frozen=True, slots=True)
class AirLta(Action):
    """17.33e: with Local Tactical Advantage, each unengaged firing unit takes a new target that
    cannot fire back ("firer>target" for each)."""

    pairs: tuple[str, ...]


@ACTIONS.action("support")
@dataclass(frozen=True, slots=True)
class Support(Action):
    """14.21, 15.55: the defender commits artillery to the combat (none is allowed)."""

    artillery: tuple[str, ...] = ()


@ACTIONS.action("set_order")
@dataclass(frozen=True, slots=True)
class SetOrder(Action):
    """14.31-14.32: the defender's order for the Defender Hex, placed face down ("" none).
    A hidden choice until ``reveal_order``."""

    secret_key: ClassVar[str] = "order"
    secret_field: ClassVar[str] = "order"
    order: str
    salt: str = ""


@ACTIONS.action("attacker_order")
@dataclass(frozen=True, slots=True)
class AttackerOrder(Action):
    """15.58: the attacker's order, placed face up ("" none)."""

    order: str = ""


@ACTIONS.action("reveal_order")
@dataclass(frozen=True, slots=True)
class RevealOrder(Action):
    """15.59: the defender's order marker is turned over."""

    order: str
    salt: str


@ACTIONS.action("take_losses")
@dataclass(frozen=True, slots=True)
class TakeLosses(Action):
    """16.21: the owner names the units that lose the steps, one id per step, first loss first."""

    units: tuple[str, ...]


@ACTIONS.action("retreat")
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """16.4: the retreat path (hexes after the start; empty when the units go to a box)."""

    path: tuple[str, ...]


@ACTIONS.action("advance")
@dataclass(frozen=True, slots=True)
class Advance(Action):
    """16.5: these winners advance into the emptied Defender Hex the prompt names (none: stay;
    a multi-hex combat asks once for each emptied hex, 16.55)."""

    units: tuple[str, ...] = ()


CHAIN_ACTIONS = (AirMission, RevealAir, AirRoles, AirPairs, AirLta, Support, SetOrder, AttackerOrder, RevealOrder, TakeLosses, Retreat, Advance)
