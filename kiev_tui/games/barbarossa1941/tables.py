"""Barbarossa 1941's charts and numbers (data/barbarossa1941/tables.toml), checked and typed.

``check_tables`` refuses a bad file with a DataError naming file, key and reason (``kiev-tui
validate`` calls it); ``load_tables`` gives the rule system frozen values: the Combat Results
Table (6), the Terrain Effects Chart (5, 12.10), the weather calendar (12.3, 15.3) and the
figures of the other cases.  Every value we supplied is marked reconstructed in the file and
kept so here (``reconstructed`` sets), so a face can show which numbers are the book's.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple, get_type_hints

from kiev_tui.engine.crt import ODDS, CombatTable
from kiev_tui.engine.hexes import Grid, HexError
from kiev_tui.engine.tomlio import Reader, load_toml
from kiev_tui.games.barbarossa1941.schema import SCHEMA

#: The map's numbering (the map helper's [map] parity; fixed for this game): the Kerch check.
GRID = Grid("odd_low", 1, 1)
RESULT_RE = re.compile(r"(?:A([1-3]))?(?:D([1-3]))?")
ODDS_RE = re.compile(r"([1-9][0-9]?):([1-9][0-9]?)")
ZONES = ("north", "south")


# ------------------------------------------------------------------------------------ the CRT


class Result(NamedTuple):
    """Step losses of one combat result (6): the attacker applies his first."""

    attacker: int
    defender: int

    def __str__(self) -> str:
        return (f"A{self.attacker}" if self.attacker else "") + (f"D{self.defender}" if self.defender else "")


def parse_result(text: str) -> Result | None:
    """'A1D2' -> Result(1, 2); None for anything that is not a result (an empty cell too)."""
    m = RESULT_RE.fullmatch(text)
    if m is None or not text:
        return None
    return Result(int(m.group(1) or 0), int(m.group(2) or 0))


def odds_value(column: str) -> float:
    """'3:2' -> 1.5, the least attack-to-defence ratio that reads this column."""
    a, d = column.split(":")
    return int(a) / int(d)


@dataclass(frozen=True, slots=True)
class CRT:
    columns: tuple[str, ...]
    rows: tuple[tuple[Result, ...], ...]  # rows[die - 1][column index]
    reconstructed_cells: frozenset[tuple[int, str]]  # (die, column) we supplied
    below_lowest: str
    above_highest: str
    die_min: int
    die_max: int
    quality_shift_limit: int
    two_dice_from_steps: int
    two_dice: str
    reconstructed: frozenset[str]

    @property
    def reader(self) -> CombatTable:
        """The engine's CRT reader over these columns, clamps and die rows (6)."""
        return CombatTable(self.columns, ODDS, self.above_highest, self.below_lowest, self.die_min, self.die_max)

    def column_index(self, attack: float, defense: float) -> int:
        """The odds column before shifts, fractions to the defender (6); off-chart odds clamp."""
        return self.reader.column_index(attack, defense)

    def shifted(self, index: int, shift: int) -> int:
        """Move ``shift`` columns (negative toward the defender); shifts stop at the ends (6)."""
        return self.reader.shifted(index, shift)

    def quality_shift(self, attacker_quality: int, defender_quality: int) -> int:
        """The assault leaders' quality difference as columns, within the book's -4..+4 (6)."""
        limit = self.quality_shift_limit
        return max(-limit, min(limit, attacker_quality - defender_quality))

    def dice(self, larger_side_steps: int) -> int:
        """How many dice the attack rolls: one, or two from 7 steps on the larger side (6)."""
        return 2 if larger_side_steps >= self.two_dice_from_steps else 1

    def result(self, index: int, die: int) -> Result:
        """The result in column ``index`` for a modified roll (clamped to die_min..die_max)."""
        return self.rows[self.reader.row(die) - 1][index]

    def cell(self, column: str, die: int) -> Result:
        return self.rows[die - 1][self.columns.index(column)]

    def is_reconstructed(self, column: str, die: int) -> bool:
        return (die, column) in self.reconstructed_cells


# ------------------------------------------------------------------------------------ the TEC


@dataclass(frozen=True, slots=True)
class TerrainEffect:
    """One line of the Terrain Effects Chart for a hex terrain or a settlement (5, 12.10)."""

    name: str
    mp_nonmotorized: int | None  # None: a settlement, which uses the other terrain of its hex
    mp_motorized: int | None
    shift: int = 0  # columns for every attack on the hex
    shift_motorized: int = 0  # columns only when a motorized unit attacks
    halve_motorized: bool = False
    attacker_min_loss: int = 0
    overrun: bool = True  # 7.1
    zoc_into: bool = True  # 4
    passable: bool = True
    passable_in: tuple[str, ...] = ()  # weather in which an impassable hex may be crossed
    end_move: bool = True  # a move may stop here
    reconstructed: frozenset[str] = frozenset()

    def combat_shift(self, motorized_attacking: bool) -> int:
        return self.shift + (self.shift_motorized if motorized_attacking else 0)


@dataclass(frozen=True, slots=True)
class HexsideEffect:
    """A river, lake or strait hexside (5, 4, 7.1, 12.10)."""

    name: str
    mp_extra_into_zoc: int = 0
    mp_extra_in: tuple[str, ...] = ()
    halve_attack_across: bool = False
    overrun: bool = True
    passable: bool = True
    passable_in: tuple[str, ...] = ()
    blocks_zoc: bool = False
    blocks_attack: bool = False
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Kerch:
    hexes: tuple[str, str]
    sea: str
    mp_extra: int


@dataclass(frozen=True, slots=True)
class Fortification:
    die: int
    lost_on_enemy_entry: bool


