"""The position as Barbarossa 1941's movement, ZOC and stacking rules read it.

The rule system (``system.py``, still to come) will build a ``Board`` from its game state; the
rule modules (``stacking``, ``terrain``, ``zoc``, ``movement``) take a ``Board`` and never a
``Game``, so they are tested on the real map or on small made-up maps without a game running.
Only ground units stand on the board: air corps live on the air layer (schema), and neither
stack nor project a zone (11).

Case numbers are the rulebook's (``../shared/rulebooks/barbarossa-1941.txt``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.mapdata import GameMap
from kiev_tui.engine.units import UnitDef
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.tables import Tables, read_tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

#: Movement classes (5.1, 12.3): what a unit pays and how weather sets its MP.
INFANTRY, MOTORIZED, CAVALRY = "infantry", "motorized", "cavalry"
#: Types that move as cavalry on a face that is not motorized (5.1, 12.11).
CAVALRY_TYPES = frozenset({"cavalry", "mobile_group"})
#: Counters that are no formation: they neither stack (3) nor project a zone (4); see rulings.
NOT_FORMATIONS = frozenset({"fort", "fleet", "partisan", "air"})


def other(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass
class Board:
    """Ground units on the map, with what the rules of 3, 4, 5 and 12.10 need to know.

    One Board is one position: its answers are cached in ``memo``, so after any change the rule
    system builds a new Board (cheap: a dict of hexes) rather than editing this one.
    """

    gmap: GameMap
    tables: Tables
    units: Mapping[str, UnitDef]  # the counter catalogue
    hex_of: dict[str, Hex]  # ground units on the map
    lost: dict[str, int] = field(default_factory=dict)  # steps lost so far (the face shown)
    turn: int = 1
    isolated: frozenset[str] = frozenset()  # units under an Isolated marker (8, 8.1)
    naval: Mapping[str, str] = field(default_factory=dict)  # sea -> side with naval superiority (8.2)
    control: Mapping[Hex, str] = field(default_factory=dict)  # hex -> side that last held it (13, 8.2, 10.2)

    def __post_init__(self) -> None:
        at: dict[Hex, list[str]] = {}
        for uid, h in self.hex_of.items():
            at.setdefault(h, []).append(uid)
        self._at = {h: tuple(sorted(ids)) for h, ids in at.items()}
        self._zone: dict[Hex, str] = {}
        for zone, area in self.tables.weather.zone_areas.items():
            for h in self.gmap.areas[area].hexes if area in self.gmap.areas else ():
                self._zone[h] = zone
        #: Per-position answers of the rule modules (zones of control, ...), computed once.
        self.memo: dict[object, object] = {}

    # -- units ------------------------------------------------------------------------------------
    def udef(self, uid: str) -> UnitDef:
        return self.units[uid]

    def side(self, uid: str) -> str:
        return self.units[uid].side

    def step(self, uid: str) -> int:
        return self.lost.get(uid, 0)

    def at(self, h: Hex) -> tuple[str, ...]:
        return self._at.get(h, ())

    def occupied(self) -> dict[Hex, tuple[str, ...]]:
        return dict(self._at)

    def owner(self, h: Hex) -> str | None:
        """The side with units in the hex (two sides never share one), or None."""
        ids = self._at.get(h)
        return self.side(ids[0]) if ids else None

    def is_formation(self, uid: str) -> bool:
        """A combat formation: it stacks (3) and may help make a zone (4)."""
        return self.units[uid].type not in NOT_FORMATIONS

    def points(self, uid: str) -> int:
        """Stacking points: one per step left, none for counters worth no step (3, 12.5)."""
        if not self.is_formation(uid):
            return 0
        return bu.stacking_points(self.units[uid], self.step(uid))

    def nation(self, uid: str) -> str:
        return bu.nation(self.units[uid])

    def movement_class(self, uid: str) -> str:
        """Motorized on a motorized face; cavalry pays foot costs but has its own weather MP (5.1, 12.3)."""
        u = self.units[uid]
        if bu.is_motorized(u, self.step(uid)):
            return MOTORIZED
        return CAVALRY if u.type in CAVALRY_TYPES else INFANTRY

    def is_static(self, uid: str) -> bool:
        """Militia, forts, partisans and the fleet never move (12.4, 12.7, 12.9, 12.11)."""
        u = self.units[uid]
        return bool(u.extra.get("static", False)) or u.ma == 0

    # -- the map ----------------------------------------------------------------------------------
    def zone(self, h: Hex) -> str:
        """The weather zone of a hex (12.3); a hex in neither area counts as south."""
        return self._zone.get(h, "south")

    def weather(self, h: Hex) -> str:
        """The weather condition in the hex's zone this turn (12.3)."""
        return self.tables.weather.condition(self.turn, self.zone(h))

    @classmethod
    def from_scenario(cls, scenario: "Scenario", tables: Tables | None = None) -> "Board":
        """The scenario's starting position (its set-up and reduced units) on its first turn."""
        from kiev_tui.games.barbarossa1941.setup_check import check_reduced, first_turn

        tabs = tables or read_tables(scenario.tables_path, scenario.tables)
        lost = check_reduced(scenario)
        ground = {uid: h for uid, h in scenario.setup.items() if scenario.catalog.units[uid].layer == "ground"}
        return cls(scenario.map, tabs, scenario.catalog.units, ground, {u: lost.get(u, 0) for u in ground},
                   turn=first_turn(scenario))
