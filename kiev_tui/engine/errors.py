"""Errors and refusals the engine reports to its faces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


ECHO_LIMIT = 80


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """A piece of input fit to quote in a message: at most ``limit`` characters, then '...'."""
    return text if len(text) <= limit else text[:limit] + "..."


def one_line(text: str) -> str:
    """Control characters (a newline in a key, an escape sequence) shown as escapes, not obeyed."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class DataError(Exception):
    """A data, scenario or save file that cannot be used: names the file, the key and why."""

    def __init__(self, file: str | Path, key: str, reason: str) -> None:
        # Callers quote input in short pieces; these caps are the last guard, so that a
        # hostile file can never make an error line of a megabyte.
        self.file = one_line(shorten(str(file), 400))
        self.key = one_line(shorten(key, 240))
        self.reason = one_line(shorten(reason, 600))
        super().__init__(self.line())

    def line(self) -> str:
        where = f"{self.file}: {self.key}" if self.key else self.file
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why an action is refused: the rule case that forbids it and one line of reasoning."""

    case: str
    why: str

    def __str__(self) -> str:
        return f"[{self.case}] {self.why}"


class IllegalAction(Exception):
    """Raised by Game.apply when an action fails Game.check."""

    def __init__(self, illegal: Illegal) -> None:
        self.illegal = illegal
        super().__init__(str(illegal))
