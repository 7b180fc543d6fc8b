"""The mutable position of a game: turn, phase, units, control, pending choices."""

from __future__ import annotations

import copy
from kiev_tui import nossl as hashlib  # no OpenSSL at start-up (issue 33)
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, ne
from typing import Any, Callable, Iterator, Mapping

from kiev_tui.engine.prompts import frames_from_data, frames_to_data
from kiev_tui.engine.rules import RuleState
from kiev_tui.engine.units import WRITES, UnitState
from kiev_tui.later import handed_out, later

#: Builds a rule system's bookkeeping back from its plain form (RuleSystem.vars_from_dict).
VarsFactory = Callable[[Mapping[str, Any]], RuleState]


@dataclass
class PlainVars:
    """Bookkeeping kept as plain JSON data: for a game with none of its own, or a snapshot
    read without its rule system (enough to hash it)."""

    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)

    def copy(self) -> "PlainVars":
        return PlainVars(copy.deepcopy(self.data))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PlainVars":
        import json

        return cls(json.loads(json.dumps(dict(d))))


@dataclass
class GameState:
    turn: int
    player: str
    phase: str
    units: dict[str, UnitState] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)  # hex id -> the side that holds it
    vars: RuleState = field(default_factory=PlainVars)  # the rule system's own typed bookkeeping
    #: open choices, a stack of plain-data frames (engine/prompts.py); the last is answered first
    prompts: list[Any] = field(default_factory=list)
    over: bool = False
    #: hex id -> the kinds of marker it carries (schema.counters.hex_markers); saved only when any
    hex_markers: dict[str, list[str]] = field(default_factory=dict)
    # -- views and secrets (issue 30): both kept out of to_dict/hash while empty --
    #: side -> its hidden choices {key: {"choice": ..., "salt": ...}}; only that side may see them
    secrets: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: side -> {key: sha256(choice, salt)}: public proof that a hidden choice was made
    commitments: dict[str, dict[str, str]] = field(default_factory=dict)
    #: which side's turn it is within a phase owned by both sides (0: the first player's, 1: the
    #: second's; engine/sequence.py); saved only when not 0, so older positions hash the same
    half: int = 0

    push_prompt = later("kiev_tui.engine.state_more")

    def pop_prompt(self) -> Any:
        """The top choice is answered: take it off the stack."""
        return self.prompts.pop()

    @property
    def pending(self) -> Any:
        """The top frame of the prompt stack, or None (the choice to be made now)."""
        return self.prompts[-1] if self.prompts else None

    @pending.setter
    def pending(self, frame: Any) -> None:
        # Hand-built positions (tests, tools) set one choice: the stack becomes that frame alone.
        self.prompts = [] if frame is None else [frame]

    # -- queries ----------------------------------------------------------
    def on_map(self) -> Iterator[UnitState]:
        return (u for u in self.units.values() if u.status == "map")

    at = later("kiev_tui.engine.state_more")
    occupancy = later("kiev_tui.engine.state_more")
    to_dict = later("kiev_tui.engine.state_more")
    _raw = later("kiev_tui.engine.state_more")

    KEYS = ("turn", "player", "phase", "over", "units", "control", "vars", "pending", "prompts", "hex_markers",
            "secrets", "commitments", "half")

    _marks = later("kiev_tui.engine.state_more")
    from_dict = later("kiev_tui.engine.state_more")
    copy = later("kiev_tui.engine.state_more")
    hash = later("kiev_tui.engine.state_more")
    canonical_json = later("kiev_tui.engine.state_more")


def _hash_form(rule_vars: RuleState) -> dict[str, Any]:
    """The bookkeeping's plain dict for the hash text alone: a rule system may offer one that
    shares its live lists and tables (``hash_dict``, written at once and never kept), the same
    JSON as ``to_dict`` without its copies."""
    own = getattr(rule_vars, "hash_dict", None)
    return own() if own is not None else rule_vars.to_dict()


#: The SHA-256 the hash uses: CPython's own (no OpenSSL at start-up) until a long replay asks
#: for OpenSSL's, which gives the same digests about nine times faster on a position's text.
_sha256: Callable[..., Any] = hashlib.sha256


def fast_sha256() -> None:
    """Hash positions with OpenSSL's SHA-256 from now on (same values; for a long replay, issue 33).

    Loads OpenSSL's libcrypto (a few MiB resident), which a signed save's check loads anyway.
    """
    global _sha256
    import hashlib as _openssl

    _sha256 = _openssl.sha256


def _half(value: Any) -> int:
    """A saved ``half``: 0 or 1 (a phase owned by both sides has two halves)."""
    if isinstance(value, bool) or value not in (0, 1):
        raise ValueError("'half' must be 0 or 1")
    return int(value)


def _dump(value: Any) -> str:
    """The one JSON form the hash is taken of (sorted keys, no spaces).  The first call builds the
    encoder and puts its method in this function's place: a new game's first frame hashes no
    state, and the json package stays out of it (issue 33, round 6)."""
    global _dump
    import json

    _dump = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
    return _dump(value)

#: A unit's ``"id":{...}`` text by its id and values; positions repeat them action after action.
_UNIT_JSON: dict[tuple[Any, ...], str] = {}
_UNIT_JSON_MAX = 100_000  # a long session meets many positions: bounded memory
_FIELDS = attrgetter("status", "hex", "step", "step.__class__", "face")
_TEXTS = attrgetter("status", "hex", "face")
_MARKERS = attrgetter("markers")
_PLAIN = frozenset({str, type(None)})

#: The last units' ids as listed and sorted (one tuple, so threads never see half of it).
_ORDER: tuple[tuple[str, ...], list[str]] = ((), [])


def _sorted_ids(units: dict[str, UnitState]) -> list[str]:
    """The ids in sorted order; a game's units are the same from set-up on, so the order is kept."""
    global _ORDER
    ids = tuple(units)
    kept = _ORDER
    if ids != kept[0]:
        kept = _ORDER = (ids, sorted(ids))
    return list(kept[1])


#: The control table last written: (a copy of it, its text).  It changes a few times a game.
_CONTROL_JSON: tuple[dict[str, str], str] = ({}, "{}")
_STR = frozenset({str})


def _control_json(control: dict[str, str]) -> str:
    """``_dump(control)``, reusing the text while the table is equal to the one last written (a
    table of text by text: nothing but a string equals a string, so equal means the same text)."""
    global _CONTROL_JSON
    kept = _CONTROL_JSON
    if type(control) is dict and kept[0] == control:
        return kept[1]
    text = _dump(control)
    if type(control) is dict and _STR.issuperset(map(type, control)) and _STR.issuperset(map(type, control.values())):
        _CONTROL_JSON = (dict(control), text)
    return text


#: The text of a large table of the bookkeeping by its key: (a copy of the table, its text).
_TABLE_JSON: dict[str, tuple[dict[str, Any], str]] = {}
_TABLE_MIN = 16  # smaller tables are written afresh: comparing would save nothing
#: Stands for a reused table while the rest is written in one call (no game writes this text).
_STAND_IN = "\x00kiev-tui reused table\x00"
_STAND_IN_JSON = '"\\u0000kiev-tui reused table\\u0000"'  # its JSON text (tests/test_state_json_lazy.py)


#: Functions written in state_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'_units_json_compared', '_units_json', '_vars_json', '_unit_text'})


__getattr__ = handed_out(__name__, "kiev_tui.engine.state_more", _LATER)
