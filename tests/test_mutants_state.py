"""Kiev's bookkeeping (state.py) that mutation testing found unpinned.

Every fact the rules keep (9.0 the battle under way, 5.0 and 8.21 who moved and stopped, 19.24
and 19.3 the counters, 22.0 the directive, 24.0 the final score) must survive a save, a load
and an undo copy exactly, field by field; a per-phase record the phase never wrote must stay
unwritten; and a saved form these rules never write is refused with the key it names.
"""

from __future__ import annotations

from typing import Any

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.state import GameState
from kiev_tui.games.spi_kiev.state import UNSET, Battle, KievVars, added, kiev_vars, written

#: The names of the per-phase and per-turn lists that are saved only once written.
RECORDS = ("relieved", "relievers", "entered", "moved", "active", "stopped", "overran", "railed",
           "rail_entry", "attacked", "defended", "advanced", "retreated_into")


def full_battle() -> Battle:
    """An overrun half settled: every field holds a value of its own (none is a default)."""
    return Battle(kind="overrun", attackers=["ge-1pz-1", "ge-1pz-2"], targets=["0804"], defenders=["so-rifle-3"],
                  origin={"ge-1pz-1": "0704", "ge-1pz-2": "0703", "so-hq-late": None}, asterisk=True,
                  zone=["0805", "0903"], stages=[["attacker", "retreat"], ["defender", "loss"]],
                  retreat_paths={"so-rifle-3": ["0805", "0905"]}, attacker_lost=True, integrity="gd-a",
                  passengers=["ge-leader"], defence_integrity={"0804": "gd-b"}, result="1/2")


FULL_BATTLE_SAVED: dict[str, Any] = {
    "kind": "overrun", "attackers": ["ge-1pz-1", "ge-1pz-2"], "targets": ["0804"], "defenders": ["so-rifle-3"],
    "origin": {"ge-1pz-1": "0704", "ge-1pz-2": "0703", "so-hq-late": None}, "asterisk": True,
    "zone": ["0805", "0903"], "stages": [["attacker", "retreat"], ["defender", "loss"]],
    "retreat_paths": {"so-rifle-3": ["0805", "0905"]}, "attacker_lost": True, "integrity": "gd-a",
    "passengers": ["ge-leader"], "defence_integrity": {"0804": "gd-b"}, "result": "1/2",
}


def full_vars() -> KievVars:
    """Mid-phase bookkeeping with every record written and each holding different ids."""
    return KievVars(
        rpl_left=2, pool_used=["so-draw-1"], directive={7: True, 10: False}, rail_used=3,
        relieved=["so-rifle-1"], relievers=["so-rifle-2"], entered=["so-hq-late"],
        start_hex={"ge-1pz-1": "0704", "ge-inf-3": None}, oos_start=["so-cav-1"], mp={"ge-1pz-1": 2.5},
        moved=["ge-1pz-1"], active=["ge-1pz-2"], stopped=["ge-1pz-3"], stop_case={"ge-1pz-3": "8.21"},
        overran=["ge-inf-1"], railed=["ge-inf-2"], rail_entry=["ge-inf-3"], move_no=4, sig={"ge-1pz-1": [1, 3]},
        attacked=["ge-leader"], defended=["so-rifle-3"], advanced=["so-rifle-4"], retreated_into=["so-tank-1"],
        battle=full_battle(), final_score={"winner": "german", "lines": [["city", 10]]},
    )


FULL_SAVED: dict[str, Any] = {
    "rpl_left": 2, "pool_used": ["so-draw-1"], "directive": {"7": True, "10": False}, "rail_used": 3,
    "start_hex": {"ge-1pz-1": "0704", "ge-inf-3": None}, "oos_start": ["so-cav-1"],
    "relieved": ["so-rifle-1"], "relievers": ["so-rifle-2"], "entered": ["so-hq-late"], "moved": ["ge-1pz-1"],
    "active": ["ge-1pz-2"], "stopped": ["ge-1pz-3"], "overran": ["ge-inf-1"], "railed": ["ge-inf-2"],
    "rail_entry": ["ge-inf-3"], "attacked": ["ge-leader"], "defended": ["so-rifle-3"], "advanced": ["so-rifle-4"],
    "retreated_into": ["so-tank-1"], "mp": {"ge-1pz-1": 2.5}, "stop_case": {"ge-1pz-3": "8.21"},
    "sig": {"ge-1pz-1": [1, 3]}, "move_no": 4, "battle": FULL_BATTLE_SAVED,
    "final_score": {"winner": "german", "lines": [["city", 10]]},
}

#: What a game that has only been set up keeps: the game-long counters, nothing per phase.
FRESH_SAVED: dict[str, Any] = {"rpl_left": 0, "pool_used": [], "directive": {}, "rail_used": 0,
                               "start_hex": {}, "oos_start": []}


