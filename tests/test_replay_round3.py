"""Replay and load, round 3 (issue 33): the state hash written from fewer parts and hashed with
OpenSSL's SHA-256 on a long load must give the very values older code recorded, and a long save
tampered with (an action, a die, a hash) must still be refused with the same message.

The long save is tests/fixtures/saves_v3/campaign_700.toml (700 actions of the random bot,
seeded dice, written before this round); the values below were read from it and from the
replay of the code before this round.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from kiev_tui import nossl
from kiev_tui.engine import saves, state as state_mod
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.engine.state import GameState
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.engine.units import UnitState

LONG = Path(__file__).resolve().parent / "fixtures" / "saves_v3" / "campaign_700.toml"


@pytest.fixture(scope="module")
def parsed() -> dict[str, Any]:
    return load_toml(LONG)


@pytest.fixture(scope="module")
def replayed(parsed: dict[str, Any]) -> Game:
    return load_game(LONG, data=copy.deepcopy(parsed))


def plain_hash(state: GameState, extra: str) -> str:
    """The hash as first defined: SHA-256 of the sorted, spaceless JSON of the state less its secrets."""
    raw = state._raw()
    raw.pop("secrets", None)
    text = json.dumps(raw, sort_keys=True, separators=(",", ":")) + extra
    return nossl.sha256(text.encode()).hexdigest()[:16]


# -- the hash values do not change --------------------------------------------------------------

def test_the_long_replay_gives_every_hash_the_save_recorded(parsed: dict[str, Any], replayed: Game) -> None:
    recorded = [a["hash"] for a in parsed["action"]]
    assert len(recorded) == 700
    assert replayed.hashes == recorded
    # Values from the code before this round: first, middle and last positions, and the final hash.
    assert [replayed.hashes[i] for i in (0, 349, 502, 699)] == [
        "bd5f60af56bfe6f9", "ceab8975594d0c97", "9f9c352c36fd64d2", "67f2534e676b79fd"]
    assert replayed.state_hash() == parsed["final"]["hash"] == "67f2534e676b79fd"


def test_a_long_load_switches_to_openssl_and_the_digests_stay_the_same(replayed: Game) -> None:
    import hashlib

    assert saves.FAST_HASH_FROM <= 700
    assert state_mod._sha256 is hashlib.sha256  # the 700-action load asked for OpenSSL's
    extra = replayed.state_hash_extra(replayed.rolls)
    assert replayed.state.hash(extra=extra) == plain_hash(replayed.state, extra) == "67f2534e676b79fd"


def _units(n: int) -> dict[str, UnitState]:
    # Listed in reverse: the text must still come in sorted-id order.
    return {f"u{i:02d}": UnitState(f"u{i:02d}", "map", f"{i:02d}01", 1) for i in reversed(range(n))}


def test_units_changed_in_place_between_hashes_are_written_again() -> None:
    units = _units(12)
    st = GameState(1, "german", "movement", units=units)
    first = st.hash()
    assert first == plain_hash(st, "")
    assert st.canonical_json().index('"u00"') < st.canonical_json().index('"u11"')
    units["u05"].hex = "0909"  # the same object moved: the next hash must see it
    assert st.hash() == plain_hash(st, "") != first
    units["u05"].step = True  # equal to 1, written "true"
    assert '"step":true' in st.canonical_json()
    assert st.hash() == plain_hash(st, "")
    units["u05"].step = 1
    units["u03"].markers.add("z")  # a marker set grown in place
    assert '"markers":["z"]' in st.canonical_json()
    assert st.hash() == plain_hash(st, "")
    units["u03"].markers.clear()  # and emptied in place
    assert '"markers"' not in st.canonical_json()
    assert st.hash() == plain_hash(st, "")
    units["u03"].markers.add("y")  # the last position had no markers at all: grown again
    assert st.hash() == plain_hash(st, "")
    units["u07"].status = "eliminated"
    units["u07"].hex = None
    assert st.hash() == plain_hash(st, "")


def test_another_games_units_between_two_hashes_do_not_leak_into_the_text() -> None:
    a = GameState(1, "german", "movement", units=_units(6))
    b = GameState(1, "german", "movement", units=_units(6))
    b.units["u02"].hex = "0505"
    assert a.hash() == plain_hash(a, "")
    assert b.hash() == plain_hash(b, "") != a.hash()
    a.units["u04"].face = "f"
    assert a.hash() == plain_hash(a, "")
    assert b.hash() == plain_hash(b, "")


# -- a tampered long save is refused as before -----------------------------------------------

def _refusal(parsed: dict[str, Any], change: Callable[[list[dict[str, Any]]], None]) -> tuple[str, str]:
    data = copy.deepcopy(parsed)
    change(data["action"])
    with pytest.raises(DataError) as info:
        load_game(LONG, data=data)
    return info.value.key, info.value.reason


def test_a_tampered_hash_late_in_a_long_save_is_refused(parsed: dict[str, Any]) -> None:
    assert _refusal(parsed, lambda a: a[650].__setitem__("hash", "0000000000000000")) == (
        "action 651", "the replay diverges at this move action: the position differs from the one saved")


def test_a_tampered_die_in_a_long_save_is_refused(parsed: dict[str, Any]) -> None:
    assert parsed["action"][528]["kind"] == "attack" and parsed["action"][528]["dice"] == [6]
    assert _refusal(parsed, lambda a: a[528].__setitem__("dice", [1])) == (
        "action 529.dice", "attack: random value 1 is recorded as 1, but the seeded source gives 6")


def test_a_tampered_move_in_a_long_save_is_refused(parsed: dict[str, Any]) -> None:
    assert parsed["action"][502]["path"] == ["0528", "0628", "0629", "0630", "0631"]
    # One hex short: legal, but not where the save's next position has the unit.
    assert _refusal(parsed, lambda a: a[502].__setitem__("path", ["0528", "0628", "0629", "0630"])) == (
        "action 503", "the replay diverges at this move action: the position differs from the one saved")


def test_an_illegal_move_in_a_long_save_is_refused_with_its_rule(parsed: dict[str, Any]) -> None:
    key, reason = _refusal(parsed, lambda a: a[502].__setitem__("side", "soviet"))
    assert key == "action 503"
    assert reason == ("the replay refuses this move action: [4.1] it is the german player's turn, "
                      "not the soviet player's")


def test_a_tampered_final_hash_is_refused_after_a_long_replay(parsed: dict[str, Any]) -> None:
    data = copy.deepcopy(parsed)
    data["final"]["hash"] = "0123456789abcdef"
    with pytest.raises(DataError) as info:
        load_game(LONG, data=data)
    assert (info.value.key, info.value.reason) == (
        "final.hash", "the replayed game does not match the saved final position")
