"""The Barbarossa 1941 rule system: its sequence of play and the referee of every action.

The game-turn is ``data/barbarossa1941/sequence.toml`` stepped by ``engine/sequence.py``; the
weather drops the reaction and exploitation phases when every zone has mud or extreme cold
(12.3, ``weather.skip``).  Every rule is in a pure module taking a ``Board`` (movement, zoc,
stacking, combat, retreat, overrun, air); this file builds the Board from the game state,
checks and applies the actions, and asks the combat chain (``chain.py``) for each combat's
prompts.  Phases whose rules other modules will give (isolation, replacements and
reinforcements, rail, forts, partisans, rail markers, the victory check) step through with one
named hook each (``_begin_<phase>``), so they can be wired in one line.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import GameOver, Note, PhaseBegan, PhaseEnded, PlayerChanged
from kiev_tui.engine.game import Phase
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.prompts import SETUP, Option, Prompt, setup_frames
from kiev_tui.engine.rules import Cases, OddsPreview, Reach, Score
from kiev_tui.engine.state import GameState
from kiev_tui.engine.units import UnitState
from kiev_tui.games.barbarossa1941 import air, chain, combat, movement, overrun
from kiev_tui.games.barbarossa1941.actions import (ACTIONS, CHAIN_ACTIONS, AirStrike, Attack, Drop, EndRebasing,
                                                   Move, Overrun, Place, Rebase)
from kiev_tui.games.barbarossa1941.allowance import EXPLOITATION, MOVEMENT, REACTION
from kiev_tui.games.barbarossa1941.board import Board, other
from kiev_tui.games.barbarossa1941.data import DATA
from kiev_tui.games.barbarossa1941.schema import AXIS, SCHEMA, SOVIET
from kiev_tui.games.barbarossa1941.stacking import check_hex
from kiev_tui.games.barbarossa1941.terrain import RIVER
from kiev_tui.games.barbarossa1941.state import B41Vars
from kiev_tui.games.barbarossa1941.tables import Tables, read_tables
from kiev_tui.games.barbarossa1941 import weather as wx

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.games.barbarossa1941.supply import SupplyAnswer
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.tomlio import Reader

SEQUENCE_PATH = Path(__file__).resolve().parents[3] / "data" / "barbarossa1941" / "sequence.toml"
CASES = Cases(game_over="13", wrong_side="2")

COMBAT, AIR_REBASING = "combat", "air_rebasing"
MOVING = (MOVEMENT, EXPLOITATION)
REBASE = "rebase"  # the frame of the second side's share of the air rebasing (11.1)
ISOLATED = "isolated"  # the Isolated marker (8), set by the supply rules once wired


def _skip(rule: str) -> Callable[["Game", int, str], bool]:
    def skip(game: "Game", turn: int, phasing: str) -> bool:
        return wx.skip(tables_of(game).weather, rule, turn)  # 5.2, 5.3, 12.3
    return skip


SKIP_RULES: dict[str, Callable[["Game", int, str], bool]] = {r: _skip(r) for r in wx.SKIP_RULES}


# -- the position as the rule modules read it -------------------------------------------------------

def tables_of(game: "Game") -> Tables:
    """The scenario's tables, read once (scenario.derived)."""
    d = game.scenario.derived
    t = d.get("b41.tables")
    if t is None:
        sc = game.scenario
        t = d["b41.tables"] = read_tables(sc.tables_path, sc.tables)
    return t  # type: ignore[no-any-return]


def board_of(game: "Game") -> Board:
    """The ground position now (cached in game.memo; rebuilt on every read while applying)."""
    memo = game.memo
    b = memo.get("b41.board")
    if b is None:
        st, sc = game.state, game.scenario
        grid, cat = sc.map.grid, sc.catalog.units
        ground = {uid: grid.parse(u.hex) for uid, u in st.units.items()
                  if u.status == "map" and u.hex is not None and cat[uid].layer != "air"}
        b = Board(sc.map, tables_of(game), cat, ground, {u: st.units[u].step for u in ground}, turn=st.turn,
                  isolated=frozenset(u for u in ground if ISOLATED in st.units[u].markers),
                  control=control_of(game))
        from kiev_tui.games.barbarossa1941.supply import naval_superiority

        b = dataclasses.replace(b, naval=naval_superiority(b))  # 8.2, 12.1: from the ports held now
        memo["b41.board"] = b
    return b  # type: ignore[no-any-return]


def supply_of(game: "Game", board: Board | None = None) -> "SupplyAnswer":
    """The supply answer combat, retreat and overrun ask (8, 8.2, 10.2), with the rail state."""
    from kiev_tui.games.barbarossa1941.phases_supply import supply_answer

    return supply_answer(game, board)


def air_hexes(game: "Game") -> dict[str, Hex]:
    """Air corps on the map and their bases (11.1)."""
    st, sc = game.state, game.scenario
    return {uid: sc.map.grid.parse(u.hex) for uid, u in st.units.items()
            if u.status == "map" and u.hex is not None and sc.catalog.units[uid].layer == "air"}


def flown(game: "Game") -> frozenset[str]:
    return frozenset(u for u, s in game.state.units.items() if air.FLOWN in s.markers)


def control_of(game: "Game") -> dict[Hex, str]:
    grid = game.scenario.map.grid
    return {grid.parse(h): s for h, s in game.state.control.items()}


def axis_vp(game: "Game") -> int:
    """The Axis VP track (13): every objective the Axis controls, the events' and 17.1's count."""
    from kiev_tui.games.barbarossa1941 import phases_campaign

    return phases_campaign.score_of(game).track


# -- changes every rule makes the same way ----------------------------------------------------------

def eliminate(game: "Game", uid: str, why: str) -> None:
    u = game.state.units[uid]
    u.status, u.hex = "eliminated", None
    u.markers.discard(air.FLOWN)
    game.emit(Note(f"{uid} is eliminated: {why}"))


