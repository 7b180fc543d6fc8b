"""Playing one's part of a game by e-mail in the game's own screens (issue 16): `kiev-tui pbem turn`
without --actions opens the game screen (or plain mode) for the player's own side; the turn file
is written when his part ends, at the first action that draws dice (sent open, not rolled here)
or when the move passes to the other player; quitting before that writes nothing.

Anna plays the Germans, Boris the Soviets, in the mini scenario; the secrets and the game id are
fixed, so the German attack below draws a 3: a 1/1 result, the Soviet answering first.
"""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest
from textual.pilot import Pilot
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.dice import DiceNeeded
from kiev_tui.pbem import cli as pbem_cli
from kiev_tui.pbem import protocol
from kiev_tui.pbem.files import Folder, read_record, read_secret
from kiev_tui.pbem.part import Part
from kiev_tui.pbem.protocol import prepare
from kiev_tui.games.spi_kiev.actions import Attack
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.plain.session import PlainSession
from kiev_tui.ui.app import KievApp, build_app
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen

from tests.conftest import MINI
from tests.ui.helpers import game_screen, goto, keys, screen_text

runner = CliRunner()
SIZE = (120, 40)

BORIS_PLAIN = "enter 1 1005\nenter 1 1007\nmove 0703 0603 0504 0403\nend\nend\n"
ANNA_PLAIN = "move 0203 0202 0303\nmove 0206 0205 0305 0404\nend\nattack 0303 0404 -> 0403\n"


def cli(*args: Any, input: str | None = None) -> str:
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def kinds(path: Path) -> list[tuple[str, str, bool]]:
    """(kind, side, open) of each action of a turn file."""
    return [(a["kind"], a["side"], a.get("open", False)) for a in tomllib.loads(path.read_text()).get("action", [])]


@pytest.fixture
def players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Folder, Folder]:
    """Anna (German) has begun the game, Boris (Soviet) has joined, and Anna has read his acceptance."""
    seeds = iter([b"\x01" * 32, b"\x02" * 32])
    monkeypatch.setattr(protocol, "new_secret", lambda: next(seeds))
    monkeypatch.setattr(pbem_cli, "new_game_id", lambda: "0" * 16)  # with these secrets: the attack's die is 3
    anna, boris = Folder(tmp_path / "anna", "kiev"), Folder(tmp_path / "boris", "kiev")
    cli("pbem", "new", MINI, "--me", "german", "--name", "kiev", "--dir", anna.dir)
    cli("pbem", "join", anna.turn(0), "--dir", boris.dir)
    cli("pbem", "turn", boris.turn(1), "--dir", anna.dir)
    return anna, boris


# -- plain mode ----------------------------------------------------------------------------------------

