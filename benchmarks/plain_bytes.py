"""Bytes per command in plain line mode (issue 18): what a slow link pays for each typed line.

``python -m benchmarks.plain_bytes`` plays one game-turn of the 10 x 10 test scenario through a
``PlainSession`` (the same typed lines as tests/test_pty_plain.py, hand-overs included) and
prints, per command, the bytes a terminal would receive: the prompt, the echoed line and the
answer.  The pty test measures the same on a real terminal (there every line ends in CR LF).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "mini.toml"
SEED = 3
WIDTH = 80

#: One game-turn as a player types it; "" is the Enter a hand-over waits for.
SCRIPT: tuple[str, ...] = (
    "look 0703", "enter", "enter 1 1005", "enter 1 1005", "reach 0703 to 0603", "move 0703 0603",
    "end",                                                  # Soviet movement -> combat
    "todo", "end",                                          # Soviet combat -> German movement
    "",                                                     # hand-over to the German player
    "reach 0108 to 0706", "move 0108 0208 0308 0407 0507 0606 0706",
    "move 0206 0306 0405 0506 0606", "end",                 # German movement -> combat
    "odds 0706 -> 0705", "attack 0706 -> 0705",             # die 2 at 3-1: -/1
    "",                                                     # the Soviet player answers
    "retreat",
    "",                                                     # back to the German: he picks the path
    "retreat 1", "advance 1", "end",                        # German combat -> mechanized
    "map around 0705 2", "end",                             # German mechanized -> turn 2 (Soviet)
    "",                                                     # hand-over to the Soviet player
    "score", "log 5", "save turn1",
)


def plain_bytes(script: tuple[str, ...] = SCRIPT, width: int = WIDTH) -> list[tuple[str, int]]:
    """(typed line, bytes shown for it) over the script; nothing is written to disk."""
    from kiev_tui.engine.game import Game
    from kiev_tui.plain.session import PlainSession

    session = PlainSession(Game.new(MINI, SEED), width, pause=True)
    out: list[tuple[str, int]] = []
    for line in script:
        if line == "save turn1":
            continue  # a save writes a file: not what this figure is about
        shown = session.prompt() + line + "\n"
        answer = session.release() if line == "" and session.handing_over else session.handle(line)
        if session.handing_over:
            answer = answer + ["Press Enter when the new player is at the keyboard. "]
        shown += "".join(f"{a}\n" for a in answer)
        out.append((line, len(shown.encode("utf-8"))))
    return out


def summary(costs: list[tuple[str, int]]) -> str:
    sizes = [n for _, n in costs]
    worst = max(costs, key=lambda c: c[1])
    return (f"plain mode, {len(sizes)} commands: median {statistics.median(sizes):g} bytes, "
            f"worst {worst[1]} ({worst[0]!r}), total {sum(sizes)}")


def main() -> int:
    costs = plain_bytes()
    for line, n in costs:
        print(f"{n:6d}  {line or '(Enter)'}")
    print(summary(costs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
