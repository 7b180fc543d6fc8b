"""A player's folder for one game by e-mail: his record of every message, his secret, his turn files.

- ``NAME.pbem.toml``: every message of the game so far, in order (anyone may read it;
  `kiev-tui pbem verify` checks it whole);
- ``NAME.secret.toml``: the player's own chain seed; never sent (written readable by him only);
- ``NAME.hidden.toml``: the player's own hidden choices (commitment -> choice and salt);
  turn files carry only the commitment (readable by him only);
- ``NAME-NNN.toml``: message NNN as sent (and ``.sig`` when signed).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiev_tui.engine.actions import Action, action_from_toml, action_key
from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.tomlio import Reader, atomic_write_text, dump_toml, load_toml
from kiev_tui.pbem.protocol import FORMAT, Secret, digest

RECORD = ".pbem.toml"
SECRET = ".secret.toml"
HIDDEN = ".hidden.toml"  # views and secrets: this player's hidden choices


@dataclass
class Folder:
    """Where one player keeps one game."""

    dir: Path
    name: str

    @property
    def record(self) -> Path:
        return self.dir / f"{self.name}{RECORD}"

    @property
    def secret(self) -> Path:
        return self.dir / f"{self.name}{SECRET}"

    @property
    def hidden(self) -> Path:
        return self.dir / f"{self.name}{HIDDEN}"

    def turn(self, number: int) -> Path:
        return self.dir / f"{self.name}-{number:03d}.toml"


def plain(message: dict[str, Any]) -> dict[str, Any]:
    """The message as it reads back from its TOML (so its digest is the one the receiver computes)."""
    return tomllib.loads(dump_toml(message))


def read_record(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """(the player's side, the messages) of a record file."""
    root = Reader(path, load_toml(path))
    root.only(["record", "message"])
    meta = root.table("record")
    meta.only(["format", "game", "name", "me"])
    if meta.int("format") != FORMAT:
        raise meta.fail("format", f"record format {meta.int('format')} is not one this program reads ({FORMAT})")
    messages = [m.data for m in root.tables("message", required=True)]
    if not messages or messages[0].get("turn", {}).get("game") != meta.str("game"):
        raise meta.fail("game", "the record's first message is not of this game")
    return meta.str("me"), messages


def write_record(folder: Folder, me: str, messages: list[dict[str, Any]]) -> None:
    game = messages[0]["turn"]["game"]
    atomic_write_text(folder.record, dump_toml({"record": {"format": FORMAT, "game": game, "name": folder.name,
                                                           "me": me}, "message": messages}))


def read_secret(folder: Folder, game: str) -> Secret:
    secret = Secret.from_toml(folder.secret, load_toml(folder.secret))
    if secret.game != game:
        raise DataError(folder.secret, "secret.game", f"this secret is of game {shorten(secret.game)}, not {game}")
    if folder.hidden.exists():
        root = Reader(folder.hidden, load_toml(folder.hidden))
        secret.hidden = {k: dict(root.table("hidden").table(k).data) for k in root.table("hidden").keys()}
    return secret


def write_hidden(folder: Folder, secret: Secret) -> None:
    """This player's hidden choices, readable by him only (nothing is written while there are none)."""
    if not secret.hidden:
        return
    text = dump_toml({"hidden": secret.hidden})
    fd = os.open(folder.hidden, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # only its owner reads it
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def write_secret(folder: Folder, secret: Secret) -> None:
    if folder.secret.exists():
        raise DataError(folder.secret, "", "already exists: a secret is made once per game and never replaced")
    folder.dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder.secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # only its owner reads it
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(dump_toml(secret.to_toml()))


def read_turn(path: Path) -> dict[str, Any]:
    data = load_toml(path)
    Reader(path, data).table("turn")  # a turn file, not some other TOML
    return data


def write_turn(path: Path, message: dict[str, Any]) -> Path:
    atomic_write_text(path, dump_toml(message))
    return path


def find_folder(dir: Path, name: str | None, game: str | None = None) -> Folder:
    """The game in ``dir``: by name, else by the game id, else the only one there."""
    if name:
        return Folder(dir, name)
    found = sorted(dir.glob(f"*{RECORD}"))
    if game is not None:
        for p in found:
            try:
                if load_toml(p).get("record", {}).get("game") == game:
                    return Folder(dir, p.name[: -len(RECORD)])
            except DataError:
                continue
        raise DataError(dir, "", f"no record of game {shorten(game)} here (run pbem join or pbem new first)")
    if len(found) != 1:
        raise DataError(dir, "", f"{len(found)} games here: name one with --name")
    return Folder(dir, found[0].name[: -len(RECORD)])


def read_actions(path: Path, registry: Any) -> list[Action]:
    """A player's actions for his part, as `kiev-tui script` reads them ([[action]] tables)."""
    root = Reader(path, load_toml(path))
    root.only(["action"])
    return [action_from_toml(e.data, action_key(i), str(path), registry=registry)
            for i, e in enumerate(root.tables("action"))]


def place_of(messages: list[dict[str, Any]], incoming: dict[str, Any], file: Path) -> None:
    """Refuse an incoming message that is not the next one: an old turn sent again, or one too early."""
    number = incoming.get("turn", {}).get("number")
    expect = len(messages)
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise DataError(file, "turn.number", "expected a whole number, 0 or more")
    if number < expect:
        same = digest(messages[number]) == digest(incoming)
        raise DataError(file, "turn.number",
                        f"message {number} is already in this game (the next is {expect}): "
                        + ("an old turn file sent again" if same else "and this one differs from it (a rewritten turn)"))
    if number > expect:
        raise DataError(file, "turn.number", f"message {number} arrives before message {expect}")
