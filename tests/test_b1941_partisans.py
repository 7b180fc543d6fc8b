"""Barbarossa 1941, partisans (12.7) and militia (12.11) on the real map.

Depth inside the USSR (1: next to an Axis country): 0714 lies 4 deep, 0814 and 0810 5 deep, 0820
5 deep south of the Bobruisk row (rows 17 on).  Kiev is the major city 1121; 1120 is next to it.
"""

from __future__ import annotations

from kiev_tui.games.barbarossa1941 import partisans as P
from tests.b41_rules_helpers import H, board, real_map

KIEV = H("1121")


def test_12_7_five_hexes_inside_the_border() -> None:
    b = board(real_map(), {})
    shallow = P.check_partisan(b, "so-part-1", H("0714"))
    assert shallow is not None and shallow.case == "12.7" and "4 hexes" in shallow.why
    assert P.check_partisan(b, "so-part-1", H("0814")) is None
    outside = P.check_partisan(b, "so-part-1", H("0317"))
    assert outside is not None and "not in the USSR" in outside.why


def test_12_7_one_north_of_the_bobruisk_row() -> None:
    b = board(real_map(), {})
    south = P.check_partisan(b, "so-part-1", H("0820"))
    assert south is not None and "Bobruisk" in south.why
    assert P.check_partisan(b, "so-part-1", H("0820"), remaining=1) is None  # the other may go north
    assert P.check_partisan(b, "so-part-1", H("0810")) is None
    with_north = board(real_map(), {"so-part-2": "0810"})
    assert P.check_partisan(with_north, "so-part-1", H("0820")) is None


def test_12_7_one_per_hex_and_never_moved() -> None:
    b = board(real_map(), {"so-part-2": "0810"})
    assert P.check_partisan(b, "so-part-1", H("0810"), remaining=1).case == "12.7"  # type: ignore[union-attr]
    assert P.check_partisan(b, "so-part-2", H("0814")).case == "12.7"  # type: ignore[union-attr]


def test_12_7_withdrawn_in_an_axis_zone() -> None:
    b = board(real_map(), {"so-part-1": "0814", "so-part-2": "0810", "ge-ak-23": "0815"})
    assert P.to_withdraw(b) == ["so-part-1"]
    # nor placed where it would go at once
    clear = board(real_map(), {"ge-ak-23": "0815"})
    assert P.check_partisan(clear, "so-part-1", H("0814"), remaining=1).case == "12.7"  # type: ignore[union-attr]
    # an Axis unit too weak for a zone still removes partisans in its own hex
    b = board(real_map(), {"so-part-1": "0814", "ge-bef-101": "0814"})
    assert P.to_withdraw(b) == ["so-part-1"]


def test_12_7_rail_hex_with_partisans_costs_4() -> None:
    b = board(real_map(), {"so-part-1": "0814"})
    assert P.rail_hex_cost(b, H("0814")) == 4
    assert P.rail_hex_cost(b, H("0815")) == 1


def test_12_7_partisans_rise_in_an_ungarrisoned_russian_major_city() -> None:
    b = board(real_map(), {})
    control = {KIEV: "axis", H("0321"): "axis"}  # Kiev and Lvov
    assert P.city_sites(b, control) == frozenset({KIEV})  # Lvov is no Russian major city
    assert P.check_city_partisan(b, "so-part-1", KIEV, control) is None
    held = board(real_map(), {"ge-ak-23": "1121"})
    assert P.check_city_partisan(held, "so-part-1", KIEV, control).case == "12.7"  # type: ignore[union-attr]


