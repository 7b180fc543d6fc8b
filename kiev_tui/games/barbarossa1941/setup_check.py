"""Barbarossa 1941's own checks of a scenario, run as it is loaded (so `validate` refuses it too).

The engine has checked the shape (units exist, hexes on the map, no hex shared by both sides).
Here: the counters' own keys (units.py), the [scenario] keys of this game, the opening stacks
(3: six steps a hex), the set-up choices of 15.1-15.2 (`[choices]`), the steps lost at the
start (`[reduced]`, 17), the VP events (`[[event]]`, 13), withdrawals (12.5), the limits of the
free deployment (`[deployment]`, 14.2) and the arrivals' own keys.  And what the book forbids: a
unit set up on the other side's ground (14.2, 15, [control]), a rail marker off the railroads
(10.3), an arrival or event unit entering at sea, on a lake hex or on enemy ground (9.1, 12.10),
and a place of tables.toml (supply, entry, fleet bases, objectives) missing from the map.  Every
refusal is a DataError naming the file, the key and the reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.mapdata import GameMap, one_of
from kiev_tui.engine.tomlio import Reader
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.schema import SCHEMA

if TYPE_CHECKING:
    from kiev_tui.engine.scenario import Scenario

WEATHER = ("clear", "mud", "freeze", "extreme_cold")  # 12.3
ZONES = ("north", "south")  # 12.3
#: How an arrival finds its hex when the book names none (15.3, 11, 12.5, 12.11).
PLACES = ("hexes", "any_city", "any_major_city", "replace_army", "held")
#: How an event's units come in: on its hexes, as 12.11's militia, as 12.7's partisans.
EVENT_PLACES = ("hexes", "militia", "partisan")
#: 14.2's rules for the Soviet set-up that the deployment table may name.
DEPLOYMENT_RULES = ("border_covered", "garrison")


def check_scenario(scenario: "Scenario") -> None:
    """Raise DataError if the scenario cannot be a start of this game (its units.toml was
    checked as it loaded, by the read_units hook)."""
    check_params(scenario)
    lost = check_reduced(scenario)
    check_start_stacking(scenario, lost)
    check_air_bases(scenario)
    check_setup_sides(scenario)
    check_rail_markers(scenario)
    check_choices(scenario)
    check_reinforcements(scenario)
    check_events(scenario)
    check_arrival_hexes(scenario)
    check_withdrawals(scenario)
    check_deployment(scenario, lost)
    check_reconstructed_setup(scenario)
    check_table_places(scenario)


def first_turn(scenario: "Scenario") -> int:
    """The turn play starts on: Typhoon starts on turn 5 of the campaign's 10 (17)."""
    return int(scenario.params.get("first_turn", 1))


def _hex(reader: Reader, key: str, text: Any, gmap: GameMap) -> Hex:
    try:
        h = gmap.grid.parse(text)
    except HexError as exc:
        raise reader.fail(key, str(exc)) from None
    if not gmap.on_map(h):
        raise reader.fail(key, f"hex {gmap.grid.id(h)} is off the map ({gmap.extent()})")
    return h


def _hexes(reader: Reader, key: str, gmap: GameMap, default: Any = ...) -> list[Hex]:
    return [_hex(reader, f"{key}[{i}]", t, gmap) for i, t in enumerate(reader.strs(key, default))]


def _table(scenario: "Scenario", name: str) -> Reader:
    """One of the game's own tables of the scenario file (schema.scenario_tables), or an empty one."""
    return Reader(scenario.path, {name: scenario.extra.get(name, {})}).table(name)


def _unit(reader: Reader, key: str, uid: str, scenario: "Scenario", side: str | None = None) -> str:
    if uid not in scenario.catalog.units:
        raise reader.fail(key, f"no unit '{shorten(uid)}' in units.toml")
    if side is not None and scenario.catalog.units[uid].side != side:
        raise reader.fail(key, f"unit '{uid}' is not {side}")
    return uid


