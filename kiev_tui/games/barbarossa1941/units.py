"""Barbarossa 1941's counters: the game's own keys of units.toml, read and checked.

The engine keeps a game's extra [[unit]] keys as written (``UnitDef.extra``); the questions the
rules will ask of a counter are answered here, from those keys, so that no rule module reads a
raw key.  ``check_units`` refuses a units.toml whose keys of this game are wrong, naming file,
key and reason; ``setup_check`` runs it on every load of a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping
from types import MappingProxyType
from kiev_tui.engine.mapdata import one_of
from kiev_tui.engine.tomlio import Reader, load_toml
from kiev_tui.engine.units import UnitDef
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET

NATIONS = {AXIS: ("german", "finnish", "romanian", "hungarian", "italian", "slovak"), SOVIET: ("soviet",)}
# the set-up headings of 15.1 and 15.2 (the counters' colour codes, 1)
COMMANDS = {AXIS: ("finland", "ag_north", "ag_center", "ag_south", "romania"),
            SOVIET: ("tvd_leningrad", "tvd_baltic", "tvd_west", "tvd_south_west", "tvd_south", "reserve")}
REBUILD = ("any_city", "ersatz", "never")  # 9.2 and 12.11
#: What reconstructed_values may name: the values of a counter the book may leave out.
RECONSTRUCTED_VALUES = ("steps", "reduced", "combat", "quality", "ma", "motorized", "air")
#: Types that never lead an assault, so the book gives them no quality (6, 11, 12.4-12.9).
NO_QUALITY_TYPES = frozenset({"air", "fort", "fleet", "partisan", "airborne"})
STACK_LIMIT = 6  # 3: steps a hex may hold, per side


def nation(u: UnitDef) -> str:
    return str(u.extra["nation"])


def name(u: UnitDef) -> str:
    return str(u.extra["name"])


def quality(u: UnitDef) -> int | None:
    """The quality rating (1), or None for a counter that never leads an assault."""
    q = u.factor("quality") if "quality" in u.factors else u.extra.get("quality")
    return int(q) if q else None  # 0: the counter never leads an assault


def loss_steps(u: UnitDef) -> int:
    """Steps the counter is worth at full strength: 0 for airborne, air, field forts (12.5)."""
    return int(u.extra.get("loss_steps", len(u.steps)))


def entry_step(u: UnitDef) -> int:
    """The face it enters play on: cavalry corps on their reduced side (15.2)."""
    return int(u.extra.get("entry_step", 0))


def stacking_points(u: UnitDef, lost: int) -> int:
    """Stacking points of the counter after ``lost`` steps (3: one point per remaining step)."""
    if loss_steps(u) == 0:
        return 0
    return len(u.steps) - lost


def is_motorized(u: UnitDef, step: int) -> bool:
    """Black MP on this face (1); a cavalry corps moves motorized only on its mobile-group face (12.11)."""
    by_step = u.extra.get("motorized_by_step")
    return bool(by_step[step]) if by_step is not None else u.mechanized


def combat(u: UnitDef, step: int) -> int:
    """The book's single combat value of a face (both halves of a step hold it)."""
    return u.steps[step][0]


def air_support(u: UnitDef) -> tuple[int, int]:
    """(odds columns, range in hexes) of an air corps (11, 11.1)."""
    return int(u.extra["air_columns"]), int(u.extra["air_range"])


def reconstructed_values(u: UnitDef) -> tuple[str, ...]:
    return tuple(u.extra.get("reconstructed_values", ()))


@dataclass(frozen=True, slots=True)
class Ersatz:
    """9.2's ersatz corps: what a German corps bought back with a replacement step looks like."""

    type: str
    nation: str
    designation: str
    name: str
    size: str
    combat: int
    quality: int
    ma: int
    steps: int

    def unit(self, uid: str, number: int = 0) -> UnitDef:
        """A counter of this kind with its own id (``number``: its place in the counter pool, shown
        after the designation).  It never comes back itself once destroyed (9.2: it stands in for a
        corps that already had its return)."""
        extra = {"name": self.name, "nation": self.nation, "rebuild": "never", "ersatz": True}
        factors = {"combat": (self.combat,) * self.steps, "quality": (self.quality,) * self.steps,
                   "movement": (self.ma,) * self.steps}
        designation = f"{self.designation} {number}" if number else self.designation
        return UnitDef(id=uid, side=AXIS, type=self.type, size=self.size, designation=designation,
                       division="", steps=tuple((self.combat, self.combat) for _ in range(self.steps)),
                       ma=self.ma, extra=MappingProxyType(extra), factors=MappingProxyType(factors),
                       layer="ground")


ERSATZ_PREFIX = "ge-ersatz-"


def is_ersatz(u: UnitDef) -> bool:
    """An ersatz corps counter the rule system made (9.2)."""
    return bool(u.extra.get("ersatz"))


