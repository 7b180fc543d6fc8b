"""The resume rows of `make bench` (issue 33): the first frame of a resumed position is when the
screen first looked as it settled with the log panel's text aside, since the log may tell old
lines again in fuller words once the save's replay is checked."""

from __future__ import annotations

from benchmarks import screen
from benchmarks.user import HEIGHT, position_frame

MAP = b"\x1b[1;1H/0101\\____/0301"
LOG_TITLE = b"\x1b[30;80H-Log------"
SAVED_WORDS = b"\x1b[31;80Hge-1 move 0102 > 0103"
FULL_WORDS = b"\x1b[31;80Hge-1 move from 0101 to 0103"
STATUS = b"\x1b[%d;1H 0101" % (HEIGHT - 1)


def test_a_log_told_again_later_does_not_move_the_position_frame() -> None:
    events = [(0.1, MAP), (0.2, LOG_TITLE + SAVED_WORDS + STATUS), (0.9, FULL_WORDS)]
    assert position_frame(events) == 0.2
    assert screen.first_frame(events, 120, HEIGHT).seconds == 0.9  # the settled screen, log included


def test_a_change_outside_the_log_still_moves_it() -> None:
    later_status = b"\x1b[%d;1H 0102" % (HEIGHT - 1)
    events = [(0.1, MAP), (0.2, LOG_TITLE + SAVED_WORDS + STATUS), (0.9, FULL_WORDS + later_status)]
    assert position_frame(events) == 0.9


def test_a_screen_without_a_log_panel_is_compared_whole() -> None:
    events = [(0.1, MAP), (0.5, SAVED_WORDS)]
    assert position_frame(events) == 0.5
