"""The weather as the sequence of play sees it (12.3 with 5.2 and 5.3).

``sequence.toml`` marks the reaction and exploitation phases with the skip rules "mud" and
"extreme_cold".  Weather is set per zone (12.3), and a phase may still be played in a zone
whose weather allows it (turn 5: mud in the north, clear in the south, so motorized units in
the south exploit).  So a skip rule drops a phase only when every zone of the map has that
weather this turn; a zone-by-zone refusal for each unit is the movement rules' job
(``allowance.exploitation_allowance``, ``movement.may_react``).
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941.tables import ZONES, Weather

#: The skip rules the sequence names: each is a weather condition of tables.toml.
SKIP_RULES = ("mud", "extreme_cold")


def conditions(weather: Weather, turn: int) -> dict[str, str]:
    """Each zone's weather on ``turn`` (12.3)."""
    return {zone: weather.condition(turn, zone) for zone in ZONES}


def skip(weather: Weather, rule: str, turn: int) -> bool:
    """Does the skip rule ``rule`` drop its phases on ``turn``: every zone has that weather (12.3)?"""
    if rule not in SKIP_RULES:
        raise ValueError(f"no skip rule '{rule}' in Barbarossa 1941 (known: {', '.join(SKIP_RULES)})")
    if turn not in weather.turns:
        return False
    return all(c == rule for c in conditions(weather, turn).values())  # 5.2, 5.3, 12.3