def check_params(scenario: "Scenario") -> None:
    """This game's [scenario] keys (17: Typhoon's turn, VP, weather, points and rail markers)."""
    meta = Reader(scenario.path, scenario.params, "scenario")
    start = meta.int("first_turn", 1)
    if not 1 <= start <= scenario.turns:
        raise meta.fail("first_turn", f"turn {start} is outside the game's {scenario.turns} turns")
    if meta.int("start_vp", 0) < 0:
        raise meta.fail("start_vp", "victory points at the start cannot be negative")
    weather = meta.table("first_turn_weather", required=False)
    weather.only(ZONES)
    for zone in weather.keys():
        if weather.str(zone) not in WEATHER:
            raise weather.fail(zone, f"weather is {one_of(WEATHER)} (12.3)")
    art = meta.table("artillery_points", required=False)
    art.only(SCHEMA.sides)
    for side in art.keys():
        if art.int(side) < 0:
            raise art.fail(side, "must not be negative")
    meta.bool("setup_in_own_country", False)
    rep = meta.table("replacement_points", required=False)
    rep.only(["axis_infantry", "axis_motorized", "axis_allies", "soviet_infantry", "soviet_motorized"])
    for key in rep.keys():
        if rep.int(key) < 0:
            raise rep.fail(key, "must not be negative")
    _hexes(meta, "rail_markers", scenario.map, [])
    _hexes(meta, "axis_rail", scenario.map, [])
    check_optional_rules(scenario, meta)


def check_optional_rules(scenario: "Scenario", meta: Reader) -> None:
    """``optional_rules``: 14.3's rules, each known and acting on a turn the scenario plays."""
    from kiev_tui.games.barbarossa1941.phases_supply import OPTIONS_KEY, parse_options
    from kiev_tui.games.barbarossa1941.scenarios import check_options

    if OPTIONS_KEY not in scenario.params:
        return
    bad = check_options(scenario, parse_options(scenario.params[OPTIONS_KEY]))
    if bad is not None:
        raise meta.fail(OPTIONS_KEY, f"{bad.why} ({bad.case})")


def check_reduced(scenario: "Scenario") -> dict[str, int]:
    """[reduced]: steps each counter has lost at the start (17); else it stands on its entry face."""
    table = _table(scenario, "reduced")
    lost: dict[str, int] = {}
    for uid in table.keys():
        _unit(table, uid, uid, scenario)
        if uid not in scenario.setup:
            raise table.fail(uid, f"unit '{uid}' is not in [setup]: only a unit on the map starts reduced")
        n = table.int(uid)
        steps = len(scenario.catalog.units[uid].steps)
        if not 1 <= n < steps:
            raise table.fail(uid, f"a counter of {steps} steps loses 1 to {steps - 1} of them, not {n}")
        lost[uid] = n
    for uid in scenario.setup:
        lost.setdefault(uid, bu.entry_step(scenario.catalog.units[uid]))
    return lost


def check_start_stacking(scenario: "Scenario", lost: dict[str, int]) -> None:
    """No hex starts with more than six steps of one side (3)."""
    points: dict[tuple[Hex, str], list[str]] = {}
    for uid, h in scenario.setup.items():
        points.setdefault((h, scenario.catalog.units[uid].side), []).append(uid)
    for (h, side), ids in sorted(points.items()):
        total = sum(bu.stacking_points(scenario.catalog.units[u], lost[u]) for u in ids)
        if total > bu.STACK_LIMIT:
            raise DataError(scenario.path, "setup", f"hex {scenario.map.grid.id(h)} starts with {total} {side} steps "
                                                    f"({', '.join(sorted(ids))}); the limit is {bu.STACK_LIMIT} (3)")


AIR_BASES = {"minor_city": 1, "major_city": 2}  # 11.1: air corps a city may host


