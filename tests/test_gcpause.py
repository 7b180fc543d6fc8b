"""Issue 33: the cycle collector is paused while `kiev-tui play` starts and back once the game
screen's first frame is painted (kiev_tui/gcpause.py); every other way out of start-up turns it on."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from kiev_tui import cli, entry, gcpause
from kiev_tui.ui.app import build_app

from tests.ui.helpers import game_screen, new_mini


@pytest.fixture(autouse=True)
def _collector_left_on() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gcpause.resume()
    gc.unfreeze()  # the rest of the test run's objects stay in the collector's sight
    if was:
        gc.enable()


def test_pause_and_resume_turn_the_collector_off_and_on() -> None:
    gc.enable()
    gcpause.pause()
    assert (gc.isenabled(), gcpause.paused()) == (False, True)
    gcpause.resume()
    assert (gc.isenabled(), gcpause.paused()) == (True, False)


def test_what_start_up_built_is_out_of_the_collectors_sight_afterwards() -> None:
    gc.unfreeze()
    gc.enable()
    gcpause.pause()
    kept = [[n] for n in range(1000)]  # objects of start-up that stay alive
    assert gc.get_freeze_count() == 0
    gcpause.resume()
    assert gc.get_freeze_count() >= len(kept)
    gc.unfreeze()


def test_resume_leaves_a_collector_someone_else_turned_off() -> None:
    gc.disable()
    gcpause.pause()  # nothing to pause: it is off already
    assert gcpause.paused() is False
    gcpause.resume()
    assert gc.isenabled() is False


async def test_the_game_screen_turns_it_back_on_once_painted() -> None:
    gc.enable()
    gcpause.pause()
    app = build_app(new_mini())
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(20):  # a few refreshes: the first lays the screen out, the next paints it
            if gc.isenabled():
                break
            await pilot.pause()
        assert game_screen(app).is_mounted
        assert (gc.isenabled(), gcpause.paused()) == (True, False)


def test_play_pauses_it_and_a_printed_overview_turns_it_back_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # `kiev-tui play` piped: no screen, the position printed; the collector must be on again after
    seen: dict[str, bool] = {}

    def play_game(**opts: object) -> None:
        seen["paused while starting"] = not gc.isenabled()
        monkeypatch.setattr(cli, "_interactive", lambda: False)
        monkeypatch.setattr(cli, "_print_overview", lambda game: seen.setdefault("printed", True))
        cli._start_ui(new_mini(), None)
        seen["on after the overview"] = gc.isenabled()

    gc.enable()
    monkeypatch.setattr(cli, "play_game", play_game)
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "play", "--no-resume"])
    with pytest.raises(SystemExit) as done:
        entry.main()
    assert done.value.code == 0
    assert seen == {"paused while starting": True, "printed": True, "on after the overview": True}


def test_another_command_runs_with_the_collector_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    class App:
        def __call__(self, **_: object) -> int:
            seen.append(gc.isenabled())
            return 0

    gc.enable()
    gcpause.pause()  # as if entry.main had paused it for a `play` line that goes on through Typer
    monkeypatch.setattr(cli, "_app", lambda: App())
    monkeypatch.setattr(sys, "argv", ["kiev-tui", "play", "--help"])
    with pytest.raises(SystemExit):
        cli.main()
    assert seen == [True]
