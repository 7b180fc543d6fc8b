"""How Kiev to Rostov's map is drawn: a fill per terrain (woods over another terrain has its own),
a mark per hexside feature (rivers, main and minor roads).  No Textual here.

No character repeats an overlay's (``+`` reach, ``*`` path, ``#`` rail reach, ``!`` marker,
``z`` zone); the woods fills share ``^`` with a second character naming the terrain beneath.
Colour only repeats what the character says.
"""

from __future__ import annotations

from kiev_tui.ui.glyphs import RIVER, WAY, Fill, MapSymbols, SideMark

EFS_SYMBOLS = MapSymbols(
    fills={
        "hill": Fill(":", ":", "yellow", "hill (10.7)"),
        "swamp": Fill(",", ",", "cyan", "swamp (10.7)"),
        "woods": Fill("^", "^", "green", "woods on clear (10.72)"),
        "hill_woods": Fill(";", ";", "bright_green", "woods on hill (10.72: both costs count)"),
        "swamp_woods": Fill("'", "'", "bright_cyan", "woods on swamp (10.72: both costs count)"),
        "lake": Fill("%", "\u2591", "blue", "lake (never entered in Dry weather, 10.77)"),
    },
    sides={
        "major_river": SideMark("=", "\u2248", "blue", RIVER, 0, "major river along a hexside (10.76)"),
        "minor_river": SideMark("~", "~", "bright_blue", RIVER, 1, "river along a hexside (10.74)"),
        "main_road": SideMark("&", "\u2550", "bright_yellow", WAY, 2, "main road crossing a hexside (10.74)"),
        "minor_road": SideMark(".", "\u00b7", "yellow", WAY, 3, "minor road crossing a hexside (10.74)"),
    },
    city="SUMY",
    town="lebe",
)
