"""The registry of games: a game's name -> its rule system and its presentation adapter.

Faces (the Textual UI, the CLI, bots, benchmarks) find a game only through here, never by
importing ``kiev_tui.games.<game>`` themselves.  A shipped game is listed by module path and
imported on first use; a test or a plug-in may ``register`` one built in memory.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiev_tui.engine.rules import RuleSystem

GAME_ID = re.compile(r"[a-z][a-z0-9_]*")

#: The scenario ``make play`` and a bare ``kiev-tui`` start.
DEFAULT_SCENARIO = "spi_kiev/campaign"


@dataclass
class Entry:
    system: str | Any  # module path holding SYSTEM, or the rule system itself
    adapter: str | Any | None = None  # module path holding ADAPTER, or the adapter itself
    bot: str | Any | None = None  # module path of the game's random player, or the bot itself


_GAMES: dict[str, Entry] = {
    "spi_kiev": Entry("kiev_tui.games.spi_kiev.system", "kiev_tui.games.spi_kiev.face.adapter",
                      "kiev_tui.games.spi_kiev.bot"),
}


def register(name: str, system: Any, adapter: Any = None, bot: Any = None) -> None:
    """Add (or replace) a game: its rule system and, for the faces, its adapter and bot."""
    if not GAME_ID.fullmatch(name):
        raise ValueError(f"a game is named with lower-case letters, digits and _, not '{name}'")
    _GAMES[name] = Entry(system, adapter, bot)


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def names() -> list[str]:
    return sorted(_GAMES)


def _resolve(value: str | Any, attr: str) -> Any:
    if isinstance(value, str):
        return getattr(importlib.import_module(value), attr)
    return value


def get_system(name: str) -> "RuleSystem":
    """The rule system of a game (ValueError naming it if there is no such game)."""
    entry = _GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        shown = str(name)[:40]
        raise ValueError(f"no rule system for game '{shown}' (known: {', '.join(names())})")
    return _resolve(entry.system, "SYSTEM")  # type: ignore[no-any-return]


def get_adapter(name: str) -> Any:
    """The presentation adapter of a game, or None if it has none (the faces use defaults)."""
    entry = _GAMES.get(name)
    if entry is None or entry.adapter is None:
        return None
    return _resolve(entry.adapter, "ADAPTER")


def get_bot(name: str) -> Any:
    """The game's random player (``play_game(scenario, seed, combat=True)`` returning a result
    with ``summary()``), or None if the game has none.  A module path is imported whole."""
    entry = _GAMES.get(name)
    if entry is None or entry.bot is None:
        return None
    return importlib.import_module(entry.bot) if isinstance(entry.bot, str) else entry.bot
