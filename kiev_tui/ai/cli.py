"""`kiev-tui arena`: computer players against each other, sides swapped on the same seeds."""

from __future__ import annotations

import typer

from kiev_tui.ai.arena import MatchResult, check_players, run_arena
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.registry import default_scenario


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)


def arena(
    first: str = typer.Option("strong", help="player A, on the scenario's first side in the first game of each "
                                             "pair: random (the game's bot) or a level of the game's AI"),
    second: str = typer.Option("random", help="player B, on the other side in the first game of each pair"),
    games: int = typer.Option(2, help="seeds to play; each seed is played twice, sides swapped "
                                       "(once when a player meets itself)"),
    seed: int = typer.Option(1, help="the first seed (each next one adds one)"),
    scenario: str = typer.Option(default_scenario(), help="scenario to play"),
    seconds: float = typer.Option(5.0, help="the AI's thinking cap per phase, in seconds"),
    quiet: bool = typer.Option(False, help="only the summary, not a line per game"),
    explain: bool = typer.Option(False, help="print each AI's plan per phase and why it chose each action"),
) -> None:
    """Play A against B on the same seeds with sides swapped; print win rates, VP margins with
    95% intervals, the game's figures of play, the AI's seconds per phase and the refused
    actions (there should be none).  Any game whose registry entry has an AI can be played."""
    if games < 1:
        typer.echo("error: --games must be at least 1", err=True)
        raise typer.Exit(2)
    try:
        check_players(scenario, first, second)
    except (ValueError, DataError) as exc:
        line = exc.line() if isinstance(exc, DataError) else str(exc)
        typer.echo(f"error: {line}", err=True)
        raise typer.Exit(2) from None

    def progress(r: MatchResult) -> None:
        if not quiet:
            typer.echo(r.line())

    report = run_arena(first, second, games, seed, scenario, seconds, progress,
                       (lambda line: typer.echo(line)) if explain else None)
    typer.echo(report.text())
