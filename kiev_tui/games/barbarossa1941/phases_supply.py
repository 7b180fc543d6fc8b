"""Supply, isolation, rail, rail markers, naval moves and the set-up choices, wired into the rule system.

The rules are the pure modules ``supply.py`` (8, 8.1, 8.2, 12.1) and ``rail.py`` (10, 10.1-10.3);
this module keeps what they need in the game state and turns their answers into phases,
prompts and actions:

- the rail state (markers, rail taken over, points spent) is ``B41Vars.rail`` in
  ``RailState.to_dict`` form, read back once per position (``rail_state``);
- the isolation phase (8, 8.1, 14.3.5) marks and clears Isolated markers (``UnitState.markers``)
  at once and asks the owner, one stack at a time, which unit takes each isolation loss
  (``isolation_loss``); the owner then ends the phase;
- the rail phase (10, 10.1) takes ``move`` actions as rail moves: ``reachable`` answers rail reach
  and ``legal`` lists them; a unit moved by rail has spent its MP for the turn (``B41Vars.railed``);
- the Axis rail-marker phase (10.3) takes ``move_marker``; Soviet units entering taken rail win it
  back as they enter (``reclaim_hex``, called by ``system.enter_hex``);
- ``sail`` is 12.1's naval move, in the movement phase;
- the set-up: every ``[choices]`` unit of the scenario is asked for with a set-up prompt (15.1,
  15.2), its default hex first, plus an option to take every remaining default of the side.

Rulings: docs/rulings.md, Barbarossa 1941, "Supply and rail wired into play".
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterator

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Note
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.prompts import SETUP, Option, Prompt
from kiev_tui.engine.rules import Reach
from kiev_tui.games.barbarossa1941 import rail as rl
from kiev_tui.games.barbarossa1941 import supply as sup
from kiev_tui.games.barbarossa1941 import system as sy
from kiev_tui.games.barbarossa1941.actions import IsolationLoss, Move, MoveMarker, Place, Sail, SetupDefaults
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.schema import AXIS, SCHEMA, SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.state import RAIL_SPENT

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

RAIL, MARKERS, ISOLATION = "rail", "rail_markers", "isolation"
ISO_KIND = "isolation_loss"
BLITZKRIEG = "14.3.5"
#: The scenario parameter listing the optional rules of 14.3 in play (none by default).
OPTIONS_KEY = "optional_rules"


# ------------------------------------------------------------------------------------ the rail state


def rail_state(game: "Game") -> rl.RailState:
    """The rail markers, taken rail and rail points now (10, 10.3), read once per position."""
    memo = game.memo
    hit = memo.get("b41.rail_state")
    if hit is None:
        data = game.state.vars.rail
        if data:  # a marker off the map is saved as "" (TOML has no null)
            data = {**data, "markers": [m or None for m in data.get("markers", [])]}
            hit = rl.RailState.from_dict(data, game.scenario.map.grid)
        else:  # a position built without a start: every marker off the map
            hit = rl.RailState((None,) * sy.tables_of(game).rail.axis_markers)
        memo["b41.rail_state"] = hit
    return hit  # type: ignore[no-any-return]


def save_rail(game: "Game", rs: rl.RailState) -> None:
    data = rs.to_dict(game.scenario.map.grid)
    data["markers"] = [m or "" for m in data["markers"]]
    game.state.vars.rail = data


def supply_answer(game: "Game", board: Board | None = None) -> sup.SupplyAnswer:
    """``supply.supply`` for the position now, with the rail state (8, 8.2, 10.2)."""
    return sup.supply(board or sy.board_of(game), rail_state(game))


def parse_options(value: object) -> tuple[str, ...]:
    """The 14.3 rules named by an ``optional_rules`` value: a list, or one string of case numbers
    separated by commas or spaces (a game option is a single string: ``--option
    optional_rules=14.3.1,14.3.5``)."""
    if isinstance(value, str):
        items = re.split(r"[,\s]+", value)
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = [str(v) for v in value]
    else:
        items = [] if value is None or value is False else [str(value)]
    return tuple(sorted({i.strip() for i in items if i.strip()}))


def options_in_play(game: "Game") -> frozenset[str]:
    """The optional rules of 14.3 the scenario's parameters (or the game's options) switch on."""
    return frozenset(parse_options(game.scenario.params.get(OPTIONS_KEY)))


def hex_in_supply(game: "Game", side: str, h: Hex) -> bool:
    """Is the hex in supply for ``side`` (12.4 forts, 12.5 drop cities)?"""
    return sup.hex_in_supply(sy.board_of(game), side, h, rail_state(game))


def counts_on_loss_track(game: "Game", uid: str) -> bool:
    """Does a step ``uid`` loses now advance its side's loss marker (8.1, 9.2)?"""
    return sup.counts_on_loss_track(sy.board_of(game), uid)


