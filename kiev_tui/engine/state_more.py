"""The methods and functions of kiev_tui.engine.state that a new game's first frame never calls
(issue 33, round 7): the state's hash form and its caches.

Each class here is only a namespace: the class of the same name in state.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
The functions below it state.py hands out on first use (its module ``__getattr__``), so
``state._units_json`` works as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine import state as _home  # the real classes: the namespaces below take their names
# _dump and _sha256 are read from state.py at each call: each is put in its own place there
# (the json encoder made on first use, OpenSSL's hash for a long replay)
from kiev_tui.engine import state as _state
from kiev_tui.engine.state import (  # noqa: F401
    _control_json, _FIELDS, _half, _hash_form, _MARKERS, _PLAIN, _sorted_ids, _STAND_IN,
    _STAND_IN_JSON, _TABLE_JSON, _TABLE_MIN, _TEXTS, _UNIT_JSON, _UNIT_JSON_MAX, compress, copy,
    frames_from_data, frames_to_data, ne, PlainVars, UnitState, WRITES,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.state import VarsFactory


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
        return _state._sha256(blob.encode()).hexdigest()[:16]

    def canonical_json(self) -> str:
        """``json.dumps(self._raw(), sort_keys=True, separators=(",", ":"))`` less ``secrets``, the text the hash is of.

        Built part by part, reusing the text of each unchanged unit and of large unchanged parts
        of the bookkeeping: replay hashes the position after every action, and most actions
        change a few of the hundreds of units.
        """
        parts = ['{']
        if self.commitments:  # views and secrets: sorted-key order puts it first
            parts += ['"commitments":', _state._dump(self.commitments), ',']
        parts += ['"control":', _control_json(self.control)]
        if self.half:  # sorted between "control" and "hex_markers"
            parts += [',"half":', _state._dump(self.half)]
        marks = self._marks()
        if marks:  # sorted between "control" and "over", as _raw gives it
            parts += [',"hex_markers":', _state._dump(marks)]
        parts += [',"over":', _state._dump(self.over)]
        if len(self.prompts) == 1:
            parts += [',"pending":', _state._dump(self.prompts[0])]
        parts += [',"phase":', _state._dump(self.phase), ',"player":', _state._dump(self.player)]
        if len(self.prompts) > 1:  # a deeper stack: its own key, only when there is one
            parts += [',"prompts":', _state._dump(self.prompts)]
        # Secrets are left out: the hash is public (seats and both players compare it), and the
        # commitments in it already bind every hidden choice.
        parts += [',"turn":', _state._dump(self.turn),
                  ',"units":{', _units_json(self.units), '},"vars":', _vars_json(_hash_form(self.vars)), "}"]
        return "".join(parts)

    # -- the prompt stack (engine/prompts.py) -------------------------------
    def push_prompt(self, frame: dict[str, Any]) -> None:
        """A choice arises: it is answered before those under it."""
        self.prompts.append(frame)

    # -- persistence ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A snapshot of plain data, independent of the live state."""
        return copy.deepcopy(self._raw())

    @classmethod
    def from_dict(cls, d: dict[str, Any], vars_from_dict: VarsFactory | None = None) -> "GameState":
        """The state back from ``to_dict``; ``vars_from_dict`` is the rule system's factory
        (without it the bookkeeping stays plain data, which hashes the same)."""
        unknown = [k for k in d if k not in cls.KEYS]
        if unknown:
            raise ValueError(f"unknown key '{unknown[0]}'")
        import json

        plain = json.loads(json.dumps(d.get("vars", {})))
        if not isinstance(plain, dict):
            raise ValueError("'vars' must be a table")
        return cls(
            turn=d["turn"], player=d["player"], phase=d["phase"],
            units={uid: UnitState.from_dict(uid, u) for uid, u in d["units"].items()},
            control=dict(d.get("control", {})),
            vars=vars_from_dict(plain) if vars_from_dict is not None else PlainVars(plain),
            prompts=frames_from_data(d), over=d.get("over", False),
            hex_markers={str(h): list(k) for h, k in dict(d.get("hex_markers", {})).items()},
            secrets=copy.deepcopy(dict(d.get("secrets", {}))),
            commitments=copy.deepcopy(dict(d.get("commitments", {}))),
            half=_half(d.get("half", 0)),
        )

    def copy(self) -> "GameState":
        """An independent copy (undo keeps one before every action, so it must be cheap)."""
        return _home.GameState(
            turn=self.turn, player=self.player, phase=self.phase,
            units={uid: u.copied() for uid, u in self.units.items()},
            control=dict(self.control), vars=self.vars.copy(),
            prompts=copy.deepcopy(self.prompts), over=self.over,
            hex_markers={h: list(k) for h, k in self.hex_markers.items()},
            secrets=copy.deepcopy(self.secrets), commitments=copy.deepcopy(self.commitments), half=self.half,
        )


#: The last units hashed: ids in the dict's order, each unit's fields and text, and the dict
#: positions in sorted-id order (None: the dict is in that order already).
_LAST_UNITS: tuple[tuple[str, ...], list[Any], list[str], list[int] | None] = ((), [], [], None)

#: The units dict hashed last, the generation of ``WRITES`` and how many writes it held then,
#: each id's place in the dict, and the ``_LAST_UNITS`` entry made for that dict (kept with it,
#: so that a hash in another thread between two of this dict's never mixes two dicts' texts):
#: while the same dict is hashed again, the units written since are all that can have changed
#: (issue 33).
_SEEN: tuple[Any, ...] = (None, -1, 0, {}, ((), [], [], None))


