"""Kiev to Rostov air power (EFS 9, 13, 15.1, 17; PB 5.13c, 10.4, 11.1): each case, the Sumy
tutorial's air actions (GT50 CAS over 1510, GT51 readiness and the interdiction of 1904) and the
playbook's two air examples, with their own rolls."""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.efs_ktr import air as a
from kiev_tui.games.efs_ktr import combat as c
from kiev_tui.games.efs_ktr.air import AAUnit, AirUnit
from kiev_tui.games.efs_ktr.tables import load_more_tables, load_tables

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "efs_ktr"
M = load_more_tables(DATA / "tables.toml")
SC = load_scenario("efs_ktr/sumy")


def plane(uid: str) -> AirUnit:
    """A Sumy air counter from units.toml."""
    u = SC.catalog.units[uid]
    x = u.extra
    return AirUnit(uid, u.side, x["air_role"], x.get("acr", 0), x.get("cas", 0), x.get("interdiction", 0))


def ground(uid: str) -> AAUnit:
    u = SC.catalog.units[uid]
    return AAUnit(uid, u.side, u.type, u.size, bool(u.extra.get("zoc", True)), u.division)


JU87 = AirUnit("ju87", "axis", "bomber", acr=1, cas=2, interdiction=2, aa_drm=-1)
JU88 = AirUnit("ju88", "axis", "bomber", acr=3, cas=1, interdiction=1)
BF109F = AirUnit("bf109f", "axis", "fighter", acr=4, cas=0, interdiction=1)
MIG3_A = AirUnit("mig3a", "soviet", "fighter", acr=2)
MIG3_B = AirUnit("mig3b", "soviet", "fighter", acr=2)
SU2 = AirUnit("su2", "soviet", "bomber", acr=1, cas=1)


# ------------------------------------------------------------------------- set-up and readiness


def test_pb_10_4_air_set_up() -> None:
    """GT50: the He111, the dummy, the SB and the I-16 all fly, so all start Ready (17.13); GT51
    brings the Bf109, MiG-3 and the second SB to the Ready Boxes."""
    air = SC.extra["air"]
    assert sorted(air["ready"]) == ["ax-dummy-1", "ax-he111", "so-i16", "so-sb-1"]
    arrivals = {(r["side"], r["turn"]): sorted(r["units"]) for r in air["arrival"]}
    assert arrivals == {("axis", 2): ["ax-bf109"], ("soviet", 2): ["so-mig3", "so-sb-2"]}
    boxes = {uid: a.READY for uid in air["ready"]}
    assert a.check_mission([plane("ax-he111")], boxes, a.CAS, M) is None
    assert a.check_mission([plane("ax-dummy-1")], boxes, a.CAS, M) is None


def test_pb_10_4_gt51_readiness_rolls() -> None:
    """SB 6, I-16 3, He111 7: all back to Ready (Soviet range 1-8, no modifier)."""
    for uid, roll in (("so-sb-1", 6), ("so-i16", 3), ("ax-he111", 7)):
        assert a.readiness(plane(uid), a.FLOWN, roll, M, a.logistics_pause_drm(plane(uid).side, False, M)) == a.READY


def test_9_11_readiness_boxes() -> None:
    sb = plane("so-sb-1")
    assert a.readiness(sb, a.FLOWN, 8, M) == a.READY and a.readiness(sb, a.FLOWN, 9, M) == a.FLOWN
    assert a.readiness(sb, a.FLOWN, 0, M) == a.FLOWN  # 0 reads 10
    assert a.readiness(sb, a.DAMAGED, 5, M) == a.FLOWN and a.readiness(sb, a.DAMAGED, 6, M) == a.DAMAGED
    assert a.readiness(sb, a.READY, None, M) == a.READY
    assert a.readiness(plane("ax-dummy-1"), a.FLOWN, None, M) == a.READY  # no roll for a dummy
    assert isinstance(a.readiness(sb, a.FLOWN, None, M), Illegal)


def test_9_12_storm_sends_ready_units_to_roll() -> None:
    sb = plane("so-sb-1")
    assert a.readiness(sb, a.READY, 9, M, storm=True) == a.FLOWN
    assert a.readiness(sb, a.READY, 2, M, storm=True) == a.READY


def test_9_13_destroyed_units_never_roll() -> None:
    assert a.readiness(plane("so-sb-1"), a.DESTROYED, 1, M) == a.DESTROYED


