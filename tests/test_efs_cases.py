"""Kiev to Rostov, Battle of Sumy: one focused test per case the other EFS test files did not name.

tests/test_efs_case_coverage.py lists the cases Sumy plays; each test here builds a position on
the Sumy map (or a game of Sumy driven to a phase) and checks the exact outcome its case asks for.
"""

from __future__ import annotations

from fractions import Fraction

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import handlers, system
from kiev_tui.games.efs_ktr.actions import Declare, Move
from kiev_tui.games.efs_ktr.board import Board
from kiev_tui.games.efs_ktr.movement import INFILTRATION, ONE_HEX, STRATEGIC, allowance, reachable
from kiev_tui.games.efs_ktr.zoc import in_enemy_zoc, projectors
from tests.efs_positions import GD, H, PZ, case, cost, hx, position



def game_at(phase: str, player: str = "axis", turn: int = 1, seed: int = 1) -> Game:
    """A new game of Sumy with every phase ended until ``player``'s ``phase`` of scenario turn ``turn``."""
    g = Game.new("efs_ktr/sumy", seed=seed)
    while (g.state.turn, g.state.player, g.state.phase) != (turn, player, phase):
        assert g.rules.prompt(g) is None
        g.apply(EndPhase(), side=g.actor)
    return g


def place(g: Game, units: dict[str, str | None]) -> None:
    """Puts units on hexes (None: off the map, eliminated) in a game under way."""
    for uid, h in units.items():
        u = g.state.units[uid]
        u.hex, u.status = (h, "map") if h is not None else (None, "eliminated")
    g.memo.clear()  # the position was edited by hand


# -- 3: control and zones -------------------------------------------------------------------------
def test_3_21_a_star_belongs_to_the_last_side_to_enter_it() -> None:
    g = game_at("movement")
    assert g.state.control["1306"] == "soviet"
    g.apply(Move(("ax-20mot-10m",), ("1407", "1306")), side="axis")
    assert g.state.control["1306"] == "axis" and system.stars_held(g, "axis") == 1
    assert g.state.control.get("1406") is None  # only the stars' (and held hexes') owners are kept


def _to(g: Game, uid: str, hex_id: str) -> None:
    """Moves ``uid`` to ``hex_id`` by the cheapest path the rules offer."""
    reach = g.reachable((uid,))
    g.apply(Move((uid,), reach[g.scenario.map.grid.parse(hex_id)].path), side=g.actor)


def test_3_21a_an_empty_star_goes_to_the_side_whose_zone_comes_to_cover_it_alone() -> None:
    g = game_at("movement")
    # the set-up's owner stands until something changes: the 20th's zone already covers 1306
    assert system.zone_owners(g, system.board(g))["1306"] == "axis" and g.state.control["1306"] == "soviet"
    _to(g, "ax-9rec-9pz", "1409")  # a move that changes no zone over 1306 changes nothing
    assert g.state.control["1306"] == "soviet"
    place(g, {"ax-20mot-10m": "1010"})  # the zone over 1306 lifted by hand ...
    assert system.zone_owners(g, system.board(g))["1306"] is None
    _to(g, "ax-20mot-10m", "1207")  # ... and brought back by a move
    assert system.zone_owners(g, system.board(g))["1306"] == "axis" and g.state.control["1306"] == "axis"


def test_3_21a_a_contested_star_keeps_its_owner() -> None:
    g = game_at("movement")
    place(g, {"ax-20mot-10m": "1010", "so-227rd": "1305"})  # the 227th's zone covers 1306
    _to(g, "ax-20mot-10m", "1207")
    assert system.zone_owners(g, system.board(g))["1306"] is None and g.state.control["1306"] == "soviet"


def test_3_21_a_retreat_that_ends_in_a_star_takes_it() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack, Retreat

    att = ("ax-9rec-9pz", "ax-10mot-9pz")
    g = declared_game({**{u: "1805" for u in att}, "so-11-96-5c": "1806", "so-72-108-9c": None}, "1806", att, [7] * 10)
    g.state.control["1707"] = "axis"  # Shtepovka taken earlier and left empty
    g.apply(Attack("1806", att, ()), side="axis")
    answer_until(g, "retreat")  # 5 to 2, a 7: 1*/R
    g.apply(Retreat(("1706", "1707")), side="soviet")
    assert g.state.units["so-11-96-5c"].hex == "1707" and g.state.control["1707"] == "soviet"


def test_3_13_a_hex_stays_friendly_to_the_last_side_after_it_leaves() -> None:
    g = game_at("movement")
    g.apply(Move(("ax-20mot-10m",), ("1407", "1306", "1305")), side="axis")
    assert g.state.units["ax-20mot-10m"].hex == "1305"
    assert g.state.control["1306"] == "axis" and system.stars_held(g, "soviet") == 6  # 7 stars less Nedrigaylov's


def test_3_41_a_unit_with_no_zone_still_holds_its_own_hex() -> None:
    b = position({"so-2-4gdr": "2107", "ax-9rec-9pz": "1906"}, phasing="axis")
    assert not in_enemy_zoc(b, hx("2007"), "axis")  # the rocket battalion has no zone (3.42)
    assert cost(b, ["ax-9rec-9pz"], "1906 2007 2107") == Illegal(
        "10.54", "2107 holds enemy units: only an overrun attacks them on the move")


def test_3_45_a_zone_reaches_into_hexes_other_units_hold() -> None:
    b = position({"so-295rd": "1612", "ax-35mot-25m": "1511", "ax-119mot-25m": "1611"})
    # the 295th's zone covers both Axis-held hexes next to it, whoever stands in them
    assert in_enemy_zoc(b, hx("1511"), "axis") and in_enemy_zoc(b, hx("1611"), "axis")
    assert projectors(b, hx("1611"), "axis") == frozenset({hx("1612")})


# -- 8: reinforcements ------------------------------------------------------------------------------
def test_8_11_reinforcements_come_on_the_turn_and_hex_of_the_set_up() -> None:
    g = game_at("motorized", "soviet")
    assert system.due(g, "soviet") == list(GD)  # PB 10.4: the 1st Guards Motorized on GT50 at 2202
    assert [g.scenario.map.grid.id(h) for h in system.entry_hexes(g, "so-6-1gdm")] == ["2202"]
    bad = g.check(Move(("so-126-205aa",), ("2202",)), side="soviet")
    assert bad == Illegal("8.1", "these units are not due to arrive yet")  # the AA unit comes on GT51
    assert case(g.check(Move(GD[:3], ("2302",)), side="soviet")) == "8.12"


def test_8_13_entry_waits_while_the_enemy_holds_the_entry_hex() -> None:
    g = game_at("motorized", "soviet")
    place(g, {"ax-9rec-9pz": "2202"})
    assert g.check(Move(GD[:3], ("2202",)), side="soviet") == Illegal(
        "10.54", "2202 holds enemy units: only an overrun attacks them on the move")
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    assert g.state.phase == "movement" and system.due(g, "soviet") == list(GD)  # still due: entry delayed


def test_8_21_non_motorized_reinforcements_enter_only_in_the_movement_phase() -> None:
    g = game_at("motorized", "soviet")
    assert g.check(Move(("so-2-4gdr",), ("2202",)), side="soviet") == Illegal(
        "10.58", "so-2-4gdr moves in the Soviet Motorized phase only if an HQ activates it")
    assert g.check(Move(GD[:3], ("2202", "2302")), side="soviet") is None  # motorized: either phase
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    assert g.state.phase == "movement"
    assert g.check(Move(("so-2-4gdr",), ("2202", "2302")), side="soviet") is None


