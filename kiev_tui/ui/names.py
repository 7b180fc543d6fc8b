"""Unit ids in engine text become the names a person reads ("so-rd-226" -> "226 rifle XX").

Events, refusals and pending prompts are engine data and keep their ids (saves, scripts and
replays depend on them); the faces put every line through `name_ids` before showing it.
"""

from __future__ import annotations

import re
from typing import Any

from kiev_tui.ui import present

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


def name_ids(view: Any, text: str) -> str:
    """`text` with every unit id in it replaced by that unit's name as the player knows it."""
    rx = _pattern(view.game.scenario.catalog)
    if rx is None or not text:
        return text
    return rx.sub(lambda m: present.unit_name(view, m.group(1)), text)
