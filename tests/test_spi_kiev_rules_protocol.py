"""The questions every face asks Kiev through the RuleSystem protocol (issue 14): who can act,
reachable hexes, odds, the pending choice and the score, all answered by KievRules."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import H
from kiev_tui.engine.rules import OddsPreview, Prompt, Reach, Score
from kiev_tui.games.spi_kiev import movement
from kiev_tui.games.spi_kiev.actions import Attack, Move, Overrun

from tests.conftest import position
from tests.spi_helpers import load_dice


def pos(game: Game, placements: dict[str, str], **kw: object) -> Game:
    return position(game, placements, reinforcements=False, **kw)  # type: ignore[arg-type]


def test_movement_reach_is_the_engine_reach(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0505"})
    assert movement.Reach is Reach
    reach = mini.rules.reachable(mini, ("so-rifle-1",))
    assert reach[H("0504")] == Reach(1.0, ("0504",))


def test_a_unit_that_moved_acts_until_another_stack_moves(mini: Game) -> None:
    pos(mini, {"so-rifle-1": "0505", "so-rifle-2": "0507", "ge-inf-1": "0101"})
    assert mini.rules.actable(mini) == ["so-rifle-1", "so-rifle-2"]
    mini.apply(Move(("so-rifle-1",), ("0504",)))
    assert mini.rules.can_act(mini, "so-rifle-1") is True  # still the stack in hand (5.0)
    mini.apply(Move(("so-rifle-2",), ("0506",)))
    assert mini.rules.can_act(mini, "so-rifle-1") is False
    assert mini.rules.actable(mini) == ["so-rifle-2"]
    assert mini.rules.can_act(mini, "ge-inf-1") is False  # not the phasing player's
    assert mini.rules.can_act(mini, "no-such-unit") is False


def test_a_unit_in_an_enemy_zone_cannot_act_but_may_still_overrun(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.acting import can_move

    pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german")
    view = mini.rules.position(mini)
    assert can_move(view, "ge-1pz-1") is False  # 8.23
    assert can_move(view, "ge-1pz-1", zoc=False) is True  # 6.0
    assert mini.rules.actable(mini) == []


def test_combat_phase_acts_are_attacks(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "ge-inf-1": "0101", "so-rifle-3": "0804"}, player="german", phase="combat")
    assert mini.rules.actable(mini) == ["ge-1pz-1"]  # ge-inf-1 touches no enemy
    load_dice(mini, [6])
    mini.apply(Attack(("ge-1pz-1",), ("0804",)))
    assert mini.rules.can_act(mini, "ge-1pz-1") is False  # 9.14


def test_preview_and_pending_in_the_combat_phase(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german", phase="combat")
    p = mini.rules.preview(mini, ("ge-1pz-1",), ("0804",))
    assert isinstance(p, OddsPreview)
    assert (p.illegal, p.attack, p.defense, p.column) == (None, 6, 2, "3-1")
    assert abs(sum(p.chances.values()) - 1.0) < 1e-9
    assert mini.rules.prompt(mini) is None
    mini.state.pending = {"kind": "retreat", "side": "soviet", "prompt": "soviet player: retreat"}
    # no battle stands behind this hand-built choice: it is asked, with no option to answer it
    assert mini.rules.prompt(mini) == Prompt("soviet", "retreat", "9.7", "soviet player: retreat", ())


def test_preview_in_a_movement_phase_is_an_overrun(mini: Game) -> None:
    pos(mini, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german")
    p = mini.rules.preview(mini, ("ge-1pz-1",), ("0804",))
    assert p is not None
    assert (p.illegal, p.attack, p.defense, p.column) == (None, 3, 2, "1-1")
    assert mini.check(Overrun(("ge-1pz-1",), "0804")) is None
    assert mini.rules.preview(mini, ("ge-1pz-1",), ("0804", "0805")) is None


def test_score_during_play_names_no_winner(mini: Game) -> None:
    s = mini.rules.score(mini)
    assert isinstance(s, Score)
    assert s == Score({"german": 10, "soviet": 30},
                      ("German +10: holds Westburg (0202, city)", "Soviet +25: holds Testgrad (0505, city)",
                       "Soviet +5: holds Eastville (0805, town)"), "")


def test_score_after_the_game_is_the_recorded_final_score(mini: Game) -> None:
    mini.state.over = True
    mini.state.vars.final_score = {"german": 150, "soviet": 10, "margin": 133, "winner": "german",
                                      "lines": [{"side": "german", "what": "held everything", "points": 150}]}
    assert mini.rules.score(mini) == Score({"german": 150, "soviet": 10}, ("German +150: held everything",), "german")
