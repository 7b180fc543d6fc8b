"""Barbarossa 1941, railways (10, 10.1, 10.2, 10.3, 12.7, 9.2's rail count, 17.1's markers).

Made-up maps (see test_b1941_supply.py): ``soviet_rail`` is 9 x 3 hexes of USSR with a railway
along row 2 from 0102 to the east-edge exit 0902, Moscow on 0902.  ``axis_rail`` has Germany on
columns 1-3 and the USSR beyond, a railway along row 2 leaving the west edge at 0102: Axis rail
is 0102-0302 until markers take more.  0503's neighbours are 0403, 0404, 0502, 0504, 0603, 0604.
"""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941 import rail as r, supply as s
from kiev_tui.games.barbarossa1941.board import Board
from kiev_tui.games.barbarossa1941.rail import RailState
from kiev_tui.games.barbarossa1941.schema import AXIS, SOVIET
from tests.b41_rules_helpers import DATA, GRID, H, board
from tests.test_b1941_supply import every, rail_map, row


def soviet_rail(columns: int = 9, **kw: object):  # type: ignore[no-untyped-def]
    end = f"{columns:02d}02"
    return rail_map(columns=columns, rows=3, rail=row(2, 1, columns), areas={"ussr": (SOVIET, every(columns, 3))},
                    names={end: "Moscow"}, settlement={end: "major_city"}, exits=[end], **kw)  # type: ignore[arg-type]


def axis_rail(columns: int = 9, home: int = 3, extra: list[str] | None = None):  # type: ignore[no-untyped-def]
    return rail_map(columns=columns, rows=3, rail=row(2, 1, columns) + (extra or []),
                    areas={"germany": (AXIS, every(home, 3)), "ussr": (SOVIET, every(columns, 3, home + 1))},
                    exits=["0102"])


def hexes(*ids: str) -> list:  # type: ignore[type-arg]
    return [H(x) for x in ids]


def line(c0: int, c1: int, r_: int = 2) -> list:  # type: ignore[type-arg]
    return [H(f"{c:02d}{r_:02d}") for c in range(c0, c1 + 1)]


def west_from(c0: int, c1: int) -> list:  # type: ignore[type-arg]
    """Row 2 from column c0 down to column c1."""
    return [H(f"{c:02d}02") for c in range(c0, c1 - 1, -1)]


# ------------------------------------------------------------------------------------ 10, 10.1


def test_10_rail_points_a_turn() -> None:
    b = board(soviet_rail(), {"so-a-7": "0102", "so-a-8": "0102", "so-a-11": "0102"})
    st = RailState()
    assert r.check_rail_move(b, st, ["so-a-7"], line(2, 5)) == 2  # 10.1: one point a step
    st = st.spend(SOVIET, 2).spend(SOVIET, 2)
    assert r.check_rail_move(b, st, ["so-a-11"], line(2, 5)) == \
        Illegal("10", "the move needs 2 rail points and 0 of this turn's 4 are left")
    assert r.check_rail_move(b, st.new_turn(), ["so-a-11"], line(2, 5)) == 2
    a = board(axis_rail(), {"ge-ak-23": "0102", "ge-ak-1": "0102"})
    got = r.check_rail_move(a, RailState().spend(AXIS, 1), ["ge-ak-23"], line(2, 3))
    assert got == Illegal("10", "the move needs 2 rail points and 1 of this turn's 2 are left")


def test_10_1_points_per_step() -> None:
    b = board(soviet_rail(), {"so-a-7": "0102", "so-a-8": "0102", "so-ab-3": "0102"}, lost={"so-a-8": 1})
    assert r.rail_points(b, ["so-a-7"]) == 2
    assert r.rail_points(b, ["so-a-8"]) == 1
    assert r.rail_points(b, ["so-ab-3"]) == 1  # worth no step, still one point (ruling)
    assert r.check_rail_move(b, RailState(), ["so-a-8", "so-ab-3"], line(2, 4)) == 2


def test_10_1_at_most_twenty_hexes() -> None:
    b = board(soviet_rail(columns=23), {"so-a-7": "0102"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], line(2, 21)) == 2
    assert r.check_rail_move(b, RailState(), ["so-a-7"], line(2, 22)) == \
        Illegal("10.1", "the move covers 21 rail hexes (partisans count 4), more than 20")


