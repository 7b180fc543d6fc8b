"""Reading TOML with errors that name file and key; atomic writes for saves."""

from __future__ import annotations

import builtins
import contextlib
import errno
import math
import os
from kiev_tui import nossl as secrets  # no OpenSSL at start-up (issue 33)
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
    return parse_toml_text(p, text)


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
