"""The SPI Kiev rule system: sequence of play (4.2 as changed by 19.1) and the action referee.

Each action kind has a checker and an applier, listed in handlers.py (movement in moving.py,
combat in battle.py, retreat.py and advance.py, overrun in overrun.py); victory is victory.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, cast

from kiev_tui.engine import sequence

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import DataError, Illegal
from kiev_tui.engine.events import GameOver, Note, PhaseBegan, PhaseEnded, PlayerChanged
from kiev_tui.engine.game import Phase
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import OddsPreview, Prompt, Reach, Score
from kiev_tui.engine.state import GameState
from kiev_tui.engine.units import UnitState

from kiev_tui.games.spi_kiev import acting, directive, movement, reinforcements, stacking, untried
from kiev_tui.games.spi_kiev.actions import ACTIONS
from kiev_tui.games.spi_kiev.changes import claim, eliminate, place  # noqa: F401  (the rules' own names)
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.handlers import HANDLERS
from kiev_tui.games.spi_kiev.schema import CASES, SCHEMA
from kiev_tui.games.spi_kiev.state import KievVars, kiev_vars
from kiev_tui.games.spi_kiev.events import SupplyChecked
from kiev_tui.games.spi_kiev.supply import Supply

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


SEQUENCE_PATH = Path(__file__).resolve().parents[3] / "data" / "spi_kiev" / "sequence.toml"


def mud(game: "Game", turn: int, phasing: str) -> bool:
    """19.9: the scenario's mud turns have no German mechanized phase."""
    return phasing == GERMAN and turn in game.scenario.params.get("mud_turns", [])


def soviet(game: "Game", turn: int, phasing: str) -> bool:
    """19.13: the Soviet player-turn has no mechanized phase."""
    return phasing == SOVIET


SKIP_RULES: dict[str, Callable[["Game", int, str], bool]] = {"mud": mud, "soviet": soviet}


def player_phases(game: "Game", side: str, turn: int) -> tuple[str, ...]:
    """The side's phases this turn, from sequence.toml (19.13, 19.9, 19.14 are written there)."""
    out: list[str] = []
    for step in sequence.turn_steps(game, turn):
        if step.phasing == side and step.phase not in out:
            out.append(step.phase)
    return tuple(out)


# -- the rule system ----------------------------------------------------------------------

_VIEW = "view"  # current_view's entry in game.memo
_ACTOR = "actor"  # KievRules.actor's entry in game.position_cache


def current_view(game: "Game") -> View:
    """The View of the game's present position, reused until the next change (game.memo).

    While an action is applied game.memo is a fresh dict each time, so no half-changed
    position is ever cached.
    """
    memo = game.memo
    view: View | None = memo.get(_VIEW)  # pragma: no mutate: a cache read; a miss only builds the same View again
    if view is None:
        view = memo[_VIEW] = View(game)
    return view


