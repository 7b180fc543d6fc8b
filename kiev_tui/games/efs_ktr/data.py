"""Kiev to Rostov as the data loaders see it: vocabularies and data checks, no play yet.

``DATA`` is what the registry finds for this game until ``system.py`` exists: ``validate``
checks every file of ``data/efs_ktr/`` through it and ``map`` draws the Sumy map, while ``new``
and ``play`` refuse the game in one line.  When the rule system comes it takes these hooks over.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.games.efs_ktr.schema import SCHEMA

if TYPE_CHECKING:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.tomlio import Reader
    from kiev_tui.engine.units import UnitCatalog


class EfsKtrData:
    id = "efs_ktr"
    schema = SCHEMA

    def read_units(self, root: "Reader", catalog: "UnitCatalog") -> None:
        from kiev_tui.games.efs_ktr.units import read_units

        read_units(root)

    def validate_tables(self, path: Path, data: dict[str, Any]) -> None:
        from kiev_tui.games.efs_ktr.tables import check_tables

        check_tables(path, data)

    def check_victory(self, reader: "Reader", catalog: "UnitCatalog",
                      hex_on_map: "Callable[[Reader, str, Any], Hex]") -> None:
        from kiev_tui.games.efs_ktr.setup_check import check_victory

        check_victory(reader, hex_on_map)

    def check_scenario(self, scenario: "Scenario") -> None:
        from kiev_tui.games.efs_ktr.setup_check import check_scenario

        check_scenario(scenario)


DATA = EfsKtrData()
