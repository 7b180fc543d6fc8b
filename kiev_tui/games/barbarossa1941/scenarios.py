"""Each scenario's own rules (14.1, 14.2, 14.3, 17) as switches the rule system reads.

``rules_for(scenario, options)`` gathers, from the scenario file and tables.toml's [campaign],
what differs between the historical campaign (14.1: set-up as in 15), the hypothetical one (14.2:
free deployment within [deployment]) and Operation Typhoon (17: turns 5 to 10, 9 VP and the events
below them already past, its own points and rail markers), plus the optional rules of 14.3 the
players chose.  An optional rule whose turns lie outside the scenario's is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.reinforcements import campaign
from kiev_tui.games.barbarossa1941.tables import Campaign, OptionalRule, Tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

CASE = "14.3"


@dataclass(frozen=True, slots=True)
class ScenarioRules:
    """What a scenario changes in play (14, 17)."""

    id: str
    first_turn: int  # 17: Typhoon starts on turn 5
    last_turn: int  # 13, 17: the victory phase of this turn ends the game
    start_vp: int  # 17.1: the VP track at the start
    free_deployment: bool  # 14.2: each side deploys within [deployment]
    setup_in_own_country: bool  # 14.2, 15
    turn1_rules: bool  # 12.8: only a game that starts on turn 1 has a surprise turn
    first_turn_weather: Mapping[str, str]  # 17: Typhoon's turn 5, mud north and clear south
    artillery_points: Mapping[str, int]  # 12.12, 17.1-17.2
    rail_markers: tuple[Hex, ...]  # 10.3, 17.1
    replacement_points: Mapping[str, int]  # 17.1: what is left of the campaign pools
    events_fired: Mapping[str, int]  # 13: events below the starting VP, id -> turn
    options: tuple[str, ...]  # 14.3 rules in play
    optional_available: tuple[OptionalRule, ...]  # the 14.3 rules this scenario can use
    last_sudden_death_turn: int  # 13
    notes: tuple[str, ...] = field(default_factory=tuple)

    def uses(self, rule_id: str) -> bool:
        return rule_id in self.options


def available_options(scenario: "Scenario", camp: Campaign | None = None) -> tuple[OptionalRule, ...]:
    """14.3's rules that can act in this scenario's turns (14.3.1 acts on turns 1-3: not Typhoon)."""
    first = int(scenario.params.get("first_turn", 1))
    return tuple(o for o in campaign(camp).optional if o.last_turn >= first and o.first_turn <= scenario.turns)


def check_options(scenario: "Scenario", options: Iterable[str], camp: Campaign | None = None) -> Illegal | None:
    """Why this choice of optional rules is refused for the scenario, or None (14.3)."""
    known = {o.id for o in campaign(camp).optional}
    usable = {o.id for o in available_options(scenario, camp)}
    for rule in options:
        if rule not in known:
            return Illegal(CASE, f"{rule} is not an optional rule of 14.3")
        if rule not in usable:
            return Illegal(CASE, f"{rule} acts only on turns this scenario does not play")
    return None


def rules_for(scenario: "Scenario", tables: Tables, options: Iterable[str] = (),
              camp: Campaign | None = None) -> ScenarioRules:
    """The switches of ``scenario`` with the optional rules ``options`` (14, 17); an option the
    scenario cannot use raises ValueError naming the case."""
    opts = tuple(sorted(set(options)))
    bad = check_options(scenario, opts, camp)
    if bad is not None:
        raise ValueError(str(bad))
    p: Mapping[str, Any] = scenario.params
    first = int(p.get("first_turn", 1))
    from kiev_tui.games.barbarossa1941.victory import fired_at_start

    notes = []
    if "deployment" in scenario.extra:
        notes.append("free deployment within the limits of 14.2")
    if first > 1:
        notes.append(f"starts on turn {first} with {int(p.get('start_vp', 0))} VP (17)")
    return ScenarioRules(
        id=scenario.id.split("/")[-1], first_turn=first, last_turn=scenario.turns, start_vp=int(p.get("start_vp", 0)),
        free_deployment="deployment" in scenario.extra, setup_in_own_country=bool(p.get("setup_in_own_country", False)),
        turn1_rules=first == 1, first_turn_weather=dict(p.get("first_turn_weather", {})),
        artillery_points=dict(p.get("artillery_points", {"axis": tables.artillery.axis_points,
                                                          "soviet": tables.artillery.soviet_points})),
        rail_markers=tuple(scenario.map.grid.parse(t) for t in p.get("rail_markers", [])),
        replacement_points=dict(p.get("replacement_points", {})),
        events_fired=fired_at_start(tables, scenario), options=opts,
        optional_available=available_options(scenario, camp),
        last_sudden_death_turn=tables.victory.sudden_death_last_turn, notes=tuple(notes))


def weather(rules: ScenarioRules, tables: Tables, turn: int, zone: str) -> str:
    """The weather of ``zone`` on ``turn``: the scenario's own first-turn weather (17), else the
    calendar's (12.3)."""
    if turn == rules.first_turn and zone in rules.first_turn_weather:
        return rules.first_turn_weather[zone]
    return tables.weather.condition(turn, zone)
