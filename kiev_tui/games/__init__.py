"""The shipped games: where kiev-tui lists its games in the engine's registry.

This package is the composition root of the games: importing it (``kiev_tui/__init__.py``
does, so any ``kiev_tui.*`` import has it done) registers each shipped game by module path
(nothing of a game is imported until it is used), names this package as the place where a
game's package is found by convention (``kiev_tui/games/<name>/system.py``, ``data.py``,
``face/adapter.py``, ``bot.py``, ``ai.py``), and sets the scenario a bare start plays.  Everything else
asks ``kiev_tui.engine.registry``.
"""

from __future__ import annotations

from kiev_tui.engine import registry

#: The scenario ``make play``, a bare ``kiev-tui`` and ``Game.new()`` start.
DEFAULT_SCENARIO = "spi_kiev/campaign"

registry.add_package(__name__)
registry.register("spi_kiev", f"{__name__}.spi_kiev.system", f"{__name__}.spi_kiev.face.adapter",
                  f"{__name__}.spi_kiev.bot", ai=f"{__name__}.spi_kiev.ai")
registry.set_default_scenario(DEFAULT_SCENARIO)
