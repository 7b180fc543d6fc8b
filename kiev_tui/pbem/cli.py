"""`kiev-tui pbem new | join | turn | verify | show`: a game by e-mail, one turn file at a time.

A player plays his part on the game screen (or in plain mode, `--plain`), on the position the
record gives, or gives it as a file of actions (`--actions`, the format `kiev-tui script`
reads); either way the turn file is written by `protocol.compose` (docs/PBEM.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import typer

from kiev_tui.clitools import fail, guarded
from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import DataError, one_line
from kiev_tui.engine.game import new_game_id
from kiev_tui.engine.registry import get_system
from kiev_tui.pbem import sign
from kiev_tui.pbem.chain import DEFAULT_LENGTH, MAX_LENGTH
from kiev_tui.pbem.files import (Folder, find_folder, place_of, plain, read_actions, read_record, read_secret,
                                 read_turn, write_hidden, write_record, write_secret, write_turn)
from kiev_tui.pbem.part import Part
from kiev_tui.pbem.protocol import Position, Secret, StillYourMove, compose, offer, prepare, replay

pbem = typer.Typer(add_completion=False, no_args_is_help=True,
                   help="Play by e-mail: turn files with dice neither player can foresee or forge (docs/PBEM.md).")

DIR = typer.Option(Path("."), "--dir", help="the folder where you keep this game")
NAME = typer.Option(None, "--name", help="the game's name (default: the only game in --dir)")
ACTIONS = typer.Option(None, "--actions", help="your actions, as [[action]] tables (the format of kiev-tui script)")
KEY = typer.Option(None, "--key", help="sign the turn file with this SSH private key (ssh-keygen -Y sign)")
SIGNERS = typer.Option(None, "--allowed-signers", help="require the other player's SSH signature, checked "
                                                         "against this allowed-signers file")


def parse_option(text: str) -> tuple[str, Any]:
    """KEY=VALUE: true/false, a whole number, or text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise fail(f"--option {one_line(text)[:60]}: expected KEY=VALUE")
    if value in ("true", "false"):
        return key, value == "true"
    if value.lstrip("-").isdigit():
        return key, int(value)
    return key, value


def _signed(path: Path, key: Optional[Path]) -> str:
    if key is None:
        return ""
    return f" (signed: {sign.sign(path, key).name})"


def _check_signature(path: Path, signers: Optional[Path], pos: Position, message: dict[str, Any]) -> None:
    if signers is None:
        return
    side = message["turn"]["side"]
    principal = pos.signers.get(side)
    if not principal:
        raise DataError(path, "turn.signer", f"the {side} player named no signer, yet signatures are required")
    sign.verify(path, signers, principal)


def _named(game: Any, lines: list[str]) -> list[str]:
    """Journal lines as a player reads them: units by name, not by id (issue 35), as the game's
    plain face says them (which never imports Textual)."""
    if game is None:
        return lines
    from kiev_tui.plain.face import face_for

    face = face_for(game)
    return [face.name_ids(game, line) for line in lines]


def _say_position(pos: Position, me: str) -> None:
    game = pos.game
    if game is None:
        typer.echo("waiting for the second player to join")
        return
    if game.state.over:
        typer.echo(f"the game is over. {_named(game, [game.journal[-1].describe()])[0]}")
        return
    if pos.open is not None:
        act, side = pos.open
        typer.echo(f"{side}'s {act.kind} waits for the other player's link")
    who = pos.waiting_for()
    typer.echo(f"{game.phase}; the next turn file comes from {'you' if who == me else 'the ' + who + ' player'}")


@pbem.command("new")
@guarded
def new_cmd(
    scenario: str = typer.Argument(..., help="scenario as game/name or a .toml path"),
    me: str = typer.Option(..., "--me", help="your side"),
    name: Optional[str] = NAME,
    dir: Path = DIR,
    option: list[str] = typer.Option([], "--option", help="a variant of the scenario, KEY=VALUE (repeatable), "
                                                          "e.g. pbm_asterisk=true"),
    links: int = typer.Option(DEFAULT_LENGTH, help="length of your hash chain: actions that draw dice"),
    signer: str = typer.Option("", help="your principal in the allowed-signers file, if you sign"),
    key: Optional[Path] = KEY,
) -> None:
    """Begin a game: your commitment and the scenario, in turn file 000 for the other player."""
    if not 1 <= links <= MAX_LENGTH:
        raise fail(f"--links: 1 to {MAX_LENGTH}")
    options = dict(parse_option(o) for o in option)
    game_id = new_game_id()
    folder = Folder(dir, name or f"pbem-{game_id[:8]}")
    if folder.record.exists():
        raise fail(f"{folder.record}: already exists; choose another --name")
    secret = Secret.new(game_id, me, links)
    message = plain(offer(scenario, me, folder.name, options, secret, signer))
    replay([message], str(folder.record))  # what the other player's program will check
    write_secret(folder, secret)
    write_record(folder, me, [message])
    out = write_turn(folder.turn(0), message)
    typer.echo(f"new game {folder.name}: send {out}{_signed(out, key)} to the other player; "
               f"keep {folder.secret.name} to yourself")


