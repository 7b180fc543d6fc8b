"""Local saves signed with this user's key: an HMAC-SHA256 over the save's record.

The key is 32 random bytes kept, as 64 hex digits, in ``$XDG_CONFIG_HOME/kiev-tui/save.key``
(default ``~/.config/kiev-tui/save.key``), made with mode 0600 the first time a save is written
or read.  A save of a game whose every action was played by this program, with its own dice (or
that came from a save this key signed), carries ``[signature]``: the key's id and the HMAC of
its header, actions with their dice and hashes, reload notices and final hash.

What it shows, and what not (docs/PBEM.md): a save signed with this user's key was written by
kiev-tui under this key and not changed since, so an edited save is flagged.  It proves nothing
against the key's owner, who can run any program with it; a fair game between two players is
what play by e-mail proves (kiev_tui/pbem/).  A save signed with another key (another user or
machine) still loads: the signature is a flag, never a refusal.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiev_tui import nossl as hashlib  # no OpenSSL at start-up (issue 33)
from kiev_tui import nossl as secrets

KEY_BYTES = 32
HEX = frozenset("0123456789abcdef")

# What `check` can find (Verdict.status)
SIGNED = "signed"  # with this user's key, and unchanged since
UNSIGNED = "unsigned"
OTHER_KEY = "other"  # with another key: cannot be checked here
EDITED = "edited"  # with this user's key, but changed since (or a damaged signature)
UNCHECKED = "unchecked"  # this user's key cannot be read


class SaveKeyError(Exception):
    """The key file cannot be read or made; str() is one line naming the file."""


def key_path() -> Path:
    """Where this user's save key lives."""
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "kiev-tui" / "save.key"


def _make(path: Path) -> None:
    """A new key at ``path``, unless another process made one first (then that one stands)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(KEY_BYTES) + "\n")
        try:
            os.link(tmp, path)  # whole or not at all, and never over a key another process made
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def load_key(path: Path | None = None) -> bytes:
    """This user's save key, made on first use; SaveKeyError (one line) if it cannot be."""
    path = key_path() if path is None else path
    try:
        if not os.path.lexists(path):
            _make(path)
        text = path.read_text(encoding="ascii").strip()
    except OSError as exc:
        raise SaveKeyError(f"{path}: cannot read or make the save key ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        text = ""
    if len(text) != 2 * KEY_BYTES or not set(text) <= HEX:
        raise SaveKeyError(f"{path}: not a save key (expected {2 * KEY_BYTES} hex digits)")
    return bytes.fromhex(text)


def key_id(key: bytes) -> str:
    """A short name of the key that tells nothing of it."""
    import hmac  # here, not at the top: hmac loads OpenSSL, which a game that saves nothing never needs

    return hmac.new(key, b"kiev-tui save key id", hashlib.sha256).hexdigest()[:16]


def record(data: dict[str, Any]) -> bytes:
    """The signed part of a save (as written, or as read back): header, actions with their dice
    and hashes, reload notices, final hash and count of draws, in one canonical form."""
    final = data.get("final")
    final = final if isinstance(final, dict) else {}
    part = {"save": data.get("save"), "action": data.get("action", []), "reload": data.get("reload", []),
            "final": {"hash": final.get("hash"), "rolls": final.get("rolls")}}
    return json.dumps(part, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode("utf-8")


def sign(data: dict[str, Any], key: bytes) -> dict[str, str]:
    """The ``[signature]`` table for a save's data."""
    import hmac

    return {"key": key_id(key), "hmac": hmac.new(key, record(data), hashlib.sha256).hexdigest()}


@dataclass(frozen=True)
class Verdict:
    status: str  # SIGNED, UNSIGNED, OTHER_KEY, EDITED or UNCHECKED
    line: str  # what `replay --verify` prints


def check(data: dict[str, Any], path: Path | None = None) -> Verdict:
    """What a save's signature says (``data``: the save as read); never raises."""
    table = data.get("signature")
    if table is None:
        return Verdict(UNSIGNED, "signature: none: this save is not signed (written by an older kiev-tui, "
                                 "from a game that came from an unsigned save, or without a readable key)")
    if (not isinstance(table, dict) or set(table) != {"key", "hmac"}
            or not all(isinstance(v, str) for v in table.values())):
        return Verdict(EDITED, "signature: damaged (expected [signature] with key and hmac): "
                               "the save was changed after it was written")
    try:
        key = load_key(path)
    except SaveKeyError as exc:
        return Verdict(UNCHECKED, f"signature: not checked: {exc}")
    mine = key_id(key)
    if table["key"] != mine:
        return Verdict(OTHER_KEY, f"signature: signed with another key ({table['key'][:16]}), not this user's "
                                  "(another user or machine): it cannot be checked here")
    import hmac

    if not hmac.compare_digest(table["hmac"], sign(data, key)["hmac"]):
        return Verdict(EDITED, "signature: DOES NOT MATCH this user's key: the save was changed after "
                               "kiev-tui wrote it")
    return Verdict(SIGNED, f"signature: signed with this user's key ({mine}), unchanged since kiev-tui wrote it")


__all__ = ["EDITED", "OTHER_KEY", "SIGNED", "SaveKeyError", "UNCHECKED", "UNSIGNED", "Verdict", "check",
           "key_id", "key_path", "load_key", "record", "sign"]