def test_8_23_air_reinforcements_go_straight_to_the_ready_box() -> None:
    g = game_at("reinforcements", "soviet", turn=2)
    assert g.state.units["ax-bf109"].status == "pending"
    while g.state.phase != "air_interdiction":
        g.apply(EndPhase(), side=g.actor)
    assert [g.state.units[u].status for u in ("ax-bf109", "so-mig3", "so-sb-2")] == ["air_ready"] * 3
    assert not any("ax-bf109 rolls" in e.describe() for e in g.journal)  # no readiness roll for them


# -- 10: movement -------------------------------------------------------------------------------------
def test_10_13_the_movement_phase_allows_strategic_overrun_infiltration_and_one_hex() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612", "ax-20mot-10m": "1006"})
    assert allowance(b, "ax-20mot-10m", "movement", STRATEGIC) == Fraction(21, 2)  # 10.13c
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == 7  # 10.13e
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=ONE_HEX) == 7  # 10.13f, an infiltrator (11.92)
    s = position({"so-6-1gdm": "1710", "ax-119mot-25m": "1709"}, phasing="soviet", phase="movement")
    # 10.13e: no Soviet motorized infiltration in the Soviet Movement phase
    assert case(cost(s, ["so-6-1gdm"], "1710 1810", mode=INFILTRATION)) == "11.52"


def test_10_23_the_motorized_phase_has_overrun_but_no_strategic_or_axis_infiltration() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, phase="motorized")
    assert isinstance(overrun.check(b, PZ, "1805", "motorized"), overrun.Overrun)
    assert case(allowance(b, "ax-20mot-10m", "motorized", STRATEGIC)) == "11.31"
    i = position({"ax-35mot-25m": "1511", "so-295rd": "1612"}, phase="motorized")
    assert case(cost(i, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION)) == "11.53"


def test_10_3_only_motorized_units_react_at_half_their_allowance() -> None:
    b = position({"ax-35mot-25m": "1409", "ax-619art": "1408", "so-5-136-9c": "1606"},
                 phasing="soviet", phase="reaction", declared=frozenset({hx("1407")}))
    assert allowance(b, "ax-35mot-25m", "reaction") == Fraction(7, 2)
    assert allowance(b, "ax-619art", "reaction") == Illegal(
        "10.3", "ax-619art is not a motorized unit: it cannot make Reaction Movement")
    s = b.replace(phasing="axis")
    assert case(allowance(s, "so-5-136-9c", "reaction")) == "10.3"  # cavalry does not react


def test_10_4_hex_by_hex_from_where_the_stack_stands() -> None:
    b = position({"ax-35mot-25m": "1907"})
    assert cost(b, ["ax-35mot-25m"], "1907 2107") == Illegal("10.4", "1907 and 2107 are not adjacent")
    assert cost(b, ["ax-35mot-25m"], "1807 1907") == Illegal(
        "10.4", "the path must begin where the stack stands (1907)")
    assert cost(b, [], "1907 1807") == Illegal("10.4", "choose at least one unit to move")


def test_10_51_any_number_of_units_pass_through_a_full_hex() -> None:
    from kiev_tui.games.efs_ktr import stacking

    b = position({"so-295rd": "1805", "so-227rd": "1805", "so-1tb": "1805", "so-129tb": "1806"},
                 phasing="soviet", phase="motorized")
    assert stacking.hex_points(b, hx("1805")) == 10
    assert cost(b, ["so-129tb"], "1806 1805 1804") == 2  # through the full hex, no refusal
    assert stacking.end_of_phase(b.moved({"so-129tb": hx("1804")}), "motorized") == {}


def test_10_61_friendly_zones_cost_nothing() -> None:
    b = position({"ax-35mot-25m": "1511", "ax-119mot-25m": "1410"})
    assert cost(b, ["ax-35mot-25m"], "1511 1510 1509") == 2  # two clear hexes next to the 119th


def test_10_62_infiltration_and_overrun_are_the_ways_through_enemy_zones() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    assert case(cost(b, ["ax-35mot-25m"], "1511 1512")) == "10.66"  # plain movement stops
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == 7
    o = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    assert isinstance(overrun.check(o, PZ, "1805", "movement"), overrun.Overrun)  # from inside its zone


def test_10_63a_strategic_movement_never_comes_into_an_enemy_zone() -> None:
    b = position({"ax-20mot-10m": "1006", "so-227rd": "1405"})
    # the three-hex rule (11.32d) already keeps a strategic move out of every enemy zone
    assert case(cost(b, ["ax-20mot-10m"], "1006 1106 1206 1306", mode=STRATEGIC)) == "11.32"
    assert in_enemy_zoc(b, hx("1305"), "axis") and not in_enemy_zoc(b, hx("1106"), "axis")


def test_10_63c_a_reacting_unit_enters_a_zone_only_where_friends_stand() -> None:
    b = position({"ax-35mot-25m": "1409", "ax-20mot-10m": "1507", "so-5-136-9c": "1506"},
                 phasing="soviet", phase="reaction", declared=frozenset({hx("1507")}))
    assert in_enemy_zoc(b, hx("1407"), "axis") and in_enemy_zoc(b, hx("1507"), "axis")
    assert cost(b, ["ax-35mot-25m"], "1409 1408 1507", "reaction") == 2  # held by the 20th: no zone MP
    assert case(cost(b, ["ax-35mot-25m"], "1409 1408 1407", "reaction")) == "14.13"  # empty zone hex


def test_10_71_entering_pays_leaving_is_free() -> None:
    b = position({"ax-35mot-25m": "1907"})
    assert cost(b, ["ax-35mot-25m"], "1907 1807") == 1  # out of the woods into clear: clear's 1
    assert cost(b, ["ax-35mot-25m"], "1907 1807 1907") == 4  # back into the woods: 1 + 3


# -- 11: strategic movement, overrun, infiltration, one-hex movement ----------------------------------
def test_11_31_strategic_movement_half_again_in_the_movement_phase_only() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"})
    assert allowance(b, "ax-20mot-10m", "movement", STRATEGIC) == Fraction(21, 2)
    assert allowance(b, "ax-20mot-10m", "movement") == 7
    assert allowance(b, "ax-20mot-10m", "motorized", STRATEGIC) == Illegal(
        "11.31", "strategic movement is made only in the Movement phase")


def test_11_32_strategic_movement_starts_on_a_road_three_hexes_from_the_enemy() -> None:
    off = position({"ax-20mot-10m": "1107", "so-295rd": "1612"})
    assert cost(off, ["ax-20mot-10m"], "1107 1106 1206", mode=STRATEGIC) == Illegal(
        "11.32", "strategic movement begins on a road hex (1107 is not one)")  # 11.32b
    near = position({"ax-20mot-10m": "1006", "so-227rd": "1405"})
    assert cost(near, ["ax-20mot-10m"], "1006 1106 1206", mode=STRATEGIC) == Illegal(
        "11.32", "1206 is 2 hex(es) from an enemy combat unit; strategic movement keeps 3 away")  # 11.32d
    assert cost(near, ["ax-20mot-10m"], "1006 1106", mode=STRATEGIC) == H  # 1106 is 3 away
    assert near.supply_disregarded  # 11.32c: General Supply is not checked in Sumy (PB 10.44a)


def test_11_34_strategic_movement_keeps_to_roads() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"})
    assert cost(b, ["ax-20mot-10m"], "1006 1106 1107", mode=STRATEGIC) == Illegal(
        "11.34", "strategic movement keeps to roads")
    assert cost(b, ["ax-20mot-10m"], "1006 1106 1206 1306 1406", mode=STRATEGIC) == 2


def test_11_45_a_hex_may_be_overrun_again_after_a_failed_attempt() -> None:
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.efs_ktr.actions import Overrun, TakeLosses
    from tests.efs_positions import M16, M25

    g = Game.new("efs_ktr/sumy", dice=FixedDice([9]))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    place(g, {u: "1410" for u in PZ} | {u: "1509" for u in M16 + M25} | {"so-131-160-5c": None})
    g.apply(Overrun(PZ, "1510"), side="axis")  # a 9 fails (11.43m)
    g.apply(TakeLosses(("ax-9rec-9pz",)), side="axis")
    assert g.state.units["so-11-96-5c"].hex == "1510"
    assert case(g.check(Overrun(PZ, "1510"), side="axis")) == "11.43"  # the failed stack is done
    assert g.check(Overrun(M16 + M25, "1510"), side="axis") is None  # another stack may try the same hex