@pbem.command("join")
@guarded
def join_cmd(
    offer_file: Path = typer.Argument(..., metavar="FILE", help="turn file 000 from the player who began"),
    dir: Path = DIR,
    actions: Optional[Path] = ACTIONS,
    links: int = typer.Option(DEFAULT_LENGTH, help="length of your hash chain"),
    signer: str = typer.Option("", help="your principal in the allowed-signers file, if you sign"),
    key: Optional[Path] = KEY,
    allowed_signers: Optional[Path] = SIGNERS,
) -> None:
    """Accept a game: your commitment (and your first actions if you move first), in turn file 001."""
    if not 1 <= links <= MAX_LENGTH:
        raise fail(f"--links: 1 to {MAX_LENGTH}")
    m0 = read_turn(offer_file)
    pos = replay([m0], str(offer_file))
    _check_signature(offer_file, allowed_signers, pos, m0)
    head = m0["turn"]
    folder = Folder(dir, str(head["name"]))
    if folder.record.exists():
        raise fail(f"{folder.record}: you already have this game")
    me = pos.sides[1]
    secret = Secret.new(str(head["game"]), me, links)
    todo = read_actions(actions, get_system(_game_of(m0)).actions) if actions else []
    extra: dict[str, Any] = {"anchor": secret.anchor, **({"signer": signer} if signer else {})}
    message, after, told = compose([m0], str(offer_file), secret, todo, extra)
    message = plain(message)
    write_secret(folder, secret)
    write_hidden(folder, secret)
    write_record(folder, me, [m0, message])
    out = write_turn(folder.turn(1), message)
    chosen = ", ".join(f"{k} = {v}" for k, v in sorted(dict(head.get("options", {})).items()))
    typer.echo(f"game {folder.name}: {head['scenario']}" + (f", with {chosen}" if chosen else ", no options"))
    for line in _named(after.game, told):
        typer.echo(line)
    _say_position(after, me)
    typer.echo(f"joined as {me}: send {out}{_signed(out, key)} to the other player")


def _game_of(m0: dict[str, Any]) -> str:
    from kiev_tui.engine.scenario import load_scenario

    return load_scenario(str(m0["turn"]["scenario"])).game


@pbem.command("turn")
@guarded
def turn_cmd(
    incoming: Optional[Path] = typer.Argument(None, metavar="[FILE]", help="the turn file you received"),
    dir: Path = DIR,
    name: Optional[str] = NAME,
    actions: Optional[Path] = ACTIONS,
    key: Optional[Path] = KEY,
    allowed_signers: Optional[Path] = SIGNERS,
    plain_mode: bool = typer.Option(False, "--plain", help="play your part by typed commands (plain line "
                                                           "mode) instead of on the game screen"),
    ascii: bool = typer.Option(False, "--ascii", help="ASCII-only drawing (no box characters)"),
    no_mouse: bool = typer.Option(False, "--no-mouse", help="ignore the mouse"),
) -> None:
    """Check the turn file you received, play your part, and write the next one.

    Without --actions your part is played on the game screen (--plain: by typed lines) from the
    position the record gives; the turn file is written when your part ends.
    """
    message = read_turn(incoming) if incoming is not None else None
    game_id = str(message["turn"].get("game", "")) if message is not None else None
    folder = find_folder(dir, name, game_id)
    me, messages = read_record(folder.record)
    if message is not None and incoming is not None:
        place_of(messages, message, incoming)
        pos = replay([*messages, message], str(incoming))
        _check_signature(incoming, allowed_signers, pos, message)
        messages = [*messages, message]
        write_record(folder, me, messages)
        if pos.game is not None:  # what the message did, as the log tells it (the set-up once joined)
            start = pos.journal_at[-2] if len(messages) > 2 else len(pos.game.journal)
            for line in _named(pos.game, [e.describe() for e in pos.game.journal[start:]]):
                typer.echo(line)
        typer.echo(f"message {len(messages) - 1} checked and added to {folder.record.name}")
    else:
        pos = replay(messages, str(folder.record))
    secret = read_secret(folder, str(messages[0]["turn"]["game"]))
    if secret.side != me:
        raise fail(f"{folder.secret}: the secret is the {secret.side} player's, the record is the {me} player's")
    if pos.waiting_for() != me:
        if actions is not None:
            raise fail(f"--actions: it is not your move; the next turn file comes from the "
                       f"{pos.waiting_for() or 'nobody (the game is over)'} player")
        _say_position(pos, me)
        return
    todo = read_actions(actions, pos.game.rules.actions) if actions and pos.game is not None else []
    try:
        out_msg, after, told = compose(messages, str(folder.record), secret, todo)
    except StillYourMove:
        if actions is not None:
            raise
        if not (plain_mode or _on_terminal()):
            _say_position(pos, me)  # piped or scripted: no screen to play on, only what arrived
            typer.echo(f"your move: run kiev-tui pbem turn --dir {dir} in a terminal to play it on the map "
                       "(--plain: by typed commands), or give --actions YOUR-ACTIONS.toml")
            return
        played = _play_part(messages, folder, secret, plain_mode, ascii, not no_mouse)
        if played is None:
            typer.echo("you left before your part ended: no turn file was written; "
                       f"run kiev-tui pbem turn --dir {dir} to play it again")
            return
        out_msg, after, told = compose(messages, str(folder.record), secret, played)
    out_msg = plain(out_msg)
    write_hidden(folder, secret)  # before the turn file goes: the owner must be able to reveal
    write_record(folder, me, [*messages, out_msg])
    out = write_turn(folder.turn(len(messages)), out_msg)
    for line in _named(after.game, told):
        typer.echo(line)
    _say_position(after, me)
    typer.echo(f"send {out}{_signed(out, key)} to the other player")


