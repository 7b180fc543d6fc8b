"""Which rulebook cases the reference still lacks.

The case numbers of a rulebook are whatever CASE_RE finds at the start of its lines. In the
EFS book everything after the line that reads exactly "Playbook" (past the table of
contents) belongs to the playbook, whose cases we write as "PB 3.1".

Run `python -m kiev_tui.rulesref.coverage [--notes] [game ...]` to list the missing ids
(`--notes` adds references to absent cases); the exit status is 1 when some are missing,
2 when a file cannot be read.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from kiev_tui.rulesref.model import (
    GAMES,
    RulesDataError,
    default_rulebooks_dir,
    load_reference,
)

CASE_RE = re.compile(
    r"^\s*(?:(?:[-•*]|>>)\s*)*\[?(\d{1,2}(?:\.\d{1,2}){1,2}[a-z]?|\d{1,2}(?=\s+[-–]\s))\]?(?=[\s:.)\]]|$)"
)

# the EFS table of contents has its own "Playbook" line near the top; skip it
PLAYBOOK_AFTER_LINE = 2000

# which rulebook file each game's reference covers (the [book] table says the same)
BOOK_FILES: dict[str, str] = {
    "spi_kiev": "spi-kiev-1979.txt",
    "barbarossa1941": "barbarossa-1941.txt",
    "efs_ktr": "efs-kiev-to-rostov.txt",
}


def book_case_ids(rulebook_path: Path, playbook_after_line: int = PLAYBOOK_AFTER_LINE) -> list[str]:
    """Every case id of a rulebook, each once, in order of first appearance."""
    ids: list[str] = []
    seen: set[str] = set()
    prefix = ""
    text = Path(rulebook_path).read_text(encoding="utf-8", errors="replace")
    for lineno, line in enumerate(text.splitlines(), 1):
        if lineno > playbook_after_line and line.strip() == "Playbook":
            prefix = "PB "
            continue
        m = CASE_RE.match(line)
        if m:
            cid = prefix + m.group(1)
            if cid not in seen:
                seen.add(cid)
                ids.append(cid)
    return ids


def rulebook_path(game: str, rulebooks_dir: Path | None = None) -> Path:
    return (rulebooks_dir or default_rulebooks_dir()) / BOOK_FILES[game]


def missing_cases(
    game: str, data_dir: Path | None = None, rulebooks_dir: Path | None = None
) -> list[str]:
    """Case ids the rulebook has and the game's reference lacks, in book order."""
    book = load_reference(game, data_dir)
    # the [book] table names the source; fall back on the known file name
    folder = rulebooks_dir or default_rulebooks_dir()
    source = folder / book.source if book.source else rulebook_path(game, folder)
    have = set(book.ids)
    return [cid for cid in book_case_ids(source) if cid not in have]


def main(argv: list[str] | None = None) -> int:
    args = list(argv if argv is not None else sys.argv[1:])
    # --notes also lists `parent` and `see` references that point at no case
    notes = "--notes" in args
    games = [a for a in args if a != "--notes"] or list(GAMES)
    status = 0
    for game in games:
        if game not in BOOK_FILES:
            print(f"coverage: unknown game {game!r} (known: {', '.join(GAMES)})", file=sys.stderr)
            return 2
        try:
            book = load_reference(game)
            missing = missing_cases(game)
        except (RulesDataError, OSError) as exc:
            print(f"coverage: {game}: {exc}", file=sys.stderr)
            status = 2
            continue
        total = len(book_case_ids(default_rulebooks_dir() / book.source))
        print(f"{game}: {total - len(missing)}/{total} cases present, {len(book)} in the reference")
        if missing:
            status = max(status, 1)
            print("  missing: " + " ".join(missing))
        for cid, key, ref in book.dangling() if notes else []:
            print(f"  note: {cid} {key} -> {ref} is not in the reference")
    return status


if __name__ == "__main__":
    sys.exit(main())
