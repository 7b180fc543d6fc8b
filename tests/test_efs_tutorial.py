"""The Sumy tutorial (PB 10.4), Game-Turn 50's Axis Movement and Combat phases, replayed through
``game.apply`` with the playbook's own die rolls: positions, MP spent, odds, results and losses
as the playbook gives them: all of GT50 and GT51's strategic segment, to the end of the
tutorial (the interdiction mission over 1904 that the I-16 turns back).
Where the playbook slips, the script follows docs/rulings.md ("EFS: movement, zones and
retreat", the tutorial's slips) and says so."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import system
from kiev_tui.games.efs_ktr.actions import (Activate, AirMission, AirPairs, AirRoles, Attack, AttackerOrder, Advance, Declare,
                                            Interdict, Move, SetOrder, Support, TakeLosses)

PZ = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz")
M16 = ("ax-156mot-16m", "ax-341rec-16m", "ax-60mot-16m")
M25 = ("ax-119mot-25m", "ax-35mot-25m")
# PB 10.4, GT50: air initiative 3, the I-16's shot at the He111 9, the 25th Motorized's AA at the
# SB 9, the combat at 1510 6, the combat at 1508 5.
ROLLS = [3, 9, 9, 6, 5, 5]  # ... and the Soviet attack on 1306, 5
# GT51: readiness (the He111 7, the I-16 3, the SB 6), air initiative 5, the Bf109 at the MiG-3 2,
# the I-16 at the He111 2, the MiG-3 back at the Bf109 10 (the Soviet firers in counter order)
GT51 = [7, 3, 6, 5, 2, 2, 10]


def notes(g: Game) -> list[str]:
    return [e.describe() for e in g.journal]


def answer(g: Game, kind: str, side: str, action: object) -> None:
    p = g.rules.prompt(g)
    assert p is not None and (p.kind, p.side) == (kind, side), p
    assert action in {o.action for o in p.options}
    g.apply(action, side=side)  # type: ignore[arg-type]


def test_pb_10_4_gt50_axis_movement_and_combat() -> None:
    gt50_axis_movement_and_combat(Game.new("efs_ktr/sumy", dice=FixedDice(list(ROLLS))))


def gt50_axis_movement_and_combat(g: Game) -> None:
    # the strategic segment: nothing to do in Sumy's GT50 (PB 10.4)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    # Axis Movement: 9th Panzer to 1408, 16th Motorized to 1409, 25th Motorized to 1411, the 619th
    # to 1309, all through clear terrain
    for units, dest in ((PZ, "1408"), (M16, "1409"), (M25, "1411"), (("ax-619art",), "1309")):
        g.apply(Move(units, g.reachable(units)[b.parse(dest)].path), side="axis")
    for u in PZ + M16 + M25:
        assert g.state.vars.spent[u] == "3"  # two clear hexes and the enemy zone (10.64)
    assert g.state.vars.spent["ax-619art"] == "1"
    assert {g.state.units[u].hex for u in PZ} == {"1408"} and {g.state.units[u].hex for u in M25} == {"1411"}
    g.apply(Declare("1510", M25), side="axis")
    g.apply(Declare("1508", PZ + M16), side="axis")
    assert g.state.hex_markers == {"1510": ["declared_attack"], "1508": ["declared_attack"]}
    g.apply(EndPhase(), side="axis")  # Soviet Reaction: the 1st Tank Brigade is too far (14.11)
    g.apply(EndPhase(), side="soviet")
    assert g.phase.name == "combat"

    # 1510 first: the He111 against the SB and the I-16
    g.apply(Attack("1510", M25, ("ax-619art",)), side="axis")
    answer(g, "air_mission", "axis", AirMission("ax-he111"))
    answer(g, "air_mission", "soviet", AirMission("so-i16,so-sb-1"))
    for side in ("axis", "soviet"):
        p = g.rules.prompt(g)
        assert (p.kind, p.side) == ("reveal_air", side)
        g.apply(p.options[0].action, side=side)
    answer(g, "attacker_order", "axis", AttackerOrder(""))  # both defenders out of the HQ's range
    text = notes(g)
    assert "air initiative soviet (roll 3): air combat (17.32)" in text  # 17.32a: the only firer's side
    # 17.33: the I-16 alone fires, on the -1 column (ACR 1 less 2): a 9 and the bomber gets away
    assert "air combat: so-i16 at ax-he111 (9); results: ax-he111 - (17.33)" in text
    assert "AA fire at so-sb-1: roll 9, A (17.4)" in text  # the SB aborts
    assert "close air support on 1510: attacker 1, defender 0 (15.65)" in text
    assert "Combat at 1510: 8 to 2, 4-1, DRM -1; roll 6: -/1 (15.8)" in text
    assert g.state.units["so-11-96-5c"].status == "cadre"  # a one-step unit (16.24)
    answer(g, "advance", "axis", Advance(M25))  # the artillery stays (16.52)
    assert {g.state.units[u].hex for u in M25} == {"1510"} and g.state.units["ax-619art"].hex == "1309"
    assert {g.state.units[u].status for u in ("ax-he111", "so-sb-1", "so-i16")} == {"air_flown"}

    # 1508: the dummy over it, no artillery, no orders
    g.apply(Attack("1508", PZ + M16, ()), side="axis")
    answer(g, "air_mission", "axis", AirMission("ax-dummy-1"))
    p = g.rules.prompt(g)
    g.apply(p.options[0].action, side="axis")
    assert g.state.units["ax-dummy-1"].status == "air_ready"  # back to the Ready Box (PB 10.4)
    answer(g, "attacker_order", "axis", AttackerOrder(""))
    text = notes(g)
    assert "Combat at 1508: 18 to 3, 6-1, DRM -3; roll 5: -/3R (15.8)" in text
    assert g.state.units["so-131-160-5c"].status == "cadre"
    answer(g, "advance", "axis", Advance(PZ))
    assert {g.state.units[u].hex for u in PZ} == {"1508"}
    assert g.state.vars.steps_lost == {"soviet": 3}
    assert g.check(EndPhase(), side="axis") is None


def move(g: Game, side: str, units: tuple[str, ...], path: str, spent: str) -> None:
    """One move of the playbook's, and the MP each unit has spent this phase after it."""
    g.apply(Move(units, tuple(path.split())), side=side)
    assert {g.state.vars.spent[u] for u in units} == {spent}, (units, path)
    assert {g.state.units[u].hex for u in units} == {path.split()[-1]}


