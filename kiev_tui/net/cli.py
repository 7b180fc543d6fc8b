"""`kiev-tui host` and `kiev-tui join`: one referee process, and a seat per player (docs/NETPLAY.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from kiev_tui.clitools import fail, guarded
from kiev_tui.engine.errors import one_line
from kiev_tui.net.wire import SPECTATOR, Address, parse_address

# Exit statuses of join (docs/NETPLAY.md); 2 is the CLI's own for bad input.
EXIT_REFUSED = 3  # the host would not seat us: side taken, another rules version, no such side
EXIT_UNREACHABLE = 4  # no host at the address, or it went away and did not come back


def _addresses(listen: list[str], save: Path) -> list[Address]:
    if not listen:
        return [Address("unix", path=str(save.with_suffix(".sock")))]
    out = []
    for text in listen:
        try:
            out.append(parse_address(text))
        except ValueError as exc:
            raise fail(f"--listen: {exc}") from None
    return out


def host(
    game_ref: str = typer.Argument(..., metavar="SCENARIO|SAVE",
                                   help="a scenario (game/name or .toml) to start, or a save to resume"),
    listen: list[str] = typer.Option([], "--listen", help="unix:PATH or tcp:127.0.0.1:PORT (repeatable; "
                                     "port 0 picks a free one; default: a socket beside the autosave)"),
    seed: Optional[int] = typer.Option(None, help="seed of the dice, for tests (default: the OS's entropy)"),
    save: Optional[Path] = typer.Option(None, "--save", help="the autosave, written after every action "
                                        "(default: saves/net-<game>.toml, or the SAVE resumed)"),
    lifeline: Optional[int] = typer.Option(None, "--lifeline", metavar="FD", help="an inherited pipe's "
                                           "read end: when it reads end of file, save and stop"),
) -> None:
    """Referee one game for two seats (and spectators): it owns the dice and autosaves every action."""
    import asyncio  # only hosting runs an event loop of its own

    from kiev_tui.net.host import run_host, start_game

    if lifeline is not None:
        try:
            os.fstat(lifeline)
        except OSError:
            raise fail(f"--lifeline {lifeline}: not an open file descriptor") from None
    game, target, resumed = start_game(game_ref, seed, save)
    addresses = _addresses(listen, target)
    typer.echo(f"{'resuming' if resumed else 'hosting'} {game.scenario.title}: game {game.game_id}, "
               f"{len(game.log)} actions, {game.phase}; autosave {target}")

    def ready(where: str) -> None:
        typer.echo(f"listening on {where}")
        sys.stdout.flush()

    try:
        asyncio.run(run_host(game, target, addresses, ready, lifeline=lifeline))
    except OSError as exc:
        raise fail(one_line(f"cannot host: {exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")))
    typer.echo(f"host stopped; the game is in {target}")


def join(
    address: str = typer.Argument(..., help="the host's address: unix:PATH or tcp:127.0.0.1:PORT"),
    side: str = typer.Option(..., "--side", help="your side (e.g. german, soviet), or spectator"),
    plain_mode: bool = typer.Option(False, "--plain", help="plain line mode: typed commands, lines of text"),
    ascii: bool = typer.Option(False, "--ascii", help="ASCII-only drawing (no box characters)"),
    no_mouse: bool = typer.Option(False, "--no-mouse", help="ignore the mouse"),
    retry: float = typer.Option(60.0, help="seconds to keep dialling when the link to the host drops"),
) -> None:
    """Take a seat at a hosted game: the game screen (or --plain) for your side, or as a spectator."""
    from kiev_tui.net.seat import SeatError, SeatLink

    try:
        where = parse_address(address)
    except ValueError as exc:
        raise fail(str(exc)) from None
    link = SeatLink(where, side.lower(), retry=max(0.0, retry))
    try:
        link.connect()
    except SeatError as exc:
        typer.echo(f"error: {one_line(exc.why)}", err=True)
        raise typer.Exit(EXIT_UNREACHABLE if exc.code == "unreachable" else EXIT_REFUSED) from None
    if link.token_note:  # the game goes on; only a later join could not take the side back
        typer.echo(f"warning: {one_line(link.token_note)}", err=True)
    if plain_mode or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from kiev_tui.net.plain_seat import run as run_plain

        raise typer.Exit(run_plain(link))
    from kiev_tui.ui.app import build_app, exit_code

    assert link.replica is not None
    app = build_app(link.replica.game, ascii=ascii, mouse=not no_mouse, net=link)
    app.run(mouse=app.mouse)
    link.close()
    if exit_code(app):
        raise typer.Exit(exit_code(app))
    if getattr(app, "net_gone", False):
        raise typer.Exit(EXIT_UNREACHABLE)


def register(app: typer.Typer) -> None:
    """Add `host` and `join` to the main CLI."""
    app.command("host")(guarded(host))
    app.command("join")(guarded(join))


__all__ = ["EXIT_REFUSED", "EXIT_UNREACHABLE", "host", "join", "register"]
