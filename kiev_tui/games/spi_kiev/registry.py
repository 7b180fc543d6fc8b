"""Imports every module that registers action handlers, so the system knows all actions."""

from __future__ import annotations

import importlib

for _name in ("combat", "overrun"):
    try:
        importlib.import_module(f"kiev_tui.games.spi_kiev.{_name}")
    except ModuleNotFoundError as exc:  # pragma: no cover - only while a module is being written
        if exc.name != f"kiev_tui.games.spi_kiev.{_name}":
            raise