def test_11_51_infiltration_goes_from_one_enemy_zone_into_another() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == 7
    assert cost(b, ["ax-35mot-25m"], "1511 1411", mode=INFILTRATION) == Illegal(
        "11.51", "infiltration goes into another enemy zone; plain movement does the rest")


def test_11_52_a_yellow_ma_motorized_seven_or_more_or_cavalry() -> None:
    s = position({"so-6-1gdm": "1710", "ax-119mot-25m": "1709"}, phasing="soviet", phase="motorized")
    assert cost(s, ["so-6-1gdm"], "1710 1810", mode=INFILTRATION) == Illegal(
        "11.52", "so-6-1gdm has no yellow MA: it cannot infiltrate")  # MA 5
    a = position({"ax-619art": "1511", "so-295rd": "1612"})
    assert case(cost(a, ["ax-619art"], "1511 1512", mode=INFILTRATION)) == "11.52"  # artillery, MA 4


def test_11_52b_cavalry_infiltrates_only_between_non_clear_hexes() -> None:
    c = position({"so-72-108-9c": "1907", "ax-9rec-9pz": "1807"}, phasing="soviet", phase="movement")
    assert cost(c, ["so-72-108-9c"], "1907 1906", mode=INFILTRATION) == 6  # woods into hill
    assert cost(c, ["so-72-108-9c"], "1907 1808", mode=INFILTRATION) == Illegal(
        "11.52", "cavalry infiltrates only from a non-clear hex into a non-clear hex")


def test_11_53_infiltration_only_in_the_phase_of_the_whole_allowance() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"}, phase="motorized")
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == Illegal(
        "11.53", "ax-35mot-25m does not infiltrate in this phase or weather")


def test_11_53a_cavalry_infiltrates_in_the_movement_phase_only() -> None:
    c = position({"so-72-108-9c": "1907", "ax-9rec-9pz": "1807"}, phasing="soviet", phase="motorized")
    assert case(cost(c, ["so-72-108-9c"], "1907 1906", mode=INFILTRATION)) == "11.53"


def test_11_54_infiltration_spends_the_whole_allowance_from_a_fresh_start() -> None:
    b = position({"ax-35mot-25m": "1511", "so-295rd": "1612"})
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION) == 7
    assert cost(b, ["ax-35mot-25m"], "1511 1512", mode=INFILTRATION, spent={"ax-35mot-25m": H}) == Illegal(
        "11.54", "the units have already spent MP this phase")


def test_11_55_infiltration_starts_next_to_an_enemy_unit_in_its_zone() -> None:
    b = position({"ax-35mot-25m": "1510", "so-295rd": "1612"})
    assert cost(b, ["ax-35mot-25m"], "1510 1511", mode=INFILTRATION) == Illegal(
        "11.55", "infiltration begins in an enemy zone, next to an enemy unit")


def test_11_91_one_hex_movement_needs_an_enterable_hex_and_nothing_spent() -> None:
    b = position({"ax-33pz-9pz": "2009"}, phase="motorized")
    assert cost(b, ["ax-33pz-9pz"], "2009 2008", mode=ONE_HEX) == Fraction(7, 2)
    assert cost(b, ["ax-33pz-9pz"], "2009 2008", mode=ONE_HEX, spent={"ax-33pz-9pz": H}) == Illegal(
        "11.91", "the units have already spent MP this phase")
    assert case(cost(b, ["ax-33pz-9pz"], "2009 2008 2007", mode=ONE_HEX)) == "11.91"  # one hex only


def test_11_93_no_overrun_after_one_hex_movement() -> None:
    from kiev_tui.games.efs_ktr import overrun

    # one-hex movement spends the whole allowance, so nothing is left for the overrun's MP (11.42g)
    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    left = {u: Fraction(7) for u in PZ}
    assert case(overrun.check(b, PZ, "1805", "movement", spent=left)) == "11.42"


def test_11_95_any_unit_that_may_move_may_use_one_hex_movement() -> None:
    b = position({"ax-619art": "1907"})  # artillery, MA 4, into the hill_woods 2008 (cost 5 and more)
    assert cost(b, ["ax-619art"], "1907 2008", mode=ONE_HEX) == 4
    s = position({"so-227rd": "1907"}, phasing="soviet", phase="movement")
    assert cost(s, ["so-227rd"], "1907 2008", mode=ONE_HEX) == 4


# -- 12: attack declaration ---------------------------------------------------------------------------
def test_12_11_a_unit_without_attack_strength_cannot_attack() -> None:
    from kiev_tui.games.efs_ktr import handlers

    g = game_at("motorized", "soviet")
    place(g, {"so-126-205aa": "1804", "so-40a-hq": "1804", "so-1tb": "1804", "ax-9rec-9pz": "1805"})
    assert g.check(Declare("1805", ("so-126-205aa", "so-1tb")), side="soviet") == Illegal(
        "12.11", "so-126-205aa has no attack strength: it cannot attack")
    assert case(g.check(Declare("1805", ("so-40a-hq",)), side="soviet")) == "12.11"
    assert g.check(Declare("1805", ("so-1tb",)), side="soviet") is None
    g.apply(Declare("1805", ("so-1tb",)), side="soviet")
    assert handlers.attackers_for(g, "1805") == ["so-1tb"]  # 0-attack units are never offered


def test_12_12_artillery_in_range_is_left_out_of_the_declaration() -> None:
    g = game_at("motorized", "soviet")
    # 1 to 4 without the 619th's support; with it the odds would fall under 1-4
    place(g, {"so-11-96-5c": "1804", "ax-33pz-9pz": "1805", "ax-9rec-9pz": "1805", "ax-619art": "1905"})
    assert g.check(Declare("1805", ("so-11-96-5c",)), side="soviet") is None


def test_12_2_attacking_is_voluntary() -> None:
    g = game_at("movement")
    place(g, {"ax-10mot-9pz": "1804", "ax-11mot-9pz": "1804", "so-11-96-5c": "1805"})
    assert g.check(Declare("1805", ("ax-10mot-9pz",)), side="axis") is None  # one of the two adjacent units
    assert system.check_end_phase(g) is None  # and the phase may end with no attack at all
    g.apply(EndPhase(), side="axis")
    assert g.state.phase == "reaction" and g.state.vars.declared == {}


def test_12_31_one_to_four_is_the_least_declared_odds() -> None:
    from kiev_tui.games.efs_ktr.tables import load_tables
    from kiev_tui.games.efs_ktr import combat
    from tests.test_efs_combat import DATA

    t = load_tables(DATA / "tables.toml")
    assert combat.declarable(2, 8, t) is None
    assert combat.declarable(2, 9, t) == Illegal("12.35", "2 to 9 is worse than 1-4: no attack can be declared")


def test_12_32_the_odds_are_read_when_the_attack_is_declared() -> None:
    g = game_at("movement")
    place(g, {"ax-9rec-9pz": "1804", "so-295rd": "1805"})
    g.apply(Declare("1805", ("ax-9rec-9pz",)), side="axis")  # 2 to 8: 1-4
    place(g, {"so-227rd": "1805"})  # later strength changes do not lift the marker (12.36 rules the attack)
    assert g.state.vars.declared == {"1805": ["ax-9rec-9pz"]} and "declared" in " ".join(g.state.hex_markers["1805"])


