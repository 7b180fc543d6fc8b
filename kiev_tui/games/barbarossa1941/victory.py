"""Victory (13, 12.7, 14.3.1): the Axis victory points, the events they set off, the end of play.

Two totals.  The VP track counts every objective the Axis controls (tables.toml
``[victory.objectives]``): a city is the side's whose unit was last in it (the system's
``control``); the VP events (13) and Typhoon's starting 9 VP (17.1) read the track.  Victory
counts the same but leaves out a major city with no Axis garrison (13).  Both add the Finnish
occupation zone's 1 VP while no Soviet formation stands in Finland or the border-zone hexes; a
Russian major city freed by partisans never counts for the Axis again (12.7); 14.3.1 adds 1 VP for
each of turns 1-3 on which the Soviet side attacked too few hexes.

Reaching 20 victory points (garrisons counted) up to the end of turn 6 wins at once (13);
otherwise the game ends after the last
turn and the level of 13 decides.  VP events (13) fire once, the first time the total reaches
their level, even if it falls back later (our reading).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.reinforcements import campaign
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from kiev_tui.games.barbarossa1941.tables import Campaign, Tables

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

CASE = "13"
#: Who wins at each level of 13 (None: undecided).
WINNER = {"soviet_major": SOVIET, "soviet_minor": SOVIET, "undecided": None, "axis_minor": AXIS, "axis_total": AXIS}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the score: what it is, its hex, the VP it gives the Axis on the track and for
    victory, and why."""

    what: str
    hex: Hex | None
    track: int
    vp: int
    why: str


@dataclass(frozen=True, slots=True)
class Score:
    """``track``: the VP marker (every objective the Axis controls; events and 17.1's 9 VP);
    ``axis_vp``: what counts for victory, ungarrisoned major cities left out (13)."""

    track: int
    axis_vp: int
    lines: tuple[Line, ...]

    def text(self) -> list[str]:
        return ([f"{ln.what}: {ln.vp:+d} ({ln.why})" for ln in self.lines]
                + [f"VP track: {self.track}", f"Axis victory points: {self.axis_vp}"])


def start_control(scenario: "Scenario") -> dict[Hex, str]:
    """Who holds each city at the start: the scenario's [control] (13), the rest by country, and
    a city with units in it by their side."""
    from kiev_tui.games.barbarossa1941.setup_check import _holder

    out: dict[Hex, str] = {}
    for h in scenario.map.settlements():
        side = _holder(scenario, h)
        if side is not None:
            out[h] = side
    for uid, h in scenario.setup.items():
        u = scenario.catalog.units[uid]
        if h in out and u.layer == "ground":
            out[h] = u.side
    return out


def update_control(board: Board, control: Mapping[Hex, str]) -> dict[Hex, str]:
    """Cities change hands when a unit of the other side stands in them (13: last to occupy)."""
    out = dict(control)
    for h in board.gmap.settlements():
        side = board.owner(h)
        if side is not None and any(board.is_formation(u) for u in board.at(h)):
            out[h] = side
    return out


def objective_hexes(board: Board) -> dict[str, Hex]:
    return {name: h for name in board.tables.victory.objectives if (h := board.gmap.find(name)) is not None}


def finnish_zone_clear(board: Board, camp: Campaign | None = None) -> bool:
    """No Soviet formation in Finland or the Finnish border zone (13)."""
    zone: set[Hex] = set()
    for area in campaign(camp).victory.finnish_zone_areas:
        if area in board.gmap.areas:
            zone |= board.gmap.areas[area].hexes
    return not any(board.side(u) == SOVIET and board.is_formation(u) and h in zone for u, h in board.hex_of.items())


def score(board: Board, control: Mapping[Hex, str], liberated: Iterable[Hex] = (), bonus: int = 0,
          camp: Campaign | None = None) -> Score:
    """The Axis VP of this position, one line per objective the Axis holds (13, 12.7, 14.3.1).

    ``control``: city hex -> side that last held it; ``liberated``: Russian major cities freed by
    partisans (12.7); ``bonus``: 14.3.1's VP earned so far.  The track counts every objective the
    Axis controls (Typhoon's 9 VP of 17.1 are counted so); victory leaves out the major cities
    without an Axis garrison (13).
    """
    c = campaign(camp).victory
    freed = set(liberated)
    lines: list[Line] = []
    track = total = 0
    for name, h in objective_hexes(board).items():
        vp = board.tables.victory.objectives[name]
        there = {board.side(u) for u in board.at(h) if board.is_formation(u)}
        holder = there.pop() if there else control.get(h)  # partisans and forts take no city (13)
        if holder != AXIS:
            continue
        if h in freed and campaign(camp).partisans.liberated_vp_lost:  # 12.7
            lines.append(Line(name, h, 0, 0, f"freed by partisans: its {vp} VP are lost to the Axis (12.7)"))
            continue
        track += vp
        major = board.gmap.settlement(h) == "major_city"
        garrisoned = any(board.side(u) == AXIS and board.is_formation(u) for u in board.at(h))
        if major and c.major_needs_garrison and not garrisoned:  # 13
            lines.append(Line(name, h, vp, 0, "Axis-held major city without a garrison: on the track, not for victory (13)"))
            continue
        total += vp
        lines.append(Line(name, h, vp, vp, "garrisoned major city (13)" if major else "an Axis unit was last there (13)"))
    if finnish_zone_clear(board, camp):  # 13
        vp = board.tables.victory.finnish_zone_vp
        track += vp
        total += vp
        lines.append(Line("Finnish occupation zone", None, vp, vp, "no Soviet unit in Finland or the border zone (13)"))
    if bonus:  # 14.3.1
        track += bonus
        total += bonus
        lines.append(Line("Mandatory Soviet attacks", None, bonus, bonus, "turns the Soviet side attacked too little (14.3.1)"))
    return Score(track, total, tuple(lines))


