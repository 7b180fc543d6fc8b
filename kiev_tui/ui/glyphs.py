"""The characters the map is drawn with: one set for plain ASCII terminals, one with a few extras.

Every meaning has its own character, so a map read without colour (NO_COLOR) loses nothing.
What the terrain and the hexside features look like is the game's: its presentation adapter
hands a ``MapSymbols`` (``Adapter.map_symbols``), and a game without one gets symbols made
from its rule system's schema (``symbols_from_schema``).  This module knows no terrain name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from kiev_tui.engine.rules import Schema


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Characters of the overlays and markers, and which of a symbol's two characters to draw."""

    clear: str = " "
    reach: str = "+"  # an empty hex the selected stack can reach
    path: str = "*"  # a hex on the path to the cursor
    rail_reach: str = "#"  # a hex the selected stack can reach by rail (never a river's "=" or "\u2248")
    oos: str = "!"  # out of supply
    zoc: str = "z"  # in an enemy zone of control
    hidden: str = "?"  # untried: strength unknown
    ascii: bool = True


ASCII = Glyphs(ascii=True)
UNICODE = Glyphs(ascii=False, rail_reach="\u2550")  # a double line, like a pair of rails

# -- the map's symbols, supplied by the game -------------------------------------------------
#: How a hexside feature is drawn.  A river or a barrier runs along the hexside (the whole
#: border); a way (a road, a track) crosses it, drawn in the middle of a north or south border.
RIVER, BARRIER, WAY = "river", "barrier", "way"
ROLES = (RIVER, BARRIER, WAY)


@dataclass(frozen=True, slots=True)
class Fill:
    """What fills the inside of a hex of one terrain."""

    ascii: str  # one character
    unicode: str  # one character, used when the terminal takes more than ASCII
    style: str = ""  # a Rich style ("green"); colour only repeats what the character says
    label: str = ""  # the legend's words for it; the terrain's name when empty

    def char(self, g: Glyphs) -> str:
        return self.ascii if g.ascii else self.unicode


@dataclass(frozen=True, slots=True)
class SideMark:
    """How one hexside feature is drawn, and how it ranks against the others on the same side."""

    ascii: str
    unicode: str
    style: str
    role: str  # RIVER, BARRIER or WAY
    priority: int  # where a hexside has several features the lowest number is drawn
    label: str = ""  # the legend's words for it; no legend row when empty

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"a hexside mark's role is one of {', '.join(ROLES)}, not '{self.role}'")

    def char(self, g: Glyphs) -> str:
        return self.ascii if g.ascii else self.unicode


@dataclass(frozen=True)
class MapSymbols:
    """A game's map symbols: a fill per terrain and a mark per hexside feature.

    A terrain without a fill is plain (the hex shows its number), a feature without a mark is
    not drawn.  ``city`` and ``town`` are example names for the legend, as the map draws them.
    """

    fills: Mapping[str, Fill] = field(default_factory=dict)
    sides: Mapping[str, SideMark] = field(default_factory=dict)  # in the legend's order
    city: str = ""
    town: str = ""

    def mark(self, features: frozenset[str]) -> SideMark | None:
        """The mark drawn for a hexside with these features: the one of lowest priority number."""
        best: SideMark | None = None
        for f in features:
            m = self.sides.get(f)
            if m is not None and (best is None or m.priority < best.priority):
                best = m
        return best

    def best(self, features: frozenset[str], role: str) -> SideMark | None:
        """The first-ranked mark of one role among these features (the compact map's summary)."""
        found = [m for f in features if (m := self.sides.get(f)) is not None and m.role == role]
        return min(found, key=lambda m: m.priority) if found else None


# The pools the default symbols draw from.  Each character means one thing on the map: none
# of them is an overlay or marker character of Glyphs, a border, a digit or a letter.
FILL_POOL: tuple[tuple[str, str, str], ...] = (
    ("^", "^", "green"), (",", ",", "cyan"), (":", ":", "yellow"), (";", ";", "magenta"),
    ("'", "'", "bright_green"), ("$", "$", "bright_magenta"), ("&", "&", "bright_yellow"),
    ('"', '"', "bright_cyan"),
)
# water is never drawn like the largest river kind: it fills its hexes with "%" or a light shade
WATER = ("%", "\u2591", "blue")  # the fill of a terrain no unit may enter
MAJOR = ("=", "\u2248", "blue")  # the largest river kind
MINOR = ("~", "~", "bright_blue")  # every smaller river kind
BARRIER_MARK = ("#", "#", "red")  # a hexside no unit crosses
WAY_POOL: tuple[tuple[str, str, str], ...] = (
    (".", "\u00b7", "yellow"), ("+", "\u253c", "magenta"), ("-", "\u2500", "bright_yellow"),
)


