"""Kiev to Rostov: attacks on several Defender Hexes (12.8, 15.26, 15.61d, 15.81h, 16.21, 16.4, 16.55) and
attackers retreating from several hexes, played on made-up Sumy positions through the rule system."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr import chain
from kiev_tui.games.efs_ktr.actions import Advance, Attack, Declare, Retreat, TakeLosses

WEST = ("ax-10mot-9pz", "ax-35mot-25m", "ax-60mot-16m")  # in 1309, next to 1409 and 1410
EAST = ("ax-119mot-25m", "ax-11mot-9pz", "ax-156mot-16m")  # in 1509, next to 1409 and 1410
SIX = tuple(sorted(WEST + EAST))


def placed(units: dict[str, str], rolls: list[int] | None = None, phase: str = "movement") -> Game:
    """Sumy with only ``units`` on the map (uid -> hex), in the Axis ``phase`` of GT50."""
    g = Game.new("efs_ktr/sumy", dice=FixedDice(rolls or [1]))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    for uid, u in g.state.units.items():
        if u.status == "map":
            if uid in units:
                u.hex = units[uid]
            else:
                u.status, u.hex = "cadre", None
    g.memo.clear()  # the position was edited by hand
    while g.state.phase != phase:
        g.apply(EndPhase(), side=g.actor)
    return g


def two_hexes(rolls: list[int]) -> Game:
    """Three motorized regiments in 1309 and three in 1509 (3 attack each, three divisions so no
    15.68 bonus), the 72+108/9 Cavalry in 1409 and the 5+136/9 Cavalry in 1410 (3 defence each):
    every Axis unit is next to both Soviet hexes."""
    units = {u: "1309" for u in WEST} | {u: "1509" for u in EAST}
    return placed(units | {"so-72-108-9c": "1409", "so-5-136-9c": "1410"}, rolls)


def test_12_8_legal_offers_each_hex_and_both_together() -> None:
    g = two_hexes([1])
    assert [a for a in g.rules.legal(g, "axis") if a.kind == "declare"] == [
        Declare("1409", SIX), Declare("1410", SIX), Declare("1409", SIX, ("1410",))]


def test_12_8_every_unit_next_to_every_defender_hex() -> None:
    """The 9th Recon in 1408 is next to 1409 but not to 1410: it may join an attack on 1409 alone,
    never one on both hexes."""
    g = two_hexes([1])
    g.state.units["ax-9rec-9pz"].status, g.state.units["ax-9rec-9pz"].hex = "map", "1408"
    g.memo.clear()
    bad = g.check(Declare("1409", (*SIX, "ax-9rec-9pz"), ("1410",)), side="axis")
    assert bad is not None and bad.case == "12.8" and "ax-9rec-9pz is not next to 1410" in bad.why
    assert g.check(Declare("1409", (*SIX, "ax-9rec-9pz")), side="axis") is None
    bad = g.check(Declare("1409", SIX, ("1409",)), side="axis")
    assert bad is not None and bad.case == "12.8"


def test_12_34_declared_odds_count_the_defence_of_every_hex() -> None:
    """The 33/9Pz (2 attack) in 1309 against 1409 alone is 2 to 3; against both hexes 2 to 6,
    1-3 and allowed; with a Soviet rifle division (8) in 1410 instead it is 2 to 11, under 1-4
    (12.35), while 1409 alone may still be declared."""
    g = two_hexes([1])
    g.state.units["ax-33pz-9pz"].status, g.state.units["ax-33pz-9pz"].hex = "map", "1309"
    g.memo.clear()
    assert g.check(Declare("1409", ("ax-33pz-9pz",), ("1410",)), side="axis") is None
    g.state.units["so-5-136-9c"].status, g.state.units["so-5-136-9c"].hex = "cadre", None
    g.state.units["so-295rd"].status, g.state.units["so-295rd"].hex = "map", "1410"
    g.memo.clear()
    bad = g.check(Declare("1409", ("ax-33pz-9pz",), ("1410",)), side="axis")
    assert bad is not None and bad.case == "12.35"
    assert g.check(Declare("1409", ("ax-33pz-9pz",)), side="axis") is None


def test_15_26_one_combat_two_defender_hexes_each_stack_retreats_and_both_are_entered() -> None:
    """18 to 6 is 3-1; a roll of 1 is -/1R.  The Soviet takes the step from either hex (one force,
    16.21), then each hex's stack retreats on its own prompt, 1409's first (docs/rulings.md):
    the 72+108/9 through 1308 (in the zone of 1309's units: a step and a Retreat Table roll of 1,
    16.46), the 5+136/9 from 1410 to 1412.  The winners then advance into 1409 and into 1410, one
    prompt for each emptied hex (16.55), and a unit that advanced into 1409 is not offered for 1410."""
    g = two_hexes([1, 1])
    g.apply(Declare("1409", SIX, ("1410",)), side="axis")
    assert g.state.hex_markers == {"1409": ["declared_attack"], "1410": ["declared_attack"]}
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    attacks = [a for a in g.rules.legal(g, "axis") if a.kind == "attack"]
    assert len(attacks) == 1 and attacks[0].hex == "1409" and sorted(attacks[0].attackers) == list(SIX)
    bad = g.check(EndPhase(), side="axis")
    assert bad is not None and bad.case == "12.36"
    g.apply(Attack("1409", SIX), side="axis")
    while g.rules.prompt(g).kind != "take_losses":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    journal = [e.describe() for e in g.journal]
    assert "Combat at 1409 and 1410: 18 to 6, 3-1, DRM +0; roll 1: -/1R (15.8)" in journal
    assert g.state.hex_markers == {}  # 15.81h: off both hexes before the result
    p = g.rules.prompt(g)
    assert {o.action for o in p.options} == {TakeLosses(("so-5-136-9c",)), TakeLosses(("so-72-108-9c",))}
    g.apply(TakeLosses(("so-5-136-9c",)), side="soviet")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("retreat", "soviet", "16.4") and "from 1409" in p.text
    assert len(p.options) == 8 and Retreat(("1410", "1411")) in {o.action for o in p.options}  # 16.44
    g.apply(Retreat(("1308", "1208")), side="soviet")
    assert g.state.units["so-72-108-9c"].hex == "1208" and g.state.units["so-72-108-9c"].step == 1
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("retreat", "soviet") and "from 1410" in p.text
    assert [o.action.path for o in p.options][:3] == [("1411", "1311"), ("1411", "1412"), ("1411", "1511")]
    g.apply(Retreat(("1411", "1412")), side="soviet")
    assert g.state.units["so-5-136-9c"].hex == "1412" and g.state.units["so-5-136-9c"].step == 1
    assert g.state.vars.steps_lost == {"soviet": 2}
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("advance", "axis", "16.5") and p.text == "axis: advance into 1409?"
    g.apply(Advance(("ax-10mot-9pz", "ax-11mot-9pz")), side="axis")
    p = g.rules.prompt(g)
    assert p.text == "axis: advance into 1410?"
    offered = {u for o in p.options for u in o.action.units}
    assert offered == {"ax-35mot-25m", "ax-60mot-16m", "ax-119mot-25m", "ax-156mot-16m"}
    g.apply(Advance(("ax-119mot-25m", "ax-35mot-25m")), side="axis")
    assert g.rules.prompt(g) is None and g.state.vars.combat == {}
    where = {u: g.state.units[u].hex for u in SIX}
    assert where == {"ax-10mot-9pz": "1409", "ax-11mot-9pz": "1409", "ax-35mot-25m": "1410",
                     "ax-119mot-25m": "1410", "ax-60mot-16m": "1309", "ax-156mot-16m": "1509"}
    assert g.state.vars.declared == {} and g.state.vars.declared_with == {}
    assert g.check(EndPhase(), side="axis") is None


def test_15_26_an_attacker_next_to_one_hex_only_stays_out() -> None:
    g = two_hexes([1])
    g.apply(Declare("1409", SIX, ("1410",)), side="axis")
    g.state.units["ax-9rec-9pz"].status, g.state.units["ax-9rec-9pz"].hex = "map", "1408"
    g.memo.clear()
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    bad = g.check(Attack("1409", (*SIX, "ax-9rec-9pz")), side="axis")
    assert bad is not None and bad.case == "15.26"


def test_15_61d_the_highest_hex_terrain_of_any_defender_hex() -> None:
    """From 1808 against 1807 (clear) alone: no terrain DRM; against 1807 and 1907 (woods): the
    woods' +1 covers the whole combat."""
    g = placed({"ax-10mot-9pz": "1808", "so-72-108-9c": "1807", "so-5-136-9c": "1907"}, phase="combat")
    one = g.rules.preview(g, ("ax-10mot-9pz",), ("1807",))
    both = g.rules.preview(g, ("ax-10mot-9pz",), ("1807", "1907"))
    assert (one.attack, one.defense, one.column, one.modifiers) == (3, 3, "1-1", ())
    assert (both.attack, both.defense, both.column) == (3, 6, "1-2")
    assert [(m.case, m.die_modifier) for m in both.modifiers] == [("15.61a", 1)]


