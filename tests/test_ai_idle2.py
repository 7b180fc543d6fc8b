"""The strong German's armour going next to one Soviet stack together (ai_joint.py, issue 34)."""

from __future__ import annotations

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_joint
from kiev_tui.games.spi_kiev.actions import Attack, Move
from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

from conftest import MINI, ai_played, position


def _game(soviet: str = "so-rifle-1") -> Game:
    """Two panzers (attack 6 each) and a motorized unit (2) two to four hexes west of a Soviet
    rifle (defence 5) at 0407; every town German and held.  One unit beside the rifle alone gets
    odds under 1.5 to 1 and cannot be supplied there; the three together get 2.8 to 1."""
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0205", "ge-2pz-1": "0206", "ge-gd": "0204",
                                            soviet: "0407", "ge-inf-1": "0505", "ge-inf-2": "0202",
                                            "ge-inf-3": "0805"},
                    player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german", "0202": "german", "0805": "german"})
    game.touch()
    return game


def test_the_armour_goes_in_together_and_attacks() -> None:
    game = _game()
    ai = KievAI("german", "strong", seed=1)
    assert ai_played(game, ai) == [Move(("ge-1pz-1",), ("0306", "0307")), Move(("ge-2pz-1",), ("0307",)),
                                   Move(("ge-gd",), ("0305", "0306", "0307")), EndPhase()]
    game.apply(EndPhase(), side="german")
    assert ai.decide(game) == Attack(("ge-1pz-1", "ge-2pz-1", "ge-gd"), ("0407",))


def test_without_the_joint_approach_each_unit_is_scored_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_joint, "JOINT", False)
    game = _game()
    assert ai_played(game, KievAI("german", "strong", seed=1)) == [
        Move(("ge-gd",), ("0305", "0405")), Move(("ge-1pz-1",), ("0306",)), EndPhase()]


def test_the_group_is_worth_its_moves_and_weighed_again_once_it_has_moved() -> None:
    game = _game()
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    state = ai_joint.JointState()
    first = ai_joint.approach(ai, game, view, Ctx(ai, game, view), state)
    assert first == Move(("ge-1pz-1",), ("0306", "0307"))
    assert ai._why == "3 armoured units go next to 0407 for an attack at good odds (+1.9 VP over their moves apart)"
    assert (state.done, state.rounds, str(state.target), state.pending) == (
        False, 1, "0407", [Move(("ge-2pz-1",), ("0307",)), Move(("ge-gd",), ("0305", "0306", "0307"))])
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), ai_joint.JointState(done=True)) is None
    last = ai_joint.JointState(rounds=ai_joint.JOINT_ROUNDS - 1)  # the phase's last weighing
    ai = KievAI("german", "strong", seed=1)
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), last) == first and last.done


def test_the_group_scored_side_by_side() -> None:
    game = _game()
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    moves = [Move(("ge-1pz-1",), ("0306", "0307")), Move(("ge-2pz-1",), ("0307",)),
             Move(("ge-gd",), ("0305", "0306", "0307"))]
    gain, attack = ai_joint._group_value(ai, game, Ctx(ai, game, view), moves, Hex.parse("0407"))
    assert (round(gain, 4), round(attack, 4)) == (2.1034, 0.9617)


def test_no_group_when_the_gain_is_under_the_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_joint, "JOINT_GAIN", 2.0)  # the group above gains 1.9 VP
    game = _game()
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), ai_joint.JointState()) is None


def test_no_group_when_the_combat_phase_would_not_attack() -> None:
    from dataclasses import replace

    game = _game()
    ai = KievAI("german", "strong", seed=1)
    ai.level = replace(ai.level, attack_threshold=1.0)  # the group's attack is worth 0.96 VP
    view = game.rules.position(game)
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), ai_joint.JointState()) is None


def test_no_group_when_one_panzer_alone_gets_good_odds() -> None:
    game = _game("so-rifle-3")  # defence 2: one panzer alone attacks at 3 to 1, the usual scoring's case
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), ai_joint.JointState()) is None


def test_a_broken_group_is_dropped() -> None:
    game = _game()
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    state = ai_joint.JointState(done=True, pending=[Move(("ge-2pz-1",), ("0307",)),
                                                    Move(("ge-gd",), ("0305", "0306", "0307"))])
    ai._done.add("ge-2pz-1")  # it went elsewhere
    assert ai_joint.approach(ai, game, view, Ctx(ai, game, view), state) is None
    assert state.pending == []
