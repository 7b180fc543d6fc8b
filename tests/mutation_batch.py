"""Run mutmut's mutants in forked children of one warm process, each against the tests of its
own module, and write the verdicts into mutmut's own result files (run by `make mutate-rest`).

Not a test module (no `test_` prefix).  Why it exists: mutmut picks the tests for a mutant from
the functions each test called, so a function that runs whenever a scenario loads (the checks
of the tables, the untried pool, the scenario's set-up) is charged to nearly every test, and a
surviving mutant of it costs a minute.  mutmut's time limit is also worked out from an estimate
that, for those functions, is a fraction of a second, so a mutant that merely takes its time is
marked "timeout" and counted as killed.  Here each module has a fixed list of test files, its own
mutation tests first (`-x` stops at the first failure), and a wall-clock limit of minutes.  A
mutant killed here is killed by a test of the suite; one that survives might still be killed by
a test outside its module's list, so the count is a floor, never a flattering figure.

Run it from the project folder after `mutmut run` has generated `mutants/` (it never runs while
mutmut runs: both write the same `.meta` files).  Which mutants:

    python tests/mutation_batch.py --unchecked        # every mutant mutmut has not run
    python tests/mutation_batch.py NAME [NAME ...]    # these, again (after a new test)
    python tests/mutation_batch.py --survivors        # every survivor not yet explained
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "kiev_tui.games.spi_kiev"
META_DIR = Path("kiev_tui") / "games" / "spi_kiev"

#: Tests that pin each module's cases beyond its own test_mutants_<module>.py.
EXTRA = {
    "tables": ["test_hardening_tables.py", "test_spi_kiev_rules_combat.py", "test_spi_kiev_combat.py"],
    "untried": ["test_engine_vocab.py", "test_mutants_system.py", "test_spi_kiev_rules_movement.py",
                "test_spi_kiev_oob.py"],
    "setup_check": ["test_mutants_system.py", "test_saves.py"],
}
#: Modules whose functions run at load time: a short list keeps each survivor cheap.
LOAD_TIME = frozenset(EXTRA)
LIMIT_S = {"load": 90.0, "rules": 180.0}  # wall-clock limit per mutant, then it counts as a timeout
TIMEOUT_EXIT = 36  # mutmut's code for a timeout


def rules_tests(tests_dir: Path) -> list[str]:
    return sorted(f"tests/{p.name}" for p in tests_dir.glob("test_*.py")
                  if p.name.startswith(("test_mutants_", "test_spi_kiev_")) and p.name != "test_mutation_report.py")


def selection(module: str, tests_dir: Path) -> list[str]:
    """The test files a mutant of ``module`` runs against, its own first."""
    own = [f"tests/test_mutants_{module}.py"] if (tests_dir / f"test_mutants_{module}.py").exists() else []
    if module in LOAD_TIME:
        rest = [f"tests/{name}" for name in EXTRA[module]]
    else:
        rest = rules_tests(tests_dir)
    return own + [t for t in rest if t not in own]


def module_of(name: str) -> str:
    return name[len(PACKAGE) + 1:].split(".", 1)[0]


def read_meta(mutants: Path) -> dict[Path, dict]:
    return {p: json.loads(p.read_text(encoding="utf-8")) for p in sorted((mutants / META_DIR).glob("*.py.meta"))}


def write_verdicts(mutants: Path, verdicts: dict[str, int]) -> int:
    """Put exit codes into the `.meta` file of each mutant's module; returns how many were written."""
    written = 0
    for path, meta in read_meta(mutants).items():
        codes = meta["exit_code_by_key"]
        hits = {k: v for k, v in verdicts.items() if k in codes}
        if hits:
            codes.update(hits)
            tmp = path.with_suffix(".meta.tmp")
            tmp.write_text(json.dumps(meta, indent=4), encoding="utf-8")
            os.replace(tmp, path)  # never a half-written result file
            written += len(hits)
    return written


