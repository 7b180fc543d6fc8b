"""Drivers that play Barbarossa 1941 by a player's means only: keys in the Textual UI, typed
commands in plain mode.  Each plays one whole game-turn: a move by the phasing side in each
movement phase, one attack in each combat phase (picked from the rules' list, ``C`` /
``choose``), every prompt answered from its options, every hand-over taken, every phase ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.pilot import Pilot

from kiev_tui.engine.game import Game
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, PickScreen, PromptScreen
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import goto, keys

MOVING = ("movement", "exploitation", "reaction")


@dataclass
class Played:
    """What a driven game-turn did, for the test to check."""

    phases: list[tuple[int, str, str]] = field(default_factory=list)  # (turn, segment owner, phase) seen
    moved: list[tuple[str, str, str]] = field(default_factory=list)  # (unit, from, to)
    attacks: int = 0
    prompts: list[str] = field(default_factory=list)  # each prompt's kind:case as answered
    handoffs: int = 0
    handed_to: list[str] = field(default_factory=list)  # the player each hot-seat hand-over screen named


def move_target(game: Game, units: tuple[str, ...]) -> str | None:
    """A hex the rules say the stack may reach (the cheapest, then the lowest id), or None."""
    grid = game.scenario.map.grid
    here = game.state.units[units[0]].hex
    ok = [(r.cost, grid.id(h)) for h, r in game.rules.reachable(game, units, explain=False).items()
          if r.ok and grid.id(h) != here]
    return min(ok)[1] if ok else None


async def ui_game_turn(pilot: Pilot, game: Game, limit: int = 600) -> Played:
    """Play from now until the turn marker moves on (or the game ends), by keys alone."""
    app = pilot.app
    played = Played()
    start = game.state.turn
    acted: set[tuple[int, str, str]] = set()
    for _ in range(limit):
        st = game.state
        if st.turn != start or st.over:
            return played
        screen = app.screen
        if isinstance(screen, HandoffScreen):
            played.handoffs += 1
            played.handed_to.append(screen.player)
            assert game.actor == screen.player  # the screen hides the map until that player sits down
            await keys(pilot, "space")
            continue
        if isinstance(screen, PromptScreen):
            p = screen.prompt
            played.prompts.append(f"{p.kind}:{p.case}")
            await keys(pilot, "1", "enter")
            continue
        if isinstance(screen, (ConfirmScreen, PickScreen)):
            await keys(pilot, "y" if isinstance(screen, ConfirmScreen) else "enter")
            continue
        assert isinstance(screen, GameScreen), f"unexpected screen {type(screen).__name__}"
        here = (st.turn, st.player, st.phase)
        if here not in acted:
            acted.add(here)
            played.phases.append(here)
            if st.phase in MOVING:
                await _move_one(pilot, screen, game, played)
            elif st.phase == "combat" and game.rules.options(game, game.actor):
                before = len(game.log)
                await keys(pilot, "C")
                assert isinstance(app.screen, PickScreen), "C opens the list of attacks"
                await keys(pilot, "enter")
                assert len(game.log) == before + 1 and game.log[-1].kind in ("attack", "air_strike")
                played.attacks += 1
            continue
        await keys(pilot, "P")
    raise AssertionError(f"the game-turn did not end in {limit} steps: {game.phase}")


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


def plain_game_turn(session: Any, limit: int = 600) -> tuple[Played, list[str]]:
    """The same game-turn in plain mode, by typed commands; returns what it did and every line shown."""
    game: Game = session.game
    played = Played()
    shown: list[str] = []
    start = game.state.turn
    acted: set[tuple[int, str, str]] = set()

    def say(line: str) -> list[str]:
        out = session.handle(line)
        shown.extend(out)
        if session.handing_over:
            played.handoffs += 1
            shown.extend(session.release())
        return out

    for _ in range(limit):
        st = game.state
        if st.turn != start or st.over:
            return played, shown
        p = game.rules.prompt(game)
        if p is not None:
            played.prompts.append(f"{p.kind}:{p.case}")
            listed = say("options")
            assert any(line.lstrip().startswith("1.") for line in listed), listed
            say("pick 1")
            continue
        here = (st.turn, st.player, st.phase)
        if here not in acted:
            acted.add(here)
            played.phases.append(here)
            if st.phase in MOVING:
                for uid in game.rules.actable(game):
                    to = move_target(game, (uid,))
                    if to is None:
                        continue
                    frm = str(game.state.units[uid].hex)
                    n = session.face.stack_order(game, [u for u, s in game.state.units.items()
                                                        if s.status == "map" and s.hex == frm]).index(uid) + 1
                    say(f"move {frm}:{n} {to}")
                    assert game.state.units[uid].hex == to, shown[-5:]
                    played.moved.append((uid, frm, to))
                    break
            elif st.phase == "combat" and game.rules.options(game, game.actor):
                listed = say("choose")
                assert listed[0].startswith("Choices"), listed
                before = len(game.log)
                say("choose 1")
                assert len(game.log) == before + 1
                played.attacks += 1
            continue
        before = (st.turn, st.player, st.phase, len(game.log))
        say("end")
        assert (game.state.turn, game.state.player, game.state.phase, len(game.log)) != before, shown[-4:]
    raise AssertionError(f"the game-turn did not end in {limit} commands: {game.phase}")