def test_9_0_a_battle_saves_every_field_under_its_own_key() -> None:
    assert full_battle().to_dict() == FULL_BATTLE_SAVED


def test_9_0_a_battle_without_division_or_result_saves_neither_key() -> None:
    b = Battle(kind="attack", attackers=["ge-1pz-1"], targets=["0804"], defenders=["so-rifle-3"],
               origin={"ge-1pz-1": "0704"})
    assert b.to_dict() == {"kind": "attack", "attackers": ["ge-1pz-1"], "targets": ["0804"],
                           "defenders": ["so-rifle-3"], "origin": {"ge-1pz-1": "0704"}, "asterisk": False,
                           "zone": [], "stages": [], "retreat_paths": {}, "attacker_lost": False,
                           "integrity": "", "passengers": []}


def test_9_0_a_saved_battle_loads_back_field_for_field() -> None:
    b = Battle.from_dict(FULL_BATTLE_SAVED)
    assert b == full_battle()
    assert (b.kind, b.asterisk, b.attacker_lost, b.integrity, b.result) == ("overrun", True, True, "gd-a", "1/2")
    assert b.origin == {"ge-1pz-1": "0704", "ge-1pz-2": "0703", "so-hq-late": None}
    assert b.stages == [["attacker", "retreat"], ["defender", "loss"]]
    assert b.retreat_paths == {"so-rifle-3": ["0805", "0905"]}
    assert b.defence_integrity == {"0804": "gd-b"} and b.passengers == ["ge-leader"]
    assert b.zone == ["0805", "0903"]


def test_9_0_a_saved_battle_with_only_its_kind_takes_the_empty_defaults() -> None:
    b = Battle.from_dict({"kind": "attack"})
    assert b == Battle(kind="attack", attackers=[], targets=[], defenders=[], origin={})
    assert (b.asterisk, b.attacker_lost, b.integrity, b.result) == (False, False, "", None)
    assert b.to_dict() == {"kind": "attack", "attackers": [], "targets": [], "defenders": [], "origin": {},
                           "asterisk": False, "zone": [], "stages": [], "retreat_paths": {},
                           "attacker_lost": False, "integrity": "", "passengers": []}


def test_9_0_a_battle_copy_shares_nothing_with_the_original() -> None:
    b = full_battle()
    c = b.copy()
    assert c == b
    for name in ("attackers", "targets", "defenders", "zone", "passengers"):
        getattr(c, name).append("x")
    c.stages[0].append("x")
    c.retreat_paths["so-rifle-3"].append("x")
    c.origin["x"] = "0101"
    c.defence_integrity["x"] = "y"
    assert b.to_dict() == FULL_BATTLE_SAVED


def test_every_kiev_fact_is_saved_under_its_own_key() -> None:
    assert full_vars().to_dict() == FULL_SAVED


def test_every_saved_kiev_fact_loads_back_field_for_field() -> None:
    v = KievVars.from_dict(FULL_SAVED)
    assert v == full_vars()
    assert v.to_dict() == FULL_SAVED
    assert v.directive == {7: True, 10: False}  # 22.0: turn numbers again, not text
    assert (v.rpl_left, v.rail_used, v.move_no) == (2, 3, 4)


def test_a_fresh_record_saves_no_per_phase_key_and_loads_back_unwritten() -> None:
    v = KievVars()
    assert v.to_dict() == FRESH_SAVED
    back = KievVars.from_dict(FRESH_SAVED)
    assert back == v and back.to_dict() == FRESH_SAVED
    assert back.mp is UNSET and back.stop_case is UNSET and back.sig is UNSET
    assert all(getattr(back, name) == () for name in RECORDS)
    assert back.battle is None and back.final_score is None
    assert KievVars.from_dict({}) == v


def test_records_written_empty_are_saved_and_load_back_written() -> None:
    saved = {**FRESH_SAVED, **{name: [] for name in RECORDS}, "mp": {}, "stop_case": {}, "sig": {}}
    v = KievVars.from_dict(saved)
    assert v.to_dict() == saved
    assert all(getattr(v, name) == [] for name in RECORDS)
    assert (v.mp, v.stop_case, v.sig) == ({}, {}, {})


def test_a_saved_null_battle_or_score_means_none() -> None:
    v = KievVars.from_dict({"battle": None, "final_score": None})
    assert v.battle is None and v.final_score is None and v.to_dict() == FRESH_SAVED


def test_24_0_the_final_score_is_copied_deep_on_save_and_load() -> None:
    saved = {"final_score": {"lines": [["city", 10]]}}
    v = KievVars.from_dict(saved)
    saved["final_score"]["lines"][0][1] = 99
    assert v.final_score == {"lines": [["city", 10]]}
    out = v.to_dict()
    out["final_score"]["lines"].append(["town", 5])
    assert v.final_score == {"lines": [["city", 10]]}


