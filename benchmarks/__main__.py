"""``python -m benchmarks [--quick] [--games N] [--markdown] [--only GROUP ...]``: one table.

Groups: startup (first frame, peak memory, first paint, resuming an autosave), wire (bytes per
cursor move, dialog and rules screen closes, rules search per key, idle), rules (`kiev-tui
rules` from the shell), engine (rules engine, saves, the long load), extra (more pty rows),
b1941 (Barbarossa 1941: reachable, supply, a random game, first frame, resume),
efs (Kiev to Rostov, Battle of Sumy: reachable, a random game, first frame, resume).
The rows of issue 19's table come first, in its order.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import traceback
from types import ModuleType
from typing import Callable

from benchmarks.report import Row, failed, table

GROUPS = ("startup", "wire", "rules", "engine", "extra", "b1941", "efs")
# Asked for by name only (`--only ai`, `make arena`): 100 campaigns of the computer players, about 15 min.
ON_REQUEST = ("ai",)
ALIASES = {"app": "startup", "pty": "wire"}  # the names of the groups before issue 19


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats and pairs (about half the time)")
    ap.add_argument("--games", type=int, default=1, help="random campaigns to play (default 1)")
    ap.add_argument("--pairs", type=int, default=5, help="alternating pairs per start-up figure (default 5)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--only", choices=[*GROUPS, *ON_REQUEST, *ALIASES], action="append",
                    help="run only these groups (repeatable)")
    args = ap.parse_args(argv)
    groups = {ALIASES.get(g, g) for g in (args.only or GROUPS)}

    sections: dict[str, list[Row]] = {name: [] for name in ("startup", "wire", "load", "rules", "engine", "extra",
                                                            "ai", "b1941", "efs")}
    started = time.perf_counter()

    def run(section: str, name: str, fn: Callable[[], list[Row]]) -> None:
        try:
            sections[section].extend(fn())
        except Exception as exc:  # one broken figure must not hide the others
            sections[section].append(failed(name, "", exc))
            traceback.print_exc(file=sys.stderr)

    if "startup" in groups:
        run("startup", "start-up", lambda: _issue_order(_user().bench_startup(args.quick, args.pairs)))
    if "wire" in groups:
        run("wire", "pty 120x40 session", lambda: _user().bench_wire(args.quick))
    if "rules" in groups:
        run("rules", "kiev-tui rules", lambda: _user().bench_rules_cli(args.quick, args.pairs))
    if "engine" in groups:
        try:
            from benchmarks import engine
        except Exception as exc:  # the engine does not even import: say so, run the rest
            sections["engine"].append(failed("engine figures", "", exc))
        else:
            run("load", "load a ~573-action save", lambda: engine.bench_load_long(args.quick, args.pairs))
            run("engine", "reachable()", lambda: engine.bench_reachable(args.quick))
            run("engine", "supply", lambda: engine.bench_supply(args.quick))
            run("engine", "combat", lambda: engine.bench_combat(args.quick))
            saved: list = [None]

            def campaign() -> list[Row]:
                got, saved[0] = engine.bench_campaign(args.quick, args.games)
                return got

            run("engine", "random legal campaign", campaign)
            run("engine", "save / load", lambda: engine.bench_save_load(saved[0], args.quick))
            run("engine", "rules search", lambda: engine.bench_rules_search(args.quick))
    if "extra" in groups:
        run("extra", "pty extra rows", lambda: _user().bench_extra(args.quick))
    if "b1941" in groups:  # Barbarossa 1941's rows (benchmarks/b1941.py)
        run("b1941", "Barbarossa 1941", lambda: __import__("benchmarks.b1941", fromlist=["x"]).bench_b1941(
            args.quick, args.pairs, args.games))
    if "efs" in groups:  # Kiev to Rostov's Sumy rows (benchmarks/efs.py)
        run("efs", "Kiev to Rostov", lambda: __import__("benchmarks.efs", fromlist=["x"]).bench_efs(
            args.quick, args.pairs, args.games))
    if "ai" in groups:

        def ai_rows() -> list[Row]:
            from benchmarks import arena  # imports the engine and the AI: only when asked for

            return arena.bench_ai(args.quick)

        run("ai", "computer players (arena)", ai_rows)
    rows = [r for rows in sections.values() for r in rows]
    print(table(rows, args.markdown))
    print(f"\n{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, bench took {time.perf_counter() - started:.0f} s; "
          f"start-up and shell rows are medians of alternating pairs (figure, floor), engine rows minima")
    return 0


def _user() -> ModuleType:
    """The pty figures' module, imported inside run() so that an import error is one failed row."""
    from benchmarks import user

    return user


def _issue_order(rows: list[Row]) -> list[Row]:
    """First frame, resume, memory, first paint: the order of issue 19's table."""
    order = ("time to first frame", "resuming", "resumed game answers", "peak RSS", "first paint")
    return sorted(rows, key=lambda r: next((i for i, p in enumerate(order) if r.figure.startswith(p)), len(order)))


if __name__ == "__main__":
    sys.exit(main())
