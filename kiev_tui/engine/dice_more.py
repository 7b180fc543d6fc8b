"""The methods of kiev_tui.engine.dice that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in dice.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from kiev_tui.engine.dice import (  # noqa: F401
    DiceError, _check_range,
)


class FixedDice:
    """Methods of dice.FixedDice that a new game's first frame never calls."""

    def _next(self, what: str, n: int, low: int) -> int:
        _check_range(what, n)
        if self.used >= len(self.values):
            raise DiceError(f"the fixed list of {len(self.values)} values is used up")
        value = self.values[self.used]
        if not low <= value < low + n:
            raise DiceError(f"fixed value {self.used + 1} is {value}, not one of {low}..{low + n - 1}")
        self.used += 1
        return value


class RecordedDice:
    """Methods of dice.RecordedDice that a new game's first frame never calls."""

    def finish(self) -> None:
        if self.used != len(self.values):
            raise DiceError(f"the save records {len(self.values)} random values here, the replay used {self.used}")

    def _next(self, n: int, low: int, fresh: int | None) -> int:
        if self.used >= len(self.values):
            raise DiceError(f"the replay needs random value {self.used + 1} here, the save records only "
                            f"{len(self.values)}")
        value = self.values[self.used]
        self.used += 1
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value < low + n:
            raise DiceError(f"random value {self.used} is recorded as {value!r}, not one of {low}..{low + n - 1}")
        if fresh is not None and fresh != value:
            raise DiceError(f"random value {self.used} is recorded as {value}, but the {self.check_kind} "
                            f"source gives {fresh}")
        return value

    def roll(self, sides: int, purpose: str) -> int:
        _check_range("roll", sides)
        return self._next(sides, 1, self.check.roll(sides, purpose) if self.check is not None else None)

    def pick(self, n: int, purpose: str) -> int:
        _check_range("pick", n)
        return self._next(n, 0, self.check.pick(n, purpose) if self.check is not None else None)
