"""The German's move scoring reads a hex beside its supply line in a Soviet zone as supplied, as the
unit ending there opens its own hex (8.25; ``Ctx.german_line``, issue 34)."""

from __future__ import annotations

import pytest

from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai as kiev_ai
from kiev_tui.games.spi_kiev.ai import Ctx, KievAI
from kiev_tui.games.spi_kiev.common import GERMAN
from kiev_tui.games.spi_kiev.supply import supply_links

from conftest import MINI, position


def _ctx(gd: str = "0204", pz2: str = "0206") -> Ctx:
    """A Soviet rifle (defence 5) at 0407, German units west of it (the panzers attack 6 each, the
    motorized unit 2); the German line comes from 0105."""
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0205", "ge-2pz-1": pz2, "ge-gd": gd,
                                            "so-rifle-1": "0407", "ge-inf-1": "0505", "ge-inf-2": "0202",
                                            "ge-inf-3": "0805"},
                    player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german", "0202": "german", "0805": "german"})
    game.touch()
    ai = KievAI("german", "strong", seed=1)
    return Ctx(ai, game, game.rules.position(game))


def _opened(ctx: Ctx) -> list[str]:
    """Hexes the flood does not reach that a unit ending there would still be supplied in."""
    line = ctx.sup.lines[GERMAN]
    return sorted(str(h) for h in ctx.gmap.hexes() if ctx.german_line(h) and not line.reaches(h))


def test_the_hexes_beside_the_soviet_stack_are_opened_by_the_unit_ending_there() -> None:
    ctx = _ctx()
    assert _opened(ctx) == ["0307", "0308", "0406", "0408", "0507", "0508"]
    assert ctx.german_line(Hex.parse("0407")) is False  # the Soviet stack's own hex
    assert ctx.german_line(Hex.parse("0306")) is True  # reached by the flood


def test_a_soviet_stack_beside_the_line_stays_shut() -> None:
    ctx = _ctx(gd="0308")  # a German unit beside the rifle: its hex is on the line
    assert ctx.sup.lines[GERMAN].reaches(Hex.parse("0308"))
    assert ctx.german_line(Hex.parse("0407")) is False


def test_a_foot_unit_is_scored_by_the_flood_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # FOOT_OPENS off (measured: foot units sent into the line raised the German's margin a lot)
    assert round(_ctx().score("ge-inf-2", Hex.parse("0307"), ()), 4) == round(0.1428 - kiev_ai.W_SUPPLY, 4)
    monkeypatch.setattr(kiev_ai, "FOOT_OPENS", True)
    assert round(_ctx().score("ge-inf-2", Hex.parse("0307"), ()), 4) == 0.1428
    monkeypatch.setattr(kiev_ai, "GERMAN_OPENS", False)
    ctx = _ctx()
    assert _opened(ctx) == []
    assert round(ctx.score("ge-inf-2", Hex.parse("0307"), ()), 4) == round(0.1428 - kiev_ai.W_SUPPLY, 4)


def test_for_armour_only_where_it_sets_up_a_good_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    # alone beside the rifle a panzer gets 6 to 5: it would stand there held (8.23), so no supply
    assert round(_ctx().score("ge-1pz-1", Hex.parse("0406"), ()), 4) == round(0.1428 - kiev_ai.W_SUPPLY, 4)
    # with the other panzer and the motorized unit beside the rifle already: 14 to 5
    ctx = _ctx(gd="0307", pz2="0308")
    assert round(ctx.score("ge-1pz-1", Hex.parse("0406"), ()), 4) == 1.0028  # supplied, and the setup's worth
    monkeypatch.setattr(kiev_ai, "ARMOUR_SETS_UP", False)
    assert round(_ctx().score("ge-1pz-1", Hex.parse("0406"), ()), 4) == 0.1428
    monkeypatch.setattr(kiev_ai, "GERMAN_OPENS", False)
    ctx = _ctx(gd="0307", pz2="0308")
    assert round(ctx.score("ge-1pz-1", Hex.parse("0406"), ()), 4) == round(1.0028 - kiev_ai.W_SUPPLY, 4)


def test_a_swamp_beside_it_does_not_pass_the_line_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # 12.11: 0307's reached neighbours (0306, 0207, 0206) made swamps end the line there
    monkeypatch.setattr(kiev_ai, "swamp_hexes", lambda gmap: frozenset(Hex.parse(x) for x in ("0306", "0207", "0206")))
    ctx = _ctx()
    assert "0307" not in _opened(ctx)
    assert _opened(ctx) == ["0308", "0406", "0408", "0507", "0508"]


def test_an_unbridged_river_is_crossed_only_at_a_german_city(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _ctx()
    real = supply_links(ctx.gmap)
    into, reached = Hex.parse("0307"), Hex.parse("0306")
    # every link into 0307 and 0306 made an unbridged river crossing between city hexes 0306 and 0307 (10.15)
    links = {h: [(n, ("0306", "0307") if n in (into, reached) else c) for n, c in lst] for h, lst in real.items()}
    monkeypatch.setattr(kiev_ai, "supply_links", lambda gmap: links)
    ctx = _ctx()
    assert ctx.german_line(into) is False
    assert ctx.german_line(reached) is True  # the flood (which crosses no such river here) reaches it
    ctx = _ctx()
    ctx.control = dict(ctx.control, **{"0306": GERMAN})
    assert ctx.german_line(into) is True
