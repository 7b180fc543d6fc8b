"""The command line: `kiev-tui play`, `new`, `load`, `validate`, `map`, `games`, `state`, `replay`, `script`.

`kiev-tui play` (and the bare `kiev-tui`) is what a player types most, and its start-up time is
what a player waits for; so the usual forms of `play` are read here without Typer (`play_args`),
which would import pydantic to convert the option values (0.1-0.3 s).  Everything else, and any
`play` line that is not of the usual forms (help, a mistake, anything unusual), goes to Typer,
whose answer is the reference the fast reading is tested against (tests/test_startup_cli.py).
The Typer app is built on first use (`app`, `_app`), and the commands of other modules (rules,
pbem, host/join, serve) are registered only then.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiev_tui import gcpause
from kiev_tui.engine import registry as games_registry  # selfplay has a --games option
from kiev_tui.clitools import fail, guarded, typer_module
from kiev_tui.clitools import print_overview as _print_overview
from kiev_tui.engine.errors import DataError, one_line

if TYPE_CHECKING:
    import typer

    from kiev_tui.engine.game import Game
    from kiev_tui.engine.scenario import Scenario

#: The scenario a bare start plays, as the shipped games set it in the registry (kiev_tui/games).
DEFAULT_SCENARIO = games_registry.default_scenario()


def _typer() -> Any:
    """The typer module, imported on first need (a module global, for the annotations Typer reads)."""
    global typer
    typer = typer_module()
    return typer


def fresh_seed(seed: int | None) -> int | None:
    """The seed asked for, else None: the game then draws every roll from the OS's entropy, at the
    moment it is needed, so no file holds anything that predicts it (issue 16)."""
    return seed


def _interactive() -> bool:
    return sys.stdout.isatty()


def _start_ui(game: "Game", save_path: Path | None, **opts: Any) -> None:
    if not _interactive():
        gcpause.resume()
        _print_overview(game)  # piped or scripted: print the position instead of a screen
        return
    from kiev_tui.ui import app as ui_app

    # As run_app, keeping hold of the app to read its return code: Textual reports a crash
    # inside the app (its traceback printed) by code 1, and the shell must see that.
    screen = ui_app.build_app(game, save_path=save_path, **opts)
    screen.run(mouse=screen.mouse)
    code = ui_app.exit_code(screen)
    if code:
        raise _typer().Exit(code)


def pick_scenario(given: str | None, option: str | None) -> str:
    """The scenario named by argument or --scenario (not both, unless alike), else the default."""
    if given is not None and option is not None and given != option:
        raise fail(f"two scenarios named ('{one_line(given)[:80]}' and '{one_line(option)[:80]}'): give one")
    return given or option or DEFAULT_SCENARIO


def _playable_scenario(name: str) -> "Scenario":
    """The scenario asked for, checked before any autosave is touched: unknown, or a game with
    data but no rules yet, is one line and exit status 2 (DataError, through ``guarded``)."""
    from kiev_tui.engine.scenario import load_scenario
    from kiev_tui.engine.registry import get_system

    wanted = load_scenario(name)
    try:
        get_system(wanted.game)
    except ValueError as exc:
        raise DataError(str(wanted.path), "scenario.game", str(exc)) from None
    return wanted


def _set_aside(path: Path, name: str) -> str:
    """Move a save out of the autosave's place under a name that replaces nothing; says where."""
    from kiev_tui.engine.saves import set_aside

    try:
        target = set_aside(path, name)
    except (OSError, ValueError) as exc:  # ValueError: savepaths.BadSaveName
        raise DataError(str(path), "", f"cannot be moved aside before a new game starts: {exc}") from None
    return f"It was kept as {target}."


