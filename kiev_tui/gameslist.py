"""What can be played: every game kiev-tui knows, its scenarios, and which of them have rules and
a computer player (`kiev-tui games`, the SSH lobby's default list).

A game is known by the registry (kiev_tui/engine/registry.py: rules, or data checks only) or by
its folder under data/ (a rules reference may come before anything else).  Nothing here loads a
scenario whole: titles are read from the files' own headers, so listing stays quick.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kiev_tui.engine import registry
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.scenario import data_root
from kiev_tui.engine.tomlio import load_toml

#: What a game has so far, most complete first.
PLAYABLE = "playable"
DATA_ONLY = "data only"
REFERENCE_ONLY = "rules reference only"


@dataclass(frozen=True)
class ScenarioInfo:
    ref: str  # game/name, as `kiev-tui play` takes it
    title: str


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    status: str  # PLAYABLE, DATA_ONLY or REFERENCE_ONLY
    scenarios: tuple[ScenarioInfo, ...]
    sides: tuple[str, ...]  # empty when the game has no schema yet
    ai: bool  # the computer can play a side (kiev-tui play --ai SIDE)
    has_map: bool
    has_reference: bool

    @property
    def playable(self) -> bool:
        return self.status == PLAYABLE


def _title(path: Path, table: str, fallback: str) -> str:
    """The `title` of a file's header table; a file that is not readable TOML is a DataError."""
    data = load_toml(path)
    head = data.get(table)
    title = head.get("title") if isinstance(head, dict) else None
    return title if isinstance(title, str) and title else fallback


def _names(root: Path) -> list[str]:
    """Games registered so far, found by convention, or with a folder of data."""
    found = set(registry.names())
    if root.is_dir():
        for folder in root.iterdir():
            if folder.is_dir() and registry.GAME_ID.fullmatch(folder.name) and (
                    registry.known(folder.name) or (folder / "rules.toml").is_file()):
                found.add(folder.name)
    return sorted(found)


def _has_ai(name: str) -> bool:
    from kiev_tui.ai.arena import has_ai  # the AI package loads only for this question

    return has_ai(name)


def game_info(name: str, root: Path | None = None) -> GameInfo | None:
    """What there is of one game, or None if kiev-tui knows no game of that name."""
    root = data_root() if root is None else root
    folder = root / name
    known = registry.known(name)
    reference = (folder / "rules.toml").is_file()
    if not known and not reference:
        return None
    status = PLAYABLE if registry.playable(name) else DATA_ONLY if known else REFERENCE_ONLY
    scenarios = tuple(ScenarioInfo(f"{name}/{p.stem}", _title(p, "scenario", p.stem))
                      for p in sorted((folder / "scenarios").glob("*.toml"))) if (folder / "scenarios").is_dir() else ()
    sides: tuple[str, ...] = ()
    if known:
        try:
            sides = tuple(registry.get_schema(name).sides)
        except ValueError:
            sides = ()
    title = _title(folder / "rules.toml", "book", name) if reference else name
    return GameInfo(name, title, status, scenarios, sides, status == PLAYABLE and _has_ai(name),
                    (folder / "map.toml").is_file(), reference)


def all_games(root: Path | None = None) -> list[GameInfo]:
    """Every game, playable ones first, then by name."""
    root = data_root() if root is None else root
    games = [info for name in _names(root) if (info := game_info(name, root)) is not None]
    order = {PLAYABLE: 0, DATA_ONLY: 1, REFERENCE_ONLY: 2}
    return sorted(games, key=lambda g: (order[g.status], g.name))


def playable_scenarios(root: Path | None = None) -> list[str]:
    """Every scenario of every game that can be played, as game/name (the lobby's offer)."""
    return [s.ref for g in all_games(root) if g.playable for s in g.scenarios]


def no_map_reason(name: str, root: Path | None = None) -> str | None:
    """Why ``kiev-tui map --game NAME`` cannot draw (unknown game, no map data yet), or None."""
    root = data_root() if root is None else root
    info = game_info(name, root)
    if info is None:
        known = ", ".join(g.name for g in all_games(root))
        return f"no game '{name[:40]}' (known: {known})"
    if not info.has_map:
        also = f" (only its rules reference so far: kiev-tui rules --game {name})" if info.has_reference else ""
        return f"the game {name} has no map data yet{also}"
    return None


def describe(games: list[GameInfo]) -> list[str]:
    """The lines `kiev-tui games` prints."""
    out: list[str] = []
    for g in games:
        out.append(f"{g.name}: {g.title}")
        if g.status == PLAYABLE:
            who = (f"the computer can play either side: kiev-tui play {g.scenarios[0].ref if g.scenarios else g.name}"
                   f" --ai {'|'.join(g.sides)}" if g.ai else "no computer player yet: two players")
            out.append(f"  playable; {who}")
        elif g.status == DATA_ONLY:
            out.append("  not playable yet: map, counters and scenarios only "
                       f"(kiev-tui map --game {g.name}, kiev-tui validate data/{g.name})")
        else:
            out.append("  not playable yet: rules reference only, no map, counters or scenarios")
        if g.has_reference:
            out.append(f"  rules: kiev-tui rules --game {g.name}")
        for s in g.scenarios:
            mark = ("playable, with AI" if g.ai else "playable") if g.playable else "not playable yet"
            out.append(f"  {s.ref:<30} {mark:<18} {s.title}")
    return out


__all__ = ["DATA_ONLY", "GameInfo", "PLAYABLE", "REFERENCE_ONLY", "ScenarioInfo", "all_games", "describe",
           "game_info", "no_map_reason", "playable_scenarios"]
