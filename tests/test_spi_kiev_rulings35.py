"""Issue 35's Kiev rulings: 12.23 with 9.32, 19.63/19.65 with 11.23, relief by rail (22.2), the
terrain chart as the only source of terrain values (10.4), and 9.82, 19.22, 19.42 pinned.

Battles are fought on the 10 x 10 fixture map with loaded dice (tests/fixtures/mini).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.engine.actions import EndPhase
from kiev_tui.games.spi_kiev.actions import Attack, ChooseRetreat, Move, Overrun, RailMove, Retreat, TakeLosses
from kiev_tui.games.spi_kiev.overrun import overrun_preview

from tests.conftest import ROOT, position
from tests.spi_helpers import die_for, lines, load_dice, pending, refusal, where

runner = CliRunner()


# -- 10.4: the terrain chart in tables.toml is the only source of terrain values ----------------

def test_10_4_kiev_data_without_the_woods_row_is_refused_at_load(tmp_path: Path) -> None:
    data = tmp_path / "spi_kiev"
    shutil.copytree(ROOT / "data" / "spi_kiev", data)
    tables = data / "tables.toml"
    text = tables.read_text(encoding="utf-8")
    cut = re.sub(r"\[tec\.terrain\.woods\]\n(?:[^\[\n][^\n]*\n|\n)*", "", text)
    assert cut != text and "[tec.terrain.woods]" not in cut
    tables.write_text(cut, encoding="utf-8")
    result = runner.invoke(app, ["new", "--scenario", str(data / "scenarios" / "campaign.toml"), "--seed", "1",
                                 "--save", str(tmp_path / "g.toml"), "--no-ui"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {tables}: tec.terrain.woods: the terrain chart has no 'woods' row (10.4)\n"
    assert not (tmp_path / "g.toml").exists()


# -- 22.2 with 22.22: a ride by rail out of a higher-numbered hexrow relieves ---------------------

def _under_directive(mini: Game, placements: dict[str, str]) -> Game:
    position(mini, placements, turn=7, reinforcements=False)
    mini.state.vars.directive = {7: True}
    return mini


def test_22_2_22_22_a_rail_move_relieves(mini: Game) -> None:
    _under_directive(mini, {"so-rifle-1": "0807", "so-rifle-2": "1007", "so-hq-army": "0806"})
    # Bound by the order, so-rifle-1 may not ride east (22.22).
    assert refusal(mini, RailMove(("so-rifle-1",), ("0907",))) == (
        "[22.22] Stalin's Directive: so-rifle-1 must end the rail move in hexrow 08 or lower")
    n = len(mini.journal)
    mini.apply(RailMove(("so-rifle-2",), ("0907", "0807"), relieve="so-rifle-1"))
    assert lines(mini, n) == ["so-rifle-2 go by rail 0907 > 0807 (2 rail hexes)",
                              "so-rifle-2 relieves so-rifle-1, which may now move freely (22.2)"]
    v = mini.state.vars
    assert (list(v.relieved), list(v.relievers), list(v.railed)) == (["so-rifle-1"], ["so-rifle-2"], ["so-rifle-2"])
    assert v.stop_case["so-rifle-2"] == "22.2"
    assert v.rail_used == 1
    # Relieved, so-rifle-1 now rides east like any free unit.
    assert mini.check(RailMove(("so-rifle-1",), ("0907", "1007"))) is None


def test_22_2_a_rail_move_relieves_only_out_of_a_higher_hexrow(mini: Game) -> None:
    gm = mini.scenario.map
    gm.set_side_features(H("0807"), H("0806"), frozenset({"railroad"}))
    _under_directive(mini, {"so-rifle-1": "0806", "so-rifle-2": "0807", "so-hq-army": "0706"})
    # A ride along hexrow 08 is legal but relieves no one (22.2: from a higher-numbered hexrow).
    assert mini.check(RailMove(("so-rifle-2",), ("0806",))) is None
    assert refusal(mini, RailMove(("so-rifle-2",), ("0806",), relieve="so-rifle-1")) == (
        "[22.2] the relieving unit must come from a higher-numbered hexrow than 08")
    assert refusal(mini, RailMove(("so-hq-army",), ("0806",), relieve="so-rifle-1")) == \
        "[5.31] 0706 is not a friendly rail hex (it must have a railroad and be free of German units and zones)"


# -- 12.23 with 9.32: no combat unit is halved below one; the stack floor stays ------------------

FLOOR = "out of supply: halved, but a unit is never worth less than 1"


def _mods(p: object, uid: str) -> list[tuple[str, str]]:
    parts = p.attackers + p.defenders  # type: ignore[attr-defined]
    return [(m.case, m.text) for s in parts if s.unit == uid for m in s.mods]


def test_12_23_two_one_strength_defenders_out_of_supply_count_one_each(mini: Game) -> None:
    # so-rifle-2 on the west road exit cuts the German supply (19.82).  ge-1pz-2 (0-1) and ge-2pz-1
    # (3-1) are of two divisions (no integrity): each defends at 1, not 0.5, so the hex is 2, not 1.
    position(mini, {"so-rifle-1": "0804", "so-hq-army": "0803", "so-rifle-2": "0105",
                    "ge-1pz-2": "0905", "ge-2pz-1": "0905"}, player="soviet", phase="combat", turn=2,
             reinforcements=False)
    mini.state.units["ge-1pz-2"].step = 1
    mini.state.units["ge-2pz-1"].step = 1
    p = combat.preview(mini, ["so-rifle-1"], ["0905"])
    assert [(s.unit, s.base, s.value) for s in p.defenders] == [("ge-1pz-2", 1, 1.0), ("ge-2pz-1", 1, 1.0)]
    assert _mods(p, "ge-1pz-2") == [("12.23", FLOOR)]
    assert (p.attack, p.defense, p.column) == (4, 2, "2-1")


def test_12_23_one_strength_attackers_out_of_supply_count_one_each_and_fractions_wait(mini: Game) -> None:
    # ge-inf-1 and ge-inf-2 on their third step (1-2) attack at 1 each out of supply, ge-inf-3
    # (3-4) at 1.5: 3.5, rounded down once to 3 (9.32).  Halving the 1s to 0.5 would give 2.
    position(mini, {"so-rifle-2": "0105", "ge-inf-1": "0704", "ge-inf-2": "0704", "ge-inf-3": "0704",
                    "so-rifle-3": "0804", "so-hq-army": "0905"}, player="german", phase="combat", turn=2,
             reinforcements=False)
    for uid, step in (("ge-inf-1", 2), ("ge-inf-2", 2), ("ge-inf-3", 1)):
        mini.state.units[uid].step = step
    p = combat.preview(mini, ["ge-inf-1", "ge-inf-2", "ge-inf-3"], ["0804"])
    assert [(s.unit, s.base, s.value) for s in p.attackers] == [
        ("ge-inf-1", 1, 1.0), ("ge-inf-2", 1, 1.0), ("ge-inf-3", 3, 1.5)]
    assert _mods(p, "ge-inf-1") == [("12.23", FLOOR)]
    assert _mods(p, "ge-inf-3") == [("12.23", "out of supply: halved")]
    assert p.attack == 3


def test_9_32_a_leaders_half_rating_is_no_unit_and_only_the_stack_floor_holds_it(mini: Game) -> None:
    # The leader alone: half its rating 2 is 1, halved out of supply to 0.5; its hex counts 1 (9.32).
    position(mini, {"so-rifle-1": "0804", "so-hq-army": "0803", "so-rifle-2": "0105", "ge-leader": "0904"},
             player="soviet", phase="combat", turn=2, reinforcements=False)
    p = combat.preview(mini, ["so-rifle-1"], ["0904"])
    assert [(s.unit, s.value) for s in p.defenders] == [("ge-leader", 0.5)]
    assert p.defense == 1


# -- 19.63 / 19.65 with 11.23: the HQ is a unit of the battle and never stays alone in a zone -----

def _soviet_attack_with_a_0_0(mini: Game, placements: dict[str, str], target: str) -> list[str]:
    position(mini, placements, player="soviet", phase="combat", turn=2, reinforcements=False)
    load_dice(mini, [], picks=[1])  # so-t01-rifle-1 draws rifle-202, a 0-0
    n = len(mini.journal)
    mini.apply(Attack(("so-t01-rifle-1", "so-hq-army"), (target,)))
    return lines(mini, n)


def test_19_63_beside_an_hq_the_0_0_stays_absorbs_the_loss_and_the_hq_defends(mini: Game) -> None:
    position(mini, {"ge-1pz-1": "0704", "so-t01-rifle-1": "0804", "so-hq-army": "0804"}, player="german",
             phase="combat", turn=2, reinforcements=False)
    load_dice(mini, [die_for(mini, "3-1", "-/1")], picks=[1])  # rifle-202, a 0-0
    n = len(mini.journal)
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert lines(mini, n)[1:] == [
        "Untried so-t01-rifle-1 is revealed: 202, 0-0 - a no-strength unit (13.3)",
        f"Die roll #2 for attack at 0804 (3-1): {die_for(mini, '3-1', '-/1')}",
        f"Attack: ge-1pz-1 against 0804: 6 to 2, column 3-1, die {die_for(mini, '3-1', '-/1')}: result -/1 "
        "[ge-1pz-1 6; so-hq-army 2 (19.66 half its rating 4, rounded down: 2); so-t01-rifle-1 0]"]
    assert pending(mini)["units"] == ["so-hq-army", "so-t01-rifle-1"]
    mini.apply(TakeLosses(("so-t01-rifle-1",)))  # 19.64: the no-strength unit takes the step
    assert [mini.state.units[u].status for u in ("so-t01-rifle-1", "so-hq-army")] == ["eliminated", "map"]


def test_11_23_19_65_the_hq_of_a_cancelled_attack_goes_back_out_of_the_zone(mini: Game) -> None:
    told = _soviet_attack_with_a_0_0(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"},
                                     "0704")
    assert told[2:] == ["so-t01-rifle-1 is eliminated (its attack had no strength at all, 19.65)",
                        "The attack does not take place: the attackers' total strength is zero (19.65)."]
    assert pending(mini) == {
        "kind": "retreat", "side": "german", "who": "attacker", "units": ["so-hq-army"], "hexes": 1,
        "prompt": "german player: choose the retreat of so-hq-army, 1 hex (19.7). 11.23: an HQ may not stay "
                  "alone in an enemy zone once its companions proved to have no strength"}
    # Only hexes out of ge-inf-1's zone: 0803 touches 0704, so it is closed.
    assert combat.retreat_options(mini) == {"so-hq-army": [("0904",), ("0905",), ("0805",)]}
    assert refusal(mini, Retreat(("so-hq-army",), (("0803",),))) == "[9.71] 0803 is not a legal retreat for so-hq-army"
    mini.apply(Retreat(("so-hq-army",), (("0905",),)))
    assert where(mini, "so-hq-army") == ["0905"]
    assert mini.state.vars.stop_case["so-hq-army"] == "11.23"
    assert mini.state.pending is None and mini.state.vars.battle is None


def test_11_23_19_65_an_hq_with_no_way_back_is_eliminated(mini: Game) -> None:
    # German units at 0704, 0903 and 0905: every hex one step back from 0804 is held or in a zone.
    _soviet_attack_with_a_0_0(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0804", "ge-inf-1": "0704",
                                     "ge-inf-2": "0905", "ge-inf-3": "0903"}, "0704")
    assert combat.retreat_options(mini) == {"so-hq-army": []}
    mini.apply(Retreat(("so-hq-army",), ((),)))
    assert mini.state.units["so-hq-army"].status == "eliminated"
    assert mini.state.pending is None and mini.state.vars.battle is None


def test_11_23_an_hq_outside_any_enemy_zone_stays_where_it_is(mini: Game) -> None:
    # Across the major river (05/06) no zone reaches 0604 (8.12): the HQ may stay alone there.
    told = _soviet_attack_with_a_0_0(mini, {"so-t01-rifle-1": "0604", "so-hq-army": "0604", "ge-inf-1": "0504"},
                                     "0504")
    assert told[-1] == "The attack does not take place: the attackers' total strength is zero (19.65)."
    assert where(mini, "so-hq-army") == ["0604"]
    assert mini.state.pending is None and mini.state.vars.battle is None


# -- 19.22, 19.42: nothing is ever disrupted in Kiev (no 6.3) -------------------------------------

PZ = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")


def test_19_22_19_42_kievs_turn_has_no_disruption_removal_phase(mini: Game) -> None:
    steps = [(s.phasing, s.phase) for s in mini.rules.sequence.all_steps("soviet", "german")]
    assert steps == [("soviet", "movement"), ("soviet", "combat"), ("soviet", "mechanized"),
                     ("german", "movement"), ("german", "combat"), ("german", "mechanized")]


def test_19_22_19_42_a_unit_beaten_in_an_overrun_moves_and_attacks_in_its_next_turn(mini: Game) -> None:
    position(mini, {**dict.fromkeys(PZ, "0704"), "so-rifle-3": "0804", "so-rifle-4": "0905", "so-hq-army": "1005"},
             player="german", phase="movement", turn=2, reinforcements=False)
    col = overrun_preview(mini, PZ, "0804").column
    load_dice(mini, [die_for(mini, col, "-/2")])
    mini.apply(Overrun(PZ, "0804"))
    mini.apply(ChooseRetreat())  # an adverse result: under 6.31 so-rifle-3 would now be disrupted
    mini.apply(Retreat(("so-rifle-3",), (("0904", "1004"),)))
    assert where(mini, "so-rifle-3", *PZ) == ["1004", "0804", "0804", "0804"]
    while (mini.state.turn, mini.state.player, mini.state.phase) != (3, "soviet", "movement"):
        mini.apply(EndPhase())
    # 6.32 would keep a disrupted unit from moving and attacking in its next player-turn.
    assert mini.check(Move(("so-rifle-3",), ("0904",))) is None
    mini.apply(Move(("so-rifle-3",), ("0904",)))
    mini.apply(EndPhase())
    assert mini.state.phase == "combat"
    assert mini.check(Attack(("so-rifle-3", "so-rifle-4"), ("0804",))) is None
