"""Barbarossa 1941's campaign rules as the rule system plays them (phases_campaign.py): arrivals
(9.1, 15.3), withdrawals (12.5), replacements (9.2), forts (12.4), partisans (12.7), militia
(12.11), the VP events and the end of the game (13), Typhoon's start (17) and whole games."""

from __future__ import annotations

import pytest

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941 import phases_campaign as pc
from kiev_tui.games.barbarossa1941.actions import Arrive, BuildFort, Move, PlacePartisan
from kiev_tui.games.barbarossa1941.system import SYSTEM, board_of

from tests.b41_system_helpers import answer, position


def _campaign(game: Game, **values: object) -> None:
    """Start the campaign bookkeeping, then set some of it."""
    pc.ensure(game)
    for k, v in values.items():
        setattr(game.state.vars, k, v)
    game.memo.clear()


def _at(game: Game, turn: int, side: str, phase: str) -> None:
    """Put the game in ``phase`` of ``side``'s segment on ``turn`` (the step before the one tested)."""
    st = game.state
    st.turn = turn
    step = next(s for s in sequence.turn_steps(game, turn) if s.phase == phase and s.owner == side)
    st.player, st.phase, st.half = side, step.phase, 0
    game.memo.clear()


def _options(game: Game, verb: str) -> set[tuple[str | None, str | None]]:
    p = SYSTEM.prompt(game)
    assert p is not None
    return {(o.unit, o.hex) for o in p.options if o.verb == verb}


def test_15_3_arrivals_placed_on_their_entry_hexes() -> None:
    game = position({"ge-ak-1": "0117"}, turn=4, phase="isolation", player="soviet")
    _campaign(game)
    _at(game, 4, "soviet", "isolation")
    game.apply(EndPhase(), side="soviet")  # into the replacements and reinforcements phase
    assert game.phase.name == "replacements"
    got = _options(game, "arrive")
    for uid, hid in (("so-a-38", "1723"), ("so-a-42", "1304"), ("so-a-50", "1919"), ("so-a-4b", "1505"),
                     ("so-a-6b", "1922"), ("so-a-11b", "2012"), ("so-a-12b", "1826")):
        assert {h for u, h in got if u == uid} == {hid}
    assert game.check(Arrive("so-a-42", "1723"), side="soviet") is not None  # 9.1: not its hex
    for uid, hid in sorted({(u, h) for u, h in got}):
        answer(game, "arrive", unit=uid, hex=hid)
    assert game.state.units["so-a-42"].status == "map" and game.state.units["so-a-42"].hex == "1304"
    assert game.state.units["so-a-38"].hex == "1723"
    assert game.phase.name == "partisans"  # all in and nothing to buy: the phase has ended


def test_12_5_withdrawal_of_the_airborne_corps_on_turn_6() -> None:
    game = position({"so-ab-1": "2012", "so-a-5b": "2012"}, turn=5, phase="exploitation", player="soviet")
    _campaign(game)
    last = sequence.turn_steps(game, 5)[-1]
    game.state.player, game.state.phase = last.owner, last.phase
    game.memo.clear()
    game.apply(EndPhase(), side=last.owner)
    assert game.state.turn == 6
    assert game.state.units["so-ab-1"].status == "eliminated"
    assert "so-ab-1" in game.state.vars.withdrawn
    assert game.state.units["so-a-5b"].status == "map"  # not on the list


def test_9_2_a_replacement_spent_with_its_points() -> None:
    # a reduced German corps in Warsaw (on the home rail), turn 2: 4 German infantry steps on the
    # loss marker give 1 point (9.21) and the pool 2 more (9.22): 3 infantry points
    game = position({"ge-ak-7": "0117"}, turn=2, phase="air_rebasing", player="axis", steps={"ge-ak-7": 1})
    _campaign(game, tracks={"german_infantry": 5, "german_motorized": 0, "soviet_infantry": 0})
    _at(game, 2, "axis", "air_rebasing")
    game.apply(EndPhase(), side="axis")
    assert game.phase.name == "replacements"
    assert game.state.vars.tracks["german_infantry"] == 1  # 5 steps: one point, one step left on the track
    b = pc.budget_of(game, "axis")
    assert (b.base_infantry, b.pool_infantry, b.infantry) == (1, 2, 3)
    answer(game, "replace", unit="ge-ak-7")
    assert game.state.units["ge-ak-7"].step == 0
    b = pc.budget_of(game, "axis")
    assert (b.base_infantry, b.pool_infantry, b.infantry) == (0, 2, 2)  # the marker's point went first
    assert game.state.vars.pools["german_infantry"] == 5  # the campaign pool untouched
    assert "ge-ak-7" in game.state.vars.replaced


