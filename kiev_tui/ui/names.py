"""Unit ids in engine text become the names a person reads ("so-rd-226" -> "226 rifle XX").

Events, refusals and pending prompts are engine data and keep their ids (saves, scripts and
replays depend on them); the faces put every line through the adapter's `name_ids`, which
calls `replace_ids` here with the game's own way of naming a unit.
"""

from __future__ import annotations

import re
from typing import Any, Callable

_PATTERNS: dict[int, tuple[Any, re.Pattern[str] | None]] = {}


def _pattern(catalog: Any) -> re.Pattern[str] | None:
    key = id(catalog)
    hit = _PATTERNS.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    ids = sorted(catalog.units, key=len, reverse=True)  # the longest first: so-rd-22 never eats so-rd-226
    rx = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])") if ids else None
    _PATTERNS[key] = (catalog, rx)
    return rx


def replace_ids(catalog: Any, text: str, name: Callable[[str], str]) -> str:
    """`text` with every unit id of the catalog in it replaced by `name(id)`."""
    rx = _pattern(catalog)
    if rx is None or not text:
        return text
    return rx.sub(lambda m: name(m.group(1)), text)