def ersatz_pool(units: Mapping[str, UnitDef], template: Ersatz) -> dict[str, UnitDef]:
    """The ersatz counters of the game (9.2): one for each German corps that may be replaced by
    one (``rebuild = "ersatz"``), numbered ``ge-ersatz-1`` on.  The book prints no count of them,
    so each corps gets one (docs/rulings.md)."""
    n = sum(1 for u in units.values() if u.extra.get("rebuild") == "ersatz")
    return {f"{ERSATZ_PREFIX}{i}": template.unit(f"{ERSATZ_PREFIX}{i}", i) for i in range(1, n + 1)}


def read_ersatz(path: Path) -> Ersatz:
    """The [ersatz] table of units.toml (DataError naming file and key if it is wrong)."""
    root = Reader(path, load_toml(path))
    return _ersatz(root)


def _ersatz(root: Reader) -> Ersatz:
    t = root.table("ersatz")
    t.only(["type", "nation", "designation", "name", "size", "combat", "quality", "ma", "steps", "note"])
    if t.str("type") != "infantry":
        raise t.fail("type", "the ersatz corps is an infantry corps (9.2)")
    if t.str("nation") != "german":
        raise t.fail("nation", "only German corps come back as ersatz corps (9.2)")
    values = {}
    for key, low in (("combat", 0), ("quality", 1), ("ma", 0), ("steps", 1)):
        values[key] = t.int(key)
        if values[key] < low:
            raise t.fail(key, f"must be at least {low}")
    return Ersatz(type="infantry", nation="german", designation=t.str("designation"), name=t.str("name"),
                  size=t.str("size", "XXX"), **values)


def check_units(path: Path) -> None:
    """Refuse a units.toml whose keys of this game are missing or wrong (DataError: file, key, reason)."""
    read_units(Reader(path, load_toml(path)))


def read_units(root: Reader) -> Ersatz:
    """Check this game's keys of every [[unit]] and read the [ersatz] template (DataError)."""
    for u in root.tables("unit"):
        _check_unit(u)
    return _ersatz(root)


def _check_unit(u: Reader) -> None:
    side, utype = u.str("side"), u.str("type")
    steps = u.get("steps", list)
    if not u.str("name", "").strip():
        raise u.fail("name", "every counter needs a plain English name")
    nat = u.str("nation")
    if nat not in NATIONS.get(side, ()):
        raise u.fail("nation", f"a {side} counter's nation is {one_of(NATIONS.get(side, ()))}, not '{nat}'")
    if "command" in u.data and u.str("command") not in COMMANDS.get(side, ()):
        raise u.fail("command", f"a {side} command is {one_of(COMMANDS.get(side, ()))}")
    factors = u.table("factors")
    qs = factors.get("quality", list)  # the engine's loader checks one whole number per step
    if utype in NO_QUALITY_TYPES and not u.bool("permanent", False):
        if any(qs):
            raise factors.fail("quality", f"a {utype} counter never leads an assault: its quality is 0 (6)")
    else:
        for q in qs:  # 5.3's reaction test is a d6 against it
            if not isinstance(q, int) or not 1 <= q <= 6:
                raise factors.fail("quality", f"quality is 1 to 6 (a d6 is rolled against it, 5.3), not {q}")
    by_step = u.get("motorized_by_step", list, None)
    entry = u.int("entry_step", 0)
    if not 0 <= entry < len(steps):
        raise u.fail("entry_step", f"must name one of the {len(steps)} faces (0 is the full one)")
    if by_step is not None:
        if len(by_step) != len(steps) or not all(isinstance(b, bool) for b in by_step):
            raise u.fail("motorized_by_step", f"one true/false per step ({len(steps)})")
        if by_step[entry] != u.bool("mechanized", False):
            raise u.fail("mechanized", "must say how the face it enters on moves (motorized_by_step[entry_step])")
    if "loss_steps" in u.data and u.int("loss_steps") != 0:
        raise u.fail("loss_steps", "only 0 is written (a counter worth no step, 12.5); otherwise the steps count")
    if utype == "air":
        for key in ("air_columns", "air_range"):
            if u.int(key) < 1:
                raise u.fail(key, "an air corps gives at least one column and reaches at least one hex (11)")
    else:
        for key in ("air_columns", "air_range"):
            if key in u.data:
                raise u.fail(key, f"only an air corps has {key} (11)")
    for key in ("die_support", "drop_range"):
        if key in u.data and u.int(key) < 1:
            raise u.fail(key, "must be at least 1")
    if "drop_range" in u.data and utype != "airborne":
        raise u.fail("drop_range", "only airborne units drop (12.5)")
    for key in ("static", "guards", "permanent", "replenish"):
        u.bool(key, False)
    if u.bool("permanent", False) and utype != "fort":
        raise u.fail("permanent", "only a fort is permanent (12.4)")
    if "rebuild" in u.data and u.str("rebuild") not in REBUILD:
        raise u.fail("rebuild", f"rebuild is {one_of(REBUILD)}")
    values = u.strs("reconstructed_values", [])
    for i, v in enumerate(values):
        if v not in RECONSTRUCTED_VALUES:
            raise u.fail(f"reconstructed_values[{i}]", f"'{v}' is not a counter value ({', '.join(RECONSTRUCTED_VALUES)})")
    if bool(values) != u.bool("reconstructed", False):
        raise u.fail("reconstructed_values", "a counter is reconstructed exactly when it names the values that are ours")