def fleet_mined(game: "Game") -> bool:
    """Is the gulf mined against the Baltic Fleet (12.9), with units holding the cities counted?"""
    return sup.fleet_mined(sy.board_of(game))


def start(game: "Game") -> None:
    """The scenario's rail markers at the start (10.3, 17.1), from its set-up position, and the
    rail it gives the Axis without a marker (``axis_rail``: Typhoon's Finnish line, 10.2)."""
    sc = game.scenario
    board = Board.from_scenario(sc, sy.tables_of(game))
    board = replace(board, control=sy.control_of(game))
    markers = [sc.map.grid.parse(str(x)) for x in sc.params.get("rail_markers", [])]
    rs = rl.initial_state(board, markers)
    held = frozenset(sc.map.grid.parse(str(x)) for x in sc.params.get("axis_rail", []))
    save_rail(game, replace(rs, taken=rs.taken | held))


def reclaim_hex(game: "Game", uids: Any, h: Hex) -> None:
    """A Soviet unit entering rail the Axis took over wins it back, with any marker on it (10.2)."""
    if not uids or game.scenario.catalog.units[uids[0]].side != SOVIET:
        return
    if game.scenario.catalog.units[uids[0]].type == "partisan":
        return
    rs = rail_state(game)
    if h not in rs.taken and h not in rs.markers:
        return
    rs = replace(rs, taken=rs.taken - {h}, markers=tuple(None if m == h else m for m in rs.markers))
    save_rail(game, rs)
    game.memo.pop("b41.rail_state", None)
    game.emit(Note(f"Soviet units take back the rail at {game.scenario.map.grid.id(h)} (10.2)"))


# ------------------------------------------------------------------------------------ isolation (8, 8.1)


def begin_isolation(game: "Game") -> None:
    """The side's isolation phase: markers set and cleared, then each loss asked of the owner."""
    st = game.state
    if st.turn == game.scenario.first_turn:  # 17: the scenario's opening position starts in supply (ruling)
        game.emit(Note("the scenario's set-up is in supply: the first isolation check is next turn (8, 17)"))
        return
    run_isolation(game)


def run_isolation(game: "Game") -> None:
    st = game.state
    board = sy.board_of(game)
    side = st.player
    res = sup.isolation_phase(board, side, rail_state(game), blitzkrieg=BLITZKRIEG in options_in_play(game))
    grid = game.scenario.map.grid
    for uid in res.marked:
        st.units[uid].markers.add(sy.ISOLATED)
    for uid in res.cleared:
        st.units[uid].markers.discard(sy.ISOLATED)
    if res.marked:
        game.emit(Note(f"out of supply, isolated: {', '.join(res.marked)} (8)"))
    if res.cleared:
        game.emit(Note(f"back in supply, no longer isolated: {', '.join(res.cleared)} (8.1)"))
    losses = [{"hex": grid.id(x.hex), "candidates": list(x.candidates), "default": x.default, "steps": x.steps,
               "case": x.case} for x in res.losses]
    frame = {"kind": ISO_KIND, "side": side, "losses": losses, "picks": {}}
    _next_loss(game, frame)


