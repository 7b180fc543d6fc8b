"""The methods of kiev_tui.engine.units that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in units.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations



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
