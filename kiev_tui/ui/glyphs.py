"""The characters the map is drawn with: one set for plain ASCII terminals, one with a few extras.

Every meaning has its own character, so a map read without colour (NO_COLOR) loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


def short_names(names: dict[Any, tuple[str, str]], width: int) -> dict[Any, str]:
    """A name of `width` letters for each settlement, different for any two of them.

    ``names`` maps a hex to (name, kind).  The first letters when they are unique; where two
    names share them, the first letter and the consonants after it (Boryspil, Borzna: brs,
    brz), else the shared start and the first letter that differs (Chernigov, Cherkassy: CHN,
    chk), else a number.  Cities are in capitals, towns in small letters.
    """
    def first(name: str, _: list[str]) -> str:
        return name[:width]

    def consonants(name: str, _: list[str]) -> str:
        return (name[0] + "".join(c for c in name[1:] if c.lower() not in "aeiouy -'"))[:width]

    def differing(name: str, group: list[str]) -> str:
        others = [n.lower() for n in group if n != name] or [""]
        i = min(next((k for k, (a, b) in enumerate(zip(name.lower(), o)) if a != b), len(name) - 1) for o in others)
        return name[: width - 1] + name[min(i, len(name) - 1)] if i >= width - 1 else name[:width]

    def numbered(name: str, group: list[str]) -> str:
        return name[: width - 1] + str(sorted(group).index(name) + 1)

    groups: dict[str, list[Any]] = {}
    for h, (name, _) in names.items():
        groups.setdefault(name[:width].lower(), []).append(h)
    out: dict[Any, str] = {}
    for key, hexes in groups.items():
        group = [names[h][0] for h in hexes]
        outside = {k for k in groups if k != key}
        for way in (first, consonants, differing, numbered):
            texts = [way(n, group) for n in group]
            lowered = [t.lower() for t in texts]
            if len(set(lowered)) == len(lowered) and not (set(lowered) & outside) or way is numbered:
                break
        for h, text in zip(hexes, texts):
            out[h] = text.upper() if names[h][1] == "city" else text.lower()
    return out


def map_legend(g: Glyphs) -> list[tuple[str, str]]:
    """(glyph, meaning) for the map itself: the one list the game, `kiev-tui map` and --ascii share."""
    return [
        ("/0101\\", "a hex and its number: column 01, row 01"),
        (g.woods * 4, "woods"),
        (g.swamp * 4, "swamp"),
        (g.lake * 4, "lake (impassable)"),
        ("KIEV", "a city (name in capitals, shortened to 4 letters)"),
        ("nezh", "a town (name in small letters)"),
        (g.minor, "minor river along a hexside"),
        (g.major, "major river along a hexside"),
        (g.rail, "railroad crossing a hexside"),
        (g.road, "road crossing a hexside"),
    ]
