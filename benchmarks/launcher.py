"""Start an app for measurement: the real game UI or a bare Textual app with one label.

    python -m benchmarks.launcher bare|app run            # a real terminal session (for the pty)
    python -m benchmarks.launcher bare|app probe W H      # headless: first frame, then report
    python -m benchmarks.launcher bare|app keys W H N     # headless: CPU per cursor key

``probe`` prints one JSON line: seconds from the interpreter's start to the first frame
(``t0`` comes from the parent through KIEV_BENCH_T0) and the peak resident memory in KiB.
Both kinds of app start the same way, so the difference is what the game adds.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import time
from typing import Any


def bare_app() -> Any:
    from textual.app import App, ComposeResult
    from textual.widgets import Label

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Label("Kiev 1941")

    return Bare()


def game_app() -> Any:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.app import build_app

    scenario = os.environ.get("KIEV_BENCH_SCENARIO", "spi_kiev/campaign")
    return build_app(Game.new(scenario, seed=1941))


def make(kind: str) -> Any:
    return bare_app() if kind == "bare" else game_app()


async def _probe(kind: str, width: int, height: int) -> dict[str, Any]:
    app = make(kind)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        first = time.time()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"first_frame_at": first, "maxrss_kib": rss_kib}


async def _keys(kind: str, width: int, height: int, presses: int) -> dict[str, Any]:
    """CPU seconds per cursor key (alternately down and up), pilot and app together."""
    app = make(kind)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        for key in ("s", "w"):  # warm up: first-use caches
            await pilot.press(key)
            await pilot.pause()
        cpu = time.process_time()
        for i in range(presses):
            await pilot.press("s" if i % 2 == 0 else "w")
            await pilot.pause()
        cpu = time.process_time() - cpu
    return {"cpu_per_key": cpu / presses}


def main(argv: list[str]) -> int:
    kind, mode = argv[0], argv[1]
    if mode == "keys":
        out = asyncio.run(_keys(kind, int(argv[2]), int(argv[3]), int(argv[4])))
        print(json.dumps(out), flush=True)
        return 0
    if mode == "probe":
        width, height = int(argv[2]), int(argv[3])
        out = asyncio.run(_probe(kind, width, height))
        t0 = float(os.environ.get("KIEV_BENCH_T0", "0") or 0)
        out["seconds"] = out["first_frame_at"] - t0 if t0 else None
        print(json.dumps(out), flush=True)
        return 0
    make(kind).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
