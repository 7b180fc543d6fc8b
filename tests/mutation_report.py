"""Summarise `mutmut results --all true` per rules module (run by `make mutate`).

Not a test module (no `test_` prefix): it reads mutmut's results and prints a table of
killed / survived / other per module, and the share killed over all of them.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

KILLED = {"killed", "timeout", "caught by type check"}


def collect(lines: list[str]) -> dict[str, Counter[str]]:
    """Group result lines (`pkg.module.x_func__mutmut_3: survived`) by module."""
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for line in lines:
        name, sep, status = line.strip().rpartition(": ")
        if not sep or "__mutmut_" not in name:
            continue
        module = name.split(".x", 1)[0].rsplit(".", 1)[-1] if ".x" in name else name
        per[module][status.strip()] += 1
    return per


def table(per: dict[str, Counter[str]]) -> str:
    rows = ["| module | mutants | killed | survived | other | killed % |", "|---|---|---|---|---|---|"]
    total: Counter[str] = Counter()
    for module in sorted(per):
        c = per[module]
        total.update(c)
        rows.append(_row(module, c))
    rows.append(_row("**all**", total))
    return "\n".join(rows)


def _row(label: str, c: Counter[str]) -> str:
    n = sum(c.values())
    killed = sum(v for k, v in c.items() if k in KILLED)
    survived = c.get("survived", 0)
    share = 100.0 * killed / n if n else 0.0
    return f"| {label} | {n} | {killed} | {survived} | {n - killed - survived} | {share:.1f} |"


def main() -> int:
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], capture_output=True, text=True)
    per = collect(out.stdout.splitlines())
    if not per:
        print("no mutmut results found: run `mutmut run` first", file=sys.stderr)
        return 1
    print(table(per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
