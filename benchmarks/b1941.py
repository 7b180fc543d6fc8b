"""Barbarossa 1941's rows (``python -m benchmarks --only b1941``): reachable, supply, a random
game, the first frame and a resume, each timed next to a floor measured in the same run, as
Kiev's rows are (engine.py, user.py).  The goals are Kiev's for the same figures."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from kiev_tui.engine import registry
from kiev_tui.engine.game import Game

from benchmarks.engine import changed, plain_bfs, timed
from benchmarks.report import Row, alternate, failed, judge, pair_row

GAME = "barbarossa1941"
SCENARIO = f"{GAME}/historical"
RESUME_TURN = 4


def _bot() -> Any:
    return registry.get_bot(GAME)


def _advance(game: Game, side: str, phase: str, rng: random.Random, limit: int = 4000) -> None:
    """Play the random bot's way until ``side``'s ``phase`` begins with nothing pending."""
    bot = _bot()
    start = len(game.log)  # the phase is reached anew: at least one action played here
    for _ in range(limit):
        st = game.state
        if st.player == side and st.phase == phase and st.pending is None and len(game.log) > start:
            return
        if st.pending is not None:
            game.apply(bot.answer_from_options(game, rng))
            continue
        for act in bot.phase_actions(game, rng):
            if game.state.pending is None and game.check(act) is None:
                game.apply(act)
        if game.state.pending is None:
            game.apply(_end())
    raise RuntimeError(f"{side} {phase} not reached in {limit} steps")


def _new(seed: int) -> Game:
    """A new game with the set-up prompts answered by the book's default hexes (15)."""
    game = Game.new(SCENARIO, seed=seed)
    while game.state.pending is not None and game.state.pending["kind"] == "setup":
        p = game.rules.prompt(game)
        game.apply(next(o.action for o in p.options if o.verb == "setup_defaults"), side=p.side)
    return game


def _end() -> Any:
    from kiev_tui.engine.actions import EndPhase

    return EndPhase()


def _panzer_stack(game: Game) -> tuple[str, ...]:
    """The panzer corps that can reach the most hexes now (a mechanized stack, as Kiev's row)."""
    cat = game.scenario.catalog.units
    best: tuple[int, tuple[str, ...]] = (-1, ())
    for uid in game.rules.actable(game):
        if cat[uid].type != "panzer":
            continue
        n = sum(1 for r in game.rules.reachable(game, (uid,), explain=False).values() if r.ok)
        best = max(best, (n, (uid,)))
    if not best[1]:
        raise RuntimeError("no panzer corps can move")
    return best[1]


def bench_reachable(quick: bool) -> list[Row]:
    game = _new(1941)
    stack = _panzer_stack(game)
    grid = game.scenario.map.grid
    start = grid.parse(str(game.state.units[stack[0]].hex))
    repeat = 5 if quick else 15

    def cold() -> None:
        changed(game)
        game.reachable(stack)

    t = timed(cold, repeat)

    def lean() -> None:
        changed(game)
        game.rules.reachable(game, stack, explain=False)

    t_lean = timed(lean, repeat)
    floor = timed(lambda: plain_bfs(game.scenario.map, [start]), repeat * 4)
    ok_hexes = sum(1 for r in game.reachable(stack).values() if r.ok)
    row = judge(Row("B41 reachable(), panzer corps, turn 1", t * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
                    "<= 3x", note=f"{stack[0]} at {grid.id(start)}: {ok_hexes} hexes"), 3, "ratio")
    lean_row = judge(Row("  same, legal hexes only (explain=False)", t_lean * 1e3, "ms", floor * 1e3,
                         "plain BFS, whole map", "<= 3x"), 3, "ratio")
    return [row, lean_row]


def bench_supply(quick: bool) -> list[Row]:
    """The supply answer of the whole position (8): the rule system's, and the supply module's
    own trace of every formation, next to one multi-source BFS from the same sources."""
    from kiev_tui.games.barbarossa1941 import supply as b41_supply

    rng = random.Random(6)
    game = _new(1941)
    _advance(game, "axis", "movement", rng)
    _advance(game, "soviet", "movement", rng)
    repeat = 3 if quick else 7
    board = game.rules.position(game)
    answer = b41_supply.supply(board)
    sources = sorted(answer.sources("axis") | answer.sources("soviet"))

    def cold_rules() -> None:
        changed(game)
        game.rules.supply(game)

    def cold_trace() -> None:
        changed(game)
        b41_supply.supply(game.rules.position(game))

    t_rules = timed(cold_rules, repeat)
    t_trace = timed(cold_trace, repeat)
    floor = timed(lambda: plain_bfs(game.scenario.map, sources), repeat * 4)
    out = sum(len(answer.out_of_supply(s)) for s in ("axis", "soviet"))
    return [
        judge(Row(f"B41 supply trace, every formation (turn {game.state.turn})", t_trace * 1e3, "ms", floor * 1e3,
                  "one multi-source BFS", "<= 3x", note=f"{len(answer.status_of)} formations, {len(sources)} "
                                                         f"sources, {out} out of supply"), 3, "ratio"),
        judge(Row("  rules.supply(game), as the faces ask it", t_rules * 1e3, "ms", floor * 1e3,
                  "one multi-source BFS", "<= 3x", note="what combat and retreat read now"), 3, "ratio"),
    ]


