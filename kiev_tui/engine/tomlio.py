"""Reading TOML with errors that name file and key; atomic writes for saves.

What a start from the filled data cache runs is here (reading files, the cache's key, Reader);
parsing TOML text and writing files are in kiev_tui/engine/tomltext.py, imported the first time
one of its names is asked of this module (issue 33, round 7): a new game's first frame parses
and writes nothing.
"""

from __future__ import annotations

import builtins
import contextlib
import math
import os
import stat
import threading
from pathlib import Path
from typing import Any, Iterable, Iterator


from kiev_tui.engine.errors import DataError, shorten

#: Data files and saves are read whole; anything larger than this is refused, not read.
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Python refuses to turn longer digit strings into numbers (sys.get_int_max_str_digits()).
INT_DIGITS_LIMIT = 4300


def read_regular(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or DataError naming the file.

    Devices (/dev/zero), FIFOs and sockets are refused before a single byte is read: one
    could feed data for ever, another blocks until someone writes to it.
    """
    p = Path(path)
    into = getattr(_reading, "into", None)
    if into is not None:  # a scenario being built names the files it depends on (scenariocache.py)
        into.append(os.path.abspath(p))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags)  # non-blocking, so opening a FIFO with no writer returns at once
    except FileNotFoundError:
        raise DataError(p, "", "file not found") from None
    except IsADirectoryError:
        raise DataError(p, "", "is a folder, not a TOML file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise DataError(p, "", f"cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DataError(p, "", "is a folder, not a TOML file")
        if not stat.S_ISREG(st.st_mode):
            raise DataError(p, "", "not a regular file (devices, pipes and sockets are never read)")
        if st.st_size > limit:
            raise DataError(p, "", f"too large ({st.st_size} bytes; data and saves are at most {limit})")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read: never take more than the cap
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise DataError(p, "", f"too large (over {limit} bytes; data and saves are at most {limit})")
        return b"".join(chunks)
    except OSError as exc:
        raise DataError(p, "", f"cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)


def exists(path: str | Path) -> bool:
    """Path.exists() that answers False, never raises, for a name too long or holding a NUL."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


#: Part of every cache entry's key: bump it whenever _parse or _check_values accept or refuse
#: something new, so that no entry made by an older check is ever read (the program's version
#: number does not change with each edit).
PARSE_VERSION = 1


#: While a scenario is built, the files it reads, per thread (scenario.py: the cache of built scenarios).
_reading = threading.local()


@contextlib.contextmanager
def recording(into: list[str]) -> Iterator[None]:
    """Append to ``into`` the path of every file ``read_regular`` reads meanwhile in this thread."""
    outer = getattr(_reading, "into", None)
    _reading.into = into
    try:
        yield
    finally:
        _reading.into = outer


def load_toml(path: str | Path, *, cache: bool = False) -> dict[str, Any]:
    """Parse a TOML file or raise DataError naming the file and the broken line or key.

    ``cache``: for data files (maps, counters, scenarios, tables), the value parsed before from
    the same bytes comes from the per-user cache (kiev_tui/datacache.py), since the pure-Python
    parser is most of the cost of starting a game.  Only a file that parsed and checked clean
    is ever stored, so every error below still comes from parsing.  Saves are not cached: each
    autosave would leave an entry behind.
    """
    p = Path(path)
    raw = read_regular(p)  # missing, a folder, a FIFO, too large: refused before the cache looks
    if not cache:
        return _parse(p, raw)
    from kiev_tui.datacache import cached_bytes

    # keyed on the very bytes parsed: a write between two reads can never store a stale value
    return cached_bytes(f"engine-toml/{PARSE_VERSION}", [raw], lambda: _parse(p, raw))


def _parse(p: Path, raw: bytes) -> dict[str, Any]:
    """The checked value of a TOML file's bytes (DataError naming the file and the problem)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(p, "", "not UTF-8 text") from None
    from kiev_tui.engine.tomltext import parse_toml_text

    return parse_toml_text(p, text)


class Reader:
    """Typed access to one TOML table, raising DataError with a dotted key path."""

    def __init__(self, file: str | Path, data: Any, path: str = "") -> None:
        self.file = str(file)
        self.data = data
        self.path = path

    def _key(self, key: str) -> str:
        key = shorten(key)  # keys come from the file: a hostile one may be a megabyte long
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, reason: str) -> DataError:
        return DataError(self.file, self._key(key) if key else self.path, reason)

    def table(self, key: str, required: bool = True) -> "Reader":
        if not isinstance(self.data, dict):
            raise DataError(self.file, self.path, "expected a table")
        if key not in self.data:
            if required:
                raise self.fail(key, "missing table")
            return Reader(self.file, {}, self._key(key))
        value = self.data[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, found {type(value).__name__}")
        return Reader(self.file, value, self._key(key))

    def tables(self, key: str, required: bool = False) -> list["Reader"]:
        """An array of tables ([[key]])."""
        if key not in self.data:
            if required:
                raise self.fail(key, "missing")
            return []
        value = self.data[key]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, "expected an array of tables")
        return [Reader(self.file, v, f"{self._key(key)}[{i}]") for i, v in enumerate(value)]

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., ) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # bool is an int in Python; a count must not silently accept true/false.
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(key, f"expected {_names(kinds)}, found a boolean")
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            return value
        if not isinstance(value, kinds):
            raise self.fail(key, f"expected {_names(kinds)}, found {type(value).__name__} {shorten(repr(value))}")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(key, f"{value} is not a number this program can use (only finite numbers)")
        return value

    def str(self, key: builtins.str, default: Any = ...) -> builtins.str:
        return self.get(key, str, default)

    def int(self, key: builtins.str, default: Any = ...) -> builtins.int:
        return self.get(key, int, default)

    def bool(self, key: builtins.str, default: Any = ...) -> builtins.bool:
        return self.get(key, bool, default)

    def num(self, key: builtins.str, default: Any = ...) -> float:
        return self.get(key, (int, float), default)

    def strs(self, key: builtins.str, default: Any = ...) -> list[builtins.str]:
        value = self.get(key, list, default)
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{key}[{i}]", f"expected a string, found {shorten(repr(item))}")
        return list(value)

    def ints(self, key: builtins.str, default: Any = ...) -> list[builtins.int]:
        value = self.get(key, list, default)
        for i, item in enumerate(value):
            if not isinstance(item, int) or isinstance(item, bool):
                raise self.fail(f"{key}[{i}]", f"expected a whole number, found {shorten(repr(item))}")
        return list(value)

    def only(self, allowed: Iterable[builtins.str]) -> None:
        """Reject keys this table does not know: they are nearly always typos."""
        allowed = set(allowed)
        if not isinstance(self.data, dict):
            return
        for key in self.data:
            if key not in allowed:
                raise self.fail(key, f"unknown key (expected one of: {', '.join(sorted(allowed))})")

    def keys(self) -> list[builtins.str]:
        return list(self.data.keys()) if isinstance(self.data, dict) else []


def _names(kinds: tuple[type, ...]) -> str:
    words = {str: "a string", int: "a whole number", float: "a number", bool: "true or false",
             list: "an array", dict: "a table"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)


#: Names of tomltext.py still asked of this module (callers and tests import them from here).
_TEXT = frozenset({"parse_toml_text", "MAX_DEPTH", "_tomllib_loads", "_check_values", "_clean", "_refuse",
                   "dump_toml", "atomic_write_text", "_create_temp", "_naming", "_TEMP_STEM"})


def __getattr__(name: builtins.str) -> Any:
    """The parsing and writing names, from tomltext.py on first use (kept here once found)."""
    if name not in _TEXT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from kiev_tui.engine import tomltext

    value = getattr(tomltext, name)
    globals()[name] = value
    return value
