"""Properties of positions reached by random legal play (hypothesis, bounded).

Whatever legal actions are played, a position must keep these promises:
- each counter is in exactly one place: on the map (in one on-map hex), pending or eliminated;
- a unit's step stays within the steps printed for it;
- no hex holds units of both sides;
- stacking limits hold at the end of each movement phase and throughout combat (7.0);
- the position alone (``state.to_dict()``) is enough: a game rebuilt from it agrees on the
  phase, supply and command of every unit, zones, control and the score.

The helpers here are shared with tests/test_soak.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import bot, combat, stacking, victory
from kiev_tui.games.spi_kiev.common import COMBAT, GERMAN, MECHANIZED, MOVEMENT, SOVIET, View

MINI = Path(__file__).resolve().parent / "fixtures" / "mini" / "scenarios" / "mini.toml"
STATUSES = ("map", "pending", "eliminated")

_SCENARIOS: dict[str, Scenario] = {}


def scenario(ref: str | Path) -> Scenario:
    """Scenarios are read once per test session; play never changes them."""
    key = str(ref)
    if key not in _SCENARIOS:
        _SCENARIOS[key] = load_scenario(ref)
    return _SCENARIOS[key]


# -- invariants -------------------------------------------------------------------------------

def check_position(game: Game) -> None:
    """The promises every position keeps, after every action."""
    st = game.state
    gmap = game.scenario.map
    catalog = game.scenario.catalog
    view = View(game)
    assert set(st.units) == set(catalog.units), "the state's units differ from the counters"
    seen: dict[str, str] = {}
    for uid, u in st.units.items():
        assert u.id == uid
        assert u.status in STATUSES, f"{uid} has status {u.status!r}"
        if u.status == "map":
            assert u.hex is not None, f"{uid} is on the map in no hex"
            h = view.hex_of(uid)
            assert h is not None and gmap.on_map(h), f"{uid} stands off the map at {u.hex}"
        else:
            assert u.hex is None, f"{uid} is {u.status} but still names hex {u.hex}"
        steps = len(view.udef(uid).steps)
        assert 0 <= u.step < steps, f"{uid} is at step {u.step}, it has {steps}"
    for h, ids in view.occupancy.items():
        for uid in ids:
            assert uid not in seen, f"{uid} is in both {seen[uid]} and {h}"
            seen[uid] = str(h)
        sides = {view.side(uid) for uid in ids}
        assert len(sides) == 1, f"{h} holds units of both sides: {ids}"
    assert len(seen) == sum(1 for u in st.units.values() if u.status == "map")
    if st.pending is not None and st.pending.get("kind") == "advance":
        # 9.81/9.84: an advance is a walk of distinct neighbouring hexes (a new player once saw
        # an option "0218 > 0218").
        for path in combat.advance_options(game)["paths"]:
            assert len(set(path)) == len(path), f"advance option repeats a hex: {path}"
            hexes = [Hex.parse(x) for x in path]
            assert all(b in gmap.neighbours(a) for a, b in zip(hexes, hexes[1:])), f"advance option jumps: {path}"
    if st.phase == COMBAT:
        for side in (GERMAN, SOVIET):  # 7.0: at all times in a combat phase
            assert not stacking.over_limit(view, side), f"{side} overstacked in combat: {stacking.over_limit(view, side)}"


def check_phase_end(game: Game, player: str, phase: str) -> None:
    """7.0: after ``player``'s ``phase`` ended, his stacks are within the limits."""
    view = View(game)
    if phase in (MOVEMENT, MECHANIZED):
        over = stacking.over_limit(view, player)
        assert not over, f"{player} ended the {phase} phase overstacked: {over}"
    other = SOVIET if player == GERMAN else GERMAN
    assert not stacking.over_limit(view, other), f"{other} overstacked while {player} moved"


