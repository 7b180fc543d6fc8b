"""The lobby's numbered lists: nine to a page, `m` for the next, digits pick, `b` goes back; a
game's line keeps its turn, phase and open side in a narrow window (issue 35)."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.serve.hosted import SAVE, Seat, Table
from kiev_tui.serve.lobby import Row, pick


class FakeConsole:
    """Keys from a script; what was written kept as text."""

    def __init__(self, keys: str, width: int = 80, height: int = 24) -> None:
        self.keys = list(keys)
        self.width = width
        self.height = height
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


KIEV = "Kiev: the battle of encirclement, 29 August - 26 September 1941"  # the campaign's title


def _game(folder: Path, holder: str, turn: int | None = None) -> Table:
    """A hosted Kiev game, its German side held by `holder`, the Soviet side open; with `turn`,
    an autosave header that stands in its German combat phase."""
    folder.mkdir()
    table = Table(folder.name, folder, "spi_kiev/campaign", KIEV, ("german", "soviet"), "2026-12-05 23:00 UTC")
    table.seats["german"] = Seat("SHA256:" + holder, holder)
    if turn is not None:
        (folder / SAVE).write_text(f'[save]\nturn = {turn}\nplayer = "german"\nphase = "combat"\n')
    return table


async def test_at_80_columns_the_title_gives_way_to_turn_phase_and_the_open_side(tmp_path: Path) -> None:
    games = [_game(tmp_path / "a1", "alice", turn=3), _game(tmp_path / "a2", "bob", turn=12)]
    console = FakeConsole("2", width=80)
    assert await pick(console, "Join which game?", [g.row() for g in games]) == 1
    assert console.screen().split("\n") == [
        "Join which game?", "",
        "  1  Kiev: the battle of e\u2026 [german: alice, soviet: open] turn 3, german combat",
        "  2  Kiev: the battle of en\u2026 [german: bob, soviet: open] turn 12, german combat",
        "  b  back", ""]
    assert max(len(line) for line in console.screen().split("\n")) == 79  # the last column stays blank


async def test_at_60_columns_the_facts_take_a_line_of_their_own(tmp_path: Path) -> None:
    mine = _game(tmp_path / "a1", "alice", turn=3)
    console = FakeConsole("1", width=60)
    assert await pick(console, "Resume which game?", [mine.row("as german: ")]) == 0
    assert console.screen().split("\n") == [
        "Resume which game?", "",
        "  1  as german: Kiev: the battle of encirclement, 29 Augus\u2026",
        "     [german: alice, soviet: open] turn 3, german combat",
        "  b  back", ""]


async def test_a_long_player_name_wraps_whole_pieces_and_the_turn_stays(tmp_path: Path) -> None:
    long = _game(tmp_path / "a1", "alexandrakonstantinova-3f9a1c", turn=3)
    new = _game(tmp_path / "a2", "alexandrakonstantinova-3f9a1c")
    console = FakeConsole("1", width=80)
    assert await pick(console, "Watch which game?", [long.row(), new.row()]) == 0
    assert console.screen().split("\n") == [
        "Watch which game?", "",
        "  1  Kiev: the battle of encirclement, 29 August - 26 September 1941",
        "     [german: alexandrakonstantinova-3f9a1c, soviet: open]",
        "     turn 3, german combat",
        "  2  Kiev: the battle of encirclement, 29 August - 26 September 1941",
        "     [german: alexandrakonstantinova-3f9a1c, soviet: open]",
        "     since 2026-12-05 23:00 UTC",
        "  b  back", ""]
    console = FakeConsole("1", width=60)
    assert await pick(console, "Watch which game?", [long.row()]) == 0
    assert console.screen().split("\n")[2:6] == [
        "  1  Kiev: the battle of encirclement, 29 August - 26 Sept\u2026",
        "     [german: alexandrakonstantinova-3f9a1c, soviet: open]",
        "     turn 3, german combat",
        "  b  back"]


async def test_a_page_holds_only_the_rows_the_window_has_room_for() -> None:
    facts = ("[german: alexandrakonstantinova-3f9a1c,", "soviet: open]", "turn 3, german combat")
    rows = [Row(f"game {n} " + "x" * 60, facts) for n in range(1, 10)]
    console = FakeConsole("m3", width=60, height=24)  # three lines a row: a page of 24 lines holds 6
    assert await pick(console, "Join which game?", rows) == 8  # page 2 starts at the seventh game
    first = "".join(console.out).split("\x1b[2J")[1]
    assert first.count("\n") == 22 and "  6  game 6 " in first and "game 7 " not in first
    assert console.screen().split("\n")[2:5] == [
        "  1  game 7 " + "x" * 46 + "\u2026",
        "     [german: alexandrakonstantinova-3f9a1c, soviet: open]",
        "     turn 3, german combat"]
    assert "  m  more (page 2 of 2)\n  b  back\n" in console.screen()
