"""The strong German's middle turns (ai_midgame.py, the "midgame" part of Level.parts): German
towns far behind the front keep a garrison, and empty ones are screened by a zone of control."""

from __future__ import annotations

from dataclasses import replace

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_midgame
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.ai import LEVELS, Ctx, KievAI

from conftest import MINI, ai_played, position

WITHOUT = frozenset({"leader", "hold", "armour"})
WITH = WITHOUT | {ai_midgame.PART}


def _ai(parts: frozenset[str]) -> KievAI:
    ai = KievAI("german", "strong", seed=1)
    ai.level = replace(ai.level, parts=parts)
    return ai


def _rear_game(second_foot: bool = True) -> Game:
    """Westburg (0202, 10 VP) and Testgrad (0505, 25 VP) are German and empty, both more than four
    hexes from the one Soviet combat unit (a rifle at 0209); Eastville (0805, 5 VP) is Soviet and
    empty.  Two German foot units stand between the towns."""
    units = {"ge-inf-2": "0204", "so-rifle-4": "0209", "so-hq-agsw": "1003"}
    if second_foot:
        units["ge-inf-3"] = "0303"
    game = position(Game.new(MINI, seed=5), units, player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german"})
    game.touch()
    return game


def _played(game: Game, ai: KievAI) -> list[Action]:
    return ai_played(game, ai)


def test_strong_plays_by_the_midgame_part() -> None:
    assert ai_midgame.PART in LEVELS["strong"].parts and ai_midgame.PART not in LEVELS["easy"].parts


def test_towns_far_from_the_soviet_are_garrisoned() -> None:
    game = _rear_game()
    assert _played(game, _ai(WITH)) == [Move(("ge-inf-2",), ("0304", "0404", "0505")),
                                        Move(("ge-inf-3",), ("0202",)), EndPhase()]
    assert (game.state.units["ge-inf-2"].hex, game.state.units["ge-inf-3"].hex) == ("0505", "0202")


def test_without_the_part_both_march_east_and_leave_the_towns_empty() -> None:
    game = _rear_game()
    assert _played(game, _ai(WITHOUT)) == [Move(("ge-inf-3",), ("0402", "0502", "0601", "0702")),
                                           Move(("ge-inf-2",), ("0304", "0403", "0503", "0602")), EndPhase()]


def test_a_zone_of_control_over_an_empty_town_is_worth_its_share() -> None:
    game = _rear_game(second_foot=False)
    view = game.rules.position(game)
    with_part, without = _ai(WITH), _ai(WITHOUT)
    h = Hex.parse("0203")  # next to Westburg (10 VP)
    got = Ctx(with_part, game, view).score("ge-inf-2", h, ("0203",))
    base = Ctx(without, game, view).score("ge-inf-2", h, ("0203",))
    assert round(got - base, 6) == ai_midgame.W_SCREEN * 10 == 6.0
    # Testgrad (25 VP) is two hexes off 0203: out of the unit's zone, so nothing for it there.
    assert ai_midgame.screen(Ctx(with_part, game, view), "ge-inf-2", Hex.parse("0205")) == 0.0


def test_no_screen_for_a_town_another_stack_already_covers() -> None:
    game = _rear_game()  # ge-inf-3 at 0303 is next to Westburg
    view = game.rules.position(game)
    ai = _ai(WITH)
    assert ai_midgame.screen(Ctx(ai, game, view), "ge-inf-2", Hex.parse("0203")) == 0.0
    assert ai_midgame.screen(Ctx(_ai(WITHOUT), game, view), "ge-inf-2", Hex.parse("0203")) == 0.0