@dataclass(frozen=True, slots=True)
class TEC:
    terrain: dict[str, TerrainEffect]
    settlement: dict[str, TerrainEffect]
    hexside: dict[str, HexsideEffect]
    shift_combine: str
    kerch: Kerch
    fortification: Fortification
    reconstructed: frozenset[str]

    def hex_shift(self, terrain: str, settlement: str | None, motorized_attacking: bool) -> int:
        """Columns the defender's hex gives: terrain and city do not add, the larger counts (5)."""
        shifts = [self.terrain[terrain].combat_shift(motorized_attacking)]
        if settlement:
            shifts.append(self.settlement[settlement].combat_shift(motorized_attacking))
        return min(shifts)  # shifts are <= 0: the most negative is the defender's best

    def halves_motorized(self, terrain: str, settlement: str | None) -> bool:
        if settlement and self.settlement[settlement].halve_motorized:
            return True
        return self.terrain[terrain].halve_motorized

    def settle(self, total: Result, terrain: str, settlement: str | None) -> Result:
        """A combat's summed result after the hex's minimum attacker loss ("All: A1", 5)."""
        floor = self.terrain[terrain].attacker_min_loss
        if settlement:
            floor = max(floor, self.settlement[settlement].attacker_min_loss)
        return Result(max(total.attacker, floor), total.defender)


# -------------------------------------------------------------------------------- the weather


@dataclass(frozen=True, slots=True)
class WeatherTurn:
    turn: int
    start: date
    end: date
    north: str
    south: str
    reconstructed: frozenset[str]


@dataclass(frozen=True, slots=True)
class WeatherEffect:
    """What a condition does (12.3, 5.2, 5.3); an MP of 0 keeps the unit's own allowance."""

    name: str
    mp_infantry: int
    mp_motorized: int
    mp_cavalry: int
    exploitation: str  # "half", "fixed" or "none"
    exploitation_mp: int
    reaction: bool
    reaction_range: int
    air_support: bool
    german_air_bonus: int
    attack_die: int
    attack_die_exempt: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Weather:
    conditions: tuple[str, ...]
    zone_areas: dict[str, str]  # "north"/"south" -> the map area of that zone
    turns: dict[int, WeatherTurn]
    effects: dict[str, WeatherEffect]

    def condition(self, turn: int, zone: str) -> str:
        entry = self.turns[turn]
        return entry.north if zone == "north" else entry.south

    def effect(self, turn: int, zone: str) -> WeatherEffect:
        return self.effects[self.condition(turn, zone)]


# -------------------------------------------------------------------------------- the figures


def _lo(n: int) -> Any:
    return dataclasses.field(metadata={"lo": n})


@dataclass(frozen=True, slots=True)
class Stacking:
    max_steps: int  # 3
    zoc_min_steps: int  # 4
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Movement:
    leave_zoc_mp: int  # 5.1
    strategic_bonus_mp: int  # 5.4
    overrun_extra_mp: int  # 7
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Reaction:
    max_hexes: int  # 5.3
    max_hexes_bad_weather: int
    move_divisor: int = _lo(1)
    round_up: bool
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Exploitation:
    divisor: int = _lo(1)  # 5.2
    round_up: bool
    freeze_mp: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Combat:
    die_turn1_german: int = _lo(-6)  # 12.8
    die_isolated_attacker: int = _lo(-6)  # 8.1
    die_isolated_defender: int = _lo(-6)
    support_die: int  # 12.5, 12.9
    zhukov_attack_die: int  # 12.13
    zhukov_attack_own_loss: int
    zhukov_defense_loss_each: int
    zhukov_from_vp: int
    retreat_instead_of_step: int = _lo(1)  # 6
    retreat_zoc_extra_loss: int  # 6.1
    reconstructed: frozenset[str] = frozenset()


class Complement(NamedTuple):
    """A row of 9.22: from_turn..to_turn, with at least min_cities held, gives steps."""

    from_turn: int
    to_turn: int
    min_cities: int
    steps: int
    reconstructed: bool


@dataclass(frozen=True, slots=True)
class Replacements:
    german_infantry_ratio: int = _lo(1)  # 9.21
    german_motorized_ratio: int = _lo(1)
    soviet_infantry_ratio: int = _lo(1)
    soviet_turn1_max: int  # 12.8
    german_infantry_pool: int  # 9.22
    german_infantry_per_turn: int
    german_motorized_pool: int
    german_motorized_per_turn: int
    finnish_pool: int
    finnish_from_turn: int
    romanian_pool: int
    romanian_from_turn: int
    italian_pool: int
    slovak_pool: int
    hungarian_pool: int
    fjd_infantry_steps: int  # 12.5
    rail_hexes_german: int  # 9.2
    rebuilt_steps: int = _lo(1)
    not_counted: tuple[str, ...]
    soviet_infantry: tuple[Complement, ...] = ()
    soviet_motorized: tuple[Complement, ...] = ()
    reconstructed: frozenset[str] = frozenset()

    def soviet_complement(self, rows: tuple[Complement, ...], turn: int, cities: int) -> int:
        """Steps of the Soviet complement (9.22) on ``turn`` with ``cities`` held; 0 if none."""
        for row in rows:
            if row.from_turn <= turn <= row.to_turn and cities >= row.min_cities:
                return row.steps
        return 0


