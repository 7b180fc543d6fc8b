"""Barbarossa 1941, stacking (3, and 12.2's Romanian-Hungarian bar): exact points per hex."""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.barbarossa1941 import stacking
from kiev_tui.games.barbarossa1941.board import Board
from tests.b41_rules_helpers import DATA, H, board, small_map, tables


def test_3_six_steps_fit_in_a_hex() -> None:
    b = board(small_map(), {"ge-ak-23": "0303", "ge-ak-38": "0303", "ge-ak-28": "0303"})
    assert stacking.hex_points(b, H("0303")) == 6
    assert stacking.check_hex(b, H("0303")) is None
    assert stacking.violations(b) == {}


def test_3_a_seventh_step_is_refused() -> None:
    b = board(small_map(), {"ge-ak-23": "0303", "ge-ak-38": "0303", "ge-ak-28": "0303", "ge-bef-101": "0304"})
    bad = stacking.check_hex(b, H("0303"), adding=["ge-bef-101"])
    assert bad == Illegal("3", "0303 would hold 7 stacking points; a hex holds at most 6")
    # the same hex with one corps leaving takes the security division: 4 + 1
    assert stacking.check_hex(b, H("0303"), adding=["ge-bef-101"], leaving=["ge-ak-23"]) is None
    assert stacking.hex_points(b, H("0303"), adding=["ge-bef-101"], leaving=["ge-ak-23"]) == 5


def test_3_a_reduced_unit_counts_its_remaining_step() -> None:
    lost = {"ge-ak-23": 1}
    b = board(small_map(), {"ge-ak-23": "0303", "ge-ak-38": "0303", "ge-ak-28": "0303", "ge-bef-101": "0304"},
              lost=lost)
    assert stacking.hex_points(b, H("0303")) == 5
    assert stacking.check_hex(b, H("0303"), adding=["ge-bef-101"]) is None


def test_3_a_replacement_step_may_not_overstack() -> None:
    b = board(small_map(), {"ge-ak-23": "0303", "ge-ak-38": "0303", "ge-ak-28": "0303"}, lost={"ge-ak-23": 1})
    assert stacking.check_hex(b, H("0303"), extra_points=1) is None
    assert stacking.check_hex(b, H("0303"), extra_points=2) == Illegal(
        "3", "0303 would hold 7 stacking points; a hex holds at most 6")


def test_3_counters_worth_no_step_do_not_count() -> None:
    # 12.5: airborne corps are worth 0 steps; forts, partisans and the fleet are no formations
    place = {"so-a-7": "0303", "so-a-11": "0303", "so-a-10": "0303", "so-ab-4": "0303", "so-fort-1": "0303",
             "so-part-2": "0303", "so-vmf": "0303"}
    b = board(small_map(), place)
    assert stacking.hex_points(b, H("0303")) == 6
    assert stacking.violations(b) == {}


def test_3_violations_names_every_overfull_hex_of_a_side() -> None:
    place = {"so-a-7": "0303", "so-a-11": "0303", "so-a-10": "0303", "so-a-13": "0303",
             "ge-ak-23": "0505", "ge-ak-38": "0505", "ge-ak-28": "0505", "ge-ak-20": "0505",
             "ge-ak-9": "0101"}
    b = board(small_map(), place)
    found = stacking.violations(b)
    assert {b.gmap.grid.id(h): v.why for h, v in found.items()} == {
        "0303": "0303 would hold 8 stacking points; a hex holds at most 6",
        "0505": "0505 would hold 8 stacking points; a hex holds at most 6"}
    assert set(stacking.violations(b, "soviet")) == {H("0303")}


def test_12_2_romanians_and_hungarians_never_stack() -> None:
    b = board(small_map(), {"ro-kav": "0303", "hu-sich-8": "0304", "ge-ak-23": "0304"})
    assert stacking.check_hex(b, H("0303"), adding=["hu-sich-8"]) == Illegal(
        "12.2", "Romanian and Hungarian units may not stack together (0303)")
    assert stacking.check_hex(b, H("0304"), adding=["ro-kav"], leaving=["hu-sich-8"]) is None


def test_3_limit_is_read_from_the_tables() -> None:
    assert stacking.limit(board(small_map(), {})) == 6 == tables().stacking.max_steps


def test_3_the_books_set_ups_keep_the_limit() -> None:
    for name in ("historical", "hypothetical", "typhoon"):
        b = Board.from_scenario(load_scenario(DATA / "scenarios" / f"{name}.toml"))
        assert stacking.violations(b) == {}, name
    # Typhoon's 1413 holds 8.AK (2 steps) and the reduced 46.Pz (1 step): 3 points (17.1)
    typhoon = Board.from_scenario(load_scenario(DATA / "scenarios" / "typhoon.toml"))
    assert stacking.hex_points(typhoon, H("1413")) == 3
