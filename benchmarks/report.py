"""The table `make bench` prints, and the small statistics its rows are made of.

Nothing here imports the game: the table and the statistics are tested on their own
(tests/test_bench_harness.py).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


@dataclass
class Row:
    """One line of the table: a figure, its floor, and the goal for their ratio (or the figure)."""

    figure: str
    value: float | None
    unit: str
    floor: float | None = None
    floor_what: str = ""
    goal: str = ""
    ok: bool | None = None  # None when there is no goal or nothing was measured
    note: str = ""
    pair_ratio: float | None = None  # the median of per-pair ratios, when figure and floor ran in pairs

    @property
    def ratio(self) -> float | None:
        if self.value is None:
            return None
        if self.pair_ratio is not None:
            return self.pair_ratio
        if not self.floor:
            return None
        return self.value / self.floor


def judge(row: Row, limit: float, on: str = "value") -> Row:
    """Mark `row` met when its value (on="value") or its ratio (on="ratio") is at most `limit`."""
    got = row.value if on == "value" else row.ratio
    row.ok = None if got is None else got <= limit
    return row


def failed(figure: str, unit: str, exc: BaseException | str, goal: str = "", floor_what: str = "") -> Row:
    """The row of a figure that could not be measured: the table still shows it, with why."""
    why = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    why = " ".join(why.split())[:160]
    return Row(figure, None, unit, None, floor_what, goal, None, f"n/a (failed: {why})")


def alternate(first: Callable[[], T], second: Callable[[], T], pairs: int) -> list[tuple[T, T]]:
    """Run `first` then `second`, `pairs` times over: (first, second) per pair.

    Alternating keeps slow drifts of a shared machine's load out of the comparison: both
    sides of a pair ran at nearly the same moment.
    """
    return [(first(), second()) for _ in range(pairs)]


@dataclass(frozen=True)
class PairStats:
    """Medians of a list of (figure, floor) pairs and the median of their per-pair ratios."""

    value: float
    floor: float
    ratio: float
    pairs: int


def pair_medians(pairs: Sequence[tuple[float, float]]) -> PairStats:
    if not pairs:
        raise ValueError("no pairs measured")
    values = [a for a, _ in pairs]
    floors = [b for _, b in pairs]
    ratios = [a / b for a, b in pairs if b]
    if not ratios:
        raise ValueError("every floor measured zero")
    return PairStats(statistics.median(values), statistics.median(floors), statistics.median(ratios), len(pairs))


def pair_row(figure: str, unit: str, pairs: Sequence[tuple[float, float]], floor_what: str, goal: str = "",
             note: str = "", scale: float = 1.0) -> Row:
    """A row from alternating pairs: medians of each side, and the median of the pair ratios."""
    st = pair_medians(pairs)
    extra = f"medians of {st.pairs} alternating pairs"
    return Row(figure, st.value * scale, unit, st.floor * scale, floor_what, goal, None,
               f"{extra}; {note}" if note else extra, pair_ratio=st.ratio)


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "-"
    if unit == "bytes":
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.3g}"


HEAD = ["figure", "measured", "unit", "floor (same run)", "ratio", "goal", "met", "note"]


def cells(r: Row) -> list[str]:
    """The printed cells of one row, in the order of HEAD."""
    met = "" if r.ok is None else ("yes" if r.ok else "NO")
    floor = f"{_fmt(r.floor, r.unit)} ({r.floor_what})" if r.floor is not None else (
        f"- ({r.floor_what})" if r.floor_what else "-")
    ratio = f"{r.ratio:.2f}x" if r.ratio is not None and r.ratio < 10 else (
        f"{r.ratio:.1f}x" if r.ratio is not None else "-")
    value = _fmt(r.value, r.unit) if r.value is not None else "n/a"
    return [r.figure, value, r.unit, floor, ratio, r.goal, met, r.note]


def table(rows: list[Row], markdown: bool) -> str:
    body = [cells(r) for r in rows]
    if markdown:
        lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
        lines += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in [HEAD] + body) for i in range(len(HEAD))]
    fmt = "  ".join(f"{{:{'<' if i in (0, 2, 3, 5, 6, 7) else '>'}{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*HEAD), "  ".join("-" * w for w in widths)]
    out += [fmt.format(*row).rstrip() for row in body]
    return "\n".join(out)
