"""The strong German's overruns hunted (ai_overrun.py, the "overrun_hunt" part of Level.parts)."""

from __future__ import annotations

from dataclasses import replace

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_overrun
from kiev_tui.games.spi_kiev.actions import Move, Overrun
from kiev_tui.games.spi_kiev.ai import LEVELS, KievAI
from kiev_tui.engine.actions import EndPhase

from conftest import MINI, position

WITHOUT = frozenset({"leader", "hold", "armour", "endgame"})
WITH = WITHOUT | {"overrun_hunt"}
STACK = ("ge-1pz-1", "ge-1pz-2", "ge-1pz-3")


def _ai(parts: frozenset[str]) -> KievAI:
    ai = KievAI("german", "strong", seed=1)
    ai.level = replace(ai.level, parts=parts)
    return ai


def _game(target: str, at: str, phase: str) -> Game:
    """The German panzer stack at 0404 (clear); one Soviet unit at ``at``; a strong rifle far off."""
    return position(Game.new(MINI, seed=5), {**{u: "0404" for u in STACK}, target: at, "so-rifle-4": "1008"},
                    player="german", phase=phase, reinforcements=False)


def test_strong_plays_by_the_overrun_hunt_part() -> None:
    assert "overrun_hunt" in LEVELS["strong"].parts and "overrun_hunt" not in LEVELS["easy"].parts


def test_a_hit_on_a_hunted_hex_counts_as_success() -> None:
    game = _game("so-rifle-3", "0405", "movement")
    view = game.rules.position(game)
    chances = _ai(WITH).chances(game, view, STACK, Hex.parse("0405"), overrun=True)
    assert ai_overrun.hunted(view, Hex.parse("0405")) and not ai_overrun.hunted(view, Hex.parse("0406"))
    assert round(ai_overrun.success(view, Hex.parse("0405"), chances, 0.0), 4) == round(4 / 6, 4)
    assert ai_overrun.bar(view, Hex.parse("0405"), 0.65, 0.2) == (0.65 - 0.15, 0.2 + 0.15)


def test_the_stack_overruns_a_lone_weak_unit() -> None:
    ai = _ai(WITH)
    assert ai.decide(_game("so-rifle-3", "0405", "movement")) == Overrun(STACK, "0405")
    assert ai._why == "overrun of 0405: clears it 67% (needs 50%), attacker loss 33%"


def test_the_stack_overruns_an_hq() -> None:
    assert _ai(WITH).decide(_game("so-hq-agsw", "0405", "movement")) == Overrun(STACK, "0405")


def test_without_the_part_no_overrun() -> None:
    assert _ai(WITHOUT).decide(_game("so-rifle-3", "0405", "movement")) == EndPhase()


def test_the_stack_moves_next_to_an_hq_to_overrun_it() -> None:
    ai = _ai(WITH)
    assert ai.decide(_game("so-hq-agsw", "0407", "mechanized")) == Move(STACK, ("0405", "0406"))
    assert ai._why == "hunts 0407: moves next to it to overrun it (clears it 67%, attacker loss 33%)"
    assert _ai(WITHOUT).decide(_game("so-hq-agsw", "0407", "mechanized")) == Move(("ge-1pz-1",), ("0505",))


def test_no_move_toward_a_lone_unit_in_supply() -> None:
    assert _ai(WITH).decide(_game("so-rifle-3", "0407", "mechanized")) == Move(("ge-1pz-1",), ("0505",))


def test_odds_are_worked_out_for_a_hunted_hex_from_two_to_one() -> None:
    """A lone rifle (defence 2) in doubling terrain at 0505 against 8 points of panzers: 2:1, under
    the 3:1 the overrun sums begin at otherwise; with the part its chances are worked out (a hit
    one time in three, a loss two in three: not made), without it the hex is passed over unpriced."""
    def weighed(parts: frozenset[str]) -> dict[str, tuple[float, float]]:
        game = position(Game.new(MINI, seed=5), {**{u: "0504" for u in STACK}, "so-rifle-3": "0505",
                                                 "so-rifle-4": "1008"},
                        player="german", phase="movement", reinforcements=False)
        ai = _ai(parts)
        assert ai.decide(game) == EndPhase()
        return {str(key[1]): got for key, got in ai._overrun_cache.items()}

    hit, loss = weighed(WITH)["0505"]
    assert (round(hit, 4), round(loss, 4)) == (round(1 / 3, 4), round(2 / 3, 4))
    assert weighed(WITHOUT) == {"0505": (0.0, 1.0)}
    lone = position(Game.new(MINI, seed=5), {"so-rifle-3": "0505"}, player="german", phase="movement",
                    reinforcements=False)
    view = lone.rules.position(lone)
    assert ai_overrun.worth_sums(view, Hex.parse("0505"), 8.0, 4.0)
    assert not ai_overrun.worth_sums(view, Hex.parse("0505"), 7.9, 4.0)