def play_game(given: str | None = None, scenario: str | None = None, seed: int | None = None,
              resume: bool = True, ascii: bool = False, no_mouse: bool = False, plain: bool = False,
              load: Path | None = None, ai: str | None = None, ai_level: str = "strong",
              explain: bool = False) -> None:
    """`kiev-tui play`: resume the last game or start the default scenario (bad input: DataError)."""
    from kiev_tui.engine import savepaths
    from kiev_tui.engine.game import Game

    # the player's own autosave, never one shared by everybody started here (savepaths.py)
    autosave, resumed = savepaths.autosave_path(), savepaths.resume_path()
    asked = pick_scenario(given, scenario) if (given or scenario) else None
    wanted = _playable_scenario(asked) if asked is not None and load is None else None
    game: Game | None = None
    notice: list[str] = []
    checking: dict[str, Any] = {}
    if load is not None:
        from kiev_tui.engine.saves import load_game

        game = load_game(load)  # a bad save is one line on stderr (guarded), never a traceback
    elif resume and resumed.exists():
        # issue 33: on a terminal the game is shown from the save's final snapshot at once and its
        # replay checked after the first frame (KievApp.verify), the keys held until it passes;
        # printed overviews, plain mode and the computer opponent get the fully checked game first.
        quick = not plain and ai is None and _interactive()
        try:
            if quick:
                from kiev_tui.engine.saves import load_snapshot, read_save_front

                # the actions are parsed by the check, after the first frame (unless parsed already)
                parsed, whole = read_save_front(resumed)
                game = load_snapshot(resumed, parsed)
                checking = {"verify": resumed, "verify_data": parsed if whole else None}
            else:
                from kiev_tui.engine.saves import load_game

                game = load_game(resumed)
        except DataError as exc:
            # 35: a damaged autosave (or one this version no longer replays) is moved aside before
            # anything can be written over it, and the player is told so in the game.
            notice = [f"The autosave could not be resumed: {exc.line()}",
                      _set_aside(resumed, "damaged-autosave"), "A new game has started."]
        if game is not None and wanted is not None and game.scenario.path.resolve() != wanted.path.resolve():
            # the autosave is of another scenario: kept under a name of its own, never resumed into this one
            notice = [f"Your game of {game.scenario.title or game.scenario.id} was not resumed: "
                      f"{asked} was asked for.", _set_aside(resumed, f"previous-{game.scenario.path.stem}"),
                      "A new game has started."]
            game = None
    if game is None:
        game = Game.new(pick_scenario(given, scenario), fresh_seed(seed))
    if notice and plain:
        for line in notice:
            _typer().echo(f"note: {line}")
    opts: dict[str, Any] = {"ascii": ascii, "mouse": not no_mouse}
    if game.unverified:
        opts.update(checking)
    if notice:
        opts["notice"] = notice
    computer = None
    if ai is not None:
        from kiev_tui.ai.local import ai_link, computer_player

        try:  # the computer's own choices come from its own generator, never the game's dice
            if plain:
                computer = computer_player(game, ai, ai_level, seed=seed)
            else:
                opts["net"] = ai_link(game, ai, ai_level, seed=seed)
        except ValueError as exc:
            raise DataError("--ai", "", str(exc)) from None
        if explain:  # the computer's plan and reasons: on stdout in plain mode, else to a file
            from kiev_tui.ai.local import explain_to

            explain_to(computer if plain else opts["net"].ai, plain)
    if plain:
        gcpause.resume()  # the start-up pause ends with the screen's first frame, which plain mode has not
        from kiev_tui.plain.loop import run as run_plain  # never imports Textual

        raise _typer().Exit(run_plain(game, autosave, computer=computer))
    try:
        _start_ui(game, autosave, **opts)
    finally:
        gcpause.resume()  # an error before the first frame (the screen turns it back on once drawn)
        link = opts.get("net")
        if link is not None:
            link.close()  # the computer's worker thread ends with the screen


# -- `play` without Typer ------------------------------------------------------------------------

#: play's flags: the parameter each sets, and to what.
_PLAY_FLAGS: dict[str, tuple[str, bool]] = {
    "--resume": ("resume", True), "--no-resume": ("resume", False), "--ascii": ("ascii", True),
    "--no-mouse": ("no_mouse", True), "--plain": ("plain", True),
}
#: play's options that take a value: the parameter each sets.
_PLAY_VALUES = {"--scenario": "scenario", "--seed": "seed", "--load": "load", "--ai": "ai", "--ai-level": "ai_level"}
#: The longest seed read here: longer ones go to Typer (whose int has no limit).
_SEED_DIGITS = 18


