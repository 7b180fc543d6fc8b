"""Ready-built scenarios in the per-user cache (kiev_tui/datacache.py's folder): issue 33.

Building a scenario (the map's tables, the counters, the game's checks) took a tenth of the
time to the first frame although the TOML itself came parsed from the cache.  The built
``Scenario`` is kept pickled instead, with the path and SHA-256 of every data file the build
read, and keyed on the scenario file's path, the program's version, Python's, and the name,
size and modification time of every module of the engine and the games (the code that builds
and checks a scenario).  A look-up reads those data files again and uses the entry only if
every one still has the same bytes; any change, a damaged or foreign entry, or a value that
cannot be pickled builds the scenario as before.  ``KIEV_TUI_CACHE=off`` turns it off with the
rest of the cache.  Unlike the other entries (plain data read with ``marshal``), a pickle can run
code when read, so the entries have a folder of their own (``scenarios/``, made readable and
writable by this user alone) and an entry is read only if it and that folder are this user's and
nobody else may write them.

Only a scenario as ``load_scenario`` returns it is kept (nothing a game adds to it later), and
only of a game whose code is among the modules stamped (not a test's or a plug-in's game).
"""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

from kiev_tui import datacache
from kiev_tui import nossl as hashlib

#: Bump when the layout of an entry changes.
_LAYOUT = 1
_ROOT = Path(__file__).resolve().parent.parent  # the kiev_tui package


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None


def _mapping_proxy(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


class _Pickler(pickle.Pickler):
    """Pickles read-only mappings (MappingProxyType) as such: the standard pickler refuses them."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return (_mapping_proxy, (dict(obj),))
        return NotImplemented


#: The folders of the package whose modules the stamp covers.
_STAMPED = ("engine", "games")


def _code_stamp() -> bytes:
    """Name, size and modification time of every module of the engine and the games."""
    rows: list[str] = []
    for top in _STAMPED:
        for folder, dirs, files in os.walk(_ROOT / top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(folder, name))
                    rows.append(f"{os.path.relpath(os.path.join(folder, name), _ROOT)} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(rows).encode()


def _stamped(game: str) -> bool:
    """True if the game's rules (or data hooks) live in a module the code stamp covers: a game
    registered from elsewhere (a test's, a plug-in's) could change without the stamp seeing it."""
    import sys

    from kiev_tui.engine import registry

    entry = registry._entry(game)
    if entry is None:
        return False
    target = entry.system if entry.system is not None else entry.data
    name = target if isinstance(target, str) else type(target).__module__
    module = sys.modules.get(name) if isinstance(name, str) else None
    where = getattr(module, "__file__", None)
    if not where:
        return False
    inside = Path(where).resolve()
    return any(inside.is_relative_to(_ROOT / top) for top in _STAMPED)


def _entry(path: Path, sid: str) -> tuple[Path, str] | None:
    folder = datacache.cache_dir()
    if folder is None:
        return None
    try:
        # the scenario keeps the path and id as given (a relative path stays relative): both in the key
        where = "\n".join((str(path.resolve()), str(path), sid))
        from kiev_tui.engine.tomlio import PARSE_VERSION  # what the parser accepts is part of the build

        key = datacache._key(f"scenario/{_LAYOUT}/{PARSE_VERSION}",
                             [where.encode("utf-8", "surrogateescape"), _code_stamp()])
    except (OSError, ValueError):
        return None
    # a folder of their own, this user's alone: the parsed-data entries beside them may be shared
    return folder / "scenarios" / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".marshal"), key


def cached_scenario(path: Path, sid: str, build: Callable[[], Any], reads: Callable[[], list[str]]) -> Any:
    """The scenario ``build()`` makes from the file at ``path`` (named ``sid``), from the cache when
    every data file it read still holds the same bytes; ``reads()`` names, after a build, the files it read."""
    entry = _entry(path, sid)
    if entry is None:
        return build()
    file, key = entry
    found, value = datacache._read(file, key) if datacache.private(file) else (False, None)
    if found:
        try:
            sources, blob = value
            if all(_digest(source) == digest for source, digest in sources):
                return pickle.loads(blob)
        except Exception:  # noqa: BLE001 - a damaged or foreign entry: built afresh below
            pass
    scenario = build()
    try:
        if not _stamped(scenario.game):
            return scenario
        from kiev_tui.engine.registry import get_data

        derive = getattr(get_data(scenario.game), "derive_map_tables", None)
        if derive is not None:  # the map's own tables, worked out now so the entry keeps them (issue 33)
            derive(scenario)
        sources = sorted({(source, _digest(source)) for source in reads()})
        if any(digest is None for _, digest in sources):
            return scenario
        out = io.BytesIO()
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(scenario)
    except Exception:  # noqa: BLE001 - not picklable: simply not cached
        return scenario
    datacache.make_private(file.parent)
    datacache._write(file.parent, file, key, [[list(s) for s in sources], out.getvalue()])
    if not datacache.private(file):  # a folder others may write in: the entry would never be read
        try:
            file.unlink()
        except OSError:
            pass
    return scenario