def check_air_bases(scenario: "Scenario") -> None:
    """Air corps start in cities, one in a minor city and two in a major one (11.1)."""
    gmap = scenario.map
    count: dict[Hex, list[str]] = {}
    for uid, h in scenario.setup.items():
        if scenario.catalog.units[uid].type == "air":
            count.setdefault(h, []).append(uid)
    for h, ids in sorted(count.items()):
        room = AIR_BASES.get(gmap.settlement(h) or "", 0)
        if len(ids) > room:
            where = "no city" if room == 0 else f"a {gmap.settlement(h)}"
            raise DataError(scenario.path, f"setup.{sorted(ids)[-1]}", f"hex {gmap.grid.id(h)} is {where}: it hosts "
                                                                    f"{room} air corps, not {len(ids)} (11.1)")


def check_choices(scenario: "Scenario") -> None:
    """[choices]: every hex the book allows a unit; its [setup] hex must be one of them (15.1-15.2).

    ``hexes``: the book's hexes ("X or Y"); ``adjacent = true``: or any hex next to one of them
    ("X and adj", "X or adj"); ``free = true`` with ``areas``: anywhere in those areas.
    """
    gmap = scenario.map
    table = _table(scenario, "choices")
    for uid in table.keys():
        _unit(table, uid, uid, scenario)
        c = table.table(uid)
        c.only(["hexes", "adjacent", "free", "areas", "case", "note"])
        c.str("case")
        if uid not in scenario.setup:
            raise c.fail("", f"unit '{uid}' has choices but no hex in [setup]")
        at = scenario.setup[uid]
        if c.bool("free", False):
            names = c.strs("areas")
            for i, a in enumerate(names):
                if a not in gmap.areas:
                    raise c.fail(f"areas[{i}]", f"the map has no area '{shorten(a)}'")
            if not any(at in gmap.areas[a].hexes for a in names):
                raise c.fail("areas", f"{uid} is set up in {gmap.grid.id(at)}, outside {', '.join(names)}")
            continue
        side = scenario.catalog.units[uid].side
        theirs = side_land(gmap, SCHEMA.other_side(side))
        for i, h in enumerate(_hexes(c, "hexes", gmap)):
            if h in theirs:  # 15.1-15.2 give each side hexes of its own country
                raise c.fail(f"hexes[{i}]", f"hex {gmap.grid.id(h)} is {SCHEMA.side_name(SCHEMA.other_side(side))} "
                                            f"ground at the start: {uid} cannot be offered it (15)")
        allowed = choice_hexes(scenario, uid)
        if at not in allowed:
            book = ", ".join(c.strs("hexes")) + (" or next to it" if c.bool("adjacent", False) else "")
            raise c.fail("hexes", f"{uid} is set up in {gmap.grid.id(at)}, which is not {book}")


def side_land(gmap: GameMap, side: str) -> frozenset[Hex]:
    """The hexes of the countries a side holds at the start (the map's areas with that side)."""
    return frozenset(h for a in gmap.areas.values() if a.side == side for h in a.hexes)


def _can_stand(gmap: GameMap, h: Hex, unit_type: str) -> bool:
    """A unit may end a move (or start, or arrive) here: not sea (but a fleet), never a lake hex (12.10)."""
    terrain = gmap.terrain(h)
    return terrain != "lake" and SCHEMA.may_stand(unit_type, terrain)


def choice_hexes(scenario: "Scenario", uid: str) -> frozenset[Hex]:
    """Every hex [choices] lets ``uid`` set up on (15.1-15.2): the book's hexes and, for "X and
    adj", the hexes next to them that are not the other side's ground, sea or a lake hex."""
    gmap = scenario.map
    c = scenario.extra.get("choices", {}).get(uid, {})
    unit = scenario.catalog.units[uid]
    if c.get("free"):
        return frozenset(h for a in c.get("areas", ()) for h in gmap.areas[a].hexes if _can_stand(gmap, h, unit.type))
    book = {gmap.grid.parse(t) for t in c.get("hexes", ())}
    allowed = set(book)
    if c.get("adjacent", False):
        theirs = side_land(gmap, SCHEMA.other_side(unit.side))
        allowed |= {n for h in book for n in gmap.neighbours(h) if n not in theirs and _can_stand(gmap, n, unit.type)}
    return frozenset(allowed)


