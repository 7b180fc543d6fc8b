"""The methods of kiev_tui.engine.sequence that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in sequence.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.sequence import (  # noqa: F401
    Step, _owners,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.sequence import SegmentDef


class Sequence:
    """Methods of sequence.Sequence that a new game's first frame never calls."""

    def segment(self, seg_id: str) -> SegmentDef:
        for s in self.segments:
            if s.id == seg_id:
                return s
        raise KeyError(seg_id)

    def all_steps(self, first: str, second: str) -> list[Step]:
        """Every phase the game-turn can have (skip rules and turns ignored): what a tracker lists."""
        out: list[Step] = []
        for seg in self.segments:
            phasing = first if seg.phasing == "first" else second if seg.phasing == "second" else ""
            for ph in seg.phases:
                for owner in _owners(ph.owner, phasing, first, second):
                    out.append(Step(seg.id, ph.id, phasing, owner, ph.case, ph.name))
        return out
