"""The Sumy tutorial (PB 10.4), Game-Turn 50's Axis Movement and Combat phases, replayed through
``game.apply`` with the playbook's own die rolls: positions, MP spent, odds, results and losses
as the playbook gives them.  (The Motorized phases onwards, with the rulings on the rocket
battalion's 2105->2107 and the 1st Tank Brigade's road move, are still to be scripted.)"""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import system
from kiev_tui.games.efs_ktr.actions import AirMission, Attack, AttackerOrder, Advance, Declare, Move

PZ = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz")
M16 = ("ax-156mot-16m", "ax-341rec-16m", "ax-60mot-16m")
M25 = ("ax-119mot-25m", "ax-35mot-25m")
# PB 10.4, GT50: air initiative 3, the I-16's shot at the He111 9, the 25th Motorized's AA at the
# SB 9, the combat at 1510 6, the combat at 1508 5.
ROLLS = [3, 9, 9, 6, 5]


def notes(g: Game) -> list[str]:
    return [e.describe() for e in g.journal]


def answer(g: Game, kind: str, side: str, action: object) -> None:
    p = g.rules.prompt(g)
    assert p is not None and (p.kind, p.side) == (kind, side), p
    assert action in {o.action for o in p.options}
    g.apply(action, side=side)  # type: ignore[arg-type]


def test_pb_10_4_gt50_axis_movement_and_combat() -> None:
    g = Game.new("efs_ktr/sumy", dice=FixedDice(list(ROLLS)))
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
    assert "air initiative soviet (roll 3); air combat: ax-he111 -" in text  # 17.32a, 17.33: the bomber gets away
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
