"""Saves: TOML round trip by replay, tamper detection, atomic writes, autosave."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import enable_autosave, load_game, save_game
from kiev_tui.games.spi_kiev.actions import Enter, Move

from tests.conftest import MINI, ROOT


def _played(seed: int = 7) -> Game:
    g = Game.new(MINI, seed=seed)
    g.apply(Move(("so-rifle-1",), ("0706",)))
    g.apply(Enter(("so-t01-rifle-1",), "1005"))
    g.apply(Enter(("so-t01-rifle-2",), "1007", rail=True))
    g.apply(EndPhase())
    g.apply(EndPhase())
    g.apply(Move(("ge-inf-1",), ("0303",)))
    return g


def test_save_then_load_gives_the_same_state(tmp_path: Path) -> None:
    g = _played()
    path = tmp_path / "game.toml"
    g.save(path)
    back = Game.load(path)
    assert back.state_hash() == g.state_hash()
    assert back.state.to_dict() == g.state.to_dict()
    assert [a.to_toml() for a in back.log] == [a.to_toml() for a in g.log]
    assert back.rolls == g.rolls


def test_saved_file_is_readable_toml_with_log_and_snapshot(tmp_path: Path) -> None:
    import tomllib

    path = save_game(_played(), tmp_path / "g.toml")
    data = tomllib.loads(path.read_text())
    assert data["save"]["rules"] == "spi_kiev" and data["save"]["seed"] == 7
    assert data["action"][0]["kind"] == "move" and "hash" in data["action"][0]
    assert data["final"]["state"]["turn"] == 1
    assert any("move" in line for line in data["journal"]["lines"])


def test_tampered_action_is_refused_naming_the_action(tmp_path: Path) -> None:
    path = save_game(_played(), tmp_path / "g.toml")
    text = path.read_text().replace('path = [\n    "0303",\n]', 'path = [\n    "0304",\n]')
    if text == path.read_text():
        text = path.read_text().replace('"0303"', '"0304"', 1)
    path.write_text(text)
    with pytest.raises(DataError) as exc:
        load_game(path)
    assert "action" in exc.value.key
    assert "action 6" in exc.value.reason or "diverges" in exc.value.reason


def test_tampered_snapshot_is_refused(tmp_path: Path) -> None:
    path = save_game(_played(), tmp_path / "g.toml")
    text = path.read_text()
    text = text.replace('rpl_left = 1', 'rpl_left = 5', 1)
    path.write_text(text)
    with pytest.raises(DataError, match="snapshot"):
        load_game(path)


def test_illegal_action_in_log_is_refused(tmp_path: Path) -> None:
    path = save_game(_played(), tmp_path / "g.toml")
    text = path.read_text().replace('"ge-inf-1"', '"so-rifle-2"', 1)
    path.write_text(text)
    with pytest.raises(DataError, match="action 6: the replay refuses this move action"):
        load_game(path)


def test_autosave_at_each_phase_end(tmp_path: Path) -> None:
    g = Game.new(MINI, seed=3)
    auto = tmp_path / "autosave.toml"
    enable_autosave(g, auto)
    g.apply(Enter(("so-t01-rifle-1",), "1005"))
    assert not auto.exists()
    g.apply(Enter(("so-t01-rifle-2",), "1005"))
    g.apply(EndPhase())
    assert auto.exists()
    assert load_game(auto).state.phase == "combat"


WRITER = textwrap.dedent("""
    import sys, time, os
    sys.path.insert(0, {root!r})
    import kiev_tui.engine.tomlio as t
    real = os.fsync
    def slow_fsync(fd):
        print("writing", flush=True)
        time.sleep(30)
        real(fd)
    t.os.fsync = slow_fsync
    t.atomic_write_text({path!r}, "new = true\\n" + "x = 1\\n" * 100000)
""")


def test_interrupted_save_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    target = tmp_path / "game.toml"
    g = _played()
    save_game(g, target)
    before = target.read_bytes()
    proc = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT), path=str(target))],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "writing"  # killed in the middle of the write
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert target.read_bytes() == before
    assert load_game(target).state_hash() == g.state_hash()


def test_an_edited_seed_is_refused(tmp_path: Path) -> None:
    path = save_game(_played(), tmp_path / "g.toml")
    path.write_text(path.read_text().replace("seed = 7", "seed = 8", 1))
    with pytest.raises(DataError):
        load_game(path)


def test_unknown_keys_in_the_snapshot_are_refused(tmp_path: Path) -> None:
    path = save_game(_played(), tmp_path / "g.toml")
    path.write_text(path.read_text().replace("[final.state]\n", "[final.state]\ncheat = true\n", 1))
    with pytest.raises(DataError, match="final.state"):
        load_game(path)


def test_a_save_from_the_rules_before_the_issue_12_audit_is_refused_by_name(tmp_path: Path) -> None:
    # Version 1 logs replay into other positions under the audited rules: refuse, don't guess.
    p = tmp_path / "old.toml"
    save_game(_played(), p)
    text = p.read_text(encoding="utf-8")
    assert 'rules_version = "3"' in text
    p.write_text(text.replace('rules_version = "3"', 'rules_version = "1"'), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_game(p)
    assert err.value.key == "save.rules_version"
    assert "older or newer version of these rules" in err.value.reason
