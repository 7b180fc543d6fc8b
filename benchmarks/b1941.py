"""Barbarossa 1941's rows (``python -m benchmarks --only b1941``): reachable, supply, a random
game, the first frame and a resume, each timed next to a floor measured in the same run, as
Kiev's rows are (engine.py, user.py).  The goals are Kiev's for the same figures."""

from __future__ import annotations

import random
from typing import Any

from kiev_tui.engine import registry
from kiev_tui.engine.game import Game

from benchmarks.engine import changed, plain_bfs, timed
from benchmarks.gamerows import ScreenRows, bot_game_at, random_game_rows, screen_rows
from benchmarks.report import Row, failed, judge

GAME = "barbarossa1941"
SCENARIO = f"{GAME}/historical"
RESUME_TURN = 4
SETUP_MARKER = "default set-up hexes"  # 15: the set-up question's last option, "accept the remaining N ..."


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
    return random_game_rows(_bot(), SCENARIO, "B41 random legal game, historical", quick, games)


def turn_save(turn: int = RESUME_TURN, seed: int = 1) -> Game:
    """The historical scenario as the random bot plays it with ``seed``, stopped as ``turn`` begins."""
    return bot_game_at(_bot(), SCENARIO, turn, seed)


def bench_screen(quick: bool, pairs: int = 5) -> list[Row]:
    """First frame of `kiev-tui new barbarossa1941/historical` and the resume of a turn-4 autosave,
    each next to a bare Textual app started the same way.

    A new game opens on the Axis player's first set-up question (15: each unit's hex, or the
    book's defaults for the rest), drawn over the whole screen: that question is the first
    screen a player meets and answers, so it is the first frame, known by its last option."""
    spec = ScreenRows("B41", SCENARIO, SETUP_MARKER, f"turn-{RESUME_TURN}", f"Turn {RESUME_TURN} of 10",
                      f"bot seed 1 to turn {RESUME_TURN}", answered_row=True,
                      first_note="the set-up question (15) a new game opens on")
    return screen_rows(spec, turn_save, quick, pairs)


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
