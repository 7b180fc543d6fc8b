"""ui/keychars.py: a key press asks no Unicode names for Textual's own key names (issue 33)."""

from __future__ import annotations

import textual.keys
import textual.screen

from kiev_tui.ui import keychars


def _textual_names() -> set[str]:
    """Every key name of Textual's longer than one character and without a modifier."""
    names = {k.value for k in textual.keys.Keys} | set(textual.keys.KEY_TO_UNICODE_NAME)
    return {n for n in names if len(n) > 1 and "+" not in n}


def test_the_app_installs_it() -> None:
    import kiev_tui.ui.app  # noqa: F401  (installs it on import)

    assert keychars.installed()
    assert textual.screen.key_to_character is keychars.key_to_character


def test_each_written_answer_is_textuals() -> None:
    for name, char in keychars.CHARACTERS.items():
        assert keychars._original(name) == char, name
    for name in keychars.NO_CHARACTER:
        assert keychars._original(name) is None, name
    assert not set(keychars.CHARACTERS) & keychars.NO_CHARACTER


def test_every_textual_key_name_is_written_out() -> None:
    assert set(keychars.CHARACTERS) | keychars.NO_CHARACTER == _textual_names()


def test_textuals_names_ask_no_unicode_name(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    class NoNames:
        def lookup(self, name: str) -> str:
            raise AssertionError(f"asked the name database for {name!r}")

    monkeypatch.setattr(textual.keys, "unicodedata", NoNames())
    assert keychars.key_to_character("tab") == "\t"
    assert keychars.key_to_character("escape") == "\x1b"
    assert keychars.key_to_character("question_mark") == "?"
    assert keychars.key_to_character("enter") is None
    assert keychars.key_to_character("f5") is None


def test_other_names_get_textuals_answer() -> None:
    for name in ("a", "ctrl+q", "shift+tab", "greek_small_letter_alpha", "no_such_key", "euro_sign"):
        assert keychars.key_to_character(name) == keychars._original(name), name
    assert keychars.key_to_character("greek_small_letter_alpha") == "\u03b1"
