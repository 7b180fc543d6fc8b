"""The campaign's own phases wired into the rule system: arrivals and withdrawals (9.1, 12.5, 15.3,
17.2), replacements (9.2, 12.5, 12.11), field forts (12.4), partisans and militia (12.7, 12.11),
the VP track and its events, the end of the game (13, 14.3.1) and the scenarios' switches (14, 17).

The rules themselves are the pure modules (``reinforcements``, ``replacements``, ``forts``,
``partisans``, ``victory``, ``scenarios``); this file keeps their bookkeeping in ``B41Vars``, asks
them what is allowed, and turns every choice into a prompt with options (so the generic face,
plain mode and the bot can answer it).  City control is the game state's ``control`` (hex id ->
the side that last held it, 13), kept up to date by ``victory.update_control`` after every action.

``install()`` registers the actions, prompts and the after-action check with ``system.py``.
"""

from __future__ import annotations

import dataclasses
import heapq
from typing import TYPE_CHECKING, Any, Iterable

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import GameOver, Note
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.prompts import Option, Prompt
from kiev_tui.games.barbarossa1941 import forts, partisans, reinforcements as rf, replacements as rp
from kiev_tui.games.barbarossa1941 import scenarios, victory
from kiev_tui.games.barbarossa1941.actions import (Arrive, BuildFort, Done, PlacePartisan, RaiseMilitia,
                                                   Replacement, WithdrawAir)
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.schema import AXIS, SCHEMA, SOVIET

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

#: Prompt kinds (frames on the prompt stack).
REPLACE, FORT, PARTISAN, MILITIA, AIR_LEAVES = "replace", "fort", "partisan", "militia", "air_leaves"
#: The optional rules of 14.3 in play: the scenario's ``optional_rules`` (ids, comma-separated).
OPTIONS_KEY = "optional_rules"
BUDGET_FIELDS = ("base_infantry", "base_motorized", "complement_infantry", "complement_motorized",
                 "pool_infantry", "pool_motorized", "finnish", "romanian")
MILITIA_EVENT = "fatherland_in_danger"  # 13, 12.11: the 5 VP event frees the militia counters
PARTISAN_EVENT = "partisans"  # 13, 12.7: the 18 VP event


def _s() -> Any:
    from kiev_tui.games.barbarossa1941 import system
    return system


# -- the scenario's switches and the bookkeeping ------------------------------------------------------

def options_of(game: "Game") -> tuple[str, ...]:
    """The 14.3 rules in play, read as the supply wiring reads them (a list, or one string)."""
    from kiev_tui.games.barbarossa1941.phases_supply import parse_options

    return parse_options(game.scenario.params.get(OPTIONS_KEY))


def rules_of(game: "Game") -> scenarios.ScenarioRules:
    """The scenario's rules with its optional rules (14, 17), read once."""
    d = game.scenario.derived
    key = ("b41.rules", options_of(game))
    r = d.get(key)
    if r is None:
        r = d[key] = scenarios.rules_for(game.scenario, _s().tables_of(game), options_of(game))
    return r  # type: ignore[no-any-return]


def ensure(game: "Game") -> None:
    """Set up the campaign's bookkeeping the first time it is needed (14, 17: pools, fired events)."""
    v = game.state.vars
    if v.begun:
        return
    v.begun = 1
    rules = rules_of(game)
    v.options = list(rules.options)
    v.fired = dict(rules.events_fired)  # 17.1: the events below the starting VP are past
    v.pools = dataclasses.asdict(rp.start_pools(_s().tables_of(game), game.scenario.params))
    v.tracks = {t: 0 for t in rp.TRACKS}
    v.seen = sorted(_ids(game, partisans.approached(_s().board_of(game))))  # 12.11: from the set-up


def _ids(game: "Game", hexes: Iterable[Hex]) -> list[str]:
    grid = game.scenario.map.grid
    return [grid.id(h) for h in hexes]


def _hexes(game: "Game", ids: Iterable[str]) -> list[Hex]:
    grid = game.scenario.map.grid
    return [grid.parse(h) for h in ids]


def control_hexes(game: "Game") -> dict[Hex, str]:
    return _s().control_of(game)  # type: ignore[no-any-return]


def pools_of(game: "Game") -> rp.Pools:
    return rp.Pools(**game.state.vars.pools)


def budget_of(game: "Game", side: str) -> rp.Budget:
    b = game.state.vars.budget
    return rp.Budget(side, game.state.turn, *(int(b.get(f, 0)) for f in BUDGET_FIELDS))


def _store_budget(game: "Game", b: rp.Budget) -> None:
    game.state.vars.budget = {f: int(getattr(b, f)) for f in BUDGET_FIELDS}


def _side_name(side: str) -> str:
    return SCHEMA.side_name(side)


