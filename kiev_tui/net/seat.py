"""A seat: one player's (or a spectator's) connection to the host, and the replica it keeps.

The connection is a plain socket with one reader thread, so both faces can use it: the game
screen hands each message to its own thread (`App.call_from_thread`), plain mode takes a lock.
Either way the face calls `absorb(msg)` for every message, on its own thread, and gets an
`Update` saying what changed.  Nothing here imports Textual.

When the link drops the reader thread dials again (for `retry` seconds), saying how much of
the record the replica holds, and the host sends only the rest.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field as dc_field
from typing import Any, Callable

from kiev_tui import __version__
from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal, one_line
from kiev_tui.engine.events import Event
from kiev_tui.net.replica import Replica
from kiev_tui.net.tokens import TokenStore
from kiev_tui.net.wire import HOST_TYPES, MAX_LINE, SPECTATOR, Address, WireError, decode, encode, field

CONNECT_TIMEOUT = 10.0


class SeatError(Exception):
    """The host would not seat us (side taken, another version), or could not be reached."""

    def __init__(self, code: str, why: str, game: str = "") -> None:
        self.code = code
        self.why = why
        self.game = game  # the host's game, when it says (a side kept for its player: code "token")
        super().__init__(why)


@dataclass
class Update:
    """What one message from the host changed, for the face to show."""

    kind: str  # accepted, undone, refused, synced, rebuilt, seats, lost, gone, note, nothing
    events: list[Event] = dc_field(default_factory=list)
    side: str = ""  # who played the accepted action
    own: bool = False  # the answer to this seat's own action
    illegal: Illegal | None = None
    text: str = ""


def _connect(address: Address, timeout: float) -> socket.socket:
    if address.kind == "unix":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(address.path)
        except OSError:
            sock.close()
            raise
    else:
        sock = socket.create_connection((address.host, address.port), timeout=timeout)
    return sock


class _Lines:
    """Lines from a socket, each at most MAX_LINE bytes."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.received = 0

    def next(self) -> bytes | None:
        while b"\n" not in self.buf:
            if len(self.buf) > MAX_LINE:
                raise WireError(f"a line over the {MAX_LINE}-byte limit")
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.received += len(chunk)
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line


