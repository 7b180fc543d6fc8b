"""Reinforcements (15.0, 23.0): who is due, where they may enter, and at what cost."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from kiev_tui.engine.errors import DataError, Illegal
from kiev_tui.engine.hexes import Hex, HexError

from kiev_tui.games.spi_kiev.common import GERMAN, MOVEMENT, SOVIET, View, enemy_of
from kiev_tui.games.spi_kiev.rail import capacity, counted, is_rail_hex
from kiev_tui.games.spi_kiev.terrain import hex_cost, movement_class
from kiev_tui.games.spi_kiev.untried import pool
from kiev_tui.later import handed_out

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario


def schedule(view: View) -> dict[str, tuple[int, tuple[str, ...], tuple[Hex, ...]]]:
    """unit id -> (turn due, entry areas, entry hexes the scenario names outright)."""
    out: dict[str, tuple[int, tuple[str, ...], tuple[Hex, ...]]] = {}
    for r in view.game.scenario.reinforcements:
        for uid in r.units:
            out[uid] = (r.turn, r.areas, r.hexes)
    return out


def due_now(view: View) -> list[str]:
    """Reinforcements of the phasing player waiting to enter (late ones stay due: 23.0)."""
    st = view.state
    if st.phase != MOVEMENT:
        return []
    sched = schedule(view)
    return sorted(uid for uid, (turn, *_) in sched.items()
                  if turn <= st.turn and view.side(uid) == st.player and st.units[uid].status == "pending")


def entry_hexes(view: View, uid: str) -> list[Hex]:
    """Map-edge road hexes (rail too, for the Soviets) of the unit's areas, and any hexes the
    scenario names for it outright, free of the enemy."""
    sched = schedule(view)
    if uid not in sched:
        return []
    side = view.side(uid)
    _, areas, named = sched[uid]
    # A scenario's own entry hexes are taken as given, edge and road or not; 23.0 still bars enemy ones.
    out: set[Hex] = {h for h in named if not view.occupied_by(h, enemy_of(side))}
    for area in areas:
        for h in _area_entries(view, area, side == SOVIET):
            if view.occupied_by(h, enemy_of(side)):
                continue  # 23.0: never into an enemy-occupied entry hex
            out.add(h)
    return sorted(out)


def _area_entries(view: View, area: str, soviet: bool) -> tuple[Hex, ...]:
    """The map-edge hexes of an area with a road (or, for the Soviets, a rail line): the map's
    part of entry_hexes, worked out once per map (issue 33)."""
    gmap = view.map
    key = f"entry hexes:{area}:{soviet}"  # pragma: no mutate: memo key only
    got = gmap.derived.get(key)
    if got is None:
        found: list[Hex] = []
        a = gmap.areas.get(area)
        for h in a.hexes if a is not None else ():
            if not gmap.edges_of(h):
                continue
            road = h in gmap.road_exits or any(gmap.has(h, n, "road") for n in gmap.neighbours(h))
            rail = soviet and (h in gmap.rail_exits or is_rail_hex(view, h))
            if road or rail:
                found.append(h)
        got = gmap.derived[key] = tuple(found)
    return cast("tuple[Hex, ...]", got)


def entry_cost(view: View, uid: str, h: Hex) -> float:
    """15.0: entering costs the entry hex's own movement points."""
    return hex_cost(view.map, view.game.scenario.tables, h, movement_class(view.udef(uid)))


def historical_faces(scenario: "Scenario") -> dict[str, str]:
    """25.12 (play-by-mail option): each drawn Soviet reinforcement's face, from the chart.

    Empty unless the scenario turns the option on.  The k-th draw of a type on a turn takes
    the k-th face of that type the chart lists for the turn.  A chart that does not match the
    draws is refused with the file and key.
    """
    params = scenario.params
    on = params.get("pbem_historical_reinforcements", False)
    if not isinstance(on, bool):
        raise DataError(scenario.path, "scenario.pbem_historical_reinforcements", "must be true or false")
    if not on:
        return {}
    chart = params.get("historical_reinforcements")
    key = "scenario.historical_reinforcements"
    if not isinstance(chart, dict):
        raise DataError(scenario.path, key, "25.12: the option is on but the scenario gives no chart of turns and faces")
    faces = pool(scenario.catalog).faces
    due: dict[int, dict[str, list[str]]] = {}
    for r in scenario.reinforcements:
        for uid in r.units:
            draw = pool(scenario.catalog).draw_of.get(uid, "")
            if draw and r.side == SOVIET:
                due.setdefault(r.turn, {}).setdefault(draw, []).append(uid)
    out: dict[str, str] = {}
    seen: set[str] = set()
    for turn in sorted(set(due) | {int(t) for t in chart if str(t).isdigit()}):
        listed = chart.get(str(turn), [])
        if not isinstance(listed, list) or not all(isinstance(f, str) and f in faces for f in listed):
            raise DataError(scenario.path, f"{key}.{turn}", "must list faces of units.toml ([[untried]] ids)")
        for f in listed:
            if f in seen:
                raise DataError(scenario.path, f"{key}.{turn}", f"{f} is listed twice in the chart")
            seen.add(f)
        for draw in sorted(set(due.get(turn, {})) | {faces[f].draw for f in listed}):
            units = due.get(turn, {}).get(draw, [])
            picked = [f for f in listed if faces[f].draw == draw]
            if len(picked) != len(units):
                raise DataError(scenario.path, f"{key}.{turn}",
                                f"25.12: turn {turn} brings {len(units)} {draw} reinforcements but the chart names {len(picked)}")
            out.update(zip(units, picked))
    bad = [t for t in chart if not str(t).isdigit()]
    if bad:
        raise DataError(scenario.path, f"{key}.{bad[0]}", "keys are game-turn numbers")
    return out


def ready_to_enter(view: View) -> list[str]:
    """Due units that have a legal entry hex now: ending the phase must wait for them (23.0)."""
    return [u for u in due_now(view) if entry_hexes(view, u)]


__all__ = ["due_now", "entry_hexes", "entry_cost", "check_enter", "ready_to_enter", "schedule", "historical_faces",
           "GERMAN"]


#: Functions written in reinforcements_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'check_enter'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.reinforcements_more", _LATER)
