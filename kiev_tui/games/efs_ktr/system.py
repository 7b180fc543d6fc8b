"""The Kiev to Rostov rule system (EFS; PB 10.4 Battle of Sumy): sequence, referee, victory.

The game-turn is data/efs_ktr/sequence.toml, stepped by engine/sequence.py: the strategic segment
(Sumy drops weather, supply and replacements: PB 10.44), the Axis segment (Movement, Soviet
Reaction, Combat, Motorized, Engineering), the Soviet segment (Motorized, Axis Reaction, Combat,
Movement, Engineering, Surrender) and the interphase.  Ground rules are the pure modules
(movement, overrun, retreat, combat, air) fed a ``Board`` built from the state; the combat chain
(declare, air, artillery, orders, the roll, losses, retreat, advance) is chain.py; the prompts and
the list of legal actions are prompting.py.  Rulings: docs/rulings.md, "EFS: the rule system".
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import GameOver, Note, PhaseBegan, PhaseEnded, PlayerChanged
from kiev_tui.engine.game import Phase
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import Cases, OddsPreview, Prompt, Reach, Score
from kiev_tui.engine.state import GameState
from kiev_tui.engine.units import UnitState

from kiev_tui.games.efs_ktr import movement, stacking
from kiev_tui.games.efs_ktr.actions import ACTIONS, CHAIN_ACTIONS
from kiev_tui.games.efs_ktr.board import AIR_FLOWN, AIR_READY, MOTORIZED, MOVEMENT, PENDING, REACTION, Board
from kiev_tui.games.efs_ktr.schema import AXIS, SCHEMA, SOVIET
from kiev_tui.games.efs_ktr.state import EfsVars, efs_vars
from kiev_tui.games.efs_ktr.tables import MoreTables, Tables, load_more_tables, load_tables

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

SEQUENCE_PATH = Path(__file__).resolve().parents[3] / "data" / "efs_ktr" / "sequence.toml"
CASES = Cases(game_over="PB 10.41", wrong_side="4.2")
COMBAT, STRATEGIC_PHASES = "combat", ("reinforcements", "air_readiness", "air_interdiction")
MOVE_PHASES = (MOVEMENT, MOTORIZED, REACTION)
#: 12.3: the phase in which each side declares its attacks (the one before the enemy's reaction).
DECLARE_PHASE = {AXIS: MOVEMENT, SOVIET: MOTORIZED}
DECLARED = "declared_attack"  # the hex marker (schema.counters.hex_markers)
HQ_RANGE = 4  # 22.11
OFF_IN_SUMY = ("weather", "supply", "replacements")  # PB 10.44: switched off in the learning scenario


def sumy_off(game: "Game", turn: int, phasing: str) -> bool:
    """PB 10.44: Sumy has fixed Dry weather, no supply rules and no replacements."""
    return game.scenario.id.rsplit("/", 1)[-1] == "sumy"


def no_non_op(game: "Game", turn: int, phasing: str) -> bool:
    """22.26b: the disbanding step runs only while a Non-Op HQ is on the map (or one was just
    disbanded this turn) and not on the last turn, which has no interphase."""
    if turn >= game.scenario.turns:
        return True
    v = efs_vars(game.state)
    return not v.disbanded and not any(game.state.units[u].status == "map" for u in v.non_op)


SKIP_RULES: dict[str, Callable[["Game", int, str], bool]] = {"sumy_off": sumy_off, "no_non_op": no_non_op}


# -- the position as the ground modules read it -------------------------------------------------

def tables(game: "Game") -> Tables:
    """The scenario's charts, read once per scenario (scenario.derived)."""
    d = game.scenario.derived
    if "efs_tables" not in d:
        d["efs_tables"] = load_tables(game.scenario.tables_path)
    return d["efs_tables"]  # type: ignore[no-any-return]


def more(game: "Game") -> MoreTables:
    d = game.scenario.derived
    if "efs_more_tables" not in d:
        d["efs_more_tables"] = load_more_tables(game.scenario.tables_path)
    return d["efs_more_tables"]  # type: ignore[no-any-return]


def board(game: "Game") -> Board:
    """The Board of the present position (cached in game.memo until the next change)."""
    memo = game.memo
    b = memo.get("board")
    if b is None:
        b = memo["board"] = _build_board(game)
    return b  # type: ignore[no-any-return]