def test_plain_a_part_that_ends_its_phases_without_dice_writes_the_turn_file(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    said = cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    assert "Your part ends: the german player has the move now." in said
    assert f"send {boris.turn(2)} to the other player" in said
    assert kinds(boris.turn(2)) == [("enter", "soviet", False), ("enter", "soviet", False),
                                    ("move", "soviet", False), ("end_phase", "soviet", False),
                                    ("end_phase", "soviet", False)]
    assert "reveal" not in tomllib.loads(boris.turn(2).read_text())["turn"]  # nothing drew, no link shown
    assert "message 2 checked and added to kiev.pbem.toml" in cli("pbem", "turn", boris.turn(2), "--dir",
                                                                  anna.dir, "--plain", input="quit\n")


def test_plain_two_moves_and_an_attack_send_the_attack_open_unrolled(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    said = cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input=ANNA_PLAIN)
    assert "Your attack draws dice: it goes into your turn file unresolved" in said
    assert "Die roll" not in said  # the die was not rolled on Anna's side
    assert kinds(anna.turn(3)) == [("move", "german", False), ("move", "german", False),
                                   ("end_phase", "german", False), ("attack", "german", True)]
    sent = tomllib.loads(anna.turn(3).read_text())
    attack = sent["action"][-1]
    assert (attack["attackers"], attack["targets"]) == (["ge-inf-1", "ge-inf-2"], ["0403"])
    assert "dice" not in attack and "journal" not in attack
    assert list(sent["turn"]["reveal"]) == ["1"]  # only Anna's half of the die travels with it
    # Boris's program accepts the file, and only it makes the die, from both links
    assert "every link, roll, journal line and hash checks" in cli("pbem", "verify", anna.turn(3), "--dir", boris.dir)
    answered = cli("pbem", "turn", anna.turn(3), "--dir", boris.dir, "--plain", input="quit\n")
    assert "Die roll #1 for attack at 0403 (2-1): 3" in answered
    assert "The Soviet player must answer" in answered


def test_plain_quitting_before_the_part_ends_writes_nothing(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    said = cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input="move 0203 0202 0303\nquit\n")
    assert "'quit' before that writes nothing." in " ".join(said.split())
    assert "you left before your part ended: no turn file was written" in said
    assert not anna.turn(3).exists()
    assert len(read_record(anna.record)[1]) == 3  # Boris's file is in the record, nothing of Anna's part


def test_plain_the_part_ends_at_the_other_sides_choice_which_stays_unanswered(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input=ANNA_PLAIN)
    cli("pbem", "turn", anna.turn(3), "--dir", boris.dir, "--plain", input="quit\n")  # reads the file only
    said = cli("pbem", "turn", "--dir", boris.dir, "--plain", input="losses 1\nlosses 1\n")
    assert "Your part ends: the german player has the move now." in said
    assert kinds(boris.turn(4)) == [("take_losses", "soviet", False)]  # the German loss is Anna's to take
    # in the session itself: once the choice is the German's, the Soviet seat cannot answer it
    me, messages = read_record(boris.record)
    pos, _ = prepare(messages[:4], "record", read_secret(boris, messages[0]["turn"]["game"]))  # as before 004
    assert pos.game is not None
    part = Part(pos.game, me)
    session = PlainSession(pos.game, width=120, part=part)
    session.handle("losses 1")
    assert session.done and part.finished and pos.game.actor == "german"
    out = session.handle("losses 1")
    assert out == ["Refused [4.1] the german player must answer now, not the soviet player (rules 4.1)"]
    assert len(part.actions()) == 1


def test_plain_quitting_on_a_terminal_asks_first_once_something_is_played(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    me, messages = read_record(boris.record)
    pos, _ = prepare(messages, "record", read_secret(boris, messages[0]["turn"]["game"]))
    assert pos.game is not None
    session = PlainSession(pos.game, width=200, part=Part(pos.game, me))
    assert session.quit_question() is None  # nothing played: nothing to lose
    session.handle("enter 1 1005")
    assert session.quit_question() == ("1 action of your part would be lost: no turn file is written before your "
                                       "part ends. Quit anyway? (y/n) ")


def test_prepare_makes_no_die_and_not_even_the_players_own_link(players: tuple[Folder, Folder]) -> None:
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input=ANNA_PLAIN)
    me, messages = read_record(anna.record)
    pos, _ = prepare(messages[:3], "record", read_secret(anna, messages[0]["turn"]["game"]))
    game, dice = pos.game, pos.dice
    assert game is not None and dice is not None
    for act in read_actions_of(messages[3])[:-1]:  # the two moves and the end of the phase
        game.apply(act, side=me)
    with pytest.raises(DiceNeeded):
        game.apply(Attack(("ge-inf-1", "ge-inf-2"), ("0403",)), side=me)
    assert (game.rolls, dice.supplied, dice.k) == (0, {}, 1)
    assert game.state.units["so-rifle-2"].hex == "0403"  # the position is the one before the attack


def read_actions_of(message: dict[str, Any]) -> list[Any]:
    from kiev_tui.engine.actions import action_from_toml
    from kiev_tui.engine.registry import get_system

    reg = get_system("spi_kiev").actions
    keep = ("side", "dice", "hash", "journal", "open")
    return [action_from_toml({k: v for k, v in a.items() if k not in keep}, "a", "m", registry=reg)
            for a in message["action"]]


# -- the game screen -------------------------------------------------------------------------------------

Script = Callable[[Pilot, KievApp], Awaitable[None]]


def on_screen(monkeypatch: pytest.MonkeyPatch, script: Script) -> list[KievApp]:
    """`pbem turn` on a terminal: the game screen is driven by ``script`` through Textual's pilot."""
    apps: list[KievApp] = []

    def run_screen(part: Part, ascii: bool, mouse: bool) -> int:
        async def drive() -> int:
            ui = build_app(part.game, part=part)
            apps.append(ui)
            async with ui.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await script(pilot, ui)
            return ui.return_code or 0

        return asyncio.run(drive())

    monkeypatch.setattr(pbem_cli, "_on_terminal", lambda: True)
    monkeypatch.setattr(pbem_cli, "_run_screen", run_screen)
    return apps


async def boris_first_part(pilot: Pilot, ui: KievApp) -> None:
    await keys(pilot, "i", "down", "space", "tab", "enter", "escape")  # both new rifles, first entry hex
    await goto(pilot, "0703")
    await keys(pilot, "enter")
    await goto(pilot, "0403")
    await keys(pilot, "enter", "escape", "P", "y")
    assert ui.game.state.units["so-rifle-2"].hex == "0403"
    assert ui.game.state.phase == "combat" and ui.is_running
    await keys(pilot, "P", "y")  # the end of his player-turn: the screen closes, no hand-over
    assert not ui.is_running


async def anna_moves_two_and_attacks(pilot: Pilot, ui: KievApp) -> None:
    game = ui.game
    for start, dest in (("0203", "0303"), ("0206", "0404")):
        await goto(pilot, start)
        await keys(pilot, "enter")
        await goto(pilot, dest)
        await keys(pilot, "enter", "escape")
    assert (game.state.units["ge-inf-1"].hex, game.state.units["ge-inf-2"].hex) == ("0303", "0404")
    await keys(pilot, "P", "y")
    for h in ("0303", "0404", "0403"):  # two attackers, one target
        await goto(pilot, h)
        await keys(pilot, "enter")
    await keys(pilot, "c")
    assert isinstance(ui.screen, ConfirmScreen)  # the odds, previewed as in hot-seat play
    assert "Send it in your turn file? (y/n)" in screen_text(ui)  # no die is rolled on this screen
    await keys(pilot, "y")
    assert not ui.is_running  # closed without a crash, the attack unrolled
    assert game.rolls == 0 and game.state.pending is None
    assert game.state.units["so-rifle-2"].hex == "0403" and game.state.phase == "combat"


def test_screen_a_part_that_ends_its_phases_without_dice_writes_the_turn_file(
        players: tuple[Folder, Folder], monkeypatch: pytest.MonkeyPatch) -> None:
    anna, boris = players
    apps = on_screen(monkeypatch, boris_first_part)
    said = cli("pbem", "turn", "--dir", boris.dir)
    assert len(apps) == 1 and apps[0].part is not None and apps[0].part.finished
    assert "Your part ends: the german player has the move now." in said
    assert [k for k, _, _ in kinds(boris.turn(2))] == ["enter", "move", "end_phase", "end_phase"]
    monkeypatch.setattr(pbem_cli, "_on_terminal", lambda: False)
    assert "message 2 checked" in cli("pbem", "turn", boris.turn(2), "--dir", anna.dir)


def test_screen_two_moves_and_an_attack_send_the_attack_open_unrolled(
        players: tuple[Folder, Folder], monkeypatch: pytest.MonkeyPatch) -> None:
    anna, boris = players
    on_screen(monkeypatch, boris_first_part)
    cli("pbem", "turn", "--dir", boris.dir)
    on_screen(monkeypatch, anna_moves_two_and_attacks)
    said = cli("pbem", "turn", boris.turn(2), "--dir", anna.dir)
    assert "Your attack draws dice" in said and "Die roll" not in said
    assert kinds(anna.turn(3)) == [("move", "german", False), ("move", "german", False),
                                   ("end_phase", "german", False), ("attack", "german", True)]
    assert "dice" not in tomllib.loads(anna.turn(3).read_text())["action"][-1]
    answered = cli("pbem", "turn", anna.turn(3), "--dir", boris.dir, "--plain", input="quit\n")
    assert "message 3 checked" in answered and "Die roll #1 for attack at 0403 (2-1): 3" in answered


def test_screen_quitting_writes_nothing(players: tuple[Folder, Folder], monkeypatch: pytest.MonkeyPatch) -> None:
    anna, boris = players

    async def move_then_quit(pilot: Pilot, ui: KievApp) -> None:
        game = ui.game
        await keys(pilot, "N", "O")  # no new game, no loaded save, in place of the one by e-mail
        assert ui.screen is game_screen(ui) and ui.game is game
        await goto(pilot, "0703")
        await keys(pilot, "enter")
        await goto(pilot, "0603")
        await keys(pilot, "enter", "ctrl+q")
        assert isinstance(ui.screen, ConfirmScreen)
        assert ui.screen.title_text == "Quit without writing the turn file?"
        assert "1 action of your part would be lost: no turn file is written" in screen_text(ui)
        await keys(pilot, "y")
        assert not ui.is_running

    on_screen(monkeypatch, move_then_quit)
    said = cli("pbem", "turn", "--dir", boris.dir)
    assert "you left before your part ended: no turn file was written" in said
    assert not boris.turn(2).exists() and len(read_record(boris.record)[1]) == 2


def test_screen_the_part_ends_at_the_other_sides_choice_without_a_hand_over(
        players: tuple[Folder, Folder], monkeypatch: pytest.MonkeyPatch) -> None:
    anna, boris = players
    cli("pbem", "turn", "--dir", boris.dir, "--plain", input=BORIS_PLAIN)
    cli("pbem", "turn", boris.turn(2), "--dir", anna.dir, "--plain", input=ANNA_PLAIN)
    seen: list[Any] = []

    async def take_the_loss(pilot: Pilot, ui: KievApp) -> None:
        assert isinstance(ui.screen, PendingScreen)  # his own choice opens by itself
        assert game_screen(ui).seat == "soviet"
        await keys(pilot, "enter")  # lose the step
        seen.append(ui.screen)
        assert not ui.is_running

    on_screen(monkeypatch, take_the_loss)
    said = cli("pbem", "turn", anna.turn(3), "--dir", boris.dir)
    assert "Die roll #1 for attack at 0403 (2-1): 3" in said
    assert not any(isinstance(s, HandoffScreen) for s in seen)  # the German's choice was never offered here
    assert "Your part ends: the german player has the move now." in said
    assert kinds(boris.turn(4)) == [("take_losses", "soviet", False)]
    pending = protocol.replay(read_record(boris.record)[1], "x").game.state.pending  # type: ignore[union-attr]
    assert pending is not None and pending["side"] == "german"
