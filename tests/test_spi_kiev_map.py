"""The SPI Kiev map (data/spi_kiev/map.toml) holds what the rules need of it.

The map is rebuilt from geography (DATA-GAPS.md); these tests read the generated TOML the way
the engine does and check every fact the rulebook fixes, plus the shape rules of DATA-SCHEMA.md.
"""

from __future__ import annotations

import os
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


def test_every_settlement_is_on_a_road(m: dict) -> None:
    road_hexes = {h for t in m["hexsides"]["road"] for h in side(t).hexes()}
    for hid, row in m["hexes"].items():
        if "settlement" in row:
            assert H(hid) in road_hexes, f"{row['name']} ({hid}) has no road"


# -- the builder itself --------------------------------------------------------------------

def test_lattice_neighbours_agree_with_the_engine_grid() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import cell_neighbours

    for hid in ("0101", "0201", "0319", "1329", "2302", "2401", "2433", "3433"):
        h = H(hid)
        assert {Hex(*c) for c in cell_neighbours((h.col, h.row))} == set(h.neighbours())


def test_projection_lands_the_named_places() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import Projection, load_geo, nearest_cell

    proj = Projection(**{k: float(v) for k, v in load_geo()["projection"].items()})
    for lat, lon, hid in ((50.45, 30.52, "0319"), (49.75, 31.47, "1329"), (51.05, 31.88, "1711")):
        assert Hex(*nearest_cell(proj.lattice(lat, lon))) == H(hid)


def _tiny_geo() -> dict:
    return {
        "map": {"game": "t", "columns": 8, "rows": 8, "scale_km": 8},
        "projection": {"lat0": 50.0, "lon0": 30.0, "col0": 1.0, "row0": 1.0,
                       "km_per_degree": 111.32, "col_km": 6.9282, "row_km": 8.0},
        "settlement": [{"name": "A", "kind": "city", "lat": 49.75, "lon": 30.05},
                       {"name": "B", "kind": "town", "lat": 49.60, "lon": 30.60}],
        "river": [{"name": "R", "kind": "major", "points": [[50.1, 30.40], [49.70, 30.30], [49.40, 30.35]]},
                  {"name": "T", "kind": "minor", "joins": "R", "points": [[49.80, 30.90], [49.68, 30.32]]}],
        "road": [{"name": "A-B", "points": ["A", "B", [49.30, 31.20]]}],
        "railroad": [],
        "terrain": [{"name": "w", "terrain": "woods",
                     "polygon": [[49.95, 29.95], [49.95, 30.15], [49.80, 30.15], [49.80, 29.95]]}],
        "areas": {"E": {"side": "soviet", "edges": [{"edge": "east", "from": 1, "to": 8}]}},
    }


def test_builder_on_a_tiny_map() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import build_map, render_map_toml

    doc = build_map(_tiny_geo())
    text = render_map_toml(doc)
    assert tomllib.loads(text)["map"]["columns"] == 8
    assert render_map_toml(build_map(_tiny_geo())) == text
    r = [x for x in doc["river"] if x["name"] == "R"][0]["hexsides"]
    start, end = assert_chain(r, "R")
    assert any(not (1 <= h.col <= 8 and 1 <= h.row <= 8) for h in start | end)
    t = [x for x in doc["river"] if x["name"] == "T"][0]["hexsides"]
    _, t_end = assert_chain(t, "T")
    assert any({side(s).a, side(s).b} <= t_end for s in r), "tributary ends on its river"
    # the road is a path of adjacent hexes from A through B and off the east edge
    assert doc["edges"]["road_exits"] and all(H(h).col == 8 or H(h).row in (1, 8)
                                                for h in doc["edges"]["road_exits"])
    names = {v["name"]: k for k, v in doc["hexes"].items() if "name" in v}
    assert graph_path_exists(doc["hexsides"]["road"], names["A"], H(names["B"]))
    assert doc["areas"]["E"]["hexes"] == [f"08{r:02d}" for r in range(1, 9)]


def test_builder_refuses_two_settlements_in_one_hex() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import MapBuildError, build_map

    geo = _tiny_geo()
    geo["settlement"].append({"name": "C", "kind": "town", "lat": 49.75, "lon": 30.06})
    with pytest.raises(MapBuildError, match="both fall in hex"):
        build_map(geo)


def test_check_mode_reports_a_stale_map(tmp_path: Path) -> None:
    from kiev_tui.games.spi_kiev.mapbuild import main

    out = tmp_path / "map.toml"
    assert main(["--out", str(out)]) == 0
    assert main(["--check", "--out", str(out)]) == 0
    out.write_text(out.read_text() + "# edited\n")
    assert main(["--check", "--out", str(out)]) == 1


