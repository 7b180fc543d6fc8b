"""Barbarossa 1941: the cases the coverage audit found without a test of their own (2.2, 15.1, 17.2)
and the rulings of the issue's list completed at the end of the Barbarossa part of docs/rulings.md."""

from __future__ import annotations

from functools import lru_cache

from kiev_tui.engine.game import Game
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941.system import sequence
from tests.b41_rules_helpers import tables
from tests.b41_system_helpers import new_game


@lru_cache(maxsize=2)
def started(name: str) -> Game:
    return new_game(f"barbarossa1941/{name}", 1)


def _phases(game: Game, turn: int, phasing: str) -> list[str]:
    return [s.phase for s in sequence.turn_steps(game, turn) if s.phasing == phasing]


# -- 2.2 ---------------------------------------------------------------------------------------------


def test_2_2_soviet_operations_phase_in_the_books_order() -> None:
    game = started("historical")
    # turn 1: no isolation phase yet, no forts before turn 2; partisans and rail come after the
    # replacements and before the movement
    assert _phases(game, 1, "soviet") == ["replacements", "partisans", "rail", "movement", "reaction", "combat",
                                          "exploitation"]
    # from turn 2 the isolation phase opens it and the forts come between rail and movement (the
    # Axis builds only from turn 4, 2.1)
    assert _phases(game, 2, "soviet") == ["isolation", "replacements", "partisans", "rail", "forts", "movement",
                                          "reaction", "combat", "exploitation"]
    assert "forts" not in _phases(game, 3, "axis")
    # the Soviet operations end with the exploitation: moving rail markers is the Axis' alone (2.1)
    assert "rail_markers" not in _phases(game, 2, "soviet") and _phases(game, 2, "axis")[-1] == "rail_markers"


# -- 15.1 --------------------------------------------------------------------------------------------

# 15.1's set-up: units on one named hex, units on one of two hexes, and formations "X and adj"
FIXED = {"fi-res": "0804", "ge-bef-101": "0112", "ge-air-1": "0112", "ge-ak-23": "0112",
         "ge-bef-102": "0117", "ge-air-2": "0117", "ge-air-8": "0117", "ge-ak-53": "0117",
         "ge-bef-103": "0219", "ge-air-5": "0219", "ge-jk": "0219", "ro-sich": "0531", "sk-corps": "0121"}
EITHER = {"fi-c-6": {"1301", "1401"}, "fi-c-7": {"1301", "1401"}, "fi-c-2": {"1102", "1103"},
          "fi-c-4": {"1102", "1103"}}
AND_ADJ = {"0312": ["ge-ak-1", "ge-ak-26", "ge-ak-38"], "0314": ["ge-ak-2", "ge-ak-10", "ge-ak-28"],
           "0313": ["ge-pzk-41", "ge-pzk-56"], "0216": ["ge-ak-8", "ge-ak-20", "ge-ak-42"],
           "0317": ["ge-ak-7", "ge-ak-9", "ge-ak-13", "ge-ak-43"],
           "0315": ["ge-pzk-24", "ge-pzk-46", "ge-pzk-47", "ge-ak-12"],
           "0318": ["ge-pzk-39", "ge-pzk-57", "ge-ak-5", "ge-ak-6"],
           "0319": ["ge-ak-17", "ge-ak-29", "ge-ak-44", "ge-ak-55"],
           "0220": ["ge-pzk-3", "ge-pzk-14", "ge-pzk-48"], "0120": ["ge-ak-4", "ge-gebk-49", "ge-ak-52"],
           "0727": ["ge-ak-11", "ge-ak-30", "ge-ak-54"], "0625": ["ro-a-3", "ro-kav", "ro-geb"]}


