"""The arena: computer players against each other on the same seeds with sides swapped, and the
statistics that say who is better (win rate with a Wilson interval, VP margin with a t interval).
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

KINDS = ("random", "easy", "strong")


class RandomPlayer:
    """The game's random bot behind the one-action-at-a-time protocol (a baseline, not an AI)."""

    def __init__(self, side: str, seed: int, game_id: str = "spi_kiev") -> None:
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
    """Whether the computer can play this game (only Kiev so far)."""
    return game_id == "spi_kiev"


def make_player(kind: str, side: str, seed: int, seconds: float = 5.0, game_id: str = "spi_kiev") -> Player:
    """A player of ``kind`` (random, easy, strong) for one side of a game."""
    if kind == "random":
        return RandomPlayer(side, seed, game_id)
    if not has_ai(game_id):
        raise ValueError(f"no AI for the game '{game_id}' yet")
    from kiev_tui.ai.kiev import KievAI

    return KievAI(side, kind, seed=seed, seconds=seconds)


@dataclass
class MatchResult:
    seed: int
    german: str
    soviet: str
    winner: str
    margin: int  # German VP minus Soviet VP at the end
    actions: int
    refused: dict[str, int] = field(default_factory=dict)
    phase_seconds: dict[str, list[float]] = field(default_factory=dict)  # by side


def play_match(scenario: str | Path, seed: int, german: str, soviet: str, seconds: float = 5.0,
               max_actions: int = 20000, on_action: Callable[[Game, Action], None] | None = None) -> MatchResult:
    """One whole game between two kinds of player; each AI's thinking time is totalled per phase."""
    game = Game.new(scenario, seed)
    # the dice take the seed itself; each player a stream of its own drawn from it
    players = {"german": make_player(german, "german", stream_seed(seed, "ai-german"), seconds),
               "soviet": make_player(soviet, "soviet", stream_seed(seed, "ai-soviet"), seconds)}
    tallies = {side: Tally() for side in players}
    current: dict[str, tuple[tuple[int, str, str], float]] = {}
    count = 0
    while not game.state.over and count < max_actions:
        side = game.actor
        key = (game.state.turn, game.state.player, game.state.phase)
        t = time.perf_counter()
        act = play_side_action(game, players[side], tallies[side])
        spent = time.perf_counter() - t
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
    margin = sc.points.get("german", 0) - sc.points.get("soviet", 0)
    return MatchResult(seed, german, soviet, sc.winner or "", margin, count,
                       {s: t.refused for s, t in tallies.items()},
                       {s: t.phase_seconds for s, t in tallies.items()})


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

    def side_report(self, kind: str, side: str) -> SideReport:
        rows = [r for r in self.results if getattr(r, side) == kind]
        other = "soviet" if side == "german" else "german"
        opp = sorted({getattr(r, other) for r in rows})
        sign = 1 if side == "german" else -1
        return SideReport(kind, side, "/".join(opp) or "-", len(rows), sum(1 for r in rows if r.winner == side),
                          [sign * r.margin for r in rows])

    def phase_times(self, kind: str) -> list[float]:
        out: list[float] = []
        for r in self.results:
            for side in ("german", "soviet"):
                if getattr(r, side) == kind:
                    out.extend(r.phase_seconds.get(side, []))
        return out

    def refused(self) -> int:
        return sum(sum(r.refused.values()) for r in self.results)

    def text(self) -> str:
        out = []
        for kind in dict.fromkeys((self.a, self.b)):
            for side in ("german", "soviet"):
                rep = self.side_report(kind, side)
                if rep.games:
                    out.append(rep.lines())
        for kind in dict.fromkeys((self.a, self.b)):
            if kind == "random":
                continue
            times = self.phase_times(kind)
            if times:
                out.append(f"{kind}: seconds per AI phase: median {statistics.median(times):.2f}, "
                           f"worst {max(times):.2f} ({len(times)} phases)")
        out.append(f"refused actions: {self.refused()}")
        return "\n".join(out)


def run_arena(a: str, b: str, games_n: int, seed: int, scenario: str | Path = "spi_kiev/campaign",
              seconds: float = 5.0, progress: Callable[[MatchResult], None] | None = None) -> ArenaReport:
    """``games_n`` seeds, each played twice: A German and B Soviet, then B German and A Soviet."""
    for kind in (a, b):
        if kind not in KINDS:
            raise ValueError(f"unknown player {kind!r} (known: {', '.join(KINDS)})")
    results: list[MatchResult] = []
    for k in range(games_n):
        s = seed + k
        for g, so in ((a, b), (b, a)):
            r = play_match(scenario, s, g, so, seconds)
            results.append(r)
            if progress is not None:
                progress(r)
    return ArenaReport(results, a, b)
