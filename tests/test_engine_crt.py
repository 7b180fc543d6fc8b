"""The engine's one CRT reader (kiev_tui/engine/crt.py): odds and differential columns."""

from __future__ import annotations

import pytest

from kiev_tui.engine.crt import DIFFERENTIAL, CombatTable, column_value

KIEV = CombatTable(("1-3", "1-2", "1-1", "2-1", "3-1"), above_highest="3-1", below_lowest="1-3")
B41 = CombatTable(("1:3", "1:2", "1:1", "3:2", "2:1"), die_min=1, die_max=6)
DIFF = CombatTable(("-2", "-1", "0", "+1", "+2"), DIFFERENTIAL, die_min=0, die_max=10)


@pytest.mark.parametrize("a, d, column", [(5, 3, "3:2"), (4, 3, "1:1"), (2, 5, "1:3"), (1, 4, "1:3"),
                                          (30, 1, "2:1"), (0, 3, "1:3"), (3, 0, "2:1"), (29, 10, "2:1")])
def test_odds_round_for_the_defender_and_clamp(a: int, d: int, column: str) -> None:
    assert B41.column(a, d) == column


def test_the_last_column_serves_ratios_up_to_the_next_whole_step_then_the_clamp() -> None:
    t = CombatTable(("1-2", "1-1", "2-1", "3-1"), above_highest="2-1", below_lowest="1-1")
    assert [t.column(a, 1) for a in (2, 3, 3.9, 4)] == ["2-1", "3-1", "3-1", "2-1"]
    assert t.column(1, 3) == "1-1"


@pytest.mark.parametrize("a, d, column", [(3, 5, "-2"), (1, 9, "-2"), (4, 5, "-1"), (5, 5, "0"), (7, 5, "+2"),
                                          (30, 5, "+2")])
def test_differential_columns_read_attack_minus_defence(a: int, d: int, column: str) -> None:
    assert DIFF.column(a, d) == column


def test_shifts_stop_at_the_ends_and_rolls_clamp_to_the_rows() -> None:
    assert KIEV.shifted(KIEV.column_index(2, 1), 5) == 4
    assert KIEV.shifted(KIEV.column_index(2, 1), -9) == 0
    assert [B41.row(d) for d in (-3, 1, 6, 9)] == [1, 1, 6, 6]
    assert [DIFF.row(d) for d in (-1, 0, 10, 12)] == [0, 0, 10, 10]
    assert B41.cell_index(5, 3, shift=1, die=8) == (4, 6)


def test_bad_tables_are_refused() -> None:
    assert column_value("3:2") == 1.5 and column_value("+2", DIFFERENTIAL) == 2
    with pytest.raises(ValueError, match="not an odds column"):
        CombatTable(("1-0",))
    with pytest.raises(ValueError, match="defender's best"):
        CombatTable(("2-1", "1-1"))
    with pytest.raises(ValueError, match="not one of the CRT's columns"):
        CombatTable(("1-1", "2-1"), above_highest="3-1")
    with pytest.raises(ValueError, match="empty"):
        CombatTable(("1-1",), die_min=6, die_max=1)
