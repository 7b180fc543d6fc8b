"""The Barbarossa 1941 bench rows measure what they say: a panzer corps' reach and the supply
trace, each with a floor from the same run (the pty rows run only under `make bench`)."""

from __future__ import annotations

from benchmarks import b1941


def test_reachable_rows_measure_a_panzer_corps_against_a_bfs() -> None:
    rows = b1941.bench_reachable(quick=True)
    assert [r.figure for r in rows] == ["B41 reachable(), panzer corps, turn 1",
                                        "  same, legal hexes only (explain=False)"]
    assert all(r.value and r.floor and r.ok is not None for r in rows)
    assert rows[0].note.startswith("ge-pzk-") and rows[0].note.endswith(" hexes")


def test_supply_rows_trace_every_formation_on_turn_2() -> None:
    rows = b1941.bench_supply(quick=True)
    assert rows[0].figure == "B41 supply trace, every formation (turn 2)"
    assert all(r.value and r.floor for r in rows)
    assert " formations, " in rows[0].note and " out of supply" in rows[0].note
