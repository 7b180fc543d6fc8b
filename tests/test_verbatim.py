"""No rulebook sentence is copied into the project: everything is in our own words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT.parent / "shared" / "tools" / "verbatim_check.py"


def test_no_rulebook_passage_is_copied() -> None:
    if not CHECKER.is_file():
        pytest.skip(f"{CHECKER} is absent: the rulebooks and their checker live outside this repository")
    result = subprocess.run(
        [sys.executable, str(CHECKER), "--repo", "."], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