def _next_loss(game: "Game", frame: dict[str, Any]) -> None:
    """Ask the next loss that has a choice; apply them all once every one is picked."""
    st = game.state
    picks: dict[str, str] = frame["picks"]
    for loss in frame["losses"]:
        if loss["hex"] in picks:
            continue
        if len(loss["candidates"]) == 1:  # one unit can take it: no question
            picks[loss["hex"]] = loss["candidates"][0]
            continue
        if st.pending is not frame:
            st.push_prompt(frame)
        return
    if st.pending is frame or (st.pending is not None and st.pending.get("kind") == ISO_KIND):
        st.pop_prompt()
    _apply_losses(game, frame)


def _apply_losses(game: "Game", frame: dict[str, Any]) -> None:
    st = game.state
    for loss in frame["losses"]:
        uid = frame["picks"][loss["hex"]]
        u = st.units[uid]
        left = len(game.scenario.catalog.units[uid].steps) - u.step
        u.step += int(loss["steps"])
        if int(loss["steps"]) >= left:  # 8.1: off the map; these steps never count on 9.2's track
            u.status, u.hex = "eliminated", None
            u.markers.discard(sy.ISOLATED)
            game.emit(Note(f"{uid} is eliminated: cut off from supply, its last step is lost ({loss['case']})"))
        else:
            game.emit(Note(f"{uid} loses a step: cut off from supply ({loss['case']})"))


def iso_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    loss = next(x for x in frame["losses"] if x["hex"] not in frame["picks"])
    opts = [Option("isolation_loss", f"{u} loses the step" + (" (default)" if u == loss["default"] else ""),
                   IsolationLoss(u), unit=u, hex=loss["hex"])
            for u in [loss["default"]] + [c for c in loss["candidates"] if c != loss["default"]]]
    side = str(frame["side"])
    return Prompt(side, ISO_KIND, str(loss["case"]),
                  f"{SCHEMA.side_name(side)} player: the stack cut off in {loss['hex']} loses a step; which unit?",
                  tuple(opts))


def iso_answer(game: "Game", action: Action) -> None:
    frame = game.state.pending
    assert isinstance(action, IsolationLoss) and frame is not None
    loss = next(x for x in frame["losses"] if x["hex"] not in frame["picks"])
    frame["picks"][loss["hex"]] = action.unit
    _next_loss(game, frame)


# ------------------------------------------------------------------------------------ rail (10, 10.1)


def begin_rail(game: "Game") -> None:
    """The side's rail phase: its rail points for the turn come back (10)."""
    st = game.state
    rs = rail_state(game)
    rs = replace(rs, used=tuple((s, n) for s, n in rs.used if s != st.player))
    save_rail(game, rs)
    game.memo.pop("b41.rail_state", None)
    tab = sy.tables_of(game).rail
    pts = tab.axis_points if st.player == AXIS else tab.soviet_points
    game.emit(Note(f"{SCHEMA.side_name(st.player)} rail points this turn: {pts} (10)"))


def can_rail(game: "Game", uid: str) -> bool:
    st = game.state
    board = sy.board_of(game)
    if uid not in board.hex_of or uid in st.vars.railed or board.side(uid) != st.player:
        return False
    return not isinstance(rl.rail_reachable(board, rail_state(game), (uid,), supply_answer(game, board)), Illegal)


def rail_reach(game: "Game", units: tuple[str, ...]) -> dict[Hex, Reach]:
    """Where the stack may go by rail now (10.1), for ``reachable`` in the rail phase."""
    if any(u in game.state.vars.railed for u in units):
        return {}
    board = sy.board_of(game)
    got = rl.rail_reachable(board, rail_state(game), units, supply_answer(game, board))
    return {} if isinstance(got, Illegal) else got


