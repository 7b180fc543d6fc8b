"""Dice sources (issue 16): each roll and draw comes from the game's source at the moment it
is needed, is recorded per action, and nothing in a save predicts a roll still to come."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from kiev_tui.engine import dice as dice_mod
from kiev_tui.engine.actions import Action
from kiev_tui.engine.dice import DiceError, EntropyDice, FixedDice, RecordedDice, SeededDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game

from tests.conftest import MINI
from tests.test_properties import random_step


def first_roll(seed: int = 3) -> tuple[list[tuple[Action, str]], Action, str]:
    """Random legal play of the mini scenario up to the first action that draws a random value:
    the actions before it (with who played them), that action and its side."""
    for s in range(seed, seed + 40):
        game = Game.new(MINI, seed=s)
        rng = random.Random(s)
        for _ in range(200):
            if game.state.over:
                break
            side = game.actor
            act = random_step(game, rng)
            if game.rolls:
                return list(zip(game.log[:-1], game.sides[:-1])), act, side
    raise AssertionError("no random play of the mini scenario reached a die roll")


def replay_on(game: Game, actions: list[tuple[Action, str]]) -> Game:
    for act, side in actions:
        game.apply(act, side=side)
    return game


@pytest.fixture(scope="module")
def before_attack() -> tuple[list[tuple[Action, str]], Action, str]:
    return first_roll()


# -- the sources ------------------------------------------------------------------------------

def test_a_seeded_source_repeats_and_a_fixed_list_gives_its_values_in_turn() -> None:
    a, b = SeededDice(5), SeededDice(5)
    assert [a.roll(6, "x") for _ in range(12)] == [b.roll(6, "x") for _ in range(12)]
    fixed = FixedDice([4, 0, 6])
    assert (fixed.roll(6, "x"), fixed.pick(3, "y"), fixed.roll(6, "z")) == (4, 0, 6)
    with pytest.raises(DiceError, match="used up"):
        fixed.roll(6, "more")
    with pytest.raises(DiceError, match="not one of 1..6"):
        FixedDice([7]).roll(6, "x")


def test_entropy_dice_draw_from_the_os_at_the_moment_of_need(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return len(asked) % n

    monkeypatch.setattr(dice_mod.secrets, "randbelow", randbelow)
    d = EntropyDice()
    assert asked == []  # nothing drawn ahead of need
    assert d.roll(6, "a") == 2 and d.pick(10, "b") == 2 and d.roll(6, "c") == 4
    assert asked == [6, 10, 6]
    assert d.record() == {"dice": "entropy"} and d.mark() is None


def test_entropy_rolls_are_fair_enough() -> None:
    d = EntropyDice()
    n = 12000
    counts = Counter(d.roll(6, "chi") for _ in range(n))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts.values())
    assert chi2 < 30.0  # 5 degrees of freedom: 30 is past the 0.9999 quantile


def test_recorded_dice_refuse_a_missing_an_extra_and_a_forged_value() -> None:
    rec = RecordedDice(SeededDice(9))
    truth = SeededDice(9)
    good = [truth.roll(6, "a"), truth.pick(4, "b")]
    rec.expect(good)
    assert (rec.roll(6, "a"), rec.pick(4, "b")) == tuple(good)
    rec.finish()
    rec.expect([])
    with pytest.raises(DiceError, match="needs random value 1 here, the save records only 0"):
        rec.roll(6, "c")
    rec = RecordedDice(None, {"dice": "entropy"})
    rec.expect([3, 5])
    rec.roll(6, "a")
    with pytest.raises(DiceError, match="records 2 random values here, the replay used 1"):
        rec.finish()
    forged = RecordedDice(SeededDice(9))
    forged.expect([good[0] % 6 + 1])
    with pytest.raises(DiceError, match=f"recorded as {good[0] % 6 + 1}, but the seeded source gives {good[0]}"):
        forged.roll(6, "a")
    assert rec.record() == {"dice": "entropy"}


# -- the game records every value ---------------------------------------------------------------

def test_every_random_value_is_recorded_with_its_action(before_attack: tuple) -> None:
    prefix, attack, side = before_attack
    game = replay_on(Game.new(MINI, dice=FixedDice([5, 4, 3])), prefix)
    assert all(values == [] for values in game.rolled)
    events = game.apply(attack, side=side)
    assert game.rolled[-1] == [5] and game.rolls == 1  # one die, recorded with the action that rolled it
    assert [e.value for e in events if e.kind == "rolled"] == [5]
    assert game.seed is None and game.origin == {"dice": "fixed"}


def test_a_fixed_game_saved_replays_from_the_recorded_values_alone(before_attack: tuple, tmp_path: Path) -> None:
    prefix, attack, side = before_attack
    game = replay_on(Game.new(MINI, dice=FixedDice([6])), prefix)
    game.apply(attack, side=side)
    path = save_game(game, tmp_path / "fixed.toml")
    back = load_game(path)
    assert back.state_hash() == game.state_hash()
    assert back.rolled == game.rolled and back.rolls == game.rolls
    assert isinstance(back.dice, EntropyDice)  # a fixed list is a test's: play on with fresh entropy


def test_a_save_of_an_entropy_game_holds_no_seed(before_attack: tuple, tmp_path: Path) -> None:
    prefix, attack, side = before_attack
    game = replay_on(Game.new(MINI, seed=None), prefix)
    assert isinstance(game.dice, EntropyDice)
    data = tomllib.loads(save_game(game, tmp_path / "e.toml").read_text())
    assert data["save"]["dice"] == "entropy" and data["save"]["format"] == 2
    assert "seed" not in data["save"]
    assert "seed" not in data["final"]["state"] and "rng" not in str(data["final"]).lower()


def test_two_loads_of_a_save_made_before_an_attack_roll_independently(before_attack: tuple, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    prefix, attack, side = before_attack
    path = save_game(replay_on(Game.new(MINI, seed=None), prefix), tmp_path / "before.toml")
    # Each load draws from the OS when the die is rolled: here the OS says 0 then 5.
    os_values = iter([0, 5, 1, 4, 2, 3] * 20)
    monkeypatch.setattr(dice_mod.secrets, "randbelow", lambda n: next(os_values) % n)
    first, second = load_game(path), load_game(path)
    first.apply(attack, side=side)
    second.apply(attack, side=side)
    assert first.rolled[-1] != second.rolled[-1]


def test_reloading_a_save_many_times_gives_every_face_of_the_die(before_attack: tuple, tmp_path: Path) -> None:
    prefix, attack, side = before_attack
    path = save_game(replay_on(Game.new(MINI, seed=None), prefix), tmp_path / "before.toml")
    firsts = set()
    for _ in range(15):  # the real OS: 15 loads all rolling alike would be a 1 in 6**14 event
        g = load_game(path)
        g.apply(attack, side=side)
        firsts.add(tuple(g.rolled[-1]))
    assert len(firsts) > 1


def test_a_seeded_game_reloaded_plays_on_with_its_generator(before_attack: tuple, tmp_path: Path) -> None:
    prefix, attack, side = before_attack
    straight = replay_on(Game.new(MINI, seed=11), prefix)
    path = save_game(straight, tmp_path / "s.toml")
    straight.apply(attack, side=side)
    back = load_game(path)
    back.apply(attack, side=side)
    assert back.rolled[-1] == straight.rolled[-1]  # --seed stays reproducible across a reload
    assert back.seed == 11


def test_a_failed_action_rewinds_the_dice(before_attack: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    prefix, attack, side = before_attack
    game = replay_on(Game.new(MINI, dice=FixedDice([3])), prefix)
    real = game.rules.apply

    def broken(g: Game, a: Action) -> None:
        real(g, a)
        raise RuntimeError("a rule-system bug after the roll")

    monkeypatch.setattr(game.rules, "apply", broken)
    with pytest.raises(RuntimeError):
        game.apply(attack, side=side)
    assert isinstance(game.dice, FixedDice) and game.dice.used == 0 and game.rolls == 0
