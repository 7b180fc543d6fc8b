"""Barbarossa 1941, supply and isolation (8, 8.1, 8.2, 9.2's loss marker, 14.3.5).

Most positions stand on made-up maps built by ``rail_map``: a railway along one row, countries
given by area.  The Soviet line (``soviet_line``) is 9 columns by 7 rows, all USSR, with a railway
along row 1 from 0101 to the east-edge exit 0901 and Moscow on 0501: the whole of row 1 carries
Soviet supply.  From 0504 the only supply line of three hexes runs 0503, 0502, 0501.
"""

from __future__ import annotations

from typing import Iterable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hexside
from kiev_tui.engine.mapdata import Area, GameMap
from kiev_tui.games.barbarossa1941 import supply as s
from kiev_tui.games.barbarossa1941.rail import RailState
from kiev_tui.games.barbarossa1941.schema import AXIS, SCHEMA, SOVIET
from tests.b41_rules_helpers import CLEAR, MUD, GRID, H, board, catalog, real_map, tables
from kiev_tui.games.barbarossa1941.board import Board


def row(r: int, c0: int, c1: int) -> list[str]:
    """Railroad hexsides along row ``r`` from column c0 to c1."""
    return [f"{c:02d}{r:02d}/{c + 1:02d}{r:02d}" for c in range(c0, c1)]


def rail_map(columns: int = 9, rows: int = 7, rail: Iterable[str] = (), areas: dict[str, tuple[str, Iterable[str]]] | None = None,
             names: dict[str, str] | None = None, settlement: dict[str, str] | None = None,
             exits: Iterable[str] = (), terrain: dict[str, str] | None = None) -> GameMap:
    """A clear map of the game's grid with railroad hexsides, sided areas (countries, ports) and exits."""
    features: dict[Hexside, frozenset[str]] = {}
    for p in rail:
        features[GRID.side(p)] = frozenset({"railroad"})
    return GameMap(
        game="barbarossa1941", columns=columns, rows=rows, default_terrain="clear",
        terrain_of={H(k): v for k, v in (terrain or {}).items()},
        settlement_of={H(k): v for k, v in (settlement or {}).items()},
        name_of={H(k): v for k, v in (names or {}).items()},
        features=features, rail_exits=frozenset(H(x) for x in exits),
        areas={n: Area(n, side, frozenset(H(x) for x in ids)) for n, (side, ids) in (areas or {}).items()},
        grid=GRID, impassable_terrains=frozenset(SCHEMA.impassable_terrains),
        impassable_hexsides=frozenset(SCHEMA.impassable_hexsides), settlement_kinds=tuple(SCHEMA.settlements))


def every(columns: int, rows: int, c0: int = 1) -> list[str]:
    return [f"{c:02d}{r:02d}" for c in range(c0, columns + 1) for r in range(1, rows + 1)]


def soviet_line(**kw: object) -> GameMap:
    return rail_map(rail=row(1, 1, 9), areas={"ussr": (SOVIET, every(9, 7))}, names={"0501": "Moscow"},
                    settlement={"0501": "major_city"}, exits=["0901"], **kw)  # type: ignore[arg-type]


def axis_line(**kw: object) -> GameMap:
    """Germany is columns 1-3, the USSR 4-9; a railway along row 3 leaves the west edge at 0103."""
    return rail_map(rail=row(3, 1, 9), areas={"germany": (AXIS, every(3, 7)), "ussr": (SOVIET, every(9, 7, 4))},
                    exits=["0103"], **kw)  # type: ignore[arg-type]


def status(b: Board, rail: RailState | None = None) -> dict[str, str]:
    return dict(s.supply(b, rail).status_of)


# ------------------------------------------------------------------------------------ 8: the line


def test_8_supply_line_as_long_as_the_units_mp() -> None:
    b = board(soviet_line(), {"so-a-7": "0504", "so-a-8": "0505"})
    assert status(b) == {"so-a-7": "full", "so-a-8": "out"}  # 3 hexes to the rail, then 4


