"""The asyncssh server: who may log in, and what each login runs.

Public keys only (no passwords, no keyboard-interactive, no host-based or GSS logins), checked
against the players of the authorized_keys file.  Each session needs a pty; it gets the lobby,
then the game on a pty of its own (a child process of this server).  Forwarding, X11, agents
and SFTP are all refused: a login reaches the game and nothing else.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import asyncssh

from kiev_tui.serve.console import Console, Hangup
from kiev_tui.serve.keys import Player, PlayerBook
from kiev_tui.serve.rooms import Rooms

log = logging.getLogger("kiev_tui.serve")

PLAYER_INFO = "kiev_player"  # the connection's extra-info key holding the Player who logged in
MAX_LOGINS = 32  # sessions at once on the whole server (each is a 60 MB game process)
MAX_PER_PLAYER = 4
# The child's environment is the server's, less what would fix the game's window size or
# pick its saves and player for it: those come from this login (shutil reads COLUMNS/LINES
# before the terminal, which would freeze the size at the first one).
DROP_ENV = ("COLUMNS", "LINES", "TEXTUAL", "NO_COLOR", "KIEV_TUI_PLAYER", "KIEV_TUI_SAVES", "SSH_AUTH_SOCK")


@dataclass
class ServeConfig:
    """What `kiev-tui serve` was told: where to listen, the keys, the players, the games."""

    listen: str
    port: int
    host_keys: list[asyncssh.SSHKey]
    players: PlayerBook
    rooms: Rooms
    title: str = "kiev-tui"
    logins: dict[str, int] = field(default_factory=dict)  # player name -> sessions open now


class Gate(asyncssh.SSHServer):
    """One per connection: lets in a known key and nothing else, and remembers whose it was."""

    def __init__(self, players: PlayerBook) -> None:
        self.players = players
        self.conn: asyncssh.SSHServerConnection | None = None
        self.offered: Player | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn

    def begin_auth(self, username: str) -> bool:
        return True  # every login must authenticate; the user name itself is not used

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh verifies the signature right after this returns True and completes the
        # login only then, so the key last accepted here is the one the client proved it holds
        # (asyncssh keeps its own per-key options the same way).
        self.offered = self.players.find(key.get_fingerprint("sha256"))
        return self.offered is not None

    def auth_completed(self) -> None:
        if self.conn is not None and self.offered is not None:
            self.conn.set_extra_info(**{PLAYER_INFO: self.offered})
            log.info("login: %s", self.offered)


def child_env(base: dict[str, str], player: Player, term: str, saves: Path) -> dict[str, str]:
    env = {k: v for k, v in base.items() if k not in DROP_ENV}
    env.update({"TERM": term or "xterm-256color", "KIEV_TUI_PLAYER": player.name,
                "KIEV_TUI_SAVES": str(saves)})
    return env


def session_handler(config: ServeConfig) -> Callable[[Any], Any]:
    async def handle(process: Any) -> None:  # asyncssh.SSHServerProcess
        code = 1
        player: Player | None = process.get_extra_info(PLAYER_INFO)
        try:
            if player is None:
                return  # cannot happen after a public-key login; refuse rather than guess
            if process.get_terminal_type() is None:
                process.stderr.write(b"kiev-tui serve needs a terminal: log in with ssh -t\r\n")
                return
            if process.command:
                process.stderr.write(b"kiev-tui serve runs only the game; log in without a command\r\n")
                return
            if sum(config.logins.values()) >= MAX_LOGINS or config.logins.get(player.name, 0) >= MAX_PER_PLAYER:
                log.warning("refused: a login of %s (%d of his open, %d in all; at most %d and %d)", player.name,
                            config.logins.get(player.name, 0), sum(config.logins.values()), MAX_PER_PLAYER, MAX_LOGINS)
                process.stderr.write(b"too many logins open at once; try again later\r\n")
                return
            config.logins[player.name] = config.logins.get(player.name, 0) + 1
            try:
                code = await lobby_loop(config, Console(process), player)
            finally:
                config.logins[player.name] -= 1
        except Hangup:
            log.info("hang-up: %s", player)
        except Exception:  # a fault in one login ends that login, never the server
            log.exception("login of %s failed", player)
        finally:
            try:
                process.exit(code)
            except (OSError, asyncssh.Error):
                pass

    return handle


async def lobby_loop(config: ServeConfig, console: Console, player: Player) -> int:
    """The lobby until the player leaves; 0 when he leaves by choice."""
    while True:
        choice = await config.rooms.lobby(console, player, config.title)
        if choice is None:
            console.write("\nGoodbye.\n")
            return 0
        env = child_env(dict(os.environ), player, console.term, config.rooms.saves_for(player))
        log.info("%s runs: %s", player.name, choice.label)
        config.rooms.sat_down(choice)
        try:
            code = await console.run_child(list(choice.argv), env, cwd=choice.cwd or str(config.rooms.root))
        finally:
            config.rooms.stood_up(choice)
        config.rooms.after(player, choice, code)
        if code:  # its last lines say why (a side already taken, a host gone): leave them readable
            console.write(f"\n(the game ended with status {code}; press a key for the lobby)\n")
            await console.key()


async def start(config: ServeConfig) -> asyncssh.SSHAcceptor:
    return await asyncssh.create_server(
        lambda: Gate(config.players), config.listen, config.port,
        server_host_keys=config.host_keys, process_factory=session_handler(config),
        encoding=None, line_editor=False, allow_pty=True, agent_forwarding=False,
        x11_forwarding=False, allow_scp=False, gss_host=None, known_client_hosts=None,
        keepalive_interval=30, keepalive_count_max=4, login_timeout=60,
        server_version="kiev-tui")

