"""What plain mode asks a game beyond its rule system: names and lines of text, no Textual.

``PlainFace`` answers from the ``RuleSystem`` protocol alone, so any game plays in plain mode.
A game says things better with its own face in ``kiev_tui/games/<game>/face/plain.py``
(``PLAIN``, a ``PlainFace`` subclass), which may add commands of its own (``commands``).
The Textual adapter is never imported here: plain mode must start without Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex
from kiev_tui.ui import text as ui_text  # the generic text both faces say; no Textual

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


class PlainFace(ui_text.GenericNames):
    """Plain-text answers for any game; a game's own face overrides what it knows better.
    Its names (sides, units, phases) are ``GenericNames``', as the Textual default says them."""

    #: name -> (handler, usage, one-line help[, example]); a handler takes the session and the
    #: words typed after the command and returns lines.  A game's face adds its commands here.
    commands: dict[str, tuple[Any, ...]] = {}

    # -- a stack ------------------------------------------------------------------------------
    def strength(self, game: "Game", uid: str) -> str:
        """The unit's values as its counter shows them now."""
        a, df = ui_text.strength(game, uid)
        return f"{a}-{df}"

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return ui_text.stack_order(game, ids)

    def hex_lines(self, game: "Game", h: Hex) -> list[str]:
        """The hex itself: number, place, terrain, who holds it."""
        return [ui_text.hex_head(game.scenario.map, game.state.control, h, lambda s: self.side_name(game, s))]

    def unit_line(self, game: "Game", uid: str) -> str:
        """One unit on one line: name and values (``look`` lists a stack with these)."""
        return f"{self.unit_name(game, uid)} {self.strength(game, uid)}"

    def unit_lines(self, game: "Game", uid: str) -> list[str]:
        """One unit in full (``stack`` shows these): the line, then what it may still do."""
        can = "may still act" if game.rules.can_act(game, uid) else "done for this phase"
        return [self.unit_line(game, uid), f"   {can}"]

    # -- the game ------------------------------------------------------------------------------
    def tracker_lines(self, game: "Game") -> list[str]:
        ph = game.phase
        lines = [ui_text.turn_line(game)]
        if game.state.over:
            return lines + ["The game is over."]
        lines.extend(ui_text.sequence_lines(game, lambda s: self.side_name(game, s),
                                            lambda p: self.phase_title(game, p)))  # the whole game-turn
        if game.actor != ph.phasing:
            lines.append(f"The {self.side_name(game, game.actor)} player acts now.")
        return lines

    def score_lines(self, game: "Game") -> list[str]:
        return ui_text.score_lines(game, lambda s: self.side_name(game, s))

    def pending_lines(self, game: "Game") -> list[str]:
        """What a pending choice asks, and how to answer it (a game's face says more)."""
        p = game.rules.prompt(game)
        if p is None:
            return []
        lines = [f"The {self.side_name(game, p.side)} player must answer: {self.name_ids(game, p.prompt)}"]
        lines += [f"  {i}. {self.name_ids(game, o.label)}" for i, o in enumerate(p.options, 1)]
        return lines + ["(answer with 'pick N'; 'options' lists them again)"]

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> Any:
        """The game's own ``move`` action (as the TUI's DefaultAdapter builds it)."""
        kind = game.rules.actions.get("move")
        if kind is None:
            raise LookupError(f"the {game.rules.id} game has no 'move' action")
        return kind(units, path)

    def movers(self, game: "Game", ids: list[str], side: str) -> list[str]:
        """The units of a stack a bare ``move HEX ...`` takes: the side's units that may act."""
        own = [u for u in ids if game.scenario.catalog.units[u].side == side]
        able = [u for u in own if game.rules.can_act(game, u)]
        return able or own


DEFAULT = PlainFace()


def face_for(game: "Game") -> PlainFace:
    """The game's plain face as the registry finds it (``registry.get_plain``, which never imports
    the Textual adapter; Kiev's is ``kiev_tui/games/spi_kiev/face/plain.py``), else the default."""
    from kiev_tui.engine import registry

    own = registry.get_plain(game.scenario.game)
    return own if isinstance(own, PlainFace) else DEFAULT
