"""A random legal-play bot: a test tool that plays whole campaigns and checks invariants."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game

from kiev_tui.games.spi_kiev import rail, reinforcements, stacking
from kiev_tui.games.spi_kiev.actions import Enter, Move, RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT, View
from kiev_tui.games.spi_kiev.state import kiev_vars

#: Extra move generators (combat, overrun) add themselves here: (game, rng) -> [actions].
EXTRA_GENERATORS: list[Callable[[Game, random.Random], list[Action]]] = []


@dataclass
class Result:
    seed: int
    actions: int
    turns: int
    over: bool
    score: dict = field(default_factory=dict)

    def summary(self) -> str:
        if self.score:
            return (f"seed {self.seed}: {self.actions} actions, game over after turn {self.turns}; "
                    f"German {self.score['german']} VP, Soviet {self.score['soviet']} VP: {self.score['winner']} victory")
        return f"seed {self.seed}: {self.actions} actions, reached turn {self.turns}"


def _stacks(view: View, side: str) -> list[tuple[str, ...]]:
    out = []
    for h, ids in sorted(view.occupancy.items()):
        mine = tuple(u for u in ids if view.side(u) == side)
        if mine:
            out.append(mine)
    return out


def movement_actions(game: Game, rng: random.Random, budget: int = 40) -> list[Action]:
    """A few random legal moves for the phasing player (entries and excess removal first)."""
    view = View(game)
    st = game.state
    out: list[Action] = []
    for uid in reinforcements.ready_to_enter(view):
        hexes = reinforcements.entry_hexes(view, uid)
        if hexes:
            h = rng.choice(hexes)
            use_rail = (st.player == "soviet" and rail.is_rail_hex(view, h) and rng.random() < 0.3)
            out.append(Enter((uid,), str(h), use_rail))
            return out
    over = stacking.over_limit(view, st.player)
    for h in sorted(over):
        ids = [u for u in view.at(h) if view.side(u) == st.player]
        hq_excess = "HQs" in over[h]
        victims = [u for u in ids if view.is_hq_like(u) == hq_excess]
        if victims:
            return [RemoveExcess(rng.choice(victims))]
    stacks = _stacks(view, st.player)
    rng.shuffle(stacks)
    for stack in stacks[: max(1, budget // 4)]:
        units = stack
        if len(stack) > 1 and rng.random() < 0.4:
            units = tuple(rng.sample(stack, rng.randint(1, len(stack))))
        if st.phase == MECHANIZED:
            units = tuple(u for u in units if view.udef(u).mechanized or view.is_hq_like(u))
            if not units:
                continue
        if st.phase == MOVEMENT and st.player == "soviet" and rng.random() < 0.1:
            railed = _rail_move(view, units, rng)
            if railed is not None:
                out.append(railed)
                continue
        reach = game.rules.reachable(game, units, explain=False)
        options = [(h, r) for h, r in reach.items() if r.ok]
        if not options:
            continue
        h, r = rng.choice(options)
        out.append(Move(units, r.path))
    return out


def _rail_move(view: View, units: tuple[str, ...], rng: random.Random) -> RailMove | None:
    start = view.hex_of(units[0])
    if start is None or not rail.friendly_rail(view, start):
        return None
    path: list = []
    cur = start
    seen = {start}
    for _ in range(rng.randint(1, 12)):
        nxt = [n for n in view.map.neighbours(cur) if view.map.has(cur, n, "railroad") and n not in seen
               and rail.friendly_rail(view, n)]
        if not nxt:
            break
        cur = rng.choice(nxt)
        seen.add(cur)
        path.append(str(cur))
    return RailMove(units, tuple(path)) if path else None


def answer_pending(game: Game, rng: random.Random) -> Action | None:
    """A random legal answer to whatever combat decision is waiting."""
    from kiev_tui.games.spi_kiev import combat
    from kiev_tui.games.spi_kiev.actions import (Advance, ChooseIntegrity, ChooseRetreat, DeclineAdvance,
                                                 Retreat, TakeLosses)

    p = game.state.pending
    if p is None:
        return None
    view = View(game)
    if p["kind"] == "loss_or_retreat":
        if p["hexes"] and rng.random() < 0.5:
            return ChooseRetreat()
        pool = [u for u in p["units"] for _ in range(combat.steps_left(view, u))]
        need = min(p["steps"], len(pool))
        rng.shuffle(pool)
        return TakeLosses(tuple(pool[:need]))
    if p["kind"] == "retreat":
        opts = combat.retreat_options(game)
        units = tuple(p["units"])
        for _ in range(20):
            paths = tuple(rng.choice(opts[u]) if opts[u] else () for u in units)
            retreat = Retreat(units, paths)
            if game.check(retreat) is None:
                return retreat
        safe = combat.safe_assignment(View(game), p)
        if safe is not None:
            return Retreat(units, safe)
        return Retreat(units, tuple(opts[u][0] if opts[u] else () for u in units))
    if p["kind"] == "advance":
        opts = combat.advance_options(game)
        if opts.get("paths") and rng.random() < 0.6:
            units = tuple(rng.sample(opts["units"], rng.randint(1, len(opts["units"]))))
            act = Advance(units, rng.choice(opts["paths"]))
            if game.check(act) is None:
                return act
        return DeclineAdvance()
    if p["kind"] == "integrity":
        return ChooseIntegrity(rng.choice(list(p["choices"])))  # 20.2: GD's division, on defence
    return None


def answer_from_options(game: Game, rng: random.Random) -> Action | None:
    """A random answer among the waiting prompt's options: no Kiev knowledge at all."""
    from kiev_tui.engine.prompts import random_answer

    p = game.rules.prompt(game)
    return None if p is None or not p.options else random_answer(p, rng)


