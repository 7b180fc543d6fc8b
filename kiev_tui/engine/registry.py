"""The registry of games: a game's name -> its rule system and its presentation adapter.

Faces (the Textual UI, the CLI, bots, benchmarks) and the engine's loaders find a game only
through here, never by importing a game's package themselves.  The registry knows no game: the
composition root (the ``games`` package beside the engine) lists the shipped ones by module path, names
the package where more are found by convention and the scenario a bare start plays; a test or
a plug-in may ``register`` one built in memory.  A game that is not listed is still found by
convention in a package given to ``add_package``: ``<package>/<name>/system.py`` with its
``SYSTEM`` (and, if present, ``face/adapter.py`` with ``ADAPTER``, ``bot.py`` and ``ai.py``, its
computer player), so adding a
game's package is enough for ``kiev-tui new <name>/<scenario>`` to find its rules.

A game whose data exists before its rules (``<package>/<name>/data.py`` with ``DATA``, a
``GameData``: schema and data checks, no play) is found the same way: ``validate`` and ``map``
read its files, and ``new`` or ``play`` refuse it in one line until its ``system.py`` exists.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from kiev_tui.later import handed_out

if TYPE_CHECKING:
    from kiev_tui.engine.rules import GameData, RuleSystem, Schema
    from kiev_tui.engine.tomlio import Reader

GAME_ID = re.compile(r"[a-z][a-z0-9_]*")

#: Packages searched by convention for a game not registered (``add_package``), in order.
_PACKAGES: list[str] = []
#: The scenario ``make play``, a bare ``kiev-tui`` and ``Game.new()`` start (``set_default_scenario``).
_DEFAULT: list[str] = []


@dataclass
class Entry:
    system: str | Any | None  # module path holding SYSTEM, or the rule system; None: data only
    adapter: str | Any | None = None  # module path holding ADAPTER, or the adapter itself
    bot: str | Any | None = None  # module path of the game's random player, or the bot itself
    data: str | Any | None = None  # module path holding DATA (a game with data but no rules yet)
    ai: str | Any | None = None  # module path of the game's computer player, or the module-like object


_GAMES: dict[str, Entry] = {}


def add_package(package: str) -> None:
    """Search this package (dotted name) for games by convention, after those given before."""
    if package not in _PACKAGES:
        _PACKAGES.append(package)


def set_default_scenario(ref: str) -> None:
    """The scenario ('game/name') played when none is given."""
    _DEFAULT[:] = [ref]


def default_scenario() -> str:
    """The scenario played when none is given (ValueError if no game set one)."""
    if not _DEFAULT:
        raise ValueError("no default scenario: give 'game/name' or a .toml path")
    return _DEFAULT[0]


def default_game() -> str:
    """The game of the default scenario."""
    return default_scenario().split("/", 1)[0]


def register(name: str, system: Any, adapter: Any = None, bot: Any = None, ai: Any = None) -> None:
    """Add (or replace) a game: its rule system and, for the faces, its adapter, bot and computer
    player (each the object itself, or the dotted path of the module holding ``SYSTEM``/
    ``ADAPTER``/the bot/the AI, imported on first use)."""
    if not GAME_ID.fullmatch(name):
        raise ValueError(f"a game is named with lower-case letters, digits and _, not '{name}'")
    _GAMES[name] = Entry(system, adapter, bot, ai=ai)


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def register_data(name: str, data: Any) -> None:
    """Add (or replace) a game that has data but no rule system yet (a ``GameData``)."""
    if not GAME_ID.fullmatch(name):
        raise ValueError(f"a game is named with lower-case letters, digits and _, not '{name}'")
    _GAMES[name] = Entry(None, data=data)


def _discover(name: str) -> Entry | None:
    """A game's entry by the package convention, or None if no searched package holds it."""
    if not isinstance(name, str) or not GAME_ID.fullmatch(name):
        return None
    for package in _PACKAGES:
        entry = _discover_in(f"{package}.{name}")
        if entry is not None:
            return entry
    return None


