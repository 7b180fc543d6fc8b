"""Barbarossa 1941's actions: everything a player may send the engine (``ACTIONS``).

Phase actions: ``move`` (movement and exploitation, 5.1, 5.2), ``overrun`` (7), ``attack`` (6),
``drop`` (an airborne drop, 12.5), ``rebase`` (air corps, 11.1), ``air_strike`` (an Axis air
corps against the Baltic Fleet, 12.9), ``place`` (set-up choices).
The combat option chain (6) is answered, one prompt at a time, by ``air_support``, ``naval_support``,
``artillery``, ``airborne``, ``zhukov``, ``coup_de_main``, ``react`` (5.3: a move on the map, or
none), ``leader``, ``roll``, ``take_loss``, ``retreat`` and ``advance``.  ``end_rebasing`` closes
a side's share of the air rebasing (11.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiev_tui.engine.actions import Action, ActionRegistry

ACTIONS = ActionRegistry("barbarossa1941")


@ACTIONS.action("move")
@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move a stack of one hex along a path of adjacent hexes (5.1, 5.2)."""

    units: tuple[str, ...]
    path: tuple[str, ...]


@ACTIONS.action("overrun")
@dataclass(frozen=True, slots=True)
class Overrun(Action):
    """A motorized stack attacks the next hex on the move (7); ``coup``: try a coup de main first (12.6)."""

    units: tuple[str, ...]
    target: str
    coup: bool = False


@ACTIONS.action("attack")
@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Units next to an enemy hex attack it (6); the options are asked next, in 6's order."""

    attackers: tuple[str, ...]
    target: str


@ACTIONS.action("drop")
@dataclass(frozen=True, slots=True)
class Drop(Action):
    """Drop an airborne unit (12.5) in the movement phase; the survival die is rolled at once."""

    unit: str
    hex: str


@ACTIONS.action("rebase")
@dataclass(frozen=True, slots=True)
class Rebase(Action):
    """Move an air corps to another city within its range, or put a returning corps back (11.1)."""

    unit: str
    hex: str


@ACTIONS.action("end_rebasing")
@dataclass(frozen=True, slots=True)
class EndRebasing(Action):
    """The side answering the rebasing prompt has rebased all it wants (11.1)."""


@ACTIONS.action("place")
@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put a unit the scenario lets its side place in one of the hexes offered (set-up)."""

    unit: str
    hex: str


# -- the combat option chain (6) ------------------------------------------------------------------

@ACTIONS.action("air_support")
@dataclass(frozen=True, slots=True)
class AirSupport(Action):
    """11.2: the air corps a side sends to this combat ("" for none)."""

    unit: str = ""


@ACTIONS.action("naval_support")
@dataclass(frozen=True, slots=True)
class NavalSupport(Action):
    """12.9: the Baltic Fleet supports this combat (once a turn), or not."""

    use: bool = False


@ACTIONS.action("air_strike")
@dataclass(frozen=True, slots=True)
class AirStrike(Action):
    """12.9: an Axis air corps attacks the Baltic Fleet in the combat phase (its mission for the turn)."""

    unit: str


@ACTIONS.action("artillery")
@dataclass(frozen=True, slots=True)
class Artillery(Action):
    """12.12: spend an artillery point on this combat, or not."""

    use: bool = False


@ACTIONS.action("airborne")
@dataclass(frozen=True, slots=True)
class Airborne(Action):
    """12.5: the dropped airborne unit supporting the attack ("" for none)."""

    unit: str = ""


@ACTIONS.action("zhukov")
@dataclass(frozen=True, slots=True)
class Zhukov(Action):
    """12.13: use the Zhukov option in this combat, or not."""

    use: bool = False


@ACTIONS.action("coup_de_main")
@dataclass(frozen=True, slots=True)
class CoupDeMain(Action):
    """12.6: try a coup de main against the river (the die is rolled at once), or not."""

    attempt: bool = False


@ACTIONS.action("react")
@dataclass(frozen=True, slots=True)
class React(Action):
    """5.3: a defender's unit tries a reaction move along ``path`` (its quality test is rolled);
    no unit ("") for none."""

    unit: str = ""
    path: tuple[str, ...] = ()


@ACTIONS.action("leader")
@dataclass(frozen=True, slots=True)
class Leader(Action):
    """6: the side's assault leader in this combat."""

    unit: str


