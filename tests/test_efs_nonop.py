"""Non-Operational Soviet HQs in the Battle of Sumy (22.2, with 11.44e, 14.34b, 16.46, 9.x/22.24b).

The 40th Army HQ stands in 1904; inside its range of four hexes at the start are the 129th Tank
(1703), 1st Tank (1504), 227th Rifle (1503), 72+108/9 Cavalry (1803) and 5+136/9 Cavalry (1506).
Its Non-Op side's recovery value is 3 (ours: data/efs_ktr/SOURCES.md), so two Soviet units that
start inside the range may begin to move each phase (22.25g).
"""

from __future__ import annotations

import dataclasses

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.units import UnitState
from kiev_tui.games.efs_ktr import chain, system
from kiev_tui.games.efs_ktr.actions import Activate, Attack, Declare, Disband, Move, Overrun, Retreat, TakeLosses

HQ = "so-40a-hq"


def to_phase(g: Game, segment: str, phase: str) -> None:
    while not (g.phase.segment == segment and g.phase.name == phase):
        g.apply(EndPhase(), side=g.actor)


def make_non_op(g: Game) -> None:
    g.state.vars.non_op = [HQ]
    g.memo.clear()  # the position was edited by hand


def one_hex(g: Game, uid: str, away: str | None = None) -> Move:
    """A legal one-step move of ``uid`` (to ``away`` if given, else the first hex the reach offers)."""
    reach = g.reachable((uid,))
    b = system.board(g)
    here = b.hex_of[uid]
    for h, r in sorted(reach.items()):
        if r.ok and len(r.path) == 2 and h in b.gmap.neighbours(here) and (away is None or b.hid(h) == away):
            return Move((uid,), r.path)
    raise AssertionError(f"no one-hex move for {uid}")


def clear_map(g: Game, keep: dict[str, str]) -> None:
    for uid, u in g.state.units.items():
        if u.status == "map":
            if uid in keep:
                u.hex = keep[uid]
            else:
                u.status, u.hex = "cadre", None
    g.memo.clear()  # the position was edited by hand


# -- 22.23: how an HQ turns Non-Op ---------------------------------------------------------------

