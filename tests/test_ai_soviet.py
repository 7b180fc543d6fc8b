"""The strong Soviet's counter-attacks set up (ai_soviet.py, the "counter" part of Level.parts):
a unit ending next to a German stack it can hit at good odds, and hexes in a German zone of
control read as commanded once a Soviet unit stands in them (8.25, 11.31)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_soviet
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.ai import LEVELS, Ctx, KievAI

from conftest import MINI, position

WITH = LEVELS["strong"].parts
WITHOUT = WITH - {ai_soviet.PART}


def _ai(parts: frozenset[str]) -> KievAI:
    ai = KievAI("soviet", "strong", seed=1)
    ai.level = replace(ai.level, parts=parts)
    return ai


def _game(units: dict[str, str] | None = None) -> Game:
    """A lone panzer (6-2) holds Eastville (0805, 5 VP, German); Testgrad (0505) keeps three
    rifles, a tank (5-4) stands at 0806 next to the panzer, the front HQ at 1005 and a rifle (6-8)
    at 0902 may come up.  Every Soviet town is held, so no capture pulls the rifle elsewhere."""
    placed = {"ge-1pz-1": "0805", "so-rifle-1": "0505", "so-rifle-2": "0505", "so-rifle-3": "0505",
              "so-tank-1": "0806", "so-rifle-4": "0902", "so-hq-agsw": "1005"}
    placed.update(units or {})
    game = position(Game.new(MINI, seed=5), placed, player="soviet", phase="movement", turn=3,
                    reinforcements=False)
    game.state.control.update({"0202": "soviet", "0505": "soviet", "0805": "german"})
    game.touch()
    return game


def _ctx(game: Game, parts: frozenset[str]) -> tuple[KievAI, Ctx]:
    ai = _ai(parts)
    return ai, Ctx(ai, game, game.rules.position(game))


def test_strong_plays_by_the_counter_part() -> None:
    assert ai_soviet.PART in LEVELS["strong"].parts and ai_soviet.PART not in LEVELS["easy"].parts
    assert ai_soviet.applies(_ai(WITH)) and not ai_soviet.applies(_ai(WITHOUT))
    assert not ai_soviet.applies(KievAI("german", "strong", seed=1))  # a Soviet part only


def test_the_rifle_comes_up_beside_the_lone_panzer() -> None:
    # From 1008 the rifle ends at 0706, beside the panzer in Eastville, a hex read as out of
    # command until it stands there; without the part it goes to 0803 by Testgrad instead.
    game = _game({"so-rifle-4": "1008"})
    ai, ctx = _ctx(game, WITH)
    gain, act = ai._best_move(game, ctx, "so-rifle-4")
    assert act == Move(("so-rifle-4",), ("0908", "0807", "0707", "0706")) and round(gain, 3) == 4.291
    ai, ctx = _ctx(game, WITHOUT)
    gain, act = ai._best_move(game, ctx, "so-rifle-4")
    assert act == Move(("so-rifle-4",), ("1007", "1006", "1005", "1004", "0904", "0803")) and round(gain, 3) == 3.678


def test_the_term_gives_part_of_the_command_penalty_back_only_for_a_hit() -> None:
    game = _game()
    _, ctx = _ctx(game, WITH)
    h = Hex.parse("0804")  # read as out of command, commanded once entered
    assert round(ai_soviet.term(ctx, "so-rifle-4", h, False), 6) == round(2.4 + ai_soviet.W_ENTERED, 6) == 3.15
    assert round(ai_soviet.term(ctx, "so-rifle-4", h, True), 6) == 2.4  # commanded already: nothing to give back
    # the 1-2 rifle alone at 1 to 2 sets up nothing, so the hex keeps its whole penalty
    lone = _game({"so-tank-1": "0101"})
    _, ctx = _ctx(lone, WITH)
    assert ai_soviet.term(ctx, "so-rifle-3", h, False) == 0.0
    _, off = _ctx(game, WITHOUT)
    assert ai_soviet.term(off, "so-rifle-4", h, False) == 0.0


def test_the_score_adds_the_term_next_to_the_enemy() -> None:
    game = _game()
    h = Hex.parse("0804")
    with_part = _ctx(game, WITH)[1].score("so-rifle-4", h, ("0903", "0803", "0804"))
    without = _ctx(game, WITHOUT)[1].score("so-rifle-4", h, ("0903", "0803", "0804"))
    assert round(with_part - without, 6) == 3.15


def test_a_hit_at_full_odds_is_worth_its_share_of_the_prize() -> None:
    game = _game()
    _, ctx = _ctx(game, WITH)
    h = Hex.parse("0804")  # next to Eastville, in the panzer's zone of control
    assert ai_soviet.defence(ctx, Hex.parse("0805")) == 2.0  # 6-2 in a clear town, in supply
    assert ai_soviet.prize(ctx, Hex.parse("0805")) == 16.0  # a panzer regiment's 8 + 3, and 5 VP
    # (6 + 5) to 2 is past 4 to 1: the whole 0.15 per VP of 16
    assert round(ai_soviet.setup(ctx, "so-rifle-4", h, True), 6) == 2.4
    assert ai_soviet.setup(ctx, "so-rifle-4", h, False) == 0.0  # out of command it may not attack (11.33)
    assert ai_soviet.setup(ctx, "so-rifle-4", Hex.parse("0703"), True) == 0.0  # not next to a German
    _, off = _ctx(game, WITHOUT)
    assert ai_soviet.setup(off, "so-rifle-4", h, True) == 0.0


def test_a_unit_next_to_the_stack_counts_its_attack_once() -> None:
    # The 1-2 rifle at 0804 and the 2-3 cavalry at 0806 cut the panzer off (12.1): its 2 is halved
    # to 1, and (1 + 2) to 1 is 3 to 1, (3 - 1.5) / 2.5 of the whole whether the rifle stays or moves.
    game = _game({"so-rifle-3": "0804", "so-tank-1": "0101", "so-cav-1": "0806"})
    _, ctx = _ctx(game, WITH)
    assert not ctx.sup.status("ge-1pz-1").in_supply
    assert ai_soviet.defence(ctx, Hex.parse("0805")) == 1.0
    staying = ai_soviet.setup(ctx, "so-rifle-3", Hex.parse("0804"), True)
    moving = ai_soviet.setup(ctx, "so-rifle-3", Hex.parse("0905"), True)
    assert round(staying, 6) == round(moving, 6) == round(0.15 * 0.6 * 16, 6) == 1.44


def test_poor_odds_gain_nothing() -> None:
    game = _game({"so-tank-1": "0101"})  # the tank gone: the 1-2 rifle alone is at 1 to 2
    _, ctx = _ctx(game, WITH)
    assert ai_soviet.setup(ctx, "so-rifle-3", Hex.parse("0804"), True) == 0.0


def test_a_hex_in_a_german_zone_reads_as_commanded_once_entered() -> None:
    game = _game()
    h = Hex.parse("0804")
    assert game.rules.position(game).supply.command.get(h) is None  # no line enters it now
    _, ctx = _ctx(game, WITH)
    assert ai_soviet.commanded_on_entry(ctx, h) is True
    assert ctx._hex(h)[4] is False  # the movement score's own reading is left as it was
    _, off = _ctx(game, WITHOUT)
    assert ai_soviet.commanded_on_entry(off, h) is False
    # the panzer's own hex is never entered, and a hex no zone shuts is read as it stands
    assert ai_soviet.commanded_on_entry(ctx, Hex.parse("0805")) is False
    assert ai_soviet.commanded_on_entry(ctx, Hex.parse("0101")) is False


def test_an_hq_out_of_reach_commands_nothing_there() -> None:
    game = _game({"so-hq-agsw": "1010"})  # too far from 0804 for its radius
    _, ctx = _ctx(game, WITH)
    assert ai_soviet.commanded_on_entry(ctx, Hex.parse("0804")) is False


def test_commanded_on_entry_agrees_with_the_rules_once_the_unit_is_there() -> None:
    # The front HQ (radius 5) at 0302 is five hexes from 0804, at 0202 six: the rules' own status
    # of a rifle put at 0804 says the same as the part's reading of the empty hex.
    for hq, expected in (("0302", True), ("0202", False)):
        game = _game({"so-hq-agsw": hq})
        _, ctx = _ctx(game, WITH)
        assert ai_soviet.commanded_on_entry(ctx, Hex.parse("0804")) is expected
        there = _game({"so-hq-agsw": hq, "so-rifle-4": "0804"})
        assert there.rules.position(there).supply.status("so-rifle-4").in_command is expected


def test_an_hq_out_of_supply_commands_no_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    _, ctx = _ctx(game, WITH)
    monkeypatch.setattr(ctx.sup.lines["soviet"], "reaches", lambda h: False)  # 11.33: a supplied HQ only
    assert ai_soviet.commanded_on_entry(ctx, Hex.parse("0804")) is False


def test_no_setup_across_an_impassable_hexside(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    _, ctx = _ctx(game, WITH)
    shut = {(Hex.parse("0804"), Hex.parse("0805"))}
    monkeypatch.setattr(ctx.gmap, "is_impassable_side", lambda a, b: (a, b) in shut or (b, a) in shut)
    assert ai_soviet.setup(ctx, "so-rifle-4", Hex.parse("0804"), True) == 0.0
    assert round(ai_soviet.setup(ctx, "so-rifle-4", Hex.parse("0905"), True), 6) == 2.4  # another side
