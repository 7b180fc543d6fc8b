"""Kiev's own bookkeeping (``GameState.vars``): what each unit did this phase, the battle in
progress, the game-long counters, all as typed fields.

Saved form: ``to_dict`` gives the plain dict these rules kept before the fields were typed,
key for key, so saves made then replay to the same hashes.  That dict held a per-phase record
only once the phase had written it (an empty list written by the phase is kept; one never
written is absent).  The typed fields say the same thing: a record the phase has not written
is the empty tuple (or an empty read-only mapping), and every write assigns a new list or dict.
Reading needs no care (``uid in v.moved``); writing in place fails loudly on an unwritten record.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from kiev_tui.later import later

if TYPE_CHECKING:
    from kiev_tui.engine.state import GameState

#: The value of a per-phase mapping the phase has not written yet (read-only: assign a new dict).
UNSET: Mapping[str, Any] = MappingProxyType({})


def _unset() -> Mapping[str, Any]:
    return UNSET


def written(value: object) -> bool:
    """Whether a per-phase record has been written this phase (see the module's note)."""
    return not (value == () or value is UNSET)


def added(record: Sequence[str], items: Iterable[str]) -> list[str]:
    """The record with the items not already in it appended, in order (a new list)."""
    out = list(record)
    for i in items:
        if i not in out:
            out.append(i)
    return out



def _only_known(cls: type, d: Mapping[str, Any], prefix: str) -> None:
    """Refuse a saved key these rules never write, naming it (``prefix`` says where it sits)."""
    known = {f.name for f in fields(cls)}
    for k in d:
        if k not in known:
            raise ValueError(f"unknown key '{prefix}{k}'")

@dataclass
class Battle:
    """The battle being fought (9.0, 6.0): who, where, and the parts of its result still to settle."""

    kind: str  # "attack" or "overrun"
    attackers: list[str]
    targets: list[str]  # hex ids attacked
    defenders: list[str]
    origin: dict[str, str | None]  # unit -> its hex when the battle began
    asterisk: bool = False  # 19.61: an asterisk unit was revealed
    zone: list[str] = field(default_factory=list)  # 9.77: hexes an attacker may not retreat into
    stages: list[list[str]] = field(default_factory=list)  # [who, part] still to settle, in order
    retreat_paths: dict[str, list[str]] = field(default_factory=dict)  # 9.81: where each unit went
    attacker_lost: bool = False  # 6.23: the overrunning stack took a loss or retreated
    integrity: str = ""  # 20.2: the division GD attacks with
    passengers: list[str] = field(default_factory=list)  # 6.17: HQs in the overrunning hex
    defence_integrity: dict[str, str] = field(default_factory=dict)  # 20.2: hex -> GD's division
    result: str | None = None  # the CRT result, once rolled

    to_dict = later("kiev_tui.games.spi_kiev.state_more")
    from_dict = later("kiev_tui.games.spi_kiev.state_more")

    def copy(self) -> "Battle":
        return Battle.from_dict(self.to_dict())


@dataclass
class KievVars:
    """Every fact Kiev keeps beyond units and control.  Rule cases say why each exists."""

    # -- for the whole game (set up once) -------------------------------------------------
    rpl_left: int = 0  # 19.24: rpl counters not yet used
    pool_used: list[str] = field(default_factory=list)  # 13.1: untried faces drawn so far
    directive: dict[int, bool] = field(default_factory=dict)  # 22.0: turn -> order in force
    # -- for the game-turn ----------------------------------------------------------------
    rail_used: int = 0  # 19.3: units moved by rail this turn
    relieved: Sequence[str] = ()  # 22.2: units freed from the directive this turn
    relievers: Sequence[str] = ()  # 22.21: units that relieved another this turn
    # -- for the player-turn --------------------------------------------------------------
    entered: Sequence[str] = ()  # 15.0: arrivals, in supply for their own player-turn
    # -- for the phase --------------------------------------------------------------------
    start_hex: dict[str, str | None] = field(default_factory=dict)  # where each unit began the phase
    oos_start: list[str] = field(default_factory=list)  # 12.21: out of supply as the phase began
    mp: Mapping[str, float] = field(default_factory=_unset)  # movement points spent
    moved: Sequence[str] = ()  # units that moved (5.0)
    active: Sequence[str] = ()  # 5.0: the stack in hand, which may still go on
    stopped: Sequence[str] = ()  # units whose movement has ended (8.21, 6.22, 5.33, 22.2)
    stop_case: Mapping[str, str] = field(default_factory=_unset)  # unit -> the case that stopped it
    overran: Sequence[str] = ()  # 6.24: may leave an enemy zone after their overrun
    railed: Sequence[str] = ()  # 5.33: moved by rail
    rail_entry: Sequence[str] = ()  # 5.33: came on the map by rail
    move_no: int = 0  # moves made this phase (numbers the sig entries)
    sig: Mapping[str, list[int]] = field(default_factory=_unset)  # 6.13: which moves each unit made
    attacked: Sequence[str] = ()  # 9.14: units that attacked
    defended: Sequence[str] = ()  # 9.14: units that were attacked
    advanced: Sequence[str] = ()  # 9.83: units that advanced after combat
    retreated_into: Sequence[str] = ()  # 9.76: units that retreated into a friendly-held hex
    # -- now ------------------------------------------------------------------------------
    battle: Battle | None = None  # the battle being settled
    final_score: dict[str, Any] | None = None  # 24.0: victory.Score.to_dict() at the end

    stop = later("kiev_tui.games.spi_kiev.state_more")

    def clear_phase(self) -> None:
        """Forget what units did in the phase that ended."""
        self.mp, self.stop_case, self.sig = UNSET, UNSET, UNSET
        self.moved = self.active = self.stopped = self.overran = self.railed = self.rail_entry = ()
        self.attacked = self.defended = self.advanced = self.retreated_into = ()
        self.start_hex = {}
        self.move_no = 0

    to_dict = later("kiev_tui.games.spi_kiev.state_more")
    hash_dict = later("kiev_tui.games.spi_kiev.state_more")
    copy = later("kiev_tui.games.spi_kiev.state_more")
    from_dict = later("kiev_tui.games.spi_kiev.state_more")


def kiev_vars(state: "GameState") -> KievVars:
    """The Kiev bookkeeping of a game state (typed; a state of another game is a bug)."""
    v = state.vars
    if not isinstance(v, KievVars):
        raise TypeError(f"not a Kiev game's state: its bookkeeping is a {type(v).__name__}")
    return v


def _copy_seq(value: Sequence[str]) -> Sequence[str]:
    return value if value == () else list(value)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int(d: Mapping[str, Any], key: str) -> int:
    x = d[key]
    if not _is_int(x):
        raise ValueError(f"'{key}' must be a whole number")
    return int(x)


def _strs(x: object) -> bool:
    return isinstance(x, list) and all(isinstance(i, str) for i in x)


def _ids(d: Mapping[str, Any], key: str, prefix: str = "") -> list[str]:
    x = d.get(key, [])
    if not _strs(x):
        raise ValueError(f"'{prefix}{key}' must be a list of ids")
    return list(x)


def _text(key: str, x: object) -> str:
    if not isinstance(x, str):
        raise ValueError(f"'{key}' must be text")
    return x


def _flag(key: str, x: object) -> bool:
    if not isinstance(x, bool):
        raise ValueError(f"'{key}' must be true or false")
    return x


def _str_map(x: object, key: str) -> dict[str, str]:
    if not isinstance(x, dict) or not all(isinstance(v, str) for v in x.values()):
        raise ValueError(f"'{key}' must map ids to text")
    return {str(k): v for k, v in x.items()}


def _hex_map(x: object, key: str) -> dict[str, str | None]:
    if not isinstance(x, dict) or not all(v is None or isinstance(v, str) for v in x.values()):
        raise ValueError(f"'{key}' must map units to hex ids")
    return {str(k): v for k, v in x.items()}