def test_8_weather_shortens_the_line() -> None:
    b = board(soviet_line(), {"so-a-7": "0504", "so-a-8": "0503"}, turn=MUD)  # 12.3: 2 MP in mud
    assert status(b) == {"so-a-7": "out", "so-a-8": "full"}


def test_8_line_pays_terrain_by_movement_class() -> None:
    forest = {h: "forest" for h in every(9, 7) if not h.endswith("01")}
    b = board(soviet_line(terrain=forest), {"so-a-7": "0504", "so-mc-1-10": "0404"})
    # forest costs 1 on foot, 2 motorized: the 3-MP army reaches row 1, the 4-MP corps does not
    assert status(b) == {"so-a-7": "full", "so-mc-1-10": "out"}


def test_8_enemy_zone_blocks_the_line_unless_a_friendly_unit_is_there() -> None:
    b = board(soviet_line(), {"so-a-7": "0504", "ge-ak-23": "0603"})  # its zone covers 0503 and 0502
    assert status(b)["so-a-7"] == "out"
    b = board(soviet_line(), {"so-a-7": "0504", "so-a-8": "0503", "ge-ak-23": "0603"})
    assert status(b)["so-a-7"] == "out"  # 0502 is still blocked
    b = board(soviet_line(), {"so-a-7": "0504", "so-a-8": "0503", "so-a-11": "0502", "ge-ak-23": "0603"})
    assert status(b) == {"so-a-7": "full", "so-a-8": "full", "so-a-11": "full", "ge-ak-23": "out"}


def test_8_line_never_crosses_sea() -> None:
    b = board(soviet_line(terrain={"0503": "sea"}), {"so-a-7": "0504"})
    assert status(b) == {"so-a-7": "out"}


def test_8_enemy_units_block_the_line() -> None:
    b = board(soviet_line(), {"so-a-7": "0504"})
    assert status(b)["so-a-7"] == "full"
    b = board(soviet_line(), {"so-a-7": "0504", "ge-bef-101": "0502"})  # one step: no zone, but it stands there
    assert status(b)["so-a-7"] == "out"


def test_8_rail_joined_to_a_source_carries_supply() -> None:
    b = board(soviet_line(), {"so-a-7": "0102"})  # four hexes from Moscow, one from its rail
    assert status(b)["so-a-7"] == "full"
    b = board(soviet_line(), {"so-a-7": "0102", "ge-ak-23": "0301"})  # the rail is cut at 0301 (and its zone)
    assert status(b)["so-a-7"] == "out"
    assert s.supply(b).nets[SOVIET] == frozenset(H(x) for x in ("0501", "0601", "0701", "0801", "0901"))


# ------------------------------------------------------------------------------------ 8.2: sources


def test_8_2_axis_west_edge_exit_and_its_rail() -> None:
    b = board(axis_line(), {"ge-ak-23": "0603", "ge-ak-1": "0703"})
    assert s.supply(b).full[AXIS] == frozenset({H("0103")})
    assert status(b) == {"ge-ak-23": "full", "ge-ak-1": "out"}  # 0303 is the last Axis rail hex
    held = board(axis_line(), {"ge-ak-23": "0603", "so-a-7": "0103"})  # a Soviet unit on the exit
    assert s.supply(held).full[AXIS] == frozenset() and status(held)["ge-ak-23"] == "out"
    taken = RailState((H("0503"),), frozenset({H("0403"), H("0503")}))
    assert status(b, taken) == {"ge-ak-23": "full", "ge-ak-1": "full"}  # 10.2: the marker's rail