# -- supply answers the campaign rules need (8, 9.2, 12.4) -----------------------------------------------

def _supply(game: "Game", board: Board) -> Any:
    from kiev_tui.games.barbarossa1941 import supply
    memo = game.memo
    ans = memo.get("b41.campaign_supply")
    if ans is None:
        ans = memo["b41.campaign_supply"] = supply.supply(board, None)
    return ans


def supplied_hexes(game: "Game", board: Board, side: str, hexes: Iterable[Hex]) -> frozenset[Hex]:
    """Which of ``hexes`` are in supply for ``side`` (12.4, 9.22): ``supply.hex_in_supply``'s test,
    with the supply nets worked out once."""
    from kiev_tui.games.barbarossa1941 import supply
    ans = _supply(game, board)
    ends = ans.nets[side] | frozenset(ans.limited[side])  # 12.4: the net, full or limited
    out = set()
    for h in hexes:
        if supply.enemy_there(board, h, side):
            continue
        eff = board.tables.weather.effects[board.weather(h)]
        mp = eff.mp_infantry or board.tables.supply.hex_trace_mp
        if supply.traces_to(board, h, side, supply.INFANTRY, mp, ends):
            out.add(h)
    return frozenset(out)


def _rail_to_border(board: Board) -> dict[str, int]:
    """German units' distance in rail hexes to the Axis home rail (9.2; a partisan hex costs 4, 12.7)."""
    from kiev_tui.games.barbarossa1941 import rail
    net = rail.links(board.gmap)
    friendly = rail.friendly_rail(board, None, AXIS)
    dist: dict[Hex, int] = {}
    todo = [(0, h) for h in rail.home_rail(board, AXIS)]
    heapq.heapify(todo)
    while todo:
        d, h = heapq.heappop(todo)
        if h in dist:
            continue
        dist[h] = d
        for n in net.get(h, ()):
            if n in friendly and n not in dist:
                heapq.heappush(todo, (d + partisans.rail_hex_cost(board, n), n))
    out = {}
    for uid, h in board.hex_of.items():
        if board.side(uid) == AXIS and board.nation(uid) == "german":
            near = [dist[x] for x in (h, *board.gmap.neighbours(h)) if x in dist]
            if near:
                out[uid] = min(near)
    return out


# -- the turn start: withdrawals and 14.3.3 (hooked in system._withdrawals) -------------------------------

def turn_start(game: "Game") -> None:
    """12.5, 15.3: units listed to leave this turn go; 14.3.3: an optional rule's die is rolled."""
    ensure(game)
    st = game.state
    for side in SCHEMA.sides:
        in_play = [u for u, s in st.units.items() if s.status in ("map", "pending") and u not in st.vars.withdrawn]
        for uid in rf.withdrawals(game.scenario, st.turn, side, in_play):
            withdraw(game, uid, "it leaves the game this turn (12.5, 15.3)")
    _optional_rolls(game)


def withdraw(game: "Game", uid: str, why: str) -> None:
    u = game.state.units[uid]
    u.status, u.hex = "eliminated", None
    game.state.vars.withdrawn.append(uid)
    game.state.vars.air_return.pop(uid, None)
    game.emit(Note(f"{uid} is withdrawn: {why}"))


def _optional_rolls(game: "Game") -> None:
    """14.3.3: on its turn the optional event's die is rolled; on the number its units come in."""
    st = game.state
    rules = rules_of(game)
    for eid, turn in rf.optional_roll_turns(game.scenario, rules.options).items():
        if turn != st.turn or eid in st.vars.fired:
            continue
        die = game.roll(f"optional event {eid} (14.3.3)")
        got = rf.optional_arrivals(game.scenario, st.turn, rules.options, die)
        st.vars.fired[eid] = st.turn
        if not got:
            game.emit(Note(f"{eid}: {die}, nothing happens (14.3.3)"))
            continue
        board = _s().board_of(game)
        for a in got:
            hexes = sorted(rf.entry_hexes(board, a, control_hexes(game)))
            if hexes:
                _enter(game, a.uid, hexes[0], a)
                board = _s().board_of(game)
        game.emit(Note(f"{eid}: {die}, {', '.join(a.uid for a in got)} come in (14.3.3)"))


# -- arrivals (9.1, 15.3, 17.2) ---------------------------------------------------------------------------

def arrivals(game: "Game", side: str) -> list[rf.Arrival]:
    """Units of ``side`` due on the map now and not yet placed (late ones from earlier turns too);
    held airborne units stay in hand (12.5) and shock armies come through replacements (12.11)."""
    st = game.state
    v = st.vars
    due = rf.due(game.scenario, st.turn, side, v.options, v.fired)
    late = [a for t in range(rules_of(game).first_turn, st.turn)
            for a in rf.due(game.scenario, t, side, v.options, v.fired) if a.uid in v.late]
    return [a for a in (*late, *due) if a.place not in (rf.HELD, rf.REPLACE_ARMY)
            and st.units[a.uid].status == "pending" and a.uid not in v.withdrawn]