class KievRules:
    id = "spi_kiev"
    # 2: the issue 12 audit (10.13, command on turn 1, 20.2 on defence, map settlements):
    # a version-1 log would replay into other positions, so such saves are refused by name.
    # 3: issue 35's rulings (12.23's floor of one per unit, 19.63 counting the HQ, 11.23 after
    # 19.65): a version-2 log may replay into other strengths and positions, so it is refused too.
    version = "3"
    schema = SCHEMA
    actions = ACTIONS
    cases = CASES
    skip_rules = SKIP_RULES
    _sequence: "sequence.Sequence | None" = None

    @property
    def sequence(self) -> "sequence.Sequence":
        """Kiev's game-turn (4.2, 19.1), read once from data/spi_kiev/sequence.toml."""
        if KievRules._sequence is None:
            KievRules._sequence = sequence.load_sequence(SEQUENCE_PATH, SKIP_RULES)
        return KievRules._sequence

    def validate_tables(self, path: Any, data: dict[str, Any]) -> None:
        """`kiev-tui validate` on tables.toml: refuse a bad CRT or terrain table (DataError)."""
        from kiev_tui.games.spi_kiev.tables import check_tables
        check_tables(path, data)

    def validate_file(self, path: Any, data: dict[str, Any]) -> bool:
        """`kiev-tui validate` on Kiev's own kinds of file: geo.toml (the map's source, valid when
        the map builder can rasterise it) and tables by their content; False for any other file."""
        if "meta" in data and "settlement" in data:
            from kiev_tui.games.spi_kiev.mapbuild import build_map
            try:
                build_map(data)
            except DataError:
                raise
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise DataError(path, "", f"the map builder cannot use it: {exc!r}") from None
            return True
        if ("crt" in data or "tec" in data) and not {"map", "unit", "scenario", "save"} & data.keys():
            self.validate_tables(path, data)
            return True
        return False

    def read_units(self, root: Any, catalog: Any) -> None:
        untried.read_units(root, catalog)  # the pool of untried faces (13.0)

    def prepare_scenario(self, scenario: Any) -> None:
        untried.add_placeholders(scenario)  # ids for drawn reinforcements (13.1)

    def new_vars(self) -> KievVars:
        """Bookkeeping before set-up (setup fills in the scenario's rpl counters)."""
        return KievVars()

    def vars_from_dict(self, data: Mapping[str, Any]) -> KievVars:
        return KievVars.from_dict(data)

    def check_victory(self, reader: Any, catalog: Any, hex_on_map: Callable[..., Hex]) -> None:
        """The scenario's [victory] table: its keys, points and hexes (24.0), or a DataError."""
        from kiev_tui.games.spi_kiev.setup_check import check_victory  # it leans on the tables
        check_victory(reader, catalog, hex_on_map)

    def check_scenario(self, scenario: Any) -> None:
        from kiev_tui.games.spi_kiev.setup_check import check_scenario  # tables, opening stacks
        check_scenario(scenario)

    def derive_map_tables(self, scenario: Any) -> None:
        """Work out the tables the first supply check derives from the map alone (they depend on
        nothing else), so a ready-built scenario (engine/scenariocache.py) carries them: 10-20 ms
        less before the first frame (issue 33)."""
        from kiev_tui.games.spi_kiev.common import zoc_reach_sets
        from kiev_tui.games.spi_kiev.supply import loc_bits, supply_bits

        gmap = scenario.map
        zoc_reach_sets(gmap)  # and zoc_reach
        supply_bits(gmap)  # and supply_links, swamps
        loc_bits(gmap)  # and loc_links
        # The link lists the bit sets were made from are not kept: the first frame reads the bit
        # sets alone, and a supply trace or a command radius builds the lists again when first
        # asked (3-4 ms); 0.3 MiB less at every start (issue 33, round 4).
        del gmap.derived["supply_links"], gmap.derived["loc_links"]

    def setup(self, game: "Game") -> GameState:
        sc = game.scenario
        units = {uid: UnitState(uid) for uid in sc.catalog.units}
        for uid, h in sc.setup.items():
            units[uid].status = "map"
            units[uid].hex = str(h)
        control: dict[str, str] = {}
        german = {str(h) for h in sc.control.get(GERMAN, [])}
        soviet = {str(h) for h in sc.control.get(SOVIET, [])}
        # 24.0: the Germans start with the listed cities and everything else is Soviet.  A
        # scenario that lists only Soviet holdings gives the German every other one.
        rest = GERMAN if soviet and not german else SOVIET
        for h in sc.map.settlements():
            key = str(h)
            control[key] = GERMAN if key in german else SOVIET if key in soviet else rest
        rpl = sc.params.get("rpl_counters")
        if rpl is None:
            rpl = sum(1 for d in sc.catalog.units.values() if d.replacement)
        state = GameState(turn=1, player=sc.first_player, phase=MOVEMENT, units=units, control=control,
                          vars=KievVars(rpl_left=int(rpl)))
        reinforcements.historical_faces(sc)  # 25.12: a chart that does not fit is refused now
        game.state = state
        first = sequence.start(game)  # a scenario may start late or mid-turn (first_turn, first_phase)
        state.turn, state.player, state.phase = sc.first_turn, first.phasing or sc.first_player, first.phase
        directive.determine(game)
        begin_phase(game)
        return state

    def check(self, game: "Game", action: Action) -> Illegal | None:
        view = current_view(game)
        if isinstance(action, EndPhase):
            return check_end_phase(view)
        handler = HANDLERS.get(type(action))
        if handler is None:
            return Illegal("4.2", f"'{action.kind}' is not an action of this game")
        return handler[0](view, action)

    def apply(self, game: "Game", action: Action) -> None:
        if isinstance(action, EndPhase):
            end_phase(game)
            return
        HANDLERS[type(action)][1](game, action)

    def actor(self, game: "Game") -> str:
        """Who may act now: the side a pending combat choice names, else the phase's owner (4.1)."""
        st = game.state
        pending = st.pending
        if pending is not None and pending.get("side"):
            return str(pending["side"])
        # Asked before and after every action: the step is worked out once for the state's
        # turn, player, phase and half, all that the sequence and its skip rules read besides
        # the scenario, which is fixed for the game's life (issue 33).
        key = (st.turn, st.player, st.phase, st.half)
        kept = game.position_cache.get(_ACTOR)  # pragma: no mutate: a cache read; a miss works it out again
        if kept is not None and kept[0] == key:
            return cast(str, kept[1])
        owner = sequence.current(game).owner
        game.position_cache[_ACTOR] = (key, owner)  # pragma: no mutate: a cache write
        return owner

    def phase(self, game: "Game") -> Phase:
        st = game.state
        view = current_view(game)
        pending = ""
        if st.pending is not None:
            pending = str(st.pending.get("side", ""))
        step = sequence.current(game)
        return Phase(st.turn, step.segment, st.phase, st.player, step.owner, player_phases(game, st.player, st.turn),
                     tuple(todo(view)), pending, st.over)

    # -- queries for the faces ------------------------------------------------------------
    def reachable(self, game: "Game", units: tuple[str, ...], explain: bool = True) -> dict[Hex, Reach]:
        """Hexes the stack may end in (cost, path); with ``explain``, why every other hex is out."""
        return movement.reachable(current_view(game), units, explain)

    def supply(self, game: "Game") -> Supply:
        return current_view(game).supply

    def position(self, game: "Game") -> View:
        return current_view(game)

    def can_act(self, game: "Game", uid: str) -> bool:
        """Whether the unit may still move (movement phases) or attack (combat phase) now."""
        return acting.can_act(current_view(game), uid)

    def actable(self, game: "Game") -> list[str]:
        """Units of the phasing player that may still act this phase, in map order."""
        return acting.actable(current_view(game))

    def preview(self, game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...],
                integrity: str = "") -> OddsPreview | None:
        """Odds of an attack (combat phase) or an overrun of one hex (movement phases, 6.0)."""
        from kiev_tui.games.spi_kiev import combat, overrun

        phase = game.state.phase
        if phase == COMBAT:
            p = combat.preview(game, attackers, targets, integrity)
        elif phase in (MOVEMENT, MECHANIZED) and len(targets) == 1:
            p = overrun.overrun_preview(game, attackers, targets[0], integrity)
        else:
            return None
        return OddsPreview(p.illegal, p.attack, p.defense, p.column, dict(p.chances), tuple(p.notes), p.modifiers)

    def prompt(self, game: "Game") -> Prompt | None:
        """The combat choice on top of the prompt stack, with its options (prompting.py)."""
        from kiev_tui.games.spi_kiev import prompting

        return prompting.prompt(game)

    def legal(self, game: "Game", side: str) -> Iterator[Action]:
        """The side's legal actions now, lazily (prompting.legal says which)."""
        from kiev_tui.games.spi_kiev import prompting

        return prompting.legal(game, side)

    def score(self, game: "Game") -> Score:
        """The final score once the game is over (24.0), else the points as they stand (no winner)."""
        from kiev_tui.games.spi_kiev import victory

        st = game.state
        final = kiev_vars(st).final_score if st.over else None
        if final:
            points = {GERMAN: int(final["german"]), SOVIET: int(final["soviet"])}
            lines = tuple((x["side"], x["what"], int(x["points"])) for x in final.get("lines", []))
            winner = str(final.get("winner", ""))
        else:
            sc = victory.score(current_view(game), final=False)
            points = {GERMAN: sc.german, SOVIET: sc.soviet}
            lines = tuple(sc.lines)
            winner = ""
        return Score(points, tuple(f"{SCHEMA.side_name(s)} {p:+d}: {what}" for s, what, p in lines), winner)


