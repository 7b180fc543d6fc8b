"""What the lobby offers and which command each choice runs.

`Rooms` is the base: the scenarios on offer, the server's state folder, and the lobby screen.
`LocalRooms` gives each login a game of its own on one keyboard (`kiev-tui play`); the
networked rooms (one `kiev-tui host` per game, each seat a `kiev-tui join`) are in hosted.py.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Sequence

from kiev_tui.engine import savepaths
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.engine.registry import get_schema
from kiev_tui.serve.console import Console
from kiev_tui.serve.keys import Player
from kiev_tui.serve.ptychild import PtyChild
from kiev_tui.serve.lobby import QUIT_KEYS, Choice, Offer, Row, banner, pick


def offers(refs: Sequence[str]) -> list[Offer]:
    """The scenarios named, loaded once at start (a bad one stops `serve` with its DataError)."""
    found: list[Offer] = []
    for ref in refs:
        sc = load_scenario(ref)
        found.append(Offer(ref, sc.title or sc.id, tuple(get_schema(sc.game).sides)))
    if not found:
        raise DataError("--scenario", "", "no scenario to offer")
    return found


class Rooms:
    """The lobby's common part; subclasses say which games there are and how to reach them."""

    def __init__(self, root: Path, scenarios: list[Offer]) -> None:
        self.root = root
        self.scenarios = scenarios

    def saves_for(self, player: Player) -> Path:
        folder = self.root / "saves"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    async def lobby(self, console: Console, player: Player, title: str) -> Choice | None:
        raise NotImplementedError

    def after(self, player: Player, choice: Choice, code: int) -> None:
        """A game screen closed with status `code` (nothing to do by default)."""

    def sat_down(self, choice: Choice) -> None:
        """A login's game screen for `choice` starts (nothing to do by default)."""

    def stood_up(self, choice: Choice) -> None:
        """That screen is gone, however it ended (nothing to do by default)."""

    async def close(self) -> None:
        """The server stops: end every login's game child (each autosaves on its way out)."""
        await asyncio.gather(*(child.stop() for child in list(PtyChild.live)), return_exceptions=True)

    async def pick_scenario(self, console: Console) -> Offer | None:
        at = await pick(console, "Which scenario?", [Row(o.title, (f"({o.ref})",)) for o in self.scenarios])
        return None if at is None else self.scenarios[at]


class LocalRooms(Rooms):
    """Each login plays a game of its own, both sides on one keyboard (`kiev-tui play`).

    The game's autosave is the player's own (KIEV_TUI_PLAYER is his name), so a new login
    resumes where the last one stopped at its last autosave.
    """

    async def lobby(self, console: Console, player: Player, title: str) -> Choice | None:
        while True:
            banner(console, player, title)
            autosave = savepaths.autosave_path(self.saves_for(player))
            console.write("\n  n  new game (both sides at this keyboard)\n")
            if autosave.exists():
                when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(autosave.stat().st_mtime))
                console.write(f"  r  resume your game (autosaved {when})\n")
            console.write("  q  log out\n")
            key = await console.key()
            if key in QUIT_KEYS:
                return None
            if key == "n":
                offer = await self.pick_scenario(console)
                if offer is not None:
                    return Choice(kiev_argv("play", "--no-resume", "--scenario", offer.ref), f"new {offer.ref}")
            elif key == "r" and autosave.exists():
                return Choice(kiev_argv("play"), "resume")


def kiev_argv(*args: str) -> tuple[str, ...]:
    """How the server starts kiev-tui itself: this Python, this package."""
    return (sys.executable, "-m", "kiev_tui", *args)