def explained_names() -> set[str]:
    import tomllib
    data = tomllib.loads((ROOT / "docs" / "mutation-explained.toml").read_text(encoding="utf-8"))
    return set(data.get("mutants", {}))


def pick(mutants: Path, args: argparse.Namespace) -> list[str]:
    metas = read_meta(mutants)
    if args.unchecked:
        return [k for m in metas.values() for k, v in m["exit_code_by_key"].items() if v is None]
    if args.survivors:
        known = explained_names()
        return [k for m in metas.values() for k, v in m["exit_code_by_key"].items() if v == 0 and k not in known]
    return list(args.names)


def run(names: list[str], mutants: Path, workers: int, log: Path | None) -> dict[str, int]:
    os.chdir(mutants)
    sys.path.insert(0, str(mutants))
    import pytest

    tests_dir = mutants / "tests"
    os.environ["MUTANT_UNDER_TEST"] = ""  # the warm-up below runs the real code
    files = sorted({t for n in names for t in selection(module_of(n), tests_dir)})
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1), os.dup(2)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:  # import every selected test module once, in the parent, so each child starts warm
        pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *files])
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
    verdicts: dict[str, int] = {}
    running: dict[int, tuple[str, float, float]] = {}
    queue = list(names)
    out = log.open("a", encoding="utf-8") if log else None
    started = time.time()
    while queue or running:
        while queue and len(running) < workers:
            name = queue.pop(0)
            module = module_of(name)
            pid = os.fork()
            if pid == 0:  # the child: one mutant, its module's tests, stop at the first failure
                os.setpgid(0, 0)
                os.environ["MUTANT_UNDER_TEST"] = name
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                                    *selection(module, tests_dir)])
                os._exit(int(code))
            limit = LIMIT_S["load" if module in LOAD_TIME else "rules"]
            running[pid] = (name, time.time(), limit)
        time.sleep(0.05)
        for pid, (name, began, limit) in list(running.items()):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                if time.time() - began <= limit:
                    continue
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                code = TIMEOUT_EXIT
            else:
                code = os.waitstatus_to_exitcode(status)
            del running[pid]
            verdicts[name] = code
            if out:
                out.write(json.dumps({"name": name, "exit": code, "secs": round(time.time() - began, 1)}) + "\n")
                out.flush()
            if len(verdicts) % 50 == 0:
                print(f"{len(verdicts)}/{len(names)} in {time.time() - started:.0f} s", flush=True)
    return verdicts


def summary(verdicts: dict[str, int]) -> str:
    """`3 killed, 1 survived, 1 timeout` (other exit codes by number: mutmut does not count them killed)."""
    words = {0: "survived", 1: "killed", 3: "killed", TIMEOUT_EXIT: "timeout"}
    counts: dict[str, int] = {}
    for code in verdicts.values():
        word = words.get(code, f"exit {code}")
        counts[word] = counts.get(word, 0) + 1
    return ", ".join(f"{n} {w}" for w, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "none"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="mutant names as `mutmut results` prints them")
    ap.add_argument("--unchecked", action="store_true", help="every mutant mutmut has not run")
    ap.add_argument("--survivors", action="store_true", help="every survivor docs/mutation-explained.toml lacks")
    ap.add_argument("--mutants", type=Path, default=ROOT / "mutants", help="mutmut's working copy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--log", type=Path, help="also append one JSON line per verdict here")
    args = ap.parse_args(argv)
    mutants = args.mutants.resolve()
    if not (mutants / META_DIR).is_dir():
        print(f"{mutants}: no mutmut results here; run `mutmut run` first", file=sys.stderr)
        return 2
    names = pick(mutants, args)
    bad = [n for n in names if not n.startswith(PACKAGE + ".")]
    if bad:
        print(f"not a mutant of {PACKAGE}: {bad[0]}", file=sys.stderr)
        return 2
    print(f"{len(names)} mutant(s) to run", flush=True)
    verdicts = run(names, mutants, args.workers, args.log) if names else {}
    written = write_verdicts(mutants, verdicts)
    print(f"{written} verdict(s) written: {summary(verdicts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
