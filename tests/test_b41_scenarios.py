"""Barbarossa 1941's scenarios (data/barbarossa1941/scenarios/) against the book.

Every literal is the book's (../shared/rulebooks/barbarossa-1941.txt), counted or copied, with its
case in a comment.  Broken copies of a scenario must be refused naming file, key and reason.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.scenario import Scenario, load_scenario
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.setup_check import choice_hexes

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "barbarossa1941"
SCEN = DATA_DIR / "scenarios"
NOT_GROUND = {"air", "fort", "fleet"}


@pytest.fixture(scope="module")
def historical() -> Scenario:
    return load_scenario(SCEN / "historical.toml")


@pytest.fixture(scope="module")
def typhoon() -> Scenario:
    return load_scenario(SCEN / "typhoon.toml")


@pytest.fixture(scope="module")
def hypothetical() -> Scenario:
    return load_scenario(SCEN / "hypothetical.toml")


def hid(sc: Scenario, uid: str) -> str:
    return sc.map.grid.id(sc.setup[uid])


def ground(sc: Scenario, uids: object) -> list[str]:
    return [u for u in uids if sc.catalog.units[u].type not in NOT_GROUND]  # type: ignore[attr-defined]


# -- the historical scenario (14.1, 15.1-15.3) -------------------------------------------------

# unit -> (the hexes the book names, "and adj"/"or adj"?, case)
HIST_BOOK: dict[str, tuple[list[str], bool, str]] = {
    "fi-c-6": (["1301", "1401"], False, "15.1"), "fi-c-7": (["1301", "1401"], False, "15.1"),
    "fi-c-2": (["1102", "1103"], False, "15.1"), "fi-c-4": (["1102", "1103"], False, "15.1"),
    "fi-res": (["0804"], False, "15.1"),
    "ge-bef-101": (["0112"], False, "15.1"), "ge-air-1": (["0112"], False, "15.1"),
    "ge-ak-23": (["0112"], False, "15.1"),
    "ge-ak-1": (["0312"], True, "15.1"), "ge-ak-26": (["0312"], True, "15.1"), "ge-ak-38": (["0312"], True, "15.1"),
    "ge-ak-2": (["0314"], True, "15.1"), "ge-ak-10": (["0314"], True, "15.1"), "ge-ak-28": (["0314"], True, "15.1"),
    "ge-pzk-41": (["0313"], True, "15.1"), "ge-pzk-56": (["0313"], True, "15.1"),
    "ge-bef-102": (["0117"], False, "15.1"), "ge-air-2": (["0117"], False, "15.1"),
    "ge-air-8": (["0117"], False, "15.1"), "ge-ak-53": (["0117"], False, "15.1"),
    "ge-ak-8": (["0216"], True, "15.1"), "ge-ak-20": (["0216"], True, "15.1"), "ge-ak-42": (["0216"], True, "15.1"),
    "ge-ak-7": (["0317"], True, "15.1"), "ge-ak-9": (["0317"], True, "15.1"), "ge-ak-13": (["0317"], True, "15.1"),
    "ge-ak-43": (["0317"], True, "15.1"),
    "ge-pzk-24": (["0315"], True, "15.1"), "ge-pzk-46": (["0315"], True, "15.1"),
    "ge-pzk-47": (["0315"], True, "15.1"), "ge-ak-12": (["0315"], True, "15.1"),
    "ge-pzk-39": (["0318"], True, "15.1"), "ge-pzk-57": (["0318"], True, "15.1"),
    "ge-ak-5": (["0318"], True, "15.1"), "ge-ak-6": (["0318"], True, "15.1"),
    "ge-bef-103": (["0219"], False, "15.1"), "ge-air-5": (["0219"], False, "15.1"), "ge-jk": (["0219"], False, "15.1"),
    "ge-ak-17": (["0319"], True, "15.1"), "ge-ak-29": (["0319"], True, "15.1"), "ge-ak-44": (["0319"], True, "15.1"),
    "ge-ak-55": (["0319"], True, "15.1"),
    "ge-pzk-3": (["0220"], True, "15.1"), "ge-pzk-14": (["0220"], True, "15.1"), "ge-pzk-48": (["0220"], True, "15.1"),
    "ge-ak-4": (["0120"], True, "15.1"), "ge-gebk-49": (["0120"], True, "15.1"), "ge-ak-52": (["0120"], True, "15.1"),
    "sk-corps": (["0121"], False, "15.1"),
    "ge-ak-11": (["0727"], True, "15.1"), "ge-ak-30": (["0727"], True, "15.1"), "ge-ak-54": (["0727"], True, "15.1"),
    "ro-a-3": (["0625"], True, "15.1"), "ro-kav": (["0625"], True, "15.1"), "ro-geb": (["0625"], True, "15.1"),
    "ro-sich": (["0531"], False, "15.1"),
    "so-a-7": (["1402", "1302"], False, "15.2"), "so-fort-1": (["1402", "1302"], False, "15.2"),
    "so-a-23": (["1204"], False, "15.2"), "so-fort-2": (["1204"], False, "15.2"),
    "so-mc-1-10": (["1304"], False, "15.2"),
    "so-a-8": (["0411", "0310"], False, "15.2"), "so-a-11": (["0512", "0412", "0413"], False, "15.2"),
    "so-mc-3-12": (["0511", "0613"], False, "15.2"), "so-ab-5": (["0911"], False, "15.2"),
    "so-a-3": (["0615", "0514"], False, "15.2"), "so-a-4": (["0418", "0417"], False, "15.2"),
    "so-fort-3": (["0418"], False, "15.2"), "so-a-10": (["0416", "0415", "0316"], False, "15.2"),
    "so-a-13": (["0915"], True, "15.2"), "so-mc-6-11": (["0515", "0516"], False, "15.2"),
    "so-mc-13-14": (["0416", "0517"], False, "15.2"), "so-mc-17-20": (["0716", "0816"], False, "15.2"),
    "so-cav-6": (["0618"], True, "15.2"), "so-ab-4": (["0915"], True, "15.2"),
    "so-a-5": (["0420", "0419"], False, "15.2"), "so-a-6": (["0321", "0221", "0320"], False, "15.2"),
    "so-cav-5": (["0321"], True, "15.2"), "so-a-12": (["0424", "0425"], False, "15.2"),
    "so-a-26": (["0322"], False, "15.2"), "so-mc-4-8": (["0420", "0421"], False, "15.2"),  # "421": 0421
    "so-mc-9-15": (["0719", "0520"], False, "15.2"), "so-mc-16-19": (["0522"], True, "15.2"),
    "so-mc-22-24": (["0621"], True, "15.2"), "so-ab-1": (["1121"], False, "15.2"),
    "so-a-9": (["0829", "0830"], False, "15.2"), "so-a-18": (["0827", "0828", "0927"], False, "15.2"),
    "so-cav-2": (["0825"], True, "15.2"), "so-mc-2-18": (["1025", "1027"], False, "15.2"),
    "so-ab-3": (["1128"], False, "15.2"),
    "so-a-16": (["1121"], False, "15.2"), "so-a-19": (["2012"], False, "15.2"), "so-a-20": (["1414"], False, "15.2"),
    "so-a-21": (["1318"], False, "15.2"), "so-a-22": (["1311"], False, "15.2"), "so-a-24": (["1711"], False, "15.2"),
    "so-a-27": (["1108"], False, "15.2"), "so-a-28": (["2209"], False, "15.2"),
    "so-mc-5-26": (["2427"], False, "15.2"), "so-mc-7-21": (["2012"], False, "15.2"),
    "so-mc-23-25": (["1716"], False, "15.2"), "so-ab-2": (["1922"], False, "15.2"),
    "so-cav-4": (["2427"], False, "15.2"), "so-fort-sevastopol": (["1532"], False, "15.2"),
}


def test_the_historical_start_counts_are_the_book_s(historical: Scenario) -> None:
    units = historical.catalog.units
    by = Counter((units[u].side, units[u].type in NOT_GROUND) for u in historical.setup)
    assert by[("axis", False)] == 53  # 15.1: Finland 6, AG North 10, Centre 17, South 13, Romania 7
    assert by[("soviet", False)] == 44  # 15.2: 22 armies, 13 mechanized, 4 cavalry, 5 airborne
    commands = Counter(units[u].extra.get("command") for u in ground(historical, historical.setup))
    assert commands == {"finland": 6, "ag_north": 10, "ag_center": 17, "ag_south": 13, "romania": 7,
                        "tvd_leningrad": 3, "tvd_baltic": 4, "tvd_west": 9, "tvd_south_west": 10, "tvd_south": 5,
                        "reserve": 13}
    kinds = Counter(units[u].type for u in historical.setup)
    assert kinds["air"] == 4  # 15.1: 1 + 2 + 1 Luftwaffe (11: four)
    assert kinds["fort"] == 4  # 15.2: three field forts and Sevastopol
    assert kinds["fleet"] == 1  # 12.9
    assert Counter(units[u].type for u in historical.setup if units[u].side == "soviet") ["army"] == 22


@pytest.mark.parametrize("uid", sorted(HIST_BOOK))
def test_each_unit_stands_where_the_book_allows_and_choices_say_so(historical: Scenario, uid: str) -> None:
    hexes, adjacent, _case = HIST_BOOK[uid]
    gm = historical.map
    at = historical.setup[uid]
    allowed = {gm.grid.parse(h) for h in hexes}
    if adjacent:
        allowed |= {n for h in list(allowed) for n in gm.neighbours(h)}
    assert at in allowed
    if not adjacent:
        assert hid(historical, uid) == hexes[0]  # the default is the book's first hex
    choice = historical.extra["choices"][uid]
    assert (choice["hexes"], choice.get("adjacent", False)) == (hexes, adjacent)


def test_oinonen_is_placed_freely_in_finland(historical: Scenario) -> None:
    assert historical.extra["choices"]["fi-oinonen"]["free"] is True  # 15.1
    assert historical.setup["fi-oinonen"] in historical.map.areas["finland"].hexes
    assert set(historical.extra["choices"]) == set(HIST_BOOK) | {"fi-oinonen"}


def test_and_adj_formations_fill_the_book_hex_first(historical: Scenario) -> None:
    lost = {u: bu.entry_step(historical.catalog.units[u]) for u in historical.setup}
    for book_hex in ("0317", "0315", "0318", "0319"):  # four corps each: 8 steps, one must stand next door
        there = [u for u in historical.setup if hid(historical, u) == book_hex]
        assert sum(bu.stacking_points(historical.catalog.units[u], lost[u]) for u in there) == 6  # 3


# turn -> units arriving, and where: a hex id or the city whose hex it is (15.3)
HIST_ARRIVALS: dict[str, tuple[int, str]] = {
    "ge-ak-50": (2, "Königsberg"), "ge-ak-35": (2, "Warsaw"), "ge-pzk-40": (2, "Warsaw"), "ge-ak-34": (2, "0121"),
    "it-csir": (2, "Craiova"), "ro-a-4": (2, "Galati"), "ge-ak-62": (3, "Warsaw"), "ge-ak-51": (3, "0121"),
    "ro-sec-1": (3, "Bucharest"), "ro-cav-1": (3, "Bucharest"), "ge-fjd-7": (3, "held"),
    "so-a-29": (2, "Velikiye Luki"), "so-a-30": (2, "Rzhev"), "so-a-31": (2, "Moscow"), "so-a-32": (2, "Vyazma"),
    "so-a-43": (2, "Tula"), "so-a-44": (2, "Rostov"), "so-a-45": (2, "Krasnodar"), "so-a-48": (2, "Novgorod"),
    "so-cav-11": (2, "Moscow"), "so-mg-kachalov": (2, "Bryansk"), "so-og-luga": (2, "Novgorod"),
    "so-a-33": (3, "Kaluga"), "so-a-34": (3, "Kalinin"), "so-a-37": (3, "Kiev"), "so-a-40": (3, "Kursk"),
    "so-a-46": (3, "Novorossiysk"), "so-a-47": (3, "Krasnodar"), "so-a-49": (3, "Moscow"),
    "so-a-51": (3, "Sevastopol"), "so-a-52": (3, "Volkhov"), "so-a-53": (3, "2618 2625"),
    "so-og-neva": (3, "Leningrad"), "so-cav-13": (3, "Rostov"),
    "so-a-4b": (4, "Volkhov"), "so-a-6b": (4, "Kharkov"), "so-a-11b": (4, "Moscow"), "so-a-12b": (4, "Zaporozhye"),
    "so-a-38": (4, "Poltava"), "so-a-42": (4, "Leningrad"), "so-a-50": (4, "Orel"),
    "so-a-5b": (5, "Moscow"), "so-a-54": (5, "Petrozavodsk"), "so-a-55": (5, "Vologda"), "so-a-56": (5, "Rostov"),
    "so-a-57": (5, "2618 2625"), "so-mg-ermakov": (5, "Kaluga"),
    "so-a-26b": (6, "Vladimir"), "so-a-39": (6, "Moscow"), "so-cav-15": (6, "Moscow"),
    "so-a-24b": (7, "Moscow"), "so-a-10b": (7, "Ryazan"), "so-air-1": (7, "any_major_city"),
    "so-gab-1": (7, "held"), "so-shock-1": (7, "replace_army"),
    "so-a-58": (8, "2618 2625"), "so-a-59": (8, "Vologda"), "so-mg-khostenko": (8, "Ryazan"), "so-gab-2": (8, "held"),
    "so-gcav-1": (8, "any_city"), "so-gcav-2": (8, "any_city"), "so-shock-2": (8, "replace_army"),
    "so-a-60": (9, "Vladimir"), "so-a-61": (9, "Tambov"), "so-shock-3": (9, "replace_army"),
    "so-gcav-3": (9, "any_city"),
    "so-air-2": (10, "any_major_city"), "so-shock-4": (10, "replace_army"),
}
PLACES = {"held", "any_city", "any_major_city", "replace_army"}


def arrivals(sc: Scenario) -> dict[str, tuple[int, str]]:
    out = {}
    for r in sc.reinforcements:
        place = r.extra.get("place", "hexes")
        for uid in r.units:
            if place != "hexes":
                out[uid] = (r.turn, place)
            elif len(r.hexes) == 1 and sc.map.name(r.hexes[0]) and not sc.map.grid.id(r.hexes[0]) == "0121":
                out[uid] = (r.turn, sc.map.name(r.hexes[0]) or "")
            else:
                out[uid] = (r.turn, " ".join(sorted(sc.map.grid.id(h) for h in r.hexes)))
    return out


def test_every_arrival_is_the_book_s(historical: Scenario) -> None:
    assert arrivals(historical) == HIST_ARRIVALS


def test_arrival_counts_per_turn(historical: Scenario) -> None:
    units = historical.catalog.units
    per = Counter((units[u].side, t) for u, (t, _) in HIST_ARRIVALS.items()
                  if units[u].type not in ("air", "shock_army"))
    # 15.3 counted: Axis 6 and 5; Soviet ground 11, 12, 7, 6, 3, 3, 6, 3
    assert per == {("axis", 2): 6, ("axis", 3): 5, ("soviet", 2): 11, ("soviet", 3): 12, ("soviet", 4): 7,
                   ("soviet", 5): 6, ("soviet", 6): 3, ("soviet", 7): 3, ("soviet", 8): 6, ("soviet", 9): 3}
    got = Counter((units[u].side, r.turn) for r in historical.reinforcements for u in r.units
                  if units[u].type not in ("air", "shock_army"))
    assert got == per


def test_optional_rules_on_the_arrivals(historical: Scenario) -> None:
    early = {u: r.extra["early_turn"] for r in historical.reinforcements for u in r.units if "early_turn" in r.extra}
    assert early == {"so-a-58": 6, "so-a-59": 7, "so-a-60": 8}  # 14.3.4
    removed = {u: r.extra["removed_by"] for r in historical.reinforcements for u in r.units if "removed_by" in r.extra}
    assert removed == {"ge-fjd-7": "14.3.2"}


def test_events_and_withdrawals(historical: Scenario) -> None:
    events = {e["id"]: e for e in historical.extra["event"]}
    vp = sorted((e["vp"], tuple(e.get("units", ()))) for e in events.values() if "vp" in e)
    assert vp == [(3, ("hu-gyor",)), (3, ("hu-sich-8",)), (5, ("so-opol-1", "so-opol-2")), (15, ()),
                  (18, ("so-part-1", "so-part-2"))]  # 13
    assert [e["delay"] for e in events.values() if e.get("vp") == 3] == [1, 2]  # 13: next turn, two turns
    assert {e["hexes"][0] for e in events.values() if e.get("vp") == 3} == {"0124"}  # 13
    assert events["planes_for_africa"]["withdraw_count"] == 1  # 13
    dietl = events["murmansk"]
    assert (dietl["turn"], dietl["roll"], dietl["units"]) == (5, [6], ["ge-dietl"])  # 14.3.3
    assert historical.map.name(historical.map.grid.parse(dietl["hexes"][0])) == "Helsinki"
    (w,) = historical.extra["withdrawal"]
    assert (w["turn"], sorted(w["units"])) == (6, ["so-ab-1", "so-ab-2", "so-ab-3", "so-ab-4", "so-ab-5"])  # 12.5


def test_the_historical_header(historical: Scenario) -> None:
    assert (historical.turns, historical.first_player) == (10, "axis")  # 13, 2.1


# -- Operation Typhoon (17) ---------------------------------------------------------------------

# unit -> (hex, steps lost) as 17.1-17.2 print them; ge-jk is the second "17.AK" (SOURCES.md)
TYPHOON_BOOK: dict[str, tuple[str, int]] = {
    "fi-c-6": ("1602", 1), "fi-c-7": ("1602", 1), "fi-c-2": ("1204", 1), "fi-c-4": ("1204", 1), "fi-res": ("1302", 0),
    "ge-bef-101": ("1108", 0), "ge-ak-1": ("1206", 1), "ge-ak-26": ("1206", 0), "ge-ak-28": ("1207", 1),
    "ge-ak-50": ("1207", 0), "ge-pzk-41": ("1306", 0), "ge-ak-10": ("1307", 1), "ge-ak-38": ("1307", 0),
    "ge-pzk-56": ("1407", 1), "ge-ak-2": ("1308", 1), "ge-ak-23": ("1309", 0),
    "ge-ak-42": ("1213", 1), "ge-pzk-39": ("1310", 0), "ge-ak-5": ("1311", 0), "ge-bef-102": ("0915", 0),
    "ge-ak-6": ("1412", 1), "ge-ak-8": ("1413", 0), "ge-pzk-46": ("1413", 1), "ge-ak-9": ("1414", 0),
    "ge-ak-7": ("1514", 1), "ge-ak-20": ("1514", 0), "ge-pzk-40": ("1515", 0), "ge-ak-53": ("1516", 0),
    "ge-ak-43": ("1517", 0), "ge-ak-35": ("1418", 0), "ge-ak-13": ("1318", 0), "ge-ak-12": ("1218", 0),
    "ge-ak-62": ("1216", 0), "ge-pzk-47": ("1518", 0), "ge-pzk-57": ("1519", 1), "ge-pzk-24": ("1521", 0),
    "ge-bef-103": ("1121", 0), "ge-ak-17": ("1220", 1), "ge-ak-51": ("1221", 0), "hu-gyor": ("1122", 0),
    "ge-ak-29": ("1222", 0), "ge-ak-44": ("1223", 1), "ge-jk": ("1320", 1), "ge-ak-4": ("1323", 1),
    "ge-ak-34": ("1323", 0), "ge-pzk-48": ("1423", 0), "ge-pzk-14": ("1522", 1), "ge-ak-52": ("1424", 0),
    "ge-ak-55": ("1523", 0), "it-csir": ("1524", 0), "sk-sich": ("0920", 0), "hu-sich-8": ("0522", 0),
    "ro-sich": ("0923", 0), "ro-sec-1": ("0927", 0), "ge-pzk-3": ("1725", 1), "ro-a-3": ("1526", 1),
    "ge-gebk-49": ("1526", 0), "ge-ak-11": ("1428", 0), "ge-ak-30": ("1427", 0), "ro-a-4": ("1127", 1),
    "ro-cav-1": ("1228", 0), "ge-ak-54": ("1228", 1),
    "ge-air-1": ("1108", 0), "ge-air-5": ("0920", 0), "ge-air-8": ("1213", 0), "ge-air-2": ("1216", 0),
    "so-a-7": ("1702", 0), "so-vmf": ("1205", 0), "so-a-23": ("1304", 1), "so-fort-1": ("1304", 0),
    "so-a-8": ("1405", 1), "so-fort-2": ("1405", 0), "so-a-42": ("1305", 1), "so-og-luga": ("1305", 0),
    "so-og-neva": ("1406", 0), "so-a-54": ("1506", 0), "so-a-55": ("1505", 0), "so-a-52": ("1507", 0),
    "so-a-11": ("1408", 1), "so-a-34": ("1409", 0), "so-a-27": ("1410", 1), "so-a-22": ("1510", 0),
    "so-a-29": ("1511", 1), "so-a-30": ("1512", 0), "so-a-31": ("1711", 1), "so-a-19": ("1513", 1),
    "so-a-16": ("1513", 1), "so-a-20": ("1614", 0), "so-a-49": ("1713", 0), "so-fort-3": ("1713", 0),
    "so-fort-4": ("1914", 0), "so-fort-5": ("1910", 0), "so-a-24": ("1615", 0), "so-a-43": ("1616", 0),
    "so-a-50": ("1617", 0), "so-a-3": ("1619", 1), "so-mg-ermakov": ("1620", 1), "so-cav-15": ("1919", 0),
}


def test_typhoon_sets_up_every_unit_where_17_says(typhoon: Scenario) -> None:
    reduced = typhoon.extra["reduced"]
    ours = set(typhoon.extra["reconstructed_setup"]["units"])
    for uid, (h, lost) in TYPHOON_BOOK.items():
        assert (hid(typhoon, uid), reduced.get(uid, 0)) == (h, lost), uid
    assert set(typhoon.setup) - set(TYPHOON_BOOK) == ours  # everything else is flagged as ours
    assert not ours & set(TYPHOON_BOOK)


def test_typhoon_counts(typhoon: Scenario) -> None:
    units = typhoon.catalog.units
    book = [u for u in TYPHOON_BOOK]
    assert len(ground(typhoon, [u for u in book if units[u].side == "axis"])) == 62  # 17.1: 5 Finnish + 57
    assert sum(units[u].type == "air" for u in book) == 4  # 17.1
    assert len(ground(typhoon, [u for u in book if units[u].side == "soviet"])) == 26  # 17.2
    assert sum(units[u].type == "fort" for u in book) == 5  # 17.2: three forts and two "Strong"
    lost_faces = {u: face for u, face in (("ge-ak-1", "2-4-3"), ("ge-pzk-56", "2-5-5"), ("ro-a-3", "2-3-3"),
                                          ("so-a-23", "3-2-3"), ("so-a-8", "2-2-3"), ("so-mg-ermakov", "1-3-4"),
                                          ("fi-c-6", "1-4-3"), ("ge-ak-54", "2-3-3"))}
    for uid, printed in lost_faces.items():  # the reduced values 17.1-17.2 print
        u = units[uid]
        step = typhoon.extra["reduced"][uid]
        assert f"{bu.combat(u, step)}-{bu.quality(u)}-{u.ma}" == printed


def test_typhoon_figures(typhoon: Scenario) -> None:
    p = typhoon.params
    assert (p["first_turn"], typhoon.turns, p["start_vp"]) == (5, 10, 9)  # 17, 17.1
    assert p["first_turn_weather"] == {"north": "mud", "south": "clear"}  # 17
    assert p["artillery_points"] == {"axis": 3, "soviet": 3}  # 17.1, 17.2
    assert p["replacement_points"] == {"axis_infantry": 2, "axis_motorized": 0, "axis_allies": 0}  # 17.1
    assert p["rail_markers"] == ["1108", "1110", "1414", "1318", "1121", "1323", "1028"]  # 17.1


# 17.2's list and, for the same turns, what 15.3's calendar adds to it (SOURCES.md, Scenarios)
TYPHOON_ARRIVALS = {
    "so-a-39": (6, "Moscow"), "so-a-26b": (6, "Vladimir"),  # 17.2; 15.3
    "so-a-24b": (7, "Moscow"), "so-a-10b": (7, "Ryazan"),  # 15.3
    "so-air-2": (10, "any_major_city"), "so-shock-4": (10, "replace_army"),  # 15.3, 11, 12.11
    "so-air-1": (7, "any_major_city"), "so-gab-1": (7, "held"),
    "so-shock-1": (7, "replace_army"), "so-a-58": (8, "2618 2625"), "so-a-59": (8, "Vologda"),
    "so-gab-2": (8, "held"), "so-shock-2": (8, "replace_army"), "so-mg-khostenko": (8, "Ryazan"),
    "so-gcav-1": (8, "any_city"), "so-gcav-2": (8, "any_city"), "so-a-60": (9, "Vladimir"),
    "so-a-61": (9, "Tambov"), "so-shock-3": (9, "replace_army"), "so-gcav-3": (9, "any_city"),
}


def test_typhoon_arrivals_events_and_withdrawal(typhoon: Scenario) -> None:
    assert arrivals(typhoon) == TYPHOON_ARRIVALS  # 17.2 and 15.3
    units = typhoon.catalog.units
    per = Counter(t for u, (t, _) in TYPHOON_ARRIVALS.items() if units[u].type not in ("air", "shock_army"))
    assert per == {6: 2, 7: 3, 8: 6, 9: 3}  # 17.2's eleven ground units and 15.3's 26th, 24th and 10th
    # from turn 6 on, Typhoon brings every Soviet arrival the campaign's calendar brings (15.3)
    assert {u: a for u, a in HIST_ARRIVALS.items() if a[0] >= 6 and u != "so-cav-15"} == TYPHOON_ARRIVALS
    assert hid(typhoon, "so-cav-15") == "1919"  # 17.2 puts 15.3's turn-6 cavalry on the map already
    assert hid(typhoon, "so-a-5b") == "2012"  # a turn-5 arrival (15.3): on the map, as the 54th and 55th
    (w,) = typhoon.extra["withdrawal"]
    assert (w["turn"], w["units"]) == (6, ["so-ab-3"])  # 17.2
    assert sorted(e.get("vp", 0) for e in typhoon.extra["event"]) == [0, 5, 15, 18]  # 13; 0: Dietl, 14.3.3
    for uid in typhoon.extra["reconstructed_setup"]["units"]:
        assert typhoon.catalog.units[uid].side == "soviet"


# -- the hypothetical scenario (14.2) -------------------------------------------------------------


def test_hypothetical_has_the_historical_forces(hypothetical: Scenario, historical: Scenario) -> None:
    assert set(hypothetical.setup) == set(historical.setup)
    assert arrivals(hypothetical) == HIST_ARRIVALS
    zones = hypothetical.extra["deployment"]["zone"]
    caps = {(z["nation"], tuple(z["areas"])): z.get("max_steps") for z in zones}
    assert caps[("german", ("romania",))] == 6 and caps[("german", ("finland",))] == 2  # 14.2
    rules = {(r["kind"], r.get("settlement"), r.get("depth"), r.get("min_steps"))
             for r in hypothetical.extra["deployment"]["rule"]}
    assert rules == {("border_covered", None, None, None), ("garrison", "minor_city", 4, 2),
                     ("garrison", "major_city", 8, 2)}  # 14.2


# -- broken copies --------------------------------------------------------------------------------


def broken(tmp_path: Path, name: str, edit: Callable[[str], str]) -> Path:
    folder = tmp_path / "barbarossa1941"
    (folder / "scenarios").mkdir(parents=True)
    for f in ("map.toml", "units.toml", "tables.toml"):
        shutil.copy(DATA_DIR / f, folder / f)
    path = folder / "scenarios" / f"{name}.toml"
    text = (SCEN / f"{name}.toml").read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    return path


def swap(old: str, new: str) -> Callable[[str], str]:
    return lambda text: text.replace(old, new, 1)


def append(extra: str) -> Callable[[str], str]:
    return lambda text: text + extra


@pytest.mark.parametrize(("name", "edit", "key", "reason"), [
    ("historical", swap('"fi-c-6" = "1301"', '"fi-c-6" = "1201"'), "choices.fi-c-6.hexes", "not 1301, 1401"),
    ("historical", swap('"so-a-13" = "0915"', '"so-a-13" = "1115"'), "choices.so-a-13.hexes", "or next to it"),
    ("historical", swap('"ge-ak-43" = "0217"', '"ge-ak-43" = "0317"'), "setup", "the limit is 6 (3)"),
    ("historical", swap('"fi-oinonen" = "1401"', '"fi-oinonen" = "0117"'), "choices.fi-oinonen.areas", "outside"),
    ("historical", swap("vp = 15", "vp = 50"), "event[3].vp", "1 to 43"),
    ("historical", swap('units = ["so-part-1", "so-part-2"]', 'units = ["so-part-1", "so-a-7"]'),
     "event[4].units[1]", "already placed"),
    ("historical", swap('place = "any_city"', 'place = "anywhere"'), "reinforcement", "place is"),
    ("historical", swap('withdraw_type = "air"', 'withdraw_type = "tank"'), "event[3].withdraw_type",
     "not a axis unit type"),
    ("historical", swap("early_turn = 6", "early_turn = 9"), "early_turn", "14.3.4"),
    ("historical", swap('"ge-air-5" = "0219"', '"ge-air-5" = "0220"'), "setup.ge-air-5", "no city"),
    ("typhoon", swap('"ge-air-5" = "0920"', '"ge-air-5" = "1213"'), "setup.ge-air-8", "1 air corps, not 2"),
    ("typhoon", swap('"ro-a-3" = 1', '"ro-a-3" = 3'), "reduced.ro-a-3", "1 to 2"),
    ("typhoon", swap("first_turn = 5", "first_turn = 11"), "scenario.first_turn", "outside"),
    ("typhoon", swap('north = "mud"', 'north = "snow"'), "scenario.first_turn_weather.north", "12.3"),
    ("typhoon", swap('"1028"]', '"2799"]'), "scenario.rail_markers[6]", "off the map"),
    ("typhoon", swap("turn = 6\nunits = [\"so-ab-3\"]", "turn = 6\nunits = [\"so-ab-5\"]"),
     "withdrawal[0].units[0]", "never comes into play"),
    ("typhoon", swap('turn = 6\nhexes = ["2012"]', 'turn = 5\nhexes = ["2012"]'), "reinforcement[0].turn",
     "not after the first turn"),
    ("hypothetical", lambda text: "choices = 3\n" + text, "choices", "expected a table"),
    ("hypothetical", swap('"sk-corps" = "0122"', '"sk-corps" = "0121"'), "setup.sk-corps", "slovakia"),
    ("hypothetical", swap('"so-a-8" = "0210"', '"so-a-8" = "1922"'), "deployment.rule", "14.2"),
])
def test_a_broken_scenario_names_file_key_and_reason(tmp_path: Path, name: str, edit: Callable[[str], str],
                                                     key: str, reason: str) -> None:
    path = broken(tmp_path, name, edit)
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.file == str(path)
    assert key in exc.value.key
    assert reason in exc.value.reason


def test_german_steps_in_finland_are_capped(tmp_path: Path) -> None:
    """14.2: two German steps at most in Finland; one 2-step corps there is legal, two are not."""
    one = broken(tmp_path / "a", "hypothetical", swap('"ge-ak-23" = "0112"', '"ge-ak-23" = "1301"'))
    load_scenario(one)
    two = broken(tmp_path / "b", "hypothetical",
                 lambda t: t.replace('"ge-ak-23" = "0112"', '"ge-ak-23" = "1301"', 1)
                            .replace('"ge-ak-53" = "0117"', '"ge-ak-53" = "1401"', 1))
    with pytest.raises(DataError) as exc:
        load_scenario(two)
    assert (exc.value.key, "14.2 allows 2" in exc.value.reason) == ("deployment.zone[2].max_steps", True)


# -- what the book forbids, refused by validate on a broken copy ------------------------------------

FORBIDDEN = [
    # 14.2, 15: at the start each side stands in its own countries
    ("historical", swap('"so-a-8" = "0411"', '"so-a-8" = "0113"'), "setup.so-a-8", "is Axis ground at the start"),
    ("historical", swap('"ge-ak-17" = "0319"', '"ge-ak-17" = "0320"'), "setup.ge-ak-17", "is Soviet ground"),
    # 15.1: the book never offers a German corps a Soviet hex
    ("historical", swap('"ge-ak-1" = { hexes = ["0312"]', '"ge-ak-1" = { hexes = ["0412"]'),
     "choices.ge-ak-1.hexes[0]", "hex 0412 is Soviet ground at the start"),
    # 13, 17: a city the other side holds at the start ([control])
    ("typhoon", swap('"so-a-34" = "1409"', '"so-a-34" = "1124"'), "setup.so-a-34", "the Axis side holds"),
    ("typhoon", swap('"ge-ak-35" = "1418"', '"ge-ak-35" = "2115"'), "setup.ge-ak-35", "the Soviet side holds"),
    # 10.3: a rail marker stands on the rail net
    ("typhoon", swap('"1323", "1028"]', '"1324", "1028"]'), "scenario.rail_markers[5]", "hex 1324 has no railroad"),
    # 12.9, 12.10: only the fleet stands at sea; nothing arrives there
    ("historical", swap('"so-a-23" = "1204"', '"so-a-23" = "1205"'), "setup.so-a-23", "hex 1205 is a sea"),
    ("typhoon", swap('turn = 6\nhexes = ["2012"]', 'turn = 6\nhexes = ["1205"]'), "reinforcement[0].hexes[0]",
     "hex 1205 is sea: so-a-39 cannot enter there"),
    ("typhoon", swap('turn = 6\nhexes = ["2012"]', 'turn = 6\nhexes = ["1404"]'), "reinforcement[0].hexes[0]",
     "hex 1404 is lake"),
    ("historical", swap('units = ["ge-dietl"]\nhexes = ["0804"]', 'units = ["ge-dietl"]\nhexes = ["1205"]'),
     "event[5].hexes[0]", "hex 1205 is sea"),
    # 9.1: arrivals enter in their own country
    ("typhoon", swap('turn = 6\nhexes = ["2012"]', 'turn = 6\nhexes = ["0113"]'), "reinforcement[0].hexes[0]",
     "is Axis ground at the start"),
]


@pytest.mark.parametrize(("name", "edit", "key", "reason"), FORBIDDEN)
def test_validate_refuses_what_the_book_forbids(tmp_path: Path, name: str, edit: Callable[[str], str],
                                                key: str, reason: str) -> None:
    path = broken(tmp_path, name, edit)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: {key}: ")
    assert reason in lines[0]


def test_and_adj_offers_only_own_ground(historical: Scenario) -> None:
    def ids(uid: str) -> set[str]:
        return {historical.map.grid.id(h) for h in choice_hexes(historical, uid)}
    assert ids("ge-ak-17") == {"0319", "0318", "0219", "0220"}  # 15.1 "0319 and adj", not 0320 0419 0420
    assert ids("ge-ak-1") == {"0312", "0212", "0213", "0313"}  # "0312 and adj": 0311 0412 0413 are Soviet
    assert ids("ro-a-3") == {"0625", "0626", "0525"}  # "0625 and adj": 0524 0624 0724 0725 are Soviet
    assert ids("so-cav-5") == {"0321", "0320", "0322", "0221", "0222", "0421", "0422"}  # Soviet "0321 or adj"
    assert ids("fi-c-6") == {"1301", "1401"}  # "X or Y" stays as printed


def broken_tables(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the folder whose tables.toml has one edit; returns the historical scenario's path."""
    path = broken(tmp_path, "historical", lambda text: text + "\n")
    tables = path.parent.parent / "tables.toml"
    text = tables.read_text(encoding="utf-8")
    assert old in text
    tables.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('"Dnepropetrovsk", "Voronezh"]', '"Dnepropetrovsk", "Minsk"]', "supply.russian_major_cities[8]",
     "Minsk is not a major city"),
    ('axis_cities = ["Königsberg"', 'axis_cities = ["Atlantis"', "supply.axis_cities[0]", "no place named"),
    ('italian = ["0131"]', 'italian = ["1121"]', "entry.italian[0]", "not in an Axis country"),
    ('bases = ["Leningrad"', 'bases = ["Kronstadt"', "baltic_fleet.bases[0]", "no place named 'Kronstadt'"),
])
def test_validate_checks_the_places_tables_toml_names(tmp_path: Path, old: str, new: str, key: str,
                                                     reason: str) -> None:
    path = broken_tables(tmp_path, old, new)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    tables = path.parent.parent / "tables.toml"
    assert result.output.strip() == f"error: {tables}: {key}: " + result.output.strip().split(f"{key}: ", 1)[1]
    assert reason in result.output