def check_rail(game: "Game", a: Move) -> Illegal | None:
    st = game.state
    board = sy.board_of(game)
    for uid in a.units:
        if uid not in st.units:
            return Illegal("10.1", f"there is no unit {uid}")
        if board.side(uid) != st.player:
            return Illegal("2", f"{uid} is not a unit of the {SCHEMA.side_name(st.player)} player")
        if uid in st.vars.railed:
            return Illegal("10.1", f"{uid} has already moved by rail this turn")
    try:
        path = [game.scenario.map.grid.parse(t) for t in a.path]
    except HexError as exc:
        return Illegal("10.1", str(exc))
    got = rl.check_rail_move(board, rail_state(game), a.units, path, supply_answer(game, board))
    return got if isinstance(got, Illegal) else None


def apply_rail(game: "Game", a: Move) -> None:
    st = game.state
    board = sy.board_of(game)
    grid = game.scenario.map.grid
    rs = rail_state(game)
    points = rl.check_rail_move(board, rs, a.units, [grid.parse(t) for t in a.path], supply_answer(game, board))
    assert not isinstance(points, Illegal)
    save_rail(game, rs.spend(st.player, points))
    sy.move_units(game, a.units, a.path)
    for uid in a.units:
        st.vars.railed.append(uid)
        st.vars.spent[uid] = RAIL_SPENT  # 10.1: the move uses all the unit's MP
    tab = sy.tables_of(game).rail
    total = tab.axis_points if st.player == AXIS else tab.soviet_points
    game.emit(Note(f"{', '.join(a.units)} move by rail to {a.path[-1]} for {points} rail points "
                   f"({total - rs.spent(st.player) - points} left, 10.1)"))


def legal_rail(game: "Game", side: str) -> Iterator[Action]:
    board = sy.board_of(game)
    units = [u for u in sorted(board.hex_of) if can_rail(game, u)]
    by_hex: dict[Hex, list[str]] = {}
    for u in units:
        by_hex.setdefault(board.hex_of[u], []).append(u)
    groups = [(u,) for u in units] + [tuple(v) for v in by_hex.values() if len(v) > 1]
    for g in groups:
        for r in rail_reach(game, g).values():
            yield Move(g, r.path)


# ------------------------------------------------------------------------------------ markers (10.3)


def begin_markers(game: "Game") -> None:
    """The Axis rail-marker phase: every marker may advance once (10.3)."""
    save_rail(game, rail_state(game).new_marker_phase())
    game.memo.pop("b41.rail_state", None)


def check_marker(game: "Game", a: MoveMarker) -> Illegal | None:
    st = game.state
    if st.phase != MARKERS:
        return Illegal("10.3", "rail markers advance in the rail-marker phase")
    if st.player != AXIS:
        return Illegal("10.3", "only the Axis has rail markers")
    got = _marker_result(game, a)
    return got if isinstance(got, Illegal) else None


def _marker_result(game: "Game", a: MoveMarker) -> rl.RailState | Illegal:
    grid = game.scenario.map.grid
    try:
        path = [grid.parse(t) for t in a.path]
        start_hex = grid.parse(a.start) if a.start else None
    except HexError as exc:
        return Illegal("10.3", str(exc))
    return rl.check_marker_move(sy.board_of(game), rail_state(game), a.index, path, start_hex)


def apply_marker(game: "Game", a: MoveMarker) -> None:
    got = _marker_result(game, a)
    assert not isinstance(got, Illegal)
    save_rail(game, got)
    game.emit(Note(f"rail marker {a.index + 1} advances to {a.path[-1]} (10.3)"))


def _paths(net: dict[Hex, tuple[Hex, ...]], start: Hex, n: int) -> Iterator[tuple[Hex, ...]]:
    todo: list[tuple[Hex, ...]] = [(start,)]
    while todo:
        p = todo.pop()
        if len(p) > 1:
            yield p[1:]
        if len(p) <= n:
            todo += [p + (x,) for x in net.get(p[-1], ()) if x not in p]


