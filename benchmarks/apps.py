"""Terminal figures: the app next to a bare Textual app, both started the same way."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.engine import Row
from benchmarks.pty_session import PtySession

ROOT = Path(__file__).resolve().parent.parent

#: Keys sent through the pty (the UI's bindings; see docs/PERFORMANCE.md).
KEY_CURSOR = b"\x1b[C"  # right arrow: move the map cursor one hex
KEY_SELECT = b"\r"  # Enter: select the stack under the cursor
KEY_QUIT = b"\x11"  # ctrl+q


def ui_ready() -> str:
    """'' if the game UI can be built, else why not."""
    if importlib.util.find_spec("kiev_tui.ui.app") is None:
        return "UI not yet in (kiev_tui/ui/app.py missing)"
    try:
        from kiev_tui.ui import app as ui_app
    except Exception as exc:  # a half-written module must not stop the other figures
        return f"UI does not import ({type(exc).__name__})"
    if not hasattr(ui_app, "build_app"):
        return "UI has no build_app yet"
    return ""


def _probe(kind: str, width: int, height: int, mode: str = "probe", *extra: str) -> dict:
    env = dict(os.environ, KIEV_BENCH_T0=repr(time.time()))
    env.pop("NO_COLOR", None)
    out = subprocess.run([sys.executable, "-m", "benchmarks.launcher", kind, mode, str(width), str(height), *extra],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_startup(quick: bool) -> list[Row]:
    repeat = 2 if quick else 3
    bare = [_probe("bare", 120, 40) for _ in range(repeat)]
    b_time = min(p["seconds"] for p in bare)
    b_mem = min(p["maxrss_kib"] for p in bare) / 1024
    why = ui_ready()
    if why:
        return [Row("app: time to first frame", None, "s", b_time, "bare Textual app", "<= 1.5x", note=f"n/a ({why})"),
                Row("app: peak memory", None, "MiB", b_mem, "bare Textual app", "<= 1.5x", note=f"n/a ({why})")]
    try:
        game = [_probe("app", 120, 40) for _ in range(repeat)]
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        note = f"n/a (app failed to start: {exc})"
        return [Row("app: time to first frame", None, "s", b_time, "bare Textual app", "<= 1.5x", note=note),
                Row("app: peak memory", None, "MiB", b_mem, "bare Textual app", "<= 1.5x", note=note)]
    g_time = min(p["seconds"] for p in game)
    g_mem = min(p["maxrss_kib"] for p in game) / 1024
    rows = [Row("app: time to first frame (run_test, 120x40)", g_time, "s", b_time, "bare Textual app", "<= 1.5x",
                note="includes loading the campaign"),
            Row("app: peak memory", g_mem, "MiB", b_mem, "bare Textual app", "<= 1.5x")]
    for r in rows:
        r.ok = r.ratio is not None and r.ratio <= 1.5
    presses = "10" if quick else "30"
    bare_key = _probe("bare", 120, 40, "keys", presses)["cpu_per_key"]
    game_key = _probe("app", 120, 40, "keys", presses)["cpu_per_key"]
    rows.append(Row("app: CPU per cursor key (Pilot, 120x40)", game_key * 1e3, "ms", bare_key * 1e3,
                    "same keys, bare Textual app", note="app and pilot together, headless"))
    return rows


def _session(argv: list[str], width: int, height: int, cwd: str, quiet: float = 1.0,
             no_color: bool = False) -> PtySession:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    return PtySession(argv, width, height, cwd=cwd, env=env, quiet=quiet)


def combat_save(folder: Path) -> tuple[Path, list[str], str] | None:
    """A campaign save in the German combat phase with a legal attack: (save, attacker hexes, target)."""
    import random

    from benchmarks.engine import _combat_position
    from kiev_tui.engine.saves import save_game

    found = _combat_position(random.Random(7))
    if found is None:
        return None
    game, attackers, targets = found
    hexes = sorted({game.state.units[u].hex for u in attackers})  # type: ignore[misc]
    path = folder / "combat.toml"
    save_game(game, path)
    return path, hexes, targets[0]


# From the opening cursor (the Kiev stack): over empty hexes, woods and rivers, onto and off
# stacks of both sides.  s/w/a/q/d/e are the six hex directions; l steps one column right.
WALK = (b"s", b"w", b"a", b"q", b"d", b"d", b"d", b"l", b"l", b"e", b"e", b"s")


def _goto(s: PtySession, hex_id: str) -> None:
    # The go-to box waits for Enter (it never closes by itself), so each step is its own send.
    s.send(b"g")
    s.send(hex_id.encode())
    s.send(b"\r")


def bench_terminal(quick: bool) -> list[Row]:
    rows: list[Row] = []
    why = ui_ready()
    tmp_root = Path(tempfile.mkdtemp(prefix="kiev-pty-"))
    battle = None
    if not why:
        try:
            battle = combat_save(tmp_root)
        except Exception as exc:  # the combat figure is optional; the others still count
            print(f"combat position: {type(exc).__name__}: {exc}", file=sys.stderr)
    for width, height in ((120, 40), (80, 24)):
        with _session([sys.executable, "-m", "benchmarks.launcher", "bare", "run"], width, height, str(ROOT)) as s:
            bare_paint = s.read_until_quiet()
        row_bytes = bare_paint / height  # one full screen row, repainted
        size = f"{width}x{height}"
        if why:
            for what, goal in (("first full paint", "< 30 KB"), ("cursor move", "< 300 B"),
                               ("select a stack", ""), ("one combat resolved", "")):
                rows.append(Row(f"pty {size}: {what}", None, "bytes", None, "", goal, note=f"n/a ({why})"))
            rows[-4].floor, rows[-4].floor_what = float(bare_paint), "bare app first paint"
            continue
        play_dir = tmp_root / f"play-{size}"
        play_dir.mkdir()
        argv = [sys.executable, "-m", "kiev_tui", "play", "--no-resume"]
        with _session(argv, width, height, str(play_dir)) as s:
            first = s.read_until_quiet()
            moves = [s.send(k) for k in WALK]
            s.send(b"\t")  # Tab: the cursor jumps to the next stack that can move
            select = s.send(b"\r")
        cursor = statistics.median(moves)
        paint = Row(f"pty {size}: first full paint", float(first), "bytes", float(bare_paint),
                    "bare app first paint", "< 30 KB")
        paint.ok = first < 30_000
        move = Row(f"pty {size}: cursor move (median of a {len(WALK)}-hex walk)", float(cursor), "bytes",
                   row_bytes, "one screen row repainted", "< 300 B", note=f"moves: {', '.join(map(str, moves))}")
        move.ok = 0 < cursor < 300
        worst = Row(f"pty {size}:   worst move of the walk", float(max(moves)), "bytes", row_bytes,
                    "one screen row repainted", note="onto a stack: the inspector lists its units")
        sel = Row(f"pty {size}: select a stack", float(select), "bytes", row_bytes, "one screen row repainted")
        rows += [paint, move, worst, sel, _combat_row(battle, size, width, height, tmp_root, row_bytes)]
        if (width, height) == (80, 24):
            plain_dir = tmp_root / "plain"
            plain_dir.mkdir()
            with _session(argv + ["--ascii"], width, height, str(plain_dir), no_color=True) as s:
                plain = s.read_until_quiet()
                plain_moves = [s.send(k) for k in WALK]
            p_row = Row(f"pty {size}: first paint, NO_COLOR and --ascii", float(plain), "bytes", float(bare_paint),
                        "bare app first paint", "< 30 KB", note=f"cursor moves: {', '.join(map(str, plain_moves))}")
            p_row.ok = plain < 30_000
            rows.append(p_row)
    shutil.rmtree(tmp_root, ignore_errors=True)
    return rows


def _combat_row(battle: tuple[Path, list[str], str] | None, size: str, width: int, height: int, tmp_root: Path,
                row_bytes: float) -> Row:
    name = f"pty {size}: one combat resolved"
    if battle is None:
        return Row(name, None, "bytes", note="n/a (no combat position)")
    save, attacker_hexes, target = battle
    folder = tmp_root / f"combat-{size}"
    folder.mkdir()
    copy = folder / "combat.toml"
    copy.write_bytes(save.read_bytes())
    with _session([sys.executable, "-m", "kiev_tui", "load", str(copy)], width, height, str(folder)) as s:
        s.read_until_quiet()
        for h in attacker_hexes:
            _goto(s, h)
            s.send(b"\r")
        _goto(s, target)
        s.send(b"\r")
        preview = s.send(b"c")  # the odds preview dialog
        resolved = s.send(b"y")  # roll: result, losses or retreat prompt
    return Row(name, float(resolved), "bytes", row_bytes, "one screen row repainted",
               note=f"{len(attacker_hexes)} attacking hex(es) on {target}; odds preview {preview} bytes")