def _holder(scenario: "Scenario", h: Hex) -> str | None:
    """The side [control] gives a city at the start; a file that lists one side gives the other
    every city it does not list, but for neutral ground (13)."""
    gmap = scenario.map
    if gmap.settlement(h) is None:
        return None
    for side, hexes in scenario.control.items():
        if h in hexes:
            return side
    listed = [s for s in SCHEMA.sides if s in scenario.control]
    if len(listed) == 1 and any(h in a.hexes for a in gmap.areas.values() if a.side in SCHEMA.sides):
        return SCHEMA.other_side(listed[0])
    return None


def check_setup_sides(scenario: "Scenario") -> None:
    """No unit starts on the other side's ground: in a city [control] gives the other side, nor,
    when ``setup_in_own_country`` is set (the 1941 frontier of 14.2 and 15), in its country."""
    gmap = scenario.map
    own_country = bool(scenario.params.get("setup_in_own_country", False))
    for uid, h in sorted(scenario.setup.items()):
        side = scenario.catalog.units[uid].side
        other = SCHEMA.other_side(side)
        where, ours, theirs = f"hex {gmap.grid.id(h)}", SCHEMA.side_name(side), SCHEMA.side_name(other)
        if own_country and h in side_land(gmap, other):
            raise DataError(scenario.path, f"setup.{uid}", f"{where} is {theirs} ground at the start: {ours} "
                                                           "units set up in their own side's countries (14.2, 15)")
        if _holder(scenario, h) == other:
            name = gmap.name(h) or gmap.grid.id(h)
            raise DataError(scenario.path, f"setup.{uid}", f"{where} ({name}) is a city the {theirs} side holds "
                                                           f"at the start ([control]): no {ours} unit starts there")


def check_rail_markers(scenario: "Scenario") -> None:
    """Each rail marker of [scenario] rail_markers stands on a railroad hex (10.3)."""
    gmap = scenario.map
    rail = gmap.rail_hexes()
    meta = Reader(scenario.path, scenario.params, "scenario")
    for i, h in enumerate(_hexes(meta, "rail_markers", gmap, [])):
        if h not in rail:
            raise meta.fail(f"rail_markers[{i}]", f"hex {gmap.grid.id(h)} has no railroad: a rail marker marks "
                                                  "the end of the Axis rail net (10.3)")
    for i, h in enumerate(_hexes(meta, "axis_rail", gmap, [])):
        if h not in rail:
            raise meta.fail(f"axis_rail[{i}]", f"hex {gmap.grid.id(h)} has no railroad: axis_rail lists rail the "
                                               "Axis holds at the start (10.2)")


def _check_entry(scenario: "Scenario", key: str, side: str, uids: list[str], hexes: list[Hex]) -> None:
    gmap = scenario.map
    theirs = side_land(gmap, SCHEMA.other_side(side))
    for i, h in enumerate(hexes):
        for uid in uids:
            if not _can_stand(gmap, h, scenario.catalog.units[uid].type):
                raise DataError(scenario.path, f"{key}.hexes[{i}]", f"hex {gmap.grid.id(h)} is {gmap.terrain(h)}: "
                                                                   f"{uid} cannot enter there (12.10)")
        if h in theirs:
            other = SCHEMA.side_name(SCHEMA.other_side(side))
            raise DataError(scenario.path, f"{key}.hexes[{i}]", f"hex {gmap.grid.id(h)} is {other} ground at the "
                                                               f"start: {SCHEMA.side_name(side)} units enter in their "
                                                               "own country (9.1)")


def check_arrival_hexes(scenario: "Scenario") -> None:
    """Arrivals and VP-event units enter on land of their own side, never at sea or on a lake (9.1, 12.10)."""
    for i, r in enumerate(scenario.reinforcements):
        _check_entry(scenario, f"reinforcement[{i}]", r.side, list(r.units), list(r.hexes))
    for i, e in enumerate(scenario.extra.get("event", [])):
        if not isinstance(e, dict) or not isinstance(e.get("side"), str) or e.get("side") not in SCHEMA.sides:
            continue  # check_events names what is wrong with it
        units = [u for u in e.get("units", []) if u in scenario.catalog.units]
        hexes = _hexes(Reader(scenario.path, e, f"event[{i}]"), "hexes", scenario.map, [])
        _check_entry(scenario, f"event[{i}]", e["side"], units, hexes)


