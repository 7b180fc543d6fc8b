"""Barbarossa 1941's vocabularies: the sides, counters, terrain and scenario keys its data may use.

Case numbers are the rulebook's (``../shared/rulebooks/barbarossa-1941.txt``).
"""

from __future__ import annotations

from kiev_tui.engine.rules import Schema

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
    settlements=("major_city", "minor_city"),  # larger first (8.2, 11.1, 13)
    # railroad: a line crossing this hexside (10); lake and strait: hexsides no unit crosses
    # except as 12.10 allows (extreme cold, the Kerch strait)
    hexside_features=("railroad", "lake", "strait"),
    impassable_hexsides=frozenset({"lake", "strait"}),
    river_kinds=("major",),  # the chart knows one kind of river (5)
)