def test_15_61b_a_river_counts_only_when_it_fronts_every_defender_hex() -> None:
    """The 10/9Pz in 1107 faces 1207 across a minor river and 1208 across none: alone against
    1207 the defender has the river's +1; against both hexes not every defender is behind it."""
    g = placed({"ax-10mot-9pz": "1107", "so-72-108-9c": "1207", "so-5-136-9c": "1208"}, phase="combat")
    one = g.rules.preview(g, ("ax-10mot-9pz",), ("1207",))
    both = g.rules.preview(g, ("ax-10mot-9pz",), ("1207", "1208"))
    assert [(m.case, m.die_modifier) for m in one.modifiers] == [("15.61b", 1)]
    assert both.modifiers == () and both.column == "1-2"


def test_14_31_one_defender_order_covers_every_hex() -> None:
    """The Soviet Motorized phase: the Soviet cavalry in 1309 and 1509 declare one attack on the
    two Axis regiments in 1409 and 1410 (4 to 6, 1-2); the Axis's No Retreat order is placed once
    and, turned, stands on both hexes, with its +1 (15.62): a roll of 5 reads box 6, 1*/-."""
    from kiev_tui.games.efs_ktr.actions import RevealOrder, SetOrder

    g = placed({"so-72-108-9c": "1309", "so-5-136-9c": "1509", "ax-10mot-9pz": "1409", "ax-11mot-9pz": "1410"},
               rolls=[5])
    while not (g.state.player == "soviet" and g.state.phase == "motorized"):
        g.apply(EndPhase(), side=g.actor)
    g.apply(Declare("1409", ("so-5-136-9c", "so-72-108-9c"), ("1410",)), side="soviet")
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Attack("1409", ("so-5-136-9c", "so-72-108-9c")), side="soviet")
    while g.rules.prompt(g).kind != "set_order":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    g.apply(SetOrder("no_retreat"), side="axis")
    while g.rules.prompt(g).kind != "reveal_order":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    g.apply(g.rules.prompt(g).options[0].action, side="axis")
    assert isinstance(g.log[-1], RevealOrder)
    assert g.state.vars.orders == {"1409": "no_retreat", "1410": "no_retreat"}
    journal = [e.describe() for e in g.journal]
    assert "Combat at 1409 and 1410: 4 to 6, 1-2, DRM +1; roll 5: 1*/- (15.8)" in journal