def arrival_options(game: "Game", side: str) -> list[Option]:
    board = _s().board_of(game)
    ctrl = control_hexes(game)
    entered = {game.scenario.map.grid.parse(h): n for h, n in game.state.vars.entered.items()}
    air = _s().air_hexes(game)
    grid = game.scenario.map.grid
    out = []
    for a in arrivals(game, side):
        for h in sorted(rf.entry_hexes(board, a, ctrl, entered, air)):
            hid = grid.id(h)
            out.append(Option("arrive", f"{a.uid} arrives on {hid} ({a.case})", Arrive(a.uid, hid), hex=hid, unit=a.uid))
    return out


def _enter(game: "Game", uid: str, hid: str, a: rf.Arrival | None = None) -> None:
    st = game.state
    board = _s().board_of(game)
    u = st.units[uid]
    u.status, u.hex, u.step = "map", hid, rf.entry_lost(board, uid)  # 15.2: some enter reduced
    st.vars.entered[hid] = st.vars.entered.get(hid, 0) + 1  # 9.1: one a turn per entry city
    if uid in st.vars.late:
        st.vars.late.remove(uid)
    if game.scenario.catalog.units[uid].layer != "air":
        _s().enter_hex(game, (uid,), game.scenario.map.grid.parse(hid))
    game.emit(Note(f"{uid} arrives on {hid} ({a.case if a else '9.1'})"))


def _check_arrive(game: "Game", action: Arrive, side: str) -> Illegal | None:
    a = next((x for x in arrivals(game, side) if x.uid == action.unit), None)
    if a is None:
        return Illegal("9.1", f"{action.unit} is not due to arrive now")
    board = _s().board_of(game)
    entered = {game.scenario.map.grid.parse(h): n for h, n in game.state.vars.entered.items()}
    return rf.check_place(board, a, game.scenario.map.grid.parse(action.hex), control_hexes(game), entered,
                          _s().air_hexes(game))


# -- replacements (9.2) -----------------------------------------------------------------------------------

def begin_replacements(game: "Game") -> None:
    """9.21, 9.22: the side's points for the phase; then its arrivals and replacements are asked."""
    ensure(game)
    st = game.state
    side = st.player
    v = st.vars
    board = _s().board_of(game)
    ctrl = control_hexes(game)
    if side == SOVIET and "14.3.1" in v.options:  # 14.3.1: the die sets this turn's attacks
        die = game.roll("mandatory Soviet attacks (14.3.1)")
        v.required = victory.mandatory_attacks(st.turn, die)
        if v.required:
            game.emit(Note(f"the Soviet side must attack {v.required} hexes this turn ({die}, 14.3.1)"))
    majors = [h for h in rf.cities_held(board, ctrl, SOVIET, major_only=True)]
    cut = [h for h in majors if h not in supplied_hexes(game, board, SOVIET, majors)] if side == SOVIET else []
    b = rp.budget(_s().tables_of(game), side, st.turn, v.tracks, pools_of(game),
                  cities=rp.soviet_cities(board, ctrl, cut), motorized_held=rp.motorized_cities(board, ctrl))
    v.tracks = dict(b.tracks)
    _store_budget(game, b)
    for line in b.lines:
        game.emit(Note(f"{_side_name(side)} replacements: {line}"))
    if _replace_options(game, side):
        st.push_prompt({"kind": REPLACE, "side": side})


def context(game: "Game", side: str, board: Board) -> rp.ReplaceContext:
    st = game.state
    v = st.vars
    sup = _s().supply_of(game, board)
    from kiev_tui.games.barbarossa1941 import rail
    fjd = st.units.get(rp.FJD)
    return rp.ReplaceContext(
        side=side, budget=budget_of(game, side), control=control_hexes(game),
        supplied=frozenset(u for u in board.hex_of if board.side(u) == side and not sup.isolated(u)),
        friendly_rail=rail.friendly_rail(board, None, side),
        rail_to_border=_rail_to_border(board) if side == AXIS else {},
        eliminated=frozenset(u for u, s in st.units.items() if s.status == "eliminated" and u not in v.withdrawn
                             and game.scenario.catalog.units[u].layer != "air"),
        done=frozenset(v.replaced), ersatz_for=frozenset(v.ersatz),
        ersatz_free=ersatz_free(game) if side == AXIS else (),
        shocks_available=tuple(
            u for u in rp.shock_armies_available(game.scenario, st.turn) if st.units[u].status == "pending"),
        shocks_this_turn=v.shocks, entered={game.scenario.map.grid.parse(h): n for h, n in v.entered.items()},
        fjd_available=side == AXIS and fjd is not None and fjd.status == "pending" and rp.FJD not in v.withdrawn
        and rp.FJD not in v.dropped and st.turn >= _fjd_turn(game))


