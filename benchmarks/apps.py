"""Terminal figures: the app next to a bare Textual app, both started the same way."""

from __future__ import annotations

import importlib.util
import json
import os
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


def _probe(kind: str, width: int, height: int) -> dict:
    env = dict(os.environ, KIEV_BENCH_T0=repr(time.time()))
    env.pop("NO_COLOR", None)
    out = subprocess.run([sys.executable, "-m", "benchmarks.launcher", kind, "probe", str(width), str(height)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_startup(quick: bool) -> list[Row]:
    repeat = 2 if quick else 3
    bare = [_probe("bare", 120, 40) for _ in range(repeat)]
    b_time = statistics.median(p["seconds"] for p in bare)
    b_mem = statistics.median(p["maxrss_kib"] for p in bare) / 1024
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
    g_time = statistics.median(p["seconds"] for p in game)
    g_mem = statistics.median(p["maxrss_kib"] for p in game) / 1024
    rows = [Row("app: time to first frame (run_test, 120x40)", g_time, "s", b_time, "bare Textual app", "<= 1.5x",
                note="includes loading the campaign"),
            Row("app: peak memory", g_mem, "MiB", b_mem, "bare Textual app", "<= 1.5x")]
    for r in rows:
        r.ok = r.ratio is not None and r.ratio <= 1.5
    return rows


def _session(argv: list[str], width: int, height: int, cwd: str) -> PtySession:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return PtySession(argv, width, height, cwd=cwd, env=env)


def bench_terminal(quick: bool) -> list[Row]:
    rows: list[Row] = []
    why = ui_ready()
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
        with tempfile.TemporaryDirectory(prefix="kiev-pty-") as tmp:
            argv = [sys.executable, "-m", "kiev_tui", "play", "--no-resume"]
            with _session(argv, width, height, tmp) as s:
                first = s.read_until_quiet()
                cursor = s.send(KEY_CURSOR)
                select = s.send(KEY_SELECT)
        paint = Row(f"pty {size}: first full paint", float(first), "bytes", float(bare_paint),
                    "bare app first paint", "< 30 KB")
        paint.ok = first < 30_000
        move = Row(f"pty {size}: cursor move", float(cursor), "bytes", row_bytes, "one screen row repainted",
                   "< 300 B")
        move.ok = 0 < cursor < 300
        if cursor == 0:
            move.note = "no output: the key may not be bound yet"
        sel = Row(f"pty {size}: select a stack", float(select), "bytes", row_bytes, "one screen row repainted")
        rows += [paint, move, sel,
                 Row(f"pty {size}: one combat resolved", None, "bytes", note="n/a (needs a scripted combat in the UI)")]
    return rows
