"""The functions of registry.py that a new game's first frame never calls (issue 33, round 7).

registry.py hands them out on first use (its module ``__getattr__``), so ``registry.get_plain`` and
``from kiev_tui.engine.registry import get_plain`` work as before.
"""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.registry import _PACKAGES, _entry, importlib


def get_plain(name: str) -> Any:
    """The game's face for plain line mode, or None (plain mode then speaks from the rule
    system alone).  Never imports the Textual adapter module: the ``plain_face`` of an adapter
    registered as an object, else ``PLAIN`` of the ``plain`` module beside the registered
    adapter module, else of ``<package>/<name>/face/plain.py`` by convention."""
    entry = _entry(name)
    adapter = getattr(entry, "adapter", None)
    if adapter is not None and not isinstance(adapter, str):
        own = getattr(adapter, "plain_face", None)
        if own is not None:
            return own
    candidates = [f"{adapter.rpartition('.')[0]}.plain"] if isinstance(adapter, str) else []
    candidates.extend(f"{package}.{name}.face.plain" for package in _PACKAGES)
    for module in candidates:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ModuleNotFoundError, ValueError):
            found = False
        if found:
            return importlib.import_module(module).PLAIN
    return None


def get_bot(name: str) -> Any:
    """The game's random player (``play_game(scenario, seed, combat=True)`` returning a result
    with ``summary()``), or None if the game has none.  A module path is imported whole."""
    entry = _entry(name)
    if entry is None or entry.bot is None:
        return None
    return importlib.import_module(entry.bot) if isinstance(entry.bot, str) else entry.bot


def get_ai(name: str) -> Any:
    """The game's computer player, or None if it has none: a module (or object) with ``LEVELS``
    (the level names) and ``player(side, level, seed, seconds)`` returning a player of
    kiev_tui/ai/base.py's protocol; optionally ``Operations``, the arena's figures of play."""
    entry = _entry(name)
    if entry is None or entry.ai is None:
        return None
    return importlib.import_module(entry.ai) if isinstance(entry.ai, str) else entry.ai
