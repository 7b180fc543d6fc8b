"""A second, tiny game for tests: proof that the engine and the faces know no single game.

"Tiny" has two sides (axis, allies), clear and rough terrain, a map numbered with the odd
columns half a hex lower, one movement phase per player-turn and a score of towns held.  Its
data is in tests/fixtures/tiny/.  Use it through the games registry, as a face would::

    from tests.tiny_game import DUEL, register_tiny, unregister_tiny
    register_tiny()                      # the registry now knows "tiny"
    game = Game.new(DUEL, seed=1)        # the scenario says game = "tiny"
    ...
    unregister_tiny()

or take the pytest fixture ``tiny`` (registers, yields DUEL, unregisters) and, for the CLI's
``game/name`` form, ``tiny_data`` (also points KIEV_TUI_DATA at tests/fixtures, so that
``tiny/duel`` resolves).  The rule cases it cites are its own: T1 (turns), T2 (movement),
T3 (end of game), T4 (digging in), T5 (the town choice: fortify, or forage a neighbouring hex),
T6 (set-up choices) and T7 (a hidden target town, picked in one movement phase and revealed in
the picking player's next one: a bonus point if he holds it then).  The "muster" scenario (``MUSTER``) turns on T5 and opens with a set-up
choice.

Its game-turn is data (tests/fixtures/tiny/sequence.toml).  In the ``dig`` scenario (DIG) each
player's movement is followed by a reaction phase of the other side (T4): the non-phasing player
may step one unit that no enemy touches into a next hex free of enemies, where it digs in (a
marker it keeps until it moves again); a dug-in unit in a town its side holds scores a point more.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Mapping

import pytest

from kiev_tui.engine import registry, sequence
from kiev_tui.engine.actions import Action, ActionRegistry, EndPhase
from kiev_tui.engine.errors import DataError, Illegal
from kiev_tui.engine.events import Event, GameOver, Note, PhaseBegan, PhaseEnded, PlayerChanged
from kiev_tui.engine.game import Phase
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.prompts import SETUP, Option, Prompt, setup_frames, setup_prompt
from kiev_tui.engine.rules import Cases, OddsPreview, Reach, Schema, Score
from kiev_tui.engine.state import GameState
from kiev_tui.engine.units import UnitState
from kiev_tui.engine.view import check_reveal, commit, reveal

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.tomlio import Reader

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TINY_DIR = FIXTURES / "tiny"
DUEL = TINY_DIR / "scenarios" / "duel.toml"
DIG = TINY_DIR / "scenarios" / "dig.toml"
MUSTER = FIXTURES / "tiny_choices" / "muster.toml"  # outside tiny/, which validate reads whole

AXIS, ALLIES = "axis", "allies"
MOVEMENT = "movement"
DIG_IN = "dig_in"

SCHEMA = Schema(
    sides=(AXIS, ALLIES),
    side_names={AXIS: "Axis", ALLIES: "Allies"},
    unit_types={AXIS: ("infantry",), ALLIES: ("infantry",)},
    terrains=("clear", "rough"),
    settlements=("town",),
    scenario_keys=("dig_in", "town_choice"),  # T4 and T5 are played only where a scenario turns them on
)
CASES = Cases(game_over="T3", wrong_side="T1")

ACTIONS = ActionRegistry("tiny")


@ACTIONS.action("move")
@dataclass(frozen=True, slots=True)
class TinyMove(Action):
    """Move units that share a hex along a path of adjacent hexes (T2)."""

    units: tuple[str, ...]
    path: tuple[str, ...]


# -- prompts: the town choice (T5) and set-up choices (T6) --------------------------------

@ACTIONS.action("place")
@dataclass(frozen=True, slots=True)
class Place(Action):
    """T6: put a unit the scenario lets its side place in one of the hexes offered."""

    unit: str
    hex: str


@ACTIONS.action("fortify")
@dataclass(frozen=True, slots=True)
class Fortify(Action):
    """T5: the units that took the town dig in."""


@ACTIONS.action("forage")
@dataclass(frozen=True, slots=True)
class Forage(Action):
    """T5: the units that took the town forage; which hex is asked next."""


@ACTIONS.action("forage_at")
@dataclass(frozen=True, slots=True)
class ForageAt(Action):
    """T5.1: the neighbouring hex foraged."""

    hex: str


# -- T7: a hidden target town (views and secrets, issue 30) -------------------------------
TARGET = "target"  # the key of the hidden choice in GameState.secrets / commitments


@ACTIONS.action("target")
@dataclass(frozen=True, slots=True)
class TinyTarget(Action):
    """T7: secretly pick a town; the engine adds the salt (Game.apply), only the hash is public."""

    secret_key: ClassVar[str] = TARGET  # a hidden choice (engine.view.is_hidden): sealed for the other side
    secret_field: ClassVar[str] = "town"
    town: str
    salt: str = ""


@ACTIONS.action("reveal")
@dataclass(frozen=True, slots=True)
class TinyReveal(Action):
    """T7: show the target town and its salt; refused unless they hash to the commitment."""

    town: str
    salt: str


@dataclass(frozen=True, slots=True)
class Marched(Event):
    kind: ClassVar[str] = "marched"
    units: tuple[str, ...]
    path: tuple[str, ...]
    cost: int

    def describe(self) -> str:
        return f"{', '.join(self.units)} march {' > '.join(self.path)} ({self.cost} MP)"


@dataclass(frozen=True, slots=True)
class DugIn(Event):
    kind: ClassVar[str] = "dug_in"
    unit: str
    hex: str

    def describe(self) -> str:
        return f"{self.unit} digs in at {self.hex} (T4)"


@dataclass
class TinyVars:
    """Tiny's bookkeeping: who has moved this phase and the final score once the game ends."""

    moved: list[str] = field(default_factory=list)
    final: dict[str, int] = field(default_factory=dict)
    dug: list[str] = field(default_factory=list)  # T4: units with a dug-in marker
    foraged: list[str] = field(default_factory=list)  # T5.1: hexes foraged (written only when any)
    bonus: dict[str, int] = field(default_factory=dict)  # T7: points for revealed targets held
    picked: dict[str, int] = field(default_factory=dict)  # T7: side -> turn its hidden target was picked

    KEYS: ClassVar[tuple[str, ...]] = ("moved", "final", "dug", "foraged", "bonus", "picked")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"moved": list(self.moved), "final": dict(self.final)}
        if self.dug:  # only when used, so positions without digging hash as before
            out["dug"] = list(self.dug)
        if self.foraged:
            out["foraged"] = list(self.foraged)
        if self.bonus:  # absent while empty: positions from before T7 hash the same
            out["bonus"] = dict(self.bonus)
        if self.picked:
            out["picked"] = dict(self.picked)
        return out

    def copy(self) -> "TinyVars":
        return TinyVars(list(self.moved), dict(self.final), list(self.dug), list(self.foraged), dict(self.bonus),
                        dict(self.picked))


