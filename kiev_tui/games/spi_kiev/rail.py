"""Rail movement (5.3 with 19.3): Soviet only, 8 units a turn, 25 rail hexes, friendly rail only."""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError, path_back

from kiev_tui.games.spi_kiev import directive
from kiev_tui.games.spi_kiev.common import GERMAN, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.movement import check_relief, common_start, may_relieve, may_start_moving, move_block
from kiev_tui.later import handed_out


def capacity(view: View) -> tuple[int, int]:
    """(units moved by rail this turn, units allowed per turn)."""
    p = view.game.scenario.params
    return view.vars.rail_used, int(p.get("rail_units_per_turn", 8))


def max_hexes(view: View) -> int:
    return int(view.game.scenario.params.get("rail_hexes", 25))


def is_rail_hex(view: View, h: Hex) -> bool:
    return any(view.map.has(h, n, "railroad") for n in view.map.neighbours(h))


def friendly_rail(view: View, h: Hex) -> bool:
    """19.3: a rail hex the Germans neither occupy nor control (their zones, leaders included)."""
    return is_rail_hex(view, h) and not view.occupied_by(h, GERMAN) and h not in view.side_zones(GERMAN)[0]


def counted(view: View, units: tuple[str, ...]) -> int:
    return sum(1 for u in units if not view.is_hq_like(u))  # 11.21: HQs ride free


#: Functions written in rail_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'check_rail', 'destinations', 'reach'})


__getattr__ = handed_out(__name__, "kiev_tui.games.spi_kiev.rail_more", _LATER)
