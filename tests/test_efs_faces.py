"""Kiev to Rostov (Battle of Sumy) plays with and without its face package.  Without it (the
registry giving nothing for ``efs_ktr``) the generic plain mode (``choose``) and the generic Textual
face (``C``) each play a whole game-turn: an interdiction, an attack declared by each side and
made, every prompt of the chain answered from its options.  Their lists come from the rules'
``legal`` (ui/text.py ``choices``), with no code of this game.  With the face, plain mode plays a
game-turn by ``declare``, ``attack``, ``interdict`` (no ``do``) and never imports Textual."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from kiev_tui.engine import registry
from kiev_tui.engine.game import Game
from kiev_tui.games.efs_ktr.face.plain import EfsPlain
from kiev_tui.plain.face import DEFAULT, face_for
from kiev_tui.plain.session import PlainSession
from kiev_tui.ui.adapter import DefaultAdapter
from kiev_tui.ui.app import build_app
from kiev_tui.ui.dialogs import HandoffScreen

from tests.ui.efs_drive import plain_game_turn, ui_game_turn
from tests.ui.helpers import game_screen, keys, screen_text

GAME = "efs_ktr"
SCENARIO = "efs_ktr/sumy"
#: Every prompt of the chain a declared attack with air over it asks (17.21 to 16.5).
CHAIN = {"air_mission:17.21", "reveal_air:17.31", "set_order:14.31", "attacker_order:15.58",
         "reveal_order:15.59"}


@pytest.fixture
def no_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as if games/efs_ktr/face/ did not exist."""
    adapter, plain = registry.get_adapter, registry.get_plain
    monkeypatch.setattr(registry, "get_adapter", lambda name: None if name == GAME else adapter(name))
    monkeypatch.setattr(registry, "get_plain", lambda name: None if name == GAME else plain(name))


def _check_turn(game: Game, played: Any) -> None:
    assert game.state.turn == 2 and not game.state.over
    seen = {(p, ph) for _, p, ph in played.phases}
    assert {("axis", "movement"), ("soviet", "motorized"), ("soviet", "movement")} <= seen
    assert played.moved and played.handoffs >= 2
    assert played.declared == ["1506", "1407"]  # the Axis in its movement phase, the Soviet in its motorized
    assert played.attacks == len(played.declared)
    assert played.interdicted == 1
    assert CHAIN <= set(played.prompts), played.prompts
    kinds = {a.kind for a in game.log}
    assert {"move", "declare", "attack", "interdict", "air_mission", "set_order", "end_phase"} <= kinds


def test_generic_plain_face_plays_a_game_turn(no_face: None) -> None:
    game = Game.new(SCENARIO, seed=7)
    assert registry.get_plain(GAME) is None and face_for(game) is DEFAULT
    session = PlainSession(game, 100, pause=True)
    played, shown = plain_game_turn(session, face=False)
    _check_turn(game, played)
    # the generic list names the units, as the map's inspector does
    assert "  1. declare hex=1506 units=20/10M motorized III" in shown


def test_face_plain_plays_a_game_turn_without_do() -> None:
    game = Game.new(SCENARIO, seed=7)
    session = PlainSession(game, 100, pause=True)
    assert isinstance(session.face, EfsPlain)
    played, shown = plain_game_turn(session, face=True)
    _check_turn(game, played)


def test_plain_prompt_uses_the_game_turn_numbers_of_sumy() -> None:
    """Sumy's first turn is Game-turn 50 (PB 10.41): the plain prompt says so, as the tracker and
    the log do, rather than "T1"."""
    game = Game.new(SCENARIO, seed=7)
    session = PlainSession(game, 100, pause=True)
    while game.state.phase != "movement":
        session.handle("end")
        if session.handing_over:
            session.release()
    assert session.prompt() == "Game-turn 50 Axis movement> "


def test_face_plain_lists_and_names_the_choices() -> None:
    game = Game.new(SCENARIO, seed=7)
    session = PlainSession(game, 100, pause=True)
    while game.state.phase != "movement":
        session.handle("end")
        if session.handing_over:
            session.release()
    listed = session.handle("declare")
    assert listed[0] == "Allowed now ('declare [N|HEX]'):"
    assert listed[1].startswith("  1. Declare an attack on 1506 by ") and listed[1].endswith("(12.35)")
    assert session.handle("declare 9999") == ["Nothing allowed about 9999 now ('declare' alone lists what is)."]
    session.handle("declare 1506")
    assert game.log[-1].kind == "declare" and game.log[-1].hex == "1506"  # type: ignore[attr-defined]
    assert "Markers: Declared Attack (12.35)" in session.handle("look 1506")


def test_face_plain_never_imports_textual() -> None:
    code = ("import sys\n"
            "from kiev_tui.engine.game import Game\n"
            "from kiev_tui.plain.session import PlainSession\n"
            "from tests.efs_play import plain_game_turn\n"
            "s = PlainSession(Game.new('efs_ktr/sumy', seed=3), 100, pause=True)\n"
            "played, _ = plain_game_turn(s)\n"
            "assert type(s.face).__name__ == 'EfsPlain' and s.game.state.turn == 2 and played.attacks\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


async def test_generic_textual_face_plays_a_game_turn(no_face: None) -> None:
    game = Game.new(SCENARIO, seed=7)
    app = build_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert type(game_screen(app).adapter) is DefaultAdapter
        played = await ui_game_turn(pilot, game, face=False)
        _check_turn(game, played)
        # the hand-over and the generic tracker count in the game's own game-turns (PB 10.4)
        assert isinstance(app.screen, HandoffScreen) and app.screen.player == "axis"
        assert "Game-turn 51: hand the keyboard to the AXIS player." in screen_text(app)
        await keys(pilot, "space")
        assert "Game-turn 51 (turn 2 of 4)" in screen_text(app)


def test_generic_choices_list_what_no_other_key_plays() -> None:
    """ui/text.py ``choices`` (the generic C and ``choose``): a declare but none of the 784 moves on
    the map, the Soviet arrivals (no map hex to select them on), a waiting prompt's own options."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.games.efs_ktr.actions import Declare, Interdict, Move
    from kiev_tui.ui.text import choices

    g = Game.new(SCENARIO, seed=7)
    while g.state.phase != "air_interdiction":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Interdict("1503"), side="axis")
    assert g.rules.prompt(g) is not None and choices(g, "soviet") == []  # only the side that acts
    assert [label for label, _ in choices(g, "axis")][:2] == ["place ax-dummy-1", "place ax-he111"]
    while g.state.phase != "movement":  # the mission's answers, each from the generic list
        g.apply(choices(g, g.actor)[0][1] if g.rules.prompt(g) is not None else EndPhase(), side=g.actor)
    assert choices(g, "axis") == [("declare hex=1506 units=ax-20mot-10m", Declare("1506", ("ax-20mot-10m",)))]
    while (g.state.player, g.state.phase) != ("soviet", "movement"):
        g.apply(EndPhase(), side=g.actor)
    listed = choices(g, "soviet")
    arriving = ("so-6-1gdm", "so-12-1gdm", "so-175-1gdm", "so-2-4gdr")
    assert len(listed) == 9 and all(isinstance(a, Move) and a.units == arriving for _, a in listed)
    assert listed[0] == ("move units=so-6-1gdm, so-12-1gdm, so-175-1gdm, so-2-4gdr path=2202",
                         Move(arriving, ("2202",)))
