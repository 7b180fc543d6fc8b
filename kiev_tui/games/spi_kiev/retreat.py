"""Retreats after combat (9.7, 19.52, 19.7): every legal path, and the owner's choice of them.

The enemy player picks the retreat (19.7) from the paths ``retreat_options`` lists; a retreat
that would overstack is refused while another way fits (9.74), and the battle goes on (run).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev import changes
from kiev_tui.games.spi_kiev.actions import Retreat
from kiev_tui.games.spi_kiev.battle import battle, battle_of_view, lose_step, run
from kiev_tui.games.spi_kiev.common import View, enemy_of
from kiev_tui.games.spi_kiev.events_play import Retreated
from kiev_tui.games.spi_kiev.state import added, kiev_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def _retreat_paths(view: View, uid: str, hexes: int, who: str, zone: set[str]) -> tuple[list[tuple[str, ...]], bool]:
    """Every legal retreat path for one unit, and whether only a major river stopped it.

    9.71 no enemy units or enemy-controlled hexes unless a friendly combat unit is there;
    9.73 each hex farther from the start; 9.77 an attacker after a split result avoids the
    battle's zone; 19.52 no major river crossing unless a road or railroad crosses it;
    9.78 a crossing only when nothing else is open.
    """
    start = view.hex_of(uid)
    assert start is not None  # only units on the map are asked to retreat (battle.involved)
    side = view.side(uid)
    enemy = enemy_of(side)
    blocked_by_river = False

    def ok_hex(h: Hex) -> bool:
        if view.occupied_by(h, enemy):
            return False  # lakes (10.16) are refused with impassable hexsides in walk
        if view.enemy_controlled_for_tracing(h, side):
            return False  # 9.71, 8.25: any friendly unit in the hex lifts the enemy zone
        friendly_combat = any(not view.is_hq_like(u) for u in view.at(h) if view.side(u) == side)
        if who == "attacker" and str(h) in zone and not friendly_combat:
            return False  # 9.77
        return True

    paths: list[tuple[tuple[str, ...], bool]] = []

    def walk(cur: Hex, path: list[Hex], crossed: bool) -> None:
        nonlocal blocked_by_river
        if len(path) == hexes:
            paths.append((tuple(str(h) for h in path), crossed))
            return
        for n in view.map.neighbours(cur):
            if start.distance(n) != len(path) + 1 or view.map.is_impassable_side(cur, n):
                continue
            if not ok_hex(n):
                continue
            cross = view.map.has(cur, n, "major_river")
            if cross and not (view.map.has(cur, n, "road") or view.map.has(cur, n, "railroad")):
                blocked_by_river = True  # 19.52
                continue
            walk(n, path + [n], crossed or cross)

    walk(start, [], False)
    dry = [p for p, c in paths if not c]
    legal = dry if dry else [p for p, _ in paths]  # 9.78: a bridge only as a last resort
    # 9.74: into a vacant hex if at all possible; stacking limits always.
    def final_ok(p: tuple[str, ...]) -> bool:
        end = Hex.parse(p[-1])
        mine = [u for u in view.at(end) if view.side(u) == side]
        if view.is_hq_like(uid):
            return not any(view.is_hq_like(u) for u in mine)  # 11.22: one HQ a hex
        return sum(1 for u in mine if not view.is_hq_like(u)) < 3  # 7.0
    legal = [p for p in legal if final_ok(p)]
    vacant = [p for p in legal if not view.at(Hex.parse(p[-1]))]
    return (vacant or legal), blocked_by_river and not paths


def retreat_options(game: "Game") -> dict[str, list[tuple[str, ...]]]:
    """Legal paths for each unit of the pending retreat (empty list: it cannot retreat)."""
    p = game.state.pending
    if p is None or p["kind"] != "retreat":
        return {}
    view = View(game)
    zone = set(battle(game).zone)
    return {u: _retreat_paths(view, u, p["hexes"], p["who"], zone)[0] for u in p["units"]}


def check_retreat(view: View, a: Retreat) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "retreat":
        return Illegal("9.7", "no retreat is waiting")
    if sorted(a.units) != sorted(p["units"]) or len(a.paths) != len(a.units):
        return Illegal("9.7", f"give one path for each of {', '.join(p['units'])}")
    zone = set(battle_of_view(view).zone)
    for uid, path in zip(a.units, a.paths):
        options, _ = _retreat_paths(view, uid, p["hexes"], p["who"], zone)
        if not path:
            if options:
                return Illegal("19.7", f"{uid} has a safe retreat, so it may not be retreated to its destruction")
            continue
        if tuple(path) not in options:
            return Illegal("9.71", f"{' > '.join(path)} is not a legal retreat for {uid}")
    if _overstacked(view, a.units, a.paths):
        if safe_assignment(view, p) is not None:
            return Illegal("9.74", "these retreats would overstack a hex while a way that fits exists (19.7)")
    return None


def _overstacked(view: View, units: tuple[str, ...], paths: tuple[tuple[str, ...], ...]) -> list[str]:
    """Units that would end beyond the limits of their final hex (in the order given)."""
    side = view.side(units[0])
    combat_in: dict[str, int] = {}
    hq_in: dict[str, int] = {}
    excess: list[str] = []
    for uid, path in zip(units, paths):
        if not path:
            continue
        end = path[-1]
        here = [u for u in view.at(Hex.parse(end)) if view.side(u) == side and u not in units]
        if view.is_hq_like(uid):
            hq_in[end] = hq_in.get(end, sum(1 for u in here if view.is_hq_like(u))) + 1
            if hq_in[end] > 1:
                excess.append(uid)
        else:
            combat_in[end] = combat_in.get(end, sum(1 for u in here if not view.is_hq_like(u))) + 1
            if combat_in[end] > 3:
                excess.append(uid)
    return excess


def safe_assignment(view: View, p: dict[str, Any]) -> tuple[tuple[str, ...], ...] | None:
    """A retreat for every unit that overstacks nothing, if one exists (9.74, 19.7)."""
    zone = set(battle_of_view(view).zone)
    units = tuple(p["units"])
    options = [_retreat_paths(view, u, p["hexes"], p["who"], zone)[0] or [()] for u in units]
    # Only the final hex matters for stacking: try one path per distinct end hex.
    pruned = [list({path[-1] if path else "": path for path in opts}.values()) for opts in options]
    count = 0
    for combo in itertools.product(*pruned):
        count += 1
        if count > 5000:
            break
        if not _overstacked(view, units, combo):
            return combo
    return None


def apply_retreat(game: "Game", a: Retreat) -> None:
    st = game.state
    p = st.pending
    assert p is not None
    b = battle(game)
    view = View(game)
    zone = set(b.zone)
    side = view.side(a.units[0])
    excess = set(_overstacked(view, a.units, a.paths))
    for uid, path in zip(a.units, a.paths):
        if uid in excess:
            game.emit(Retreated(uid, tuple(path), st.units[uid].hex or ""))
            changes.eliminate(game, uid, "9.74", "no room for it at the end of its retreat")
            continue
        if not path:
            _, river_only = _retreat_paths(view, uid, p["hexes"], p["who"], zone)
            if river_only:
                # 19.52: penned against a major river, the unit loses steps instead.
                game.emit(Note(f"{uid} cannot retreat across the major river and loses steps instead (19.52)"))
                for _ in range(p["hexes"]):
                    if st.units[uid].status == "map":
                        lose_step(game, uid, "19.52")
                continue
            game.emit(Retreated(uid, ()))
            changes.eliminate(game, uid, "9.71", "no legal retreat")
            continue
        end = Hex.parse(path[-1])
        if b.kind == "attack" and any(view.side(u) == side for u in view.at(end)):
            v = kiev_vars(st)
            v.retreated_into = added(v.retreated_into, [uid])  # 9.76 (never after an overrun)
        for h in path:
            changes.claim(game, Hex.parse(h), side)
        start = st.units[uid].hex or ""
        st.units[uid].hex = path[-1]
        b.retreat_paths[uid] = list(path)
        game.emit(Retreated(uid, tuple(path), start))
    st.pop_prompt()  # the retreat is answered
    run(game)  # the battle's next part pushes its question (or the battle ends)
