"""The strong German's armour kept busy (ai_armour.py, the "armour" part of Level.parts)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_armour
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.ai import LEVELS, KievAI, _defender_hit

from conftest import MINI, ai_played, position

WITHOUT = frozenset({"leader", "hold"})
WITH = WITHOUT | {"armour"}


def _ai(parts: frozenset[str]) -> KievAI:
    ai = KievAI("german", "strong", seed=1)
    ai.level = replace(ai.level, parts=parts)
    return ai


def _handover_game() -> Game:
    """A panzer alone in Westburg (0202, German, 10 VP) with a Soviet rifle four hexes off; a foot
    unit at 0302 has only a small march east to make; Testgrad (0505) is German and held, Ostdorf
    (0805, 5 VP) Soviet and empty: only the panzer can reach it."""
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0202", "ge-inf-2": "0302", "ge-inf-3": "0505",
                                            "so-rifle-4": "0206", "so-hq-agsw": "1003"},
                    player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german"})
    game.touch()
    return game


def _played(game: Game, ai: KievAI) -> list[Action]:
    return ai_played(game, ai)


def test_strong_plays_by_the_armour_part() -> None:
    assert "armour" in LEVELS["strong"].parts and "armour" not in LEVELS["easy"].parts


def test_infantry_takes_the_town_over_and_the_panzer_moves_on() -> None:
    game = _handover_game()
    assert _played(game, _ai(WITH)) == [
        Move(("ge-inf-2",), ("0303", "0202")),
        Move(("ge-1pz-1",), ("0203", "0304", "0305", "0405", "0505", "0605", "0705", "0805")),
        EndPhase()]
    assert (game.state.control["0805"], game.state.control["0202"]) == ("german", "german")
    assert game.state.units["ge-inf-2"].hex == "0202"


def test_without_the_part_the_panzer_keeps_the_town() -> None:
    game = _handover_game()
    assert _played(game, _ai(WITHOUT)) == [Move(("ge-inf-2",), ("0401", "0501", "0601", "0702")), EndPhase()]
    assert (game.state.units["ge-1pz-1"].hex, game.state.control["0805"]) == ("0202", "soviet")


def test_no_handover_when_the_foot_unit_has_better_to_do() -> None:
    # Testgrad (25 VP) is Soviet and empty: the foot unit takes it, and nobody relieves the panzer.
    game = _handover_game()
    game.state.control.update({"0505": "soviet"})
    game.state.units["ge-inf-3"].hex = None
    game.state.units["ge-inf-3"].status = "eliminated"
    game.touch()
    ai = _ai(WITH)
    view = game.rules.position(game)
    from kiev_tui.games.spi_kiev.ai import Ctx
    assert ai_armour.handover(ai, game, view, Ctx(ai, game, view), set()) is None


def test_an_attack_with_held_armour_is_worth_more_by_the_chance_of_a_hit() -> None:
    # The panzer in 0204 stands in the rifle's zone of control (8.23): the attack frees it only
    # when the rifle is hit, so the part adds 2.0 VP (W_HELD) times that chance.
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0204", "so-rifle-4": "0205", "so-hq-agsw": "1003"},
                    player="german", phase="combat", reinforcements=False)
    view = game.rules.position(game)
    assert ai_armour.held_armour(view, ("ge-1pz-1",)) == 1
    t = Hex.parse("0205")
    evs = [_ai(parts)._attack_ev(game, view, ("ge-1pz-1",), t) for parts in (WITHOUT, WITH)]
    chances = _ai(WITH).chances(game, view, ("ge-1pz-1",), t)
    hit = sum(p for r, p in chances.items() if _defender_hit(r))
    assert round(hit, 6) == round(1 / 6, 6)  # 6 against 8: 1-2, one face of six hits
    assert round(evs[1] - evs[0], 6) == round(2.0 * hit, 6)


def test_a_lone_panzer_does_not_advance_out_of_the_town_it_holds() -> None:
    # The panzer alone in Westburg (German, 10 VP) drives a rifle back from 0203 (die 1 at 1-1:
    # -/1); another rifle stands four hexes off, so an empty Westburg would be retaken: with the
    # part the panzer declines the advance, without it the panzer goes forward.
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.spi_kiev.actions import Advance, Attack, DeclineAdvance
    ends = []
    for parts in (WITHOUT, WITH):
        game = position(Game.new(MINI, seed=5, dice=FixedDice([1])),
                        {"ge-1pz-1": "0202", "so-rifle-3": "0203", "so-rifle-4": "0206", "so-hq-agsw": "1003"},
                        player="german", phase="combat", reinforcements=False)
        assert game.rules.preview(game, ("ge-1pz-1",), ("0203",)).column == "1-1"
        game.apply(Attack(("ge-1pz-1",), ("0203",)), side="german")
        ai, soviet = _ai(parts), KievAI("soviet", "strong", seed=2)
        answers = []
        while game.state.pending is not None:
            who = ai if game.actor == "german" else soviet
            act = who.decide(game)
            answers.append(act)
            game.apply(act, side=who.side)
        ends.append((answers[-1], game.state.units["ge-1pz-1"].hex))
    assert ends == [(Advance(("ge-1pz-1",), ("0203",)), "0203"), (DeclineAdvance(), "0202")]


def _rear_handover_game() -> Game:
    """The handover position with the Soviet rifle six hexes from Westburg (0208): a rear town,
    which only the "midgame" part still wants held (ai_midgame.HOLD_NEAR)."""
    game = _handover_game()
    game.state.units["so-rifle-4"].hex = "0208"
    game.touch()
    return game


def test_a_rear_town_held_by_a_panzer_is_handed_over_with_the_midgame_part() -> None:
    game = _rear_handover_game()
    assert _played(game, _ai(WITH | {"midgame"})) == [
        Move(("ge-inf-2",), ("0303", "0202")),
        Move(("ge-1pz-1",), ("0203", "0304", "0305", "0405", "0505", "0605", "0705", "0805")),
        EndPhase()]
    assert (game.state.units["ge-inf-2"].hex, game.state.control["0805"]) == ("0202", "german")


def test_a_rear_town_is_not_handed_over_when_only_the_near_ones_are(monkeypatch: pytest.MonkeyPatch) -> None:
    # Six hexes off is beyond the four within which the "armour" part alone hands a town over:
    # the panzer, worth more holding the rear town than taking Ostdorf, stays.
    monkeypatch.setattr(ai_armour, "HANDOVER_FAR", False)
    game = _rear_handover_game()
    assert _played(game, _ai(WITH | {"midgame"})) == [
        Move(("ge-inf-2",), ("0401", "0501", "0601", "0702")), EndPhase()]
    assert (game.state.units["ge-1pz-1"].hex, game.state.control["0805"]) == ("0202", "soviet")
