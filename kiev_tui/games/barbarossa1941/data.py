"""Barbarossa 1941 as the data loaders see it: vocabularies and data checks, no play yet.

``DATA`` is what the registry finds for this game until ``system.py`` exists: ``validate``
checks every file of ``data/barbarossa1941/`` through it and ``map`` draws the map, while
``new`` and ``play`` refuse the game in one line.  When the rule system comes it takes these
hooks over (a rule system is a ``GameData`` too).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiev_tui.games.barbarossa1941.schema import SCHEMA

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.tomlio import Reader
    from kiev_tui.engine.units import UnitCatalog


class Barbarossa1941Data:
    id = "barbarossa1941"
    schema = SCHEMA

    def validate_file(self, path: Path, data: dict[str, Any]) -> bool:
        """geo.toml, the map builder's source, is this game's own kind of file."""
        if path.name != "geo.toml":
            return False
        from kiev_tui.games.barbarossa1941.mapbuild import check_geo_file

        check_geo_file(path, data)
        return True

    def read_units(self, root: "Reader", catalog: "UnitCatalog") -> None:
        """This game's own unit keys are checked as units.toml loads; the ersatz template of
        9.2 is kept in ``catalog.extra["ersatz"]`` and its counters join the catalog (9.2: they
        wait off the map until a replacement step brings one in)."""
        from kiev_tui.games.barbarossa1941.units import ersatz_pool, read_units

        template = catalog.extra["ersatz"] = read_units(root)
        catalog.units.update(ersatz_pool(catalog.units, template))

    def validate_tables(self, path: Path, data: dict[str, Any]) -> None:
        from kiev_tui.games.barbarossa1941.tables import check_tables

        check_tables(path, data)

    def check_scenario(self, scenario: "Scenario") -> None:
        from kiev_tui.games.barbarossa1941.setup_check import check_scenario

        check_scenario(scenario)


DATA = Barbarossa1941Data()
