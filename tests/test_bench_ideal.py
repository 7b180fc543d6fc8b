"""The ideal-diff floor of the cursor rows (benchmarks/ideal.py, issue 33), on tiny hand-made screens.

Every expected count is worked out by hand in the comment beside it: the cheapest bytes that
turn the first screen into the second through the test terminal (tests/ui/vt.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the benchmarks package lives at the top of the repository
    sys.path.insert(0, str(ROOT))

from benchmarks import ideal  # noqa: E402
from benchmarks.screen import Grid  # noqa: E402
from tests.ui.vt import Terminal  # noqa: E402


def grid(data: str, width: int = 10, height: int = 3) -> Grid:
    term = Terminal(width, height)
    term.feed(data)
    return term.cells()


BLANK = grid("")


def test_nothing_changed_costs_nothing() -> None:
    assert ideal.ideal_bytes(grid("\x1b[2;3Hab"), grid("\x1b[2;3Hab")) == 0


def test_one_run_is_one_absolute_move_and_its_characters() -> None:
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3Hab")) == 6 + 2  # "ESC[2;3H" "ab"
    assert ideal.ideal_bytes(BLANK, grid("\x1b[1;1Hab")) == 3 + 2  # "ESC[H": both parameters left out
    assert ideal.ideal_bytes(BLANK, grid("\x1b[1;4Hab")) == 5 + 2  # "ESC[;4H": the row left out


def test_a_short_gap_is_written_again_rather_than_stepped_over() -> None:
    # "ESC[2;3H" "ab", then three blanks (3 B) beat "ESC[3C" (4 B), then "cd"
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3Hab\x1b[2;8Hcd")) == 6 + 2 + 3 + 2


def test_a_longer_gap_is_stepped_over() -> None:
    # "ESC[H" "a", then "ESC[8C" (4 B) rather than eight blanks, then "b"
    assert ideal.ideal_bytes(grid("", 20, 1), grid("a\x1b[1;11Hb", 20, 1)) == 3 + 1 + 4 + 1


def test_a_style_costs_the_shortest_sgr() -> None:
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3H\x1b[1mab")) == 6 + 4 + 2  # "ESC[1m"
    # bold red then plain: "ESC[1;31m" (7) "a" "ESC[m" (3) "b"
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3H\x1b[1;31ma\x1b[0mb")) == 6 + 7 + 1 + 3 + 1
    # bold red then red only: "ESC[22m" (5) beats a reset "ESC[;31m" (6)
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3H\x1b[1;31ma\x1b[22mb")) == 6 + 7 + 1 + 5 + 1


def test_sgr_cost_picks_reset_or_steps() -> None:
    plain, bold = ideal.PLAIN, (frozenset({"bold"}), "", "")
    bold_red = (frozenset({"bold"}), "31", "")
    assert ideal.sgr_cost(plain, plain) == 0
    assert ideal.sgr_cost(bold, plain) == 3  # "ESC[m"
    assert ideal.sgr_cost(plain, bold_red) == 7  # "ESC[1;31m"
    assert ideal.sgr_cost(bold_red, (frozenset({"dim"}), "31", "")) == 7  # "ESC[22;2m"
    assert ideal.sgr_cost(bold_red, (frozenset({"dim"}), "", "")) == 5  # "ESC[;2m": reset, then dim


def test_a_blank_tail_is_one_erase_to_end_of_line() -> None:
    before = grid("\x1b[2;1Habcdefghij")
    assert ideal.ideal_bytes(before, grid("\x1b[2;1Hab")) == 6 + 3  # "ESC[2;3H" "ESC[K"
    # two blanks at the end: writing them (2 B) beats "ESC[K" (3 B)
    assert ideal.ideal_bytes(grid("\x1b[2;1Habcdefghij"), grid("\x1b[2;1Habcdefgh")) == 6 + 2


def test_a_run_that_reaches_into_the_blank_tail_ends_with_an_erase() -> None:
    # every cell of the row changes, the new text is shorter: "ESC[2H" (4) "xy" (2) "ESC[K" (3),
    # not "xy" and eight blanks written out (issue 33: "Hex 0320, clear" over Kiev's first line)
    assert ideal.ideal_bytes(grid("\x1b[2;1Habcdefghij"), grid("\x1b[2;1Hxy")) == 4 + 2 + 3


def test_the_next_row_is_reached_by_the_cheapest_move() -> None:
    # "ESC[;3H" "ab" (7), then CR LF (2, what a line feed becomes on the pty) to the first column
    # and the two blanks written again (2) rather than "ESC[2C" (4), then "cd" (2)
    assert ideal.ideal_bytes(BLANK, grid("\x1b[1;3Hab\x1b[2;3Hcd")) == 5 + 2 + 2 + 2 + 2
    # further right, a move: "ESC[;6H" "ab" (7), "ESC[B" (3) "ESC[2D" (4) or "ESC[2;6H" (6), "cd"
    assert ideal.ideal_bytes(BLANK, grid("\x1b[1;6Hab\x1b[2;6Hcd")) == 5 + 2 + 6 + 2
    # "ESC[H" "ab", then to the first column of the next row: CR LF (2) beats "ESC[2H" (4), "cd"
    assert ideal.ideal_bytes(BLANK, grid("\x1b[Hab\x1b[2;1Hcd")) == 3 + 2 + 2 + 2
    # after the last column the cursor's place is not known: an absolute move, "ESC[2H" (4)
    assert ideal.ideal_bytes(BLANK, grid("\x1b[Habcdefghij\x1b[2;1Hcd")) == 3 + 10 + 4 + 2


def test_a_space_may_be_written_in_the_pen_at_hand() -> None:
    # "ESC[2;3H" "ESC[1m" "a b": the space in bold looks like a plain one
    assert ideal.ideal_bytes(BLANK, grid("\x1b[2;3H\x1b[1ma\x1b[0m \x1b[1mb")) == 6 + 4 + 3


def test_per_key_compares_the_screens_between_the_marks() -> None:
    events = [(0.0, b"\x1b[Hab"), (0.1, b"\x1b[1;2Hx"), (0.2, b"\x1b[2;1Hc")]
    # before key 1: "ab"; after it "ax" ("ESC[H" "ax": 5, one byte less than "ESC[;2H" "x");
    # after key 2 also "c" below ("ESC[2H" "c": 5)
    assert ideal.per_key(events, [1, 2, 3], 10, 3) == [5, 5]
    assert ideal.per_key(events, [0, 1], 10, 3) == [5]  # from the blank screen: "ESC[H" "ab"


def test_the_median_row_needs_both_150_bytes_and_1_1x_the_ideal() -> None:
    from benchmarks.user import cursor_rows

    stock, stock_ideal = [187] * 12, [72] * 12
    met = cursor_rows([140] * 12, [130] * 12, stock, stock_ideal)  # 140 B, 1.08x
    assert met[0].ok is True and round(met[0].ratio or 0, 2) == 1.08
    assert cursor_rows([140] * 12, [120] * 12, stock, stock_ideal)[0].ok is False  # 1.17x the ideal
    assert cursor_rows([160] * 12, [158] * 12, stock, stock_ideal)[0].ok is False  # over 150 B
    walk = [216, 441, 313, 238, 317, 189, 267, 161, 89, 103, 87, 162]
    ideal_walk = [206, 421, 305, 228, 301, 176, 255, 155, 82, 97, 80, 156]
    med, worst, ref = cursor_rows(walk, ideal_walk, stock, stock_ideal)
    assert (med.value, med.floor) == (202.5, 191.0)
    assert (worst.value, worst.floor, worst.ok) == (441.0, 421.0, False)
    assert "worst key 2, its ideal 421 B" in worst.note
    assert (ref.value, ref.floor, ref.ok) == (187.0, 72.0, None)  # a reference: no goal of its own