def test_8_2_axis_cities_supply() -> None:
    gmap = rail_map(areas={"ussr": (SOVIET, every(9, 7))}, names={"0404": "Warsaw"}, settlement={"0404": "major_city"})
    b = board(gmap, {"ge-ak-23": "0407"}, control={H("0404"): AXIS})
    assert status(b) == {"ge-ak-23": "full"}
    b = board(gmap, {"ge-ak-23": "0407"})  # Warsaw on Soviet ground, not held: no source
    assert status(b) == {"ge-ak-23": "out"}


def test_8_2_helsinki_supplies_finns_and_others_only_later() -> None:
    names = {"0104": "Helsinki", "0907": "Königsberg", "0807": "Riga", "0707": "Tallinn"}
    gmap = rail_map(areas={"finland": (AXIS, ["0104", "0105"]), "ussr": (SOVIET, every(9, 7, 2))}, names=names,
                    settlement={"0104": "major_city"})
    b = board(gmap, {"fi-c-6": "0105", "ge-ak-23": "0105"})
    assert status(b) == {"fi-c-6": "full", "ge-ak-23": "out"}
    held = {H("0907"): AXIS, H("0807"): AXIS, H("0707"): AXIS}
    b = board(gmap, {"fi-c-6": "0105", "ge-ak-23": "0105"}, control=held)
    assert s.helsinki_open(b)
    assert status(b) == {"fi-c-6": "full", "ge-ak-23": "full"}


def test_8_2_soviet_city_must_reach_the_east_edge_by_rail() -> None:
    gmap = rail_map(rail=row(4, 4, 9), areas={"ussr": (SOVIET, every(9, 7))}, names={"0404": "Kiev"},
                    settlement={"0404": "major_city"}, exits=["0904"])
    place = {"so-a-7": "0404", "so-a-8": "0405", "so-a-11": "0407"}
    assert status(board(gmap, place)) == {"so-a-7": "full", "so-a-8": "full", "so-a-11": "full"}
    assert dict(s.supply(board(gmap, place)).limited[SOVIET]) == {}  # joined to the east: no limited source
    lost = board(gmap, {"so-a-11": "0407"}, control={H("0404"): AXIS})  # only a city the Soviets hold supplies
    assert s.supply(lost).full[SOVIET] == frozenset() and status(lost)["so-a-11"] == "out"
    cut = board(gmap, {**place, "ge-ak-23": "0704"})  # the line to the east edge is cut
    ans = s.supply(cut)
    assert ans.full[SOVIET] == frozenset()
    assert dict(ans.limited[SOVIET]) == {H("0404"): 4}  # 8.2: a cut-off Russian major city feeds 4 steps
    assert {u: ans.status(u) for u in place} == {"so-a-7": "limited", "so-a-8": "limited", "so-a-11": "out"}
    assert ans.source_of == {"so-a-7": H("0404"), "so-a-8": H("0404")}
    assert ans.sources(SOVIET) == frozenset({H("0404")})  # 6.1: a retreat may head for it


def test_8_2_lvov_is_no_limited_source() -> None:
    gmap = rail_map(areas={"ussr": (SOVIET, every(9, 7))}, names={"0404": "Lvov"}, settlement={"0404": "major_city"})
    b = board(gmap, {"so-a-7": "0404"})
    assert status(b) == {"so-a-7": "out"}
    assert dict(s.supply(b).limited[SOVIET]) == {}


def test_8_2_port_feeds_two_steps_with_naval_superiority() -> None:
    gmap = rail_map(areas={"ussr": (SOVIET, every(9, 7)), "ports_baltic": ("", ["0303"])}, names={"0303": "Tallinn"},
                    settlement={"0303": "minor_city"})
    place = {"so-a-7": "0303", "so-a-8": "0304"}
    assert status(board(gmap, place)) == {"so-a-7": "out", "so-a-8": "out"}
    assert status(board(gmap, place, naval={"baltic": AXIS})) == {"so-a-7": "out", "so-a-8": "out"}
    b = board(gmap, place, naval={"baltic": SOVIET})
    assert dict(s.supply(b).limited[SOVIET]) == {H("0303"): 2}
    assert status(b) == {"so-a-7": "limited", "so-a-8": "out"}
    joined = rail_map(rail=row(3, 3, 9), areas={"ussr": (SOVIET, every(9, 7)), "ports_baltic": ("", ["0303"])},
                      names={"0303": "Tallinn", "0903": "Moscow"},
                      settlement={"0303": "minor_city", "0903": "major_city"}, exits=["0903"])
    b = board(joined, place, naval={"baltic": SOVIET})  # the port's land communications are open
    assert dict(s.supply(b).limited[SOVIET]) == {}


