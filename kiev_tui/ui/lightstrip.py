"""Textual's strips without seven empty caches each (issue 33, docs/PERFORMANCE.md).

Every `textual.strip.Strip` is a line of the screen, and Textual 8 gives each one seven small
caches (a `FIFOCache` and its dict apiece) when it is made.  Drawing the game's first frame
makes about 1,300 strips, and most of their caches are never used: about 9,000 objects built
for nothing (a few ms of CPU) and some 0.9 MiB of memory held by the strips alive at the first
frame (the map's rows, the panels, the compositor's pieces).

`install` makes those caches appear the first time a strip reads one: the seven slots of
the class are wrapped in descriptors that build the cache on the first read and store it in
the slot, and `Strip.__init__` no longer fills them.  What a strip draws is unchanged: the same
caches, the same sizes, just made later.  If the installed Textual's `Strip` is not laid out as
expected (another version), nothing is patched.
"""

from __future__ import annotations

from typing import Any, Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

#: Each cache slot of Textual 8's Strip and the size its __init__ gives it.
SIZES: dict[str, int] = {
    "_divide_cache": 4, "_crop_cache": 16, "_style_cache": 16, "_filter_cache": 4,
    "_line_length_cache": 4, "_crop_extend_cache": 4, "_offsets_cache": 4,
}
#: The other slots, which __init__ sets to these values (the segments and cell length aside).
_PLAIN = ("_render_cache", "_link_ids", "_cell_count")

_original_init = Strip.__init__
_installed = False


class _LazyCache:
    """A slot of Strip whose cache is made on its first read (then kept in the slot itself)."""

    __slots__ = ("slot", "size")

    def __init__(self, slot: Any, size: int) -> None:
        self.slot = slot  # the class's own member descriptor: where the value lives
        self.size = size

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        try:
            return self.slot.__get__(obj, owner)
        except AttributeError:  # not read before: make it as Strip.__init__ would have
            cache: FIFOCache[Any, Any] = FIFOCache(self.size)
            self.slot.__set__(obj, cache)
            return cache

    def __set__(self, obj: Any, value: Any) -> None:
        self.slot.__set__(obj, value)

    def __delete__(self, obj: Any) -> None:
        self.slot.__delete__(obj)


def _light_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def laid_out_as_expected() -> bool:
    """True if this Textual's Strip has exactly the slots, caches and plain values patched here."""
    slots = set(getattr(Strip, "__slots__", ()))
    if slots != set(SIZES) | set(_PLAIN) | {"_segments", "_cell_length"}:
        return False
    probe = Strip.__new__(Strip)
    _original_init(probe, [Segment("x")], 1)
    for name, size in SIZES.items():
        cache = getattr(probe, name)
        if type(cache) is not FIFOCache or cache._maxsize != size or len(cache):
            return False
    return all(getattr(probe, name) is None for name in _PLAIN) and probe._segments == [Segment("x")]


def install() -> bool:
    """Patch Strip (once); False, and nothing patched, if its layout is not the one expected."""
    global _installed
    if _installed:
        return True
    if Strip.__init__ is not _original_init or not laid_out_as_expected():
        return False
    for name, size in SIZES.items():
        setattr(Strip, name, _LazyCache(Strip.__dict__[name], size))
    Strip.__init__ = _light_init  # type: ignore[method-assign]
    _installed = True
    return True


def installed() -> bool:
    return _installed