@dataclass(frozen=True, slots=True)
class Rail:
    axis_points: int  # 10
    soviet_points: int
    points_per_step: int  # 10.1
    max_hexes: int
    marker_advance: int  # 10.3
    segment_max: int
    partisan_hex_cost: int  # 12.7
    axis_markers: int
    min_points_per_unit: int  # 10.1: what a unit worth no step pays (rail.py)
    partisan_slows: str  # 12.7: the side whose rail movement partisans slow
    axis_from_turn: int  # 2.1
    soviet_from_turn: int  # 2.2
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Air:
    axis_corps: int  # 11
    soviet_corps: int
    minor_city_capacity: int  # 11.1
    major_city_capacity: int
    axis_range: int
    soviet_range: int
    per_combat_per_side: int  # 11.2
    missions_per_turn: int
    return_after_turns: int  # 11.1
    german_bonus: int  # 12.3
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Forts:
    soviet_per_turn: int  # 12.4
    soviet_from_turn: int
    soviet_per_turn_mobilized: int
    mobilization_vp: int  # 13
    soviet_max: int
    soviet_free_moves_per_turn: int
    axis_per_turn: int
    axis_from_turn: int
    axis_max: int
    die: int = _lo(-6)
    sevastopol_steps: int
    sevastopol_quality: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Artillery:
    axis_points: int  # 12.12
    axis_max_per_turn: int
    soviet_points: int
    soviet_from_turn: int
    soviet_max_per_turn: int
    per_combat_per_side: int
    losses: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class CoupDeMain:
    success_min: int  # 12.6
    allowed_by_turn: tuple[int, ...]  # [turn 1, turn 2, ...]; later turns none
    reconstructed: frozenset[str] = frozenset()

    def allowed(self, turn: int) -> int:
        return self.allowed_by_turn[turn - 1] if 1 <= turn <= len(self.allowed_by_turn) else 0


@dataclass(frozen=True, slots=True)
class Naval:
    max_steps: int  # 12.1
    baltic_ports: int  # 8.2
    baltic_superiority: int
    black_sea_ports: int
    black_sea_superiority: int
    port_supply_steps: int
    city_supply_steps: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Airborne:
    soviet_initial_corps: int  # 12.5
    soviet_initial_removed_after_turn: int
    soviet_guards_turns: tuple[int, ...]
    soviet_drop_range: int
    soviet_lost_empty_min: int
    soviet_lost_occupied_min: int
    german_from_turn: int
    german_drop_range: int
    german_survives_empty_max: int
    german_survives_occupied_max: int
    drops_per_turn: int
    attack_die: int = _lo(-6)
    defense_die: int = _lo(-6)
    destroyed_by_quality: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class BalticFleet:
    steps: int  # 12.9
    range: int
    bases: tuple[str, ...]
    support_die: int
    mined_when_axis_holds: tuple[str, ...]
    mined_hexes: tuple[str, ...]
    air_attack_hit_max: int
    air_attack_weather: tuple[str, ...]
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Supply:
    axis_cities: tuple[str, ...]  # 8.2: the major cities that supply the Axis
    axis_rail_edge: str  # 8.2: rail hexes leaving this map edge supply the Axis too
    limited_city: str  # 8.2: Helsinki supplies non-Finnish units only ...
    limited_city_nation: str  # ... its own nation's units always
    limited_city_needs: tuple[str, ...]  # ... and the others once the Axis holds these cities
    soviet_rail_edge: str  # 8.2: a major city joined by rail to this edge supplies the Soviets
    russian_major_cities: tuple[str, ...]  # 8.2, 12.7: every Soviet major city but Lvov and Riga
    naval_seas: tuple[str, ...]  # 8.2, 12.1: the seas of naval superiority (supply.py) ...
    port_areas: tuple[str, ...]  # ... and the map area of each one's ports
    isolation_loss_per_stack: int  # 8.1
    hex_trace_mp: int  # 12.4, 12.5: the MP a hex's own supply trace has
    blitzkrieg_weather: tuple[str, ...]  # 14.3.5 (optional)
    blitzkrieg_type: str
    blitzkrieg_loss: int
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Entry:
    """9.1: where each Axis nation's reinforcements enter (a place name or a hex id), one a
    turn per city; Soviet arrivals enter where the scenario says."""

    german: tuple[str, ...]
    romanian: tuple[str, ...]
    italian: tuple[str, ...]
    hungarian: tuple[str, ...]
    finnish: tuple[str, ...]
    reconstructed: frozenset[str] = frozenset()


class Level(NamedTuple):
    name: str
    max_vp: int


class VPEvent(NamedTuple):
    vp: int
    id: str


@dataclass(frozen=True, slots=True)
class Victory:
    total_vp: int  # 13
    finnish_zone_vp: int
    finnish_zone_area: str
    sudden_death_vp: int
    sudden_death_last_turn: int
    historical_vp: int
    militia_vp: int  # 12.11
    militia_units: int
    partisan_vp: int  # 12.7
    partisan_units: int
    partisan_depth: int
    objectives: dict[str, int] = dataclasses.field(default_factory=dict)
    levels: tuple[Level, ...] = ()
    events: tuple[VPEvent, ...] = ()
    reconstructed: frozenset[str] = frozenset()

    def level(self, vp: int) -> str:
        """The turn-10 result for an Axis total of ``vp`` (13)."""
        for lv in self.levels:
            if vp <= lv.max_vp:
                return lv.name
        return self.levels[-1].name

    def sudden_death(self, vp: int, turn: int) -> bool:
        return vp >= self.sudden_death_vp and turn <= self.sudden_death_last_turn


@dataclass(frozen=True, slots=True)
class Tables:
    crt: CRT
    tec: TEC
    weather: Weather
    stacking: Stacking
    movement: Movement
    reaction: Reaction
    exploitation: Exploitation
    combat: Combat
    replacements: Replacements
    rail: Rail
    air: Air
    forts: Forts
    artillery: Artillery
    coup_de_main: CoupDeMain
    naval: Naval
    airborne: Airborne
    baltic_fleet: BalticFleet
    victory: Victory
    supply: Supply
    entry: Entry