def test_8_2_sevastopol_city_port_and_fortress() -> None:
    gmap = rail_map(areas={"ussr": (SOVIET, every(9, 7)), "ports_black_sea": ("", ["0404"])},
                    names={"0404": "Sevastopol"}, settlement={"0404": "major_city"})
    place = {"so-fort-sevastopol": "0404", "so-a-7": "0404", "so-a-8": "0404", "so-a-11": "0404"}
    b = board(gmap, place, naval={"black_sea": SOVIET})
    ans = s.supply(b)
    assert dict(ans.limited[SOVIET]) == {H("0404"): 6}  # city 4 and port 2
    assert dict(ans.status_of) == {"so-a-7": "limited", "so-a-8": "limited", "so-a-11": "limited"}
    b = board(gmap, place, naval={"black_sea": AXIS}, isolated=frozenset({"so-a-7", "so-a-8", "so-a-11"}))
    got = s.isolation_phase(b, SOVIET)
    assert got.kept == ("so-a-8",) and got.cleared == ("so-a-11", "so-a-7")  # ties go by unit id
    assert "so-fort-sevastopol" not in got.marked + got.kept  # 8.2: the fortress is always in supply


def test_8_2_naval_superiority_from_the_ports_held() -> None:
    b = Board(real_map(), tables(), catalog().units, {}, turn=CLEAR)
    assert s.naval_superiority(b) == {"baltic": SOVIET, "black_sea": SOVIET}
    riga = real_map().find("Riga")
    b = Board(real_map(), tables(), catalog().units, {}, turn=CLEAR, control={riga: AXIS})
    assert s.naval_superiority(b) == {"baltic": AXIS, "black_sea": SOVIET}


def test_8_2_sources_on_the_real_map() -> None:
    b = Board(real_map(), tables(), catalog().units, {}, turn=CLEAR)
    ans = s.supply(b)
    ids = {side: sorted(GRID.id(h) for h in ans.full[side]) for side in (AXIS, SOVIET)}
    assert ids == {AXIS: ["0112", "0117", "0118", "0120", "0124", "0126", "0131", "0531", "0804"],
                   SOVIET: ["0321", "0610", "1121", "1128", "1304", "1532", "1825", "1922", "2012", "2319", "2427"]}


# ------------------------------------------------------------------------------------ 8.1


def test_8_1_isolation_phase_marks_first() -> None:
    b = board(soviet_line(), {"so-a-7": "0505", "so-a-8": "0504"})
    got = s.isolation_phase(b, SOVIET)
    assert (got.marked, got.cleared, got.kept, got.losses) == (("so-a-7",), (), (), ())


def test_8_1_marker_removed_when_the_line_is_open_again() -> None:
    b = board(soviet_line(), {"so-a-7": "0504"}, isolated=frozenset({"so-a-7"}))
    got = s.isolation_phase(b, SOVIET)
    assert (got.marked, got.cleared, got.kept, got.losses) == ((), ("so-a-7",), (), ())