def test_an_undo_copy_equals_the_original_and_shares_nothing_with_it() -> None:
    v = full_vars()
    c = v.copy()
    assert c == v and c.to_dict() == FULL_SAVED
    for name in (*RECORDS, "pool_used", "oos_start"):
        getattr(c, name).append("x")
    c.directive[1] = True
    c.start_hex["x"] = "0101"
    c.mp["x"] = 1.0  # type: ignore[index]
    c.stop_case["x"] = "5.0"  # type: ignore[index]
    c.sig["ge-1pz-1"].append(9)
    c.battle.attackers.append("x")  # type: ignore[union-attr]
    c.final_score["lines"][0].append("x")  # type: ignore[index]
    assert v.to_dict() == FULL_SAVED


def test_an_undo_copy_of_a_fresh_record_keeps_every_record_unwritten() -> None:
    c = KievVars().copy()
    assert c.to_dict() == FRESH_SAVED
    assert c.mp is UNSET and c.stop_case is UNSET and c.sig is UNSET
    assert all(getattr(c, name) == () for name in RECORDS)
    assert c.battle is None and c.final_score is None


def test_5_0_a_new_phase_forgets_what_units_did_in_the_last_one() -> None:
    v = full_vars()
    v.clear_phase()
    # 19.24, 19.3, 22.0-22.21, 15.0, 12.21: the game-, turn- and player-turn facts stay
    assert v.to_dict() == {"rpl_left": 2, "pool_used": ["so-draw-1"], "directive": {"7": True, "10": False},
                           "rail_used": 3, "start_hex": {}, "oos_start": ["so-cav-1"],
                           "relieved": ["so-rifle-1"], "relievers": ["so-rifle-2"], "entered": ["so-hq-late"],
                           "battle": FULL_BATTLE_SAVED, "final_score": {"winner": "german", "lines": [["city", 10]]}}
    assert v.mp is UNSET and v.stop_case is UNSET and v.sig is UNSET and v.move_no == 0
    assert v.moved == () and v.retreated_into == () and v.start_hex == {}


def test_8_21_stopping_units_records_each_once_with_its_case() -> None:
    v = KievVars()
    v.stop(iter(["ge-1pz-1", "ge-1pz-2"]), "8.21")
    v.stop(["ge-1pz-2", "ge-1pz-3"], "6.22")
    assert v.stopped == ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"]
    assert v.stop_case == {"ge-1pz-1": "8.21", "ge-1pz-2": "6.22", "ge-1pz-3": "6.22"}
    assert v.to_dict() == {**FRESH_SAVED, "stopped": ["ge-1pz-1", "ge-1pz-2", "ge-1pz-3"],
                           "stop_case": {"ge-1pz-1": "8.21", "ge-1pz-2": "6.22", "ge-1pz-3": "6.22"}}


def test_added_appends_only_new_ids_in_order_to_a_new_list() -> None:
    record = ("ge-1pz-1", "ge-1pz-2")
    assert added(record, ["ge-1pz-2", "ge-inf-1", "ge-1pz-1", "ge-inf-2", "ge-inf-1"]) == [
        "ge-1pz-1", "ge-1pz-2", "ge-inf-1", "ge-inf-2"]
    assert record == ("ge-1pz-1", "ge-1pz-2")


@pytest.mark.parametrize("value, is_written", [
    ((), False), (UNSET, False), ([], True), ({}, True), (["ge-1pz-1"], True), ({"ge-1pz-1": 1.0}, True),
])
def test_written_tells_a_record_written_empty_from_one_never_written(value: object, is_written: bool) -> None:
    assert written(value) is is_written


def test_kiev_vars_refuses_another_games_bookkeeping(mini: Game) -> None:
    assert kiev_vars(mini.state) is mini.state.vars
    plain = GameState.from_dict(mini.state.to_dict())  # no factory: the engine's plain dict
    with pytest.raises(TypeError) as exc:
        kiev_vars(plain)
    assert str(exc.value) == "not a Kiev game's state: its bookkeeping is a PlainVars"


