"""The Kiev to Rostov rule system as a whole (Battle of Sumy): start, sides, prompts, saves, the bot."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.games.efs_ktr import bot, system
from kiev_tui.games.efs_ktr.actions import Activate, Declare, Move


def test_pb_10_44_new_game_starts_without_weather_supply_or_replacements() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    assert (g.state.turn, g.phase.name, g.actor) == (1, "reinforcements", "axis")
    phases = [s.phase for s in __import__("kiev_tui.engine.sequence", fromlist=["turn_steps"]).turn_steps(g)]
    assert "weather" not in phases and "supply" not in phases and "replacements" not in phases
    assert phases[:3] == ["reinforcements", "reinforcements", "air_readiness"]
    assert g.state.units["ax-33pz-9pz"].step == 2  # PB 10.4: starts reduced
    assert g.state.units["ax-he111"].status == "air_ready"


def test_4_2_wrong_side_refused() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    bad = g.check(EndPhase(), side="soviet")
    assert bad is not None and bad.case == "4.2"


def test_10_52_a_move_beyond_the_allowance_is_refused() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    bad = g.check(Move(("ax-619art",), ("1210", "1310", "1410", "1510", "1610", "1710", "1810")), side="axis")
    assert bad is not None and bad.case in ("10.52", "10.54", "10.65", "10.4")


def test_12_35_declare_needs_an_enemy_hex_next_to_the_units() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    bad = g.check(Declare("1508", ("ax-619art",)), side="axis")
    assert bad is not None and bad.case == "15.21"


def test_10_24_activation_only_in_the_soviet_motorized_phase() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    bad = g.check(Activate("so-40a-hq", "so-227rd"), side="axis")
    assert bad is not None and bad.case in ("10.24", "4.2")


def test_every_prompt_is_answered_from_its_options_and_legal_lists_them() -> None:
    g = Game.new("efs_ktr/sumy", seed=3)
    rng = random.Random(3)
    seen = set()
    for _ in range(2000):
        if g.state.over:
            break
        p = g.rules.prompt(g)
        acts = list(g.rules.legal(g, g.actor))
        if p is not None:
            seen.add(p.kind)
            assert p.options, p
            assert set(acts) == {o.action for o in p.options}
            assert list(g.rules.legal(g, "soviet" if p.side == "axis" else "axis")) == []
        for a in acts[:40]:
            assert g.check(a, side=g.actor) is None, a
        a = bot.choose(g, rng)
        assert a is not None
        g.apply(a, side=g.actor)
    assert g.state.over
    assert {"air_mission", "reveal_air"} <= seen


def test_save_load_replay_equal(tmp_path: Path) -> None:
    g = Game.new("efs_ktr/sumy", seed=5)
    bot.play(g, 5, limit=250)
    path = save_game(g, tmp_path / "efs.toml")
    back = load_game(path)
    assert back.state.to_dict() == g.state.to_dict()
    assert [e.record() for e in back.journal] == [e.record() for e in g.journal]


def test_4_2_a_whole_game_turn_by_the_bot() -> None:
    g = Game.new("efs_ktr/sumy", seed=11)
    rng = random.Random(11)
    segments = set()
    while g.state.turn == 1 and not g.state.over:
        segments.add(g.phase.segment)
        g.apply(bot.choose(g, rng), side=g.actor)
        bot.check_invariants(g)
    assert segments == {"strategic", "axis", "soviet"}
    assert g.state.over or (g.state.turn, g.phase.name) == (2, "reinforcements")


def test_selfplay_two_seeds_finish() -> None:
    r = CliRunner().invoke(app, ["selfplay", "--scenario", "efs_ktr/sumy", "--games", "2", "--seed", "21"])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("seed")]
    assert len(lines) == 2 and all("game over after turn" in x for x in lines)


def test_pb_10_45_score_counts_stars() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    sc = g.rules.score(g)
    assert sc.points == {"axis": 0, "soviet": 7}
    assert system.stars_held(g, "soviet") == 7


def test_22_12b_soviet_reaction_needs_a_command_point_per_unit() -> None:
    from tests.test_efs_hidden import PZ

    g = Game.new("efs_ktr/sumy", seed=7)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    reach = g.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and b.parse("1506") in b.gmap.neighbours(h))[0]
    g.apply(Move(PZ, reach[dest].path), side="axis")
    g.apply(Declare("1506", PZ), side="axis")
    g.apply(EndPhase(), side="axis")
    assert (g.phase.name, g.actor) == ("reaction", "soviet")
    react = Move(("so-1tb",), ("1504", "1404"))
    g.state.vars.hq_react = {"so-40a-hq": ["so-129tb"]}  # the 40th Army's one point already spent
    bad = g.check(react, side="soviet")
    assert bad is not None and bad.case == "22.12"
    g.state.vars.hq_react = {}
    g.apply(react, side="soviet")
    assert g.state.vars.hq_react == {"so-40a-hq": ["so-1tb"]}
    assert g.state.vars.spent["so-1tb"] == "1"
    g.apply(Move(("so-1tb",), ("1404", "1503")), side="soviet")  # it goes on: no second point
    assert g.state.vars.hq_react == {"so-40a-hq": ["so-1tb"]}


def test_pb_10_45b_six_axis_steps_end_the_game_at_once() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    g.state.vars.steps_lost = {"axis": 5}  # a hand-built position: five steps gone
    g.apply(Move(("ax-619art",), ("1210", "1310")), side="axis")
    assert not g.state.over
    g.state.vars.steps_lost = {"axis": 6}
    g.apply(Move(("ax-20mot-10m",), ("1407", "1306")), side="axis")
    assert g.state.over and g.rules.score(g).winner == "soviet"


def test_pb_10_45a_five_stars_at_the_end_win_for_the_axis() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    for h in ("2303", "2009", "1306", "1707"):  # 2 + 1 + 1 + 1 stars (Sumy counts two)
        g.state.control[h] = "axis"
    while not g.state.over:
        g.apply(EndPhase(), side=g.actor)
    sc = g.rules.score(g)
    assert (sc.points, sc.winner) == ({"axis": 5, "soviet": 2}, "axis")
    g2 = Game.new("efs_ktr/sumy", seed=1)
    for h in ("2303", "2009", "1306"):
        g2.state.control[h] = "axis"
    while not g2.state.over:
        g2.apply(EndPhase(), side=g2.actor)
    assert g2.rules.score(g2).winner == "soviet"


def test_11_9_a_plain_one_hex_step_is_one_hex_movement() -> None:
    """1407 -> 1507 goes from the 20/10M's own enemy zone straight into another: plain movement
    refuses it (10.66), one-hex movement takes it for the whole allowance (11.9)."""
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    reach = g.reachable(("ax-20mot-10m",))[system.board(g).parse("1507")]
    assert (reach.case, reach.cost) == ("11.9", 7.0)
    g.apply(Move(("ax-20mot-10m",), ("1407", "1507")), side="axis")
    assert g.state.vars.spent["ax-20mot-10m"] == "7" and "ax-20mot-10m" in g.state.vars.done
    bad = g.check(Move(("ax-20mot-10m",), ("1507", "1407")), side="axis")
    assert bad is not None and bad.case == "10.65"


def test_15_58_soviet_attacker_order_needs_an_hq_in_range_of_an_attacker_hex() -> None:
    """GT50 as the tutorial plays it up to the Soviet Motorized phase; then the 5+136/9 Cavalry in
    1506, four hexes from the 40th Army HQ, attacks the 16th Motorized in 1507: the Soviet may
    give an attacker order, and it spends the HQ's order point (22.12c; docs/rulings.md)."""
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.efs_ktr.actions import Attack, AttackerOrder

    from tests.test_efs_tutorial import ROLLS, gt50_axis_movement_and_combat

    g = Game.new("efs_ktr/sumy", dice=FixedDice([*ROLLS[:5], 1]))
    gt50_axis_movement_and_combat(g)
    g.apply(EndPhase(), side="axis")
    g.apply(Move(("ax-60mot-16m", "ax-156mot-16m"), ("1409", "1408", "1507")), side="axis")
    while g.phase.segment != "soviet":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Declare("1507", ("so-5-136-9c",)), side="soviet")
    g.apply(Declare("1407", ("so-5-136-9c",)), side="soviet")  # 12.7: 1407's zone reaches 1506 too
    while g.phase.name != "combat":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Attack("1507", ("so-5-136-9c",)), side="soviet")
    kinds = []
    while g.rules.prompt(g).kind != "attacker_order":
        p = g.rules.prompt(g)
        kinds.append(p.kind)
        g.apply(p.options[0].action, side=p.side)
    assert g.rules.prompt(g).side == "soviet"
    g.apply(AttackerOrder("no_retreat"), side="soviet")
    assert g.state.vars.hq_orders == {"so-40a-hq": 1}
    assert g.state.vars.combat["aorder"] == "no_retreat" and "set_order" in kinds
    p = g.rules.prompt(g)
    assert (p.kind, p.side) == ("reveal_order", "axis")  # the Axis order, placed before, is turned now


