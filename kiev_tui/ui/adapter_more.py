"""The methods and functions of kiev_tui.ui.adapter that a new game's first frame never calls
(issue 33, round 7).

Each class here is only a namespace: the class of the same name in adapter.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
The functions below it adapter.py hands out on first use (its module ``__getattr__``), so
``from kiev_tui.ui.adapter import map_rows`` works as before.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from kiev_tui.ui.adapter import (  # noqa: F401
    GENERIC_KEYS, HexLook, factor_text, hex_of_unit, hex_text, occupancy, parse_hex, reach_marks,
    short_names, side_of, symbols_for, ui_text, with_marks_only,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.mapdata import GameMap
    from kiev_tui.ui.adapter import Glyphs, Hex, MapSymbols, Overlay


class DefaultAdapter:
    """Methods of adapter.DefaultAdapter that a new game's first frame never calls."""
    # -- names --------------------------------------------------------------------------

    def type_letter(self, game: "Game", unit_type: str, side: str) -> str:
        # the case of the letter tells the sides apart, so the map reads without colour
        letter = (unit_type[:1] or "?")
        return letter.upper() if side == self.first_side(game) else letter.lower()

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return ui_text.stack_order(game, ids, lambda uid: self.strength(game, uid))

    def hex_looks(self, game: "Game", supply: Any, overlay: Overlay, glyphs: Glyphs) -> dict[Hex, HexLook]:
        gmap = game.scenario.map
        frames: dict[Hex, str] = {}
        for uid in overlay.selected + overlay.attackers:
            h = hex_of_unit(game, uid)
            if h is not None:
                frames[h] = "("
        for t in overlay.targets:
            frames[parse_hex(gmap, t)] = ">"
        reach_text = reach_marks(gmap, overlay, glyphs)
        looks: dict[Hex, HexLook] = {}
        for h, ids in occupancy(game).items():
            top = self.stack_order(game, ids)[0]
            side = side_of(game, top)
            a, d = self.strength(game, top)
            looks[h] = HexLook(letter=self.type_letter(game, game.scenario.catalog.units[top].type, side),
                               strength=f"{min(a, 9)}-{min(d, 9)}", count=len(ids),
                               steps=self.steps_left(game, top), side=side,
                               reach=reach_text.get(h, ""), frame=frames.get(h, ""))
        return hex_marker_looks(game, with_marks_only(looks, reach_text, frames))

    def legend(self, game: "Game", glyphs: Glyphs) -> list[tuple[str, str]]:
        first = self.first_side(game)
        kinds = tuple(game.rules.schema.unit_types.get(first, ())) or ("a",)
        letter = self.type_letter(game, kinds[0], first)
        return map_rows(game.scenario.map, glyphs, self.map_symbols(game.rules.schema)) + [
            (f"{letter}3-2", "top unit of a stack: type letter, then attack-defence"),
            (f"{letter.upper()} / {letter.lower()}",
             f"capital letter: {self.side_name(game, first)} unit; small letter: the other side"),
            (glyphs.reach + "3", "the selected stack can reach this hex for 3 MP"),
            (glyphs.path + "3", "on the path to the cursor (3 MP so far)"),
            ("reverse", "the cursor: the inside of its hex in reverse video"),
            ("(    )", "the selected stack"),
        ]
    # -- the panels -------------------------------------------------------------------------

    def inspector_lines(self, game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...]) -> list[str]:
        lines = [ui_text.hex_head(game.scenario.map, game.state.control, h, lambda s: self.side_name(game, s))]
        lines += marker_lines(game, h)
        ids = self.stack_order(game, occupancy(game).get(h, []))
        if not ids:
            return lines
        lines.append(f"{self.side_name(game, side_of(game, ids[0]))} stack of {len(ids)} "
                     f"(keys 1-{min(len(ids), 9)} pick):")
        for n, uid in enumerate(ids, 1):
            num = str(n) if n <= 9 else " "
            mark = "*" if uid in chosen else " "
            a, d = self.strength(game, uid)
            lines.append(f"{num}{mark}{self.unit_name(game, uid)}  {factor_text(game, uid) or f'{a}-{d}'}")
        return lines

    def tracker_lines(self, game: "Game") -> list[str]:
        ph = game.phase
        lines = [ui_text.turn_line(game)]
        lines.extend(ui_text.sequence_lines(game, lambda s: self.side_name(game, s),
                                            lambda p: self.phase_title(game, p)))  # the whole game-turn
        pending = self.pending(game)
        if pending is not None:
            lines.append(f"WAITING for the {self.side_name(game, pending.side)} player:")
        lines.extend(f"- {item}" for item in ph.todo)
        return lines

    def phase_help(self, game: "Game") -> str:
        return ("Select a stack with Enter; the hexes it can reach show their cost, and the path to the "
                "cursor is starred. Press Enter on a lit hex to go there. C lists what else the rules allow "
                "now (an attack, an overrun, a unit arriving...). P ends the phase.\n\n" + GENERIC_KEYS)

    def goto_prompt(self, game: "Game") -> tuple[str, str]:
        example = hex_text(game.scenario.map, min(game.scenario.map.hexes()))  # the first hex of the map
        return f"Go to hex: its number (e.g. {example}) or a place name", example

    def actors(self, game: "Game") -> list[Hex]:
        out = {h for uid in game.rules.actable(game) if (h := hex_of_unit(game, uid)) is not None}
        return sorted(out)

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> "Action":
        kind = game.rules.actions.get("move")
        if kind is None:
            raise LookupError(f"the {game.rules.id} game has no 'move' action")
        return kind(units, path)  # type: ignore[no-any-return]

    def end_phase_notes(self, game: "Game") -> list[str]:
        left = self.actors(game)
        if not left:
            return []
        gmap = game.scenario.map
        shown = ", ".join(hex_text(gmap, h) for h in left[:12]) + (" ..." if len(left) > 12 else "")
        return [f"- stacks that could still act: {shown}"]

    def _score_lines(self, game: "Game") -> list[str]:
        lines = ui_text.score_lines(game, lambda s: self.side_name(game, s), loud=True)
        lines.insert(-1, "")  # the verdict stands apart in the score box
        return lines