def test_12_4_forts_built_two_a_turn() -> None:
    game = position({"so-a-5b": "2012"}, turn=2, phase="rail", player="soviet")
    _campaign(game)
    _at(game, 2, "soviet", "rail")
    game.apply(EndPhase(), side="soviet")
    assert game.phase.name == "forts"
    sites = {h for _, h in _options(game, "build_fort")}
    assert "2012" in sites  # Moscow: a city, in supply
    answer(game, "build_fort", hex="2012")
    assert game.state.units["so-fort-1"].status == "map" and game.state.units["so-fort-1"].hex == "2012"
    other = sorted(h for _, h in _options(game, "build_fort"))[0]
    answer(game, "build_fort", hex=other)
    assert game.state.units["so-fort-10"].hex == other or game.state.units["so-fort-2"].hex == other
    assert _options(game, "build_fort") == set()  # 12.4: two a turn before 8 VP (moving one is still offered)


def test_12_7_partisans_placed_after_18_vp() -> None:
    game = position({"ge-ak-1": "0117"}, turn=3, phase="replacements", player="soviet")
    _campaign(game, fired={"partisans": 2})
    _at(game, 3, "soviet", "replacements")
    game.apply(EndPhase(), side="soviet")
    assert game.phase.name == "partisans"
    p = SYSTEM.prompt(game)
    assert p is not None and p.kind == pc.PARTISAN
    assert game.check(PlacePartisan("so-part-1", "0117"), side="soviet") is not None  # not in the USSR
    first = next(o for o in p.options if o.verb == "place_partisan" and int(o.hex[2:]) > 15)
    answer(game, "place_partisan", unit="so-part-1", hex=first.hex)
    assert game.state.units["so-part-1"].hex == first.hex
    south = {h for _, h in _options(game, "place_partisan")}
    assert south and all(int(h[2:]) <= 15 for h in south)  # 12.7: the last one must go north of Bobruisk
    answer(game, "place_partisan", unit="so-part-2", hex=sorted(south)[0])
    assert game.state.units["so-part-2"].status == "map"
    assert game.phase.name == "rail"


def test_12_11_militia_raised_when_an_axis_unit_first_comes_next() -> None:
    game = position({"ge-pzk-3": "1123", "so-a-5b": "2012"}, turn=3, phase="movement", player="axis")
    _campaign(game, fired={"fatherland_in_danger": 2}, seen=[])
    kiev = "1121"
    nxt = {game.scenario.map.grid.id(n) for n in board_of(game).gmap.neighbours(game.scenario.map.grid.parse(kiev))}
    reach = SYSTEM.reachable(game, ("ge-pzk-3",), explain=False)
    # next to Kiev without passing through it (an Axis unit moving through the empty city takes it)
    to = next(r for h, r in sorted(reach.items()) if r.ok and game.scenario.map.grid.id(h) in nxt and kiev not in r.path)
    game.apply(Move(("ge-pzk-3",), to.path), side="axis")
    p = SYSTEM.prompt(game)
    assert p is not None and p.kind == pc.MILITIA and p.side == "soviet"
    assert ("so-opol-1", kiev) in _options(game, "raise_militia")
    answer(game, "raise_militia", unit="so-opol-1", hex=kiev)
    assert game.state.units["so-opol-1"].hex == kiev and game.state.vars.raised == [kiev]
    assert SYSTEM.prompt(game) is None


def test_13_vp_events_fire_at_their_level() -> None:
    game = position({"ge-ak-1": "0117"}, turn=3, phase="movement", player="axis", control={"1121": "axis"})
    _campaign(game)
    game.state.control["1128"] = "axis"  # Kiev 2 + Odessa 2: 4 VP
    game.apply(EndPhase(), side="axis")
    fired = game.state.vars.fired
    assert fired.get("hungary_enters") == 3 and fired.get("better_late_than_never") == 3  # 3 VP
    assert fired.get("militia") == 3  # 5 VP with the Finnish zone below
    assert "mobilization" not in fired  # 8 VP not reached
    assert game.state.vars.vp_track == 4 + 1  # and the Finnish zone's 1 VP with no Soviet unit there
    # 13: the Hungarian rapid corps comes the turn after, on 0124
    assert [a.uid for a in pc.rf.due(game.scenario, 4, "axis", (), fired)] == ["hu-gyor"]


