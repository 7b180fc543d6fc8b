"""SPI Kiev: movement, command, directive and data rules found wrong in the case-by-case audit.

Positions are built by hand on the 10x10 fixture map (see tests/test_spi_kiev_movement.py for
its layout: a major river between hexrows 05 and 06, a road along row 05 with the bridge
0505/0605) or, where the rule names real hexes, on the campaign map.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import View

from tests.conftest import ROOT, position

CAMPAIGN = ROOT / "data" / "spi_kiev" / "scenarios" / "campaign.toml"


def case(game: Game, action: object) -> str | None:
    illegal = game.check(action)  # type: ignore[arg-type]
    return None if illegal is None else illegal.case


@pytest.fixture(scope="module")
def campaign_map_game() -> Game:
    """The campaign at its set-up, shared read-only by the tests that only look."""
    return Game.new(CAMPAIGN, seed=1)


# -- 10.13: only units on the river's bank bar a crossing ---------------------------------

def test_10_13_a_zone_from_a_unit_off_the_river_does_not_bar_the_crossing(mini: Game) -> None:
    # 0704 touches 0604 but has no major-river hexside: its zone does not stop the crossing.
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0704"}, player="german")
    assert View(mini).in_enemy_zoc(H("0604"), "german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) is None
    reach = mini.reachable(["ge-inf-1"])[H("0604")]
    assert (reach.cost, reach.case) == (4.0, "")


def test_10_13_a_unit_on_the_bank_bars_the_crossing_into_its_zone(mini: Game) -> None:
    # 0605 lies on the river (hexsides 0505/0605, 0506/0605) and its zone covers 0604.
    position(mini, {"ge-inf-1": "0504", "so-rifle-1": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) == "10.13"
    # The engine's map offers 0604 only by the way round: across into 0603, then north.
    reach = mini.reachable(["ge-inf-1"])[H("0604")]
    assert (reach.cost, tuple(map(str, reach.path))) == (5.0, ("0603", "0604"))


def test_10_13_an_hq_on_the_bank_bars_the_crossing_too(mini: Game) -> None:
    # HQ zones stop enemy movement (19.67), so an HQ on the bank guards it like any unit.
    position(mini, {"ge-inf-1": "0504", "so-hq-army": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) == "10.13"


def test_10_13_a_friendly_unit_in_the_hex_lifts_the_bar(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0504", "ge-inf-2": "0604", "so-rifle-1": "0605"}, player="german")
    assert case(mini, Move(("ge-inf-1",), ("0604",))) is None


# -- 10.22: a city costs one MP whatever else is in the hex -------------------------------

def test_10_22_woods_cities_cost_mechanized_units_one_mp(campaign_map_game: Game) -> None:
    from kiev_tui.games.spi_kiev.terrain import step_cost

    g = campaign_map_game
    gm, tb, cat = g.scenario.map, g.scenario.tables, g.scenario.catalog.units
    assert (gm.terrain(H("0602")), gm.settlement(H("0602"))) == ("woods", "city")  # Lyubech
    assert (gm.terrain(H("1329")), gm.settlement(H("1329"))) == ("woods", "city")  # Kanev
    # No road, no river on these hexsides: only the hex itself is paid for.
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("0702"), H("0602")) == 1.0
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("1330"), H("1329")) == 1.0
    assert step_cost(gm, tb, cat["ge-id-57"], H("1330"), H("1329")) == 1.0
    # The woods next door still cost a mechanized unit 2 (10.4), and hexsides add on (10.31):
    # a Soviet tank division over the Dnieper into Kanev pays 1 + 2.
    assert step_cost(gm, tb, cat["ge-3pz-6"], H("0602"), H("0502")) == 2.0
    assert step_cost(gm, tb, cat["so-td-10"], H("1428"), H("1329")) == 3.0


# -- 9.15 / 11.33: command is never waived, only supply ------------------------------------

def _campaign_combat_turn_1() -> Game:
    """The campaign's set-up, Soviet combat phase of turn 1 (nothing has moved)."""
    from kiev_tui.games.spi_kiev.system import begin_phase

    g = Game.new(CAMPAIGN, seed=1)
    g.state.phase = "combat"
    g._sink = []
    begin_phase(g)
    g._sink = None
    g.touch()
    return g


