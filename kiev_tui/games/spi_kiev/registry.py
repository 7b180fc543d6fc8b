"""Imports every module that registers action handlers, so the system knows all actions."""

from __future__ import annotations

from kiev_tui.games.spi_kiev import combat, overrun  # noqa: F401