def check_reinforcements(scenario: "Scenario") -> None:
    """Arrivals: after the first turn, with hexes unless placed another way (15.3, 11, 12.5, 12.11)."""
    start = first_turn(scenario)
    for i, r in enumerate(scenario.reinforcements):
        key = f"reinforcement[{i}]"
        rr = Reader(scenario.path, dict(r.extra), key)
        if r.turn <= start:
            raise DataError(scenario.path, f"{key}.turn", f"turn {r.turn} is not after the first turn ({start}): "
                                                          "units there at the start belong in [setup]")
        place = rr.str("place", "hexes")
        if place not in PLACES:
            raise rr.fail("place", f"place is {one_of(PLACES)}")
        if place == "hexes" and not r.hexes:
            raise DataError(scenario.path, key, "an arrival on the map needs its hexes, or a place that says where")
        if place != "hexes" and r.hexes:
            raise rr.fail("place", f"'{place}' arrivals name no hexes")
        if not r.units:
            raise DataError(scenario.path, f"{key}.units", "an arrival brings at least one unit")
        if "early_turn" in rr.data:
            early = rr.int("early_turn")
            if not start < early < r.turn:
                raise rr.fail("early_turn", f"14.3.4 brings a unit earlier: a turn after {start} and before {r.turn}")
        rr.str("removed_by", "")
        rr.str("case", "")


def _placed(scenario: "Scenario") -> dict[str, str]:
    where = {uid: "setup" for uid in scenario.setup}
    for i, r in enumerate(scenario.reinforcements):
        for uid in r.units:
            where[uid] = f"reinforcement[{i}]"
    return where


def check_events(scenario: "Scenario") -> None:
    """[[event]]: what the VP track (13) or an optional rule (14.3.3) brings in or takes away."""
    root = Reader(scenario.path, {"event": scenario.extra.get("event", [])})
    placed = _placed(scenario)
    ids: set[str] = set()
    for e in root.tables("event"):
        e.only(["id", "case", "side", "vp", "turn", "roll", "optional_rule", "units", "delay", "hexes", "place",
                "withdraw_type", "withdraw_count", "note"])
        eid = e.str("id")
        if eid in ids:
            raise e.fail("id", f"event id '{shorten(eid)}' is used twice")
        ids.add(eid)
        e.str("case")
        side = e.str("side")
        if side not in SCHEMA.sides:
            raise e.fail("side", f"side must be {one_of(SCHEMA.sides)}")
        if ("vp" in e.data) == ("optional_rule" in e.data):
            raise e.fail("vp", "an event is set off by a VP level (13) or by an optional rule's roll (14.3), one of them")
        if "vp" in e.data and not 1 <= e.int("vp") <= 43:
            raise e.fail("vp", "a VP level is 1 to 43, the most the objectives give (13)")
        if "optional_rule" in e.data:
            e.str("optional_rule")
            t = e.int("turn")
            if not first_turn(scenario) <= t <= scenario.turns:
                raise e.fail("turn", f"turn {t} is outside this scenario's turns")
            for i, n in enumerate(e.ints("roll")):
                if not 1 <= n <= 6:
                    raise e.fail(f"roll[{i}]", "a d6 shows 1 to 6")
        uids = e.strs("units", [])
        for i, uid in enumerate(uids):
            _unit(e, f"units[{i}]", uid, scenario, side)
            if uid in placed:
                raise e.fail(f"units[{i}]", f"unit '{uid}' is already placed by {placed[uid]}: a unit can be in one place only")
            placed[uid] = f"event {eid}"
        if e.int("delay", 0) < 0:
            raise e.fail("delay", "turns after the VP level is reached; not negative")
        place = e.str("place", "hexes")
        if place not in EVENT_PLACES:
            raise e.fail("place", f"place is {one_of(EVENT_PLACES)}")
        hexes = _hexes(e, "hexes", scenario.map, [])
        if uids and place == "hexes" and not hexes:
            raise e.fail("hexes", "units that enter on the map need the hexes they enter on")
        if "withdraw_type" in e.data:
            wt = e.str("withdraw_type")
            if wt not in SCHEMA.unit_types[side]:
                raise e.fail("withdraw_type", f"'{shorten(wt)}' is not a {side} unit type")
            if e.int("withdraw_count") < 1:
                raise e.fail("withdraw_count", "an event that takes units away takes at least one")
        elif not uids:
            raise e.fail("units", "an event brings units or takes some away (withdraw_type)")