#: The simple tables of figures: each key of the file is a field of the class.
FIGURES: dict[str, type] = {
    "stacking": Stacking, "movement": Movement, "reaction": Reaction, "exploitation": Exploitation,
    "combat": Combat, "replacements": Replacements, "rail": Rail, "air": Air, "forts": Forts,
    "artillery": Artillery, "coup_de_main": CoupDeMain, "naval": Naval, "airborne": Airborne,
    "baltic_fleet": BalticFleet, "victory": Victory, "supply": Supply, "entry": Entry,
}
EDGES = ("north", "south", "east", "west")  # GameMap.edges_of
#: Keys of those tables read by their own code, not field by field.
NESTED = {"replacements": ("soviet_infantry", "soviet_motorized"), "victory": ("objectives", "level", "event")}
TOP_KEYS = ("crt", "tec", "weather", *FIGURES, "campaign")  # [campaign] has its own reader (read_campaign)


# ------------------------------------------------------------------------------------ reading


def load_tables(path: str | Path) -> Tables:
    """Read and check tables.toml; DataError names the file, the key and the reason."""
    return read_tables(path, load_toml(path))


def check_tables(path: str | Path, data: dict[str, Any]) -> None:
    """The hook ``kiev-tui validate`` calls (data.py): refuse a bad tables.toml, [campaign] included."""
    read_tables(path, data)
    read_campaign(path, data)


def read_tables(path: str | Path, data: dict[str, Any]) -> Tables:
    root = Reader(path, data)
    root.only(TOP_KEYS)
    for key in TOP_KEYS:
        if key not in root.data:
            raise root.fail(key, "missing table")
    crt = _read_crt(root.table("crt"))
    weather = _read_weather(root.table("weather"))
    tec = _read_tec(root.table("tec"), weather.conditions)
    figures = {name: _read_figures(root.table(name), cls) for name, cls in FIGURES.items()}
    figures["replacements"] = dataclasses.replace(figures["replacements"], **_read_complements(root.table("replacements")))
    figures["victory"] = dataclasses.replace(figures["victory"], **_read_victory_lists(root.table("victory")))
    _check_cross(root, figures, weather)
    return Tables(crt=crt, tec=tec, weather=weather, **figures)


def _flags(r: Reader, known: set[str] | list[str]) -> frozenset[str]:
    """A table's ``reconstructed`` list: every name must be one of its own keys."""
    names = r.strs("reconstructed", [])
    for i, name in enumerate(names):
        if name not in known or name == "reconstructed":
            raise r.fail(f"reconstructed[{i}]", f"'{name}' is not a key of this table")
        if name not in r.data:
            raise r.fail(f"reconstructed[{i}]", f"'{name}' is marked reconstructed but the table does not set it")
    return frozenset(names)


def _read_crt(r: Reader) -> CRT:
    keys = ["die_sides", "columns", "round_toward", "below_lowest", "above_highest", "die_min", "die_max",
            "quality_shift_limit", "two_dice_from_steps", "two_dice", "row", "reconstructed"]
    r.only(keys)
    sides = r.int("die_sides")
    if sides != 6:
        raise r.fail("die_sides", f"the game rolls a six-sided die (6), not a d{sides}")
    columns = r.strs("columns")
    if len(columns) < 2:
        raise r.fail("columns", "the CRT needs at least two odds columns")
    last = 0.0
    for i, c in enumerate(columns):
        if not ODDS_RE.fullmatch(c):
            raise r.fail(f"columns[{i}]", f"'{c}' is not an odds column like 3:2")
        if odds_value(c) <= last:
            raise r.fail(f"columns[{i}]", f"'{c}' does not give the attacker better odds than the column before it")
        last = odds_value(c)
    if r.str("round_toward") != "defender":
        raise r.fail("round_toward", "the odds are rounded in the defender's favour (6): write \"defender\"")
    clamp = {}
    for key in ("below_lowest", "above_highest"):
        clamp[key] = r.str(key)
        if clamp[key] not in columns:
            raise r.fail(key, f"'{clamp[key]}' is not one of the CRT's columns")
    die_min, die_max = r.int("die_min"), r.int("die_max")
    if not 1 <= die_min <= die_max <= sides:
        raise r.fail("die_min", f"die_min {die_min} and die_max {die_max} must lie within 1..{sides}, in order")
    limit = r.int("quality_shift_limit")
    if limit < 0:
        raise r.fail("quality_shift_limit", "must not be negative")
    two = r.int("two_dice_from_steps")
    if two < 2:
        raise r.fail("two_dice_from_steps", "a step count of at least 2")
    reading = r.str("two_dice")
    if reading != "two_results":
        raise r.fail("two_dice", f"'{reading}' is not a reading this program knows (two_results)")
    rows: dict[int, tuple[Result, ...]] = {}
    cells: set[tuple[int, str]] = set()
    for row in r.tables("row", required=True):
        row.only(["die", "results", "reconstructed"])
        die = row.int("die")
        if not 1 <= die <= sides:
            raise row.fail("die", f"die roll {die} is not 1-{sides}")
        if die in rows:
            raise row.fail("die", f"die roll {die} appears twice")
        texts = row.strs("results")
        if len(texts) != len(columns):
            raise row.fail("results", f"{len(texts)} results for {len(columns)} columns")
        results = []
        for i, text in enumerate(texts):
            res = parse_result(text)
            if res is None:
                raise row.fail(f"results[{i}]", f"'{text}' is not a result like A1, A1D2 or D2")
            results.append(res)
        flags = row.get("reconstructed", list)
        if len(flags) != len(texts) or not all(isinstance(f, bool) for f in flags):
            raise row.fail("reconstructed", "one true or false per result")
        rows[die] = tuple(results)
        cells.update((die, columns[i]) for i, f in enumerate(flags) if f)
    missing = [d for d in range(1, sides + 1) if d not in rows]
    if missing:
        raise r.fail("row", f"no row for die roll(s) {', '.join(map(str, missing))}")
    return CRT(tuple(columns), tuple(rows[d] for d in range(1, sides + 1)), frozenset(cells),
               clamp["below_lowest"], clamp["above_highest"], die_min, die_max, limit, two, reading,
               _flags(r, keys))