def test_pb_10_4_gt50_motorized_phases_the_soviet_segment_and_gt51_interdiction() -> None:
    g = Game.new("efs_ktr/sumy", dice=FixedDice(ROLLS + GT51))
    gt50_axis_movement_and_combat(g)
    g.apply(EndPhase(), side="axis")
    assert g.phase.name == "motorized"
    # Axis Motorized phase (half MA, fractions kept, 10.2); the 619th may not move (10.58b)
    assert g.check(Move(("ax-619art",), ("1309", "1310")), side="axis").case == "10.58"
    move(g, "axis", ("ax-35mot-25m",), "1510 1511", "2")
    move(g, "axis", ("ax-119mot-25m",), "1510 1610 1709", "3")
    move(g, "axis", PZ, "1508 1609 1708", "5/2")
    move(g, "axis", ("ax-9rec-9pz",), "1708 1809 1908 2009", "9/2")  # Lebedin, all 4 1/2 MP spent
    move(g, "axis", PZ[:3], "1708 1808", "3")
    move(g, "axis", ("ax-60mot-16m", "ax-156mot-16m"), "1409 1408 1507", "3")
    move(g, "axis", ("ax-20mot-10m",), "1407 1306", "1")  # back to Nedrigaylov
    assert g.state.control["2009"] == "axis" and g.state.control["1306"] == "axis"
    g.apply(EndPhase(), side="axis")  # Engineering: nothing to do
    g.apply(EndPhase(), side="axis")
    assert (g.phase.segment, g.phase.name, g.actor) == ("soviet", "motorized", "soviet")
    # the 40th Army HQ activates the 227th (its one command point, 22.12a) and, free, the
    # Guards rocket battalion (22.41; docs/rulings.md, "Orange MAs and the rocket battalion")
    g.apply(Activate("so-40a-hq", "so-227rd"), side="soviet")
    g.apply(Activate("so-40a-hq", "so-2-4gdr"), side="soviet")
    assert g.check(Activate("so-40a-hq", "so-1tb"), side="soviet").case == "22.12"  # motorized: moves anyway
    move(g, "soviet", ("so-227rd",), "1503 1404 1304 1305", "5/2")
    move(g, "soviet", ("so-129tb",), "1703 1603 1503 1404 1304 1305", "7/2")
    move(g, "soviet", ("so-1tb",), "1504 1405 1406", "3")  # the path the rulings give for its 3 MP
    move(g, "soviet", ("so-72-108-9c",), "1803 1804 1805 1806", "3")
    gd = ("so-6-1gdm", "so-12-1gdm", "so-175-1gdm", "so-2-4gdr")
    entry = g.reachable(gd)[system.board(g).parse("2303")]
    assert entry.path[0] == "2202" and entry.cost == 1.5  # along the main road to Sumy
    move(g, "soviet", gd, " ".join(entry.path), "3/2")
    # the rulings put 2106 between 2205 and 2107: 5 MP, not the playbook's 4
    assert g.check(Move(("so-2-4gdr",), ("2303", "2304", "2205", "2105", "2107")), side="soviet").case == "10.4"
    move(g, "soviet", ("so-2-4gdr",), "2303 2304 2205 2105 2106 2107", "13/2")
    to_2005 = g.reachable(gd[:3])[system.board(g).parse("2005")]
    move(g, "soviet", gd[:3], " ".join(to_2005.path), "4")
    move(g, "soviet", gd[1:3], "2005 1905", "9/2")
    move(g, "soviet", gd[:1], "2005 1904", "5")
    g.apply(Declare("1306", ("so-227rd", "so-129tb", "so-1tb")), side="soviet")
    g.apply(EndPhase(), side="soviet")
    # Axis Reaction: the 341st Recon reacts into the Defender Hex for 3 of its 4 1/2 MP (14.13)
    assert (g.phase.name, g.actor) == ("reaction", "axis")
    move(g, "axis", ("ax-341rec-16m",), "1409 1308 1307 1306", "3")
    g.apply(EndPhase(), side="axis")
    g.apply(Attack("1306", ("so-227rd", "so-129tb", "so-1tb")), side="soviet")
    # no air unit but the Axis dummy is Ready: it stays home; no artillery
    answer(g, "air_mission", "axis", AirMission(""))
    g.apply(g.rules.prompt(g).options[0].action, side="axis")
    answer(g, "support", "axis", Support(()))
    answer(g, "set_order", "axis", SetOrder("additional_retreat"))  # face down (14.32)
    p = g.rules.prompt(g)  # every Soviet attacker is out of the HQ's range: no attacker order
    assert (p.kind, p.side) == ("reveal_order", "axis")
    g.apply(p.options[0].action, side="axis")
    assert "Combat at 1306: 9 to 6, 3-2, DRM +0; roll 5: 1*/R (15.8)" in notes(g)
    answer(g, "take_losses", "soviet", TakeLosses(("so-227rd",)))  # the 227th turns to its reduced side
    assert g.state.units["so-227rd"].step == 1
    p = g.rules.prompt(g)  # Additional Retreat: the Soviet picks the three hexes (16.41b1)
    assert (p.kind, p.side) == ("retreat", "soviet")
    assert all(len(o.action.path) == 3 for o in p.options)
    to_1007 = next(o.action for o in p.options if o.action.path[-1] == "1007")
    g.apply(to_1007, side="soviet")
    assert {g.state.units[u].hex for u in ("ax-20mot-10m", "ax-341rec-16m")} == {"1007"}
    answer(g, "advance", "soviet", Advance(()))  # the Soviet stays out of 1306
    assert g.state.pending is None and "1306" not in g.state.hex_markers
    assert g.state.vars.steps_lost == {"soviet": 4}
    # Soviet Movement phase
    g.apply(EndPhase(), side="soviet")
    assert g.phase.name == "movement"
    assert g.check(Move(("so-227rd",), ("1305", "1304")), side="soviet").case == "10.24"  # it moved activated
    move(g, "soviet", ("so-72-108-9c",), "1806 1906 2007 2107", "9/2")  # over the hill, then the minor road
    move(g, "soviet", ("so-5-136-9c",), "1506 1505 1605", "3")
    move(g, "soviet", ("so-6-1gdm",), "1904 1804 1703", "2")  # motorized: half MA in this phase
    move(g, "soviet", ("so-6-1gdm",), "1703 1603", "5/2")
    move(g, "soviet", ("so-12-1gdm", "so-175-1gdm"), "1905 1906", "2")
    # the 1st Tank Brigade's road move to 1605 costs 3, not the playbook's 2 1/2: refused (rulings,
    # "The tutorial's slips")
    bad = g.check(Move(("so-1tb",), ("1406", "1505", "1605")), side="soviet")
    assert bad is not None and bad.case == "10.52"
    g.apply(EndPhase(), side="soviet")  # to Engineering: nothing to do
    g.apply(EndPhase(), side="soviet")  # to Surrender: none in Sumy
    g.apply(EndPhase(), side="soviet")  # the interphase: GT51 begins
    assert (g.state.turn, g.phase.name) == (2, "reinforcements")

    # GT51, strategic segment: arrivals to the Ready Boxes, readiness rolls (1-8 for the Soviet)
    while g.phase.name != "air_readiness":
        g.apply(EndPhase(), side=g.actor)
    assert {u: g.state.units[u].status for u in ("ax-bf109", "so-mig3", "so-sb-2")} == dict.fromkeys(
        ("ax-bf109", "so-mig3", "so-sb-2"), "air_ready")
    assert {u: g.state.units[u].status for u in ("ax-he111", "so-i16", "so-sb-1")} == dict.fromkeys(
        ("ax-he111", "so-i16", "so-sb-1"), "air_ready")
    while g.phase.name != "air_interdiction":
        g.apply(EndPhase(), side=g.actor)
    # the Bf109 and the He111 over the 40th Army HQ; both Soviet fighters rise against them
    g.apply(Interdict("1904"), side="axis")
    answer(g, "air_mission", "axis", AirMission("ax-bf109,ax-he111"))
    answer(g, "air_mission", "soviet", AirMission("so-i16,so-mig3"))
    for side in ("axis", "soviet"):
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=side)
    answer(g, "air_roles", "axis", AirRoles(()))  # the Bf109 declared a firing unit (17.31b2)
    assert "axis fighters over 1904: firing units ax-bf109 (17.31b2)" in notes(g)
    assert "air initiative axis (roll 5): air combat (17.32)" in notes(g)
    answer(g, "air_pairs", "axis", AirPairs(("ax-bf109>so-mig3",)))  # the I-16 is let through
    assert ("air combat: ax-bf109 at so-mig3 (2), so-i16 at ax-he111 (2), so-mig3 at ax-bf109 (10); "
            "results: ax-bf109 -, ax-he111 A, so-mig3 X (17.33)") in notes(g)
    assert "interdiction over 1904: level none (13.14)" in notes(g)
    assert {u: g.state.units[u].status for u in ("so-mig3", "ax-bf109", "ax-he111", "so-i16")} == {
        "so-mig3": "air_destroyed", "ax-bf109": "air_flown", "ax-he111": "air_flown", "so-i16": "air_flown"}
    # no interdiction: the 40th Army keeps its command point (13.24)
    from kiev_tui.games.efs_ktr.handlers import hq_command
    assert hq_command(g, "so-40a-hq") == 1