def bench_game(quick: bool, games: int = 1) -> list[Row]:
    bot = _bot()
    count = 1 if quick else max(1, games)
    seconds, actions = [], 0
    for k in range(count):
        t = time.perf_counter()
        result = bot.play_game(SCENARIO, 1 + k)
        seconds.append(time.perf_counter() - t)
        actions += result.actions
    total = sum(seconds)
    game = Game.new(SCENARIO, seed=1941)
    first = min(game.scenario.map.hexes())  # the map's own first hex: its grid is not Kiev's
    floor = timed(lambda: plain_bfs(game.scenario.map, [first]), 20)
    return [Row("B41 random legal game, historical", total / count, "s/game",
                note=f"{count} game(s), {actions} actions"),
            Row("  time per action", total / max(actions, 1) * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
                note=f"{actions / total:.1f} actions/s")]


def turn_save(turn: int = RESUME_TURN, seed: int = 1) -> Game:
    """The historical scenario as the random bot plays it with ``seed``, stopped as ``turn`` begins."""
    class Reached(Exception):
        def __init__(self, game: Game) -> None:
            self.game = game

    def stop(game: Game, _act: Any) -> None:
        if game.state.turn >= turn and game.state.pending is None:
            raise Reached(game)

    try:
        _bot().play_game(SCENARIO, seed, on_action=stop)
    except Reached as got:
        return got.game
    raise RuntimeError(f"the bot's game with seed {seed} ended before turn {turn}")


def bench_screen(quick: bool, pairs: int = 5) -> list[Row]:
    """First frame of `kiev-tui new barbarossa1941/historical` and the resume of a turn-4 autosave,
    each next to a bare Textual app started the same way."""
    from benchmarks import user

    first_name, resume_name = "B41 time to first frame, `kiev-tui new barbarossa1941/historical`", \
        f"B41 resuming a turn-{RESUME_TURN} autosave, `kiev-tui play`"
    try:
        user.compile_ahead()
        sb = user.Sandbox()
    except Exception as exc:
        return [failed(first_name, "s", exc, "<= 1.5x"), failed(resume_name, "s", exc, "<= 1.5x")]
    rows: list[Row] = []
    try:
        n = user._pairs(pairs, quick)
        try:
            argv = [str(sb.kiev), "new", SCENARIO, "--seed", "1"]
            bare = [sb.script("bare")]
            warm = user.start(sb, argv).first_frame
            runs = alternate(lambda: user.start(sb, argv), lambda: user.start(sb, bare), n)
            shown = sum("Turn 1 of 10" in user._text(a.picture) for a, _ in runs)
            rows.append(judge(pair_row(first_name, "s", [(a.first_frame, b.first_frame) for a, b in runs],
                                       "bare Textual app, same way", "<= 1.5x",
                                       f"first start {warm:.2f} s; 'Turn 1 of 10' on {shown}/{len(runs)} screens; "
                                       f"peak RSS {statistics.median(a.rss_mib for a, _ in runs):.1f} MiB"),
                              1.5, "ratio"))
        except Exception as exc:
            rows.append(failed(first_name, "s", exc, "<= 1.5x"))
        try:
            from kiev_tui.engine import savepaths
            from kiev_tui.engine.saves import save_game

            game = turn_save()
            autosave = savepaths.autosave_path(sb.saves)
            save_game(game, autosave)
            kept = autosave.read_bytes()

            def fresh() -> None:
                for p in sb.saves.iterdir():
                    p.unlink()
                autosave.write_bytes(kept)

            argv = [str(sb.kiev), "play"]
            bare = [sb.script("bare")]
            runs = alternate(lambda: user.start(sb, argv, fresh), lambda: user.start(sb, bare), n)
            resumed = sum(f"Turn {RESUME_TURN} of 10" in user._text(a.picture) for a, _ in runs)
            # the position on show, log text aside (issue 33's measure), where the harness has it
            shown_at = [(getattr(a, "position_frame", a.first_frame), b.first_frame) for a, b in runs]
            rows.append(judge(pair_row(resume_name, "s", shown_at, "bare Textual app, same run", "<= 1.5x",
                                       f"the position on show (log text aside); bot seed 1 to turn "
                                       f"{RESUME_TURN}: {len(game.log)} actions; 'Turn {RESUME_TURN} of 10' on "
                                       f"{resumed}/{len(runs)} settled screens"), 1.5, "ratio"))
            answered = getattr(user, "answered", None)
            if answered is not None:  # until the replay is checked, keys wait: when does one play?
                asked = alternate(lambda: answered(sb, argv, fresh, f"Turn {RESUME_TURN} of 10"),
                                  lambda: user.start(sb, bare), n)
                rows.append(pair_row("  B41 resumed game answers a key typed at once (its replay checked)", "s",
                                     [(a, b.first_frame) for a, b in asked], "bare Textual app's first frame", "",
                                     "`?` typed as soon as the position shows, until the help is on screen"))
        except Exception as exc:
            rows.append(failed(resume_name, "s", exc, "<= 1.5x"))
        return rows
    finally:
        sb.cleanup()


def bench_b1941(quick: bool, pairs: int = 5, games: int = 1) -> list[Row]:
    rows: list[Row] = []
    for name, fn in (("B41 reachable()", lambda: bench_reachable(quick)),
                     ("B41 supply", lambda: bench_supply(quick)),
                     ("B41 random legal game", lambda: bench_game(quick, games)),
                     ("B41 first frame / resume", lambda: bench_screen(quick, pairs))):
        try:
            rows.extend(fn())
        except Exception as exc:  # one broken figure must not hide the others
            rows.append(failed(name, "", exc))
    return rows
