"""TOML text parsed and checked, and files written atomically: the part of tomlio.py that a
start from the filled data cache never runs (issue 33, round 7).

tomlio.py hands these names out on first use, so ``from kiev_tui.engine.tomlio import
atomic_write_text`` and the like work as before.
"""

from __future__ import annotations

import errno
import math
import os
import stat
from pathlib import Path
from typing import Any

from kiev_tui import nossl as secrets  # no OpenSSL at start-up (issue 33)
from kiev_tui.engine.errors import DataError, shorten
from kiev_tui.engine.tomlio import INT_DIGITS_LIMIT


def parse_toml_text(p: Path, text: str) -> dict[str, Any]:
    """The checked value of TOML text read from ``p`` (DataError naming the file and the problem)."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark, as some editors write: harmless, so accepted
    from kiev_tui.engine import tomlfast

    try:
        # The shapes our own writer uses are read at C speed (a save: a tenth of a long load,
        # issue 33); anything else, and every error, is tomllib's.
        data = tomlfast.loads(text)
    except (ValueError, RecursionError):
        data = None  # (tomlfast answers None for what it cannot read; tomllib words the error)
    if data is None:
        data = _tomllib_loads(p, text)
    _check_values(p, data)
    return data


def _tomllib_loads(p: Path, text: str) -> dict[str, Any]:
    """Python's own parser, imported only when the quick one declines (4 ms of a resumed
    game's start, issue 33): every syntax error is worded by it."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(p, "(syntax)", f"malformed TOML: {exc}") from None
    except RecursionError:
        raise DataError(p, "(syntax)", "malformed TOML: arrays or tables nested too deeply") from None
    except ValueError:  # Python's cap on the digits of an int (CVE-2020-10735)
        raise DataError(p, "(syntax)", f"a whole number has more than {INT_DIGITS_LIMIT} digits") from None


#: No data file or save nests tables and arrays this deep; deeper would break json and copy.
MAX_DEPTH = 32


def _check_values(file: Path, data: Any) -> None:
    """Refuse NaN and infinities (they compare false with everything: a cost of nan makes a
    hex free) and absurd nesting (dotted keys nest without limit; json and deepcopy recurse).

    Walked with a stack, not recursion, for the same reason.  A first walk only looks (no key
    names built: a third of the cost of reading a resumed save's snapshot, issue 33); the named
    walk runs only when it finds something, and words the same refusal as always.
    """
    if not _clean(data):
        _refuse(file, data)


def _clean(data: Any) -> bool:
    """True when ``data`` holds no NaN or infinity and nests at most MAX_DEPTH deep."""
    if not isinstance(data, (dict, list)):
        return not isinstance(data, float) or math.isfinite(data)
    isfinite = math.isfinite
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            return False
        for v in (value.values() if isinstance(value, dict) else value):
            if isinstance(v, float):
                if not isfinite(v):
                    return False
            elif isinstance(v, (dict, list)):
                todo.append((v, depth + 1))
    return True


def _refuse(file: Path, data: Any) -> None:
    """The DataError of the first bad value or nesting ``_check_values`` meets, named by its keys."""
    todo: list[tuple[str, Any, int]] = [("", data, 0)]
    while todo:
        where, value, depth = todo.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                raise DataError(file, where, f"{value} is not a number this program can use (only finite numbers)")
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise DataError(file, shorten(where), f"tables or arrays nested more than {MAX_DEPTH} deep")
            if isinstance(value, dict):
                todo.extend((f"{where}.{shorten(str(k))}" if where else shorten(str(k)), v, depth + 1)
                            for k, v in value.items())
            else:
                todo.extend((f"{where}[{i}]", v, depth + 1) for i, v in enumerate(value))


def dump_toml(data: dict[str, Any]) -> str:
    import tomli_w  # only writing needs it: starting a game reads

    return tomli_w.dumps(data)


#: Temp names keep this much of the target's name, so that they stay within NAME_MAX (255).
_TEMP_STEM = 120


def atomic_write_text(path: str | Path, text: str, make_parents: bool = True) -> None:
    """Write via a temp file of our own in the same folder, fsync, then rename over the target.

    A crash at any moment leaves either the old file or the new one, never half of one.  Only
    our own temp file is ever removed: another process may be writing the same save at the
    same moment with a temp file of its own.  The file keeps the mode of the one it replaces
    (a new one gets the umask's), so a folder shared by a group stays readable to the group.
    OSError (full disk, no permission) propagates with the target as its file name.
    ``make_parents=False`` refuses a missing folder instead of creating it (a typed path).
    """
    p = Path(path)
    try:
        if make_parents:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError:  # a file stands where a folder should be
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(p)) from None
        try:
            mode: int | None = stat.S_IMODE(os.stat(p).st_mode)
        except FileNotFoundError:
            mode = None
        fd, tmp = _create_temp(p)
    except OSError as exc:
        raise _naming(exc, p) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _naming(exc, p) from None
        raise
    try:
        dfd = os.open(p.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)  # the rename itself reaches the disk
        finally:
            os.close(dfd)
    except OSError:
        pass


def _create_temp(p: Path) -> tuple[int, str]:
    """A new, uniquely named file beside ``p``; created with 0666, so the umask applies."""
    stem = p.name[:_TEMP_STEM]
    for _ in range(100):
        tmp = str(p.parent / f".{stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(p))


def _naming(exc: OSError, p: Path) -> OSError:
    """The same error, naming the file the caller asked for rather than our temp file."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(p))
