"""SPI Kiev order of battle, tables and campaign scenario: the numbers the rulebook fixes.

Read with tomllib only, so these checks hold whatever the engine's loaders do.  Case numbers
refer to the Kiev rulebook (18.x set-up, 23.x reinforcements, 24.x victory, 25.12, addenda).
"""

from __future__ import annotations

import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "spi_kiev"
MAP = DATA / "map.toml"


def _load(name: str) -> dict:
    with open(DATA / name, "rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def units() -> dict:
    return _load("units.toml")


@pytest.fixture(scope="module")
def scenario() -> dict:
    return _load("scenarios/campaign.toml")


@pytest.fixture(scope="module")
def tables() -> dict:
    return _load("tables.toml")


@pytest.fixture(scope="module")
def by_id(units: dict) -> dict[str, dict]:
    return {u["id"]: u for u in units["unit"]}


@pytest.fixture(scope="module")
def game_map() -> dict:
    # The map is the project's own data: a missing file is a failure, never a skip.
    with open(MAP, "rb") as fh:
        return tomllib.load(fh)


def _side(uid: str, by_id: dict[str, dict]) -> str:
    return by_id[uid]["side"]


# --------------------------------------------------------------------------- counts (18.1, 18.2)

def test_sixty_soviet_and_forty_one_german_units_set_up(scenario, by_id):
    sides = Counter(_side(uid, by_id) for uid in scenario["setup"])
    assert sides["soviet"] == 60  # 18.1
    assert sides["german"] == 41  # 18.2


def test_unit_ids_are_unique_and_every_scenario_id_exists(units, scenario, by_id):
    ids = [u["id"] for u in units["unit"]]
    assert len(ids) == len(set(ids))
    faces = [f["id"] for f in units["untried"]]
    assert len(faces) == len(set(faces))
    assert not set(ids) & set(faces)
    for uid in scenario["setup"]:
        assert uid in by_id, uid
    for r in scenario["reinforcement"]:
        for uid in r.get("units", []):
            assert uid in by_id, uid
            assert by_id[uid]["side"] == r["side"], uid


def test_no_unit_is_placed_twice(scenario):
    placed = list(scenario["setup"])
    for r in scenario["reinforcement"]:
        placed += r.get("units", [])
    dup = [uid for uid, n in Counter(placed).items() if n > 1]
    assert dup == []


def test_every_counter_is_used_somewhere(units, scenario):
    """Each counter starts on the map, arrives later, or is an rpl step (19.24)."""
    placed = set(scenario["setup"])
    for r in scenario["reinforcement"]:
        placed |= set(r.get("units", []))
    spare = [u["id"] for u in units["unit"] if u["id"] not in placed and not u.get("replacement")]
    assert spare == []


# --------------------------------------------------------------------------- Soviet reinforcements

EXPECTED_23_1 = {  # turn: {draw: n}, with the addenda's turn-1 correction
    1: {"rifle": 5, "armor": 3},
    2: {"rifle": 6},
    3: {"rifle": 3, "cavalry": 1, "armor": 1},
    4: {"rifle": 6, "cavalry": 2, "armor": 1},
    5: {"rifle": 5, "armor": 4},
    6: {"rifle": 5, "cavalry": 1, "armor": 1},
    7: {"rifle": 7},
    8: {"rifle": 1},
    9: {"cavalry": 1},
    10: {"armor": 1},
}

HISTORICAL_25_12 = {  # turn: (infantry, cavalry, armor) designations
    1: (["132", "135", "193", "195", "292"], [], ["131", "19", "41"]),
    2: (["75", "187", "200", "282", "307", "28"], [], []),
    3: (["165", "224", "228"], ["34"], ["110"]),
    4: (["24", "110", "137", "171", "295", "23"], ["2", "14"], ["215"]),
    5: (["121", "148", "175", "284", "304"], [], ["81", "240", "20", "35"]),
    6: (["146", "147", "199", "206", "227"], ["137"], ["212"]),
    7: (["13", "15", "97", "116", "190", "264", "289"], [], []),
    8: (["13"], [], []),
    9: ([], ["128"], []),
    10: ([], [], ["3"]),
}


def _soviet_draws(scenario) -> dict[int, Counter]:
    out: dict[int, Counter] = defaultdict(Counter)
    for r in scenario["reinforcement"]:
        if r["side"] == "soviet":
            out[r["turn"]].update(r.get("draw", {}))
    return out


def test_soviet_draws_per_turn_follow_23_1_with_addenda(scenario):
    draws = _soviet_draws(scenario)
    assert {t: dict(c) for t, c in draws.items() if sum(c.values())} == EXPECTED_23_1


def test_25_12_counts_agree_with_23_1():
    for turn, (inf, cav, arm) in HISTORICAL_25_12.items():
        got = {"rifle": len(inf), "cavalry": len(cav), "armor": len(arm)}
        assert {k: v for k, v in got.items() if v} == EXPECTED_23_1[turn], turn


def test_soviet_entry_areas(scenario):
    for r in scenario["reinforcement"]:
        if r["side"] != "soviet":
            continue
        if r["turn"] == 1 and "armor" in r.get("draw", {}):
            assert r["areas"] == ["L", "M", "N"]  # addenda
        elif r["turn"] <= 4:
            assert r["areas"] == ["K", "L", "M", "N"]
        elif r["turn"] <= 7:
            assert r["areas"] == ["L", "M"]
        else:
            assert r["areas"] == ["M"]


def test_three_soviet_hqs_arrive_tried(scenario, by_id):
    hq_turn = {uid: r["turn"] for r in scenario["reinforcement"] if r["side"] == "soviet"
               for uid in r.get("units", [])}
    assert {by_id[u]["designation"]: t for u, t in hq_turn.items()} == {"38": 2, "17": 3, "37": 4}
    assert all(by_id[u]["hq"] for u in hq_turn)


def test_untried_pool_holds_the_25_12_identities(units):
    pool: dict[str, Counter] = defaultdict(Counter)
    for f in units["untried"]:
        pool[f["draw"]][f["designation"]] += 1
    want: dict[str, Counter] = defaultdict(Counter)
    for inf, cav, arm in HISTORICAL_25_12.values():
        want["rifle"].update(inf)
        want["cavalry"].update(cav)
        want["armor"].update(arm)
    for draw in ("rifle", "cavalry", "armor"):
        assert not (want[draw] - pool[draw]), draw


def test_pool_has_enough_faces_for_every_draw(units, scenario):
    need = Counter()
    for c in _soviet_draws(scenario).values():
        need.update(c)
    have = Counter(f["draw"] for f in units["untried"])
    for draw, n in need.items():
        assert have[draw] >= n, draw
    assert set(have) <= set(units["untried_types"])


def test_pool_spans_weak_to_strong_with_asterisks_and_no_strength_faces(units):
    faces = units["untried"]
    assert all(f["reconstructed"] for f in faces)
    rifle = [f for f in faces if f["draw"] == "rifle"]
    assert any(f["attack"] == 0 and f["defense"] == 0 for f in rifle)  # 13.3, 19.63
    assert any(f.get("asterisk") for f in rifle)  # 19.61
    assert max(f["attack"] + f["defense"] for f in rifle) >= 8
    assert all(f["ma"] == 6 for f in rifle)
    for f in faces:
        if f["draw"] == "rifle":
            assert f["type"] in ("rifle", "mountain_rifle", "nkvd")
        elif f["draw"] == "armor":
            assert f["type"] in ("tank", "motorized", "mechanized")
        else:
            assert f["type"] == "cavalry"


# --------------------------------------------------------------------------- counters

ADDENDA = {  # id: (hex, steps)
    "so-rd-277": ("1307", [[1, 1]]),
    "so-rd-151": ("0219", [[1, 2]]),
    "so-rd-87": ("0219", [[3, 2]]),
    "so-rd-99": ("0925", [[0, 1]]),
    "so-rd-141": ("0925", [[0, 1]]),
}


def test_addenda_divisions_in_their_hexes(scenario, by_id):
    for uid, (hx, steps) in ADDENDA.items():
        assert scenario["setup"][uid] == hx, uid
        u = by_id[uid]
        assert (u["type"], u["steps"], u["ma"]) == ("rifle", steps, 6), uid
        assert u["reconstructed"] is False


def test_soviet_rifle_divisions_move_six(by_id):
    for u in by_id.values():
        if u["side"] == "soviet" and u["type"] in ("rifle", "mountain_rifle", "nkvd", "airborne"):
            assert u["ma"] == 6, u["id"]


def test_soviet_steps_one_except_corps_and_airborne(by_id):
    """9.62: most Soviet units have one step; corps and airborne are two-sided (3.22)."""
    for u in by_id.values():
        if u["side"] != "soviet":
            continue
        if u["size"] == "XXX":
            assert len(u["steps"]) == 2, u["id"]
        else:
            assert len(u["steps"]) == 1, u["id"]


def test_book_hq_values(by_id):
    assert (by_id["so-hq-37"]["leadership"], by_id["so-hq-37"]["ma"]) == (3, 10)  # 3.21
    assert (by_id["so-hq-38"]["leadership"], by_id["so-hq-38"]["ma"]) == (4, 10)  # 11.0
    assert by_id["so-hq-agsw"]["hq"] and by_id["so-hq-agsw"]["designation"] == "AGSW"
    for u in by_id.values():
        if u.get("hq") or u.get("leader"):
            assert u["steps"] == [[0, u["leadership"] // 2]], u["id"]  # 11.38, 19.66, 21.0


def test_german_values(by_id, scenario):
    for u in by_id.values():
        if u["side"] != "german":
            continue
        if u["type"] == "infantry" and not u.get("replacement"):
            assert (u["steps"], u["ma"], u["rpl_step"]) == ([[5, 7], [3, 4], [1, 2]], 7, 3), u["id"]
        if u["type"] == "panzer":
            assert (u["steps"], u["ma"]) == ([[6, 2], [3, 1]], 10), u["id"]
        if u["type"] == "motorized" and u["division"].endswith(" Pz"):
            assert (u["steps"], u["ma"]) == ([[1, 3], [0, 1]], 10), u["id"]
        if u["type"] in ("panzer", "motorized"):
            assert u["mechanized"]
    gd = by_id["ge-gd"]
    assert (gd["steps"][0], gd["ma"]) == ([2, 2], 10)  # 20.2
    gd_entry = [(r["turn"], r["areas"]) for r in scenario["reinforcement"] if "ge-gd" in r.get("units", [])]
    assert gd_entry == [(2, ["B"])]
    leaders = {u["designation"] for u in by_id.values() if u.get("leader")}
    assert leaders == {"Guderian", "Kleist"}
    assert all(u["type"] == "leader" for u in by_id.values() if u.get("leader"))
    assert "ge-ldr-guderian" in scenario["setup"]


def test_panzer_divisions_have_three_regiments_and_motorized_two(by_id):
    divs: dict[str, list[dict]] = defaultdict(list)
    for u in by_id.values():
        if u["side"] == "german" and u["type"] in ("panzer", "motorized"):
            divs[u["division"]].append(u)
    for name, regs in divs.items():
        if name.endswith(" Pz"):
            assert sorted(r["type"] for r in regs) == ["motorized", "motorized", "panzer"], name
        elif name.endswith(" Mot"):
            assert len(regs) == 2, name
    assert len(divs["DR"]) == 3 and len(divs["GD"]) == 1


def test_rpl_counters(by_id, scenario):
    rpl = [u for u in by_id.values() if u.get("replacement")]
    assert len(rpl) == scenario["scenario"]["rpl_counters"] > 0
    assert all((u["steps"], u["ma"]) == ([[1, 2]], 7) for u in rpl)  # 19.24
    assert not {u["id"] for u in rpl} & set(scenario["setup"])


def test_kleist_and_his_group_come_from_the_south(scenario, by_id):
    kleist = [r for r in scenario["reinforcement"] if "ge-ldr-kleist" in r.get("units", [])]
    assert len(kleist) == 1 and kleist[0]["areas"] == ["E"]
    for r in scenario["reinforcement"]:
        for uid in r.get("units", []):
            u = by_id[uid]
            if u["side"] == "german" and u["division"] in ("9 Pz", "16 Pz"):
                assert r["areas"] == ["E"] and 6 <= r["turn"] <= 9


def test_only_book_values_are_unmarked(by_id):
    # The 37 and 38 Army HQs copy the series' sample counters (standard rules), not a Kiev
    # counter, so they are ours like every other HQ and leader.
    unmarked = {uid for uid, u in by_id.items() if not u["reconstructed"]}
    book = set(ADDENDA) | {uid for uid, u in by_id.items() if u.get("replacement")}
    assert unmarked == book


def test_every_hq_and_leader_says_its_ma_is_ours(by_id):
    commanders = sorted(uid for uid, u in by_id.items() if u.get("hq") or u.get("leader"))
    assert len(commanders) == 10
    for uid in commanders:
        u = by_id[uid]
        assert (u["ma"], u["reconstructed"]) == (10, True), uid
        assert "MA 10 reconstructed" in u["note"], uid
    for uid in ("so-hq-37", "so-hq-38"):
        assert "sample counter" in by_id[uid]["note"], uid


# --------------------------------------------------------------------------- set-up hexes

def test_stacking_is_legal_at_every_start_hex(scenario, by_id):
    stacks: dict[str, list[dict]] = defaultdict(list)
    for uid, hx in scenario["setup"].items():
        stacks[hx].append(by_id[uid])
    for hx, stack in stacks.items():
        assert len({u["side"] for u in stack}) == 1, hx
        command = [u for u in stack if u.get("hq") or u.get("leader")]
        combat = [u for u in stack if not (u.get("hq") or u.get("leader"))]
        assert len(combat) <= 3, hx  # 7.0
        assert len(command) <= 1, hx  # 11.22


def test_start_hexes_are_on_the_map_and_not_lake(scenario, game_map):
    cols, rows = game_map["map"]["columns"], game_map["map"]["rows"]
    hexes = game_map.get("hexes", {})
    default = game_map["map"].get("default_terrain", "clear")
    for uid, hx in scenario["setup"].items():
        c, r = int(hx[:2]), int(hx[2:])
        assert 1 <= c <= cols and 1 <= r <= rows, (uid, hx)
        assert hexes.get(hx, {}).get("terrain", default) != "lake", (uid, hx)


def test_german_start_cities_exist_on_the_map(scenario, game_map):
    hexes = game_map.get("hexes", {})
    for hx in scenario["control"]["german"]:
        assert hexes.get(hx, {}).get("settlement") in ("city", "town"), hx


def test_engine_loads_the_campaign(game_map):
    from kiev_tui.engine.scenario import load_scenario

    s = load_scenario(DATA / "scenarios" / "campaign.toml")
    assert s.turns == 13 and s.first_player == "soviet"


# --------------------------------------------------------------------------- tables

BOOK_ROW_1 = ["1/-", "1/1", "-/1", "-/1", "-/2", "-/2", "-/2", "1/3", "-/3", "-/E", "-/E", "-/E"]
BOOK_ROW_2 = ["1/-", "eng", "1/1", "-/1", "-/1"]


def test_crt_shape_and_book_entries(tables):
    crt = tables["crt"]
    assert crt["columns"] == ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
    rows = crt["row"]
    assert [r["die"] for r in rows] == [1, 2, 3, 4, 5, 6]
    for r in rows:
        assert len(r["results"]) == 12 and len(r["reconstructed"]) == 12
    assert rows[0]["results"] == BOOK_ROW_1
    assert rows[1]["results"][:5] == BOOK_ROW_2
    for i, r in enumerate(rows):
        for j, marked in enumerate(r["reconstructed"]):
            from_book = i == 0 or (i == 1 and j < 5)
            assert marked is (not from_book), (r["die"], crt["columns"][j])


def test_crt_reconstruction_is_the_diagonal_shift(tables):
    rows = [r["results"] for r in tables["crt"]["row"]]
    for i in range(1, 6):
        for j in range(1, 12):
            if tables["crt"]["row"][i]["reconstructed"][j] and j >= 2:
                assert rows[i][j] == rows[i - 1][j - 1], (i + 1, j)


def test_tec_mud_and_directive(tables, scenario):
    swamp = tables["tec"]["terrain"]["swamp"]
    assert (swamp["mp"], swamp["defense"], swamp["reconstructed"]) == (2, 1, True)
    assert tables["tec"]["hexside"]["major_river"]["defense"] == 3
    assert tables["mud"] == {"ma_divisor": 2, "cavalry_ma": 6, "german_mechanized_phase": False}
    assert scenario["scenario"]["mud_turns"] == [8, 9]
    sd = tables["stalins_directive"]
    assert (sd["automatic_turns"], sd["roll_from_turn"], sd["in_force_max"]) == ([7, 8, 9], 10, 4)


# --------------------------------------------------------------------------- scenario and victory

def test_scenario_frame(scenario):
    s = scenario["scenario"]
    assert (s["turns"], s["first_player"]) == (13, "soviet")
    assert (s["rail_units_per_turn"], s["rail_hexes"]) == (8, 25)
    assert scenario["control"]["german"] == ["0602", "1329"]


def test_victory_formations(scenario, by_id):
    v = scenario["victory"]
    assert v["margin"] == 133
    assert v["special_hexes"] == {"0319": 25} and (v["city"], v["town"]) == (10, 5)
    assert v["soviet_front_hq"] == "so-hq-agsw" and v["soviet_front_hq_points"] == 10
    assert v["regiment_points"] == {"panzer": 8, "other": 5}
    forms = {f["name"]: f for f in v["formation"]}
    for f in forms.values():
        for uid in f["units"]:
            assert uid in by_id, uid
    divisions = {u["division"] for u in by_id.values() if u["side"] == "german" and u["type"] in ("panzer", "motorized")}
    for d in divisions:
        if d.endswith(" Pz"):
            assert forms[d]["points"] == 25
            assert sorted(forms[d]["units"]) == sorted(uid for uid, u in by_id.items() if u["division"] == d)
        elif d.endswith(" Mot"):
            assert forms[d]["points"] == 10
    assert forms["DR Mot"]["points"] == 15 and len(forms["DR Mot"]["units"]) == 3
    assert forms["2 Pz HQ"] == {"name": "2 Pz HQ", "units": ["ge-ldr-guderian"], "points": 20}
    assert forms["1 Pz HQ"] == {"name": "1 Pz HQ", "units": ["ge-ldr-kleist"], "points": 10}
    assert "SSR Mot" not in forms and "1P2 HQ" not in forms  # addenda


# --------------------------------------------------------------------------- sides of the rivers

def _banks(game_map: dict) -> dict[str, int]:
    """Label each hex with the land area it shares with others, major rivers being the borders."""
    from kiev_tui.engine.hexes import Hex, Hexside

    cols, rows = game_map["map"]["columns"], game_map["map"]["rows"]
    major = {Hexside.parse(s) for r in game_map.get("river", []) if r["kind"] == "major" for s in r["hexsides"]}
    lake = {hx for hx, h in game_map.get("hexes", {}).items() if h.get("terrain") == "lake"}
    label: dict[str, int] = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            start = Hex(c, r)
            if str(start) in label:
                continue
            n = len(set(label.values())) + 1
            label[str(start)] = n
            todo = [start]
            while todo:
                h = todo.pop()
                for nb in h.neighbours():
                    if not (1 <= nb.col <= cols and 1 <= nb.row <= rows) or str(nb) in label:
                        continue
                    if str(nb) in lake or Hexside(h, nb) in major:
                        continue
                    label[str(nb)] = n
                    todo.append(nb)
    return label


def test_germans_stay_out_of_the_salient_and_soviets_out_of_the_west_bank(scenario, by_id, game_map):
    from kiev_tui.engine.hexes import Hex

    bank = _banks(game_map)
    salient = bank["0618"]      # Brovary, east of Kiev: the body of the pocket
    west = bank["0319"]         # Kiev stands on the west bank
    for uid, hx in scenario["setup"].items():
        if by_id[uid]["side"] == "german":
            assert bank[hx] != salient, (uid, hx)
        elif bank[hx] == west:
            # only the Kiev bridgehead (and the addenda's hexes) hold Soviet units west of the river
            assert Hex.parse(hx).distance(Hex.parse("0319")) <= 2 or uid in ADDENDA, (uid, hx)


def test_no_start_hex_in_swamp_except_book_hexes(scenario, game_map):
    hexes = game_map.get("hexes", {})
    for uid, hx in scenario["setup"].items():
        if uid in ADDENDA:
            continue
        assert hexes.get(hx, {}).get("terrain") != "swamp", (uid, hx)


def test_german_entry_roads_start_free_of_soviet_units(scenario, by_id, game_map):
    roads = {h for s in game_map.get("hexsides", {}).get("road", []) for h in s.split("/")}
    soviet_hexes = {hx for uid, hx in scenario["setup"].items() if by_id[uid]["side"] == "soviet"}
    used = {a for r in scenario["reinforcement"] if r["side"] == "german" for a in r["areas"]}
    for a in used:
        entry = set(game_map["areas"][a]["hexes"]) & (roads | set(game_map.get("edges", {}).get("road_exits", [])))
        assert entry, f"area {a} has no road hex to enter by (23.0)"
        assert entry - soviet_hexes, f"every road hex of area {a} is held by a Soviet unit"


def test_every_unit_starts_in_supply(game_map):
    """A set-up that leaves units unsupplied on turn 1 would misplace them (12.0, 19.82, 19.85)."""
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.common import View
    from kiev_tui.games.spi_kiev.supply import Supply

    supply = Supply(View(Game.new(str(DATA / "scenarios" / "campaign.toml"), 1)))
    for side in ("german", "soviet"):
        out = {uid: st.why for uid, st in supply.all_status(side).items() if not st.in_supply}
        assert out == {}, side
