"""Summarise `mutmut results --all true` per rules module (run by `make mutate`).

Not a test module (no `test_` prefix): it reads mutmut's results and prints a table of
killed / survived / not run per module, and the share killed over all of them. Each survivor is
looked up in `docs/mutation-explained.toml`, where an equivalent or unreachable mutant is named
with the reason it cannot be killed; the table counts those apart, and `--unexplained` lists
the survivors that have no reason yet (each is then a test to write or a reason to give), and
`--stale` the names the file gives that are no longer survivors (an edit renumbered them).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

KILLED = {"killed", "timeout", "caught by type check"}
EXPLAINED = Path(__file__).resolve().parent.parent / "docs" / "mutation-explained.toml"


def collect(lines: list[str]) -> dict[str, dict[str, str]]:
    """Group result lines (`pkg.module.x_func__mutmut_3: survived`) by module: name -> status."""
    per: dict[str, dict[str, str]] = defaultdict(dict)
    for line in lines:
        name, sep, status = line.strip().rpartition(": ")
        if not sep or "__mutmut_" not in name:
            continue
        module = name.split(".x", 1)[0].rsplit(".", 1)[-1] if ".x" in name else name
        per[module][name] = status.strip()
    return per


def load_explained(path: Path = EXPLAINED) -> dict[str, str]:
    """Mutant name -> reason text, from the `[mutants]` table keyed by `[reasons]` ids."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    reasons: dict[str, str] = data.get("reasons", {})
    out: dict[str, str] = {}
    for name, key in data.get("mutants", {}).items():
        if key not in reasons:
            raise ValueError(f"{path.name}: mutant {name} names reason {key!r}, which [reasons] lacks")
        out[name] = reasons[key]
    return out


def counts(statuses: dict[str, str], explained: dict[str, str]) -> Counter[str]:
    """killed / explained / unexplained / other for one module's mutants."""
    c: Counter[str] = Counter()
    for name, status in statuses.items():
        if status in KILLED:
            c["killed"] += 1
        elif status == "survived":
            c["explained" if name in explained else "unexplained"] += 1
        else:
            c["other"] += 1
    return c


def table(per: dict[str, dict[str, str]], explained: dict[str, str]) -> str:
    rows = [
        "| module | mutants | killed | survived: explained | survived: not explained | not run | killed % |",
        "|---|---|---|---|---|---|---|",
    ]
    total: Counter[str] = Counter()
    for module in sorted(per):
        c = counts(per[module], explained)
        total.update(c)
        rows.append(_row(module, c))
    rows.append(_row("**all**", total))
    return "\n".join(rows)


def _row(label: str, c: Counter[str]) -> str:
    n = sum(c.values())
    share = 100.0 * c["killed"] / n if n else 0.0
    return (f"| {label} | {n} | {c['killed']} | {c['explained']} | {c['unexplained']} | "
            f"{c['other']} | {share:.1f} |")


def unexplained(per: dict[str, dict[str, str]], explained: dict[str, str]) -> list[str]:
    return sorted(name for statuses in per.values() for name, status in statuses.items()
                  if status == "survived" and name not in explained)


def stale(per: dict[str, dict[str, str]], explained: dict[str, str]) -> list[str]:
    """Explained names that are no longer survivors (killed now, or renumbered by an edit)."""
    surviving = {name for statuses in per.values() for name, status in statuses.items() if status == "survived"}
    return sorted(set(explained) - surviving)


def main(argv: list[str]) -> int:
    mutmut = Path(sys.executable).with_name("mutmut")
    out = subprocess.run([str(mutmut), "results", "--all", "true"], capture_output=True, text=True)
    per = collect(out.stdout.splitlines())
    if not per:
        print("no mutmut results found: run `mutmut run` first", file=sys.stderr)
        return 1
    try:
        explained = load_explained()
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        print(f"{EXPLAINED}: {exc}", file=sys.stderr)
        return 2
    if "--unexplained" in argv:
        print("\n".join(unexplained(per, explained)))
        return 0
    if "--stale" in argv:
        print("\n".join(stale(per, explained)))
        return 0
    print(table(per, explained))
    old = stale(per, explained)
    if old:
        print(f"\n{len(old)} name(s) in {EXPLAINED.name} are not survivors now; `--stale` lists them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