def level(tables: Tables, vp: int) -> str:
    """13's result for a final Axis total."""
    return tables.victory.level(vp)


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None  # None: undecided
    level: str
    vp: int
    sudden_death: bool
    why: str


def sudden_death(tables: Tables, vp: int, turn: int) -> bool:
    """13: 20 VP reached at any moment up to the end of turn 6 wins at once."""
    return tables.victory.sudden_death(vp, turn)


def outcome(tables: Tables, vp: int, turn: int, last_turn: int, turn_over: bool = False) -> Outcome | None:
    """The end of the game, if it ends now: sudden death (any moment, 13), or the victory phase
    of the last turn (``turn_over``), judged by 13's levels; None while play goes on."""
    if sudden_death(tables, vp, turn):
        return Outcome(AXIS, "axis_sudden_death", vp, True,
                       f"the Axis holds {vp} VP by turn {turn}: sudden death before the end of turn "
                       f"{tables.victory.sudden_death_last_turn} (13)")
    if turn_over and turn >= last_turn:
        name = level(tables, vp)
        return Outcome(WINNER.get(name), name, vp, False, f"Axis total {vp} VP after turn {turn}: {name} (13)")
    return None


def events_reached(tables: Tables, scenario: "Scenario | None", vp: int, fired: Iterable[str]) -> list[str]:
    """Ids of the VP events (tables' [[victory.event]] and the scenario's [[event]] with a vp) that
    the total ``vp`` sets off now: reached and not fired before (13; they fire once)."""
    done = set(fired)
    out = [e.id for e in tables.victory.events if e.vp <= vp and e.id not in done]
    if scenario is not None:
        out += [e["id"] for e in scenario.extra.get("event", []) if "vp" in e and int(e["vp"]) <= vp
                and e["id"] not in done]
    return out


def fired_at_start(tables: Tables, scenario: "Scenario") -> dict[str, int]:
    """Events already past when a scenario starts with VP (17.1: Typhoon's 9), id -> a turn before
    the first (their arrivals are already on the map)."""
    start_vp = int(scenario.params.get("start_vp", 0))
    first = int(scenario.params.get("first_turn", 1))
    return {eid: first - 1 for eid in events_reached(tables, scenario, start_vp, ())} if start_vp else {}


def scenario_event(scenario: "Scenario", eid: str) -> Mapping[str, Any] | None:
    return next((e for e in scenario.extra.get("event", []) if e.get("id") == eid), None)


def withdrawn_by_events(scenario: "Scenario", eids: Iterable[str]) -> list[tuple[str, str, int]]:
    """(side, unit type, how many) the fired events take away (13: one German air corps at 15 VP)."""
    out = []
    for eid in eids:
        e = scenario_event(scenario, eid)
        if e is not None and "withdraw_type" in e:
            out.append((str(e["side"]), str(e["withdraw_type"]), int(e["withdraw_count"])))
    return out


# -- 14.3.1: mandatory Soviet attacks ---------------------------------------------------------------


def mandatory_attacks(turn: int, roll: int, camp: Campaign | None = None) -> int:
    """Hexes the Soviet side must attack on ``turn`` after rolling ``roll`` (14.3.1: half, rounded
    down, on turns 1-3; 0 on other turns)."""
    c = campaign(camp).victory
    if turn not in c.mandatory_attack_turns:
        return 0
    return roll // c.mandatory_attack_divisor


def mandatory_attack_vp(required: int, attacked: Iterable[Hex], camp: Campaign | None = None) -> int:
    """Axis VP for a Soviet turn under 14.3.1: 1 if fewer different hexes were attacked than
    required, else 0.  The point stays for the rest of the game (our reading of "for that turn")."""
    return campaign(camp).victory.mandatory_attack_vp if len(set(attacked)) < required else 0
