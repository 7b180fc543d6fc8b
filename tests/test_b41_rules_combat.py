"""Barbarossa 1941, combat (6 with 5's chart, 8.1, 11.2, 12.3-12.13): odds, modifiers, the CRT.

On the made-up map 0404 (an even column, standing high) has the neighbours 0403, 0503, 0504,
0405, 0304 and 0303.  Values: ge-ak-23 3-4-3 and ge-ak-1 4-4-3 (two steps each), ge-pzk-41
4-5-5 motorized, so-a-7 4-2-3 (two steps), so-opol-1 a 1-1-0 static militia.
"""

from __future__ import annotations

import pytest

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.rules import Modifier
from kiev_tui.games.barbarossa1941 import combat as c
from kiev_tui.games.barbarossa1941.tables import Result
from tests.b41_rules_helpers import CLEAR, COLD, FREEZE, MUD, H, board, real_map, small_map, tables

#: The two rows 6 prints, columns 1:3 .. 7:1 (die 2 stops at 6:1).
BOOK = {
    1: ["A2", "A2", "A1", "A1", "A1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D2"],
    2: ["A2", "A1", "A1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D1", "A1D2"],
}
COLUMNS = ["1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]


class Supply:
    """A supply answer made for the test: who is isolated, where the sources are, which hexes
    have rail a side holds."""

    def __init__(self, isolated: set[str] | None = None, rail: set[str] | None = None,
                 sources: dict[str, set[str]] | None = None) -> None:
        self._iso, self._rail, self._src = isolated or set(), {H(x) for x in rail or ()}, sources or {}

    def isolated(self, uid: str) -> bool:
        return uid in self._iso

    def sources(self, side: str):  # type: ignore[no-untyped-def]
        return frozenset(H(x) for x in self._src.get(side, ()))

    def controlled_rail(self, side: str, h):  # type: ignore[no-untyped-def]
        return h in self._rail


def two_corps(turn: int = CLEAR, **kw: object):  # type: ignore[no-untyped-def]
    """ge-ak-23 (3) and ge-ak-1 (4) against so-a-7 (4) in clear terrain: 7 to 4."""
    gmap = kw.pop("gmap", None) or small_map()
    place = {"ge-ak-23": "0403", "ge-ak-1": "0303", "so-a-7": "0404"}
    place.update(kw.pop("extra", {}))  # type: ignore[arg-type]
    return board(gmap, place, turn=turn, **kw)  # type: ignore[arg-type]


def plan(b, attackers=("ge-ak-23", "ge-ak-1"), target="0404", al="ge-ak-23", dl="so-a-7",  # type: ignore[no-untyped-def]
         supply=None, **opts):
    p = c.plan(b, list(attackers), H(target), al, dl, c.Options(**opts), supply)
    return p


# ------------------------------------------------------------------------------ the table


def test_6_every_printed_crt_cell_is_in_the_data() -> None:
    crt = tables().crt
    assert list(crt.columns) == COLUMNS
    for die, row in BOOK.items():
        for col, text in zip(COLUMNS, row):
            assert str(crt.cell(col, die)) == text, (die, col)
            assert not crt.is_reconstructed(col, die)
    assert crt.is_reconstructed("7:1", 2)


def test_6_odds_round_for_the_defender_and_quality_shifts() -> None:
    p = plan(two_corps())
    assert (p.attack, p.defense) == (7, 4)
    assert COLUMNS[p.base_column] == "3:2"  # 1.75 rounds down to 3:2
    assert p.column_name == "3:1"  # quality 4 against 2: two columns
    assert p.modifiers == (Modifier("6", "assault leaders' quality 4 against 2", column_shift=2),)
    assert p.dice == 1 and p.die_modifier == 0


def test_6_quality_shift_stops_at_four() -> None:
    crt = tables().crt
    assert crt.quality_shift(6, 1) == 4
    assert crt.quality_shift(1, 6) == -4
    assert crt.quality_shift(4, 2) == 2


def test_6_a_motorized_attacker_must_lead() -> None:
    b = board(small_map(), {"ge-ak-23": "0403", "ge-pzk-41": "0303", "so-a-7": "0404"})
    bad = plan(b, ("ge-ak-23", "ge-pzk-41"))
    assert isinstance(bad, Illegal) and bad.case == "6" and "motorized" in bad.why
    p = plan(b, ("ge-ak-23", "ge-pzk-41"), al="ge-pzk-41")
    assert p.column_name == "4:1"  # 7:4 is 3:2, quality 5 against 2 is +3


def test_6_leaders_must_be_in_the_combat() -> None:
    b = two_corps()
    assert plan(b, al="ge-pzk-41") == Illegal("6", "the attacker's assault leader ge-pzk-41 is not in the combat")


def test_6_one_die_result() -> None:
    b = two_corps()
    p = plan(b)
    o = c.resolve(b, p, [3])
    assert o.losses == Result(1, 1) and o.retreat_option is False
    o = c.resolve(b, p, [5])  # 3:1 die 5: A1D2, the second step may be a retreat
    assert o.losses == Result(1, 2) and o.retreat_option is True
    assert c.resolve(b, p, [3, 4]) == Illegal("6", "this combat rolls 1 die, not 2")


def test_6_two_dice_from_seven_steps_each_read_on_its_own() -> None:
    # four two-step corps: eight steps on the larger side
    b = board(small_map(), {"ge-ak-23": "0403", "ge-ak-1": "0303", "ge-ak-26": "0503", "ge-ak-38": "0304",
                            "so-a-7": "0404"})
    p = plan(b, ("ge-ak-23", "ge-ak-1", "ge-ak-26", "ge-ak-38"))
    assert (p.attack, p.defense, p.dice) == (13, 4, 2)
    assert p.column_name == "5:1"  # 13:4 is 3:1, +2 for quality
    o = c.resolve(b, p, [1, 6])
    assert [r.result for r in o.rolls] == [Result(1, 1), Result(0, 2)]  # die 1 A1D1, die 6 D2
    assert o.table == Result(1, 3) and o.losses == Result(1, 2)  # so-a-7 has only two steps
    seven = board(small_map(), {"ge-ak-23": "0403", "ge-ak-1": "0303", "ge-ak-26": "0503", "ge-bef-101": "0304",
                                "so-a-7": "0404"})
    assert plan(seven, ("ge-ak-23", "ge-ak-1", "ge-ak-26", "ge-bef-101")).dice == 2
    six = board(small_map(), {"ge-ak-23": "0403", "ge-ak-1": "0303", "ge-ak-26": "0503", "so-a-7": "0404"})
    assert plan(six, ("ge-ak-23", "ge-ak-1", "ge-ak-26")).dice == 1


def test_6_losses_are_capped_at_the_steps_a_side_has() -> None:
    b = two_corps(lost={"so-a-7": 1})  # so-a-7 reduced: 2 combat, one step
    p = plan(b)
    assert p.defender_steps == 1
    o = c.resolve(b, p, [6])
    assert o.table.defender == 2 and o.losses.defender == 1
    assert o.retreat_option is False  # one step lost: there is no second step to turn into a retreat
    weak = board(small_map(), {"ge-bef-101": "0403", "so-a-7": "0404"})
    p = plan(weak, ("ge-bef-101",), al="ge-bef-101")
    assert (p.column_name, p.attacker_steps) == ("1:3", 1)  # 1:4 reads 1:3, quality 2 against 2
    o = c.resolve(weak, p, [1])
    assert o.table == Result(2, 0) and o.losses == Result(1, 0)


def test_5_major_city_all_a1_is_a_floor() -> None:
    gmap = small_map(settlement={"0404": "major_city"})
    b = two_corps(gmap=gmap)
    p = plan(b)
    assert p.floor == 1
    assert p.column_name == "2:1"  # 3:2 +2 quality -1 city
    o = c.resolve(b, p, [6])  # 2:1 die 6 is A1D2 already; die 6 at 7:1 would be D3
    assert o.losses == Result(1, 2)
    big = board(gmap, {"ge-ak-23": "0403", "ge-ak-1": "0303", "ge-ak-26": "0503", "so-opol-1": "0404"})
    p = plan(big, ("ge-ak-23", "ge-ak-1", "ge-ak-26"), dl="so-opol-1")
    assert (p.attack, p.defense, p.column_name) == (10, 1, "7:1")
    o = c.resolve(big, p, [6])
    assert o.table == Result(0, 3) and o.losses == Result(1, 1)  # floor A1, militia has one step


def test_5_terrain_shift_and_motorized_halving() -> None:
    gmap = small_map(terrain={"0404": "swamp"})
    b = board(gmap, {"ge-ak-23": "0403", "ge-pzk-41": "0303", "so-a-7": "0404"})
    p = plan(b, ("ge-ak-23", "ge-pzk-41"), al="ge-pzk-41")
    assert (p.attack, p.defense) == (5, 4)  # 3 + 4/2
    assert Modifier("5", "ge-pzk-41: motorized, halved attacking this terrain", factor=0.5, unit="ge-pzk-41") \
        in p.modifiers
    assert Modifier("5", "defender in swamp", column_shift=-1) in p.modifiers
    assert p.column_name == "2:1"  # 1:1, +3 quality, -1 swamp
    rough = board(small_map(terrain={"0404": "rough"}), {"ge-ak-23": "0403", "ge-ak-1": "0303", "so-a-7": "0404"})
    assert plan(rough).column_name == "3:1"  # rough shifts only against motorized attackers
    rough_m = board(small_map(terrain={"0404": "rough"}), {"ge-pzk-41": "0403", "ge-ak-1": "0303", "so-a-7": "0404"})
    assert plan(rough_m, ("ge-pzk-41", "ge-ak-1"), al="ge-pzk-41").column_name == "4:1"  # 2:1 +3 -1


def test_12_10_arctic_is_one_column_to_the_defender() -> None:
    b = two_corps(gmap=small_map(terrain={"0404": "arctic"}))
    p = plan(b)
    assert Modifier("12.10", "defender in arctic", column_shift=-1) in p.modifiers
    assert p.column_name == "2:1"


def test_5_river_halves_only_the_units_across_it() -> None:
    gmap = small_map(sides={"major_river": ["0403/0404"]})
    b = two_corps(gmap=gmap)
    p = plan(b)
    assert (p.attack, p.defense) == (5, 4)  # 3/2 + 4 = 5.5, fraction dropped
    assert [m.unit for m in p.modifiers if m.factor == 0.5] == ["ge-ak-23"]


def test_12_6_coup_de_main_lifts_the_river_halving() -> None:
    gmap = small_map(sides={"major_river": ["0403/0404"]})
    b = two_corps(gmap=gmap)
    p = plan(b, coup_de_main=True)
    assert p.attack == 7
    assert plan(b, coup_de_main=False).attack == 5
    assert c.coup_roll(b, 4) is True and c.coup_roll(b, 3) is False
    one = two_corps(turn=1)
    assert c.coup_allowed(one, 1) is None
    assert c.coup_allowed(one, 2) == Illegal("12.6", "no coup de main left on turn 1 (2 allowed)")
    assert c.coup_allowed(two_corps(turn=3), 0) == Illegal("12.6", "no coup de main left on turn 3 (0 allowed)")
    # no river crossed: nothing to try
    bad = plan(two_corps(), coup_de_main=True)
    assert isinstance(bad, Illegal) and bad.case == "12.6"


def test_8_1_isolated_attacker_and_defender() -> None:
    b = two_corps()
    p = plan(b, supply=Supply(isolated={"ge-ak-1"}))
    assert p.die_modifier == -2
    assert Modifier("8.1", "an isolated unit attacks", die_modifier=-2) in p.modifiers
    p = plan(b, supply=Supply(isolated={"so-a-7"}))
    assert p.die_modifier == 1
    assert c.resolve(b, p, [4]).rolls[0].modified == 5
    # the board's own markers are the default answer
    marked = two_corps(isolated=frozenset({"so-a-7"}))
    assert plan(marked).die_modifier == 1


def test_12_4_field_fort_and_sevastopol() -> None:
    b = two_corps(extra={"so-fort-1": "0404"})
    p = plan(b)
    assert Modifier("12.4", "field fortification", die_modifier=-1) in p.modifiers and p.die_modifier == -1
    assert (p.attack, p.defense) == (7, 4)  # a field fort adds no strength
    s = two_corps(extra={"so-fort-sevastopol": "0404"})
    p = plan(s, dl="so-fort-sevastopol")
    assert (p.defense, p.die_modifier, p.defender_steps) == (6, 0, 4)  # 4 + 2, its two steps count
    assert p.column_name == "3:2"  # 7:6 is 1:1; quality 4 against the fortress's 3: +1
    assert p.may_retreat is False and p.no_retreat_case == "6"
    # the larger side decides the dice: six Soviet steps and the fortress's two make eight
    full = two_corps(extra={"so-fort-sevastopol": "0404", "so-a-8": "0404", "so-a-11": "0404"})
    p = plan(full, ("ge-ak-23",))
    assert (p.attacker_steps, p.defender_steps, p.dice) == (2, 8, 2)


def test_12_8_turn_one() -> None:
    b = two_corps(turn=1)
    p = plan(b)
    assert Modifier("12.8", "turn 1: German attack", die_modifier=1) in p.modifiers
    assert p.may_retreat is False and p.no_retreat_case == "12.8"
    ro = board(small_map(), {"ro-a-3": "0403", "so-a-7": "0404"}, turn=1)
    assert plan(ro, ("ro-a-3",), al="ro-a-3").die_modifier == 0  # a Romanian attack is no German attack


def test_12_3_extreme_cold_penalty_and_its_exempt_leaders() -> None:
    b = two_corps(turn=COLD)
    assert Modifier("12.3", "attacking in extreme cold", die_modifier=-1) in plan(b).modifiers
    m = board(small_map(), {"ge-jk": "0403", "so-a-7": "0404"}, turn=COLD)
    assert plan(m, ("ge-jk",), al="ge-jk").die_modifier == 0  # a mountain unit leads
    g = board(small_map(), {"so-gcav-1": "0403", "ge-ak-23": "0404"}, turn=COLD)
    assert plan(g, ("so-gcav-1",), al="so-gcav-1", dl="ge-ak-23").die_modifier == 0  # Guards
    assert plan(two_corps(turn=FREEZE)).die_modifier == 0


def test_11_2_air_support_columns_and_weather() -> None:
    b = two_corps()
    p = plan(b, air_attacker="ge-air-1")
    assert p.column_name == "5:1"  # 3:1 + 2
    assert Modifier("11.2", "attacker's air corps ge-air-1", column_shift=2) in p.modifiers
    p = plan(two_corps(turn=FREEZE), air_attacker="ge-air-1", air_defender="so-air-1")
    assert p.column_name == "3:1"  # 3:2, +2 quality, +2 -1 (freeze halves the German), -1 (Soviet)
    assert Modifier("12.3", "German air support halved in freeze", column_shift=-1) in p.modifiers
    assert plan(two_corps(turn=MUD), air_attacker="ge-air-1") == Illegal("12.3", "no air support in mud")
    bad = plan(b, air_attacker="so-air-1")
    assert isinstance(bad, Illegal) and bad.case == "11.2"


def test_12_12_artillery_adds_an_automatic_loss() -> None:
    gmap = small_map(sides={"railroad": ["0302/0303"]})
    b = two_corps(gmap=gmap)
    sup = Supply(rail={"0302", "0303"})
    p = plan(b, supply=sup, artillery_attacker=True)
    assert p.automatic == Result(0, 1)
    assert c.resolve(b, p, [3]).losses == Result(1, 2)
    assert isinstance(plan(b, supply=Supply(), artillery_attacker=True), Illegal)  # no rail near
    # Soviet artillery only from turn 7
    bad = plan(b, supply=Supply(rail={"0404"}), artillery_defender=True)
    assert bad == Illegal("12.12", "Soviet artillery support starts on turn 7")
    late = two_corps(gmap=gmap, turn=8)
    p = plan(late, supply=Supply(rail={"0404"}), artillery_defender=True)
    assert p.automatic == Result(1, 0)
    assert plan(b, supply=sup, artillery_attacker=True, overrun=True) == \
        Illegal("7.2", "no artillery support in an overrun")


def test_12_13_zhukov_in_attack_and_defence() -> None:
    s = board(small_map(), {"so-a-7": "0403", "so-a-8": "0303", "ge-ak-23": "0404"})
    p = plan(s, ("so-a-7", "so-a-8"), al="so-a-7", dl="ge-ak-23", zhukov=True)
    assert p.automatic == Result(1, 0) and p.die_modifier == 1
    d = plan(two_corps(), zhukov=True)
    assert d.automatic == Result(1, 1) and d.die_modifier == 0


def test_12_5_airborne_corps_support_and_loss() -> None:
    b = board(small_map(), {"so-a-7": "0403", "so-ab-5": "0403", "ge-ak-23": "0404"})
    p = plan(b, ("so-a-7", "so-ab-5"), al="so-a-7", dl="ge-ak-23")
    assert p.die_modifier == 1 and p.eliminated_anyway == ("so-ab-5",)
    alone = plan(b, ("so-ab-5",), al="so-ab-5", dl="ge-ak-23")
    assert isinstance(alone, Illegal) and alone.case == "12.5"
    d = two_corps(extra={"so-ab-5": "0404"})
    p = plan(d)
    assert p.die_modifier == -1 and p.eliminated_anyway == ("so-ab-5",)
    drop = two_corps(extra={"ge-fjd-7": "0405"})
    p = plan(drop, dropped="ge-fjd-7")
    assert p.die_modifier == 1 and p.may_retreat is True  # dropped next to the hex: retreat allowed
    on = two_corps(extra={"ge-fjd-7": "0404"})
    p = plan(on, dropped="ge-fjd-7")
    assert (p.defense, p.may_retreat, p.no_retreat_case) == (4, False, "12.5")
    assert p.eliminated_anyway == ("ge-fjd-7",)


def test_6_static_defenders_cannot_retreat() -> None:
    b = two_corps(extra={"so-opol-1": "0404"})
    p = plan(b)
    assert p.may_retreat is False
    o = c.resolve(b, p, [6])  # 7:5 is 1:1, +2 quality: 2:1, die 6 A1D2
    assert o.losses == Result(1, 2) and o.retreat_option is False


def test_12_10_no_attack_across_a_frozen_free_lake() -> None:
    gmap = small_map(sides={"lake": ["0403/0404"]})
    b = two_corps(gmap=gmap)
    assert plan(b) == Illegal("12.10", "ge-ak-23 cannot attack 0404 across impassable water")
    assert plan(two_corps(gmap=gmap, turn=COLD)).attack == 7  # extreme cold opens it


def test_12_2_allies_who_may_not_attack() -> None:
    b = board(small_map(), {"ro-a-3": "0403", "hu-gyor": "0303", "so-a-7": "0404"})
    assert plan(b, ("ro-a-3", "hu-gyor"), al="hu-gyor") == \
        Illegal("12.2", "Romanian and Hungarian units may not attack together")
    gmap = small_map(areas={"finland": ["0402", "0403"]})
    fin = board(gmap, {"fi-c-6": "0403", "fi-c-7": "0303", "so-a-7": "0404"})
    assert plan(fin, ("fi-c-6",), al="fi-c-6").attack == 2
    bad = plan(fin, ("fi-c-7",), al="fi-c-7")
    assert isinstance(bad, Illegal) and bad.case == "12.2"


def test_6_who_may_attack() -> None:
    b = two_corps(extra={"ge-ak-26": "0606"})
    assert plan(b, ("ge-ak-26",), al="ge-ak-26") == Illegal("6", "ge-ak-26 is not next to 0404")
    assert plan(b, ("ge-ak-23", "ge-ak-23")) == Illegal("6", "a unit is listed twice")
    assert plan(b, target="0505") == Illegal("6", "0505 holds no unit to attack")
    lone = board(small_map(), {"ge-ak-23": "0403", "so-fort-1": "0404", "so-ab-5": "0404"})
    assert plan(lone, ("ge-ak-23",), dl="so-ab-5") == Illegal("6", "0404 holds no enemy combat unit to attack")


def test_6_the_assault_leader_takes_the_first_loss() -> None:
    b = two_corps()
    assert c.allocate(b, ["ge-ak-23", "ge-ak-1"], "ge-ak-23", 2, ["ge-ak-1"]) == {"ge-ak-23": 1, "ge-ak-1": 1}
    assert c.allocate(b, ["ge-ak-23", "ge-ak-1"], "ge-ak-23", 3, ["ge-ak-23", "ge-ak-23"]) == \
        Illegal("6", "ge-ak-23 has no step left to lose")
    s = two_corps(extra={"so-fort-sevastopol": "0404"})
    taken = c.allocate(s, ["so-a-7", "so-fort-sevastopol"], "so-fort-sevastopol", 3, ["so-fort-sevastopol", "so-a-7"])
    assert taken == {"so-fort-sevastopol": 2, "so-a-7": 1}  # 12.4: the fortress is worth two steps
    assert c.losers(s, taken) == ("so-fort-sevastopol",)
    taken = c.allocate(b, ["ge-ak-23", "ge-ak-1"], "ge-ak-23", 2, ["ge-ak-23"])
    assert taken == {"ge-ak-23": 2} and c.losers(b, taken) == ("ge-ak-23",)


def test_6_preview_lists_modifiers_and_chances() -> None:
    b = two_corps(extra={"so-fort-1": "0404"})
    pv = c.preview(b, ["ge-ak-23", "ge-ak-1"], H("0404"), "ge-ak-23", "so-a-7")
    assert pv.illegal is None and (pv.attack, pv.defense, pv.column) == (7, 4, "3:1")
    assert pv.column_shift == 2 and pv.die_modifier == -1
    # 3:1 with -1: rolls 1-5 read rows 1-4 (A1D1), roll 6 reads row 5 (A1D2, may retreat)
    assert pv.chances == pytest.approx({"A1D1": 5 / 6, "A1D2 (R)": 1 / 6})
    bad = c.preview(b, ["ge-ak-23"], H("0404"), "ge-ak-1", "so-a-7")
    assert bad.illegal is not None and bad.illegal.case == "6"


def test_12_13_the_books_example_zhukov_artillery_airborne() -> None:
    # Zhukov attack + artillery + airborne: one automatic German loss, one Soviet, +2 on the die
    gmap = small_map(sides={"railroad": ["0402/0403"]})
    b = board(gmap, {"so-a-7": "0403", "so-gab-1": "0403", "ge-ak-23": "0404"}, turn=8)
    p = plan(b, ("so-a-7", "so-gab-1"), al="so-a-7", dl="ge-ak-23", supply=Supply(rail={"0403"}),
             zhukov=True, artillery_attacker=True)
    assert p.automatic == Result(1, 1) and p.die_modifier == 2
    assert [m.case for m in p.modifiers if m.die_modifier] == ["12.5", "12.13"]


def test_12_9_baltic_fleet_support() -> None:
    gmap = real_map()
    b = board(gmap, {"so-vmf": "1205", "so-a-7": "1304", "ge-ak-23": "1303"}, turn=3)
    p = plan(b, ("ge-ak-23",), target="1304", dl="so-a-7", fleet=True)
    assert Modifier("12.9", "the Baltic Fleet supports the defence", die_modifier=-1) in p.modifiers
    s = board(gmap, {"so-vmf": "1205", "so-a-7": "1304", "ge-ak-23": "1204"}, turn=3)
    p = plan(s, ("so-a-7",), target="1204", al="so-a-7", dl="ge-ak-23", fleet=True)
    assert p.die_modifier == 1
    # with Leningrad in Axis hands no base is near enough
    lost = board(gmap, {"so-vmf": "1205", "so-a-7": "1303", "ge-ak-23": "1304"}, turn=3)
    assert plan(lost, ("so-a-7",), target="1304", al="so-a-7", dl="ge-ak-23", fleet=True) == \
        Illegal("12.9", "1304 is more than 3 hexes from every Soviet naval base")
    assert plan(b, ("ge-ak-23",), target="1304", dl="so-a-7", fleet=True, fleet_mined=True).die_modifier == -1
    far = board(gmap, {"so-vmf": "1205", "so-a-7": "0705", "ge-ak-23": "0706"}, turn=3)
    assert plan(far, ("ge-ak-23",), target="0705", dl="so-a-7", fleet=True).die_modifier == -1  # Tallinn
    mined = plan(far, ("ge-ak-23",), target="0705", dl="so-a-7", fleet=True, fleet_mined=True)
    assert mined == Illegal("12.9", "the gulf is mined: the fleet supports only 1304, 1204, 1305")
    inland = board(gmap, {"so-vmf": "1205", "so-a-7": "1414", "ge-ak-23": "1314"}, turn=3)
    bad = plan(inland, ("ge-ak-23",), target="1414", dl="so-a-7", fleet=True)
    assert bad == Illegal("12.9", "1414 is not on the Baltic coast")
    assert plan(board(gmap, {"so-vmf": "1205", "so-a-7": "1304", "ge-ak-23": "1303"}, turn=1), ("ge-ak-23",),
                target="1304", dl="so-a-7", fleet=True) == Illegal("12.8", "no Soviet naval support on turn 1")
    gone = board(gmap, {"so-a-7": "1304", "ge-ak-23": "1303"}, turn=3)
    assert plan(gone, ("ge-ak-23",), target="1304", dl="so-a-7", fleet=True) == \
        Illegal("12.9", "the Baltic Fleet is not in play")