def test_22_23b_an_hq_overrun_and_retreated_turns_non_op() -> None:
    """The HQ alone in 1510, the 10th Motorized and 33rd Panzer (5 attack) in 1410: 5-1, roll 1
    (modified 3), the overrun succeeds without a Soviet loss; the HQ retreats two hexes under an
    Overrun marker and shows its Non-Op side."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
    to_phase(g, "axis", "movement")
    pz9 = ("ax-10mot-9pz", "ax-33pz-9pz")
    clear_map(g, {HQ: "1510", **{u: "1410" for u in pz9}})
    assert system.board(g).is_non_op(HQ) is False
    g.apply(Overrun(pz9, "1510"), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("retreat", "axis")
    g.apply(Retreat(("1511", "1612")), side="axis")
    assert g.state.units[HQ].hex == "1612"
    assert g.state.vars.overrun_marked == [HQ] and g.state.vars.non_op == [HQ]
    assert system.board(g).is_non_op(HQ) is True
    assert f"{HQ} turns to its Non-Op side: it received an Overrun marker (22.23b)" in \
        [e.describe() for e in g.journal]


def test_22_23c_an_hq_retreating_through_an_axis_zone_turns_non_op() -> None:
    """The retreat tests' position with the HQ added: the 11+96/5 and 72+108/9 Cavalry and the HQ
    in 1805, the 10/9Pz in 1806 at 3 to 6 (1-2); roll 1 (1*/R); the stack retreats through 1705,
    vacant and in the 10th's zone; the 72+108/9 pays the step and a 1 escapes (16.46).  The HQ
    lives through it and is Non-Op; the cavalry are unchanged in status."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1, 1]))
    to_phase(g, "axis", "movement")
    clear_map(g, {"so-11-96-5c": "1805", "so-72-108-9c": "1805", HQ: "1805", "ax-10mot-9pz": "1806"})
    g.apply(Declare("1805", ("ax-10mot-9pz",)), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1805", ("ax-10mot-9pz",)), side="axis")
    while g.rules.prompt(g).kind != "retreat":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    assert "Combat at 1805: 3 to 6, 1-2, DRM +0; roll 1: 1*/R (15.8)" in [e.describe() for e in g.journal]
    assert g.state.vars.non_op == []
    g.apply(Retreat(("1705", "1605")), side="soviet")
    g.apply(TakeLosses(("so-72-108-9c",)), side="soviet")
    assert {g.state.units[u].hex for u in ("so-72-108-9c", "so-11-96-5c", HQ)} == {"1605"}
    assert g.state.vars.non_op == [HQ]


def test_22_23c_a_clean_retreat_leaves_the_hq_operational() -> None:
    """The same combat, retreating by 1704-1604 (no vacant enemy-zone hex): the HQ stays Operational."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1, 1]))
    to_phase(g, "axis", "movement")
    clear_map(g, {"so-11-96-5c": "1805", "so-72-108-9c": "1805", HQ: "1805", "ax-10mot-9pz": "1806"})
    g.apply(Declare("1805", ("ax-10mot-9pz",)), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1805", ("ax-10mot-9pz",)), side="axis")
    while g.rules.prompt(g).kind != "retreat":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    safe = [o.action for o in g.rules.prompt(g).options if o.label.endswith("(safe)")]
    assert safe
    g.apply(safe[0], side="soviet")
    assert g.state.units[HQ].hex == safe[0].path[-1] and g.state.vars.non_op == []


# -- 22.24: what a Non-Op HQ cannot do -----------------------------------------------------------

def test_22_24b_a_non_op_hq_activates_nobody_not_even_guards() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "motorized")
    assert g.check(Activate(HQ, "so-2-4gdr"), side="soviet") is None  # Operational: the free Guards one
    make_non_op(g)
    for unit in ("so-2-4gdr", "so-227rd"):
        bad = g.check(Activate(HQ, unit), side="soviet")
        assert bad is not None and bad.case == "22.24b"
    assert not [a for a in g.rules.legal(g, "soviet") if isinstance(a, Activate)]
    from kiev_tui.games.efs_ktr.handlers import hq_command
    assert hq_command(g, HQ) == 0  # 22.21: a recovery value instead of a command value


def test_22_24c_no_reaction_inside_a_non_op_range() -> None:
    """As 22.12b's test: the 9th Panzer declares on 1506; the 1st Tank (1504) may react while the
    HQ is Operational, and not once it is Non-Op; nothing Soviet is offered to move then."""
    from tests.test_efs_hidden import PZ

    g = Game.new("efs_ktr/sumy", seed=7)
    to_phase(g, "axis", "movement")
    b = system.board(g)
    reach = g.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and b.parse("1506") in b.gmap.neighbours(h))[0]
    g.apply(Move(PZ, reach[dest].path), side="axis")
    g.apply(Declare("1506", PZ), side="axis")
    g.apply(EndPhase(), side="axis")
    assert (g.phase.name, g.actor) == ("reaction", "soviet")
    react = Move(("so-1tb",), ("1504", "1404"))
    assert g.check(react, side="soviet") is None
    make_non_op(g)
    bad = g.check(react, side="soviet")
    assert bad is not None and bad.case == "22.24c"
    assert [a for a in g.rules.legal(g, "soviet") if isinstance(a, Move)] == []


def test_22_24a_14_34b_no_retreat_order_from_or_inside_a_non_op_range() -> None:
    """An Axis attack on 1506 (four hexes from the HQ) and a Soviet attack from 1506 on 1507: the
    HQ gives the order while Operational and not once Non-Op."""
    g = Game.new("efs_ktr/sumy", seed=1)
    defend = {"kind": "attack", "hex": "1506", "attacker": "axis", "defender": "soviet", "attackers": []}
    attack = {"kind": "attack", "hex": "1507", "attacker": "soviet", "defender": "axis",
              "attackers": ["so-5-136-9c"]}
    assert chain.order_hq(g, defend, "soviet") == HQ and chain.order_hq(g, attack, "soviet") == HQ
    make_non_op(g)
    assert chain.order_hq(g, defend, "soviet") is None and chain.order_hq(g, attack, "soviet") is None
    assert chain.may_order(g, defend, "soviet") is False


def second_hq(g: Game, monkeypatch: pytest.MonkeyPatch, hex_id: str) -> str:
    """An Operational copy of the 40th Army HQ (a test-only counter) at ``hex_id``."""
    d = g.scenario.catalog.units[HQ]
    monkeypatch.setitem(g.scenario.catalog.units, "so-test-hq", dataclasses.replace(d, id="so-test-hq"))
    g.state.units["so-test-hq"] = UnitState("so-test-hq", "map", hex_id)
    g.memo.clear()
    return "so-test-hq"


def test_22_22_the_non_op_range_wins_over_an_operational_hq(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second, Operational HQ in 1508 covers 1506 as the Non-Op 40th does: no order reaches a
    Defender Hex in 1506, and the second HQ cannot activate the 227th Rifle (put in 1506) there, though it
    can activate the 295th Rifle (1612, four hexes off), outside the 40th's range (distance 9)."""
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "motorized")
    other = second_hq(g, monkeypatch, "1508")
    defend = {"kind": "attack", "hex": "1506", "attacker": "axis", "defender": "soviet", "attackers": []}
    assert chain.order_hq(g, defend, "soviet") == HQ
    make_non_op(g)
    assert chain.order_hq(g, defend, "soviet") is None
    g.state.units["so-227rd"].hex = "1506"
    g.memo.clear()
    bad = g.check(Activate(other, "so-227rd"), side="soviet")
    assert bad is not None and bad.case == "22.22"
    assert g.check(Activate(other, "so-295rd"), side="soviet") is None
    from kiev_tui.games.efs_ktr.handlers import react_hqs
    assert react_hqs(g, ("so-1tb",)) is None  # 1504: inside both ranges, so no reaction (22.24c)
    g.state.vars.non_op = []
    g.memo.clear()
    assert react_hqs(g, ("so-1tb",)) == {"so-1tb": HQ}


