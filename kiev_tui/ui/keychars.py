"""Textual's key names answered without the Unicode name database (issue 33, docs/PERFORMANCE.md).

On every key press Textual's screen walks the bindings of the focused widget's ancestors and,
for each binding key of a name longer than one character ("tab", "escape"), asks
`textual.keys.key_to_character`, which calls `unicodedata.lookup` on the key's name.  The
first such look-up pages in a large part of CPython's name database (a shared library): about
0.75 MiB of resident memory for the single "tab" of the game screen, at the ctrl+q that ends a
start, which raised the peak of a start and quit by as much.  The answers for Textual's own key
names never change, so they are written out here (tests/test_keychars.py checks each against
Textual's function); any other name still goes to Textual's function, so every answer is the
one Textual would give.
"""

from __future__ import annotations

import textual.keys
import textual.screen

#: What `textual.keys.key_to_character` answers for each of Textual's key names that have a character.
CHARACTERS: dict[str, str] = {
    "backspace": "\x08", "circumflex_accent": "^", "commercial_at": "@", "delete": "\x7f",
    "dollar_sign": "$", "equals_sign": "=", "escape": "\x1b", "exclamation_mark": "!", "full_stop": ".",
    "grave_accent": "`", "greater_than_sign": ">", "hyphen_minus": "-", "left_curly_bracket": "{",
    "left_parenthesis": "(", "left_square_bracket": "[", "less_than_sign": "<", "low_line": "_",
    "number_sign": "#", "percent_sign": "%", "plus_sign": "+", "question_mark": "?", "quotation_mark": '"',
    "reverse_solidus": "\\", "right_curly_bracket": "}", "right_parenthesis": ")",
    "right_square_bracket": "]", "space": " ", "tab": "\t", "vertical_line": "|",
}
#: Textual's key names that have no character (its function answers None for them).
NO_CHARACTER: frozenset[str] = frozenset((
    "<any>", "<ignore>", "<scroll-down>", "<scroll-up>", "ctrl-at", "down", "end", "enter", "f1", "f10",
    "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f2", "f20", "f21", "f22", "f23", "f24",
    "f3", "f4", "f5", "f6", "f7", "f8", "f9", "home", "insert", "left", "pagedown", "pageup", "return",
    "right", "up",
))

_original = textual.keys.key_to_character
_installed = False


def key_to_character(key: str) -> str | None:
    """The character of a key name, as Textual's function gives it, without the name database for its own names."""
    found = CHARACTERS.get(key)
    if found is not None:
        return found
    if key in NO_CHARACTER:
        return None
    return _original(key)


def install() -> None:
    """Make Textual's screens ask `key_to_character` here (once; the screen module holds its own reference)."""
    global _installed
    if not _installed and textual.screen.key_to_character is _original:
        textual.screen.key_to_character = key_to_character
        _installed = True


def installed() -> bool:
    return _installed
