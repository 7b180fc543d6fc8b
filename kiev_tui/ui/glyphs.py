"""The characters the map is drawn with: one set for plain ASCII terminals, one with a few extras.

Every meaning has its own character, so a map read without colour (NO_COLOR) loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Characters for hexside features and hex fills."""

    minor: str
    major: str
    rail: str
    road: str
    woods: str
    swamp: str
    lake: str
    clear: str = " "
    reach: str = "+"  # an empty hex the selected stack can reach
    path: str = "*"  # a hex on the path to the cursor
    rail_reach: str = "="  # a hex the selected stack can reach by rail
    oos: str = "!"  # out of supply
    zoc: str = "z"  # in an enemy zone of control
    hidden: str = "?"  # untried: strength unknown
    ascii: bool = True

    def fill(self, terrain: str) -> str:
        return {"woods": self.woods, "swamp": self.swamp, "lake": self.lake}.get(terrain, self.clear)


ASCII = Glyphs(minor="~", major="=", rail="+", road=".", woods="^", swamp=",", lake="~", ascii=True)
UNICODE = Glyphs(minor="~", major="\u2248", rail="\u253c", road="\u00b7", woods="^", swamp=",", lake="\u2248",
                 ascii=False)


def legend(g: Glyphs) -> list[tuple[str, str]]:
    """(glyph, meaning) pairs for the legend screen, in the set in use."""
    return [
        ("/0101\\", "a hex: hex number shown when the hex is empty and plain"),
        (g.woods * 4, "woods"),
        (g.swamp * 4, "swamp"),
        (g.lake * 4, "lake (impassable)"),
        ("KIEV", "a city (name in capitals)"),
        ("nezh", "a town (name in small letters)"),
        (g.minor, "minor river along a hexside"),
        (g.major, "major river along a hexside"),
        (g.rail, "railroad crossing a hexside"),
        (g.road, "road crossing a hexside"),
        ("P6-2", "top unit of a stack: type letter, then attack-defence as on the counter"),
        ("I, P, M ...", "capital letter: German unit (I inf, J jaeger, G mountain, P panzer, M motorized, L leader, S security)"),
        ("r, t, c ...", "small letter: Soviet unit (r rifle, g mtn rifle, n NKVD, a airborne, c cavalry, t tank, m motorized, x mech, h HQ)"),
        ("r?-?", "untried Soviet unit: strength unknown until it fights"),
        ("_2!3", "under a stack: steps left in the top unit, a marker, units in the hex"),
        (g.oos, "marker: a unit there is out of supply"),
        (g.zoc, "marker: the hex is in an enemy zone of control"),
        (g.reach + "3", "the selected stack can reach this hex for 3 MP"),
        (g.path + "3", "on the path to the cursor (3 MP so far)"),
        (g.rail_reach + "4", "reachable by rail, 4 rail hexes"),
        ("[    ]", "the cursor"),
        ("(    )", "the selected stack, or an attacker"),
        (">    <", "a hex chosen as the target of an attack"),
    ]