# -- 22.25: restrictions inside the range --------------------------------------------------------

def test_22_25g_two_units_may_begin_moving_in_range_per_phase() -> None:
    """Soviet Motorized phase, HQ Non-Op (recovery 3): the 129th Tank and the 72+108/9 Cavalry
    begin to move; the 1st Tank (1504) and the HQ itself are then refused; the 129th goes on (a
    second move is no new start); the 131+160/5 Cavalry (1508, six hexes away) comes into the range
    freely (22.25f).  In the Movement phase the count starts again and the 131+160/5, now inside,
    counts; the HQ moves anyway and takes its range away from the 5+136/9 (22.25g note)."""
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "motorized")
    make_non_op(g)
    g.apply(one_hex(g, "so-129tb"), side="soviet")
    g.apply(one_hex(g, "so-72-108-9c"), side="soviet")
    assert g.state.vars.non_op_moved == {HQ: ["so-129tb", "so-72-108-9c"]}
    for uid in ("so-1tb", HQ):
        bad = g.check(one_hex(g, uid), side="soviet")
        assert bad is not None and bad.case == "22.25g"
        assert g.rules.can_act(g, uid) is False
    assert not [a for a in g.rules.legal(g, "soviet") if isinstance(a, Move) and "so-1tb" in a.units]
    g.apply(one_hex(g, "so-129tb"), side="soviet")  # 22.25g: it began already
    g.apply(Move(("so-131-160-5c",), ("1508", "1608", "1707")), side="soviet")  # 22.25f: distance 6 to 4
    assert system.board(g).hex_of["so-131-160-5c"].distance(system.board(g).hex_of[HQ]) == 4
    assert g.state.vars.non_op_moved == {HQ: ["so-129tb", "so-72-108-9c"]}
    to_phase(g, "soviet", "movement")
    assert g.state.vars.non_op_moved == {}
    g.apply(one_hex(g, "so-227rd"), side="soviet")
    g.apply(one_hex(g, "so-131-160-5c"), side="soviet")  # 22.25f: it stopped inside, now it counts
    assert g.state.vars.non_op_moved == {HQ: ["so-227rd", "so-131-160-5c"]}
    bad = g.check(one_hex(g, "so-5-136-9c"), side="soviet")
    assert bad is not None and bad.case == "22.25g"
    g.apply(one_hex(g, HQ, "2004"), side="soviet")  # 22.25g: the HQ is free in the Movement phase
    # the range went with it: the 5+136/9 in 1506 is five hexes off now and moves freely
    assert system.board(g).parse("1506").distance(system.board(g).parse("2004")) == 5
    g.apply(one_hex(g, "so-5-136-9c"), side="soviet")
    assert g.state.vars.non_op_moved == {HQ: ["so-227rd", "so-131-160-5c"]}