def test_builder_names_a_typo_in_geo() -> None:
    from kiev_tui.games.spi_kiev.mapbuild import MapBuildError, build_map

    geo = _tiny_geo()
    geo["river"][0]["jions"] = "R"
    with pytest.raises(MapBuildError, match="river\\[0\\] 'R': unknown key 'jions'"):
        build_map(geo)


@pytest.mark.parametrize("kind", ["road", "railroad"])
def test_every_traced_line_links_the_towns_it_names(m: dict, kind: str) -> None:
    # no gaps: each road or railway of geo.toml joins the settlements it passes through
    with open(MAP_PATH.with_name("geo.toml"), "rb") as fh:
        geo = tomllib.load(fh)
    hex_of = {row["name"]: hid for hid, row in m["hexes"].items() if "name" in row}
    for line in geo[kind]:
        towns = [p for p in line["points"] if isinstance(p, str)]
        for a, b in zip(towns, towns[1:]):
            assert graph_path_exists(m["hexsides"][kind], hex_of[a], H(hex_of[b])), f"{line['name']}: {a}-{b}"


def test_mapbuild_refuses_a_fifo_as_geography_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kiev_tui.games.spi_kiev.mapbuild import main
    geo = tmp_path / "geo.toml"
    os.mkfifo(geo)  # no writer: reading it would block for ever
    assert main(["--geo", str(geo), "--out", str(tmp_path / "map.toml"), "--check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "geo.toml" in err[0] and "not a regular file" in err[0]


# -- Polesia: the right bank of the Dnieper above Kiev (issue 20) ----------------------------

# Forest is the dominant cover of the Polesian rim inside our frame; marshes where the
# Pripyat, Teterev and Irpen flood plains meet the Dnieper (geo.toml, SOURCES.md "Polesia").
POLESIA_WOODS = [
    "0101", "0102", "0103", "0104", "0105", "0106", "0107",
    "0201", "0202", "0203", "0204", "0205", "0206", "0207",
    "0301", "0302", "0303", "0304", "0305", "0306", "0307",
    "0110", "0111", "0112", "0113", "0114", "0115", "0116", "0117", "0118",
    "0211", "0213", "0215", "0216", "0217",
]
POLESIA_SWAMP = ["0108", "0208", "0308", "0109", "0209", "0210", "0212", "0214"]


def test_10_4_polesia_above_kiev_is_woods_and_swamp(m: dict) -> None:
    terrain = {h: m["hexes"].get(h, {}).get("terrain", "clear") for h in POLESIA_WOODS + POLESIA_SWAMP}
    assert terrain == {**{h: "woods" for h in POLESIA_WOODS}, **{h: "swamp" for h in POLESIA_SWAMP}}
    # the whole right bank from the north edge down to the Pushcha woods: no clear hex left
    bank = ({f"01{r:02d}" for r in range(1, 19)} | {f"02{r:02d}" for r in range(1, 18)}
            | {f"03{r:02d}" for r in range(1, 9)})
    assert bank == set(POLESIA_WOODS) | set(POLESIA_SWAMP)


def test_12_11_column_01_keeps_a_dry_supply_path_to_the_zhitomir_road(m: dict) -> None:
    # German supply from the line north of Kiev runs down column 01 to the road exit 0119
    # (19.82); a swamp hex on it would stop the line (12.11).
    assert "0119" in m["edges"]["road_exits"]
    path = [f"01{r:02d}" for r in range(10, 20)]
    assert [m["hexes"].get(h, {}).get("terrain", "clear") for h in path] == ["woods"] * 9 + ["clear"]


def test_set_up_hexes_stay_legal_after_the_polesia_terrain(m: dict) -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.scenario import load_scenario
    from kiev_tui.games.spi_kiev.common import View
    from kiev_tui.games.spi_kiev.supply import Supply

    campaign = MAP_PATH.parent / "scenarios" / "campaign.toml"
    with open(campaign, "rb") as fh:
        setup = tomllib.load(fh)["setup"]
    addenda = {"1307", "0219", "0925"}   # the book's own hexes
    west_bank_germans = {"ge-id-79": "0110", "ge-id-98": "0112", "ge-id-262": "0211",
                         "ge-id-111": "0213", "ge-id-56": "0114", "ge-id-62": "0116"}
    assert {u: setup[u] for u in west_bank_germans} == west_bank_germans
    for uid, hid in setup.items():
        terrain = m["hexes"].get(hid, {}).get("terrain", "clear")
        assert terrain != "lake", (uid, hid)   # 10.16
        assert hid in addenda or terrain != "swamp", (uid, hid)
    load_scenario(campaign)   # the loader refuses units in lakes
    status = Supply(View(Game.new(str(campaign), 1))).all_status("german")
    assert {u: status[u].in_supply for u in west_bank_germans} == dict.fromkeys(west_bank_germans, True)
