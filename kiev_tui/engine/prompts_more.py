"""The methods of kiev_tui.engine.prompts that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in prompts.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from kiev_tui.engine.prompts import (  # noqa: F401
    itertools,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.actions import Action


class Prompt:
    """Methods of prompts.Prompt that a new game's first frame never calls."""

    def answer(self, chosen: Sequence[int]) -> "Action":
        """The action for the options at these indexes (ValueError if the count is wrong)."""
        low, high = self.pick
        if not low <= len(chosen) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise ValueError(f"pick {want} option(s), not {len(chosen)}")
        if any(not 0 <= i < len(self.options) for i in chosen):
            raise ValueError(f"options are numbered 1 to {len(self.options)}")
        if len(set(chosen)) != len(chosen):
            raise ValueError("each option may be picked once")
        if not self.multi:
            return self.options[chosen[0]].action
        if self.combine is None:
            raise ValueError("this prompt has no way to combine several options")
        return self.combine(tuple(self.options[i] for i in chosen))

    def actions(self) -> Iterator["Action"]:
        """Every answer, lazily: the options' actions, or each allowed combination's action."""
        if not self.multi:
            yield from (o.action for o in self.options)
            return
        low, high = self.pick
        for n in range(low, min(high, len(self.options)) + 1):
            for combo in itertools.combinations(range(len(self.options)), n):
                yield self.answer(combo)

    def lines(self) -> list[str]:
        """The question and the numbered options, as plain mode and logs print them."""
        out = [self.text + (f" ({self.case})" if self.case else "")]
        out += [f"  {i}. {o.label}" for i, o in enumerate(self.options, 1)]
        low, high = self.pick
        how = f"pick {low}" if low == high else f"pick {low} to {high}"
        out.append(f"  Answer: {how} of the numbers above (e.g. 'pick 1{' 2' if high > 1 else ''}').")
        return out
