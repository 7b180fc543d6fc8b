"""The functions of rail.py that a new game's first frame never calls (issue 33, round 7).

rail.py hands them out on first use (its module ``__getattr__``), so ``rail.check_rail`` and
``from kiev_tui.games.spi_kiev.rail import check_rail`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.rail import (
    Hex,
    HexError,
    Illegal,
    MOVEMENT,
    SOVIET,
    capacity,
    check_relief,
    common_start,
    counted,
    directive,
    friendly_rail,
    max_hexes,
    may_relieve,
    may_start_moving,
    move_block,
    path_back,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.rail import View


def reach(view: View, units: tuple[str, ...]) -> dict[Hex, tuple[str, ...]]:
    """Hexes the stack could reach by rail now along friendly rail (19.3), each with its path;
    within the turn's hex limit (5.3), not checked for the turn's unit count."""
    start = view.hex_of(units[0]) if units else None
    if start is None or not friendly_rail(view, start):
        return {}
    limit = max_hexes(view)
    out: dict[Hex, tuple[str, ...]] = {}
    frontier: list[tuple[Hex, tuple[str, ...]]] = [(start, ())]
    seen = {start}
    while frontier:
        nxt = []
        for h, path in frontier:
            if len(path) >= limit:
                continue
            for n in view.map.neighbours(h):
                if n in seen or not view.map.has(h, n, "railroad") or not friendly_rail(view, n):
                    continue
                seen.add(n)
                p = path + (str(n),)
                out[n] = p
                nxt.append((n, p))
        frontier = nxt
    return out


def check_rail(view: View, units: tuple[str, ...], path: tuple[str, ...], relieve: str = "") -> Illegal | None:
    st = view.state
    if st.player != SOVIET or any(view.side(u) != SOVIET for u in units if u in st.units):
        return Illegal("19.3", "only the Soviet player may move units by rail")
    bad = may_start_moving(view, units)
    if bad:
        return bad
    if st.phase != MOVEMENT:
        return Illegal("5.34", "rail movement is allowed only in the initial movement phase")
    start = common_start(view, units)
    if isinstance(start, Illegal):
        return start
    v = view.vars
    for u in units:
        done = move_block(view, u, "rail")
        if done is not None:
            return done
    try:
        hexes = [Hex.parse(t) for t in path]
    except HexError as exc:
        return Illegal("5.31", str(exc))
    if not hexes:
        return Illegal("5.31", "the rail path is empty")
    if len(hexes) > max_hexes(view):
        return Illegal("19.3", f"a rail move covers at most {max_hexes(view)} rail hexes, this one {len(hexes)}")
    used, limit = capacity(view)
    already = [u for u in units if u in v.rail_entry]
    need = counted(view, tuple(u for u in units if u not in already))
    if used + need > limit:
        return Illegal("19.3", f"rail capacity is {limit} units a turn; {used} already used, {need} more asked")
    if not friendly_rail(view, start):
        return Illegal("5.31", f"{start} is not a friendly rail hex (it must have a railroad and be free of German units and zones)")
    prev = start
    for h in hexes:
        if prev.distance(h) != 1 or not view.map.has(prev, h, "railroad"):
            return Illegal("5.31", f"no railroad runs from {prev} to {h}")
        if not friendly_rail(view, h):
            return Illegal("5.33", f"{h} is German-occupied or German-controlled: the train cannot pass")
        prev = h
    bound = [u for u in units if directive.in_force(view.game) and directive.exempt(view, u, start) is None]
    if bound and hexes[-1].col > start.col:
        return Illegal("22.22", f"Stalin's Directive: {', '.join(bound)} must end the rail move in hexrow {start.col:02d} or lower")
    if relieve:
        # 22.2 with 22.22: a ride by rail out of a higher-numbered hexrow relieves as a walk does.
        return may_relieve(view, units) or check_relief(view, units, start, hexes[-1], relieve)
    return None


def destinations(view: View, units: tuple[str, ...]) -> dict[Hex, tuple[str, ...]]:
    """Every hex the units could reach by rail now, with the shortest rail path (5.3, 19.3).

    Empty when a rail move is not allowed at all (check_rail on a one-hex path says why).
    """
    start = common_start(view, units)
    if isinstance(start, Illegal) or not friendly_rail(view, start):
        return {}
    limit = max_hexes(view)
    parent: dict[Hex, Hex] = {start: start}
    depth = {start: 0}
    frontier = [start]
    while frontier:
        nxt: list[Hex] = []
        for h in frontier:
            if depth[h] >= limit:
                continue
            for n in view.map.neighbours(h):
                if n in parent or not view.map.has(h, n, "railroad") or not friendly_rail(view, n):
                    continue
                parent[n] = h
                depth[n] = depth[h] + 1
                nxt.append(n)
        frontier = nxt
    out: dict[Hex, tuple[str, ...]] = {}
    for h in parent:
        if h == start:
            continue
        cand = path_back(parent, start, h)
        if check_rail(view, units, cand) is None:
            out[h] = cand
    return out