def test_16_4_attackers_in_two_hexes_retreat_one_stack_after_the_other() -> None:
    """Sumy's CRT has no attacker retreat, so the chain is entered at its attacker-retreat stage
    with a two-hex retreat owed (as an R against the attacker would leave it): the cavalry that
    attacked 1409 from 1309 and from 1509 each get their own prompt, 1309's first, and each
    retreats away from its own hex."""
    from kiev_tui.games.efs_ktr.state import efs_vars

    g = placed({"so-72-108-9c": "1309", "so-5-136-9c": "1509", "ax-10mot-9pz": "1409"})
    nothing = {"steps": 0, "elim": False, "first": [], "retreat": 0, "by_enemy": False}
    efs_vars(g.state).combat = {
        "kind": "attack", "hex": "1409", "attacker": "soviet", "defender": "axis",
        "attackers": ["so-72-108-9c", "so-5-136-9c"], "artillery": [], "defenders": ["ax-10mot-9pz"], "dart": [],
        "stage": "retreat_a", "air": {}, "cas": {}, "aorder": "", "dorder": "", "may_advance": False,
        "losses": {"soviet": {**nothing, "retreat": 2}, "axis": nothing}}
    chain.run(g)
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("retreat", "soviet", "16.4") and "from 1309" in p.text
    assert len(p.options) == 15 and {o.action.path[0] for o in p.options} == {"1209", "1210", "1310", "1308", "1410"}
    g.apply(Retreat(("1209", "1109")), side="soviet")
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("retreat", "soviet") and "from 1509" in p.text and len(p.options) == 13
    g.apply(Retreat(("1609", "1709")), side="soviet")
    assert g.rules.prompt(g) is None and g.state.vars.combat == {}
    assert (g.state.units["so-72-108-9c"].hex, g.state.units["so-5-136-9c"].hex) == ("1109", "1709")
    assert g.state.units["ax-10mot-9pz"].hex == "1409"


def test_15_52b_a_major_river_into_one_defender_hex_halves_the_unit() -> None:
    """A made-up major river between 1107 and 1207 (Sumy has none): the 10/9Pz in 1107 attacking
    1207 and 1208 together crosses it into one of them and is halved (docs/rulings.md), while the
    river DRM (15.61b) needs every hexside to be a river and is not given."""
    from tests.efs_positions import hx, map_copy, position

    m = map_copy()
    m.set_side_features(hx("1107"), hx("1207"), frozenset({"major_river"}))
    b = position({"ax-10mot-9pz": "1107", "so-72-108-9c": "1207", "so-5-136-9c": "1208"}, gmap=m)
    both = chain.combatant(b, "ax-10mot-9pz", (hx("1207"), hx("1208")))
    assert (both.major_river, both.river) == (True, False)
    dry = chain.combatant(b, "ax-10mot-9pz", (hx("1208"),))
    assert (dry.major_river, dry.river) == (False, False)


