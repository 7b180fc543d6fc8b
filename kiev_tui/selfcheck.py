"""What ``kiev-tui selfplay --check`` checks while a bot plays: any game, from the engine alone.

After every action: the generic invariants (every unit pending, on the map at a hex of the map
or eliminated; a step within the counter's steps; a pending choice names a side of the game; the
state survives its own dict round trip with the same hash) and the game's own, if its rule
system has an ``invariants(game) -> list[str]`` hook.  At every phase end: the game is saved,
the actions the save holds since the last phase end are read back from the file and replayed
on a second copy of the game (a save/reload that costs what the phase cost, not the whole
game again), and both copies and the save's hashes must agree.  At the end: the whole save is
loaded by ``load_game`` with every roll, journal line and hash verified.

Nothing here knows a game: the engine and the rule system's protocol only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.state import GameState
from kiev_tui.engine.tomlio import load_toml

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.game import Game


class CheckFailed(AssertionError):
    """An invariant broken or a save that does not reload to the same position."""


def invariants(game: "Game") -> list[str]:
    """What is wrong with the position now, in lines ([] when nothing)."""
    bad: list[str] = []
    st, sc = game.state, game.scenario
    gmap = sc.map
    for uid, u in st.units.items():
        d = sc.catalog.units.get(uid)
        if d is None:
            bad.append(f"{uid}: not a counter of the scenario")
            continue
        if u.status not in ("pending", "map", "eliminated") and u.status not in game.rules.schema.counters.statuses:
            bad.append(f"{uid}: unknown status {u.status}")
        if (u.hex is not None) != (u.status == "map"):
            bad.append(f"{uid}: status {u.status} with hex {u.hex}")
        if u.hex is not None:
            try:
                h = gmap.grid.parse(u.hex)
            except Exception as exc:  # a hex id the grid cannot read
                bad.append(f"{uid}: bad hex {u.hex} ({exc})")
            else:
                if h not in gmap.hexes():
                    bad.append(f"{uid}: hex {u.hex} is off the map")
        if u.status == "map" and d.steps and not 0 <= u.step < len(d.steps):
            bad.append(f"{uid}: step {u.step} of {len(d.steps)}")
    top = st.pending
    if top is not None and top.get("side") and top["side"] not in game.rules.schema.sides:
        bad.append(f"pending choice for an unknown side {top['side']}")
    again = GameState.from_dict(st.to_dict(), getattr(game.rules, "vars_from_dict", None))
    if again.hash() != st.hash():
        bad.append("the state does not survive its dict round trip")
    own = getattr(game.rules, "invariants", None)
    if own is not None:
        bad.extend(own(game))
    return bad


class SelfCheck:
    """An ``on_action`` for a bot's ``play_game``: invariants after every action, save/reload at
    every phase end, a full verified load at ``finish``.  ``folder`` holds the save (a test's tmp)."""

    def __init__(self, scenario: str | Path, seed: int, folder: Path) -> None:
        self.scenario = scenario
        self.seed = seed
        self.path = Path(folder) / f"selfcheck-{seed}.toml"
        self.mirror: "Game | None" = None
        self.actions = 0
        self.reloads = 0
        self.game: "Game | None" = None

    def __call__(self, game: "Game", action: "Action") -> None:
        self.game = game
        self.actions += 1
        bad = invariants(game)
        if bad:
            raise CheckFailed(f"after action {len(game.log)} ({action.kind}) at {game.phase}: {'; '.join(bad[:5])}")
        if action.kind == "end_phase":
            self.reload(game)

    def reload(self, game: "Game") -> None:
        """Save, read the new actions back from the file, replay them on the mirror, compare."""
        from kiev_tui.engine.actions import action_from_toml
        from kiev_tui.engine.game import Game
        from kiev_tui.engine.saves import save_game

        save_game(game, self.path)
        if self.mirror is None:
            self.mirror = Game.new(self.scenario, self.seed)
        mirror = self.mirror
        entries = load_toml(self.path).get("action", [])
        unsealed: dict[int, dict[str, Any]] | None = None
        for n, entry in enumerate(entries[len(mirror.log):], len(mirror.log)):
            if entry.get("kind") == "sealed":  # a hidden choice: its owner's side file holds it in full
                if unsealed is None:
                    from kiev_tui.engine.saves import _unsealed
                    unsealed = _unsealed(self.path, game)
                entry = {**unsealed.get(n, {}), **{k: entry[k] for k in ("side", "dice", "hash") if k in entry}}
            table = {k: v for k, v in entry.items() if k not in ("side", "dice", "hash")}
            act = action_from_toml(table, f"action[{n}]", str(self.path), registry=mirror.rules.actions)
            mirror.apply(act, side=entry.get("side"))
            if mirror.hashes[-1] != entry.get("hash"):
                raise CheckFailed(f"action {n} ({act.kind}) from the save reloads to another position")
            if list(mirror.rolled[-1]) != list(entry.get("dice", [])):
                raise CheckFailed(f"action {n} ({act.kind}) from the save rolls other dice")
        if mirror.state.hash() != game.state.hash() or len(mirror.log) != len(game.log):
            raise CheckFailed(f"the save at {game.phase} reloads to another position")
        self.reloads += 1

    def finish(self) -> None:
        """The whole game saved and loaded back by replay, every roll and hash verified."""
        from kiev_tui.engine.saves import load_game, save_game

        if self.game is None:
            return
        save_game(self.game, self.path)
        loaded = load_game(self.path)
        if loaded.state.hash() != self.game.state.hash():
            raise CheckFailed("the finished game does not load back to its last position")


__all__ = ["CheckFailed", "SelfCheck", "invariants"]
