"""ui/lightstrip.py: Textual's strips make their caches when first read (issue 33)."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from kiev_tui.ui import lightstrip


def test_the_app_installs_it() -> None:
    import kiev_tui.ui.app  # noqa: F401  (installs it on import)

    assert lightstrip.installed()
    assert Strip.__init__ is lightstrip._light_init
    assert {n for n in lightstrip.SIZES if isinstance(Strip.__dict__[n], lightstrip._LazyCache)} == set(lightstrip.SIZES)


def test_a_new_strip_holds_no_cache_until_one_is_read() -> None:
    lightstrip.install()
    strip = Strip([Segment("abcdef", Style(bold=True))], 6)
    for name in lightstrip.SIZES:
        try:
            Strip.__dict__[name].slot.__get__(strip, Strip)
        except AttributeError:
            pass
        else:
            raise AssertionError(f"{name} was made with the strip")
    assert (strip._render_cache, strip._link_ids, strip._cell_count) == (None, None, None)
    # read once: a cache of the size Textual gives it, kept in the slot and the same on the next read
    for name, size in lightstrip.SIZES.items():
        cache = getattr(strip, name)
        assert type(cache) is FIFOCache and cache._maxsize == size and len(cache) == 0
        assert getattr(strip, name) is cache
        assert Strip.__dict__[name].slot.__get__(strip, Strip) is cache


def test_strips_work_and_cache_as_before() -> None:
    lightstrip.install()
    strip = Strip([Segment("abc", Style(bold=True)), Segment("defg", Style(italic=True))], 7)
    piece = strip.crop(1, 5)
    assert piece.text == "bcde" and piece.cell_length == 4
    assert strip.crop(1, 5) is piece  # the second crop came from the cache made by the first
    assert len(strip._crop_cache) == 1
    assert [s.text for s in strip.divide([2, 4, 7])] == ["ab", "cd", "efg"]
    assert strip.crop_extend(0, 9, None).text == "abcdefg  "
    assert strip.apply_style(Style(underline=True)) is strip.apply_style(Style(underline=True))


def test_another_layout_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # a Strip whose slots differ from Textual 8's is not patched
    assert lightstrip.laid_out_as_expected()
    monkeypatch.setattr(Strip, "__slots__", list(Strip.__slots__) + ["_new_cache"])
    assert not lightstrip.laid_out_as_expected()
    monkeypatch.setattr(lightstrip, "_installed", False)
    monkeypatch.setattr(lightstrip, "_original_init", lambda *a: None)  # as if Strip were another version's
    assert lightstrip.install() is False
