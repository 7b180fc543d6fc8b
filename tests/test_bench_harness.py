"""The logic of `make bench` (benchmarks/): statistics, frame detection, the table, the spawner.

No timing is asserted here: these check that the harness computes what docs/PERFORMANCE.md
says it does, on made-up numbers and recorded byte streams.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the benchmarks package lives at the top of the repository
    sys.path.insert(0, str(ROOT))

from benchmarks import screen  # noqa: E402
from benchmarks.__main__ import _issue_order  # noqa: E402
from benchmarks.pty_session import PtySession, read_result  # noqa: E402
from benchmarks.report import Row, alternate, cells, failed, judge, pair_medians, pair_row, table  # noqa: E402


def test_pair_medians_take_each_side_and_the_ratio_per_pair() -> None:
    st = pair_medians([(2.0, 1.0), (4.0, 1.0), (3.0, 2.0)])
    assert (st.value, st.floor, st.ratio, st.pairs) == (3.0, 1.0, 2.0, 3)


def test_the_row_of_pairs_shows_the_pair_ratio_not_the_ratio_of_medians() -> None:
    row = pair_row("first frame", "s", [(2.0, 1.0), (4.0, 1.0), (3.0, 2.0)], "bare app", "<= 1.5x")
    assert (row.value, row.floor, row.ratio) == (3.0, 1.0, 2.0)
    assert row.note == "medians of 3 alternating pairs"


def test_alternate_runs_figure_and_floor_in_turn() -> None:
    calls: list[str] = []

    def a() -> int:
        calls.append("a")
        return len(calls)

    def b() -> int:
        calls.append("b")
        return len(calls)

    assert alternate(a, b, 3) == [(1, 2), (3, 4), (5, 6)]
    assert calls == ["a", "b", "a", "b", "a", "b"]


def test_judge_on_value_and_on_ratio() -> None:
    assert judge(Row("x", 150.0, "bytes"), 150).ok is True
    assert judge(Row("x", 151.0, "bytes"), 150).ok is False
    assert judge(Row("x", 3.0, "s", 2.0), 1.5, "ratio").ok is True
    assert judge(Row("x", 3.1, "s", 2.0), 1.5, "ratio").ok is False
    assert judge(Row("x", None, "s", 2.0), 1.5, "ratio").ok is None


def test_every_row_is_printed_with_floor_ratio_goal_and_met() -> None:
    rows = [judge(Row("first frame", 3.0, "s", 1.5, "bare app", "<= 1.5x", pair_ratio=2.0), 1.5, "ratio"),
            judge(Row("cursor move", 120.0, "bytes", 150.0, "stock Textual", "<= 150 B"), 150),
            failed("rules 9.66", "s", RuntimeError("boom"), "<= 0.15 s"),
            Row("idle", 0.0, "bytes", 0.0, "nothing changes", "0 B", True)]
    lines = table(rows, markdown=True).splitlines()
    assert lines[0] == "| figure | measured | unit | floor (same run) | ratio | goal | met | note |"
    assert lines[2:] == [
        "| first frame | 3 | s | 1.5 (bare app) | 2.00x | <= 1.5x | NO |  |",
        "| cursor move | 120 | bytes | 150 (stock Textual) | 0.80x | <= 150 B | yes |  |",
        "| rules 9.66 | n/a | s | - | - | <= 0.15 s |  | n/a (failed: RuntimeError: boom) |",
        "| idle | 0 | bytes | 0 (nothing changes) | - | 0 B | yes |  |",
    ]
    plain = table(rows, markdown=False).splitlines()
    assert len(plain) == 2 + len(rows)
    assert plain[4].startswith("rules 9.66") and "n/a (failed: RuntimeError: boom)" in plain[4]


def test_a_floor_that_failed_still_names_what_it_was() -> None:
    assert cells(Row("x", 2.0, "ms", None, "search() failed: KeyError"))[3] == "- (search() failed: KeyError)"


def test_rows_of_the_start_up_group_follow_the_issue() -> None:
    rows = [Row(n, 1.0, "s") for n in ("first paint 120x40", "peak RSS, start and quit", "resuming a save",
                                       "time to first frame")]
    assert [r.figure for r in _issue_order(rows)] == ["time to first frame", "resuming a save",
                                                      "peak RSS, start and quit", "first paint 120x40"]


# -- frames on a recorded stream -----------------------------------------------------------------

SETUP = b"\x1b[?1049h\x1b[?1000h\x1b[?25l\x1b[?2026$p"
SIDE = b"\x1b[1;10H\x1b[1mSide panel\x1b[0m"  # a partial paint: the map is not drawn yet
MAP = b"\x1b[2;1H~~~~ map ~~~~\x1b[3;1H\x1b[34m\xe2\x89\x88\xe2\x89\x88\x1b[0m"


def test_the_first_frame_is_when_the_screen_first_showed_its_settled_picture() -> None:
    events = [(0.10, SETUP), (0.20, SIDE), (0.30, MAP), (0.40, SIDE + MAP)]  # then the same frame again
    frame = screen.first_frame(events, 30, 4)
    assert frame == screen.Frame(0.30, len(SETUP) + len(SIDE) + len(MAP), 2)


def test_a_frame_split_inside_a_character_is_complete_only_with_its_last_byte() -> None:
    whole = SIDE + MAP
    cut = whole.index(b"\xe2\x89\x88") + 1  # in the middle of the first three-byte character
    events = [(0.1, whole[:cut]), (0.2, whole[cut:])]
    assert screen.first_frame(events, 30, 4) == screen.Frame(0.2, len(whole), 1)


def test_a_later_change_moves_the_first_frame_to_it() -> None:
    clock = b"\x1b[4;1Hclock 12:01"
    events = [(0.1, SIDE + MAP), (0.5, clock)]
    assert screen.first_frame(events, 30, 4) == screen.Frame(0.5, len(SIDE + MAP) + len(clock), 1)


def test_only_set_up_codes_is_no_frame() -> None:
    assert screen.first_frame([(0.1, SETUP)], 30, 4) is None
    assert screen.first_frame([], 30, 4) is None


def test_plain_redraw_counts_moves_styles_and_characters() -> None:
    before = screen.blank(10, 2)
    after = screen.settled([(0.0, b"\x1b[1;3Hab\x1b[31mc\x1b[0m")], 10, 2)
    # ESC[1;3H (6) + "ab" in the default style (2) + ESC[0;31m (7) + "c" (1)
    assert screen.plain_redraw(before, after) == 16
    assert screen.plain_redraw(after, after) == 0
    # back to blank: one run of three changed cells in the plain style the pen starts with
    assert screen.plain_redraw(after, before) == 6 + 3


def test_plain_redraw_erases_a_long_blank_tail_instead_of_writing_it() -> None:
    before = screen.settled([(0.0, b"\x1b[1;1H" + b"x" * 10)], 10, 1)
    after = screen.settled([(0.0, b"\x1b[1;1Hx")], 10, 1)
    # cells 2-10 turn blank: ESC[1;2H (6) then ESC[K (3): no SGR, the pen is already plain
    assert screen.plain_redraw(before, after) == 9


def test_a_full_sgr_names_attributes_and_both_colours() -> None:
    assert screen.sgr(("x", frozenset({"bold", "underline"}), "5;24", "44")) == b"\x1b[0;1;4;38;5;24;44m"


# -- the spawner and the pty ----------------------------------------------------------------------

def test_read_result_makes_times_relative_and_misses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "r"
    path.write_text("spawned=100.5\nended=101.25\nmaxrss_kib=2048\nstatus=0\n")
    assert read_result(str(path), 100.0) == {"spawned": 0.5, "ended": 1.25, "maxrss_kib": 2048.0, "status": 0.0}
    path.write_text("spawned=100.5\n")
    assert read_result(str(path), 100.0) is None
    assert read_result(str(tmp_path / "missing"), 100.0) is None


def test_a_measured_program_reports_its_own_life_memory_and_output() -> None:
    code = "import sys; sys.stdout.write('hello'); sys.exit(3)"
    s = PtySession([sys.executable, "-c", code], 40, 5, measure=True)
    s.start()
    ended = s.read_to_end(30.0)
    s.close()
    assert ended is not None and s.child is not None
    assert s.child["status"] == 3
    assert 0 <= s.child["spawned"] <= s.child["ended"] <= ended
    assert s.peak_rss_mib is not None and s.peak_rss_mib > 1
    assert b"hello" in bytes(s.transcript)
    assert [c for _, c in s.events] and b"".join(c for _, c in s.events) == bytes(s.transcript)


def test_a_program_stopped_because_it_did_not_quit_is_still_reported() -> None:
    # a resumed game that held its quit key behind a long check left no report at all
    code = "import sys, time; sys.stdout.write('up'); sys.stdout.flush(); time.sleep(120)"
    s = PtySession([sys.executable, "-c", code], 40, 5, quiet=0.2, measure=True)
    s.start()
    s.read_until_quiet(first_byte_timeout=30.0)
    s.close()
    assert s.forced
    assert s.child is not None and s.child["status"] == -15  # SIGTERM, from close()
    assert s.peak_rss_mib is not None and s.peak_rss_mib > 1


def test_a_session_keeps_every_chunk_it_read_with_its_time() -> None:
    code = "import sys; sys.stdout.write('ready'); sys.stdout.flush(); sys.stdin.readline()"
    s = PtySession([sys.executable, "-c", code], 40, 5, quiet=0.2)
    s.start()
    got = s.read_until_quiet(first_byte_timeout=30.0)
    s.close(quit_keys=b"\n")
    assert got == len(s.transcript) and b"ready" in bytes(s.transcript)
    assert b"".join(c for _, c in s.events) == bytes(s.transcript)
    assert all(0 <= t <= s.last_byte_at for t, _ in s.events)
