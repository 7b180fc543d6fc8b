"""Barbarossa 1941: supply, isolation, rail, rail markers and set-up choices played through
``game.apply`` (phases_supply.py wired into system.py).

Positions: tests/b41_system_helpers.py (every other counter off the map).  ge-ak-1, ge-ak-2: German
infantry corps of two steps; so-a-8, so-a-7: Soviet armies of two steps.  1720 is deep in the USSR,
far from any Axis source or Axis rail; 0112 is Königsberg, an Axis source (8.2).
"""

from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941 import phases_supply as ps
from kiev_tui.games.barbarossa1941 import rail as rl
from kiev_tui.games.barbarossa1941.actions import IsolationLoss, Move, MoveMarker, Place, SetupDefaults
from kiev_tui.games.barbarossa1941.system import ISOLATED, SYSTEM, board_of

from tests.b41_system_helpers import HISTORICAL, answer, position


def _to_isolation(game: Game) -> None:
    """End phases until the Axis isolation phase of the next turn has begun."""
    while not (game.state.phase == "isolation" and game.state.player == "axis") and game.state.pending is None:
        game.apply(EndPhase(), side=game.actor)


def _cut_off(placed: dict[str, str], marked: tuple[str, ...], steps: dict[str, int] | None = None) -> Game:
    game = position(placed, turn=2, phase="exploitation", player="soviet", steps=steps)
    for uid in marked:
        game.state.units[uid].markers.add(ISOLATED)
    game.memo.clear()
    return game


def test_8_1_a_stack_still_cut_off_loses_the_step_its_owner_picks() -> None:
    game = _cut_off({"ge-ak-1": "1720", "ge-ak-2": "1720", "ge-ak-10": "0112", "ge-pzk-41": "1520"},
                    marked=("ge-ak-1", "ge-ak-2", "ge-ak-10"))
    _to_isolation(game)
    st = game.state
    assert (st.turn, st.phase) == (3, "isolation")
    p = game.rules.prompt(game)
    assert (p.side, p.kind, p.case) == ("axis", "isolation_loss", "8.1")
    assert [o.label for o in p.options] == ["ge-ak-1 loses the step (default)", "ge-ak-2 loses the step"]
    assert ISOLATED in st.units["ge-pzk-41"].markers  # 8: newly cut off: marked, no loss yet
    assert ISOLATED not in st.units["ge-ak-10"].markers  # 8.1: in Königsberg again, the marker goes
    answer(game, "isolation_loss", unit="ge-ak-2")
    assert st.pending is None
    assert {u: st.units[u].step for u in ("ge-ak-1", "ge-ak-2", "ge-pzk-41", "ge-ak-10")} == \
        {"ge-ak-1": 0, "ge-ak-2": 1, "ge-pzk-41": 0, "ge-ak-10": 0}
    assert ISOLATED in st.units["ge-ak-1"].markers and ISOLATED in st.units["ge-ak-2"].markers
    assert game.check(IsolationLoss("ge-ak-1"), side="axis").case == "6"  # no loss is waiting any more


def test_8_1_a_last_step_lost_to_isolation_eliminates_the_unit() -> None:
    game = _cut_off({"ge-ak-1": "1720"}, marked=("ge-ak-1",), steps={"ge-ak-1": 1})
    _to_isolation(game)
    st = game.state
    assert st.pending is None  # one unit can take it: nothing to ask
    assert (st.units["ge-ak-1"].status, st.units["ge-ak-1"].hex, st.units["ge-ak-1"].step) == ("eliminated", None, 2)


def test_8_1_an_isolated_attacker_and_defender_change_the_die_in_the_preview() -> None:
    game = position({"ge-ak-1": "1620", "so-a-8": "1720"})
    base = SYSTEM.preview(game, ("ge-ak-1",), ("1720",))
    assert not [m for m in base.modifiers if m.case == "8.1"]
    game.state.units["ge-ak-1"].markers.add(ISOLATED)
    game.state.units["so-a-8"].markers.add(ISOLATED)
    game.memo.clear()
    got = SYSTEM.preview(game, ("ge-ak-1",), ("1720",))
    mods = [(m.case, m.text, m.die_modifier) for m in got.modifiers if m.case == "8.1"]
    assert mods == [("8.1", "an isolated unit attacks", -2), ("8.1", "an isolated unit defends", 1)]


def test_8_supply_of_answers_with_the_rail_state() -> None:
    game = position({"ge-ak-1": "1720", "ge-ak-2": "0112"})
    ans = SYSTEM.supply(game)
    assert (ans.traced("ge-ak-1"), ans.traced("ge-ak-2")) == (False, True)
    assert ans.controlled_rail("axis", game.scenario.map.grid.parse("1620"))  # taken by the markers (helper)
    assert not ans.controlled_rail("axis", game.scenario.map.grid.parse("1618"))


# -- rail (10, 10.1) ----------------------------------------------------------------------------------


def _rail_game() -> Game:
    return position({"so-a-8": "1618", "so-a-7": "1618", "so-a-10": "1618"}, phase="rail", player="soviet")


