"""How Barbarossa 1941's map is drawn: a fill per terrain, a mark per hexside feature (no Textual).

Characters are chosen so that none repeats an overlay's (``+`` reach, ``*`` path, ``#`` rail
reach, ``!`` isolated, ``z`` zone) except the railroad's ``+``, which only ever stands on a
hexside, never inside a hex.  Colour only repeats what the character says.
"""

from __future__ import annotations

from kiev_tui.ui.glyphs import BARRIER, RIVER, WAY, Fill, MapSymbols, SideMark

B41_SYMBOLS = MapSymbols(
    fills={
        "forest": Fill("^", "^", "green", "forest"),
        "swamp": Fill(",", ",", "cyan", "swamp"),
        "rough": Fill(":", ":", "yellow", "rough"),
        "mountain": Fill("&", "\u25b3", "bright_white", "mountain"),
        "arctic": Fill("`", "`", "white", "arctic"),
        "lake": Fill("@", "\u2591", "blue", "lake (crossed only as 12.10 allows, never ended in)"),
        "sea": Fill("%", "\u2592", "blue", "sea (only the Baltic Fleet, 12.9)"),
    },
    sides={
        "major_river": SideMark("=", "\u2248", "blue", RIVER, 0, "major river along a hexside"),
        "lake": SideMark("@", "\u2591", "blue", BARRIER, 1, "lake hexside (crossed only as 12.10 allows)"),
        "strait": SideMark("$", "\u2593", "blue", BARRIER, 2, "Kerch strait hexside (12.10)"),
        "railroad": SideMark("+", "\u253c", "magenta", WAY, 3, "railroad crossing a hexside"),
    },
    city="MOSC",
    town="kurs",
)
