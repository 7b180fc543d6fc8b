"""What one side may see: view(game, side), and the commitments that keep a hidden choice honest.

A hidden choice is stored in ``GameState.secrets[side][key]`` as ``{"choice", "salt"}``; the
public state holds only ``GameState.commitments[side][key] = sha256(choice, salt)``.  A reveal
is an action that publishes choice and salt; ``check_reveal`` refuses it unless the hash
matches.  The salt comes from the operating system's entropy (``secrets.token_hex``), never the
game's seeded dice: a seeded game's seed is in its save, so a salt drawn from it could be
recomputed by the other player, who could then try every town against the commitment.
"""

from __future__ import annotations

import dataclasses
from kiev_tui import nossl as hashlib  # no OpenSSL at start-up (issue 33)
from kiev_tui import nossl as _entropy  # no OpenSSL at start-up (issue 33)
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Mapping

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.events import Committed, Event, Revealed, SecretNoted
from kiev_tui.later import handed_out

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game, Phase


def new_salt() -> str:
    """128 bits from the OS: unguessable from a save, a seed or the dice already rolled."""
    return _entropy.token_hex(16)


def commitment(choice: str, salt: str) -> str:
    """The public hash of a hidden choice (sha256 of salt, a separator and the choice)."""
    return hashlib.sha256(f"{salt}\x1f{choice}".encode()).hexdigest()


def salted(action: Action) -> Action:
    """A hidden choice (``secret_key``) with a fresh salt if its ``salt`` field is empty.

    The face sends the choice alone; the salt is fixed here once, kept in the action so a
    replay of the owner's log rebuilds the same commitment.
    """
    if not getattr(action, "secret_key", ""):  # the common case first: replay applies thousands
        return action
    if getattr(action, "salt", None) == "":
        return dataclasses.replace(action, salt=new_salt())  # type: ignore[type-var]
    return action


def is_hidden(action: Action) -> bool:
    """A hidden-choice action: it names its secret's key and the field holding the choice."""
    return bool(getattr(action, "secret_key", "")) and hasattr(action, "salt")


@dataclass(frozen=True, slots=True)
class Sealed(Action):
    """A hidden-choice action as the other side receives it: the commitment, not the choice.

    Replaying it records the same commitment, so the public state (and its hash) is the same
    as the owner's.  Contract: a hidden-choice action's only public effects are its commitment
    and what the rules' ``committed(game, side, key)`` hook does, which runs for both forms.
    """

    kind: ClassVar[str] = "sealed"
    key: str
    digest: str

    def describe(self) -> str:
        return f"sealed {self.key}"


def apply_sealed(game: "Game", side: str, action: Sealed) -> None:
    """Record another side's commitment without its secret."""
    game.state.commitments.setdefault(side, {})[action.key] = action.digest
    game.emit(Committed(side, action.key, action.digest))
    _committed(game, side, action.key)


def _committed(game: "Game", side: str, key: str) -> None:
    # The rules' public bookkeeping of a commitment (optional hook ``committed``): run for the
    # owner's full action and for another side's sealed copy alike, so both hash the same.
    hook = getattr(game.rules, "committed", None)
    if hook is not None:
        hook(game, side, key)


def visible_to(event: Event, side: str | None) -> bool:
    """Whether a face of ``side`` may show the event (None: a spectator sees public ones only)."""
    audience = event.audience()
    return audience is None or (side is not None and side in audience)


@dataclass(frozen=True)
class SideView:
    """Everything one side may see now, nothing it may not."""

    side: str
    phase: "Phase"
    actor: str
    units: Mapping[str, Mapping[str, Any]]  # unit id -> UnitState.to_dict(), visible units only
    control: Mapping[str, str]
    commitments: Mapping[str, Mapping[str, str]]  # public: every side's hashes
    secrets: Mapping[str, Any]  # this side's own hidden choices
    pending: Any  # the choice waiting for an answer, if this side must give it
    options: tuple[Any, ...]  # actions the rules offer this side now (rules.options), if any
    events: tuple[Event, ...] = field(default=())


#: Functions written in view_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'view', 'commit', 'check_reveal', 'seal', 'reveal'})


__getattr__ = handed_out(__name__, "kiev_tui.engine.view_more", _LATER)
