"""The SPI Kiev map (data/spi_kiev/map.toml) holds what the rules need of it.

The map is rebuilt from geography (DATA-GAPS.md); these tests read the generated TOML the way
the engine does and check every fact the rulebook fixes, plus the shape rules of DATA-SCHEMA.md.
"""

from __future__ import annotations

import tomllib
from collections import deque
from functools import lru_cache
from pathlib import Path

import pytest

from kiev_tui.engine.hexes import H, Hex, Hexside

MAP_PATH = Path(__file__).resolve().parents[1] / "data" / "spi_kiev" / "map.toml"

COLS, ROWS = 34, 33


@lru_cache(maxsize=1)
def _map() -> dict:
    with open(MAP_PATH, "rb") as fh:
        return tomllib.load(fh)


@pytest.fixture()
def m() -> dict:
    return _map()


def on_map(h: Hex) -> bool:
    return 1 <= h.col <= COLS and 1 <= h.row <= ROWS


def is_edge(h: Hex) -> bool:
    return on_map(h) and any(not on_map(n) for n in h.neighbours())


def side(text: str) -> Hexside:
    return Hexside.parse(text)


def corner_of(s1: Hexside, s2: Hexside) -> frozenset[Hex] | None:
    """The hex corner two hexsides meet at (its three hexes), or None if they do not meet."""
    hexes = {s1.a, s1.b, s2.a, s2.b}
    if len(hexes) != 3:
        return None
    a, b, c = sorted(hexes)
    if a.distance(b) == b.distance(c) == a.distance(c) == 1:
        return frozenset(hexes)
    return None


def side_corners(s: Hexside) -> list[frozenset[Hex]]:
    """Both corners of a hexside: its two hexes plus each hex adjacent to both."""
    common = [n for n in s.a.neighbours() if n in s.b.neighbours()]
    return [frozenset((s.a, s.b, c)) for c in common]