def _build_board(game: "Game") -> Board:
    st, sc = game.state, game.scenario
    grid = sc.map.grid
    v = efs_vars(st)
    hex_of: dict[str, Hex] = {}
    boxes: dict[str, str] = {}
    lost: dict[str, int] = {}
    for uid, u in st.units.items():
        if u.status == "map" and u.hex is not None:
            hex_of[uid] = grid.parse(u.hex)
        else:
            boxes[uid] = u.status
        if u.step:
            lost[uid] = u.step
    step = sequence.current(game)
    phase = st.phase if st.phase in MOVE_PHASES else MOVEMENT
    declared = frozenset(grid.parse(h) for h, kinds in st.hex_markers.items() if DECLARED in kinds)
    control = {grid.parse(h): s for h, s in st.control.items()}
    return Board(sc.map, tables(game), sc.catalog.units, hex_of, lost, boxes, turn=st.turn,
                 first_game_turn=int(sc.params.get("first_game_turn", 1)), phase=phase,
                 phasing=step.phasing or st.player, weather=str(sc.params.get("weather", "dry")),
                 overrun_marked=frozenset(v.overrun_marked), activated=frozenset(v.activated),
                 declared=declared, orders={grid.parse(h): o for h, o in v.orders.items()},
                 supply_disregarded=True, control=control, non_op=frozenset(v.non_op),
                 interdicted=frozenset(grid.parse(h) for h in _interdicted(game)))


def _interdicted(game: "Game") -> set[str]:
    from kiev_tui.games.efs_ktr.handlers import interdicted_hexes
    return interdicted_hexes(game)


def spent_of(game: "Game") -> dict[str, Fraction]:
    return {u: Fraction(s) for u, s in efs_vars(game.state).spent.items()}


def star_hexes(game: "Game") -> dict[str, int]:
    return {str(h): int(n) for h, n in game.scenario.victory.get("stars", {}).items()}


# -- the rule system -----------------------------------------------------------------------------