def test_9_15_turn_one_supply_is_free_but_command_is_not() -> None:
    from kiev_tui.games.spi_kiev.actions import Attack

    g = _campaign_combat_turn_1()
    sup = g.rules.supply(g)  # type: ignore[attr-defined]
    # 192 Rifle at 1428, opposite Kanev, stands outside every HQ's command radius.
    far = sup.status("so-rd-192")
    assert (far.in_supply, far.in_command, far.hq) == (True, False, None)  # 19.85 supplies it
    assert case(g, Attack(("so-rd-192",), ("1329",))) == "9.15"
    # 87 Rifle in the Kiev bridgehead is within an HQ's reach and may attack.
    near = sup.status("so-rd-87")
    assert (near.in_supply, near.in_command) == (True, True)
    assert case(g, Attack(("so-rd-87", "so-rd-151"), ("0119",))) is None


def test_9_15_count_of_soviet_units_out_of_command_at_the_start() -> None:
    g = _campaign_combat_turn_1()
    view = View(g)
    sup = view.supply
    combat = [u.id for u in g.state.on_map() if view.side(u.id) == "soviet" and not view.is_hq_like(u.id)]
    out = sorted(u for u in combat if not sup.status(u).in_command)
    assert (len(combat), len(out)) == (55, 22)
    assert out[:3] == ["so-cd-28", "so-cd-32", "so-cd-43"]