def lose_step(game: "Game", uid: str, board: Board) -> None:
    """The unit loses a step (6); with none left it is eliminated."""
    left = combat._steps_left(board, uid)
    game.state.units[uid].step += 1
    if left <= 1:
        eliminate(game, uid, "its last step is lost (6)")
    else:
        game.emit(Note(f"{uid} loses a step (6)"))


def enter_hex(game: "Game", uids: Sequence[str], h: Hex) -> None:
    """What a ground unit entering ``h`` does: takes a city, destroys an enemy field fort (12.4), a
    lone enemy airborne unit if a unit of quality 3+ enters (12.5), takes partisans off until the next
    turn (12.7), and enemy air corps based there (11.1, which come back later)."""
    st = game.state
    board = board_of(game)
    gmap = game.scenario.map
    hid = gmap.grid.id(h)
    side = board.side(uids[0])
    if gmap.settlement(h) is not None:
        st.control[hid] = side
    PS.reclaim_hex(game, uids, h)  # 10.2: Soviet units entering rail the Axis took win it back
    for uid in list(board.at(h)):
        if board.side(uid) == side:
            continue
        if board.udef(uid).type == "fort" and not board.udef(uid).extra.get("permanent"):
            eliminate(game, uid, "a field fort falls when an enemy unit enters its hex (12.4)")
        elif board.udef(uid).type == "airborne" and movement.falls_on_entry(board, h, uids):
            eliminate(game, uid, "a lone airborne unit is overrun by a unit of quality 3 or more (12.5)")
        elif board.udef(uid).type == "partisan":  # 12.7: off until the next turn, even if the stack moves on
            st.units[uid].status, st.units[uid].hex = "pending", None
            st.vars.back[uid] = st.turn + 1
            game.emit(Note(f"{uid} are taken off: an Axis unit entered their hex (12.7)"))
    for uid in air.overrun_bases(board, air_hexes(game), side, h):
        back = air.return_turn(board, st.turn)
        eliminate(game, uid, f"an enemy unit entered its base; it comes back on turn {back} (11.1)")
        st.vars.air_return[uid] = back


def move_units(game: "Game", uids: Sequence[str], path: Sequence[str],
               cost: Mapping[str, int] | None = None) -> None:
    """Move a stack along a path (already checked), with each hex's effects on entry."""
    st = game.state
    grid = game.scenario.map.grid
    for uid in uids:
        st.vars.started.setdefault(uid, str(st.units[uid].hex))
        if cost:
            st.vars.spent[uid] = st.vars.spent.get(uid, 0) + cost[uid]
    for hid in path:
        for uid in uids:
            st.units[uid].hex = hid
        enter_hex(game, uids, grid.parse(hid))


# -- where the other rule modules plug in (the lead wires them) -----------------------------------------

#: Actions of other modules (rail moves, replacements, forts, partisans...): action class ->
#: (check(game, action) -> Illegal | None, apply(game, action) -> None), refereed like this file's own.
EXTRA_ACTIONS: dict[type, tuple[Callable[["Game", Action], Illegal | None], Callable[["Game", Action], None]]] = {}
#: Prompt frames of other modules: frame kind -> (prompt(game, frame) -> Prompt, answer(game, action) -> None).
EXTRA_PROMPTS: dict[str, tuple[Callable[["Game", dict[str, Any]], Prompt], Callable[["Game", Action], None]]] = {}
#: Legal actions of other modules in a phase: phase id -> (game, side) -> iterable of actions.
EXTRA_LEGAL: dict[str, Callable[["Game", str], Any]] = {}
#: Checks run after every applied action (city control, the VP track, partisans, militia: 13, 12.7, 12.11).
AFTER_ACTION: list[Callable[["Game", Action], None]] = []


# -- the rule system ------------------------------------------------------------------------------------

