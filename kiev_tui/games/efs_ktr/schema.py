"""Kiev to Rostov's vocabularies: the sides, counters, terrain and scenario keys its data may use.

Case numbers are the series rules' (EFS) and the playbook's (PB), from
``../shared/rulebooks/efs-kiev-to-rostov.txt``.

Woods lie on top of another terrain (10.72: a "+" terrain adds its cost to the hex's highest
one), so a hex names one terrain and woods over a base is the base's name with ``_woods``
(``hill_woods``); woods over clear is plain ``woods``.  ``split_terrain`` gives the base and
whether woods are there; docs/DATA-SCHEMA.md, section EFS, says the same.
"""

from __future__ import annotations

from kiev_tui.engine.rules import Counters, HexMarker, Layer, Schema

AXIS, SOVIET = "axis", "soviet"

#: The terrains a hex can be without woods (10.7); lake is never entered in Dry weather (10.77).
BASE_TERRAINS = ("clear", "hill", "swamp", "lake")
#: The suffix naming woods over a base terrain (10.72).
WOODS_SUFFIX = "_woods"


def woods_name(base: str) -> str:
    """The terrain name of woods over ``base`` (10.72): ``woods`` over clear, else ``<base>_woods``."""
    return "woods" if base == "clear" else f"{base}{WOODS_SUFFIX}"


def split_terrain(terrain: str) -> tuple[str, bool]:
    """A hex terrain as (base terrain, woods on top?): ``hill_woods`` -> ("hill", True)."""
    if terrain == "woods":
        return "clear", True
    if terrain.endswith(WOODS_SUFFIX):
        return terrain[: -len(WOODS_SUFFIX)], True
    return terrain, False


TERRAINS = (*BASE_TERRAINS[:3], *(woods_name(b) for b in BASE_TERRAINS[:3]), "lake")

SCHEMA = Schema(
    sides=(AXIS, SOVIET),  # 4.2: the Axis player segment comes first in every game-turn
    side_names={AXIS: "Axis", SOVIET: "Soviet"},
    unit_types={
        AXIS: ("armor", "motorized", "recon", "infantry", "artillery", "air"),
        SOVIET: ("rifle", "cavalry", "tank", "motorized", "artillery", "anti_aircraft", "hq", "air"),
    },
    terrains=TERRAINS,
    impassable_terrains=frozenset({"lake"}),  # 10.77: unfrozen lakes are never entered
    settlements=("major_city", "city", "town"),  # larger first (10.79, 15.52c)
    # road lines cross hexsides (10.74): main roads and minor roads cost alike in Dry weather
    # but differ in Mud (10.75), so each is its own feature.
    hexside_features=("main_road", "minor_road"),
    river_kinds=("minor", "major"),  # 10.74 river, 10.76 major river
    # The counters' own facts.  support: artillery support strength (14.2, 15.4); zoc: false for
    # a unit without a zone of control (the rocket battalion, 10.6); acr and cas: an air unit's
    # air combat rating and close air support value (17.33, 15.65); air_role: fighter, bomber
    # or dummy (17.25); aa: the counter fires anti-aircraft by itself (17.4); command and
    # command_range: a Soviet HQ's command value and range (22.11-22.12); guards (22.3).
    # interdiction: an Axis air unit's interdiction rating (13.14); recovery: the recovery value
    # printed on a Soviet HQ's Non-Op side (22.21, 22.25g, 22.26a).
    unit_keys=("name", "support", "zoc", "acr", "cas", "air_role", "aa", "command", "command_range", "guards",
               "interdiction", "recovery",
               "reconstructed_values"),
    # air: which air units start in the Ready Box and which arrive later (9.1, PB 10.4);
    # reduced: steps a unit has lost when it is set up (PB 10.4: the 33rd Panzer Regiment).
    scenario_tables=("air", "reduced"),
    scenario_keys=("first_game_turn", "weather"),
    counters=Counters(
        # 16.22-16.23: each step is a face (or a face with a Step Loss marker) with its own attack
        # and defence; movement is the printed MA; stacking points are printed (3.31).
        factors=("attack", "defence", "movement", "stacking"), step_factors=("attack", "defence"),
        ma_factor="movement",
        # 16.24: a unit removed by losses goes to the Cadre Box, by an "e" to the Eliminated Box
        # (the engine's own status); 9.1: an air unit is in its Ready or Flown Box.
        # 17.26, 17.33d: air combat and AA send an air unit to the Damaged or Destroyed Box too.
        statuses=("cadre", "air_ready", "air_flown", "air_damaged", "air_destroyed"),
        layers=(Layer("ground"),
                Layer("air", stacks=False, exerts_zoc=False, statuses=("air_ready", "air_flown", "air_damaged", "air_destroyed")),
                Layer("marker", stacks=False, exerts_zoc=False)),
        type_layers={"air": "air"},
        # 12.2: a Declared Attack marker stands on each defender hex until its combat is fought.
        hex_markers=(HexMarker("declared_attack", "!", "declared attack"),),
    ),
)
