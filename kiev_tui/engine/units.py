"""Counter definitions (what is printed on a piece) and per-game unit state."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.mapdata import one_of
from kiev_tui.engine.tomlio import Reader, load_toml
from kiev_tui.later import later

if TYPE_CHECKING:
    from kiev_tui.engine.rules import Counters, GameData

_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class UnitDef:
    """A counter as printed: identity, strengths per step, movement, flags."""

    id: str
    side: str
    type: str
    size: str
    designation: str
    division: str
    steps: tuple[tuple[int, int], ...]
    ma: int
    mechanized: bool = False
    leadership: int = 0
    hq: bool = False
    leader: bool = False
    replacement: bool = False  # a counter that stands for replacements, not a formation
    rpl_step: int = 0  # 1-based step that a replacement counter restores; 0 = none
    reconstructed: bool = False
    note: str = ""
    #: The game's own keys of this [[unit]] (schema.unit_keys), as the file gives them.
    extra: Mapping[str, Any] = field(default_factory=lambda: _NO_EXTRA, hash=False, compare=False)
    #: The game's named factors (schema.counters.factors), one entry per step (issue 30).
    factors: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: _NO_EXTRA, hash=False, compare=False)
    layer: str = field(default="", compare=False)  # its schema layer ("" before a schema reads it)

    def factor(self, name: str, step: int = 0) -> int:
        """The named factor on ``step`` (0: the full face); KeyError for a factor the game lacks."""
        values = self.factors[name]
        return values[min(step, len(values) - 1)]

    @property
    def is_combat(self) -> bool:
        """HQs and leaders are command counters, not combat units (stacking limits differ)."""
        return not (self.hq or self.leader)

    def strength(self, step: int) -> tuple[int, int]:
        return self.steps[step]

    @property
    def label(self) -> str:
        return f"{self.designation} {self.type}".strip()


@dataclass
class UnitCatalog:
    units: dict[str, UnitDef]
    #: What a game reads from its own tables of units.toml (schema.unit_tables), by its own keys.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class UnitState:
    """Where a unit is and what has happened to it this game."""

    id: str
    status: str = "pending"  # pending | map | eliminated
    hex: str | None = None
    step: int = 0
    face: str | None = None  # a hidden counter's face, once the game has drawn it
    markers: set[str] = field(default_factory=set)

    to_dict = later("kiev_tui.engine.units_more")
    from_dict = later("kiev_tui.engine.units_more")

    def __setattr__(self, name: str, value: Any) -> None:
        # Readers of the position learn from WRITES which units changed (issue 33); reads stay
        # plain attribute reads.
        _set(self, name, value)
        if name in _NOTED:
            WRITES.note(getattr(self, "id", ""))

    copied = later("kiev_tui.engine.units_more")


_set = object.__setattr__
_NOTED = frozenset({"status", "hex", "step", "face"})


class UnitWrites:
    """The ids of the units whose status, hex, step or face was set, in order (issue 33).

    A position's placement and its hash look here to learn which units changed since they last
    looked, instead of comparing every unit: a replay asks both after every action, and an
    action moves a few of hundreds of units.  ``current`` is (generation, ids), one tuple so
    that a thread never reads a generation with another generation's list; the list is
    bounded, and starts again under the next generation (a reader that saw another generation
    works everything out afresh).  A marker set changed in place is not noted: readers look at
    markers themselves.
    """

    MAX = 4096

    def __init__(self) -> None:
        self.current: tuple[int, list[str]] = (0, [])

    def note(self, uid: str) -> None:
        ids = self.current[1]
        if len(ids) >= self.MAX:
            ids = []
            # a number no other list had, even if two threads start a list at the same moment
            self.current = (next(_GENERATIONS), ids)
        ids.append(uid)


_GENERATIONS = itertools.count(1)


#: Every UnitState write of the process, by unit id.
WRITES = UnitWrites()




GENERIC_UNIT_KEYS = ("id", "side", "type", "size", "designation", "division", "steps", "ma", "mechanized",
                     "leadership", "hq", "leader", "replacement", "rpl_step", "reconstructed", "note",
                     "factors", "layer")


def load_units(path: str | Path, system: "GameData | None" = None) -> UnitCatalog:
    """Read and check units.toml (see docs/DATA-SCHEMA.md) against its game's schema.

    Without ``system`` the game is the one whose data folder holds the file (data/<game>/),
    else the game of the default scenario.
    """
    path = Path(path)
    root = Reader(path, load_toml(path, cache=True))
    if system is None:
        system = _system_of_folder(path)
    schema = system.schema
    root.only(["unit", "note", *schema.unit_tables])
    counters = schema.counters
    for key, why in counters.problems(schema.unit_types):  # the game's own declaration, named
        raise DataError(path, f"schema.counters.{key}", why)
    units: dict[str, UnitDef] = {}
    folded: dict[str, str] = {}
    # One object for each string, steps tuple and table of factors met on several counters (the
    # parser makes a copy a counter): 45 KiB less in a ready-built campaign (issue 33, round 7).
    shared: dict[Any, Any] = {}
    one = shared.setdefault
    unit_keys = (*GENERIC_UNIT_KEYS, *schema.unit_keys)
    for u in root.tables("unit", required=True):
        u.only(unit_keys)
        uid = u.str("id")
        if uid in units:
            raise u.fail("id", f"unit id '{shorten(uid)}' is used twice")
        twin = folded.get(uid.casefold())
        if twin is not None:  # players type ids; two that differ only in case are one too many
            raise u.fail("id", f"unit id '{shorten(uid)}' differs from '{twin}' only in case")
        folded[uid.casefold()] = uid
        side = u.str("side")
        if side not in schema.sides:
            raise u.fail("side", f"side must be {one_of(schema.sides)}, not '{shorten(side)}'")
        utype = u.str("type")
        kinds = schema.unit_types.get(side, ())
        if utype not in kinds:
            raise u.fail("type", f"'{shorten(utype)}' is not a {side} unit type ({', '.join(kinds)})")
        raw_steps = u.get("steps", list)
        steps: list[tuple[int, int]] = []
        for i, st in enumerate(raw_steps):
            if (not isinstance(st, list) or len(st) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in st)):
                raise u.fail(f"steps[{i}]", "each step is [attack, defense], two whole numbers >= 0")
            steps.append((st[0], st[1]))
        if not steps:
            raise u.fail("steps", "a unit needs at least one step")
        ma = u.int("ma")
        if ma < 0:
            raise u.fail("ma", "movement allowance cannot be negative")
        rpl_step = u.int("rpl_step", 0)
        if rpl_step and not (1 <= rpl_step <= len(steps)):
            raise u.fail("rpl_step", f"rpl_step must name one of the {len(steps)} steps")
        extra = {k: u.data[k] for k in schema.unit_keys if k in u.data}
        factors = _factors(u, counters, steps, ma)
        own_layer = u.str("layer", "")
        if own_layer and own_layer not in [layer.name for layer in counters.layers]:
            raise u.fail("layer", f"layer must be {one_of([layer.name for layer in counters.layers])}, "
                                  f"not '{shorten(own_layer)}'")
        shown = tuple((name, one(values, values)) for name, values in factors.items())
        units[uid] = UnitDef(
            id=uid, side=one(side, side), type=one(utype, utype), size=one(size := u.str("size", ""), size),
            designation=one(des := u.str("designation"), des), division=one(div := u.str("division", ""), div),
            steps=one(tuple(steps), tuple(steps)), ma=ma,
            mechanized=u.bool("mechanized", False), leadership=u.int("leadership", 0),
            hq=u.bool("hq", False), leader=u.bool("leader", False),
            replacement=u.bool("replacement", False), rpl_step=rpl_step,
            reconstructed=u.bool("reconstructed", False), note=one(note := u.str("note", ""), note),
            extra=MappingProxyType(extra) if extra else _NO_EXTRA,
            factors=one(("factors", shown), MappingProxyType(dict(shown))) if factors else _NO_EXTRA,
            layer=counters.layer_of(utype, own_layer).name,
        )
    catalog = UnitCatalog(units)
    read = getattr(system, "read_units", None)
    if read is not None:  # the game's own tables (e.g. a pool of hidden faces)
        read(root, catalog)
    return catalog


def _factors(u: Reader, counters: "Counters", steps: list[tuple[int, int]], ma: int) -> dict[str, tuple[int, ...]]:
    """The unit's named factors: those the steps pairs and its ma give, then its own `factors`
    table, each checked to name a declared factor and to hold one whole number per step."""
    out = {name: tuple(st[i] for st in steps) for i, name in enumerate(counters.step_factors)}
    if counters.ma_factor:
        out[counters.ma_factor] = (ma,) * len(steps)
    if "factors" in u.data:
        table = u.table("factors")
        own = [f for f in counters.factors if f not in counters.step_factors and f != counters.ma_factor]
        for name, values in table.data.items():
            if name not in own:
                why = ("comes from ma" if name == counters.ma_factor
                       else f"comes from steps ({', '.join(counters.step_factors)})" if name in counters.step_factors
                       else f"is not a factor of this game ({', '.join(own) or 'none besides steps'})")
                raise table.fail(name, f"'{shorten(name)}' {why}")
            if (not isinstance(values, list)
                    or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)):
                raise table.fail(name, "one whole number >= 0 per step, full face first")
            if len(values) != len(steps):
                raise table.fail(name, f"{len(values)} entries for {len(steps)} step(s)")
            out[name] = tuple(values)
    for name in counters.factors:
        if name not in out:
            raise u.fail("factors", f"no '{name}' factor (one entry per step)")
    return out


def _system_of_folder(path: Path) -> "GameData":
    from kiev_tui.engine.registry import default_game, get_data, known

    game = path.parent.name if known(path.parent.name) else default_game()
    return get_data(game)