def test_22_25g_an_overrun_is_a_start_too() -> None:
    """With both starts used, the 1st Tank (1504) may not begin an overrun either; while the limit
    is open the same overrun is refused only for what the overrun rules say (no enemy there)."""
    from kiev_tui.games.efs_ktr.actions import Overrun

    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "motorized")
    make_non_op(g)
    bad = g.check(Overrun(("so-1tb",), "1404"), side="soviet")
    assert bad is not None and bad.case != "22.25g"
    g.state.vars.non_op_moved = {HQ: ["so-129tb", "so-72-108-9c"]}
    bad = g.check(Overrun(("so-1tb",), "1404"), side="soviet")
    assert bad is not None and bad.case == "22.25g"


def test_22_25g_a_stack_of_three_is_over_the_limit() -> None:
    """Three units in 1803 inside the range: moving them together would start three; refused."""
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "motorized")
    for u in ("so-129tb", "so-1tb"):
        g.state.units[u].hex = "1803"
    make_non_op(g)
    stack = ("so-129tb", "so-1tb", "so-72-108-9c")
    reach = g.reachable(stack)
    path = next(r.path for h, r in sorted(reach.items()) if r.ok and len(r.path) == 2)
    bad = g.check(Move(stack, path), side="soviet")
    assert bad is not None and bad.case == "22.25g"
    assert g.check(Move(stack[:2], path), side="soviet") is None
    assert not [a for a in g.rules.legal(g, "soviet") if isinstance(a, Move) and len(a.units) == 3]


def test_22_25d_one_soviet_gun_per_combat_in_a_non_op_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Soviet artillery units stacked with the HQ in 1904 support its defence: two may while the
    HQ is Operational (22.14), one once it is Non-Op; and one when they stand with an Operational
    HQ inside the Non-Op range (22.22)."""
    g = Game.new("efs_ktr/sumy", seed=1)
    d = g.scenario.catalog.units["so-2-4gdr"]
    monkeypatch.setitem(g.scenario.catalog.units, "so-test-art", dataclasses.replace(d, id="so-test-art"))
    g.state.units["so-test-art"] = UnitState("so-test-art", "map", "1904")
    g.state.units["so-2-4gdr"].status, g.state.units["so-2-4gdr"].hex = "map", "1904"
    g.memo.clear()
    c = {"hex": "1904", "attacker": "axis", "defender": "soviet", "attackers": [], "artillery": [],
         "dart": ["so-2-4gdr", "so-test-art"], "cas": {"soviet": 2}}
    assert chain.combat_input(g, c).soviet_artillery_allowed == 2
    assert chain.combat_input(g, c).defender_cas == 2
    make_non_op(g)
    assert chain.combat_input(g, c).soviet_artillery_allowed == 1
    assert chain.combat_input(g, c).defender_cas == 0  # 22.25c
    # 22.22: the guns stacked with an Operational HQ in 1903, inside the Non-Op 40th's range
    other = second_hq(g, monkeypatch, "1903")
    for u in ("so-2-4gdr", "so-test-art"):
        g.state.units[u].hex = "1903"
    g.memo.clear()
    c["hex"] = "1903"
    assert chain.combat_input(g, c).soviet_artillery_allowed == 1
    g.state.vars.non_op = []
    g.memo.clear()
    assert chain.combat_input(g, c).soviet_artillery_allowed == 2 and other in system.board(g).at(system.board(g).parse("1903"))


def test_22_25c_only_soviet_fighters_fly_over_a_non_op_range() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    for u in ("so-sb-1", "so-i16"):
        g.state.units[u].status = "air_ready"
    c = {"kind": "attack", "hex": "1904"}
    assert ("so-sb-1",) in chain.mission_choices(g, c, "soviet")
    make_non_op(g)
    got = chain.mission_choices(g, c, "soviet")
    assert all(chain.air_unit(g, u).role == "fighter" for combo in got for u in combo)
    assert ("so-i16",) in got and ("so-sb-1",) not in got


# -- 22.26: recovery -----------------------------------------------------------------------------

@pytest.mark.parametrize("roll,back", [(3, True), (4, False)])
def test_22_26a_recovery_roll_in_the_interphase(roll: int, back: bool) -> None:
    """The HQ is Non-Op on GT50; in the interphase it rolls the die: 3 (its recovery value) or less
    turns it back, 4 or more leaves it Non-Op."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([roll]))
    make_non_op(g)
    while g.state.turn == 1:
        g.apply(EndPhase(), side=g.actor)
    assert g.state.vars.non_op == ([] if back else [HQ])
    word = "Operational again" if back else "stays Non-Op"
    assert f"{HQ} rolls {roll} against recovery 3: {word} (22.26a)" in [e.describe() for e in g.journal]


