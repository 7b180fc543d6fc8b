"""`kiev-tui rules ...` answered without Typer, Rich or the engine (issue 19).

`run(args)` reads the same options as the Typer command in cli.py and prints the same
text.  Anything it does not read with certainty (--help, an unknown or malformed option, a
stray argument, `--`) returns None, and the caller hands the whole command line to Typer,
whose messages for such mistakes stay the reference.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kiev_tui.rulesref.model import GAMES, RuleBook, RulesDataError, load_reference
from kiev_tui.rulesref.search import search

_VALUE_OPTIONS = {"--game": "game", "-g": "game", "--search": "query", "-s": "query",
                  "--limit": "limit", "-n": "limit", "--data-dir": "data_dir"}
_FLAG_OPTIONS = {"--all": "all_games"}
# below this width Rich's cropping of indented lines comes into play: leave it to Rich
_MIN_WIDTH = 30


class _Fail(Exception):
    """One line for stderr, then exit 2 (as cli._Fail)."""


def parse(args: list[str]) -> dict[str, object] | None:
    """The options as the Typer command would receive them, or None when Typer must judge."""
    opts: dict[str, object] = {"case": None, "game": "spi_kiev", "query": None, "all_games": False,
                               "limit": 20, "data_dir": None}
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("-") and arg != "-":
            name, eq, value = arg.partition("=")
            if name in _FLAG_OPTIONS and not eq:
                opts[_FLAG_OPTIONS[name]] = True
                continue
            if name in _VALUE_OPTIONS and name.startswith("--"):
                if not eq:
                    if i >= len(args):
                        return None
                    value = args[i]
                    i += 1
            elif len(arg) > 2 and arg[:2] in _VALUE_OPTIONS and not arg.startswith("--"):
                name, value = arg[:2], arg[2:]  # "-n5", "-gefs_ktr"
            elif arg in _VALUE_OPTIONS:
                if i >= len(args):
                    return None
                value = args[i]
                i += 1
            else:
                return None  # --help, --, unknown options: Typer's business
            key = _VALUE_OPTIONS[name]
            if value.startswith("-"):
                return None  # "--search -x": how the parser takes it is Typer's call
            if key == "limit":
                text = value.strip()
                if not (text.lstrip("+-").isdigit() and text.isascii()):
                    return None  # click's own message for a bad number
                opts[key] = int(text)
            elif key == "data_dir":
                if not value:
                    return None
                opts[key] = Path(value)
            else:
                opts[key] = value
        else:
            positional.append(arg)
    if len(positional) > 1:
        return None
    if positional:
        opts["case"] = positional[0]
    return opts


def run(args: list[str]) -> int | None:
    """Answer `kiev-tui rules ARGS`: the exit status, or None to let the Typer command do it."""
    opts = parse(args)
    if opts is None:
        return None
    from kiev_tui.rulesref import textout

    width = textout.console_width()
    if width < _MIN_WIDTH:
        return None
    try:
        code = _answer(opts, width, textout.styled_output())
        sys.stdout.flush()
        return code
    except _Fail as exc:
        sys.stdout.flush()
        print(str(exc), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `| head`: as Rich does, stop quietly with status 1
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _load(game: str, data_dir: Path | None) -> RuleBook:
    if game not in GAMES:
        raise _Fail(f"rules: unknown game {game!r} (choose from {', '.join(GAMES)})")
    try:
        return load_reference(game, data_dir, index=False)
    except RulesDataError as exc:
        raise _Fail(f"rules: {exc}") from None


def _answer(opts: dict[str, object], width: int, styled: bool) -> int:
    from kiev_tui.rulesref import textout

    case, game, query = opts["case"], str(opts["game"]), opts["query"]
    data_dir = opts["data_dir"] if isinstance(opts["data_dir"], Path) else None
    if case is not None and query is not None:
        raise _Fail("rules: give a case number or --search, not both")
    if query is not None:
        query = str(query)
        if opts["all_games"]:
            books = []
            for g in GAMES:
                try:
                    books.append(load_reference(g, data_dir, index=False))
                except RulesDataError as exc:
                    print(f"rules: skipping {g}: {exc}", file=sys.stderr)
            if not books:
                raise _Fail("rules: no game has a rules reference to search")
        else:
            books = [_load(game, data_dir)]
        hits = search(query, books, limit=max(1, int(opts["limit"])))  # type: ignore[call-overload]
        where = books[0].game if len(books) == 1 else "all games"
        show_game = len(books) > 1
        if textout.hits_render(hits) and textout.simple_text(query) and textout.simple_text(where):
            _write(textout.search_lines(hits, where, query, width, show_game), styled)
        else:
            from kiev_tui.rulesref import richout

            richout.print_hits(richout.make_console(), hits, where, query, show_game)
        return 0
    book = _load(game, data_dir)
    if case is None:
        if all(textout.simple_text(t) for t in (book.title, *(c.id + c.title for c in book.top_level()))):
            _write(textout.contents_lines(book, width), styled)
        else:
            from kiev_tui.rulesref import richout

            richout.print_contents(richout.make_console(), book)
        return 0
    case = str(case)
    if case not in book:
        raise _Fail(f"rules: no case {case!r} in {game} (try --search WORDS, or --game)")
    if textout.can_render(book.section(case)):
        _write(textout.section_lines(book, case, width, styled), styled)
    else:  # a character of another width: Rich measures it
        from kiev_tui.rulesref import richout

        richout.print_case(richout.make_console(), book, case)
    return 0


def _write(lines: list[list[tuple[str, tuple[str, ...]]]], styled: bool) -> None:
    from kiev_tui.rulesref import textout

    sys.stdout.write(textout.to_text(lines, styled))
