"""A seat's tokens, kept where a later `kiev-tui join` of the same account finds them.

The host gives each side's first seat a token; once that seat drops, only the token takes the
side back (docs/NETPLAY.md).  A seat that is started again (the terminal closed, the SSH link
died) needs it, so every token is written to a file of its own under
``$XDG_STATE_HOME/kiev-tui/seats/`` (default ``~/.local/state/kiev-tui/seats/``), readable by
this account alone, one file per host address, game and side.  Nothing here imports Textual.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from pathlib import Path

import tomli_w

from kiev_tui.net.wire import Address

TOKEN_CHARS = frozenset("0123456789abcdef")


def state_folder() -> Path:
    """Where this account keeps its seats' tokens."""
    base = os.environ.get("XDG_STATE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "state"
    return root / "kiev-tui" / "seats"


def address_key(address: Address) -> str:
    """The address as it names one host: a socket by its absolute path (a relative one is
    relative to where join runs), a TCP port by host and port."""
    if address.kind == "unix":
        return f"unix:{os.path.abspath(address.path)}"
    return str(address)


def _valid(token: object) -> bool:
    return isinstance(token, str) and 16 <= len(token) <= 64 and set(token) <= TOKEN_CHARS


class TokenStore:
    """Tokens by (address, game, side), each in a file of its own (mode 0600)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else state_folder()

    def path(self, address: Address, game: str, side: str) -> Path:
        name = hashlib.sha256(f"{address_key(address)}\n{game}\n{side}".encode()).hexdigest()[:32]
        return self.folder / f"{name}.toml"

    def get(self, address: Address, game: str, side: str) -> str:
        """The token kept for this seat, or "" (none, or a file that cannot be read or is not ours)."""
        try:
            data = tomllib.loads(self.path(address, game, side).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return ""
        if (data.get("address"), data.get("game"), data.get("side")) != (address_key(address), game, side):
            return ""
        token = data.get("token")
        return token if _valid(token) else ""

    def put(self, address: Address, game: str, side: str, token: str) -> str:
        """Keep the token; "" when kept, else why not (one line: the seat plays on without it)."""
        target = self.path(address, game, side)
        text = tomli_w.dumps({"address": address_key(address), "game": game, "side": side, "token": token})
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)  # a reader sees the old token or the new, never half of one
        except OSError as exc:
            try:
                tmp.unlink()
            except OSError:
                pass
            return (f"cannot keep this seat's token in {target} ({exc.strerror or exc}): once this join "
                    "ends, no later join can take the side back")
        return ""


__all__ = ["TokenStore", "address_key", "state_folder"]