def test_10_1_only_along_connected_rail() -> None:
    b = board(soviet_rail(), {"so-a-7": "0102"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], hexes("0202", "0203")) == \
        Illegal("10.1", "no railroad joins 0202 to 0203")
    b = board(soviet_rail(), {"so-a-7": "0101"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], hexes("0201")) == Illegal("10.1", "0101 is not on soviet rail")


def test_10_1_units_must_be_in_supply() -> None:
    b = board(soviet_rail(), {"so-a-7": "0102"}, isolated=frozenset({"so-a-7"}))
    assert r.check_rail_move(b, RailState(), ["so-a-7"], line(2, 3)) == \
        Illegal("10.1", "so-a-7 is out of supply: only units in supply move by rail")
    cut = board(soviet_rail(), {"so-a-7": "0102", "ge-ak-23": "0302"})  # the line to Moscow is cut
    assert r.check_rail_move(cut, RailState(), ["so-a-7"], line(2, 2)) == \
        Illegal("10.1", "so-a-7 is out of supply: only units in supply move by rail")


def test_10_1_not_through_an_enemy_zone_unless_a_friendly_unit_is_there() -> None:
    west = west_from(7, 3)
    b = board(soviet_rail(), {"so-a-7": "0802", "ge-ak-23": "0503"})  # its zone covers 0502
    assert r.check_rail_move(b, RailState(), ["so-a-7"], west) == \
        Illegal("10.1", "0502 is in an enemy zone of control that no friendly unit cancels")
    b = board(soviet_rail(), {"so-a-7": "0802", "so-a-8": "0502", "ge-ak-23": "0503"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], west) == 2


def test_10_1_start_in_an_enemy_zone_needs_another_friendly_unit() -> None:
    b = board(soviet_rail(), {"so-a-7": "0502", "ge-ak-23": "0503"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], hexes("0402", "0302")) == \
        Illegal("10.1", "0502 is in an enemy zone of control that no other friendly unit cancels")
    b = board(soviet_rail(), {"so-a-7": "0502", "so-a-8": "0502", "ge-ak-23": "0503"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], hexes("0402", "0302")) == 2
    assert isinstance(r.check_rail_move(b, RailState(), ["so-a-7", "so-a-8"], hexes("0402")), Illegal)


def test_10_1_not_through_enemy_units() -> None:
    b = board(soviet_rail(), {"so-a-7": "0802", "ge-bef-101": "0402"})
    assert r.check_rail_move(b, RailState(), ["so-a-7"], west_from(7, 3)) == Illegal("10.1", "0402 holds enemy units")


def test_10_1_static_units_never_ride() -> None:
    b = board(soviet_rail(), {"so-opol-1": "0802"})
    assert r.check_rail_move(b, RailState(), ["so-opol-1"], west_from(7, 6)) == Illegal("10.1", "so-opol-1 never moves")


def test_10_1_stacking_at_the_end() -> None:
    b = board(soviet_rail(), {"so-a-7": "0102", "so-a-8": "0402", "so-a-11": "0402", "so-a-3": "0402"})
    bad = r.check_rail_move(b, RailState(), ["so-a-7"], line(2, 4))
    assert isinstance(bad, Illegal) and bad.case == "3"


def test_2_1_no_axis_rail_movement_on_turn_one() -> None:
    b = board(axis_rail(), {"ge-ak-23": "0102"}, turn=1)
    assert r.check_rail_move(b, RailState(), ["ge-ak-23"], line(2, 3)) == \
        Illegal("2.1", "no axis rail movement before turn 2")
    assert r.check_rail_move(board(axis_rail(), {"ge-ak-23": "0102"}), RailState(), ["ge-ak-23"], line(2, 3)) == 2
    b = board(soviet_rail(), {"so-a-7": "0702"}, turn=1)  # 2.2: the Soviets may on turn 1
    assert r.check_rail_move(b, RailState(), ["so-a-7"], west_from(6, 5)) == 2


