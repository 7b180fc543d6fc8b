"""Boards for the Barbarossa 1941 rule tests: small made-up maps and the real one.

Weather comes from the real calendar (tables.toml): turn 2 is clear everywhere, turn 6 mud,
turn 8 freeze, turn 10 extreme cold; turn 5 is mud in the north and clear in the south, and a
made-up map puts a hex in the north by listing it in ``north``.  Turn 1 carries 12.8's rules.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from kiev_tui.engine.hexes import Hexside
from kiev_tui.engine.mapdata import Area, GameMap, load_map
from kiev_tui.engine.units import UnitCatalog, load_units
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.schema import SCHEMA
from kiev_tui.games.barbarossa1941.tables import GRID, Tables, load_tables

DATA = Path(__file__).resolve().parents[1] / "data" / "barbarossa1941"
CLEAR, MUD, FREEZE, COLD = 2, 6, 8, 10  # turns of the calendar with that weather in both zones


@lru_cache(maxsize=1)
def tables() -> Tables:
    return load_tables(DATA / "tables.toml")


@lru_cache(maxsize=1)
def catalog() -> UnitCatalog:
    return load_units(DATA / "units.toml")


@lru_cache(maxsize=1)
def real_map() -> GameMap:
    return load_map(DATA / "map.toml")


def H(text: str):  # type: ignore[no-untyped-def]
    return GRID.parse(text)


def small_map(columns: int = 7, rows: int = 7, terrain: dict[str, str] | None = None,
              settlement: dict[str, str] | None = None, sides: dict[str, Iterable[str]] | None = None,
              areas: dict[str, Iterable[str]] | None = None, names: dict[str, str] | None = None) -> GameMap:
    """A clear map of Barbarossa 1941's grid (odd columns low) with the terrain given by hex id.

    ``sides``: hexside feature -> ["0303/0304", ...] (major_river, lake, strait, railroad).
    ``areas``: area name -> hex ids (weather_north, ussr, finland...).
    """
    features: dict[Hexside, frozenset[str]] = {}
    for feat, pairs in (sides or {}).items():
        for p in pairs:
            s = GRID.side(p)
            features[s] = features.get(s, frozenset()) | {feat}
    return GameMap(
        game="barbarossa1941", columns=columns, rows=rows, default_terrain="clear",
        terrain_of={H(k): v for k, v in (terrain or {}).items()},
        settlement_of={H(k): v for k, v in (settlement or {}).items()},
        name_of={H(k): v for k, v in (names or {}).items()},
        features=features,
        areas={n: Area(n, "", frozenset(H(x) for x in ids)) for n, ids in (areas or {}).items()},
        grid=GRID, impassable_terrains=frozenset(SCHEMA.impassable_terrains),
        impassable_hexsides=frozenset(SCHEMA.impassable_hexsides), settlement_kinds=tuple(SCHEMA.settlements))


def board(gmap: GameMap, place: dict[str, str], turn: int = CLEAR, lost: dict[str, int] | None = None,
          **kw: object) -> Board:
    """Units (catalogue ids) on hexes (ids) of ``gmap`` on ``turn``."""
    return Board(gmap, tables(), catalog().units, {u: gmap.grid.parse(h) for u, h in place.items()},
                 dict(lost or {}), turn=turn, **kw)  # type: ignore[arg-type]


def ids(gmap: GameMap, hexes: Iterable[object]) -> set[str]:
    return {gmap.grid.id(h) for h in hexes}  # type: ignore[arg-type]