@dataclass(frozen=True)
class TinyView:
    """The position as the rules read it: who stands where."""

    occupancy: Mapping[str, tuple[str, ...]]  # printed hex id -> units there
    sides: Mapping[str, str]  # unit id -> side

    def side(self, uid: str) -> str:
        return self.sides[uid]

    def at(self, hex_id: str) -> tuple[str, ...]:
        return self.occupancy.get(hex_id, ())


class TinyRules:
    """The whole rule system of Tiny (meets kiev_tui.engine.rules.RuleSystem)."""

    id = "tiny"
    version = "1"
    schema = SCHEMA
    cases = CASES
    actions = ACTIONS
    #: T4: the dig-in phases run only in a scenario that turns them on
    skip_rules = {"quiet": lambda game, turn, phasing: not game.scenario.params.get("dig_in", False)}
    sequence = sequence.load_sequence(TINY_DIR / "sequence.toml", ("quiet",))

    # -- data -------------------------------------------------------------
    def read_units(self, root: "Reader", catalog: Any) -> None:
        """Tiny's units.toml has no tables beyond [[unit]]: nothing to read."""

    def prepare_scenario(self, scenario: "Scenario") -> None:
        """Nothing is drawn or derived in Tiny."""

    def check_scenario(self, scenario: "Scenario") -> None:
        """A scenario starts only with usable tables."""
        self.validate_tables(scenario.tables_path, scenario.tables)

    def validate_tables(self, path: Any, data: Mapping[str, Any]) -> None:
        """Every terrain of the schema needs a movement cost in tables.toml (T2)."""
        costs = data.get("terrain")
        if not isinstance(costs, dict):
            raise DataError(path, "terrain", "Tiny needs a [terrain] table of movement costs")
        for t in SCHEMA.terrains:
            cost = costs.get(t)
            if not isinstance(cost, int) or isinstance(cost, bool) or cost < 1:
                raise DataError(path, f"terrain.{t}", "a movement cost is a whole number >= 1")

    def new_vars(self) -> TinyVars:
        return TinyVars()

    def vars_from_dict(self, data: Mapping[str, Any]) -> TinyVars:
        for key in data:
            if key not in TinyVars.KEYS:
                raise ValueError(f"unknown key '{key}' in Tiny's bookkeeping")
        moved = data.get("moved", [])
        final = data.get("final", {})
        dug = data.get("dug", [])
        if not isinstance(moved, list) or not all(isinstance(u, str) for u in moved):
            raise ValueError("'moved' must be a list of unit ids")
        if not isinstance(final, dict) or not all(isinstance(v, int) for v in final.values()):
            raise ValueError("'final' must map sides to points")
        if not isinstance(dug, list) or not all(isinstance(u, str) for u in dug):
            raise ValueError("'dug' must be a list of unit ids")
        bonus = data.get("bonus", {})
        if not isinstance(bonus, dict) or not all(isinstance(v, int) for v in bonus.values()):
            raise ValueError("'bonus' must map sides to points")
        picked = data.get("picked", {})
        if not isinstance(picked, dict) or not all(isinstance(v, int) for v in picked.values()):
            raise ValueError("'picked' must map sides to turns")
        return TinyVars(list(moved), dict(final), list(dug), list(data.get("foraged", [])), dict(bonus), dict(picked))

    # -- play -------------------------------------------------------------
    def setup(self, game: "Game") -> GameState:
        sc = game.scenario
        units = {uid: UnitState(uid) for uid in sc.catalog.units}
        for uid, h in sc.setup.items():
            units[uid].status = "map"
            units[uid].hex = sc.map.grid.id(h)
        control = {sc.map.grid.id(h): side for side, hexes in sc.control.items() for h in hexes}
        state = GameState(turn=1, player=sc.first_player, phase=MOVEMENT, units=units, control=control,
                          vars=self.new_vars())
        for frame in setup_frames(sc):  # T6: each side places its chosen units first
            state.push_prompt(frame)
        game.state = state
        first = sequence.start(game)  # the scenario's first_turn and first_phase (T1)
        state.turn, state.player, state.phase = sc.first_turn, first.phasing or sc.first_player, first.phase
        game.emit(PhaseBegan(state.turn, state.player, state.phase))
        return state

    def phase(self, game: "Game") -> Phase:
        st = game.state
        step = sequence.current(game)
        return Phase(st.turn, step.segment, st.phase, st.player, step.owner, sequence.segment_phases(game, step),
                     (), "", st.over)

    def actor(self, game: "Game") -> str:
        top = game.state.pending  # T5, T6: the side a waiting choice names answers first
        if top is not None:
            return str(top["side"])
        return sequence.current(game).owner  # T4: the dig-in phase is the other side's

    def check(self, game: "Game", action: Action) -> Illegal | None:
        if game.state.prompts or isinstance(action, PROMPT_ACTIONS):
            return self._check_answer(game, action)
        if isinstance(action, EndPhase):
            st = game.state
            if st.vars.picked.get(st.player, st.turn) < st.turn:
                return Illegal("T7", "reveal the target town picked last turn before this phase ends")
            return None  # T1: a player may stop moving at any time
        if isinstance(action, TinyTarget):
            return self._check_target(game, action)
        if isinstance(action, TinyReveal):
            st = game.state
            if st.vars.picked.get(st.player) == st.turn:
                return Illegal("T7", "a target is revealed in the picking player's next phase, not this one")
            return check_reveal(game, st.player, TARGET, action.town, action.salt, "T7")
        if not isinstance(action, TinyMove):
            return Illegal("T1", f"'{action.kind}' is not an action of Tiny")
        return self._check_move(game, action)

    def _check_move(self, game: "Game", a: TinyMove) -> Illegal | None:
        st, view, grid = game.state, self.position(game), game.scenario.map.grid
        side = self.actor(game)
        if not a.units:
            return Illegal("T2.1", "name at least one unit to move")
        if not a.path:
            return Illegal("T2.1", "the path names no hex")
        starts = set()
        for uid in a.units:
            u = st.units.get(uid)
            if u is None or u.status != "map":
                return Illegal("T2.1", f"{uid} is not on the map")
            if view.side(uid) != side:
                return Illegal("T2.1", f"{uid} is not a unit of the {SCHEMA.side_name(side)} player")
            if uid in st.vars.moved:
                return Illegal("T2.2", f"{uid} has already moved this turn")
            starts.add(u.hex)
        if len(starts) != 1:
            return Illegal("T2.1", "units move together only from one hex")
        if st.phase == DIG_IN:
            why = self._check_dig(game, a, next(iter(starts)))
            if why is not None:
                return why
        try:
            hexes = [grid.parse(t) for t in a.path]
        except HexError as exc:
            return Illegal("T2.1", str(exc))
        prev = grid.parse(starts.pop())
        cost = 0
        gmap = game.scenario.map
        for h in hexes:
            if h not in gmap.neighbours(prev):
                return Illegal("T2.1", f"{grid.id(h)} is not next to {grid.id(prev)}")
            here = view.at(grid.id(h))
            if here and view.side(here[0]) != side:
                return Illegal("T2.3", f"{grid.id(h)} holds an enemy unit")
            cost += self.step_cost(game, h)
            prev = h
        ma = min(self._ma(game, uid) for uid in a.units)
        if cost > ma:
            return Illegal("T2.4", f"the path costs {cost} MP, more than the {ma} MP the units have")
        return None

    def _check_dig(self, game: "Game", a: TinyMove, start: str) -> Illegal | None:
        """T4: one unit, not next to an enemy, steps into one next hex."""
        if game.state.vars.moved:
            return Illegal("T4.3", "only one unit digs in in each dig-in phase")
        if len(a.units) != 1:
            return Illegal("T4.1", "one unit digs in at a time")
        if len(a.path) != 1:
            return Illegal("T4.1", "a unit digging in steps into one next hex only")
        if self._touches_enemy(game, start, self.actor(game)):
            return Illegal("T4.1", f"{a.units[0]} is next to an enemy unit and cannot dig in")
        return None

    def _touches_enemy(self, game: "Game", hex_id: str, side: str) -> bool:
        grid, view = game.scenario.map.grid, self.position(game)
        for n in game.scenario.map.neighbours(grid.parse(hex_id)):
            here = view.at(grid.id(n))
            if here and view.side(here[0]) != side:
                return True
        return False

    def _check_target(self, game: "Game", a: TinyTarget) -> Illegal | None:
        st = game.state
        if TARGET in st.commitments.get(st.player, {}):
            return Illegal("T7", "a target town is already picked and not yet revealed")
        if st.turn >= game.scenario.turns:
            return Illegal("T7", "no target in the last turn: there is no later phase to reveal it in")
        if a.town not in self._towns(game):
            return Illegal("T7", f"{a.town} is not a town")
        return None

    def _towns(self, game: "Game") -> list[str]:
        gmap = game.scenario.map
        return sorted(gmap.grid.id(h) for h in gmap.settlements())

    def options(self, game: "Game", side: str) -> list[Action]:
        """T7 choices the generic faces offer the actor: pick a town, or reveal the pick."""
        st = game.state
        if st.over or side != st.player:
            return []
        if TARGET in st.commitments.get(side, {}):
            mine = st.secrets.get(side, {}).get(TARGET)  # absent from another side's copy
            if mine is None or st.vars.picked.get(side, st.turn) >= st.turn:
                return []  # T7: revealed only in a later phase
            return [TinyReveal(mine["choice"], mine["salt"])]
        if st.turn >= game.scenario.turns:
            return []
        return [TinyTarget(t) for t in self._towns(game)]

    def committed(self, game: "Game", side: str, key: str) -> None:
        """T7: the public record of a pick (the turn it was made), for the owner's copy and the sealed one."""
        game.state.vars.picked[side] = game.state.turn

    def apply(self, game: "Game", action: Action) -> None:
        if isinstance(action, PROMPT_ACTIONS):
            self._answer(game, action)
            return
        if isinstance(action, EndPhase):
            self._end_phase(game)
            return
        if isinstance(action, TinyTarget):
            commit(game, game.state.player, TARGET, action.town, action.salt)  # T7
            return
        if isinstance(action, TinyReveal):
            st = game.state
            if st.control.get(action.town) == st.player:  # T7: a held target scores a bonus point
                st.vars.bonus[st.player] = st.vars.bonus.get(st.player, 0) + 1
            st.vars.picked.pop(st.player, None)
            reveal(game, st.player, TARGET, action.town)
            return
        assert isinstance(action, TinyMove)
        st, grid = game.state, game.scenario.map.grid
        cost = sum(self.step_cost(game, grid.parse(t)) for t in action.path)
        side = self.actor(game)
        for uid in action.units:
            st.units[uid].hex = action.path[-1]
            st.vars.moved.append(uid)
            if uid in st.vars.dug:  # T4.2: a unit that moves leaves its marker behind
                st.vars.dug.remove(uid)
        for t in action.path:  # T3: entering a town takes it
            if grid.parse(t) in game.scenario.map.settlements():
                st.control[t] = side
        game.emit(Marched(action.units, action.path, cost))
        if st.phase == DIG_IN:  # T4.2: the unit digs in where it stops
            st.vars.dug.extend(action.units)
            game.emit(DugIn(action.units[0], action.path[-1]))
        end = action.path[-1]
        if game.scenario.params.get("town_choice") and grid.parse(end) in game.scenario.map.settlements():
            st.push_prompt({"kind": "town", "side": side, "hex": end, "units": list(action.units)})  # T5

    def _end_phase(self, game: "Game") -> None:
        sequence.advance(game, HOOKS)  # T1: the next phase of tests/fixtures/tiny/sequence.toml

    # -- questions the faces ask ------------------------------------------
    def position(self, game: "Game") -> TinyView:
        memo = game.memo
        if not game.applying and "tiny.view" in memo:
            return memo["tiny.view"]  # type: ignore[no-any-return]
        occ = {h: tuple(ids) for h, ids in game.state.occupancy().items()}
        view = TinyView(occ, {uid: d.side for uid, d in game.scenario.catalog.units.items()})
        if not game.applying:  # a position half-changed by an action is never cached
            memo["tiny.view"] = view
        return view

    def step_cost(self, game: "Game", h: Hex) -> int:
        """T2: entering a hex costs its terrain's movement points (tables.toml [terrain])."""
        return int(game.scenario.tables["terrain"][game.scenario.map.terrain(h)])

    def _ma(self, game: "Game", uid: str) -> int:
        return int(game.scenario.catalog.units[uid].ma)

    def reachable(self, game: "Game", units: tuple[str, ...], explain: bool = True) -> dict[Hex, Reach]:
        """Cheapest paths within the stack's movement points; with ``explain``, why not elsewhere."""
        st, gmap = game.state, game.scenario.map
        grid = gmap.grid
        if not units or any(not self.can_act(game, u) for u in units):
            return {}
        start = grid.parse(str(st.units[units[0]].hex))
        ma = min(self._ma(game, u) for u in units)
        side = self.actor(game)
        if st.phase == DIG_IN:
            ma = 1 if len(units) == 1 and not self._touches_enemy(game, str(st.units[units[0]].hex), side) else 0
        view = self.position(game)
        best: dict[Hex, tuple[int, tuple[str, ...]]] = {start: (0, ())}
        frontier = [start]
        while frontier:
            frontier.sort(key=lambda h: best[h][0])
            h = frontier.pop(0)
            cost, path = best[h]
            for n in gmap.neighbours(h):
                here = view.at(grid.id(n))
                if here and view.side(here[0]) != side:
                    continue
                c = cost + (1 if st.phase == DIG_IN else self.step_cost(game, n))
                if c <= ma and (n not in best or c < best[n][0]):
                    best[n] = (c, path + (grid.id(n),))
                    frontier.append(n)
        out = {h: Reach(float(c), p) for h, (c, p) in best.items() if h != start}
        if explain:
            for h in gmap.hexes():
                if h in out or h == start:
                    continue
                here = view.at(grid.id(h))
                if here and view.side(here[0]) != side:
                    out[h] = Reach(None, (), "T2.3", f"{grid.id(h)} holds an enemy unit")
                elif st.phase == DIG_IN:
                    out[h] = Reach(None, (), "T4.1", "a unit digging in steps into one next hex only")
                else:
                    out[h] = Reach(None, (), "T2.4", f"farther than the {ma} MP the units have")
        return out

    def supply(self, game: "Game") -> None:
        return None  # Tiny has no supply rules

    def can_act(self, game: "Game", uid: str) -> bool:
        st = game.state
        u = st.units.get(uid)
        side = self.actor(game)
        if (st.over or u is None or u.status != "map" or uid in st.vars.moved
                or game.scenario.catalog.units[uid].side != side):
            return False
        if st.phase == DIG_IN:  # T4: one unit a phase, and only one no enemy touches
            return not st.vars.moved and not self._touches_enemy(game, str(u.hex), side)
        return True

    def actable(self, game: "Game") -> list[str]:
        return sorted(uid for uid in game.state.units if self.can_act(game, uid))

    def preview(self, game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...]) -> OddsPreview | None:
        return None  # Tiny has no combat

    # -- T5 and T6: choices on the prompt stack --------------------------
    def prompt(self, game: "Game") -> Prompt | None:
        """The choice on top of the stack with its options (None when nothing waits)."""
        top = game.state.pending
        if top is None:
            return None
        if top["kind"] == SETUP:
            return setup_prompt(top, "T6", Place, taken=lambda h: bool(self.position(game).at(h)))
        if top["kind"] == "town":
            return Prompt(top["side"], "town", "T5", f"{top['side']} player: fortify {top['hex']} or forage?",
                          (Option("fortify", f"fortify {top['hex']}", Fortify(), hex=top["hex"]),
                           Option("forage", "forage a neighbouring hex", Forage(), hex=top["hex"])))
        grid, gmap = game.scenario.map.grid, game.scenario.map
        around = sorted(grid.id(n) for n in gmap.neighbours(grid.parse(top["hex"])))
        return Prompt(top["side"], "forage", "T5.1", f"{top['side']} player: forage which hex next to {top['hex']}?",
                      tuple(Option("forage_at", f"forage {h}", ForageAt(h), hex=h) for h in around))

    def legal(self, game: "Game", side: str) -> Iterator[Action]:
        """While a choice waits, its options; else EndPhase and one move of each unit to each
        hex it can reach (along the cheapest path)."""
        if game.state.over or self.actor(game) != side:
            return
        top = self.prompt(game)
        if top is not None:
            yield from top.actions()
            return
        yield EndPhase()
        for uid in self.actable(game):
            for reach in self.reachable(game, (uid,), explain=False).values():
                yield TinyMove((uid,), reach.path)

    def _check_answer(self, game: "Game", action: Action) -> Illegal | None:
        top = self.prompt(game)
        if top is None:
            return Illegal("T5", f"no choice waits for '{action.kind}'")
        if action not in {o.action for o in top.options}:
            return Illegal(top.case, f"answer the {top.kind} choice first: {', '.join(o.label for o in top.options)}")
        return None

    def _answer(self, game: "Game", action: Action) -> None:
        st = game.state
        top = st.pending
        if isinstance(action, Place):  # T6
            st.pop_prompt()
            st.units[action.unit].status, st.units[action.unit].hex = "map", action.hex
            game.emit(Note(f"{action.unit} starts in {action.hex} (T6)"))
        elif isinstance(action, Fortify):  # T5
            st.pop_prompt()
            for uid in top["units"]:
                st.units[uid].markers.add("fortified")
            game.emit(Note(f"{', '.join(top['units'])} fortify {top['hex']} (T5)"))
        elif isinstance(action, Forage):  # T5: the town choice stays under the question it asks
            st.push_prompt({"kind": "forage", "side": top["side"], "hex": top["hex"]})
        else:
            assert isinstance(action, ForageAt)
            st.pop_prompt()  # the hex is chosen: the forage question ...
            st.pop_prompt()  # ... and the town choice it answers (T5.1)
            st.vars.foraged.append(action.hex)
            game.emit(Note(f"{top['side']} forages {action.hex} (T5.1)"))

    def score(self, game: "Game") -> Score:
        """T3: a point per town held; more points wins, equal is a draw."""
        st = game.state
        towns = {side: sum(1 for v in st.control.values() if v == side) for side in SCHEMA.sides}
        for uid in st.vars.dug:  # T4.2: a dug-in unit in a town its side holds is a point more
            side = game.scenario.catalog.units[uid].side
            if st.control.get(str(st.units[uid].hex)) == side:
                towns[side] += 1
        points = {s: n + st.vars.bonus.get(s, 0) for s, n in towns.items()}  # T7: plus revealed targets held
        lines = tuple(f"{SCHEMA.side_name(s)} holds {n} town(s)"
                      + (f" and {st.vars.bonus[s]} target bonus" if st.vars.bonus.get(s) else "")
                      for s, n in towns.items())
        a, b = points[AXIS], points[ALLIES]
        winner = AXIS if a > b else ALLIES if b > a else ""
        return Score(points, lines, winner)


