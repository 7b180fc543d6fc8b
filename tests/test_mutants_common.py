"""Shared rule vocabulary (common.py: 8.12 zones, 8.25, 10.13 banks, 19.6 revealed faces)
cases that mutation testing found unpinned."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View, enemy_of, river_banks, zoc_reach

from tests.conftest import position


def test_19_6_a_revealed_untried_unit_takes_every_value_of_its_face(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=2, reinforcements=False)
    mini.state.units["so-rifle-1"].face = "armor-204"
    d = View(mini).udef("so-rifle-1")
    assert (d.type, d.size, d.designation, d.steps, d.ma) == ("tank", "X", "204", ((4, 3),), 8)
    assert d.side == SOVIET and d.id == "so-rifle-1"


def test_19_61_only_a_revealed_face_with_an_asterisk_counts(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905", "so-rifle-2": "0904", "so-rifle-3": "0903"}, turn=2,
             reinforcements=False)
    mini.state.units["so-rifle-1"].face = "rifle-203"
    mini.state.units["so-rifle-2"].face = "rifle-201"
    view = View(mini)
    assert view.asterisk("so-rifle-1") is True
    assert view.asterisk("so-rifle-2") is False
    assert view.asterisk("so-rifle-3") is False


def test_8_12_10_16_no_zone_across_an_all_lake_hexside(mini: Game) -> None:
    gm = mini.scenario.map
    gm.set_side_features(H("0803"), H("0804"), frozenset({"lake"}))
    reach = zoc_reach(gm)
    assert H("0804") not in reach[H("0803")] and H("0803") not in reach[H("0804")]
    assert H("0703") in reach[H("0803")]
    # The lake hex 0909 takes no zone either (10.16).
    assert H("0909") not in reach[H("0908")]


def test_8_12_no_zone_across_a_major_river(mini: Game) -> None:
    reach = zoc_reach(mini.scenario.map)
    assert H("0604") not in reach[H("0504")] and H("0404") in reach[H("0504")]


def test_10_13_the_banks_are_exactly_the_hexes_on_the_major_river(mini: Game) -> None:
    banks = river_banks(mini.scenario.map)
    assert banks == frozenset(H(f"{c}{r:02d}") for c in ("05", "06") for r in range(1, 11))


def test_5_0_a_unit_off_the_map_has_no_hex_even_with_a_hex_recorded(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=2, reinforcements=False)
    u = mini.state.units["so-rifle-2"]
    u.hex, u.status = "0904", "eliminated"
    view = View(mini)
    assert view.hex_of("so-rifle-2") is None
    assert view.hex_of("so-rifle-1") == H("0905")


def test_8_12_19_67_an_hq_alone_blocks_movement_but_not_tracing(mini: Game) -> None:
    # German hexes come first in the board's listing: a lone German leader hex before the
    # Soviet ones must not stop the count of the other side's zones.
    position(mini, {"ge-leader": "0203", "so-hq-army": "0905", "so-rifle-1": "0703"}, turn=2,
             reinforcements=False)
    view = View(mini)
    assert H("0204") in view.zoc_movement[GERMAN] and H("0204") not in view.zoc_blocking[GERMAN]
    assert H("0904") in view.zoc_movement[SOVIET] and H("0904") not in view.zoc_blocking[SOVIET]
    assert H("0704") in view.zoc_blocking[SOVIET]


def test_8_25_a_friendly_unit_cancels_the_enemy_zone_for_tracing(mini: Game) -> None:
    position(mini, {"ge-inf-1": "0703", "so-rifle-1": "0804", "so-rifle-2": "0805"}, turn=2,
             reinforcements=False)
    view = View(mini)
    assert view.enemy_controlled_for_tracing(H("0804"), SOVIET) is False   # held by so-rifle-1
    assert view.enemy_controlled_for_tracing(H("0803"), SOVIET) is True
    # For the German: 0906 lies in the Soviet zone only; 0802 in the German zone only.
    assert view.enemy_controlled_for_tracing(H("0906"), GERMAN) is True
    assert view.enemy_controlled_for_tracing(H("0802"), GERMAN) is False


def test_19_67_21_0_a_lone_leader_listed_first_does_not_hide_later_zones(mini: Game) -> None:
    # The leader's hex comes before GD's in the board's listing; GD's zone still blocks.
    position(mini, {"ge-leader": "0203", "ge-gd": "0706", "so-rifle-1": "0904"}, turn=2, reinforcements=False)
    view = View(mini)
    assert list(view.occupancy).index(H("0203")) < list(view.occupancy).index(H("0706"))
    assert H("0806") in view.zoc_blocking[GERMAN]
    assert H("0204") not in view.zoc_blocking[GERMAN]


def test_5_0_a_fresh_count_leaves_out_a_unit_off_the_map_with_a_hex_recorded(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905", "so-rifle-2": "0904"}, turn=2, reinforcements=False)
    mini.state.units["so-rifle-2"].status = "eliminated"  # its hex "0904" stays recorded
    mini.position_cache.clear()  # no earlier placement to work from: count afresh
    view = View(mini)
    assert view.occupancy == {H("0905"): ["so-rifle-1"]}
    assert view.at(H("0904")) == [] and view.occupant_side(H("0904")) is None
    assert view.at(H("0905")) == ["so-rifle-1"] and view.occupant_side(H("0905")) == SOVIET
    assert view.occupied_by(H("0905"), SOVIET) is True and view.occupied_by(H("0905"), GERMAN) is False


def stacks(view: View) -> list[tuple[str, list[str]]]:
    return [(str(h), ids) for h, ids in view.occupancy.items()]


def zones(view: View) -> dict[str, dict[str, list[str]]]:
    return {kind: {s: sorted(map(str, z[s])) for s in (GERMAN, SOVIET)}
            for kind, z in (("blocking", view.zoc_blocking), ("movement", view.zoc_movement))}


def test_8_12_19_67_stacks_and_zones_stay_right_as_units_come_and_go(mini: Game) -> None:
    # The board is listed in the order of the unit list (ge-inf-1's hex first), whether the
    # placement is counted afresh or worked out from the one before; zones follow the stacks.
    position(mini, {"ge-inf-1": "0803", "ge-inf-2": "0303", "ge-leader": "0303", "so-rifle-1": "0105",
                    "so-rifle-2": "0105", "so-hq-army": "0905"}, turn=2, reinforcements=False)
    view = View(mini)
    assert stacks(view) == [("0803", ["ge-inf-1"]), ("0303", ["ge-inf-2", "ge-leader"]),
                            ("0105", ["so-rifle-1", "so-rifle-2"]), ("0905", ["so-hq-army"])]
    hq_zone = ["0804", "0805", "0904", "0906", "1004", "1005"]  # the Army HQ's: movement only
    leader_zone = ["0202", "0203", "0302", "0304", "0402", "0403"]
    inf1_zone = ["0703", "0704", "0802", "0804", "0903", "0904"]
    assert zones(view) == {
        "blocking": {GERMAN: sorted(leader_zone + inf1_zone), SOVIET: ["0104", "0106", "0204", "0205"]},
        "movement": {GERMAN: sorted(leader_zone + inf1_zone),
                     SOVIET: sorted({"0104", "0106", "0204", "0205", *hq_zone})}}
    # ge-inf-2 joins ge-inf-1 and leaves the leader alone (19.67: his zone stops movement only);
    # ge-inf-3, never on the map, is written off; so-rifle-1 leaves its stack for 0703.
    units = mini.state.units
    units["ge-inf-2"].hex = "0803"
    units["ge-inf-3"].status = "eliminated"
    units["so-rifle-1"].hex = "0703"
    view = View(mini)
    assert stacks(view) == [("0803", ["ge-inf-1", "ge-inf-2"]), ("0303", ["ge-leader"]),
                            ("0703", ["so-rifle-1"]), ("0105", ["so-rifle-2"]), ("0905", ["so-hq-army"])]
    rifle1_zone = ["0602", "0603", "0702", "0704", "0802", "0803"]
    assert zones(view) == {
        "blocking": {GERMAN: inf1_zone, SOVIET: sorted(["0104", "0106", "0204", "0205", *rifle1_zone])},
        "movement": {GERMAN: sorted(leader_zone + inf1_zone),
                     SOVIET: sorted({"0104", "0106", "0204", "0205", *rifle1_zone, *hq_zone})}}
    # so-rifle-2 is eliminated where it stood (its hex still recorded): it and its zone go.
    units["so-rifle-2"].status = "eliminated"
    view = View(mini)
    assert stacks(view) == [("0803", ["ge-inf-1", "ge-inf-2"]), ("0303", ["ge-leader"]),
                            ("0703", ["so-rifle-1"]), ("0905", ["so-hq-army"])]
    assert zones(view)["blocking"] == {GERMAN: inf1_zone, SOVIET: rifle1_zone}
    # ... and comes back at 0104.
    units["so-rifle-2"].status, units["so-rifle-2"].hex = "map", "0104"
    view = View(mini)
    assert stacks(view) == [("0803", ["ge-inf-1", "ge-inf-2"]), ("0303", ["ge-leader"]),
                            ("0703", ["so-rifle-1"]), ("0104", ["so-rifle-2"]), ("0905", ["so-hq-army"])]
    assert zones(view)["blocking"] == {GERMAN: inf1_zone,
                                       SOVIET: sorted(["0103", "0105", "0203", "0204", *rifle1_zone])}
    assert view.in_enemy_zoc(H("0105"), GERMAN) is True and view.in_enemy_zoc(H("0105"), SOVIET) is False
    assert view.in_enemy_zoc(H("0202"), SOVIET) is True and view.in_enemy_zoc(H("0202"), GERMAN) is False
    # A placement whose zones nobody asked for is no base to work zones out from.
    units["so-rifle-2"].hex = "0204"
    assert stacks(View(mini))[3] == ("0204", ["so-rifle-2"])
    units["so-rifle-2"].hex = "0203"
    assert zones(View(mini))["blocking"] == {
        GERMAN: inf1_zone, SOVIET: sorted(["0103", "0104", "0202", "0204", "0303", "0304", *rifle1_zone])}


def test_10_13_only_a_unit_on_the_bank_guards_the_river_and_a_friend_lifts_it(mini: Game) -> None:
    # ge-inf-1 (0505) and so-rifle-1 (0604) stand on the major river; so-rifle-2 (0703) and
    # ge-inf-2 (0303) do not; so-rifle-3 holds 0404 inside ge-inf-1's zone.
    position(mini, {"ge-inf-1": "0505", "so-rifle-1": "0604", "so-rifle-2": "0703", "ge-inf-2": "0303",
                    "so-rifle-3": "0404"}, turn=2, reinforcements=False)
    view = View(mini)
    assert view.river_guarded(H("0504"), SOVIET) is True
    assert view.river_guarded(H("0404"), SOVIET) is False  # a Soviet unit already holds it
    assert view.river_guarded(H("0703"), SOVIET) is False  # no German river guard there
    assert view.river_guarded(H("0605"), GERMAN) is True
    assert view.river_guarded(H("0604"), GERMAN) is False  # ge-inf-1's zone stops at the river
    assert view.river_guarded(H("0802"), GERMAN) is False  # so-rifle-2 is off the bank


def test_13_1_untried_until_its_face_is_drawn(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0905"}, turn=2, reinforcements=False)
    view = View(mini)
    assert view.untried("so-t01-rifle-1") is True
    assert view.untried("so-rifle-1") is False  # a counter with known values
    mini.state.units["so-t01-rifle-1"].face = "rifle-201"
    assert View(mini).untried("so-t01-rifle-1") is False


def test_8_12_each_side_s_enemy() -> None:
    assert (enemy_of(GERMAN), enemy_of(SOVIET)) == (SOVIET, GERMAN)


def test_8_25_a_unit_inside_the_enemy_zone_keeps_its_own_hex_open(mini: Game) -> None:
    # so-rifle-1 stands at 0803, inside ge-inf-1's zone; 0802 is in that zone and empty.
    position(mini, {"ge-inf-1": "0703", "so-rifle-1": "0803"}, turn=2, reinforcements=False)
    view = View(mini)
    assert view.enemy_controlled_for_tracing(H("0803"), SOVIET) is False
    assert view.enemy_controlled_for_tracing(H("0802"), SOVIET) is True


def test_21_0_hqs_and_leaders_alike_combat_units_not(mini: Game) -> None:
    view = View(mini)
    assert [view.is_hq_like(u) for u in ("so-hq-army", "ge-leader", "so-rifle-1", "ge-inf-1")] == [
        True, True, False, False]


# --- Placement: the occupancy worked out from the last placement must equal a fresh count ---

from kiev_tui.games.spi_kiev import common as _common  # noqa: E402
from kiev_tui.games.spi_kiev.common import Placement  # noqa: E402

_IDS = ["a", "b", "c", "d"]


def _fresh(statuses: list[str], hexes: list[str | None], ids: list[str] = _IDS) -> Placement:
    return Placement(list(ids), list(statuses), list(hexes), list(ids))


def _same(p: Placement, q: Placement) -> None:
    """Both placements hold the same stacks, listed in the same order (as a fresh count walks them)."""
    assert list(p.occupancy.items()) == list(q.occupancy.items())
    assert {h: p.first[h] for h in p.occupancy} == {h: q.first[h] for h in q.occupancy}


def test_a_hex_id_seen_for_the_first_time_is_read_not_lost(monkeypatch) -> None:
    monkeypatch.setattr(_common, "_HEXES", {})  # a cache with nothing in it yet
    p = _fresh(["map", "map", "eliminated", "map"], ["0905", "0905", None, "0301"])
    assert p.occupancy == {H("0905"): ["a", "b"], H("0301"): ["d"]}
    assert p.first == {H("0905"): 0, H("0301"): 3}


def test_following_a_few_moves_gives_what_a_fresh_count_gives() -> None:
    start = (["map", "map", "map", "reserve"], ["0905", "0905", "0301", None])
    last = _fresh(*start)
    # b leaves the shared stack for c's hex; c leaves for a new hex; d enters at 0905.
    now = (["map", "map", "map", "map"], ["0905", "0301", "0402", "0905"])
    followed = Placement(list(_IDS), list(now[0]), list(now[1]), list(_IDS), last)
    _same(followed, _fresh(*now))
    assert followed.occupancy == {H("0905"): ["a", "d"], H("0301"): ["b"], H("0402"): ["c"]}
    assert followed.touched == {H("0905"), H("0301"), H("0402")}


def test_following_the_emptying_of_the_first_stack_reorders_the_stacks() -> None:
    last = _fresh(["map", "map", "map", "map"], ["0905", "0301", "0402", "0301"])
    now = (["eliminated", "map", "map", "map"], ["0905", "0301", "0402", "0905"])
    followed = Placement(list(_IDS), list(now[0]), list(now[1]), list(_IDS), last)
    _same(followed, _fresh(*now))
    assert list(followed.occupancy) == [H("0301"), H("0402"), H("0905")]
    assert followed.first == {H("0301"): 1, H("0402"): 2, H("0905"): 3}


def test_a_change_off_the_map_alone_keeps_the_stacks_and_their_zones() -> None:
    last = _fresh(["map", "map", "reserve", "eliminated"], ["0905", "0301", None, None])
    last.zocs["movement"] = {GERMAN: frozenset(), SOVIET: frozenset()}
    # c is given a hex while still off the map, d comes back to the reserve: no stack changes.
    now = (["map", "map", "reserve", "reserve"], ["0905", "0301", "0402", None])
    followed = Placement(list(_IDS), list(now[0]), list(now[1]), list(_IDS), last)
    _same(followed, _fresh(*now))
    assert followed.occupancy is last.occupancy and followed.zocs is last.zocs
    assert followed.touched == set()


def test_a_placement_of_other_units_is_counted_afresh() -> None:
    last = _fresh(["map", "map", "map", "map"], ["0905", "0301", "0402", "0301"])
    other = ["e", "f", "g", "h"]
    # The same keys with other unit ids, and other keys with the same ids: neither may be followed.
    p = Placement(list(_IDS), ["map"] * 4, ["0905", "0301", "0402", "0402"], list(other), last)
    assert p.occupancy == {H("0905"): ["e"], H("0301"): ["f"], H("0402"): ["g", "h"]}
    q = Placement(list(other), ["map"] * 4, ["0905", "0301", "0402", "0402"], list(_IDS), last)
    assert q.occupancy == {H("0905"): ["a"], H("0301"): ["b"], H("0402"): ["c", "d"]}


def test_a_placement_with_a_repeated_unit_id_is_never_followed() -> None:
    ids = ["a", "a", "c", "d"]
    last = Placement(list(ids), ["map"] * 4, ["0905", "0301", "0402", "0301"], list(ids))
    assert last.slot is None
    now = (["map"] * 4, ["0905", "0402", "0402", "0301"])
    p = Placement(list(ids), list(now[0]), list(now[1]), list(ids), last)
    assert p.occupancy == {H("0905"): ["a"], H("0402"): ["a", "c"], H("0301"): ["d"]}
    assert p.touched == set()
