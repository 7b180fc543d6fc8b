"""The referee: one process owns the game, its dice and its autosave; seats send actions.

Each accepted action is saved before anybody hears of it, so a host restarted from its
autosave has every action any seat has seen.  Input from a seat is never trusted: a line that
breaks the protocol closes that seat's connection only, and an action is checked by the engine
as coming from that seat's side (`Game.check(action, side)`), so the other side's action, or a
pending choice answered by the wrong player, is refused with the rule case and reason.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import sys
import tomllib
from dataclasses import dataclass, field as dc_field
from pathlib import Path
from typing import Any, Callable

import tomli_w

from kiev_tui import __version__
from kiev_tui.engine.errors import DataError, Illegal, one_line, shorten
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import save_game
from kiev_tui.net.replica import entry_of, game_header
from kiev_tui.net.wire import MAX_LINE, SEAT_TYPES, SPECTATOR, Address, WireError, decode, encode, field

MAX_SPECTATORS = 16
# A seat that stops reading while the host writes to it is cut off before it costs the host memory.
MAX_BACKLOG = 8 * 1024 * 1024
HELLO_TIMEOUT = 10.0  # a connection that says nothing is closed, so it holds no side


@dataclass(eq=False)
class Conn:
    """One connected seat."""

    writer: asyncio.StreamWriter
    side: str = ""
    sent: int = 0  # bytes written to it (the low-bandwidth figure in docs/NETPLAY.md)
    closed: bool = False
    tasks: list[Any] = dc_field(default_factory=list)

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            if self.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
                self.close()
                return
            self.writer.write(data)
            self.sent += len(data)
        except (ConnectionError, RuntimeError, OSError):
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except (ConnectionError, RuntimeError, OSError):
                pass


def _answers(path: Path) -> bool:
    """Whether something listens on the Unix socket ``path`` now."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


