"""A random legal player for Kiev to Rostov: plays whole scenarios from ``legal()`` and the prompts'
options, checking after every action that the position keeps the rules' invariants."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine.actions import Action, EndPhase

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

MAX_ACTIONS = 6000
END_BIAS = 0.2  # chance of ending a phase when it may end, so that games finish


@dataclass
class Result:
    seed: int
    actions: int
    turns: int
    over: bool
    score: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        if self.over:
            return (f"seed {self.seed}: {self.actions} actions, game over after turn {self.turns}; "
                    f"Axis {self.score.get('axis')} stars, Soviet {self.score.get('soviet')}: "
                    f"{self.score.get('winner') or 'no'} victory")
        return f"seed {self.seed}: {self.actions} actions, reached turn {self.turns}"


def check_invariants(game: "Game") -> None:
    """Two sides never share a hex; units on the map stand on it; steps stay within the counter;
    a waiting prompt offers at least one answer."""
    st = game.state
    b = game.rules.position(game)
    for h, ids in b.occupied().items():
        assert b.on_map(h), f"{ids} stand off the map at {h}"
        assert len({b.side(u) for u in ids}) == 1, f"both sides in {b.hid(h)}: {ids}"
    for uid, u in st.units.items():
        assert 0 <= u.step <= len(game.scenario.catalog.units[uid].steps), f"{uid} has lost {u.step} steps"
        assert (u.status == "map") == (u.hex is not None), f"{uid}: status {u.status} with hex {u.hex}"
    if st.pending is not None and not st.over:
        p = game.rules.prompt(game)
        assert p is not None and p.options, f"the {st.pending.get('kind')} prompt offers nothing"


def choose(game: "Game", rng: random.Random, combat: bool = True) -> Action | None:
    side = game.actor
    acts = list(game.rules.legal(game, side))
    if not combat:
        acts = [a for a in acts if a.kind not in ("declare", "overrun")] or acts
    if not acts:
        return None
    ends = [a for a in acts if isinstance(a, EndPhase)]
    if ends and (len(acts) == 1 or rng.random() < END_BIAS):
        return ends[0]
    fights = [a for a in acts if a.kind in ("declare", "attack", "overrun")]
    if fights and rng.random() < 0.5:
        return rng.choice(fights)
    others = [a for a in acts if not isinstance(a, EndPhase)]
    return rng.choice(others or acts)


def play(game: "Game", seed: int, combat: bool = True, limit: int = MAX_ACTIONS,
         on_action: "Callable[[Game, Action], None] | None" = None) -> int:
    rng = random.Random(seed)
    n = 0
    while not game.state.over and n < limit:
        a = choose(game, rng, combat)
        if a is None:
            raise AssertionError(f"no legal action for {game.actor} in {game.phase}")
        game.apply(a, side=game.actor)
        check_invariants(game)
        if on_action is not None:  # selfplay --check: the generic invariants and a reload per phase end
            on_action(game, a)
        n += 1
    return n


def play_game(scenario: str = "efs_ktr/sumy", seed: int = 1, combat: bool = True,
              on_action: "Callable[[Game, Action], None] | None" = None) -> Result:
    from kiev_tui.engine.game import Game

    game = Game.new(scenario, seed=seed)
    n = play(game, seed, combat, on_action=on_action)
    sc = game.rules.score(game)
    score = {"axis": sc.points.get("axis", 0), "soviet": sc.points.get("soviet", 0), "winner": sc.winner}
    return Result(seed, n, game.state.turn, game.state.over, score)
