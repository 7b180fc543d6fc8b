"""What plain mode asks a game beyond its rule system: names and lines of text, no Textual.

``PlainFace`` answers from the ``RuleSystem`` protocol alone, so any game plays in plain mode.
A game says things better with its own face in ``kiev_tui/games/<game>/face/plain.py``
(``PLAIN``, a ``PlainFace`` subclass), which may add commands of its own (``commands``).
The Textual adapter is never imported here: plain mode must start without Textual.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.hexes import Hex

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

class PlainFace:
    """Plain-text answers for any game; a game's own face overrides what it knows better."""

    #: name -> (handler, usage, one-line help[, example]); a handler takes the session and the
    #: words typed after the command and returns lines.  A game's face adds its commands here.
    commands: dict[str, tuple[Any, ...]] = {}

    # -- names ------------------------------------------------------------------------------
    def side_name(self, game: "Game", side: str) -> str:
        return str(game.rules.schema.side_name(side))

    def unit_name(self, game: "Game", uid: str) -> str:
        d = game.scenario.catalog.units.get(uid)
        if d is None:
            return uid
        kind = str(d.type).replace("_", " ")
        name = d.designation if kind.lower() in str(d.designation).lower() else f"{d.designation} {kind}"
        return " ".join(f"{name} {getattr(d, 'size', '')}".split())

    def name_ids(self, game: "Game", text: str) -> str:
        from kiev_tui.ui.names import replace_ids  # plain regular expressions, no Textual

        return replace_ids(game.scenario.catalog, text, lambda uid: self.unit_name(game, uid))

    def phase_title(self, game: "Game", phase: str) -> str:
        return phase.replace("_", " ").capitalize()

    # -- a stack ------------------------------------------------------------------------------
    def strength(self, game: "Game", uid: str) -> str:
        """The unit's values as its counter shows them now."""
        d = game.scenario.catalog.units[uid]
        steps = tuple(getattr(d, "steps", ()) or ((0, 0),))
        a, df = steps[min(game.state.units[uid].step, len(steps) - 1)]
        return f"{a}-{df}"

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        def key(uid: str) -> tuple[int, int, str]:
            d = game.scenario.catalog.units[uid]
            steps = tuple(getattr(d, "steps", ()) or ((0, 0),))
            a, df = steps[min(game.state.units[uid].step, len(steps) - 1)]
            return (-a, -df, uid)

        return sorted(ids, key=key)

    def hex_lines(self, game: "Game", h: Hex) -> list[str]:
        """The hex itself: number, place, terrain, who holds it."""
        gmap = game.scenario.map
        hid = gmap.grid.id(h)
        head = f"Hex {hid}"
        name, kind = gmap.name(h), gmap.settlement(h)
        if name:
            head += f" {name}"
        if kind:
            head += f" ({kind})"
        head += f", {gmap.terrain(h)}"
        owner = game.state.control.get(hid)
        if owner:
            head += f"; {self.side_name(game, owner)}-held"
        return [head]

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
        lines = [f"Turn {ph.turn} of {game.scenario.turns}"]
        if game.state.over:
            return lines + ["The game is over."]
        steps = [f"[{self.phase_title(game, p).upper()}]" if p == ph.name else self.phase_title(game, p).lower()
                 for p in ph.phases]
        lines.append(f"{self.side_name(game, ph.player)} player: " + " > ".join(steps))
        return lines

    def score_lines(self, game: "Game") -> list[str]:
        score = game.rules.score(game)
        lines = [f"{self.side_name(game, s)} points: {p}" for s, p in score.points.items()]
        lines.extend(f"  {line}" for line in score.lines)
        if game.state.over:
            lines.append(f"{self.side_name(game, score.winner)} victory." if score.winner else "A draw.")
        else:
            lines.append(f"{self.side_name(game, score.winner)} leads." if score.winner else "Nobody leads.")
        return lines

    def pending_lines(self, game: "Game") -> list[str]:
        """What a pending choice asks, and how to answer it (a game's face says more)."""
        p = game.rules.pending(game)
        if p is None:
            return []
        return [f"The {self.side_name(game, p.side)} player must answer: {self.name_ids(game, p.prompt)}",
                "(answer with 'do KIND ...'; 'do' alone lists the actions)"]

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
    """The game's plain face, found through the registry without importing its Textual adapter:
    ``PLAIN`` in the ``plain`` module beside the registered adapter module (Kiev's:
    ``kiev_tui/games/spi_kiev/face/plain.py``), or the ``plain_face`` of an adapter registered
    as an object, else ``kiev_tui/games/<game>/face/plain.py`` by convention, else the default."""
    from kiev_tui import games

    gid = game.scenario.game
    entry = games._entry(gid)  # the registry's own lookup (listed, registered or by convention)
    adapter = getattr(entry, "adapter", None)
    if adapter is not None and not isinstance(adapter, str):
        own = getattr(adapter, "plain_face", None)
        if isinstance(own, PlainFace):
            return own
    candidates = [f"{adapter.rpartition('.')[0]}.plain"] if isinstance(adapter, str) else []
    candidates.append(f"kiev_tui.games.{gid}.face.plain")
    for module in candidates:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ModuleNotFoundError, ValueError):
            found = False
        if found:
            return importlib.import_module(module).PLAIN  # type: ignore[no-any-return]
    return DEFAULT
