"""Reading TOML with errors that name file and key; atomic writes for saves."""

from __future__ import annotations

import builtins
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Iterable

import tomli_w

from kiev_tui.engine.errors import DataError


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file or raise DataError naming the file and the broken line."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise DataError(p, "", "file not found") from None
    except IsADirectoryError:
        raise DataError(p, "", "is a folder, not a TOML file") from None
    except OSError as exc:
        raise DataError(p, "", f"cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(p, "", "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(p, "(syntax)", f"malformed TOML: {exc}") from None
    except RecursionError:
        raise DataError(p, "(syntax)", "malformed TOML: arrays or tables nested too deeply") from None


def dump_toml(data: dict[str, Any]) -> str:
    return tomli_w.dumps(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write via a temp file in the same folder, fsync, then rename over the target.

    A crash at any moment leaves either the old file or the new one, never half of one.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
        for stale in p.parent.glob(f".{p.name}.*.tmp"):
            try:  # left by an earlier write that was killed before its rename
                stale.unlink()
            except OSError:
                pass
        try:
            dfd = os.open(p.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Reader:
    """Typed access to one TOML table, raising DataError with a dotted key path."""

    def __init__(self, file: str | Path, data: Any, path: str = "") -> None:
        self.file = str(file)
        self.data = data
        self.path = path

    def _key(self, key: str) -> str:
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
            raise self.fail(key, f"expected {_names(kinds)}, found {type(value).__name__} {value!r}")
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
                raise self.fail(f"{key}[{i}]", f"expected a string, found {item!r}")
        return list(value)

    def ints(self, key: builtins.str, default: Any = ...) -> list[builtins.int]:
        value = self.get(key, list, default)
        for i, item in enumerate(value):
            if not isinstance(item, int) or isinstance(item, bool):
                raise self.fail(f"{key}[{i}]", f"expected a whole number, found {item!r}")
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
