"""Scenarios: which map, counters and tables a game uses, the set-up and the schedule."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.mapdata import GameMap, load_map
from kiev_tui.engine.tomlio import Reader, exists, load_toml
from kiev_tui.engine.units import UnitCatalog, UnitDef, load_units

SCENARIO_KEYS = [
    "id", "game", "title", "turns", "first_player", "map", "units", "tables", "mud_turns",
    "rail_units_per_turn", "rail_hexes", "rpl_counters", "start_date", "days_per_turn", "note",
    "pbm_asterisk",  # 25.11: the play-by-mail asterisk rule (SPI Kiev), off unless true
    "pbem_historical_reinforcements", "historical_reinforcements",  # 25.12, checked by the game
]


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
    draw: tuple[tuple[str, int], ...] = ()


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
    #: Tables a game derives once per scenario (its CRT, its combat values), keyed by name.
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

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
    raise DataError(text, "", "unknown scenario: give 'game/name' (e.g. spi_kiev/campaign) or a .toml path")


def load_scenario(ref: str | Path) -> Scenario:
    path, sid = resolve_scenario(ref)
    root = Reader(path, load_toml(path))
    root.only(["scenario", "setup", "reinforcement", "control", "victory"])
    meta = root.table("scenario")
    meta.only(SCENARIO_KEYS)
    base = path.parent.parent if path.parent.name == "scenarios" else path.parent
    game = meta.str("game")
    from kiev_tui.engine.game import get_system  # game.py imports this module

    try:
        system = get_system(game)
    except ValueError as exc:
        raise meta.fail("game", str(exc)) from None
    turns = meta.int("turns")
    if not 1 <= turns <= 99:
        raise meta.fail("turns", f"a scenario has 1 to 99 game-turns, not {turns}")
    for key in ("rail_units_per_turn", "rail_hexes", "rpl_counters", "days_per_turn"):
        if key in meta.data and meta.int(key) < 0:
            raise meta.fail(key, "must not be negative")
    for i, t in enumerate(meta.ints("mud_turns", [])):
        if not 1 <= t <= turns:
            raise meta.fail(f"mud_turns[{i}]", f"turn {t} is outside the game's {turns} turns")
    meta.bool("pbm_asterisk", False)  # a yes/no option: refuse anything but true or false
    for key in ("title", "start_date", "note"):
        meta.str(key, "")
    first = meta.str("first_player")
    if first not in ("german", "soviet"):
        raise meta.fail("first_player", "first_player must be german or soviet")

    def sub(key: str, default: str) -> Path:
        try:
            return (base / meta.str(key, default)).resolve()
        except (OSError, ValueError):  # a NUL byte, a loop of links
            raise meta.fail(key, "is not a usable file path") from None

    # Every game needs its tables (the CRT at the first battle): a missing file is refused now.
    for key, default in (("map", "map.toml"), ("units", "units.toml"), ("tables", "tables.toml")):
        if not exists(sub(key, default)):
            raise meta.fail(key, f"names {sub(key, default)}, which does not exist")
    gmap = load_map(sub("map", "map.toml"))
    catalog = load_units(sub("units", "units.toml"))
    tables_path = sub("tables", "tables.toml")
    tables = load_toml(tables_path)

    def hex_on_map(reader: Reader, key: str, text: Any) -> Hex:
        try:
            h = Hex.parse(text)
        except HexError as exc:
            raise reader.fail(key, str(exc)) from None
        if not gmap.on_map(h):
            raise reader.fail(key, f"hex {h} is off the map ({gmap.columns} columns x {gmap.rows} rows)")
        return h

    setup: dict[str, Hex] = {}
    holder: dict[Hex, str] = {}  # a unit already set up in each hex
    st = root.table("setup", required=False)
    for uid in st.keys():
        if uid not in catalog.units:
            raise st.fail(uid, f"no unit '{shorten(uid)}' in units.toml")
        h = hex_on_map(st, uid, st.data[uid])
        if gmap.terrain(h) == "lake":  # 10.16: nothing enters a lake hex, so nothing starts in one
            raise st.fail(uid, f"hex {h} is a lake: no unit can stand there")
        other = holder.get(h)
        if other is not None and catalog.units[other].side != catalog.units[uid].side:
            raise st.fail(uid, f"hex {h} already holds a {catalog.units[other].side} unit ({other}): "
                               "the two sides never share a hex")
        holder.setdefault(h, uid)
        setup[uid] = h

    reinforcements: list[Reinforcement] = []
    placed: dict[str, str] = {uid: f"setup.{uid}" for uid in setup}
    for r in root.tables("reinforcement"):
        r.only(["side", "turn", "areas", "units", "draw", "note"])
        side = r.str("side")
        if side not in ("german", "soviet"):
            raise r.fail("side", "side must be german or soviet")
        turn = r.int("turn")
        if not (1 <= turn <= turns):
            raise r.fail("turn", f"turn {turn} is outside the game's {turns} turns")
        areas = tuple(r.strs("areas"))
        for i, a in enumerate(areas):
            if a not in gmap.areas:
                raise r.fail(f"areas[{i}]", f"the map has no area '{a}'")
        uids = tuple(r.strs("units", []))
        for i, uid in enumerate(uids):
            if uid not in catalog.units:
                raise r.fail(f"units[{i}]", f"no unit '{uid}' in units.toml")
            if catalog.units[uid].side != side:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is not {side}")
            if uid in placed:
                raise r.fail(f"units[{i}]", f"unit '{uid}' is already placed by {placed[uid]}: a unit can be in one place only")
            placed[uid] = f"{r.path}"
        draws: list[tuple[str, int]] = []
        dr = r.table("draw", required=False)
        for draw in dr.keys():
            if draw not in catalog.untried_types:
                raise dr.fail(draw, f"no untried draw type '{draw}'")
            n = dr.int(draw)
            if n < 0:
                raise dr.fail(draw, "count cannot be negative")
            draws.append((draw, n))
        reinforcements.append(Reinforcement(side, turn, areas, uids, tuple(draws)))

    control: dict[str, list[Hex]] = {}
    ct = root.table("control", required=False)
    for side in ct.keys():
        if side not in ("german", "soviet"):
            raise ct.fail(side, "control is listed by side: german or soviet")
        control[side] = [hex_on_map(ct, f"{side}[{i}]", t) for i, t in enumerate(ct.strs(side))]

    victory = root.data.get("victory", {})
    if not isinstance(victory, dict):
        raise root.fail("victory", "expected a table")
    vr = Reader(path, victory, "victory")
    vr.only(["margin", "city", "town", "special_hexes", "soviet_front_hq", "soviet_front_hq_points",
             "soviet_unit_points", "regiment_points", "formation", "note"])
    for key in ("margin", "city", "town", "soviet_front_hq_points", "soviet_unit_points"):
        vr.int(key, 0)
    front = vr.str("soviet_front_hq", "")
    if front:
        if front not in catalog.units:
            raise vr.fail("soviet_front_hq", f"no unit '{shorten(front)}' in units.toml")
        if not (catalog.units[front].hq and catalog.units[front].side == "soviet"):
            raise vr.fail("soviet_front_hq", f"'{front}' is not a Soviet HQ")
    special = vr.table("special_hexes", required=False)
    for key in special.keys():
        hex_on_map(special, key, key)
        special.int(key)
    reg = vr.table("regiment_points", required=False)
    reg.only(["panzer", "other"])
    for key in reg.keys():
        reg.int(key)
    for f in vr.tables("formation"):
        f.only(["name", "units", "points", "note"])
        for j, uid in enumerate(f.strs("units")):
            if uid not in catalog.units:
                raise f.fail(f"units[{j}]", f"no unit '{shorten(uid)}' in units.toml")
        f.str("name")
        f.int("points")

    params = {k: v for k, v in meta.data.items() if k not in ("id", "game", "title", "turns", "first_player")}
    scenario = Scenario(
        id=sid, game=game, title=meta.str("title", sid), turns=turns, first_player=first, path=path,
        map=gmap, catalog=catalog, tables=tables, tables_path=tables_path, setup=setup,
        reinforcements=reinforcements, control=control, victory=victory, params=params,
    )
    _add_untried_placeholders(scenario)
    check = getattr(system, "check_scenario", None)
    if check is not None:  # the game's own checks: its tables, its stacking at the start
        check(scenario)
    return scenario


def untried_id(side: str, turn: int, draw: str, k: int) -> str:
    return f"{'so' if side == 'soviet' else 'ge'}-t{turn:02d}-{draw}-{k}"


def _add_untried_placeholders(s: Scenario) -> None:
    """Give every drawn reinforcement a counter id now; its true face is drawn at reveal (13.1)."""
    for draw in s.catalog.untried_types:
        need = sum(n for r in s.reinforcements for d, n in r.draw if d == draw)
        have = len(s.catalog.faces_of(draw))
        if need > have:
            raise DataError(s.path, "reinforcement", f"{need} untried {draw} units are due but the pool holds {have} faces")
    for i, r in enumerate(s.reinforcements):
        extra: list[str] = []
        for draw, n in r.draw:
            t = s.catalog.untried_types[draw]
            for k in range(1, n + 1):
                uid = untried_id(r.side, r.turn, draw, k)
                if uid in s.catalog.units:  # it would silently replace a real counter
                    raise DataError(s.path, f"reinforcement[{i}].draw.{draw}",
                                    f"unit id '{uid}' of units.toml is the id this draw gives its untried "
                                    f"unit {k}; rename the unit")
                s.catalog.units[uid] = UnitDef(
                    id=uid, side=r.side, type={"rifle": "rifle", "cavalry": "cavalry", "armor": "tank"}[draw],
                    size=t.size, designation=f"untried {draw}", division="", steps=((0, 0),), ma=t.ma,
                    mechanized=t.mechanized, untried_draw=draw,
                )
                extra.append(uid)
        if extra:
            s.reinforcements[i] = Reinforcement(r.side, r.turn, r.areas, r.units + tuple(extra), ())