def test_10_1_rail_reachable_matches_the_check() -> None:
    b = board(soviet_rail(), {"so-a-7": "0802", "ge-ak-23": "0503"})  # its zone covers 0502
    got = r.rail_reachable(b, RailState(), ["so-a-7"])
    assert not isinstance(got, Illegal)
    assert {GRID.id(h): (x.cost, x.path) for h, x in got.items()} == {
        "0902": (1, ("0902",)), "0702": (1, ("0702",)), "0602": (2, ("0702", "0602"))}
    for h, x in got.items():
        assert r.check_rail_move(b, RailState(), ["so-a-7"], [H(p) for p in x.path]) == 2
    iso = board(soviet_rail(), {"so-a-7": "0802"}, isolated=frozenset({"so-a-7"}))
    assert r.rail_reachable(iso, RailState(), ["so-a-7"]) == \
        Illegal("10.1", "so-a-7 is out of supply: only units in supply move by rail")


# ------------------------------------------------------------------------------------ 10.2


def test_10_2_friendly_rail_is_the_own_country_then_the_markers() -> None:
    b = board(axis_rail(), {"ge-ak-23": "0202"})
    assert r.friendly_rail(b, None, AXIS) == frozenset(hexes("0102", "0202", "0302"))
    assert r.friendly_rail(b, None, SOVIET) == frozenset(line(4, 9))
    assert r.check_rail_move(b, RailState(), ["ge-ak-23"], line(3, 5)) == Illegal("10.2", "0402 is not axis rail")
    taken = RailState((H("0502"),), frozenset(hexes("0402", "0502")))
    assert r.check_rail_move(b, taken, ["ge-ak-23"], line(3, 5)) == 2
    assert r.friendly_rail(b, taken, SOVIET) == frozenset(line(6, 9))


def test_10_2_soviet_units_win_taken_rail_back() -> None:
    st = RailState((H("0502"),), frozenset(hexes("0402", "0502")))
    b = board(axis_rail(), {"so-a-7": "0502"})
    assert r.owned(b, st, SOVIET) == frozenset(line(5, 9))
    assert r.reclaim(b, st) == RailState((None,), frozenset(hexes("0402")))
    assert r.reclaim(board(axis_rail(), {}), st) is st


# ------------------------------------------------------------------------------------ 10.3


def test_10_3_marker_advances_three_rail_hexes() -> None:
    b = board(axis_rail(), {})
    st = RailState((H("0302"),))
    got = r.check_marker_move(b, st, 0, line(4, 6))
    assert got == RailState((H("0602"),), frozenset(line(4, 6)), (), frozenset({0}))
    assert r.check_marker_move(b, st, 0, line(4, 7)) == Illegal("10.3", "a rail marker advances at most 3 rail hexes, not 4")
    assert isinstance(got, RailState)
    assert r.check_marker_move(b, got, 0, line(7, 7)) == Illegal("10.3", "this rail marker has already advanced this turn")
    assert r.check_marker_move(b, got.new_marker_phase(), 0, line(7, 7)) == \
        RailState((H("0702"),), frozenset(line(4, 7)), (), frozenset({0}))


def test_10_3_not_into_a_soviet_zone_or_units() -> None:
    st = RailState((H("0302"),))
    b = board(axis_rail(), {"so-a-7": "0603"})  # its zone covers 0502
    assert r.check_marker_move(b, st, 0, line(4, 5)) == Illegal("10.3", "0502 is in a Soviet zone of control")
    b = board(axis_rail(), {"so-a-7": "0603", "ge-ak-23": "0502"})  # 4: an Axis unit there cancels it
    assert isinstance(r.check_marker_move(b, st, 0, line(4, 5)), RailState)
    b = board(axis_rail(), {"so-a-7": "0402"})
    assert r.check_marker_move(b, st, 0, line(4, 4)) == Illegal("10.3", "0402 holds Soviet units")
    assert r.check_marker_move(board(axis_rail(), {}), st, 0, hexes("0403")) == \
        Illegal("10.3", "no railroad joins 0302 to 0403")


def test_10_3_free_markers_start_anywhere_on_axis_rail() -> None:
    b = board(axis_rail(), {})
    st = RailState((H("0302"), None))
    assert r.is_free(b, st, 1) and not r.is_free(b, st, 0)
    assert r.check_marker_move(b, st, 1, line(4, 5)) == \
        Illegal("10.3", "this marker is off the map: say on which Axis rail hex it starts")
    assert r.check_marker_move(b, st, 1, line(3, 5), start=H("0202")) == \
        RailState((H("0302"), H("0502")), frozenset(line(4, 5)), (), frozenset({1}))
    assert r.check_marker_move(b, st, 0, line(3, 4), start=H("0202")) == \
        Illegal("10.3", "the marker on 0302 is not free: it advances from its own hex")
    assert r.check_marker_move(b, st, 1, line(6, 6), start=H("0502")) == \
        Illegal("10.3", "0502 is not Axis rail: a freed marker starts on Axis rail")
    joined = RailState((H("0502"), H("0602")), frozenset(line(4, 9)))  # nothing Soviet left beyond 0502
    assert r.is_free(b, joined, 0)


