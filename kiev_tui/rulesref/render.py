"""Rich renderings of cases and search hits, shared by the CLI and the Textual screen."""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text

from kiev_tui.rulesref.model import Case, Table
from kiev_tui.rulesref.search import Hit, Span

HIGHLIGHT = "bold underline"  # reads without colour, and in NO_COLOR terminals
EXCERPT_INDENT = 4


def marked(text: str, spans: tuple[Span, ...] | list[Span], base: str = "") -> Text:
    """Text with the given character spans highlighted."""
    out = Text(text, style=base)
    for start, end in spans:
        out.stylize(HIGHLIGHT, start, end)
    return out


class _Indented:
    """A renderable shifted right, its lines not padded out with trailing spaces."""

    def __init__(self, renderable: RenderableType, by: int) -> None:
        self.renderable = renderable
        self.by = by

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        inner = options.update_width(max(10, options.max_width - self.by))
        for line in console.render_lines(self.renderable, inner, pad=False):
            while line and not line[-1].text.strip():  # drop trailing blank segments
                line.pop()
            if line and line[-1].text != line[-1].text.rstrip():
                last = line.pop()
                line.append(Segment(last.text.rstrip(), last.style))
            if line:  # a blank line stays empty, without indent spaces
                yield Segment(" " * self.by)
                yield from line
            yield Segment.line()


def _indent(renderable: RenderableType, by: int = 2) -> _Indented:
    return _Indented(renderable, by)


class _FittedTable:
    """A case's table: boxed and padded when that fits, else drawn narrow.

    A chart such as the CRT (13 columns) does not fit a 70-column panel padded: Rich folded
    "10-1" and "-/E" over two lines.  Narrow means no outer edge and one space between cells,
    so every short entry stays whole on one line.
    """

    def __init__(self, data: Table) -> None:
        self.data = data

    def _build(self, narrow: bool) -> RichTable:
        data = self.data
        width = len(data.header) if data.header else (len(data.rows[0]) if data.rows else 0)
        if narrow:
            table = RichTable(box=box.ASCII, show_header=bool(data.header), show_edge=False, pad_edge=False,
                              collapse_padding=True, padding=(0, 1))
        else:
            table = RichTable(box=box.ASCII, show_header=bool(data.header))
        for i, name in enumerate(data.header or [""] * width):
            longest = max([len(name)] + [len(row[i]) for row in data.rows if i < len(row)])
            # short cells never fold; a long text column may still wrap
            table.add_column(name, no_wrap=narrow and longest <= 8, min_width=min(longest, 8) if narrow else None,
                             overflow="fold")
        for row in data.rows:
            table.add_row(*row)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        boxed = self._build(narrow=False)
        need = boxed.__rich_measure__(console, options.update_width(10_000)).maximum
        yield boxed if need <= options.max_width else self._build(narrow=True)


def render_table(data: Table) -> RenderableType:
    """A case's table, boxed when it fits the width it is drawn in, narrow when not."""
    return _FittedTable(data)


def render_case(case: Case, spans: tuple[Span, ...] = (), show_see: bool = True) -> RenderableType:
    """A case as it prints: heading, text, optional table, and its cross-references."""
    heading = Text.assemble((case.id, "bold"), "  ", (case.title, "bold"))
    if case.reconstructed:
        heading.append("  (reconstructed)", style="italic")
    parts: list[RenderableType] = [heading]
    if case.text:
        parts.append(_indent(marked(case.flowing_text, spans)))
    if case.table is not None:
        parts.append(_indent(render_table(case.table)))
    if case.see and show_see:
        parts.append(_indent(Text("See: " + ", ".join(case.see), style="italic")))
    return Group(*parts)


def render_hit(hit: Hit, width: int, show_game: bool) -> RenderableType:
    """Two lines per hit: id and title (matches marked), then one line of text around a match."""
    first = Text()
    if show_game:
        first.append(f"{hit.game}  ", style="dim")
    first.append(hit.case.id, style="bold")
    first.append("  ")
    first.append_text(marked(hit.case.title, hit.title_spans))
    excerpt, spans = hit.excerpt(max(20, width - EXCERPT_INDENT))
    second = _indent(marked(excerpt, spans), EXCERPT_INDENT)
    return Group(first, second)
