"""Scenarios: which map, counters and tables a game uses, the set-up and the schedule."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.mapdata import GameMap, load_map, one_of
from kiev_tui.engine.registry import data_for, default_scenario
from kiev_tui.engine.tomlio import Reader, exists, load_toml
from kiev_tui.engine.units import UnitCatalog, UnitDef, load_units

#: Keys every scenario's [scenario] table may hold; a game adds its own (schema.scenario_keys).
SCENARIO_KEYS = ("id", "game", "title", "turns", "first_player", "map", "units", "tables", "note",
                 "first_turn", "first_phase")


def data_root() -> Path:
    """The project's data/ folder (KIEV_TUI_DATA overrides it)."""
    env = os.environ.get("KIEV_TUI_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "data"


@dataclass(frozen=True, slots=True)
class Reinforcement:
    side: str
    turn: int
    areas: tuple[str, ...]
    units: tuple[str, ...] = ()
    #: (pool, count): counters to be drawn from a game's named pool; the game's
    #: prepare_scenario turns them into unit ids (and empties this).
    draw: tuple[tuple[str, int], ...] = ()
    #: Hexes the units may enter on (any one of them), besides or instead of areas.
    hexes: tuple[Hex, ...] = ()
    #: The game's own keys of this [[reinforcement]] (schema.reinforcement_keys).
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """A [[setup_choice]]: the side places these units at the start, each in one of ``hexes``
    (listed hexes, or every hex of a named area: a free set-up), answering a set-up prompt."""

    side: str
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    area: str = ""  # the area the hexes come from, if the data named one


@dataclass
class Scenario:
    id: str  # "<game>/<name>" for shipped scenarios, or a file path for others
    game: str
    title: str
    turns: int
    first_player: str
    path: Path
    map: GameMap
    catalog: UnitCatalog
    tables: dict[str, Any]
    tables_path: Path
    setup: dict[str, Hex]
    reinforcements: list[Reinforcement]
    control: dict[str, list[Hex]]
    victory: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    #: The game's own top-level tables of the scenario file (schema.scenario_tables), as written.
    extra: dict[str, Any] = field(default_factory=dict)
    #: Where play starts, for a scenario that starts late or mid-turn: the turn, and a phase of it
    #: ("<phase>" or "<segment>/<phase>" of the game's sequence.toml; "" is the turn's first).
    first_turn: int = 1
    first_phase: str = ""
    #: Tables a game derives once per scenario (its CRT, its combat values), keyed by name.
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: Units their side places at the start ([[setup_choice]]), asked as set-up prompts.
    setup_choices: list[SetupChoice] = field(default_factory=list)

    def unit(self, uid: str) -> UnitDef:
        return self.catalog.units[uid]


def resolve_scenario(ref: str | Path) -> tuple[Path, str]:
    """Find a scenario file from 'game/name' or a path; return (path, id to record in saves)."""
    text = str(ref)
    p = Path(text)
    if p.suffix == ".toml" or exists(p):
        return p, str(p)
    if "/" in text:
        game, name = text.split("/", 1)
        return data_root() / game / "scenarios" / f"{name}.toml", text
    found = _scenarios_of(text) if text.isidentifier() else []
    if found:  # a game's name alone: say which scenarios it has
        raise DataError(text, "", f"a game, not a scenario: name one of its scenarios ({', '.join(found)})")
    raise DataError(text, "", f"unknown scenario: give 'game/name' (e.g. {_example()}) or a .toml path")


def _scenarios_of(game: str) -> list[str]:
    """The scenarios of a game named alone, or none: a name the file system refuses (too long)
    is no game, not a crash."""
    folder = data_root() / game / "scenarios"
    try:
        return sorted(f"{game}/{q.stem}" for q in folder.glob("*.toml")) if folder.is_dir() else []
    except OSError:
        return []


def _example() -> str:
    """A scenario reference to show in an error (the default one, if a game set it)."""
    try:
        return default_scenario()
    except ValueError:
        return "game/scenario"


def load_scenario(ref: str | Path) -> Scenario:
    path, sid = resolve_scenario(ref)
    from kiev_tui.engine import scenariocache, tomlio

    read: list[str] = []

    def build() -> Scenario:
        with tomlio.recording(read):
            return _build_scenario(path, sid)

    # issue 33: built once, then read back ready-made while its files and our code stay the same
    return scenariocache.cached_scenario(path, sid, build, lambda: read)  # type: ignore[no-any-return]


def _build_scenario(path: Path, sid: str) -> Scenario:
    root = Reader(path, load_toml(path, cache=True))
    meta = root.table("scenario")
    game = meta.str("game")
    system = data_for(meta, "game", game)  # a game with data only is loaded too (validate, map)
    schema = system.schema
    root.only(["scenario", "setup", "reinforcement", "control", "victory", "setup_choice", *schema.scenario_tables])
    sides = schema.sides
    meta.only((*SCENARIO_KEYS, *schema.scenario_keys))
    base = path.parent.parent if path.parent.name == "scenarios" else path.parent
    turns = meta.int("turns")
    if not 1 <= turns <= 99:
        raise meta.fail("turns", f"a scenario has 1 to 99 game-turns, not {turns}")
    for key in ("title", "note"):
        meta.str(key, "")
    first = meta.str("first_player")
    if first not in sides:
        raise meta.fail("first_player", f"first_player must be {one_of(sides)}")
    first_turn = meta.int("first_turn", 1)
    if not 1 <= first_turn <= turns:
        raise meta.fail("first_turn", f"turn {first_turn} is outside the scenario's {turns} turns")
    first_phase = meta.str("first_phase", "")

    def sub(key: str, default: str) -> Path:
        try:
            return (base / meta.str(key, default)).resolve()
        except (OSError, ValueError):  # a NUL byte, a loop of links
            raise meta.fail(key, "is not a usable file path") from None

    # Every game needs its tables (the CRT at the first battle): a missing file is refused now.
    for key, default in (("map", "map.toml"), ("units", "units.toml"), ("tables", "tables.toml")):
        if not exists(sub(key, default)):
            raise meta.fail(key, f"names {sub(key, default)}, which does not exist")
    gmap = load_map(sub("map", "map.toml"), schema)
    catalog = load_units(sub("units", "units.toml"), system)
    tables_path = sub("tables", "tables.toml")
    tables = load_toml(tables_path, cache=True)
    grid = gmap.grid

    def hex_on_map(reader: Reader, key: str, text: Any) -> Hex:
        try:
            h = grid.parse(text)
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        if not gmap.on_map(h):
            raise reader.fail(key, f"hex {grid.id(h)} is off the map ({gmap.extent()})")
        return gmap.own_hex(h)  # the map's own object: one a hex in a ready-built scenario (issue 33)

    setup: dict[str, Hex] = {}
    holder: dict[Hex, str] = {}  # a unit already set up in each hex
    st = root.table("setup", required=False)
    for uid in st.keys():
        if uid not in catalog.units:
            raise st.fail(uid, f"no unit '{shorten(uid)}' in units.toml")
        h = hex_on_map(st, uid, st.data[uid])
        # nothing enters such a hex, so nothing starts in one (unless the schema excepts its type)
        if gmap.is_impassable(h) and not schema.may_stand(catalog.units[uid].type, gmap.terrain(h)):
            raise st.fail(uid, f"hex {grid.id(h)} is a {gmap.terrain(h)}: no unit can stand there")
        other = holder.get(h)
        if other is not None and catalog.units[other].side != catalog.units[uid].side:
            raise st.fail(uid, f"hex {grid.id(h)} already holds a {catalog.units[other].side} unit ({other}): "
                               "the two sides never share a hex")
        holder.setdefault(h, uid)
        setup[uid] = h

    reinforcements: list[Reinforcement] = []
    placed: dict[str, str] = {uid: f"setup.{uid}" for uid in setup}
    for r in root.tables("reinforcement"):
        r.only(["side", "turn", "areas", "hexes", "units", "draw", "note", *schema.reinforcement_keys])
        side = r.str("side")
        if side not in sides:
            raise r.fail("side", f"side must be {one_of(sides)}")
        turn = r.int("turn")
        if not (1 <= turn <= turns):
            raise r.fail("turn", f"turn {turn} is outside the game's {turns} turns")
        areas = tuple(r.strs("areas", [] if "hexes" in r.data else ...))  # hexes may stand for areas
        for i, a in enumerate(areas):
            if a not in gmap.areas:
                raise r.fail(f"areas[{i}]", f"the map has no area '{a}'")
        entry_hexes = tuple(hex_on_map(r, f"hexes[{i}]", t) for i, t in enumerate(r.strs("hexes", [])))
        uids = tuple(r.strs("units", []))
        for i, uid in enumerate(uids):
            if uid not in catalog.units:
                raise r.fail(f"units[{i}]", f"no unit '{uid}' in units.toml")
            if catalog.units[uid].side != side:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is not {side}")
            if uid in placed:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is already placed by {placed[uid]}: a unit can be in one place only")
            placed[uid] = f"{r.path}"
        # Counts of counters drawn from a named pool; the game gives them ids (prepare_scenario).
        draws: list[tuple[str, int]] = []
        dr = r.table("draw", required=False)
        for draw in dr.keys():
            n = dr.int(draw)
            if n < 0:
                raise dr.fail(draw, "count cannot be negative")
            draws.append((draw, n))
        own = {k: r.data[k] for k in schema.reinforcement_keys if k in r.data}
        reinforcements.append(Reinforcement(side, turn, areas, uids, tuple(draws), entry_hexes, own))

    setup_choices = _setup_choices(root, sides, catalog, gmap, placed, hex_on_map)

    control: dict[str, list[Hex]] = {}
    ct = root.table("control", required=False)
    for side in ct.keys():
        if side not in sides:
            raise ct.fail(side, f"control is listed by side: {one_of(sides)}")
        control[side] = [hex_on_map(ct, f"{side}[{i}]", t) for i, t in enumerate(ct.strs(side))]

    victory = root.data.get("victory", {})
    if not isinstance(victory, dict):
        raise root.fail("victory", "expected a table")
    check_victory = getattr(system, "check_victory", None)
    if check_victory is not None:  # the game's own victory keys and values (a game hook)
        check_victory(Reader(path, victory, "victory"), catalog, hex_on_map)

    # first_turn and first_phase stay in params too: a game's own checks read them there (B1941 17)
    params = {k: v for k, v in meta.data.items() if k not in ("id", "game", "title", "turns", "first_player")}
    scenario = Scenario(
        id=sid, game=game, title=meta.str("title", sid), turns=turns, first_player=first, path=path,
        map=gmap, catalog=catalog, tables=tables, tables_path=tables_path, setup=setup,
        reinforcements=reinforcements, control=control, victory=victory, params=params,
        extra={t: root.data[t] for t in schema.scenario_tables if t in root.data},
        first_turn=first_turn, first_phase=first_phase,
        setup_choices=setup_choices,
    )
    _check_first_phase(scenario, system, meta)
    prepare = getattr(system, "prepare_scenario", None)
    if prepare is not None:  # e.g. counter ids for units drawn from a pool
        prepare(scenario)
    check = getattr(system, "check_scenario", None)
    if check is not None:  # the game's own checks: its tables, its stacking at the start
        check(scenario)
    return scenario


def _check_first_phase(scenario: Scenario, system: Any, meta: Reader) -> None:
    """A first_phase must name a phase of the game's sequence.toml (when the game has one)."""
    seq = getattr(system, "sequence", None)
    if not scenario.first_phase or seq is None:
        return
    first = scenario.first_player
    second = next((s for s in system.schema.sides if s != first), first)
    seg, _, name = scenario.first_phase.rpartition("/")
    if not any(st.phase == name and (not seg or st.segment == seg) for st in seq.all_steps(first, second)):
        known = ", ".join(f"{st.segment}/{st.phase}" for st in seq.all_steps(first, second))
        raise meta.fail("first_phase", f"'{scenario.first_phase}' is no phase of the game's sequence (known: {known})")


def _setup_choices(root: Reader, sides: tuple[str, ...], catalog: UnitCatalog, gmap: GameMap,
                   placed: dict[str, str], hex_on_map: Any) -> list[SetupChoice]:
    """The [[setup_choice]] tables: a side, its units, and the hexes (or the area) they start in."""
    out: list[SetupChoice] = []
    for r in root.tables("setup_choice"):
        r.only(["side", "units", "hexes", "area", "note"])
        side = r.str("side")
        if side not in sides:
            raise r.fail("side", f"side must be {one_of(sides)}")
        uids = tuple(r.strs("units"))
        if not uids:
            raise r.fail("units", "name at least one unit to set up")
        for i, uid in enumerate(uids):
            if uid not in catalog.units:
                raise r.fail(f"units[{i}]", f"no unit '{shorten(uid)}' in units.toml")
            if catalog.units[uid].side != side:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is not {side}")
            if uid in placed:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is already placed by {placed[uid]}: a unit can be in one place only")
            placed[uid] = f"{r.path}"
        if ("hexes" in r.data) == ("area" in r.data):
            raise r.fail("hexes", "give the hexes to choose from, or an area, but not both")
        area = r.str("area", "")
        if area:
            if area not in gmap.areas:
                raise r.fail("area", f"the map has no area '{shorten(area)}'")
            hexes = tuple(sorted(gmap.area(area).hexes, key=gmap.grid.id))
        else:
            hexes = tuple(hex_on_map(r, f"hexes[{i}]", t) for i, t in enumerate(r.strs("hexes")))
            if len(hexes) < 2:
                raise r.fail("hexes", "a choice needs two hexes or more")
        for i, h in enumerate(hexes):
            if gmap.is_impassable(h):
                raise r.fail("area" if area else f"hexes[{i}]",
                             f"hex {gmap.grid.id(h)} is a {gmap.terrain(h)}: no unit can stand there")
        out.append(SetupChoice(side, uids, hexes, area))
    return out