def test_12_33_the_attack_total_is_the_named_non_artillery_units() -> None:
    g = game_at("movement")
    place(g, {"ax-9rec-9pz": "1804", "ax-619art": "1804", "ax-10mot-9pz": "1806", "so-295rd": "1805",
              "so-227rd": "1805"})
    assert g.check(Declare("1805", ("ax-9rec-9pz",)), side="axis") == Illegal(
        "12.35", "2 to 12 is worse than 1-4: no attack can be declared")
    assert g.check(Declare("1805", ("ax-9rec-9pz", "ax-10mot-9pz")), side="axis") is None  # 5 to 12
    assert g.check(Declare("1805", ("ax-9rec-9pz", "ax-619art")), side="axis") == Illegal(
        "12.33", "ax-619art is artillery: its support is not counted at declaration")


def test_12_34_defending_artillery_adds_no_defence_to_the_declaration() -> None:
    g = game_at("motorized", "soviet")
    # 1 against 2 + 2 (the 619th's 1 not counted): 1-4; counted, 1 to 5 would be refused
    place(g, {"so-11-96-5c": "1804", "ax-33pz-9pz": "1805", "ax-9rec-9pz": "1805", "ax-619art": "1805"})
    assert g.check(Declare("1805", ("so-11-96-5c",)), side="soviet") is None


def test_12_51_an_attack_from_a_hex_in_the_defenders_zone() -> None:
    g = game_at("movement")
    # 1613 is swamp with no road: the 35th (motorized) could not enter it, but the AA unit's zone
    # covers its hex, so it may attack
    place(g, {"so-295rd": None, "so-2-4gdr": "1613", "so-126-205aa": "1613", "ax-35mot-25m": "1612"})
    assert g.check(Declare("1613", ("ax-35mot-25m",)), side="axis") is None


def test_12_52_an_attack_on_a_hex_with_no_zone_that_the_unit_could_enter() -> None:
    g = game_at("movement")
    place(g, {"so-2-4gdr": "1805", "ax-35mot-25m": "1804"})  # the rocket battalion has no zone; clear hex
    assert g.check(Declare("1805", ("ax-35mot-25m",)), side="axis") is None


def test_12_61_no_zone_and_no_way_in_means_no_attack() -> None:
    from kiev_tui.games.efs_ktr import handlers, movement

    g = game_at("movement")
    place(g, {"so-295rd": None, "so-2-4gdr": "1613", "ax-35mot-25m": "1612"})
    assert g.check(Declare("1613", ("ax-35mot-25m",)), side="axis") == Illegal(
        "12.61", "ax-35mot-25m cannot attack 1613: no zone from it covers 1612 and ax-35mot-25m could not enter it")
    assert handlers.attackers_for(g, "1613") == []
    # cavalry is no motorized unit: it could enter the swamp, so from 1612 it may attack 1613
    b = system.board(g)
    assert not movement.could_enter(b, "ax-35mot-25m", hx("1612"), hx("1613"))
    assert movement.could_enter(b, "so-5-136-9c", hx("1612"), hx("1613"))


# -- 13: interdiction ---------------------------------------------------------------------------------
def test_13_12_interdiction_only_in_the_axis_air_interdiction_phase() -> None:
    from kiev_tui.games.efs_ktr.actions import Interdict

    g = game_at("air_interdiction")
    assert g.check(Interdict("1904"), side="axis") is None
    m = game_at("movement")
    assert m.check(Interdict("1904"), side="axis") == Illegal(
        "13.12", "interdiction missions are flown in the Axis Air Interdiction phase")


def test_13_13_one_mission_a_hex() -> None:
    from kiev_tui.games.efs_ktr.actions import Interdict

    g = game_at("air_interdiction")
    g.state.vars.interdiction["1904"] = 0  # a mission already flown there this turn
    assert g.check(Interdict("1904"), side="axis") == Illegal(
        "13.13", "1904 already has an interdiction mission this turn")
    assert g.check(Interdict("2303"), side="axis") is None  # any other hex, Sumy's all in range (PB 10.44f)


def test_13_16_interdiction_markers_come_off_in_the_interphase() -> None:
    g = game_at("movement")
    g.state.vars.interdiction["1904"] = 1
    while g.state.turn == 1:
        g.apply(EndPhase(), side=g.actor)
    assert g.state.vars.interdiction == {}


def test_13_23_no_strategic_movement_through_or_from_an_interdicted_hex() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"})
    through = b.replace(interdicted=frozenset({hx("1206")}))
    assert cost(through, ["ax-20mot-10m"], "1006 1106 1206", mode=STRATEGIC) == Illegal(
        "13.23", "1206 is in a Zone of Interdiction: no strategic movement")
    start_in = b.replace(interdicted=frozenset({hx("1006")}))
    assert case(cost(start_in, ["ax-20mot-10m"], "1006 1106", mode=STRATEGIC)) == "13.23"


def test_13_26_plain_movement_ignores_interdiction() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"})
    ruled = b.replace(interdicted=frozenset({hx("1106"), hx("1206")}))
    path = "1006 1106 1206 1306"
    assert cost(ruled, ["ax-20mot-10m"], path) == cost(b, ["ax-20mot-10m"], path) == Fraction(3, 2)


# -- 14: defender reaction, artillery, orders ---------------------------------------------------------
def _reacting(**fields: object) -> Board:
    """The Soviet attacks 1507 (declared); Axis motorized units stand about it in the Reaction phase."""
    units = {"ax-35mot-25m": "1409", "ax-20mot-10m": "1507", "so-5-136-9c": "1506", "ax-119mot-25m": "1606",
             "ax-60mot-16m": "1204"}
    return position(units, phasing="soviet", phase="reaction", declared=frozenset({hx("1507")}), **fields)


def test_14_11_reaction_within_three_hexes_of_a_defender_hex() -> None:
    b = _reacting()
    assert hx("1409").distance(hx("1507")) == 2 and hx("1204").distance(hx("1507")) == 5
    assert allowance(b, "ax-35mot-25m", "reaction") == Fraction(7, 2)
    assert allowance(b, "ax-60mot-16m", "reaction") == Illegal(
        "14.11", "ax-60mot-16m is not within three hexes of a Defender Hex")
    assert case(allowance(b.replace(declared=frozenset()), "ax-35mot-25m", "reaction")) == "14.11"


def test_14_11a_no_reaction_from_an_enemy_zone_or_the_defender_hex() -> None:
    b = _reacting()
    assert in_enemy_zoc(b, hx("1606"), "axis")
    assert allowance(b, "ax-119mot-25m", "reaction") == Illegal(
        "14.11", "ax-119mot-25m begins in an enemy zone or a Defender Hex")
    assert case(allowance(b, "ax-20mot-10m", "reaction")) == "14.11"  # in the Defender Hex


def test_14_11b_no_reaction_under_an_overrun_marker() -> None:
    b = _reacting(overrun_marked=frozenset({"ax-35mot-25m"}))
    assert allowance(b, "ax-35mot-25m", "reaction") == Illegal(
        "14.11", "ax-35mot-25m carries an Overrun or Out of Supply marker")


def test_14_12_a_reaction_may_go_anywhere_even_away_from_the_combat() -> None:
    b = _reacting()
    assert cost(b, ["ax-35mot-25m"], "1409 1309 1209", "reaction") == 2  # away from 1507


def test_14_21_defending_artillery_supports_one_combat_only() -> None:
    from kiev_tui.games.efs_ktr import handlers

    g = game_at("combat")
    place(g, {"ax-619art": "1804", "so-11-96-5c": "1806"})
    g.state.vars.declared.update({"1805": ["so-11-96-5c"], "1905": ["so-11-96-5c"]})
    assert handlers.artillery_for(g, "1805", "axis") == ["ax-619art"]
    g.state.vars.fought.append("ax-619art")  # committed to one combat
    assert handlers.artillery_for(g, "1905", "axis") == []