def check_withdrawals(scenario: "Scenario") -> None:
    """[[withdrawal]]: units that leave the map on a turn (12.5, 15.3, 17.2)."""
    root = Reader(scenario.path, {"withdrawal": scenario.extra.get("withdrawal", [])})
    placed = _placed(scenario)
    for w in root.tables("withdrawal"):
        w.only(["side", "turn", "units", "case", "note"])
        side = w.str("side")
        turn = w.int("turn")
        w.str("case")
        if not first_turn(scenario) < turn <= scenario.turns:
            raise w.fail("turn", f"turn {turn} is not one of this scenario's later turns")
        for i, uid in enumerate(w.strs("units")):
            _unit(w, f"units[{i}]", uid, scenario, side)
            if uid not in placed:
                raise w.fail(f"units[{i}]", f"unit '{uid}' never comes into play in this scenario")


def check_reconstructed_setup(scenario: "Scenario") -> None:
    """[reconstructed_setup] units: set-up hexes that are ours, each a unit in [setup]."""
    table = _table(scenario, "reconstructed_setup")
    table.only(["units", "note"])
    for i, uid in enumerate(table.strs("units", [])):
        _unit(table, f"units[{i}]", uid, scenario)
        if uid not in scenario.setup:
            raise table.fail(f"units[{i}]", f"unit '{uid}' is not in [setup]")


# -- 14.2: free deployment ------------------------------------------------------------------


def check_deployment(scenario: "Scenario", lost: dict[str, int]) -> None:
    """[deployment]: 14.2's limits, and the default [setup] must keep them."""
    if "deployment" not in scenario.extra:
        return
    gmap = scenario.map
    d = _table(scenario, "deployment")
    d.only(["case", "zone", "rule", "note"])
    d.str("case")
    zones = d.tables("zone", required=True)
    for z in zones:
        z.only(["side", "nation", "areas", "max_steps", "note"])
        side = z.str("side")
        if side not in SCHEMA.sides:
            raise z.fail("side", f"side must be {one_of(SCHEMA.sides)}")
        if z.str("nation") not in bu.NATIONS[side]:
            raise z.fail("nation", f"a {side} nation is {one_of(bu.NATIONS[side])}")
        for i, a in enumerate(z.strs("areas")):
            if a not in gmap.areas:
                raise z.fail(f"areas[{i}]", f"the map has no area '{shorten(a)}'")
        if "max_steps" in z.data and z.int("max_steps") < 0:
            raise z.fail("max_steps", "must not be negative")
    _check_zones(scenario, zones, lost)
    for r in d.tables("rule"):
        r.only(["kind", "side", "settlement", "depth", "min_steps", "note"])
        kind = r.str("kind")
        if kind not in DEPLOYMENT_RULES:
            raise r.fail("kind", f"kind is {one_of(DEPLOYMENT_RULES)}")
        side = r.str("side")
        if kind == "border_covered":
            _check_border_covered(scenario, r, side, lost)
        else:
            _check_garrisons(scenario, r, side, lost)


def _deployed(scenario: "Scenario", side: str) -> dict[str, Hex]:
    """Ground units of a side in the default set-up (air corps, forts and the fleet have their own rules)."""
    skip = {"air", "fort", "fleet"}
    return {uid: h for uid, h in scenario.setup.items()
            if scenario.catalog.units[uid].side == side and scenario.catalog.units[uid].type not in skip}


