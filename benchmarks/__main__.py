"""``python -m benchmarks [--quick] [--games N] [--markdown] [--only engine|app|pty]``: one table."""

from __future__ import annotations

import argparse
import platform
import sys
import time
import traceback
from typing import Callable

from benchmarks.engine import Row


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


def table(rows: list[Row], markdown: bool) -> str:
    head = ["figure", "measured", "unit", "floor (same run)", "ratio", "goal", "met", "note"]
    body = []
    for r in rows:
        met = "" if r.ok is None else ("yes" if r.ok else "NO")
        floor = f"{_fmt(r.floor, r.unit)} ({r.floor_what})" if r.floor is not None else "-"
        ratio = f"{r.ratio:.1f}x" if r.ratio is not None else "-"
        value = _fmt(r.value, r.unit) if r.value is not None else "n/a"
        body.append([r.figure, value, r.unit, floor, ratio, r.goal, met, r.note])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in [head] + body) for i in range(len(head))]
    fmt = "  ".join(f"{{:{'<' if i in (0, 2, 3, 5, 6, 7) else '>'}{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*head), "  ".join("-" * w for w in widths)]
    out += [fmt.format(*row).rstrip() for row in body]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer repeats (about half the time)")
    ap.add_argument("--games", type=int, default=1, help="random campaigns to play (default 1)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--only", choices=["engine", "app", "pty"], action="append",
                    help="run only these groups (repeatable)")
    args = ap.parse_args(argv)
    groups = set(args.only or ["engine", "app", "pty"])

    from benchmarks import apps, engine

    rows: list[Row] = []
    started = time.perf_counter()

    def run(name: str, fn: Callable[[], list[Row]]) -> None:
        try:
            rows.extend(fn())
        except Exception as exc:  # one broken figure must not hide the others
            rows.append(Row(name, None, "", note=f"n/a (failed: {type(exc).__name__}: {exc})"))
            traceback.print_exc(file=sys.stderr)

    if "engine" in groups:
        run("reachable()", lambda: engine.bench_reachable(args.quick))
        run("supply", lambda: engine.bench_supply(args.quick))
        run("combat", lambda: engine.bench_combat(args.quick))
        saved: list = [None]

        def campaign() -> list[Row]:
            got, saved[0] = engine.bench_campaign(args.quick, args.games)
            return got

        run("random legal campaign", campaign)
        run("save / load", lambda: engine.bench_save_load(saved[0], args.quick))
        run("rules search", lambda: engine.bench_rules_search(args.quick))
    if "app" in groups:
        run("app start", lambda: apps.bench_startup(args.quick))
    if "pty" in groups:
        run("terminal bytes", lambda: apps.bench_terminal(args.quick))
    print(table(rows, args.markdown))
    print(f"\n{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, bench took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
