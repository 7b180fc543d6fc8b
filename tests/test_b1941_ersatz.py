"""Barbarossa 1941's ersatz corps (9.2) as the rule system plays them: a German corps destroyed to
its last step never comes back; the German side may spend one infantry replacement step in its
replacement phase to bring in an ersatz 3-3-3 corps in its place, entering as a German
reinforcement through Königsberg (0112) or Warsaw (0117), one a turn in each (9.1)."""

from __future__ import annotations

from kiev_tui.engine import sequence
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941 import phases_campaign as pc
from kiev_tui.games.barbarossa1941.actions import Replacement
from kiev_tui.games.barbarossa1941.system import SYSTEM

from tests.b41_system_helpers import answer, position

CORPS = "ge-ak-23"  # an infantry corps (rebuild = "ersatz")


def _replacement_phase(game: Game, german_infantry: int = 4) -> None:
    """Into the Axis replacement phase of turn 3 with ``german_infantry`` steps on the loss marker
    (4 make one point, 9.21) and the campaign pool spent (9.22), so the marker's points are all."""
    pc.ensure(game)
    v = game.state.vars
    v.tracks = {"german_infantry": german_infantry, "german_motorized": 0, "soviet_infantry": 0}
    v.pools = {"german_infantry": 0, "german_motorized": 0, "finnish": 0, "romanian": 0}
    st = game.state
    step = next(s for s in sequence.turn_steps(game, 3) if s.phase == "air_rebasing" and s.owner == "axis")
    st.turn, st.player, st.phase, st.half = 3, "axis", step.phase, 0
    game.memo.clear()
    game.apply(EndPhase(), side="axis")
    assert game.phase.name == "replacements"


def _destroyed(*uids: str) -> Game:
    game = position({"so-a-5b": "2012"}, turn=3, phase="air_rebasing", player="axis")
    for uid in uids:
        game.state.units[uid].status = "eliminated"
    return game


def _ersatz_options(game: Game) -> set[tuple[str, str, str]]:
    p = SYSTEM.prompt(game)
    assert p is not None
    return {(o.action.unit, o.action.hex, o.action.target) for o in p.options
            if isinstance(o.action, Replacement) and o.action.what == "ersatz"}


def test_9_2_ersatz_corps_offered_for_a_destroyed_german_corps_and_entered_as_a_reinforcement() -> None:
    game = _destroyed(CORPS)
    _replacement_phase(game)
    assert _ersatz_options(game) == {("ge-ersatz-1", "0112", CORPS), ("ge-ersatz-1", "0117", CORPS)}
    assert pc.budget_of(game, "axis").infantry == 1
    assert Replacement("ersatz", "ge-ersatz-1", "0117", CORPS) in set(SYSTEM.legal(game, "axis"))
    answer(game, "replace", unit="ge-ersatz-1", hex="0117")
    e = game.state.units["ge-ersatz-1"]
    assert (e.status, e.hex, e.step) == ("map", "0117", 0)
    assert game.state.vars.ersatz == {CORPS: "ge-ersatz-1"}
    assert game.state.units[CORPS].status == "eliminated"  # 9.2: the corps itself stays gone
    assert game.state.vars.entered["0117"] == 1  # 9.1: Warsaw's entry of the turn
    assert pc.budget_of(game, "axis").infantry == 0
    assert _ersatz_options(game) == set()  # no point left (the turn's arrivals still wait)


def test_9_2_ersatz_corps_one_for_each_corps_destroyed() -> None:
    game = _destroyed(CORPS)
    _replacement_phase(game, german_infantry=8)  # two points
    answer(game, "replace", unit="ge-ersatz-1", hex="0112")
    assert _ersatz_options(game) == set()  # its corps has had its ersatz; the second point buys none
    bad = pc.check_replacement(game, Replacement("ersatz", "ge-ersatz-2", "0117", CORPS), "axis")
    assert bad is not None and (bad.case, bad.why) == ("9.2", f"{CORPS} has already been replaced by an ersatz corps")


def test_9_2_a_destroyed_german_corps_is_never_rebuilt_itself() -> None:
    game = _destroyed(CORPS)
    _replacement_phase(game)
    bad = pc.check_replacement(game, Replacement("rebuild", CORPS, "0117"), "axis")
    assert bad is not None and (bad.case, bad.why) == (
        "9.2", f"{CORPS} never comes back once destroyed: an ersatz corps may take its place")
    p = SYSTEM.prompt(game)
    assert p is not None and not any(o.unit == CORPS for o in p.options)


def test_9_2_ersatz_corps_needs_a_replacement_step() -> None:
    game = _destroyed(CORPS)
    _replacement_phase(game, german_infantry=3)  # 3 steps on the marker: no point yet (9.21)
    assert SYSTEM.prompt(game) is None or _ersatz_options(game) == set()
    bad = pc.check_replacement(game, Replacement("ersatz", "ge-ersatz-1", "0117", CORPS), "axis")
    assert bad is not None and (bad.case, bad.why) == ("9.22", "no infantry replacement point left this turn")


def test_9_2_ersatz_corps_refused_when_no_counter_is_left() -> None:
    game = _destroyed(CORPS)
    for uid, u in game.state.units.items():
        if uid.startswith("ge-ersatz-"):
            u.status = "eliminated"  # every ersatz counter has been used and lost
    _replacement_phase(game)
    assert SYSTEM.prompt(game) is None or _ersatz_options(game) == set()
    bad = pc.check_replacement(game, Replacement("ersatz", "ge-ersatz-1", "0117", CORPS), "axis")
    assert bad is not None and (bad.case, bad.why) == ("9.2", "no ersatz corps counter is left")


def test_9_2_ersatz_corps_only_for_a_german_corps() -> None:
    # the Romanian 4th Army (an army, Romanian) and the Italian corps destroyed: no ersatz for them
    game = _destroyed("ro-a-4", "it-csir")
    _replacement_phase(game)
    assert SYSTEM.prompt(game) is None or _ersatz_options(game) == set()
    for target in ("ro-a-4", "it-csir"):
        bad = pc.check_replacement(game, Replacement("ersatz", "ge-ersatz-1", "0117", target), "axis")
        assert bad is not None and (bad.case, bad.why) == (
            "9.2", f"an ersatz corps stands in only for a destroyed German infantry, security, mountain or "
                   f"panzer corps; {target} is none")


def test_9_2_an_ersatz_corps_destroyed_does_not_come_back() -> None:
    game = _destroyed(CORPS)
    game.state.units["ge-ersatz-1"].status = "eliminated"
    game.state.vars.ersatz = {CORPS: "ge-ersatz-1"}
    _replacement_phase(game)
    bad = pc.check_replacement(game, Replacement("ersatz", "ge-ersatz-2", "0117", "ge-ersatz-1"), "axis")
    assert bad is not None and (bad.case, bad.why) == (
        "9.2", "an ersatz corps stands in only for a destroyed German infantry, security, mountain or "
               "panzer corps; ge-ersatz-1 is none")
    bad = pc.check_replacement(game, Replacement("rebuild", "ge-ersatz-1", "0117"), "axis")
    assert bad is not None and bad.case == "9.2"
