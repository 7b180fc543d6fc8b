"""The methods of kiev_tui.games.spi_kiev.common that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in common.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.common import (  # noqa: F401
    FOLLOW_AT_MOST, UNTRIED, _hex, _sources_after, compress, enemy_of, ne, or_,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.common import Hex


class Placement:
    """Methods of common.Placement that a new game's first frame never calls."""

    def _follow(self, last: "Placement", maybe: list[int] | None = None) -> bool:
        """Work the occupancy out from ``last`` if only a few units differ (False: count afresh)."""
        if last.slot is None or last.keys != self.keys or last.ids != self.ids:
            return False
        if maybe is None:
            n = len(self.ids)
            moved = list(compress(range(n), map(or_, map(ne, self.hexes, last.hexes), map(ne, self.statuses, last.statuses))))
        else:  # the same places, in the same order, as comparing every unit finds
            moved = [i for i in sorted(maybe) if self.hexes[i] != last.hexes[i] or self.statuses[i] != last.statuses[i]]
        if len(moved) > FOLLOW_AT_MOST:
            return False
        self.slot = slot = last.slot
        occ = dict(last.occupancy)
        first = dict(last.first)
        touched = self.touched
        movers: list[str] = []
        for i in moved:
            was = _hex(last.hexes[i]) if last.statuses[i] == "map" and last.hexes[i] is not None else None
            now = _hex(self.hexes[i]) if self.statuses[i] == "map" and self.hexes[i] is not None else None
            if was == now:
                continue
            uid = self.ids[i]
            movers.append(uid)
            if was is not None:
                left = [u for u in occ[was] if u != uid]
                if left:
                    occ[was] = left
                else:
                    del occ[was]
                touched.add(was)
            if now is not None:
                occ[now] = sorted([*occ.get(now, ()), uid])
                touched.add(now)
        for h in touched:
            if h in occ:
                first[h] = min(map(slot.__getitem__, occ[h]))
            else:
                first.pop(h, None)
        if touched:
            order = sorted(occ, key=first.__getitem__)  # as a fresh count walks the units
            self.occupancy = dict(zip(order, map(occ.__getitem__, order)))
            self.sources = _sources_after(last, touched, movers)
        else:  # the same stacks: the same zones
            self.occupancy, self.zocs, self.sources = last.occupancy, last.zocs, last.sources
        self.first = first
        return True


class View:
    """Methods of common.View that a new game's first frame never calls."""

    def asterisk(self, uid: str) -> bool:
        face_id = self.state.units[uid].face
        return face_id is not None and self.catalog.extra[UNTRIED].faces[face_id].asterisk

    def river_guarded(self, h: Hex, side: str) -> bool:
        """10.13: may ``side`` not cross a major river into h?  True when an enemy unit on a
        major river's bank exerts its zone into h and no friendly unit already holds h."""
        return h in self.zoc_river_guard[enemy_of(side)] and not self.occupied_by(h, side)
