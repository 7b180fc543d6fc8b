"""AI figures (issue 17): the strong AI against the random bot and the easy AI, as each side, on
the campaign, and its thinking time per phase.  Win rates are goals on their own (not ratios to a
floor): the opponent is the floor."""

from __future__ import annotations

import statistics

from benchmarks.engine import CAMPAIGN, Row
from kiev_tui.ai.arena import MatchResult, play_match, wilson

SEED = 1000  # the arena's seeds start here, so runs of the bench are comparable


def _rate_row(figure: str, side: str, rows: list[MatchResult], goal: float) -> Row:
    wins = sum(1 for r in rows if r.winner == side)
    lo, hi = wilson(wins, len(rows))
    rate = wins / len(rows) if rows else 0.0
    sign = 1 if side == "german" else -1
    margin = statistics.fmean(sign * r.margin for r in rows) if rows else 0.0
    return Row(figure, round(100 * rate, 1), "% won", goal=f">= {100 * goal:.0f}%", ok=rate >= goal,
               note=f"{wins}/{len(rows)}, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%; own VP margin {margin:+.1f}")


def bench_ai(quick: bool) -> list[Row]:
    """Strong vs random (40 games a side; quick: 4) and strong vs easy (10 a side; quick: 2)."""
    n_random = 4 if quick else 40
    n_easy = 2 if quick else 10
    results: dict[tuple[str, str], list[MatchResult]] = {}
    for opponent, n in (("random", n_random), ("easy", n_easy)):
        for k in range(n):
            seed = SEED + k
            results.setdefault(("german", opponent), []).append(play_match(CAMPAIGN, seed, "strong", opponent))
            results.setdefault(("soviet", opponent), []).append(play_match(CAMPAIGN, seed, opponent, "strong"))
    rows = [
        _rate_row("strong AI as German vs random", "german", results[("german", "random")], 0.95),
        _rate_row("strong AI as Soviet vs random", "soviet", results[("soviet", "random")], 0.95),
        _rate_row("strong AI as German vs easy", "german", results[("german", "easy")], 0.70),
        _rate_row("strong AI as Soviet vs easy", "soviet", results[("soviet", "easy")], 0.70),
    ]
    times: list[float] = []
    refused = 0
    for (side, _), rs in results.items():
        for r in rs:
            times.extend(r.phase_seconds.get(side, []))
            refused += sum(r.refused.values())
    if times:
        worst = max(times)
        rows.append(Row("strong AI seconds per phase (median)", round(statistics.median(times), 3), "s",
                        goal="< 5 s", ok=statistics.median(times) < 5.0, note=f"{len(times)} phases"))
        rows.append(Row("strong AI seconds per phase (worst)", round(worst, 3), "s", goal="< 5 s", ok=worst < 5.0))
    rows.append(Row("actions refused by the referee (all AI games)", refused, "", goal="0", ok=refused == 0))
    return rows


if __name__ == "__main__":
    import sys

    for row in bench_ai("--quick" in sys.argv):
        print(f"{row.figure}: {row.value} {row.unit} (goal {row.goal}: {'ok' if row.ok else 'MISSED'}) {row.note}")
