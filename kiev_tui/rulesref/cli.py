"""`kiev-tui rules`: print a case, a whole section, or search the rules reference.

This Typer command gives `--help` and the reference behaviour; the console script
(kiev_tui/entry.py) answers well-formed look-ups itself, faster, with the same output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from kiev_tui.rulesref.model import GAMES, RuleBook, RulesDataError, load_reference
from kiev_tui.rulesref.richout import MAX_WIDTH, make_console, print_case, print_contents, print_hits
from kiev_tui.rulesref.search import search


class _Fail(Exception):
    """One line for stderr, then exit 2."""


def _load(game: str, data_dir: Path | None) -> RuleBook:
    if game not in GAMES:
        raise _Fail(f"rules: unknown game {game!r} (choose from {', '.join(GAMES)})")
    try:
        return load_reference(game, data_dir, index=False)  # a search builds it when it needs it
    except RulesDataError as exc:
        raise _Fail(f"rules: {exc}") from None


def _print_search(console: Console, books: list[RuleBook], query: str, limit: int) -> None:
    hits = search(query, books, limit=limit)
    where = books[0].game if len(books) == 1 else "all games"
    print_hits(console, hits, where, query, show_game=len(books) > 1)


def rules(
    case: Annotated[
        Optional[str], typer.Argument(help="A case number: 9.66, 9.6 (whole section), 'PB 3.1'.")
    ] = None,
    game: Annotated[
        str, typer.Option("--game", "-g", help=f"Which rulebook: {', '.join(GAMES)}.")
    ] = "spi_kiev",
    query: Annotated[
        Optional[str], typer.Option("--search", "-s", help="Find cases by words, best first.")
    ] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Search every game's rulebook.")] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many hits.")] = 20,
    data_dir: Annotated[
        Optional[Path], typer.Option("--data-dir", hidden=True, help="Folder holding data/<game>.")
    ] = None,
) -> None:
    """Read the rules reference: a case by number, a section, or a word search."""
    try:
        if case is not None and query is not None:
            raise _Fail("rules: give a case number or --search, not both")
        console = make_console()
        if query is not None:
            if all_games:
                books = []
                for g in GAMES:
                    try:
                        books.append(load_reference(g, data_dir, index=False))
                    except RulesDataError as exc:
                        typer.echo(f"rules: skipping {g}: {exc}", err=True)
                if not books:
                    raise _Fail("rules: no game has a rules reference to search")
            else:
                books = [_load(game, data_dir)]
            _print_search(console, books, query, max(1, limit))
            return
        book = _load(game, data_dir)
        if case is None:
            print_contents(console, book)
            return
        if case not in book:
            raise _Fail(f"rules: no case {case!r} in {game} (try --search WORDS, or --game)")
        print_case(console, book, case)
    except _Fail as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(code=2) from None


def register(app: typer.Typer) -> None:
    """Add the `rules` command to the main CLI."""
    app.command("rules")(rules)