def test_pb_5_13c_axis_readiness_modifier_only_during_the_pause() -> None:
    he = plane("ax-he111")
    assert a.logistics_pause_drm("axis", True, M) == 1 and a.logistics_pause_drm("soviet", True, M) == 0
    assert a.readiness(he, a.FLOWN, 8, M, a.logistics_pause_drm("axis", True, M)) == a.FLOWN
    assert a.readiness(he, a.FLOWN, 8, M, a.logistics_pause_drm("axis", False, M)) == a.READY  # Sumy


# ---------------------------------------------------------------------------------- missions


def test_17_21b_three_units_a_side() -> None:
    units = [AirUnit(f"u{i}", "axis", "bomber", 1, 1) for i in range(4)]
    boxes = {u.uid: a.READY for u in units}
    bad = a.check_mission(units, boxes, a.CAS, M)
    assert isinstance(bad, Illegal) and bad.case == "17.21b"
    assert a.check_mission(units[:3], boxes, a.CAS, M) is None


def test_17_13_only_ready_units_fly() -> None:
    bad = a.check_mission([plane("ax-he111")], {"ax-he111": a.FLOWN}, a.CAS, M)
    assert isinstance(bad, Illegal) and bad.case == "17.13"


def test_17_21a_one_mission_a_turn_even_for_a_dummy_back_in_ready() -> None:
    d = plane("ax-dummy-1")
    bad = a.check_mission([d], {d.uid: a.READY}, a.INTERDICTION, M, flown_this_turn=[d.uid])
    assert isinstance(bad, Illegal) and bad.case == "17.21a"


def test_13_11_soviet_fighters_only_oppose_interdiction() -> None:
    assert a.check_interdiction_opposition([plane("so-i16"), plane("so-mig3")]) is None
    bad = a.check_interdiction_opposition([plane("so-sb-1")])
    assert isinstance(bad, Illegal)


def test_17_31a_dummies_leave_when_revealed() -> None:
    real, dummies = a.reveal([plane("ax-dummy-1"), plane("ax-he111")])
    assert [u.uid for u in real] == ["ax-he111"] and dummies == ("ax-dummy-1",)


def test_17_31b_mission_and_firing_units() -> None:
    bf, he, i16 = plane("ax-bf109"), plane("ax-he111"), plane("so-i16")
    assert [u.uid for u in a.firing_units([bf, he], a.INTERDICTION)] == ["ax-bf109"]
    assert a.firing_units([bf, he], a.INTERDICTION, ["ax-bf109"]) == ()
    assert [u.uid for u in a.mission_units([bf, he], a.INTERDICTION, ["ax-bf109"])] == ["ax-bf109", "ax-he111"]
    assert a.check_declarations([bf], a.CAS, ["ax-bf109"]) is None
    bad = a.check_declarations([i16], a.CAS, ["so-i16"])  # no CAS rating: it always fires
    assert isinstance(bad, Illegal) and bad.case == "17.31b2"


# -------------------------------------------------------------------------------- initiative


def test_17_32_air_initiative() -> None:
    both = {"axis", "soviet"}
    r = a.air_initiative(1, both, M)
    assert isinstance(r, a.Initiative) and (r.combat, r.side, r.lta) == (True, "axis", True)
    for roll in (6, 7):
        r = a.air_initiative(roll, both, M)
        assert isinstance(r, a.Initiative) and not r.combat and r.side == ""
    r = a.air_initiative(5, both, M)
    assert isinstance(r, a.Initiative) and (r.side, r.lta) == ("axis", False)
    r = a.air_initiative(0, both, M)  # 0 reads 10
    assert isinstance(r, a.Initiative) and (r.side, r.lta) == ("soviet", True)


def test_17_32a_a_side_without_firing_units_cannot_hold_it() -> None:
    r = a.air_initiative(1, {"soviet"}, M)
    assert isinstance(r, a.Initiative) and (r.combat, r.side, r.lta) == (True, "soviet", False)
    r = a.air_initiative(4, set(), M)
    assert isinstance(r, a.Initiative) and not r.combat


def test_17_33a_every_enemy_firer_is_engaged_first() -> None:
    firers = [BF109F, MIG3_A, MIG3_B]
    targets = [JU87, JU88]
    assert a.check_pairs("axis", firers, targets, [("bf109f", "mig3a"), ("mig3b", "ju88"), ("mig3a", "bf109f")]) is None
    bad = a.check_pairs("axis", firers, targets, [("bf109f", "ju87")])
    assert isinstance(bad, Illegal) and bad.case == "17.33a"
    assert isinstance(a.check_pairs("axis", firers, targets, [("ju87", "mig3a")]), Illegal)
    assert isinstance(a.check_pairs("axis", firers, targets, [("bf109f", "ju87"), ("bf109f", "mig3a")]), Illegal)


# --------------------------------------------------------- the tutorial's GT50 CAS over 1510