def ersatz_free(game: "Game") -> tuple[str, ...]:
    """Ersatz counters never brought in yet, in number order (9.2: each is used once)."""
    from kiev_tui.games.barbarossa1941.units import ERSATZ_PREFIX, is_ersatz

    st, cat = game.state, game.scenario.catalog.units
    used = set(st.vars.ersatz.values())
    free = [u for u, s in st.units.items() if is_ersatz(cat[u]) and s.status == "pending" and u not in used
            and u not in st.vars.withdrawn]
    return tuple(sorted(free, key=lambda u: int(u[len(ERSATZ_PREFIX):])))


def _fjd_turn(game: "Game") -> int:
    """The turn the 7 FjD comes into the Axis hand (15.3), after which it may be traded (12.5)."""
    for r in game.scenario.reinforcements:
        if rp.FJD in r.units:
            return int(r.turn)
    return 10 ** 6


def _replacement_label(r: rp.Replace, grid: Any) -> str:
    where = f" on {grid.id(r.hex)}" if r.hex is not None else ""
    return {rp.REPLENISH: f"{r.uid} regains a step", rp.REBUILD: f"{r.uid} is rebuilt{where}",
            rp.MOBILE_GROUP: f"{r.uid} becomes a mobile group", rp.SHOCK: f"{r.uid} replaces {r.target}{where}",
            rp.TRADE_FJD: "give up the 7 FjD for a German infantry step",
            rp.ERSATZ: f"an ersatz corps for {r.target}{where}"}.get(r.kind, r.kind)


def _to_action(r: rp.Replace, grid: Any) -> Replacement:
    return Replacement(r.kind, r.uid, grid.id(r.hex) if r.hex is not None else "", r.target)


def _replace_options(game: "Game", side: str) -> list[Option]:
    key = f"b41.replace_options.{side}"  # worked out once per position (the prompt is read often)
    got = game.memo.get(key)
    if got is None:
        got = game.memo[key] = _work_out_replace_options(game, side)
    return list(got)


def _work_out_replace_options(game: "Game", side: str) -> list[Option]:
    grid = game.scenario.map.grid
    board = _s().board_of(game)
    out = arrival_options(game, side)
    for r in rp.options(board, context(game, side, board)):
        a = _to_action(r, grid)
        out.append(Option("replace", _replacement_label(r, grid), a, hex=a.hex or None, unit=r.uid))
    return out


def replace_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    side = str(frame["side"])
    opts = _replace_options(game, side)
    if not any(o.verb == "arrive" for o in opts):  # 9.1: every arrival that can be placed is placed first
        opts.append(Option("end_phase", "done with replacements and reinforcements", EndPhase()))
    b = budget_of(game, side)
    text = (f"{_side_name(side)} player: place your reinforcements and spend replacement points "
            f"(infantry {b.infantry}, motorized {b.motorized}"
            + (f", Finnish {b.finnish}, Romanian {b.romanian}" if side == AXIS else "") + ")")
    return Prompt(side, REPLACE, "9.2", text, tuple(opts))


def replace_answer(game: "Game", action: Action) -> None:
    st = game.state
    side = str(st.pending["side"])
    if isinstance(action, (Done, EndPhase)):
        st.pop_prompt()
        for a in arrivals(game, side):  # 9.1: no hex for it now; it comes in next time it can
            if a.uid not in st.vars.late:
                st.vars.late.append(a.uid)
        st.vars.budget = {}  # 9.2: points not spent are lost
        sequence.advance(game, _s().HOOKS)
        return
    if isinstance(action, Arrive):
        a = next(x for x in arrivals(game, side) if x.uid == action.unit)
        _enter(game, action.unit, action.hex, a)
    elif isinstance(action, Replacement):
        apply_replacement(game, action, side)
    if not _replace_options(game, side) and not arrivals(game, side):
        replace_answer(game, EndPhase())


def _replace_of(game: "Game", a: Replacement) -> rp.Replace:
    return rp.Replace(a.what, a.unit, game.scenario.map.grid.parse(a.hex) if a.hex else None, a.target)


def check_replacement(game: "Game", a: Replacement, side: str) -> Illegal | None:
    board = _s().board_of(game)
    return rp.check_replace(board, _replace_of(game, a), context(game, side, board))


