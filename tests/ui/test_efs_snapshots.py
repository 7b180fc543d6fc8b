"""SVG snapshots of the Battle of Sumy's main screen through Kiev to Rostov's face
(`pytest --snapshot-update` rewrites the baselines).  Fixed seed, no clock on screen."""

from __future__ import annotations

from typing import Any

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app

from tests.ui.test_ui_snapshots import pressing


def sumy() -> Any:
    return build_app(Game.new("efs_ktr/sumy", seed=1941))


def test_efs_main_screen_120x40(snap_compare: Any) -> None:
    assert snap_compare(sumy(), terminal_size=(120, 40), run_before=pressing())


def test_efs_main_screen_80x24(snap_compare: Any) -> None:
    assert snap_compare(sumy(), terminal_size=(80, 24), run_before=pressing())


def test_efs_selection_120x40(snap_compare: Any) -> None:
    # the cursor on the 9th Panzer stack (1208), Enter: its units listed in the inspector
    assert snap_compare(sumy(), terminal_size=(120, 40), run_before=pressing("g", "1", "2", "0", "8", "enter", "enter"))