_TERRAIN_KEYS = {f.name for f in dataclasses.fields(TerrainEffect)} - {"name"}
_HEXSIDE_KEYS = {f.name for f in dataclasses.fields(HexsideEffect)} - {"name"}


def _weathers(r: Reader, key: str, conditions: tuple[str, ...]) -> tuple[str, ...]:
    names = r.strs(key, [])
    for i, n in enumerate(names):
        if n not in conditions:
            raise r.fail(f"{key}[{i}]", f"'{n}' is not a weather condition ({', '.join(conditions)})")
    return tuple(names)


def _shift(r: Reader, key: str) -> int:
    value = r.int(key, 0)
    if not -3 <= value <= 0:
        raise r.fail(key, f"a terrain shift moves 0 to 3 columns toward the defender (0..-3), not {value}")
    return value


def _terrain(r: Reader, name: str, settlement: bool, conditions: tuple[str, ...]) -> TerrainEffect:
    r.only(sorted(_TERRAIN_KEYS - ({"mp_nonmotorized", "mp_motorized"} if settlement else set())))
    mp: dict[str, int | None] = {"mp_nonmotorized": None, "mp_motorized": None}
    passable = r.bool("passable", True)
    if passable and name in SCHEMA.impassable_terrains:
        raise r.fail("passable", f"'{name}' is impassable in the game's vocabulary: write false")
    passable_in = _weathers(r, "passable_in", conditions)
    if not settlement:
        for key in mp:
            if passable or passable_in:  # a unit may enter it, so it needs a cost
                mp[key] = r.int(key)
                if mp[key] < 1:  # type: ignore[operator]
                    raise r.fail(key, f"entering costs at least 1 MP, not {mp[key]}")
            elif key in r.data:
                raise r.fail(key, "a hex no unit may ever enter has no MP cost")
    floor = r.int("attacker_min_loss", 0)
    if not 0 <= floor <= 3:
        raise r.fail("attacker_min_loss", f"0 to 3 steps, not {floor}")
    return TerrainEffect(
        name, mp["mp_nonmotorized"], mp["mp_motorized"], _shift(r, "shift"), _shift(r, "shift_motorized"),
        r.bool("halve_motorized", False), floor, r.bool("overrun", True), r.bool("zoc_into", True),
        passable, passable_in, r.bool("end_move", True), _flags(r, _TERRAIN_KEYS))


def _read_tec(r: Reader, conditions: tuple[str, ...]) -> TEC:
    keys = ["shift_combine", "terrain", "settlement", "hexside", "kerch", "fortification", "reconstructed"]
    r.only(keys)
    combine = r.str("shift_combine")
    if combine != "largest":
        raise r.fail("shift_combine", f"'{combine}' is not a way this program combines shifts (largest)")
    groups: dict[str, dict[str, TerrainEffect]] = {}
    for group, names in (("terrain", SCHEMA.terrains), ("settlement", SCHEMA.settlements)):
        g = r.table(group)
        g.only(names)
        groups[group] = {}
        for name in names:
            if name not in g.data:
                raise g.fail(name, f"no chart line for {group} '{name}' (every {group} of the game needs one)")
            groups[group][name] = _terrain(g.table(name), name, group == "settlement", conditions)
    hexsides: dict[str, HexsideEffect] = {}
    h = r.table("hexside")
    wanted = [f"{k}_river" for k in SCHEMA.river_kinds] + sorted(SCHEMA.impassable_hexsides)
    h.only(wanted)
    for name in wanted:
        if name not in h.data:
            raise h.fail(name, f"no chart line for hexside '{name}'")
        e = h.table(name)
        e.only(sorted(_HEXSIDE_KEYS))
        extra = e.int("mp_extra_into_zoc", 0)
        if extra < 0:
            raise e.fail("mp_extra_into_zoc", "must not be negative")
        side = HexsideEffect(name, extra, _weathers(e, "mp_extra_in", conditions), e.bool("halve_attack_across", False),
                             e.bool("overrun", True), e.bool("passable", True), _weathers(e, "passable_in", conditions),
                             e.bool("blocks_zoc", False), e.bool("blocks_attack", False), _flags(e, _HEXSIDE_KEYS))
        if name in SCHEMA.impassable_hexsides and side.passable:
            raise e.fail("passable", f"'{name}' is impassable in the game's vocabulary: write false")
        hexsides[name] = side
    k = r.table("kerch")
    k.only(["hexes", "sea", "mp_extra"])
    pair = k.strs("hexes")
    if len(pair) != 2:
        raise k.fail("hexes", "the two hexes on either side of the strait")
    try:
        a, b = GRID.parse(pair[0]), GRID.parse(pair[1])
    except HexError as exc:
        raise k.fail("hexes", str(exc)) from None
    if a.distance(b) != 1:
        raise k.fail("hexes", f"{pair[0]} and {pair[1]} are not neighbours, so no hexside lies between them")
    sea = k.str("sea")
    if sea not in ("baltic", "black_sea"):
        raise k.fail("sea", f"'{sea}' is not a sea of naval superiority (baltic, black_sea)")
    mp_extra = k.int("mp_extra")
    if mp_extra < 0:
        raise k.fail("mp_extra", "must not be negative")
    f = r.table("fortification")
    f.only(["die", "lost_on_enemy_entry"])
    fort_die = f.int("die")
    if not -6 < fort_die <= 0:
        raise f.fail("die", f"a fort helps the defender: a die modifier of 0 or less, not {fort_die}")
    return TEC(groups["terrain"], groups["settlement"], hexsides, combine, Kerch((pair[0], pair[1]), sea, mp_extra),
               Fortification(fort_die, f.bool("lost_on_enemy_entry")), _flags(r, keys))