def _arrival_far_from_hqs(mini: Game, hq_hex: str) -> Game:
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.games.spi_kiev.actions import Enter

    # Only the two turn-1 rifle draws are due; they arrive late, on turn 2.
    mini.scenario.reinforcements = [r for r in mini.scenario.reinforcements if r.turn == 1 and r.side == "soviet"]
    position(mini, {"ge-inf-1": "0905", "so-hq-army": hq_hex}, turn=2)
    mini.apply(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1005"))
    mini.apply(EndPhase())
    assert mini.state.phase == "combat"
    return mini


def test_11_33_an_arrival_is_supplied_but_not_in_command_far_from_every_hq(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Attack

    _arrival_far_from_hqs(mini, "0101")
    st = mini.rules.supply(mini).status("so-t01-rifle-1")  # type: ignore[attr-defined]
    assert (st.in_supply, st.in_command) == (True, False)  # 15.0 waives supply only
    assert case(mini, Attack(("so-t01-rifle-1", "so-t01-rifle-2"), ("0905",))) == "9.15"


def test_11_33_an_arrival_within_an_hqs_radius_may_attack(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Attack

    _arrival_far_from_hqs(mini, "1006")
    st = mini.rules.supply(mini).status("so-t01-rifle-1")  # type: ignore[attr-defined]
    assert (st.in_supply, st.in_command, st.hq) == (True, True, "so-hq-army")
    assert case(mini, Attack(("so-t01-rifle-1", "so-t01-rifle-2"), ("0905",))) is None


# -- 22.2: only a unit that began the phase on the map, east of the hex, relieves ----------

def _directive_turn(mini: Game, placements: dict[str, str]) -> Game:
    # The turn-1 rifle draws are still due (late arrivals stay due, 23.0); turn 7 has the order.
    mini.scenario.reinforcements = [r for r in mini.scenario.reinforcements if r.turn == 1 and r.side == "soviet"]
    position(mini, placements, turn=7)
    mini.state.vars.directive = {7: True}
    return mini


def test_22_2_a_unit_already_on_the_map_east_of_the_hex_relieves(mini: Game) -> None:
    _directive_turn(mini, {"so-rifle-1": "0904", "so-rifle-2": "1005"})
    assert case(mini, Move(("so-rifle-2",), ("0905", "0904"), relieve="so-rifle-1")) is None


def test_22_2_a_reinforcement_cannot_relieve_on_its_arrival_turn(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter

    _directive_turn(mini, {"so-rifle-1": "0904"})
    mini.apply(Enter(("so-t01-rifle-1",), "1005"))
    assert case(mini, Move(("so-t01-rifle-1",), ("0905", "0904"), relieve="so-rifle-1")) == "22.2"
    # The same move without the relief is legal: it ends further west than it entered.
    assert case(mini, Move(("so-t01-rifle-1",), ("0905", "0904"))) is None


def test_22_2_a_unit_arriving_by_rail_cannot_relieve(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter

    _directive_turn(mini, {"so-rifle-1": "0906"})
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert case(mini, Move(("so-t01-rifle-1",), ("0906",), relieve="so-rifle-1")) == "22.2"


def test_22_2_a_unit_that_rode_by_rail_relieves_only_with_the_ride_itself(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter, RailMove

    _directive_turn(mini, {"so-rifle-1": "0806", "so-rifle-2": "1007"})
    mini.apply(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1005"))
    mini.apply(RailMove(("so-rifle-2",), ("0907",)))
    # A rider may not walk on (5.33), so it cannot relieve by a walk after its ride.
    assert case(mini, Move(("so-rifle-2",), ("0806",), relieve="so-rifle-1")) == "5.33"


def test_22_2_a_unit_arriving_by_rail_cannot_relieve_by_riding_on(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter, RailMove

    _directive_turn(mini, {"so-rifle-1": "0907"})
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert case(mini, RailMove(("so-t01-rifle-1",), ("0907",), relieve="so-rifle-1")) == "22.2"
    assert case(mini, RailMove(("so-t01-rifle-1",), ("0907",))) is None


# -- 24.0: the German holds only 0602 and 1329 at the start, so nothing else lies behind him --

def _german_side_at_start(g: Game) -> set:
    """Hexes joined to a German unit without crossing a major river and without entering a
    Soviet unit or zone: the ground behind the German start line."""
    from collections import deque

    view = View(g)
    gmap = g.scenario.map
    zoc = view.zoc_movement["soviet"]
    start = [h for h, ids in view.occupancy.items() if view.side(ids[0]) == "german"]
    seen = set(start)
    queue = deque(start)
    while queue:
        h = queue.popleft()
        for n in gmap.neighbours(h):
            if n in seen or gmap.has(h, n, "major_river") or view.occupied_by(n, "soviet") or n in zoc:
                continue
            seen.add(n)
            queue.append(n)
    return seen


def test_24_0_no_soviet_town_or_city_behind_the_german_start_line(campaign_map_game: Game) -> None:
    g = campaign_map_game
    gmap = g.scenario.map
    behind = _german_side_at_start(g)
    held = sorted((str(h), gmap.name(h), g.state.control[str(h)]) for h in behind if gmap.settlement(h))
    assert held == [("0602", "Lyubech", "german"), ("1329", "Kanev", "german")]


def test_24_1_victory_points_held_at_the_start(campaign_map_game: Game) -> None:
    from kiev_tui.games.spi_kiev.victory import score

    g = campaign_map_game
    settlements = g.scenario.map.settlements()
    assert (sum(1 for k in settlements.values() if k == "city"), sum(1 for k in settlements.values() if k == "town")) == (9, 16)
    sc = score(View(g), final=False)
    # Kiev 25 + six Soviet cities x 10 + sixteen towns x 5; the German's two cities make 20.
    assert (sc.german, sc.soviet) == (20, 165)


def test_24_0_places_behind_the_line_keep_their_names_but_score_nothing(campaign_map_game: Game) -> None:
    gmap = campaign_map_game.scenario.map
    for hid, name in (("0123", "Vasilkov"), ("0829", "Mironovka"), ("1933", "Cherkassy"),
                      ("2703", "Korop"), ("3203", "Krolevets")):
        assert (gmap.name(H(hid)), gmap.settlement(H(hid))) == (name, None)
        assert hid not in campaign_map_game.state.control


def test_24_0_on_turn_one_the_german_can_reach_only_borzna_if_the_soviet_stands_still() -> None:
    from kiev_tui.games.spi_kiev.system import begin_phase

    g = Game.new(CAMPAIGN, seed=1)
    g.state.player = "german"
    g._sink = []
    begin_phase(g)
    g._sink = None
    g.touch()
    view = View(g)
    gmap = g.scenario.map
    passed: set = set()
    for u in g.state.on_map():
        if view.side(u.id) != "german":
            continue
        for h, r in g.rules.reachable(g, (u.id,), False).items():  # type: ignore[attr-defined]
            if r.ok:
                passed.update(H(str(p)) for p in r.path)
                passed.add(h)
    free = sorted(str(h) for h in passed if gmap.settlement(h) and g.state.control[str(h)] == "soviet")
    # Borzna lies on the Soviet side of the Seim; the Soviet moves first (19.11) and can cover it.
    assert free == ["2207"]


# -- 25.12 (play-by-mail option): reinforcements arrive tried, as the historical divisions --

HISTORICAL_25_12 = {   # designations by game-turn, as 25.12 lists them
    1: ["132", "135", "193", "195", "292", "131", "19", "41"],
    2: ["75", "187", "200", "282", "307", "28"],
    3: ["165", "224", "228", "34", "110"],
    4: ["24", "110", "137", "171", "295", "23", "2", "14", "215"],
    5: ["121", "148", "175", "284", "304", "81", "240", "20", "35"],
    6: ["146", "147", "199", "206", "227", "137", "212"],
    7: ["13", "15", "97", "116", "190", "264", "289"],
    8: ["13"],
    9: ["128"],
    10: ["3"],
}


def test_25_12_the_campaign_carries_the_historical_chart_switched_off(campaign_map_game: Game) -> None:
    sc = campaign_map_game.scenario
    assert sc.params["pbem_historical_reinforcements"] is False
    chart = sc.params["historical_reinforcements"]
    from kiev_tui.games.spi_kiev.untried import pool

    faces = pool(sc.catalog).faces
    assert {int(t): [faces[f].designation for f in ids] for t, ids in chart.items()} == HISTORICAL_25_12


def _enter_turn_one_rifles(g: Game) -> tuple[str, ...]:
    from kiev_tui.games.spi_kiev.actions import Enter
    from kiev_tui.games.spi_kiev.reinforcements import entry_hexes

    rifles = tuple(f"so-t01-rifle-{k}" for k in range(1, 6))
    where = entry_hexes(View(g), rifles[0])[0]
    g.apply(Enter(rifles, str(where)))
    return rifles


def test_25_12_off_by_default_arrivals_stay_untried() -> None:
    g = Game.new(CAMPAIGN, seed=1)
    rifles = _enter_turn_one_rifles(g)
    view = View(g)
    assert [view.untried(u) for u in rifles] == [True] * 5
    assert g.state.vars.pool_used == []


def test_25_12_with_the_option_arrivals_enter_tried_as_the_chart_says() -> None:
    g = Game.new(CAMPAIGN, seed=1)
    g.scenario.params["pbem_historical_reinforcements"] = True
    rifles = _enter_turn_one_rifles(g)
    view = View(g)
    assert [view.untried(u) for u in rifles] == [False] * 5
    assert [g.state.units[u].face for u in rifles] == ["so-u-rd-132", "so-u-rd-135", "so-u-rd-193", "so-u-rd-195", "so-u-rd-292"]
    assert [(view.udef(u).designation, view.udef(u).steps) for u in rifles[:2]] == [("132", ((2, 3),)), ("135", ((3, 3),))]
    assert g.state.vars.pool_used == ["so-u-rd-132", "so-u-rd-135", "so-u-rd-193", "so-u-rd-195", "so-u-rd-292"]


def test_25_12_the_option_without_a_matching_chart_is_refused(tmp_path: Path) -> None:
    from kiev_tui.engine.errors import DataError

    text = CAMPAIGN.read_text(encoding="utf-8")
    base = CAMPAIGN.parent.parent
    text = text.replace('map = "map.toml"', f'map = "{base / "map.toml"}"')
    text = text.replace('units = "units.toml"', f'units = "{base / "units.toml"}"')
    text = text.replace('tables = "tables.toml"', f'tables = "{base / "tables.toml"}"')
    text = text.replace("pbem_historical_reinforcements = false", "pbem_historical_reinforcements = true")
    bad = text.replace('"so-u-rd-292", ', "", 1)
    path = tmp_path / "pbem.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as err:
        Game.new(path, seed=1)
    assert err.value.key == "scenario.historical_reinforcements.1"
    assert err.value.reason == "25.12: turn 1 brings 5 rifle reinforcements but the chart names 4"
    path.write_text(text, encoding="utf-8")
    assert Game.new(path, seed=1).scenario.params["pbem_historical_reinforcements"] is True


# -- 24.0: who holds each town and city at the start --------------------------------------

def _mini_with_control(tmp_path: Path, control: str) -> Game:
    from tests.conftest import MINI

    base = MINI.parent.parent
    text = MINI.read_text(encoding="utf-8")
    for name in ("map", "units", "tables"):
        text = text.replace(f'{name} = "{name}.toml"', f'{name} = "{base / (name + ".toml")}"')
    text = text.replace('[control]\ngerman = ["0202"]\n', control)
    path = tmp_path / "control.toml"
    path.write_text(text, encoding="utf-8")
    return Game.new(path, seed=1)


def test_24_0_listed_german_holdings_leave_the_rest_soviet(mini: Game) -> None:
    # The fixture lists Westburg (0202) as German: Testgrad and Eastville start Soviet.
    assert mini.state.control == {"0202": "german", "0505": "soviet", "0805": "soviet"}


def test_24_0_listed_soviet_holdings_leave_the_rest_german(tmp_path: Path) -> None:
    g = _mini_with_control(tmp_path, '[control]\nsoviet = ["0505"]\n')
    assert g.state.control == {"0202": "german", "0505": "soviet", "0805": "german"}


def test_24_0_with_no_list_or_both_lists_the_unlisted_start_soviet(tmp_path: Path) -> None:
    g = _mini_with_control(tmp_path, "")
    assert g.state.control == {"0202": "soviet", "0505": "soviet", "0805": "soviet"}
    g = _mini_with_control(tmp_path, '[control]\ngerman = ["0202"]\nsoviet = ["0505"]\n')
    assert g.state.control == {"0202": "german", "0505": "soviet", "0805": "soviet"}
