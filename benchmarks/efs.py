"""Kiev to Rostov's rows for the Battle of Sumy (``python -m benchmarks --only efs``): reachable,
a random game, the first frame and a resume, each timed next to a floor measured in the same run
(as benchmarks/b1941.py does).  The goals are Kiev's for the same figures."""

from __future__ import annotations

from typing import Any

from kiev_tui.engine import registry
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game

from benchmarks.engine import changed, plain_bfs, timed
from benchmarks.gamerows import ScreenRows, bot_game_at, random_game_rows, screen_rows
from benchmarks.report import Row, failed, judge

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
    return random_game_rows(_bot(), SCENARIO, "EFS random legal game, Sumy (GT50-53)", quick, games)


def turn_save(turn: int = RESUME_TURN, seed: int = 1) -> Game:
    """Sumy as the random bot plays it with ``seed``, stopped as ``turn`` begins."""
    return bot_game_at(_bot(), SCENARIO, turn, seed)


def bench_screen(quick: bool, pairs: int = 5) -> list[Row]:
    """First frame of `kiev-tui new efs_ktr/sumy` and the resume of a GT52 autosave, each next to a
    bare Textual app started the same way."""
    gt = FIRST_GT + RESUME_TURN - 1
    spec = ScreenRows("EFS", SCENARIO, f"Game-turn {FIRST_GT}", f"GT{gt}", f"Game-turn {gt}", f"bot seed 1 to GT{gt}")
    return screen_rows(spec, turn_save, quick, pairs)


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