def test_13_15_vp_an_air_corps_leaves() -> None:
    game = position({"ge-ak-1": "0117", "ge-air-1": "0117", "ge-air-2": "0117"}, turn=3, phase="movement",
                    player="axis", control={"2012": "axis", "1304": "axis", "2427": "axis", "1922": "axis"})
    _campaign(game)
    game.apply(EndPhase(), side="axis")
    p = SYSTEM.prompt(game)
    assert p is not None and p.kind == pc.AIR_LEAVES and p.side == "axis"
    assert {o.unit for o in p.options} >= {"ge-air-1", "ge-air-2"}
    answer(game, "withdraw_air", unit="ge-air-2")
    assert game.state.units["ge-air-2"].status == "eliminated" and "ge-air-2" in game.state.vars.withdrawn


def test_13_sudden_death_ends_the_game_for_the_axis() -> None:
    # 20 VP with garrisons by turn 6: the Axis wins at once
    game = position({"ge-ak-1": "2012", "ge-ak-2": "1304", "ge-ak-8": "2427", "ge-ak-9": "1922",
                     "ge-ak-5": "1532", "ge-ak-6": "1121"}, turn=4, phase="movement", player="axis",
                    control={"2012": "axis", "1304": "axis", "2427": "axis", "1922": "axis", "1532": "axis",
                             "1121": "axis"})
    _campaign(game)
    game.apply(EndPhase(), side="axis")
    assert game.state.over
    sc = SYSTEM.score(game)
    assert sc.winner == "axis" and sc.points["axis"] == 6 + 4 + 3 + 3 + 3 + 2 + 1


def test_13_the_last_turn_ends_with_the_soviet_win() -> None:
    game = position({"so-a-5b": "2012"}, turn=10, phase="exploitation", player="soviet")
    _campaign(game)
    last = sequence.turn_steps(game, 10)[-1]
    game.state.player, game.state.phase = last.owner, last.phase
    game.memo.clear()
    game.apply(EndPhase(), side=last.owner)
    assert game.state.over
    assert game.state.vars.final["winner"] == "soviet" and game.state.vars.final["level"] == "soviet_major"


def test_17_typhoon_starts_with_9_vp() -> None:
    game = Game.new("barbarossa1941/typhoon", seed=1)
    s = pc.score_of(game)
    assert s.track == 9
    game.apply(EndPhase(), side="axis")
    fired = game.state.vars.fired
    assert {"hungary_enters", "militia", "mobilization"} <= set(fired) and fired["mobilization"] == 4
    assert "zhukov" not in fired  # 10 VP: still ahead
    assert any(line.startswith("VP track: 9") for line in SYSTEM.score(game).lines)


# A whole bot game of each scenario with every rule wired runs in tests/test_b1941_wired_supply.py
# (historical) and tests/test_b1941_selfplay.py (typhoon, with the self-checks); all three under -m slow.


def test_12_4_the_fort_sites_are_judged_on_one_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """While an action is applied every read of the position builds a new board, and each new board
    works out the zones again: the fort prompt judges all its sites on one (issue 33: a resumed
    Barbarossa game replays its forts phases 30 % faster).  The options are the same."""
    from kiev_tui.games.barbarossa1941 import system

    game = position({"so-a-5b": "2012"}, turn=2, phase="rail", player="soviet")
    _campaign(game)
    _at(game, 2, "soviet", "rail")
    game.apply(EndPhase(), side="soviet")
    assert game.phase.name == "forts"
    calm = pc._fort_options(game, "soviet")
    built: list[int] = []
    real = system.board_of
    monkeypatch.setattr(system, "board_of", lambda g: built.append(1) or real(g))
    game._sink = []  # as while an action is applied: the position's memo is fresh at every read
    try:
        busy = pc._fort_options(game, "soviet")
    finally:
        game._sink = None
    assert busy == calm and len(calm) > 3
    assert len(built) == 2  # the board of the sites, and the one the supply of forts is read on