class B41Rules:
    """Barbarossa 1941 (meets kiev_tui.engine.rules.RuleSystem)."""

    id = "barbarossa1941"
    version = "1"
    schema = SCHEMA
    cases = CASES
    actions = ACTIONS
    skip_rules = SKIP_RULES
    _sequence: "sequence.Sequence | None" = None

    @property
    def sequence(self) -> "sequence.Sequence":
        if B41Rules._sequence is None:
            B41Rules._sequence = sequence.load_sequence(SEQUENCE_PATH, SKIP_RULES)
        return B41Rules._sequence

    # -- data (as data.py) ------------------------------------------------------------------------
    def validate_file(self, path: Path, data: dict[str, Any]) -> bool:
        return DATA.validate_file(path, data)

    def read_units(self, root: "Reader", catalog: Any) -> None:
        DATA.read_units(root, catalog)

    def validate_tables(self, path: Path, data: dict[str, Any]) -> None:
        DATA.validate_tables(path, data)

    def check_scenario(self, scenario: "Scenario") -> None:
        DATA.check_scenario(scenario)

    def prepare_scenario(self, scenario: "Scenario") -> None:
        """Nothing is drawn or derived before play."""

    def new_vars(self) -> B41Vars:
        return B41Vars()

    def vars_from_dict(self, data: Mapping[str, Any]) -> B41Vars:
        return B41Vars.from_dict(data)

    # -- set-up -------------------------------------------------------------------------------------
    def setup(self, game: "Game") -> GameState:
        from kiev_tui.games.barbarossa1941.setup_check import _holder, check_reduced, side_land

        sc = game.scenario
        grid = sc.map.grid
        units = {uid: UnitState(uid) for uid in sc.catalog.units}
        for uid, h in sc.setup.items():
            units[uid].status, units[uid].hex = "map", grid.id(h)
        for uid, n in check_reduced(sc).items():  # 17: units that start reduced
            units[uid].step = n
        control: dict[str, str] = {}
        lands = {s: side_land(sc.map, s) for s in SCHEMA.sides}
        for h in sc.map.settlements():
            side = _holder(sc, h) or next((s for s in SCHEMA.sides if h in lands[s]), None)
            if side is not None:
                control[grid.id(h)] = side
        state = GameState(turn=sc.first_turn, player=sc.first_player, phase=MOVEMENT, units=units,
                          control=control, vars=self.new_vars())
        for frame in PS.setup_frames(game) + setup_frames(sc):  # the scenario's set-up choices, asked first
            state.push_prompt(frame)
        game.state = state
        PS.start(game)  # 10.3, 17.1: the rail markers, from the set-up position
        PS.lift_choices(game)  # units with a set-up choice wait off the map for their answer
        # 12.7: cities the set-up leaves without a garrison are offered to partisans in the Soviet
        # partisan phase, not at the first action (docs/rulings.md)
        state.vars.city_asked = _campaign.city_site_ids(game)
        game.memo.clear()
        first = sequence.start(game)
        state.turn, state.player, state.phase = sc.first_turn, first.phasing or sc.first_player, first.phase
        HOOKS.begin_step(game, first)
        return state

    # -- who and when -------------------------------------------------------------------------------
    def actor(self, game: "Game") -> str:
        top = game.state.pending
        if top is not None and top.get("side"):
            return str(top["side"])
        return sequence.current(game).owner

    def phase(self, game: "Game") -> Phase:
        st = game.state
        step = sequence.current(game)
        top = st.pending
        todo = (f"answer the {top['kind']} choice",) if top is not None else ()
        return Phase(st.turn, step.segment, st.phase, st.player, step.owner, sequence.segment_phases(game, step),
                     todo, str(top.get("side", "")) if top is not None else "", st.over)

    # -- the referee --------------------------------------------------------------------------------
    def check(self, game: "Game", action: Action) -> Illegal | None:
        st = game.state
        if st.prompts:
            return self._check_answer(game, action)
        if isinstance(action, (*CHAIN_ACTIONS, Place, EndRebasing)):
            return Illegal("6", f"no choice waits for '{action.kind}'")
        if isinstance(action, EndPhase):
            return None
        phase = st.phase
        if isinstance(action, Move) and phase == PS.RAIL:
            return PS.check_rail(game, action)  # 10.1: the rail phase's moves are rail moves
        if isinstance(action, Move):
            if phase not in MOVING:
                return Illegal("2.1", f"units move in the movement and exploitation phases, not in {phase}")
            return self._check_move(game, action)
        if isinstance(action, Overrun):
            if phase not in MOVING:
                return Illegal("7", "an overrun is made in the movement or exploitation phase")
            return self._check_overrun(game, action)
        if isinstance(action, Attack):
            if phase != COMBAT:
                return Illegal("6", "attacks are made in the combat phase")
            return self._check_attack(game, action)
        if isinstance(action, Drop):
            if phase != MOVEMENT:
                return Illegal("12.5", "airborne units drop in the movement phase")
            return self._check_drop(game, action)
        if isinstance(action, AirStrike):
            if phase != COMBAT:
                return Illegal("12.9", "an air corps attacks the fleet in the Axis combat phase")
            return self._check_strike(game, action)
        if isinstance(action, Rebase):
            if phase != AIR_REBASING:
                return Illegal("11.1", "air corps rebase in the air rebasing phase")
            return self._check_rebase(game, action, self.actor(game))
        extra = EXTRA_ACTIONS.get(type(action))
        if extra is not None:
            return extra[0](game, action)
        return Illegal("2", f"'{action.kind}' is not an action of Barbarossa 1941")

    def _own(self, game: "Game", board: Board, uids: Sequence[str]) -> Illegal | None:
        side = self.actor(game)
        for uid in uids:
            if uid not in game.state.units:
                return Illegal("5.1", f"there is no unit {uid}")
            if board.side(uid) != side:
                return Illegal("2", f"{uid} is not a unit of the {SCHEMA.side_name(side)} player")
        return None

    def _parse(self, game: "Game", ids: Sequence[str]) -> list[Hex] | Illegal:
        try:
            return [game.scenario.map.grid.parse(t) for t in ids]
        except HexError as exc:
            return Illegal("5.1", str(exc))

    def _check_move(self, game: "Game", a: Move) -> Illegal | None:
        board = board_of(game)
        bad = self._own(game, board, a.units)
        if bad is not None:
            return bad
        path = self._parse(game, a.path)
        if isinstance(path, Illegal):
            return path
        v = game.state.vars
        for uid in a.units:
            h = board.hex_of.get(uid)
            here = game.scenario.map.grid.id(h) if h is not None else ""
            if h is not None and uid in v.started and v.started[uid] != here and v.overran.get(uid) != here \
                    and movement.enemy_zoc(board, _mover(board, uid, game.state.phase), h):
                return Illegal("5.1", f"{uid} entered an enemy zone and has stopped for this phase")
        got = movement.path_cost(board, a.units, path, game.state.phase, v.spent)
        return got if isinstance(got, Illegal) else None

    def _check_overrun(self, game: "Game", a: Overrun) -> Illegal | None:
        board = board_of(game)
        bad = self._own(game, board, a.units)
        if bad is not None:
            return bad
        got = self._parse(game, (a.target,))
        if isinstance(got, Illegal):
            return got
        target = got[0]
        if not a.units or any(u not in board.hex_of for u in a.units):
            return Illegal("7", "an overrun is made by a stack of units on the map")
        start = self._start(game, board, a.units)
        if isinstance(start, Illegal):
            return start
        if a.coup:
            if board.side(a.units[0]) != AXIS or not any(board.nation(u) == "german" for u in a.units):
                return Illegal("12.6", "a coup de main is tried by German units")
            here = board.hex_of[a.units[0]]
            if not board.gmap.has(here, target, RIVER):
                return Illegal("12.6", "a coup de main is tried only against a river")
            bad = combat.coup_allowed(board, game.state.vars.coups)
            if bad is not None:
                return bad
        cost = overrun.overrun_cost(board, a.units, target, game.state.phase, start, game.state.vars.spent,
                                    True if a.coup else None, supply_of(game, board))
        if isinstance(cost, Illegal):
            return cost
        defenders = [u for u in board.at(target) if board.side(u) != board.side(a.units[0])]
        ld = chain.leader_options(board, {"defender": board.side(defenders[0]), "attackers": list(a.units)},
                                  target, "d") if defenders else []
        la = chain.leader_options(board, {"attackers": list(a.units)}, target, "a")
        p = combat.plan(board, a.units, target, la[0] if la else "", ld[0] if ld else "",
                        combat.Options(overrun=True, coup_de_main=True if a.coup else None), supply_of(game, board))
        return p if isinstance(p, Illegal) else None

    def _start(self, game: "Game", board: Board, uids: Sequence[str]) -> Hex | Illegal:
        v = game.state.vars
        grid = game.scenario.map.grid
        starts = {v.started.get(u, grid.id(board.hex_of[u])) for u in uids if u in board.hex_of}
        if len(starts) != 1:
            return Illegal("7", "an overrun is made by one stack that began its move together")
        return grid.parse(starts.pop())

    def _check_attack(self, game: "Game", a: Attack) -> Illegal | None:
        board = board_of(game)
        bad = self._own(game, board, a.attackers)
        if bad is not None:
            return bad
        got = self._parse(game, (a.target,))
        if isinstance(got, Illegal):
            return got
        v = game.state.vars
        for uid in a.attackers:
            if uid in v.fought:
                return Illegal("6", f"{uid} has already attacked this phase")
        if a.target in v.attacked:
            return Illegal("6", f"{a.target} has already been attacked this phase")
        bad = combat.check_attack(board, a.attackers, got[0])
        if bad is not None:
            return bad
        frame = chain.new_frame(board.side(a.attackers[0]), a.attackers, a.target)
        p = chain.trial_plan(game, board, frame)  # 6: both sides must have an assault leader
        return p if isinstance(p, Illegal) else None

    def droppable(self, game: "Game", side: str) -> list[str]:
        """Airborne units of the side kept off the map to drop, available by now (12.5, 15.3)."""
        st = game.state
        out = []
        for r in game.scenario.reinforcements:
            if r.side != side or r.turn > st.turn or r.extra.get("place") != "held":
                continue
            out += [u for u in r.units if game.scenario.catalog.units[u].type == "airborne"
                    and st.units[u].status == "pending"]
        return sorted(out)

    def _check_drop(self, game: "Game", a: Drop) -> Illegal | None:
        """12.5: one drop a turn, from a city of the side within range, never on a major city; the
        engine drops only into hexes without enemy units (docs/rulings.md)."""
        board = board_of(game)
        st = game.state
        side = self.actor(game)
        ab = board.tables.airborne
        if a.unit not in self.droppable(game, side):
            return Illegal("12.5", f"{a.unit} is no airborne unit of the {SCHEMA.side_name(side)} player "
                                   f"held off the map to drop")
        if st.vars.drops.get(side, 0) >= ab.drops_per_turn:
            return Illegal("12.5", f"{ab.drops_per_turn} drop a turn")
        got = self._parse(game, (a.hex,))
        if isinstance(got, Illegal):
            return got
        h = got[0]
        gmap = board.gmap
        if not gmap.on_map(h) or gmap.terrain(h) in ("sea", "lake"):
            return Illegal("12.5", f"no drop on {a.hex}")
        if gmap.settlement(h) == air.MAJOR:
            return Illegal("12.5", "never on a major city")
        if board.owner(h) not in (None, side):
            return Illegal("12.5", f"{a.hex} holds enemy units: the engine drops only into hexes free of them")
        reach = ab.german_drop_range if side == AXIS else ab.soviet_drop_range
        from kiev_tui.games.barbarossa1941.zoc import in_enemy_zoc

        ok = [c for c, who in control_of(game).items() if who == side and gmap.settlement(c) is not None
              and c.distance(h) <= reach and board.owner(c) in (None, side)
              and (side == AXIS or not in_enemy_zoc(board, c, side))]
        if not ok:
            return Illegal("12.5", f"{a.hex} is more than {reach} hexes from every city the side can fly from")
        return check_hex(board, h, adding=[a.unit])

    def _fleet(self, game: "Game") -> str | None:
        return next((u for u, s in sorted(game.state.units.items())
                     if s.status == "map" and game.scenario.catalog.units[u].type == "fleet"), None)

    def _check_strike(self, game: "Game", a: AirStrike) -> Illegal | None:
        """12.9: one Axis air corps a turn may attack the Baltic Fleet, in clear or freezing weather,
        as its only mission of the turn; the fleet must be within the corps' range."""
        board = board_of(game)
        st = game.state
        if self.actor(game) != AXIS:
            return Illegal("12.9", "only the Axis player sends an air corps against the fleet")
        bases = air_hexes(game)
        if a.unit not in bases or board.side(a.unit) != AXIS:
            return Illegal("12.9", f"{a.unit} is not an Axis air corps on the map")
        if a.unit in flown(game):
            return Illegal("11.2", f"{a.unit} has already flown this turn")
        if st.vars.fleet_strike == st.turn:
            return Illegal("12.9", "one air corps a turn attacks the fleet")
        fleet = self._fleet(game)
        if fleet is None:
            return Illegal("12.9", "the Baltic Fleet is not on the map")
        at = game.scenario.map.grid.parse(str(st.units[fleet].hex))
        cond = board.weather(at)
        if cond not in board.tables.baltic_fleet.air_attack_weather:
            return Illegal("12.9", f"no air attack on the fleet in {cond.replace('_', ' ')}")
        if bases[a.unit].distance(at) > air.air_range(board, a.unit):
            return Illegal("12.9", f"the fleet is beyond {a.unit}'s range")
        return None

    def _check_rebase(self, game: "Game", a: Rebase, side: str) -> Illegal | None:
        board = board_of(game)
        st = game.state
        if a.unit not in st.units or game.scenario.catalog.units[a.unit].layer != "air":
            return Illegal("11.1", f"{a.unit} is not an air corps")
        if board.side(a.unit) != side:
            return Illegal("2", f"{a.unit} is not an air corps of the {SCHEMA.side_name(side)} player")
        got = self._parse(game, (a.hex,))
        if isinstance(got, Illegal):
            return got
        if a.unit in st.vars.rebased:
            return Illegal("11.1", f"{a.unit} has already rebased this turn")
        returning = st.units[a.unit].status != "map"
        if returning and st.vars.air_return.get(a.unit, st.turn + 1) > st.turn:
            return Illegal("11.1", f"{a.unit} is not due back in play this turn")
        return air.check_base(board, air_hexes(game), control_of(game), a.unit, got[0], returning)

    def _check_answer(self, game: "Game", action: Action) -> Illegal | None:
        top = self.prompt(game)
        assert top is not None
        if action not in {o.action for o in top.options}:
            labels = ", ".join(o.label for o in top.options[:6]) + (" ..." if len(top.options) > 6 else "")
            return Illegal(top.case, f"answer the {top.kind} choice first: {labels}")
        return None

    def apply(self, game: "Game", action: Action) -> None:
        self._apply(game, action)
        for after in AFTER_ACTION:
            after(game, action)

    def _apply(self, game: "Game", action: Action) -> None:
        st = game.state
        top = st.pending
        if top is not None:
            self._answer(game, action)
            return
        if isinstance(action, EndPhase):
            self._end_phase(game)
        elif isinstance(action, Move) and st.phase == PS.RAIL:
            PS.apply_rail(game, action)
        elif isinstance(action, Move):
            board = board_of(game)
            path = [game.scenario.map.grid.parse(t) for t in action.path]
            cost = movement.path_cost(board, action.units, path, st.phase, st.vars.spent)
            assert not isinstance(cost, Illegal)
            move_units(game, action.units, action.path, cost=cost)
            game.emit(Note(f"{', '.join(action.units)} move {' > '.join(action.path)} (5.1)"))
        elif isinstance(action, Overrun):
            self._overrun(game, action)
        elif isinstance(action, Attack):
            st.vars.fought.extend(action.attackers)
            st.vars.attacked.append(action.target)
            game.emit(Note(f"{', '.join(action.attackers)} attack {action.target} (6)"))
            st.push_prompt(chain.new_frame(board_of(game).side(action.attackers[0]), action.attackers,
                                           action.target))
            chain.run(game)
        elif isinstance(action, Rebase):
            self._rebase(game, action)
        elif isinstance(action, AirStrike):
            self._strike(game, action)
        elif isinstance(action, Drop):
            self._drop(game, action)
        elif type(action) in EXTRA_ACTIONS:
            EXTRA_ACTIONS[type(action)][1](game, action)

    def _drop(self, game: "Game", a: Drop) -> None:
        st = game.state
        side = self.actor(game)
        ab = tables_of(game).airborne
        st.vars.drops[side] = st.vars.drops.get(side, 0) + 1
        die = game.roll(f"{a.unit} drops on {a.hex} (12.5)")
        lost = die > ab.german_survives_empty_max if side == AXIS else die >= ab.soviet_lost_empty_min
        if lost:
            eliminate(game, a.unit, f"the drop on {a.hex} fails ({die}, 12.5)")
            return
        st.units[a.unit].status, st.units[a.unit].hex = "map", a.hex
        st.vars.dropped[a.unit] = a.hex
        enter_hex(game, (a.unit,), game.scenario.map.grid.parse(a.hex))  # a city it lands in is taken
        game.emit(Note(f"{a.unit} lands on {a.hex} ({die}) and may support one attack this turn (12.5)"))

    def _strike(self, game: "Game", a: AirStrike) -> None:
        st = game.state
        st.vars.fleet_strike = st.turn
        st.units[a.unit].markers.add(air.FLOWN)  # 12.9: its mission for the turn
        fleet = self._fleet(game)
        assert fleet is not None
        bf = tables_of(game).baltic_fleet
        die = game.roll(f"{a.unit} attacks the Baltic Fleet (12.9)")
        if die > bf.air_attack_hit_max:
            game.emit(Note(f"{a.unit} attacks the Baltic Fleet: {die}, no effect (12.9)"))
            return
        st.units[fleet].step += 1
        if st.units[fleet].step >= bf.steps:
            eliminate(game, fleet, f"{a.unit} sinks its last step ({die}, 12.9)")
        else:
            game.emit(Note(f"{a.unit} attacks the Baltic Fleet: {die}, it loses a step (12.9)"))

    def _overrun(self, game: "Game", a: Overrun) -> None:
        st = game.state
        board = board_of(game)
        target = game.scenario.map.grid.parse(a.target)
        coup = ""
        if a.coup:  # 12.6: the coup de main is rolled first; a failure stops the overrun
            st.vars.coups += 1
            die = game.roll("coup de main (12.6)")
            if not combat.coup_roll(board, die):
                game.emit(Note(f"coup de main: {die}, it fails: no overrun across the river (12.6)"))
                return
            coup = "yes"
            game.emit(Note(f"coup de main: {die}, it succeeds (12.6)"))
        start = self._start(game, board, a.units)
        assert not isinstance(start, Illegal)
        cost = overrun.overrun_cost(board, a.units, target, st.phase, start, st.vars.spent,
                                    True if coup else None, supply_of(game, board))
        assert not isinstance(cost, Illegal)
        for uid in a.units:
            st.vars.started.setdefault(uid, str(st.units[uid].hex))
            st.vars.spent[uid] = st.vars.spent.get(uid, 0) + cost
        game.emit(Note(f"{', '.join(a.units)} overrun {a.target} for {cost} MP (7)"))
        st.push_prompt(chain.new_frame(board.side(a.units[0]), a.units, a.target, True, coup))
        chain.run(game)

    def _rebase(self, game: "Game", a: Rebase) -> None:
        u = game.state.units[a.unit]
        back = u.status != "map"
        u.status, u.hex = "map", a.hex
        game.state.vars.air_return.pop(a.unit, None)
        game.state.vars.rebased.append(a.unit)
        game.emit(Note(f"{a.unit} {'comes back into play' if back else 'rebases'} at {a.hex} (11.1)"))

    def _answer(self, game: "Game", action: Action) -> None:
        st = game.state
        top = st.pending
        if top["kind"] == chain.KIND:
            chain.answer(game, action)
        elif top["kind"] == SETUP:
            PS.setup_answer(game, action)
        elif top["kind"] in EXTRA_PROMPTS:
            EXTRA_PROMPTS[top["kind"]][1](game, action)
        elif top["kind"] == REBASE:
            if isinstance(action, Rebase):
                self._rebase(game, action)
                if not self._rebase_options(game, str(top["side"])):
                    st.pop_prompt()
                    sequence.advance(game, HOOKS)
            else:
                st.pop_prompt()  # 11.1: the second side has rebased; the phase ends
                sequence.advance(game, HOOKS)

    def _end_phase(self, game: "Game") -> None:
        st = game.state
        if st.phase == AIR_REBASING:  # 11.1: the common phase: the other side rebases too
            second = other(sequence.current(game).owner)
            if self._rebase_options(game, second):
                st.push_prompt({"kind": REBASE, "side": second})
                return
        sequence.advance(game, HOOKS)

    # -- prompts and legal actions ------------------------------------------------------------------
    def _rebase_options(self, game: "Game", side: str) -> list[Rebase]:
        board = board_of(game)
        st = game.state
        out: list[Rebase] = []
        bases, ctrl = air_hexes(game), control_of(game)
        grid = game.scenario.map.grid
        for uid, u in sorted(st.units.items()):
            if game.scenario.catalog.units[uid].layer != "air" or board.side(uid) != side or uid in st.vars.rebased:
                continue
            if u.status == "map":
                out += [Rebase(uid, grid.id(h)) for h in air.base_options(board, bases, ctrl, uid)]
            elif st.vars.air_return.get(uid, st.turn + 1) <= st.turn:
                out += [Rebase(uid, grid.id(h)) for h in air.base_options(board, bases, ctrl, uid, True)]
        return out

    def prompt(self, game: "Game") -> Prompt | None:
        top = game.state.pending
        if top is None:
            return None
        if top["kind"] == chain.KIND:
            return chain.prompt(game, top, board_of(game))
        if top["kind"] == SETUP:
            return PS.setup_prompt(game, top)
        if top["kind"] in EXTRA_PROMPTS:
            return EXTRA_PROMPTS[top["kind"]][0](game, top)
        side = str(top["side"])
        opts = [Option("end_rebasing", "done rebasing", EndRebasing())]
        opts += [Option("rebase", f"{r.unit} to {r.hex}", r, hex=r.hex, unit=r.unit)
                 for r in self._rebase_options(game, side)]
        return Prompt(side, REBASE, "11.1", f"{SCHEMA.side_name(side)} player: rebase your air corps", tuple(opts))

    def legal(self, game: "Game", side: str) -> Iterator[Action]:
        """While a prompt waits, its options; else EndPhase and, for each actable unit alone and each
        stack together, every move (movement, exploitation) or overrun; each attack by all the units
        next to an enemy hex and by each alone (combat); every rebasing (air rebasing)."""
        st = game.state
        if st.over or self.actor(game) != side:
            return
        top = self.prompt(game)
        if top is not None:
            yield from top.actions()
            return
        yield EndPhase()
        board = board_of(game)
        if st.phase == MOVEMENT:
            yield from self._drops(game, side)
        if st.phase in MOVING:
            for units in self._groups(game, board):
                for r in self.reachable(game, units, explain=False).values():
                    if r.ok:
                        yield Move(units, r.path)
                for a in self._overruns(game, board, units):
                    yield a
        elif st.phase == COMBAT:
            for a in self._attacks(game, board):
                yield a
            for uid in sorted(air_hexes(game)):
                strike = AirStrike(uid)
                if self.check(game, strike) is None:
                    yield strike
        elif st.phase == AIR_REBASING:
            yield from self._rebase_options(game, side)
        if st.phase in EXTRA_LEGAL:
            yield from EXTRA_LEGAL[st.phase](game, side)

    def pending(self, game: "Game") -> Prompt | None:
        """The choice that must be answered first (the prompt on top of the stack), or None."""
        return self.prompt(game)

    def options(self, game: "Game", side: str) -> list[Action]:
        """What the generic faces offer beyond moving a stack and ending the phase (their "options"
        list): overruns, drops next to the enemy and naval moves while moving, attacks and air
        strikes in the combat phase, rebasing moves in the air rebasing phase, rail-marker advances
        in the rail-marker phase.  Prompts are answered separately."""
        st = game.state
        if st.over or st.prompts or self.actor(game) != side:
            return []
        board = board_of(game)
        out: list[Action] = []
        if st.phase == MOVEMENT:
            out += [d for d in self._drops(game, side)
                    if any(board.owner(n) not in (None, side)
                           for n in board.gmap.neighbours(board.gmap.grid.parse(d.hex)))]
        if st.phase in MOVING:
            for units in self._groups(game, board):
                out += list(self._overruns(game, board, units))
        elif st.phase == COMBAT:
            out += list(self._attacks(game, board))
            out += [a for a in (AirStrike(u) for u in sorted(air_hexes(game))) if self.check(game, a) is None]
        elif st.phase == AIR_REBASING:
            out += self._rebase_options(game, side)
        elif st.phase == PS.MARKERS:
            out += list(PS.legal_markers(game, side))  # 10.3
        if st.phase == MOVEMENT:
            out += list(PS.legal_sail(game, side))  # 12.1
        return out

    def _drops(self, game: "Game", side: str) -> Iterator[Drop]:
        """12.5: every drop the side may make now, hex by hex."""
        grid = game.scenario.map.grid
        for uid in self.droppable(game, side):
            for h in game.scenario.map.hexes():
                a = Drop(uid, grid.id(h))
                if self.check(game, a) is None:
                    yield a

    def _groups(self, game: "Game", board: Board) -> list[tuple[str, ...]]:
        mine = self.actable(game)
        by_hex: dict[Hex, list[str]] = {}
        for uid in mine:
            by_hex.setdefault(board.hex_of[uid], []).append(uid)
        out = [(u,) for u in mine]
        out += [tuple(ids) for ids in by_hex.values() if len(ids) > 1]
        return out

    def _overruns(self, game: "Game", board: Board, units: tuple[str, ...]) -> Iterator[Overrun]:
        here = board.hex_of[units[0]]
        grid = board.gmap.grid
        for n in board.gmap.neighbours(here):
            if board.owner(n) not in (None, board.side(units[0])):
                a = Overrun(units, grid.id(n))
                if self.check(game, a) is None:
                    yield a

    def _attacks(self, game: "Game", board: Board) -> Iterator[Attack]:
        side = self.actor(game)
        grid = board.gmap.grid
        mine = [u for u in self.actable(game) if u in board.hex_of]  # air corps act by air_strike
        targets: dict[Hex, list[str]] = {}
        for uid in mine:
            for n in board.gmap.neighbours(board.hex_of[uid]):
                if board.owner(n) not in (None, side):
                    targets.setdefault(n, []).append(uid)
        for t, units in sorted(targets.items()):
            tries = [tuple(units)] + ([(u,) for u in units] if len(units) > 1 else [])
            for group in tries:
                a = Attack(group, grid.id(t))
                if self.check(game, a) is None:
                    yield a

    # -- questions the faces ask --------------------------------------------------------------------
    def position(self, game: "Game") -> Board:
        return board_of(game)

    def supply(self, game: "Game") -> combat.SupplyView:
        return supply_of(game)

    def reachable(self, game: "Game", units: tuple[str, ...], explain: bool = True) -> dict[Hex, Reach]:
        st = game.state
        if st.phase == PS.RAIL and not st.prompts and units and all(self.can_act(game, u) for u in units):
            return PS.rail_reach(game, units)  # 10.1
        if st.phase not in MOVING or st.prompts or not units or any(not self.can_act(game, u) for u in units):
            return {}
        return movement.reachable(board_of(game), units, st.phase, st.vars.spent, explain)

    def can_act(self, game: "Game", uid: str) -> bool:
        st = game.state
        u = st.units.get(uid)
        if st.over or st.prompts or u is None or u.status != "map":
            return False
        if game.scenario.catalog.units[uid].side != self.actor(game):
            return False
        board = board_of(game)
        if st.phase == AIR_REBASING:
            return uid in air_hexes(game) and uid not in st.vars.rebased
        if st.phase == COMBAT and uid in air_hexes(game):
            return self.check(game, AirStrike(uid)) is None
        if uid not in board.hex_of:
            return False
        if st.phase == PS.RAIL:
            return PS.can_rail(game, uid)  # 10.1
        if st.phase in MOVING:
            if board.is_static(uid):
                return False
            mp = movement.allowance(board, uid, st.phase)
            if isinstance(mp, Illegal):
                return False
            h = board.hex_of[uid]
            if uid in st.vars.started and st.vars.started[uid] != u.hex and st.vars.overran.get(uid) != u.hex \
                    and movement.enemy_zoc(board, _mover(board, uid, st.phase), h):
                return False  # 5.1: it entered an enemy zone and stopped
            return st.vars.spent.get(uid, 0) < mp + (board.tables.movement.strategic_bonus_mp
                                                     if st.phase == MOVEMENT else 0)
        if st.phase == COMBAT:
            return board.is_formation(uid) and uid not in st.vars.fought and any(
                board.owner(n) not in (None, board.side(uid)) for n in board.gmap.neighbours(board.hex_of[uid]))
        return False

    def actable(self, game: "Game") -> list[str]:
        return sorted(uid for uid in game.state.units if self.can_act(game, uid))

    def preview(self, game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...]) -> OddsPreview | None:
        """The odds of an attack on one hex with the best leaders and no options chosen yet (6)."""
        if len(targets) != 1 or game.state.phase not in (COMBAT, *MOVING):
            return None
        board = board_of(game)
        try:
            target = game.scenario.map.grid.parse(targets[0])
        except HexError as exc:
            return OddsPreview(Illegal("6", str(exc)), None, None, None)
        frame = chain.new_frame(board.side(attackers[0]) if attackers and attackers[0] in board.units else AXIS,
                                attackers, targets[0], game.state.phase != COMBAT)
        la = chain.leader_options(board, frame, target, "a")
        ld = chain.leader_options(board, frame, target, "d")
        best = (lambda us: max(us, key=lambda u: combat._quality(board, u) or 0) if us else "")
        return combat.preview(board, attackers, target, best(la), best(ld),
                              combat.Options(overrun=game.state.phase != COMBAT), supply_of(game, board))

    def score(self, game: "Game") -> Score:
        """13: the Axis victory points (garrisoned major cities, other objectives, the Finnish zone,
        14.3.1's points) line by line, with the VP track and the result on this count."""
        from kiev_tui.games.barbarossa1941 import phases_campaign

        st = game.state
        if st.over and st.vars.final:
            f = st.vars.final
            return Score({AXIS: int(f["axis"]), SOVIET: 0}, tuple(f.get("lines", ())), str(f.get("winner", "")))
        s = phases_campaign.score_of(game)
        lines = (*s.text(), f"Result on this count: {tables_of(game).victory.level(s.axis_vp).replace('_', ' ')}")
        return Score({AXIS: s.axis_vp, SOVIET: 0}, lines, "")