class Host:
    """The game and the seats connected to it."""

    def __init__(self, game: Game, save_path: Path, say: Callable[[str], None] | None = None) -> None:
        self.game = game
        self.save_path = Path(save_path)
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.seats: dict[str, Conn] = {}  # side -> its one connected seat
        # side -> the token its first seat was given: only that token takes the side back once the
        # seat has dropped, and it does so even before the host has noticed the old connection is
        # dead.  Kept beside the autosave, so a host resumed from it keeps every side its player's.
        self.tokens_path = self.save_path.with_name(f"{self.save_path.stem}.tokens.toml")
        self.tokens: dict[str, str] = self._load_tokens()
        self.spectators: list[Conn] = []
        self.servers: list[asyncio.AbstractServer] = []
        self.addresses: list[str] = []
        self.save_error = ""

    # -- listening --------------------------------------------------------------------------
    async def listen(self, address: Address) -> str:
        """Start listening; the address as seats should use it (a tcp port 0 becomes the real one)."""
        if address.kind == "unix":
            path = Path(address.path)
            if path.exists() or path.is_symlink():
                if not path.is_socket():
                    raise OSError(f"{path}: exists and is not a socket; not replaced")
                if _answers(path):
                    raise OSError(f"{path}: another host is listening there")
                path.unlink()  # a socket left by a host that was killed
            old = os.umask(0o077)  # only this account may connect (serve runs every seat as it)
            try:
                server = await asyncio.start_unix_server(self.serve_seat, path=str(path), limit=MAX_LINE)
            finally:
                os.umask(old)
            where = f"unix:{path}"
        else:
            server = await asyncio.start_server(self.serve_seat, address.host, address.port, limit=MAX_LINE)
            port = server.sockets[0].getsockname()[1]
            where = f"tcp:{address.host}:{port}"
        self.servers.append(server)
        self.addresses.append(where)
        return where

    async def serve_until(self, addresses: list[Address], ready: Callable[[str], None], stop: asyncio.Event) -> None:
        """Save, listen on every address (``ready`` hears each), serve until ``stop``, then close."""
        self.autosave()
        if self.save_error:
            raise OSError(f"{self.save_path}: cannot write the autosave ({self.save_error})")
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread (tests): the caller sets `stop`
        try:
            for address in addresses:
                ready(await self.listen(address))
            await stop.wait()
        finally:
            await self.close()

    async def close(self) -> None:
        for server in self.servers:
            server.close()
        for conn in [*self.seats.values(), *self.spectators]:
            conn.close()
        for server in self.servers:
            await server.wait_closed()
        for where in self.addresses:
            if where.startswith("unix:"):
                try:
                    os.unlink(where[5:])
                except OSError:
                    pass

    # -- one seat ---------------------------------------------------------------------------
    async def serve_seat(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(writer)
        try:
            line = await asyncio.wait_for(reader.readuntil(b"\n"), HELLO_TIMEOUT)
            self.hello(conn, decode(line, ("hello",)))
            while not conn.closed:
                await writer.drain()
                line = await reader.readuntil(b"\n")
                self.handle(conn, decode(line, SEAT_TYPES))
        except WireError as exc:
            conn.send(encode("error", code="protocol", why=one_line(str(exc))[:300]))
        except asyncio.LimitOverrunError:
            conn.send(encode("error", code="protocol", why=f"a line over the {MAX_LINE}-byte limit"))
        except (asyncio.IncompleteReadError, asyncio.TimeoutError, ConnectionError, OSError):
            pass  # gone, or said nothing: the side stays free for its player to come back
        except Exception as exc:  # noqa: BLE001 - nothing a seat sends may stop the referee
            self.say(f"note: seat dropped after an internal error: {type(exc).__name__}: {shorten(str(exc))}")
        finally:
            await self.drop(conn)

    async def drop(self, conn: Conn) -> None:
        try:
            await asyncio.wait_for(conn.writer.drain(), 2.0)
        except (Exception, asyncio.CancelledError):  # noqa: BLE001 - it is going anyway
            pass
        conn.close()
        was_seat = conn.side and self.seats.get(conn.side) is conn
        if was_seat:
            del self.seats[conn.side]
            self.say(f"the {conn.side} seat left (the side stays its player's; it may join again)")
            self.broadcast(self.seats_message())
        if conn in self.spectators:
            self.spectators.remove(conn)

    def hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Give the seat its side and the record since what it already knows (or the whole record)."""
        g = self.game
        side = field(msg, "side", str)
        sides = tuple(g.rules.schema.sides)
        if side != SPECTATOR and side not in sides:
            raise WireError(f"no side '{shorten(side, 20)}' in this game (sides: {', '.join(sides)}, or spectator)")
        if msg.get("rules_version") not in (None, g.rules.version):
            self.refuse(conn, side, "version", f"the host plays {g.rules.id} rules version {g.rules.version}; "
                                               "this seat's program has another")
            return
        if side == SPECTATOR:
            if len(self.spectators) >= MAX_SPECTATORS:
                self.refuse(conn, side, "full", f"{MAX_SPECTATORS} spectators already watch this game")
                return
            self.spectators.append(conn)
        else:
            taken = self.seats.get(side)
            held = self.tokens.get(side)
            same_seat = held is not None and msg.get("token") == held
            if taken is not None and not taken.closed and not same_seat:
                self.refuse(conn, side, "taken", f"the {side} side is taken: its seat is connected to this game now")
                return
            if held is not None and not same_seat:
                # the side's seat dropped: the side stays its player's, and his token is the proof
                self.refuse(conn, side, "token", f"the {side} side is kept for its player, whose seat dropped: "
                                                 "only that seat's token takes it back", game=g.game_id)
                return
            if taken is not None:
                taken.close()  # the same seat, back on a new connection: the old one is dead
            if held is None:
                self.tokens[side] = secrets.token_hex(16)
                self._keep_tokens()
            self.seats[side] = conn
        conn.side = side
        known = msg.get("known", 0)
        start = 0
        # the seat's copy is this game up to action `known` if its last hash agrees: send only the rest
        if (msg.get("game") == g.game_id and isinstance(known, int) and not isinstance(known, bool)
                and 0 < known <= len(g.log) and msg.get("hash") == g.hashes[known - 1]):
            start = known
        token = {"token": self.tokens[side]} if side in self.tokens else {}
        conn.send(encode("welcome", side=side, **token, program=f"kiev-tui {__version__}", header=game_header(g),
                         start=start, actions=[entry_of(g, i, side) for i in range(start, len(g.log))],
                         present=sorted(self.seats)))
        self.say(f"{'a spectator' if side == SPECTATOR else 'the ' + side + ' seat'} joined "
                 f"({'from action ' + str(start) if start else 'the whole record'}, {len(g.log)} actions)")
        self.broadcast(self.seats_message(), skip=conn)

    def refuse(self, conn: Conn, side: str, code: str, why: str, **extra: Any) -> None:
        """Tell a seat why it is not seated, close it, and log one line (it never acts)."""
        conn.send(encode("error", code=code, why=why, **extra))
        conn.close()
        self.say(f"refused a seat for {shorten(side, 20)} ({code}): {why}")

    def _load_tokens(self) -> dict[str, str]:
        """The tokens kept beside the autosave for this game; none if there are none (a new game)."""
        path = self.tokens_path
        try:
            if not path.exists():
                return {}
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            self.say(f"warning: {path}: cannot read the seats' tokens ({shorten(str(exc))}); "
                     "each side goes to its first seat")
            return {}
        sides = set(self.game.rules.schema.sides)
        tokens = data.get("tokens")
        if data.get("game") != self.game.game_id or not isinstance(tokens, dict):
            return {}  # another game's (an autosave path used again): nothing of this game's seats
        return {side: token for side, token in tokens.items()
                if side in sides and isinstance(token, str) and len(token) == 32}

    def _keep_tokens(self) -> None:
        """Write the tokens beside the autosave (mode 0600: they are the players' keys to their sides)."""
        path = self.tokens_path
        text = tomli_w.dumps({"game": self.game.game_id, "tokens": dict(sorted(self.tokens.items()))})
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except OSError as exc:
            try:
                tmp.unlink()
            except OSError:
                pass
            self.say(f"warning: cannot keep the seats' tokens in {path} ({exc.strerror or exc}); "
                     "a host resumed from the autosave gives each side to its first seat")

    def seats_message(self) -> bytes:
        return encode("seats", present=sorted(self.seats))

    def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "ping":
            conn.send(encode("pong"))
            return
        if kind == "hello":
            raise WireError("hello twice")
        ref = msg.get("ref", 0)
        if not isinstance(ref, int) or isinstance(ref, bool):
            raise WireError("'ref' must be a whole number")
        if kind == "undo":
            self.undo(conn, ref)
            return
        data = field(msg, "action", dict)
        self.act(conn, data, ref)

    def act(self, conn: Conn, data: dict[str, Any], ref: int) -> None:
        """Check and play one seat's action; tell that seat why not, or every seat what happened."""
        g = self.game
        if conn.side == SPECTATOR:
            conn.send(encode("refused", ref=ref, case=g.rules.cases.wrong_side, why="a spectator watches and never acts"))
            return
        try:
            action = g.rules.actions.from_toml(dict(data), "action", "the seat's message")
        except DataError as exc:
            conn.send(encode("refused", ref=ref, case="", why=one_line(exc.reason)[:300]))
            return
        try:
            illegal: Illegal | None = g.check(action, side=conn.side)  # the seat's side, never the game's actor
        except Exception as exc:  # noqa: BLE001 - values no seat of ours sends reached the rules
            illegal = Illegal("", f"not an action the rules can judge ({type(exc).__name__})")
        if illegal is not None:
            conn.send(encode("refused", ref=ref, case=illegal.case, why=illegal.why))
            return
        before = len(g.journal)
        try:
            g.apply(action, side=conn.side)
        except Exception as exc:  # noqa: BLE001 - a rule-system bug: the game is put back, the host goes on
            conn.send(encode("refused", ref=ref, case="", why=f"internal error ({type(exc).__name__}); "
                                                               "the game is as it was"))
            self.say(f"note: {action.kind} failed inside the rules: {type(exc).__name__}: {shorten(str(exc))}")
            return
        self.autosave()  # before any seat hears of it: a restart never loses what a seat has seen
        lines = [e.describe() for e in g.journal[before:]]  # the journal is public
        n = len(g.log) - 1
        conn.send(encode("accepted", ref=ref, n=n, **entry_of(g, n, conn.side), lines=lines))  # the sender's ref
        # every other seat gets the action as its side may see it: a hidden choice sealed
        for other in [*self.seats.values(), *self.spectators]:
            if other is not conn:
                other.send(encode("accepted", n=n, **entry_of(g, n, other.side), lines=lines))

    def undo(self, conn: Conn, ref: int) -> None:
        """Take back the seat's own last action, within the engine's rule: never over a roll,
        a reveal or a hand-over; and only while the move is still that seat's."""
        g = self.game
        if conn.side == SPECTATOR or not g.log or g.sides[-1] != conn.side or g.actor != conn.side:
            conn.send(encode("refused", ref=ref, case="", why="only the player who made the last action may take "
                                                                "it back, and only while the move is still his"))
            return
        if not g.undo():
            conn.send(encode("refused", ref=ref, case="", why="nothing to undo: a die roll, a reveal or a change "
                                                               "of player cannot be taken back"))
            return
        self.autosave()
        conn.send(encode("undone", ref=ref, n=len(g.log), hash=g.hashes[-1] if g.hashes else ""))
        self.broadcast(encode("undone", n=len(g.log), hash=g.hashes[-1] if g.hashes else ""), skip=conn)

    def autosave(self) -> None:
        try:
            save_game(self.game, self.save_path)
            if self.save_error:
                self.say(f"autosave works again: {self.save_path}")
            self.save_error = ""
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if reason != self.save_error:
                self.say(f"warning: the autosave {self.save_path} failed ({reason}); the game goes on")
            self.save_error = reason

    def broadcast(self, data: bytes, skip: Conn | None = None) -> None:
        for conn in [*self.seats.values(), *self.spectators]:
            if conn is not skip:
                conn.send(data)


def start_game(ref: str, seed: int | None, save: Path | None) -> tuple[Game, Path, bool]:
    """The game to host: a save to resume (it stays the autosave), or a new game of a scenario."""
    from kiev_tui.engine import savepaths
    from kiev_tui.engine.saves import load_game
    from kiev_tui.engine.tomlio import exists, load_toml

    path = Path(ref)
    if ref.endswith(".toml") and exists(path) and "save" in load_toml(path):
        game = load_game(path)
        return game, (save or path), True
    game = Game.new(ref, seed)
    target = save or savepaths.saves_dir() / f"net-{game.game_id[:8]}.toml"
    return game, target, False


def watch_lifeline(host: Host, fd: int, stop: asyncio.Event) -> None:
    """Stop the host, its game saved, once ``fd`` reads end of file: the other end of that pipe
    is held only by the process that started the host (`kiev-tui serve`), and the kernel closes
    it when that process dies, even by SIGKILL.  Bytes read from it mean nothing."""
    loop = asyncio.get_running_loop()
    os.set_blocking(fd, False)

    def readable() -> None:
        try:
            if os.read(fd, 4096):
                return
        except BlockingIOError:
            return
        except OSError:
            pass  # a broken lifeline is a cut one
        loop.remove_reader(fd)
        host.say("the process that started this host is gone: saving the game and stopping")
        host.autosave()
        stop.set()

    loop.add_reader(fd, readable)


async def run_host(game: Game, save_path: Path, addresses: list[Address], ready: Callable[[str], None],
                   say: Callable[[str], None] | None = None, stop: asyncio.Event | None = None,
                   lifeline: int | None = None) -> Host:
    """Serve ``game`` on ``addresses`` until ``stop`` is set (or SIGINT/SIGTERM/SIGHUP, or the
    ``lifeline`` pipe's end); the host, closed."""
    host = Host(game, save_path, say)
    stop = stop or asyncio.Event()
    if lifeline is not None:
        watch_lifeline(host, lifeline, stop)
    await host.serve_until(addresses, ready, stop)
    return host


__all__ = ["Conn", "Host", "run_host", "start_game", "watch_lifeline"]
