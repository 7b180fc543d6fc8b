"""Terrain effects on movement (10.1-10.4 and 19.5), read from the scenario's tables."""

from __future__ import annotations

from typing import Any, cast

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.units import UnitDef

from kiev_tui.games.spi_kiev.common import GERMAN


def movement_class(d: UnitDef) -> str:
    """'mech' pays mechanized costs; 'hq' moves as infantry but uses roads as mech (11.21)."""
    if d.hq or d.leader:
        return "hq"
    return "mech" if d.mechanized else "inf"


def _tec(tables: dict[str, Any]) -> dict[str, Any]:
    # tables.check_tec refused, at load, a chart that lacks a row or value read here (10.4).
    return cast("dict[str, Any]", tables["tec"])


def hex_entry_cost(tables: dict[str, Any], terrain: str, mclass: str) -> float:
    """Cost of the hex itself, from the chart only (10.4; a town or railroad adds nothing: 10.21)."""
    row = _tec(tables)["terrain"][terrain]  # the schema allows only terrains check_tec requires
    key = "mp_mech" if mclass == "mech" else "mp_other"
    return float(row[key] if key in row else row["mp"])


def hex_cost(gmap: GameMap, tables: dict[str, Any], h: Hex, mclass: str) -> float:
    """What entering hex h costs, before hexsides: a city costs its own rate whatever other
    terrain the hex holds (10.22, e.g. the woods cities 0602 and 1329); a town takes the other
    terrain's (10.21)."""
    terrain = "city" if gmap.settlement(h) == "city" else gmap.terrain(h)
    return hex_entry_cost(tables, terrain, mclass)


def hexside_cost(tables: dict[str, Any], feature: str, side: str) -> float:
    """Extra cost of crossing a river hexside, from the chart only (10.4)."""
    return float(_tec(tables)["hexside"][feature]["mp_german" if side == GERMAN else "mp_soviet"])


def road_cost(tables: dict[str, Any]) -> float:
    return float(_tec(tables)["hexside"]["road"]["mp_mech"])  # 10.23


def step_cost(gmap: GameMap, tables: dict[str, Any], d: UnitDef, a: Hex, b: Hex) -> float | Illegal:
    """Movement points for one unit to go from hex a into adjacent hex b, or why it cannot."""
    if not gmap.on_map(b):
        return Illegal("5.1", f"{b} is off the map")
    if gmap.terrain(b) == "lake" or gmap.has(a, b, "lake"):
        return Illegal("10.16", f"{b} cannot be entered: all-lake hex or hexside")
    mclass = movement_class(d)
    if mclass in ("mech", "hq") and gmap.has(a, b, "road"):
        # 10.23: along a road hexside a mechanized unit (or HQ, 11.21) pays half a point;
        # the road's bridge spares it the river cost (see docs/rulings.md, 10.23).
        return road_cost(tables)
    cost = hex_cost(gmap, tables, b, mclass)
    if gmap.has(a, b, "major_river"):
        # 19.51: never straight across a major river into swamp except along a road.
        if gmap.terrain(b) == "swamp" and not gmap.has(a, b, "road"):
            return Illegal("19.51", f"cannot cross the major river into the swamp at {b} except along a road")
        cost += hexside_cost(tables, "major_river", d.side)
    elif gmap.has(a, b, "minor_river"):
        cost += hexside_cost(tables, "minor_river", d.side)
    return cost  # 10.31: hex and hexside costs add up


def step_costs(gmap: GameMap, tables: dict[str, Any], d: UnitDef) -> dict[tuple[Hex, Hex], float | Illegal]:
    """Memo of step_cost for every unit that moves like ``d`` (same movement class and side)."""
    key = f"step:{movement_class(d)}:{d.side}"
    memo = gmap.derived.get(key)
    if memo is None:
        memo = {}
        gmap.derived[key] = memo
    return cast("dict[tuple[Hex, Hex], float | Illegal]", memo)


def cached_step_cost(gmap: GameMap, tables: dict[str, Any], d: UnitDef, a: Hex, b: Hex) -> float | Illegal:
    memo = step_costs(gmap, tables, d)
    c = memo.get((a, b))
    if c is None:
        c = step_cost(gmap, tables, d, a, b)
        memo[(a, b)] = c
    return c
