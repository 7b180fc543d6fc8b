"""The rules reference as terminal text without Rich: the output `kiev-tui rules` prints.

`kiev-tui rules` first printed through Rich, and importing Rich costs more than the whole
look-up should.  This module lays out the same text the same way (Rich's word wrap: words
keep their trailing spaces, a word longer than the line is folded, the indented parts drop
trailing blanks) and writes the same bytes: plain text on a pipe, SGR bold/dim/italic/
underline codes on a terminal.  tests/test_rules_fast.py compares it with the Rich output
for every case and for searches at several widths.

Tables are Rich's drawing, kept in the data cache (table_lines); text holding characters
whose width on screen is not one cell is left to Rich (`can_render` says so).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Iterable, Mapping, Sequence

from kiev_tui.rulesref.model import Case, RuleBook, Table
from kiev_tui.rulesref.search import Hit, Span

# SGR codes for the styles the reference uses; Rich writes them in this (numeric) order.
BOLD, DIM, ITALIC, UNDERLINE = "1", "2", "3", "4"
HIGHLIGHT = (BOLD, UNDERLINE)  # render.HIGHLIGHT, "bold underline"
EXCERPT_INDENT = 4  # render.EXCERPT_INDENT
MAX_WIDTH = 80  # cli.MAX_WIDTH

# Characters one cell wide: Rich's own list of ranges, plus the dashes and bullets our texts use.
_ONE_CELL = frozenset(
    chr(c)
    for lo, hi in ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482), (0x2010, 0x2027),
                   (0x2030, 0x205E), (0x2500, 0x25FC), (0x2800, 0x28FF))
    for c in range(lo, hi + 1)
)
_WORD_RE = re.compile(r"\s*\S+\s*")  # a word with the blanks around it, as Rich splits lines

Segment = tuple[str, tuple[str, ...]]  # text, SGR codes
Line = list[Segment]
StyleSpan = tuple[int, int, tuple[str, ...]]
DRAWN: tuple[str, ...] = ("drawn",)  # a line Rich drew, escape codes and all: written as it is


def simple_text(text: str) -> bool:
    """True when every character is one cell wide (newlines allowed): our widths are then exact."""
    return _ONE_CELL.issuperset(text.replace("\n", ""))


def can_render(cases: Iterable[Case]) -> bool:
    """Whether these cases print here exactly as through Rich: their words one cell wide each
    (tables are Rich's own drawing, kept in the data cache: see table_lines)."""
    return all(
        simple_text(case.id) and simple_text(case.title) and simple_text(case.text)
        and all(simple_text(ref) for ref in case.see)
        for case in cases
    )


# -- where the output goes -----------------------------------------------------------------

def _is_terminal(env: Mapping[str, str]) -> bool:
    """Rich's Console.is_terminal for stdout, from the same environment variables."""
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = env.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    try:
        return sys.stdout.isatty()
    except (ValueError, AttributeError):
        return False


def _dumb(env: Mapping[str, str]) -> bool:
    return env.get("TERM", "").lower() in ("dumb", "unknown")


def styled_output(environ: Mapping[str, str] | None = None) -> bool:
    """Whether Rich would write styles to stdout: a terminal (or one forced on) that is not dumb."""
    env = os.environ if environ is None else environ
    return _is_terminal(env) and not _dumb(env)


def console_width(environ: Mapping[str, str] | None = None) -> int:
    """`min(Console().width, MAX_WIDTH)` as the Typer command computes it, without Rich."""
    env = os.environ if environ is None else environ
    columns, lines = env.get("COLUMNS"), env.get("LINES")
    has_columns = columns is not None and columns.isdigit()
    if has_columns and lines is not None and lines.isdigit():
        width = int(columns)  # type: ignore[arg-type]
    elif _dumb(env) and _is_terminal(env):
        width = 80
    else:
        width = 0
        for fd in (0, 1, 2):  # the first standard stream that is a terminal says how wide
            try:
                width = os.get_terminal_size(fd).columns
            except (AttributeError, ValueError, OSError):
                continue
            break
        if has_columns:
            width = int(columns)  # type: ignore[arg-type]
        width = width or 80
    return min(width, MAX_WIDTH)


# -- layout --------------------------------------------------------------------------------

def _break_offsets(text: str, width: int) -> list[int]:
    """Where one paragraph breaks into lines (rich._wrap.divide_line with folding)."""
    breaks: list[int] = []
    used = 0
    for m in _WORD_RE.finditer(text):
        start, word = m.start(), m.group()
        length = len(word.rstrip())
        if width - used >= length:
            used += len(word)
        elif length > width:  # a word longer than the line: folded over several lines
            pieces = [word[i : i + width] for i in range(0, len(word), width)]
            for n, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if n == len(pieces) - 1:
                    used = len(piece)
                else:
                    start += len(piece)
        elif used and start:
            breaks.append(start)
            used = len(word)
    return breaks


def _segments(text: str, lo: int, hi: int, spans: Sequence[StyleSpan]) -> Line:
    """text[lo:hi] cut at every style boundary inside it, each piece with its combined codes."""
    cuts = {lo, hi}
    for s, e, _ in spans:
        if lo < s < hi:
            cuts.add(s)
        if lo < e < hi:
            cuts.add(e)
    points = sorted(cuts)
    out: Line = []
    for a, b in zip(points, points[1:]):
        codes: set[str] = set()
        for s, e, style in spans:
            if s <= a and b <= e:
                codes.update(style)
        out.append((text[a:b], tuple(sorted(codes, key=int))))
    return out


def wrap(text: str, width: int, spans: Sequence[StyleSpan] = (), style: tuple[str, ...] = ()) -> list[Line]:
    """A styled text laid out `width` wide, as Rich's Text.wrap (default justify, fold)."""
    if style:
        spans = [(0, len(text), style), *spans]
    out: list[Line] = []
    start = 0
    for para in text.split("\n"):
        end = start + len(para)
        bounds = [start, *(start + b for b in _break_offsets(para, width)), end]
        for lo, hi in zip(bounds, bounds[1:]):
            # a line may overrun only by the blanks after its last word (Rich trims those,
            # then crops): cropping alone leaves the same characters
            hi = min(hi, lo + width)
            out.append(_segments(text, lo, hi, spans) if hi > lo else [])
        start = end + 1
    return out


def indent(lines: list[Line], by: int) -> list[Line]:
    """Lines shifted right, their trailing blanks dropped, blank lines left empty (render._Indented)."""
    out: list[Line] = []
    for line in lines:
        line = [seg for seg in line if seg[0]]
        while line and not line[-1][0].strip():
            line.pop()
        if line and line[-1][0] != line[-1][0].rstrip():
            text, codes = line.pop()
            line.append((text.rstrip(), codes))
        out.append([(" " * by, ()), *line] if line else [])
    return out


def marked_spans(spans: Iterable[Span]) -> list[StyleSpan]:
    return [(s, e, HIGHLIGHT) for s, e in spans]


def case_lines(case: Case, width: int, spans: Sequence[Span] = (), styled: bool = False) -> list[Line]:
    """A case as render.render_case draws it: heading, text, table and cross-references."""
    head_spans: list[StyleSpan] = [(0, len(case.id), (BOLD,)), (len(case.id) + 2, len(case.id) + 2 + len(case.title), (BOLD,))]
    heading = f"{case.id}  {case.title}"
    if case.reconstructed:
        head_spans.append((len(heading), len(heading) + 17, (ITALIC,)))
        heading += "  (reconstructed)"
    lines = wrap(heading, width, head_spans)
    inner = max(10, width - 2)
    if case.text:
        lines += indent(wrap(case.flowing_text, inner, marked_spans(spans)), 2)
    if case.table is not None:
        lines += [[(text, DRAWN)] for text in table_lines(case.table, width, styled)]
    if case.see:
        lines += indent(wrap("See: " + ", ".join(case.see), inner, style=(ITALIC,)), 2)
    return lines


def section_lines(book: RuleBook, ref: str, width: int, styled: bool = False) -> list[Line]:
    """A case and everything under it, a blank line between cases."""
    out: list[Line] = []
    for n, case in enumerate(book.section(ref)):
        if n:
            out.append([])
        out += case_lines(case, width, styled=styled)
    return out


def table_lines(table: Table, width: int, styled: bool) -> list[str]:
    """A case's table as Rich draws it indented in a case (render._FittedTable), finished lines.

    Rich's column sizing is not redone here: Rich draws a table once, and the data cache keeps
    the lines, keyed by the table, the width, the styling, and the Rich and render.py sources
    that drew them.  Only the first look-up of a table at a width imports Rich.
    """
    import hashlib
    import importlib.util
    from pathlib import Path

    from kiev_tui.datacache import cached

    spec = importlib.util.find_spec("rich")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    if not places:
        return _draw_table(table, width, styled)
    rich_dir = Path(places[0])
    sources = [rich_dir / name for name in _RICH_SOURCES] + [Path(__file__).with_name("render.py")]
    digest = hashlib.sha256(repr((table.header, table.rows)).encode()).hexdigest()
    return cached(f"rulesref-table/{_TABLE_FORMAT}/{width}/{int(styled)}/{digest}", sources,
                  lambda: _draw_table(table, width, styled))


# The Rich modules whose code decides how a table looks: a Rich upgrade makes new entries.
_RICH_SOURCES = ("table.py", "console.py", "text.py", "_wrap.py", "cells.py", "box.py", "segment.py",
                 "padding.py", "measure.py", "_ratio.py", "style.py")
_TABLE_FORMAT = 1


def _draw_table(table: Table, width: int, styled: bool) -> list[str]:
    import io

    from rich.console import Console

    from kiev_tui.rulesref.render import _indent, render_table

    out = io.StringIO()
    # the console the Typer command used, minus what only colours depend on (tables have none)
    console = Console(file=out, width=width, force_terminal=styled, color_system="standard" if styled else None,
                      highlight=False, emoji=False, _environ={})
    console.print(_indent(render_table(table)))
    return out.getvalue().split("\n")[:-1]


def contents_lines(book: RuleBook, width: int) -> list[Line]:
    out = wrap(book.title, width, style=(BOLD,))
    for case in book.top_level():
        num = f"{case.id:>8}"
        out += wrap(f"{num}  {case.title}", width, [(0, len(num), (BOLD,))])
    out += wrap("kiev-tui rules CASE prints a case; --search WORDS finds cases.", width, style=(ITALIC,))
    return out


def search_lines(hits: list[Hit], where: str, query: str, width: int, show_game: bool) -> list[Line]:
    if not hits:
        return wrap(f"No case in {where} matches {query!r}.", width)
    noun = "case" if len(hits) == 1 else "cases"
    out = wrap(f"{len(hits)} {noun} in {where} matching {query!r}, best first:", width, style=(BOLD,))
    for hit in hits:
        out += hit_lines(hit, width, show_game)
    return out


def hit_lines(hit: Hit, width: int, show_game: bool) -> list[Line]:
    """Two lines per hit, as render.render_hit: id and title, then text around a match."""
    first = ""
    spans: list[StyleSpan] = []
    if show_game:
        first = f"{hit.game}  "
        spans.append((0, len(first), (DIM,)))
    spans.append((len(first), len(first) + len(hit.case.id), (BOLD,)))
    first += hit.case.id + "  "
    spans += [(len(first) + s, len(first) + e, HIGHLIGHT) for s, e in hit.title_spans]
    first += hit.case.title
    out = wrap(first, width, spans)
    excerpt, marks = hit.excerpt(max(20, width - EXCERPT_INDENT))
    out += indent(wrap(excerpt, max(10, width - EXCERPT_INDENT), marked_spans(marks)), EXCERPT_INDENT)
    return out


def hits_render(hits: list[Hit]) -> bool:
    """Whether these hits print here exactly (see can_render)."""
    return all(
        simple_text(h.game) and simple_text(h.case.id) and simple_text(h.case.title) and simple_text(h.case.text)
        for h in hits
    )


def to_text(lines: list[Line], styled: bool) -> str:
    """The lines as written to the terminal: SGR codes around styled pieces, or plain text."""
    out: list[str] = []
    for line in lines:
        for text, codes in line:
            if codes is DRAWN:
                out.append(text)
            elif styled and codes and text:
                out.append(f"\x1b[{';'.join(codes)}m{text}\x1b[0m")
            else:
                out.append(text)
        out.append("\n")
    return "".join(out)