def test_15_1_axis_set_up_of_the_historical_campaign() -> None:
    game = started("historical")
    gmap = game.scenario.map
    units = game.state.units
    for uid, hx in FIXED.items():
        assert (uid, units[uid].status, units[uid].hex) == (uid, "map", hx)
    for uid, hexes in EITHER.items():
        assert units[uid].hex in hexes, uid
    for centre, uids in AND_ADJ.items():
        near = {centre} | {gmap.grid.id(n) for n in gmap.neighbours(gmap.grid.parse(centre))}
        for uid in uids:
            assert units[uid].status == "map" and units[uid].hex in near, (uid, units[uid].hex, centre)
    # Oinonen's free placement: somewhere in Finland
    assert gmap.grid.parse(units["fi-oinonen"].hex) in gmap.areas["finland"].hexes
    # 15.1 sets up every Axis unit at full strength and 53 ground units plus the 4 air corps
    axis = [u for u in units.values() if u.status == "map" and not u.id.startswith("so-")]
    assert len(axis) == 57 and all(u.step == 0 for u in axis)
    # the choices the set-up prompts offer are the book's: "X or Y" exactly, "X and adj" X first
    choices = load_scenario("barbarossa1941/historical").extra["choices"]
    assert set(choices["fi-c-6"]["hexes"]) == {"1301", "1401"}
    assert choices["ge-ak-12"]["hexes"][0] == "0315" and choices["ge-ak-12"].get("adjacent") is True


# -- 17.2 --------------------------------------------------------------------------------------------

# 17.2's list: unit, hex, steps lost ("reduced")
TYPHOON_SOVIET = [("so-a-7", "1702", 0), ("so-vmf", "1205", 0), ("so-a-23", "1304", 1), ("so-fort-1", "1304", 0),
                  ("so-a-8", "1405", 1), ("so-fort-2", "1405", 0), ("so-a-42", "1305", 1),
                  ("so-og-luga", "1305", 0), ("so-og-neva", "1406", 0), ("so-a-54", "1506", 0),
                  ("so-a-55", "1505", 0), ("so-a-52", "1507", 0), ("so-a-11", "1408", 1), ("so-a-34", "1409", 0),
                  ("so-a-27", "1410", 1), ("so-a-22", "1510", 0), ("so-a-29", "1511", 1), ("so-a-30", "1512", 0),
                  ("so-a-31", "1711", 1), ("so-a-19", "1513", 1), ("so-a-16", "1513", 1), ("so-a-20", "1614", 0),
                  ("so-a-49", "1713", 0), ("so-fort-3", "1713", 0), ("so-fort-4", "1914", 0),
                  ("so-fort-5", "1910", 0), ("so-a-24", "1615", 0), ("so-a-43", "1616", 0), ("so-a-50", "1617", 0),
                  ("so-a-3", "1619", 1), ("so-mg-ermakov", "1620", 1), ("so-cav-15", "1919", 1)]


def test_17_2_typhoon_soviet_placement() -> None:
    game = started("typhoon")
    units = game.state.units
    got = [(uid, units[uid].hex, units[uid].step) for uid, _, _ in TYPHOON_SOVIET]
    assert got == TYPHOON_SOVIET
    assert all(units[uid].status == "map" for uid, _, _ in TYPHOON_SOVIET)
    # 17.2: Soviet artillery from turn 7 (3 points); the 3rd Airborne Corps leaves on turn 6
    sc = load_scenario("barbarossa1941/typhoon")
    assert sc.params["artillery_points"]["soviet"] == 3
    assert tables().artillery.soviet_from_turn == 7
    assert [w["units"] for w in sc.extra["withdrawal"] if w["turn"] == 6] == [["so-ab-3"]]


# -- 12.9: one reading of the mined gulf ------------------------------------------------------------


def test_12_9_the_chain_reads_the_mined_gulf_as_supply_does() -> None:
    from kiev_tui.games.barbarossa1941 import chain
    from kiev_tui.games.barbarossa1941.phases_supply import fleet_mined
    from tests.b41_system_helpers import position

    # Axis units in Tallinn, Riga and Helsinki; Königsberg empty
    held = {"ge-ak-1": "0705", "ge-ak-26": "0610", "fi-res": "0804"}
    game = position(held)
    assert chain.gulf_mined(game) is True
    # no record of who last held Königsberg: it is the Axis' own country, still held (8.2, 10.2)
    game.state.control.pop("0112", None)
    game.memo.clear()
    assert chain.gulf_mined(game) is True and fleet_mined(game) is True
    # a Soviet unit standing in Königsberg holds it whatever the last record says: not mined
    game = position({**held, "so-a-7": "0112"}, control={"0112": "axis"})
    assert chain.gulf_mined(game) is False and fleet_mined(game) is False
    # and one of the four cities lost is enough to keep the gulf open
    game = position({"ge-ak-1": "0705", "fi-res": "0804", "so-a-8": "0610"})
    assert chain.gulf_mined(game) is False