def test_pb_10_4_gt50_cas_over_1510() -> None:
    """Axis He111 and dummy against SB and I-16: Soviet roll 3 allows air combat (only the Soviet
    fires), I-16 on the -1 column rolls 9, nothing; no Soviet AA (cavalry only); Axis AA from the
    25th Motorized rolls 9, the SB aborts.  The He111's CAS is the combat's -1."""
    axis, dummies = a.reveal([plane("ax-dummy-1"), plane("ax-he111")])
    soviet, _ = a.reveal([plane("so-sb-1"), plane("so-i16")])
    assert dummies == ("ax-dummy-1",)
    firers = a.firing_units([*axis, *soviet], a.CAS)
    assert [u.uid for u in firers] == ["so-i16"]
    ini = a.air_initiative(3, {u.side for u in firers}, M)
    assert isinstance(ini, a.Initiative) and (ini.combat, ini.side) == (True, "soviet")
    he, i16, sb = plane("ax-he111"), plane("so-i16"), plane("so-sb-1")
    assert a.check_pairs("soviet", firers, [he, sb], [("so-i16", "ax-he111")]) is None
    assert M.air.combat_column(i16.acr - he.acr) is M.air.combat[-1]
    assert a.air_combat([(i16, he)], [9], M) == {"ax-he111": "-"}
    # AA: the 5th Cavalry's regiment in 1510 and nothing else Soviet near
    assert a.aa_fire(4, [ground("so-11-96-5c")], he, M) is None
    # the 35th and 119th in 1411 (next to 1510) fire once at the SB
    assert a.aa_eligible([ground("ax-35mot-25m"), ground("ax-119mot-25m")]) == ("ax-35mot-25m", "ax-119mot-25m")
    result = a.aa_fire(9, [ground("ax-35mot-25m"), ground("ax-119mot-25m")], sb, M)
    assert result == "A" and a.RESULT_BOX[result] == a.FLOWN
    assert a.cas_points([he], []) == (1, 0)


def test_pb_10_4_tutorial_slip_one_25th_motorized_regiment_is_enough() -> None:
    """17.42a: any Axis combat unit but cavalry and no-ZOC units fires AA; the tutorial's 'two of
    three units present' is no condition (ruling)."""
    assert a.aa_eligible([ground("ax-35mot-25m")]) == ("ax-35mot-25m",)
    assert a.aa_fire(9, [ground("ax-35mot-25m")], plane("so-sb-1"), M) == "A"


# ----------------------------------------------------- the tutorial's GT51 interdiction of 1904


def test_pb_10_4_gt51_interdiction_of_1904() -> None:
    """Bf109 declared a firing unit; roll 5, Axis initiative; Bf109 on MiG-3 (+2, roll 2: X), the
    MiG-3 back (-2, roll 10: nothing), the I-16 on the He111 (-1, roll 2: A).  No interdiction:
    the 40th Army HQ keeps its command of 1."""
    bf, he, mig, i16 = plane("ax-bf109"), plane("ax-he111"), plane("so-mig3"), plane("so-i16")
    assert a.check_interdiction_opposition([mig, i16]) is None
    firers = a.firing_units([bf, he, mig, i16], a.INTERDICTION)
    assert [u.uid for u in firers] == ["ax-bf109", "so-mig3", "so-i16"]
    ini = a.air_initiative(5, {u.side for u in firers}, M)
    assert isinstance(ini, a.Initiative) and (ini.side, ini.lta) == ("axis", False)
    pairs = [("ax-bf109", "so-mig3"), ("so-mig3", "ax-bf109"), ("so-i16", "ax-he111")]
    assert a.check_pairs("axis", firers, [he], pairs) is None
    results = a.air_combat([(bf, mig), (mig, bf), (i16, he)], [2, 10, 2], M)
    assert results == {"so-mig3": "X", "ax-bf109": "-", "ax-he111": "A"}
    assert a.RESULT_BOX["X"] == a.DESTROYED and a.RESULT_BOX["A"] == a.FLOWN
    survivors = [u for u in a.mission_units([bf, he], a.INTERDICTION) if results.get(u.uid, "-") == "-"]
    assert survivors == [] and a.interdiction_level(survivors, M) == 0
    command = SC.catalog.units["so-40a-hq"].extra["command"]
    assert a.interdicted_command(command, a.interdiction_level(survivors, M)) == 1


# ------------------------------------------------------------------ PB 11.1's two air examples


