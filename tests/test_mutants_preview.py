"""The combat preview (9.1-9.4, 13.2, 19.63, 19.65, 20.2): what mutation testing found unpinned.

The chances a preview shows for untried defenders are sampled from the faces still in the pool;
these tests leave the pool with faces whose every draw gives one column, so the chances are
exact, and read the expected results off the fixture's CRT (tests/fixtures/mini/tables.toml).
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.actions import Attack
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.overrun import overrun_preview
from kiev_tui.games.spi_kiev.preview import check_attack, strengths
from kiev_tui.games.spi_kiev.strength import Modifier as M
from kiev_tui.games.spi_kiev.strength import UnitStrength as U

from tests.conftest import position

PZ = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")
UNTRIED = (M("13.2", "untried: revealed when the battle is fought"),)
DOUBLED = (M("20.0", "divisional integrity: doubled"),)
NOTE_1 = "1 untried unit(s): their strength is drawn when the battle is fought (13.2)"
NOTE_2 = "2 untried unit(s): their strength is drawn when the battle is fought (13.2)"
SIXTH = 1 / 6

# Columns of the fixture CRT, die 1 to 6.
COL_1_1 = {"-/1": SIXTH, "1/1": SIXTH, "eng": SIXTH, "1/-": SIXTH, "2/-": 2 * SIXTH}
COL_2_1 = {"-/1": 2 * SIXTH, "1/1": SIXTH, "eng": SIXTH, "1/-": SIXTH, "2/-": SIXTH}
COL_3_1 = {"-/2": SIXTH, "-/1": 2 * SIXTH, "1/1": SIXTH, "eng": SIXTH, "1/-": SIXTH}
COL_4_1 = {"-/2": 2 * SIXTH, "-/1": 2 * SIXTH, "1/1": SIXTH, "eng": SIXTH}
COL_5_1 = {"-/2": 3 * SIXTH, "-/1": 2 * SIXTH, "1/1": SIXTH}


def battle(game: Game, placements: dict[str, str], player: str = "german", phase: str = "combat") -> Game:
    return position(game, placements, player=player, phase=phase, turn=2, reinforcements=False)


def leave_in_pool(game: Game, *faces: str) -> None:
    """Mark every rifle face but these as drawn already (13.1: each face comes out once)."""
    game.state.vars.pool_used = [f for f in ("rifle-201", "rifle-202", "rifle-203") if f not in faces]


def chances(p: combat.Preview) -> dict[str, float]:
    return {k: round(v, 9) for k, v in p.chances.items()}


def exact(col: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 9) for k, v in col.items()}


# -- untried defenders: the chances are averaged over the faces still in the pool (13.2) ----------

def test_13_1_13_2_two_untried_defenders_never_draw_the_same_face(mini: Game) -> None:
    # 202 is out: the two counters are 201 (3) and 203 (5), one each, so always 16 to 8: 2-1.
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-t01-rifle-1": "0804", "so-t01-rifle-2": "0804",
                  "so-hq-army": "0905"})
    leave_in_pool(mini, "rifle-201", "rifle-203")
    p = combat.preview(mini, list(PZ), ["0804"])
    assert chances(p) == exact(COL_2_1)
    assert p.attackers == (U("ge-1pz-1", 6, 12.0, DOUBLED), U("ge-1pz-2", 1, 2.0, DOUBLED),
                           U("ge-1pz-3", 1, 2.0, DOUBLED))
    assert p.defenders == (U("so-t01-rifle-1", None, None, UNTRIED), U("so-t01-rifle-2", None, None, UNTRIED))
    assert (p.attack, p.defense, p.column, p.illegal, p.notes) == (None, None, None, None, (NOTE_2,))
    # A preview draws nothing for the game: both counters stay untried, the pool as it was.
    assert [mini.state.units[u].face for u in ("so-t01-rifle-1", "so-t01-rifle-2")] == [None, None]
    assert mini.state.vars.pool_used == ["rifle-202"]


def test_19_63_an_untried_defender_that_can_only_be_a_no_strength_unit(mini: Game) -> None:
    # Alone, it can only be eliminated before the die (19.63).
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-t01-rifle-1": "0804"})
    leave_in_pool(mini, "rifle-202")
    p = combat.preview(mini, list(PZ), ["0804"])
    assert p.chances == {"defenders eliminated (19.63)": 1.0}
    assert p.notes == (NOTE_1,)
    assert mini.state.units["so-t01-rifle-1"].face is None


def test_19_63_with_an_hq_beside_it_a_no_strength_defender_is_fought_normally(mini: Game) -> None:
    # The HQ is one of the Soviet units involved and never a no-strength unit: the battle is
    # fought, the HQ defending at half its rating 4 beside the 0-0 (19.66): 16 to 2, 8-1.
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-t01-rifle-1": "0804", "so-hq-army": "0804"})
    leave_in_pool(mini, "rifle-202")
    p = combat.preview(mini, list(PZ), ["0804"])
    table = combat.crt(mini)
    expected: dict[str, float] = {}
    for die in range(1, 7):
        r = table.result("8-1", die)
        expected[r] = expected.get(r, 0.0) + SIXTH
    assert p.chances == pytest.approx(expected)
    assert p.notes == (NOTE_1,)


def test_19_65_an_untried_attacker_that_can_only_be_a_no_strength_unit(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0905", "ge-inf-1": "0704"}, player="soviet")
    leave_in_pool(mini, "rifle-202")
    p = combat.preview(mini, ["so-t01-rifle-1"], ["0704"])
    assert p.chances == {"attack cancelled (19.65)": 1.0}
    assert p.attackers == (U("so-t01-rifle-1", None, None, UNTRIED),)
    assert p.defenders == (U("ge-inf-1", 7, 7.0),)
    assert (p.attack, p.defense, p.column, p.illegal, p.notes) == (None, None, None, None, (NOTE_1,))


def test_6_0_9_32_an_overrun_halved_to_nothing_still_counts_one(mini: Game) -> None:
    # ge-1pz-2's 1 halved for the overrun is 0, but a unit with strength counts at least 1 (9.32);
    # the defender can only be 201 (3), halved to 1.5 without an HQ (12.23): 1 to 1.
    battle(mini, {"ge-1pz-2": "0704", "so-t01-rifle-1": "0804"}, phase="movement")
    leave_in_pool(mini, "rifle-201")
    p = overrun_preview(mini, ["ge-1pz-2"], "0804")
    assert chances(p) == exact(COL_1_1)
    assert p.attackers == (U("ge-1pz-2", 1, 1.0),)


def test_20_2_gd_counts_with_the_division_the_german_names(mini: Game) -> None:
    # GD 2, 2 Pz's regiment 6, 1 Pz's regiment 1.  Naming 2 Pz doubles GD and 1/2: 4 + 12 + 1 = 17
    # against 201's 3 is 5-1; the default (1 Pz) would give 4 + 2 + 6 = 12, only 4-1.
    attackers = ("ge-gd", "ge-2pz-1", "ge-1pz-2")
    battle(mini, {**dict.fromkeys(attackers, "0704"), "so-t01-rifle-1": "0804", "so-hq-army": "0905"})
    leave_in_pool(mini, "rifle-201")
    named = combat.preview(mini, list(attackers), ["0804"], integrity="2 Pz")
    assert chances(named) == exact(COL_5_1)
    assert named.attackers == (U("ge-gd", 2, 4.0, DOUBLED), U("ge-2pz-1", 6, 12.0, DOUBLED), U("ge-1pz-2", 1, 1.0))
    assert named.illegal is None
    assert chances(combat.preview(mini, list(attackers), ["0804"])) == exact(COL_4_1)


def test_13_2_the_same_position_always_shows_the_same_chances(mini: Game) -> None:
    # Any two of 201, 202, 203: 16 against 8 (2-1), 5 (3-1) or 3 (5-1).
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-t01-rifle-1": "0804", "so-t01-rifle-2": "0804",
                  "so-hq-army": "0905"})
    first = combat.preview(mini, list(PZ), ["0804"])
    assert set(first.chances) == set(COL_2_1) | set(COL_3_1) | set(COL_5_1)
    assert sum(first.chances.values()) == pytest.approx(1.0)
    for _ in range(3):
        assert combat.preview(mini, list(PZ), ["0804"]).chances == first.chances
    assert mini.state.vars.pool_used == []


# -- known units: strengths, odds column and the chance of each result ----------------------------

def test_9_4_a_preview_of_known_units_reads_one_column(mini: Game) -> None:
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-rifle-4": "0804", "so-hq-army": "0905"})
    p = combat.preview(mini, list(PZ), ["0804"])
    assert (p.attack, p.defense, p.column, p.illegal, p.notes) == (16, 8, "2-1", None, ())
    assert chances(p) == exact(COL_2_1)
    assert p.defenders == (U("so-rifle-4", 8, 8.0),)


def test_9_1_a_preview_of_a_hex_id_that_is_not_one(mini: Game) -> None:
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-rifle-4": "0804"})
    p = combat.preview(mini, list(PZ), ["zz"])
    assert p == combat.Preview((), (), None, None, None, {},
                               Illegal("9.1", "'zz' is not a hex id (four digits CCRR, e.g. 0319)"))


# -- who may attack (9.15, 20.2) ------------------------------------------------------------------

def test_9_15_a_soviet_unit_beyond_every_hq_may_not_attack(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0804", "ge-inf-1": "0704"}, player="soviet")
    assert str(check_attack(View(mini), Attack(("so-rifle-1",), ("0704",)))) == \
        "[9.15] so-rifle-1 is beyond every HQ's command radius and cannot attack"


def test_20_2_an_attack_naming_a_division_gd_cannot_join(mini: Game) -> None:
    battle(mini, {"ge-gd": "0704", "ge-2pz-1": "0704", "so-rifle-4": "0804"})
    assert str(check_attack(View(mini), Attack(("ge-gd", "ge-2pz-1"), ("0804",), "1 Pz"))) == \
        "[20.2] GD cannot count with 1 Pz here (it can join: 2 Pz)"


# -- attack options (9.1, 10.16, 11.37) -----------------------------------------------------------

def test_9_1_11_37_attack_options_list_own_units_and_a_leader_beside_them(mini: Game) -> None:
    # The Soviet HQ beside the target is the enemy's: it never joins the German attack.
    battle(mini, {"ge-1pz-1": "0704", "ge-leader": "0704", "ge-inf-1": "0803", "so-rifle-3": "0804",
                  "so-hq-army": "0905"})
    assert combat.attack_options(mini) == {"0804": ["ge-1pz-1", "ge-inf-1", "ge-leader"]}


def test_10_16_attack_options_leave_out_a_leader_across_a_lake(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-leader": "0803", "so-rifle-3": "0804"})
    mini.scenario.map.set_side_features(H("0803"), H("0804"), frozenset({"lake"}))
    assert combat.attack_options(mini) == {"0804": ["ge-1pz-1"]}


# -- more known-unit previews: overruns, GD, refusals shown with the odds, special outcomes --------

def test_6_0_an_overrun_preview_halves_the_attack(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0705", "so-rifle-3": "0804"}, phase="movement")
    # 6 halved to 3 against so-rifle-3's 2, halved to 1 without an HQ (12.23): 3-1.
    p = overrun_preview(mini, ["ge-1pz-1"], "0804")
    assert (p.attack, p.defense, p.column) == (3, 1, "3-1")
    assert chances(p) == exact(COL_3_1)
    # 1 halved to nothing still counts one (9.32): 1-1.
    p = overrun_preview(mini, ["ge-1pz-2"], "0804")
    assert (p.attack, p.defense, p.column) == (1, 1, "1-1")
    assert p.attackers == (U("ge-1pz-2", 1, 1.0),)


def test_20_2_gd_with_the_named_division_against_known_defenders(mini: Game) -> None:
    attackers = ("ge-gd", "ge-2pz-1", "ge-1pz-2")
    battle(mini, {**dict.fromkeys(attackers, "0704"), "so-rifle-4": "0804", "so-hq-army": "0905"})
    named = combat.preview(mini, list(attackers), ["0804"], integrity="2 Pz")
    assert (named.attack, named.defense, named.column, named.illegal) == (17, 8, "2-1", None)
    plain = combat.preview(mini, list(attackers), ["0804"])
    assert (plain.attack, plain.defense, plain.column) == (12, 8, "1-1")
    wrong = combat.preview(mini, list(attackers), ["0804"], integrity="3 Pz")
    assert str(wrong.illegal) == "[20.2] GD cannot count with 3 Pz here (it can join: 1 Pz, 2 Pz)"
    assert (wrong.attack, wrong.column) == (12, "1-1")


def test_9_23_a_preview_shows_the_refusal_beside_the_odds(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0703", "so-rifle-4": "0804", "so-hq-army": "0905"})
    p = combat.preview(mini, ["ge-1pz-1", "ge-inf-1"], ["0804"])
    assert str(p.illegal) == "[9.23] ge-inf-1 is not adjacent to 0804: every attacker must touch every target hex"
    assert (p.attack, p.defense, p.column) == (11, 8, "1-1")
    assert p.attackers == (U("ge-1pz-1", 6, 6.0), U("ge-inf-1", 5, 5.0))


def test_19_63_a_revealed_no_strength_defender_is_eliminated_unrolled(mini: Game) -> None:
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-t01-rifle-1": "0804", "so-hq-army": "0905"})
    mini.state.units["so-t01-rifle-1"].face = "rifle-202"
    p = combat.preview(mini, list(PZ), ["0804"])
    assert p == combat.Preview(
        (U("ge-1pz-1", 6, 12.0, DOUBLED), U("ge-1pz-2", 1, 2.0, DOUBLED), U("ge-1pz-3", 1, 2.0, DOUBLED)),
        (U("so-t01-rifle-1", 0, 0.0),), 16, 0, "10-1", {"defenders eliminated (19.63)": 1.0}, None, ())


def test_19_65_a_revealed_no_strength_attacker_cancels_the_attack(mini: Game) -> None:
    battle(mini, {"so-t01-rifle-1": "0804", "so-hq-army": "0905", "ge-inf-1": "0704"}, player="soviet")
    mini.state.units["so-t01-rifle-1"].face = "rifle-202"
    p = combat.preview(mini, ["so-t01-rifle-1"], ["0704"])
    assert p == combat.Preview((U("so-t01-rifle-1", 0, 0.0),), (U("ge-inf-1", 7, 7.0),), 0, 7, "1-3",
                               {"attack cancelled (19.65)": 1.0}, None, ())


def test_9_4_a_table_that_names_its_clamp_columns(mini: Game) -> None:
    # tables.toml may send ratios past the chart to other columns than its first and last.
    mini.scenario.tables["crt"]["above_highest"] = "8-1"
    mini.scenario.tables["crt"]["below_lowest"] = "1-2"
    mini.scenario.derived.pop("crt", None)
    battle(mini, {**dict.fromkeys(PZ, "0704"), "so-rifle-3": "0804"})
    assert combat.preview(mini, list(PZ), ["0804"]).column == "8-1"  # 16 to 1
    battle(mini, {"ge-1pz-2": "0704", "so-rifle-4": "0804", "so-hq-army": "0905"})
    assert combat.preview(mini, ["ge-1pz-2"], ["0804"]).column == "1-2"  # 1 to 8


def test_9_32_each_target_hex_is_rounded_and_kept_at_one_by_itself(mini: Game) -> None:
    # A Soviet unit on the west road exit cuts the German supply (19.82): ge-1pz-2 reduced (1) is
    # halved but kept at 1 as a unit (12.23); the leader alone (half its 2) is halved to 0.5, not
    # a combat unit, and its hex counts 1 as a stack (9.32): 2 in all.
    battle(mini, {"so-rifle-1": "0804", "so-hq-army": "0803", "so-rifle-2": "0105",
                  "ge-1pz-2": "0905", "ge-leader": "0904"}, player="soviet")
    mini.state.units["ge-1pz-2"].step = 1
    p = combat.preview(mini, ["so-rifle-1"], ["0905", "0904"])
    assert (p.attack, p.defense, p.column, p.illegal) == (4, 2, "2-1", None)
    oos = M("12.23", "out of supply: halved")
    floor = M("12.23", "out of supply: halved, but a unit is never worth less than 1")
    assert p.defenders == (U("ge-1pz-2", 1, 1.0, (floor,)),
                           U("ge-leader", 1, 0.5, (M("21.0", "half its rating 2, rounded down: 1"), oos)))


def test_10_14_a_preview_across_the_major_river(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0504", "so-rifle-1": "0604", "so-hq-army": "0705"})
    p = combat.preview(mini, ["ge-1pz-1"], ["0604"])
    assert p.defenders == (U("so-rifle-1", 5, 15.0, (M("10.14", "attacked only across a major river: defence tripled"),)),)
    assert (p.attack, p.defense, p.column) == (6, 15, "1-3")


def test_20_2_the_division_gd_defends_with(mini: Game) -> None:
    # GD 2, 2 Pz's regiment 2, 1 Pz's 1/2 3: with 2 Pz named, 4 + 4 + 3 = 11; by default (1 Pz) 4 + 2 + 6.
    battle(mini, {"ge-gd": "0704", "ge-2pz-1": "0704", "ge-1pz-2": "0704", "so-rifle-4": "0804",
                  "so-hq-army": "0803"}, player="soviet")
    view = View(mini)
    named = strengths(view, ("so-rifle-4",), [H("0704")], False, "", {"0704": "2 Pz"})
    assert (named[2], named[4]) == (11.0, [11])
    assert strengths(view, ("so-rifle-4",), [H("0704")], False, "", {"0805": "2 Pz"})[4] == [12]


def test_9_76_a_newcomer_does_not_shield_its_new_hex_from_attack(mini: Game) -> None:
    # so-rifle-1 was attacked at 0804 before it retreated into so-rifle-4's hex: the hex may be attacked.
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-4": "0804", "so-rifle-1": "0804", "so-hq-army": "0905"})
    mini.state.vars.defended = ["so-rifle-1"]
    mini.state.vars.retreated_into = ["so-rifle-1"]
    assert check_attack(View(mini), Attack(("ge-1pz-1",), ("0804",))) is None
    p = combat.preview(mini, ["ge-1pz-1"], ["0804"])
    assert (p.attack, p.defense, p.column) == (6, 8, "1-2")
    assert p.defenders == (U("so-rifle-4", 8, 8.0),)


def test_9_15_an_hq_and_a_unit_in_its_command_may_attack(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0804", "so-hq-army": "0804", "ge-inf-1": "0704"}, player="soviet")
    assert check_attack(View(mini), Attack(("so-rifle-1", "so-hq-army"), ("0704",))) is None


def test_9_1_an_attacker_id_that_names_no_unit(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "so-rifle-4": "0804"})
    assert str(check_attack(View(mini), Attack(("ge-nobody",), ("0804",)))) == "[9.1] ge-nobody is not on the map"


def test_9_23_a_decided_battle_still_shows_why_it_may_not_be_fought(mini: Game) -> None:
    # ge-inf-1 two hexes away: the preview gives the 19.63 outcome and the refusal beside it.
    battle(mini, {**dict.fromkeys(PZ, "0704"), "ge-inf-1": "0604", "so-t01-rifle-1": "0804", "so-hq-army": "0905"})
    mini.state.units["so-t01-rifle-1"].face = "rifle-202"
    p = combat.preview(mini, [*PZ, "ge-inf-1"], ["0804"])
    assert p.chances == {"defenders eliminated (19.63)": 1.0}
    assert str(p.illegal) == "[9.23] ge-inf-1 is not adjacent to 0804: every attacker must touch every target hex"


def test_9_23_a_sampled_preview_still_shows_why_it_may_not_be_fought(mini: Game) -> None:
    battle(mini, {**dict.fromkeys(PZ, "0704"), "ge-inf-1": "0604", "so-t01-rifle-1": "0804", "so-hq-army": "0905"})
    leave_in_pool(mini, "rifle-201")
    p = combat.preview(mini, [*PZ, "ge-inf-1"], ["0804"])
    assert p.notes == (NOTE_1,)
    assert str(p.illegal) == "[9.23] ge-inf-1 is not adjacent to 0804: every attacker must touch every target hex"