def play_args(argv: list[str]) -> dict[str, Any] | None:
    """The parameters of `play_game` for a bare `kiev-tui` or a plain `kiev-tui play ...` line, as
    Typer would give them; None for anything else, which then goes to Typer.

    Only the forms whose meaning is beyond doubt are read: each option at most once, values that
    are not empty and do not start with '-', a seed of plain digits, at most one scenario argument.
    """
    if argv and argv[0] == "play":
        rest = argv[1:]
    elif not argv:
        rest = []
    else:
        return None
    opts: dict[str, Any] = {"given": None, "scenario": None, "seed": None, "resume": True, "ascii": False,
                            "no_mouse": False, "plain": False, "load": None, "ai": None, "ai_level": "strong"}
    seen: set[str] = set()
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        value: Any
        option, eq, text = token.partition("=")
        if token in _PLAY_FLAGS:
            name, value = _PLAY_FLAGS[token]
        elif option in _PLAY_VALUES:
            if not eq:
                if i == len(rest):
                    return None  # Typer says the value is missing
                text = rest[i]
                i += 1
            name = _PLAY_VALUES[option]
            if not text or text.startswith("-"):
                return None
            if name == "seed":
                if not (text.isascii() and text.isdigit() and len(text) <= _SEED_DIGITS):
                    return None
                value = int(text)
            elif name == "load":
                value = Path(text)
            else:
                value = text
        elif token.startswith("-") or not token:
            return None  # --help, --, -x, an unknown option, an empty argument
        else:
            name, value = "given", token
        if name in seen:
            return None  # given twice: Typer decides
        seen.add(name)
        opts[name] = value
    return opts


def _play_fast(opts: dict[str, Any]) -> int:
    """Run `play` as Typer runs a command: the same messages and exit statuses."""
    try:
        guarded(play_game)(**opts)
    except KeyboardInterrupt:
        return 130
    except EOFError:
        echo = _typer().echo
        echo(err=True)  # Typer ends the line and reports an abort
        echo("error: interrupted", err=True)
        return 130
    except Exception as exc:
        loaded = sys.modules.get("typer")
        if loaded is not None and isinstance(exc, loaded.Exit):
            return int(exc.exit_code)
        raise
    return 0


# -- the Typer app -------------------------------------------------------------------------------

def validate_path(path: Path) -> list[str]:
    from kiev_tui.engine.mapdata import load_map
    from kiev_tui.engine.saves import load_game
    from kiev_tui.engine.scenario import load_scenario
    from kiev_tui.engine.tomlio import exists, load_toml
    from kiev_tui.engine.units import load_units

    if not exists(path):
        return [f"{one_line(str(path))}: not found"]
    files = sorted(path.rglob("*.toml")) if path.is_dir() else [path]
    problems: list[str] = []
    seen: dict[Path, str] = {}
    for f in files:
        try:
            data = load_toml(f)
            system = _system_of(_game_of(f, data, seen))
            # optional rule-system hooks (engine/rules.py): the game's own file kinds, its tables
            own = getattr(system, "validate_file", None)
            check_tables = getattr(system, "validate_tables", None)
            if own is not None and own(f, data):
                pass
            elif "map" in data or f.name == "map.toml":
                load_map(f)
            elif "unit" in data or f.name == "units.toml":
                load_units(f, system)  # None: the loader picks the game by folder
            elif "scenario" in data:
                load_scenario(f)
            elif f.name == "tables.toml":
                if check_tables is not None:
                    check_tables(f, data)
            elif "save" in data:
                load_game(f)
            elif "sequence" in data or f.name == "sequence.toml":
                from kiev_tui.engine.sequence import load_sequence
                load_sequence(f, _skip_rules_of(system))
            elif "case" in data or f.name.startswith("rules"):
                _validate_rules(f, data)
            else:
                problems.append(f"{f}: not a known kind of data file (map, units, tables, scenario, sequence, rules or save)")
        except DataError as exc:
            problems.append(exc.line())
    return problems


