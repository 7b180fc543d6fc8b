"""The methods of kiev_tui.engine.state that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in state.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.engine.state import (  # noqa: F401
    _control_json, _dump, _hash_form, _sha256, _units_json, _vars_json, frames_to_data,
)


class GameState:
    """Methods of state.GameState that a new game's first frame never calls."""

    def at(self, hex_id: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.status == "map" and u.hex == hex_id]

    def occupancy(self) -> dict[str, list[str]]:
        occ: dict[str, list[str]] = {}
        for u in self.units.values():
            if u.status == "map" and u.hex is not None:
                occ.setdefault(u.hex, []).append(u.id)
        return occ

    def _raw(self) -> dict[str, Any]:
        # Shares the live prompt frames: only for immediate serialisation.
        d: dict[str, Any] = {
            "turn": self.turn,
            "player": self.player,
            "phase": self.phase,
            "over": self.over,
            "units": {uid: u.to_dict() for uid, u in sorted(self.units.items())},
            "control": dict(sorted(self.control.items())),
            "vars": self.vars.to_dict(),
        }
        d.update(frames_to_data(self.prompts))  # one frame: "pending", as every older save
        marks = self._marks()
        if marks:  # issue 30: absent when empty, so older positions hash the same
            d["hex_markers"] = marks
        if self.secrets:  # views and secrets: absent while empty, so old saves hash the same
            d["secrets"] = self.secrets
        if self.commitments:
            d["commitments"] = self.commitments
        if self.half:
            d["half"] = self.half
        return d

    def _marks(self) -> dict[str, list[str]]:
        """The hexes that carry markers, each kind once and sorted (the saved form)."""
        return {h: sorted(set(k)) for h, k in sorted(self.hex_markers.items()) if k}

    def hash(self, extra: str = "") -> str:
        """A short fingerprint of the position (plus anything the caller adds, e.g. dice count)."""
        blob = self.canonical_json() + extra
        return _sha256(blob.encode()).hexdigest()[:16]

    def canonical_json(self) -> str:
        """``json.dumps(self._raw(), sort_keys=True, separators=(",", ":"))`` less ``secrets``, the text the hash is of.

        Built part by part, reusing the text of each unchanged unit and of large unchanged parts
        of the bookkeeping: replay hashes the position after every action, and most actions
        change a few of the hundreds of units.
        """
        parts = ['{']
        if self.commitments:  # views and secrets: sorted-key order puts it first
            parts += ['"commitments":', _dump(self.commitments), ',']
        parts += ['"control":', _control_json(self.control)]
        if self.half:  # sorted between "control" and "hex_markers"
            parts += [',"half":', _dump(self.half)]
        marks = self._marks()
        if marks:  # sorted between "control" and "over", as _raw gives it
            parts += [',"hex_markers":', _dump(marks)]
        parts += [',"over":', _dump(self.over)]
        if len(self.prompts) == 1:
            parts += [',"pending":', _dump(self.prompts[0])]
        parts += [',"phase":', _dump(self.phase), ',"player":', _dump(self.player)]
        if len(self.prompts) > 1:  # a deeper stack: its own key, only when there is one
            parts += [',"prompts":', _dump(self.prompts)]
        # Secrets are left out: the hash is public (seats and both players compare it), and the
        # commitments in it already bind every hidden choice.
        parts += [',"turn":', _dump(self.turn),
                  ',"units":{', _units_json(self.units), '},"vars":', _vars_json(_hash_form(self.vars)), "}"]
        return "".join(parts)
