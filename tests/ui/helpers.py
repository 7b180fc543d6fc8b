"""Helpers for the UI tests: the screen as plain text, and a pilot that waits after each key."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.pilot import Pilot

from kiev_tui.engine.game import Game
from kiev_tui.ui.game_screen import GameScreen

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "mini" / "scenarios" / "mini.toml"


def screen_text(app: App) -> str:
    """What the terminal shows now, one line per row, without styles."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def game_screen(app: App) -> GameScreen:
    screen = app.screen_stack[1]  # above Textual's default screen; dialogs stack above it
    assert isinstance(screen, GameScreen)
    return screen


def status(app: App) -> str:
    return str(game_screen(app).query_one("#status").render())


async def keys(pilot: Pilot, *presses: str) -> None:
    await pilot.press(*presses)
    await pilot.pause()  # let call_after_refresh work (score screen, pending dialogs) happen


async def goto(pilot: Pilot, hex_id: str) -> None:
    """Put the cursor on a hex the way a player does: g, the four digits, Enter."""
    await keys(pilot, "g", *hex_id, "enter")


def new_mini(seed: int = 7) -> Game:
    return Game.new(MINI, seed=seed)
