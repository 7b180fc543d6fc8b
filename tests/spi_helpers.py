"""Test helpers for battles: loaded dice and quick access to previews and pending choices."""

from __future__ import annotations

import random
from typing import Any

from kiev_tui.engine.game import Game


class Loaded(random.Random):
    """A die that rolls the given values in turn (and picks the given indexes for draws)."""

    def __init__(self, rolls: list[int] | None = None, picks: list[int] | None = None) -> None:
        super().__init__(0)
        self.rolls = list(rolls or [])
        self.picks = list(picks or [])

    def randint(self, a: int, b: int) -> int:  # type: ignore[override]
        return self.rolls.pop(0) if self.rolls else super().randint(a, b)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self.picks.pop(0) if self.picks else super().randrange(*args, **kwargs)


def load_dice(game: Game, rolls: list[int] | None = None, picks: list[int] | None = None) -> None:
    game.rng = Loaded(rolls, picks)


def pending(game: Game) -> dict[str, Any]:
    assert game.state.pending is not None, "expected a pending choice"
    return game.state.pending


def die_for(game: Game, column: str, result: str) -> int:
    """The die roll that gives ``result`` in ``column`` of the scenario's CRT."""
    from kiev_tui.games.spi_kiev.combat import crt

    table = crt(game)
    for die in range(1, 7):
        if table.result(column, die) == result:
            return die
    raise AssertionError(f"no die gives {result} at {column}")
