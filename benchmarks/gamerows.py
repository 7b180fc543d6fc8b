"""Rows every newer game's benchmark group shares (benchmarks/b1941.py, benchmarks/efs.py): a
random legal game, the bot's game stopped at a turn, and the first frame and the resume of the
real `kiev-tui` next to a bare Textual app started the same way in the same run."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

from kiev_tui.engine.game import Game

from benchmarks.engine import plain_bfs, timed
from benchmarks.report import Row, alternate, failed, judge, pair_row


def random_game_rows(bot: Any, scenario: str, label: str, quick: bool, games: int = 1) -> list[Row]:
    """The random bot's whole games of ``scenario``, per game and per action, next to one BFS."""
    count = 1 if quick else max(1, games)
    seconds, actions = [], 0
    for k in range(count):
        t = time.perf_counter()
        result = bot.play_game(scenario, 1 + k)
        seconds.append(time.perf_counter() - t)
        actions += result.actions
    total = sum(seconds)
    game = Game.new(scenario, seed=1941)
    first = min(game.scenario.map.hexes())  # the map's own first hex: its grid is not Kiev's
    floor = timed(lambda: plain_bfs(game.scenario.map, [first]), 20)
    return [Row(label, total / count, "s/game", note=f"{count} game(s), {actions} actions"),
            Row("  time per action", total / max(actions, 1) * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
                note=f"{actions / total:.1f} actions/s")]


def bot_game_at(bot: Any, scenario: str, turn: int, seed: int = 1) -> Game:
    """``scenario`` as the random bot plays it with ``seed``, stopped as ``turn`` begins."""
    class Reached(Exception):
        def __init__(self, game: Game) -> None:
            self.game = game

    def stop(game: Game, _act: Any) -> None:
        if game.state.turn >= turn and game.state.pending is None:
            raise Reached(game)

    try:
        bot.play_game(scenario, seed, on_action=stop)
    except Reached as got:
        return got.game
    raise RuntimeError(f"the bot's game with seed {seed} ended before turn {turn}")


@dataclass(frozen=True)
class ScreenRows:
    """What one game's first-frame and resume rows say."""

    prefix: str  # "B41", "EFS"
    scenario: str
    first_marker: str  # text the new game's screen shows once drawn
    resume_label: str  # "turn-4", "GT52"
    resume_marker: str  # text the resumed game's screen shows
    resume_note: str  # how the resumed position was made
    answered_row: bool = False  # also time a key typed at once on the resumed game
    first_note: str = ""  # what the first screen is, when it is not the map (a set-up question)


def screen_rows(spec: ScreenRows, resumed: Callable[[], Game], quick: bool, pairs: int = 5) -> list[Row]:
    """First frame of `kiev-tui new` and the resume of an autosave, each next to a bare app."""
    from benchmarks import user

    first_name = f"{spec.prefix} time to first frame, `kiev-tui new {spec.scenario}`"
    resume_name = f"{spec.prefix} resuming a {spec.resume_label} autosave, `kiev-tui play`"
    try:
        user.compile_ahead()
        sb = user.Sandbox()
    except Exception as exc:
        return [failed(first_name, "s", exc, "<= 1.5x"), failed(resume_name, "s", exc, "<= 1.5x")]
    rows: list[Row] = []
    try:
        n = user._pairs(pairs, quick)
        try:
            argv = [str(sb.kiev), "new", spec.scenario, "--seed", "1"]
            bare = [sb.script("bare")]
            warm = user.start(sb, argv).first_frame
            runs = alternate(lambda: user.start(sb, argv), lambda: user.start(sb, bare), n)
            shown = sum(spec.first_marker in user._text(a.picture) for a, _ in runs)
            rows.append(judge(pair_row(first_name, "s", [(a.first_frame, b.first_frame) for a, b in runs],
                                       "bare Textual app, same way", "<= 1.5x",
                                       (f"{spec.first_note}; " if spec.first_note else "")
                                       + f"first start {warm:.2f} s; '{spec.first_marker}' on {shown}/{len(runs)} "
                                       f"screens; peak RSS {statistics.median(a.rss_mib for a, _ in runs):.1f} MiB"
                                       + _stopped(runs)),
                              1.5, "ratio"))
        except Exception as exc:
            rows.append(failed(first_name, "s", exc, "<= 1.5x"))
        try:
            from kiev_tui.engine import savepaths
            from kiev_tui.engine.saves import save_game

            game = resumed()
            save_game(game, savepaths.autosave_path(sb.saves))
            kept = {p.name: p.read_bytes() for p in sb.saves.iterdir()}  # the save and any side files

            def fresh() -> None:
                for p in sb.saves.iterdir():
                    p.unlink()
                for name, data in kept.items():
                    (sb.saves / name).write_bytes(data)

            argv = [str(sb.kiev), "play"]
            bare = [sb.script("bare")]
            runs = alternate(lambda: user.start(sb, argv, fresh), lambda: user.start(sb, bare), n)
            back = sum(spec.resume_marker in user._text(a.picture) for a, _ in runs)
            # the position on show, log text aside (issue 33's measure), where the harness has it
            shown_at = [(getattr(a, "position_frame", a.first_frame), b.first_frame) for a, b in runs]
            rows.append(judge(pair_row(resume_name, "s", shown_at, "bare Textual app, same run", "<= 1.5x",
                                       f"the position on show (log text aside); {spec.resume_note}: "
                                       f"{len(game.log)} actions; '{spec.resume_marker}' on {back}/{len(runs)} "
                                       f"settled screens" + _stopped(runs)), 1.5, "ratio"))
            answered = getattr(user, "answered", None)
            if spec.answered_row and answered is not None:  # keys that play wait for the replay check
                asked = alternate(lambda: answered(sb, argv, fresh, spec.resume_marker),
                                  lambda: user.start(sb, bare), n)
                rows.append(pair_row(f"  {spec.prefix} resumed game answers a key typed at once (help: works "
                                     "during the check)",
                                     "s", [(a, b.first_frame) for a, b in asked], "bare Textual app's first frame",
                                     "", "`?` typed as soon as the position shows, until the help is on screen"))
                ends = alternate(lambda: answered(sb, argv, fresh, spec.resume_marker, b"P", "End the"),
                                 lambda: user.start(sb, bare), n)
                rows.append(pair_row(f"  {spec.prefix} resumed game plays a key typed at once (P: waits for its "
                                     "replay check)",
                                     "s", [(a, b.first_frame) for a, b in ends], "bare Textual app's first frame",
                                     "", "`P` typed as soon as the position shows, until its question is on screen"))
        except Exception as exc:
            rows.append(failed(resume_name, "s", exc, "<= 1.5x"))
        return rows
    finally:
        sb.cleanup()


def _stopped(runs: list[tuple[Any, Any]]) -> str:
    """A note on the starts that had to be stopped: they did not quit on ctrl+q within 4 s."""
    forced = sum(a.forced for a, _ in runs)
    return f"; {forced} start(s) did not quit on ctrl+q" if forced else ""