_EFFECT_KEYS = {f.name for f in dataclasses.fields(WeatherEffect)} - {"name"}


def _read_weather(r: Reader) -> Weather:
    r.only(["conditions", "zone_areas", "turn", "effect"])
    conditions = tuple(r.strs("conditions"))
    if len(set(conditions)) != len(conditions) or not conditions:
        raise r.fail("conditions", "a list of different weather conditions")
    zones = r.table("zone_areas")
    zones.only(ZONES)
    areas = {z: zones.str(z) for z in ZONES}
    turns: dict[int, WeatherTurn] = {}
    previous: WeatherTurn | None = None
    for t in r.tables("turn", required=True):
        t.only(["turn", "start", "end", *ZONES, "reconstructed"])
        n = t.int("turn")
        expected = previous.turn + 1 if previous else 1
        if n != expected:
            raise t.fail("turn", f"turn {n} where turn {expected} should come (turns run 1, 2, 3... in order)")
        days: dict[str, date] = {}
        for key in ("start", "end"):
            try:
                days[key] = date.fromisoformat(t.str(key))
            except ValueError:
                raise t.fail(key, f"'{t.data[key]}' is not a date like 1941-06-22") from None
        if days["end"] < days["start"]:
            raise t.fail("end", "the turn ends before it starts")
        if previous and days["start"] != previous.end + timedelta(days=1):
            raise t.fail("start", f"turn {n} must start the day after turn {previous.turn} ends ({previous.end})")
        sky = {}
        for z in ZONES:
            sky[z] = t.str(z)
            if sky[z] not in conditions:
                raise t.fail(z, f"'{sky[z]}' is not a weather condition ({', '.join(conditions)})")
        previous = WeatherTurn(n, days["start"], days["end"], sky["north"], sky["south"],
                               _flags(t, ["start", "end", *ZONES]))
        turns[n] = previous
    effects: dict[str, WeatherEffect] = {}
    e = r.table("effect")
    e.only(conditions)
    for c in conditions:
        if c not in e.data:
            raise e.fail(c, f"no effects given for weather '{c}'")
        x = e.table(c)
        x.only(sorted(_EFFECT_KEYS))
        values: dict[str, Any] = {}
        for key in ("mp_infantry", "mp_motorized", "mp_cavalry", "exploitation_mp", "reaction_range",
                    "german_air_bonus"):
            values[key] = x.int(key)
            if values[key] < 0:
                raise x.fail(key, "must not be negative")
        values["attack_die"] = x.int("attack_die")
        if not -6 < values["attack_die"] <= 0:
            raise x.fail("attack_die", f"weather never helps the attacker's die: 0 or less, not {values['attack_die']}")
        mode = x.str("exploitation")
        if mode not in ("half", "fixed", "none"):
            raise x.fail("exploitation", f"'{mode}' is not half, fixed or none")
        if (mode == "fixed") != (values["exploitation_mp"] > 0):
            raise x.fail("exploitation_mp", "an MP above 0 exactly when exploitation is \"fixed\"")
        air = x.bool("air_support")
        if air != (values["german_air_bonus"] > 0):
            raise x.fail("german_air_bonus", "above 0 exactly when air support is allowed")
        effects[c] = WeatherEffect(c, exploitation=mode, reaction=x.bool("reaction"), air_support=air,
                                   attack_die_exempt=tuple(x.strs("attack_die_exempt", [])), **values)
    return Weather(conditions, areas, turns, effects)


def _read_figures(r: Reader, cls: type) -> Any:
    """A table of numbers whose keys are exactly the fields of ``cls`` (all required)."""
    nested = NESTED.get(r.path, ())
    fields = [f for f in dataclasses.fields(cls) if f.name != "reconstructed" and f.name not in
              ("objectives", "levels", "events", "soviet_infantry", "soviet_motorized")]
    names = [f.name for f in fields]
    r.only([*names, *nested, "reconstructed"])
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in fields:
        kind = hints[f.name]
        if kind is int:
            values[f.name] = r.int(f.name)
            lo = f.metadata.get("lo", 0)
            if values[f.name] < lo:
                raise r.fail(f.name, f"{values[f.name]} is below the least sensible value, {lo}")
        elif kind is bool:
            values[f.name] = r.bool(f.name)
        elif kind is str:
            values[f.name] = r.str(f.name)
        elif kind == tuple[int, ...]:
            values[f.name] = tuple(r.ints(f.name))
            if any(v < 0 for v in values[f.name]):
                raise r.fail(f.name, "no value may be negative")
        elif kind == tuple[str, ...]:
            values[f.name] = tuple(r.strs(f.name))
        else:  # a field type this reader does not know is a bug here, not in the file
            raise TypeError(f"{cls.__name__}.{f.name}: unsupported type {kind}")
    return cls(**values, reconstructed=_flags(r, names))


