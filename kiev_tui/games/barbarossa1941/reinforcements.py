"""Arrivals and withdrawals (9.1, 11, 12.5, 12.11, 13, 14.3, 15.3, 17.2): who comes in on a turn,
where each may be put, and who leaves.

Everything is read from data: the scenario's ``[[reinforcement]]``, ``[[withdrawal]]`` and
``[[event]]`` tables (15.3, 17.2, 13), the nations' entry cities (tables.toml ``[entry]``, 9.1)
and ``[campaign.arrival]``.  The functions take a ``Board`` and the control of cities the rule
system keeps (``control``: city hex -> the side that last held it, 13); they never see a Game.

The readings (docs/rulings.md, "Reinforcements, replacements and victory"): a book hex the enemy
holds, or one too full to take the unit, sends it to the nearest city its side holds (9.1); an
enemy zone on the entry hex changes nothing; the calendar's own lists are placed in full (two
units in Warsaw on turn 2), while the one-unit-per-city rate of 9.1 limits what comes in by the
nation's own route (German corps rebuilt as reinforcements, 9.2); a Soviet air corps enters in
a major city its side holds (11 over 17.2's "any city").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.games.barbarossa1941 import stacking
from kiev_tui.games.barbarossa1941.board import Board, other
from kiev_tui.games.barbarossa1941.schema import SCHEMA, SOVIET
from kiev_tui.games.barbarossa1941.tables import Campaign, load_campaign
from kiev_tui.games.barbarossa1941.units import entry_step

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

CASE = "9.1"
#: How an arrival finds its hex (setup_check.PLACES, plus 9.2's "entry": the nation's own cities).
HEXES, ANY_CITY, ANY_MAJOR, REPLACE_ARMY, HELD, ENTRY = (
    "hexes", "any_city", "any_major_city", "replace_army", "held", "entry")
PLACE_CASE = {HEXES: "9.1", ANY_CITY: "12.11", ANY_MAJOR: "11", REPLACE_ARMY: "12.11", HELD: "12.5", ENTRY: "9.1"}
EARLY_RULE = "14.3.4"  # early_turn belongs to this optional rule
DEFAULT_TABLES = Path(__file__).resolve().parents[3] / "data" / "barbarossa1941" / "tables.toml"


@lru_cache(maxsize=4)
def default_campaign(path: Path = DEFAULT_TABLES) -> Campaign:
    """The shipped tables.toml's [campaign] (the modules' default when no Campaign is given)."""
    return load_campaign(path)


def campaign(camp: Campaign | None) -> Campaign:
    return camp if camp is not None else default_campaign()


@dataclass(frozen=True, slots=True)
class Arrival:
    """One unit due on the map (or, place "held", in the player's hand) this turn."""

    uid: str
    side: str
    turn: int
    place: str  # hexes, any_city, any_major_city, replace_army, held, entry
    hexes: tuple[Hex, ...] = ()  # the book's hexes (place "hexes")
    case: str = "15.3"
    source: str = "calendar"  # "calendar", "event:<id>", "rebuild"

    @property
    def nation_route(self) -> bool:
        """Placed through its nation's entry cities (9.1), so their one-a-turn rate applies."""
        return self.place == ENTRY


# -- who holds what --------------------------------------------------------------------------------


def held_by(board: Board, control: Mapping[Hex, str], h: Hex) -> str | None:
    """The side holding ``h``: the side with units there, else the city's last holder (13), else
    the country it lies in at the start, else nobody."""
    occupant = board.owner(h)
    if occupant is not None:
        return occupant
    if h in control:
        return control[h]
    for area in board.gmap.areas.values():
        if area.side in SCHEMA.sides and h in area.hexes:
            return area.side
    return None


def cities_held(board: Board, control: Mapping[Hex, str], side: str, major_only: bool = False) -> list[Hex]:
    """Cities ``side`` holds with no enemy unit in them, in hex order."""
    out = []
    for h, kind in sorted(board.gmap.settlements().items()):
        if major_only and kind != "major_city":
            continue
        if held_by(board, control, h) == side:
            out.append(h)
    return out


def place_hex(board: Board, text: str) -> Hex | None:
    """A place of tables.toml: a name on the map or a hex id."""
    h = board.gmap.find(text)
    if h is not None:
        return h
    try:
        h = board.gmap.grid.parse(text)
    except HexError:  # a name that is on no map
        return None
    return h if board.gmap.on_map(h) else None


def nation_entry(board: Board, nation: str) -> tuple[Hex, ...]:
    """The entry cities/hexes of 9.1 for a nation (tables.toml [entry]); none for the Slovaks."""
    names = getattr(board.tables.entry, nation, ()) if nation in ("german", "romanian", "italian", "hungarian",
                                                                    "finnish") else ()
    return tuple(h for h in (place_hex(board, n) for n in names) if h is not None)


# -- what is due ---------------------------------------------------------------------------------


def arrival_turn(r: Any, options: Iterable[str] = ()) -> int:
    """The turn a [[reinforcement]] comes in: its early_turn under 14.3.4, else its turn."""
    early = r.extra.get("early_turn")
    return int(early) if early is not None and EARLY_RULE in set(options) else r.turn


def due(scenario: "Scenario", turn: int, side: str, options: Iterable[str] = (),
        fired: Mapping[str, int] | None = None) -> list[Arrival]:
    """Every unit of ``side`` arriving on ``turn`` (15.3, 17.2), in the file's order.

    ``options``: the optional rules in play (14.3.2 removes the 7 FjD, 14.3.4 brings the
    Siberian armies early).  ``fired``: VP events already set off, id -> turn (13); an event's
    units come ``delay`` turns after it (the Hungarians of 13 on 0124).  Militia and partisans are
    placed by their own rules (partisans.py), not here.
    """
    opts = set(options)
    out: list[Arrival] = []
    for r in scenario.reinforcements:
        if r.side != side or r.extra.get("removed_by") in opts:  # 14.3.2
            continue
        if arrival_turn(r, opts) != turn:
            continue
        place = str(r.extra.get("place", HEXES))
        case = str(r.extra.get("case", "15.3"))
        if r.extra.get("early_turn") is not None and EARLY_RULE in opts:
            case = EARLY_RULE
        out += [Arrival(uid, side, turn, place, tuple(r.hexes), case) for uid in r.units]
    for e in scenario.extra.get("event", []):
        if e.get("side") != side or e.get("place", HEXES) != HEXES or "vp" not in e:
            continue
        start = (fired or {}).get(e["id"])
        if start is not None and start + int(e.get("delay", 0)) == turn:
            hexes = tuple(board_hex(scenario, t) for t in e.get("hexes", []))
            out += [Arrival(uid, side, turn, HEXES, hexes, str(e.get("case", "13")), f"event:{e['id']}")
                    for uid in e.get("units", [])]
    return out


def optional_arrivals(scenario: "Scenario", turn: int, options: Iterable[str], roll: int) -> list[Arrival]:
    """Units an optional rule's roll brings in at once (14.3.3: Dietl in Helsinki on a 6, turn 5)."""
    opts = set(options)
    out: list[Arrival] = []
    for e in scenario.extra.get("event", []):
        rule = e.get("optional_rule")
        if rule is None or rule not in opts or int(e.get("turn", 0)) != turn or roll not in e.get("roll", []):
            continue
        hexes = tuple(board_hex(scenario, t) for t in e.get("hexes", []))
        out += [Arrival(uid, e["side"], turn, HEXES, hexes, str(rule), f"event:{e['id']}") for uid in e.get("units", [])]
    return out


def optional_roll_turns(scenario: "Scenario", options: Iterable[str]) -> dict[str, int]:
    """Optional-rule events in play and the turn their die is rolled (14.3.3)."""
    opts = set(options)
    return {e["id"]: int(e["turn"]) for e in scenario.extra.get("event", [])
            if e.get("optional_rule") in opts and "turn" in e}


def returning_air(board: Board, uid: str, turn_lost: int) -> Arrival:
    """An air corps caught at its base comes back two turns later as a reinforcement (11.1, the
    book's "two days" read as turns): a Soviet one in a major city its side holds (11), a German
    one in any city the Axis holds."""
    side = board.side(uid)
    place = ANY_MAJOR if side == SOVIET else ANY_CITY
    return Arrival(uid, side, turn_lost + board.tables.air.return_after_turns, place, (), "11.1", "air")


def board_hex(scenario: "Scenario", text: str) -> Hex:
    return scenario.map.grid.parse(text)


def withdrawals(scenario: "Scenario", turn: int, side: str, in_play: Iterable[str]) -> list[str]:
    """Units of ``side`` leaving at the start of ``turn`` (12.5, 15.3, 17.2): only those still in
    play; a listed unit already lost or never placed is simply not there to leave."""
    here = set(in_play)
    out: list[str] = []
    for w in scenario.extra.get("withdrawal", []):
        if w.get("side") == side and int(w.get("turn", 0)) == turn:
            out += [u for u in w.get("units", []) if u in here and u not in out]
    return out


# -- where it may go ------------------------------------------------------------------------------


def _room(board: Board, uid: str, h: Hex, air: Mapping[str, Hex]) -> Illegal | None:
    """Can ``uid`` be put on ``h``: stacking for ground units (3), base size for air corps (11.1)."""
    if board.udef(uid).type == "air":
        if board.gmap.settlement(h) is None:
            return Illegal("11.1", f"{board.gmap.grid.id(h)} is no city: an air corps is based in a city")
        cap = board.tables.air.major_city_capacity if board.gmap.settlement(h) == "major_city" \
            else board.tables.air.minor_city_capacity
        there = sum(1 for u, at in air.items() if at == h and u != uid)
        if there >= cap:
            return Illegal("11.1", f"{board.gmap.grid.id(h)} already bases {there} air corps, its most")
        return None
    if not board.gmap.on_map(h) or board.gmap.is_impassable(h) and board.udef(uid).type != "fleet":
        return Illegal("12.10", f"no unit arrives on {board.gmap.grid.id(h)}")
    if board.gmap.terrain(h) == "lake":
        return Illegal("12.10", f"{board.gmap.grid.id(h)} is a lake hex: no unit may stop there")
    return stacking.check_hex(board, h, adding=[uid])


def _nearest_cities(board: Board, control: Mapping[Hex, str], side: str, origins: Iterable[Hex],
                    fits: Any) -> frozenset[Hex]:
    """The friendly cities nearest the book's hexes where the unit fits (9.1), ties all offered."""
    starts = list(origins)
    best: list[Hex] = []
    dist = None
    for h in cities_held(board, control, side):
        if not fits(h):
            continue
        d = min((h.distance(o) for o in starts), default=0)
        if dist is None or d < dist:
            best, dist = [h], d
        elif d == dist:
            best.append(h)
    return frozenset(best)


def entry_hexes(board: Board, arrival: Arrival, control: Mapping[Hex, str],
                entered: Mapping[Hex, int] | None = None, air: Mapping[str, Hex] | None = None,
                camp: Campaign | None = None) -> frozenset[Hex]:
    """Every hex where ``arrival`` may be put now (9.1, 11, 12.11); empty for a "held" unit.

    ``entered``: units already brought this turn into each entry city by the nation's route
    (9.1's one-a-turn rate, for ``place = "entry"`` arrivals).  ``air``: air corps on the air
    layer and their bases (11.1's capacity).
    """
    c = campaign(camp)
    side, uid, used, bases = arrival.side, arrival.uid, entered or {}, air or {}
    enemy = other(side)

    def fits(h: Hex) -> bool:
        return held_by(board, control, h) != enemy and _room(board, uid, h, bases) is None

    if arrival.place == HELD:
        return frozenset()  # 12.5: kept off the map until used
    if arrival.place == REPLACE_ARMY:  # 12.11: in place of an army of its side on the map
        return frozenset(board.hex_of[u] for u in replaceable_armies(board, side, c))
    if arrival.place in (ANY_CITY, ANY_MAJOR) or board.udef(uid).type == "air":
        soviet_air = board.udef(uid).type == "air" and side == SOVIET  # 11: a major city, over 17.2
        major = arrival.place == ANY_MAJOR or (soviet_air and c.arrival.air_place == ANY_MAJOR)
        return frozenset(h for h in cities_held(board, control, side, major_only=major) if fits(h))
    if arrival.place == ENTRY:
        book = nation_entry(board, board.nation(uid))
        open_ = [h for h in book if held_by(board, control, h) != enemy]
        under = [h for h in open_ if used.get(h, 0) < c.arrival.national_per_city]
        if open_ and not under:
            return frozenset()  # 9.1: one unit a turn per entry city, and every one has had it
        ok = [h for h in under if fits(h)]
        return frozenset(ok) if ok else _nearest_cities(board, control, side, book, fits)  # 9.1
    ok = [h for h in arrival.hexes if fits(h)]
    if ok:
        return frozenset(ok)
    return _nearest_cities(board, control, side, arrival.hexes, fits)  # 9.1


def replaceable_armies(board: Board, side: str, camp: Campaign | None = None) -> list[str]:
    """Armies a shock army may take the place of (12.11): its side's armies on the map, at full
    strength when [campaign.replace] shock_replaces_full_army says so."""
    full = campaign(camp).replace.shock_replaces_full_army
    return sorted(u for u in board.hex_of if board.side(u) == side and board.udef(u).type == "army"
                  and (not full or board.step(u) == 0))


def check_place(board: Board, arrival: Arrival, h: Hex, control: Mapping[Hex, str],
                entered: Mapping[Hex, int] | None = None, air: Mapping[str, Hex] | None = None,
                camp: Campaign | None = None) -> Illegal | None:
    """Why ``arrival`` may not be put on ``h`` now, or None (9.1, 11, 11.1, 12.5, 12.11, 3)."""
    gid = board.gmap.grid.id(h)
    if arrival.place == HELD:
        return Illegal("12.5", f"{arrival.uid} is kept off the map until it is used")
    allowed = entry_hexes(board, arrival, control, entered, air, camp)
    if h in allowed:
        return None
    case = PLACE_CASE.get(arrival.place, CASE)
    if board.udef(arrival.uid).type == "air":
        case = "11"
    if held_by(board, control, h) == other(arrival.side):
        return Illegal(case, f"{gid} is held by the enemy: no unit arrives there")
    if board.udef(arrival.uid).type != "air" or board.gmap.settlement(h) is not None:
        room = _room(board, arrival.uid, h, air or {})
        if room is not None and (h in arrival.hexes or not allowed):
            return room
    if not allowed:
        return Illegal(case, f"{arrival.uid} has no hex to enter on this turn")
    names = ", ".join(board.gmap.grid.id(x) for x in sorted(allowed))
    return Illegal(case, f"{arrival.uid} enters on {names}, not {gid}")


def entry_lost(board: Board, uid: str) -> int:
    """Steps a unit has lost as it enters: its entry face (15.2: cavalry corps come in reduced)."""
    return entry_step(board.udef(uid))
