"""The rules reference screen, driven by keys through Textual's Pilot."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rich.console import Console

from textual.app import App, ComposeResult
from textual.widgets import Input, OptionList, Static

from kiev_tui.ui import rules_screen
from kiev_tui.ui.rules_screen import PANE_DELAY, RulesScreen

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


class Host(App[None]):
    """A tiny app whose only job is to open the rules screen."""

    def __init__(self, **screen_args: object) -> None:
        super().__init__()
        self.screen_args = screen_args

    def compose(self) -> ComposeResult:
        yield Static("game map would be here", id="home")

    def on_mount(self) -> None:
        self.push_screen(RulesScreen(data_dir=FIXTURES, **self.screen_args))  # type: ignore[arg-type]


def listed(screen: RulesScreen) -> list[str]:
    return [case.id for case, _, _ in screen._listed]


def shown_text(screen: RulesScreen) -> str:
    """What the case pane holds, as plain text."""
    content = screen.query_one("#rules-case-text", Static).content
    console = Console(width=60, file=io.StringIO(), color_system=None)
    console.print(content)
    return console.file.getvalue()


async def test_search_select_follow_back_and_close(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_screen, "PANE_DELAY", 60.0)  # however slow the keys, no pause counts
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert isinstance(app.focused, Input)  # typing starts a search straight away
        assert listed(screen)[:3] == ["9.0", "9.6", "9.66"]  # no query: the whole book in order

        await pilot.press(*"major river")
        await pilot.pause()
        assert listed(screen) == ["10.13", "9.78", "10.2", "10.3"]  # the list follows every key
        assert screen.current is not None and screen.current.id == "9.0"  # the case waits for a pause

        await pilot.press("enter")  # from the search box into the results
        assert isinstance(app.focused, OptionList) and app.focused.id == "rules-results"
        assert screen.current is not None and screen.current.id == "10.13"  # the best hit, shown now
        await pilot.press("slash", "down")  # back to the box and down again: same place
        assert app.focused is not None and app.focused.id == "rules-results"
        await pilot.press("down")
        await pilot.pause()
        assert screen.current.id == "9.78"  # moving through the results shows each case
        await pilot.press("enter")  # choose it: focus goes to its links
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "rules-links"
        assert screen._links == ["10.13", "99.1"]
        assert "Retreat over water" in shown_text(screen)

        await pilot.press("1")  # number key follows the first link
        await pilot.pause()
        assert screen.current.id == "10.13"
        assert screen.history == ["9.78"]

        await pilot.press("b")  # back to where the link was followed from
        await pilot.pause()
        assert screen.current.id == "9.78"

        await pilot.press("2")  # a link to a case the reference lacks changes nothing
        await pilot.pause()
        assert screen.current.id == "9.78"

        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
        assert app.query_one("#home", Static)


async def test_enter_on_a_link_follows_it() -> None:
    app = Host(initial="9.66")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert screen.current is not None and screen.current.id == "9.66"
        links = screen.query_one("#rules-links", OptionList)
        links.focus()
        await pilot.press("down", "enter")  # second link: 9.7
        await pilot.pause()
        assert screen.current.id == "9.7"
        assert "Retreat" in shown_text(screen)


async def test_digits_typed_in_the_search_box_are_text() -> None:
    app = Host(initial="9.66")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        await pilot.press("slash", *"9.78")
        await pilot.pause()
        assert screen.query_one(Input).value == "9.78"
        assert listed(screen)[0] == "9.78"  # a case number finds that case first
        await pilot.pause(PANE_DELAY + 0.2)
        assert screen.current is not None and screen.current.id == "9.78"
        assert screen.history == []


async def test_opened_at_a_list_of_cases() -> None:
    app = Host(book_ids=["9.7", "[9.66]", "nonsense"], initial="9.66")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert listed(screen) == ["9.7", "9.66"]
        assert screen.current is not None and screen.current.id == "9.66"
        results = screen.query_one("#rules-results", OptionList)
        assert results.highlighted == 1
        # clearing a search returns to the given list
        await pilot.press("slash", "w", "o", "o", "d")
        await pilot.pause()
        assert listed(screen) == ["10.2"]
        await pilot.press("backspace", "backspace", "backspace", "backspace")
        await pilot.pause()
        assert listed(screen) == ["9.7", "9.66"]


async def test_other_game_and_playbook_initial() -> None:
    app = Host(game="efs_ktr", initial="pb 3.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert screen.current is not None and screen.current.id == "PB 3.1"
        assert screen._links == ["PB 3.11"]


async def test_unknown_initial_and_missing_data_do_not_crash(tmp_path: Path) -> None:
    app = Host(initial="77.7")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert any("77.7" in str(n.message) for n in app._notifications)

    class Empty(App[None]):
        def on_mount(self) -> None:
            self.push_screen(RulesScreen(game="spi_kiev", data_dir=tmp_path))

    empty = Empty()
    async with empty.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = empty.screen
        assert isinstance(screen, RulesScreen)
        assert "unavailable" in shown_text(screen)
        await pilot.press(*"river")  # searching an absent reference is harmless
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(empty.screen, RulesScreen)


async def test_the_search_box_cursor_does_not_blink() -> None:
    """A blinking cursor redrew the search box twice a second while the reader only read."""
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        query = app.screen.query_one("#rules-query", Input)
        assert app.focused is query
        assert query.cursor_blink is False
        seen = set()
        for _ in range(6):  # three blink periods of Textual's 0.5 s timer
            await pilot.pause(0.25)
            seen.add(query._cursor_visible)
        assert seen == {True}
        assert query._blink_timer is not None and not query._blink_timer._active.is_set()


async def test_a_key_that_finds_the_same_cases_leaves_the_list_alone() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        results = screen.query_one("#rules-results", OptionList)
        await pilot.press(*"majo")
        await pilot.pause()
        drawn = [results.get_option_at_index(i) for i in range(results.option_count)]
        assert listed(screen) == ["10.13", "9.78", "10.2"]
        await pilot.press("r")  # "major" finds the same three cases, marked the same way
        await pilot.pause()
        assert [results.get_option_at_index(i) for i in range(results.option_count)] == drawn
        assert all(a is b for a, b in zip(drawn, [results.get_option_at_index(i) for i in range(results.option_count)]))
        await pilot.pause(PANE_DELAY + 0.2)
        pane = screen.query_one("#rules-case-text", Static)
        shown = pane.content
        assert screen.current is not None and screen.current.id == "10.13"
        await pilot.press("backspace")  # "majo" again: the same best hit, marked the same
        await pilot.pause(PANE_DELAY + 0.2)
        assert pane.content is shown  # the case is not drawn again


async def test_enter_shows_the_best_hit_at_once_and_the_last_query_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_screen, "PANE_DELAY", 60.0)  # no pause long enough: only Enter shows it
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        await pilot.press(*"woods", *["backspace"] * 5, *"step")
        await pilot.pause()
        assert listed(screen)[0] == "9.6"
        assert screen.current is not None and screen.current.id == "9.0"  # still the case shown at first
        await pilot.press("enter")
        await pilot.pause()
        assert screen.current.id == "9.6"  # the final query's best hit, not an earlier one's
        assert screen._pane_timer is None


async def test_a_search_erased_before_its_pause_shows_no_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_screen, "PANE_DELAY", 1.5)  # longer than any gap between two keys here
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        await pilot.press("w", "o", "backspace")  # "wo" finds 10.2; "w" finds nothing
        await pilot.pause(2.0)
        assert listed(screen) == []
        assert screen.current is not None and screen.current.id == "9.0"
