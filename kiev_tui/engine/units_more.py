"""The methods of kiev_tui.engine.units that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in units.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import Any

from kiev_tui.engine import units as _home  # the real classes: the namespaces below take their names
from kiev_tui.engine.units import (  # noqa: F401
    _set,
)


class UnitState:
    """Methods of units.UnitState that a new game's first frame never calls."""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"status": self.status, "step": self.step}
        if self.hex is not None:
            d["hex"] = self.hex
        if self.face is not None:
            d["face"] = self.face
        if self.markers:
            d["markers"] = sorted(self.markers)
        return d

    @classmethod
    def from_dict(cls, uid: str, d: dict[str, Any]) -> "UnitState":
        return cls(uid, d["status"], d.get("hex"), d.get("step", 0), d.get("face"), set(d.get("markers", ())))

    def copied(self) -> "UnitState":
        """An independent copy, made without noting its fields as written: a copy goes into a
        new position, whose placement and hash nothing has worked out yet."""
        twin = object.__new__(_home.UnitState)
        _set(twin, "id", self.id)
        _set(twin, "status", self.status)
        _set(twin, "hex", self.hex)
        _set(twin, "step", self.step)
        _set(twin, "face", self.face)
        _set(twin, "markers", set(self.markers))
        return twin
