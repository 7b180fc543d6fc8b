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
    """A case's table: boxed and padded when that fits, else drawn narrow, else in blocks.

    A chart such as the CRT (13 columns) does not fit a 70-column panel padded: Rich folded
    "10-1" and "-/E" over two lines.  Narrow means no outer edge and one space between cells,
    so every short entry stays whole on one line.  Where even that is too wide (the rules
    screen at 80x24), the columns go in blocks one under the other, each led by the first.
    """

    def __init__(self, data: Table) -> None:
        self.data = data

    @property
    def width(self) -> int:
        data = self.data
        return len(data.header) if data.header else (len(data.rows[0]) if data.rows else 0)

    def _build(self, narrow: bool, columns: list[int] | None = None) -> RichTable:
        data = self.data
        names = data.header or [""] * self.width
        if narrow:
            table = RichTable(box=box.ASCII, show_header=bool(data.header), show_edge=False, pad_edge=False,
                              collapse_padding=True, padding=(0, 1))
        else:
            table = RichTable(box=box.ASCII, show_header=bool(data.header))
        chosen = columns if columns is not None else list(range(self.width))
        for i in chosen:
            name = names[i]
            longest = max([len(name)] + [len(row[i]) for row in data.rows if i < len(row)])
            # short cells never fold; a long text column may still wrap
            table.add_column(name, no_wrap=narrow and longest <= 8, min_width=min(longest, 8) if narrow else None,
                             overflow="fold")
        for row in data.rows:
            table.add_row(*[row[i] if i < len(row) else "" for i in chosen])
        return table

    @staticmethod
    def _need(console: Console, options: ConsoleOptions, table: RichTable) -> int:
        return table.__rich_measure__(console, options.update_width(10_000)).maximum

    def _blocks(self, console: Console, options: ConsoleOptions) -> list[list[int]]:
        """The columns split into blocks that each fit the width, the first (the row labels, such
        as the CRT's die roll) repeated at the head of every block."""
        rest, blocks = list(range(1, self.width)), []
        while rest:
            take = 1
            while take < len(rest) and self._need(console, options, self._build(True, [0] + rest[:take + 1])) \
                    <= options.max_width:
                take += 1
            blocks.append([0] + rest[:take])
            rest = rest[take:]
        return blocks

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        boxed = self._build(narrow=False)
        if self._need(console, options, boxed) <= options.max_width:
            yield boxed
            return
        narrow = self._build(narrow=True)
        if self._need(console, options, narrow) <= options.max_width or self.width <= 2:
            yield narrow
            return
        # Still too wide (the CRT in an 80-column window): the columns in two or more blocks, one
        # under the other, so every column can be read without scrolling sideways.
        for n, block in enumerate(self._blocks(console, options)):
            if n:
                yield Text("")
            yield self._build(narrow=True, columns=block)


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
