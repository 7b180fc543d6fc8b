"""Saving, loading and starting over from the game screen (S, O, N).

`FileCommands` is mixed into `GameScreen`.  A save takes a plain name only and goes into the
saves folder (`engine/savepaths.py` checks both); an existing save is replaced only after `y`;
a new game first keeps the one in progress under a name of its own, and may be played against
the computer (`kiev_tui/ai/local.py`): the screen then seats the human's side, as at a host.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine import savepaths
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.later import later


if TYPE_CHECKING:
    from kiev_tui.ui.app import KievApp


def ai_sides(game: Game) -> list[str]:
    """The sides a computer player can take in this game (none if the game has no AI)."""
    from kiev_tui.ai.arena import has_ai

    return list(game.rules.schema.sides) if has_ai(game.rules.id) else []


class FileCommands:
    """S saves, O loads, N starts over, for `GameScreen` (which provides the attributes named here)."""

    game: Game
    kapp: "KievApp"
    app: Any

    def action_save(self) -> None:
        self.save_then(None)

    save_then = later("kiev_tui.ui.files_more")
    _write_save = later("kiev_tui.ui.files_more")
    action_load = later("kiev_tui.ui.files_more")
    _pick_save = later("kiev_tui.ui.files_more")
    action_new_game = later("kiev_tui.ui.files_more")
    _keep_path = later("kiev_tui.ui.files_more")
    start_new_game = later("kiev_tui.ui.files_more")
    _drop_ai = later("kiev_tui.ui.files_more")