def test_pb_11_1_example_1_interdiction() -> None:
    """Roll 1: Axis initiative with LTA.  MiG-3 on Ju88 (-1, roll 6: nothing); Bf109 on MiG-3
    (+2, 5: D), the MiG-3 back (-2, 3: nothing); LTA: Bf109 on the other MiG-3 (+2, 3: X).  AA with
    an HQ: Ju88 8+1 = 9 A, Ju87 5+1-1 = 5 nothing.  The Ju87's 2 points give Level Two."""
    ini = a.air_initiative(1, {"axis", "soviet"}, M)
    assert isinstance(ini, a.Initiative) and (ini.side, ini.lta) == ("axis", True)
    first = [(MIG3_B, JU88), (BF109F, MIG3_A), (MIG3_A, BF109F)]
    assert a.check_pairs("axis", [BF109F, MIG3_A, MIG3_B], [JU87, JU88],
                         [(f.uid, t.uid) for f, t in first]) is None
    r1 = a.air_combat(first, [6, 5, 3], M)
    assert r1 == {"ju88": "-", "mig3a": "D", "bf109f": "-"}
    assert a.unengaged("axis", first, r1) == ("bf109f",)
    r2 = a.air_combat([(BF109F, MIG3_B)], [3], M)
    assert r2 == {"mig3b": "X"}
    hq = [AAUnit("hq", "soviet", "hq", "HQ")]
    assert a.aa_drm(hq, JU88, M) == 1 and a.aa_fire(8, hq, JU88, M) == "A"
    assert a.aa_drm(hq, JU87, M) == 0 and a.aa_fire(5, hq, JU87, M) == "-"
    assert a.interdiction_level([JU87], M) == 2


def test_pb_11_1_example_2_cas() -> None:
    """Roll 6: no air combat.  Axis AA at the SU-2, roll 3: nothing; Soviet AA (two AA units, +2)
    at the Ju87 (-1): 10+2-1 = 11, damaged.  The SU-2's CAS 1 is the defender's +1."""
    ini = a.air_initiative(6, {"axis", "soviet"}, M)
    assert isinstance(ini, a.Initiative) and not ini.combat
    axis_ground = [AAUnit("pzg", "axis", "motorized", "III")]
    assert a.aa_fire(3, axis_ground, SU2, M) == "-"
    soviet_aa = [AAUnit("aa1", "soviet", "anti_aircraft", "II"), AAUnit("aa2", "soviet", "anti_aircraft", "II")]
    assert a.aa_drm(soviet_aa, JU87, M) == 1
    assert a.aa_fire(10, soviet_aa, JU87, M) == "D" and a.RESULT_BOX["D"] == a.DAMAGED
    att, dfn = a.cas_points([], [SU2])
    assert (att, dfn) == (0, 1)
    tables = load_tables(DATA / "tables.toml")
    inp = c.CombatInput("axis", (c.Combatant("m", "motorized", 6, 3, 2, german=True),),
                        (c.Combatant("r", "rifle", 3, 3, 2),), attacker_cas=att, defender_cas=dfn)
    p = c.plan(inp, tables)
    assert isinstance(p, c.Plan) and [(m.case, m.die_modifier) for m in p.modifiers] == [("15.65", 1)]


# --------------------------------------------------------------------------------- AA (17.4)


def test_17_43_each_side_held_to_two() -> None:
    firing = [AAUnit(f"aa{i}", "soviet", "anti_aircraft", "II") for i in range(3)] + [AAUnit("hq", "soviet", "hq", "HQ")]
    assert a.aa_drm(firing, JU88, M) == 2
    weak = AirUnit("x", "axis", "bomber", aa_drm=-3)
    assert a.aa_drm(firing, weak, M) == 0


def test_17_42a_axis_eligibility() -> None:
    units = [AAUnit("cav", "axis", "cavalry", "III"), AAUnit("nozoc", "axis", "artillery", "II", zoc=False),
             AAUnit("flak", "axis", "anti_aircraft", "II", zoc=False), AAUnit("art", "axis", "artillery", "III")]
    assert a.aa_eligible(units) == ("flak", "art")


def test_17_42b_soviet_eligibility_and_guards_regiments() -> None:
    assert a.aa_eligible([ground("so-131-160-5c"), ground("so-11-96-5c")]) == ()  # cavalry
    assert a.aa_eligible([ground("so-227rd"), ground("so-40a-hq"), ground("so-126-205aa")]) == (
        "so-227rd", "so-40a-hq", "so-126-205aa")
    assert a.aa_eligible([ground("so-129tb")]) == ()  # a brigade: under divisional size
    # ruling: the 1st Guards Motorized counts as a division with two of its regiments in range
    assert a.aa_eligible([ground("so-6-1gdm")]) == ()
    assert a.aa_eligible([ground("so-6-1gdm"), ground("so-12-1gdm")]) == ("so-6-1gdm", "so-12-1gdm")
    assert a.aa_eligible([ground("so-6-1gdm"), ground("so-2-4gdr")]) == ()  # the rocket battalion is no part


