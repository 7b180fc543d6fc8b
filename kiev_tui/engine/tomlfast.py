"""A quick reader for the TOML shapes our save writer produces (issue 33).

Python's own ``tomllib`` reads a file character by character in Python: about 20 ms for a
late-game save, a tenth of loading it.  Saves are written by ``tomli_w`` in a few fixed shapes
(``key = value`` lines, ``[a.b]`` and ``[[action]]`` headers, arrays one element a line), which
regular expressions read at C speed.  ``loads`` returns exactly what ``tomllib.loads`` returns
for such a text, or None for anything it is not sure of (another shape, a duplicate key, a
table defined twice, a CR, a comment ...): the caller then parses with ``tomllib``, which also
words every error.  A value of another shape on one line, or an array of other elements, is
handed to ``tomllib`` alone.
"""

from __future__ import annotations

import re
from typing import Any

_BARE = r"[A-Za-z0-9_-]+"
#: A header line, or the start of a key's line (the value follows ``" = "``).
_HEAD = re.compile(rf"\[\[({_BARE})\]\]\n|\[({_BARE}(?:\.{_BARE})*)\]\n|({_BARE}) = ")
#: The scalars written as they are: a basic string without escapes or control characters
#: (a tab is allowed), a decimal integer without leading zeros, a plain decimal float, a boolean.
_STR_BODY = r'[^"\\\x00-\x08\x0a-\x1f\x7f]*'
_SCALAR = re.compile(rf'"({_STR_BODY})"\n|(-?(?:0|[1-9][0-9]*))\n|(-?(?:0|[1-9][0-9]*)\.[0-9]+)\n|(true|false)\n')
#: An array of such strings (or of such integers), one element a line, as tomli_w writes it.
_STR_ARRAY = re.compile(rf'\[\n((?:    "{_STR_BODY}",\n)*)\]\n')
_STR_ITEM = re.compile(rf'"({_STR_BODY})"')
_INT_ARRAY = re.compile(r"\[\n((?:    -?(?:0|[1-9][0-9]*),\n)*)\]\n")
_INT_ITEM = re.compile(r"-?[0-9]+")
#: An array of such arrays of strings (a retreat's paths).
_STR_ARRAYS = re.compile(rf'\[\n((?:    \[\n(?:        "{_STR_BODY}",\n)*    \],\n)*)\]\n')
_INNER = re.compile(rf'    \[\n((?:        "{_STR_BODY}",\n)*)    \],\n')


class _Unsure(Exception):
    """The text is not one of the shapes read here: parse it with tomllib."""


def loads(text: str) -> dict[str, Any] | None:
    """``tomllib.loads(text)`` for the shapes a save is written in, else None (see the module)."""
    if "\r" in text:
        return None
    if not text.endswith("\n"):
        text += "\n"
    try:
        return _read(text)
    except (_Unsure, ValueError, RecursionError):  # ValueError: an integer too long for int()
        return None


def _read(text: str) -> dict[str, Any]:
    root: dict[str, Any] = {}
    tables = {id(root)}  # the dicts made by headers (an inline table's dict is a value: closed)
    defined: set[tuple[str, ...]] = set()  # the [a.b] headers seen: none may come twice
    arrays: set[int] = set()  # the lists made by [[name]] headers
    keep: list[Any] = []  # every table and array made, so that their ids stay theirs
    cur = root
    pos, end = 0, len(text)
    head, scalar = _HEAD.match, _SCALAR.match
    while pos < end:
        if text[pos] == "\n":
            pos += 1
            continue
        m = head(text, pos)
        if m is None:
            raise _Unsure
        key = m.group(3)
        if key is None:
            cur = _header(root, m.group(1), m.group(2), tables, defined, arrays, keep)
            pos = m.end()
            continue
        if key in cur:
            raise _Unsure  # a key given twice: tomllib's error
        pos = m.end()
        s = scalar(text, pos)
        if s is not None:
            if s.lastindex == 1:
                value: Any = s.group(1)
            elif s.lastindex == 2:
                value = int(s.group(2))
            elif s.lastindex == 3:
                value = float(s.group(3))
            else:
                value = s.group(4) == "true"
            cur[key] = value
            pos = s.end()
            continue
        if text.startswith("[]\n", pos):
            cur[key] = []
            pos += 3
            continue
        if text.startswith("[\n", pos):
            a = _STR_ARRAY.match(text, pos)
            if a is not None:
                cur[key] = _STR_ITEM.findall(a.group(1))
                pos = a.end()
                continue
            a = _INT_ARRAY.match(text, pos)
            if a is not None:
                cur[key] = [int(x) for x in _INT_ITEM.findall(a.group(1))]
                pos = a.end()
                continue
            a = _STR_ARRAYS.match(text, pos)
            if a is not None:
                cur[key] = [_STR_ITEM.findall(inner) for inner in _INNER.findall(a.group(1))]
                pos = a.end()
                continue
            stop = text.find("\n]\n", pos)  # tomli_w closes a key's array on a line of its own
            if stop < 0:
                raise _Unsure
            stop += 3
        else:
            stop = text.find("\n", pos) + 1
        cur[key] = _alone(text[pos:stop])
        pos = stop
    return root


def _alone(value: str) -> Any:
    """One value's text read by tomllib on its own.  If it reads as a whole, it is the value:
    a parse ends where the value ends, so the same text in the file gives the same value."""
    import tomllib

    if '"""' in value or "'''" in value:
        raise _Unsure  # a multi-line string may hold the line the array was cut at
    try:
        return tomllib.loads("x = " + value)["x"]
    except tomllib.TOMLDecodeError:
        raise _Unsure from None


def _header(root: dict[str, Any], array: str | None, dotted: str | None, tables: set[int],
            defined: set[tuple[str, ...]], arrays: set[int], keep: list[Any]) -> dict[str, Any]:
    """The table a ``[[array]]`` or ``[dotted]`` header opens, made as tomllib makes it."""
    table: dict[str, Any] = {}
    keep.append(table)
    tables.add(id(table))
    if array is not None:
        got = root.get(array)
        if got is None:
            got = root[array] = []
            keep.append(got)
            arrays.add(id(got))
        elif type(got) is not list or id(got) not in arrays:
            raise _Unsure  # an array of tables over a key or table already there
        got.append(table)
        return table
    assert dotted is not None
    path = tuple(dotted.split("."))
    if path in defined:
        raise _Unsure  # a table defined twice
    defined.add(path)
    cur = root
    for part in path[:-1]:
        nxt = cur.get(part)
        if nxt is None:
            nxt = cur[part] = {}
            keep.append(nxt)
            tables.add(id(nxt))
        elif type(nxt) is not dict or id(nxt) not in tables:
            raise _Unsure  # into an array of tables, a value or an inline table
        cur = nxt
    last = path[-1]
    got = cur.get(last)
    if got is None:
        cur[last] = table
        return table
    if type(got) is not dict or id(got) not in tables:
        raise _Unsure
    return got  # made by a deeper header before: defined now (once)