def test_8_1_one_step_lost_per_stack_still_cut_off() -> None:
    place = {"so-a-7": "0505", "so-a-8": "0505", "so-a-11": "0306"}
    b = board(soviet_line(), place, isolated=frozenset(place))
    got = s.isolation_phase(b, SOVIET)
    assert got.kept == ("so-a-11", "so-a-7", "so-a-8")
    assert got.losses == (s.Loss(H("0306"), ("so-a-11",), "so-a-11", 1, "8.1"),
                          s.Loss(H("0505"), ("so-a-7", "so-a-8"), "so-a-7", 1, "8.1"))
    b = board(soviet_line(), place, lost={"so-a-7": 1}, isolated=frozenset(place))
    assert s.isolation_phase(b, SOVIET).losses[1].default == "so-a-8"  # the unit with most steps left


def test_8_1_only_the_phasing_side_is_judged() -> None:
    b = board(soviet_line(), {"so-a-7": "0505", "ge-ak-23": "0707"})
    assert s.isolation_phase(b, AXIS).marked == ("ge-ak-23",)
    assert s.isolation_phase(b, SOVIET).marked == ("so-a-7",)


def test_8_1_apply_isolation() -> None:
    place = {"so-a-7": "0505", "so-a-8": "0505", "so-a-11": "0504"}
    b = board(soviet_line(), place, lost={"so-a-8": 1}, isolated=frozenset({"so-a-7", "so-a-8", "so-a-11"}))
    got = s.isolation_phase(b, SOVIET)
    done = s.apply_isolation(b, got, {H("0505"): "so-a-8"})
    assert done == s.Applied(frozenset({"so-a-7"}), {"so-a-8": 2}, ("so-a-8",))
    done = s.apply_isolation(b, got)
    assert done == s.Applied(frozenset({"so-a-7", "so-a-8"}), {"so-a-8": 1, "so-a-7": 1}, ())
    assert s.apply_isolation(b, got, {H("0505"): "so-a-11"}) == \
        Illegal("8.1", "so-a-11 cannot take the step lost in 0505: choose one of so-a-7, so-a-8")


def test_8_1_units_with_no_step_take_no_isolation_loss() -> None:
    b = board(soviet_line(), {"so-ab-3": "0505"}, isolated=frozenset({"so-ab-3"}))
    got = s.isolation_phase(b, SOVIET)
    assert got.kept == ("so-ab-3",) and got.losses == ()


def test_8_1_penalties() -> None:
    b = board(soviet_line(), {"so-mc-1-10": "0505", "so-a-7": "0504"}, isolated=frozenset({"so-mc-1-10"}))
    assert s.may_exploit(b, "so-mc-1-10") == Illegal("8.1", "so-mc-1-10 is isolated: no exploitation move")
    assert s.may_exploit(b, "so-a-7") is None
    assert s.die_modifier(b, ["so-mc-1-10"], ["so-a-7"]) == -2
    assert s.die_modifier(b, ["so-a-7"], ["so-mc-1-10"]) == 1
    assert s.die_modifier(b, ["so-a-7"], []) == 0


def test_8_1_isolated_is_the_marker_not_the_line() -> None:
    b = board(soviet_line(), {"so-a-7": "0505", "so-a-8": "0504"}, isolated=frozenset({"so-a-8"}))
    ans = s.supply(b)
    assert (ans.isolated("so-a-7"), ans.traced("so-a-7")) == (False, False)
    assert (ans.isolated("so-a-8"), ans.traced("so-a-8")) == (True, True)


def test_14_3_5_masters_of_the_blitzkrieg() -> None:
    place = {"so-a-7": "0505", "ge-pzk-41": "0606"}
    b = board(soviet_line(), place)
    assert s.isolation_phase(b, SOVIET).losses == ()
    got = s.isolation_phase(b, SOVIET, blitzkrieg=True)
    assert got.losses == (s.Loss(H("0505"), ("so-a-7",), "so-a-7", 1, "14.3.5"),)
    far = board(soviet_line(), {"so-a-7": "0505", "ge-pzk-41": "0707"})
    assert s.isolation_phase(far, SOVIET, blitzkrieg=True).losses == ()
    b = board(soviet_line(), place, isolated=frozenset({"ge-pzk-41"}))  # the panzer corps is cut off itself
    assert s.isolation_phase(b, SOVIET, blitzkrieg=True).losses == ()
    b = board(soviet_line(), place, turn=MUD)
    assert s.isolation_phase(b, SOVIET, blitzkrieg=True).losses == ()


