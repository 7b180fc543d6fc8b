"""`kiev-tui rules` output drawn by Rich: the Typer command's printer, and the fast path's for tables.

No Typer here, so the fast entry (kiev_tui/entry.py) can print a case with a table through
Rich without paying for the command-line framework.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from kiev_tui.rulesref.model import RuleBook
from kiev_tui.rulesref.render import render_case, render_hit
from kiev_tui.rulesref.search import Hit

MAX_WIDTH = 80


def make_console() -> Console:
    width = min(Console().width, MAX_WIDTH)
    return Console(width=width, highlight=False, emoji=False)


def print_case(console: Console, book: RuleBook, ref: str) -> None:
    cases = book.section(ref)
    for n, case in enumerate(cases):
        if n:
            console.print()
        console.print(render_case(case))


def print_contents(console: Console, book: RuleBook) -> None:
    console.print(Text(book.title, style="bold"))
    for case in book.top_level():
        console.print(Text.assemble((f"{case.id:>8}", "bold"), "  ", case.title))
    console.print(Text("kiev-tui rules CASE prints a case; --search WORDS finds cases.", style="italic"))


def print_hits(console: Console, hits: list[Hit], where: str, query: str, show_game: bool) -> None:
    if not hits:
        console.print(Text(f"No case in {where} matches {query!r}."))
        return
    noun = "case" if len(hits) == 1 else "cases"
    console.print(Text(f"{len(hits)} {noun} in {where} matching {query!r}, best first:", style="bold"))
    for hit in hits:
        console.print(render_hit(hit, console.width, show_game=show_game))