def legal_markers(game: "Game", side: str) -> Iterator[Action]:
    """Every marker advance (10.3): from its hex, and for a free marker from each Axis rail hex
    that touches rail the Axis does not own yet."""
    if side != AXIS:
        return
    board = sy.board_of(game)
    rs = rail_state(game)
    grid = board.gmap.grid
    net = rl.links(board.gmap)
    owned = rl.owned(board, rs, AXIS)
    front = sorted(h for h in owned if any(n not in owned for n in net.get(h, ())))
    soviet = rl.home_rail(board, SOVIET)
    for i, here in enumerate(rs.markers):
        if i in rs.moved:
            continue
        starts: list[tuple[Hex, str]] = [(here, "")] if here is not None else []
        if rl.is_free(board, rs, i):
            starts += [(h, grid.id(h)) for h in front if h != here]
        for h, tag in starts:
            for p in _paths(net, h, board.tables.rail.marker_advance):
                if not any(x in soviet and x not in owned for x in p):
                    continue  # an advance that takes no new rail is no use
                a = MoveMarker(i, tuple(grid.id(x) for x in p), tag)
                if not isinstance(rl.check_marker_move(board, rs, i, p, h if tag else None), Illegal):
                    yield a


# ------------------------------------------------------------------------------------ naval moves (12.1)


def check_sail(game: "Game", a: Sail) -> Illegal | None:
    st = game.state
    if st.phase != sy.MOVEMENT:
        return Illegal("12.1", "a naval move is made in the movement phase")
    board = sy.board_of(game)
    if a.unit not in st.units or board.side(a.unit) != st.player:
        return Illegal("2", f"{a.unit} is not a unit of the {SCHEMA.side_name(st.player)} player")
    if a.unit in st.vars.started or st.vars.spent.get(a.unit, 0):
        return Illegal("12.1", f"{a.unit} has already moved this turn")
    try:
        to = game.scenario.map.grid.parse(a.hex)
    except HexError as exc:
        return Illegal("12.1", str(exc))
    used = st.vars.naval_moved.get(st.player, 0) == st.turn
    return sup.check_naval_move(board, a.unit, to, used)


def apply_sail(game: "Game", a: Sail) -> None:
    st = game.state
    st.vars.naval_moved[st.player] = st.turn
    sy.move_units(game, (a.unit,), (a.hex,))
    st.vars.spent[a.unit] = RAIL_SPENT  # 12.1: the crossing is the unit's whole move
    game.emit(Note(f"{a.unit} sails to {a.hex} (12.1)"))


def legal_sail(game: "Game", side: str) -> Iterator[Action]:
    board = sy.board_of(game)
    seas = board.tables.supply.naval_seas
    ports = [h for s in seas for h in sorted(sup.ports(board, s))]
    grid = board.gmap.grid
    for h in ports:
        for uid in board.at(h):
            if board.side(uid) != side:
                continue
            for to in ports:
                a = Sail(uid, grid.id(to))
                if check_sail(game, a) is None:
                    yield a


# ------------------------------------------------------------------------------------ set-up (15.1, 15.2)


def setup_frames(game: "Game") -> list[dict[str, Any]]:
    """One set-up frame per ``[choices]`` unit, its default hex first, in reverse order so the
    scenario's first choice is asked first."""
    from kiev_tui.games.barbarossa1941.setup_check import choice_hexes

    sc = game.scenario
    grid = sc.map.grid
    out = []
    for uid in sc.extra.get("choices", {}):
        default = sc.setup[uid]
        rest = sorted(h for h in choice_hexes(sc, uid) if h != default)
        out.append({"kind": SETUP, "side": sc.catalog.units[uid].side, "unit": uid,
                    "hexes": [grid.id(default)] + [grid.id(h) for h in rest]})
    return out[::-1]


def lift_choices(game: "Game") -> None:
    """Units waiting for a set-up answer are off the map until placed."""
    for f in game.state.prompts:
        if f.get("kind") == SETUP:
            u = game.state.units[str(f["unit"])]
            u.status, u.hex = "pending", None


def _open_hexes(game: "Game", board: Board, frame: dict[str, Any]) -> list[str]:
    """The frame's hexes the unit may start in now: the side's, within 3's limit; if earlier
    answers filled every one, the book's hex (never an empty choice)."""
    side = str(frame["side"])
    grid = game.scenario.map.grid
    uid = str(frame["unit"])
    ok = [h for h in frame["hexes"] if board.owner(grid.parse(h)) in (None, side)
          and check_hex(board, grid.parse(h), adding=[uid]) is None]  # 3: no overstack
    return ok or [frame["hexes"][0]]


