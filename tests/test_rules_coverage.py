"""Every case of every rulebook is in the rules reference, once."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from kiev_tui.rulesref import coverage
from kiev_tui.rulesref.coverage import BOOK_FILES, book_case_ids, missing_cases
from kiev_tui.rulesref.model import (
    GAMES,
    default_data_dir,
    default_rulebooks_dir,
    load_reference,
    normalize_id,
    rules_files,
)

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
TOY_BOOK = FIXTURES / "books" / "toy-book.txt"


# -- the case finder, on a toy book --------------------------------------------------------

def test_book_case_ids_on_a_toy_book() -> None:
    ids = book_case_ids(TOY_BOOK, playbook_after_line=6)
    # the contents list comes first; repeats are dropped; "Playbook" on line 6 is the contents
    # entry (not past the threshold), the one on line 17 starts the playbook
    assert ids == ["9.0", "10.0", "1", "9.66", "9.67", "9.7", "9.78", "10.13", "PB 3.1", "PB 3.11a"]


def test_playbook_switch_only_after_the_threshold(tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    lines = ["Playbook", "1.1 Early"] + ["filler"] * 2000 + ["  Playbook  ", "1.1 Late", "2.0 Later"]
    book.write_text("\n".join(lines))
    assert book_case_ids(book) == ["1.1", "PB 1.1", "PB 2.0"]
    assert book_case_ids(book, playbook_after_line=10_000) == ["1.1", "2.0"]


def test_missing_cases_with_fixtures() -> None:
    missing = missing_cases("spi_kiev", FIXTURES, FIXTURES / "books")
    assert missing == ["1", "3.1", "3.11a"]  # this toy book is too short for a playbook


def test_coverage_main_reports_and_sets_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert coverage.main(["chess"]) == 2
    assert "unknown game" in capsys.readouterr().err


# -- the real books -------------------------------------------------------------------------

def raw_ids(game: str) -> list[tuple[str, str]]:
    """(id, file name) of every [[case]], read straight from the TOML files."""
    out = []
    for path in rules_files(game):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        out.extend((normalize_id(str(c.get("id", ""))), path.name) for c in doc.get("case", []))
    return out


def require_game(game: str) -> Path:
    rulebook = default_rulebooks_dir() / BOOK_FILES[game]
    if not rulebook.is_file():
        pytest.skip(f"rulebook {rulebook} is absent")
    if not rules_files(game):
        pytest.skip(f"{default_data_dir() / game / 'rules.toml'} does not exist yet")
    return rulebook


@pytest.mark.parametrize("game", GAMES)
def test_reference_ids_are_unique(game: str) -> None:
    require_game(game)
    entries = raw_ids(game)
    counts = Counter(cid for cid, _ in entries)
    dupes = {cid: [f for c, f in entries if c == cid] for cid, n in counts.items() if n > 1}
    assert not dupes, f"{game}: case ids defined more than once: {dupes}"


@pytest.mark.parametrize("game", GAMES)
def test_every_book_case_is_in_the_reference(game: str) -> None:
    rulebook = require_game(game)
    book = load_reference(game)
    assert book.source == rulebook.name, f"{game}: [book].source should be {rulebook.name}"
    have = set(book.ids)
    missing = [cid for cid in book_case_ids(rulebook) if cid not in have]
    assert not missing, f"{game}: {len(missing)} case(s) of {rulebook.name} missing: {' '.join(missing)}"