def _units_json(units: dict[str, UnitState]) -> str:
    """The units' entries, as json.dumps writes them inside the state's text."""
    global _LAST_UNITS, _SEEN
    generation, writes = WRITES.current
    written = len(writes)  # before reading any unit: a write from now on is seen next time
    ids = tuple(units)
    seen = _SEEN
    last_ids, last_fields, last_texts, last_perm = seen[4]
    if seen[0] is units and seen[1] == generation and last_ids == ids and not any(map(_MARKERS, units.values())):
        # The same dict as last time, no marker anywhere: only the units written since differ.
        at = seen[3]
        fields, texts = list(last_fields), list(last_texts)
        if len(_UNIT_JSON) >= _UNIT_JSON_MAX:
            _UNIT_JSON.clear()
        plain = True
        for uid in set(writes[seen[2]:written]):
            i = at.get(uid)
            if i is None:
                continue  # a unit of another position
            u = units[uid]
            fields[i] = _FIELDS(u)
            texts[i], cached = _unit_text(uid, u)
            plain = plain and cached
        if plain:
            _LAST_UNITS = kept = (ids, fields, texts, last_perm)
            _SEEN = (units, generation, written, at, kept)
        else:
            _LAST_UNITS = ((), [], [], None)
            _SEEN = (None, -1, 0, {}, _LAST_UNITS)
        return ",".join(texts if last_perm is None else map(texts.__getitem__, last_perm))
    text, kept = _units_json_compared(units, ids)
    if kept[0] == ids:  # kept: the next hash of this dict may read the writes alone
        at = seen[3] if seen[0] is units else {uid: i for i, uid in enumerate(ids)}
        _SEEN = (units, generation, written, at, kept)
    else:
        _SEEN = (None, -1, 0, {}, kept)
    return text


def _units_json_compared(units: dict[str, UnitState], ids: tuple[str, ...]) -> tuple[str, tuple[Any, ...]]:
    """``_units_json`` by comparing every unit's fields with those of the last units hashed;
    with the text, what it keeps for the next hash."""
    global _LAST_UNITS
    # One pass in C over the units, in the dict's order: every field, and the step's type (1 and
    # True are equal values but different texts, so an equal step of another type is a change).
    fields = list(map(_FIELDS, units.values()))
    # Marker sets change in place, so a kept reference would compare equal: units with markers
    # are all written (each text still cached by its full key).
    marked = any(map(_MARKERS, units.values()))
    last_ids, last_fields, last_texts, last_perm = _LAST_UNITS
    if last_ids == ids and not marked:  # the units of the last position hashed: only the changed are written
        changed: Any = list(compress(range(len(ids)), map(ne, fields, last_fields)))
        texts = list(last_texts)
        perm = last_perm
    else:
        changed, texts = range(len(ids)), [""] * len(ids)
        order = _sorted_ids(units)
        at = {uid: i for i, uid in enumerate(ids)}
        perm = None if order == list(ids) else [at[uid] for uid in order]
    if len(_UNIT_JSON) >= _UNIT_JSON_MAX:
        _UNIT_JSON.clear()
    plain = True
    for i in changed:
        text, cached = _unit_text(ids[i], units[ids[i]])
        plain = plain and cached
        texts[i] = text
    _LAST_UNITS = kept = (ids, fields, texts, perm) if plain and not marked else ((), [], [], None)
    return ",".join(texts if perm is None else map(texts.__getitem__, perm)), kept


def _unit_text(uid: str, u: UnitState) -> tuple[str, bool]:
    """A unit's ``"id":{...}`` text, and whether it may be reused while its fields stay equal."""
    if type(u.step) is int and _PLAIN.issuperset(map(type, _TEXTS(u))) and all(type(m) is str for m in u.markers):
        key = (uid, u.status, u.hex, u.step, u.face, tuple(sorted(u.markers)))
        text = _UNIT_JSON.get(key)
        if text is None:
            text = _UNIT_JSON[key] = _state._dump(uid) + ":" + _state._dump(u.to_dict())
        return text, True
    # A number in a hex field or such (a hand-edited snapshot): written afresh, never reused.
    return _state._dump(uid) + ":" + _state._dump(u.to_dict()), False


def _vars_json(d: dict[str, Any]) -> str:
    """``_dump(d)``, reusing the text of a large id -> id table (where each unit began the
    phase) while it is unchanged: equal tables of text and None have equal texts."""
    reused: tuple[str, str] | None = None
    for k, v in d.items():
        if type(v) is dict and len(v) >= _TABLE_MIN and type(k) is str:
            kept = _TABLE_JSON.get(k)
            if kept is not None and kept[0] == v:
                reused = (k, kept[1])
                break
            if all(type(x) is str for x in v) and all(x is None or type(x) is str for x in v.values()):
                _TABLE_JSON[k] = (dict(v), _state._dump(v))
                reused = (k, _TABLE_JSON[k][1])
                break  # one table of ids is what the bookkeeping holds
    if reused is None:
        return _state._dump(d)
    text = _state._dump({**d, reused[0]: _STAND_IN})
    if text.count(_STAND_IN_JSON) != 1:  # the stand-in text is in the data itself: no shortcut
        return _state._dump(d)
    return text.replace(_STAND_IN_JSON, reused[1])
