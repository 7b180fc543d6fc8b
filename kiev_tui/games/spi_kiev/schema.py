"""SPI Kiev's vocabularies: the sides, counters, terrain and scenario keys its data may use."""

from __future__ import annotations

from kiev_tui.engine.rules import Cases, Counters, Schema


SCHEMA = Schema(
    sides=("german", "soviet"),
    side_names={"german": "German", "soviet": "Soviet"},
    unit_types={
        "german": ("infantry", "jaeger", "mountain", "panzer", "motorized", "leader", "security"),
        "soviet": ("rifle", "mountain_rifle", "nkvd", "airborne", "cavalry", "tank", "motorized",
                   "mechanized", "hq"),
    },
    terrains=("clear", "woods", "swamp", "lake"),
    impassable_terrains=frozenset({"lake"}),  # 10.16
    settlements=("city", "town"),
    hexside_features=("road", "railroad", "lake"),
    impassable_hexsides=frozenset({"lake"}),  # 10.16
    river_kinds=("major", "minor"),  # largest first: a major river governs a hexside it shares
    scenario_keys=(
        "mud_turns", "rail_units_per_turn", "rail_hexes", "rpl_counters", "start_date", "days_per_turn",
        "pbm_asterisk",  # 25.11: the play-by-mail asterisk rule, off unless true
        "pbem_historical_reinforcements", "historical_reinforcements",  # 25.12
    ),
    unit_tables=("untried", "untried_types"),  # the pool of untried faces (13.0), read by untried.py
    # 3.22: a counter prints attack and defence per step; units.toml's `steps` pairs give both.
    counters=Counters(factors=("attack", "defence"), step_factors=("attack", "defence")),
)

#: 24.0 ends the game after the last turn; 4.1 gives each player-turn to one side.
CASES = Cases(game_over="24.0", wrong_side="4.1")
