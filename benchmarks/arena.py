"""AI figures (issues 17 and 34): the strong AI against the random bot, the easy AI and itself, as
each side, on the campaign; its thinking time per phase; and the figures of play per side.  Win
rates are goals on their own (not ratios to a floor): the opponent is the floor."""

from __future__ import annotations

import statistics

from benchmarks.engine import CAMPAIGN, Row
from kiev_tui.ai.arena import MatchResult, play_match, wilson

# issue 34's final seeds, never tuned on: against easy 13000-13019, against itself 13100-13119, against random
# 13200-13219 (fixed at 03:28 UTC on 2026-12-07, at the start of that session's round, before any of its changes
# was measured; 12000-12219 were the previous stop's, 11000-11219, 9000-9219 and 6000-6219 earlier ones)
SEED = 13000


def _rate_row(figure: str, side: str, rows: list[MatchResult], goal: float, at_most: bool = False) -> Row:
    wins = sum(1 for r in rows if r.winner == side)
    lo, hi = wilson(wins, len(rows))
    rate = wins / len(rows) if rows else 0.0
    sign = 1 if side == "german" else -1
    margin = statistics.fmean(sign * r.margin for r in rows) if rows else 0.0
    ok = rate <= goal if at_most else rate >= goal
    return Row(figure, round(100 * rate, 1), "% won", goal=f"{'<=' if at_most else '>='} {100 * goal:.0f}%", ok=ok,
               note=f"{wins}/{len(rows)}, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%; own VP margin {margin:+.1f}")


def bench_ai(quick: bool) -> list[Row]:
    """Strong vs random and vs easy (20 seeds a side; quick: 2), strong vs strong (20 games; quick: 2)."""
    n = 2 if quick else 20
    results: dict[tuple[str, str], list[MatchResult]] = {}
    for opponent, base in (("easy", SEED), ("random", SEED + 200)):
        for k in range(n):
            seed = base + k
            results.setdefault(("german", opponent), []).append(play_match(CAMPAIGN, seed, "strong", opponent))
            results.setdefault(("soviet", opponent), []).append(play_match(CAMPAIGN, seed, opponent, "strong"))
    mirror = [play_match(CAMPAIGN, SEED + 100 + k, "strong", "strong") for k in range(n)]
    rows = [
        _rate_row("strong AI as German vs random", "german", results[("german", "random")], 1.0),
        _rate_row("strong AI as Soviet vs random", "soviet", results[("soviet", "random")], 1.0),
        _rate_row("strong AI as German vs easy", "german", results[("german", "easy")], 0.80),
        _rate_row("strong AI as Soviet vs easy", "soviet", results[("soviet", "easy")], 0.80),
        _rate_row("strong vs strong: German wins", "german", mirror, 0.75, at_most=True),
        _rate_row("strong vs strong: Soviet wins", "soviet", mirror, 0.75, at_most=True),
    ]
    times: list[float] = []
    refused = 0
    figures: dict[str, list[dict[str, int]]] = {}
    for (side, _), rs in results.items():
        for r in rs:
            times.extend(r.phase_seconds.get(side, []))
            refused += sum(r.refused.values())
            figures.setdefault(side, []).append(r.figures.get(side, {}))
    for r in mirror:
        for side in ("german", "soviet"):
            times.extend(r.phase_seconds.get(side, []))
            figures.setdefault(side, []).append(r.figures.get(side, {}))
        refused += sum(r.refused.values())
    if times:
        med, worst = statistics.median(times), max(times)
        rows.append(Row("strong AI seconds per phase (median)", round(med, 3), "s", goal="< 0.5 s", ok=med < 0.5,
                        note=f"{len(times)} phases"))
        rows.append(Row("strong AI seconds per phase (worst)", round(worst, 3), "s", goal="< 5 s", ok=worst < 5.0))
    rows.append(Row("actions refused by the referee (all AI games)", refused, "", goal="0", ok=refused == 0))
    for side, fs in figures.items():
        for name in dict.fromkeys(k for f in fs for k in f):
            rows.append(Row(f"strong AI as {side.title()}: {name} (mean per game)",
                            round(statistics.fmean(f.get(name, 0) for f in fs), 1), "", note=f"{len(fs)} games"))
    return rows


if __name__ == "__main__":
    import sys

    for row in bench_ai("--quick" in sys.argv):
        print(f"{row.figure}: {row.value} {row.unit} (goal {row.goal}: {'ok' if row.ok else 'MISSED'}) {row.note}")