def test_22_26b_disbanding_instead_of_the_roll() -> None:
    """With the HQ Non-Op the interphase has a disbanding step for the Soviet; he disbands it: it
    goes to the Cadre Box, still Non-Op, no die is rolled, and a second disband the same turn is
    refused.  Without a Non-Op HQ the step is not in the turn at all."""
    from kiev_tui.engine import sequence

    g = Game.new("efs_ktr/sumy", dice=FixedDice([]))
    assert "disband" not in [s.phase for s in sequence.turn_steps(g)]
    make_non_op(g)
    assert [s.phase for s in sequence.turn_steps(g)][-1] == "disband"
    bad = g.check(Disband(HQ), side="soviet")
    assert bad is not None and bad.case in ("22.26b", "4.2")
    to_phase(g, "record", "disband")
    assert g.actor == "soviet" and g.state.turn == 1
    assert Disband(HQ) in list(g.rules.legal(g, "soviet"))
    g.apply(Disband(HQ), side="soviet")
    assert g.state.units[HQ].status == "cadre" and g.state.vars.disbanded == [HQ]
    assert Disband(HQ) not in list(g.rules.legal(g, "soviet"))
    assert g.check(Disband(HQ), side="soviet").case == "22.26b"
    g.apply(EndPhase(), side="soviet")
    assert g.state.turn == 2 and g.state.vars.non_op == [HQ] and g.state.vars.disbanded == []
    assert not [e for e in g.journal if "recovery of" in e.describe()]


def test_22_26b_one_hq_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Non-Op HQs (the 40th and a test copy in 1612): one is disbanded, the other may not be
    the same turn and rolls for recovery instead (a 1: Operational again)."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
    other = second_hq(g, monkeypatch, "1612")
    g.state.vars.non_op = [HQ, other]
    g.memo.clear()
    to_phase(g, "record", "disband")
    g.apply(Disband(HQ), side="soviet")
    bad = g.check(Disband(other), side="soviet")
    assert bad is not None and bad.case == "22.26b" and "one HQ a turn" in bad.why
    g.apply(EndPhase(), side="soviet")
    assert g.state.vars.non_op == [HQ] and g.state.units[other].status == "map"


def test_22_26b_no_disbanding_step_on_the_last_turn() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    make_non_op(g)
    from kiev_tui.engine import sequence
    assert [s.phase for s in sequence.turn_steps(g, g.scenario.turns)][-1] != "disband"


def test_22_21_the_face_shows_non_op_and_the_recovery_value() -> None:
    from kiev_tui.games.efs_ktr.face.text import markers, unit_line

    g = Game.new("efs_ktr/sumy", seed=1)
    assert "command 1 range 4" in unit_line(g, HQ) and "Non-Op" not in markers(g, HQ)
    make_non_op(g)
    assert "recovery 3 range 4" in unit_line(g, HQ) and markers(g, HQ) == ["Non-Op"]


# -- the cases that point at 22.2 from elsewhere in the book ------------------------------------