# -- 14.3: the optional rules as a game option ------------------------------------------------------


def test_14_3_optional_rules_are_chosen_as_a_game_option(tmp_path) -> None:
    import pytest
    from typer.testing import CliRunner

    from kiev_tui.cli import app
    from kiev_tui.engine.errors import DataError
    from kiev_tui.engine.saves import load_game, save_game
    from kiev_tui.games.barbarossa1941.phases_supply import options_in_play, parse_options

    assert parse_options("14.3.5, 14.3.2") == ("14.3.2", "14.3.5")
    assert parse_options(["14.3.1"]) == ("14.3.1",) and parse_options(None) == ()
    game = Game.new("barbarossa1941/historical", seed=3, options={"optional_rules": "14.3.5,14.3.2"})
    assert options_in_play(game) == {"14.3.2", "14.3.5"}
    assert options_in_play(Game.new("barbarossa1941/historical", seed=3)) == frozenset()
    # the choice is kept in the save and comes back with it
    path = save_game(game, tmp_path / "opt.toml")
    assert options_in_play(load_game(path)) == {"14.3.2", "14.3.5"}
    # a rule that does not exist, or whose turns the scenario does not play, is refused (14.3, 17)
    with pytest.raises(DataError, match="14.3.9 is not an optional rule"):
        Game.new("barbarossa1941/historical", options={"optional_rules": "14.3.9"})
    with pytest.raises(DataError, match="14.3.1 acts only on turns"):
        Game.new("barbarossa1941/typhoon", options={"optional_rules": "14.3.1"})
    # `kiev-tui new ... --option optional_rules=...` passes it on
    out = CliRunner().invoke(app, ["new", "barbarossa1941/historical", "--option", "optional_rules=14.3.4",
                                   "--no-ui", "--save", str(tmp_path / "cli.toml")])
    assert out.exit_code == 0, out.output
    assert options_in_play(load_game(tmp_path / "cli.toml")) == {"14.3.4"}


# -- 6: the CRT's die-2 row prints nine values for ten columns ---------------------------------------

# the cells that lean on the reading that die 2's missing value is its 7:1 cell: that cell, and
# the cells of dice 3-6 made by moving the row above one column left from it
LEANS_ON_DIE_2_7_1 = [(2, "7:1"), (3, "6:1"), (4, "5:1"), (5, "4:1"), (6, "3:1")]


def test_6_crt_die_2_lacks_its_7_1_cell_and_the_cells_that_lean_on_it() -> None:
    crt = tables().crt
    printed = ["A2", "A1", "A1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D2"]  # the book's nine values
    # the nine printed values stand in 1:3 ... 6:1: the gap is at the right-hand end
    assert [str(crt.cell(c, 2)) for c in crt.columns[:9]] == printed
    assert [c for c in crt.columns if crt.is_reconstructed(c, 2)] == ["7:1"]
    # die 2 is die 1 moved one column left in 8 of the 9 printed cells (all but 3:2), which is why
    # the gap is read at 7:1 and filled with die 1's 7:1 value
    die1 = [str(crt.cell(c, 1)) for c in crt.columns]
    assert [i for i in range(9) if printed[i] != die1[i + 1]] == [3]
    assert str(crt.cell("7:1", 2)) == die1[-1] == "A1D2"
    # every cell that leans on that reading is flagged reconstructed and carries the same result
    for die, col in LEANS_ON_DIE_2_7_1:
        assert crt.is_reconstructed(col, die), (die, col)
        assert str(crt.cell(col, die)) == "A1D2", (die, col)
    # ... because each reconstructed row is the row above moved one column left
    for die in range(3, 7):
        for i in range(9):
            assert str(crt.cell(crt.columns[i], die)) == str(crt.cell(crt.columns[i + 1], die - 1)), (die, i)


# -- 11.2: a flown air corps stays on its base ------------------------------------------------------