@ACTIONS.action("roll")
@dataclass(frozen=True, slots=True)
class RollCombat(Action):
    """6: the attacker rolls the combat's die or dice."""


@ACTIONS.action("take_loss")
@dataclass(frozen=True, slots=True)
class TakeLoss(Action):
    """6: the owner names the unit that loses the next step."""

    unit: str


@ACTIONS.action("retreat")
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """6, 6.1: the defender takes its second step as a one-hex retreat into ``hex``."""

    hex: str


@ACTIONS.action("advance")
@dataclass(frozen=True, slots=True)
class Advance(Action):
    """6.1, 7.2: surviving attackers enter the emptied hex (none: they stay)."""

    units: tuple[str, ...] = ()


CHAIN_ACTIONS = (AirSupport, NavalSupport, Artillery, Airborne, Zhukov, CoupDeMain, React, Leader, RollCombat, TakeLoss,
                 Retreat, Advance)
PROMPT_ACTIONS = (*CHAIN_ACTIONS, Place, EndRebasing)


# -- supply, rail and set-up (phases_supply.py) ---------------------------------------------------

@ACTIONS.action("isolation_loss")
@dataclass(frozen=True, slots=True)
class IsolationLoss(Action):
    """8.1, 14.3.5: the owner names the unit of a cut-off stack that loses the step."""

    unit: str


@ACTIONS.action("move_marker")
@dataclass(frozen=True, slots=True)
class MoveMarker(Action):
    """10.3: advance Axis rail marker ``index`` along ``path`` (rail hexes entered); ``start``: the
    Axis rail hex a free marker (or one off the map) starts from ("" for its own hex)."""

    index: int
    path: tuple[str, ...]
    start: str = ""


@ACTIONS.action("sail")
@dataclass(frozen=True, slots=True)
class Sail(Action):
    """12.1: a naval move of one unit from its port to another port of the same sea."""

    unit: str
    hex: str


@ACTIONS.action("setup_defaults")
@dataclass(frozen=True, slots=True)
class SetupDefaults(Action):
    """Set-up: every unit of the side still to be placed takes the scenario's default hex."""


SUPPLY_PROMPT_ACTIONS = (IsolationLoss, SetupDefaults)


# -- the campaign's own phases (phases_campaign.py) --------------------------------------------------

@ACTIONS.action("arrive")
@dataclass(frozen=True, slots=True)
class Arrive(Action):
    """9.1, 15.3: put an arriving unit on one of its entry hexes."""

    unit: str
    hex: str


@ACTIONS.action("replace")
@dataclass(frozen=True, slots=True)
class Replacement(Action):
    """9.2, 12.5, 12.11: spend a replacement point (``what``: the kind replacements.py names)."""

    what: str
    unit: str
    hex: str = ""
    target: str = ""


@ACTIONS.action("build_fort")
@dataclass(frozen=True, slots=True)
class BuildFort(Action):
    """12.4: build a field fort on ``hex`` (``moving``: a fort of the side taken down to go there)."""

    hex: str
    moving: str = ""


@ACTIONS.action("place_partisan")
@dataclass(frozen=True, slots=True)
class PlacePartisan(Action):
    """12.7: put a partisan counter on ``hex`` (in the partisan phase, or in a freed city)."""

    unit: str
    hex: str


@ACTIONS.action("raise_militia")
@dataclass(frozen=True, slots=True)
class RaiseMilitia(Action):
    """12.11: a Soviet major city raises its militia (no unit: the city raises none now)."""

    unit: str = ""
    hex: str = ""


@ACTIONS.action("withdraw_air")
@dataclass(frozen=True, slots=True)
class WithdrawAir(Action):
    """13: the air corps that leaves the game when the VP event takes one."""

    unit: str


@ACTIONS.action("done")
@dataclass(frozen=True, slots=True)
class Done(Action):
    """The side has finished this phase's choices (replacements, forts, partisans)."""


CAMPAIGN_ACTIONS = (Arrive, Replacement, BuildFort, PlacePartisan, RaiseMilitia, WithdrawAir, Done)
