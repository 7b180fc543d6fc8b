"""Where saves go: one saves folder, plain file names only, and an autosave per player.

A game server may start many players' sessions in one shared folder, so nothing a player
types may reach outside the saves folder (no separators, no `..`, no absolute paths, no
folders made on the way), and no two players share one autosave file.

The saves folder is `saves/` under the current folder, or the folder named by the
environment variable KIEV_TUI_SAVES.

The autosave is `autosave-<player>.toml` in that folder.  <player> is the login name of the
account (or `uid<N>` when the account has no name), so players started in one folder keep
their games apart without any set-up.  Where several people share one account (a guest
login), the server can tell them apart by setting KIEV_TUI_PLAYER for each session.
"""

from __future__ import annotations

import os
import stat
import string
from pathlib import Path

SAVES_ENV = "KIEV_TUI_SAVES"
PLAYER_ENV = "KIEV_TUI_PLAYER"
DEFAULT_SAVES = "saves"
SUFFIX = ".toml"
LEGACY_AUTOSAVE = "autosave.toml"  # the one shared autosave of earlier versions
AUTOSAVE_PREFIX = "autosave"

# A name of at most 64 characters and 200 bytes keeps `<name>.toml` and the temporary file
# written next to it (a dot, the name, a random part and `.tmp`) well inside the 255 bytes a
# file name may have on common file systems.
MAX_NAME_CHARS = 64
MAX_NAME_BYTES = 200
_PUNCTUATION = "-_. "


class BadSaveName(ValueError):
    """A save name refused; str() is the one-line reason, for the player."""


def saves_dir() -> Path:
    """The folder saves are written to and listed from."""
    env = os.environ.get(SAVES_ENV, "").strip()
    return Path(env) if env else Path(DEFAULT_SAVES)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a save name, or None when it can (without the `.toml` ending)."""
    if not name:
        return "the name is empty"
    if name in (".", ".."):
        return f"'{name}' names a folder, not a file"
    for ch in name:
        if ch in "/\\":
            return "a save name cannot contain / or \\: saves always go in the saves folder"
        if ch == "\0" or not ch.isprintable():
            return "a save name cannot contain control characters"
        if not (ch.isalpha() or ch in string.digits or ch in _PUNCTUATION):
            return f"a save name may use letters, digits, '-', '_', '.' and spaces, not {ch!r}"
    if not (name[0].isalpha() or name[0] in string.digits):
        return "a save name must start with a letter or a digit"
    if name[-1] in ". ":
        return "a save name cannot end with a dot or a space"
    if len(name) > MAX_NAME_CHARS or len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"a save name may be at most {MAX_NAME_CHARS} characters long"
    if name.lower().startswith(AUTOSAVE_PREFIX):
        return "names starting with 'autosave' are kept for the automatic saves"
    return None


def save_path_for(name: str, folder: Path | None = None) -> Path:
    """The file in the saves folder for a plain save name; BadSaveName says why not.

    `name` may end in `.toml` or not: `march` and `march.toml` are the same save.
    """
    stem = name[: -len(SUFFIX)] if name.lower().endswith(SUFFIX) else name
    problem = name_problem(stem)
    if problem is not None:
        raise BadSaveName(problem)
    return (folder if folder is not None else saves_dir()) / f"{stem}{SUFFIX}"


def replace_problem(path: Path) -> str | None:
    """Why an existing file at `path` must not be replaced by a save, or None if it may be.

    Only the player's own regular files are replaced: not a link planted in the folder, nor
    another account's save in a folder that several players share.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot check {path.name} ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return f"{path.name} is not a plain file"
    getuid = getattr(os, "getuid", None)
    if getuid is not None and st.st_uid != getuid():
        return f"{path.name} belongs to another player"
    return None


def player_name() -> str:
    """The name that keeps this player's autosave apart from the others' in one folder."""
    wanted = os.environ.get(PLAYER_ENV, "").strip()
    if wanted and _plain_player(wanted):
        return wanted
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # no user ids (Windows): one player per folder is the best we know
        return "player"
    uid = getuid()
    try:
        import pwd

        login = pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        login = ""
    return login if login and _plain_player(login) else f"uid{uid}"


def _plain_player(name: str) -> bool:
    return (len(name) <= 32 and name[0] in string.ascii_letters + string.digits
            and all(ch in string.ascii_letters + string.digits + "-_." for ch in name))


def autosave_path(folder: Path | None = None) -> Path:
    """This player's autosave: written at every phase end, resumed by `play`."""
    return (folder if folder is not None else saves_dir()) / f"{AUTOSAVE_PREFIX}-{player_name()}{SUFFIX}"


def resume_path(folder: Path | None = None) -> Path:
    """The autosave `play` resumes: this player's own, else an older shared one if it is theirs.

    Earlier versions kept one `autosave.toml` for everybody; it is resumed (never written
    again) only when this player's autosave does not exist yet and the file is the player's.
    """
    own = autosave_path(folder)
    if own.exists():
        return own
    legacy = (folder if folder is not None else saves_dir()) / LEGACY_AUTOSAVE
    if legacy.exists() and replace_problem(legacy) is None:
        return legacy
    return own


def unused_path_for(name: str, folder: Path | None = None) -> Path:
    """A save path for `name` that replaces nothing: `name`, else `name-2`, `name-3`..."""
    first = save_path_for(name, folder)
    if not os.path.lexists(first):
        return first
    stem = first.name[: -len(SUFFIX)][: MAX_NAME_CHARS - 6]
    for n in range(2, 10000):
        candidate = save_path_for(f"{stem}-{n}", folder)
        if not os.path.lexists(candidate):
            return candidate
    raise BadSaveName(f"every name from {stem}-2 to {stem}-9999 is taken")
