"""A seat's copy of the host's game: same scenario, the host's actions with the host's dice.

The replica never rolls: each action is replayed with the values the host recorded for it
(`RecordedDice`), and its state hash must come out as the host's, so previews, reach and rule
look-ups on the seat are the host's answers without asking the host.
"""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.actions import Action
from kiev_tui.engine.dice import DiceError, RecordedDice
from kiev_tui.engine.errors import DataError, IllegalAction
from kiev_tui.engine.events import Event
from kiev_tui.engine.game import Game, with_options
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.net.wire import WireError, field
from kiev_tui.engine.view import Sealed, seal

WIRE = "the host"  # what a DataError about a message names as its file


def entry_of(game: Game, i: int, viewer: str | None = None) -> dict[str, Any]:
    """Logged action ``i`` as the wire carries it to ``viewer``'s seat: the action (another
    side's hidden choice sealed to its commitment), who played it, its dice, its hash."""
    action = game.log[i] if game.sides[i] == viewer else seal(game.log[i])
    return {"action": action.to_toml(), "side": game.sides[i], "dice": list(game.rolled[i]),
            "hash": game.hashes[i]}


def game_header(game: Game) -> dict[str, Any]:
    """What a seat needs to build the same game before any action: scenario, options, dice's origin."""
    return {"scenario": game.scenario.id, "options": dict(game.options), "origin": dict(game.origin),
            "setup_dice": list(game.setup_rolled), "game_id": game.game_id, "rules": game.rules.id,
            "rules_version": game.rules.version}


class Replica:
    """The seat's game, kept in step with the host's by `apply_entry`."""

    def __init__(self, game: Game, dice: RecordedDice) -> None:
        self.game = game
        self.dice = dice

    @classmethod
    def build(cls, header: dict[str, Any]) -> "Replica":
        """The game as it stands before any action, from a welcome's header; WireError if it cannot be."""
        try:
            scenario = load_scenario(str(field(header, "scenario", str)))
            options = field(header, "options", dict, {})
            scenario = with_options(scenario, options)
            origin = field(header, "origin", dict)
            dice = RecordedDice(None, origin)
            dice.expect([int(v) for v in field(header, "setup_dice", list, [])])
            game = Game(scenario, None, dice=dice, options=options)
            dice.finish()
        except (DataError, DiceError, TypeError, ValueError) as exc:
            raise WireError(f"cannot build the host's game here: {exc}") from None
        if game.rules.id != header.get("rules") or game.rules.version != header.get("rules_version"):
            raise WireError(f"the host plays rules {header.get('rules')} version {header.get('rules_version')}, "
                            f"this program {game.rules.id} version {game.rules.version}")
        game.game_id = str(field(header, "game_id", str))
        return cls(game, dice)

    @property
    def known(self) -> int:
        return len(self.game.log)

    @property
    def last_hash(self) -> str:
        return self.game.hashes[-1] if self.game.hashes else ""

    def apply_entry(self, entry: dict[str, Any]) -> list[Event]:
        """Play one accepted action as the host did; WireError if it comes out otherwise."""
        g = self.game
        if not isinstance(entry, dict):
            raise WireError("an action entry is an object")
        side = field(entry, "side", str)
        values = field(entry, "dice", list, [])
        want = field(entry, "hash", str)
        try:
            data = dict(field(entry, "action", dict))
            if data.get("kind") == "sealed":  # another side's hidden choice: its commitment only
                action: Action = Sealed(field(data, "key", str), field(data, "digest", str))
            else:
                action = g.rules.actions.from_toml(data, "action", WIRE)
        except DataError as exc:
            raise WireError(f"an action this program cannot read: {exc.reason}") from None
        self.dice.expect(values)
        before = len(g.journal)
        try:
            g.apply(action, side=side)
            self.dice.finish()
        except (IllegalAction, DiceError) as exc:
            raise WireError(f"the host's action {len(g.log) + 1} ({action.kind}) does not replay here: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a value the rules choke on: this copy cannot follow
            raise WireError(f"the host's action {len(g.log) + 1} ({action.kind}) fails here: "
                            f"{type(exc).__name__}") from None
        if g.hashes[-1] != want:
            raise WireError(f"after action {len(g.log)} ({action.kind}) this copy of the game differs from the host's")
        return list(g.journal[before:])


__all__ = ["Replica", "entry_of", "game_header"]