def test_17_41_no_eligible_unit_no_fire() -> None:
    assert a.aa_fire(10, [], JU87, M) is None
    assert a.aa_fire(10, [AAUnit("own", "axis", "motorized", "III")], JU87, M) is None  # own side never fires


def test_17_33d_worst_result_stands() -> None:
    res = a.air_combat([(BF109F, MIG3_A), (MIG3_B, MIG3_A)], [5, 1], M)  # D and, from +0, D at 1
    assert res == {"mig3a": "D"}
    res = a.air_combat([(BF109F, SU2), (BF109F, SU2)], [9, 1], M)  # +3: 9 nothing, 1 X
    assert res == {"su2": "X"}


# ------------------------------------------------------------------------ interdiction (13)


def test_13_14_interdiction_levels() -> None:
    assert a.interdiction_level([JU88], M) == 1
    assert a.interdiction_level([JU88, BF109F], M) == 2
    assert a.interdiction_level([JU87, JU88], M) == 2
    assert a.interdiction_level([SU2], M) == 0


def test_13_15_overlapping_zones_stop_at_two() -> None:
    assert a.hex_interdiction([1, 1, 2], M) == 2 and a.hex_interdiction([1], M) == 1


def test_13_24_hq_command_and_artillery() -> None:
    assert a.interdicted_command(1, 2) == 0 and a.interdicted_command(3, 1) == 2
    assert a.interdicted_artillery(3, 2) == 1 and a.interdicted_artillery(1, 2) == 1


def test_17_24_attacker_places_cas_first() -> None:
    assert a.check_cas_placement("axis", "axis", False, True, False) is None
    assert a.check_cas_placement("soviet", "axis", True, True, False) is None
    bad = a.check_cas_placement("soviet", "axis", False, True, False)
    assert isinstance(bad, Illegal) and bad.case == "17.24"
    assert isinstance(a.check_cas_placement("axis", "axis", True, True, False), Illegal)
    assert isinstance(a.check_cas_placement("axis", "axis", False, False, False), Illegal)


def test_15_12_one_mission_a_side_per_hex() -> None:
    bad = a.check_cas_placement("axis", "axis", False, True, True)
    assert isinstance(bad, Illegal) and bad.case == "15.12"


# ------------------------------------------- dual-purpose fighters (17.31b2), LTA (17.33e) in play


PZ9 = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz")


