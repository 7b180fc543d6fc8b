"""The functions of view.py that a new game's first frame never calls (issue 33, round 7).

view.py hands them out on first use (its module ``__getattr__``), so ``view.view`` and
``from kiev_tui.engine.view import view`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.engine.view import (
    Committed,
    Illegal,
    Revealed,
    Sealed,
    SecretNoted,
    SideView,
    _committed,
    commitment,
    is_hidden,
    visible_to,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.view import Action


def seal(action: Action) -> Action:
    """The action as a side other than its owner may see it (a hidden choice becomes Sealed)."""
    if not is_hidden(action):
        return action
    choice = str(getattr(action, str(getattr(action, "secret_field"))))
    return Sealed(str(getattr(action, "secret_key")), commitment(choice, str(getattr(action, "salt"))))


def commit(game: "Game", side: str, key: str, choice: str, salt: str) -> None:
    """Record a hidden choice: the secret under its owner's key, the hash in public."""
    st = game.state
    digest = commitment(choice, salt)
    st.secrets.setdefault(side, {})[key] = {"choice": choice, "salt": salt}
    st.commitments.setdefault(side, {})[key] = digest
    game.emit(Committed(side, key, digest))
    game.emit(SecretNoted(side, key, choice))
    _committed(game, side, key)


def check_reveal(game: "Game", side: str, key: str, choice: str, salt: str, case: str) -> Illegal | None:
    """Refuse a reveal that does not match the public commitment (``case`` is the game's rule)."""
    digest = game.state.commitments.get(side, {}).get(key)
    if digest is None:
        return Illegal(case, f"{side} has no hidden {key} to reveal")
    if commitment(choice, salt) != digest:
        return Illegal(case, f"the revealed {key} does not match the commitment made earlier")
    return None


def reveal(game: "Game", side: str, key: str, choice: str) -> None:
    """Publish a checked hidden choice: the secret and the commitment leave the state."""
    st = game.state
    for table in (st.secrets, st.commitments):
        mine = table.get(side, {})
        mine.pop(key, None)
        if not mine:
            table.pop(side, None)
    game.emit(Revealed(side, key, choice))


def view(game: "Game", side: str) -> SideView:
    """What ``side`` may see: the position (less units the rules hide), phase, actor, its own
    prompt and secrets, and the journal's events addressed to it."""
    st, rules = game.state, game.rules
    visible = getattr(rules, "visible", None)  # optional hook: may this side see this unit?
    units = {uid: u.to_dict() for uid, u in sorted(st.units.items())
             if visible is None or visible(game, side, uid)}
    actor = game.actor
    options = getattr(rules, "options", None)
    return SideView(
        side=side, phase=game.phase, actor=actor, units=units, control=dict(st.control),
        commitments={s: dict(c) for s, c in st.commitments.items()},
        secrets={k: dict(v) for k, v in st.secrets.get(side, {}).items()},
        pending=st.pending if actor == side else None,
        options=tuple(options(game, side)) if options is not None and actor == side else (),
        events=tuple(e for e in game.journal if visible_to(e, side)),
    )
