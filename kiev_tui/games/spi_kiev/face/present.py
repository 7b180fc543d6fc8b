"""What the panels say: pure functions from a game position to text and hex looks.

Nothing here changes the game; the screen calls these after every action.  The text itself
lives in ``text.py`` (plain line mode says it too, without Textual); this module adds the
map's hex looks and what the game screen asks besides.
"""

from __future__ import annotations

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import acting, rail, reinforcements
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.face.glyphs import type_letter
from kiev_tui.games.spi_kiev.face.text import (PHASE_TITLE, current_strength, directive_turns, hex_lines,
                                               inspector_lines, name_ids, pick_mark, score_line, score_lines,
                                               score_now_lines, side_name, stack_order, steps_left, strength_text,
                                               supply_all, tracker_lines, turn_date, unit_name)
from kiev_tui.games.spi_kiev.face.text import unit_lines as _unit_lines
from kiev_tui.games.spi_kiev.supply import SupplyStatus
from kiev_tui.ui.adapter import Overlay, reach_marks, with_marks_only
from kiev_tui.ui.glyphs import Glyphs
from kiev_tui.ui.hexmap import HexLook

__all__ = ["PHASE_TITLE", "actors", "current_strength", "directive_turns", "due_entries", "hex_lines", "hex_looks",
           "inspector_lines", "name_ids", "rail_reach", "score_line", "score_lines", "score_now_lines", "side_name",
           "stack_order", "steps_left", "strength_text", "supply_all", "tracker_lines", "turn_date", "unit_lines",
           "unit_name"]


def unit_lines(view: View, uid: str, supply: dict[str, SupplyStatus], number: int | None = None,
               chosen: bool = False) -> list[str]:
    """One unit as the inspector lists it: its key and choice mark ahead of ``text.unit_lines``."""
    return _unit_lines(view, uid, supply, pick_mark(number, chosen))


def hex_looks(view: View, supply: dict[str, SupplyStatus], overlay: Overlay, glyphs: Glyphs) -> dict[Hex, HexLook]:
    """How every hex that is not plain terrain should look now."""
    looks: dict[Hex, HexLook] = {}
    frames: dict[Hex, str] = {}
    for uid in overlay.selected + overlay.attackers:
        h = view.hex_of(uid)
        if h is not None:
            frames[h] = "("
    for t in overlay.targets:
        frames[Hex.parse(t)] = ">"
    reach_text = reach_marks(view.map, overlay, glyphs)
    for h, ids in view.occupancy.items():
        order = stack_order(view, ids)
        top = order[0]
        side = view.side(top)
        mark = ""
        if any(uid in supply and not supply[uid].in_supply for uid in ids):
            mark = glyphs.oos
        elif view.in_enemy_zoc(h, side):
            mark = glyphs.zoc
        looks[h] = HexLook(
            letter=type_letter(view.udef(top).type, side), strength=strength_text(view, top),
            count=len(ids), steps=steps_left(view, top), side=side, mark=mark,
            reach=reach_text.get(h, ""), frame=frames.get(h, ""),
        )
    return with_marks_only(looks, reach_text, frames)


def actors(view: View) -> list[Hex]:
    """Hexes holding units of the phasing player that can still act this phase (acting.py decides)."""
    hexes = {h for uid in acting.actable(view) if (h := view.hex_of(uid)) is not None}
    return sorted(hexes)


def rail_reach(view: View, units: tuple[str, ...]) -> dict[Hex, tuple[str, ...]]:
    """Hexes the stack could reach by rail now (friendly rail only), with the path to each."""
    return rail.reach(view, units)


def due_entries(view: View) -> list[tuple[str, str, list[Hex]]]:
    """Reinforcements due now: (unit id, label, entry hexes)."""
    out = []
    for uid in reinforcements.due_now(view):
        out.append((uid, unit_name(view, uid), reinforcements.entry_hexes(view, uid)))
    return out
