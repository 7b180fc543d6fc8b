"""Barbarossa 1941, the weather's skip rules on the sequence of play (12.3, 5.2, 5.3).

The phases are read from data/barbarossa1941/sequence.toml through the engine's own sequence
reader, so these tests see the game-turn a player will see.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.sequence import load_sequence
from kiev_tui.games.barbarossa1941 import weather
from tests.b41_rules_helpers import DATA, tables

FULL_AXIS = ["movement", "reaction", "combat", "exploitation", "rail_markers"]
FULL_SOVIET = ["movement", "reaction", "combat", "exploitation"]


def phases(turn: int) -> dict[str, list[str]]:
    seq = load_sequence(DATA / "sequence.toml", skip_rules=weather.SKIP_RULES)
    w = tables().weather
    steps = seq.steps(turn, "axis", "soviet", skip=lambda rule, t, phasing: weather.skip(w, rule, t))
    out: dict[str, list[str]] = {}
    for s in steps:
        if s.phase in ("movement", "reaction", "combat", "exploitation", "rail_markers"):
            out.setdefault(s.segment, []).append(s.phase)
    return out


@pytest.mark.parametrize("turn", [1, 2, 3, 4, 5, 7, 8, 9])
def test_12_3_reaction_and_exploitation_run_while_a_zone_allows_them(turn: int) -> None:
    # turn 5 (mud / clear) and 9 (extreme cold / freeze): the south still reacts and exploits
    assert phases(turn) == {"axis": FULL_AXIS, "soviet": FULL_SOVIET}


@pytest.mark.parametrize("turn", [6, 10])
def test_12_3_mud_or_extreme_cold_everywhere_drops_both_phases(turn: int) -> None:
    # turn 6 is mud in both zones, turn 10 extreme cold in both (the calendar of tables.toml)
    assert phases(turn) == {"axis": ["movement", "combat", "rail_markers"], "soviet": ["movement", "combat"]}


def test_12_3_each_skip_rule_names_its_own_weather() -> None:
    w = tables().weather
    assert weather.conditions(w, 5) == {"north": "mud", "south": "clear"}
    assert (weather.skip(w, "mud", 6), weather.skip(w, "extreme_cold", 6)) == (True, False)
    assert (weather.skip(w, "mud", 10), weather.skip(w, "extreme_cold", 10)) == (False, True)
    assert weather.skip(w, "mud", 11) is False  # past the calendar
    with pytest.raises(ValueError, match="no skip rule 'rain'"):
        weather.skip(w, "rain", 6)
