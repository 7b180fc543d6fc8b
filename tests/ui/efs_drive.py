"""The Textual half of tests/efs_play.py: one game-turn of the Battle of Sumy by keys alone (a move
in each movement phase, C to interdict, declare and attack, every prompt answered in its dialog,
every hand-over passed, P to end each phase).  Without the face (``face=False``) the same turn is
played through the generic C list (ui/text.py ``choices``: what ``legal`` allows besides moves and
phase ends), whose lines are the actions' own words ("declare hex=1506 units=...")."""

from __future__ import annotations

from textual.pilot import Pilot

from kiev_tui.engine.game import Game
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, PickScreen, PromptScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.efs_play import DECLARING, MOVING, Played, _wants, legal_of, move_target, plain_game_turn
from tests.ui.helpers import goto, keys

__all__ = ["plain_game_turn", "ui_game_turn"]


async def ui_game_turn(pilot: Pilot, game: Game, limit: int = 800, face: bool = True) -> Played:
    """Play from now until the turn marker moves on (or the game ends), by keys alone."""
    app = pilot.app
    played = Played()
    start = game.state.turn
    acted: set[tuple[int, str, str, str]] = set()
    for _ in range(limit):
        st = game.state
        if st.turn != start or st.over:
            return played
        screen = app.screen
        if isinstance(screen, HandoffScreen):
            played.handoffs += 1
            played.handed_to.append(screen.player)
            assert game.actor == screen.player
            await keys(pilot, "space")
            continue
        if isinstance(screen, PromptScreen):
            played.prompts.append(f"{screen.prompt.kind}:{screen.prompt.case}")
            await keys(pilot, "1", "enter")
            continue
        if isinstance(screen, ConfirmScreen):
            await keys(pilot, "y")
            continue
        if isinstance(screen, PickScreen):
            await keys(pilot, "enter")
            continue
        assert isinstance(screen, GameScreen), f"unexpected screen {type(screen).__name__}"
        if st.pending is not None:
            await keys(pilot, "p")  # the waiting answer: its player takes the keyboard first
            continue
        if st.phase == "air_interdiction" and legal_of(game, "interdict") and _wants(game, acted, "i"):
            before = len(game.log)
            await _pick(pilot, game, "Fly interdiction" if face else "interdict hex=")
            assert len(game.log) == before + 1 and game.log[-1].kind == "interdict"
            played.interdicted += 1
            continue
        if st.phase in MOVING and st.player == game.actor and _wants(game, acted, "m"):
            played.phases.append((st.turn, st.player, st.phase))
            await _move_one(pilot, screen, game, played)
            continue
        if st.phase == DECLARING.get(st.player) and legal_of(game, "declare") and _wants(game, acted, "d"):
            before = len(game.log)
            await _pick(pilot, game, "Declare an attack" if face else "declare hex=")
            assert len(game.log) == before + 1 and game.log[-1].kind == "declare"
            played.declared.append(game.log[-1].hex)  # type: ignore[attr-defined]
            continue
        if st.phase == "combat" and legal_of(game, "attack"):
            before = len(game.log)
            await _pick(pilot, game, "Attack" if face else "attack hex=")
            assert len(game.log) == before + 1 and game.log[-1].kind == "attack"
            played.attacks += 1
            continue
        await keys(pilot, "P")
    raise AssertionError(f"the game-turn did not end in {limit} steps: {game.phase}")


async def _pick(pilot: Pilot, game: Game, starts: str) -> None:
    """C, then the first item whose label starts with ``starts`` (down-arrow to it, Enter)."""
    await keys(pilot, "C")
    screen = pilot.app.screen
    assert isinstance(screen, PickScreen), "C opens the list of what the rules allow"
    labels = [label for label, _ in screen.items]
    n = next(i for i, label in enumerate(labels) if label.startswith(starts))
    await keys(pilot, *(["down"] * n), "enter")


async def _move_one(pilot: Pilot, screen: GameScreen, game: Game, played: Played) -> None:
    grid = game.scenario.map.grid
    for h in screen.adapter.actors(game):
        hid = grid.id(h)
        await goto(pilot, hid)
        await keys(pilot, "enter")
        units = screen.overlay.selected
        if not units:
            continue
        to = move_target(game, units)
        if to is None:
            await keys(pilot, "escape")
            continue
        await goto(pilot, to)
        await keys(pilot, "enter")
        assert game.state.units[units[0]].hex == to, f"{units} did not reach {to}: {screen.message}"
        played.moved.append((units[0], hid, to))
        return
