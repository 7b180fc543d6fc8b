"""`kiev-tui serve`: the SSH server's command line (docs/SSH.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from kiev_tui.clitools import fail, guarded
from kiev_tui.engine.errors import DataError, one_line
from kiev_tui.engine.scenario import data_root
from kiev_tui.engine import registry as games_registry
from kiev_tui.serve.limits import DEFAULT as LIMITS, Limits

DEFAULT_PORT = 2222


def default_scenarios() -> list[str]:
    """Every scenario of every game that can be played (a data-only game cannot)."""
    from kiev_tui.gameslist import playable_scenarios  # every game, not only those the registry has met

    return playable_scenarios()


def host_keys(path: Path) -> list[Any]:
    """The server's private host key; a missing file gets a new ed25519 key (mode 0600)."""
    import asyncssh

    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="kiev-tui serve")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        typer.echo(f"made a new host key {path} ({key.get_fingerprint('sha256')})", err=True)
        return [key]
    try:
        return [asyncssh.read_private_key(path)]
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise DataError(path, "", f"not a private key ({one_line(str(exc))[:120]})") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read ({exc.strerror or exc})") from None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


@guarded
def serve(
    port: int = typer.Option(DEFAULT_PORT, help="TCP port to listen on (0: any free port, printed at start)"),
    listen: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0 for every interface)"),
    host_keys_file: Path = typer.Option(..., "--host-keys", help="the server's private host key "
                                        "(made, ed25519, if the file does not exist)"),
    authorized_keys: Path = typer.Option(..., "--authorized-keys", help="the players' public keys, "
                                         "OpenSSH authorized_keys format; the comment names the player"),
    state: Path = typer.Option(Path("kiev-serve"), "--state", help="folder for the server's games and saves"),
    scenario: Optional[list[str]] = typer.Option(None, "--scenario", help="a scenario the lobby offers "
                                                 "(repeat for more; default every playable one)"),
    local: bool = typer.Option(False, "--local", help="each login plays a game of its own, both sides at "
                               "one keyboard, instead of networked games (kiev-tui host and join)"),
    verbose: bool = typer.Option(False, "--verbose", help="log logins and games to stderr"),
    games_per_player: int = typer.Option(LIMITS.games_per_player, "--games-per-player", min=1,
                                         help="games a player may hold a side in at once"),
    max_games: int = typer.Option(LIMITS.max_games, "--max-games", min=1, help="games the server keeps in all"),
    max_running: int = typer.Option(LIMITS.max_running, "--max-running", min=1,
                                    help="game hosts running at once (an idle one stops to make room)"),
    idle_minutes: float = typer.Option(LIMITS.idle_minutes, "--idle-minutes", min=0.0,
                                       help="a game's host stops (saved, resumable) after this long with "
                                       "nobody at the game; 0: never"),
) -> None:
    """An SSH server: each login (by SSH key, no account needed) gets a lobby and the game."""
    import asyncio  # the server's own modules load only when it runs, never for another command
    import logging

    from kiev_tui.serve import server
    from kiev_tui.serve.keys import PlayerBook
    from kiev_tui.serve.ledger import Ledger
    from kiev_tui.serve.ptychild import PtyChild
    from kiev_tui.serve.rooms import LocalRooms, Rooms, offers

    if not 0 <= port <= 65535:
        raise fail(f"--port {port}: a port is 0 to 65535")
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")
    if not verbose:
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
    players = PlayerBook(authorized_keys)  # read again when it changes: new friends need no restart
    keys = host_keys(host_keys_file)
    on_offer = offers(scenario or default_scenarios())
    state.mkdir(parents=True, exist_ok=True)
    root = state.resolve()
    # one server per state folder; what a server killed before left running is ended here
    ledger = Ledger.claim(root)
    PtyChild.ledger = ledger
    rooms: Rooms
    if local:
        rooms = LocalRooms(root, on_offer)
    else:
        from kiev_tui.serve.hosted import HostedRooms

        limits = Limits(games_per_player, max_games, max_running, idle_minutes)
        rooms = HostedRooms(root, on_offer, limits, ledger)
    config = server.ServeConfig(listen, port, keys, players, rooms)
    try:
        asyncio.run(_run(config))
    except OSError as exc:  # the port is taken, the address is not ours
        raise fail(f"cannot listen on {listen}:{port} ({exc.strerror or exc})") from None
    finally:
        ledger.close()


async def _run(config: Any) -> None:
    import asyncio
    import signal

    from kiev_tui.serve import server

    acceptor = await server.start(config)
    bound = acceptor.sockets[0].getsockname() if acceptor.sockets else (config.listen, config.port)
    fingerprint = config.host_keys[0].get_fingerprint("sha256")
    typer.echo(f"kiev-tui serve: listening on {bound[0]}:{bound[1]} ({len(config.players)} players; "
               f"host key {fingerprint})")
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        acceptor.close()
        await config.rooms.close()
        typer.echo("kiev-tui serve: stopped")
