"""The `make mutate` report: mutmut's result lines grouped per module, survivors split by whether
docs/mutation-explained.toml gives the reason they cannot be killed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mutation_report import EXPLAINED, collect, counts, load_explained, stale, table, unexplained

LINES = [
    "    kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_1: killed",
    "    kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_2: survived",
    "    kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_3: survived",
    "    kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_4: timeout",
    "    kiev_tui.games.spi_kiev.supply.xǁSupplyMapǁflood__mutmut_9: not checked",
    "    kiev_tui.games.spi_kiev.supply.xǁSupplyMapǁflood__mutmut_8: killed",
    "a line mutmut prints that names no mutant",
]
EXPLAINED_NOW = {"kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_3": "equivalent"}


def test_lines_group_by_module_with_their_status() -> None:
    per = collect(LINES)
    assert sorted(per) == ["rail", "supply"]
    assert per["supply"] == {
        "kiev_tui.games.spi_kiev.supply.xǁSupplyMapǁflood__mutmut_9": "not checked",
        "kiev_tui.games.spi_kiev.supply.xǁSupplyMapǁflood__mutmut_8": "killed",
    }


def test_a_timeout_counts_as_killed_and_an_explained_survivor_apart() -> None:
    per = collect(LINES)
    assert counts(per["rail"], EXPLAINED_NOW) == {"killed": 2, "explained": 1, "unexplained": 1}
    assert counts(per["supply"], EXPLAINED_NOW) == {"killed": 1, "other": 1}


def test_the_table_gives_each_module_and_the_total() -> None:
    assert table(collect(LINES), EXPLAINED_NOW).splitlines()[2:] == [
        "| rail | 4 | 2 | 1 | 1 | 0 | 50.0 |",
        "| supply | 2 | 1 | 0 | 0 | 1 | 50.0 |",
        "| **all** | 6 | 3 | 1 | 1 | 1 | 50.0 |",
    ]


def test_only_survivors_without_a_reason_are_listed() -> None:
    assert unexplained(collect(LINES), EXPLAINED_NOW) == ["kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_2"]


def test_an_explained_name_that_no_longer_survives_is_stale() -> None:
    explained = dict(EXPLAINED_NOW, **{"kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_1": "equivalent",
                                       "kiev_tui.games.spi_kiev.rail.x_gone__mutmut_7": "equivalent"})
    assert stale(collect(LINES), explained) == ["kiev_tui.games.spi_kiev.rail.x_check_rail__mutmut_1",
                                                "kiev_tui.games.spi_kiev.rail.x_gone__mutmut_7"]
    assert stale(collect(LINES), EXPLAINED_NOW) == []


def test_a_mutant_must_name_a_reason_that_exists(tmp_path: Path) -> None:
    p = tmp_path / "explained.toml"
    p.write_text('[reasons]\nmemo = "a memo key"\n[mutants]\n"m__mutmut_1" = "memo"\n"m__mutmut_2" = "nope"\n')
    with pytest.raises(ValueError, match="m__mutmut_2 names reason 'nope'"):
        load_explained(p)
    p.write_text('[reasons]\nmemo = "a memo key"\n[mutants]\n"m__mutmut_1" = "memo"\n')
    assert load_explained(p) == {"m__mutmut_1": "a memo key"}


def test_the_projects_explanations_file_reads() -> None:
    # Every reason it names exists, and every name is a mutant of a rules module.
    explained = load_explained(EXPLAINED)
    assert all(name.startswith("kiev_tui.games.spi_kiev.") and "__mutmut_" in name for name in explained)