def combat_actions(game: Game, rng: random.Random) -> list[Action]:
    """Random attacks in the combat phase and random overruns while moving."""
    from kiev_tui.games.spi_kiev.actions import Attack, Overrun

    st = game.state
    view = View(game)
    out: list[Action] = []
    side = st.player
    if st.phase == COMBAT:
        targets = sorted({n for h, ids in view.occupancy.items() if view.side(ids[0]) == side
                          for n in view.map.neighbours(h) if view.occupied_by(n, "german" if side == "soviet" else "soviet")})
        rng.shuffle(targets)
        for t in targets[:3]:
            if rng.random() < 0.5:
                continue
            attackers = tuple(u for n in view.map.neighbours(t) for u in view.at(n)
                              if view.side(u) == side and u not in view.vars.attacked
                              and u not in view.vars.advanced)
            if attackers:
                out.append(Attack(attackers, (str(t),)))
    elif st.phase in (MOVEMENT, MECHANIZED) and rng.random() < 0.3:
        for h, ids in sorted(view.occupancy.items()):
            mine = tuple(u for u in ids if view.side(u) == side)
            if not mine or not any(view.udef(u).mechanized and not view.is_hq_like(u) for u in mine):
                continue
            for n in view.map.neighbours(h):
                if view.occupied_by(n, "german" if side == "soviet" else "soviet"):
                    out.append(Overrun(mine, str(n)))
                    break
    return out


EXTRA_GENERATORS.append(combat_actions)


def play_game(scenario: str | Path, seed: int, combat: bool = True, max_actions: int = 20000,
              on_action: Callable[[Game, Action], None] | None = None,
              answer: Callable[[Game, random.Random], Action | None] = answer_pending) -> Result:
    """Play one whole game with random legal actions; raise if any rule check misbehaves.

    ``answer`` answers each combat choice (``answer_from_options``: from the prompt's options only).
    """
    game = Game.new(scenario, seed)
    rng = random.Random(seed * 7919 + 17)
    count = 0
    while not game.state.over and count < max_actions:
        actions: list[Action] = []
        if game.state.pending is not None:
            reply = answer(game, rng)
            if reply is None:
                raise RuntimeError(f"bot cannot answer {game.state.pending}")
            illegal = game.check(reply)
            if illegal is not None:
                raise RuntimeError(f"bot's answer {reply} to {game.state.pending['kind']} refused: {illegal}")
            game.apply(reply)
            count += 1
            if on_action:
                on_action(game, reply)
            continue
        if game.state.phase in (MOVEMENT, MECHANIZED):
            actions = movement_actions(game, rng)
        if combat:
            for gen in EXTRA_GENERATORS:
                actions.extend(gen(game, rng))
        played = False
        for act in actions:
            if game.check(act) is None:
                game.apply(act)
                count += 1
                played = True
                if on_action:
                    on_action(game, act)
                if game.state.pending is not None:
                    break
        if game.state.pending is None and (not played or rng.random() < 0.5 or game.state.phase == COMBAT):
            end = EndPhase()
            illegal = game.check(end)
            if illegal is None:
                game.apply(end)
                count += 1
                if on_action:
                    on_action(game, end)
            elif not played:
                raise RuntimeError(f"bot stuck at {game.phase}: {illegal}")
    score = kiev_vars(game.state).final_score or {}
    return Result(seed, count, game.state.turn, game.state.over, score)