def test_12_11_militia_the_first_time_an_axis_unit_comes_next_to_the_city() -> None:
    b = board(real_map(), {"ge-ak-23": "1120"})
    control = {KIEV: "soviet"}
    opol = {"so-opol-1", "so-opol-2"}
    assert P.militia_sites(b, control, (), ()) == frozenset({KIEV})
    assert P.check_militia(b, "so-opol-1", KIEV, control, (), (), opol) is None
    again = P.check_militia(b, "so-opol-1", KIEV, control, {KIEV}, (), opol)
    assert again is not None and again.case == "12.11"  # approached before: not the first time
    used = P.check_militia(b, "so-opol-2", KIEV, control, (), {KIEV}, opol)
    assert used is not None and "raised its militia" in used.why
    gone = P.check_militia(b, "so-opol-1", KIEV, control, (), (), {"so-opol-2"})
    assert gone is not None and "not available" in gone.why
    far = board(real_map(), {"ge-ak-23": "1119"})
    assert P.militia_sites(far, control, (), ()) == frozenset()


# -- partisans in a freed city, at any moment, as the rule system plays them (12.7) ----------------

def _kiev_held(**extra: str) -> "Game":
    """Turn 3, Axis movement: 23.AK garrisons Kiev (1121), which the Axis holds; no VP event yet."""
    from tests.b41_system_helpers import position

    return position({"ge-ak-23": "1121", "so-a-5b": "2012", **extra}, turn=3, phase="movement", player="axis",
                    control={"1121": "axis"})


def _move(game: "Game", uid: str, path: tuple[str, ...]) -> None:
    from kiev_tui.games.barbarossa1941.actions import Move

    game.apply(Move((uid,), path), side="axis")


def _city_choice(game: "Game") -> list[tuple[str, str]]:
    from kiev_tui.games.barbarossa1941.system import SYSTEM

    p = SYSTEM.prompt(game)
    assert p is not None and p.kind == "partisan" and p.side == "soviet"
    return [(o.verb, o.label) for o in p.options]


def test_12_7_partisans_offered_the_moment_a_city_is_left_ungarrisoned() -> None:
    from kiev_tui.games.barbarossa1941 import phases_campaign as pc
    from tests.b41_system_helpers import answer

    game = _kiev_held()
    before = pc.score_of(game)
    assert (before.track, game.state.vars.city_asked) == (3, [])  # Kiev 2, the Finnish zone 1 (13)
    _move(game, "ge-ak-23", ("1021", "0920"))  # two hexes off: Kiev empty and out of its zone
    assert _city_choice(game) == [("place_partisan", "place a partisan in 1121 (so-part-1)"),
                                  ("done", "decline: no partisans rise now")]
    assert game.phase.pending == "soviet" and game.state.vars.city_asked == ["1121"]
    answer(game, "place_partisan", hex="1121")
    u = game.state.units["so-part-1"]
    assert (u.status, u.hex) == ("map", "1121")  # 12.7: at once, in the Axis movement phase
    assert game.state.vars.liberated == ["1121"] and game.state.control["1121"] == "soviet"
    assert game.state.pending is None and game.phase.name == "movement"
    assert pc.score_of(game).track == 1  # Kiev's 2 VP gone


def test_12_7_freed_city_vp_stay_lost_when_the_axis_comes_back() -> None:
    from kiev_tui.games.barbarossa1941 import phases_campaign as pc
    from tests.b41_system_helpers import answer

    game = _kiev_held(**{"ge-ak-9": "1023"})
    _move(game, "ge-ak-23", ("1021", "0920"))
    answer(game, "place_partisan", hex="1121")
    _move(game, "ge-ak-9", ("1122", "1121"))  # retaken: no zone reaches into a major city, but an
    # Axis unit entering the partisans' hex takes them off until the next turn (12.7)
    assert game.state.vars.back == {"so-part-1": 4}
    assert game.state.control["1121"] == "axis" and game.state.units["so-part-1"].status == "pending"
    s = pc.score_of(game)
    assert s.track == 1 and [ln.why for ln in s.lines if ln.what == "Kiev"] == [
        "freed by partisans: its 2 VP are lost to the Axis (12.7)"]
    assert game.state.pending is None  # a city freed once is not offered again