def _on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _play_part(messages: list[dict[str, Any]], folder: Folder, secret: Secret, plain_mode: bool, ascii: bool,
               mouse: bool) -> Optional[list[Action]]:
    """Play the player's part in the game's own screens; its actions, or None if he left before its end."""
    pos, told = prepare(messages, str(folder.record), secret)
    assert pos.game is not None
    part = Part(pos.game, secret.side)
    if plain_mode:
        from kiev_tui.plain.loop import run as run_plain  # never imports Textual

        for line in _named(pos.game, told):  # the outcome of the other player's open action, answered just now
            typer.echo(line)
        run_plain(pos.game, part=part)
    else:
        code = _run_screen(part, ascii, mouse)
        if code:
            raise typer.Exit(code)
        if part.finished:
            typer.echo(part.ending())  # the screen has gone: say why it closed (plain mode has said it)
    return part.actions() if part.finished else None


def _run_screen(part: Part, ascii: bool, mouse: bool) -> int:
    """The game screen on the part's position until the part ends or the player quits; the app's code."""
    from kiev_tui.ui.app import build_app, exit_code

    app = build_app(part.game, ascii=ascii, mouse=mouse, part=part)
    app.run(mouse=app.mouse)
    return exit_code(app)


@pbem.command("verify")
@guarded
def verify_cmd(
    file: Path = typer.Argument(..., help="a record (NAME.pbem.toml) or a turn file you received"),
    dir: Path = DIR,
    allowed_signers: Optional[Path] = SIGNERS,
) -> None:
    """Check a whole record, or a received turn file against your record, without changing anything."""
    data = read_turn(file) if not file.name.endswith(".pbem.toml") else None
    if data is None:
        me, messages = read_record(file)
        pos = replay(messages, str(file))
        typer.echo(f"{file}: {len(messages)} messages, {pos.actions} actions: every link, roll, journal line "
                   "and hash checks")
        _say_position(pos, me)
        return
    folder = find_folder(dir, None, str(data["turn"].get("game", "")))
    me, messages = read_record(folder.record)
    place_of(messages, data, file)
    pos = replay([*messages, data], str(file))
    _check_signature(file, allowed_signers, pos, data)
    typer.echo(f"{file}: message {len(messages)} follows {folder.record.name}; every link, roll, journal line "
               "and hash checks")


@pbem.command("show")
@guarded
def show_cmd(dir: Path = DIR, name: Optional[str] = NAME) -> None:
    """Print the position of a game by e-mail and whose turn file comes next."""
    from kiev_tui.clitools import print_overview as _print_overview

    folder = find_folder(dir, name)
    me, messages = read_record(folder.record)
    pos = replay(messages, str(folder.record))
    if pos.game is not None:
        _print_overview(pos.game)
    _say_position(pos, me)


def register(app: typer.Typer) -> None:
    """Add the `pbem` command group to the main CLI."""
    app.add_typer(pbem, name="pbem")


__all__ = ["pbem", "register"]
