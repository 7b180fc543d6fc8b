"""Prompts with options: a choice the game waits for, and every answer it accepts.

A rule system keeps its open choices as a STACK of plain-data frames in the state
(``GameState.prompts``: push when a choice arises, pop when it is answered; a frame is a dict
holding at least ``kind`` and ``side`` and whatever game data the choice needs, so saves stay
small).  ``RuleSystem.prompt(game)`` turns the top frame into a typed ``Prompt`` whose options
are engine actions, so any face (the generic Textual dialog, plain mode, the random bot, a
test) answers any prompt with no code of the game.

Pick-N: ``pick = (low, high)``.  A prompt with ``high == 1`` is answered by the one chosen
option's action.  A multi-pick prompt is answered by ONE combined action: ``Prompt.answer``
hands the chosen options to the prompt's ``combine`` (given by the rule system), so the
journal holds one action per answer and undo steps over it whole.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.scenario import Scenario

from kiev_tui.later import later


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a prompt: a verb, what a player reads, and the action it sends."""

    verb: str
    label: str
    action: "Action"
    hex: str | None = None  # the hex the option is about, for a face that marks it on the map
    unit: str | None = None  # the unit it is about


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice the ``side`` player must make before anything else (rule ``case``)."""

    side: str
    kind: str  # e.g. "losses", "retreat", "advance", "forage"
    case: str  # the rule case that asks it
    text: str  # the question, as a player reads it
    options: tuple[Option, ...]
    pick: tuple[int, int] = (1, 1)  # how many options to choose: low..high
    #: builds the one action that answers a multi-pick prompt from the chosen options
    combine: Callable[[tuple[Option, ...]], "Action"] | None = field(default=None, compare=False)

    @property
    def prompt(self) -> str:
        """The question (the name the faces used for it before prompts had options)."""
        return self.text

    @property
    def multi(self) -> bool:
        return self.pick[1] > 1

    answer = later("kiev_tui.engine.prompts_more")
    actions = later("kiev_tui.engine.prompts_more")
    lines = later("kiev_tui.engine.prompts_more")


def random_answer(prompt: Prompt, rng: random.Random) -> "Action":
    """A random answer among the prompt's options (the generic bot's way to answer any prompt)."""
    if not prompt.options:
        raise ValueError(f"the {prompt.kind} prompt offers no option")
    low, high = prompt.pick
    n = rng.randint(low, min(high, len(prompt.options)))
    return prompt.answer(sorted(rng.sample(range(len(prompt.options)), n)))


def frames_to_data(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The stack as the state's plain form writes it: one frame under "pending" (the form of
    every save made before the stack existed), a deeper stack under "prompts", none: nothing."""
    if not frames:
        return {}
    if len(frames) == 1:
        return {"pending": frames[0]}
    return {"prompts": frames}


def frames_from_data(d: dict[str, Any]) -> list[dict[str, Any]]:
    """The stack back from the state's plain form (ValueError if it is malformed)."""
    if "pending" in d and "prompts" in d:
        raise ValueError("a state holds 'pending' or 'prompts', not both")
    if d.get("pending") is not None:
        return [d["pending"]]
    frames = d.get("prompts", [])
    if not isinstance(frames, list) or len(frames) == 1:
        raise ValueError("'prompts' must be a list of two or more frames")
    return list(frames)


# -- set-up choices ([[setup_choice]] in a scenario) ---------------------------------------

SETUP = "setup"  # the kind of a set-up prompt's frame


def setup_frames(scenario: "Scenario") -> list[dict[str, Any]]:
    """One frame per unit a side places at the start, in the order pushed (the scenario's first
    choice ends on top, so it is asked first)."""
    grid = scenario.map.grid
    frames = [{"kind": SETUP, "side": c.side, "unit": uid, "hexes": [grid.id(h) for h in c.hexes]}
              for c in scenario.setup_choices for uid in c.units]
    return frames[::-1]


def setup_prompt(frame: dict[str, Any], case: str, place: Callable[[str, str], "Action"],
                 taken: Callable[[str], bool] = lambda h: False) -> Prompt:
    """The set-up prompt of a frame: one option per hex not ``taken``; ``place(unit, hex)`` is
    the game's action that puts the unit there."""
    uid = str(frame["unit"])
    options = tuple(Option("place", f"{uid} starts in {h}", place(uid, h), hex=h, unit=uid)
                    for h in frame["hexes"] if not taken(h))
    return Prompt(str(frame["side"]), SETUP, case, f"{frame['side']} player: where does {uid} start?", options)
