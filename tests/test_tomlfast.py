"""The quick reader of saves (engine/tomlfast.py) gives exactly tomllib's value, or declines."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from kiev_tui.engine import tomlfast

ROOT = Path(__file__).resolve().parent.parent


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, keys in the same order (1 == 1.0 == True is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float):
        return repr(a) == repr(b)  # nan is nan, -0.0 is not 0.0
    return bool(a == b)


def agrees(text: str) -> bool:
    """The quick reader declines, or reads what tomllib reads (and only a text tomllib accepts)."""
    got = tomlfast.loads(text)
    if got is None:
        return True
    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return same(got, want)


def test_every_toml_file_of_the_repository_reads_the_same() -> None:
    files = [p for folder in ("data", "tests/fixtures") for p in sorted((ROOT / folder).rglob("*.toml"))]
    assert len(files) > 30
    for p in files:
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # fixtures of broken files
        assert agrees(text), p


@pytest.mark.parametrize("name", ["saves_v2/campaign_700.toml", "saves_v3/campaign_700.toml",
                                  "saves_v3/mini_over.toml", "saves_v3/mini_mid_battle.toml"])
def test_the_save_fixtures_take_the_quick_path(name: str) -> None:
    text = (ROOT / "tests/fixtures" / name).read_text(encoding="utf-8")
    got = tomlfast.loads(text)
    assert got is not None
    assert same(got, tomllib.loads(text))


@pytest.mark.parametrize("text", [
    'a = 1\na = 2\n',  # a key twice
    '[t]\na = 1\n[t]\nb = 2\n',  # a table twice
    '[[action]]\nk = 1\n[action.x]\nb = 2\n',  # a table inside an array of tables
    '[action]\nk = 1\n[[action]]\nb = 2\n',  # an array of tables over a table
    'action = []\n[[action]]\nb = 2\n',  # over a plain array
    '[t]\nx = 1\n[t.x]\nb = 2\n',  # a table over a value
    '[t]\nx = { a = 1 }\n[t.x]\nb = 2\n',  # an inline table extended
    '[t.x]\nb = 2\n[t]\nx = 1\n',  # a value over a table
    'a = 1\r\n',  # CRLF
    '# a comment\na = 1\n',
    'a = 1 # a comment\n',  # tomllib reads the value alone: declined only if that fails
    'a = "x\\ty"\n',  # an escape: tomllib reads it alone
    'a  = 1\n',  # another spacing
    'a.b = 1\n',  # a dotted key
    'a = [\n    1,\n    "x",\n]\n',  # a mixed array: tomllib alone
    'a = [\n    [\n        1,\n    ],\n]\n',
    'a = """\n]\n"""\n',  # a multi-line string holding the line arrays end on
    'a = [\n    """\n]\n""",\n]\n',
    'a = 01\n', 'a = +1\n', 'a = 1_000\n', 'a = 1e5\n', 'a = nan\n', 'a = inf\n', 'a = 0x10\n',
    'a = 1979-05-27\n', "a = 'literal'\n", 'a = "tab\there"\n', 'a = "bell\x07"\n',
    'a = ' + '9' * 5000 + '\n',  # longer than int() takes
    '[t]\n[t.u]\n[t]\n',  # defined twice, the second after a sub-table
    '[a.b]\nc = 1\n[a]\nd = 2\n',  # the super-table defined after: allowed
    '[[x]]\n[[x]]\na = 1\n[y.z]\n[y]\n',
    '\n\n[e]\n\n', '', 'k = 1', 'k = true\nl = false\nm = -0\nn = -0.0\no = 2.50\n',
    'k = []\nl = [\n]\nm = [\n    -3,\n    0,\n]\n',
    'k = [\n    [\n        "a",\n        "b",\n    ],\n    [\n    ],\n]\n',
    'k = [\n    [\n        "a",\n    ],\n    [],\n]\n',
    'k = "unclosed\n', 'k = [\n    "a",\n', '[t\n', '[[t]\n', 'k =\n', '= 1\n', ' k = 1\n',
])
def test_odd_texts_are_read_alike_or_declined(text: str) -> None:
    assert agrees(text)


def test_declines_what_tomllib_refuses_and_reads_what_it_reads() -> None:
    assert tomlfast.loads('a = 1\na = 2\n') is None
    assert tomlfast.loads('[t]\na = 1\n[t]\nb = 2\n') is None
    assert tomlfast.loads('[[action]]\nk = 1\n[action.x]\nb = 2\n') is None
    assert tomlfast.loads('a = 1\r\n') is None
    assert tomlfast.loads('a = ' + '9' * 5000 + '\n') is None
    assert tomlfast.loads('[a.b]\nc = 1\n[a]\nd = 2\n') == {"a": {"b": {"c": 1}, "d": 2}}
    assert tomlfast.loads('[[x]]\n[[x]]\na = 1\n') == {"x": [{}, {"a": 1}]}
    got = tomlfast.loads('k = 1\nf = -2.5\ns = "é\tx"\nb = true\nl = [\n    "a",\n]\nn = [\n    -3,\n]\n'
                         'p = [\n    [\n        "0101",\n    ],\n]\ne = "a\\"b"\nt = { a = 1 }\n')
    assert got == {"k": 1, "f": -2.5, "s": "é\tx", "b": True, "l": ["a"], "n": [-3], "p": [["0101"]],
                   "e": 'a"b', "t": {"a": 1}}
    assert type(got["f"]) is float and type(got["k"]) is int


_key = st.text(alphabet="abcxyz_-019", min_size=1, max_size=4)
_scalar = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.text(max_size=8),
                    st.floats(allow_nan=False, allow_infinity=False, width=32))
_value = st.recursive(_scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(_key, inner, max_size=3)), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_key, st.one_of(_value, st.lists(st.dictionaries(_key, _value, max_size=3),
                                                          min_size=1, max_size=3)), max_size=5))
def test_whatever_the_save_writer_writes_reads_back_alike(data: dict[str, Any]) -> None:
    text = tomli_w.dumps(data)
    got = tomlfast.loads(text)
    if got is not None:
        assert same(got, tomllib.loads(text))