class _TinyHooks(sequence.Hooks):
    """What Tiny does as its sequence of play moves on."""

    def end_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseEnded(st.turn, st.player, st.phase))
        st.vars.moved.clear()

    def player_changed(self, game: "Game") -> None:
        game.emit(PlayerChanged(game.state.player))

    def begin_step(self, game: "Game", step: sequence.Step) -> None:
        st = game.state
        game.emit(PhaseBegan(st.turn, st.player, st.phase))
        if step.owner != st.player:  # T4: a reaction phase: say who acts in it
            game.emit(Note(f"The {SCHEMA.side_name(step.owner)} player may dig in one unit (T4)"))

    def game_end(self, game: "Game") -> None:
        st = game.state  # T3: the game ends after the last turn
        st.over = True
        sc = SYSTEM.score(game)
        st.vars.final = dict(sc.points)
        game.emit(GameOver(SCHEMA.side_name(sc.winner) if sc.winner else "no", "; ".join(sc.lines)))


HOOKS = _TinyHooks()

PROMPT_ACTIONS = (Place, Fortify, Forage, ForageAt)

SYSTEM = TinyRules()


def register_tiny() -> None:
    """Make "tiny" a game the registry (and so every face) knows; it has no adapter."""
    registry.register("tiny", SYSTEM, adapter=None)


def unregister_tiny() -> None:
    registry.unregister("tiny")


@pytest.fixture
def tiny() -> Iterator[Path]:
    """Tiny registered for one test; yields the path of its duel scenario."""
    register_tiny()
    try:
        yield DUEL
    finally:
        unregister_tiny()


@pytest.fixture
def tiny_data(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Tiny registered and KIEV_TUI_DATA at tests/fixtures, so "tiny/duel" names its scenario."""
    monkeypatch.setenv("KIEV_TUI_DATA", str(FIXTURES))
    assert os.environ["KIEV_TUI_DATA"] == str(FIXTURES)
    yield tiny