def overrun_position(rolls: list[int]) -> Game:
    """GT50's Axis Movement phase with the 9th Panzer (10 attack) moved, by hand, to 1410 next to
    the 11+96/5 Cavalry (2 defence) in 1510: 5-1, the least an all-German overrun needs (11.42a)."""
    from kiev_tui.engine.dice import FixedDice

    g = Game.new("efs_ktr/sumy", dice=FixedDice(rolls))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    for u in PZ9:
        g.state.units[u].hex = "1410"
    g.memo.clear()  # the position was edited by hand
    return g


PZ9 = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz")


def test_11_43_a_won_overrun_retreats_the_defender_and_the_stack_moves_in() -> None:
    from kiev_tui.games.efs_ktr.actions import Overrun, Retreat

    g = overrun_position([1])
    g.apply(Overrun(PZ9, "1510"), side="axis")
    assert "Overrun of 1510 by ax-10mot-9pz, ax-11mot-9pz, ax-33pz-9pz, ax-9rec-9pz at 5-1: roll 1, modified 3: " \
           "succeeds (11.43)" in [e.describe() for e in g.journal]
    p = g.rules.prompt(g)  # 11.43j: the overrunning player picks the two-hex retreat
    assert (p.kind, p.side) == ("retreat", "axis") and all(len(o.action.path) == 2 for o in p.options)
    g.apply(Retreat(("1511", "1412")), side="axis")
    assert g.state.units["so-11-96-5c"].hex == "1412" and g.state.vars.overrun_marked == ["so-11-96-5c"]  # 11.44
    assert {g.state.units[u].hex for u in PZ9} == {"1510"}  # 11.43l
    assert {g.state.vars.spent[u] for u in PZ9} == {"2"}  # 1 MP and the clear hex (11.43b)


