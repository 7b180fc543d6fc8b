"""SVG snapshots of Barbarossa 1941's main screen through its own face (`pytest --snapshot-update`
rewrites the baselines).  Fixed seed, no clock on screen."""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app

from tests.ui.test_ui_snapshots import pressing
from tests.b41_system_helpers import new_game


def historical() -> Any:
    return build_app(new_game("barbarossa1941/historical", 1941))


def test_b1941_main_screen_120x40(snap_compare: Any) -> None:
    assert snap_compare(historical(), terminal_size=(120, 40), run_before=pressing())


def test_b1941_main_screen_80x24(snap_compare: Any) -> None:
    assert snap_compare(historical(), terminal_size=(80, 24), run_before=pressing())


def test_b1941_selection_120x40(snap_compare: Any) -> None:
    # the cursor on Königsberg's stack (0112), Enter: its reach lit, the inspector lists the stack
    assert snap_compare(historical(), terminal_size=(120, 40),
                        run_before=pressing("g", "0", "1", "1", "2", "enter", "enter"))
