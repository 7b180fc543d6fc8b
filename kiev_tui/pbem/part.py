"""One player's part of a game by e-mail, played on the game screen or in plain mode (docs/PBEM.md).

The faces know nothing of e-mail: they are handed a `Part` and ask it two things, through
duck typing: `finished` after each action (the session then ends), and `hold(action)` when an
action stops with DiceNeeded.  The position the part starts from comes from
`protocol.prepare`, whose dice make no value, so no die of the game is ever rolled on the
screen; the actions collected here then go to `protocol.compose`, which writes the turn file.
"""

from __future__ import annotations

from kiev_tui.engine.actions import Action
from kiev_tui.engine.game import Game


class Part:
    """The actions one side plays from the position `game` stands at now, until his part ends."""

    def __init__(self, game: Game, side: str) -> None:
        self.game = game
        self.side = side
        self.start = len(game.log)  # the actions before are the record's, never taken back here
        self.open: Action | None = None  # the action that draws: it waits for the other's link

    @property
    def played(self) -> list[Action]:
        """The actions of this part applied so far (undo takes them back off the game's log)."""
        return list(self.game.log[self.start:])

    @property
    def finished(self) -> bool:
        """Ended: an action waits for dice, the move has passed to the other side, or the game is over."""
        g = self.game
        return self.open is not None or g.state.over or g.actor != self.side

    def hold(self, action: Action) -> None:
        """``action`` draws dice: it ends the part unresolved, the last of the turn file."""
        self.open = action

    def actions(self) -> list[Action]:
        """What goes into the turn file, in order: the actions played, then the open one."""
        return self.played + ([self.open] if self.open is not None else [])

    def ending(self) -> str:
        """Why the part ended, in one line (empty while it goes on)."""
        g = self.game
        if self.open is not None:
            return (f"Your {self.open.kind} draws dice: it goes into your turn file unresolved, and the "
                    "other player's program rolls it with both players' links. Your part ends here.")
        if g.state.over:
            return "The game is over: your turn file tells the other player."
        if g.actor != self.side:
            return f"Your part ends: the {g.actor} player has the move now."
        return ""

    def unsent(self) -> list[str]:
        """What leaving now would lose, in words (empty: nothing, or the part is done)."""
        n = len(self.played)
        if self.finished or not n:
            return []
        what = "1 action" if n == 1 else f"{n} actions"
        return [f"{what} of your part would be lost: no turn file is written before your part ends.",
                "It ends when the move passes to the other player, or at an action that draws dice."]


__all__ = ["Part"]