def test_9_2_isolated_losses_stay_off_the_loss_track() -> None:
    b = board(soviet_line(), {"so-a-7": "0505", "so-a-8": "0303", "so-cav-5": "0707"},
              isolated=frozenset({"so-a-7"}))
    assert s.counts_on_loss_track(b, "so-a-7") is False
    assert s.counts_on_loss_track(b, "so-a-8") is True
    assert s.counts_on_loss_track(b, "so-cav-5") is False  # 9.2: cavalry is not counted


def test_12_4_hex_in_supply() -> None:
    b = board(soviet_line(), {})
    assert (s.hex_in_supply(b, SOVIET, H("0504")), s.hex_in_supply(b, SOVIET, H("0505"))) == (True, False)
    b = board(soviet_line(), {}, turn=MUD)
    assert (s.hex_in_supply(b, SOVIET, H("0504")), s.hex_in_supply(b, SOVIET, H("0503"))) == (False, True)


def test_12_12_controlled_rail() -> None:
    b = board(axis_line(), {})
    ans = s.supply(b)
    assert (ans.controlled_rail(AXIS, H("0303")), ans.controlled_rail(AXIS, H("0403"))) == (True, False)
    assert (ans.controlled_rail(SOVIET, H("0303")), ans.controlled_rail(SOVIET, H("0403"))) == (False, True)


def test_8_answers_are_cached_per_board_and_rail_state() -> None:
    b = board(soviet_line(), {"so-a-7": "0504"})
    assert s.supply(b) is s.supply(b)
    assert s.supply(b, RailState()) is not s.supply(b)


def test_8_1_combat_and_retreat_read_the_supply_answer() -> None:
    from kiev_tui.games.barbarossa1941 import combat as c, retreat as rt

    b = board(soviet_line(), {"so-a-7": "0404", "ge-ak-23": "0405"}, isolated=frozenset({"so-a-7"}))
    ans = s.supply(b)
    p = c.plan(b, ["so-a-7"], H("0405"), "so-a-7", "ge-ak-23", supply=ans)
    assert not isinstance(p, Illegal) and p.die_modifier == -2  # 8.1: an isolated unit attacks
    # 6.1: the German stack retreats toward its sources; it has none on this map
    assert rt.retreat_hexes(b, ["ge-ak-23"], ans) == \
        Illegal("6.1", "no hex to retreat into from 0405: the stack stays and takes the losses")
    assert ans.sources(SOVIET) == frozenset({H("0501")})


# ------------------------------------------------------------------------------------ 12.1, 12.9


def naval_map() -> GameMap:
    return rail_map(areas={"ussr": (SOVIET, every(9, 7)), "ports_baltic": ("", ["0202", "0707"]),
                           "ports_black_sea": ("", ["0505"])})


def test_12_1_naval_move_between_ports_of_one_sea() -> None:
    place = {"so-a-7": "0202", "so-a-5": "0707"}
    b = board(naval_map(), place, naval={"baltic": SOVIET})
    assert s.check_naval_move(b, "so-a-7", H("0707")) is None
    assert s.check_naval_move(b, "so-a-7", H("0707"), used_this_turn=True) == \
        Illegal("12.1", "one naval move a turn, already made")
    assert s.check_naval_move(b, "so-a-7", H("0505")) == Illegal("12.1", "0505 is not another port of the same sea")
    assert s.check_naval_move(b, "so-a-5", H("0303")) == Illegal("12.1", "0303 is not another port of the same sea")
    assert s.check_naval_move(board(naval_map(), place), "so-a-7", H("0707")) == \
        Illegal("12.1", "the soviet side does not rule the baltic")
    ax = board(naval_map(), {"ro-a-3": "0202"}, naval={"baltic": AXIS}, control={H("0707"): AXIS})
    assert s.check_naval_move(ax, "ro-a-3", H("0707")) == \
        Illegal("12.1", "ro-a-3 has 3 steps: a naval move carries at most 2")
    ge = board(naval_map(), {"ge-ak-23": "0202"}, naval={"baltic": AXIS})
    assert s.check_naval_move(ge, "ge-ak-23", H("0707")) == Illegal("12.1", "0707 is not a port the axis side holds")
    ge = board(naval_map(), {"ge-ak-23": "0202"}, naval={"baltic": AXIS}, control={H("0707"): AXIS})
    assert s.check_naval_move(ge, "ge-ak-23", H("0707")) is None


