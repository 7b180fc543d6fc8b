"""tables.toml fields are matched whole: a final newline or non-ASCII digits never pass (issue 13, 14)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.games.spi_kiev.tables import check_combat_values, check_tables

TABLES = Path(__file__).resolve().parents[1] / "data" / "spi_kiev" / "tables.toml"


def _tables() -> dict[str, Any]:
    return copy.deepcopy(load_toml(TABLES))


def test_the_shipped_tables_pass() -> None:
    assert check_tables(TABLES, _tables()) is not None


@pytest.mark.parametrize("column", ["3-1\n", "\u0663-1"])  # a final newline; an Arabic-Indic three
def test_an_odds_column_must_be_ascii_digits_and_nothing_more(column: str) -> None:
    data = _tables()
    data["crt"]["columns"][0] = column
    with pytest.raises(DataError) as err:
        check_tables(TABLES, data)
    assert err.value.key == "crt.columns[0]"


def test_a_crt_result_with_a_final_newline_is_refused() -> None:
    data = _tables()
    data["crt"]["row"][0]["results"][0] = "-/1\n"
    with pytest.raises(DataError) as err:
        check_tables(TABLES, data)
    assert err.value.key.endswith("results[0]")


@pytest.mark.parametrize("hex_id", ["0319\n", "\u0660\u0663\u0661\u0669"])
def test_a_special_defence_hex_must_be_four_ascii_digits(hex_id: str) -> None:
    data = _tables()
    data["tec"]["hex_defense"][hex_id] = 3
    with pytest.raises(DataError) as err:
        check_combat_values(TABLES, data)
    assert "not a hex id" in err.value.reason
