"""Kiev's map symbols, unit letters and legend: capitals for German counters, small letters for Soviet ones."""

from __future__ import annotations

from kiev_tui.ui.glyphs import BARRIER, RIVER, WAY, Fill, Glyphs, MapSymbols, SideMark, map_legend

#: How SPI Kiev's map is drawn.  A major river governs a hexside it shares (the larger river
#: wins), a lake hexside comes next, and where a railroad and a road cross the same hexside
#: the railroad is shown.  The lake hexside has no legend row of its own: it is drawn with the
#: lake fill's character, which no river shares (issue 35).
KIEV_SYMBOLS = MapSymbols(
    fills={
        "woods": Fill("^", "^", "green"),
        "swamp": Fill(",", ",", "cyan"),
        "lake": Fill("%", "\u2591", "blue", "lake (impassable)"),  # water, never a river's glyph
    },
    sides={
        "minor_river": SideMark("~", "~", "bright_blue", RIVER, 1, "minor river along a hexside"),
        "major_river": SideMark("=", "\u2248", "blue", RIVER, 0, "major river along a hexside"),
        "railroad": SideMark("+", "\u253c", "magenta", WAY, 3, "railroad crossing a hexside"),
        "road": SideMark(".", "\u00b7", "yellow", WAY, 4, "road crossing a hexside"),
        "lake": SideMark("%", "\u2591", "blue", BARRIER, 2),  # drawn as the lake fill is
    },
    city="KIEV",
    town="nezh",
)

#: Letter for each unit type: capitals are German, small letters Soviet (case is the side).
TYPE_LETTER: dict[str, str] = {
    # German
    "infantry": "I", "jaeger": "J", "mountain": "G", "panzer": "P", "motorized": "M",
    "leader": "L", "security": "S",
    # Soviet (motorized is shared: lower-cased below for the Soviet side)
    "rifle": "r", "mountain_rifle": "g", "nkvd": "n", "airborne": "a", "cavalry": "c",
    "tank": "t", "mechanized": "x", "hq": "h",
}


def type_letter(unit_type: str, side: str) -> str:
    letter = TYPE_LETTER.get(unit_type, "?")
    return letter.upper() if side == "german" else letter.lower()


def legend(g: Glyphs) -> list[tuple[str, str]]:
    """(glyph, meaning) pairs for the legend screen, in the set in use."""
    return map_legend(g, KIEV_SYMBOLS) + [
        ("P6-2", "top unit of a stack: type letter, then attack-defence as on the counter"),
        ("I, P, M ...", "capital letter: German unit (I inf, J jaeger, G mountain, P panzer, M motorized, L leader, S security)"),
        ("r, t, c ...", "small letter: Soviet unit (r rifle, g mtn rifle, n NKVD, a airborne, c cavalry, t tank, m motorized, x mech, h HQ)"),
        ("r?-?", "untried Soviet unit: strength unknown until it fights"),
        ("_2!3", "under a stack: steps left in the top unit, a marker, units in the hex"),
        ("KIEV over a stack", "a city or town with units in it: its name on the hex's top border"),
        (g.oos, "marker: a unit there is out of supply"),
        (g.zoc, "marker: the hex is in an enemy zone of control"),
        (g.reach + "3", "the selected stack can reach this hex for 3 MP (under a stack: +3 and the stack size)"),
        (g.path + "3", "on the path to the cursor (3 MP so far); in a dialog, the hexes of a retreat or advance in order"),
        (g.rail_reach + "4", "reachable by rail, 4 rail hexes"),
        ("reverse", "the cursor: the inside of its hex in reverse video"),
        ("(    )", "the selected stack, or an attacker"),
        (">    <", "a hex chosen as the target of an attack"),
    ]