BAD_VARS: list[tuple[dict[str, Any], str]] = [
    ({"speed": 3}, "unknown key 'speed'"),
    ({"rpl_left": 1.5}, "'rpl_left' must be a whole number"),
    ({"rpl_left": True}, "'rpl_left' must be a whole number"),
    ({"rail_used": "3"}, "'rail_used' must be a whole number"),
    ({"move_no": False}, "'move_no' must be a whole number"),
    ({"pool_used": "so-draw-1"}, "'pool_used' must be a list of ids"),
    ({"pool_used": [1]}, "'pool_used' must be a list of ids"),
    ({"oos_start": "so-cav-1"}, "'oos_start' must be a list of ids"),
    ({"directive": [7]}, "'directive' must map game-turn numbers to true or false"),
    ({"directive": {"seven": True}}, "'directive' must map game-turn numbers to true or false"),
    ({"directive": {"7": 1}}, "'directive' must map game-turn numbers to true or false"),
    ({"start_hex": ["0704"]}, "'start_hex' must map units to hex ids"),
    ({"start_hex": {"ge-1pz-1": 704}}, "'start_hex' must map units to hex ids"),
    *[({name: "ge-1pz-1"}, f"'{name}' must be a list of ids") for name in RECORDS],
    *[({name: [None]}, f"'{name}' must be a list of ids") for name in RECORDS],
    ({"mp": [2.5]}, "'mp' must map units to movement points"),
    ({"mp": {"ge-1pz-1": "far"}}, "'mp' must map units to movement points"),
    ({"mp": {"ge-1pz-1": True}}, "'mp' must map units to movement points"),
    ({"stop_case": ["8.21"]}, "'stop_case' must map ids to text"),
    ({"stop_case": {"ge-1pz-1": 8.21}}, "'stop_case' must map ids to text"),
    ({"sig": [1]}, "'sig' must map units to lists of move numbers"),
    ({"sig": {"ge-1pz-1": 1}}, "'sig' must map units to lists of move numbers"),
    ({"sig": {"ge-1pz-1": [1.0]}}, "'sig' must map units to lists of move numbers"),
    ({"sig": {"ge-1pz-1": [True]}}, "'sig' must map units to lists of move numbers"),
    ({"battle": ["attack"]}, "'battle' must be a table"),
    ({"final_score": [12]}, "'final_score' must be a table"),
]


@pytest.mark.parametrize("data, message", BAD_VARS, ids=[m for _, m in BAD_VARS])
def test_a_bad_saved_record_is_refused_naming_its_key(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as exc:
        KievVars.from_dict(data)
    assert str(exc.value) == message


BAD_BATTLES: list[tuple[dict[str, Any], str]] = [
    ({"kind": "attack", "who": 1}, "unknown key 'battle.who'"),
    ({}, "'battle.kind' must be text"),
    ({"kind": 3}, "'battle.kind' must be text"),
    *[({"kind": "attack", name: "0804"}, f"'battle.{name}' must be a list of ids")
      for name in ("attackers", "targets", "defenders", "zone", "passengers")],
    *[({"kind": "attack", name: [804]}, f"'battle.{name}' must be a list of ids")
      for name in ("attackers", "targets", "defenders", "zone", "passengers")],
    ({"kind": "attack", "origin": ["0704"]}, "'battle.origin' must map units to hex ids"),
    ({"kind": "attack", "origin": {"ge-1pz-1": 704}}, "'battle.origin' must map units to hex ids"),
    ({"kind": "attack", "stages": "attacker"}, "'battle.stages' must be a list of [who, part] pairs"),
    ({"kind": "attack", "stages": [["attacker"]]}, "'battle.stages' must be a list of [who, part] pairs"),
    ({"kind": "attack", "stages": [["attacker", "loss", "x"]]}, "'battle.stages' must be a list of [who, part] pairs"),
    ({"kind": "attack", "stages": [[1, 2]]}, "'battle.stages' must be a list of [who, part] pairs"),
    ({"kind": "attack", "retreat_paths": ["0805"]}, "'battle.retreat_paths' must map units to lists of hex ids"),
    ({"kind": "attack", "retreat_paths": {"so-rifle-3": "0805"}},
     "'battle.retreat_paths' must map units to lists of hex ids"),
    ({"kind": "attack", "retreat_paths": {"so-rifle-3": [805]}},
     "'battle.retreat_paths' must map units to lists of hex ids"),
    ({"kind": "attack", "result": 12}, "'battle.result' must be text"),
    ({"kind": "attack", "asterisk": "yes"}, "'battle.asterisk' must be true or false"),
    ({"kind": "attack", "attacker_lost": 1}, "'battle.attacker_lost' must be true or false"),
    ({"kind": "attack", "integrity": 5}, "'battle.integrity' must be text"),
    ({"kind": "attack", "defence_integrity": ["gd"]}, "'battle.defence_integrity' must map ids to text"),
    ({"kind": "attack", "defence_integrity": {"0804": 1}}, "'battle.defence_integrity' must map ids to text"),
]


@pytest.mark.parametrize("battle, message", BAD_BATTLES, ids=[m for _, m in BAD_BATTLES])
def test_9_0_a_bad_saved_battle_is_refused_naming_its_key(battle: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as exc:
        KievVars.from_dict({"battle": battle})
    assert str(exc.value) == message