def _complement_rows(r: Reader, key: str) -> tuple[Complement, ...]:
    rows = []
    for row in r.tables(key, required=True):
        row.only(["from_turn", "to_turn", "min_cities", "steps", "reconstructed"])
        vals = [row.int(k) for k in ("from_turn", "to_turn", "min_cities", "steps")]
        if any(v < 0 for v in vals):
            raise row.fail("", "turns, cities and steps are never negative")
        if vals[0] > vals[1]:
            raise row.fail("to_turn", f"ends (turn {vals[1]}) before it starts (turn {vals[0]})")
        rows.append(Complement(*vals, reconstructed=row.bool("reconstructed", False)))
    for i in range(1, len(rows)):
        a, b = rows[i - 1], rows[i]
        if (a.from_turn, a.to_turn) == (b.from_turn, b.to_turn) and b.min_cities >= a.min_cities:
            raise r.fail(f"{key}[{i}].min_cities", "rows of the same turns go from the most cities to the fewest")
    return tuple(rows)


def _read_complements(r: Reader) -> dict[str, Any]:
    return {"soviet_infantry": _complement_rows(r, "soviet_infantry"),
            "soviet_motorized": _complement_rows(r, "soviet_motorized")}


def _read_victory_lists(r: Reader) -> dict[str, Any]:
    o = r.table("objectives")
    objectives = {}
    for name in o.keys():
        objectives[name] = o.int(name)
        if objectives[name] < 1:
            raise o.fail(name, f"an objective is worth at least 1 VP, not {objectives[name]}")
    levels = []
    for lv in r.tables("level", required=True):
        lv.only(["name", "max_vp"])
        levels.append(Level(lv.str("name"), lv.int("max_vp")))
        if len(levels) > 1 and levels[-1].max_vp <= levels[-2].max_vp:
            raise lv.fail("max_vp", "levels go from the fewest Axis VP to the most")
    events = []
    for ev in r.tables("event", required=True):
        ev.only(["vp", "id"])
        events.append(VPEvent(ev.int("vp"), ev.str("id")))
        if len(events) > 1 and events[-1].vp <= events[-2].vp:
            raise ev.fail("vp", "events go from the fewest VP to the most, each at its own total")
    return {"objectives": objectives, "levels": tuple(levels), "events": tuple(events)}


def _check_cross(root: Reader, figures: dict[str, Any], weather: Weather) -> None:
    """Values that must agree with each other across the file."""
    v: Victory = figures["victory"]
    total = sum(v.objectives.values()) + v.finnish_zone_vp
    if total != v.total_vp:
        raise root.fail("victory.total_vp", f"the objectives and the Finnish zone add up to {total}, not {v.total_vp}")
    if v.levels and v.levels[-1].max_vp < v.total_vp:
        raise root.fail("victory.level", f"the last level must reach {v.total_vp} VP, every total the Axis can hold")
    if v.sudden_death_last_turn not in weather.turns:
        raise root.fail("victory.sudden_death_last_turn", f"turn {v.sudden_death_last_turn} is not on the calendar")
    fleet: BalticFleet = figures["baltic_fleet"]
    for i, c in enumerate(fleet.air_attack_weather):
        if c not in weather.conditions:
            raise root.fail(f"baltic_fleet.air_attack_weather[{i}]", f"'{c}' is not a weather condition")
    for i, hexid in enumerate(fleet.mined_hexes):
        try:
            GRID.parse(hexid)
        except HexError as exc:
            raise root.fail(f"baltic_fleet.mined_hexes[{i}]", str(exc)) from None
    sup: Supply = figures["supply"]
    for key in ("axis_rail_edge", "soviet_rail_edge"):
        if getattr(sup, key) not in EDGES:
            raise root.fail(f"supply.{key}", f"a map edge is one of {', '.join(EDGES)}")
    if sup.limited_city not in sup.axis_cities:
        raise root.fail("supply.limited_city", f"'{sup.limited_city}' is not one of supply.axis_cities")
    if sup.limited_city_nation not in ("german", "finnish", "romanian", "hungarian", "italian", "slovak"):
        raise root.fail("supply.limited_city_nation", "an Axis nation (units.toml's nation)")
    check_supply_rail(root, figures, weather)
    cdm: CoupDeMain = figures["coup_de_main"]
    if not 1 <= cdm.success_min <= 6:
        raise root.fail("coup_de_main.success_min", f"a d6 roll, 1-6, not {cdm.success_min}")


# ------------------------------------------------------------------ [campaign] (added: arrivals,
# replacements, forts, partisans, militia, victory and optional rules; see read_campaign)


@dataclass(frozen=True, slots=True)
class ArrivalRules:
    hostile_entry: str  # 9.1
    national_per_city: int = _lo(1)
    enemy_zoc_blocks: bool
    air_place: str  # 11
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ReplaceRules:
    steps_per_unit: int = _lo(1)  # 9.2
    rail_adjacent: bool
    in_enemy_zoc: bool
    soviet_rebuild_place: str
    german_rebuild_place: str
    ersatz_cost: int = _lo(1)
    shock_from_turn: int = _lo(1)  # 12.11
    shock_per_turn: int = _lo(1)
    shock_cost_infantry: int = _lo(1)
    shock_replaces_full_army: bool
    mobile_group_cost_motorized: int = _lo(1)
    motorized_cities: tuple[str, ...]  # 9.22
    allied_track: bool  # 9.21
    soviet_motorized_track: bool
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class MilitiaRules:
    from_event: str  # 13, 12.11
    per_city: int = _lo(1)
    back_after_turns: int = _lo(1)
    trigger: str
    soviet_major_cities_only: bool
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PartisanRules:
    from_event: str  # 13, 12.7
    north_last_row: int = _lo(1)
    north_min: int
    one_per_hex: bool
    placed_in_axis_zoc: bool
    back_after_turns: int = _lo(1)
    city_partisan_any_time: bool
    liberated_vp_lost: bool
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class FortRules:
    city_adjacent: bool  # 12.4
    needs_supply: bool
    enemy_zoc_blocks: bool
    one_per_hex: bool
    reconstructed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class VictoryRules:
    finnish_zone_areas: tuple[str, ...]  # 13
    major_needs_garrison: bool
    minor_last_occupant: bool
    events_once: bool
    mandatory_attack_vp: int  # 14.3.1
    mandatory_attack_turns: tuple[int, ...]
    mandatory_attack_divisor: int = _lo(1)
    reconstructed: frozenset[str] = frozenset()


