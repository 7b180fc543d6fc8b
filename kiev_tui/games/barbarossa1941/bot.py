"""A random legal player for Barbarossa 1941: a test tool that plays whole games (``kiev-tui selfplay``).

It answers every prompt from the prompt's options (``engine.prompts.random_answer``: no game
knowledge), moves a few random stacks to random hexes ``reachable`` offers, makes random
overruns and attacks taken from ``legal()``, drops airborne units, sends air corps against the
Baltic Fleet, rebases air corps, and ends each phase.  Every
action it sends must pass ``game.check``; a refused one is a bug in the rules and raises.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.prompts import random_answer
from kiev_tui.games.barbarossa1941.actions import AirStrike, Attack, Move, Overrun, Rebase
from kiev_tui.games.barbarossa1941.allowance import EXPLOITATION, MOVEMENT
from kiev_tui.games.barbarossa1941.system import AIR_REBASING, COMBAT, SYSTEM, board_of


@dataclass
class Result:
    seed: int
    actions: int
    turns: int
    over: bool
    score: dict = field(default_factory=dict)

    def summary(self) -> str:
        if self.over:
            return (f"seed {self.seed}: {self.actions} actions, game over after turn {self.turns}; "
                    f"Axis {self.score.get('axis', 0)} VP: {self.score.get('level', '').replace('_', ' ')}")
        return f"seed {self.seed}: {self.actions} actions, reached turn {self.turns}"


def answer_from_options(game: Game, rng: random.Random) -> Action | None:
    """A random answer among the waiting prompt's options."""
    p = game.rules.prompt(game)
    return None if p is None or not p.options else random_answer(p, rng)


def phase_actions(game: Game, rng: random.Random, combat: bool = True, budget: int = 16) -> list[Action]:
    """A few random legal actions for the side to act in this phase."""
    st = game.state
    out: list[Action] = []
    if st.phase == MOVEMENT and rng.random() < 0.5:
        drops = list(itertools.islice(SYSTEM._drops(game, game.actor), 40))
        if drops:
            out.append(rng.choice(drops))
    if st.phase in (MOVEMENT, EXPLOITATION):
        units = SYSTEM.actable(game)
        rng.shuffle(units)
        for uid in units[:budget]:
            reach = [r for r in SYSTEM.reachable(game, (uid,), explain=False).values() if r.ok]
            if reach:
                out.append(Move((uid,), rng.choice(reach).path))
        if combat and rng.random() < 0.3:
            board = board_of(game)
            for uid in units[:budget]:
                for a in SYSTEM._overruns(game, board, (uid,)):
                    out.append(a)
                    break
    elif st.phase == COMBAT and combat:
        attacks = list(itertools.islice(SYSTEM._attacks(game, board_of(game)), 30))
        rng.shuffle(attacks)
        out.extend(attacks[:3])
        strikes = [a for a in SYSTEM.legal(game, game.actor) if isinstance(a, AirStrike)]
        if strikes and rng.random() < 0.5:
            out.insert(0, rng.choice(strikes))
    elif st.phase in ("rail", "rail_markers"):  # 10.1 rail moves, 10.3 marker advances
        acts = [a for a in itertools.islice(SYSTEM.legal(game, game.actor), 300) if not isinstance(a, EndPhase)]
        rng.shuffle(acts)
        out.extend(acts[:3])
    elif st.phase == AIR_REBASING:
        opts = SYSTEM._rebase_options(game, game.actor)
        rng.shuffle(opts)
        out.extend(opts[:2])
    return out


def play_game(scenario: str | Path, seed: int, combat: bool = True, max_actions: int = 20000,
              on_action: Callable[[Game, Action], None] | None = None,
              answer: Callable[[Game, random.Random], Action | None] = answer_from_options) -> Result:
    """Play one whole game with random legal actions; raise if a rule check misbehaves."""
    game = Game.new(scenario, seed)
    rng = random.Random(seed * 7919 + 41)
    count = 0

    def send(act: Action) -> None:
        nonlocal count
        illegal = game.check(act)
        if illegal is not None:
            raise RuntimeError(f"bot's {act} refused at {game.phase}: {illegal}")
        game.apply(act)
        count += 1
        if on_action:
            on_action(game, act)

    while not game.state.over and count < max_actions:
        if game.state.pending is not None:
            reply = answer(game, rng)
            if reply is None:
                raise RuntimeError(f"bot cannot answer {game.state.pending}")
            send(reply)
            continue
        for act in phase_actions(game, rng, combat):
            if game.state.pending is not None or game.check(act) is not None:
                continue  # an earlier action changed the position
            send(act)
        if game.state.pending is None:
            send(EndPhase())
    st = game.state
    return Result(seed, count, st.turn, st.over, dict(st.vars.final))


__all__ = ["Result", "play_game", "answer_from_options", "phase_actions", "Attack", "Move", "Overrun", "Rebase"]