def todo(view: View) -> list[str]:
    """What must still happen before the phase may end (the phase object shows it)."""
    st = view.state
    out: list[str] = []
    if st.over:
        return out
    if st.pending is not None:
        out.append(str(st.pending.get("prompt", "settle the pending combat result")))
    if st.phase == MOVEMENT:
        waiting = reinforcements.ready_to_enter(view)
        if waiting:
            out.append(f"bring on {len(waiting)} reinforcement(s): {', '.join(waiting)} (23.0)")
    if st.phase in (MOVEMENT, MECHANIZED):
        for h, problem in sorted(stacking.over_limit(view, st.player).items()):
            out.append(f"{h} holds {problem}: remove the excess (7.0)")
    return out


def check_end_phase(view: View) -> Illegal | None:
    st = view.state
    if st.pending is not None:
        return Illegal("9.6", str(st.pending.get("prompt", "a combat result must be settled first")))
    if st.phase == MOVEMENT:
        waiting = reinforcements.ready_to_enter(view)
        if waiting:
            return Illegal("23.0", f"reinforcements may not be held back: {', '.join(waiting)} must enter first")
    if st.phase in (MOVEMENT, MECHANIZED):
        over = stacking.over_limit(view, st.player)
        if over:
            h, problem = sorted(over.items())[0]
            return Illegal("7.0", f"{h} holds {problem}: remove the excess before ending the phase")
    return None