def setup_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    board = sy.board_of(game)
    side = str(frame["side"])
    uid = str(frame["unit"])
    default = frame["hexes"][0]
    opts = [Option("place", f"{uid} starts in {h}" + (" (default)" if h == default else ""), Place(uid, h),
                   hex=h, unit=uid)
            for h in _open_hexes(game, board, frame)]
    left = sum(1 for f in game.state.prompts if f.get("kind") == SETUP and f.get("side") == side)
    opts.append(Option("setup_defaults", f"accept the remaining {left} default set-up hexes", SetupDefaults()))
    return Prompt(side, SETUP, "15", f"{SCHEMA.side_name(side)} player: where does {uid} start?", tuple(opts))


def setup_answer(game: "Game", action: Action) -> None:
    st = game.state
    top = st.pending
    assert top is not None
    if isinstance(action, SetupDefaults):
        side = str(top["side"])
        keep = []
        for f in reversed(st.prompts):  # in the order they would have been asked
            if f.get("kind") == SETUP and f.get("side") == side:
                uid = str(f["unit"])
                board = sy.board_of(game)  # rebuilt on every read while an action is applied
                st.units[uid].status, st.units[uid].hex = "map", _open_hexes(game, board, f)[0]
            else:
                keep.append(f)
        keep.reverse()
        st.prompts[:] = keep
        st.vars.setup_done.append(side)
        game.emit(Note(f"{SCHEMA.side_name(side)} units set up in their default hexes (15)"))
    else:
        assert isinstance(action, Place)
        st.pop_prompt()
        st.units[action.unit].status, st.units[action.unit].hex = "map", action.hex
        game.emit(Note(f"{action.unit} sets up in {action.hex}"))


# ------------------------------------------------------------------------------------ registration


def _chain_legal(phase: str, fn: Callable[["Game", str], Iterator[Action]]) -> None:
    """Add ``fn`` to the phase's extra legal actions, keeping any another module put there."""
    old = sy.EXTRA_LEGAL.get(phase)
    if old is None:
        sy.EXTRA_LEGAL[phase] = fn
        return

    def both(game: "Game", side: str) -> Iterator[Action]:
        yield from old(game, side)
        yield from fn(game, side)
    sy.EXTRA_LEGAL[phase] = both


def _only_answer(kind: str) -> Callable[["Game", Action], Illegal | None]:
    def check(game: "Game", a: Action) -> Illegal | None:
        return Illegal("6" if kind == ISO_KIND else "15", f"no choice waits for '{a.kind}'")
    return check


def register() -> None:
    sy.EXTRA_ACTIONS[MoveMarker] = (check_marker, apply_marker)  # type: ignore[assignment]
    sy.EXTRA_ACTIONS[Sail] = (check_sail, apply_sail)  # type: ignore[assignment]
    sy.EXTRA_ACTIONS[IsolationLoss] = (_only_answer(ISO_KIND), lambda g, a: None)
    sy.EXTRA_ACTIONS[SetupDefaults] = (_only_answer(SETUP), lambda g, a: None)
    sy.EXTRA_PROMPTS[ISO_KIND] = (iso_prompt, iso_answer)
    _chain_legal(RAIL, legal_rail)
    _chain_legal(MARKERS, legal_markers)
    _chain_legal(sy.MOVEMENT, legal_sail)


register()

__all__ = ["rail_state", "save_rail", "supply_answer", "hex_in_supply", "counts_on_loss_track", "fleet_mined",
           "options_in_play", "begin_isolation", "run_isolation", "begin_rail", "rail_reach", "check_rail",
           "apply_rail", "begin_markers", "check_marker", "apply_marker", "check_sail", "apply_sail",
           "setup_frames", "setup_prompt", "setup_answer", "reclaim_hex", "start"]
