"""The Typer app of `kiev-tui`: every command, built the first time the app is asked for.

`kiev-tui play` in its usual forms never gets here (cli.play_args reads it), so this table of
commands is not loaded, nor its code kept in memory, by the game's start (issue 33).  The
commands call the functions of kiev_tui.cli through the module, so that what a test replaces
there is what they call.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from kiev_tui import cli
from kiev_tui.cli import DEFAULT_SCENARIO, games_registry
from kiev_tui.clitools import fail, guarded
from kiev_tui.engine.errors import one_line

if TYPE_CHECKING:
    import typer


def build_app() -> "typer.Typer":
    """The Typer app with every command (those of rules, pbem, host/join and serve too)."""
    global typer  # a module global: Typer reads the commands' annotations here
    typer = cli._typer()
    from kiev_tui.engine import savepaths
    from kiev_tui.engine.actions import action_from_toml, action_key
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.saves import load_game, save_game
    from kiev_tui.engine.scenario import load_scenario
    from kiev_tui.engine.tomlio import Reader, atomic_write_text, load_toml

    app = typer.Typer(add_completion=False, no_args_is_help=False, invoke_without_command=True,
                      help="Rules-enforcing terminal versions of the 1941 Kiev board wargames.")

    @app.callback()
    def main_callback(ctx: typer.Context) -> None:
        if ctx.invoked_subcommand is None:
            # ctx.invoke would hand play() its OptionInfo objects as values: give the real defaults
            ctx.invoke(play, **{p.name: p.default for p in cli.play_command().params if p.name})

    scenario_arg = typer.Argument(None, metavar="[SCENARIO]", show_default=False,
                                  help=f"scenario as game/name or a .toml path (default {DEFAULT_SCENARIO})")
    scenario_opt = typer.Option(None, "--scenario", show_default=False,
                                help=f"the same, as an option (default {DEFAULT_SCENARIO})")
    seed_opt = typer.Option(None, help="seed of the game's dice, for reproducible play "
                            "(default: each roll drawn from the OS's entropy when needed)")

    @app.command()
    @guarded
    def play(
        given: Optional[str] = scenario_arg,
        scenario: Optional[str] = scenario_opt,
        seed: Optional[int] = seed_opt,
        resume: bool = typer.Option(True, help="resume the autosave of this scenario if there is one"),
        ascii: bool = typer.Option(False, "--ascii", help="ASCII-only drawing (no box characters)"),
        no_mouse: bool = typer.Option(False, "--no-mouse", help="ignore the mouse"),
        plain: bool = typer.Option(False, "--plain", help="plain line mode: typed commands, lines of text "
                                   "(screen readers, slow links; docs/PLAIN.md)"),
        load: Optional[Path] = typer.Option(None, "--load", help="play on from this save instead"),
        ai: Optional[str] = typer.Option(None, "--ai", metavar="SIDE",
                                         help="the computer plays this side (e.g. german or soviet)"),
        ai_level: str = typer.Option("strong", "--ai-level", metavar="LEVEL",
                                     help="how well the computer plays: easy, strong, or plan (strong steered by an operational plan)"),
        explain: bool = typer.Option(False, "--explain", help="with --ai: the computer's plan per phase and why "
                                     "it made each move (plain mode: printed; screen: ai-explain.log)"),
    ) -> None:
        """Play (the default): resume the last game or start the default scenario."""
        cli.play_game(given, scenario, seed, resume, ascii, no_mouse, plain, load, ai, ai_level,
                  **({"explain": True} if explain else {}))

    @app.command()
    @guarded
    def new(
        given: Optional[str] = scenario_arg,
        scenario: Optional[str] = scenario_opt,
        seed: Optional[int] = seed_opt,
        save: Optional[Path] = typer.Option(None, help="write the new game to this save file"),
        ui: bool = typer.Option(True, help="open the game in the terminal UI"),
        option: list[str] = typer.Option([], "--option", help="a variant of the scenario, KEY=VALUE (repeatable), "
                                                              "e.g. optional_rules=14.3.1,14.3.5"),
    ) -> None:
        """Start a new game of the scenario's game (`kiev-tui new <game>/<name>`)."""
        from kiev_tui.pbem.cli import parse_option  # KEY=VALUE read as `pbem new` reads it

        options = dict(parse_option(o) for o in option)
        game = Game.new(cli.pick_scenario(given, scenario), cli.fresh_seed(seed), options=options)
        if save is not None:
            save_game(game, save, make_parents=False)  # a typed path: no folders made on the way
            typer.echo(f"saved {save}")
        if ui:
            cli._start_ui(game, savepaths.autosave_path())  # the player's autosave; the --save file stays as written

    @app.command()
    @guarded
    def load(save: Path) -> None:
        """Load a save (checked by replay) and play on."""
        game = load_game(save)
        cli._start_ui(game, savepaths.autosave_path())  # never over the save itself: it stays as it was

    @app.command()
    @guarded
    def validate(path: Path) -> None:
        """Check a data folder or file against its schema: every problem as file, key, reason."""
        problems = cli.validate_path(path)
        for p in problems:
            typer.echo(f"error: {p}", err=True)
        if problems:
            raise typer.Exit(2)
        typer.echo(f"{path}: ok")

    @app.command("map")
    @guarded
    def map_cmd(
        scenario: Optional[str] = typer.Option(None, help="scenario whose map to draw ('game/name', or a "
                                               "name of --game's scenarios)", show_default=False),
        game: Optional[str] = typer.Option(None, "--game", help="draw this game's map (data/<game>/map.toml)",
                                           show_default=False),
        svg: Optional[Path] = typer.Option(None, help="also write the picture as SVG to this file"),
        ids: bool = typer.Option(False, help="show hex numbers in plain hexes"),
        units: bool = typer.Option(False, help="show the starting stacks (needs a scenario)"),
    ) -> None:
        """Draw the map as text (with a legend); --svg writes the same picture as SVG."""
        from rich.console import Console
        from rich.text import Text

        from kiev_tui.engine.mapdata import load_map
        from kiev_tui.textmap import legend as map_legend, render, side_marks

        if game is not None and scenario is not None and "/" not in scenario and not scenario.endswith(".toml"):
            scenario = f"{game}/{scenario}"  # --game barbarossa1941 --scenario historical
        if game is not None and scenario is None:
            if units:
                raise fail("--units draws a scenario's set-up: name one with --scenario")
            from kiev_tui.gameslist import no_map_reason

            reason = no_map_reason(one_line(game))  # unknown, or a game with its rules reference only
            if reason is not None:
                raise fail(f"--game: {reason}")
            gmap = load_map(cli.data_root() / game / "map.toml")
            title = f"{game} map"
            setup: dict[str, Any] = {}
            catalog = None
        else:
            sc = load_scenario(scenario or DEFAULT_SCENARIO)
            if game is not None and sc.game != game:
                raise fail(f"--scenario: {sc.id} is a scenario of {sc.game}, not of {one_line(game)[:40]}")
            gmap, title, setup, catalog = sc.map, sc.title, dict(sc.setup), sc.catalog
        stacks: dict[Any, str] | None = None
        if units and catalog is not None:
            stacks = {}
            schema = games_registry.get_schema(gmap.game)
            letters = side_marks(schema.sides, schema)
            count: dict[Any, int] = {}
            for uid, h in setup.items():
                count[h] = count.get(h, 0) + 1
                stacks[h] = f"{letters[catalog.units[uid].side]}{count[h]}"  # one side per hex
        text = render(gmap, stacks, ids=ids)
        legend = "\n".join(f"  {glyph:<8} {meaning}" for glyph, meaning in map_legend(gmap))  # the game's own symbols
        body = f"{text}\n\nLegend:\n{legend}\n"
        console = Console(record=svg is not None, width=max(100, 5 * gmap.columns + 4),
                          no_color="NO_COLOR" in os.environ, highlight=False)
        console.print(Text(body), soft_wrap=True)
        if svg is not None:
            atomic_write_text(svg, console.export_svg(title=f"{title} - map"), make_parents=False)
            typer.echo(f"wrote {svg}", err=True)

    @app.command()
    @guarded
    def games() -> None:
        """List every game and its scenarios: which can be played, which have a computer player."""
        from kiev_tui.gameslist import all_games, describe

        for line in describe(all_games()):
            typer.echo(line)

    @app.command()
    @guarded
    def state(save: Path, as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """Print the position a save holds (after checking it by replay)."""
        game = load_game(save)
        if as_json:
            typer.echo(json.dumps({"phase": str(game.phase), "hash": game.state_hash(), "state": game.state.to_dict()},
                                  indent=1))
            return
        cli._print_overview(game)

    @app.command()
    @guarded
    def replay(save: Path, verify: bool = typer.Option(True, "--verify/--no-verify",
                                                       help="compare every recorded roll, journal line, hash and the "
                                                            "header with the replay (the first difference names its "
                                                            "action)")) -> None:
        """Replay a save's log from its scenario; the first difference from the save is one line, exit 2.
        A last line says whether this user's key signed the save (an edited one is flagged)."""
        game = load_game(save, verify=verify)
        if not verify:
            typer.echo(f"{save}: {len(game.log)} actions replayed (not compared), final position {game.state_hash()}")
        else:
            typer.echo(f"{save}: {len(game.log)} actions replayed; every recorded roll ({game.rolls}), journal line "
                       f"({len(game.journal)}) and hash matches, final position {game.state_hash()}")
        typer.echo(game.signature.line)  # whose key signed it (engine/savekey.py): a flag, not a refusal

    @app.command()
    @guarded
    def script(
        scenario: str,
        actions: Path,
        seed: int = typer.Option(1941, help="seed of the game's dice"),
        as_json: bool = typer.Option(False, "--json", help="one JSON object per line"),
        save: Optional[Path] = typer.Option(None, help="save the game at the end"),
    ) -> None:
        """Play a list of actions headlessly and print each event or refusal."""
        game = Game.new(scenario, seed)
        root = Reader(actions, load_toml(actions))
        root.only(["action"])
        refused = 0
        for k, entry in enumerate(root.tables("action")):
            i = k + 1  # actions are numbered from 1 here, in errors and in replay's messages alike
            act = action_from_toml(entry.data, action_key(k), str(actions), registry=game.rules.actions)
            illegal = game.check(act)
            if illegal is not None:
                refused += 1
                if as_json:
                    typer.echo(json.dumps({"action": i, "kind": act.kind,
                                           "refused": {"case": illegal.case, "why": illegal.why}}))
                else:
                    typer.echo(f"[{i}] {act.kind}: REFUSED {illegal}")
                continue
            for ev in game.apply(act):
                if as_json:
                    typer.echo(json.dumps({"action": i, "event": ev.to_dict(), "text": ev.describe()}))
                else:
                    typer.echo(f"[{i}] {ev.describe()}")
        if save is not None:
            save_game(game, save, make_parents=False)
        if refused and not as_json:
            typer.echo(f"{refused} action(s) refused", err=True)

    @app.command()
    @guarded
    def selfplay(
        games: int = typer.Option(1, help="how many games to play"),
        seed: int = typer.Option(1, help="seed of the first game (each next game adds one)"),
        scenario: str = typer.Option(DEFAULT_SCENARIO, help="scenario to play"),
        combat: bool = typer.Option(True, help="also attack and overrun, not only move"),
        check: bool = typer.Option(False, help="invariants after every action, save and reload at every "
                                               "phase end, the whole save verified at the end"),
    ) -> None:
        """Random legal play of whole campaigns, checking the rules hold (a test tool)."""
        game_id = load_scenario(scenario).game
        bot = games_registry.get_bot(game_id)
        if bot is None:
            raise fail(f"the game '{game_id}' has no bot to play it")
        for k in range(games):
            if not check:
                typer.echo(bot.play_game(scenario, seed + k, combat=combat).summary())
                continue
            import tempfile

            from kiev_tui.selfcheck import CheckFailed, SelfCheck

            with tempfile.TemporaryDirectory(prefix="kiev-selfcheck-") as folder:
                checker = SelfCheck(scenario, seed + k, Path(folder))
                try:
                    result = bot.play_game(scenario, seed + k, combat=combat, on_action=checker)
                    checker.finish()
                except CheckFailed as exc:
                    raise fail(f"seed {seed + k}: {exc}") from None
            typer.echo(f"{result.summary()}; checked after {checker.actions} actions, "
                       f"saved and reloaded at {checker.reloads} phase ends")

    from kiev_tui.ai.cli import register as register_ai
    from kiev_tui.net.cli import register as register_net
    from kiev_tui.pbem.cli import register as register_pbem
    from kiev_tui.rulesref.cli import register as register_rules
    from kiev_tui.serve.cli import register as register_serve

    register_rules(app)
    register_pbem(app)
    register_net(app)
    register_serve(app)
    register_ai(app)
    return app