def rebuilt(game: Game, shadow: Game | None = None) -> Game:
    """A second game on the same scenario whose state comes only from ``state.to_dict()``."""
    if shadow is None:
        shadow = Game(game.scenario, game.seed)
    shadow.state = GameState.from_dict(json.loads(json.dumps(game.state.to_dict())), game.rules.vars_from_dict)
    shadow.rolls = game.rolls
    # The engine caches one view per (state, version); after a change made by hand the
    # version moves on, as it does after every action.
    shadow.version += 1
    return shadow


def snapshot(game: Game) -> dict:
    """A detached copy of the position (``to_dict()`` shares its vars and pending dicts)."""
    return json.loads(json.dumps(game.state.to_dict()))


def supply_table(game: Game) -> dict[str, tuple]:
    sup = game.rules.supply(game)  # type: ignore[attr-defined]
    out: dict[str, tuple] = {}
    for side in (GERMAN, SOVIET):
        for uid, s in sup.all_status(side).items():
            out[uid] = (s.in_supply, s.in_command, s.hq, s.why)
    return out


def check_recomputable(game: Game, shadow: Game | None = None) -> Game:
    """Everything the rules derive from a position comes out the same from its saved form."""
    twin = rebuilt(game, shadow)
    assert twin.state.to_dict() == game.state.to_dict()
    assert twin.state_hash() == game.state_hash()
    assert twin.phase == game.phase
    assert supply_table(twin) == supply_table(game)
    v1, v2 = View(game), View(twin)
    assert v1.zoc_movement == v2.zoc_movement and v1.zoc_blocking == v2.zoc_blocking
    assert twin.state.control == game.state.control
    assert victory.score(v2, final=False).to_dict() == victory.score(v1, final=False).to_dict()
    # 24.0: every town and city has an owner, and an occupied one belongs to its occupant.
    for h in game.scenario.map.settlements():
        assert game.state.control.get(str(h)) in (GERMAN, SOVIET), f"{h} has no controller"
    return twin


# -- random legal play ------------------------------------------------------------------------

def random_step(game: Game, rng: random.Random, end_bias: float = 0.3) -> Action:
    """One random legal action: a pending answer, a move, an entry, an attack, or EndPhase."""
    st = game.state
    if st.pending is not None:
        answer = bot.answer_pending(game, rng)
        assert answer is not None, f"nobody can answer the pending choice {st.pending}"
        game.apply(answer)
        return answer
    candidates: list[Action] = []
    assert bot.combat_actions in bot.EXTRA_GENERATORS, "random play must be able to attack"
    if st.phase in (MOVEMENT, MECHANIZED):
        candidates.extend(bot.movement_actions(game, rng, budget=4))
    for gen in bot.EXTRA_GENERATORS:
        candidates.extend(gen(game, rng))
    forced = game.check(EndPhase()) is not None
    if forced or rng.random() > end_bias:
        for act in candidates:
            if game.check(act) is None:
                game.apply(act)
                return act
    illegal = game.check(EndPhase())
    assert illegal is None, f"stuck at {game.phase}: nothing legal, and EndPhase refused: {illegal}"
    game.apply(EndPhase())
    return EndPhase()


def play(game: Game, rng: random.Random, actions: int,
         after: Callable[[Game, Action, str, str], None] | None = None) -> None:
    """Play up to ``actions`` random legal actions; ``after(game, action, player, phase)``
    runs after each with the player and phase the action was played in."""
    for _ in range(actions):
        if game.state.over:
            return
        player, phase = game.state.player, game.state.phase
        act = random_step(game, rng)
        if after is not None:
            after(game, act, player, phase)


def checker(recompute_every: int = 1) -> Callable[[Game, Action, str, str], None]:
    """The callback used by properties and soak: position checks after every action, stacking
    at every phase end, a rebuild from the saved form at every n-th phase end."""
    ends = [0]
    shadow: list[Game | None] = [None]

    def after(game: Game, act: Action, player: str, phase: str) -> None:
        check_position(game)
        if isinstance(act, EndPhase):
            check_phase_end(game, player, phase)
            ends[0] += 1
            if recompute_every and ends[0] % recompute_every == 0:
                shadow[0] = check_recomputable(game, shadow[0])

    return after


# -- the properties ---------------------------------------------------------------------------

