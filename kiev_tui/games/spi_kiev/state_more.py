"""The methods of kiev_tui.games.spi_kiev.state that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in state.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from kiev_tui.games.spi_kiev import state as _home  # the real classes: the namespaces below take their names
from kiev_tui.games.spi_kiev.state import (  # noqa: F401
    _copy_seq, _flag, _hex_map, _ids, _int, _is_int, _only_known, _str_map, _strs, _text, added,
    copy, UNSET, written,
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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Battle":
        _only_known(cls, d, "battle.")
        origin = d.get("origin", {})
        if not isinstance(origin, dict) or not all(v is None or isinstance(v, str) for v in origin.values()):
            raise ValueError("'battle.origin' must map units to hex ids")
        stages = d.get("stages", [])
        if not isinstance(stages, list) or not all(_strs(s) and len(s) == 2 for s in stages):
            raise ValueError("'battle.stages' must be a list of [who, part] pairs")
        paths = d.get("retreat_paths", {})
        if not isinstance(paths, dict) or not all(_strs(p) for p in paths.values()):
            raise ValueError("'battle.retreat_paths' must map units to lists of hex ids")
        result = d.get("result")
        if result is not None and not isinstance(result, str):
            raise ValueError("'battle.result' must be text")
        return cls(
            kind=_text("battle.kind", d.get("kind")), attackers=_ids(d, "attackers", "battle."),
            targets=_ids(d, "targets", "battle."), defenders=_ids(d, "defenders", "battle."),
            origin=dict(origin), asterisk=_flag("battle.asterisk", d.get("asterisk", False)),
            zone=_ids(d, "zone", "battle."), stages=[list(s) for s in stages],
            retreat_paths={str(u): list(p) for u, p in paths.items()},
            attacker_lost=_flag("battle.attacker_lost", d.get("attacker_lost", False)),
            integrity=_text("battle.integrity", d.get("integrity", "")),
            passengers=_ids(d, "passengers", "battle."),
            defence_integrity=_str_map(d.get("defence_integrity", {}), "battle.defence_integrity"),
            result=result,
        )


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

    def copy(self) -> "KievVars":
        """An independent copy (undo keeps one before every action)."""
        return _home.KievVars(
            rpl_left=self.rpl_left, pool_used=list(self.pool_used), directive=dict(self.directive),
            rail_used=self.rail_used, relieved=_copy_seq(self.relieved), relievers=_copy_seq(self.relievers),
            entered=_copy_seq(self.entered), start_hex=dict(self.start_hex), oos_start=list(self.oos_start),
            mp=self.mp if self.mp is UNSET else dict(self.mp), moved=_copy_seq(self.moved),
            active=_copy_seq(self.active), stopped=_copy_seq(self.stopped),
            stop_case=self.stop_case if self.stop_case is UNSET else dict(self.stop_case),
            overran=_copy_seq(self.overran), railed=_copy_seq(self.railed), rail_entry=_copy_seq(self.rail_entry),
            move_no=self.move_no, sig=self.sig if self.sig is UNSET else {u: list(n) for u, n in self.sig.items()},
            attacked=_copy_seq(self.attacked), defended=_copy_seq(self.defended), advanced=_copy_seq(self.advanced),
            retreated_into=_copy_seq(self.retreated_into),
            battle=None if self.battle is None else self.battle.copy(),
            final_score=copy.deepcopy(self.final_score),
        )

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "KievVars":
        """Back from the plain form; ValueError naming the key for anything these rules never write."""
        _only_known(cls, d, "")
        v = cls()
        if "rpl_left" in d:
            v.rpl_left = _int(d, "rpl_left")
        v.pool_used = list(_ids(d, "pool_used"))
        directive = d.get("directive", {})
        if not isinstance(directive, dict) or not all(str(t).isdigit() and isinstance(on, bool)
                                                       for t, on in directive.items()):
            raise ValueError("'directive' must map game-turn numbers to true or false")
        v.directive = {int(t): on for t, on in directive.items()}
        if "rail_used" in d:
            v.rail_used = _int(d, "rail_used")
        v.start_hex = dict(_hex_map(d.get("start_hex", {}), "start_hex"))
        v.oos_start = _ids(d, "oos_start")
        for name in ("relieved", "relievers", "entered", "moved", "active", "stopped", "overran", "railed",
                     "rail_entry", "attacked", "defended", "advanced", "retreated_into"):
            if name in d:
                setattr(v, name, _ids(d, name))
        if "mp" in d:
            mp = d["mp"]
            if not isinstance(mp, dict) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                   for x in mp.values()):
                raise ValueError("'mp' must map units to movement points")
            v.mp = dict(mp)
        if "stop_case" in d:
            v.stop_case = _str_map(d["stop_case"], "stop_case")
        if "sig" in d:
            sig = d["sig"]
            if not isinstance(sig, dict) or not all(isinstance(n, list) and all(_is_int(x) for x in n)
                                                    for n in sig.values()):
                raise ValueError("'sig' must map units to lists of move numbers")
            v.sig = {str(u): list(n) for u, n in sig.items()}
        if "move_no" in d:
            v.move_no = _int(d, "move_no")
        if d.get("battle") is not None:
            b = d["battle"]
            if not isinstance(b, dict):
                raise ValueError("'battle' must be a table")
            v.battle = _home.Battle.from_dict(b)
        if d.get("final_score") is not None:
            fs = d["final_score"]
            if not isinstance(fs, dict):
                raise ValueError("'final_score' must be a table")
            v.final_score = copy.deepcopy(dict(fs))
        return v
