"""Errors and refusals the engine reports to its faces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class DataError(Exception):
    """A data, scenario or save file that cannot be used: names the file, the key and why."""

    def __init__(self, file: str | Path, key: str, reason: str) -> None:
        self.file = str(file)
        self.key = key
        self.reason = reason
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