# Deterministic and bounded: no example database, no shrinking (a failing seed is reported as is).
BOUNDED = settings(deadline=None, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate),
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(BOUNDED, max_examples=20)
@given(seed=st.integers(0, 2**20), actions=st.integers(0, 70))
def test_mini_positions_keep_their_promises(seed: int, actions: int) -> None:
    game = Game(scenario(MINI), seed)
    check_position(game)
    play(game, random.Random(seed), actions, checker())
    check_recomputable(game)


@settings(BOUNDED, max_examples=8)
@given(seed=st.integers(0, 2**20), actions=st.integers(10, 120))
def test_campaign_positions_keep_their_promises(seed: int, actions: int) -> None:
    game = Game(scenario("spi_kiev/campaign"), seed)
    check_position(game)
    check_recomputable(game)
    play(game, random.Random(seed), actions, checker(recompute_every=3))
    check_recomputable(game)


@pytest.mark.slow
@settings(BOUNDED, max_examples=25, derandomize=False)
@given(seed=st.integers(0, 2**31), actions=st.integers(20, 150))
def test_campaign_positions_keep_their_promises_many(seed: int, actions: int) -> None:
    """make soak: more and longer campaign positions, new ones on every run."""
    game = Game(scenario("spi_kiev/campaign"), seed)
    play(game, random.Random(seed), actions, checker(recompute_every=1))
    check_recomputable(game)


@settings(BOUNDED, max_examples=10)
@given(seed=st.integers(0, 2**20), actions=st.integers(0, 40))
def test_state_dict_round_trips_exactly(seed: int, actions: int) -> None:
    game = Game(scenario(MINI), seed)
    play(game, random.Random(seed), actions)
    d = game.state.to_dict()
    again = GameState.from_dict(json.loads(json.dumps(d)), game.rules.vars_from_dict)
    assert again.to_dict() == d
    assert again.hash(extra=f"|rolls={game.rolls}|seed={game.seed}") == game.state_hash()
    assert game.state.copy().to_dict() == d


@settings(BOUNDED, max_examples=8)
@given(seed=st.integers(0, 2**20), actions=st.integers(1, 40))
def test_undo_restores_the_previous_position(seed: int, actions: int) -> None:
    """Undo, where the engine allows it, gives back exactly the position before the action."""
    game = Game(scenario(MINI), seed)
    rng = random.Random(seed)
    undone = 0
    for _ in range(actions):
        if game.state.over:
            break
        # A deep copy: to_dict() hands out the live vars and pending dicts, not copies.
        before = (snapshot(game), game.state_hash(), len(game.log), len(game.journal))
        random_step(game, rng)
        if game.can_undo:
            assert game.undo()
            assert (snapshot(game), game.state_hash(), len(game.log), len(game.journal)) == before
            undone += 1
            random_step(game, random.Random(rng.random()))
    # The first action of the game is a Soviet move, entry or phase end, never a die roll: at
    # least that one is always undone, so the property is never checked on nothing.
    assert undone >= 1


def test_the_checks_are_not_vacuous(mini: Game) -> None:
    """Hand-made broken positions are caught: an overstack, a mixed hex, a unit in two states."""
    from conftest import position

    game = position(mini, {"ge-1pz-1": "0505", "ge-1pz-2": "0505", "ge-1pz-3": "0505", "ge-inf-1": "0505"},
                    player="german", reinforcements=False)
    with pytest.raises(AssertionError, match="overstacked"):
        check_phase_end(game, GERMAN, MOVEMENT)
    game.state.units["ge-inf-1"].hex = "0606"
    game.state.units["so-rifle-1"].status, game.state.units["so-rifle-1"].hex = "map", "0606"
    with pytest.raises(AssertionError, match="both sides"):
        check_position(game)
    game.state.units["so-rifle-1"].status = "eliminated"
    with pytest.raises(AssertionError, match="still names hex"):
        check_position(game)
    game.state.units["so-rifle-1"].hex = None
    game.state.units["so-rifle-1"].step = 9
    with pytest.raises(AssertionError, match="step 9"):
        check_position(game)
