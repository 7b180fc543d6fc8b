"""The arena: computer players against each other on the same seeds with sides swapped, and the
statistics that say who is better (win rate with a Wilson interval, VP margin with a t interval).

It knows no game: the sides are the scenario's, a player is the game's random bot or a level of
the game's computer player (``registry.get_ai``), and the figures of play, if the game's AI
module has ``Operations``, are that module's.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kiev_tui.engine import registry
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game

from kiev_tui.ai.base import Player, Tally, play_side_action, stream_seed

RANDOM = "random"  # the game's random bot: a baseline every game with a bot has


def kinds(game_id: str) -> tuple[str, ...]:
    """The players the arena can field in this game: the random bot and each level of its AI."""
    ai = registry.get_ai(game_id)
    return (RANDOM, *ai.LEVELS) if ai is not None else (RANDOM,)


class RandomPlayer:
    """The game's random bot behind the one-action-at-a-time protocol (a baseline, not an AI)."""

    def __init__(self, side: str, seed: int, game_id: str) -> None:
        self.side = side
        self.name = "random"
        self.rng = random.Random(seed)
        self.bot = registry.get_bot(game_id)
        if self.bot is None:
            raise ValueError(f"the game '{game_id}' has no random bot")
        self._queue: list[Action] = []
        self._played = False
        self._phase: tuple[int, str, str] | None = None

    def decide(self, game: Game) -> Action:
        st = game.state
        if st.pending is not None:
            answer = self.bot.answer_pending(game, self.rng)
            return answer if answer is not None else EndPhase()
        key = (st.turn, st.player, st.phase)
        if key != self._phase:
            self._phase, self._queue, self._played = key, [], False
        while True:
            while self._queue:
                act = self._queue.pop(0)
                if game.check(act, side=self.side) is None:
                    self._played = True
                    return act
            # The bot's own rhythm: after a batch, end the phase half the time (always in combat).
            may_end = game.check(EndPhase(), side=self.side) is None
            if may_end and self._played and (self.rng.random() < 0.5 or st.phase == "combat"):
                return EndPhase()
            batch: list[Action] = []
            if st.phase in ("movement", "mechanized"):
                batch = self.bot.movement_actions(game, self.rng)
            for gen in self.bot.EXTRA_GENERATORS:
                batch.extend(gen(game, self.rng))
            if not batch and may_end:
                return EndPhase()
            self._queue = batch
            self._played = True  # a batch with nothing legal ends the phase next time round


def has_ai(game_id: str) -> bool:
    """Whether the computer can play this game: its registry entry names an AI."""
    return registry.get_ai(game_id) is not None


def make_player(kind: str, side: str, seed: int, seconds: float, game_id: str) -> Player:
    """A player of ``kind`` (the random bot, or one of the game's AI levels) for one side."""
    if kind == RANDOM:
        return RandomPlayer(side, seed, game_id)
    ai = registry.get_ai(game_id)
    if ai is None:
        raise ValueError(f"the game '{game_id}' has no computer player")
    player: Player = ai.player(side, kind, seed, seconds)
    return player


@dataclass
class MatchResult:
    seed: int
    sides: tuple[str, str]  # the scenario's sides, in its order
    players: dict[str, str]  # side -> the kind of player that played it
    winner: str
    margin: int  # the first side's VP minus the second side's at the end
    actions: int
    refused: dict[str, int] = field(default_factory=dict)
    phase_seconds: dict[str, list[float]] = field(default_factory=dict)  # by side
    figures: dict[str, dict[str, int]] = field(default_factory=dict)  # by side: the game's figures of play

    def line(self) -> str:
        a, b = self.sides
        return (f"seed {self.seed}: {self.players[a]} {a} vs {self.players[b]} {b}: {self.winner or 'no'} victory, "
                f"{a} margin {self.margin:+d}, {self.actions} actions")


def two_sides(game: Game) -> tuple[str, str]:
    sides = tuple(game.rules.schema.sides)
    if len(sides) != 2:
        raise ValueError(f"the arena plays two-sided games, and {game.rules.id} has {len(sides)} sides")
    return sides[0], sides[1]


def play_match(scenario: str | Path, seed: int, first: str, second: str, seconds: float = 5.0,
               max_actions: int = 20000, on_action: Callable[[Game, Action], None] | None = None,
               explain: Callable[[str], None] | None = None) -> MatchResult:
    """One whole game, ``first`` playing the scenario's first side and ``second`` the other; each
    AI's thinking time is totalled per phase.  ``explain``: where each AI with an ``explain`` hook
    says its plan per phase and why it chose each action."""
    game = Game.new(scenario, seed)
    sides = two_sides(game)
    gid = game.rules.id
    # the dice take the seed itself; each player a stream of its own drawn from it
    players = {side: make_player(kind, side, stream_seed(seed, f"ai-{side}"), seconds, gid)
               for side, kind in zip(sides, (first, second))}
    tallies = {side: Tally() for side in players}
    if explain is not None:
        for p in players.values():
            if hasattr(p, "explain"):
                p.explain = explain  # type: ignore[attr-defined]
    ai = registry.get_ai(gid)
    ops = ai.Operations(game) if ai is not None and hasattr(ai, "Operations") else None
    current: dict[str, tuple[tuple[int, str, str], float]] = {}
    count = 0
    while not game.state.over and count < max_actions:
        side = game.actor
        key = (game.state.turn, game.state.player, game.state.phase)
        t = time.perf_counter()
        if ops is not None:
            ops.before(game)
        act = play_side_action(game, players[side], tallies[side])
        spent = time.perf_counter() - t
        if ops is not None:
            ops.after(game, act)
        prev = current.get(side)
        if prev is not None and prev[0] == key:
            current[side] = (key, prev[1] + spent)
        else:
            if prev is not None:
                tallies[side].phase_seconds.append(prev[1])
            current[side] = (key, spent)
        count += 1
        if on_action is not None:
            on_action(game, act)
    for side, (_, secs) in current.items():
        tallies[side].phase_seconds.append(secs)
    for side, player in players.items():
        tallies[side].refused += int(getattr(player, "refused", 0))  # caught by the AI itself
    sc = game.rules.score(game)
    margin = sc.points.get(sides[0], 0) - sc.points.get(sides[1], 0)
    return MatchResult(seed, sides, {sides[0]: first, sides[1]: second}, sc.winner or "", margin, count,
                       {s: t.refused for s, t in tallies.items()},
                       {s: t.phase_seconds for s, t in tallies.items()},
                       ops.figures(game) if ops is not None else {})


