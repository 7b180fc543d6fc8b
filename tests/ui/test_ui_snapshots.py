"""SVG snapshots of the key screens (`pytest --snapshot-update` rewrites the baselines).

Every screen here is deterministic: fixed seeds, no clock anywhere on screen.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from kiev_tui.engine.game import Game
from kiev_tui.ui.app import build_app

from tests.conftest import position
from tests.ui.helpers import goto, keys, new_mini


def campaign(**kw: Any) -> Any:
    return build_app(Game.new("spi_kiev/campaign", seed=1941), **kw)


def pressing(*presses: str) -> Any:
    """Press keys, then let every scheduled refresh (scroll bars included) land before the picture."""
    async def run(pilot: Pilot) -> None:
        if presses:
            await keys(pilot, *presses)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        await pilot.pause()
    return run


def test_main_screen_120x40(snap_compare: Any) -> None:
    assert snap_compare(campaign(), terminal_size=(120, 40), run_before=pressing())


def test_main_screen_80x24(snap_compare: Any) -> None:
    assert snap_compare(campaign(), terminal_size=(80, 24), run_before=pressing())


def test_compact_zoom_80x24_with_a_selection(snap_compare: Any) -> None:
    assert snap_compare(campaign(), terminal_size=(80, 24), run_before=pressing("z", "enter", "s", "s"))


def test_ascii_only_mode(snap_compare: Any) -> None:
    assert snap_compare(campaign(ascii=True), terminal_size=(120, 40), run_before=pressing("enter", "s"))


def test_combat_preview(snap_compare: Any) -> None:
    game = position(new_mini(seed=1), {"ge-inf-1": "0304", "ge-inf-2": "0305", "so-rifle-3": "0404",
                                       "so-hq-army": "0505"}, player="german", phase="combat",
                    reinforcements=False)

    async def build_attack(pilot: Pilot) -> None:
        await goto(pilot, "0304")
        await keys(pilot, "enter")
        await goto(pilot, "0305")
        await keys(pilot, "enter")
        await goto(pilot, "0404")
        await keys(pilot, "enter", "c")
        await pressing()(pilot)

    assert snap_compare(build_app(game), terminal_size=(120, 40), run_before=build_attack)


def test_hand_off_screen(snap_compare: Any) -> None:
    game = position(new_mini(), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, phase="combat",
                    reinforcements=False)
    assert snap_compare(build_app(game), terminal_size=(80, 24), run_before=pressing("P", "y"))

