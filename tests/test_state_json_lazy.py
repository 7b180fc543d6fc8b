"""engine/state.py leaves the json package out of a new game's start (issue 33, round 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kiev_tui.engine import state

ROOT = Path(__file__).resolve().parent.parent


def test_the_written_stand_in_text_is_its_json() -> None:
    assert state._STAND_IN_JSON == json.dumps(state._STAND_IN)


def test_the_hash_form_is_jsons_compact_sorted_form() -> None:
    value = {"b": [1, "\u2248", None], "a": {"z": 1.5, "y": True}}
    assert state._dump(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))
    assert state._dump(value) == '{"a":{"y":true,"z":1.5},"b":[1,"\\u2248",null]}'


def test_a_new_game_imports_no_json() -> None:
    probe = ("import sys\n"
             "from kiev_tui.engine.game import Game\n"
             "game = Game.new('spi_kiev/campaign', 1)\n"
             "print('json' in sys.modules)\n"
             "game.state_hash()\n"
             "print('json' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "KIEV_TUI_CACHE": "off"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True"]