def apply_replacement(game: "Game", a: Replacement, side: str) -> None:
    """Spend the point and make the change (9.2, 12.5, 12.11)."""
    st = game.state
    v = st.vars
    board = _s().board_of(game)
    r = _replace_of(game, a)
    kind = rp.cost(board, r)
    pools = pools_of(game)
    if kind is None:  # 12.5: the 7 FjD traded for an infantry step
        pools = rp.trade_fjd(_s().tables_of(game), pools)
        withdraw(game, a.unit, "traded for a German infantry replacement step (12.5)")
        b = budget_of(game, side)
        if b.pool_infantry < _s().tables_of(game).replacements.german_infantry_per_turn:
            b = dataclasses.replace(b, pool_infantry=b.pool_infantry + 1)
    else:
        b, pools = rp.spend(budget_of(game, side), kind, pools)
    v.pools = dataclasses.asdict(pools)
    _store_budget(game, b)
    u = st.units[a.unit]
    if a.what in (rp.REPLENISH, rp.MOBILE_GROUP):
        u.step -= 1
        v.replaced.append(a.unit)
        game.emit(Note(f"{a.unit} {'becomes a mobile group' if a.what == rp.MOBILE_GROUP else 'regains a step'} "
                       f"for a {kind} point ({'12.11' if a.what == rp.MOBILE_GROUP else '9.2'})"))
    elif a.what == rp.REBUILD:
        u.status, u.hex, u.step = "map", a.hex, rp.rebuilt_lost(board, a.unit)
        v.replaced.append(a.unit)
        game.emit(Note(f"{a.unit} is rebuilt on {a.hex} with one step (9.2)"))
    elif a.what == rp.ERSATZ:  # 9.2: enters as a German reinforcement would, with its one step
        v.ersatz[a.target] = a.unit
        v.replaced.append(a.unit)
        _enter(game, a.unit, a.hex)
        game.emit(Note(f"{a.unit} takes the place of {a.target}, destroyed, on {a.hex} (9.2)"))
    elif a.what == rp.SHOCK:  # 12.11: the army leaves, the shock army stands in its place
        where = str(st.units[a.target].hex)
        withdraw(game, a.target, f"{a.unit} takes its place (12.11)")
        u.status, u.hex, u.step = "map", where, 0
        v.shocks += 1
        v.replaced.append(a.unit)
        game.emit(Note(f"{a.unit} is formed on {where} in place of {a.target} (12.11)"))
    elif a.what == rp.TRADE_FJD:
        game.emit(Note("the 7 FjD is given up for one more German infantry step (12.5)"))


def record_loss(game: "Game", uid: str, board: Board) -> None:
    """9.21: a step destroyed in combat moves its loss marker (not when isolated or surrounded)."""
    from kiev_tui.games.barbarossa1941 import zoc
    ensure(game)
    h = board.hex_of.get(uid)
    if h is None:
        return
    cut = _s().supply_of(game, board).isolated(uid) or zoc.surrounded(board, h, board.side(uid))
    track = rp.track_of(board, uid, cut)
    if track is not None:
        v = game.state.vars
        v.tracks[track] = v.tracks.get(track, 0) + 1


# -- forts (12.4) -----------------------------------------------------------------------------------------

def begin_forts(game: "Game") -> None:
    ensure(game)
    st = game.state
    st.vars.forts_built = 0
    if _fort_options(game, st.player):
        st.push_prompt({"kind": FORT, "side": st.player})


def _fort_candidates(game: "Game", board: Board, side: str) -> frozenset[Hex]:
    gmap = board.gmap
    near = set()
    for h in gmap.settlements():
        near.add(h)
        near.update(n for n in gmap.neighbours(h) if gmap.on_map(n))
    return supplied_hexes(game, board, side, near)


def fort_supplied(game: "Game", side: str) -> frozenset[Hex]:
    memo = game.memo
    key = f"b41.fort_supplied.{side}"
    got = memo.get(key)
    if got is None:
        got = memo[key] = _fort_candidates(game, _s().board_of(game), side)
    return got  # type: ignore[no-any-return]


def _check_fort(game: "Game", a: BuildFort, side: str, sup: frozenset[Hex] | None = None,
                board: Board | None = None) -> Illegal | None:
    st = game.state
    if board is None:
        board = _s().board_of(game)
    h = game.scenario.map.grid.parse(a.hex)
    return forts.check_build(board, side, h, st.turn, st.vars.forts_built,
                             fort_supplied(game, side) if sup is None else sup,
                             mobilized=any(e in st.vars.fired for e in ("mobilization",)),
                             moving=a.moving, moved=st.vars.forts_moved)


