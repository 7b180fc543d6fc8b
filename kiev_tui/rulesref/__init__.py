"""The rules reference: every case of the three rulebooks, in our words, by number or word.

Used by both faces: `kiev-tui rules` (cli.py) and the Textual RulesScreen.
"""

from kiev_tui.rulesref.model import (
    GAMES,
    Case,
    RuleBook,
    RulesDataError,
    Table,
    UnknownCaseError,
    load_all,
    load_reference,
    normalize_id,
)
from kiev_tui.rulesref.search import Hit, SearchIndex, search

__all__ = [
    "GAMES",
    "Case",
    "Hit",
    "RuleBook",
    "RulesDataError",
    "SearchIndex",
    "Table",
    "UnknownCaseError",
    "load_all",
    "load_reference",
    "normalize_id",
    "search",
]