class OptionalRule(NamedTuple):
    """One of 14.3's optional rules: the turns it can act on and the side it favours."""

    id: str
    name: str
    favours: str
    first_turn: int
    last_turn: int


@dataclass(frozen=True, slots=True)
class Campaign:
    """tables.toml's [campaign]: what the arrival, replacement, fort, partisan, victory and
    scenario modules read (9, 11, 12.4, 12.7, 12.11, 13, 14)."""

    arrival: ArrivalRules
    replace: ReplaceRules
    militia: MilitiaRules
    partisans: PartisanRules
    forts: FortRules
    victory: VictoryRules
    optional: tuple[OptionalRule, ...]

    def optional_rule(self, rule_id: str) -> OptionalRule | None:
        return next((o for o in self.optional if o.id == rule_id), None)


CAMPAIGN_FIGURES: dict[str, type] = {
    "arrival": ArrivalRules, "replace": ReplaceRules, "militia": MilitiaRules, "partisans": PartisanRules,
    "forts": FortRules, "victory": VictoryRules,
}
HOSTILE_ENTRY = ("nearest_friendly_city",)  # 9.1
ARRIVAL_PLACES = ("any_city", "any_major_city")  # 11
REBUILD_PLACES = ("any_city", "entry")  # 9.2
MILITIA_TRIGGERS = ("first_adjacent",)  # 12.11


def read_campaign(path: str | Path, data: dict[str, Any]) -> Campaign:
    """tables.toml's [campaign] (DataError naming file, key and reason if it is wrong)."""
    root = Reader(path, data)
    c = root.table("campaign")
    c.only([*CAMPAIGN_FIGURES, "optional"])
    parts = {name: _read_figures(c.table(name), cls) for name, cls in CAMPAIGN_FIGURES.items()}
    arrival: ArrivalRules = parts["arrival"]
    if arrival.hostile_entry not in HOSTILE_ENTRY:
        raise c.table("arrival").fail("hostile_entry", f"'{arrival.hostile_entry}' is not {', '.join(HOSTILE_ENTRY)}")
    if arrival.air_place not in ARRIVAL_PLACES:
        raise c.table("arrival").fail("air_place", f"'{arrival.air_place}' is not {', '.join(ARRIVAL_PLACES)}")
    rep: ReplaceRules = parts["replace"]
    for key in ("soviet_rebuild_place", "german_rebuild_place"):
        if getattr(rep, key) not in REBUILD_PLACES:
            raise c.table("replace").fail(key, f"a rebuilt unit's place is {' or '.join(REBUILD_PLACES)}")
    if parts["militia"].trigger not in MILITIA_TRIGGERS:
        raise c.table("militia").fail("trigger", f"the militia's trigger is {', '.join(MILITIA_TRIGGERS)}")
    vic: VictoryRules = parts["victory"]
    if any(t < 1 for t in vic.mandatory_attack_turns):
        raise c.table("victory").fail("mandatory_attack_turns", "turns are counted from 1")
    optional = []
    ids: set[str] = set()
    for o in c.tables("optional", required=True):
        o.only(["id", "name", "favours", "first_turn", "last_turn"])
        rule = OptionalRule(o.str("id"), o.str("name"), o.str("favours"), o.int("first_turn"), o.int("last_turn"))
        if rule.id in ids:
            raise o.fail("id", f"optional rule {rule.id} is listed twice")
        ids.add(rule.id)
        if rule.favours not in ("axis", "soviet"):
            raise o.fail("favours", "axis or soviet")
        if not 1 <= rule.first_turn <= rule.last_turn:
            raise o.fail("last_turn", "the turns run from first_turn (1 or later) to last_turn")
        optional.append(rule)
    return Campaign(optional=tuple(optional), **parts)


def load_campaign(path: str | Path) -> Campaign:
    return read_campaign(path, load_toml(path))


# ------------------------------------------------------------------- supply and rail (8, 10)


def check_supply_rail(root: Reader, figures: dict[str, Any], weather: Weather) -> None:
    """The keys supply.py and rail.py read must agree with each other and the calendar (8, 10)."""
    sup: Supply = figures["supply"]
    if len(sup.naval_seas) != len(sup.port_areas):
        raise root.fail("supply.port_areas", "one map area of ports for each of supply.naval_seas, in order")
    for i, sea in enumerate(sup.naval_seas):
        if sea not in ("baltic", "black_sea"):
            raise root.fail(f"supply.naval_seas[{i}]", f"'{sea}' is not a sea of naval superiority (baltic, black_sea)")
    for i, c in enumerate(sup.blitzkrieg_weather):
        if c not in weather.conditions:
            raise root.fail(f"supply.blitzkrieg_weather[{i}]", f"'{c}' is not a weather condition")
    if sup.isolation_loss_per_stack < 0 or sup.blitzkrieg_loss < 0 or sup.hex_trace_mp < 0:
        raise root.fail("supply", "losses and MP are never negative")
    rail: Rail = figures["rail"]
    if rail.partisan_slows not in ("axis", "soviet"):
        raise root.fail("rail.partisan_slows", f"'{rail.partisan_slows}' is not a side (axis, soviet)")
