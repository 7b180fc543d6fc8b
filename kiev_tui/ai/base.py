"""What every computer player shares: the decide-one-action protocol, the phase budget, the
look-ahead sandbox whose dice are not the game's, and the loop that plays a side.

A player is asked for one action at a time, whenever the game waits for its side (its own
phases and the combat choices addressed to it); it returns an action that ``game.check``
accepts for that side.  Nothing here reads the game's dice.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Protocol

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.dice import SeededDice
from kiev_tui.engine.game import Game


def stream_seed(seed: int, stream: str) -> int:
    """The seed of one named random stream drawn from a game's seed (``--seed N``).

    The game's dice keep the seed itself (a save records it and replays from it); every other
    stream (the AI's choices, its look-ahead dice, each side of an arena game) gets a seed of its
    own, hashed from the seed and the stream's name, so no stream repeats another's numbers: with
    one seed for both, the AI's n-th random number was the dice's n-th roll.
    """
    digest = hashlib.sha256(f"kiev-tui/{stream}/{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Player(Protocol):
    """A computer (or scripted) player of one side."""

    side: str
    name: str

    def decide(self, game: Game) -> Action:
        """The next action for ``self.side``; called only while ``game.actor == self.side``."""
        ...


@dataclass
class Budget:
    """How much thinking is left in one phase: a node count (reproducible) and a wall-clock cap.

    A node is one costly question to the rules (a reachability search or an odds preview).  With
    a generous clock the node count alone decides when to stop, so the same position always
    gets the same answer; the clock is only a safety net for slow machines.
    """

    nodes: int
    seconds: float
    used: int = 0
    started: float = field(default_factory=time.perf_counter)

    def spend(self, n: int = 1) -> None:
        self.used += n

    @property
    def exhausted(self) -> bool:
        return self.used >= self.nodes or time.perf_counter() - self.started > self.seconds


class _Sandbox(Game):
    """A throw-away copy for look-ahead: no hashes, no undo, no autosave, its own dice."""

    def state_hash(self) -> str:
        return ""


def sandbox(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` to try actions on, whose dice are seeded from the AI's own generator.

    The copy never shares the game's dice source: reading it would show the real next roll.
    """
    g = object.__new__(_Sandbox)
    g.__dict__.update(game.__dict__)
    g.state = game.state.copy()
    g.dice = SeededDice(rng.getrandbits(32))
    g.log, g.sides, g.hashes, g.journal, g.rolled, g.notices = [], [], [], [], [], []
    g._undo = []
    g.on_phase_end = None
    g.autosave_path = None
    g.replaying = True  # no undo snapshots are kept in a sandbox
    g._memo, g._memo_key, g._sink = {}, (-1, 0), None
    if "position_cache" in game.__dict__:
        g.position_cache = {}  # the game's own caches are the game's thread's: a copy keeps its own
    return g


@dataclass
class Tally:
    """What a player did and how long it thought, for the arena's report."""

    decisions: int = 0
    refused: int = 0
    phase_seconds: list[float] = field(default_factory=list)


def play_side_action(game: Game, player: Player, tally: Tally | None = None) -> Action:
    """Ask ``player`` for its next action and play it; a refused action is counted and the phase
    is ended in its place (or the refusal raised when even that is refused)."""
    act = player.decide(game)
    illegal = game.check(act, side=player.side)
    if illegal is not None:
        if tally is not None:
            tally.refused += 1
        fallback = EndPhase()
        if game.check(fallback, side=player.side) is not None:
            raise RuntimeError(f"{player.name} ({player.side}) chose a refused action {act}: {illegal}")
        act = fallback
    game.apply(act, side=player.side)
    if tally is not None:
        tally.decisions += 1
    return act
