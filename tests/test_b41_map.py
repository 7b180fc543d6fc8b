"""The Barbarossa 1941 map (data/barbarossa1941/map.toml) holds what the rulebook fixes.

The book prints hex ids but no map; the map is rebuilt from geography by
kiev_tui/games/barbarossa1941/mapbuild.py.  These tests read the generated map the way the
engine does (engine.mapdata.load_map) and check every fact the book gives, the builder's
projection against the book's hexes, the rivers, borders, zones, and the command line.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.hexes import Hex, Hexside
from kiev_tui.engine.mapdata import GameMap, connected, load_map
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.games.barbarossa1941.mapbuild import GEO_PATH, MAP_PATH, _Builder, build_map, check_geo_file, main
from kiev_tui.mapgeo import cell_center, dist2

# Every hex the book ties to a named place: hex -> (name, settlement kind or None, case).
BOOK_PLACES: dict[str, tuple[str, str | None, str]] = {
    "0112": ("Königsberg", "major_city", "15.1, 8.2"),
    "0117": ("Warsaw", "major_city", "15.1, 8.2"),
    "0219": ("Lublin", "minor_city", "15.1"),
    "0804": ("Helsinki", "major_city", "15.1, 8.2"),
    "0531": ("Bucharest", "major_city", "15.1, 8.2"),
    "0131": ("Craiova", "minor_city", "15.3, 9.1"),
    "0729": ("Galati", "minor_city", "15.3"),
    "0418": ("Brest", "minor_city", "15.2"),
    "0911": ("Dvinsk", "minor_city", "15.2"),
    "0915": ("Minsk", "minor_city", "15.2, 17.1"),
    "1121": ("Kiev", "major_city", "15.2, 17.1"),
    "1128": ("Odessa", "major_city", "15.2"),
    "1922": ("Kharkov", "major_city", "15.2"),
    "2012": ("Moscow", "major_city", "15.2"),
    "1304": ("Leningrad", "major_city", "15.2, 12.9"),
    "1414": ("Smolensk", "minor_city", "15.2, 17.1"),
    "1318": ("Gomel", "minor_city", "15.2, 17.1"),
    "1311": ("Velikiye Luki", "minor_city", "15.2"),
    "1711": ("Rzhev", "minor_city", "15.2, 17.2"),
    "1108": ("Pskov", "minor_city", "15.2, 17.1"),
    "2209": ("Yaroslavl", "minor_city", "15.2"),
    "1716": ("Bryansk", "minor_city", "15.2"),
    "2427": ("Rostov", "major_city", "15.2"),
    "1532": ("Sevastopol", "major_city", "15.2, 12.4"),
    "1213": ("Vitebsk", "minor_city", "17.1"),
    "1216": ("Mogilev", "minor_city", "17.1"),
    "0920": ("Korosten", "minor_city", "17.1"),
    "0522": ("Ternopol", "minor_city", "17.1"),
    "0923": ("Vinnitsa", "minor_city", "17.1"),
    "0927": ("Kishinev", "minor_city", "17.1"),
    "1428": ("Nikolayev", "minor_city", "17.1"),
    "1505": ("Volkhov", "minor_city", "17.2"),
    "1713": ("Vyazma", "minor_city", "17.2"),
    "1914": ("Kaluga", "minor_city", "17.2"),
    "1910": ("Kalinin", "minor_city", "17.2"),
    "2311": ("Vladimir", "minor_city", "17.2"),
    "2314": ("Ryazan", "minor_city", "17.2"),
    "2517": ("Tambov", "minor_city", "17.2"),
    "1919": ("Orel", "minor_city", "17.2"),
    "1203": ("Vyborg", "minor_city", "15.1, 15.2, 13"),
    "0321": ("Lvov", "major_city", "15.2, 8.2"),
    "0512": ("Kovno", "minor_city", "15.2"),
    "0514": ("Grodno", "minor_city", "15.2"),
    "0416": ("Bialystok", "minor_city", "15.2"),
    "0425": ("Chernovtsy", "minor_city", "15.2"),
    "0124": ("Mukachevo", None, "9.1, 13"),
}

# Every hex on which the book sets up or brings in a unit, or which it names for movement.
AXIS_SETUP = ("1301 1401 1102 1103 0804 0112 0312 0314 0313 0117 0216 0317 0315 0318 0219 0319 0220 "
              "0120 0121 0727 0625 0531").split()  # 15.1
AXIS_ARRIVAL = "0131 0729 0124".split()  # 9.1, 15.3, 13
SOVIET_SETUP = ("1402 1302 1204 1304 0411 0310 0512 0412 0413 0511 0613 0911 0615 0514 0418 0417 0416 "
                "0415 0316 0915 0515 0516 0517 0716 0816 0618 0420 0419 0321 0221 0320 0424 0425 0322 "
                "0421 0719 0520 0522 0621 1121 0829 0830 0827 0828 0927 0825 1025 1027 1128 2012 1414 "
                "1318 1311 1711 1108 2209 2427 1716 1922 1532").split()  # 15.2
TYPHOON = ("1602 1204 1302 1108 1206 1207 1306 1307 1407 1308 1309 1213 1310 1311 0915 1412 1413 1414 "
           "1514 1515 1516 1517 1418 1318 1218 1216 1518 1519 1521 1121 1220 1221 1122 1222 1223 1320 "
           "1323 1423 1522 1424 1523 1524 0920 0522 0923 0927 1725 1526 1428 1427 1127 1228 1110 1028 "
           "1702 1205 1304 1405 1305 1406 1506 1505 1507 1408 1409 1410 1510 1511 1512 1711 1513 1614 "
           "1713 1914 1910 1615 1616 1617 1619 1620 1919 2311 2517 2314").split()  # 17.1, 17.2
EAST_ENTRY = ["2618", "2625"]  # 15.3, 17.2
BORDER_ZONE = "1203 1204 1302 1303 1402 1501 1601 1602 1603 1604 1701 1702 1703 1803".split()  # 13

# Places the projection puts more than one hex from the hex they stand on: name -> (hexes, why).
FAR_FROM_PROJECTION: dict[str, tuple[float, str]] = {
    "Orel": (2.15, "the book puts Orel on 1919, where the projection puts Kursk (17.2)"),
    "Chernovtsy": (1.22, "15.2 offers only 0424 or 0425; both lie more than a hex from the city"),
}

COUNTRIES = ("ussr", "finland", "romania", "hungary", "slovakia", "poland", "germany", "neutral")


@lru_cache(maxsize=1)
def _map() -> GameMap:
    return load_map(MAP_PATH)


@pytest.fixture()
def gmap() -> GameMap:
    return _map()


def hx(gmap: GameMap, text: str) -> Hex:
    return gmap.grid.parse(text)


def side_ids(gmap: GameMap, sides: frozenset[Hexside] | tuple[Hexside, ...]) -> set[str]:
    return {gmap.grid.side_id(s) for s in sides}


# -- the hexes the book names ---------------------------------------------------------------

def test_map_header_is_the_books_grid(gmap: GameMap) -> None:
    assert (gmap.game, gmap.columns, gmap.rows) == ("barbarossa1941", 26, 32)
    assert gmap.grid.parity == "odd_low"  # odd columns stand half a hex low (12.10: 1930-2031)
    assert gmap.scale_km == 64
    assert gmap.default_terrain == "clear"
    assert gmap.reconstructed is True


@pytest.mark.parametrize("book_hex", sorted(BOOK_PLACES))
def test_every_hex_the_book_names_holds_its_place(gmap: GameMap, book_hex: str) -> None:
    name, kind, _case = BOOK_PLACES[book_hex]
    h = hx(gmap, book_hex)
    assert gmap.name(h) == name
    assert gmap.settlement(h) == kind
    assert gmap.find(name) == h


def test_every_hex_a_unit_stands_on_is_land(gmap: GameMap) -> None:
    hexes = set(AXIS_SETUP + AXIS_ARRIVAL + SOVIET_SETUP + TYPHOON + EAST_ENTRY + BORDER_ZONE)
    assert len(hexes) == 168
    assert gmap.terrain(hx(gmap, "1205")) == "sea"  # 17.2's Baltic Fleet: the one counter at sea (12.9)
    for text in sorted(hexes - {"1205"}):
        h = hx(gmap, text)
        assert gmap.on_map(h), text
        assert gmap.terrain(h) not in ("sea", "lake"), (text, gmap.terrain(h))  # no unit ends there (12.10)


def test_set_up_hexes_lie_in_their_sides_countries(gmap: GameMap) -> None:
    ussr = gmap.area("ussr").hexes
    axis = set().union(*(gmap.area(c).hexes for c in COUNTRIES if gmap.area(c).side == "axis"))
    assert [t for t in AXIS_SETUP + AXIS_ARRIVAL if hx(gmap, t) not in axis] == []
    assert [t for t in SOVIET_SETUP + EAST_ENTRY if hx(gmap, t) not in ussr] == []
    assert hx(gmap, "0124") in gmap.area("hungary").hexes  # Hungary's arrival hex (9.1, 13)
    assert hx(gmap, "0131") in gmap.area("romania").hexes  # the Italians' arrival hex (9.1)


def test_major_cities_are_the_supply_sources_and_the_great_objectives(gmap: GameMap) -> None:
    majors = {gmap.name(h) for h, s in gmap.settlements().items() if s == "major_city"}
    assert majors == {
        "Königsberg", "Warsaw", "Helsinki", "Bucharest",  # the Axis sources of 8.2
        "Lvov", "Riga",  # 8.2 and 12.7 count them among the Soviet majors
        "Moscow", "Leningrad", "Rostov", "Kharkov", "Sevastopol", "Kiev", "Odessa", "Dnepropetrovsk",
        "Voronezh",  # every objective worth 2 or more (13)
    }


def test_every_victory_objective_is_a_city_on_the_map(gmap: GameMap) -> None:
    objectives = ["Moscow", "Leningrad", "Rostov", "Kharkov", "Sevastopol", "Kiev", "Odessa", "Dnepropetrovsk",
                  "Voronezh", "Lvov", "Minsk", "Riga", "Volkhov", "Rzhev", "Kalinin", "Vyazma", "Kaluga", "Tula",
                  "Kursk", "Smolensk", "Velikiye Luki", "Bryansk", "Stalino", "Orel"]  # 13
    for name in objectives:
        h = gmap.find(name)
        assert h is not None, name
        assert gmap.settlement(h) in ("major_city", "minor_city"), name
        assert h in gmap.area("ussr").hexes, name


def test_arrival_cities_of_the_reinforcements_are_on_the_map(gmap: GameMap) -> None:
    for name in ["Krasnodar", "Novgorod", "Novorossiysk", "Zaporozhye", "Poltava", "Petrozavodsk", "Vologda"]:  # 15.3
        h = gmap.find(name)
        assert h is not None and gmap.settlement(h) == "minor_city", name


def test_kursk_stands_next_to_the_books_orel(gmap: GameMap) -> None:
    kursk, orel, kharkov = gmap.find("Kursk"), gmap.find("Orel"), gmap.find("Kharkov")
    assert gmap.grid.id(kursk) == "1920"  # one hex south of 1919, where the projection puts it
    assert orel.distance(kursk) == 1 and kursk.distance(kharkov) == 2 and orel.distance(kharkov) == 3


# -- the projection -------------------------------------------------------------------------

def _projection_errors() -> dict[str, float]:
    """Hexes between each place with a given hex and where the projection puts it."""
    data = load_toml(GEO_PATH)
    builder = _Builder(GEO_PATH, data)
    out: dict[str, float] = {}
    for place in data["place"]:
        if "hex" in place:
            x, y = builder.lattice(place["lat"], place["lon"])
            cx, cy = cell_center(builder.parse_cell(place["hex"]))
            out[place["name"]] = math.sqrt(dist2(x, y, cx, cy)) / 2  # half hex heights -> hexes
    return out


def test_the_projection_puts_every_place_within_a_hex_of_its_hex() -> None:
    errors = _projection_errors()
    assert len(errors) == len(BOOK_PLACES) + 2  # and Kursk, by hand next to Orel; Idritsa, on 17.1's marker
    far = {name: round(d, 2) for name, d in errors.items() if d > 1.0}
    assert far == {name: d for name, (d, _why) in FAR_FROM_PROJECTION.items()}


def test_the_projection_lands_unplaced_cities_on_the_fitted_hexes(gmap: GameMap) -> None:
    fitted = {"Riga": "0610", "Tallinn": "0705", "Novgorod": "1408", "Petrozavodsk": "1701", "Vologda": "2306",
              "Tula": "2115", "Voronezh": "2319", "Dnepropetrovsk": "1825", "Zaporozhye": "1826",
              "Stalino": "2125", "Poltava": "1723", "Krasnodar": "2331", "Novorossiysk": "2131",
              "Kremenchug": "1524", "Uman": "1124", "Bobruisk": "1116"}  # RESEARCH-NEXT.md A.2
    assert {n: gmap.grid.id(gmap.find(n)) for n in fitted} == fitted


# -- rivers ---------------------------------------------------------------------------------

def corners(s: Hexside) -> list[frozenset[Hex]]:
    """The two corners of a hexside, each as its three hexes (internal grid, never printed ids)."""
    common = [n for n in s.a.neighbours() if n in s.b.neighbours()]
    return [frozenset((s.a, s.b, c)) for c in common]


def chain_breaks(sides: tuple[Hexside, ...]) -> list[int]:
    """Where a chain of hexsides is not a path along hex edges.

    A river is continuous when each hexside shares a hex corner with the next, and the path
    goes on through the other corner of each hexside (it never turns back on the corner it
    came in by).  Returns the indices i where sides[i] -> sides[i+1] breaks that."""
    breaks: list[int] = []
    came_in: frozenset[Hex] | None = None
    for i, (s, t) in enumerate(zip(sides, sides[1:])):
        shared = [c for c in corners(s) if c in corners(t)]
        if len(shared) != 1 or shared[0] == came_in:
            breaks.append(i)
            came_in = None
            continue
        came_in = shared[0]
    return breaks


def test_every_river_is_a_continuous_chain_of_hexsides(gmap: GameMap) -> None:
    assert len(gmap.rivers) >= 20
    for river in gmap.rivers.values():
        assert river.kind == "major"
        assert len(river.hexsides) >= 2, river.name
        assert chain_breaks(river.hexsides) == [], river.name
        assert len(set(river.hexsides)) == len(river.hexsides), river.name  # no loop


def test_the_chain_check_finds_a_gap() -> None:
    dnieper = _map().rivers["Dnieper"].hexsides
    gapped = dnieper[:10] + dnieper[11:]
    assert chain_breaks(gapped) == [9]
    assert chain_breaks(dnieper[:10] + (dnieper[9],) + dnieper[10:]) != []  # turning back is a break too


def test_rivers_end_at_the_coast_and_railways_stay_on_land(gmap: GameMap) -> None:
    wet = {h for h in gmap.hexes() if gmap.terrain(h) in ("sea", "lake")}
    for river in gmap.rivers.values():
        assert [s for s in river.hexsides if "sea" in (gmap.terrain(s.a), gmap.terrain(s.b))] == [], river.name
    rails = [s for s, f in gmap.features.items() if "railroad" in f]
    # 435 + the six hexsides of Finland's Kouvola - Värtsilä line + the three of Värtsilä - Suojärvi -
    # Petrozavodsk (SOURCES.md)
    assert len(rails) == 444
    assert [gmap.grid.side_id(s) for s in rails if s.a in wet or s.b in wet] == []


def test_the_rivers_chosen_are_on_the_map(gmap: GameMap) -> None:
    names = {r.name.split(" (")[0] for r in gmap.rivers.values()}
    assert names == {"Dnieper", "Western Dvina", "Neman", "Berezina", "Pripyat", "Desna", "Southern Bug",
                     "Dniester", "Danube", "Prut", "Western Bug", "San", "Don", "Donets", "Volga", "Oka",
                     "Volkhov", "Svir", "Narva", "Lovat"}


def test_kiev_stands_on_the_dniepers_right_bank(gmap: GameMap) -> None:
    kiev = gmap.find("Kiev")
    assert "1121/1221" in side_ids(gmap, gmap.rivers["Dnieper"].hexsides)
    assert gmap.has(kiev, hx(gmap, "1221"), "major_river")


# -- water, straits, terrain ------------------------------------------------------------------

def test_lake_hexes_are_ladoga_onega_and_peipus(gmap: GameMap) -> None:
    lakes = {gmap.grid.id(h): gmap.name(h) for h in gmap.hexes() if gmap.terrain(h) == "lake"}
    assert lakes == {"1403": "Lake Ladoga", "1404": "Lake Ladoga", "1503": "Lake Ladoga", "1504": "Lake Ladoga",
                     "1801": "Lake Onega", "1802": "Lake Onega", "1007": "Lake Peipus"}  # 12.10


def test_the_sea_of_azov_is_told_apart_from_the_black_sea(gmap: GameMap) -> None:
    azov = {gmap.grid.id(h) for h in gmap.hexes() if gmap.name(h) == "Sea of Azov"}
    assert azov == {"1829", "1830", "1928", "1929", "2029", "2030", "2128", "2129", "2228"}  # 12.10
    assert all(gmap.terrain(hx(gmap, t)) == "sea" for t in azov)
    assert gmap.name(hx(gmap, "1931")) == "Black Sea"
    assert gmap.name(hx(gmap, "0110")) == "Baltic Sea"


def test_the_gulfs_of_the_baltic_are_named(gmap: GameMap) -> None:
    def named(name: str) -> set[str]:
        return {gmap.grid.id(h) for h in gmap.hexes() if gmap.name(h) == name}
    assert named("Gulf of Finland") == {"0605", "0704", "0805", "0904", "1004", "1005", "1104", "1205"}
    assert named("Gulf of Riga") == {"0507", "0508", "0608", "0609"}
    assert named("Gulf of Bothnia") == {"0101", "0201", "0202", "0301", "0302", "0401", "0402", "0403"}  # 12.9
    seas = {gmap.name(h) for h in gmap.hexes() if gmap.terrain(h) == "sea"}
    assert seas == {"Baltic Sea", "Gulf of Finland", "Gulf of Riga", "Gulf of Bothnia", "Black Sea", "Sea of Azov"}


def test_the_kerch_strait_is_the_only_strait(gmap: GameMap) -> None:
    a, b = hx(gmap, "1930"), hx(gmap, "2031")
    assert gmap.has(a, b, "strait") and gmap.is_impassable_side(a, b)  # 12.10
    assert gmap.name(a) == "Kerch" and gmap.terrain(b) != "sea"
    straits = {gmap.grid.side_id(s) for s, f in gmap.features.items() if "strait" in f}
    assert straits == {"1930/2031"}


def test_lake_hexsides_close_ilmen_and_the_limans(gmap: GameMap) -> None:
    lakes = {gmap.grid.side_id(s) for s, f in gmap.features.items() if "lake" in f}
    assert lakes == {"1408/1409", "1029/1128", "1428/1528"}


def test_terrain_decisions(gmap: GameMap) -> None:
    t = {text: gmap.terrain(hx(gmap, text)) for text in
         ["0618", "0718", "1406", "1407", "1632", "0224", "1531", "1716", "1701", "2601", "1922", "2012"]}
    assert t == {"0618": "swamp", "0718": "swamp", "1406": "swamp", "1407": "swamp",  # Pripyat, Volkhov
                 "1632": "mountain", "0224": "mountain", "1531": "rough",  # Crimea, Carpathians
                 "1716": "forest", "1701": "arctic", "2601": "arctic", "1922": "clear", "2012": "clear"}
    arctic_rows = {h.row for h in gmap.hexes() if gmap.terrain(h) == "arctic"}
    assert arctic_rows == {1, 2}  # 12.10: only the far north


# -- borders and zones ----------------------------------------------------------------------

def test_every_land_hex_is_in_exactly_one_country(gmap: GameMap) -> None:
    sides = {c: gmap.area(c).side for c in COUNTRIES}
    assert sides == {"ussr": "soviet", "finland": "axis", "romania": "axis", "hungary": "axis",
                     "slovakia": "axis", "poland": "axis", "germany": "axis", "neutral": ""}
    for h in gmap.hexes():
        owners = [c for c in COUNTRIES if h in gmap.area(c).hexes]
        assert len(owners) == (0 if gmap.terrain(h) == "sea" else 1), (gmap.grid.id(h), owners)
    assert gmap.area("slovakia").hexes == {hx(gmap, "0122")}


def test_the_ussr_border_separates_soviet_hexes_from_the_others(gmap: GameMap) -> None:
    ussr = gmap.area("ussr").hexes
    land = {h for h in gmap.hexes() if gmap.terrain(h) != "sea"}
    expected = {Hexside(h, n) for h in ussr for n in gmap.neighbours(h) if n in land and n not in ussr}
    assert gmap.lines["ussr_border"] == expected
    assert len(expected) == 69
    assert {"0318/0418", "0312/0412", "1103/1203", "0726/0826"} <= side_ids(gmap, tuple(expected))


def test_the_1940_finnish_border(gmap: GameMap) -> None:
    finland, ussr = gmap.area("finland").hexes, gmap.area("ussr").hexes
    line = gmap.lines["finland_1940"]
    assert line <= gmap.lines["ussr_border"]
    assert {frozenset((s.a in finland, s.b in finland)) for s in line} == {frozenset((True, False))}
    assert all(s.a in ussr or s.b in ussr for s in line)
    assert side_ids(gmap, tuple(line)) == {"1102/1203", "1103/1203", "1103/1204", "1202/1203", "1202/1302",
                                           "1301/1302", "1301/1402", "1401/1402", "1401/1501"}


def test_weather_zones_part_the_map_at_the_bobruisk_row(gmap: GameMap) -> None:
    north, south = gmap.area("weather_north").hexes, gmap.area("weather_south").hexes
    assert north | south == set(gmap.hexes()) and not north & south  # 12.3
    assert gmap.find("Bobruisk").row == 16 == max(h.row for h in north)  # 12.7's row ends the north


def test_finnish_border_zone_and_ports(gmap: GameMap) -> None:
    assert {gmap.grid.id(h) for h in gmap.area("finnish_border_zone").hexes} == set(BORDER_ZONE)  # 13
    baltic = {gmap.name(h) for h in gmap.area("ports_baltic").hexes}
    black = {gmap.name(h) for h in gmap.area("ports_black_sea").hexes}
    assert baltic == {"Leningrad", "Tallinn", "Riga", "Königsberg", "Helsinki"}  # 8.2, 12.9
    assert black == {"Odessa", "Sevastopol", "Novorossiysk"}  # 8.2, 12.1
    for name in baltic | black:  # a port touches its sea (Leningrad through the Neva bay, 1205)
        h = gmap.find(name)
        assert any(gmap.terrain(n) == "sea" for n in gmap.neighbours(h)), name


def test_leningrad_and_12_9s_two_hexes_beside_it_are_coastal(gmap: GameMap) -> None:
    for text in ("1304", "1204", "1305"):  # 12.9: Leningrad and "the two adjacent coastal hexes"
        sea = [gmap.grid.id(n) for n in gmap.neighbours(hx(gmap, text)) if gmap.terrain(n) == "sea"]
        assert "1205" in sea, text
    assert gmap.name(hx(gmap, "1205")) == "Gulf of Finland"


# Every city on a river, and the hexes its river parts it from (SOURCES.md, Map: "Banks").
# The bank is the real town's (its old centre where it spans both); a 64 km hex cannot show
# a town on both banks.
CITY_BANKS: dict[str, dict[str, list[str]]] = {
    "Kiev": {"Dnieper": ["1221", "1222"]},  # right (west) bank
    "Smolensk": {"Dnieper": ["1313", "1413", "1513"]},  # left (south) bank: the river to the north
    "Mogilev": {"Dnieper": ["1315", "1316"], "Berezina": ["1116"]},  # right (west) bank of the Dnieper
    "Dnepropetrovsk": {"Dnieper": ["1724", "1824", "1826", "1924", "1925"]},  # right bank, inside the bend
    "Zaporozhye": {"Dnieper": ["1725", "1726", "1825"]},  # left (east) bank
    "Kremenchug": {"Dnieper": ["1424", "1425", "1525"]},  # left (north-east) bank
    "Nikolayev": {"Dnieper": ["1528"], "Southern Bug": ["1327"]},  # left (east) bank of the Bug
    "Bobruisk": {"Berezina": ["1115", "1216", "1217"]},  # right (west) bank
    "Dvinsk": {"Western Dvina": ["0812", "0912"]},  # right (north) bank
    "Riga": {"Western Dvina": ["0509", "0510", "0611", "0710"]},  # right (east) bank
    "Kovno": {"Neman": ["0413"]},  # right (north) bank
    "Grodno": {"Neman": ["0414", "0415"]},  # right (east) bank
    "Chernigov": {"Dnieper": ["1219"], "Desna": ["1320", "1420"]},  # right (north-west) bank of the Desna
    "Kalinin": {"Volga": ["1810", "1909", "2010"]},  # right (south) bank
    "Yaroslavl": {"Volga": ["2108", "2109", "2208", "2308"]},  # right (south-west) bank
    "Kaluga": {"Oka": ["1915", "2015"]},  # left (north) bank
    "Ryazan": {"Oka": ["2313", "2414"]},  # right (south) bank
    "Lodeynoye Pole": {"Svir": ["1503", "1603"]},  # left (south) bank
    "Narva": {"Narva": ["1106", "1206"]},  # left (west) bank; Ivangorod faces it
    "Staraya Russa": {"Lovat": ["1410", "1508", "1509"]},  # west of the Lovat
    "Rostov": {"Don": ["2327", "2428", "2527"]},  # right (north) bank
    "Voronezh": {"Don": ["2219", "2220", "2320"]},  # east of the Don
    "Voroshilovgrad": {"Donets": ["2224", "2323", "2424"]},  # south of the Donets
    "Belgorod": {"Donets": ["2021", "2022"]},  # right (west) bank
    "Kharkov": {"Donets": ["2022", "2023"]},  # west of the Donets
    "Brest": {"Pripyat": ["0518"], "Western Bug": ["0317", "0318"]},  # right (east) bank of the Bug
    "Chernovtsy": {"Prut": ["0324", "0424", "0524"]},  # right (south) bank
    "Galati": {"Prut": ["0829", "0830"]},  # west of the Prut
    "Iasi": {"Prut": ["0725", "0826", "0827"]},  # west of the Prut
    "Kishinev": {"Dniester": ["1027"]},  # west of the Dniester
}


@pytest.mark.parametrize("city", sorted(CITY_BANKS))
def test_each_city_on_a_river_stands_on_its_real_bank(gmap: GameMap, city: str) -> None:
    h = gmap.find(city)
    across: dict[str, list[str]] = {}
    for river in gmap.rivers.values():
        for s in river.hexsides:
            if h in (s.a, s.b):
                across.setdefault(river.name.split(" (")[0], []).append(gmap.grid.id(s.b if s.a == h else s.a))
    assert {k: sorted(v) for k, v in across.items()} == CITY_BANKS[city]


def test_typhoon_rail_markers_stand_on_railroads(gmap: GameMap) -> None:
    rail = gmap.rail_hexes()
    for text in ("1108", "1110", "1414", "1318", "1121", "1323", "1028"):  # 17.1; 10.3: markers hold rail
        assert hx(gmap, text) in rail, text
    assert gmap.has(hx(gmap, "1110"), hx(gmap, "1211"), "railroad")  # Moscow - Riga by Idritsa
    assert gmap.has(hx(gmap, "1323"), hx(gmap, "1223"), "railroad")  # Kiev - Korsun - Znamenka


# -- railways -----------------------------------------------------------------------------

def test_rail_exits_include_the_east_edge_arrival_hexes(gmap: GameMap) -> None:
    exits = {gmap.grid.id(h) for h in gmap.rail_exits}
    assert {"2618", "2625"} <= exits  # 15.3's arrivals come by rail from the east
    assert {"0112", "0117"} <= exits  # Konigsberg and Warsaw: west-edge lines (8.2)
    assert all(gmap.edges_of(h) for h in gmap.rail_exits)


def test_the_trunk_lines_connect_the_cities(gmap: GameMap) -> None:
    moscow = gmap.find("Moscow")
    for name in ["Leningrad", "Kiev", "Minsk", "Smolensk", "Kharkov", "Rostov", "Voronezh", "Riga", "Odessa",
                 "Sevastopol", "Warsaw", "Königsberg", "Lvov", "Bucharest", "Helsinki", "Stalino", "Krasnodar"]:
        assert connected(gmap, moscow, gmap.find(name), "railroad"), name
    east = [h for h in gmap.rail_exits if "east" in gmap.edges_of(h)]
    for h, s in gmap.settlements().items():  # 8.2: Soviet majors are fed by rail from the east edge
        if s == "major_city" and h in gmap.area("ussr").hexes:
            assert any(connected(gmap, h, e, "railroad") for e in east), gmap.name(h)


# -- the builder and its checks -------------------------------------------------------------

def test_check_passes_on_the_committed_map_and_fails_on_a_changed_one(tmp_path: Path) -> None:
    out = tmp_path / "map.toml"
    out.write_text(MAP_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["--check", "--out", str(out)]) == 0
    out.write_text(out.read_text(encoding="utf-8").replace('"2012" = {', '"2013" = {', 1), encoding="utf-8")
    assert main(["--check", "--out", str(out)]) == 1


def _broken_geo(tmp_path: Path, old: str, new: str) -> Path:
    text = GEO_PATH.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "geo.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('hex = "2012"', 'hex = "2099"', "place[13].hex", "hex 2099 is off the map"),
    ('terrain = "swamp"', 'terrain = "bog"', "terrain[7].terrain", "unknown terrain 'bog'"),
    ('joins = "Dnieper"', 'joins = "Nile"', "river[3].joins", "river 'Nile' is not listed before"),
    ('"Vilnius", "Grodno"', '"Vilnius", "Atlantis"', "railroad[1].points[8]", "no place named 'Atlantis'"),
    ('hex = "1103"\ncountry = "finland"', 'hex = "1103"\ncountry = "lapland"', "hex[3].country",
     "no [[country]] named 'lapland'"),
    ('hex = "1531"\nterrain = "rough"', 'hex = "1531"\nterrain = "rough"\nname = "Hills"', "hex[2].name",
     "only a hex set to sea or lake takes a name"),
])
def test_geo_errors_name_file_key_and_reason(tmp_path: Path, old: str, new: str, key: str, reason: str) -> None:
    path = _broken_geo(tmp_path, old, new)
    with pytest.raises(DataError) as info:
        check_geo_file(path, load_toml(path))
    assert info.value.file == str(path)
    assert info.value.key == key
    assert reason in info.value.reason


def test_the_builder_refuses_two_places_on_one_hex(tmp_path: Path) -> None:
    path = _broken_geo(tmp_path, 'hex = "1414"', 'hex = "1318"')
    with pytest.raises(DataError) as info:
        build_map(path, load_toml(path))
    assert re.search(r"'Gomel' and 'Smolensk'|'Smolensk' and 'Gomel'", info.value.reason)


# -- the command line -----------------------------------------------------------------------

def test_kiev_tui_map_draws_it(tmp_path: Path) -> None:
    svg = tmp_path / "b41.svg"
    result = CliRunner().invoke(app, ["map", "--game", "barbarossa1941", "--svg", str(svg)])
    assert result.exit_code == 0, result.output
    assert "MOSC" in result.output and "KIEV" in result.output and "%%%%" in result.output  # the seas (issue 35)
    picture = svg.read_text(encoding="utf-8")
    for label in ("MOSC", "LENI", "KIEV", "ROST"):
        assert label in picture.replace("&#160;", " "), label


def test_validate_passes_the_map_and_its_geography() -> None:
    for path in (MAP_PATH, GEO_PATH):
        result = CliRunner().invoke(app, ["validate", str(path)])
        assert result.exit_code == 0, result.output
        assert result.output.strip().endswith("ok")


def test_validate_names_file_key_and_reason_of_a_broken_copy(tmp_path: Path) -> None:
    folder = tmp_path / "barbarossa1941"
    folder.mkdir()
    broken = folder / "map.toml"
    broken.write_text(MAP_PATH.read_text(encoding="utf-8").replace('"2012" = {', '"2712" = {', 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(broken)])
    assert result.exit_code == 2
    assert f"{broken}: hexes.2712: hex 2712 is off the map" in result.output
    geo = _broken_geo(folder, 'hex = "0804"', 'hex = "0833"')
    result = CliRunner().invoke(app, ["validate", str(geo)])
    assert result.exit_code == 2
    assert f"{geo}: place[3].hex: hex 0833 is off the map" in result.output