def _check_zones(scenario: "Scenario", zones: list[Reader], lost: dict[str, int]) -> None:
    """Each unit stands in a zone of its nation; a zone's step cap holds (14.2)."""
    gmap = scenario.map
    for side in SCHEMA.sides:
        own = [z for z in zones if z.str("side") == side]
        if not own:
            continue
        used: dict[int, int] = {}
        for uid, h in sorted(_deployed(scenario, side).items()):
            u = scenario.catalog.units[uid]
            fits = [i for i, z in enumerate(own) if z.str("nation") == bu.nation(u)
                    and any(h in gmap.areas[a].hexes for a in z.strs("areas"))]
            if not fits:
                raise DataError(scenario.path, f"setup.{uid}", f"{bu.nation(u)} units deploy in "
                                f"{_zone_words(own, bu.nation(u))}, not in {gmap.grid.id(h)} (14.2)")
            used[fits[0]] = used.get(fits[0], 0) + bu.stacking_points(u, lost[uid])
        for i, z in enumerate(own):
            cap = z.data.get("max_steps")
            if cap is not None and used.get(i, 0) > cap:
                raise z.fail("max_steps", f"the set-up puts {used[i]} steps in {', '.join(z.strs('areas'))}; "
                                          f"14.2 allows {cap}")


def _zone_words(zones: list[Reader], nat: str) -> str:
    areas = [a for z in zones if z.str("nation") == nat for a in z.strs("areas")]
    return ", ".join(areas) or "no zone"


def _soviet_land(gmap: GameMap) -> frozenset[Hex]:
    return side_land(gmap, "soviet")  # the map's areas say which countries are the Soviet side's


def _axis_land(gmap: GameMap) -> set[Hex]:
    return {h for a in gmap.areas.values() if a.side and a.side != "soviet" for h in a.hexes}


def border_depth(gmap: GameMap) -> dict[Hex, int]:
    """Hexes of the USSR and how deep inside they lie: 1 = next to an Axis country (14.2)."""
    axis = _axis_land(gmap)
    ussr = _soviet_land(gmap)
    depth: dict[Hex, int] = {}
    frontier = [h for h in ussr if any(n in axis for n in gmap.neighbours(h))]
    for h in frontier:
        depth[h] = 1
    while frontier:
        nxt = []
        for h in frontier:
            for n in gmap.neighbours(h):
                if n in ussr and n not in depth:
                    depth[n] = depth[h] + 1
                    nxt.append(n)
        frontier = nxt
    return depth


def zoc_hexes(gmap: GameMap, h: Hex) -> set[Hex]:
    """The hexes a 2-step stack in ``h`` holds in its ZOC at the start (4, 5.1, 12.10).

    A unit may always move one hex (5.1), so its ZOC reaches every neighbour it could enter and
    stop in: not into a major city (4), not across a lake or strait hexside, not into sea, not
    into a lake hex it may only cross (12.10).
    """
    out = set()
    for n in gmap.neighbours(h):
        if gmap.is_impassable(n) or gmap.terrain(n) == "lake" or gmap.settlement(n) == "major_city":
            continue
        if gmap.is_impassable_side(h, n):
            continue
        out.add(n)
    return out


def _check_border_covered(scenario: "Scenario", r: Reader, side: str, lost: dict[str, int]) -> None:
    """14.2: every Soviet hex next to the border holds a combat unit or lies in a Soviet ZOC."""
    gmap = scenario.map
    steps: dict[Hex, int] = {}
    for uid, h in _deployed(scenario, side).items():
        steps[h] = steps.get(h, 0) + bu.stacking_points(scenario.catalog.units[uid], lost[uid])
    held = {h for h, n in steps.items() if n > 0}
    zoc = {z for h, n in steps.items() if n >= 2 for z in zoc_hexes(gmap, h)}  # 4: two steps make a ZOC
    for h, depth in sorted(border_depth(gmap).items()):
        if depth != 1 or gmap.is_impassable(h) or gmap.terrain(h) == "lake":
            continue
        if h not in held and h not in zoc:
            raise r.fail("kind", f"border hex {gmap.grid.id(h)} holds no Soviet unit and lies in no Soviet ZOC "
                                 "in the default set-up (14.2)")