class _KievHooks(sequence.Hooks):
    """What Kiev does as the sequence of play (data/spi_kiev/sequence.toml) moves on."""

    def end_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseEnded(st.turn, st.player, st.phase))

    def player_changed(self, game: "Game") -> None:
        game.emit(PlayerChanged(game.state.player))

    def new_turn(self, game: "Game") -> None:
        directive.determine(game)  # 22.0: the directive is rolled for at the start of each game-turn

    def begin_step(self, game: "Game", step: sequence.Step) -> None:
        begin_phase(game)

    def game_end(self, game: "Game") -> None:
        finish(game)  # 4.2 C: after the last turn's interphase the game ends


HOOKS = _KievHooks()


def end_phase(game: "Game") -> None:
    sequence.advance(game, HOOKS)


def begin_phase(game: "Game") -> None:
    st = game.state
    v = kiev_vars(st)
    v.clear_phase()
    if st.phase == MOVEMENT:
        if st.player == game.scenario.first_player:
            v.rail_used = 0  # 19.3: the rail capacity is per game-turn
            v.relieved = v.relievers = ()
        v.entered = ()  # 15.0: arrivals are in supply only for their own player-turn
    view = View(game)
    units = st.units
    v.start_hex = {u.id: u.hex for u in map(units.__getitem__, _keys_of(game, st.player)) if u.status == "map"}
    if st.phase in (MOVEMENT, MECHANIZED):
        # 12.21: supply is judged once, before anything moves, and holds for the whole phase.
        sup = view.supply
        oos = sorted(uid for uid, s in sup.all_status(st.player).items() if not s.in_supply)
        v.oos_start = oos
        game.emit(SupplyChecked(st.player, tuple(oos)))
    game.emit(PhaseBegan(st.turn, st.player, st.phase))
    if st.phase == MOVEMENT:
        due = reinforcements.due_now(view)
        if due:
            game.emit(Note(f"Reinforcements due for the {st.player} player: {', '.join(due)}"))


def _keys_of(game: "Game", side: str) -> list[str]:
    """The keys of the side's units in the state's units, in its order (each phase start lists
    them; the catalog and the units' ids are fixed for the game's life: issue 33)."""
    units = game.state.units
    ids = tuple(units)
    memo = game.position_cache.get("keys of " + side)  # pragma: no mutate: memo key only
    if memo is None or memo[0] != ids:
        catalog = game.scenario.catalog.units
        memo = game.position_cache["keys of " + side] = (
            ids, [k for k, u in units.items() if catalog[u.id].side == side])
    return cast("list[str]", memo[1])


def finish(game: "Game") -> None:
    from kiev_tui.games.spi_kiev import victory

    st = game.state
    st.over = True
    score = victory.score(View(game))
    kiev_vars(st).final_score = score.to_dict()
    game.emit(GameOver(score.winner, score.summary()))


SYSTEM = KievRules()
