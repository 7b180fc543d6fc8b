"""Who may log in: the players of an OpenSSH authorized_keys file, each known by his key.

Every line is `[options] TYPE BASE64 [COMMENT]`.  The key's SHA256 fingerprint identifies the
player; the comment gives the name shown in the lobby and used for his saves (its part before
an `@`, cut to the characters a save name allows).  Options such as `restrict,pty` are accepted
so that one file can serve both `kiev-tui serve` and OpenSSH's ForceCommand route; `serve`
itself grants nothing but the game to anyone, so it needs none of them.
"""

from __future__ import annotations

import hashlib
import logging
import string
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from kiev_tui.engine.errors import DataError, one_line, shorten

NAME_CHARS = string.ascii_letters + string.digits + "-_."
MAX_NAME = 24  # savepaths allows 32 for a player: room for "-" and a six-letter tag
MAX_LINE = 16384  # a 16384-bit RSA key is under 3 KB of base64; longer is not a key line


@dataclass(frozen=True, slots=True)
class Player:
    """One person at the server: his key's fingerprint and the name the lobby calls him."""

    fingerprint: str  # "SHA256:..." as ssh-keygen -l prints it
    name: str  # unique among the file's players; letters, digits, - _ . only (savepaths.player_name)

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint})"


def _tokens(line: str) -> list[str]:
    """Split on blanks outside double quotes (an option like from="a, b" holds blanks)."""
    out: list[str] = []
    cur: list[str] = []
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if ch in " \t" and not quoted:
            if cur:
                out.append("".join(cur))
                cur = []
            continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def _plain_name(comment: str) -> str:
    user = comment.split("@", 1)[0]
    name = "".join(ch for ch in user if ch in NAME_CHARS).lstrip("-_.")[:MAX_NAME]
    return name


def parse_line(text: str, file: str, key: str) -> tuple[asyncssh.SSHKey, str] | None:
    """The key and comment of one authorized_keys line, None for a blank or comment line."""
    line = text.strip()
    if not line or line.startswith("#"):
        return None
    if len(line) > MAX_LINE:
        raise DataError(file, key, f"a line of {len(line)} characters is not a key")
    words = _tokens(line)
    # The key type is the first or the second word (after the options), as sshd reads it.
    for at in (0, 1):
        if len(words) < at + 2:
            break
        try:
            public = asyncssh.import_public_key(f"{words[at]} {words[at + 1]}")
        except (asyncssh.KeyImportError, ValueError):
            continue
        return public, " ".join(words[at + 2:])
    raise DataError(file, key, f"not a public key line: '{one_line(shorten(line, 60))}'")


def load_players(path: Path) -> dict[str, Player]:
    """Fingerprint -> player for every key in the file; DataError names the file, line and reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(path, "", "no such file") from None
    except UnicodeDecodeError:
        raise DataError(path, "", "not UTF-8 text") from None
    except OSError as exc:
        raise DataError(path, "", f"cannot read ({exc.strerror or exc})") from None
    found: list[tuple[str, str, str]] = []  # fingerprint, name asked for, where
    for n, raw in enumerate(text.splitlines(), 1):
        parsed = parse_line(raw, str(path), f"line {n}")
        if parsed is None:
            continue
        public, comment = parsed
        found.append((public.get_fingerprint("sha256"), _plain_name(comment), f"line {n}"))
    if not found:
        raise DataError(path, "", "no keys: nobody could log in")
    return _name_players(found)


def _tag(fingerprint: str) -> str:
    return hashlib.sha256(fingerprint.encode()).hexdigest()[:6]


def _name_players(found: list[tuple[str, str, str]]) -> dict[str, Player]:
    """Names made unique: a name two different keys ask for gets each key's tag after it.

    One key listed twice is one player (its first line's name); two people whose comments
    read alike ("pi@raspberrypi") must never share an autosave.
    """
    first: dict[str, str] = {}
    for fp, name, _where in found:
        first.setdefault(fp, name)
    counts: dict[str, int] = {}
    for name in first.values():
        counts[name] = counts.get(name, 0) + 1
    players: dict[str, Player] = {}
    for fp, name in first.items():
        if not name:
            name = f"player-{_tag(fp)}"
        elif counts[name] > 1:
            name = f"{name}-{_tag(fp)}"
        players[fp] = Player(fp, name)
    return players


class PlayerBook:
    """The players of an authorized_keys file, read again whenever the file changes, so a
    friend's key added to it lets him in without a restart.  A file broken by an edit keeps
    the last good list (and says why in the log) rather than locking everybody out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.players = load_players(path)
        self._stamp = self._stat()
        self.problem = ""

    def _stat(self) -> tuple[int, int, int]:
        try:
            st = self.path.stat()
        except OSError:
            return (0, 0, 0)
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def find(self, fingerprint: str) -> Player | None:
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self.players = load_players(self.path)
                self.problem = ""
            except DataError as exc:
                self.problem = exc.line()
                logging.getLogger("kiev_tui.serve").warning("keeping the last good keys: %s", self.problem)
        return self.players.get(fingerprint)

    def __len__(self) -> int:
        return len(self.players)