def test_12_7_a_declined_city_is_asked_again_only_once_left_empty_again() -> None:
    from tests.b41_system_helpers import answer

    game = _kiev_held(**{"ge-ak-9": "1023"})
    _move(game, "ge-ak-23", ("1021", "0920"))
    answer(game, "done")
    assert game.state.pending is None and game.state.vars.city_asked == ["1121"]
    _move(game, "ge-ak-9", ("1024",))  # any other action: no new question
    assert game.state.pending is None
    _move(game, "ge-ak-9", ("1023", "1122", "1121"))  # garrisoned again: forgotten
    assert game.state.pending is None and game.state.vars.city_asked == []
    game.state.vars.spent.clear()
    _move(game, "ge-ak-9", ("1122",))  # empty once more: asked again
    assert [v for v, _ in _city_choice(game)] == ["place_partisan", "done"]


def test_12_7_no_partisan_counter_free_no_question() -> None:
    game = _kiev_held(**{"so-part-1": "2212", "so-part-2": "2312"})  # both partisan counters on the map
    _move(game, "ge-ak-23", ("1021", "0920"))
    assert game.state.pending is None
    assert game.state.vars.city_asked == []  # not asked: offered once a counter is free


def test_12_7_a_fort_is_no_garrison() -> None:
    b = board(real_map(), {"ge-fort-1": "1121"})
    assert P.city_sites(b, {KIEV: "axis"}) == frozenset({KIEV})  # 12.7, 13: only a formation garrisons
    assert P.city_sites(board(real_map(), {"ge-ak-23": "1121"}), {KIEV: "axis"}) == frozenset()


def test_12_7_riga_left_empty_raises_no_question() -> None:
    from tests.b41_system_helpers import position

    game = position({"ge-ak-23": "0610", "so-a-5b": "2012"}, turn=3, phase="movement", player="axis",
                    control={"0610": "axis"})
    assert game.scenario.map.grid.id(game.scenario.map.find("Riga")) == "0610"
    _move(game, "ge-ak-23", ("0510", "0410", "0309"))
    assert game.state.pending is None and game.state.vars.city_asked == []  # Riga is no Russian major city


def test_12_7_set_up_cities_without_garrison_wait_for_the_partisan_phase() -> None:
    from tests.b41_system_helpers import new_game

    game = new_game("barbarossa1941/typhoon", 1)
    grid = game.scenario.map.grid
    assert game.state.vars.city_asked == ["1825"] and grid.id(game.scenario.map.find("Dnepropetrovsk")) == "1825"
    assert game.state.pending is None  # not asked before the Soviet partisan phase


def test_12_7_a_declined_city_is_offered_again_in_the_soviet_partisan_phase() -> None:
    from kiev_tui.games.barbarossa1941 import phases_campaign as pc
    from tests.b41_system_helpers import answer

    game = _kiev_held()
    _move(game, "ge-ak-23", ("1021", "0920"))
    answer(game, "done")
    st = game.state
    st.player, st.phase = "soviet", "partisans"
    game.memo.clear()
    pc.begin_partisans(game)  # before 18 VP: only the freed city is offered
    assert _city_choice(game) == [("place_partisan", "place a partisan in 1121 (so-part-1)"),
                                  ("done", "decline: no partisans rise now")]


def test_12_7_an_axis_stack_passing_through_takes_the_partisans_off() -> None:
    from tests.b41_system_helpers import position

    # partisans on 1720, clear; 23.AK passes through on its way to 1920, two hexes on (no zone there)
    game = position({"ge-ak-23": "1620", "so-part-1": "1720", "so-a-5b": "2012"}, turn=3, phase="movement",
                    player="axis")
    _move(game, "ge-ak-23", ("1720", "1820", "1920"))
    u = game.state.units["so-part-1"]
    assert (u.status, u.hex, game.state.vars.back) == ("pending", None, {"so-part-1": 4})
    assert game.state.units["ge-ak-23"].hex == "1920"