def test_10_57_a_non_op_range_holds_soviet_movement_back() -> None:
    """Soviet Movement phase: while the HQ is Operational the 1st Tank (1504) may move after two
    other units inside the range have begun; once the HQ is Non-Op (recovery 3) the same move is
    the third start and is refused under 22.25g."""
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "movement")
    g.state.vars.non_op_moved = {HQ: ["so-129tb", "so-72-108-9c"]}
    assert g.check(one_hex(g, "so-1tb"), side="soviet") is None
    make_non_op(g)
    bad = g.check(one_hex(g, "so-1tb"), side="soviet")
    assert bad is not None and (bad.case, bad.why) == (
        "22.25g", f"within {HQ}'s range (Non-Op, recovery 3) only 2 Soviet unit(s) may begin to move this "
                  "phase; 2 already did")


def test_22_25f_a_unit_from_outside_moves_on_freely_inside_the_range() -> None:
    """Soviet Movement phase, HQ Non-Op, both starts of the phase used: the 131+160/5 Cavalry
    (1508, six hexes from the HQ) comes into the range at 1707 and may then move on inside it
    (to 1706) in the same phase, while the 1st Tank, which began inside, may not move."""
    g = Game.new("efs_ktr/sumy", seed=1)
    to_phase(g, "soviet", "movement")
    make_non_op(g)
    g.state.vars.non_op_moved = {HQ: ["so-129tb", "so-72-108-9c"]}
    cav = "so-131-160-5c"
    g.apply(Move((cav,), ("1508", "1608", "1707")), side="soviet")
    b = system.board(g)
    assert b.non_op_over(b.hex_of[cav]) == [HQ]
    g.apply(one_hex(g, cav, "1706"), side="soviet")
    assert g.state.units[cav].hex == "1706"
    assert g.state.vars.non_op_moved == {HQ: ["so-129tb", "so-72-108-9c"]}
    bad = g.check(one_hex(g, "so-1tb"), side="soviet")
    assert bad is not None and bad.case == "22.25g"


def test_14_11c2_a_non_op_range_beats_an_operational_hq_for_reaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """As 22.24c's test, with a second, Operational HQ in 1404 next to the 1st Tank (1504): it could
    send the tank, but the tank also stands in the Non-Op 40th's range, and that range wins."""
    from tests.test_efs_hidden import PZ

    g = Game.new("efs_ktr/sumy", seed=7)
    to_phase(g, "axis", "movement")
    b = system.board(g)
    reach = g.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and b.parse("1506") in b.gmap.neighbours(h))[0]
    g.apply(Move(PZ, reach[dest].path), side="axis")
    g.apply(Declare("1506", PZ), side="axis")
    g.apply(EndPhase(), side="axis")
    assert (g.phase.name, g.actor) == ("reaction", "soviet")
    other = second_hq(g, monkeypatch, "1405")
    react = Move(("so-1tb",), ("1504", "1404"))
    make_non_op(g)
    from kiev_tui.games.efs_ktr.handlers import react_hqs
    assert react_hqs(g, ("so-1tb",)) is None
    bad = g.check(react, side="soviet")
    assert bad is not None and bad.case == "22.24c"
    g.state.vars.non_op = []
    g.memo.clear()
    assert react_hqs(g, ("so-1tb",)) == {"so-1tb": HQ}  # Operational again: the 40th sends it first
    g.state.vars.non_op = [HQ]
    g.state.units[HQ].hex = "2010"  # the Non-Op 40th far off: the second HQ may send the tank
    g.memo.clear()
    assert react_hqs(g, ("so-1tb",)) == {"so-1tb": other}
    assert g.check(react, side="soviet") is None


def test_11_44e_an_overrun_marker_turns_the_hq_non_op() -> None:
    """The 22.23b position: the HQ alone in 1510 is overrun by the 10th Motorized and 33rd Panzer
    (roll 1) and retreats to 1612 under an Overrun marker; it now shows its Non-Op side and its
    command value is gone (22.21)."""
    from kiev_tui.games.efs_ktr.handlers import hq_command

    g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
    to_phase(g, "axis", "movement")
    pz9 = ("ax-10mot-9pz", "ax-33pz-9pz")
    clear_map(g, {HQ: "1510", **{u: "1410" for u in pz9}})
    assert hq_command(g, HQ) > 0
    g.apply(Overrun(pz9, "1510"), side="axis")
    g.apply(Retreat(("1511", "1612")), side="axis")
    assert g.state.vars.overrun_marked == [HQ]
    assert g.state.vars.non_op == [HQ] and hq_command(g, HQ) == 0
