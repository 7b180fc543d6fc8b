"""The wire between a host and its seats: one JSON object per line, versioned and capped.

Every message is a JSON object with ``v`` (the protocol version) and ``t`` (its type), written
as one line of UTF-8 ending in a newline.  A line longer than `MAX_LINE` bytes, a line that is
not a JSON object, or one of an unknown version or type is a `WireError`: whoever reads it
closes that one connection and nothing else (docs/NETPLAY.md lists the messages).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any

VERSION = 1
# A whole Kiev campaign's sync is about 35 KB of JSON; 4 MiB leaves room for any log while a
# stream of garbage is cut off long before it costs memory.
MAX_LINE = 4 * 1024 * 1024
# What a seat may send: a hello, then actions, requests to take its last one back, and pings.
SEAT_TYPES = ("hello", "act", "undo", "ping")
HOST_TYPES = ("welcome", "accepted", "undone", "refused", "error", "seats", "pong", "note")
SPECTATOR = "spectator"


class WireError(Exception):
    """A line that breaks the protocol; str() says why in one line."""


def encode(kind: str, **fields: Any) -> bytes:
    """One message as its line on the wire (compact JSON, newline-terminated)."""
    msg = {"v": VERSION, "t": kind, **fields}
    data = json.dumps(msg, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(data) >= MAX_LINE:
        raise WireError(f"a {kind} message of {len(data)} bytes is over the {MAX_LINE}-byte limit")
    return data + b"\n"


def _no_constants(name: str) -> Any:
    raise WireError(f"{name} is not a number the protocol allows")


def decode(line: bytes, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The message a line holds; WireError for anything that is not one of ``allowed`` types."""
    if len(line) > MAX_LINE:
        raise WireError(f"a line of {len(line)} bytes is over the {MAX_LINE}-byte limit")
    try:
        msg = json.loads(line.decode("utf-8"), parse_constant=_no_constants)
    except WireError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"not a JSON line ({type(exc).__name__})") from None
    if not isinstance(msg, dict):
        raise WireError("a message is a JSON object")
    if msg.get("v") != VERSION:
        raise WireError(f"protocol version {str(msg.get('v'))[:20]} is not {VERSION}")
    kind = msg.get("t")
    if kind not in allowed:
        raise WireError(f"unknown message type {str(kind)[:30]!r}")
    return msg


def field(msg: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    """A field of a message, of the type asked for (bool is never an int here), else WireError."""
    if key not in msg:
        if default is not None:
            return default
        raise WireError(f"a {msg.get('t')} message needs '{key}'")
    value = msg[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise WireError(f"'{key}' must be a whole number")
    if kind is float and isinstance(value, float) and not math.isfinite(value):
        raise WireError(f"'{key}' must be finite")
    if not isinstance(value, kind):
        raise WireError(f"'{key}' must be a {kind.__name__}")
    return value


@dataclass(frozen=True)
class Address:
    """Where a host listens: a Unix socket path, or a loopback TCP port."""

    kind: str  # "unix" or "tcp"
    path: str = ""
    host: str = ""
    port: int = 0

    def __str__(self) -> str:
        return f"unix:{self.path}" if self.kind == "unix" else f"tcp:{self.host}:{self.port}"


LOOPBACK = ("127.0.0.1", "::1", "localhost")


def parse_address(text: str) -> Address:
    """``unix:PATH`` or ``tcp:127.0.0.1:PORT``; ValueError (one line) for anything else.

    TCP is loopback only: the wire has no passwords, so players on other machines come in over
    SSH (docs/NETPLAY.md), never straight to the port.
    """
    kind, sep, rest = text.partition(":")
    if not sep or not rest:
        raise ValueError(f"'{text[:60]}' is not an address (unix:PATH or tcp:127.0.0.1:PORT)")
    if kind == "unix":
        if "\0" in rest:
            raise ValueError("a socket path cannot hold a NUL")
        return Address("unix", path=os.fspath(rest))
    if kind == "tcp":
        host, sep, port = rest.rpartition(":")
        host = host.strip("[]")
        if not sep or not port.isdigit() or int(port) > 65535:
            raise ValueError(f"'{text[:60]}': expected tcp:127.0.0.1:PORT")
        if host not in LOOPBACK:
            raise ValueError(f"'{text[:60]}': the host listens on loopback only (127.0.0.1); "
                             "players elsewhere come in over SSH")
        return Address("tcp", host=host, port=int(port))
    raise ValueError(f"'{text[:60]}': unknown kind of address '{kind[:20]}' (unix:PATH or tcp:127.0.0.1:PORT)")


__all__ = ["Address", "MAX_LINE", "SPECTATOR", "VERSION", "WireError", "decode", "encode", "field",
           "parse_address"]