def test_10_1_a_rail_move_spends_a_point_a_step_and_the_units_mp() -> None:
    game = _rail_game()
    reach = SYSTEM.reachable(game, ("so-a-8",))
    board = board_of(game)
    direct = rl.rail_reachable(board, ps.rail_state(game), ("so-a-8",))
    assert set(reach) == set(direct) and max(r.cost for r in reach.values()) == 20
    far = next(r for r in reach.values() if r.cost == 20)
    assert Move(("so-a-8",), far.path) in set(SYSTEM.legal(game, "soviet"))
    game.apply(Move(("so-a-8",), far.path), side="soviet")
    st = game.state
    assert st.units["so-a-8"].hex == far.path[-1]
    assert ps.rail_state(game).spent("soviet") == 2 and st.vars.railed == ["so-a-8"]
    assert game.check(Move(("so-a-8",), far.path[:-1]), side="soviet").case == "10.1"  # once a turn
    near = next(r for r in SYSTEM.reachable(game, ("so-a-7",)).values() if r.cost == 1)
    game.apply(Move(("so-a-7",), near.path), side="soviet")
    assert ps.rail_state(game).spent("soviet") == 4
    bad = game.check(Move(("so-a-10",), near.path), side="soviet")
    assert (bad.case, bad.why) == ("10", "the move needs 2 rail points and 0 of this turn's 4 are left")
    game.apply(EndPhase(), side="soviet")  # 10.1: the rail move used all its MP
    while game.state.phase != "movement":
        game.apply(EndPhase(), side="soviet")
    assert not SYSTEM.can_act(game, "so-a-8") and SYSTEM.can_act(game, "so-a-10")


def test_10_1_no_rail_move_longer_than_twenty_hexes() -> None:
    game = _rail_game()
    grid = game.scenario.map.grid
    reach = SYSTEM.reachable(game, ("so-a-8",))
    net = rl.links(game.scenario.map)
    for r in reach.values():
        if r.cost != 20:
            continue
        seen = {grid.parse("1618")} | {grid.parse(t) for t in r.path}
        nxt = [n for n in net[grid.parse(r.path[-1])] if n not in seen]
        if nxt:
            path = (*r.path, grid.id(nxt[0]))
            break
    bad = game.check(Move(("so-a-8",), path), side="soviet")
    assert bad.case == "10.1" and "covers 21 rail hexes" in bad.why


def test_10_1_a_unit_out_of_supply_does_not_move_by_rail() -> None:
    game = position({"ge-ak-1": "1620"}, phase="rail")  # Axis rail (helper), but no line to a source
    assert SYSTEM.reachable(game, ("ge-ak-1",)) == {}
    bad = game.check(Move(("ge-ak-1",), ("1520",)), side="axis")
    assert bad.case == "10.1" and "out of supply" in bad.why


# -- rail markers (10.3) --------------------------------------------------------------------------------


def test_10_3_a_marker_advances_three_rail_hexes_once() -> None:
    game = position({}, phase="rail_markers", axis_rail=())
    grid = game.scenario.map.grid
    a = MoveMarker(0, ("0222", "0321", "0422"), "0121")
    assert a in set(SYSTEM.legal(game, "axis"))
    game.apply(a, side="axis")
    rs = ps.rail_state(game)
    assert rs.markers[0] == grid.parse("0422") and {grid.parse(t) for t in a.path} <= rs.taken
    again = game.check(MoveMarker(0, ("0321",), "0121"), side="axis")
    assert (again.case, again.why) == ("10.3", "this rail marker has already advanced this turn")
    nxt = [grid.id(n) for n in rl.links(game.scenario.map)[grid.parse("0422")] if grid.id(n) != "0321"]
    four = game.check(MoveMarker(1, ("0222", "0321", "0422", nxt[0]), "0121"), side="axis")
    assert (four.case, four.why) == ("10.3", "a rail marker advances at most 3 rail hexes, not 4")


def test_10_3_a_marker_stops_at_soviet_units_and_soviet_units_win_rail_back() -> None:
    game = position({"so-a-8": "0422"}, phase="rail_markers", axis_rail=())
    bad = game.check(MoveMarker(0, ("0222", "0321", "0422"), "0121"), side="axis")
    assert (bad.case, bad.why) == ("10.3", "0422 holds Soviet units")
    assert game.check(MoveMarker(0, ("0222", "0321"), "0121"), side="axis") is None
    game = position({"so-a-8": "0423"}, phase="movement", player="soviet", axis_rail=("0222", "0321", "0422"))
    game.apply(Move(("so-a-8",), ("0422",)), side="soviet")
    assert game.scenario.map.grid.parse("0422") not in ps.rail_state(game).taken  # 10.2
    assert game.scenario.map.grid.parse("0321") in ps.rail_state(game).taken


# -- set-up (15.1, 15.2) ----------------------------------------------------------------------------


