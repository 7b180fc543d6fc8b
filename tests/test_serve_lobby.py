"""The lobby's numbered lists: nine to a page, `m` for the next, digits pick, `b` goes back."""

from __future__ import annotations

from kiev_tui.serve.lobby import pick


class FakeConsole:
    """Keys from a script; what was written kept as text."""

    def __init__(self, keys: str, width: int = 80) -> None:
        self.keys = list(keys)
        self.width = width
        self.out: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    async def key(self, timeout: float | None = None) -> str:
        return self.keys.pop(0)

    def screen(self) -> str:
        return "".join(self.out).rsplit("\x1b[2J", 1)[-1]  # what the last clear left


GAMES = [f"game {n}" for n in range(1, 21)]


async def test_a_digit_picks_from_the_page_shown() -> None:
    console = FakeConsole("mm2")
    assert await pick(console, "Watch which game?", GAMES) == 19  # page 3 holds games 19 and 20
    assert console.screen() == "Watch which game?\n\n  1  game 19\n  2  game 20\n  m  more (page 3 of 3)\n  b  back\n"


async def test_more_wraps_round_and_a_digit_past_the_page_is_ignored() -> None:
    console = FakeConsole("mmm9")
    assert await pick(console, "Join which game?", GAMES) == 8  # back on page 1: 9 picks game 9
    console = FakeConsole("mm51")  # page 3 has two lines: 5 is nothing there, 1 is game 19
    assert await pick(console, "t", GAMES) == 18


async def test_one_page_has_no_more_and_b_goes_back() -> None:
    console = FakeConsole("mb")
    assert await pick(console, "Which side will you play?", ["german", "soviet"]) is None
    assert "more" not in "".join(console.out)
    assert console.screen() == "Which side will you play?\n\n  1  german\n  2  soviet\n  b  back\n"


async def test_a_long_line_is_cut_to_the_window() -> None:
    console = FakeConsole("1", width=20)
    assert await pick(console, "t", ["x" * 50]) == 0
    assert "  1  " + "x" * 14 + "\n" in console.out
