"""Barbarossa 1941's vocabularies: the sides, counters, terrain and scenario keys its data may use.

Case numbers are the rulebook's (``../shared/rulebooks/barbarossa-1941.txt``).
"""

from __future__ import annotations

from kiev_tui.engine.rules import Counters, HexMarker, Layer, Schema

AXIS, SOVIET = "axis", "soviet"

SCHEMA = Schema(
    sides=(AXIS, SOVIET),  # the Axis operations phase comes first (2.1)
    side_names={AXIS: "Axis", SOVIET: "Soviet"},
    unit_types={
        # a unit's country is its own key (nation), so a Finnish or Romanian corps is "infantry"
        AXIS: ("infantry", "mountain", "panzer", "cavalry", "mobile", "security", "airborne", "air",
               "fort"),
        SOVIET: ("army", "shock_army", "mechanized", "cavalry", "mobile_group", "group", "airborne",
                 "militia", "partisan", "air", "fort", "fleet"),
    },
    # clear first: the default terrain (SOURCES.md: the chart has no clear line).  Sea hexes
    # are entered by nothing; lake hexes may be crossed in some weather but never ended in (12.10).
    terrains=("clear", "forest", "swamp", "rough", "mountain", "arctic", "lake", "sea"),
    impassable_terrains=frozenset({"sea"}),
    # 12.9: the Baltic Fleet is a counter on a sea hex (1205, 17.2); no other unit enters the sea
    impassable_except={"sea": frozenset({"fleet"})},
    settlements=("major_city", "minor_city"),  # larger first (8.2, 11.1, 13)
    # railroad: a line crossing this hexside (10); lake and strait: hexsides no unit crosses
    # except as 12.10 allows (extreme cold, the Kerch strait)
    hexside_features=("railroad", "lake", "strait"),
    impassable_hexsides=frozenset({"lake", "strait"}),
    river_kinds=("major",),  # the chart knows one kind of river (5)
    # The counters' own facts (units.py reads and checks them): 1's quality and black MP, 3's
    # steps, 11's air values, 12.4-12.11's special units.  See docs in units.py.
    unit_keys=("name", "nation", "command", "motorized_by_step", "entry_step", "loss_steps",
               "air_columns", "air_range", "die_support", "drop_range", "static", "guards", "permanent",
               "rebuild", "replenish", "reconstructed_values"),
    unit_tables=("ersatz",),  # 9.2: the German ersatz corps, a counter made from a replacement step
    # Typhoon starts on turn 5 with 9 VP and its own points (17); see setup_check.py.
    # axis_rail: rail hexes of the USSR the Axis holds at the start with no marker on them (10.2).
    # optional_rules: the 14.3 rules in play, a game option ("14.3.1,14.3.5"; phases_supply.options_in_play).
    scenario_keys=("first_turn", "start_vp", "first_turn_weather", "artillery_points", "replacement_points",
                   "rail_markers", "axis_rail", "setup_in_own_country", "optional_rules"),
    # choices: every hex the book allows a unit at set-up (15.1-15.2); reduced: steps lost at
    # the start (17); event: units the VP track brings or takes (13, 14.3.3); withdrawal: units
    # leaving on a turn (12.5); deployment: 14.2's free set-up limits; reconstructed_setup: the
    # set-up hexes that are ours, not the book's.
    scenario_tables=("choices", "reduced", "event", "withdrawal", "deployment", "reconstructed_setup"),
    # place: how an arrival's hex is found when the book names no hex (any city, an army to
    # replace, kept off the map); early_turn: 14.3.4; removed_by: the optional rule deleting it.
    reinforcement_keys=("place", "early_turn", "removed_by", "case"),
    # 1: each counter reads combat-quality-movement.  Combat is each `steps` pair's first half,
    # movement the `ma`; quality is per step in `factors` (0: never leads an assault, 6).
    counters=Counters(
        factors=("combat", "quality", "movement"), step_factors=("combat",), ma_factor="movement",
        # 11, 11.2: an air corps stands in a city, has no zone and never counts for stacking; it
        # supports one combat a turn. It stays on its base (status "map": a counter with a hex is
        # on the map) and carries the air_flown marker until the next turn (air.FLOWN), so no
        # status of its own: a box status would take it off its base.
        layers=(Layer("ground"), Layer("air", stacks=False, exerts_zoc=False)),
        type_layers={"air": "air"},
        hex_markers=(HexMarker("rail_marker", "+", "rail marker"),),  # 10.3: the end of the Axis rail
    ),
)
