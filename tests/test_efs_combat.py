"""Kiev to Rostov combat (EFS 11.4, 12.3, 15-16; PB 10.4, 10.45, 11.2): every case, and the
Sumy tutorial's three combats with the playbook's strengths, odds, modifiers, rolls and losses."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.efs_ktr import combat as c
from kiev_tui.games.efs_ktr.combat import ADDITIONAL_RETREAT, NO_RETREAT, Combatant, CombatInput
from kiev_tui.games.efs_ktr.tables import load_more_tables, load_tables

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "efs_ktr"
T = load_tables(DATA / "tables.toml")
M = load_more_tables(DATA / "tables.toml")
SC = load_scenario("efs_ktr/sumy")
FORMATIONS = {"9 Pz": c.PANZER, "16 Mot": c.MOTORIZED_DIV, "25 Mot": c.MOTORIZED_DIV, "10 Mot": c.MOTORIZED_DIV}


def unit(uid: str, **kw: object) -> Combatant:
    """A Sumy counter as it stands at the start (the 33rd reduced, PB 10.4)."""
    u = SC.catalog.units[uid]
    lost = SC.extra["reduced"].get(uid, 0)
    return Combatant(uid, u.type, u.factor("attack", lost), u.factor("defence", lost), len(u.steps) - lost,
                     u.division, u.side == "axis", float(u.extra.get("support", 0)), **kw)  # type: ignore[arg-type]


def mods(p: c.Plan) -> list[tuple[str, int]]:
    return [(m.case, m.die_modifier) for m in p.modifiers if m.die_modifier]


def plan(inp: CombatInput) -> c.Plan:
    p = c.plan(inp, T)
    assert isinstance(p, c.Plan), p
    return p


def outcome(inp: CombatInput, roll: int) -> c.Outcome:
    o = c.resolve(inp, T, roll)
    assert isinstance(o, c.Outcome), o
    return o


def fight(attackers: tuple[Combatant, ...], defenders: tuple[Combatant, ...], **kw: object) -> CombatInput:
    side = "axis" if attackers[0].german else "soviet"
    return CombatInput(side, attackers, defenders, formations=FORMATIONS, **kw)  # type: ignore[arg-type]


def gen(uid: str, utype: str, attack: float = 3, defence: float = 3, steps: int = 2, **kw: object) -> Combatant:
    return Combatant(uid, utype, attack, defence, steps, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------- the Sumy tutorial (PB 10.4)


def test_pb_10_4_gt50_attack_on_1510() -> None:
    """25th Motorized with the 619th's support and the He111's CAS: 8 to 2, 4-1, roll 6 -1 = 5, -/1."""
    inp = fight((unit("ax-35mot-25m"), unit("ax-119mot-25m")), (unit("so-11-96-5c"),),
                attack_artillery=(unit("ax-619art"),), attacker_cas=1)
    p = plan(inp)
    assert (p.attack, p.defence, p.column) == (8, 2, "4-1")
    assert mods(p) == [("15.65", -1)] and p.drm == -1  # no integrity: 25th Mot has two of three units
    o = outcome(inp, 6)
    assert (o.box, o.cell) == (5, "-/1")
    assert (o.attacker.steps, o.attacker.retreat, o.defender.steps, o.defender.retreat) == (0, 0, 1, 0)
    taken = c.allocate_losses(inp.defenders, o.defender, [])
    assert taken == {"so-11-96-5c": 1}
    assert c.removed_to(inp.defenders, o.defender, taken) == {"so-11-96-5c": c.CADRE}  # 16.24
    assert o.attacker_may_advance


def test_pb_10_4_gt50_attack_on_1508() -> None:
    """9th Panzer and 16th Motorized, 18 to 3, 6-1, -3 (two integrity, combined arms), roll 5: -/3R."""
    attackers = tuple(unit(x) for x in ("ax-33pz-9pz", "ax-10mot-9pz", "ax-11mot-9pz", "ax-9rec-9pz",
                                        "ax-60mot-16m", "ax-156mot-16m", "ax-341rec-16m"))
    inp = fight(attackers, (unit("so-131-160-5c"),))
    p = plan(inp)
    assert (p.attack, p.defence, p.column) == (18, 3, "6-1")
    assert sorted(mods(p)) == [("15.67", -1), ("15.68", -1), ("15.68", -1)] and p.drm == -3
    assert c.integrity_divisions(inp) == ("9 Pz", "16 Mot")
    o = outcome(inp, 5)
    assert (o.box, o.cell) == (2, "-/3R")
    assert (o.attacker.steps, o.defender.steps, o.defender.retreat) == (0, 3, 2)
    taken = c.allocate_losses(inp.defenders, o.defender, [])  # three steps off a two-step unit
    assert taken == {"so-131-160-5c": 2}
    assert c.removed_to(inp.defenders, o.defender, taken) == {"so-131-160-5c": c.CADRE}
    assert o.attacker_may_advance


def test_pb_10_4_gt50_soviet_attack_on_1306() -> None:
    """227th and 129th across the river, 1st Tank not: 9 to 6, 3-2, no DRM, Additional Retreat,
    roll 5: 1*/R; the 227th is reduced, the defenders go three hexes, the Soviet picking the path."""
    inp = fight((unit("so-227rd", river=True), unit("so-129tb", river=True), unit("so-1tb")),
                (unit("ax-20mot-10m"), unit("ax-341rec-16m")), defence_order=ADDITIONAL_RETREAT)
    p = plan(inp)
    assert (p.attack, p.defence, p.column) == (9, 6, "3-2")
    assert mods(p) == [] and p.drm == 0  # no river (1st Tank), no combined arms (no partner)
    o = outcome(inp, 5)
    assert o.cell == "1*/R"
    assert (o.attacker.steps, o.attacker.star_steps, o.attacker.first_loss_types) == (1, 0, frozenset())
    assert (o.defender.steps, o.defender.retreat, o.defender.retreat_by_enemy) == (0, 3, True)
    assert c.allocate_losses(inp.attackers, o.attacker, ["so-227rd"]) == {"so-227rd": 1}
    assert c.face_after(SC.catalog.units["so-227rd"].steps, 1) == (1, 2)  # its reduced face


# ------------------------------------------------------------------------------- odds (15.5)


@pytest.mark.parametrize("attack,defence,column", [(29, 10, "2-1"), (9, 6, "3-2"), (5, 4, "1-1"), (2, 3, "1-2"),
                                                    (11, 1, "10-1"), (25, 1, "10-1"), (1, 4, "1-4"), (4, 9, "1-3")])
def test_15_57_odds_round_for_the_defender(attack: int, defence: int, column: str) -> None:
    inp = fight((gen("a", "motorized", attack, german=True),), (gen("d", "rifle", 1, defence),))
    assert plan(inp).column == column


def test_15_57_worse_than_1_4_eliminates_the_attacker() -> None:
    inp = fight((gen("a", "motorized", 1, german=True),), (gen("d", "rifle", 1, 5),))
    p = plan(inp)
    assert p.column is None and p.notes
    o = outcome(inp, 1)
    assert o.cell == "e/-" and o.attacker.eliminated and o.defender.steps == 0 and not o.attacker_may_advance
    assert c.removed_to(inp.attackers, o.attacker, {}) == {"a": c.ELIMINATED}


def test_12_35_no_declaration_under_1_4() -> None:
    assert c.declarable(1, 4, T) is None
    bad = c.declarable(1, 5, T)
    assert isinstance(bad, Illegal) and bad.case == "12.35"


def test_15_4_support_never_exceeds_the_attack() -> None:
    art = gen("art", "artillery", 0, 1, 1, support=5)
    p = plan(fight((gen("a", "motorized", 3, german=True),), (gen("d", "rifle", 1, 3),), attack_artillery=(art,)))
    assert p.attack == 6 and p.column == "2-1"


def test_15_55b_defensive_support_held_to_the_defence() -> None:
    art = gen("art", "artillery", 0, 1, 1, support=4)
    p = plan(fight((gen("a", "motorized", 8, german=True),), (gen("d", "rifle", 1, 2),), defence_artillery=(art,)))
    assert p.defence == 4 and p.column == "2-1"


def test_15_54_artillery_support_replaces_its_own_defence() -> None:
    art = gen("art", "artillery", 0, 1, 1, support=2)
    p = plan(fight((gen("a", "motorized", 9, german=True),), (gen("d", "rifle", 1, 2), art), defence_artillery=(art,)))
    assert p.defence == 4


def test_15_32c_no_artillery_without_attack_supply() -> None:
    art = gen("art", "artillery", 0, 1, 1, support=2)
    bad = c.plan(fight((gen("a", "motorized", 3, german=True),), (gen("d", "rifle", 1, 3),),
                       attack_artillery=(art,), attack_supplied=False), T)
    assert isinstance(bad, Illegal) and bad.case == "15.32c"


def test_pb_11_3_one_soviet_artillery_unit_unless_an_hq_allows_more() -> None:
    arts = (gen("s1", "artillery", 0, 1, 1, support=2), gen("s2", "artillery", 0, 1, 1, support=2))
    inp = CombatInput("soviet", (gen("a", "rifle", 6),), (gen("d", "motorized", 3, 3, german=True),), attack_artillery=arts)
    bad = c.plan(inp, T)
    assert isinstance(bad, Illegal) and bad.case == "PB 11.3"
    assert plan(replace(inp, soviet_artillery_allowed=2)).attack == 10


def test_15_52a_swamp_halves_the_attack_and_support_into_swamp() -> None:
    art = gen("art", "artillery", 0, 1, 1, support=4)
    p = plan(fight((gen("a", "motorized", 6, german=True, from_swamp=True),), (gen("d", "rifle", 1, 2),),
                   terrains=("swamp",), attack_artillery=(art,)))
    assert p.attack == 3 + 2  # 6 halved, support 4 halved firing into swamp


def test_15_52b_major_river_halves_only_those_across() -> None:
    p = plan(fight((gen("a", "motorized", 5, german=True, major_river=True), gen("b", "motorized", 4, german=True)),
                   (gen("d", "rifle", 1, 2),)))
    assert p.attack == 6.5  # fractions kept (15.51 note)


def test_15_52c_armor_halved_into_a_city() -> None:
    p = plan(fight((gen("a", "armor", 6, german=True), gen("b", "motorized", 4, german=True)),
                   (gen("d", "rifle", 1, 2),), settlements=("city",)))
    assert p.attack == 7


def test_15_51_a_halved_force_never_falls_under_one() -> None:
    p = plan(fight((gen("a", "motorized", 1, german=True, from_swamp=True),), (gen("d", "rifle", 1, 1),)))
    assert p.attack == 1


# --------------------------------------------------------------------------- modifiers (15.6)


def test_15_61a_the_highest_terrain_drm_of_the_hex() -> None:
    p = plan(fight((gen("a", "motorized", 9, german=True),), (gen("d", "rifle", 1, 3),),
                   terrains=("hill_woods",), settlements=("major_city",)))
    assert mods(p) == [("15.61a", 2)]
    p = plan(fight((gen("a", "motorized", 9, german=True),), (gen("d", "rifle", 1, 3),), terrains=("woods",)))
    assert mods(p) == [("15.61a", 1)]


def test_15_61d_several_defender_hexes_take_the_highest() -> None:
    p = plan(fight((gen("a", "motorized", 9, german=True),), (gen("d", "rifle", 1, 3), gen("e", "rifle", 1, 3)),
                   terrains=("clear", "hill"), settlements=("", "")))
    assert mods(p) == [("15.61a", 1)]


def test_15_61b_river_only_when_every_attacker_crosses() -> None:
    d = (gen("d", "rifle", 1, 3),)
    both = plan(fight((gen("a", "motorized", 6, german=True, river=True), gen("b", "motorized", 3, german=True, river=True)), d))
    one = plan(fight((gen("a", "motorized", 6, german=True, river=True), gen("b", "motorized", 3, german=True)), d))
    assert mods(both) == [("15.61b", 1)] and mods(one) == []


def test_15_61c_hill_behind_a_river_adds_up() -> None:
    p = plan(fight((gen("a", "motorized", 6, german=True, river=True),), (gen("d", "rifle", 1, 3),), terrains=("hill",)))
    assert sorted(mods(p)) == [("15.61a", 1), ("15.61b", 1)] and p.drm == 2


def test_15_62_no_retreat_gives_the_defender_plus_one() -> None:
    p = plan(fight((gen("a", "motorized", 6, german=True),), (gen("d", "rifle", 1, 3),), defence_order=NO_RETREAT))
    assert mods(p) == [("15.62", 1)]


def test_15_63_engineers_against_a_river_or_city() -> None:
    eng = gen("e", "engineer", 2, german=True)
    d = (gen("d", "rifle", 1, 3),)
    p = plan(fight((gen("a", "motorized", 6, german=True), eng), d, settlements=("city",), engineer_effects=True))
    assert ("15.63", -1) in mods(p)
    p = plan(fight((gen("a", "motorized", 6, german=True), eng), d, engineer_effects=True))
    assert ("15.63", -1) not in mods(p)  # clear, no river: no engineer DRM


def test_15_65_cas_points_net() -> None:
    d = (gen("d", "rifle", 1, 3),)
    a = (gen("a", "motorized", 6, german=True),)
    assert mods(plan(fight(a, d, attacker_cas=2, defender_cas=1))) == [("15.65", -1)]
    assert mods(plan(fight(a, d, attacker_cas=0, defender_cas=1))) == [("15.65", 1)]


def test_15_66_supply_modifiers() -> None:
    p = plan(fight((gen("a", "motorized", 6, german=True),), (gen("d", "rifle", 1, 3),),
                   attack_supplied=False, defender_out_of_supply=True))
    assert sorted(mods(p)) == [("15.66a", -1), ("15.66b", 2)] and p.drm == 1


def test_15_67a_combined_arms_needs_armor_and_a_partner_against_no_armor() -> None:
    pz, mot = gen("pz", "armor", 6, german=True), gen("m", "motorized", 3, german=True)
    rifle = (gen("d", "rifle", 1, 3),)
    assert ("15.67", -1) in mods(plan(fight((pz, mot), rifle)))
    assert ("15.67", -1) not in mods(plan(fight((pz, gen("i", "infantry", 3, german=True)), rifle)))
    for blocker in ("tank", "anti_aircraft", "anti_tank"):
        assert ("15.67", -1) not in mods(plan(fight((pz, mot), (gen("d", blocker, 1, 3),))))


def test_15_67b_river_denies_combined_arms_only_when_its_drm_applies() -> None:
    """Ruling: 'behind river hexsides' is read with 15.61b: all attackers across it."""
    rifle = (gen("d", "rifle", 1, 3),)
    all_across = plan(fight((gen("pz", "armor", 6, german=True, river=True), gen("m", "motorized", 3, german=True, river=True)), rifle))
    some_across = plan(fight((gen("pz", "armor", 6, german=True, river=True), gen("m", "motorized", 3, german=True)), rifle))
    assert mods(all_across) == [("15.61b", 1)]
    assert mods(some_across) == [("15.67", -1)]
    city = plan(fight((gen("pz", "armor", 6, german=True), gen("m", "motorized", 3, german=True)), rifle, settlements=("city",)))
    assert ("15.67", -1) not in mods(city)


def test_15_67c_no_combined_arms_in_mud() -> None:
    p = plan(fight((gen("pz", "armor", 6, german=True), gen("m", "motorized", 3, german=True)),
                   (gen("d", "rifle", 1, 3),), weather="mud"))
    assert mods(p) == []


def test_15_68_panzer_division_integrity() -> None:
    d = (gen("d", "rifle", 1, 3),)
    pz = dict(division="9 Pz", german=True)
    mot = dict(division="16 Mot", german=True)
    full_pz = (gen("pz", "armor", **pz), gen("m1", "motorized", **pz), gen("r", "recon", **pz))
    assert c.integrity_divisions(fight(full_pz, d)) == ("9 Pz",)
    assert c.integrity_divisions(fight(full_pz[:2], d)) == ()  # armor and one regiment only
    assert c.integrity_divisions(fight((*full_pz[:2], gen("m2", "motorized", **pz)), d)) == ("9 Pz",)
    mot_div = (gen("n1", "motorized", **mot), gen("n2", "motorized", **mot), gen("nr", "recon", **mot))
    assert c.integrity_divisions(fight(mot_div, d)) == ()  # 15.68b: needs a panzer division with it
    assert c.integrity_divisions(fight((*full_pz, *mot_div), d)) == ("9 Pz", "16 Mot")
    oos = (replace(full_pz[0], out_of_supply=True), *full_pz[1:])
    assert c.integrity_divisions(fight(oos, d, attack_supplied=False)) == ()  # 15.68c1, 15.32b
    assert c.integrity_divisions(fight(oos, d)) == ("9 Pz",)


def test_11_44d_an_overrun_defender_is_easier_to_attack() -> None:
    p = plan(fight((gen("a", "motorized", 6, german=True),), (gen("d", "rifle", 1, 3, overrun_marker=True),)))
    assert mods(p) == [("11.44d", -1)]


def test_15_7_net_modifier_held_to_three() -> None:
    inp = fight((gen("pz", "armor", 6, german=True, division="9 Pz"), gen("m1", "motorized", 3, german=True, division="9 Pz"),
                 gen("r", "recon", 2, german=True, division="9 Pz")), (gen("d", "rifle", 1, 5, overrun_marker=True),),
                attacker_cas=2, defender_out_of_supply=True)
    p = plan(inp)
    assert p.raw_drm == -6 and p.drm == -3 and ("15.7", 3) in mods(p)
    assert c.preview(inp, T).die_modifier == -3


def test_15_81g_boxes_stop_at_0_and_11() -> None:
    assert T.crt.box(1, -3) == 0 and T.crt.box(10, 3) == 11 and T.crt.box(5, -7) == 2


# ----------------------------------------------------------------------------- results (16)


def crt_at(cell: str) -> tuple[str, int]:
    """A column and roll giving ``cell`` with no modifier."""
    for col in T.crt.columns:
        for roll in range(1, 11):
            if T.crt.cell(col, roll).text == cell:
                return col, roll
    raise AssertionError(cell)


def test_16_31_asterisk_extras_add_up() -> None:
    cell = T.crt.cell("1-1", 6)
    assert cell.text == "1*/-"
    base = fight((gen("a", "motorized", 3, german=True),), (gen("d", "rifle", 1, 3),))
    a, _ = c.read_cell(base, cell)
    assert (a.steps, a.star_steps) == (1, 0)
    a, _ = c.read_cell(replace(base, attack_supplied=False, mandated=True, strongpoint=True), cell)
    assert (a.steps, a.star_steps) == (4, 3)


def test_16_41a_no_retreat_losses() -> None:
    cell = T.crt.cell("6-1", 2)  # -/3R
    soviet = CombatInput("axis", (gen("a", "motorized", 9, german=True),), (gen("d", "rifle", 1, 9, 4),),
                         defence_order=NO_RETREAT)
    _, d = c.read_cell(soviet, cell)
    assert (d.steps, d.retreat, d.order_steps) == (5, 0, 2)  # not German, in clear: two more
    _, d = c.read_cell(replace(soviet, terrains=("woods",)), cell)
    assert (d.steps, d.order_steps) == (4, 1)  # woods: only the first extra step
    german = CombatInput("soviet", (gen("a", "rifle", 9),), (gen("d", "motorized", 1, 9, 4, german=True),),
                         defence_order=NO_RETREAT)
    _, d = c.read_cell(german, cell)
    assert (d.steps, d.order_steps) == (4, 1)  # 16.41a1
    _, d = c.read_cell(soviet, T.crt.cell("6-1", 9))  # -/1: no R, no extra loss
    assert (d.steps, d.order_steps) == (1, 0)


def test_16_41b_additional_retreat_three_hexes_one_step_fewer() -> None:
    inp = CombatInput("soviet", (gen("a", "rifle", 9),), (gen("d", "motorized", 1, 9, 4, german=True),),
                      defence_order=ADDITIONAL_RETREAT)
    _, d = c.read_cell(inp, T.crt.cell("6-1", 2))  # -/3R
    assert (d.steps, d.retreat, d.retreat_by_enemy, d.order_steps) == (2, 3, True, -1)


def test_16_41b4_attacker_with_additional_retreat_does_not_advance() -> None:
    col, roll = crt_at("-/2R")
    n = {"5-1": 5, "4-1": 4, "3-1": 3, "6-1": 6, "7-1": 7}[col]
    base = fight((gen("a", "motorized", n, german=True),), (gen("d", "rifle", 1, 1, 4),))
    assert outcome(base, roll).attacker_may_advance
    assert not outcome(replace(base, attack_order=ADDITIONAL_RETREAT), roll).attacker_may_advance


def test_16_5_no_advance_while_the_defender_stays() -> None:
    col, roll = crt_at("1/1")
    n = {"1-1": (3, 3), "3-2": (3, 2), "2-1": (4, 2), "3-1": (3, 1), "4-1": (4, 1), "5-1": (5, 1), "6-1": (6, 1)}[col]
    o = outcome(fight((gen("a", "motorized", n[0], german=True),), (gen("d", "rifle", 1, n[1], 4),)), roll)
    assert o.cell == "1/1" and not o.attacker_may_advance


def test_16_32c_armor_attrition() -> None:
    inp = CombatInput("soviet", (gen("t", "tank", 3), gen("r", "rifle", 3)), (gen("pz", "armor", 3, 3, german=True),
                                                                              gen("m", "motorized", 3, 3, german=True)))
    a, d = c.read_cell(inp, T.crt.cell("3-2", 5))  # 1*/R
    assert a.first_loss_types == c.ARMOR_TYPES and d.first_loss_types == frozenset()
    bad = c.allocate_losses(inp.attackers, a, ["r"])
    assert isinstance(bad, Illegal) and bad.case == "16.32"
    assert c.allocate_losses(inp.attackers, a, ["t"]) == {"t": 1}
    a, d = c.read_cell(inp, T.crt.cell("2-1", 1))  # 1/R: no asterisk, no attrition
    assert a.first_loss_types == frozenset()


def test_16_32c_defender_answers_with_armor() -> None:
    inp = CombatInput("soviet", (gen("t", "tank", 3),), (gen("pz", "armor", 3, 3, german=True),
                                                         gen("m", "motorized", 3, 3, german=True)))
    from kiev_tui.games.efs_ktr.tables import Cell, Side

    a, d = c.read_cell(inp, Cell(Side(1, star=True), Side(1), "1*/1"))
    assert a.first_loss_types == c.ARMOR_TYPES and d.first_loss_types == c.ANTI_ARMOR_TYPES
    assert isinstance(c.allocate_losses(inp.defenders, d, ["m"]), Illegal)


def test_16_32b_engineer_takes_the_first_asterisk_step() -> None:
    inp = fight((gen("e", "engineer", 2, german=True), gen("m", "motorized", 3, german=True)), (gen("d", "rifle", 1, 3),),
                engineer_effects=True, strongpoint=True)
    a, _ = c.read_cell(inp, T.crt.cell("1-1", 6))  # 1*/-: two steps against a strongpoint
    assert a.steps == 2 and a.first_loss_types == frozenset({"engineer"})
    assert isinstance(c.allocate_losses(inp.attackers, a, ["m", "e"]), Illegal)
    assert c.allocate_losses(inp.attackers, a, ["e", "m"]) == {"e": 1, "m": 1}


def test_16_21_the_owner_names_each_step() -> None:
    force = (gen("a", "rifle", 3, 3, 2), gen("b", "rifle", 3, 3, 1))
    loss = c.SideLoss(steps=2)
    assert c.allocate_losses(force, loss, ["a", "a"]) == {"a": 2}
    assert c.allocate_losses(force, loss, ["b", "a"]) == {"a": 1, "b": 1}
    for bad in (["a"], ["b", "b"], ["z", "a"]):
        assert isinstance(c.allocate_losses(force, loss, bad), Illegal)
    assert c.allocate_losses(force, c.SideLoss(steps=5), []) == {"a": 2, "b": 1}


def test_16_23_step_faces_in_loss_order() -> None:
    """Four steps: full, full under a marker, reduced, reduced under a marker; three-step units
    stop at the reduced face (ruling)."""
    steps = SC.catalog.units["so-295rd"].steps
    assert [c.face_after(steps, n) for n in range(5)] == [(5, 8), (3, 6), (3, 4), (1, 2), None]
    gd = SC.catalog.units["so-6-1gdm"].steps
    assert [c.face_after(gd, n) for n in range(4)] == [(4, 5), (2, 3), (2, 2), None]


def test_16_24_cadre_for_losses_eliminated_for_e() -> None:
    force = (gen("a", "rifle", 3, 3, 2), gen("b", "rifle", 3, 3, 2))
    assert c.removed_to(force, c.SideLoss(steps=2), {"a": 2}) == {"a": c.CADRE}
    assert c.removed_to(force, c.SideLoss(eliminated=True), {}) == {"a": c.ELIMINATED, "b": c.ELIMINATED}


def test_16_24_steps_lost_count_whole_units_removed() -> None:
    force = (gen("a", "rifle", 3, 3, 2), gen("b", "rifle", 3, 3, 3))
    assert c.steps_lost_by(force, {"a": 1}, {}) == 1
    assert c.steps_lost_by(force, {}, {"a": c.ELIMINATED, "b": c.ELIMINATED}) == 5


def test_15_54_all_zero_defence_cancels_and_advances() -> None:
    inp = fight((gen("a", "motorized", 3, german=True), gen("b", "motorized", 3, german=True),
                 gen("r", "recon", 2, german=True)), (gen("d", "rifle", 0, 0, 1),))
    p = plan(inp)
    assert p.zero_defence and p.column is None
    bad = c.resolve(inp, T, 5)
    assert isinstance(bad, Illegal) and bad.case == "15.54"
    went = c.zero_defence_advance(inp.attackers, {"a": 4, "b": 4, "r": 1}, 8, ["a", "r", "b"])
    assert went == ("a", "r")  # compulsory, up to the stacking limit (ruling)
    assert isinstance(c.zero_defence_advance(inp.attackers, {}, 10, ["a"]), Illegal)


def test_2_51_a_zero_reads_ten() -> None:
    inp = fight((gen("a", "motorized", 3, german=True),), (gen("d", "rifle", 1, 3),))
    assert outcome(inp, 0).cell == outcome(inp, 10).cell == T.crt.cell("1-1", 10).text
    assert isinstance(c.resolve(inp, T, 11), Illegal)


def test_15_21_artillery_does_not_attack() -> None:
    bad = c.plan(fight((gen("art", "artillery", 0, 1, 1, support=2, german=True),), (gen("d", "rifle", 1, 3),)), T)
    assert isinstance(bad, Illegal) and bad.case == "15.21"


def test_preview_lists_modifiers_and_every_chance() -> None:
    inp = fight((unit("ax-35mot-25m"), unit("ax-119mot-25m")), (unit("so-11-96-5c"),),
                attack_artillery=(unit("ax-619art"),), attacker_cas=1)
    p = c.preview(inp, T)
    assert (p.illegal, p.attack, p.defense, p.column) == (None, 8, 2, "4-1")
    assert p.die_modifier == -1 and [m.case for m in p.modifiers] == ["15.4", "15.65"]
    expected: dict[str, float] = {}
    for roll in range(1, 11):
        text = T.crt.cell("4-1", T.crt.box(roll, -1)).text
        expected[text] = expected.get(text, 0) + 0.1
    assert p.chances == pytest.approx(expected) and sum(p.chances.values()) == pytest.approx(1.0)


# ---------------------------------------------------------------------------- overrun (11.4)


def test_pb_11_2_overrun_of_the_strongpoint() -> None:
    """13 to 1, engineer, artillery alone, strongpoint: -2 -1 +2, roll 6 -> 5, succeeds, no loss."""
    o = c.OverrunInput(13, 1, True, defender_all_artillery=True, terrain=("strongpoint",),
                       city_or_fortification=True, motorized_engineer=True)
    r = c.resolve_overrun(o, M, 6)
    assert isinstance(r, c.OverrunOutcome)
    assert [(m.case, m.die_modifier) for m in r.modifiers] == [("11.43f", -2), ("11.43g", -1), ("11.43h", 2)]
    assert (r.modified, r.succeeded, r.defender_steps, r.attacker_steps) == (5, True, 0, 0)


def test_pb_11_2_failed_overrun_on_the_hill() -> None:
    """10 to 2 (5-1 +2), hill +2, held to +3: roll 8 -> 11, fails, the stack loses a step."""
    r = c.resolve_overrun(c.OverrunInput(10, 2, True, terrain=("hill",)), M, 8)
    assert isinstance(r, c.OverrunOutcome)
    assert (r.modified, r.succeeded, r.attacker_steps) == (11, False, 1)


def test_11_42a_minimum_overrun_odds() -> None:
    assert c.overrun_check(c.OverrunInput(10, 2, True), M) is None
    bad = c.overrun_check(c.OverrunInput(12, 2, False), M)
    assert isinstance(bad, Illegal) and bad.case == "11.42a"
    assert c.overrun_check(c.OverrunInput(14, 2, False), M) is None


def test_11_42c_city_needs_12_1_and_an_engineer() -> None:
    bad = c.overrun_check(c.OverrunInput(13, 1, True, city_or_fortification=True), M)
    assert isinstance(bad, Illegal) and bad.case == "11.42c"
    bad = c.overrun_check(c.OverrunInput(11, 1, True, city_or_fortification=True, motorized_engineer=True), M)
    assert isinstance(bad, Illegal)


def test_11_43j_a_low_roll_costs_the_defender_a_step() -> None:
    r = c.resolve_overrun(c.OverrunInput(14, 1, True), M, 4)  # 14-1: -3
    assert isinstance(r, c.OverrunOutcome) and (r.modified, r.succeeded, r.defender_steps) == (1, True, 1)


def test_11_43_overrun_table_book_cells() -> None:
    rolls = M.overrun.rolls
    assert [rolls.result(n) for n in range(3, 8)] == ["succeeds"] * 5 and rolls.result(11) == "fails_step"
    assert [M.overrun.odds_drm(n) for n in (5, 6, 10, 13, 14, 20)] == [2, 0, -2, -2, -3, -3]


# -------------------------------------------------------------------------- retreat table (16.46)


def test_16_46_retreat_through_one_enemy_zoc() -> None:
    r = c.retreat_through_zoc(3, False, M)
    assert (r.steps_lost, r.escaped) == (1, True)
    assert not c.retreat_through_zoc(4, False, M).escaped
    assert not c.retreat_through_zoc(3, True, M).escaped and c.retreat_through_zoc(1, True, M).escaped


# ------------------------------------------------------------------------ Sumy victory (PB 10.45)


def test_pb_10_45_six_axis_steps_end_it() -> None:
    limit = SC.victory["soviet_win_axis_steps_lost"]
    assert limit == 6 and not c.soviet_sudden_win(5, limit) and c.soviet_sudden_win(6, limit)


# --------------------------------------------------------------------------- the data (tables)


def _validate_copy(tmp_path: Path, old: str, new: str) -> list[str]:
    copy = tmp_path / "efs_ktr"
    shutil.copytree(DATA, copy)
    text = (copy / "tables.toml").read_text()
    assert old in text
    (copy / "tables.toml").write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(app, ["validate", str(copy)])
    assert result.exit_code == 2
    return [line for line in result.output.splitlines() if line.startswith("error:")]


def test_15_8_validate_reports_a_broken_crt_once(tmp_path: Path) -> None:
    lines = _validate_copy(tmp_path, '"-/3R", "-/4", "-/4R"', '"-/3R", "-/1", "-/4R"')
    assert len(lines) == 1 and lines[0].endswith("crt.row[0].results[9]: box 0: 6-1 is worse for the attacker than 5-1")


def test_11_43_validate_refuses_an_overrun_table_that_is_not_monotone(tmp_path: Path) -> None:
    lines = _validate_copy(tmp_path, '"fails", "fails", "fails", "fails_step"', '"fails", "succeeds", "fails", "fails_step"')
    assert len(lines) == 1 and "overrun.results[11]" in lines[0]


def test_17_33_validate_refuses_an_air_combat_column_worse_than_its_left(tmp_path: Path) -> None:
    lines = _validate_copy(tmp_path, 'results = ["X", "D", "D", "A", "A",', 'results = ["A", "D", "D", "A", "A",')
    assert len(lines) == 1 and "air_combat.column" in lines[0]


def test_16_46_validate_refuses_a_missing_retreat_table(tmp_path: Path) -> None:
    lines = _validate_copy(tmp_path, "[retreat]\n", "[retreat_gone]\n")
    assert len(lines) == 1 and "retreat" in lines[0]


def test_every_new_table_marks_what_is_ours() -> None:
    assert M.overrun.rolls.reconstructed.count(False) == 6  # 3-7 and 11 (PB 11.2)
    assert M.air.initiative.reconstructed.count(False) == 5
    assert sum(not f for col in M.air.combat.values() for f in col.reconstructed) == 8
    assert M.air.aa_fire.reconstructed.count(False) == 4


def test_14_34_soviet_orders_need_an_operational_hq() -> None:
    assert c.order_allowed("axis", NO_RETREAT, 0, True) is None  # 14.33: no limit for the Axis
    assert c.order_allowed("soviet", "", 0, False) is None
    assert c.order_allowed("soviet", ADDITIONAL_RETREAT, 1, False) is None
    bad = c.order_allowed("soviet", NO_RETREAT, 0, False)
    assert isinstance(bad, Illegal) and bad.case == "14.34a"
    bad = c.order_allowed("soviet", NO_RETREAT, 1, True)
    assert isinstance(bad, Illegal) and bad.case == "14.34b"
    assert isinstance(c.order_allowed("axis", "hold", 1, False), Illegal)
