"""Odds typed (issue 30): Kiev's preview gives every modifier as the engine's typed Modifier."""

from __future__ import annotations

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.engine.rules import Modifier, OddsPreview
from kiev_tui.games.spi_kiev.face.combat_ui import net_lines
from kiev_tui.plain.session import modifier_lines

from tests.conftest import position


def battle(game: Game, placements: dict[str, str], phase: str = "combat", player: str = "german") -> Game:
    return position(game, placements, player=player, phase=phase, turn=2, reinforcements=False)


def test_10_14_a_river_multiplier_is_a_typed_factor_on_the_defender(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0504", "so-rifle-1": "0604", "so-hq-army": "0705"})
    p = mini.rules.preview(mini, ("ge-1pz-1",), ("0604",))
    assert isinstance(p, OddsPreview)
    assert p.modifiers == (Modifier("10.14", "attacked only across a major river: defence tripled", factor=3.0,
                                    unit="so-rifle-1"),)
    assert (p.attack, p.defense, p.column, p.column_shift, p.die_modifier) == (6, 15, "1-3", 0, 0)


def test_12_23_21_0_out_of_supply_halves_and_a_leaders_half_rating_is_text_only(mini: Game) -> None:
    battle(mini, {"so-rifle-1": "0804", "so-hq-army": "0803", "so-rifle-2": "0105",
                  "ge-1pz-2": "0905", "ge-leader": "0904"}, player="soviet")
    mini.state.units["ge-1pz-2"].step = 1
    p = mini.rules.preview(mini, ("so-rifle-1",), ("0905", "0904"))
    assert p is not None
    # the reduced panzer's 1 halved stays 1 (12.23's floor for a combat unit); the leader's half
    # rating is no combat unit's strength, so only the stack floor of 9.32 holds it
    assert p.modifiers == (Modifier("12.23", "out of supply: halved, but a unit is never worth less than 1",
                                    factor=1.0, unit="ge-1pz-2"),
                           Modifier("21.0", "half its rating 2, rounded down: 1", unit="ge-leader"),
                           Modifier("12.23", "out of supply: halved", factor=0.5, unit="ge-leader"))


def test_6_0_the_overrun_halving_is_a_factor_on_the_attack_total(mini: Game) -> None:
    battle(mini, {"ge-1pz-1": "0704", "ge-1pz-2": "0705", "so-rifle-3": "0804"}, phase="movement")
    p = mini.rules.preview(mini, ("ge-1pz-1",), ("0804",))
    assert p is not None and (p.attack, p.defense, p.column) == (3, 1, "3-1")
    assert p.modifiers[-1] == Modifier("6.0", "overrun: attack strength halved, fractions dropped", factor=0.5,
                                       unit="attack")


def test_net_shift_and_die_are_the_sums_and_the_faces_print_them() -> None:
    mods = (Modifier("5", "forest", column_shift=-1), Modifier("12.8", "first turn", die_modifier=1),
            Modifier("6", "quality edge", column_shift=2, unit="ge-ak-1"), Modifier("12.23", "halved", factor=0.5))
    p = OddsPreview(Illegal("6", "x"), 4, 2, "2:1", {}, (), mods)
    assert (p.column_shift, p.die_modifier) == (1, 1)
    assert net_lines(p) == ["Column shift: +1 (5, 6)", "Die modifier: +1 (12.8)"]
    assert modifier_lines(p) == ["  [5] forest (-1 column(s))", "  [12.8] first turn (+1 on the die)",
                                 "  [6] ge-ak-1: quality edge (+2 column(s))", "  [12.23] halved (x0.5)",
                                 "Net column shift: +1", "Net die modifier: +1"]
    assert net_lines(OddsPreview(None, 1, 1, "1:1")) == []
