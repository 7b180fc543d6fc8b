"""What the command-line modules share: one-line failures, the error guard, the text overview.

``kiev_tui/cli.py`` registers the subcommands of ``net``, ``pbem``, ``serve`` and ``ai``; those
modules import their helpers from here, never from ``cli.py``, so no import goes both ways.
Typer is imported on first need: ``kiev-tui play`` starts without it (see ``cli.py``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine.errors import DataError, IllegalAction, one_line

if TYPE_CHECKING:
    import typer

    from kiev_tui.engine.game import Game


def typer_module() -> Any:
    """The typer module, imported on first need (a module global, for the annotations Typer reads)."""
    global typer
    import typer

    return typer


def fail(message: str) -> "typer.Exit":
    typer_module().echo(f"error: {message}", err=True)
    return typer_module().Exit(2)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input becomes one line on stderr and exit status 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DataError as exc:
            raise fail(exc.line()) from None
        except IllegalAction as exc:
            raise fail(f"illegal action: {exc.illegal}") from None
        except OSError as exc:  # reads fail as DataError: what is left is a file we write
            raise fail(write_error(exc)) from None

    return wrapper


def write_error(exc: OSError) -> str:
    """One line naming the file that could not be written, and why."""
    what = f"cannot write ({exc.strerror})" if exc.strerror else str(exc)
    return one_line(f"{exc.filename}: {what}" if exc.filename else what)


def print_overview(game: "Game") -> None:
    """The text map with a letter and count per stack, the scenario's title and the phase, and what
    is left to do, units named as the player knows them (the game's plain face; no Textual)."""
    from kiev_tui.plain.face import face_for
    from kiev_tui.textmap import render, side_marks

    echo = typer_module().echo
    gmap, catalog = game.scenario.map, game.scenario.catalog
    letters = side_marks(game.rules.schema.sides, game.rules.schema)
    stacks = {}
    for hex_id, ids in game.state.occupancy().items():
        stacks[gmap.grid.parse(hex_id)] = f"{letters[catalog.units[ids[0]].side]}{len(ids)}"
    echo(render(gmap, stacks))
    ph = game.phase
    face = face_for(game)
    echo(f"\n{game.scenario.title}\n{ph}")
    for item in ph.todo:
        echo(f"  to do: {one_line(face.name_ids(game, item))}")
