"""Issue 18 on a real terminal: a whole game-turn typed into `kiev-tui play --plain`.

Both sides play turn 1 of the 10 x 10 test scenario (Soviet movement with reinforcements and
combat; German movement, combat with one attack answered by both sides, mechanized movement)
from a script of typed lines, hand-overs included.  The position is saved with `save NAME`,
loaded back, and compared with the same actions played headless with the same seed.  The
output must hold no escape sequence, and the bytes each command costs are measured.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game
from kiev_tui.games.spi_kiev.actions import Advance, Attack, ChooseRetreat, Enter, Move, Retreat

from benchmarks.plain_bytes import SCRIPT, summary
from tests.test_pty_hardening import MINI, App

SEED = 3
WIDTH = 80
PROMPT = re.compile(rb"(> |keyboard\. |\(y/n\) )$")

#: The same actions, by unit id, as a headless script plays them.
HEADLESS = [
    Enter(("so-t01-rifle-1",), "1005"), Enter(("so-t01-rifle-2",), "1005"), Move(("so-rifle-2",), ("0603",)),
    EndPhase(), EndPhase(),
    Move(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3", "ge-leader"), ("0208", "0308", "0407", "0507", "0606", "0706")),
    Move(("ge-inf-2",), ("0306", "0405", "0506", "0606")), EndPhase(),
    Attack(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0705",)),
    ChooseRetreat(), Retreat(("so-rifle-1",), (("0704",),)),
    Advance(("ge-1pz-1", "ge-1pz-2", "ge-1pz-3"), ("0705",)), EndPhase(), EndPhase(),
]


def wait_prompt(app: App, since: int, timeout: float = 60.0) -> bool:
    """Read until the program waits for a line again: what follows the last line break that
    came after ``since`` is a prompt (the echo of the typed line ends with a line break)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        new = bytes(app.raw[since:])
        if b"\r\n" in new and PROMPT.search(new.rsplit(b"\r\n", 1)[-1]):
            return True
        if not app.alive():
            return False
        app.pump(0.1)
    return False


def test_a_game_turn_typed_in_plain_mode_equals_the_headless_game(tmp_path: Path) -> None:
    app = App(tmp_path, "play", "--plain", "--no-resume", "--seed", str(SEED), str(MINI), width=WIDTH, height=24)
    costs: list[tuple[str, int]] = []
    try:
        assert wait_prompt(app, 0), app.tail()
        opening = bytes(app.raw).decode()
        assert "Soviet player's turn." in opening and opening.endswith("T1 Soviet movement> "), opening
        start = len(app.raw)
        app.send(b"sta\t0703\r")  # tab completes the command (readline), sending no escape code
        assert wait_prompt(app, start), app.tail()
        assert bytes(app.raw[start:]).startswith(b"stack 0703\r\nSoviet stack in 0703, 1 unit(s):\r\n"), app.tail()
        for line in SCRIPT:
            start = len(app.raw)
            app.send(line.encode() + b"\r")
            assert wait_prompt(app, start), (line, app.tail())
            costs.append((line, len(app.raw) - start))
        text = bytes(app.raw).decode("utf-8").replace("\r\n  ", " ")  # folded lines joined
        # the hand-overs, named by side, each waiting for Enter before the new side sees anything
        handover = ("{side} player's turn: {why}\r\nHand over to the {side} player.\r\n"
                    "Press Enter when the new player is at the keyboard. \r\n")
        assert handover.format(side="German", why="movement phase") + "Turn 1 of 3" in text
        assert handover.format(side="Soviet", why="answer a choice (loss or retreat)") + "Turn 1 of 3" in text
        assert handover.format(side="German", why="answer a choice (retreat)") + "Turn 1 of 3" in text
        assert handover.format(side="Soviet", why="movement phase") + "Turn 2 of 3" in text
        assert "Die roll #1 for attack at 0705 (3-1): 2" in text
        assert "101 rifle XX retreats from 0705 to 0704" in text
        assert "Saved to saves/turn1.toml" in text
        app.send(b"quit\r")  # everything is saved: nothing is asked
        end = time.monotonic() + 20
        while app.alive() and time.monotonic() < end:
            app.pump(0.1)
        assert app.proc.wait(timeout=10) == 0
    finally:
        app.close()
    raw = bytes(app.raw)
    assert b"\x1b" not in raw and b"\x9b" not in raw and b"\x07" not in raw, raw[-400:]  # no escape code, no bell
    for row in raw.decode("utf-8").split("\r\n"):
        # a line is never wider than the terminal (a prompt may be followed by what was typed)
        assert len(row) <= WIDTH or "> " in row, row

    typed = load_game(tmp_path / "saves" / "turn1.toml")
    headless = Game.new(MINI, SEED)
    for action in HEADLESS:
        headless.apply(action)
    assert typed.state_hash() == headless.state_hash()
    assert {u: (s.status, s.hex, s.step) for u, s in typed.state.units.items()} == \
           {u: (s.status, s.hex, s.step) for u, s in headless.state.units.items()}
    assert [a.to_toml() for a in typed.log] == [a.to_toml() for a in headless.log]
    assert (typed.state.turn, typed.state.player, typed.state.phase) == (2, "soviet", "movement")

    print(f"\non the pty (echo and CR LF included): {summary(costs)}")  # docs/PERFORMANCE.md
