"""Kiev to Rostov's rows for the Battle of Sumy (``python -m benchmarks --only efs``): reachable,
a random game, the first frame and a resume, each timed next to a floor measured in the same run
(as benchmarks/b1941.py does).  The goals are Kiev's for the same figures."""

from __future__ import annotations

import statistics
import time
from typing import Any

from kiev_tui.engine import registry
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game

from benchmarks.engine import changed, plain_bfs, timed
from benchmarks.report import Row, alternate, failed, judge, pair_row

GAME = "efs_ktr"
SCENARIO = f"{GAME}/sumy"
RESUME_TURN = 3
FIRST_GT = 50  # PB 10.41: scenario turn 1 is game-turn 50


def _bot() -> Any:
    return registry.get_bot(GAME)


def _movement(seed: int = 1941) -> Game:
    """A new Sumy game at the Axis movement phase of GT50 (only phase ends before it)."""
    game = Game.new(SCENARIO, seed=seed)
    while (game.state.player, game.state.phase) != ("axis", "movement"):
        game.apply(EndPhase(), side=game.actor)
    return game


def _best_stack(game: Game) -> tuple[str, ...]:
    """The single unit that can reach the most hexes now (a motorized one, as Kiev's row)."""
    best: tuple[int, tuple[str, ...]] = (-1, ())
    for uid in game.rules.actable(game):
        if game.state.units[uid].status != "map":
            continue
        n = sum(1 for r in game.rules.reachable(game, (uid,), explain=False).values() if r.ok)
        best = max(best, (n, (uid,)))
    if not best[1]:
        raise RuntimeError("no Axis unit can move")
    return best[1]


def bench_reachable(quick: bool) -> list[Row]:
    game = _movement()
    stack = _best_stack(game)
    grid = game.scenario.map.grid
    start = grid.parse(str(game.state.units[stack[0]].hex))
    repeat = 5 if quick else 15

    def cold() -> None:
        changed(game)
        game.reachable(stack)

    def lean() -> None:
        changed(game)
        game.rules.reachable(game, stack, explain=False)

    t, t_lean = timed(cold, repeat), timed(lean, repeat)
    floor = timed(lambda: plain_bfs(game.scenario.map, [start]), repeat * 4)
    ok_hexes = sum(1 for r in game.reachable(stack).values() if r.ok)
    return [judge(Row(f"EFS reachable(), motorized unit, GT{FIRST_GT}", t * 1e3, "ms", floor * 1e3,
                      "plain BFS, whole map", "<= 3x", note=f"{stack[0]} at {grid.id(start)}: {ok_hexes} hexes"),
                  3, "ratio"),
            judge(Row("  same, legal hexes only (explain=False)", t_lean * 1e3, "ms", floor * 1e3,
                      "plain BFS, whole map", "<= 3x"), 3, "ratio")]


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
    first = min(game.scenario.map.hexes())
    floor = timed(lambda: plain_bfs(game.scenario.map, [first]), 20)
    return [Row("EFS random legal game, Sumy (GT50-53)", total / count, "s/game",
                note=f"{count} game(s), {actions} actions"),
            Row("  time per action", total / max(actions, 1) * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
                note=f"{actions / total:.1f} actions/s")]


def turn_save(turn: int = RESUME_TURN, seed: int = 1) -> Game:
    """Sumy as the random bot plays it with ``seed``, stopped as ``turn`` begins."""
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
    """First frame of `kiev-tui new efs_ktr/sumy` and the resume of a GT52 autosave, each next to a
    bare Textual app started the same way."""
    from benchmarks import user

    gt = FIRST_GT + RESUME_TURN - 1
    first_name, resume_name = "EFS time to first frame, `kiev-tui new efs_ktr/sumy`", \
        f"EFS resuming a GT{gt} autosave, `kiev-tui play`"
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
            shown = sum(f"Game-turn {FIRST_GT}" in user._text(a.picture) for a, _ in runs)
            rows.append(judge(pair_row(first_name, "s", [(a.first_frame, b.first_frame) for a, b in runs],
                                       "bare Textual app, same way", "<= 1.5x",
                                       f"first start {warm:.2f} s; 'Game-turn {FIRST_GT}' on {shown}/{len(runs)} "
                                       f"screens; peak RSS {statistics.median(a.rss_mib for a, _ in runs):.1f} MiB"),
                              1.5, "ratio"))
        except Exception as exc:
            rows.append(failed(first_name, "s", exc, "<= 1.5x"))
        try:
            from kiev_tui.engine import savepaths
            from kiev_tui.engine.saves import save_game

            game = turn_save()
            autosave = savepaths.autosave_path(sb.saves)
            save_game(game, autosave)
            kept = {p.name: p.read_bytes() for p in sb.saves.iterdir()}  # the save and its side files

            def fresh() -> None:
                for p in sb.saves.iterdir():
                    p.unlink()
                for name, data in kept.items():
                    (sb.saves / name).write_bytes(data)

            argv = [str(sb.kiev), "play"]
            bare = [sb.script("bare")]
            runs = alternate(lambda: user.start(sb, argv, fresh), lambda: user.start(sb, bare), n)
            resumed = sum(f"Game-turn {gt}" in user._text(a.picture) for a, _ in runs)
            shown_at = [(getattr(a, "position_frame", a.first_frame), b.first_frame) for a, b in runs]
            rows.append(judge(pair_row(resume_name, "s", shown_at, "bare Textual app, same run", "<= 1.5x",
                                       f"the position on show; bot seed 1 to GT{gt}: {len(game.log)} actions; "
                                       f"'Game-turn {gt}' on {resumed}/{len(runs)} settled screens"), 1.5, "ratio"))
        except Exception as exc:
            rows.append(failed(resume_name, "s", exc, "<= 1.5x"))
        return rows
    finally:
        sb.cleanup()


def bench_efs(quick: bool, pairs: int = 5, games: int = 1) -> list[Row]:
    rows: list[Row] = []
    for name, fn in (("EFS reachable()", lambda: bench_reachable(quick)),
                     ("EFS random legal game", lambda: bench_game(quick, games)),
                     ("EFS first frame / resume", lambda: bench_screen(quick, pairs))):
        try:
            rows.extend(fn())
        except Exception as exc:  # one broken figure must not hide the others
            rows.append(failed(name, "", exc))
    return rows
