"""Kiev to Rostov: which hexes may be attacked and by whom (12.5, 12.61, 15.21b-c) and which
hexes must be attacked with them (12.7), at declaration and in the Combat phase, on made-up
Sumy positions (the swamp at 1613/1713, the rocket battalion's No-ZOC band) played through the
rule system; the book's major-river example on a copy of the map with the river added."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import handlers, movement, system
from kiev_tui.games.efs_ktr.actions import Attack, Declare, Move, Overrun
from tests.efs_positions import hx, map_copy, position

ROCKET = "so-2-4gdr"  # artillery with the No-ZOC band (3.42)


def placed(units: dict[str, str], player: str = "axis", phase: str = "movement") -> Game:
    """Sumy with only ``units`` on the map (uid -> hex), at ``player``'s ``phase`` of GT50."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    for uid, u in g.state.units.items():
        if uid in units:  # the rocket battalion is a reinforcement: placed all the same
            u.status, u.hex = "map", units[uid]
        elif u.status == "map":
            u.status, u.hex = "cadre", None
    g.memo.clear()  # the position was edited by hand
    to(g, player, phase)
    return g


def to(g: Game, player: str, phase: str) -> None:
    while (g.state.player, g.state.phase) != (player, phase):
        g.apply(EndPhase(), side=g.actor)


def declares(g: Game, side: str) -> list[Declare]:
    return [a for a in g.rules.legal(g, side) if isinstance(a, Declare)]


# -- 12.51: attacking from the defender's zone -----------------------------------------------------

def test_12_51_motorized_units_attack_a_swamp_hex_from_its_zone() -> None:
    """The book's 12.51 example: Dry, a Soviet cavalry division in swamp 1613 projects its zone
    into 1612 and 1712. Two Axis motorized regiments there may declare on it although neither
    could enter the swamp (no road crosses either hexside, 10.78)."""
    g = placed({"so-5-136-9c": "1613", "ax-10mot-9pz": "1612", "ax-11mot-9pz": "1712"})
    b = system.board(g)
    assert not movement.could_enter(b, "ax-10mot-9pz", hx("1612"), hx("1613"))
    assert not movement.could_enter(b, "ax-11mot-9pz", hx("1712"), hx("1613"))
    assert g.check(Declare("1613", ("ax-10mot-9pz", "ax-11mot-9pz")), side="axis") is None
    assert declares(g, "axis") == [Declare("1613", ("ax-10mot-9pz", "ax-11mot-9pz"))]


# -- 12.52: attacking a hex the unit could enter -----------------------------------------------------

def test_12_52_example_one_a_unit_without_a_zone_is_attacked_by_units_that_could_enter() -> None:
    """The rocket battalion (No ZOC) in clear 1409 projects no zone into 1309, but the 10th
    Motorized there could move into 1409, so it may declare on it."""
    g = placed({ROCKET: "1409", "ax-10mot-9pz": "1309"})
    b = system.board(g)
    assert not handlers.owed_hexes(b, "ax-10mot-9pz", []) and movement.could_enter(b, "ax-10mot-9pz", hx("1309"), hx("1409"))
    assert declares(g, "axis") == [Declare("1409", ("ax-10mot-9pz",))]
    assert g.check(Declare("1409", ("ax-10mot-9pz",)), side="axis") is None