def test_12_9_gulf_mined_when_the_axis_holds_four_cities() -> None:
    m = real_map()
    four = {m.find(n): AXIS for n in ("Königsberg", "Tallinn", "Riga", "Helsinki")}
    b = Board(m, tables(), catalog().units, {}, turn=CLEAR, control=four)
    assert s.fleet_mined(b) is True
    del four[m.find("Tallinn")]
    assert s.fleet_mined(Board(m, tables(), catalog().units, {}, turn=CLEAR, control=four)) is False


# -- Typhoon's Finnish corps east of Lake Ladoga (8, 10.2, 17.1) ------------------------------------

def test_8_typhoon_finnish_vi_and_vii_corps_on_1602_are_in_supply() -> None:
    from kiev_tui.games.barbarossa1941.phases_supply import rail_state
    from kiev_tui.games.barbarossa1941.system import board_of
    from tests.b41_system_helpers import new_game

    game = new_game("barbarossa1941/typhoon", 1)
    b = board_of(game)
    ans = s.supply(b, rail_state(game))
    assert {u: (GRID.id(b.hex_of[u]), b.step(u), ans.status(u)) for u in ("fi-c-6", "fi-c-7")} == {
        "fi-c-6": ("1602", 1, s.FULL), "fi-c-7": ("1602", 1, s.FULL)}
    # 10.2: the Vartsila - Suojarvi - Essoila line is theirs (Typhoon's axis_rail), joined to Helsinki's rail
    assert {GRID.id(h) for h in ans.nets[AXIS]} >= {"1602", "1501", "1401", "1301"}


def test_8_typhoon_finns_on_1602_trace_only_along_the_karelian_line() -> None:
    import dataclasses

    from kiev_tui.games.barbarossa1941.phases_supply import rail_state
    from kiev_tui.games.barbarossa1941.rail import links
    from kiev_tui.games.barbarossa1941.system import board_of
    from tests.b41_system_helpers import new_game

    game = new_game("barbarossa1941/typhoon", 1)
    b = board_of(game)
    net = links(b.gmap)
    assert sorted(GRID.id(h) for h in net[H("1602")]) == ["1501", "1701"]  # Suojarvi and Petrozavodsk
    assert sorted(GRID.id(h) for h in net[H("1501")]) == ["1401", "1602"]  # Vartsila, in Finland
    rs = rail_state(game)
    # without the line the Finns held (the rail of the USSR stays Soviet, 10.2) nothing reaches them:
    # 2 MP in the northern mud (17) reach only 1501, 1502 and 1601, none Axis rail or a source
    without = dataclasses.replace(rs, taken=rs.taken - {H("1501"), H("1602")})
    ans = s.supply(dataclasses.replace(b), without)
    assert (ans.status("fi-c-6"), ans.status("fi-c-7")) == (s.OUT, s.OUT)
    # the line cut at Suojarvi alone is enough to cut them off too
    cut = dataclasses.replace(rs, taken=rs.taken - {H("1501")})
    assert s.supply(dataclasses.replace(b), cut).status("fi-c-6") == s.OUT
