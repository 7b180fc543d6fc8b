"""The strong German's pockets closed in the middle of the game (ai_pocket.py, the "pocket" part)."""

from __future__ import annotations

from dataclasses import replace

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_pocket
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.ai import LEVELS, Ctx, KievAI
from kiev_tui.games.spi_kiev.common import SOVIET

from conftest import MINI, position

SOVIETS = ["so-cav-1", "so-rifle-1", "so-rifle-2", "so-rifle-3", "so-rifle-4"]


def _pocket(phase: str = "movement", turn: int = 2) -> Game:
    """Turn 2 of 3 on the mini map: five Soviet units and their army HQ live on the sources at
    1005 and 1007 (19.84); a German zone of control in 1006 shuts both.  The German infantry
    division at 0904 can get there; the towns are German and garrisoned."""
    game = position(Game.new(MINI, seed=5), {"ge-inf-1": "0904", "ge-inf-2": "0505", "ge-inf-3": "0805",
                                            "so-hq-army": "0705", "so-rifle-1": "0704", "so-rifle-2": "0706",
                                            "so-rifle-3": "0604", "so-rifle-4": "0603", "so-cav-1": "0707"},
                    player="german", phase=phase, turn=turn, reinforcements=False)
    game.state.control.update({"0505": "german", "0805": "german"})
    game.touch()
    return game


def _cut_off(game: Game) -> list[str]:
    view = game.rules.position(game)
    return sorted(u for u, st in view.supply.all_status(SOVIET).items()
                  if not st.in_supply and not view.is_hq_like(u))


def _ai(pocket: bool = True) -> KievAI:
    ai = KievAI("german", "strong", seed=1)
    if not pocket:
        ai.level = replace(ai.level, parts=ai.level.parts - {ai_pocket.PART})
    return ai


def test_strong_plays_by_the_pocket_part() -> None:
    assert ai_pocket.PART in LEVELS["strong"].parts and ai_pocket.PART not in LEVELS["easy"].parts


def test_the_bit_sets_find_the_hex_that_cuts_the_five_units_off() -> None:
    game = _pocket()
    ai = _ai()
    ctx = Ctx(ai, game, game.rules.position(game))
    net = ai_pocket.Network(ctx)
    assert [u for u, _, _ in net.units] == ["so-rifle-1", "so-rifle-2", "so-rifle-3", "so-rifle-4", "so-cav-1"]
    # so-rifle-2 and so-rifle-3 stand beside German infantry: attacked at half defence (12.23)
    assert net.cut(net.shut(Hex.parse("1006"))) == (4.5, SOVIETS)
    assert net.cut(net.shut(Hex.parse("1005"))) == (0, [])


def test_the_infantry_moves_across_both_sources_and_cuts_the_stacks_off() -> None:
    # Without the part the division closes on the Soviet stacks (0805, the town); with it, it
    # shuts both sources and the five Soviet combat units are out of supply for the German's
    # combat phase that follows: 4.5 VP cut off (as above) less the 2.1 VP its usual move to the
    # town scores more.
    game = _pocket()
    assert _cut_off(game) == []
    ai = _ai()
    act = ai.decide(game)
    assert act == Move(("ge-inf-1",), ("1004", "1005", "1006"))
    assert ai._why == ("cuts the supply of 5 Soviet unit(s) (so-cav-1, so-rifle-1, so-rifle-2, so-rifle-3, ...):"
                       " +2.4 VP over the usual moves (11.34, 12.23)")
    game.apply(act, side="german")
    assert _cut_off(game) == SOVIETS
    assert ai.decide(game) == EndPhase()
    other = _pocket()
    assert _ai(pocket=False).decide(other) == Move(("ge-inf-1",), ("0905", "0805"))


def test_the_pocket_part_leaves_the_last_turn_to_the_endgame_part() -> None:
    ai = _ai()
    assert ai_pocket.applies(ai, _pocket())
    assert ai_pocket.applies(ai, _pocket(phase="mechanized"))
    assert not ai_pocket.applies(ai, _pocket(turn=3))
    assert not ai_pocket.applies(_ai(pocket=False), _pocket())
    assert not ai_pocket.applies(KievAI("soviet", "strong", seed=1), _pocket())