def test_10_3_short_stretch_between_two_marked_forks() -> None:
    spurs = ["0401/0402", "0601/0602"]  # 0402 and 0602 are forks; 0502 lies between them
    b = board(axis_rail(extra=spurs), {})
    assert r.held_segments(b, RailState((H("0402"), H("0602")))) == frozenset({H("0502")})
    assert r.held_segments(b, RailState((H("0402"), None))) == frozenset()
    assert H("0502") in r.friendly_rail(b, RailState((H("0402"), H("0602"))), AXIS)
    long = board(axis_rail(extra=["0301/0302", "0801/0802"]), {})  # five hexes between 0302 and 0802
    assert r.held_segments(long, RailState((H("0302"), H("0802")))) == frozenset()


# ------------------------------------------------------------------------------------ 12.7, 9.2


def test_12_7_partisans_make_a_rail_hex_count_four() -> None:
    place = {"ge-ak-23": "0102", "so-part-1": "0502"}
    b = board(axis_rail(columns=20, home=20), place)
    assert r.check_rail_move(b, RailState(), ["ge-ak-23"], line(2, 18)) == 2  # 16 hexes + 3 for the partisan
    assert r.check_rail_move(b, RailState(), ["ge-ak-23"], line(2, 19)) == \
        Illegal("10.1", "the move covers 21 rail hexes (partisans count 4), more than 20")
    sov = board(soviet_rail(columns=20), {"so-a-7": "0102", "so-part-1": "0502"})
    assert r.check_rail_move(sov, RailState(), ["so-a-7"], line(2, 20)) == 2  # they slow only the Axis


def test_9_2_rail_hexes_from_the_border() -> None:
    st = RailState((H("0602"),), frozenset(line(4, 6)))
    assert r.rail_hexes_from_border(board(axis_rail(), {}), st, H("0602")) == 3
    assert r.rail_hexes_from_border(board(axis_rail(), {"so-part-1": "0502"}), st, H("0602")) == 6
    assert r.rail_hexes_from_border(board(axis_rail(), {}), st, H("0702")) is None


# ------------------------------------------------------------------------------------ state, scenarios


def test_10_rail_state_saves_and_loads() -> None:
    st = RailState((H("0602"), None), frozenset(line(4, 6)), (("axis", 2),), frozenset({0}))
    data = st.to_dict(GRID)
    assert data == {"markers": ["0602", None], "taken": ["0402", "0502", "0602"], "used": {"axis": 2}, "moved": [0]}
    assert RailState.from_dict(data, GRID) == st


def test_17_1_typhoon_markers_and_the_rail_behind_them() -> None:
    sc = load_scenario(Path(DATA) / "scenarios" / "typhoon.toml")
    b = Board.from_scenario(sc)
    st = r.initial_state(b, [GRID.parse(x) for x in sc.params["rail_markers"]])
    assert [GRID.id(h) for h in st.markers if h is not None] == ["1108", "1110", "1414", "1318", "1121", "1323", "1028"]
    assert {"1108", "1110", "1414", "1121", "0915"} <= {GRID.id(h) for h in st.taken}
    assert GRID.parse("1304") not in st.taken  # not through Leningrad, which the Soviets hold
    ans = s.supply(b, st)
    assert ans.status("ge-ak-9") == "full"  # on Smolensk's marker
    b = board(axis_rail(), {"so-ab-3": "0502"})  # no zone (no step), but it stands on the rail
    assert r.initial_state(b, [H("0602")]) == RailState((H("0602"), None, None), frozenset({H("0602")}))
    assert r.initial_state(board(axis_rail(), {}), [H("0602")]).taken == frozenset(line(4, 6))
    hist = Board.from_scenario(load_scenario(Path(DATA) / "scenarios" / "historical.toml"))
    assert r.initial_state(hist) == RailState((None, None, None))
