"""Every rule case the SPI Kiev engine can cite (refusals, modifiers, eliminations) exists in
the rules reference, so a player can always look it up."""

from __future__ import annotations

import re
from pathlib import Path

from kiev_tui.rulesref.model import load_reference

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "kiev_tui" / "games" / "spi_kiev").glob("*.py")) + [ROOT / "kiev_tui" / "engine" / "game.py",
                                                                     ROOT / "kiev_tui" / "engine" / "game_more.py"]
PATTERNS = [
    re.compile(r'Illegal\(\s*"([0-9]+\.[0-9]+)"'),
    re.compile(r'Modifier\(\s*"([0-9]+\.[0-9]+)"'),
    re.compile(r'eliminate\([^)]*?"([0-9]+\.[0-9]+)"'),
    re.compile(r'lose_step\([^)]*?"([0-9]+\.[0-9]+)"'),
    re.compile(r'case = "([0-9]+\.[0-9]+)"'),
    re.compile(r'\("([0-9]+\.[0-9]+)", "[^"]+"\)'),  # (case, reason) pairs in reachable()
]


def cited_cases() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in SOURCES:
        text = path.read_text()
        for pat in PATTERNS:
            for m in pat.finditer(text):
                found.setdefault(m.group(1), set()).add(path.name)
    return found


def test_the_engine_cites_many_cases() -> None:
    cited = cited_cases()
    assert len(cited) > 60
    assert {"8.21", "10.13", "19.51", "9.74", "19.52"} <= set(cited)


def test_every_case_the_engine_cites_is_in_the_reference() -> None:
    book = load_reference("spi_kiev")
    missing = {case: sorted(files) for case, files in cited_cases().items() if case not in book}
    assert not missing, f"cases cited by the engine but absent from data/spi_kiev/rules.toml: {missing}"
