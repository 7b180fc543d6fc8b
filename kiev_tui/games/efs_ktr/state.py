"""Kiev to Rostov's bookkeeping between actions (the typed ``GameState.vars``).

Everything here is public: hidden choices live in ``GameState.secrets`` and only their hashes in
``GameState.commitments`` (engine/view.py).  Per phase: MP spent and units that may not move on;
per game-turn: HQ activations and command points; HQs on their Non-Op side (22.2) and, per
phase, the units that began moving inside each one's range (22.25g); per segment: HQ points spent on orders; the
Declared Attack markers are the state's hex markers, with the attackers that declared in
``declared``; the running combat (15.0) is ``combat``; steps lost per side count for PB 10.45.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, Mapping


@dataclass
class EfsVars:
    spent: dict[str, str] = field(default_factory=dict)  # uid -> MP spent this phase ("3/2")
    done: list[str] = field(default_factory=list)  # 10.65, 11.43m, 11.9: may not move again this phase
    activated: list[str] = field(default_factory=list)  # 10.24c: Soviet units activated this game-turn
    hq_points: dict[str, int] = field(default_factory=dict)  # 22.12a: command points spent on activation
    hq_guards: list[str] = field(default_factory=list)  # 22.41: HQs that activated their Guards unit
    hq_orders: dict[str, int] = field(default_factory=dict)  # 22.12c: points spent on orders this segment
    hq_react: dict[str, list[str]] = field(default_factory=dict)  # 22.12b: units each HQ sent to react
    declared: dict[str, list[str]] = field(default_factory=dict)  # 12.35: defender hex -> declaring units
    declared_with: dict[str, list[str]] = field(default_factory=dict)  # 12.8: first hex -> its other defender hexes
    fought: list[str] = field(default_factory=list)  # 15.23: units that attacked or supported this phase
    attacked: list[str] = field(default_factory=list)  # 15.23, 12.7: enemy units attacked this phase
    orders: dict[str, str] = field(default_factory=dict)  # 14.31: revealed orders on hexes this combat
    overrun_marked: list[str] = field(default_factory=list)  # 11.44
    combat: dict[str, Any] = field(default_factory=dict)  # the combat being resolved (15.0)
    steps_lost: dict[str, int] = field(default_factory=dict)  # side -> steps lost (PB 10.45)
    flown: list[str] = field(default_factory=list)  # 17.13: air units that flew this game-turn
    interdiction: dict[str, int] = field(default_factory=dict)  # 13.14: mission hex -> level this turn
    final: dict[str, Any] = field(default_factory=dict)  # the score once the game is over
    non_op: list[str] = field(default_factory=list)  # 22.2: Soviet HQs on their Non-Op side
    non_op_moved: dict[str, list[str]] = field(default_factory=dict)  # 22.25g: Non-Op HQ -> units begun in range this phase
    disbanded: list[str] = field(default_factory=list)  # 22.26b: the Non-Op HQ disbanded this interphase

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v:
                out[f.name] = copy.deepcopy(v)
        return out

    def copy(self) -> "EfsVars":
        return copy.deepcopy(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "EfsVars":
        names = {f.name: f for f in fields(cls)}
        out = cls()
        for key, value in data.items():
            if key not in names:
                raise ValueError(f"unknown key '{key}' in Kiev to Rostov's bookkeeping")
            want = type(getattr(out, key))
            if not isinstance(value, want):
                raise ValueError(f"'{key}' must be a {want.__name__}")
            setattr(out, key, copy.deepcopy(value))
        return out


def efs_vars(state: Any) -> EfsVars:
    v = state.vars
    assert isinstance(v, EfsVars)
    return v
