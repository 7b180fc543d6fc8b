"""The unit inspector says everything the issue asks of it, for both sides (present.inspector_lines)."""

from __future__ import annotations

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.face import present

from tests.conftest import position
from tests.ui.helpers import new_mini


def lines_at(game, hex_id: str, chosen: tuple[str, ...] = ()) -> list[str]:
    view = View(game)
    return present.inspector_lines(view, Hex.parse(hex_id), present.supply_all(view), chosen)


def test_a_german_stack_strengths_steps_movement_supply_and_division() -> None:
    game = position(new_mini(), {"ge-1pz-1": "0305", "ge-1pz-2": "0305", "ge-1pz-3": "0506",
                                 "so-rifle-1": "0808"}, player="german", reinforcements=False)
    game.state.units["ge-1pz-1"].step = 1  # one step lost: 3-1 of 6-2
    game.touch()
    text = "\n".join(lines_at(game, "0305", chosen=("ge-1pz-2",)))
    assert text.split("\n") == [
        "Hex 0305, clear", "  road SE SW", "",  # the features always take two lines
        "German: fights 8-8, in supply",  # 20.0: each regiment doubled beside the other; both in supply
        # number key, type letter, designation, type, size; attack-defence-movement now, full values
        "1 P 1/1 panzer III 3-1-10 of 6-2",
        "  1/2 steps, fights 6-2",  # steps left of all; what it fights with now
        "  division 1 Pz: 2/1@0305, 3/1@0506",  # divisional integrity partners (20.0): where each is
        "2*M 2/1 motorized III 1-3-10",  # picked units carry a star; full strength: the counter alone
        "  2 steps, fights 2-6",
        "  division 1 Pz: 1/1@0305, 3/1@0506"]


def test_movement_points_left_follow_the_move() -> None:
    from kiev_tui.games.spi_kiev.actions import Move

    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-1": "0808"}, player="german", reinforcements=False)
    assert lines_at(game, "0305")[4:6] == ["1 P 1/1 panzer III 6-2-10", "  2 steps, fights 6-2"]  # none spent
    game.apply(Move(("ge-1pz-1",), ("0405", "0505")))  # two road hexes at 1/2 MP each (10.23)
    assert lines_at(game, "0505")[4:6] == ["1 P 1/1 panzer III 6-2-10", "  2 steps, 9 MP left, fights 6-4"]


def test_a_soviet_unit_names_its_hq_and_an_untried_one_hides_its_strength() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "so-hq-army": "0805", "so-t01-rifle-1": "0804",
                                 "ge-inf-1": "0202"}, player="soviet", turn=2, reinforcements=False)
    assert lines_at(game, "0804") == [
        "Hex 0804, clear", "", "",
        "Soviet: fights 6-8 + ?-?, in supply, HQ 5 Army",  # both units traced to an HQ (11.3): said once
        "1 r 104 rifle XX 6-8-6", "  1 step, fights 6-8",
        "2 r untried rifle XX ?-?-6", "  untried (13.0), fights ?-?"]


def test_an_empty_hex_shows_terrain_owner_and_hexside_features_grouped() -> None:
    game = position(new_mini(), {"so-rifle-1": "0808"}, reinforcements=False)
    assert lines_at(game, "0305") == ["Hex 0305, clear", "  road SE SW"]  # no units: nothing more
    assert lines_at(game, "0404") == ["Hex 0404, woods"]
    assert lines_at(game, "0505") == ["Hex 0505 Testgrad (city), clear; Soviet-held",
                                      "  major river NE SE", "  road SE SW"]  # water, then ways


# -- issue 35: the strength each unit fights with now, and the stack's --------------------------

def test_woods_double_the_defence_each_unit_and_the_stack_fight_with() -> None:
    game = position(new_mini(), {"so-rifle-3": "0404", "so-rifle-4": "0404", "ge-inf-1": "0202"},
                    player="german", reinforcements=False)
    assert lines_at(game, "0404") == [
        "Hex 0404, woods", "", "",
        "Soviet: fights 7-20, in supply, no HQ in range",  # 6+1 to attack, (8+2) x2 in woods (10.4)
        "1 r 104 rifle XX 6-8-6", "  1 step, fights 6-16",
        "2 r 103 rifle XX 1-2-6", "  1 step, fights 1-4"]


def test_out_of_supply_halves_and_the_stack_still_counts_one() -> None:
    game = position(new_mini(), {"so-rifle-3": "0101", "ge-inf-1": "0202", "ge-inf-2": "0102"},
                    player="german", reinforcements=False)
    text = lines_at(game, "0101")
    assert text[3:] == ["Soviet: fights 1-1, OUT OF SUPPLY, no HQ in range",  # never below one for the stack (9.32)
                        "  (19.85: cut off from every eastern supply source)",
                        "1 r 103 rifle XX 1-2-6", "  1 step, fights 1-1"]  # 12.23: halved, but a unit never below 1


def test_an_untried_unit_fights_with_unknown_values() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "so-t01-rifle-1": "0804", "so-hq-army": "0805",
                                 "ge-inf-1": "0202"}, player="soviet", turn=2, reinforcements=False)
    text = lines_at(game, "0804")
    assert text[3] == "Soviet: fights 6-8 + ?-?, in supply, HQ 5 Army"
    assert text[7] == "  untried (13.0), fights ?-?"


# -- issue 33: the inspector in two lines a unit, its fields in fixed places ------------------------

def test_units_of_a_stack_that_differ_in_supply_each_say_their_own() -> None:
    from kiev_tui.games.spi_kiev.supply import SupplyStatus

    game = position(new_mini(), {"so-rifle-3": "0404", "so-rifle-4": "0404", "ge-inf-1": "0202"},
                    player="german", reinforcements=False)
    view = View(game)
    supply = {"so-rifle-4": SupplyStatus(True, True, "so-hq-army"),
              "so-rifle-3": SupplyStatus(False, False, None, "12.2: no line (made up for the test)")}
    assert present.inspector_lines(view, Hex.parse("0404"), supply) == [
        "Hex 0404, woods", "", "",
        "Soviet: fights 7-20",  # no supply said for the stack: its units differ
        "1 r 104 rifle XX 6-8-6", "  1 step, fights 6-16, in supply, HQ 5 Army",
        "2 r 103 rifle XX 1-2-6", "  1 step, fights 1-4, OUT OF SUPPLY, no HQ in range",
        "  (12.2: no line (made up for the test))"]


def test_a_unit_that_lost_a_step_shows_its_full_values_and_a_moved_one_its_mp_left() -> None:
    from kiev_tui.games.spi_kiev.actions import Move

    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-1": "0808"}, player="german", reinforcements=False)
    game.apply(Move(("ge-1pz-1",), ("0405",)))
    game.state.units["ge-1pz-1"].step = 1
    game.touch()
    assert lines_at(game, "0405")[3:6] == ["German: fights 3-1, in supply", "1 P 1/1 panzer III 3-1-10 of 6-2",
                                           "  1/2 steps, 9.5 MP left, fights 3-1"]