def test_15_set_up_choices_are_prompts_with_the_default_first() -> None:
    game = Game.new(HISTORICAL, seed=1)
    st = game.state
    assert sum(1 for f in st.prompts if f["kind"] == "setup") == 105
    assert st.units["fi-c-6"].status == "pending"  # waiting for its answer
    p = game.rules.prompt(game)
    assert (p.side, p.kind, p.case) == ("axis", "setup", "15")
    assert [o.label for o in p.options] == ["fi-c-6 starts in 1301 (default)", "fi-c-6 starts in 1401",
                                            "accept the remaining 57 default set-up hexes"]
    assert set(SYSTEM.legal(game, "axis")) == {o.action for o in p.options}
    game.apply(Place("fi-c-6", "1401"), side="axis")
    assert (st.units["fi-c-6"].status, st.units["fi-c-6"].hex) == ("map", "1401")
    assert game.rules.prompt(game).options[0].label == "fi-c-7 starts in 1301 (default)"
    game.apply(SetupDefaults(), side="axis")
    p = game.rules.prompt(game)
    assert p.side == "soviet" and p.options[-1].label == "accept the remaining 48 default set-up hexes"
    game.apply(SetupDefaults(), side="soviet")
    assert st.pending is None and game.phase.name == "movement"
    grid = game.scenario.map.grid
    for uid in game.scenario.extra["choices"]:
        want = "1401" if uid == "fi-c-6" else grid.id(game.scenario.setup[uid])
        assert (st.units[uid].status, st.units[uid].hex) == ("map", want), uid


def test_15_set_up_defaults_refused_when_no_set_up_waits() -> None:
    game = position({"ge-ak-1": "1620"}, phase="movement")
    assert game.check(SetupDefaults(), side="axis").case == "15"


# -- whole games --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["historical", pytest.param("hypothetical", marks=pytest.mark.slow),
                                  pytest.param("typhoon", marks=pytest.mark.slow)])
def test_selfplay_finishes_each_scenario_with_supply_and_rail(name: str) -> None:
    # every rule wired (supply, rail, the campaign's phases, victory): a random game to its end
    out = CliRunner().invoke(app, ["selfplay", "--scenario", f"barbarossa1941/{name}", "--games", "1"])
    assert out.exit_code == 0, out.output
    assert "game over after turn 10" in out.output


def test_bot_game_uses_the_rail_and_the_markers() -> None:
    from kiev_tui.games.barbarossa1941.bot import play_game

    kinds: list[str] = []
    result = play_game("barbarossa1941/typhoon", 2, on_action=lambda g, a: kinds.append(
        f"{g.state.phase}:{getattr(a, 'kind', '')}"))
    assert result.over
    assert "rail_markers:move_marker" in kinds and "rail:move" in kinds


def test_8_2_finnish_karelia_rail_joins_helsinki_inside_finland() -> None:
    game = position({"fi-c-6": "1301", "fi-c-7": "1401", "fi-oinonen": "1401"}, turn=2, axis_rail=())
    grid = game.scenario.map.grid
    net = rl.links(game.scenario.map)
    assert grid.parse("1201") in net[grid.parse("1301")] and grid.parse("1401") in net[grid.parse("1301")]
    ans = SYSTEM.supply(game)
    assert [ans.traced(u) for u in ("fi-c-6", "fi-c-7", "fi-oinonen")] == [True, True, True]
    assert grid.parse("1401") in ans.nets["axis"]  # 8.2: Helsinki's rail, all of it in Finland


# -- naval moves (12.1) -----------------------------------------------------------------------------


def test_12_1_one_naval_move_a_turn_between_ports_of_a_ruled_sea() -> None:
    from kiev_tui.games.barbarossa1941.actions import Sail

    game = position({"so-a-8": "1128", "so-a-7": "1128"}, phase="movement", player="soviet")
    assert Sail("so-a-8", "1532") in set(SYSTEM.legal(game, "soviet"))
    game.apply(Sail("so-a-8", "1532"), side="soviet")
    st = game.state
    assert st.units["so-a-8"].hex == "1532" and not SYSTEM.can_act(game, "so-a-8")
    again = game.check(Sail("so-a-7", "2131"), side="soviet")
    assert (again.case, again.why) == ("12.1", "one naval move a turn, already made")
    game = position({"so-a-8": "1128"}, phase="movement", player="soviet", control={"1532": "axis", "2131": "axis"})
    lost = game.check(Sail("so-a-8", "1532"), side="soviet")
    assert (lost.case, lost.why) == ("12.1", "the soviet side does not rule the black sea")  # 8.2: 2 of 3 ports


@pytest.mark.parametrize("on", [True, False])
def test_14_3_5_a_newly_cut_off_soviet_unit_next_to_a_panzer_corps_loses_a_step(on: bool) -> None:
    game = position({"so-a-8": "0126", "ge-pzk-41": "0125"}, turn=3, phase="rail_markers", player="axis")
    if on:
        game.scenario.params[ps.OPTIONS_KEY] = [ps.BLITZKRIEG]
    try:
        game.apply(EndPhase(), side="axis")
        st = game.state
        assert (st.turn, st.player, st.phase) == (3, "soviet", "isolation")
        assert ISOLATED in st.units["so-a-8"].markers and st.pending is None
        assert st.units["so-a-8"].step == (1 if on else 0)
    finally:
        game.scenario.params.pop(ps.OPTIONS_KEY, None)
