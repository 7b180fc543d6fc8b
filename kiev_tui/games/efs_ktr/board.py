"""The position as Kiev to Rostov's ground rules read it: the one place that says what is where.

The rule modules (``stacking``, ``zoc``, ``movement``, ``overrun``, ``retreat``, and combat and
air written elsewhere) take a ``Board`` and never a ``Game``, so they are tested on the Sumy map
or on small made-up positions without a game running.  A Board is one position: its answers are
cached in ``memo``, and after any change the rule system builds a new Board (``replace``) rather
than editing this one.

What a Board holds: the map and charts, the counter catalogue, the hex of every ground unit on
the map, steps lost (16.23), the boxes of units off the map (Cadre and Eliminated, 16.24; air
Ready and Flown, 9.1), the markers the ground rules read (Overrun 11.44, Activated 10.24c,
Declared Attack 12.35, No Retreat and Additional Retreat orders 14.3, Out of Supply 6.7), the
game-turn, the phase and the phasing side, and which Soviet HQs show their Non-Op side (22.2).  Case numbers are the series rules' (EFS) and the
playbook's (PB), ``../shared/rulebooks/efs-kiev-to-rostov.txt``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.units import UnitDef
from kiev_tui.games.efs_ktr.schema import AXIS, SOVIET, split_terrain
from kiev_tui.games.efs_ktr.tables import Tables, load_tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

#: The phases units move in (4.2, 10.1-10.3), as sequence.toml names them.
MOVEMENT, MOTORIZED, REACTION = "movement", "motorized", "reaction"
#: Boxes of units off the map (16.24, 9.1); a unit not yet arrived is "pending".
CADRE, ELIMINATED, AIR_READY, AIR_FLOWN, PENDING = "cadre", "eliminated", "air_ready", "air_flown", "pending"
#: Retreat orders on a Defender Hex (14.31, 16.41).
NO_RETREAT, ADDITIONAL_RETREAT = "no_retreat", "additional_retreat"
#: 10.58: types whose MA is orange: they pay motorized costs but have no Motorized phase.
ORANGE_TYPES = frozenset({"artillery", "anti_aircraft", "anti_tank"})
#: Types whose MA is yellow and so may infiltrate (11.52b: cavalry with a yellow MA of 6).
CAVALRY_TYPES = frozenset({"cavalry"})


def other(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass
class Board:
    """Ground units on the Sumy map (or any EFS map), with what movement, ZOC and retreat read."""

    gmap: GameMap
    tables: Tables
    units: Mapping[str, UnitDef]  # the counter catalogue
    hex_of: dict[str, Hex]  # ground units on the map
    lost: dict[str, int] = field(default_factory=dict)  # steps lost (16.23): the face shown
    boxes: dict[str, str] = field(default_factory=dict)  # uid -> CADRE/ELIMINATED/AIR_*/PENDING
    turn: int = 1  # scenario turn (game-turn = first_game_turn + turn - 1)
    first_game_turn: int = 1
    phase: str = MOVEMENT
    phasing: str = AXIS
    weather: str = "dry"
    overrun_marked: frozenset[str] = frozenset()  # 11.44: units retreated by an overrun
    activated: frozenset[str] = frozenset()  # 10.24c: Soviet units an HQ activated this turn
    declared: frozenset[Hex] = frozenset()  # 12.35: Declared Attack markers
    orders: Mapping[Hex, str] = field(default_factory=dict)  # 14.31: revealed orders per Defender Hex
    out_of_supply: frozenset[str] = frozenset()  # 6.7 (always empty in Sumy: PB 10.44a)
    interdicted: frozenset[Hex] = frozenset()  # 13.15: hexes in a Zone of Interdiction
    supply_disregarded: bool = False  # PB 10.44a: no supply rules at all
    control: Mapping[Hex, str] = field(default_factory=dict)  # 3.21: last side to hold each hex
    non_op: frozenset[str] = frozenset()  # 22.2: Soviet HQs on their Non-Op side

    def __post_init__(self) -> None:
        at: dict[Hex, list[str]] = {}
        for uid, h in self.hex_of.items():
            at.setdefault(h, []).append(uid)
        self._at = {h: tuple(sorted(ids)) for h, ids in at.items()}
        #: Per-position answers of the rule modules (zones, reach, ...), computed once.
        self.memo: dict[object, object] = {}

    def replace(self, **changes: object) -> "Board":
        """A new position with these fields changed (the memo starts empty)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def moved(self, moves: Mapping[str, Hex | None]) -> "Board":
        """The position after ``moves`` (a unit to a hex, or None: off the map)."""
        hex_of = dict(self.hex_of)
        for uid, h in moves.items():
            if h is None:
                hex_of.pop(uid, None)
            else:
                hex_of[uid] = h
        return self.replace(hex_of=hex_of)

    # -- units ------------------------------------------------------------------------------------
    def udef(self, uid: str) -> UnitDef:
        return self.units[uid]

    def side(self, uid: str) -> str:
        return self.units[uid].side

    def step(self, uid: str) -> int:
        """Steps lost so far: 0 is the full face (16.23)."""
        return self.lost.get(uid, 0)

    def steps_left(self, uid: str) -> int:
        return len(self.units[uid].steps) - self.step(uid)

    def attack(self, uid: str) -> int:
        return self.units[uid].factor("attack", self.step(uid))

    def defence(self, uid: str) -> int:
        return self.units[uid].factor("defence", self.step(uid))

    def stacking(self, uid: str) -> int:
        """Printed stacking points (3.31): zero for an HQ."""
        return self.units[uid].factor("stacking", self.step(uid))

    def ma(self, uid: str) -> int:
        """The printed movement allowance (2.4)."""
        return self.units[uid].ma

    def utype(self, uid: str) -> str:
        return self.units[uid].type

    def is_motorized(self, uid: str) -> bool:
        """Pays motorized terrain costs (10.58, 10.78): red or orange MA (``mechanized``)."""
        return bool(self.units[uid].mechanized)

    def is_orange(self, uid: str) -> bool:
        """Artillery, AT and AA: motorized costs, no Motorized phase, no reaction (10.58b-c)."""
        return self.units[uid].type in ORANGE_TYPES

    def is_cavalry(self, uid: str) -> bool:
        return self.units[uid].type in CAVALRY_TYPES

    def is_hq(self, uid: str) -> bool:
        return self.units[uid].type == "hq"

    def is_non_op(self, uid: str) -> bool:
        """Is ``uid`` a Soviet HQ showing its Non-Op side (22.21)?"""
        return uid in self.non_op

    def command_range(self, uid: str) -> int:
        """An HQ's command range (22.11); a Non-Op HQ keeps it (22.21)."""
        return int(self.units[uid].extra.get("command_range", 4))

    def recovery(self, uid: str) -> int:
        """The recovery value on an HQ's Non-Op side (22.21)."""
        return int(self.units[uid].extra["recovery"])

    def non_op_over(self, h: Hex) -> list[str]:
        """22.21-22.22: the Non-Op HQs on the map whose command range covers ``h``; where any does,
        its restrictions (22.24-22.25) win over every Operational HQ's help."""
        return [u for u in sorted(self.non_op) if u in self.hex_of
                and self.hex_of[u].distance(h) <= self.command_range(u)]

    def is_artillery(self, uid: str) -> bool:
        return self.units[uid].type == "artillery"

    def is_armor(self, uid: str) -> bool:
        return self.units[uid].type in ("armor", "tank")

    def is_combat(self, uid: str) -> bool:
        """A combat unit: an MA and a defence of at least one (2.33a); HQs are combat units."""
        u = self.units[uid]
        return u.layer != "air" and u.ma > 0 and self.defence(uid) >= 1

    def own_zoc(self, uid: str) -> bool:
        """Does the counter itself exert a zone (3.42: no yellow No ZOC band)?"""
        return bool(self.units[uid].extra.get("zoc", True))

    # -- where ------------------------------------------------------------------------------------
    def at(self, h: Hex) -> tuple[str, ...]:
        return self._at.get(h, ())

    def occupied(self) -> dict[Hex, tuple[str, ...]]:
        return dict(self._at)

    def owner(self, h: Hex) -> str | None:
        """The side with units in the hex (two sides never share one), or None."""
        ids = self._at.get(h)
        return self.side(ids[0]) if ids else None

    def enemy_in(self, h: Hex, side: str) -> bool:
        """Does ``h`` hold an enemy combat unit (10.54)?"""
        return any(self.side(u) != side and self.is_combat(u) for u in self.at(h))

    def friendly_combat_in(self, h: Hex, side: str) -> bool:
        return any(self.side(u) == side and self.is_combat(u) for u in self.at(h))

    def box(self, uid: str) -> str | None:
        """The box of a unit off the map, or None for a unit on it."""
        return None if uid in self.hex_of else self.boxes.get(uid, PENDING)

    # -- the map ----------------------------------------------------------------------------------
    def terrain(self, h: Hex) -> tuple[str, bool]:
        """The hex's base terrain and whether woods lie on it (10.72, as map.toml stores it)."""
        return split_terrain(self.gmap.terrain(h))

    def settlement(self, h: Hex) -> str | None:
        return self.gmap.settlement(h)

    def is_clear(self, h: Hex) -> bool:
        """Clear for road costs and cavalry infiltration (10.74, 11.52b): no hill, swamp or woods;
        a town or city does not change it."""
        return self.terrain(h) == ("clear", False)

    def road(self, a: Hex, b: Hex) -> str | None:
        """The best road crossing the hexside a/b: "main_road", "minor_road" or None (10.74)."""
        feats = self.gmap.side_features(a, b)
        for kind in ("main_road", "minor_road"):
            if kind in feats:
                return kind
        return None

    def river(self, a: Hex, b: Hex) -> str | None:
        """"minor_river", "major_river" or None for the hexside a/b (10.72, 10.76)."""
        feats = self.gmap.side_features(a, b)
        for kind in ("major_river", "minor_river"):
            if kind in feats:
                return kind
        return None

    def no_retreat_terrain(self, h: Hex) -> bool:
        """16.41a2: is ``h`` terrain where a non-German No Retreat force takes no second step?
        City, major city, hill, mountain, alpine or woods (on any base, 10.72); Sumy has no
        fortifications (PB 10.44d)."""
        base, woods = self.terrain(h)
        return woods or base in ("hill", "mountain", "alpine") or self.settlement(h) in ("city", "major_city")

    def on_map(self, h: Hex) -> bool:
        return self.gmap.on_map(h)

    def hid(self, h: Hex) -> str:
        return self.gmap.grid.id(h)

    def parse(self, text: str) -> Hex:
        return self.gmap.grid.parse(text)

    @property
    def game_turn(self) -> int:
        return self.first_game_turn + self.turn - 1

    @classmethod
    def from_scenario(cls, scenario: "Scenario", tables: Tables | None = None) -> "Board":
        """The scenario's starting position: its set-up, reduced units, air boxes and control.

        Reinforcements not yet arrived are ``PENDING``; PB 10.44a sets supply aside in Sumy.
        """
        tabs = tables or load_tables(scenario.tables_path)
        units = scenario.catalog.units
        ground = {uid: h for uid, h in scenario.setup.items() if units[uid].layer != "air"}
        lost = {uid: int(n) for uid, n in scenario.extra.get("reduced", {}).items()}
        boxes: dict[str, str] = {}
        air = scenario.extra.get("air", {})
        for uid in air.get("ready", ()):
            boxes[uid] = AIR_READY
        for uid in units:
            if uid not in ground and uid not in boxes:
                boxes[uid] = PENDING
        control = {h: side for side, hexes in scenario.control.items() for h in hexes}
        first_gt = int(scenario.params.get("first_game_turn", 1)) if scenario.params else 1
        note = str(scenario.params.get("note", "")) if scenario.params else ""
        return cls(scenario.map, tabs, units, ground, lost, boxes, turn=1, first_game_turn=first_gt,
                   phase=MOVEMENT, phasing=scenario.first_player,
                   weather=str(scenario.params.get("weather", "dry")) if scenario.params else "dry",
                   supply_disregarded="no supply" in note.lower() or scenario.id.endswith("sumy"),
                   control=control)