def _fort_options(game: "Game", side: str) -> list[Option]:
    board = _s().board_of(game)
    grid = game.scenario.map.grid
    st = game.state
    out = []
    sup = fort_supplied(game, side)
    sites = sorted(forts.sites(board, side, sup))
    for h in sites:
        a = BuildFort(grid.id(h))
        # one board for every site: while an action is applied, board_of builds a new one at
        # each call, and each new board works out both sides' zones again (issue 33)
        if _check_fort(game, a, side, sup, board) is None:
            out.append(Option("build_fort", f"build a fort on {a.hex}", a, hex=a.hex))
    if side == SOVIET and st.vars.forts_moved < board.tables.forts.soviet_free_moves_per_turn:
        for f in forts.forts_on_map(board, side):
            for h in sites[:40]:
                a = BuildFort(grid.id(h), f)
                if h != board.hex_of[f] and _check_fort(game, a, side, sup, board) is None:
                    out.append(Option("move_fort", f"move {f} to {a.hex}", a, hex=a.hex, unit=f))
    return out


def fort_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    side = str(frame["side"])
    opts = _fort_options(game, side) + [Option("end_phase", "done building forts", EndPhase())]
    return Prompt(side, FORT, "12.4", f"{_side_name(side)} player: build field forts", tuple(opts))


def fort_answer(game: "Game", action: Action) -> None:
    st = game.state
    side = str(st.pending["side"])
    if isinstance(action, BuildFort):
        build_fort(game, action, side)
        if _fort_options(game, side):
            return
    st.pop_prompt()
    sequence.advance(game, _s().HOOKS)


def build_fort(game: "Game", a: BuildFort, side: str) -> None:
    st = game.state
    board = _s().board_of(game)
    if a.moving:
        st.vars.forts_moved += 1
        uid = a.moving
    else:
        st.vars.forts_built += 1
        uid = forts.spare_counters(board, side)[0]
    st.units[uid].status, st.units[uid].hex, st.units[uid].step = "map", a.hex, 0
    game.emit(Note(f"{uid} {'is moved to' if a.moving else 'is built on'} {a.hex} (12.4)"))


# -- partisans (12.7) -------------------------------------------------------------------------------------

def _free_partisans(game: "Game") -> list[str]:
    st = game.state
    board = _s().board_of(game)
    return sorted(u for u, s in st.units.items() if u in board.units and partisans.is_partisan(board, u)
                  and s.status != "map" and st.vars.back.get(u, 0) <= st.turn and u not in st.vars.withdrawn)


def begin_partisans(game: "Game") -> None:
    ensure(game)
    if PARTISAN_EVENT in game.state.vars.fired and _partisan_options(game):
        game.state.push_prompt({"kind": PARTISAN, "side": SOVIET})
    city_partisans(game, phase=True)  # 12.7: every freed city is offered again here (docs/rulings.md)


def _partisan_options(game: "Game") -> list[Option]:
    board = _s().board_of(game)
    grid = game.scenario.map.grid
    free = _free_partisans(game)
    out = []
    for uid in free[:1]:  # one counter at a time, in id order
        left = len(free) - 1
        for h in sorted(partisans.sites(board, uid, left)):
            hid = grid.id(h)
            out.append(Option("place_partisan", f"{uid} on {hid}", PlacePartisan(uid, hid), hex=hid, unit=uid))
    return out


def partisan_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    opts = _partisan_options(game)
    if frame.get("city"):
        opts = _city_options(game) + [Option("done", "decline: no partisans rise now", Done())]
        names = ", ".join(o.hex or "" for o in opts[:-1])
        return Prompt(SOVIET, PARTISAN, "12.7", f"Soviet player: the Axis holds {names or 'no city'} without a "
                      "garrison; place a partisan there (its VP are lost to the Axis for good)?", tuple(opts))
    if not opts:
        opts = [Option("end_phase", "no partisan can be placed", EndPhase())]
    return Prompt(SOVIET, PARTISAN, "12.7", "Soviet player: place your partisans", tuple(opts))


def partisan_answer(game: "Game", action: Action) -> None:
    st = game.state
    city = bool(st.pending.get("city"))
    if isinstance(action, PlacePartisan):
        place_partisan(game, action, city)
        if _city_options(game) if city else _partisan_options(game):
            return  # 12.7: another freed city, and a counter for it
    st.pop_prompt()
    if not city:
        sequence.advance(game, _s().HOOKS)


def place_partisan(game: "Game", a: PlacePartisan, city: bool = False) -> None:
    st = game.state
    st.units[a.unit].status, st.units[a.unit].hex, st.units[a.unit].step = "map", a.hex, 0
    if city and a.hex not in st.vars.liberated:  # 12.7: its VP are lost to the Axis for good
        st.vars.liberated.append(a.hex)
        st.control[a.hex] = SOVIET
    game.emit(Note(f"{a.unit} {'rise in' if city else 'are placed on'} {a.hex} (12.7)"))


