"""Cell widths of the screen's characters answered without Rich's Unicode width table (issue 33).

Rich measures text in terminal cells.  Text made only of the characters it knows to be one
cell wide (`rich.cells._SINGLE_CELLS`: Latin, Greek, Cyrillic, box drawing) is measured at once;
text with any other character is measured character by character through
`rich.cells.get_character_cell_size`, whose first call imports a table of every Unicode
version's widths (about 70 KiB of objects, some 0.1 MiB of resident memory).  The map's major
rivers ("\u2248") are such a character, so the first frame paid for the table: the bare
Textual app never does.  The answers for the characters in `NARROW` and for Rich's own
one-cell characters never change (tests/test_cellwidth.py checks each against Rich's table,
in every Unicode version it ships); any other character goes to Rich's function, so every
answer is the one Rich would give.
"""

from __future__ import annotations

import sys

import rich.cells

#: One cell wide in every Unicode version Rich ships, outside Rich's own list of such characters:
#: the map's major river and a few marks of running text (dashes, quotes, arrows, the ellipsis).
NARROW: frozenset[str] = frozenset(
    "\u2248"  # almost equal to: a major river
    "\u2026\u2013\u2014\u2018\u2019\u201c\u201d\u2022"  # ellipsis, dashes, quotes, bullet
    "\u2190\u2191\u2192\u2193"  # arrows
)
_SINGLE = rich.cells._SINGLE_CELLS  # (not joined with NARROW: a copy of its 1,200 characters weighs 64 KiB)
_original = rich.cells.get_character_cell_size
#: Modules that call Rich's function by a name of their own (bound when they were imported).
_USERS = ("rich.cells", "rich.segment", "textual._wrap", "textual.widgets._input")
_installed = False


def get_character_cell_size(character: str, unicode_version: str = "auto") -> int:
    """Rich's answer for one character, without its table where the answer is known to be 1."""
    if character in _SINGLE or character in NARROW:
        return 1
    return _original(character, unicode_version)


def install() -> None:
    """Make Rich and Textual ask here first (once; each module holds its own reference)."""
    global _installed
    if _installed or rich.cells.get_character_cell_size is not _original:
        return
    for name in _USERS:
        module = sys.modules.get(name)
        if module is not None and getattr(module, "get_character_cell_size", None) is _original:
            module.get_character_cell_size = get_character_cell_size  # type: ignore[attr-defined]
    _installed = True


def installed() -> bool:
    return _installed