def _words(name: str) -> str:
    return name.replace("_", " ")


def symbols_from_schema(schema: "Schema") -> MapSymbols:
    """Symbols for a game that brings none: made from the vocabularies its schema declares.

    The first terrain is plain; a terrain no unit enters is drawn like water; every other
    terrain takes the next fill of ``FILL_POOL`` (repeating after eight).  River kinds, listed
    largest first, take the major glyph then the minor one; a hexside no unit crosses is a
    barrier; every other feature is a way, the first listed drawn first.
    """
    fills: dict[str, Fill] = {}
    pool = 0
    for terrain in schema.terrains[1:]:
        if terrain in schema.impassable_terrains:
            a, u, st = WATER
            fills[terrain] = Fill(a, u, st, f"{_words(terrain)} (impassable)")
        else:
            a, u, st = FILL_POOL[pool % len(FILL_POOL)]
            pool += 1
            fills[terrain] = Fill(a, u, st, _words(terrain))
    sides: dict[str, SideMark] = {}
    rank = 0
    for i, kind in enumerate(schema.river_kinds):
        a, u, st = MAJOR if i == 0 else MINOR
        sides[f"{kind}_river"] = SideMark(a, u, st, RIVER, rank, f"{_words(kind)} river along a hexside")
        rank += 1
    for feature in schema.hexside_features:
        if feature in schema.impassable_hexsides:
            a, u, st = BARRIER_MARK
            sides[feature] = SideMark(a, u, st, BARRIER, rank, f"{_words(feature)}: a hexside no unit crosses")
            rank += 1
    ways = 0
    for feature in schema.hexside_features:
        if feature not in schema.impassable_hexsides:
            a, u, st = WAY_POOL[ways % len(WAY_POOL)]
            ways += 1
            sides[feature] = SideMark(a, u, st, WAY, rank, f"{_words(feature)} crossing a hexside")
            rank += 1
    return MapSymbols(fills, sides)


def default_game() -> str:
    """The game of the scenario a bare ``kiev-tui`` starts (the registry's default)."""
    from kiev_tui.engine.registry import default_game as registry_default

    return registry_default()


def symbols_for(game: str) -> MapSymbols:
    """The map symbols of a game by its name: its adapter's, else those its schema implies.

    A map of a game the registry does not know draws plain (no fills, no hexside marks).
    """
    from kiev_tui.engine.registry import get_adapter, get_schema

    try:
        schema = get_schema(game)  # a game with data only draws its map too
    except ValueError:
        return MapSymbols()
    adapter = get_adapter(game)
    own = getattr(adapter, "map_symbols", None)  # an adapter written before map symbols has none
    found: MapSymbols = own(schema) if own is not None else symbols_from_schema(schema)
    return found


def short_names(names: dict[Any, tuple[str, str]], width: int,
                large: Callable[[str], bool] = lambda kind: kind == "city") -> dict[Any, str]:
    """A name of `width` letters for each settlement, different for any two of them.

    ``names`` maps a hex to (name, kind).  The first letters when they are unique; where two
    names share them, the first letter and the consonants after it (Boryspil, Borzna: brs,
    brz), else the shared start and the first letter that differs (Chernigov, Cherkassy: CHN,
    chk), else a number.  The large kind of settlement (``large``; Kiev's cities) is in
    capitals, the others (towns) in small letters.
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
            out[h] = text.upper() if large(names[h][1]) else text.lower()
    return out


def map_legend(g: Glyphs, symbols: MapSymbols | None = None, first: str = "0101") -> list[tuple[str, str]]:
    """(glyph, meaning) for the map itself: the one list the game, `kiev-tui map` and --ascii share.

    Every fill and every labelled hexside mark of ``symbols`` (the default game's when None),
    with the hex ``first`` as the example of a hex number.
    """
    if symbols is None:
        symbols = symbols_for(default_game())
    col, row = first[-4:-2], first[-2:]
    sheet = f", map sheet {first[:-4]}" if len(first) > 4 else ""
    rows = [(f"/{first[-4:]}\\", f"a hex and its number: column {col}, row {row}{sheet}")]
    rows.extend((fill.char(g) * 4, fill.label or terrain) for terrain, fill in symbols.fills.items())
    if symbols.city:
        rows.append((symbols.city, "a city (name in capitals, shortened to 4 letters)"))
    if symbols.town:
        rows.append((symbols.town, "a town (name in small letters)"))
    rows.extend((mark.char(g), mark.label) for mark in symbols.sides.values() if mark.label)
    return rows