def _mover(board: Board, uid: str, phase: str) -> movement.Mover:
    return movement.Mover(uid, board.side(uid), board.movement_class(uid), board.nation(uid), 0, 0,
                          movement.ignores_zoc(board, uid, phase), 0)


# -- the phases' hooks --------------------------------------------------------------------------------

def _begin_isolation(game: "Game") -> None:
    """8, 8.1: the supply check and its losses (phases_supply.py; the phase ends by itself)."""
    PS.begin_isolation(game)


def _begin_air_rebasing(game: "Game") -> None:
    """11.1: air corps due back this turn are offered with the rebasing moves (Rebase)."""
    due = sorted(u for u, t in game.state.vars.air_return.items() if t <= game.state.turn)
    if due:
        game.emit(Note(f"air corps back in play this turn: {', '.join(due)} (11.1)"))


def _begin_replacements(game: "Game") -> None:
    """9, 9.1, 9.2: replacements and the placement of reinforcements."""
    if game.state.over:
        return
    from kiev_tui.games.barbarossa1941 import phases_campaign

    phases_campaign.begin_replacements(game)


def _begin_partisans(game: "Game") -> None:
    """12.7: partisan placement."""
    if game.state.over:
        return
    from kiev_tui.games.barbarossa1941 import phases_campaign

    phases_campaign.begin_partisans(game)


