"""Who may act now (issue 20 item 10): the phasing player, or the side a pending choice is for.

An action may be submitted with the side that submits it; the engine refuses it from the other
side (4.1: the player-turn belongs to the phasing player; a pending choice to the side it names).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import DataError, IllegalAction
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.tomlio import dump_toml, load_toml
from kiev_tui.games.spi_kiev.actions import Attack, ChooseRetreat, Enter, Move, Retreat, TakeLosses

from tests.conftest import position
from tests.spi_helpers import load_dice, pending


def german_attack(game: Game) -> Game:
    """A German attack whose -/1 leaves the Soviet player a loss-or-retreat choice."""
    position(game, {"ge-1pz-1": "0704", "so-rifle-3": "0804"}, player="german", phase="combat",
             reinforcements=False)
    load_dice(game, [2])  # 6 against 2: 3-1, die 2: -/1
    game.apply(Attack(("ge-1pz-1",), ("0804",)), side="german")
    return game


def test_4_1_the_actor_is_the_phasing_player_without_a_pending_choice(mini: Game) -> None:
    assert mini.state.player == "soviet"
    assert mini.actor == "soviet"
    position(mini, {"ge-1pz-1": "0704"}, player="german", reinforcements=False)
    assert mini.actor == "german"


def test_4_1_the_actor_is_the_side_a_pending_choice_is_for(mini: Game) -> None:
    german_attack(mini)
    assert pending(mini)["side"] == "soviet"
    assert mini.actor == "soviet"
    mini.apply(ChooseRetreat(), side="soviet")
    assert pending(mini)["kind"] == "retreat" and mini.actor == "german"  # 19.7: the enemy picks the path


def test_4_1_the_phasing_player_cannot_answer_the_defenders_choice(mini: Game) -> None:
    german_attack(mini)
    bad = mini.check(TakeLosses(("so-rifle-3",)), side="german")
    assert bad is not None and bad.case == "4.1"
    assert bad.why == "the soviet player must answer now, not the german player"
    with pytest.raises(IllegalAction):
        mini.apply(TakeLosses(("so-rifle-3",)), side="german")
    assert mini.state.units["so-rifle-3"].status == "map"
    assert mini.check(TakeLosses(("so-rifle-3",)), side="soviet") is None


def test_4_1_the_other_side_cannot_move_in_the_phasing_players_turn(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0705"}, reinforcements=False)
    bad = mini.check(Move(("so-rifle-1",), ("0706",)), side="german")
    assert bad is not None and bad.case == "4.1"
    assert bad.why == "it is the soviet player's turn, not the german player's"
    assert mini.check(EndPhase(), side="german") is not None
    assert mini.check(Move(("so-rifle-1",), ("0706",)), side="soviet") is None


def test_4_1_without_a_side_the_actor_is_assumed(mini: Game) -> None:
    german_attack(mini)
    mini.apply(TakeLosses(("so-rifle-3",)))  # old callers and old saves give no side
    assert mini.sides[-2:] == ["german", "soviet"]


def test_4_1_the_save_records_who_acted_and_replay_checks_it(mini: Game, tmp_path: Path) -> None:
    german_attack(mini)
    mini.apply(TakeLosses(("so-rifle-3",)), side="soviet")
    path = save_game(mini, tmp_path / "g.toml")
    data = load_toml(path)
    assert [a.get("side") for a in data["action"]][-2:] == ["german", "soviet"]
    # the saved position came from edits, not a replayable log: check the side on a real game
    game = Game.new(Path(__file__).parent / "fixtures" / "mini" / "scenarios" / "mini.toml", seed=7)
    game.apply(Enter(("so-t01-rifle-1", "so-t01-rifle-2"), "1005"), side="soviet")
    good = save_game(game, tmp_path / "real.toml")
    assert load_game(good).sides == ["soviet"]
    data = load_toml(good)
    data["action"][0]["side"] = "german"
    bad = tmp_path / "bad.toml"
    bad.write_text(dump_toml(data))
    with pytest.raises(DataError) as err:
        load_game(bad)
    assert "[4.1]" in err.value.line() and ": action 1: " in err.value.line()


def test_4_1_undo_takes_back_the_recorded_side(mini: Game) -> None:
    position(mini, {"so-rifle-1": "0705"}, reinforcements=False)
    mini.apply(Move(("so-rifle-1",), ("0706",)), side="soviet")
    assert mini.sides == ["soviet"]
    assert mini.undo()
    assert mini.sides == [] and mini.log == []


def test_4_1_a_retreat_is_chosen_by_the_german_after_a_soviet_choice(mini: Game) -> None:
    german_attack(mini)
    mini.apply(ChooseRetreat(), side="soviet")
    assert mini.check(Retreat(("so-rifle-3",), (("0904",),)), side="soviet").case == "4.1"  # type: ignore[union-attr]
