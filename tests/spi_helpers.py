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


def fight(game: Game, placements: dict[str, str], attackers: tuple[str, ...], target: str, result: str,
          player: str = "german") -> Game:
    """Attack ``target`` with ``attackers`` from a fresh combat phase and roll the die that gives ``result``."""
    from kiev_tui.games.spi_kiev import combat
    from kiev_tui.games.spi_kiev.actions import Attack
    from tests.conftest import position

    position(game, placements, player=player, phase="combat", turn=2, reinforcements=False)
    col = combat.preview(game, list(attackers), [target]).column
    load_dice(game, [die_for(game, col, result)])
    game.apply(Attack(attackers, (target,)))
    return game


def refusal(game: Game, action: object) -> str:
    """The referee's whole `[case] reason` line for an action it must refuse."""
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def lines(game: Game, since: int) -> list[str]:
    """The journal since ``since`` as saves record it: moves by their paths, without the start hex
    the words for people add (issue 35; test_plain_names.py checks those)."""
    return [e.record() for e in game.journal[since:]]


def where(game: Game, *uids: str) -> list[str | None]:
    return [game.state.units[u].hex for u in uids]