def test_11_43m_a_failed_overrun_costs_a_step_and_ends_the_move() -> None:
    from kiev_tui.games.efs_ktr.actions import Overrun, TakeLosses

    g = overrun_position([9])
    g.apply(Overrun(PZ9, "1510"), side="axis")
    p = g.rules.prompt(g)  # the owner picks the step (16.21)
    assert (p.kind, p.side) == ("take_losses", "axis") and len(p.options) == 4
    g.apply(TakeLosses(("ax-9rec-9pz",)), side="axis")
    assert g.state.units["ax-9rec-9pz"].step == 1 and g.state.vars.steps_lost == {"axis": 1}
    assert {g.state.units[u].hex for u in PZ9} == {"1410"} and g.state.units["so-11-96-5c"].hex == "1510"
    bad = g.check(Move(PZ9, ("1410", "1411")), side="axis")
    assert bad is not None and bad.case == "10.65"


def test_11_42a_an_overrun_under_5_1_is_refused() -> None:
    from kiev_tui.games.efs_ktr.actions import Overrun

    g = overrun_position([1])
    bad = g.check(Overrun(PZ9[:2], "1510"), side="axis")
    assert bad is not None and bad.case == "11.42" and "under the 5-1" in bad.why


def test_16_46_the_owner_picks_the_unit_that_pays_for_a_zone() -> None:
    """A made-up position (the retreat tests' own): the 11+96/5 and 72+108/9 Cavalry in 1805, the
    10/9Pz in 1806 attacking at 1-2; a roll of 1 (1*/R) and a retreat through 1705, vacant and in
    the 10th's zone: the Soviet names the unit that loses the step, then rolls on the Retreat
    Table (a 1 escapes, 16.46)."""
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.efs_ktr.actions import Attack, Retreat, TakeLosses

    keep = {"so-11-96-5c": "1805", "so-72-108-9c": "1805", "ax-10mot-9pz": "1806"}
    g = Game.new("efs_ktr/sumy", dice=FixedDice([1, 1]))
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    for uid, u in g.state.units.items():
        if u.status == "map":
            if uid in keep:
                u.hex = keep[uid]
            else:
                u.status, u.hex = "cadre", None
    g.memo.clear()  # the position was edited by hand
    g.apply(Declare("1805", ("ax-10mot-9pz",)), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1805", ("ax-10mot-9pz",)), side="axis")
    while g.rules.prompt(g).kind != "retreat":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    assert "Combat at 1805: 3 to 5, 1-2, DRM +0; roll 1: 1*/R (15.8)" in [e.describe() for e in g.journal]
    g.apply(Retreat(("1705", "1605")), side="soviet")
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("zoc_step", "soviet", "16.46")
    assert {o.action for o in p.options} == {TakeLosses(("so-11-96-5c",)), TakeLosses(("so-72-108-9c",))}
    g.apply(TakeLosses(("so-72-108-9c",)), side="soviet")
    assert g.state.units["so-72-108-9c"].step == 1 and g.state.units["so-11-96-5c"].step == 0
    assert {g.state.units[u].hex for u in ("so-72-108-9c", "so-11-96-5c")} == {"1605"}
    assert g.state.vars.steps_lost == {"axis": 1, "soviet": 1}


def test_12_36_a_declared_attack_uses_the_strength_that_reaches_1_4() -> None:
    """A made-up position: the 295th Rifle (8) joins the 11+96/5 Cavalry (2) in 1510, and three 9th
    Panzer units stand in 1410 (8 attack).  They declare at 8 to 10; in the Combat phase the
    9th Recon alone (2 to 10, under 1-4) is refused while 1-4 or better can be had (12.36)."""
    from kiev_tui.games.efs_ktr.actions import Attack

    three = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-9rec-9pz")
    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    g.state.units["so-295rd"].hex = "1510"
    for u in three:
        g.state.units[u].hex = "1410"
    g.memo.clear()  # the position was edited by hand
    g.apply(Declare("1510", three), side="axis")
    while g.phase.name != "combat":
        g.apply(EndPhase(), side=g.actor)
    weak = g.rules.preview(g, ("ax-9rec-9pz",), ("1510",))
    assert weak is not None and (weak.attack, weak.defense, weak.column) == (2, 10, "under 1-4")
    bad = g.check(Attack("1510", ("ax-9rec-9pz",)), side="axis")
    # every unit at hand: the three and the 619th's 2 support points from 1210, 10 to 10
    assert bad is not None and bad.case == "12.36" and "make 1-1" in bad.why
    assert g.check(Attack("1510", three), side="axis") is None


def test_3_32_an_overstacked_hex_sends_units_to_the_cadre_box_before_the_phase_ends() -> None:
    from kiev_tui.games.efs_ktr.actions import ToCadre

    g = Game.new("efs_ktr/sumy", seed=1)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    pile = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz", "ax-60mot-16m", "ax-156mot-16m")
    for u in pile:
        g.state.units[u].hex = "1208"
    g.memo.clear()  # the position was edited by hand
    over = sum(system.board(g).stacking(u) for u in pile) - b.tables.stacking_limit
    assert over > 0
    bad = g.check(EndPhase(), side="axis")
    assert bad is not None and bad.case == "3.32"
    assert g.check(ToCadre("ax-20mot-10m"), side="axis").case == "3.32"  # 1407 is not over the limit
    assert ToCadre("ax-60mot-16m") in set(g.rules.legal(g, "axis"))
    while g.check(EndPhase(), side="axis") is not None:
        g.apply(ToCadre(pile[-1 - len([u for u in pile if g.state.units[u].status == "cadre"])]), side="axis")
    assert g.state.units["ax-156mot-16m"].status == "cadre"
    g.apply(EndPhase(), side="axis")


def test_13_24_interdiction_over_the_hq_takes_its_command_but_not_its_guards() -> None:
    """GT50: the He111 (interdiction 2) flies over the 40th Army HQ in 1904, unopposed; the HQ's AA
    rolls a 1 (no effect, 17.4): a Level Two zone (13.14) over 1904 and its neighbours (13.15).
    The HQ's one command point is gone (13.24), its free Guards activation is not (22.41)."""
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.engine.view import view
    from kiev_tui.games.efs_ktr.actions import AirMission, Interdict

    g = Game.new("efs_ktr/sumy", dice=FixedDice([1]))
    while g.state.phase != "air_interdiction":
        g.apply(EndPhase(), side=g.actor)
    assert g.check(Interdict("1904"), side="soviet").case == "4.2"
    g.apply(Interdict("1904"), side="axis")
    g.apply(AirMission("ax-he111"), side="axis")
    assert view(g, "soviet").secrets == {} and "air" in view(g, "soviet").commitments["axis"]  # face down
    g.apply(AirMission(""), side="soviet")
    while g.state.pending is not None:
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    assert g.state.vars.interdiction == {"1904": 2}
    b = system.board(g)
    assert b.parse("1904") in b.interdicted and b.parse("1905") in b.interdicted
    assert b.parse("1907") not in b.interdicted
    while not (g.phase.segment == "soviet" and g.phase.name == "motorized"):
        g.apply(EndPhase(), side=g.actor)
    bad = g.check(Activate("so-40a-hq", "so-227rd"), side="soviet")
    assert bad is not None and bad.case == "22.12" and "no command point" in bad.why
    assert g.check(Activate("so-40a-hq", "so-2-4gdr"), side="soviet") is None
    while g.state.turn == 1:
        g.apply(EndPhase(), side=g.actor)
    assert g.state.vars.interdiction == {}  # 13.16: markers off in the interphase
