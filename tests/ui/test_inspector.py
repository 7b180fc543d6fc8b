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
    assert text.startswith("Hex 0305")
    assert "German stack of 2: fights 8-8" in text  # 20.0: each regiment doubled beside the other
    assert "1 P 1/1 panzer III" in text  # number key, type letter, designation, type, size
    assert "  3-1 of 6-2, 1/2 steps, MP 10/10" in text  # current and full strength, steps, MP left/MA
    assert "  fights 6-2, in supply" in text and "  fights 2-6, in supply" in text
    assert "2*M 2/1 motorized III" in text  # picked units carry a star
    assert "in supply" in text
    # divisional integrity partners (20.0): where each regiment of the division is
    assert "division 1 Pz: 2/1@0305, 3/1@0506" in text


def test_movement_points_left_follow_the_move() -> None:
    from kiev_tui.games.spi_kiev.actions import Move

    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-1": "0808"}, player="german", reinforcements=False)
    assert "  6-2 of 6-2, 2/2 steps, MP 10/10" in lines_at(game, "0305")
    game.apply(Move(("ge-1pz-1",), ("0405", "0505")))  # two road hexes at 1/2 MP each (10.23)
    assert "  6-2 of 6-2, 2/2 steps, MP 9/10" in lines_at(game, "0505")


def test_a_soviet_unit_names_its_hq_and_an_untried_one_hides_its_strength() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "so-hq-army": "0805", "so-t01-rifle-1": "0804",
                                 "ge-inf-1": "0202"}, player="soviet", turn=2, reinforcements=False)
    text = "\n".join(lines_at(game, "0804"))
    assert "Soviet stack of 2" in text
    assert "in supply, HQ 5 Army" in text  # command traced to an HQ (11.3)
    assert "2 r untried rifle XX" in text
    assert "untried ?-? (13.0)" in text
    assert "6-8 of 6-8, 1/1 steps" in text


def test_an_empty_hex_shows_terrain_owner_and_hexside_features_grouped() -> None:
    game = position(new_mini(), {"so-rifle-1": "0808"}, reinforcements=False)
    assert lines_at(game, "0305") == ["Hex 0305, clear", "  road SE SW"]  # no units: nothing more
    assert lines_at(game, "0404") == ["Hex 0404, woods"]
    assert lines_at(game, "0505")[:2] == ["Hex 0505 Testgrad (city), clear; Soviet-held",
                                          "  major river NE SE; road SE SW"]


# -- issue 35: the strength each unit fights with now, and the stack's --------------------------

def test_woods_double_the_defence_each_unit_and_the_stack_fight_with() -> None:
    game = position(new_mini(), {"so-rifle-3": "0404", "so-rifle-4": "0404", "ge-inf-1": "0202"},
                    player="german", reinforcements=False)
    assert lines_at(game, "0404") == [
        "Hex 0404, woods",
        "Soviet stack of 2: fights 7-20",  # 6+1 to attack, (8+2) x2 in woods (10.4)
        "1 r 104 rifle XX", "  6-8 of 6-8, 1/1 steps, MP 6/6", "  fights 6-16, in supply, no HQ in range",
        "2 r 103 rifle XX", "  1-2 of 1-2, 1/1 steps, MP 6/6", "  fights 1-4, in supply, no HQ in range"]


def test_out_of_supply_halves_and_the_stack_still_counts_one() -> None:
    game = position(new_mini(), {"so-rifle-3": "0101", "ge-inf-1": "0202", "ge-inf-2": "0102"},
                    player="german", reinforcements=False)
    text = lines_at(game, "0101")
    assert text[1] == "Soviet stack of 1: fights 1-1"  # 0.5-1 rounded once, never below one (9.32)
    assert text[4] == "  fights 0.5-1, OUT OF SUPPLY, no HQ in range"  # 12.23: halved


def test_an_untried_unit_fights_with_unknown_values() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "so-t01-rifle-1": "0804", "so-hq-army": "0805",
                                 "ge-inf-1": "0202"}, player="soviet", turn=2, reinforcements=False)
    text = lines_at(game, "0804")
    assert text[1] == "Soviet stack of 2: fights 6-8 + ?-?"
    assert "  fights ?-?, in supply, HQ 5 Army" in text