class EfsRules:
    id = "efs_ktr"
    version = "1"
    schema = SCHEMA
    cases = CASES
    actions = ACTIONS
    skip_rules = SKIP_RULES
    _sequence: "sequence.Sequence | None" = None

    @property
    def sequence(self) -> "sequence.Sequence":
        if EfsRules._sequence is None:
            EfsRules._sequence = sequence.load_sequence(SEQUENCE_PATH, SKIP_RULES)
        return EfsRules._sequence

    # -- data hooks (as data.py) --
    def read_units(self, root: Any, catalog: Any) -> None:
        from kiev_tui.games.efs_ktr.data import DATA
        DATA.read_units(root, catalog)

    def prepare_scenario(self, scenario: Any) -> None:
        """Nothing is drawn in Sumy."""

    def validate_tables(self, path: Path, data: dict[str, Any]) -> None:
        from kiev_tui.games.efs_ktr.data import DATA
        DATA.validate_tables(path, data)

    def check_victory(self, reader: Any, catalog: Any, hex_on_map: Any) -> None:
        from kiev_tui.games.efs_ktr.data import DATA
        DATA.check_victory(reader, catalog, hex_on_map)

    def check_scenario(self, scenario: Any) -> None:
        from kiev_tui.games.efs_ktr.data import DATA
        DATA.check_scenario(scenario)

    def new_vars(self) -> EfsVars:
        return EfsVars()

    def vars_from_dict(self, data: Mapping[str, Any]) -> EfsVars:
        return EfsVars.from_dict(data)

    # -- set-up --
    def setup(self, game: "Game") -> GameState:
        sc = game.scenario
        grid = sc.map.grid
        reduced = {uid: int(n) for uid, n in sc.extra.get("reduced", {}).items()}
        units = {uid: UnitState(uid) for uid in sc.catalog.units}
        for uid, h in sc.setup.items():
            units[uid].status, units[uid].hex = "map", grid.id(h)
        for uid, n in reduced.items():
            units[uid].step = n  # PB 10.4: the 33rd Panzer Regiment starts reduced
        for uid in sc.extra.get("air", {}).get("ready", ()):
            units[uid].status = AIR_READY  # PB 10.4: every air unit in play starts Ready
        control = {grid.id(h): side for side, hexes in sc.control.items() for h in hexes}
        state = GameState(turn=1, player=sc.first_player, phase="reinforcements", units=units, control=control,
                          vars=self.new_vars())
        game.state = state
        first = sequence.start(game)
        state.turn, state.player, state.phase = sc.first_turn, first.phasing or sc.first_player, first.phase
        begin_phase(game, first)
        return state

    # -- who and what --
    def phase(self, game: "Game") -> Phase:
        st = game.state
        step = sequence.current(game)
        pending = str(st.pending.get("side", "")) if st.pending is not None else ""
        return Phase(st.turn, step.segment, st.phase, st.player, step.owner, sequence.segment_phases(game, step),
                     tuple(todo(game)), pending, st.over)

    def actor(self, game: "Game") -> str:
        st = game.state
        if st.pending is not None and st.pending.get("side"):
            return str(st.pending["side"])
        return sequence.current(game).owner

    def check(self, game: "Game", action: Action) -> Illegal | None:
        from kiev_tui.games.efs_ktr import chain, handlers

        if game.state.pending is not None or isinstance(action, CHAIN_ACTIONS):
            return chain.check_answer(game, action)
        if isinstance(action, EndPhase):
            return check_end_phase(game)
        h = handlers.HANDLERS.get(type(action))
        if h is None:
            return Illegal("4.2", f"'{action.kind}' is not an action of this game now")
        return h[0](game, action)

    def apply(self, game: "Game", action: Action) -> None:
        from kiev_tui.games.efs_ktr import chain, handlers

        if isinstance(action, EndPhase):
            sequence.advance(game, HOOKS)
            return
        zones = zone_owners(game, board(game))
        if isinstance(action, CHAIN_ACTIONS):
            chain.apply_answer(game, action)
        else:
            handlers.HANDLERS[type(action)][1](game, action)
        update_control(game, zones)
        check_sudden_death(game)

    def committed(self, game: "Game", side: str, key: str) -> None:
        """A hidden choice was made (or arrived sealed): the chain moves on, publicly (17.21, 14.32)."""
        from kiev_tui.games.efs_ktr import chain

        chain.after_commit(game, side, key)

    # -- queries --
    def position(self, game: "Game") -> Board:
        return board(game)

    def reachable(self, game: "Game", units: tuple[str, ...], explain: bool = True) -> dict[Hex, Reach]:
        st = game.state
        if st.phase not in MOVE_PHASES or not units:
            return {}
        from kiev_tui.games.efs_ktr import handlers
        if handlers.declared_already(game) is not None:  # 12.0: nothing more moves this phase
            return {}
        b = board(game)
        entry = None
        if all(st.units[u].status == PENDING for u in units):
            hexes = entry_hexes(game, units[0])
            entry = hexes[0] if hexes else None
        return movement.reachable(b, units, st.phase, movement.NORMAL, spent_of(game), entry)

    def supply(self, game: "Game") -> None:
        return None  # PB 10.44a: Sumy has no supply rules

    def can_act(self, game: "Game", uid: str) -> bool:
        from kiev_tui.games.efs_ktr import handlers
        return handlers.can_act(game, uid)

    def actable(self, game: "Game") -> list[str]:
        return sorted(u for u in game.state.units if self.can_act(game, u))

    def preview(self, game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...]) -> OddsPreview | None:
        from kiev_tui.games.efs_ktr import chain
        return chain.preview(game, attackers, targets)

    def prompt(self, game: "Game") -> Prompt | None:
        from kiev_tui.games.efs_ktr import prompting
        return prompting.prompt(game)

    def options(self, game: "Game", side: str) -> tuple[Any, ...]:
        p = self.prompt(game)
        return p.options if p is not None and p.side == side else ()

    def legal(self, game: "Game", side: str) -> Iterator[Action]:
        from kiev_tui.games.efs_ktr import prompting
        return prompting.legal(game, side)

    def score(self, game: "Game") -> Score:
        return score(game)

    def turn_label(self, game: "Game", turn: int) -> str:
        return turn_label(game, turn)

    def visible(self, game: "Game", side: str, uid: str) -> bool:
        return True  # every counter is face up in Sumy; hidden choices are commitments


def turn_label(game: "Game", turn: int) -> str:
    """The scenario's turn ``turn`` (1 at its start) on the game-turn track: Sumy starts at GT50 (PB 10.4)."""
    return f"Game-turn {int(game.scenario.params.get('first_game_turn', 1)) + turn - 1}"