def test_14_22_artillery_supports_a_defender_hex_up_to_three_hexes_away() -> None:
    from kiev_tui.games.efs_ktr import handlers

    g = game_at("combat")  # the chart card's qualifiers are not in our text: three hexes (docs/rulings.md)
    place(g, {"ax-619art": "1603"})
    assert hx("1603").distance(hx("1805")) == 3 and hx("1603").distance(hx("1905")) == 4
    assert handlers.artillery_for(g, "1805", "axis") == ["ax-619art"]
    assert handlers.artillery_for(g, "1905", "axis") == []


def test_14_33_axis_defender_hexes_take_orders_without_limit() -> None:
    from kiev_tui.games.efs_ktr import combat
    from kiev_tui.games.efs_ktr.combat import ADDITIONAL_RETREAT, NO_RETREAT

    assert combat.order_allowed("axis", NO_RETREAT, 0, False) is None
    assert combat.order_allowed("axis", ADDITIONAL_RETREAT, 0, True) is None
    assert case(combat.order_allowed("soviet", NO_RETREAT, 0, False)) == "14.34a"


def test_14_34a_a_soviet_order_needs_an_operational_hq_with_a_point_left() -> None:
    from kiev_tui.games.efs_ktr import combat
    from kiev_tui.games.efs_ktr.combat import NO_RETREAT

    assert combat.order_allowed("soviet", NO_RETREAT, 0, False) == Illegal(
        "14.34a", "no operational HQ in range with a command point left")
    assert combat.order_allowed("soviet", NO_RETREAT, 1, False) is None


def test_14_34b_a_non_op_hq_in_range_forbids_soviet_orders() -> None:
    from kiev_tui.games.efs_ktr import combat
    from kiev_tui.games.efs_ktr.combat import ADDITIONAL_RETREAT

    assert combat.order_allowed("soviet", ADDITIONAL_RETREAT, 2, True) == Illegal(
        "14.34b", "a Non-Op HQ in range forbids Soviet orders")


# -- 15-16: combat ------------------------------------------------------------------------------------
def declared_game(units: dict[str, str | None], target: str, attackers: tuple[str, ...], rolls: list[int]) -> Game:
    """Axis Movement phase of GT50 with ``units`` placed by hand, an attack declared on ``target``
    by ``attackers``, and the game moved on to the Axis Combat phase; the dice give ``rolls``."""
    from kiev_tui.engine.dice import FixedDice

    g = Game.new("efs_ktr/sumy", dice=FixedDice(rolls))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    place(g, units)
    g.apply(Declare(target, attackers), side="axis")
    while handlers.owed_declarations(g):  # 12.7: the other hexes whose zones reach the attackers
        g.apply(handlers.owed_declarations(g)[0][2], side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    assert g.state.phase == "combat"
    return g


def answer_until(g: Game, kind: str | None = None, picks: dict[str, int] | None = None) -> None:
    """Answers each combat prompt with its first option (or ``picks[kind]``) until a prompt of
    ``kind`` waits (None: until the combat is over)."""
    for _ in range(40):
        p = g.rules.prompt(g)
        if p is None or p.kind == kind:
            return
        g.apply(p.options[(picks or {}).get(p.kind, 0)].action, side=p.side)
    raise AssertionError("the combat did not end")


def notes(g: Game) -> list[str]:
    return [e.describe() for e in g.journal]


def test_15_11_close_air_support_is_placed_in_the_combat_phase() -> None:
    from kiev_tui.games.efs_ktr.actions import AirMission, Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, "1805", PZ, [5] * 10)
    assert case(g.check(AirMission("ax-he111"), side="axis")) == "15.0"  # no combat under way yet
    g.apply(Attack("1805", PZ, ()), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("air_mission", "axis", "17.21")
    assert g.check(AirMission("ax-he111"), side="axis") is None


def test_15_13_the_surviving_mission_units_cas_ratings_are_totalled_per_side() -> None:
    from kiev_tui.games.efs_ktr import air
    from kiev_tui.games.efs_ktr.chain import air_unit

    g = game_at("movement")
    he111, sb1, sb2 = (air_unit(g, u) for u in ("ax-he111", "so-sb-1", "so-sb-2"))
    assert air.cas_points([he111], [sb1, sb2]) == (he111.cas, sb1.cas + sb2.cas) == (1, 2)
    assert air.cas_points([], [sb1]) == (0, 1)


def test_15_22_every_adjacent_unit_may_join_the_attack() -> None:
    from kiev_tui.games.efs_ktr import handlers

    g = declared_game({"ax-10mot-9pz": "1804", "ax-11mot-9pz": "1806", "ax-35mot-25m": "1905",
                       "so-11-96-5c": "1805"}, "1805", ("ax-10mot-9pz",), [5] * 10)
    assert sorted(handlers.attackers_for(g, "1805")) == ["ax-10mot-9pz", "ax-11mot-9pz", "ax-35mot-25m"]


def test_15_23_no_unit_attacks_or_is_attacked_twice_a_phase() -> None:
    from kiev_tui.games.efs_ktr import handlers
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, "1805", PZ, [7] * 10)
    assert case(g.check(Declare("1805", PZ), side="axis")) == "12.3"
    g.apply(Attack("1805", PZ, ()), side="axis")
    answer_until(g)
    assert set(PZ) <= set(g.state.vars.fought)
    place(g, {"so-5-136-9c": "1704"})  # a second enemy next to the same units
    g.state.vars.declared["1704"] = list(PZ)
    assert handlers.attackers_for(g, "1704") == []  # every one of them has attacked
    assert g.check(Attack("1704", PZ[:1], ()), side="axis") == Illegal(
        "15.21", "ax-33pz-9pz cannot attack 1704: not next to it, artillery, or already in a combat")


def test_15_23_a_declared_hex_is_declared_once() -> None:
    g = game_at("movement")
    place(g, {"ax-10mot-9pz": "1804", "ax-11mot-9pz": "1806", "so-11-96-5c": "1805"})
    g.apply(Declare("1805", ("ax-10mot-9pz",)), side="axis")
    assert g.check(Declare("1805", ("ax-11mot-9pz",)), side="axis") == Illegal(
        "15.23", "1805 already carries a Declared Attack marker")


def test_15_24_every_unit_in_the_defender_hex_defends() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805", "so-2-4gdr": "1805"}, "1805", PZ, [5] * 10)
    g.apply(Attack("1805", PZ, ()), side="axis")
    answer_until(g, "take_losses")
    # the cavalry's 2 and the rocket battalion's 1 (it supports no other combat, 15.54)
    assert "Combat at 1805: 10 to 3, 3-1, DRM -2; roll 5: -/1 (15.8)" in notes(g)


def test_15_25_a_unit_is_named_once_in_a_combat() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, "1805", PZ, [5] * 10)
    assert g.check(Attack("1805", PZ + PZ[:1], ()), side="axis") == Illegal("15.25", "a unit is listed twice")


def test_15_59_the_defenders_order_is_turned_up_before_the_roll() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"}, "1805", PZ, [5] * 10)
    g.apply(Attack("1805", PZ, ()), side="axis")
    answer_until(g, "reveal_order", picks={"set_order": 1})
    assert not any("defender order on 1805" in n for n in notes(g))
    answer_until(g, "take_losses")
    said = notes(g)
    turned = said.index("defender order on 1805: no retreat (15.59)")
    assert turned < next(i for i, n in enumerate(said) if n.startswith("Combat at 1805"))


def test_16_11e_a_retreat_result_moves_the_survivors_two_hexes() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    # the 9th Recon and the 619th's support: 4 to 2, 2-1; a 7 reads 1*/R (16.11b, d, e)
    g = declared_game({"ax-9rec-9pz": "1804", "ax-619art": "1603", "so-11-96-5c": "1805"}, "1805",
                      ("ax-9rec-9pz",), [7] * 10)
    g.apply(Attack("1805", ("ax-9rec-9pz",), ("ax-619art",)), side="axis")
    answer_until(g, "take_losses")
    answer_until(g)
    assert "Combat at 1805: 4 to 2, 2-1, DRM +0; roll 7: 1*/R (15.8)" in notes(g)
    assert g.state.units["ax-9rec-9pz"].step == 1
    assert g.state.units["so-11-96-5c"].hex not in ("1805", None)  # retreated
    assert hx(g.state.units["so-11-96-5c"].hex).distance(hx("1805")) == 2


