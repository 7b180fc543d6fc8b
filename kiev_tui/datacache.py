"""A per-user cache of data derived from our files: parse once, read back in a few milliseconds.

Starting the game parses the same TOML files every time (the map, the counters, the rules
reference), and the standard library's parser is pure Python: 0.06 s for the Kiev data and
0.2 s for the rules reference.  The parsed value (plain dicts, lists, strings and numbers) is
kept with `marshal` in the player's cache folder, keyed by a hash of every source file's bytes
(hashing is a thousand times cheaper than parsing; a modification time can stay the same
across two quick writes), the program's version and the kind of value asked for.  Any change
to a source file, to the program or to Python makes a new entry; a stale entry is never read.

The cache is only ever an accelerator: a missing, damaged, foreign or unwritable cache
falls back to building the value, and nothing here raises because of the cache.  It imports
nothing but the standard library, so the fast `kiev-tui rules` path can use it.

``KIEV_TUI_CACHE`` names the folder; ``KIEV_TUI_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

from kiev_tui import nossl as hashlib  # no OpenSSL at start-up (issue 33)
import marshal
import os
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

T = TypeVar("T")

# Bump when the layout of an entry changes.
_LAYOUT = 1


def cache_dir() -> Path | None:
    """The folder cache entries go in, or None when the cache is off."""
    given = os.environ.get("KIEV_TUI_CACHE")
    if given is not None:
        return None if given.strip().lower() in ("", "off", "0", "no") else Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kiev-tui"


def _version() -> str:
    from kiev_tui import __version__  # the package's __init__ imports nothing heavy

    return __version__


def _key(kind: str, blobs: Iterable[bytes]) -> str:
    """Everything an entry depends on, as text."""
    parts = [f"layout={_LAYOUT}", f"kind={kind}", f"program={_version()}", f"python={sys.version}"]
    parts += [hashlib.sha256(blob).hexdigest() for blob in blobs]
    return "\n".join(parts)


#: No data file of ours comes near this; a larger source is simply not cached.
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def _read_sources(sources: Iterable[Path]) -> list[bytes] | None:
    """The bytes of every source file; None if one cannot be read or is no regular file of a
    sane size (a FIFO would block the read, a device would never end it)."""
    blobs = []
    try:
        for path in sources:
            with open(path, "rb", buffering=0) as fh:
                st = os.fstat(fh.fileno())
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SOURCE_BYTES:
                    return None
                blobs.append(fh.read())
    except OSError:
        return None
    return blobs


def _read(entry: Path, key: str) -> tuple[bool, Any]:
    try:
        with open(entry, "rb") as fh:
            stored_key, value = marshal.load(fh)
    except (OSError, EOFError, ValueError, TypeError):
        return False, None
    if stored_key != key:  # a hash collision or somebody else's file: never trust it
        return False, None
    return True, value


def _write(folder: Path, entry: Path, key: str, value: Any) -> None:
    try:
        blob = marshal.dumps((key, value))
    except ValueError:  # not plain data (a datetime, an object): simply not cached
        return
    try:
        import tempfile  # only a miss writes: a look-up that hits never pays for the import

        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=entry.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, entry)  # two processes writing the same entry: the last one wins, whole
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return  # a read-only or full disk costs speed, never the game



def private(file: Path) -> bool:
    """True if the entry and its folder are this user's and nobody else may write them: entries
    that run code when read (pickles, code objects) are read only then."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return False  # no owners to check (Windows): such entries are not used
    try:
        folder, entry = os.lstat(file.parent), os.lstat(file)
    except OSError:
        return False
    return (folder.st_uid == entry.st_uid == getuid() and stat.S_ISDIR(folder.st_mode)
            and not folder.st_mode & 0o077 and stat.S_ISREG(entry.st_mode) and not entry.st_mode & 0o022)


def make_private(folder: Path) -> bool:
    """Make the folder, this user's alone (whatever the umask made of it); False if it cannot be."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.lstat(folder).st_mode & 0o077 and hasattr(os, "getuid") and os.lstat(folder).st_uid == os.getuid():
            folder.chmod(0o700)
    except OSError:
        return False  # not writable: nothing is kept
    return True

def cached(kind: str, sources: Iterable[Path | str], build: Callable[[], T]) -> T:
    """The value `build()` returns for these source files, from the cache when it is current.

    `build` must return plain data (dict, list, tuple, str, int, float, bool, None, bytes) and
    depend on nothing but the files in `sources` and the program itself.  `build` reads the
    files again: when the caller holds their bytes already, `cached_bytes` keys on exactly
    the bytes it parses.
    """
    if cache_dir() is None:
        return build()
    blobs = _read_sources(Path(p) for p in sources)
    if blobs is None:
        return build()
    return cached_bytes(kind, blobs, build)


def cached_bytes(kind: str, blobs: Iterable[bytes], build: Callable[[], T]) -> T:
    """The value `build()` returns for these bytes (the contents `build` works from)."""
    folder = cache_dir()
    if folder is None:
        return build()
    key = _key(kind, blobs)
    entry = folder / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".marshal")
    found, value = _read(entry, key)
    if found:
        return value  # type: ignore[no-any-return]
    value = build()
    _write(folder, entry, key, value)
    return value