def _begin_rail(game: "Game") -> None:
    """10, 10.1: rail movement (phases_supply.py: ``move`` actions are rail moves in this phase)."""
    PS.begin_rail(game)


def _begin_forts(game: "Game") -> None:
    """12.4: fort building."""
    if game.state.over:
        return
    from kiev_tui.games.barbarossa1941 import phases_campaign

    phases_campaign.begin_forts(game)


def _begin_rail_markers(game: "Game") -> None:
    """10.3: the Axis rail markers advance (phases_supply.py: ``move_marker``)."""
    PS.begin_markers(game)


def _victory_check(game: "Game") -> None:
    """2.3, 13: the victory phase at the end of each game-turn (called as its last phase ends,
    before the turn marker moves on; also after the last turn, before the game ends)."""
    if game.state.over:
        return
    from kiev_tui.games.barbarossa1941 import phases_campaign

    phases_campaign.victory_phase(game)


def _withdrawals(game: "Game") -> None:
    """12.5, 15.3: units leaving the game at the start of a turn (the initial airborne corps)."""
    if game.state.over:
        return
    from kiev_tui.games.barbarossa1941 import phases_campaign

    phases_campaign.turn_start(game)


PHASE_HOOKS: dict[str, Callable[["Game"], None]] = {
    "isolation": _begin_isolation, AIR_REBASING: _begin_air_rebasing, "replacements": _begin_replacements,
    "partisans": _begin_partisans, "rail": _begin_rail, "forts": _begin_forts, "rail_markers": _begin_rail_markers,
}