# -- the command line -------------------------------------------------------------------------


def test_validate_accepts_the_whole_folder() -> None:
    result = CliRunner().invoke(app, ["validate", str(DATA_DIR)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(": ok")


def test_validate_names_a_broken_scenario(tmp_path: Path) -> None:
    path = broken(tmp_path, "historical", swap('"fi-c-6" = "1301"', '"fi-c-6" = "1201"'))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code != 0
    assert f"{path}: choices.fi-c-6.hexes:" in result.output


def test_the_map_shows_the_historical_stacks() -> None:
    result = CliRunner().invoke(app, ["map", "--game", "barbarossa1941", "--scenario", "historical", "--units"])
    assert result.exit_code == 0, result.output
    assert "A3" in result.output and "S2" in result.output  # Königsberg's three counters; Soviet pairs


def test_new_starts_a_game_now_that_the_rules_exist(tmp_path: Path) -> None:
    save = tmp_path / "b41.toml"
    result = CliRunner().invoke(app, ["new", "barbarossa1941/historical", "--seed", "1", "--save", str(save),
                                      "--no-ui"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"saved {save}" and save.is_file()


def test_every_counter_but_the_fort_pools_comes_into_some_scenario(historical: Scenario, typhoon: Scenario,
                                                                    hypothetical: Scenario) -> None:
    used: set[str] = set()
    for sc in (historical, typhoon, hypothetical):
        used |= set(sc.setup) | {u for r in sc.reinforcements for u in r.units}
        used |= {u for e in sc.extra.get("event", []) for u in e.get("units", [])}
    unused = set(historical.catalog.units) - used
    # 12.4: forts are built in play; the campaign starts with 3 Soviet forts, Typhoon with 5;
    # 9.2: ersatz corps come only through replacements
    assert unused == ({"ge-fort-1", "ge-fort-2", "ge-fort-3"} | {f"so-fort-{n}" for n in range(6, 13)}
                      | {f"ge-ersatz-{n}" for n in range(1, 50)})


def test_validate_names_a_broken_counter_through_its_scenario(tmp_path: Path) -> None:
    path = broken(tmp_path, "historical", swap("turns = 10", "turns = 10 "))  # an unchanged scenario
    units = path.parent.parent / "units.toml"
    units.write_text(units.read_text(encoding="utf-8").replace("quality = [4, 4] }", "quality = [9, 9] }", 1),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code != 0
    assert f"{units}: unit[0].factors.quality: quality is 1 to 6" in result.output


def test_the_russian_major_cities_are_every_soviet_major_but_lvov_and_riga(historical: Scenario) -> None:
    from kiev_tui.games.barbarossa1941.tables import load_tables
    gm = historical.map
    majors = {gm.name(h) for h, kind in gm.settlements().items()
              if kind == "major_city" and h in gm.area("ussr").hexes}
    supply = load_tables(DATA_DIR / "tables.toml").supply
    assert set(supply.russian_major_cities) == majors - {"Lvov", "Riga"}  # 8.2, 12.7
    assert len(supply.russian_major_cities) == 9


def test_no_hex_is_offered_to_both_sides(historical: Scenario) -> None:
    sc = historical
    offered: dict[str, set[str]] = {"axis": set(), "soviet": set()}
    for uid in sc.extra.get("choices", {}):
        offered[sc.catalog.units[uid].side] |= {sc.map.grid.id(h) for h in choice_hexes(sc, uid)}
    assert offered["axis"] & offered["soviet"] == set()  # 15.1 and 15.2 never share a hex
    book_soviet = {h for uid, (hexes, _adj, _c) in HIST_BOOK.items() if uid.startswith("so-") for h in hexes}
    assert offered["axis"] & book_soviet == set()
    assert {"0320", "0419", "0420", "0418", "0316", "0412", "0413"} <= offered["soviet"]  # 15.2's, not 15.1's