# -- statistics ----------------------------------------------------------------------------------

def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


# Two-sided 97.5% quantiles of Student's t for 1-30 degrees of freedom (normal beyond).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (t for small samples); a single value has no spread to show."""
    if not values:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m, m)
    df = len(values) - 1
    q = _T975[df - 1] if df <= len(_T975) else 1.96
    half = q * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


@dataclass
class SideReport:
    """How player ``kind`` did playing ``side`` against ``opponent``."""

    kind: str
    side: str
    opponent: str
    games: int
    wins: int
    margins: list[int]  # the player's own margin: its VP minus the other side's

    def lines(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        m, mlo, mhi = mean_interval([float(x) for x in self.margins])
        return (f"{self.kind} as {self.side} vs {self.opponent}: won {self.wins}/{self.games} "
                f"({100 * self.wins / max(1, self.games):.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%); "
                f"own VP margin {m:+.1f} (95% CI {mlo:+.1f} to {mhi:+.1f})")


@dataclass
class ArenaReport:
    results: list[MatchResult]
    a: str
    b: str

    @property
    def sides(self) -> tuple[str, ...]:
        return self.results[0].sides if self.results else ()

    def side_report(self, kind: str, side: str) -> SideReport:
        rows = [r for r in self.results if r.players.get(side) == kind]
        opp = sorted({k for r in rows for s, k in r.players.items() if s != side})
        sign = 1 if self.sides and side == self.sides[0] else -1
        return SideReport(kind, side, "/".join(opp) or "-", len(rows), sum(1 for r in rows if r.winner == side),
                          [sign * r.margin for r in rows])

    def phase_times(self, kind: str) -> list[float]:
        out: list[float] = []
        for r in self.results:
            for side, k in r.players.items():
                if k == kind:
                    out.extend(r.phase_seconds.get(side, []))
        return out

    def figures(self, kind: str, side: str) -> dict[str, float]:
        """The mean of each figure of play over the games ``kind`` played as ``side``."""
        rows = [r.figures.get(side, {}) for r in self.results if r.players.get(side) == kind]
        names = list(dict.fromkeys(n for f in rows for n in f))
        return {n: statistics.fmean(f.get(n, 0) for f in rows) for n in names} if rows else {}

    def refused(self) -> int:
        return sum(sum(r.refused.values()) for r in self.results)

    def text(self) -> str:
        out = []
        for kind in dict.fromkeys((self.a, self.b)):
            for side in self.sides:
                rep = self.side_report(kind, side)
                if rep.games:
                    out.append(rep.lines())
        for kind in dict.fromkeys((self.a, self.b)):
            for side in self.sides:
                figs = self.figures(kind, side)
                if figs:
                    out.append(f"{kind} as {side}, mean per game: "
                               + ", ".join(f"{n} {v:.1f}" for n, v in figs.items()))
        for kind in dict.fromkeys((self.a, self.b)):
            if kind == RANDOM:
                continue
            times = self.phase_times(kind)
            if times:
                out.append(f"{kind}: seconds per AI phase: median {statistics.median(times):.2f}, "
                           f"worst {max(times):.2f} ({len(times)} phases)")
        out.append(f"refused actions: {self.refused()}")
        return "\n".join(out)


def check_players(scenario: str | Path, a: str, b: str) -> None:
    """ValueError, in one line, unless both players can play the scenario's game."""
    game = Game.new(scenario, 1)
    two_sides(game)
    gid = game.rules.id
    if registry.get_ai(gid) is None and any(k != RANDOM for k in (a, b)):
        raise ValueError(f"the game '{gid}' has no computer player")
    if any(k == RANDOM for k in (a, b)) and registry.get_bot(gid) is None:
        raise ValueError(f"the game '{gid}' has no random bot")
    known = kinds(gid)
    for kind in (a, b):
        if kind not in known:
            raise ValueError(f"unknown player {kind!r} (known: {', '.join(known)})")


def run_arena(a: str, b: str, games_n: int, seed: int, scenario: str | Path,
              seconds: float = 5.0, progress: Callable[[MatchResult], None] | None = None,
              explain: Callable[[str], None] | None = None) -> ArenaReport:
    """``games_n`` seeds, each played twice: A on the first side and B on the second, then swapped.
    A player against itself plays each seed once: each side's stream comes from the seed and the
    side, so the swapped game would be the same game again."""
    check_players(scenario, a, b)
    results: list[MatchResult] = []
    for k in range(games_n):
        s = seed + k
        for g, so in (((a, b),) if a == b else ((a, b), (b, a))):
            r = play_match(scenario, s, g, so, seconds, explain=explain)
            results.append(r)
            if progress is not None:
                progress(r)
    return ArenaReport(results, a, b)
