"""`kiev-tui arena`: computer players against each other, sides swapped on the same seeds."""

from __future__ import annotations

import typer

from kiev_tui.ai.arena import KINDS, MatchResult, run_arena
from kiev_tui.engine.registry import default_scenario


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)


def arena(
    german: str = typer.Option("strong", help=f"player A, German in the first game of each pair ({'|'.join(KINDS)})"),
    soviet: str = typer.Option("random", help=f"player B, Soviet in the first game of each pair ({'|'.join(KINDS)})"),
    games: int = typer.Option(2, help="seeds to play; each seed is played twice, sides swapped"),
    seed: int = typer.Option(1, help="the first seed (each next one adds one)"),
    scenario: str = typer.Option(default_scenario(), help="scenario to play"),
    seconds: float = typer.Option(5.0, help="the AI's thinking cap per phase, in seconds"),
    quiet: bool = typer.Option(False, help="only the summary, not a line per game"),
) -> None:
    """Play A against B on the same seeds with sides swapped; print win rates, VP margins with
    95% intervals, the AI's seconds per phase and the refused actions (there should be none)."""
    for kind in (german, soviet):
        if kind not in KINDS:
            typer.echo(f"error: unknown player {kind!r} (known: {', '.join(KINDS)})", err=True)
            raise typer.Exit(2)
    if games < 1:
        typer.echo("error: --games must be at least 1", err=True)
        raise typer.Exit(2)

    def progress(r: MatchResult) -> None:
        if not quiet:
            typer.echo(f"seed {r.seed}: {r.german} German vs {r.soviet} Soviet: {r.winner} victory, "
                       f"German margin {r.margin:+d}, {r.actions} actions")

    report = run_arena(german, soviet, games, seed, scenario, seconds, progress)
    typer.echo(report.text())