def _city_options(game: "Game") -> list[Option]:
    board = _s().board_of(game)
    grid = game.scenario.map.grid
    free = _free_partisans(game)
    ctrl = control_hexes(game)
    return [Option("place_partisan", f"place a partisan in {grid.id(h)} ({free[0]})",
                   PlacePartisan(free[0], grid.id(h)), hex=grid.id(h), unit=free[0])
            for h in sorted(partisans.city_sites(board, ctrl)) if free
            and partisans.check_city_partisan(board, free[0], h, ctrl) is None
            and grid.id(h) not in game.state.vars.liberated]


# -- militia (12.11) --------------------------------------------------------------------------------------

def _free_militia(game: "Game") -> list[str]:
    st = game.state
    if MILITIA_EVENT not in st.vars.fired:
        return []
    cat = game.scenario.catalog.units
    return sorted(u for u, s in st.units.items() if cat[u].type == "militia" and s.status != "map"
                  and st.vars.back.get(u, 0) <= st.turn and u not in st.vars.withdrawn)


def _militia_options(game: "Game", seen: Iterable[str]) -> list[Option]:
    board = _s().board_of(game)
    grid = game.scenario.map.grid
    free = _free_militia(game)
    if not free:
        return []
    ctrl = control_hexes(game)
    before, raised = _hexes(game, seen), _hexes(game, game.state.vars.raised)
    out = []
    for h in sorted(partisans.militia_sites(board, ctrl, before, raised)):
        if partisans.check_militia(board, free[0], h, ctrl, before, raised, free) is None:
            out.append(Option("raise_militia", f"{free[0]} raised in {grid.id(h)}",
                              RaiseMilitia(free[0], grid.id(h)), hex=grid.id(h), unit=free[0]))
    return out


def militia_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    opts = _militia_options(game, frame.get("seen", [])) + [Option("done", "raise no militia now", RaiseMilitia())]
    return Prompt(SOVIET, MILITIA, "12.11", "Soviet player: an Axis unit has come next to a major city; raise its militia?",
                  tuple(opts))


def militia_answer(game: "Game", action: Action) -> None:
    st = game.state
    frame = st.pending
    if isinstance(action, RaiseMilitia) and action.unit:
        u = st.units[action.unit]
        u.status, u.hex, u.step = "map", action.hex, 0
        st.vars.raised.append(action.hex)
        game.emit(Note(f"{action.unit} is raised in {action.hex} (12.11)"))
        if _militia_options(game, frame.get("seen", [])):
            return
    st.pop_prompt()


# -- the check after every action: control, partisans, militia, the VP track (13) ---------------------------

def after_action(game: "Game", action: Action) -> None:
    """Run after every applied action: cities change hands, partisans in an Axis zone go, new
    militia is offered after an Axis move, the VP events fire and sudden death is judged (13)."""
    st = game.state
    if st.over:
        return
    ensure(game)
    board = _s().board_of(game)
    ctrl = victory.update_control(board, control_hexes(game))
    grid = game.scenario.map.grid
    for h, side in ctrl.items():
        st.control[grid.id(h)] = side
    for uid in partisans.to_withdraw(board):  # 12.7: off until the end of the turn
        u = st.units[uid]
        u.status, u.hex = "pending", None
        st.vars.back[uid] = st.turn + 1
        game.emit(Note(f"{uid} are taken off: an Axis unit or zone is on them (12.7)"))
    if st.phase == "combat" and st.player == SOVIET:
        st.vars.soviet_attacked = sorted(set(st.vars.soviet_attacked) | set(st.vars.attacked))
    board = _s().board_of(game)
    now = _ids(game, partisans.approached(board))
    new = [h for h in now if h not in st.vars.seen]
    if new:
        seen = list(st.vars.seen)
        st.vars.seen = sorted(set(st.vars.seen) | set(new))
        if _militia_options(game, seen) and (st.pending is None or st.pending.get("kind") != MILITIA):
            st.push_prompt({"kind": MILITIA, "side": SOVIET, "seen": seen})
    city_partisans(game)  # 12.7: a Russian major city just left ungarrisoned
    check_vp(game)


def city_site_ids(game: "Game") -> list[str]:
    """Russian major cities the Axis holds without a garrison, not yet freed by partisans (12.7)."""
    st = game.state
    board = _s().board_of(game)
    return sorted(h for h in _ids(game, partisans.city_sites(board, control_hexes(game))) if h not in st.vars.liberated)


