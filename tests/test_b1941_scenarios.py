"""Barbarossa 1941, each scenario's own rules (14.1, 14.2, 14.3, 17) as the rule system reads them."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import pytest

from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.barbarossa1941 import scenarios as S
from tests.b41_rules_helpers import tables


@lru_cache(maxsize=3)
def scen(name: str) -> Scenario:
    return load_scenario(f"barbarossa1941/{name}")


def test_17_typhoon_switches() -> None:
    r = S.rules_for(scen("typhoon"), tables())
    assert (r.first_turn, r.last_turn, r.start_vp, r.turn1_rules, r.free_deployment) == (5, 10, 9, False, False)
    assert dict(r.artillery_points) == {"axis": 3, "soviet": 3}
    assert dict(r.replacement_points) == {"axis_infantry": 2, "axis_motorized": 0, "axis_allies": 0}
    assert [scen("typhoon").map.grid.id(h) for h in r.rail_markers] == ["1108", "1110", "1414", "1318", "1121",
                                                                        "1323", "1028"]
    assert set(r.events_fired) == {"hungary_enters", "militia", "mobilization", "fatherland_in_danger"}
    assert r.last_sudden_death_turn == 6


def test_17_typhoon_first_turn_weather() -> None:
    r = S.rules_for(scen("typhoon"), tables())
    assert (S.weather(r, tables(), 5, "north"), S.weather(r, tables(), 5, "south")) == ("mud", "clear")
    assert S.weather(r, tables(), 6, "south") == "mud"  # then the calendar
    # the scenario's own first-turn weather wins over the calendar's
    own = dataclasses.replace(r, first_turn_weather={"north": "freeze"})
    assert (S.weather(own, tables(), 5, "north"), S.weather(own, tables(), 5, "south")) == ("freeze", "clear")


def test_14_1_historical_switches() -> None:
    r = S.rules_for(scen("historical"), tables())
    assert (r.first_turn, r.last_turn, r.start_vp, r.turn1_rules, r.free_deployment) == (1, 10, 0, True, False)
    assert dict(r.artillery_points) == {"axis": 6, "soviet": 3}
    assert dict(r.events_fired) == {}


def test_14_2_hypothetical_deploys_freely() -> None:
    r = S.rules_for(scen("hypothetical"), tables())
    assert (r.free_deployment, r.setup_in_own_country, r.turn1_rules) == (True, True, True)


def test_14_3_optional_rules_by_scenario() -> None:
    assert [o.id for o in S.available_options(scen("historical"))] == ["14.3.1", "14.3.2", "14.3.3", "14.3.4",
                                                                       "14.3.5"]
    # Typhoon starts on turn 5: the turn 1-3 attacks and the turn-3 paratroops never come up
    assert [o.id for o in S.available_options(scen("typhoon"))] == ["14.3.3", "14.3.4", "14.3.5"]
    bad = S.check_options(scen("typhoon"), ["14.3.1"])
    assert bad is not None and bad.case == "14.3"
    assert S.check_options(scen("historical"), ["14.3.9"]).case == "14.3"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="14.3"):
        S.rules_for(scen("typhoon"), tables(), ["14.3.1"])
    r = S.rules_for(scen("historical"), tables(), ["14.3.4", "14.3.1"])
    assert r.options == ("14.3.1", "14.3.4") and r.uses("14.3.4") and not r.uses("14.3.5")