def test_12_52_example_two_across_a_major_river_either_hex_alone() -> None:
    """The book's second 12.52 example: a major river between 1309 and both 1409 and 1410 stops
    every zone, yet movement may cross it; the unit in 1309 may attack either hex alone (no 12.7
    duty towards the other) or both."""
    m = map_copy()
    m.set_side_features(hx("1309"), hx("1409"), frozenset({"major_river"}))
    m.set_side_features(hx("1309"), hx("1410"), frozenset({"major_river"}))
    b = position({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309"}, gmap=m)
    assert handlers.owed_hexes(b, "ax-10mot-9pz", []) == []
    assert handlers.may_attack_from(b, "ax-10mot-9pz", hx("1409")) is True
    assert handlers.may_attack_from(b, "ax-10mot-9pz", hx("1410")) is True
    without = position({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309"})
    assert [without.hid(h) for h in handlers.owed_hexes(without, "ax-10mot-9pz", [hx("1409")])] == ["1410"]


# -- 12.61: no zone and no entry, no attack -------------------------------------------------------

def test_12_61_example_two_no_zone_unit_in_swamp_refuses_a_motorized_attacker() -> None:
    """The book's second 12.61 example: the rocket battalion (No ZOC) in swamp 1613; the 10th
    Motorized in 1612 is outside any zone and may not enter the swamp off-road: no attack."""
    g = placed({ROCKET: "1613", "ax-10mot-9pz": "1612"})
    bad = g.check(Declare("1613", ("ax-10mot-9pz",)), side="axis")
    assert str(bad) == "[12.61] ax-10mot-9pz cannot attack 1613: no zone from it covers 1612 and ax-10mot-9pz could not enter it"
    assert declares(g, "axis") == []


def test_12_61_example_two_a_non_motorized_unit_could_attack() -> None:
    """The same example the other way round: the 10th Motorized in swamp 1613 has lost its zone
    to an Overrun marker (3.47); the Soviet 5+136/9 Cavalry in 1612 could enter the swamp and may
    declare, the 129th Tank Brigade in 1712 (motorized) may not."""
    g = placed({"ax-10mot-9pz": "1613", "so-5-136-9c": "1612", "so-129tb": "1712"})
    to(g, "soviet", "motorized")
    g.state.vars.overrun_marked.append("ax-10mot-9pz")
    g.memo.clear()
    assert g.check(Declare("1613", ("so-5-136-9c",)), side="soviet") is None
    bad = g.check(Declare("1613", ("so-5-136-9c", "so-129tb")), side="soviet")
    assert str(bad) == "[12.61] so-129tb cannot attack 1613: no zone from it covers 1712 and so-129tb could not enter it"
    assert declares(g, "soviet") == [Declare("1613", ("so-5-136-9c",))]


def test_12_61_multi_hex_every_defender_hex_must_be_eligible() -> None:
    """12.8 wants 12.5 met for the whole attack: the 10th Motorized in 1712 is in the zone of the
    cavalry in 1613 but not of the rocket battalion in swamp 1713, which it cannot enter; it may
    attack 1613 alone, not 1613 and 1713 together."""
    g = placed({"so-5-136-9c": "1613", ROCKET: "1713", "ax-10mot-9pz": "1712"})
    assert g.check(Declare("1613", ("ax-10mot-9pz",)), side="axis") is None
    bad = g.check(Declare("1613", ("ax-10mot-9pz",), ("1713",)), side="axis")
    assert str(bad) == "[12.61] ax-10mot-9pz cannot attack 1713: no zone from it covers 1712 and ax-10mot-9pz could not enter it"
    assert declares(g, "axis") == [Declare("1613", ("ax-10mot-9pz",))]


# -- 15.21b-c: the same test for the units that finally attack ----------------------------------

def test_15_21c_combat_a_unit_that_could_not_have_declared_may_not_join() -> None:
    """The cavalry declared on the zone-less 10th Motorized in swamp 1613; in the Combat phase the
    129th Tank Brigade next to it, motorized, still may not join (15.21b-c)."""
    g = placed({"ax-10mot-9pz": "1613", "so-5-136-9c": "1612", "so-129tb": "1712"})
    to(g, "soviet", "motorized")
    g.state.vars.overrun_marked.append("ax-10mot-9pz")
    g.memo.clear()
    g.apply(Declare("1613", ("so-5-136-9c",)), side="soviet")
    to(g, "soviet", "combat")
    assert handlers.attackers_for(g, "1613") == ["so-5-136-9c"]
    bad = g.check(Attack("1613", ("so-5-136-9c", "so-129tb")), side="soviet")
    assert str(bad) == "[15.21] so-129tb cannot attack 1613: no zone from it covers 1712 and so-129tb could not enter it"
    assert g.check(Attack("1613", ("so-5-136-9c",)), side="soviet") is None


def test_15_21a_combat_only_adjacent_non_artillery_units_attack() -> None:
    """The 10th Motorized declared on the cavalry in 1409 from 1309; the 11th Motorized in 1209
    (not next to 1409) and the 619th Artillery in 1308 (next to it) may not be named attackers."""
    g = placed({"so-72-108-9c": "1409", "ax-10mot-9pz": "1309", "ax-11mot-9pz": "1209", "ax-619art": "1308"})
    g.apply(Declare("1409", ("ax-10mot-9pz",)), side="axis")
    to(g, "axis", "combat")
    assert handlers.attackers_for(g, "1409") == ["ax-10mot-9pz"]
    for uid in ("ax-11mot-9pz", "ax-619art"):
        bad = g.check(Attack("1409", ("ax-10mot-9pz", uid)), side="axis")
        assert str(bad) == f"[15.21] {uid} cannot attack 1409: not next to it, artillery, or already in a combat"


def test_15_21b_combat_a_unit_in_the_defender_zone_joins_though_it_could_not_enter() -> None:
    """The 10th Motorized in 1612 declared on the cavalry in swamp 1613; in the Combat phase the
    11th Motorized in 1712, in the cavalry's zone but unable to enter the swamp, may join."""
    g = placed({"so-5-136-9c": "1613", "ax-10mot-9pz": "1612", "ax-11mot-9pz": "1712"})
    g.apply(Declare("1613", ("ax-10mot-9pz",)), side="axis")
    to(g, "axis", "combat")
    assert handlers.attackers_for(g, "1613") == ["ax-10mot-9pz", "ax-11mot-9pz"]
    assert g.check(Attack("1613", ("ax-10mot-9pz", "ax-11mot-9pz")), side="axis") is None


# -- 12.7: the hexes that must be attacked too ------------------------------------------------------

def test_12_7_declaring_one_hex_owes_the_other_before_the_phase_ends() -> None:
    """The 10th Motorized in 1309 is in the zones of the cavalry in 1409 and in 1410. It declares
    on 1409 alone: the Movement phase does not end until 1410 is declared too (by it or another)."""
    g = placed({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309"})
    g.apply(Declare("1409", ("ax-10mot-9pz",)), side="axis")
    bad = g.check(EndPhase(), side="axis")
    assert str(bad) == "[12.7] ax-10mot-9pz, declared against 1409, is in the zone of 1410: declare an attack on 1410 too"
    acts = list(g.rules.legal(g, "axis"))
    assert EndPhase() not in acts and Declare("1410", ("ax-10mot-9pz",)) in acts
    g.apply(Declare("1410", ("ax-10mot-9pz",)), side="axis")
    assert g.check(EndPhase(), side="axis") is None


def test_12_7_an_owed_hex_that_cannot_be_declared_refuses_the_declaration() -> None:
    """The 9th Recon (2 attack) in 1309 could declare on the cavalry in 1409 (2 to 3), but two
    rifle divisions in 1410 (12 defence) also reach 1309 and 2 to 12 is under 1-4: since 1410
    could never be attacked with it, the declaration on 1409 is refused."""
    g = placed({"so-72-108-9c": "1409", "so-295rd": "1410", "so-227rd": "1410", "ax-9rec-9pz": "1309"})
    bad = g.check(Declare("1409", ("ax-9rec-9pz",)), side="axis")
    assert str(bad) == ("[12.7] ax-9rec-9pz is in the zone of 1410 too, and no attack on 1410 can be declared: "
                        "every hex whose zone reaches an attacker is attacked as well")
    assert declares(g, "axis") == []


def test_12_7_another_unit_covers_the_owed_hex() -> None:
    """The book's 12.7 figure: the 10th Motorized in 1309 declares on 1409; the 11th Motorized in
    1510, next to 1410 only, declares on 1410, so the 10th is free to attack 1409 alone."""
    g = placed({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309", "ax-11mot-9pz": "1510"})
    g.apply(Declare("1409", ("ax-10mot-9pz",)), side="axis")
    g.apply(Declare("1410", ("ax-11mot-9pz",)), side="axis")
    assert g.check(EndPhase(), side="axis") is None
    to(g, "axis", "combat")
    assert handlers.attackers_for(g, "1409") == ["ax-10mot-9pz"]
    assert g.check(Attack("1409", ("ax-10mot-9pz",)), side="axis") is None  # 1410 still carries its marker


def test_12_7_combat_a_unit_in_the_zone_of_an_unmarked_hex_may_not_join() -> None:
    """The 11th Motorized in 1308 declares on 1409. In the Combat phase the 10th Motorized in
    1309, next to 1409 but also in the zone of the unmarked cavalry in 1410, may not join."""
    g = placed({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309", "ax-11mot-9pz": "1308"})
    g.apply(Declare("1409", ("ax-11mot-9pz",)), side="axis")
    to(g, "axis", "combat")
    assert handlers.attackers_for(g, "1409") == ["ax-11mot-9pz"]
    bad = g.check(Attack("1409", ("ax-11mot-9pz", "ax-10mot-9pz")), side="axis")
    assert str(bad) == ("[12.7] ax-10mot-9pz is in the zone of 1410, which is neither in this combat, nor under a "
                        "Declared Attack marker, nor attacked already this phase")
    assert [a.attackers for a in g.rules.legal(g, "axis") if isinstance(a, Attack)] == [("ax-11mot-9pz",)]


def test_12_7_combat_a_hex_attacked_already_this_phase_frees_the_unit() -> None:
    """As above, but the cavalry in 1410 has already been attacked this phase (it held its
    ground): the 10th Motorized may now join the attack on 1409."""
    g = placed({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-10mot-9pz": "1309", "ax-11mot-9pz": "1308"})
    g.apply(Declare("1409", ("ax-11mot-9pz",)), side="axis")
    to(g, "axis", "combat")
    g.state.vars.attacked.append("so-5-136-9c")
    g.memo.clear()
    assert sorted(handlers.attackers_for(g, "1409")) == ["ax-10mot-9pz", "ax-11mot-9pz"]
    assert g.check(Attack("1409", ("ax-11mot-9pz", "ax-10mot-9pz")), side="axis") is None


def test_12_7_combat_the_owed_hex_fought_first_and_held_still_counts() -> None:
    """The 11th Motorized in 1510 attacks the two cavalry divisions in 1410 first: 3 to 6, 1-2,
    roll 5: 1*/-, so they stay, and the marker comes off 1410. The 10th Motorized in 1309, in
    their zone, may then still attack 1409, as 1410 was attacked this phase."""
    g = placed({"so-72-108-9c": "1409", "so-5-136-9c": "1410", "so-131-160-5c": "1410",
                "ax-10mot-9pz": "1309", "ax-11mot-9pz": "1510"})
    g.dice = FixedDice([5])
    g.apply(Declare("1409", ("ax-10mot-9pz",)), side="axis")
    g.apply(Declare("1410", ("ax-11mot-9pz",)), side="axis")
    to(g, "axis", "combat")
    g.apply(Attack("1410", ("ax-11mot-9pz",)), side="axis")
    while g.state.pending is not None:
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    assert "Combat at 1410: 3 to 6, 1-2, DRM +0; roll 5: 1*/- (15.8)" in [e.describe() for e in g.journal]
    assert g.state.hex_markers == {"1409": ["declared_attack"]}
    assert (g.state.units["so-5-136-9c"].hex, g.state.units["so-131-160-5c"].hex) == ("1410", "1410")
    assert g.state.vars.attacked == ["so-131-160-5c", "so-5-136-9c"]
    assert handlers.attackers_for(g, "1409") == ["ax-10mot-9pz"]


# -- 12.0: declarations come after all movement ------------------------------------------------------

def test_12_0_nothing_moves_after_the_first_declaration() -> None:
    """12.0: the Axis declares once its movement is over. Before any declaration the 11th
    Motorized may still step from 1712 to 1711; after the 10th Motorized declares on the cavalry
    in 1613 the same step (and every move legal() gave) is refused under 12.0."""
    g = placed({"so-5-136-9c": "1613", "ax-10mot-9pz": "1612", "ax-11mot-9pz": "1712"})
    step = Move(("ax-11mot-9pz",), ("1712", "1711"))
    assert g.check(step, side="axis") is None
    assert any(isinstance(a, Move) for a in g.rules.legal(g, "axis"))
    g.apply(Declare("1613", ("ax-10mot-9pz", "ax-11mot-9pz")), side="axis")
    bad = g.check(step, side="axis")
    assert bad is not None and bad.case == "12.0"
    assert not any(isinstance(a, (Move, Overrun)) for a in g.rules.legal(g, "axis"))
    assert g.rules.reachable(g, ("ax-11mot-9pz",)) == {}  # the map shows no reach either
