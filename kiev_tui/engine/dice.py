"""Dice: where a game's random numbers come from.  Every roll and draw of a game goes
through one source; `Game.roll` and `Game.choose` record each value in the action log, so
a save replays exactly without knowing the source's secrets.

Sources:
- `EntropyDice`: the operating system's entropy, drawn at the moment of need.  The default
  for games players start; nothing in a save predicts its next value.
- `SeededDice`: `random.Random(seed)`, for tests and reproducible self-play (`--seed`).
- `FixedDice`: a scripted list of values, for tests.
- `RecordedDice`: the values a save recorded, checked against the source that made them
  when that source can be recomputed (a seed, a pair of hash chains).
- `kiev_tui.pbem.chain.ChainDice`: two players' hash chains, for play by e-mail.
"""

from __future__ import annotations

import random
from kiev_tui import nossl as secrets  # no OpenSSL at start-up (issue 33)
from kiev_tui.later import later
from typing import Any, Protocol, runtime_checkable


class DiceError(Exception):
    """A value the source cannot give: a recorded roll that is missing, extra or forged."""


class DiceNeeded(Exception):
    """The source lacks what it needs to roll now (the other player's link, in play by e-mail)."""

    def __init__(self, index: int, side: str) -> None:
        self.index = index
        self.side = side
        super().__init__(f"random draw {index} needs the {side} player's link")


@runtime_checkable
class Dice(Protocol):
    """What a game needs from its source of random numbers."""

    kind: str  # "entropy", "seeded", "fixed", "recorded", "chain": what a save records

    def roll(self, sides: int, purpose: str) -> int:
        """A value in 1..sides."""
        ...

    def pick(self, n: int, purpose: str) -> int:
        """An index in 0..n-1."""
        ...

    def record(self) -> dict[str, Any]:
        """The keys a save's [save] table keeps about this source (never a secret)."""
        ...

    def mark(self) -> Any:
        """A token to rewind to if an action fails half-way (a rule-system bug)."""
        ...

    def rewind(self, token: Any) -> None: ...

    def begin_action(self) -> None:
        """Called before each action is applied (sources that count per action use it)."""
        ...

    def end_action(self) -> None: ...


def _check_range(what: str, n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"cannot {what} among {n!r} values")


class _Base:
    """No bookkeeping per action; subclasses override what they need."""

    kind = "base"

    def record(self) -> dict[str, Any]:
        return {"dice": self.kind}

    def mark(self) -> Any:
        return None

    def rewind(self, token: Any) -> None:
        return None

    def begin_action(self) -> None:
        return None

    def end_action(self) -> None:
        return None


class EntropyDice(_Base):
    """Each value drawn from the OS's entropy when asked: no state to read, nothing to predict."""

    kind = "entropy"

    def roll(self, sides: int, purpose: str) -> int:
        _check_range("roll", sides)
        return secrets.randbelow(sides) + 1

    def pick(self, n: int, purpose: str) -> int:
        _check_range("pick", n)
        return secrets.randbelow(n)


class SeededDice(_Base):
    """A seeded generator: the same seed and the same actions give the same rolls."""

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng: random.Random = random.Random(seed)

    def roll(self, sides: int, purpose: str) -> int:
        _check_range("roll", sides)
        return self.rng.randint(1, sides)

    def pick(self, n: int, purpose: str) -> int:
        _check_range("pick", n)
        return self.rng.randrange(n)

    def record(self) -> dict[str, Any]:
        return {"dice": self.kind, "seed": self.seed}

    def mark(self) -> Any:
        return self.rng.getstate()

    def rewind(self, token: Any) -> None:
        self.rng.setstate(token)


class FixedDice(_Base):
    """The given values in turn (a roll takes the value, a pick the value as an index)."""

    kind = "fixed"

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.used = 0

    _next = later("kiev_tui.engine.dice_more")

    def roll(self, sides: int, purpose: str) -> int:
        return self._next("roll", sides, 1)

    def pick(self, n: int, purpose: str) -> int:
        return self._next("pick", n, 0)

    def mark(self) -> Any:
        return self.used

    def rewind(self, token: Any) -> None:
        self.used = token


class RecordedDice(_Base):
    """Replays the values one action recorded, in order; `check` (if any) must agree with each.

    `expect(values)` is called before each action is replayed and `finish()` after it: a roll
    with no recorded value, a value left over, a value out of range or one the checking source
    does not give is a `DiceError`.
    """

    kind = "recorded"

    def __init__(self, check: Dice | None = None, origin: dict[str, Any] | None = None) -> None:
        self.check = check
        self.origin = dict(origin or {"dice": self.kind})  # the source that made the values
        self.values: list[int] = []
        self.used = 0

    def expect(self, values: list[int]) -> None:
        self.values = list(values)
        self.used = 0

    finish = later("kiev_tui.engine.dice_more")
    _next = later("kiev_tui.engine.dice_more")

    @property
    def check_kind(self) -> str:
        return self.check.kind if self.check is not None else "recorded"

    roll = later("kiev_tui.engine.dice_more")
    pick = later("kiev_tui.engine.dice_more")

    def record(self) -> dict[str, Any]:
        return self.check.record() if self.check is not None else dict(self.origin)

    def mark(self) -> Any:
        return (self.used, self.check.mark() if self.check is not None else None)

    def rewind(self, token: Any) -> None:
        self.used, inner = token
        if self.check is not None:
            self.check.rewind(inner)

    def begin_action(self) -> None:
        if self.check is not None:
            self.check.begin_action()

    def end_action(self) -> None:
        if self.check is not None:
            self.check.end_action()


__all__ = ["Dice", "DiceError", "DiceNeeded", "EntropyDice", "SeededDice", "FixedDice", "RecordedDice"]
