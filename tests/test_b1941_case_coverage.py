"""Barbarossa 1941: every numbered case of the rulebook that changes play has a test named after it.

The issue's "done when" asks for a test `test_<case>` (dots as underscores) for each case that
changes play. This test reads the case numbers from the rulebook's own headings, leaves out the
ones listed below with the reason they change nothing, and looks for a test function named
`test_<case>` or `test_<case>_<words>` in the Barbarossa test files (`tests/test_b1941_*.py`,
`tests/test_b41_*.py`; the other games share case numbers, so their files do not count).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = Path("/work/shared/rulebooks/barbarossa-1941.txt")
if not BOOK.exists():  # the checkout's copy, when the shared folder is elsewhere
    BOOK = ROOT.parent.parent / "shared" / "rulebooks" / "barbarossa-1941.txt"

# Headings that state no rule of play, each with why.
NO_PLAY: dict[str, str] = {
    "1": "describes the counters' printed values; their effects are ruled where they are used",
    "2": "a title: the phases are in 2.1, 2.2 and 2.3",
    "9": "a title over 9.1 and 9.2",
    "12": "a title over the special rules 12.1-12.13",
    "14": "a title over the scenarios 14.1-14.3",
    "14.3": "a title over the optional rules 14.3.1-14.3.5",
    "15": "a title over the historical set-up lists 15.1-15.3",
    "16": "the abbreviations used on the counters and in the set-up lists",
}

# Cases the rule system does not enforce yet, each with the reason. Must be exact.
NOT_ENFORCED: dict[str, str] = {}

BARBAROSSA_TESTS = ("test_b1941_*.py", "test_b41_*.py")


def book_cases() -> list[str]:
    """The case numbers of the rulebook's headings, in book order (the contents list left out)."""
    cases: list[str] = []
    for line in BOOK.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(\d+(?:\.\d+)*) [-\u2013] ", line)
        if m and m.group(1) not in cases:
            cases.append(m.group(1))
    return cases


def _test_names() -> set[str]:
    names: set[str] = set()
    for pattern in BARBAROSSA_TESTS:
        for path in (ROOT / "tests").glob(pattern):
            names |= set(re.findall(r"^\s*def (test_\w+)\s*\(", path.read_text(encoding="utf-8"), re.M))
    return names


def has_test(case: str, names: set[str]) -> bool:
    stem = "test_" + case.replace(".", "_")
    # test_9_2 must not be satisfied by test_9_21_...: the case's number ends at the name's end or
    # before a word, never before another digit
    return any(n == stem or (n.startswith(stem + "_") and not n[len(stem) + 1:][:1].isdigit()) for n in names)


def missing_cases() -> list[str]:
    names = _test_names()
    return [c for c in book_cases() if c not in NO_PLAY and not has_test(c, names)]


def test_the_book_headings_are_read() -> None:
    cases = book_cases()
    # the book's numbering from the counters to Typhoon, the 14.3 options and 9.21/9.22 included
    assert cases[:6] == ["1", "2", "2.1", "2.2", "2.3", "3"]
    assert {"9.21", "9.22", "12.13", "14.3.5", "17.2"} <= set(cases)
    assert cases[-1] == "17.2"
    assert len(cases) == 64
    assert set(NO_PLAY) <= set(cases)


def test_every_case_that_changes_play_has_its_test() -> None:
    missing = missing_cases()
    assert set(missing) == set(NOT_ENFORCED), f"cases without a test_<case>: {missing}"


def test_the_not_enforced_list_is_exact() -> None:
    # a case listed as not enforced must still lack its test; once tested, take it off the list
    names = _test_names()
    assert [c for c in NOT_ENFORCED if has_test(c, names)] == []
    assert set(NOT_ENFORCED) <= set(book_cases())


def test_has_test_reads_case_boundaries() -> None:
    assert has_test("9.2", {"test_9_2_replenish"})
    assert not has_test("9.2", {"test_9_21_book_example"})
    assert has_test("14.3.1", {"test_14_3_1"})
    assert not has_test("14.3", {"test_14_3_1_bonus"})