def test_16_12_artillery_away_from_the_combat_takes_no_losses() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({"ax-9rec-9pz": "1804", "ax-619art": "1603", "so-11-96-5c": "1805"}, "1805",
                      ("ax-9rec-9pz",), [7] * 10)
    g.apply(Attack("1805", ("ax-9rec-9pz",), ("ax-619art",)), side="axis")
    answer_until(g)  # 1*/R: the attacker's step can only be the recon's, so no one is asked
    assert "axis loses 1 step(s): ax-9rec-9pz -1 (16.2)" in notes(g)
    assert (g.state.units["ax-619art"].hex, g.state.units["ax-619art"].step) == ("1603", 0)


def test_16_13_artillery_in_the_defender_hex_shares_its_losses() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805", "so-2-4gdr": "1805"}, "1805", PZ, [5] * 10)
    g.apply(Attack("1805", PZ, ()), side="axis")
    answer_until(g, "take_losses")
    p = g.rules.prompt(g)
    assert p.side == "soviet" and [o.action.units for o in p.options] == [("so-11-96-5c",), ("so-2-4gdr",)]


def test_16_51_the_advance_is_offered_at_once_and_may_be_declined() -> None:
    from kiev_tui.games.efs_ktr.actions import Advance, Attack

    g = declared_game({u: "1804" for u in PZ} | {"so-11-96-5c": "1805", "ax-619art": "1603"}, "1805", PZ, [7] * 10)
    g.apply(Attack("1805", PZ, ("ax-619art",)), side="axis")
    answer_until(g, "advance")
    p = g.rules.prompt(g)
    assert (p.side, p.case) == ("axis", "16.5") and p.options[0].action == Advance(())
    g.apply(Advance(()), side="axis")
    assert {g.state.units[u].hex for u in PZ} == {"1804"} and g.state.pending is None


# -- 17: air units and missions -----------------------------------------------------------------------
def interdiction_game(rolls: list[int]) -> Game:
    """GT50's Axis Air Interdiction phase; the Axis names 1904 (the 40th Army HQ's hex)."""
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.efs_ktr.actions import Interdict

    g = Game.new("efs_ktr/sumy", dice=FixedDice(rolls))
    while g.state.phase != "air_interdiction":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Interdict("1904"), side="axis")
    return g


def test_17_11_fighters_and_bombers_have_no_steps_to_lose_in_ground_combat() -> None:
    from kiev_tui.games.efs_ktr.chain import air_unit

    g = game_at("movement")
    assert [air_unit(g, u).role for u in ("ax-bf109", "ax-he111", "so-i16", "so-sb-1")] == [
        "fighter", "bomber", "fighter", "bomber"]
    b = system.board(g)
    assert all(u not in b.hex_of for u in ("ax-he111", "so-i16"))  # never on the map, never a ground loss


def test_17_23_the_axis_places_interdiction_first_then_soviet_fighters_oppose() -> None:
    from kiev_tui.games.efs_ktr.actions import AirMission

    g = interdiction_game([1])
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("air_mission", "axis")
    assert case(g.check(AirMission("so-i16"), side="soviet")) == "4.2"  # not the Soviet's turn yet
    g.apply(AirMission("ax-he111"), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("air_mission", "soviet")
    assert sorted(o.action.units for o in p.options) == ["", "so-i16"]  # only fighters oppose (13.11)


def test_17_25_air_units_go_face_down_until_air_combat() -> None:
    from kiev_tui.engine.view import view
    from kiev_tui.games.efs_ktr.actions import AirMission

    g = interdiction_game([1])
    g.apply(AirMission("ax-he111"), side="axis")
    sov = view(g, "soviet")
    assert sov.secrets == {} and "air" in sov.commitments["axis"]
    assert not any("ax-he111" in e.describe() for e in sov.events)
    answer_until(g)
    assert "axis air units on 1904: ax-he111 (17.31)" in notes(g)


def test_17_26_units_that_flew_go_to_the_flown_box() -> None:
    from kiev_tui.games.efs_ktr.actions import AirMission

    g = interdiction_game([1])
    g.apply(AirMission("ax-dummy-1,ax-he111"), side="axis")
    answer_until(g)
    # the dummy, turned up, went back to the Ready Box (17.31a); the He111 flew: Flown
    assert [g.state.units[u].status for u in ("ax-he111", "ax-dummy-1", "ax-bf109")] == [
        "air_flown", "air_ready", "pending"]


def test_17_44_a_unit_that_survives_aa_fire_flies_its_mission_then_goes_to_flown() -> None:
    from kiev_tui.games.efs_ktr.actions import AirMission

    g = interdiction_game([1])  # the HQ's AA fire rolls a 1: no effect
    g.apply(AirMission("ax-he111"), side="axis")
    answer_until(g)
    assert g.state.vars.interdiction == {"1904": 2} and g.state.units["ax-he111"].status == "air_flown"


# -- 22: Soviet HQs and Guards ------------------------------------------------------------------------
def test_22_11_an_hq_commands_four_hexes_round_it() -> None:
    from kiev_tui.games.efs_ktr.actions import Activate

    g = game_at("motorized", "soviet")
    assert hx("1904").distance(hx("1503")) == 4 and hx("1904").distance(hx("1612")) == 9
    assert g.check(Activate("so-40a-hq", "so-227rd"), side="soviet") is None  # 1503: four hexes
    assert g.check(Activate("so-40a-hq", "so-295rd"), side="soviet") == Illegal(
        "22.11", "so-295rd is beyond so-40a-hq's command range of 4")


def test_22_13_command_points_are_not_saved_for_a_later_turn() -> None:
    from kiev_tui.games.efs_ktr.actions import Activate

    g = game_at("motorized", "soviet")
    g.apply(Activate("so-40a-hq", "so-227rd"), side="soviet")
    place(g, {"so-295rd": "1803"})
    assert g.check(Activate("so-40a-hq", "so-295rd"), side="soviet") == Illegal(
        "22.12", "so-40a-hq has no command point left this turn")
    while g.state.turn == 1:
        g.apply(EndPhase(), side=g.actor)
    assert g.state.vars.hq_points == {}  # the next turn starts afresh, with nothing carried over


def test_22_41_one_guards_unit_per_hq_on_top_of_its_command_value() -> None:
    from kiev_tui.games.efs_ktr.actions import Activate

    g = game_at("motorized", "soviet")
    place(g, {"so-2-4gdr": "2004", "so-295rd": "1803"})
    g.apply(Activate("so-40a-hq", "so-227rd"), side="soviet")  # the HQ's one command point
    assert g.check(Activate("so-40a-hq", "so-295rd"), side="soviet") == Illegal(
        "22.12", "so-40a-hq has no command point left this turn")
    assert g.check(Activate("so-40a-hq", "so-2-4gdr"), side="soviet") is None  # the free Guards activation
    g.apply(Activate("so-40a-hq", "so-2-4gdr"), side="soviet")
    assert g.state.vars.hq_guards == ["so-40a-hq"] and g.state.vars.activated == ["so-227rd", "so-2-4gdr"]


# -- lettered parts the engine's code names -----------------------------------------------------------
def test_10_13d_overruns_are_movement_phase_moves() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    assert isinstance(overrun.check(b, PZ, "1805", "movement"), overrun.Overrun)
    assert overrun.check(b, PZ, "1805", "reaction") == Illegal(
        "11.4", "overruns are made in the Movement and Motorized Movement phases")


def test_10_58b_axis_artillery_has_no_motorized_or_reaction_move() -> None:
    b = position({"ax-619art": "1309"}, phase="motorized")
    assert allowance(b, "ax-619art", "motorized") == Illegal(
        "10.58", "ax-619art does not move in the Axis Motorized Movement phase")
    assert allowance(b, "ax-619art", "movement") == 4


def test_10_58c_soviet_artillery_and_aa_move_in_the_motorized_phase_only_if_activated() -> None:
    b = position({"so-2-4gdr": "2004", "so-126-205aa": "2004"}, phasing="soviet", phase="motorized")
    assert allowance(b, "so-126-205aa", "motorized") == Illegal(
        "10.58", "so-126-205aa moves in the Soviet Motorized phase only if an HQ activates it")
    assert allowance(b.replace(activated=frozenset({"so-2-4gdr"})), "so-2-4gdr", "motorized") == 8


def test_11_32d_strategic_movement_stays_three_hexes_from_enemy_combat_units() -> None:
    near = position({"ax-20mot-10m": "1006", "so-227rd": "1405"})
    assert hx("1106").distance(hx("1405")) == 3 and hx("1206").distance(hx("1405")) == 2
    assert cost(near, ["ax-20mot-10m"], "1006 1106", mode=STRATEGIC) == H
    assert case(cost(near, ["ax-20mot-10m"], "1006 1106 1206", mode=STRATEGIC)) == "11.32"


def test_11_32e_no_strategic_movement_through_a_zone_of_interdiction() -> None:
    b = position({"ax-20mot-10m": "1006", "so-295rd": "1612"}, interdicted=frozenset({hx("1306")}))
    assert cost(b, ["ax-20mot-10m"], "1006 1106 1206", mode=STRATEGIC) == 1
    assert cost(b, ["ax-20mot-10m"], "1006 1106 1206 1306", mode=STRATEGIC) == Illegal(
        "13.23", "1306 is in a Zone of Interdiction: no strategic movement")


def test_11_42c1_no_overrun_into_swamp_but_in_frost() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1612" for u in PZ} | {"so-11-96-5c": "1613"})
    assert overrun.check(b, PZ, "1613", "movement") == Illegal(
        "11.42", "a swamp hex is overrun only in Frost weather")


def test_11_42c2_a_city_is_overrun_only_with_a_motorized_engineer_at_12_1() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "2302" for u in PZ} | {"so-2-4gdr": "2303"})  # Sumy is a city; no Axis engineer
    assert overrun.check(b, PZ, "2303", "movement") == Illegal(
        "11.42", "a city is overrun only by a stack with a motorized engineer, at 12-1")


