"""Figures as a player meets them: the real `kiev-tui` console script on a real pseudo-terminal.

Every program here is started the way a player starts the game: the `kiev-tui` console
script of the virtual environment (byte-code compiled ahead, as `make bench` does), on the
slave side of `os.openpty` with TERM=xterm-256color and the window size set by TIOCSWINSZ.
HOME and the XDG folders point into a temporary folder, which is also the working folder, so
no autosave of the player's is resumed or written over.  The floors are started the same way:
a tiny console script on the same interpreter line (the first line of `kiev-tui`) that runs
benchmarks/bare.py (one label) or benchmarks/stock.py (a box and a status line).

Groups (`python -m benchmarks --only ...`): startup, wire, rules (the command line), extra
(more pty rows: select, combat, 80x24, NO_COLOR).  See docs/PERFORMANCE.md for the method.
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from benchmarks import screen
from benchmarks.pty_session import PtySession
from benchmarks.report import Row, alternate, failed, judge, pair_row

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 120, 40
SETTLE = 0.75  # seconds of silence after which a start counts as settled
KEY_QUIET = 0.25  # seconds of silence after which the answer to one key counts as complete
CAMPAIGN = "spi_kiev/campaign"
# From the opening cursor (the Kiev stack): over empty hexes, woods and rivers, onto and off
# stacks of both sides.  s/w/a/q/d/e are the six hex directions; l steps one column right.
WALK = (b"s", b"w", b"a", b"q", b"d", b"d", b"d", b"l", b"l", b"e", b"e", b"s")
SEARCH = "major river"  # typed into the rules screen one key at a time
ESC = b"\x1b"
KEY_QUIT = b"\x11"  # ctrl+q
RESUME_TURN = 12


def console_script() -> Path:
    """The installed `kiev-tui` script next to the interpreter running the benchmarks."""
    for candidate in (Path(sys.executable).with_name("kiev-tui"), ROOT / ".venv" / "bin" / "kiev-tui"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("no kiev-tui console script (pip install -e . first)")


def compile_ahead() -> None:
    """Byte-code for our packages, as `make bench` makes it (this machine may not write it on import)."""
    for pkg in ("kiev_tui", "benchmarks"):
        compileall.compile_dir(str(ROOT / pkg), quiet=1)


class Sandbox:
    """A temporary HOME (and working folder) for the programs measured, with the floors' scripts."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="kiev-bench-"))
        self.home = self.root / "home"
        for sub in ("", ".config", ".cache", ".local/share", ".local/state", "saves"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_COLOR", "KIEV_TUI_CACHE", "KIEV_TUI_SAVES", "TEXTUAL", "COLUMNS", "LINES")}
        env.update({"HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / ".config"),
                    "XDG_CACHE_HOME": str(self.home / ".cache"), "XDG_DATA_HOME": str(self.home / ".local/share"),
                    "XDG_STATE_HOME": str(self.home / ".local/state"), "TERM": "xterm-256color",
                    "PYTHONPATH": str(ROOT)})  # the floors' scripts import benchmarks.*; the game ignores it
        self.env = env
        self.kiev = console_script()
        self.shebang = self.kiev.read_text().splitlines()[0]

    @property
    def saves(self) -> Path:
        return self.home / "saves"  # `saves/` under the working folder, where the game looks (savepaths.py)

    def script(self, module: str) -> str:
        """A console script like `kiev-tui` (same first line) that runs benchmarks.<module>.main()."""
        path = self.root / "bin" / module
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            path.write_text(f"{self.shebang}\nimport sys\nfrom benchmarks.{module} import main\n"
                            f"if __name__ == '__main__':\n    sys.exit(main())\n")
            path.chmod(0o755)
        return str(path)

    def python(self) -> str:
        """The interpreter (and flags) on the console script's first line."""
        return self.shebang[2:].strip()

    def session(self, argv: list[str], width: int = WIDTH, height: int = HEIGHT, quiet: float = SETTLE,
                env: dict[str, str] | None = None, measure: bool = False) -> PtySession:
        return PtySession(argv, width, height, cwd=str(self.home), env=env or self.env, quiet=quiet, limit=40.0,
                          measure=measure)

    def cleanup(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass
class Start:
    """One start of a program, up to its settled screen, then quit."""

    first_frame: float  # seconds from spawn until the screen first showed its settled picture
    settled_bytes: int  # every byte until the screen settled
    frame_bytes: int  # bytes read until the first frame was complete
    rss_mib: float  # the program's own peak resident memory (spawn.py's wait4 after it quit)
    forced: bool  # it had to be signalled: it did not quit on ctrl+q
    picture: screen.Grid
    position_frame: float  # seconds until the settled picture showed, the log panel's text aside


def start(sb: Sandbox, argv: list[str], before: Callable[[], None] | None = None) -> Start:
    if before is not None:
        before()
    s = sb.session(argv, measure=True)
    s.start()
    deadline = time.monotonic() + 40.0
    try:
        # settled: quiet for SETTLE seconds after something was drawn (a long load between the
        # terminal's set-up codes and the first paint is not the end)
        while True:
            s.read_until_quiet(first_byte_timeout=max(0.1, deadline - time.monotonic()))
            alive = not s.hung_up and s.proc is not None and s.proc.poll() is None
            drawn = screen.first_frame(s.events, WIDTH, HEIGHT) is not None
            if drawn or not alive or time.monotonic() > deadline:
                break
    finally:
        s.close(KEY_QUIT)
    name = Path(argv[0]).name
    if not alive:
        raise RuntimeError(f"{name} ended on its own: {bytes(s.transcript[-240:]).decode('utf-8', 'replace')!r}")
    frame = screen.first_frame(s.events, WIDTH, HEIGHT)
    if frame is None:
        raise RuntimeError(f"{name} drew nothing in 40 s")
    if s.child is None or s.peak_rss_mib is None:
        raise RuntimeError(f"{name}: no report from spawn.py")
    return Start(frame.seconds - s.spawned_at, len(s.transcript), frame.bytes, s.peak_rss_mib, s.forced,
                 screen.settled(s.events, WIDTH, HEIGHT), position_frame(s.events) - s.spawned_at)


def answered(sb: Sandbox, argv: list[str], before: Callable[[], None], shows: str, key: bytes = b"?",
             answer: str = "Help:") -> float:
    """Seconds from spawn until a key typed the moment ``shows`` is on screen is answered (``?``
    opens the help): a resumed game holds keys until its save is checked (issue 33)."""
    before()
    s = sb.session(argv, measure=True)
    s.start()
    deadline = time.monotonic() + 40.0

    def wait_for(text: str) -> None:
        while text not in _text(screen.settled(s.events, WIDTH, HEIGHT)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"'{text}' never showed")
            s.read_until_quiet(first_byte_timeout=max(0.1, deadline - time.monotonic()), quiet=0.02)

    try:
        wait_for(shows)
        os.write(s.master, key)
        wait_for(answer)
    finally:
        s.close(KEY_QUIT)
    pictures = screen.screens(s.events, WIDTH, HEIGHT)
    at = next(t for (t, _), p in zip(s.events, pictures) if answer in _text(p))
    return float(at) - s.spawned_at


def _log_text(picture: screen.Grid) -> tuple[int, int] | None:
    """(first row, first column) of the game screen's log text, found by the panel's title line."""
    for r, row in enumerate(picture):
        c = "".join(cell[0] for cell in row).find("-Log-")
        if c >= 0:
            return r + 1, c
    return None


def position_frame(events: Any) -> float:
    """When the screen first looked as it settled, the text in the log panel aside (the time the
    position, map, panels, status line and key bar were all on show).

    A resumed game is drawn from its save's snapshot, whose journal keeps the words saves hold;
    once the replay is checked the log may tell older lines again in fuller words (issue 33).
    """
    pictures = screen.screens(events, WIDTH, HEIGHT)
    box = _log_text(pictures[-1])

    def outside_log(picture: screen.Grid) -> list[Any]:
        if box is None:
            return list(picture)
        return [row[:box[1]] if box[0] <= r < HEIGHT - 2 else row for r, row in enumerate(picture)]

    want = outside_log(pictures[-1])
    for (t, _), picture in zip(events, pictures):
        if outside_log(picture) == want:
            return float(t)
    raise AssertionError("the last picture always equals itself")


def _pairs(pairs: int, quick: bool) -> int:
    return max(3, pairs // 2) if quick else pairs


# -- startup ----------------------------------------------------------------------------------

def bench_startup(quick: bool, pairs: int = 5) -> list[Row]:
    """First frame, peak memory and first paint of `kiev-tui play --no-resume`, next to a bare app."""
    names = [("time to first frame, `kiev-tui play --no-resume`", "s", "<= 1.5x"),
             ("peak RSS, start and quit", "MiB", "<= 1.2x"),
             ("first paint 120x40 (bytes until settled)", "bytes", "<= 12,000 B")]
    try:
        compile_ahead()
        sb = Sandbox()
    except Exception as exc:  # no console script: every row says so
        return [failed(n, u, exc, g) for n, u, g in names]
    try:
        game = [str(sb.kiev), "play", "--no-resume"]
        bare = [sb.script("bare")]
        try:  # the first start is untimed: it fills the per-user cache of parsed data
            warm = start(sb, game).first_frame
            start(sb, bare)
            runs = alternate(lambda: start(sb, game), lambda: start(sb, bare), _pairs(pairs, quick))
        except Exception as exc:
            return [failed(n, u, exc, g) for n, u, g in names] + _resume(sb, quick, pairs)
        forced = sum(a.forced for a, _ in runs)
        quit_note = f"; {forced} start(s) did not quit on ctrl+q" if forced else ""
        first = judge(pair_row(names[0][0], "s", [(a.first_frame, b.first_frame) for a, b in runs],
                               "bare Textual app, same way", names[0][2],
                               f"first start with an empty cache {warm:.2f} s{quit_note}"), 1.5, "ratio")
        rss = judge(pair_row(names[1][0], "MiB", [(a.rss_mib, b.rss_mib) for a, b in runs],
                             "bare Textual app", names[1][2], "the program's own (spawn.py), quit with ctrl+q"), 1.2,
                     "ratio")
        last = runs[-1][0]
        ideal = screen.plain_redraw(screen.blank(WIDTH, HEIGHT), last.picture)
        paint_bytes = statistics.median(a.settled_bytes for a, _ in runs)
        frame_bytes = statistics.median(a.frame_bytes for a, _ in runs)
        bare_bytes = statistics.median(b.settled_bytes for _, b in runs)
        paint = judge(Row(names[2][0], float(paint_bytes), "bytes", float(ideal), "its screen, written plainly",
                          names[2][2], note=f"{frame_bytes:,.0f} B until the first frame was complete; "
                                            f"bare app {bare_bytes:,.0f} B"), 12_000)
        rows = [first, rss, paint]
        rows += _resume(sb, quick, pairs)
        return rows
    finally:
        sb.cleanup()


def turn_save(turn: int = RESUME_TURN, seed: int = 1) -> Any:
    """The campaign as the random bot plays it with `seed`, stopped as `turn` begins (deterministic)."""
    from kiev_tui.engine import registry

    class Reached(Exception):
        def __init__(self, game: Any) -> None:
            self.game = game

    def stop(game: Any, _act: Any) -> None:
        if game.state.turn >= turn:
            raise Reached(game)

    bot = registry.get_bot(CAMPAIGN.split("/")[0])
    try:
        bot.play_game(CAMPAIGN, seed, on_action=stop)
    except Reached as got:
        return got.game
    raise RuntimeError(f"the bot's game with seed {seed} ended before turn {turn}")


def _resume(sb: Sandbox, quick: bool, pairs: int) -> list[Row]:
    """Resuming a turn-12 autosave: the first frame of the position (shown from the save's final
    snapshot, issue 33), and the moment the game is playable (its replay checked, the log in
    its full words); both next to the bare app of the same pairs."""
    name, goal = f"resuming a turn-{RESUME_TURN} autosave, `kiev-tui play`", "<= 1.5x"
    checked = "resumed game answers a key typed at once (help: works during the check)"
    played = "resumed game plays a key typed at once (P: waits for its replay check)"
    try:
        from kiev_tui.engine import savepaths
        from kiev_tui.engine.saves import save_game

        game = turn_save()
        autosave = savepaths.autosave_path(sb.saves)  # the player's name does not depend on HOME
        save_game(game, autosave)
        kept = autosave.read_bytes()
        actions, lines = len(game.log), len(game.journal)

        def fresh() -> None:  # every start resumes the same file, whatever the last one did to it
            for p in sb.saves.iterdir():
                p.unlink()
            autosave.write_bytes(kept)

        argv = [str(sb.kiev), "play"]
        bare = [sb.script("bare")]
        runs = alternate(lambda: start(sb, argv, fresh), lambda: start(sb, bare), _pairs(pairs, quick))
        resumed = sum(f"Turn {RESUME_TURN}" in _text(a.picture) for a, _ in runs)  # a check on the resume
        row = pair_row(name, "s", [(a.position_frame, b.first_frame) for a, b in runs], "bare Textual app, same run",
                       goal, f"the position on show (log text aside); bot seed 1 to turn {RESUME_TURN}: "
                             f"{actions} actions, {lines} journal lines; "
                             f"peak RSS {statistics.median(a.rss_mib for a, _ in runs):.1f} MiB; "
                             f"'Turn {RESUME_TURN}' on {resumed}/{len(runs)} settled screens")
        asked = alternate(lambda: answered(sb, argv, fresh, f"Turn {RESUME_TURN}"), lambda: start(sb, bare),
                          _pairs(pairs, quick))
        ready = pair_row(checked, "s", [(a, b.first_frame) for a, b in asked], "bare Textual app's first frame",
                         "", "`?` typed as soon as the position shows, until the help is on screen: keys that "
                             "only look work while the save is checked")
        ends = alternate(lambda: answered(sb, argv, fresh, f"Turn {RESUME_TURN}", b"P", "End the"),
                         lambda: start(sb, bare), _pairs(pairs, quick))
        plays = pair_row(played, "s", [(a, b.first_frame) for a, b in ends], "bare Textual app's first frame",
                         "", "`P` (end the phase) typed as soon as the position shows, until its question is on "
                             "screen: a key that plays waits for the check")
        return [judge(row, 1.5, "ratio"), ready, plays]
    except Exception as exc:
        return [failed(name, "s", exc, goal), failed(checked, "s", exc), failed(played, "s", exc)]


def _text(picture: screen.Grid) -> str:
    return "\n".join("".join(c[0] for c in row) for row in picture)


# -- wire -------------------------------------------------------------------------------------

def _walk(s: PtySession, marks: list[int] | None = None) -> list[int]:
    """Bytes written in answer to each key of the walk; raise if the program is gone by the end.

    With `marks`, the number of chunks read before each key and after the last is appended to
    it (for the ideal diff, benchmarks/ideal.py)."""
    moves = []
    for k in WALK:
        if marks is not None:
            marks.append(len(s.events))
        moves.append(s.send_timed(k, quiet=KEY_QUIET)[0])
    if marks is not None:
        marks.append(len(s.events))
    _alive(s)
    return moves


def _alive(s: PtySession) -> None:
    if s.hung_up or s.proc is None or s.proc.poll() is not None:
        tail = bytes(s.transcript[-200:]).decode("utf-8", "replace")
        raise RuntimeError(f"{Path(s.argv[0]).name} ended during the session: {tail!r}")


def bench_wire(quick: bool) -> list[Row]:
    """Bytes per cursor move, dialog and rules screen closes, rules search per key, idle: one session."""
    rows: list[Row] = []
    try:
        compile_ahead()
        sb = Sandbox()
    except Exception as exc:
        return [failed("pty 120x40 session", "bytes", exc)]
    try:
        rows += _cursor_rows(sb)
        rows += _screens_rows(sb)
    finally:
        sb.cleanup()
    return rows


def _cursor_rows(sb: Sandbox) -> list[Row]:
    """The walk's bytes per key against the ideal diff of the same screens (issue 33), and stock
    Textual walked the same way as a second reference."""
    from benchmarks import ideal

    med_name, worst_name = "cursor move 120x40, median of a 12-move walk", "cursor move 120x40, worst of the walk"
    stock_name = "cursor move 120x40, stock Textual (reference), median"
    try:
        stock_marks: list[int] = []
        with sb.session([sb.script("stock")]) as s:
            s.read_until_quiet(first_byte_timeout=40.0)
            floor = _walk(s, stock_marks)
        stock_ideal = ideal.per_key(s.events, stock_marks, WIDTH, HEIGHT)
        marks: list[int] = []
        with sb.session([str(sb.kiev), "play", "--no-resume"]) as s:
            s.read_until_quiet(first_byte_timeout=40.0)
            moves = _walk(s, marks)
        best = ideal.per_key(s.events, marks, WIDTH, HEIGHT)
    except Exception as exc:
        return [failed(med_name, "bytes", exc, "<= 150 B, <= 1.1x"), failed(worst_name, "bytes", exc, "<= 300 B"),
                failed(stock_name, "bytes", exc)]
    return cursor_rows(moves, best, floor, stock_ideal)


def cursor_rows(moves: list[int], best: list[int], stock: list[int], stock_ideal: list[int]) -> list[Row]:
    """The cursor rows from the bytes of each key and the ideal diff of each (the game's, then
    stock Textual's): the median is met at most 150 B and at most 1.1x the ideal median."""
    med_name, worst_name = "cursor move 120x40, median of a 12-move walk", "cursor move 120x40, worst of the walk"
    stock_name = "cursor move 120x40, stock Textual (reference), median"
    what = "ideal diff of the same screens"
    med = Row(med_name, float(statistics.median(moves)), "bytes", float(statistics.median(best)), what,
              "<= 150 B, <= 1.1x",
              note=f"moves: {', '.join(map(str, moves))}; ideal: {', '.join(map(str, best))}; stock Textual "
                   f"median {statistics.median(stock):.0f} B")
    med.ok = med.value is not None and med.value <= 150 and (med.ratio or 0) <= 1.1
    at = moves.index(max(moves))
    worst = Row(worst_name, float(max(moves)), "bytes", float(max(best)), what + ", its worst", "<= 300 B",
                note="keys " + " ".join(k.decode() for k in WALK) + f"; worst key {at + 1}, its ideal {best[at]} B")
    ref = Row(stock_name, float(statistics.median(stock)), "bytes", float(statistics.median(stock_ideal)),
              "ideal diff of its screens", note=f"6-cell box + status line; moves: {', '.join(map(str, stock))}; "
                                                f"ideal: {', '.join(map(str, stock_ideal))}")
    return [med, judge(worst, 300), ref]


def search_floor(prefixes: list[str], repeat: int = 20) -> float:
    """Median over the typed prefixes of the fastest `search()` of the game's rules book, in seconds."""
    from kiev_tui.rulesref.model import load_reference
    from kiev_tui.rulesref.search import search

    book = load_reference(CAMPAIGN.split("/")[0])
    search("warm", [book], limit=1)  # the index is built once, as the rules screen does at open
    per: list[float] = []
    for q in prefixes:
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            search(q, [book], limit=100, prefix=True)
            best = min(best, time.perf_counter() - t)
        per.append(best)
    return statistics.median(per)


def _screens_rows(sb: Sandbox) -> list[Row]:
    names = {"dialog": ("dialog close (help, ? then Esc)", "bytes", "<= 10,000 B"),
             "rules": ("rules screen close (r, /, typing, then Esc)", "bytes", "<= 10,000 B"),
             "key_ms": (f"rules search, per typed key ('{SEARCH}'): time", "ms", "<= 30 ms"),
             "key_b": (f"rules search, per typed key ('{SEARCH}'): bytes, worst key", "bytes", "<= 6,000 B"),
             "idle": ("idle 3 s, rules search box focused", "bytes", "0 B")}
    marks: dict[str, int] = {}
    try:
        with sb.session([str(sb.kiev), "play", "--no-resume"]) as s:
            s.read_until_quiet(first_byte_timeout=40.0)
            help_open = s.send(b"?", wait=3.0)
            marks["dialog_open"] = len(s.events)
            help_close = s.send(ESC, wait=3.0)
            marks["dialog_closed"] = len(s.events)
            rules_open = s.send(b"r", wait=5.0)
            focus = s.send(b"/", wait=3.0)  # the search box (the screen may open on a case)
            typed = [s.send_timed(ch.encode(), wait=3.0, quiet=KEY_QUIET) for ch in SEARCH]
            idle = s.read_for(3.0)
            marks["rules_open"] = len(s.events)
            rules_close = s.send(ESC, wait=3.0)
            marks["rules_closed"] = len(s.events)
            _alive(s)
        pictures = screen.screens(s.events, WIDTH, HEIGHT)
    except Exception as exc:
        return [failed(name, unit, exc, goal) for name, unit, goal in names.values()]

    def redraw(a: str, b: str) -> int:
        return screen.plain_redraw(pictures[marks[a] - 1], pictures[marks[b] - 1])

    rows = [judge(Row(names["dialog"][0], float(help_close), "bytes", float(redraw("dialog_open", "dialog_closed")),
                      "the cells it uncovers, written plainly", names["dialog"][2],
                      note=f"opening it {help_open:,} B"), 10_000),
            judge(Row(names["rules"][0], float(rules_close), "bytes", float(redraw("rules_open", "rules_closed")),
                      "the cells it uncovers, written plainly", names["rules"][2],
                      note=f"opening it {rules_open:,} B, / to the search box {focus:,} B"), 10_000)]
    secs = [t for _, t in typed if t is not None]
    sizes = [b for b, _ in typed]
    try:
        floor = search_floor([SEARCH[:i] for i in range(1, len(SEARCH) + 1)]) * 1e3
        floor_what = "search() for the same prefixes"
    except Exception as exc:
        floor, floor_what = None, f"search() failed: {type(exc).__name__}"
    silent = len(typed) - len(secs)
    rows.append(judge(Row(names["key_ms"][0], statistics.median(secs) * 1e3 if secs else None, "ms", floor, floor_what,
                          names["key_ms"][2], note=f"median of the keys, from a key to the last byte of its answer; worst "
                          f"{max(secs) * 1e3 if secs else 0:.0f} ms" + (f"; {silent} key(s) drew nothing" if silent else "")),
                      30))
    # bytes do not depend on the machine's load: every key must meet the goal, so the worst is the figure
    rows.append(judge(Row(names["key_b"][0], float(max(sizes)), "bytes", None, "", names["key_b"][2],
                          note=f"per key: {', '.join(f'{b:,}' for b in sizes)}"), 6_000))
    rows.append(judge(Row(names["idle"][0], float(idle), "bytes", 0.0, "nothing changes", names["idle"][2],
                          note="after the last typed key settled"), 0))
    return rows


# -- rules from the shell ---------------------------------------------------------------------

@dataclass
class Run:
    wall: float
    rss_mib: float
    out: bytes


def run_to_exit(sb: Sandbox, argv: list[str], limit: float = 30.0) -> Run:
    """Spawn on the pty, read until it exits; wall time from spawn to its exit, peak RSS from wait4."""
    s = sb.session(argv, quiet=limit, measure=True)
    s.start()
    try:
        ended = s.read_to_end(limit)
    finally:
        s.close()
    if ended is None or s.child is None or s.peak_rss_mib is None:
        raise RuntimeError(f"{' '.join(argv[1:])} did not end within {limit:.0f} s")
    if s.child["status"] != 0:
        raise RuntimeError(f"exit status {s.child['status']:.0f}: {bytes(s.transcript[-200:])!r}")
    return Run(s.child["ended"] - s.child["spawned"], s.peak_rss_mib, bytes(s.transcript))


def bench_rules_cli(quick: bool, pairs: int = 5) -> list[Row]:
    cmds = [("`kiev-tui rules 9.66`", ["rules", "9.66"], 0.15, "9.66"),
            ("`kiev-tui rules --search \"major river\" --all`", ["rules", "--search", "major river", "--all"], 0.3,
             "river")]
    rows: list[Row] = []
    try:
        compile_ahead()
        sb = Sandbox()
    except Exception as exc:
        for name, _, goal, _ in cmds:
            rows += [failed(name + ", wall", "s", exc, f"<= {goal} s"), failed(name + ", peak RSS", "MiB", exc)]
        return rows
    try:
        floor = [sb.python(), "-c", "pass"]
        for name, args, goal, must in cmds:
            try:
                argv = [str(sb.kiev), *args]
                run_to_exit(sb, argv)  # untimed: fills the per-user cache of the parsed rules
                runs = alternate(lambda: run_to_exit(sb, argv), lambda: run_to_exit(sb, floor), _pairs(pairs, quick))
                if must.encode() not in runs[0][0].out:
                    raise RuntimeError(f"no '{must}' in its output: {runs[0][0].out[:120]!r}")
                rows.append(judge(pair_row(name + ", wall", "s", [(a.wall, b.wall) for a, b in runs],
                                           "`python -c pass`", f"<= {goal} s",
                                           f"{len(runs[0][0].out):,} B printed"), goal))
                rows.append(pair_row(name + ", peak RSS", "MiB", [(a.rss_mib, b.rss_mib) for a, b in runs],
                                     "`python -c pass`"))
            except Exception as exc:
                rows += [failed(name + ", wall", "s", exc, f"<= {goal} s"), failed(name + ", peak RSS", "MiB", exc)]
    finally:
        sb.cleanup()
    return rows


# -- extra pty rows ---------------------------------------------------------------------------

def _goto(s: PtySession, hex_id: str) -> None:
    # The go-to box waits for Enter (it never closes by itself), so each step is its own send.
    s.send(b"g", wait=2.0)
    s.send(hex_id.encode(), wait=2.0)
    s.send(b"\r", wait=2.0)


def combat_save(folder: Path) -> tuple[Path, list[str], str] | None:
    """A campaign save in the German combat phase with a legal attack: (save, attacker hexes, target)."""
    import random

    from benchmarks.engine import _combat_position
    from kiev_tui.engine.saves import save_game

    found = _combat_position(random.Random(7))
    if found is None:
        return None
    game, attackers, targets = found
    hexes = sorted({game.state.units[u].hex for u in attackers})
    path = folder / "combat.toml"
    save_game(game, path)
    return path, hexes, targets[0]


def bench_extra(quick: bool) -> list[Row]:
    """Select a stack and one combat at 120x40; first paint and the walk at 80x24, also with NO_COLOR and ASCII."""
    rows: list[Row] = []
    try:
        compile_ahead()
        sb = Sandbox()
    except Exception as exc:
        return [failed("pty extra rows", "bytes", exc)]
    try:
        kiev = str(sb.kiev)
        try:
            with sb.session([kiev, "play", "--no-resume"]) as s:
                s.read_until_quiet(first_byte_timeout=40.0)
                s.send(b"\t", wait=2.0)  # Tab: the cursor jumps to the next stack that can move
                select = s.send(b"\r", wait=2.0)
            rows.append(Row("pty 120x40: select a stack (Tab, Enter)", float(select), "bytes",
                            note="the reachable hexes drawn on the map"))
        except Exception as exc:
            rows.append(failed("pty 120x40: select a stack (Tab, Enter)", "bytes", exc))
        name = "pty 120x40: one combat resolved"
        try:
            battle = combat_save(sb.root)
            if battle is None:
                rows.append(failed(name, "bytes", "no combat position"))
            else:
                save, attackers, target = battle
                with sb.session([kiev, "load", str(save)]) as s:
                    s.read_until_quiet(first_byte_timeout=40.0)
                    for h in attackers:
                        _goto(s, h)
                        s.send(b"\r", wait=2.0)
                    _goto(s, target)
                    s.send(b"\r", wait=2.0)
                    preview = s.send(b"c", wait=3.0)  # the odds preview
                    resolved = s.send(b"y", wait=3.0)  # roll: the result, losses or the retreat question
                rows.append(Row(name, float(resolved), "bytes",
                                note=f"{len(attackers)} attacking hex(es) on {target}; odds preview {preview:,} B"))
        except Exception as exc:
            rows.append(failed(name, "bytes", exc))
        for label, extra, no_color in (("", [], False), (", NO_COLOR and --ascii", ["--ascii"], True)):
            name = f"pty 80x24: first paint{label}"
            try:
                env = dict(sb.env, NO_COLOR="1") if no_color else None
                with sb.session([kiev, "play", "--no-resume", *extra], 80, 24, env=env) as s:
                    paint = s.read_until_quiet(first_byte_timeout=40.0)
                    moves = _walk(s)
                rows.append(Row(name, float(paint), "bytes",
                                note=f"cursor moves: {', '.join(map(str, moves))} (median "
                                     f"{statistics.median(moves):.0f})"))
            except Exception as exc:
                rows.append(failed(name, "bytes", exc))
    finally:
        sb.cleanup()
    return rows
