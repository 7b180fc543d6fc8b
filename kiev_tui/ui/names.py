"""Unit ids in engine text become the names a person reads ("so-rd-226" -> "226 rifle XX").

Events, refusals and pending prompts are engine data and keep their ids (saves, scripts and
replays depend on them); the faces put every line through the adapter's `name_ids`, which
calls `replace_ids` here with the game's own way of naming a unit.
"""

from __future__ import annotations

import re
from typing import Any, Callable

_PATTERNS: dict[int, tuple[Any, re.Pattern[str] | None, frozenset[str]]] = {}

#: A run of word characters and hyphens, as long as it goes: an id is replaced only where it is a
#: whole run (nothing of [\w-] touches it), so when every id is such a run, finding the runs and
#: looking each up finds exactly what one alternation of all the ids would
_RUN = re.compile(r"[\w-]+")


def _pattern(catalog: Any) -> tuple[re.Pattern[str] | None, frozenset[str]]:
    key = id(catalog)
    hit = _PATTERNS.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1], hit[2]
    ids = frozenset(catalog.units)
    if all(_RUN.fullmatch(i) for i in ids):  # issue 33: compiling 190 alternatives took 2-3 ms at start-up
        rx = _RUN if ids else None
    else:  # the longest first: so-rd-22 never eats so-rd-226
        ordered = sorted(ids, key=len, reverse=True)
        rx = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ordered)) + r")(?![\w-])")
    _PATTERNS[key] = (catalog, rx, ids)
    return rx, ids


def replace_ids(catalog: Any, text: str, name: Callable[[str], str]) -> str:
    """`text` with every unit id of the catalog in it replaced by `name(id)`."""
    rx, ids = _pattern(catalog)
    if rx is None or not text:
        return text
    if rx is _RUN:
        return rx.sub(lambda m: name(m.group()) if m.group() in ids else m.group(), text)
    return rx.sub(lambda m: name(m.group(1)), text)