def test_11_42f_artillery_never_overruns() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({"ax-619art": "1804", "ax-20mot-10m": "1804", "so-11-96-5c": "1805"})
    assert overrun.check(b, ["ax-619art", "ax-20mot-10m"], "1805", "movement") == Illegal(
        "11.42", "ax-619art is artillery: it may not take part in an overrun")


def test_11_42g_an_overrun_needs_the_mp_to_pay_for_it() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    got = overrun.check(b, PZ, "1805", "movement", spent={u: Fraction(6) for u in PZ})
    assert got == Illegal("11.42", "ax-33pz-9pz has 1 MP left; the overrun costs 2")


def test_11_43a_the_target_is_next_to_the_overrunning_stack() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "2005"})
    assert overrun.check(b, PZ, "2005", "movement") == Illegal("11.43", "2005 is not next to the overrunning stack")


def test_11_43d_the_stacks_attack_against_every_defender() -> None:
    from kiev_tui.games.efs_ktr import overrun

    b = position({u: "1804" for u in PZ} | {"so-11-96-5c": "1805"})
    got = overrun.check(b, PZ, "1805", "movement")
    # a made-up position has every unit at full strength: the 33rd's 6 + 3 + 3 + 2
    assert isinstance(got, overrun.Overrun) and (got.attack, got.defence, got.odds) == (14, 2, 7)
    b2 = b.moved({"so-2-4gdr": hx("1805")})
    assert overrun.check(b2, PZ, "1805", "movement") == Illegal(
        "11.42", "odds of 14 to 3 are under the 5-1 an overrun needs")  # 11.43e: the rocket's 1 counts


def test_11_43g_a_target_of_artillery_only_is_easier() -> None:
    from kiev_tui.games.efs_ktr import combat
    from tests.test_efs_combat import M

    o = combat.OverrunInput(10, 2, True, defender_all_artillery=True)
    assert [(m.case, m.die_modifier) for m in combat.overrun_modifiers(o, M)] == [("11.43f", 2), ("11.43g", -1)]


def test_11_43h_terrain_modifiers_add_up_and_the_net_is_held_to_three() -> None:
    from kiev_tui.games.efs_ktr import combat
    from tests.test_efs_combat import M

    o = combat.OverrunInput(10, 2, True, terrain=("hill", "woods"))
    assert [(m.case, m.die_modifier) for m in combat.overrun_modifiers(o, M)] == [
        ("11.43f", 2), ("11.43h", 2), ("11.43h", 1), ("11.43h", -2)]  # +5 held to +3


def test_11_43i_the_overrun_table_read_with_the_net_modifier() -> None:
    from kiev_tui.games.efs_ktr import combat
    from tests.test_efs_combat import M

    o = combat.OverrunInput(10, 2, True)  # 5-1: +2
    got = [combat.resolve_overrun(o, M, r) for r in (5, 7, 9)]
    assert [(x.modified, x.succeeded, x.attacker_steps) for x in got] == [(7, True, 0), (9, False, 0), (11, False, 1)]


def test_11_44a_an_overrun_marker_takes_the_zone_away() -> None:
    from kiev_tui.games.efs_ktr.zoc import hex_exerts

    b = position({"so-11-96-5c": "1805"})
    assert hex_exerts(b, hx("1805")) and in_enemy_zoc(b, hx("1804"), "axis")
    m = b.replace(overrun_marked=frozenset({"so-11-96-5c"}))
    assert not hex_exerts(m, hx("1805")) and not in_enemy_zoc(m, hx("1804"), "axis")


def test_13_24c_interdiction_over_the_hq_takes_its_retreat_orders() -> None:
    from kiev_tui.games.efs_ktr import chain

    g = game_at("combat")
    c = {"kind": "attack", "hex": "1805", "attacker": "axis", "defender": "soviet", "attackers": []}
    assert chain.order_hq(g, c, "soviet") == "so-40a-hq"
    g.state.vars.interdiction["1904"] = 1  # Level One over the HQ: its one command point is gone
    g.memo.clear()
    assert chain.order_hq(g, c, "soviet") is None and not chain.may_order(g, c, "soviet")


def test_14_11c_a_soviet_unit_reacts_only_on_an_hq_command_point() -> None:
    from kiev_tui.games.efs_ktr import handlers

    g = game_at("reaction")
    place(g, {"so-1tb": "1504", "so-129tb": "1612"})
    assert hx("1904").distance(hx("1504")) == 4 and hx("1904").distance(hx("1612")) > 4
    assert handlers.react_hqs(g, ("so-1tb",)) == {"so-1tb": "so-40a-hq"}
    assert handlers.react_hqs(g, ("so-129tb",)) is None  # no HQ in range
    g.state.vars.hq_react = {"so-40a-hq": ["so-12-1gdm"]}  # its one point spent
    assert handlers.react_hqs(g, ("so-1tb",)) is None


def test_15_68b_a_motorized_division_needs_a_panzer_division_beside_it() -> None:
    from kiev_tui.games.efs_ktr import combat as c
    from tests.test_efs_combat import fight, gen

    d = (gen("d", "rifle", 1, 3),)
    pz = dict(division="9 Pz", german=True)
    mot = dict(division="16 Mot", german=True)
    full_pz = (gen("pz", "armor", **pz), gen("m1", "motorized", **pz), gen("r", "recon", **pz))
    mot_div = (gen("n1", "motorized", **mot), gen("n2", "motorized", **mot), gen("nr", "recon", **mot))
    assert c.integrity_divisions(fight(mot_div, d)) == ()
    assert c.integrity_divisions(fight((*full_pz, *mot_div), d)) == ("9 Pz", "16 Mot")