class _Hooks(sequence.Hooks):
    def end_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseEnded(st.turn, st.player, st.phase))
        st.vars.clear_phase()
        steps = sequence.turn_steps(game)
        if steps and step == steps[-1]:
            _victory_check(game)  # 2.3: the victory phase closes the game-turn

    def player_changed(self, game: "Game") -> None:
        game.emit(PlayerChanged(game.state.player))

    def new_turn(self, game: "Game") -> None:
        st = game.state
        st.vars.clear_turn()
        for u in st.units.values():
            u.markers.discard(air.FLOWN)  # 11.2: each corps flies once a turn
        _withdrawals(game)

    def begin_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseBegan(st.turn, st.player, st.phase))
        if step.phase == REACTION:  # 5.3: reaction moves are made inside each combat (chain.py)
            game.emit(Note("reaction moves are made as each combat is resolved (5.3)"))
            sequence.advance(game, self)
            return
        hook = PHASE_HOOKS.get(step.phase)
        if hook is not None:
            hook(game)

    def game_end(self, game: "Game") -> None:
        st = game.state
        st.over = True
        sc = SYSTEM.score(game)
        level = tables_of(game).victory.level(sc.points[AXIS])
        winner = next((side for side in SCHEMA.sides if level.startswith(side)), "")  # 13: "axis_minor", ...
        st.vars.final = {"axis": sc.points[AXIS], "lines": list(sc.lines), "winner": winner, "level": level}
        game.emit(GameOver(SCHEMA.side_name(winner) if winner else "no", f"{level.replace('_', ' ')}: "
                           + "; ".join(sc.lines)))


HOOKS = _Hooks()

SYSTEM = B41Rules()

from kiev_tui.games.barbarossa1941 import phases_supply as PS  # noqa: E402  (it registers its actions here)
from kiev_tui.games.barbarossa1941 import phases_campaign as _campaign  # noqa: E402  (needs the registries above)

_campaign.install()