def entry_hexes(game: "Game", uid: str) -> list[Hex]:
    """8.12: where a due reinforcement enters (the scenario's hexes for it)."""
    for r in game.scenario.reinforcements:
        if uid in r.units:
            return list(r.hexes)
    return []


def due(game: "Game", side: str) -> list[str]:
    """Ground reinforcements of ``side`` due by now and not yet on the map (8.1; PB 10.4)."""
    st = game.state
    out = []
    for r in game.scenario.reinforcements:
        if r.side == side and r.turn <= st.turn:
            out.extend(u for u in r.units if st.units[u].status == PENDING)
    return out


def todo(game: "Game") -> list[str]:
    st = game.state
    if st.over:
        return []
    out = []
    if st.pending is not None:
        out.append(f"answer the {st.pending.get('kind')} choice")
    bad = check_end_phase(game)
    if bad is not None and st.pending is None:
        out.append(bad.why)
    return out


def check_end_phase(game: "Game") -> Illegal | None:
    st = game.state
    if st.pending is not None:
        return Illegal("15.0", "the combat under way must be finished first")
    step = sequence.current(game)
    if st.phase in MOVE_PHASES or st.phase == COMBAT:
        over = stacking.end_of_phase(board(game), st.phase, step.owner)
        if over:
            h, n = sorted(over.items())[0]
            return Illegal("3.32", f"{board(game).hid(h)} is {n} stacking point(s) over the limit: "
                                   "send units to the Cadre Box first")
    if st.phase == DECLARE_PHASE.get(st.player) and step.owner == st.player and efs_vars(st).declared:
        from kiev_tui.games.efs_ktr import handlers
        unmet = handlers.unmet_declarations(game)  # 12.7
        if unmet is not None:
            return unmet
    if st.phase == COMBAT:
        from kiev_tui.games.efs_ktr import handlers
        for h in sorted(efs_vars(st).declared):
            if handlers.attackers_for(game, h):
                return Illegal("12.36", f"the attack declared on {h} must still be made")
    return None


def check_sudden_death(game: "Game") -> None:
    """PB 10.45b: the Soviet wins at once when the Axis has lost six steps."""
    st = game.state
    limit = int(game.scenario.victory.get("soviet_win_axis_steps_lost", 6))
    if not st.over and efs_vars(st).steps_lost.get(AXIS, 0) >= limit:
        finish(game, sudden=True)


def zone_owners(game: "Game", b: Board) -> dict[str, str | None]:
    """For each star hex, the side whose zone alone covers it now (3.46), else None."""
    from kiev_tui.games.efs_ktr.zoc import zone_map

    zones = {side: zone_map(b, side) for side in (AXIS, SOVIET)}
    out: dict[str, str | None] = {}
    for h in star_hexes(game):
        x = b.parse(h)
        inside = [side for side in (AXIS, SOVIET) if x in zones[side]]
        out[h] = inside[0] if len(inside) == 1 else None
    return out


def update_control(game: "Game", before: dict[str, str | None]) -> None:
    """3.21a: after an action a star hex belongs to the side whose combat units stand in it, or,
    when it is empty, to the side whose zone has just come to cover it alone (the last to project
    an uncontested zone into it); otherwise it keeps its owner."""
    b = board(game)
    after = zone_owners(game, b)
    for h in star_hexes(game):
        held = {b.side(u) for u in b.at(b.parse(h)) if b.is_combat(u)}
        if len(held) == 1:
            game.state.control[h] = held.pop()
        elif not held and after[h] is not None and after[h] != before.get(h):
            game.state.control[h] = str(after[h])


def stars_held(game: "Game", side: str) -> int:
    st = game.state
    return sum(n for h, n in star_hexes(game).items() if st.control.get(h) == side)


def score(game: "Game") -> Score:
    st = game.state
    v = efs_vars(st)
    if st.over and v.final:
        f = v.final
        return Score({AXIS: int(f["axis"]), SOVIET: int(f["soviet"])}, tuple(f["lines"]), str(f["winner"]))
    need = int(game.scenario.victory.get("axis_stars_needed", 5))
    ax, so = stars_held(game, AXIS), stars_held(game, SOVIET)
    lines = (f"Axis holds {ax} of {sum(star_hexes(game).values())} stars (needs {need}, PB 10.45a)",
             f"Axis steps lost: {v.steps_lost.get(AXIS, 0)}; Soviet steps lost: {v.steps_lost.get(SOVIET, 0)}")
    return Score({AXIS: ax, SOVIET: so}, lines, "")