def test_16_41a1_german_units_under_no_retreat_lose_no_more() -> None:
    from kiev_tui.games.efs_ktr import combat as c
    from kiev_tui.games.efs_ktr.combat import NO_RETREAT, CombatInput
    from tests.test_efs_combat import T, gen

    cell = T.crt.cell("6-1", 2)  # -/3R
    german = CombatInput("soviet", (gen("a", "rifle", 9),), (gen("d", "motorized", 1, 9, 4, german=True),),
                         defence_order=NO_RETREAT)
    _, d = c.read_cell(german, cell)
    assert (d.steps, d.retreat, d.order_steps) == (4, 0, 1)  # the R's one step, nothing more


def test_17_32b2_no_air_combat_sends_the_firers_home_and_the_mission_goes_on() -> None:
    from kiev_tui.games.efs_ktr.actions import AirMission

    g = interdiction_game([6, 1])  # initiative 6: no air combat; the HQ's AA then rolls a 1
    g.apply(AirMission("ax-he111"), side="axis")
    g.apply(AirMission("so-i16"), side="soviet")
    answer_until(g)
    assert "air initiative roll 6: no air combat (17.32)" in notes(g)
    assert g.state.units["so-i16"].status == "air_flown" and g.state.vars.interdiction == {"1904": 2}


def test_17_33b_all_air_units_fire_at_once() -> None:
    from kiev_tui.games.efs_ktr import air
    from tests.test_efs_air import M, plane

    bf, i16 = plane("ax-bf109"), plane("so-i16")
    # the I-16 is destroyed by the same volley in which it fires back and turns the Bf109 away
    assert air.air_combat([(bf, i16), (i16, bf)], [1, 1], M) == {"so-i16": "X", "ax-bf109": "A"}


def test_17_33c_the_column_is_the_firers_acr_less_the_targets() -> None:
    from kiev_tui.games.efs_ktr import air
    from tests.test_efs_air import M, plane

    bf, i16 = plane("ax-bf109"), plane("so-i16")
    assert (bf.acr, i16.acr) == (4, 1)
    assert [air.fire(bf, i16, r, M) for r in (1, 6, 8, 9)] == ["X", "D", "A", "-"]  # the +3 column
    assert [air.fire(i16, bf, r, M) for r in (1, 2)] == ["A", "-"]  # the -3 column


def test_22_12a_an_hq_activates_non_motorized_units_one_per_command_point() -> None:
    from kiev_tui.games.efs_ktr.actions import Activate

    g = game_at("motorized", "soviet")
    assert g.check(Activate("so-40a-hq", "so-72-108-9c"), side="soviet") == Illegal(
        "22.12", "so-72-108-9c moves in this phase anyway: only non-motorized units are activated")
    g.apply(Activate("so-40a-hq", "so-227rd"), side="soviet")
    assert g.state.vars.hq_points == {"so-40a-hq": 1} and g.state.vars.activated == ["so-227rd"]


def test_22_12c_orders_a_segment_up_to_the_command_value() -> None:
    from kiev_tui.games.efs_ktr import chain

    g = game_at("combat")
    c = {"kind": "attack", "hex": "1805", "attacker": "axis", "defender": "soviet", "attackers": []}
    chain.spend_order_point(g, c, "soviet")
    assert g.state.vars.hq_orders == {"so-40a-hq": 1} and chain.order_hq(g, c, "soviet") is None


# -- PB 10.41-10.44: the Battle of Sumy's own rules ---------------------------------------------------
def test_pb_10_41_four_dry_turns_gt50_to_gt53() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    turns = []
    while not g.state.over:
        b = system.board(g)
        turns.append((b.game_turn, b.weather))
        assert g.rules.prompt(g) is None
        g.apply(EndPhase(), side=g.actor)
    assert sorted(set(turns)) == [(50, "dry"), (51, "dry"), (52, "dry"), (53, "dry")]
    assert g.state.turn == 4 and g.rules.score(g).winner == "soviet"  # no star taken: PB 10.45b1


def test_pb_10_42_the_sumy_special_map_only() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    m = g.scenario.map
    assert (m.columns, m.rows) == (17, 12)
    assert m.on_map(hx("1002")) and m.on_map(hx("2613")) and not m.on_map(hx("2714"))
    s = game_at("motorized", "soviet")
    assert case(s.check(Move(GD[:3], ("2203",)), side="soviet")) == "8.12"  # 2202 is the only way in


def test_pb_10_43b_air_readiness_is_rolled_from_gt51() -> None:
    from kiev_tui.engine.dice import FixedDice

    g = Game.new("efs_ktr/sumy", dice=FixedDice([5] * 10))
    g.state.units["ax-he111"].status = "air_flown"
    while (g.state.turn, g.state.phase) != (1, "air_interdiction"):
        g.apply(EndPhase(), side=g.actor)
    assert g.state.units["ax-he111"].status == "air_flown"  # GT50: no roll
    while (g.state.turn, g.state.phase) != (2, "air_interdiction"):
        g.apply(EndPhase(), side=g.actor)
    assert "ax-he111 rolls 5: to ready (9.11)" in notes(g)


def test_pb_10_44a_no_supply_attack_supply_or_surrender() -> None:
    from kiev_tui.engine import sequence
    from kiev_tui.games.efs_ktr import chain

    g = game_at("combat")
    phases = {s.phase for s in sequence.turn_steps(g)}
    assert "supply" not in phases and system.board(g).supply_disregarded
    c = {"kind": "attack", "hex": "1805", "attacker": "axis", "defender": "soviet", "attackers": [],
         "artillery": [], "dart": []}
    place(g, {"ax-9rec-9pz": "1804", "so-11-96-5c": "1805"})
    c["attackers"] = ["ax-9rec-9pz"]
    assert chain.combat_input(g, c).attack_supplied  # every attack counts as supplied: no +2 (15.32a)
    while g.state.phase != "surrender":
        g.apply(EndPhase(), side=g.actor)
    rolled = len(g.journal)
    g.apply(EndPhase(), side=g.actor)
    assert g.state.turn == 2 and not any("surrender" in n.lower() and "roll" in n.lower() for n in notes(g)[rolled:])


def test_pb_10_44b_no_railroad_movement() -> None:
    from kiev_tui.games.efs_ktr import movement

    assert movement.MODES == ("normal", "strategic", "one_hex", "infiltration")  # no rail mode
    g = game_at("movement")
    assert case(g.check(Move(("ax-20mot-10m",), ("1407", "1306"), "rail"), side="axis")) == "10.4"


def test_pb_10_44c_no_replacements_phase() -> None:
    from kiev_tui.engine import sequence

    g = Game.new("efs_ktr/sumy", seed=1)
    assert "replacements" not in {s.phase for s in sequence.turn_steps(g)}


def test_pb_10_44d_no_strongpoint_is_built() -> None:
    g = game_at("engineering")
    assert list(g.rules.legal(g, "axis")) == [EndPhase()]  # the engineering phase has nothing to do
    assert not any(k for k in system.ACTIONS.types() if "strongpoint" in k or "build" in k)


def test_pb_10_44e_no_air_transport() -> None:
    kinds = set(system.ACTIONS.types())
    assert not any("transport" in k or "airlift" in k for k in kinds) and "air_mission" in kinds


def test_pb_10_44f_every_hex_is_in_range() -> None:
    from kiev_tui.games.efs_ktr.actions import Interdict

    g = game_at("air_interdiction")
    for far in ("1002", "2613", "2602", "1013"):  # the map's four corners
        assert g.check(Interdict(far), side="axis") is None