def _skip_rules_of(system: Any) -> Any:
    """The skip rules a game's sequence.toml may name (None: a game without rules names any)."""
    rules = getattr(system, "skip_rules", None)
    return None if rules is None else tuple(rules)


def _game_of(path: Path, data: dict[str, Any], seen: dict[Path, str]) -> str:
    """Which game a data file belongs to: its own [scenario]/[map] game key, else the game named by
    the map.toml beside it (or one folder up, for scenarios/), else the game its folder is named
    after, else the default scenario's game."""
    from kiev_tui.engine.tomlio import exists, load_toml

    for key in ("scenario", "map"):
        table = data.get(key)
        if isinstance(table, dict) and isinstance(table.get("game"), str):
            return str(table["game"])
    for folder in (path.parent, path.parent.parent):
        if folder not in seen:
            seen[folder] = ""
            beside = folder / "map.toml"
            if beside != path and exists(beside):
                try:
                    meta = load_toml(beside).get("map")
                except DataError:
                    meta = None  # that file gets its own line when its turn comes
                if isinstance(meta, dict) and isinstance(meta.get("game"), str):
                    seen[folder] = meta["game"]
        if seen[folder]:
            return seen[folder]
    for folder in (path.parent, path.parent.parent):  # data/<game>/ names its game
        if games_registry.known(folder.name):
            return folder.name
    return games_registry.default_game()


def _system_of(game: str) -> Any:
    try:
        return games_registry.get_data(game)  # a game with data only has its data checks too
    except ValueError:
        return None  # an unknown game is refused by the map or scenario loader, naming the key


def _validate_rules(path: Path, data: dict[str, Any]) -> None:
    from kiev_tui.engine.tomlio import Reader

    root = Reader(path, data)
    root.only(["book", "case"])
    seen: set[str] = set()
    for c in root.tables("case"):
        c.only(["id", "parent", "title", "text", "see", "table", "reconstructed"])
        cid = c.str("id")
        if cid in seen:
            raise c.fail("id", f"case {cid} appears twice")
        seen.add(cid)
        c.str("title")
        c.str("text")


def data_root() -> Path:
    """The project's data/ folder (KIEV_TUI_DATA overrides it)."""
    from kiev_tui.engine.scenario import data_root as root

    return root()


def _build_app() -> "typer.Typer":
    """The Typer app with every command (those of rules, pbem, host/join and serve too), from
    kiev_tui/cliapp.py: not loaded by `play` (issue 33)."""
    from kiev_tui.cliapp import build_app

    return build_app()


@functools.cache
def _app() -> "typer.Typer":
    return _build_app()


def play_command() -> Any:
    """The click command behind `kiev-tui play` (its parameters carry the real defaults)."""
    return _typer().main.get_command(_app()).commands["play"]


def __getattr__(name: str) -> Any:
    if name == "app":  # `from kiev_tui.cli import app`: the Typer app, built on first use
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """The console script: Typer's own usage errors in the same one-line form as ours."""
    opts = play_args(sys.argv[1:])
    if opts is not None:
        sys.exit(_play_fast(opts))
    gcpause.resume()  # paused for `play` only, whose unusual forms go on through Typer
    typer = _typer()
    try:  # recent Typer carries its own copy of click; older ones use click itself
        from typer._click.exceptions import ClickException, UsageError
    except ImportError:
        from click.exceptions import ClickException, UsageError  # type: ignore[no-redef]

    try:
        code = _app()(standalone_mode=False, prog_name="kiev-tui")
    except UsageError as exc:
        ctx = exc.ctx
        where = ctx.command_path if ctx is not None else "kiev-tui"
        message = " ".join(exc.format_message().split()).rstrip(".")
        message = message[:1].lower() + message[1:]
        typer.echo(f"error: {where}: {one_line(message)} (see {where} --help)", err=True)
        sys.exit(exc.exit_code)
    except ClickException as exc:
        typer.echo(f"error: {one_line(' '.join(exc.format_message().split()))}", err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("error: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main", "data_root", "play_args", "play_game"]