def finish(game: "Game", sudden: bool = False) -> None:
    st = game.state
    need = int(game.scenario.victory.get("axis_stars_needed", 5))
    sc = score(game)
    if sudden:
        winner, why = SOVIET, "the Axis has lost six steps (PB 10.45b)"
    else:
        winner = AXIS if sc.points[AXIS] >= need else SOVIET
        why = f"the Axis holds {sc.points[AXIS]} stars, {need} needed (PB 10.45)"
    st.over = True
    st.prompts.clear() if hasattr(st.prompts, "clear") else None
    efs_vars(st).final = {"axis": sc.points[AXIS], "soviet": sc.points[SOVIET], "lines": list(sc.lines) + [why],
                          "winner": winner}
    game.emit(GameOver(SCHEMA.side_name(winner), why))


# -- the sequence's hooks ------------------------------------------------------------------------

def begin_phase(game: "Game", step: sequence.Step) -> None:
    st = game.state
    v = efs_vars(st)
    v.spent.clear()
    v.done.clear()
    v.hq_react.clear()  # 22.12b: reaction points are counted per Reaction phase
    v.non_op_moved.clear()  # 22.25g: the limit is counted per movement phase
    game.emit(PhaseBegan(st.turn, st.player, st.phase, turn_label(game, st.turn)))
    if st.phase == "air_readiness" and st.half == 0:
        air_readiness(game)
    if st.phase in MOVE_PHASES:
        waiting = due(game, step.owner)
        if waiting and st.phase != REACTION:
            game.emit(Note(f"Reinforcements may enter: {', '.join(waiting)} (8.1)"))


def air_readiness(game: "Game") -> None:
    """9.11: flown units roll to come back (not on the first turn, PB 10.43b); arrivals join."""
    from kiev_tui.games.efs_ktr import air
    from kiev_tui.games.efs_ktr.chain import air_unit

    st = game.state
    for arr in game.scenario.extra.get("air", {}).get("arrival", []):
        if int(arr.get("turn", 0)) == st.turn:
            for uid in arr.get("units", []):
                st.units[uid].status = AIR_READY
                game.emit(Note(f"{uid} arrives in the Ready Box (PB 10.4)"))
    if st.turn <= 1:
        return
    for uid in sorted(st.units):
        u = st.units[uid]
        if u.status in (AIR_FLOWN, "air_damaged"):
            au = air_unit(game, uid)
            roll = None if au.role == air.DUMMY else game.roll(f"air readiness {uid}", 10)
            box = air.readiness(au, u.status, roll, more(game))
            if isinstance(box, str) and box != u.status:
                u.status = box
                game.emit(Note(f"{uid} rolls {roll}: to {box.replace('air_', '')} (9.11)"))


class _EfsHooks(sequence.Hooks):
    def end_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseEnded(st.turn, st.player, st.phase, turn_label(game, st.turn)))
        if st.phase == COMBAT:
            efs_vars(st).fought.clear()
            efs_vars(st).attacked.clear()
            efs_vars(st).orders.clear()

    def player_changed(self, game: "Game") -> None:
        efs_vars(game.state).hq_orders.clear()  # 22.12c: order points are per segment
        game.emit(PlayerChanged(game.state.player))

    def new_turn(self, game: "Game") -> None:
        from kiev_tui.games.efs_ktr import nonop

        v = efs_vars(game.state)  # 4.2 D: the interphase clears the turn's markers
        nonop.recover(game)  # 4.2 D2, 22.26a: after the Activated markers, before the turn marker moves
        v.disbanded.clear()  # 22.26b: one a turn
        v.activated.clear()
        v.hq_points.clear()
        v.hq_guards.clear()
        v.overrun_marked.clear()
        v.flown.clear()
        v.interdiction.clear()  # 13.16: interdiction markers come off in the interphase

    def begin_step(self, game: "Game", step: sequence.Step) -> None:
        begin_phase(game, step)

    def game_end(self, game: "Game") -> None:
        finish(game)


HOOKS = _EfsHooks()

SYSTEM = EfsRules()