def _discover_in(base: str) -> Entry | None:
    if not _has_module(base):
        return None
    if importlib.util.find_spec(f"{base}.system") is None:
        if importlib.util.find_spec(f"{base}.data") is None:
            return None
        return Entry(None, data=f"{base}.data")
    adapter = f"{base}.face.adapter" if _has_module(f"{base}.face", f"{base}.face.adapter") else None
    bot = f"{base}.bot" if _has_module(f"{base}.bot") else None
    ai = f"{base}.ai" if _has_module(f"{base}.ai") else None
    return Entry(f"{base}.system", adapter, bot, ai=ai)


def _has_module(*names: str) -> bool:
    try:
        return all(importlib.util.find_spec(n) is not None for n in names)
    except ModuleNotFoundError:  # a parent package is missing
        return False


def _entry(name: str) -> Entry | None:
    entry = _GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        entry = _discover(name)
        if entry is not None:
            _GAMES[name] = entry
    return entry


def known(name: str) -> bool:
    """True if a game of this name is registered or found by convention (rules or data only)."""
    return _entry(name) is not None


def names() -> list[str]:
    """The games registered so far (listed, registered, or found by convention already)."""
    return sorted(_GAMES)


def _resolve(value: str | Any, attr: str) -> Any:
    if isinstance(value, str):
        return getattr(importlib.import_module(value), attr)
    return value


def get_system(name: str) -> "RuleSystem":
    """The rule system of a game (ValueError naming it if there is no such game, or if the
    game has only its data so far)."""
    entry = _entry(name)
    shown = str(name)[:40]
    if entry is None:
        raise ValueError(f"no rule system for game '{shown}' (known: {', '.join(names())})")
    if entry.system is None:
        raise ValueError(f"game '{shown}' has its data but no rule system yet: it can be validated "
                         "and its map drawn, not played")
    return _resolve(entry.system, "SYSTEM")  # type: ignore[no-any-return]


def get_data(name: str) -> "GameData":
    """What the data loaders need of a game: its rule system, or for a game with data only its
    ``DATA`` (ValueError naming it if there is no such game)."""
    entry = _entry(name)
    if entry is None:
        shown = str(name)[:40]
        raise ValueError(f"no game '{shown}' (known: {', '.join(names())})")
    if entry.system is not None:
        return _resolve(entry.system, "SYSTEM")  # type: ignore[no-any-return]
    return _resolve(entry.data, "DATA")  # type: ignore[no-any-return]


def get_schema(name: str) -> "Schema":
    """A game's vocabularies, whether or not it has rules yet (ValueError if no such game)."""
    return get_data(name).schema


def playable(name: str) -> bool:
    """True if the game has a rule system (False for an unknown game or one with data only)."""
    entry = _entry(name)
    return entry is not None and entry.system is not None


def get_adapter(name: str) -> Any:
    """The presentation adapter of a game, or None if it has none (the faces use defaults)."""
    entry = _entry(name)
    if entry is None or entry.adapter is None:
        return None
    return _resolve(entry.adapter, "ADAPTER")


def system_for(reader: "Reader", key: str, name: str) -> "RuleSystem":
    """The rule system of the game a data file names, or a DataError at that file and key."""
    from kiev_tui.engine.errors import shorten  # not at the top: importing kiev_tui pays only for this module

    try:
        return get_system(name)
    except ValueError:
        raise reader.fail(key, f"no rule system for game '{shorten(str(name))}'") from None


def data_for(reader: "Reader", key: str, name: str) -> "GameData":
    """The game a data file names, rules or not (its data hooks), or a DataError at that key."""
    from kiev_tui.engine.errors import shorten

    try:
        return get_data(name)
    except ValueError:  # the same words as system_for: an unknown game has no rules either
        raise reader.fail(key, f"no rule system for game '{shorten(str(name))}'") from None


#: Functions written in registry_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'get_plain', 'get_ai', 'get_bot'})


__getattr__ = handed_out(__name__, "kiev_tui.engine.registry_more", _LATER)
