"""The Battle of Sumy bench rows measure what they say: a motorized unit's reach on GT50 next to a
BFS floor of the same run, and a whole random game (the pty rows run only under `make bench`)."""

from __future__ import annotations

from benchmarks import efs


def test_reachable_rows_measure_a_motorized_unit_against_a_bfs() -> None:
    rows = efs.bench_reachable(quick=True)
    assert [r.figure for r in rows] == ["EFS reachable(), motorized unit, GT50",
                                        "  same, legal hexes only (explain=False)"]
    assert all(r.value and r.floor and r.ok is not None for r in rows)
    assert rows[0].note.startswith("ax-") and rows[0].note.endswith(" hexes")


def test_the_resume_save_stops_as_gt52_begins() -> None:
    game = efs.turn_save()
    assert game.state.turn == efs.RESUME_TURN and game.state.pending is None
    assert efs.FIRST_GT + game.state.turn - 1 == 52