def marker_lines(game: "Game", h: Hex) -> list[str]:
    """'Markers: rail marker' for a hex that carries any, named as the schema declares them."""
    counters = game.rules.schema.counters
    kinds = game.state.hex_markers.get(hex_text(game.scenario.map, h), [])
    names = [m.label if (m := counters.marker(k)) else k for k in sorted(set(kinds))]
    return [f"Markers: {', '.join(names)}"] if names else []


def hex_marker_looks(game: "Game", looks: dict[Hex, HexLook]) -> dict[Hex, HexLook]:
    """Each hex's first declared marker drawn by its glyph in the mark cell (a unit's own mark wins)."""
    counters = game.rules.schema.counters
    gmap = game.scenario.map
    for hid, kinds in sorted(game.state.hex_markers.items()):
        glyphs = [m.glyph for k in sorted(set(kinds)) if (m := counters.marker(k)) is not None]
        if not glyphs:
            continue
        h = parse_hex(gmap, hid)
        look = looks.get(h, HexLook())
        if not look.mark:
            looks[h] = dataclasses.replace(look, mark=glyphs[0])
    return looks


def map_rows(gmap: "GameMap", glyphs: Glyphs, symbols: MapSymbols | None = None) -> list[tuple[str, str]]:
    """The legend of this map as drawn: a hex id, each kind of settlement, then the terrain fills and
    hexside marks of its game's ``symbols`` that this map uses."""
    if symbols is None:
        symbols = symbols_for(gmap.game)
    first = hex_text(gmap, min(gmap.hexes()))
    rows = [(f"/{first[-4:]}\\", f"a hex and its number ({first})")]
    places = {h: (gmap.name(h) or hex_text(gmap, h), kind) for h, kind in gmap.settlements().items()}
    short = short_names(places, 4, gmap.is_large)
    for kind in gmap.settlement_kinds or ("city", "town"):
        how = "name in capitals" if gmap.is_large(kind) else "name in small letters"
        shown = sorted(short[h] for h, (_, k) in places.items() if k == kind)
        if shown:
            rows.append((shown[0], f"a {kind.replace('_', ' ')} ({how}, shortened to 4 letters)"))
    used = {gmap.terrain(h) for h in gmap.hexes()}
    rows.extend((fill.char(glyphs) * 4, fill.label or terrain)
                for terrain, fill in symbols.fills.items() if terrain in used)
    drawn = {f for feats in gmap.features.values() for f in feats}
    rows.extend((mark.char(glyphs), mark.label) for feature, mark in symbols.sides.items()
                if feature in drawn and mark.label)
    return rows