def city_partisans(game: "Game", phase: bool = False) -> None:
    """12.7: partisans may rise at any moment in a Russian major city the Axis holds ungarrisoned.

    Run after every action: a city an action has just left ungarrisoned (not in ``city_asked``)
    opens a Soviet choice, partisans or not, when a partisan counter is free and no other choice
    waits (else it is asked after that choice, or when a counter is free again).  A city garrisoned
    or retaken leaves ``city_asked``, so it is asked again the next time it is left empty.  In the
    Soviet partisan phase (``phase``) every such city is offered again, declined ones too."""
    st = game.state
    sites = city_site_ids(game)
    st.vars.city_asked = [h for h in st.vars.city_asked if h in sites]
    if st.over or not _free_partisans(game) or not _city_options(game):
        return
    fresh = [h for h in sites if h not in st.vars.city_asked]
    if not (phase or (fresh and st.pending is None)):
        return
    st.vars.city_asked = sorted(set(st.vars.city_asked) | set(sites))
    st.push_prompt({"kind": PARTISAN, "side": SOVIET, "city": 1})


def score_of(game: "Game") -> victory.Score:
    st = game.state
    return victory.score(_s().board_of(game), control_hexes(game), _hexes(game, st.vars.liberated), st.vars.bonus)


def check_vp(game: "Game") -> None:
    """13: the events the track reaches fire once; 20 VP by the end of turn 6 ends the game."""
    st = game.state
    s = score_of(game)
    st.vars.vp_track, st.vars.axis_vp = s.track, s.axis_vp
    new = victory.events_reached(_s().tables_of(game), game.scenario, s.track, st.vars.fired)
    for eid in new:
        st.vars.fired[eid] = st.turn
        game.emit(Note(f"VP event {eid.replace('_', ' ')} at {s.track} VP (13)"))
    for side, utype, n in victory.withdrawn_by_events(game.scenario, new):
        if utype == "air":
            for _ in range(n):
                st.push_prompt({"kind": AIR_LEAVES, "side": side})
    out = victory.outcome(_s().tables_of(game), s.axis_vp, st.turn, rules_of(game).last_turn)
    if out is not None:
        end(game, out, s)


def end(game: "Game", out: victory.Outcome, s: victory.Score) -> None:
    st = game.state
    st.over = True
    st.prompts = []
    lines = s.text() + [out.why]
    st.vars.final = {"axis": out.vp, "lines": lines, "winner": out.winner or "", "level": out.level}
    game.emit(GameOver(_side_name(out.winner) if out.winner else "no", f"{out.level.replace('_', ' ')}: {out.why}"))


def victory_phase(game: "Game") -> None:
    """2.3, 13, 14.3.1: the turn's Soviet attack count is judged; the VP are counted."""
    ensure(game)
    st = game.state
    if st.vars.required:
        got = victory.mandatory_attack_vp(st.vars.required, _hexes(game, st.vars.soviet_attacked))
        if got:
            st.vars.bonus += got
            game.emit(Note(f"the Soviet side attacked {len(st.vars.soviet_attacked)} of {st.vars.required} hexes: "
                           f"+{got} VP to the Axis (14.3.1)"))
    check_vp(game)


def air_prompt(game: "Game", frame: dict[str, Any]) -> Prompt:
    side = str(frame["side"])
    cat = game.scenario.catalog.units
    st = game.state
    opts = [Option("withdraw_air", f"{u} leaves the game", WithdrawAir(u), unit=u) for u, s in sorted(st.units.items())
            if cat[u].layer == "air" and cat[u].side == side and u not in st.vars.withdrawn
            and (s.status == "map" or u in st.vars.air_return)]
    if not opts:
        opts = [Option("done", "no air corps left to withdraw", Done())]
    return Prompt(side, AIR_LEAVES, "13", f"{_side_name(side)} player: choose the air corps that leaves the game",
                  tuple(opts))


def air_answer(game: "Game", action: Action) -> None:
    game.state.pop_prompt()
    if isinstance(action, WithdrawAir):
        withdraw(game, action.unit, "the VP event takes an air corps away (13)")


# -- registration ---------------------------------------------------------------------------------------

def _no_prompt(case: str) -> Any:
    def check(game: "Game", action: Action) -> Illegal | None:
        return Illegal(case, f"'{action.kind}' answers a choice, and none waits for it")
    return check


def install() -> None:
    s = _s()
    s.EXTRA_PROMPTS.update({REPLACE: (replace_prompt, replace_answer), FORT: (fort_prompt, fort_answer),
                            PARTISAN: (partisan_prompt, partisan_answer), MILITIA: (militia_prompt, militia_answer),
                            AIR_LEAVES: (air_prompt, air_answer)})
    for cls, case in ((Arrive, "9.1"), (Replacement, "9.2"), (BuildFort, "12.4"), (PlacePartisan, "12.7"),
                      (RaiseMilitia, "12.11"), (WithdrawAir, "13"), (Done, "2")):
        s.EXTRA_ACTIONS.setdefault(cls, (_no_prompt(case), lambda game, action: None))
    if after_action not in s.AFTER_ACTION:
        s.AFTER_ACTION.append(after_action)
