"""The limits of `kiev-tui serve` (its --help and docs/SSH.md): light, so the command line can
show their defaults without loading the server."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What one player, and everybody, may hold at once (`kiev-tui serve --help`, docs/SSH.md)."""

    games_per_player: int = 4  # games a player holds a side in, kept or running
    max_games: int = 200  # games the server keeps in all
    max_running: int = 20  # hosts running at once (each about 43 MB)
    idle_minutes: float = 30.0  # a host with no login seated this long stops (saved); 0: never


DEFAULT = Limits()