def test_12_8_artillery_in_range_of_one_defender_hex_supports() -> None:
    """The 619th Artillery in 1711 is four hexes from 1409 and three from 1410 (14.2's range of
    three): in range of one of the two Defender Hexes, it may support the attack on both."""
    units = {u: "1309" for u in WEST} | {u: "1509" for u in EAST}
    g = placed(units | {"so-72-108-9c": "1409", "so-5-136-9c": "1410", "ax-619art": "1711"}, [1])
    g.apply(Declare("1409", SIX, ("1410",)), side="axis")
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    assert [a.artillery for a in g.rules.legal(g, "axis") if a.kind == "attack"] == [("ax-619art",), ()]
    assert g.check(Attack("1409", SIX, ("ax-619art",)), side="axis") is None


def test_15_81h_declared_markers_come_off_every_defender_hex_before_the_result() -> None:
    """A declared attack on 1409 with 1410 and a second one on 1408 by the 9th Recon (1307): once
    the first combat's die is rolled (3-1, roll 1, -/1R) and the Soviet is asked for the step,
    1409 and 1410 have no marker left, and 1408's marker is still there."""
    g = two_hexes([1])
    for uid, at in (("ax-9rec-9pz", "1307"), ("so-227rd", "1408")):
        g.state.units[uid].status, g.state.units[uid].hex = "map", at
    g.memo.clear()
    g.apply(Declare("1409", SIX, ("1410",)), side="axis")
    g.apply(Declare("1408", ("ax-9rec-9pz",)), side="axis")
    assert g.state.hex_markers == {x: ["declared_attack"] for x in ("1408", "1409", "1410")}
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Attack("1409", SIX), side="axis")
    while g.rules.prompt(g).kind != "take_losses":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    assert "Combat at 1409 and 1410: 18 to 6, 3-1, DRM +0; roll 1: -/1R (15.8)" in [e.describe() for e in g.journal]
    assert g.state.vars.steps_lost == {}  # the result is not applied yet
    assert g.state.hex_markers == {"1408": ["declared_attack"]}


def test_16_55_winners_from_either_hex_advance_into_either_defender_hex() -> None:
    """The 15.26 combat (3-1, roll 1, -/1R; both Soviet stacks retreat): the advance asks about
    1409, then 1410; the 11th Motorized from 1509 goes into 1409 and the 10th Motorized from 1309
    into 1410, each into the Defender Hex on the far side from where it attacked."""
    g = two_hexes([1, 1])
    g.apply(Declare("1409", SIX, ("1410",)), side="axis")
    while g.state.phase != "combat":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Attack("1409", SIX), side="axis")
    while g.rules.prompt(g).kind != "take_losses":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    g.apply(TakeLosses(("so-5-136-9c",)), side="soviet")
    g.apply(Retreat(("1308", "1208")), side="soviet")
    g.apply(Retreat(("1411", "1412")), side="soviet")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case, p.text) == ("advance", "axis", "16.5", "axis: advance into 1409?")
    assert {u for o in p.options for u in o.action.units} == set(SIX)
    g.apply(Advance(("ax-11mot-9pz",)), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.text) == ("advance", "axis: advance into 1410?")
    assert {u for o in p.options for u in o.action.units} == set(SIX) - {"ax-11mot-9pz"}
    g.apply(Advance(("ax-10mot-9pz",)), side="axis")
    assert g.rules.prompt(g) is None
    assert {u: g.state.units[u].hex for u in ("ax-11mot-9pz", "ax-10mot-9pz")} == {
        "ax-11mot-9pz": "1409", "ax-10mot-9pz": "1410"}


def test_12_34_the_declaring_preview_counts_the_defence_of_every_hex() -> None:
    """While the Axis declares, the preview of both hexes carries the declaration's own figure,
    18 against the 3 + 3 of both cavalry divisions (12.33-12.34), and the declaration is allowed."""
    g = two_hexes([1])
    both = g.rules.preview(g, SIX, ("1409", "1410"))
    assert both is not None and both.illegal is None
    assert [n for n in both.notes if n.startswith("declared at")] == [
        "declared at 18 to 6 (3-1, 12.33-12.35); the odds above are the battle as it stands now: artillery, air "
        "and orders are added in the Combat phase (12.12)"]
