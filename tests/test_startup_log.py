"""A resumed game's log builds its newest lines at mount and the older ones as the player pages
back to them, without the view jumping (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev import bot
from kiev_tui.ui.app import build_app
from kiev_tui.ui.game_screen import LOG_SPARE
from kiev_tui.ui.logview import WrapLog

from tests.ui.helpers import game_screen, keys

WIDTH, HEIGHT = 80, 24


@pytest.fixture(scope="module")
def long_game() -> Game:
    """A campaign some turns in, played by the random player: a few hundred journal lines."""
    seen: dict[str, Game] = {}
    bot.play_game("spi_kiev/campaign", 5, max_actions=300, on_action=lambda game, act: seen.setdefault("g", game))
    game = seen["g"]
    assert len(game.journal) > HEIGHT + LOG_SPARE + 2 * WrapLog.CHUNK  # the tail and more than two chunks
    return game


def _rows(log: WrapLog) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


def _on_show(log: WrapLog) -> list[str]:
    top = round(log.scroll_y)
    return _rows(log)[top: top + log.scrollable_content_region.height]


def _words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


async def test_the_log_of_a_long_game_builds_its_tail_at_mount(long_game: Game) -> None:
    app = build_app(long_game)
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        log = screen.query_one("#log", WrapLog)
        tail = HEIGHT + LOG_SPARE
        assert (len(log._source), log.unbuilt) == (tail, len(long_game.journal) - tail)
        assert [t.plain for t in log._source] == [screen.name_ids(e.describe()) for e in long_game.journal[-tail:]]
        assert log.scroll_y == log.max_scroll_y > 0  # the newest line is on show
        assert _words(_on_show(log)).endswith(_words([screen.name_ids(long_game.journal[-1].describe())]))


async def test_paging_back_builds_older_lines_and_the_view_stays(long_game: Game) -> None:
    app = build_app(long_game)
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        log = screen.query_one("#log", WrapLog)
        older = len(long_game.journal) - HEIGHT - LOG_SPARE
        presses = 0
        # a page up keeps the top line in sight as the new bottom one, so it moves height-1 rows;
        # the tail's rows at that pace, and two more, bound the loop, so a stuck log fails, not hangs
        pages = log.virtual_size.height // max(1, log.scrollable_content_region.height - 1) + 2
        while log.unbuilt == older:  # page up through the tail until the next lines are built
            before = _on_show(log)
            await keys(pilot, "pageup")
            await pilot.pause()
            assert _on_show(log)[-1] == before[0]  # one page up, with or without older lines built
            presses += 1
            assert presses <= pages
        assert log.unbuilt == older - WrapLog.CHUNK
        assert log.scroll_y >= log.scrollable_content_region.height  # lines above the view to page to
        built = [log.unbuilt]
        while log.unbuilt:  # the scroll bar dragged to the top, again and again
            top_rows = _rows(log)[: log.scrollable_content_region.height]
            log.scroll_to(y=0, animate=False)
            await pilot.pause()
            await pilot.pause()
            built.append(log.unbuilt)
            assert _on_show(log) == top_rows  # built above the view, which stays on what it showed
            assert len(built) < 10
        assert built == [*range(older - WrapLog.CHUNK, 0, -WrapLog.CHUNK), 0]  # a chunk at a time
        everything = [screen.name_ids(e.describe()) for e in long_game.journal]
        assert _words(_rows(log)) == _words(everything)


async def test_a_short_log_is_built_whole(long_game: Any) -> None:
    game = Game.new("spi_kiev/campaign", seed=1941)
    app = build_app(game)
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        await pilot.pause()
        log = game_screen(app).query_one("#log", WrapLog)
        assert (len(log._source), log.unbuilt) == (len(game.journal), 0)
