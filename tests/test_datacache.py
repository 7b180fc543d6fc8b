"""The parsed-data cache: current entries are read back, anything else is rebuilt."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from kiev_tui import datacache


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("KIEV_TUI_CACHE", str(where))
    return where


def counting(value: object) -> tuple[list[int], object]:
    calls: list[int] = []

    def build() -> object:
        calls.append(1)
        return value

    return calls, build


def test_second_call_reads_the_entry(folder: Path, tmp_path: Path) -> None:
    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    calls, build = counting({"x": [1, 2.5, "t", None, True]})
    assert datacache.cached("k", [src], build) == {"x": [1, 2.5, "t", None, True]}
    assert datacache.cached("k", [src], build) == {"x": [1, 2.5, "t", None, True]}
    assert len(calls) == 1
    assert len(list(folder.iterdir())) == 1


def test_changed_source_same_size_is_rebuilt(folder: Path, tmp_path: Path) -> None:
    # two writes of the same size in one clock tick leave the modification time alike
    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    assert datacache.cached("k", [src], lambda: "one") == "one"
    src.write_text("x = 2\n")
    assert datacache.cached("k", [src], lambda: "two") == "two"


def test_kind_and_program_version_are_part_of_the_key(folder: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    assert datacache.cached("k", [src], lambda: "k") == "k"
    assert datacache.cached("other", [src], lambda: "other") == "other"
    monkeypatch.setattr(datacache, "_version", lambda: "99.0")
    assert datacache.cached("k", [src], lambda: "new program") == "new program"


def test_damaged_or_foreign_entry_is_never_trusted(folder: Path, tmp_path: Path) -> None:
    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    datacache.cached("k", [src], lambda: "good")
    (entry,) = folder.iterdir()
    entry.write_bytes(b"\x00garbage")
    assert datacache.cached("k", [src], lambda: "rebuilt") == "rebuilt"
    entry.write_bytes(marshal.dumps(("another key", "forged")))
    assert datacache.cached("k", [src], lambda: "rebuilt again") == "rebuilt again"


def test_off_and_unwritable_folder_still_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    monkeypatch.setenv("KIEV_TUI_CACHE", "off")
    assert datacache.cache_dir() is None
    calls, build = counting("v")
    datacache.cached("k", [src], build)
    datacache.cached("k", [src], build)
    assert len(calls) == 2
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    monkeypatch.setenv("KIEV_TUI_CACHE", str(blocker / "sub"))
    assert datacache.cached("k", [src], lambda: "built") == "built"


def test_values_marshal_cannot_hold_are_built_each_time(folder: Path, tmp_path: Path) -> None:
    import datetime

    src = tmp_path / "a.toml"
    src.write_text("x = 1\n")
    calls, build = counting({"when": datetime.date(1941, 9, 19)})
    datacache.cached("k", [src], build)
    datacache.cached("k", [src], build)
    assert len(calls) == 2
    assert not folder.exists() or not list(folder.iterdir())


def test_missing_source_builds_without_caching(folder: Path, tmp_path: Path) -> None:
    def build() -> str:
        raise FileNotFoundError("gone")

    with pytest.raises(FileNotFoundError):
        datacache.cached("k", [tmp_path / "nope.toml"], build)


def test_cached_bytes_keys_on_the_bytes_given(folder: Path) -> None:
    calls, build = counting(["parsed"])
    assert datacache.cached_bytes("k", [b"x = 1\n"], build) == ["parsed"]
    assert datacache.cached_bytes("k", [b"x = 1\n"], build) == ["parsed"]
    assert len(calls) == 1
    assert datacache.cached_bytes("k", [b"x = 2\n"], lambda: ["other"]) == ["other"]


def test_a_file_and_its_bytes_share_one_entry(folder: Path, tmp_path: Path) -> None:
    src = tmp_path / "a.toml"
    src.write_bytes(b"x = 1\n")
    datacache.cached("k", [src], lambda: "from the file")
    assert datacache.cached_bytes("k", [b"x = 1\n"], lambda: "rebuilt") == "from the file"


def test_a_fifo_or_huge_source_is_built_not_read(folder: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    # opening a FIFO for reading blocks until a writer comes: keep one open
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        assert datacache.cached("k", [fifo], lambda: "built") == "built"
    finally:
        os.close(writer)
    big = tmp_path / "big.toml"
    big.write_bytes(b"x" * 64)
    monkeypatch.setattr(datacache, "MAX_SOURCE_BYTES", 63)
    calls, build = counting("v")
    datacache.cached("k", [big], build)
    datacache.cached("k", [big], build)
    assert len(calls) == 2
    assert not folder.exists() or not list(folder.iterdir())