class SeatLink:
    """The seat's side of the wire; `replica` is its copy of the game once `connect` returned."""

    def __init__(self, address: Address, side: str, retry: float = 60.0, store: TokenStore | None = None) -> None:
        self.address = address
        # this account's tokens (kiev_tui/net/tokens.py): a join started again takes its side back
        self.store = store if store is not None else TokenStore()
        self.token_note = ""  # why the token could not be kept, for the face to say once
        self.side = side
        self.retry = retry
        self.replica: Replica | None = None
        self.present: list[str] = []  # the sides whose seats are connected now
        self.lock = threading.RLock()  # held while the replica changes
        self._send_lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._lines: _Lines | None = None
        self._ref = 0
        self.waiting_ref = 0  # the ref of our action the host has not answered yet (0: none)
        self.sent = 0
        self.received = 0
        self.closing = False
        self.connected = False
        self._full = False  # the replica went wrong: ask for the whole record next time
        self.token = ""  # given by the host, and kept in `store`: only it takes our side back once we drop
        self._handler: Callable[[dict[str, Any]], None] | None = None
        self._thread: threading.Thread | None = None

    # -- dialling ------------------------------------------------------------------------------
    def _hello(self, sock: socket.socket) -> dict[str, Any]:
        r = self.replica
        known = {} if r is None or self._full else {"game": r.game.game_id, "known": r.known, "hash": r.last_hash}
        rules = {"rules_version": r.game.rules.version} if r is not None else {}
        token = {"token": self.token} if self.token else {}
        data = encode("hello", side=self.side, program=f"kiev-tui {__version__}", **known, **rules, **token)
        sock.sendall(data)
        self.sent += len(data)
        lines = _Lines(sock)
        line = lines.next()
        self.received += lines.received
        lines.received = 0
        if line is None:
            raise SeatError("closed", "the host closed the connection before seating us")
        msg = decode(line, HOST_TYPES)
        if msg["t"] == "error":
            raise SeatError(str(msg.get("code", "")), str(msg.get("why", "refused")), str(msg.get("game", ""))[:64])
        if msg["t"] != "welcome":
            raise WireError(f"expected a welcome, got {msg['t']}")
        if isinstance(msg.get("token"), str):
            self.token = msg["token"][:64]
            header = msg.get("header")
            game = header.get("game_id") if isinstance(header, dict) else None
            if isinstance(game, str) and self.side != SPECTATOR:
                self.token_note = self.store.put(self.address, game, self.side, self.token)
        sock.settimeout(None)
        self._sock, self._lines = sock, lines
        return msg

    def connect(self, timeout: float = CONNECT_TIMEOUT) -> None:
        """Dial, be seated and build the replica from the record; SeatError if refused or unreachable."""
        try:
            sock = _connect(self.address, timeout)
        except OSError as exc:
            raise SeatError("unreachable", f"cannot reach the host at {self.address}: {exc.strerror or exc}") from None
        try:
            welcome = self._hello(sock)
        except (OSError, WireError) as exc:
            sock.close()
            raise SeatError("protocol", f"the host at {self.address} did not seat us: {exc}") from None
        except SeatError as exc:
            sock.close()
            if not self._kept_token(exc):
                if exc.code == "token":
                    raise SeatError(exc.code, f"{exc.why} (this account keeps no token for the {self.side} side "
                                              f"of game {exc.game[:8]} at {self.address})", exc.game) from None
                raise
            self.connect(timeout)  # again, with the token this account kept from its last seat
            return
        self.absorb(welcome)
        self.connected = True

    def _kept_token(self, refusal: SeatError) -> bool:
        """After a refusal for a side kept for its player: take this account's kept token for that
        game if it is one not tried yet (True: dial again with it)."""
        if refusal.code != "token" or not refusal.game:
            return False
        kept = self.store.get(self.address, refusal.game, self.side)
        if not kept or kept == self.token:
            return False
        self.token = kept
        return True

    def start(self, handler: Callable[[dict[str, Any]], None]) -> None:
        """Read the host's messages on a thread of our own; each goes to ``handler`` (not yet absorbed)."""
        self._handler = handler
        self._thread = threading.Thread(target=self._read_loop, name="kiev-tui seat", daemon=True)
        self._thread.start()

    def _read_loop(self) -> None:
        while not self.closing:
            lines = self._lines
            try:
                line = lines.next() if lines is not None else None
                if lines is not None:
                    self.received += lines.received
                    lines.received = 0
                if line is not None:
                    self._deliver(decode(line, HOST_TYPES))
                    continue
            except (OSError, WireError):
                pass
            except Exception:  # noqa: BLE001 - a message the face could not show: start again from the record
                self._full = True
            if self.closing:
                return
            self._drop()
            self._deliver({"t": "lost"})
            if not self._redial():
                self._deliver({"t": "gone", "why": self._gone})
                return

    _gone = ""

    def _redial(self) -> bool:
        deadline = time.monotonic() + self.retry
        pause = 0.2
        while not self.closing and time.monotonic() < deadline:
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
            try:
                sock = _connect(self.address, CONNECT_TIMEOUT)
            except OSError:
                continue
            try:
                with self.lock:  # the replica must not change while we tell the host how far it goes
                    welcome = self._hello(sock)
            except SeatError as exc:
                sock.close()
                self._gone = exc.why
                if self._kept_token(exc):
                    continue
                if exc.code in ("taken", "version", "token"):
                    return False
                continue
            except (OSError, WireError):
                sock.close()
                continue
            self.connected = True
            self._deliver(welcome)
            return True
        self._gone = self._gone or f"the host at {self.address} did not come back within {self.retry:g} seconds"
        return False

    def _deliver(self, msg: dict[str, Any]) -> None:
        if self._handler is not None and not self.closing:
            self._handler(msg)

    def _drop(self) -> None:
        self.connected = False
        sock, self._sock, self._lines = self._sock, None, None
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass

    def close(self) -> None:
        self.closing = True
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._drop()

    # -- sending -------------------------------------------------------------------------------
    def submit(self, action: Action) -> str:
        """Send one action to the host; "" when sent, else why not (in one line)."""
        return self._send("act", action=action.to_toml())

    def request_undo(self) -> str:
        """Ask the host to take back our last action; "" when asked, else why not (in one line)."""
        return self._send("undo")

    def _send(self, kind: str, **body: Any) -> str:
        if self.side == SPECTATOR:
            return "a spectator watches and never acts"
        if self.waiting_ref:
            return "the host has not yet answered your last action"
        with self._send_lock:
            sock = self._sock
            if sock is None:
                return "not connected to the host (reconnecting); nothing was sent"
            self._ref += 1
            data = encode(kind, ref=self._ref, **body)
            # set before sending: the answer may be read on the other thread before sendall returns
            self.waiting_ref = self._ref
            try:
                sock.sendall(data)
            except OSError:
                self.waiting_ref = 0
                return "the connection to the host broke; nothing was sent"
            self.sent += len(data)
        return ""

    # -- receiving (on the face's own thread) ---------------------------------------------------
    def absorb(self, msg: dict[str, Any]) -> Update:
        """Bring the replica up to date with one message from the host; what changed."""
        with self.lock:
            try:
                return self._absorb(msg)
            except WireError as exc:
                # this copy no longer agrees with the host: start again from the whole record
                self._full = True
                self._drop_socket_only()
                return Update("note", text=f"resynchronising with the host ({one_line(str(exc))[:200]})")

    def _drop_socket_only(self) -> None:
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # the reader thread sees the end and dials again
            except OSError:
                pass

    def _absorb(self, msg: dict[str, Any]) -> Update:
        kind = msg.get("t")
        if kind == "welcome":
            return self._welcome(msg)
        if kind == "accepted":
            assert self.replica is not None
            n = field(msg, "n", int)
            if n != self.replica.known:
                raise WireError(f"action {n + 1} arrived, this copy has {self.replica.known}")
            own = self.waiting_ref != 0 and msg.get("ref") == self.waiting_ref
            if own:
                self.waiting_ref = 0
            events = self.replica.apply_entry(msg)
            return Update("accepted", events, side=str(msg.get("side", "")), own=own)
        if kind == "undone":
            assert self.replica is not None
            n = field(msg, "n", int)
            own = self.waiting_ref != 0 and msg.get("ref") == self.waiting_ref
            if own:
                self.waiting_ref = 0
            g = self.replica.game
            side = g.sides[-1] if g.sides else ""
            # the replica keeps the same undo steps as the host: it played the same actions the same way
            if n != self.replica.known - 1 or not g.undo() or self.replica.last_hash != msg.get("hash", ""):
                raise WireError(f"the host took back action {n + 1}; this copy cannot follow")
            return Update("undone", own=own, side=side)
        if kind == "refused":
            own = msg.get("ref") == self.waiting_ref
            if own:
                self.waiting_ref = 0
            return Update("refused", own=own, illegal=Illegal(str(msg.get("case", "")), str(msg.get("why", ""))))
        if kind == "seats":
            self.present = [str(s) for s in field(msg, "present", list, [])]
            return Update("seats")
        if kind == "lost":
            self.waiting_ref = 0  # an action in flight is either in the record we get back, or was never played
            return Update("lost", text="connection to the host lost; reconnecting...")
        if kind == "gone":
            return Update("gone", text=f"the host is gone: {msg.get('why', '')}")
        if kind == "error":
            return Update("note", text=f"the host says: {str(msg.get('why', ''))[:300]}")
        return Update("nothing")

    def _welcome(self, msg: dict[str, Any]) -> Update:
        header = field(msg, "header", dict)
        start = field(msg, "start", int)
        entries = field(msg, "actions", list, [])
        self.present = [str(s) for s in field(msg, "present", list, [])]
        r = self.replica
        rebuilt = r is None or self._full or r.game.game_id != header.get("game_id") or start != r.known
        if rebuilt:
            if start != 0:
                raise WireError(f"the host sent only the actions after the first {start}; this seat has none of the game yet")
            r = Replica.build(header)
        assert r is not None
        events: list[Event] = []
        for entry in entries:
            events.extend(r.apply_entry(entry))
        self.replica = r
        self._full = False
        if r is not None and self.waiting_ref:
            self.waiting_ref = 0
        return Update("rebuilt" if rebuilt else "synced", events)


__all__ = ["SeatError", "SeatLink", "Update"]
