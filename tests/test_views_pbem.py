"""Views and secrets by e-mail (issue 30): Tiny's hidden target travels as its commitment only;
the picker's own NAME.hidden.toml holds it, and his next turn file reveals it, checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.pbem.files import Folder, read_record
from kiev_tui.pbem.protocol import replay
from tests.test_views_secrets import NAME, TOWN, leaks  # noqa: F401
from tests.tiny_game import AXIS, TinyReveal, TinyTarget, tiny, tiny_data  # noqa: F401

runner = CliRunner()


def cli(*args: Any) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout + result.stderr


def acts(path: Path, *actions: Action) -> Path:
    path.write_text(tomli_w.dumps({"action": [a.to_toml() for a in actions]}))
    return path


def test_the_other_players_files_never_hold_the_hidden_choice(tiny_data: Path, tmp_path: Path) -> None:
    anna, boris = Folder(tmp_path / "anna", "t"), Folder(tmp_path / "boris", "t")
    assert cli("pbem", "new", "tiny/duel", "--me", AXIS, "--name", "t", "--dir", anna.dir)[0] == 0
    assert cli("pbem", "join", anna.turn(0), "--dir", boris.dir)[0] == 0
    # Anna (axis) picks a target in secret and ends her phase
    code, out = cli("pbem", "turn", boris.turn(1), "--dir", anna.dir,
                    "--actions", acts(tmp_path / "a1.toml", TinyTarget(TOWN), EndPhase()))
    assert code == 0, out
    hidden = anna.hidden.read_text()
    salt = hidden.split('salt = "')[1].split('"')[0]
    assert len(salt) == 32 and TOWN in hidden
    assert anna.hidden.stat().st_mode & 0o077 == 0  # readable by Anna only
    sent = anna.turn(2).read_text()
    assert leaks(sent, salt) == [] and 'kind = "sealed"' in sent
    # Boris checks it and plays his whole phase facing the commitment only
    code, out = cli("pbem", "turn", anna.turn(2), "--dir", boris.dir,
                    "--actions", acts(tmp_path / "b1.toml", EndPhase()))
    assert code == 0, out
    for f in sorted(boris.dir.iterdir()):
        assert leaks(f.read_text(), salt) == [], f.name
    assert not boris.hidden.exists()
    # a forged reveal is refused; the true one is accepted and reaches Boris
    code, out = cli("pbem", "turn", boris.turn(3), "--dir", anna.dir,
                    "--actions", acts(tmp_path / "bad.toml", TinyReveal("0404", salt), EndPhase()))
    assert code == 2 and "[T7]" in out and "does not match the commitment" in out
    code, out = cli("pbem", "turn", "--dir", anna.dir,  # Boris's file is in her record since the refusal
                    "--actions", acts(tmp_path / "a2.toml", TinyReveal(TOWN, salt), EndPhase()))
    assert code == 0, out
    assert TOWN in anna.turn(4).read_text() and salt in anna.turn(4).read_text()
    assert cli("pbem", "turn", anna.turn(4), "--dir", boris.dir,
               "--actions", acts(tmp_path / "b2.toml", EndPhase()))[0] == 0
    assert cli("pbem", "turn", boris.turn(5), "--dir", anna.dir)[0] == 0  # the last file reaches Anna
    _, a_msgs = read_record(anna.record)
    _, b_msgs = read_record(boris.record)
    assert a_msgs == b_msgs
    end = replay(b_msgs, "b")
    assert end.game is not None and end.game.state.over and end.game.state.commitments == {}
    assert end.game.state.vars.final == {"axis": 0, "allies": 1}  # T7: the target was not held