def _check_garrisons(scenario: "Scenario", r: Reader, side: str, lost: dict[str, int]) -> None:
    """14.2: cities of a kind within ``depth`` hexes of the border hold ``min_steps`` steps."""
    gmap = scenario.map
    kind = r.str("settlement")
    if kind not in gmap.settlement_kinds:
        raise r.fail("settlement", f"settlement is {one_of(gmap.settlement_kinds)}")
    depth, need = r.int("depth"), r.int("min_steps")
    steps: dict[Hex, int] = {}
    for uid, h in _deployed(scenario, side).items():
        steps[h] = steps.get(h, 0) + bu.stacking_points(scenario.catalog.units[uid], lost[uid])
    for h, d in sorted(border_depth(gmap).items()):
        if d <= depth and gmap.settlement(h) == kind and steps.get(h, 0) < need:
            where = gmap.name(h) or gmap.grid.id(h)
            raise r.fail("min_steps", f"{where} ({gmap.grid.id(h)}), {d} hexes inside the border, holds "
                                      f"{steps.get(h, 0)} steps in the default set-up; 14.2 asks {need}")


# -- tables.toml's places, against the map ----------------------------------------------------


def _place(scenario: "Scenario", key: str, text: Any) -> Hex:
    """A place of tables.toml: a name on the map or a hex id (its file is tables.toml)."""
    gmap = scenario.map
    if not isinstance(text, str):
        raise DataError(scenario.tables_path, key, "expected a place name or a hex id")
    h = gmap.find(text)
    if h is None:
        try:
            h = gmap.grid.parse(text)
        except HexError:
            raise DataError(scenario.tables_path, key, f"no place named '{shorten(text)}' on the map") from None
        if not gmap.on_map(h):
            raise DataError(scenario.tables_path, key, f"hex {text} is off the map ({gmap.extent()})")
    return h


def check_table_places(scenario: "Scenario") -> None:
    """The cities tables.toml names for supply (8.2), entry (9.1), the Baltic Fleet (12.9) and
    victory (13) are on this scenario's map, of the kind each rule needs."""
    t = scenario.tables
    gmap = scenario.map
    sup = t.get("supply", {})
    ussr = side_land(gmap, "soviet")
    for key in ("axis_cities", "limited_city_needs", "russian_major_cities"):
        for i, name in enumerate(sup.get(key, [])):
            h = _place(scenario, f"supply.{key}[{i}]", name)
            if key != "limited_city_needs" and gmap.settlement(h) != "major_city":
                raise DataError(scenario.tables_path, f"supply.{key}[{i}]", f"{name} is not a major city (8.2)")
            if key == "russian_major_cities" and h not in ussr:
                raise DataError(scenario.tables_path, f"supply.{key}[{i}]", f"{name} is not in the USSR (8.2, 12.7)")
    for nation, places in t.get("entry", {}).items():
        if nation == "reconstructed" or not isinstance(places, list):
            continue
        for i, name in enumerate(places):
            h = _place(scenario, f"entry.{nation}[{i}]", name)
            if h not in side_land(gmap, "axis"):
                raise DataError(scenario.tables_path, f"entry.{nation}[{i}]",
                                f"{name} is not in an Axis country: a nation's units enter at home (9.1)")
    fleet = t.get("baltic_fleet", {})
    for key in ("bases", "mined_when_axis_holds"):
        for i, name in enumerate(fleet.get(key, [])):
            _place(scenario, f"baltic_fleet.{key}[{i}]", name)
    for name in t.get("victory", {}).get("objectives", {}):
        if gmap.settlement(_place(scenario, f"victory.objectives.{name}", name)) is None:
            raise DataError(scenario.tables_path, f"victory.objectives.{name}", f"{name} is not a city (13)")
