"""Barbarossa 1941's own bookkeeping in the game state (``GameState.vars``).

Steps lost are ``UnitState.step``; where a unit stands is ``UnitState.hex``; an air corps that
has flown this turn carries the ``air_flown`` marker (11.2).  Everything else the rules must
remember between actions is here: MP spent this phase (5.1), who attacked and which hexes were
attacked this combat phase (6), reactions made (5.3), artillery points spent (12.12), coups de
main tried (12.6), the Zhukov option (12.13), airborne drops (12.5) and air corps due back (11.1).

Every field is plain data; ``to_dict`` writes only what is not empty so a quiet position stays
small, and ``from_dict`` refuses an unknown key or a value of the wrong shape naming the key.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, Mapping


#: MP recorded as spent by a unit that moved by rail (10.1): more than any allowance.
RAIL_SPENT = 99


@dataclass
class B41Vars:
    """What Barbarossa 1941's rules remember between actions."""

    spent: dict[str, int] = field(default_factory=dict)  # 5.1: MP spent this phase
    started: dict[str, str] = field(default_factory=dict)  # 7: where a unit began this phase's move
    fought: list[str] = field(default_factory=list)  # 6: units that attacked this phase
    attacked: list[str] = field(default_factory=list)  # 6: hexes attacked this phase
    reacted: list[str] = field(default_factory=list)  # 5.3: units that tried a reaction this phase
    rebased: list[str] = field(default_factory=list)  # 11.1: air corps rebased (or put back) this phase
    art_used: dict[str, int] = field(default_factory=dict)  # 12.12: points spent in the campaign, by side
    art_turn: dict[str, int] = field(default_factory=dict)  # 12.12: points spent this turn, by side
    coups: int = 0  # 12.6: coups de main tried this turn
    zhukov_used: int = 0  # 12.13: the last turn the option was used (0: never)
    dropped: dict[str, str] = field(default_factory=dict)  # 12.5: airborne unit -> its drop hex, this turn
    drops: dict[str, int] = field(default_factory=dict)  # 12.5: drops made this turn, by side
    air_return: dict[str, int] = field(default_factory=dict)  # 11.1: air corps -> the turn it comes back
    overran: dict[str, str] = field(default_factory=dict)  # 7.2: unit -> the hex it entered after an overrun
    fleet_used: int = 0  # 12.9: the last turn the Baltic Fleet supported a combat
    fleet_strike: int = 0  # 12.9: the last turn an air corps attacked the fleet
    axis_vp: int = 0  # 13: kept by the victory rules once they are wired (score() counts cities until then)
    final: dict[str, Any] = field(default_factory=dict)  # the score once the game is over
    rail: dict[str, Any] = field(default_factory=dict)  # 10, 10.3: rail.RailState.to_dict (markers, rail taken, points)
    railed: list[str] = field(default_factory=list)  # 10.1: units moved by rail this turn (their MP is spent)
    naval_moved: dict[str, int] = field(default_factory=dict)  # 12.1: side -> the last turn it made a naval move
    setup_done: list[str] = field(default_factory=list)  # set-up: sides that took every remaining default
    # -- the campaign's own rules (phases_campaign.py) --
    begun: int = 0  # 1 once the scenario's campaign bookkeeping has been set up (14, 17)
    options: list[str] = field(default_factory=list)  # 14.3: the optional rules in play
    fired: dict[str, int] = field(default_factory=dict)  # 13: VP events set off, id -> turn
    tracks: dict[str, int] = field(default_factory=dict)  # 9.21: the loss markers
    pools: dict[str, int] = field(default_factory=dict)  # 9.22: the campaign pools left
    budget: dict[str, int] = field(default_factory=dict)  # 9.2: this phase's points left, by source
    replaced: list[str] = field(default_factory=list)  # 9.2: units that had their step this turn
    entered: dict[str, int] = field(default_factory=dict)  # 9.1: units entered this turn, by entry hex
    shocks: int = 0  # 12.11: shock armies formed this turn
    forts_built: int = 0  # 12.4: forts built this phase
    forts_moved: int = 0  # 12.4: free fort moves this turn
    late: list[str] = field(default_factory=list)  # 9.1: arrivals that found no hex yet
    withdrawn: list[str] = field(default_factory=list)  # 12.5, 13, 15.3: units gone from the game
    liberated: list[str] = field(default_factory=list)  # 12.7: Russian major cities freed by partisans
    seen: list[str] = field(default_factory=list)  # 12.11: major cities an Axis unit has come next to
    raised: list[str] = field(default_factory=list)  # 12.11: cities that raised their militia
    back: dict[str, int] = field(default_factory=dict)  # 12.7, 12.11: partisan/militia -> turn free again
    bonus: int = 0  # 14.3.1: VP the Soviet side gave by attacking too little
    required: int = 0  # 14.3.1: hexes the Soviet side must attack this turn
    soviet_attacked: list[str] = field(default_factory=list)  # 14.3.1: hexes it attacked this turn
    city_asked: list[str] = field(default_factory=list)  # 12.7: freed-city chances already offered
    ersatz: dict[str, str] = field(default_factory=dict)  # 9.2: German corps -> the ersatz corps in its place
    vp_track: int = 0  # 13: the VP marker (every objective the Axis controls)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value:
                out[f.name] = copy.deepcopy(value)
        return out

    def copy(self) -> "B41Vars":
        return B41Vars.from_dict(self.to_dict())

    def clear_phase(self) -> None:
        """What lasts one phase only (5.1, 6, 5.3)."""
        self.spent.clear()
        self.started.clear()
        self.fought.clear()
        self.attacked.clear()
        self.reacted.clear()
        self.rebased.clear()
        self.overran.clear()
        for uid in self.railed:  # 10.1: a rail move uses all the unit's MP for the turn
            self.spent[uid] = RAIL_SPENT

    def clear_turn(self) -> None:
        """What lasts one game-turn only (12.6, 12.12, 12.5)."""
        self.art_turn.clear()
        self.coups = 0
        self.dropped.clear()
        self.drops.clear()
        for uid in self.railed:
            self.spent.pop(uid, None)
        self.railed.clear()
        self.replaced.clear()
        self.entered.clear()
        self.shocks = 0
        self.forts_moved = 0
        self.required = 0
        self.soviet_attacked.clear()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "B41Vars":
        known = {f.name: f for f in fields(cls)}
        out = cls()
        for key, value in data.items():
            if key not in known:
                raise ValueError(f"unknown key '{key}' in Barbarossa 1941's bookkeeping")
            blank = getattr(out, key)
            if isinstance(blank, bool) or not isinstance(value, type(blank)):
                raise ValueError(f"'{key}' must be a {type(blank).__name__}")
            if isinstance(blank, dict) and key in ("spent", "art_used", "art_turn", "drops", "air_return", "naval_moved",
                                                   "fired", "tracks", "pools", "budget", "entered", "back"):
                if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                           for k, v in value.items()):
                    raise ValueError(f"'{key}' must map names to whole numbers")
            if isinstance(blank, dict) and key in ("started", "dropped", "overran", "ersatz"):
                if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                    raise ValueError(f"'{key}' must map unit ids to {'unit' if key == 'ersatz' else 'hex'} ids")
            if isinstance(blank, list) and not all(isinstance(v, str) for v in value):
                raise ValueError(f"'{key}' must be a list of ids")
            setattr(out, key, copy.deepcopy(value))
        return out