def cas_over_1506(rolls: list[int], ready: tuple[str, ...], axis_air: str, soviet_air: str) -> "Game":
    """GT50: the 9th Panzer attacks the 5+136/9 Cavalry in 1506 with ``axis_air`` flying close air
    support and ``soviet_air`` against it (``ready`` made Ready by hand); both sides' units are
    placed face down and turned up, and the chain stops at the next question."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.engine.game import Game
    from kiev_tui.games.efs_ktr import system
    from kiev_tui.games.efs_ktr.actions import AirMission, Attack, Declare, Move, RevealAir

    g = Game.new("efs_ktr/sumy", dice=FixedDice(rolls))
    for uid in ready:
        g.state.units[uid].status = "air_ready"
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    reach = g.reachable(PZ9)
    g.apply(Move(PZ9, reach[b.parse("1406")].path), side="axis")
    g.apply(Declare("1506", PZ9), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1506", PZ9, ()), side="axis")
    g.apply(AirMission(axis_air), side="axis")
    g.apply(AirMission(soviet_air), side="soviet")
    for side in ("axis", "soviet"):
        sec = g.state.secrets[side]["air"]
        g.apply(RevealAir(sec["choice"], sec["salt"]), side=side)
    return g


def journal(g: "Game") -> list[str]:
    return [e.describe() for e in g.journal]


def air_boxes(g: "Game", *uids: str) -> dict[str, str]:
    return {u: g.state.units[u].status for u in uids}


def test_17_33e_local_tactical_advantage_second_shot_cannot_be_answered() -> None:
    """Bf109 (firing) and He111 against I-16, MiG-3 and SB over 1506.  Roll 1: Axis initiative
    with Local Tactical Advantage.  The Bf109 takes the MiG-3 (+2, roll 2: X); the I-16 goes for
    the He111 (-1, 9: nothing), the MiG-3 back at the Bf109 (-2, 10: nothing).  The Bf109 is
    unengaged: it picks the I-16 (+3, 5: X), which does not fire back.  Axis AA at the SB: 9, A."""
    from kiev_tui.games.efs_ktr.actions import AirLta, AirPairs, AirRoles

    g = cas_over_1506([1, 2, 9, 10, 5, 9], ("ax-bf109", "so-mig3"), "ax-bf109,ax-he111", "so-i16,so-mig3,so-sb-1")
    g.apply(AirRoles(()), side="axis")  # 17.31b2: the Bf109 fires
    g.apply(AirPairs(("ax-bf109>so-mig3",)), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("air_lta", "axis", "17.33e")
    # the MiG-3 is gone; the I-16 (a firing unit) and the SB (a mission unit) are both fair game
    assert [o.action for o in p.options] == [AirLta(("ax-bf109>so-i16",)), AirLta(("ax-bf109>so-sb-1",))]
    assert list(g.rules.legal(g, "axis")) == [o.action for o in p.options]
    for bad, why in ((AirLta(("ax-bf109>so-mig3",)), "so-mig3 is not an enemy air unit still over the hex"),
                     (AirLta(("ax-he111>so-i16",)), "ax-he111 is not a firing unit left unengaged by the first round"),
                     (AirLta(()), "every unengaged firer takes a new target: ax-bf109 has none"),
                     (AirLta(("ax-bf109>so-i16", "ax-bf109>so-sb-1")), "ax-bf109 takes one new target")):
        r = g.check(bad, side="axis")
        assert r is not None and (r.case, r.why) == ("17.33e", why)
    assert g.check(AirLta(("ax-bf109>so-i16",)), side="soviet") is not None  # not the Soviet's question
    g.apply(AirLta(("ax-bf109>so-i16",)), side="axis")
    text = journal(g)
    assert "air initiative axis with Local Tactical Advantage (roll 1): air combat (17.32)" in text
    assert ("air combat: ax-bf109 at so-mig3 (2), so-i16 at ax-he111 (9), so-mig3 at ax-bf109 (10); "
            "results: ax-bf109 -, ax-he111 -, so-mig3 X (17.33)") in text
    assert "local tactical advantage: ax-bf109 at so-i16 (5); results: so-i16 X (17.33e)" in text
    assert "AA fire at so-sb-1: roll 9, A (17.4)" in text
    assert "close air support on 1506: attacker 1, defender 0 (15.65)" in text
    assert g.dice.used == 6  # one shot more than the first round's three, and no answer to it
    assert air_boxes(g, "ax-bf109", "ax-he111", "so-i16", "so-mig3", "so-sb-1") == {
        "ax-bf109": "air_flown", "ax-he111": "air_flown", "so-i16": "air_destroyed", "so-mig3": "air_destroyed",
        "so-sb-1": "air_flown"}


def test_17_33e_no_advantage_no_second_shot() -> None:
    """The same sky with a roll of 2: Axis initiative without the advantage.  Nobody is asked for
    new targets; the I-16 survives and goes to the Flown Box (17.33f)."""
    from kiev_tui.games.efs_ktr.actions import AirPairs, AirRoles

    g = cas_over_1506([2, 2, 9, 10, 9], ("ax-bf109", "so-mig3"), "ax-bf109,ax-he111", "so-i16,so-mig3,so-sb-1")
    g.apply(AirRoles(()), side="axis")
    g.apply(AirPairs(("ax-bf109>so-mig3",)), side="axis")
    assert g.rules.prompt(g).kind == "set_order"
    text = journal(g)
    assert "air initiative axis (roll 2): air combat (17.32)" in text
    assert not any("local tactical advantage" in t for t in text)
    assert g.dice.used == 5
    assert air_boxes(g, "so-i16", "so-mig3", "so-sb-1") == {
        "so-i16": "air_flown", "so-mig3": "air_destroyed", "so-sb-1": "air_flown"}


def test_17_33e_a_single_new_target_is_taken_without_a_question() -> None:
    """Roll 10: Soviet initiative with the advantage.  The I-16 alone faces the He111 (the Bf109
    declared a mission unit, so the Axis has no firer): -1, roll 1: A.  The I-16 is unengaged and
    the Bf109 is the one Axis unit left: it shoots at it (-3, roll 1: A); no question is asked."""
    from kiev_tui.games.efs_ktr.actions import AirPairs, AirRoles

    g = cas_over_1506([10, 1, 1], ("ax-bf109",), "ax-bf109,ax-he111", "so-i16")
    g.apply(AirRoles(("ax-bf109",)), side="axis")
    g.apply(AirPairs(("so-i16>ax-he111",)), side="soviet")
    assert g.rules.prompt(g).kind == "set_order"
    text = journal(g)
    assert "air combat: so-i16 at ax-he111 (1); results: ax-he111 A (17.33)" in text
    assert "local tactical advantage: so-i16 at ax-bf109 (1); results: ax-bf109 A (17.33e)" in text
    assert not any(t.startswith("close air support on 1506") for t in text)  # nothing left to support
    assert air_boxes(g, "ax-bf109", "ax-he111", "so-i16") == dict.fromkeys(("ax-bf109", "ax-he111", "so-i16"),
                                                                             "air_flown")


def test_17_33e_pure_rules() -> None:
    """Unengaged firers, what is left to shoot at, and worst results over two rounds."""
    pairs = [(BF109F, MIG3_A), (MIG3_A, BF109F)]
    assert a.unengaged("axis", pairs, {"mig3a": "A"}) == ("bf109f",)
    assert a.unengaged("axis", pairs, {"mig3a": "A", "bf109f": "D"}) == ()  # both hit: the Bf109 is gone too
    assert a.unengaged("axis", pairs, {}) == ()  # its opponent is still there
    left = a.lta_targets("axis", [BF109F, JU87, MIG3_A, MIG3_B, SU2], {"mig3a": "A"})
    assert [u.uid for u in left] == ["mig3b", "su2"]
    assert a.check_lta(["bf109f"], left, [("bf109f", "su2")]) is None
    bad = a.check_lta(["bf109f"], left, [("bf109f", "mig3a")])
    assert isinstance(bad, Illegal) and bad.case == "17.33e"
    assert a.merge_results({"x": "A", "y": "-"}, {"x": "X", "y": "D"}, {"x": "-"}) == {"x": "X", "y": "D"}


def test_17_31b2_dual_purpose_fighter_declared_a_mission_unit() -> None:
    """The Bf109 (CAS 1) and the He111 over 1506 against the I-16.  Both are face up before the
    Axis is asked; it declares the Bf109 a mission unit, so the Soviet I-16 is the only firer and
    the Soviet holds the initiative (17.32a, roll 3).  The Bf109 may be picked as a target and does
    not fire back (-3, roll 9: nothing); no Soviet AA reaches 1506; both Axis CAS points count."""
    import json

    from kiev_tui.engine.view import view
    from kiev_tui.games.efs_ktr.actions import AirPairs, AirRoles

    g = cas_over_1506([3, 9], ("ax-bf109",), "ax-bf109,ax-he111", "so-i16")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("air_roles", "axis", "17.31b2")
    assert [o.action for o in p.options] == [AirRoles(()), AirRoles(("ax-bf109",))]
    assert list(g.rules.legal(g, "axis")) == [AirRoles(()), AirRoles(("ax-bf109",))]
    for bad, why in ((AirRoles(("ax-he111",)), "ax-he111 is not a dual-purpose fighter of yours on this mission"),
                     (AirRoles(("so-i16",)), "so-i16 is not a dual-purpose fighter of yours on this mission"),
                     (AirRoles(("ax-bf109", "ax-bf109")), "ax-bf109 is declared twice")):
        r = g.check(bad, side="axis")
        assert r is not None and (r.case, r.why) == ("17.31b2", why)
    g.apply(AirRoles(("ax-bf109",)), side="axis")
    assert "axis fighters over 1506: mission units ax-bf109 (17.31b2)" in journal(g)
    assert "ax-bf109" in json.dumps([e.describe() for e in view(g, "soviet").events])  # public once made
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("air_pairs", "soviet")
    assert [o.action for o in p.options] == [AirPairs(("so-i16>ax-bf109",)), AirPairs(("so-i16>ax-he111",))]
    g.apply(AirPairs(("so-i16>ax-bf109",)), side="soviet")
    text = journal(g)
    assert "air initiative soviet (roll 3): air combat (17.32)" in text
    assert "air combat: so-i16 at ax-bf109 (9); results: ax-bf109 - (17.33)" in text
    assert "close air support on 1506: attacker 2, defender 0 (15.65)" in text
    assert g.state.vars.combat["cas"] == {"axis": 2, "soviet": 0}
    assert g.dice.used == 2


def test_17_31b2_the_declaration_comes_after_both_reveals_and_stays_public() -> None:
    """Nothing is declared while the units are face down: after the Axis placement the Soviet sees
    only a commitment, the Axis cannot declare before turning its units up, and a Soviet seat that
    replays the game with the Axis placement sealed reaches the host's position."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.view import view
    from kiev_tui.games.efs_ktr import system
    from kiev_tui.games.efs_ktr.actions import AirMission, AirRoles, Attack, Declare, Move, RevealAir
    from kiev_tui.net.replica import Replica, entry_of, game_header

    g = Game.new("efs_ktr/sumy", dice=FixedDice([3, 9, 5, 5, 5]))
    g.state.units["ax-bf109"].status = "air_ready"
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    g.apply(Move(PZ9, g.reachable(PZ9)[b.parse("1406")].path), side="axis")
    g.apply(Declare("1506", PZ9), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1506", PZ9, ()), side="axis")
    g.apply(AirMission("ax-bf109,ax-he111"), side="axis")
    sov = view(g, "soviet")
    assert sov.secrets == {} and sov.pending == {"kind": "air_mission", "side": "soviet", "hex": "1506"}
    assert not any("bf109" in e.describe() for e in sov.events)
    assert all(o.kind == "air_mission" for o in g.rules.legal(g, "soviet"))
    g.apply(AirMission("so-i16"), side="soviet")
    bad = g.check(AirRoles(("ax-bf109",)), side="axis")  # still face down: turn them up first
    assert bad is not None and "reveal air" in bad.why
    for side in ("axis", "soviet"):
        sec = g.state.secrets[side]["air"]
        assert g.rules.prompt(g).kind == "reveal_air"
        g.apply(RevealAir(sec["choice"], sec["salt"]), side=side)
    g.apply(AirRoles(("ax-bf109",)), side="axis")
    rep = Replica.build(game_header(g))
    rep.game.state.units["ax-bf109"].status = "air_ready"  # the same hand-made start as the host's
    for i in range(len(g.log)):
        rep.apply_entry(entry_of(g, i, "soviet"))
    assert rep.game.state.vars.combat == g.state.vars.combat
    assert rep.game.state.vars.combat["roles"] == {"axis": ["ax-bf109"]}


def test_17_31b2_axis_fighter_flies_interdiction_as_a_mission_unit() -> None:
    """GT50, the Bf109 (interdiction 1) alone over the 40th Army HQ in 1904, unopposed.  Declared a
    mission unit it meets the HQ's AA (roll 1: nothing) and sets a Level One zone; declared a
    firing unit it has nothing to do there: no roll, no zone (17.31b3, 13.14)."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.engine.game import Game
    from kiev_tui.games.efs_ktr.actions import AirMission, AirRoles, Interdict

    for mission, level, used in ((("ax-bf109",), 1, 1), ((), 0, 0)):
        g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
        g.state.units["ax-bf109"].status = "air_ready"
        while g.state.phase != "air_interdiction":
            g.apply(EndPhase(), side=g.actor)
        g.apply(Interdict("1904"), side="axis")
        g.apply(AirMission("ax-bf109"), side="axis")
        g.apply(AirMission(""), side="soviet")
        for side in ("axis", "soviet"):  # turned up
            p = g.rules.prompt(g)
            assert (p.kind, p.side) == ("reveal_air", side)
            g.apply(p.options[0].action, side=side)
        p = g.rules.prompt(g)
        assert (p.kind, p.side) == ("air_roles", "axis")
        g.apply(AirRoles(mission), side="axis")
        assert g.state.pending is None
        assert g.state.vars.interdiction == {"1904": level} and g.dice.used == used
        assert ("AA fire at ax-bf109: roll 1, - (17.4)" in journal(g)) == bool(mission)
        assert g.state.units["ax-bf109"].status == "air_flown"


def test_17_31b3_air_combat_needs_a_firing_unit_and_an_enemy_in_the_hex() -> None:
    """Close air support over 1506, two skies with no air combat and so no Air Initiative roll:
    the He111 against the SB (mission units only, no firer: the one roll is the Axis AA at the
    SB, 9, A); and the Bf109 declared a firing unit with the He111 against no Soviet air unit (no
    roll at all; the Bf109's CAS point does not count, the He111's does)."""
    from kiev_tui.games.efs_ktr.actions import AirRoles

    g = cas_over_1506([9], ("ax-bf109",), "ax-he111", "so-sb-1")
    assert g.rules.prompt(g).kind == "set_order"
    assert g.state.vars.combat["ini"] == {"combat": False} and g.dice.used == 1
    assert not any("air initiative" in t for t in journal(g))
    assert "AA fire at so-sb-1: roll 9, A (17.4)" in journal(g)

    g = cas_over_1506([9], ("ax-bf109",), "ax-bf109,ax-he111", "")
    g.apply(AirRoles(()), side="axis")
    assert g.rules.prompt(g).kind == "set_order"
    assert g.state.vars.combat["ini"] == {"combat": False} and g.dice.used == 0
    assert "close air support on 1506: attacker 1, defender 0 (15.65)" in journal(g)
    assert air_boxes(g, "ax-bf109", "ax-he111") == {"ax-bf109": "air_flown", "ax-he111": "air_flown"}