def assert_chain(texts: list[str], what: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """Consecutive hexsides meet end to end; return the chain's start and end corners."""
    sides = [side(t) for t in texts]
    assert len(sides) >= 1, f"{what}: empty chain"
    assert len(set(sides)) == len(sides), f"{what}: a hexside repeats"
    joints = []
    for i, (s1, s2) in enumerate(zip(sides, sides[1:])):
        c = corner_of(s1, s2)
        assert c is not None, f"{what}: {texts[i]} and {texts[i + 1]} do not meet at a corner"
        joints.append(c)
    for i, (c1, c2) in enumerate(zip(joints, joints[1:])):
        assert c1 != c2, f"{what}: three hexsides meet at one corner near {texts[i + 1]}"
    first = [c for c in side_corners(sides[0]) if not joints or c != joints[0]]
    last = [c for c in side_corners(sides[-1]) if not joints or c != joints[-1]]
    return first[0], last[-1]


def river_by_name(m: dict, name: str) -> list[dict]:
    return [r for r in m["river"] if r["name"] == name]


def graph_path_exists(sides: list[str], start: str, goal: Hex | set[Hex]) -> bool:
    adj: dict[Hex, set[Hex]] = {}
    for t in sides:
        s = side(t)
        adj.setdefault(s.a, set()).add(s.b)
        adj.setdefault(s.b, set()).add(s.a)
    goals = goal if isinstance(goal, set) else {goal}
    seen = {H(start)}
    queue = deque(seen)
    while queue:
        cur = queue.popleft()
        if cur in goals:
            return True
        for n in adj.get(cur, ()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return False


# -- shape (DATA-SCHEMA.md) ----------------------------------------------------------------

def test_header(m: dict) -> None:
    assert m["map"] == {"game": "spi_kiev", "columns": COLS, "rows": ROWS, "scale_km": 8,
                        "default_terrain": "clear", "reconstructed": True}


def test_only_schema_keys(m: dict) -> None:
    assert set(m) <= {"map", "hexes", "hexsides", "river", "edges", "areas", "lines"}
    assert set(m["hexsides"]) == {"road", "railroad", "lake"}
    for row in m["hexes"].values():
        assert set(row) <= {"terrain", "settlement", "name"}
        assert row["terrain"] in ("clear", "woods", "swamp", "lake")
    for r in m["river"]:
        assert set(r) == {"name", "kind", "hexsides"} and r["kind"] in ("major", "minor")
    assert set(m["edges"]) == {"road_exits", "rail_exits"}
    for a in m["areas"].values():
        assert set(a) == {"side", "hexes"} and a["side"] in ("german", "soviet")


def test_every_id_is_a_map_hex_or_a_hexside_between_map_hexes(m: dict) -> None:
    for hid in m["hexes"]:
        assert on_map(H(hid)), hid
    texts = m["hexsides"]["road"] + m["hexsides"]["railroad"] + m["hexsides"]["lake"]
    texts += [t for r in m["river"] for t in r["hexsides"]]
    texts += m["lines"]["stalin"]["hexsides"]
    for t in texts:
        s = side(t)   # raises unless the two hexes are adjacent
        assert on_map(s.a) and on_map(s.b), t
    for area in m["areas"].values():
        assert all(on_map(H(h)) for h in area["hexes"])


def test_committed_map_matches_a_fresh_build() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import build_map, load_geo, render_map_toml

    fresh = render_map_toml(build_map(load_geo()))
    assert fresh == MAP_PATH.read_text(encoding="utf-8"), "run python -m kiev_tui.games.spi_kiev.mapbuild"
    assert render_map_toml(build_map(load_geo())) == fresh


# -- towns, cities and the hexes the rules name --------------------------------------------

def test_kiev_is_the_city_in_0319_on_the_dnieper(m: dict) -> None:   # 19.53, 24.1
    assert m["hexes"]["0319"]["settlement"] == "city"
    assert m["hexes"]["0319"]["name"] == "Kiev"
    (dnieper,) = river_by_name(m, "Dnieper")
    assert dnieper["kind"] == "major"
    assert any(H("0319") in side(t).hexes() for t in dnieper["hexsides"])


@pytest.mark.parametrize("hid", ["0602", "1329"])
def test_german_held_cities_exist(m: dict, hid: str) -> None:   # 24.0
    assert m["hexes"][hid]["settlement"] == "city"


@pytest.mark.parametrize("hid", ["1307", "0219", "0925"])
def test_addenda_start_hexes_are_dry_land(m: dict, hid: str) -> None:   # Kiev addenda
    assert m["hexes"].get(hid, {}).get("terrain", "clear") in ("clear", "woods")


def test_settlements_named_unique_and_not_in_lake_or_swamp(m: dict) -> None:
    names = [row["name"] for row in m["hexes"].values() if "settlement" in row]
    assert all(names) and len(names) == len(set(names))
    for hid, row in m["hexes"].items():
        if "settlement" in row:
            assert row["settlement"] in ("city", "town") and row.get("name"), hid
            assert row["terrain"] not in ("lake", "swamp"), hid


def test_no_lakes_since_the_reservoirs_postdate_1941(m: dict) -> None:
    assert m["hexsides"]["lake"] == []
    assert not [h for h, row in m["hexes"].items() if row["terrain"] == "lake"]


# -- rivers --------------------------------------------------------------------------------

def test_every_river_is_an_unbroken_chain(m: dict) -> None:
    for r in m["river"]:
        assert_chain(r["hexsides"], r["name"])


def test_no_hexside_carries_two_rivers(m: dict) -> None:
    seen: dict[Hexside, str] = {}
    for r in m["river"]:
        for t in r["hexsides"]:
            s = side(t)
            assert s not in seen, f"{t} is on {seen[s]} and {r['name']}"
            seen[s] = r["name"]


@pytest.mark.parametrize("name", ["Dnieper", "Desna", "Seim"])
def test_major_rivers_run_from_the_edge_to_the_edge_or_a_confluence(m: dict, name: str) -> None:
    rivers = river_by_name(m, name)
    assert len(rivers) == 1, f"{name} must be one unbroken chain"
    assert rivers[0]["kind"] == "major"
    start, end = assert_chain(rivers[0]["hexsides"], name)
    others = {side(t) for r in m["river"] if r["name"] != name for t in r["hexsides"]}

    def on_other_river(corner: frozenset[Hex]) -> bool:
        return any({s.a, s.b} <= corner for s in others)

    def at_edge(corner: frozenset[Hex]) -> bool:
        return any(not on_map(h) for h in corner)

    assert at_edge(start) or on_other_river(start), f"{name} starts inside the map"
    assert at_edge(end) or on_other_river(end), f"{name} ends inside the map"


# -- 22.1: Stalin's Directive line ---------------------------------------------------------

def test_stalin_line_runs_from_2302_2401_to_2432_2433(m: dict) -> None:
    chain = m["lines"]["stalin"]["hexsides"]
    assert side(chain[0]) == side("2302/2401")
    assert side(chain[-1]) == side("2432/2433")
    assert_chain(chain, "Stalin line")
    river_sides = {side(t) for r in m["river"] if r["name"] in ("Desna", "Dnieper") for t in r["hexsides"]}
    assert all(side(t) in river_sides for t in chain)


def test_west_of_stalin_line_is_closed_off_by_the_line_and_its_rivers(m: dict) -> None:
    area = m["areas"]["west_of_stalin_line"]
    assert area["side"] == "soviet"
    west = {H(h) for h in area["hexes"]}
    assert {Hex(1, r) for r in range(1, ROWS + 1)} <= west
    barrier = {side(t) for r in m["river"] if r["name"] in ("Desna", "Dnieper") for t in r["hexsides"]}
    for h in west:
        for n in h.neighbours():
            if on_map(n) and n not in west:
                assert Hexside(h, n) in barrier, f"{h}-{n} leaks across no river"


@pytest.mark.parametrize("hid", ["0319", "1105", "1329", "2302", "2433", "0602", "0219"])
def test_hexes_west_of_the_line(m: dict, hid: str) -> None:
    assert hid in m["areas"]["west_of_stalin_line"]["hexes"]


@pytest.mark.parametrize("hid", ["2401", "2432", "1711", "2217", "2925", "3008", "1324"])
def test_hexes_inside_the_pocket(m: dict, hid: str) -> None:
    assert hid not in m["areas"]["west_of_stalin_line"]["hexes"]


# -- roads and railways --------------------------------------------------------------------

EAST_EDGE = {Hex(COLS, r) for r in range(1, ROWS + 1)}


@pytest.mark.parametrize("kind", ["road", "railroad"])
@pytest.mark.parametrize("goal", ["1105", "3008", "1711", "2925"])
def test_kiev_is_linked_to(m: dict, kind: str, goal: str) -> None:
    # Chernigov, Konotop (via Nezhin), Nezhin and Lubny on the way to Poltava
    assert graph_path_exists(m["hexsides"][kind], "0319", H(goal)), f"no {kind} from Kiev to {goal}"


@pytest.mark.parametrize("kind", ["road", "railroad"])
def test_kiev_poltava_line_reaches_the_east_edge_south_of_lubny(m: dict, kind: str) -> None:
    goals = {h for h in EAST_EDGE if h.row >= 20}
    assert graph_path_exists(m["hexsides"][kind], "0319", goals)


def test_bakhmach_romny_road_and_rail(m: dict) -> None:
    for kind in ("road", "railroad"):
        assert graph_path_exists(m["hexsides"][kind], "2608", H("3315"))


def test_exits_are_edge_hexes_on_their_lines(m: dict) -> None:
    for key, kind in (("road_exits", "road"), ("rail_exits", "railroad")):
        ends = {h for t in m["hexsides"][kind] for h in side(t).hexes()}
        assert m["edges"][key], key
        for hid in m["edges"][key]:
            assert is_edge(H(hid)) and H(hid) in ends, f"{key}: {hid}"


# -- entry and supply areas ----------------------------------------------------------------

AREA_EDGES = {
    "A": ("german", "north"), "B": ("german", "north"), "C": ("german", "west"),
    "D": ("german", "south"), "E": ("german", "south"),
    "K": ("soviet", "east"), "L": ("soviet", "east"), "M": ("soviet", "east"), "N": ("soviet", "east"),
}


def edge_of(h: Hex, edge: str) -> bool:
    return {"north": h.row == 1, "south": h.row == ROWS, "west": h.col == 1, "east": h.col == COLS}[edge]


@pytest.mark.parametrize("name", sorted(AREA_EDGES))
def test_entry_area_lies_on_its_edge_and_has_an_exit(m: dict, name: str) -> None:   # 19.8, 23.0
    side_, edge = AREA_EDGES[name]
    area = m["areas"][name]
    assert area["side"] == side_
    hexes = [H(h) for h in area["hexes"]]
    assert hexes and all(edge_of(h, edge) or (name == "N" and edge_of(h, "south")) for h in hexes)
    exits = set(m["edges"]["road_exits"])
    if side_ == "soviet":
        exits |= set(m["edges"]["rail_exits"])   # 19.84, 23.1
    assert exits & set(area["hexes"]), f"area {name} has no exit"


def test_areas_do_not_overlap(m: dict) -> None:
    seen: dict[str, str] = {}
    for name in AREA_EDGES:
        for h in m["areas"][name]["hexes"]:
            assert h not in seen, f"{h} in {seen.get(h)} and {name}"
            seen[h] = name


def test_soviet_areas_run_north_to_south_and_n_holds_the_corner(m: dict) -> None:
    rows = {n: [H(h).row for h in m["areas"][n]["hexes"] if H(h).col == COLS] for n in "KLMN"}
    assert max(rows["K"]) < min(rows["L"]) <= max(rows["L"]) < min(rows["M"]) <= max(rows["M"]) < min(rows["N"])
    n = [H(h) for h in m["areas"]["N"]["hexes"]]
    assert any(h.row == ROWS and h.col < COLS for h in n) and Hex(COLS, ROWS) in n


def test_german_supply_sources_on_north_west_and_south_edges(m: dict) -> None:   # 19.82
    n_area = set(m["areas"]["N"]["hexes"])
    exits = [H(h) for h in m["edges"]["road_exits"] if h not in n_area]
    for edge in ("north", "west", "south"):
        assert any(edge_of(h, edge) for h in exits), f"no German supply source on the {edge} edge"


def test_north_entry_areas_split_west_and_east(m: dict) -> None:
    a = [H(h).col for h in m["areas"]["A"]["hexes"]]
    b = [H(h).col for h in m["areas"]["B"]["hexes"]]
    assert max(a) < min(b)