def test_11_2_a_flown_corps_stays_on_its_base_with_the_flown_marker() -> None:
    from kiev_tui.games.barbarossa1941 import air
    from kiev_tui.games.barbarossa1941.actions import Attack
    from kiev_tui.games.barbarossa1941.system import HOOKS, air_hexes, flown
    from kiev_tui.selfcheck import invariants
    from tests.b41_system_helpers import answer, position

    game = position({"ge-ak-1": "1620", "ge-ak-2": "1621", "so-a-8": "1720", "ge-air-1": "1318"}, dice=(4,),
                    control={"1318": "axis"})
    # the schema declares no air box: a corps with a hex is on the map, flown or not
    assert game.rules.schema.counters.statuses == ()
    game.apply(Attack(("ge-ak-1", "ge-ak-2"), "1720"), side="axis")
    answer(game, "air_support", "ge-air-1")
    u = game.state.units["ge-air-1"]
    assert (u.status, u.hex, air.FLOWN in u.markers) == ("map", "1318", True)
    assert flown(game) == {"ge-air-1"}
    assert "ge-air-1" in air_hexes(game)  # still based at Gomel: it can be caught there (11.1)
    assert invariants(game) == []
    HOOKS.new_turn(game)
    assert (u.status, u.hex, u.markers) == ("map", "1318", set())


# -- 17.1, 10.2: Typhoon's units ahead of the rail markers -------------------------------------------


def test_17_1_typhoon_units_ahead_of_the_markers_and_the_advance_that_feeds_them() -> None:
    from collections import deque

    from kiev_tui.games.barbarossa1941 import phases_supply as ps
    from kiev_tui.games.barbarossa1941 import rail as rl
    from kiev_tui.games.barbarossa1941 import supply as sup
    from kiev_tui.games.barbarossa1941.system import board_of

    game = started("typhoon")
    b, grid = board_of(game), game.scenario.map.grid
    rs = ps.rail_state(game)
    ans = sup.supply(b, rs)
    # with the book's seven markers and turn 5's weather these Axis units cannot trace yet: they
    # stand beyond the rail heads ("supplies stretched", 17), not on a wrong rail net.  The Finns on
    # 1602 are not among them: they stand on the Karelian line the Finns held (test_b1941_supply.py)
    assert set(ans.out_of_supply("axis")) == {"ge-ak-1", "ge-ak-26", "ge-pzk-41", "ge-pzk-56",
                                              "ge-ak-53", "ge-ak-11", "ge-ak-30", "ge-gebk-49", "ro-a-3"}
    assert ans.out_of_supply("soviet") == ()
    # the Pskov marker (1108) advancing three rail hexes towards Luga feeds the corps at 1206 and
    # 1306 (10.3): the rail behind a marker is Axis as it moves
    net = rl.links(b.gmap)
    start, goal = grid.parse("1108"), grid.parse("1207")
    prev = {start: start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in net.get(h, ()):
            if n not in prev:
                prev[n] = h
                todo.append(n)
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path = path[::-1][1:]
    assert len(path) == 3
    moved = rl.check_marker_move(b, rs, rs.markers.index(start), path)
    assert isinstance(moved, rl.RailState)
    after = sup.supply(b, moved)
    assert {"ge-ak-1", "ge-ak-26", "ge-pzk-41"} <= set(ans.out_of_supply("axis")) - set(after.out_of_supply("axis"))


# -- 4's note: a unit fighting next to a major city can always fall back into it ----------------------


def test_4_the_books_note_retreat_into_a_major_city_in_enemy_zones() -> None:
    from kiev_tui.games.barbarossa1941 import retreat as r
    from tests.b41_rules_helpers import CLEAR, board, small_map
    from tests.test_b41_rules_combat import Supply

    src = Supply(sources={"soviet": {"0704"}, "axis": {"0101"}})
    place = {"so-a-7": "0404", "ge-ak-23": "0303", "ge-ak-1": "0304", "ge-ak-26": "0604"}
    # 0503 and 0504 lead toward the source; ge-ak-26 on 0604 holds both in its zone
    plain = board(small_map(), place, turn=CLEAR)
    got = r.retreat_hexes(plain, ["so-a-7"], src)
    assert {plain.gmap.grid.id(h): n for h, n in got.items()} == {"0503": 1, "0504": 1}
    # make 0503 a major city: no zone reaches into it (4), so the retreat there costs nothing
    city = board(small_map(settlement={"0503": "major_city"}), place, turn=CLEAR)
    got = r.retreat_hexes(city, ["so-a-7"], src)
    assert {city.gmap.grid.id(h): n for h, n in got.items()} == {"0503": 0, "0504": 1}
