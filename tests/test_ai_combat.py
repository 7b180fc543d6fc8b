"""The computer opponent's combat choices (issue 34): the last combat phase counted in points, the
enemy's retreat steered out of supply, a leader kept with the units that advance."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.dice import FixedDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.actions import Advance, Attack, ChooseRetreat, Retreat
from kiev_tui.games.spi_kiev.ai import KievAI

from conftest import MINI, position


def _testgrad(turn: int) -> Game:
    # Two German infantry divisions against a 4-5 rifle in Testgrad (0505, 25 VP): 1-1.
    game = position(Game.new(MINI, seed=5), {"so-rifle-2": "0505", "ge-inf-1": "0405", "ge-inf-2": "0404",
                                            "so-hq-agsw": "1003"},
                    player="german", phase="combat", turn=turn, reinforcements=False)
    assert game.rules.preview(game, ("ge-inf-1", "ge-inf-2"), ("0505",)).column == "1-1"
    return game


def test_the_last_combat_phase_goes_for_the_city_at_1_to_1() -> None:
    # Turn 3 of 3 and the German moves last: Testgrad taken now is 25 VP more and 25 less for the
    # Soviet, kept for good, while a step lost costs nothing at the count.  Earlier the same 1-1
    # costs steps the divisions still need, and the city would be retaken.
    act = KievAI("german", "strong", seed=1).decide(_testgrad(3))
    assert act == Attack(("ge-inf-1", "ge-inf-2"), ("0505",))
    assert KievAI("german", "strong", seed=1).decide(_testgrad(2)) == EndPhase()


def test_the_last_combat_phase_values_losses_in_points() -> None:
    game = _testgrad(3)
    ai = KievAI("german", "strong", seed=1)
    view = game.rules.position(game)
    assert ai.last_word(game) and not KievAI("german", "strong", seed=1).last_word(_testgrad(2))
    # the front HQ: 10, and 1 for the rifle in Testgrad that only it supplies (11.34, 24.3)
    assert [ai.vp_worth(view, u) for u in ("so-rifle-2", "so-hq-agsw", "ge-inf-1", "ge-1pz-1")] == [1.0, 11.0, 5.0, 8.0]
    # The last regiment of 1 Pz scores the whole division (25, 24.2) less what its two motorized
    # regiments already scored alone (5 each).
    for u in ("ge-1pz-2", "ge-1pz-3"):
        game.state.units[u].status = "eliminated"
    game.touch()
    assert ai.vp_worth(game.rules.position(game), "ge-1pz-1") == 25.0 - 5.0 - 5.0


def test_an_hq_lost_in_the_last_phase_costs_the_units_only_it_supplies() -> None:
    # 11.34, 24.3: the rifle in 0405 is in reach of so-hq-army only; in 0505 so-hq-agsw reaches it too.
    ai = KievAI("german", "strong", seed=1)
    for rifle, worth in (("0405", 2.0), ("0505", 1.0)):
        game = position(Game.new(MINI, seed=5), {"so-rifle-2": rifle, "so-hq-army": "0706", "so-hq-agsw": "1003",
                                                "ge-inf-1": "0202"}, player="german", phase="combat", turn=3,
                        reinforcements=False)
        view = game.rules.position(game)
        assert (ai.vp_worth(view, "so-hq-army"), ai.vp_worth(view, "so-hq-agsw")) == (worth, 10.0)


def _beaten_rifle() -> Game:
    # 3-1 and a die of 1: -/2, and the rifle in 0405 chooses to retreat; the German picks the way.
    # so-hq-army (0807) commands 0407 but not 0307.
    game = position(Game.new(MINI, seed=5, dice=FixedDice([1])),
                    {"so-rifle-3": "0405", "ge-inf-1": "0305", "ge-leader": "0305", "so-hq-agsw": "1003",
                     "so-hq-army": "0807"}, player="german", phase="combat", turn=2, reinforcements=False)
    game.apply(Attack(("ge-inf-1", "ge-leader"), ("0405",)))
    p = game.state.pending
    assert p is not None and (p["kind"], p["steps"], p["hexes"]) == ("loss_or_retreat", 2, 2)
    game.apply(ChooseRetreat(), side="soviet")
    return game


def test_the_beaten_rifle_is_retreated_out_of_its_hqs_reach() -> None:
    game = _beaten_rifle()
    sup = game.rules.position(game).supply
    assert [any(ok for _, ok in sup.command_at(Hex.parse(h))) for h in ("0407", "0307")] == [True, False]
    act = KievAI("german", "strong", seed=1).decide(game)
    assert act == Retreat(("so-rifle-3",), (("0406", "0307"),))
    game.apply(act)
    assert not game.rules.supply(game).status("so-rifle-3").in_supply


def test_the_leader_goes_along_with_the_advance_that_would_leave_it_alone() -> None:
    game = _beaten_rifle()
    game.apply(KievAI("german", "strong", seed=1).decide(game))
    p = game.state.pending
    assert p is not None and p["kind"] == "advance"
    act = KievAI("german", "strong", seed=1).decide(game)
    assert act == Advance(("ge-inf-1", "ge-leader"), ("0405", "0406"))
