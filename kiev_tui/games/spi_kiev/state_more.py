"""The methods of kiev_tui.games.spi_kiev.state that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in state.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.games.spi_kiev.state import (  # noqa: F401
    added, copy, written,
)


class Battle:
    """Methods of state.Battle that a new game's first frame never calls."""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind, "attackers": list(self.attackers), "targets": list(self.targets),
            "defenders": list(self.defenders), "origin": dict(self.origin), "asterisk": self.asterisk,
            "zone": list(self.zone), "stages": [list(s) for s in self.stages],
            "retreat_paths": {u: list(p) for u, p in self.retreat_paths.items()},
            "attacker_lost": self.attacker_lost, "integrity": self.integrity, "passengers": list(self.passengers),
        }
        if self.defence_integrity:
            d["defence_integrity"] = dict(self.defence_integrity)
        if self.result is not None:
            d["result"] = self.result
        return d


class KievVars:
    """Methods of state.KievVars that a new game's first frame never calls."""

    def stop(self, units: Iterable[str], case: str) -> None:
        """End these units' movement for the phase, noting the case that ended it."""
        units = list(units)
        self.stopped = added(self.stopped, units)
        self.stop_case = {**self.stop_case, **{u: case for u in units}}
    # -- the RuleState protocol -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The plain dict these rules always saved: a per-phase record only once written."""
        d: dict[str, Any] = {"rpl_left": self.rpl_left, "pool_used": list(self.pool_used),
                             "directive": {str(t): on for t, on in self.directive.items()},
                             "rail_used": self.rail_used, "start_hex": dict(self.start_hex),
                             "oos_start": list(self.oos_start)}
        for name in ("relieved", "relievers", "entered", "moved", "active", "stopped", "overran", "railed",
                     "rail_entry", "attacked", "defended", "advanced", "retreated_into"):
            value = getattr(self, name)
            if written(value):
                d[name] = list(value)
        if written(self.mp):
            d["mp"] = dict(self.mp)
        if written(self.stop_case):
            d["stop_case"] = dict(self.stop_case)
        if written(self.sig):
            d["sig"] = {u: list(n) for u, n in self.sig.items()}
        if self.move_no:
            d["move_no"] = self.move_no
        if self.battle is not None:
            d["battle"] = self.battle.to_dict()
        if self.final_score is not None:
            d["final_score"] = copy.deepcopy(self.final_score)
        return d

    def hash_dict(self) -> dict[str, Any]:
        """``to_dict`` sharing the live values instead of copying them: the same JSON text, for
        the state's hash, which writes it at once and keeps nothing (issue 33)."""
        d: dict[str, Any] = {"rpl_left": self.rpl_left, "pool_used": self.pool_used,
                             "directive": {str(t): on for t, on in self.directive.items()},
                             "rail_used": self.rail_used, "start_hex": self.start_hex, "oos_start": self.oos_start}
        for name in ("relieved", "relievers", "entered", "moved", "active", "stopped", "overran", "railed",
                     "rail_entry", "attacked", "defended", "advanced", "retreated_into"):
            value = getattr(self, name)
            if written(value):
                d[name] = value
        if written(self.mp):
            d["mp"] = self.mp
        if written(self.stop_case):
            d["stop_case"] = self.stop_case
        if written(self.sig):
            d["sig"] = self.sig
        if self.move_no:
            d["move_no"] = self.move_no
        if self.battle is not None:
            d["battle"] = self.battle.to_dict()
        if self.final_score is not None:
            d["final_score"] = self.final_score
        return d
