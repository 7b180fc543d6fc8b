"""The compiled methods of dataclasses kept between runs (kiev_tui/dccache.py, issue 33 round 3)."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from kiev_tui import dccache

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11) or not hasattr(os, "getuid"),
                                reason="only Python 3.11 builds dataclass methods this way")


def _make() -> type:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2

    return Point


def _check(point: type) -> None:
    p = point(1)
    assert (p.x, p.y) == (1, 2)
    assert repr(p).endswith("Point(x=1, y=2)")
    assert p == point(1, 2) and p != point(1, 3)
    assert hash(p) == hash((1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5  # type: ignore[misc]


def _defines(text: str) -> str:
    """The name of the method a text of dataclasses._create_fn defines."""
    return text.split("\n")[1].split("(")[0].removeprefix(" def ")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("KIEV_TUI_CACHE", str(tmp_path / "cache"))
    dccache.uninstall()
    yield tmp_path / "cache" / "code" / "dataclasses.marshal"
    dccache.uninstall()


def test_methods_compiled_once_are_run_from_the_file_the_next_time(cache: Path) -> None:
    plain = _make()
    dccache.install()
    assert dataclasses._create_fn is dccache._create_fn
    assert dccache._stored == {}
    first = _make()
    _check(first)
    assert len(dccache._new) == 3  # __init__, __eq__, __hash__ (the LAZY ones are never stored)
    dccache.save()
    assert cache.is_file() and dccache._new == {}
    assert os.lstat(cache.parent).st_mode & 0o777 == 0o700

    dccache.uninstall()
    assert dataclasses._create_fn is not dccache._create_fn
    dccache.install()
    assert len(dccache._stored) == 3
    again = _make()
    _check(again)
    assert dccache._stored == {} and dccache._new == {}  # every method came from the file, none compiled
    for name in ("__init__", "__eq__", "__hash__"):
        assert getattr(again, name).__code__.co_code == getattr(plain, name).__code__.co_code


def test_a_file_others_may_write_is_not_read(cache: Path) -> None:
    dccache.install()
    _make()
    dccache.save()
    dccache.uninstall()
    cache.parent.chmod(0o777)
    dccache.install()
    assert dccache._stored == {}
    _check(_make())
    assert len(dccache._new) == 3


def test_nothing_is_patched_with_the_cache_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIEV_TUI_CACHE", "off")
    dccache.uninstall()
    try:
        dccache.install()
        assert dataclasses._create_fn is not dccache._create_fn
    finally:
        dccache.uninstall()


def test_the_console_script_keeps_the_code_for_the_next_start(tmp_path: Path) -> None:
    # `kiev-tui play` (here piped, so it prints the position and ends) leaves the file behind
    import subprocess

    from kiev_tui import datacache

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k not in ("KIEV_TUI_CACHE", "KIEV_TUI_SAVES")}
    env.update({"PYTHONPATH": str(root), "KIEV_TUI_CACHE": str(tmp_path / "cache"),
                "KIEV_TUI_SAVES": str(tmp_path / "saves"), "KIEV_TUI_PLAYER": "tester"})
    done = subprocess.run([sys.executable, "-c", "from kiev_tui.entry import main; main()", "play", "--no-resume"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found, codes = datacache._read(tmp_path / "cache" / "code" / "dataclasses.marshal", dccache._key())
    assert found and len(codes) > 100  # the engine's and the game's dataclasses, several methods each


def test_a_text_met_twice_a_run_is_compiled_once_from_the_next_run_on(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two classes alike in their fields ask for the same texts: the file lists those texts, and the
    # next run keeps their code for the second use instead of compiling it again (issue 33).
    compiled: list[str] = []
    real_compile = compile

    def counting(text: str, *args: object) -> object:
        compiled.append(text)
        return real_compile(text, *args)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.compile", counting)
    dccache.install()
    _check(_make())
    _check(_make())
    assert len(compiled) == 10 and len(dccache._new) == 3 and len(dccache._again) == 3  # 2 x (3 + 2 LAZY called)
    dccache.save()

    dccache.uninstall()
    dccache.install()
    assert len(dccache._again) == 3 and len(dccache._stored) == 3
    compiled.clear()
    _check(_make())
    _check(_make())
    assert [_defines(text) for text in compiled] == ["__repr__", "__setattr__"] * 2 and dccache._new == {}
    # the code is held, its bytes are not: a third class alike finds the code itself
    assert dccache._stored == {} and len(dccache._again_code) == 3
    one, two = _make(), _make()
    for name in ("__init__", "__eq__", "__hash__"):
        assert getattr(one, name) is not getattr(two, name)
        assert getattr(one, name).__code__ is getattr(two, name).__code__  # one code object for both


def test_the_lazy_methods_are_compiled_when_first_called(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The printed form and a frozen class's refusals are rarely called: compiled on first use, then
    # run as the standard library's own (issue 33, round 5).
    compiled: list[str] = []
    real_compile = compile

    def counting(text: str, *args: object) -> object:
        compiled.append(text)
        return real_compile(text, *args)  # type: ignore[call-overload]

    plain = _make()
    monkeypatch.setattr("builtins.compile", counting)
    dccache.install()
    point = _make()
    assert sorted(_defines(text) for text in compiled) == ["__eq__", "__hash__", "__init__"]
    compiled.clear()
    p, q = point(1), plain(1)
    assert repr(p).removeprefix(point.__qualname__) == repr(q).removeprefix(plain.__qualname__)
    assert repr(p) == repr(p)
    assert [_defines(text) for text in compiled] == ["__repr__"]  # once, not once a call
    for target in (p, q):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            target.x = 5  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
            del target.y  # type: ignore[misc]
    assert [_defines(text) for text in compiled] == ["__repr__", "__setattr__", "__delattr__"]
    assert point.__setattr__.__qualname__ == plain.__setattr__.__qualname__  # as dataclasses names them
    assert point.__repr__.__name__ == "__repr__"
    assert dccache._new.keys().isdisjoint(dccache._stored)  # nothing of theirs was stored
    assert len(dccache._new) == 3
