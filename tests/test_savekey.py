"""Issue 36 item 8: local saves are signed with this user's key, so a forged or edited save is
flagged by `replay --verify` (a flag, not a refusal: it still loads)."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine import savekey
from kiev_tui.engine.dice import FixedDice, RecordedDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.scenario import load_scenario

from tests.conftest import MINI
from tests.test_dice import first_roll, replay_on

runner = CliRunner()
UNSIGNED = ("signature: none: this save is not signed (written by an older kiev-tui, from a game that came "
            "from an unsigned save, or without a readable key)")
EDITED = "signature: DOES NOT MATCH this user's key: the save was changed after kiev-tui wrote it"


def _key_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "kiev-tui" / "save.key"


def _signed_line() -> str:
    return f"signature: signed with this user's key ({savekey.key_id(savekey.load_key())}), unchanged since kiev-tui wrote it"


def _genuine(tmp_path: Path) -> tuple[Path, Game]:
    """A game played here with entropy dice up to its first roll, saved."""
    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, seed=None), prefix)
    game.apply(attack, side=side)
    assert game.rolled[-1]
    return save_game(game, tmp_path / "genuine.toml"), game


def _verify(path: Path) -> list[str]:
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and "every recorded roll" in lines[0]
    return lines


def _forged(genuine: Game, die: int, path: Path) -> Path:
    """The attack's die changed and the game replayed on dice that call themselves entropy, then saved:
    a save every hash, journal line and the final position of agree with."""
    dice = RecordedDice(None, {"dice": "entropy"})
    game = Game(load_scenario(MINI), None, dice=dice)
    for i, (action, side) in enumerate(zip(genuine.log, genuine.sides)):
        values = list(genuine.rolled[i])
        dice.expect([die] if values else [])
        game.apply(action, side=side)
        dice.finish()
    assert game.rolled[-1] == [die] != genuine.rolled[-1]
    return save_game(game, path)


def test_a_missing_key_is_made_0600_and_a_genuine_save_verifies_as_signed(tmp_path: Path) -> None:
    assert not _key_file().exists()
    path, _ = _genuine(tmp_path)
    key = _key_file()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_text().strip()) == 64
    assert set(tomllib.loads(path.read_text())["signature"]) == {"key", "hmac"}
    assert _verify(path)[1] == _signed_line()
    assert load_game(path).signature.status == savekey.SIGNED


def test_a_forged_save_is_flagged_and_stays_unsigned_when_saved_again(tmp_path: Path) -> None:
    path, genuine = _genuine(tmp_path)
    die = 1 if genuine.rolled[-1] != [1] else 2
    forged = _forged(genuine, die, tmp_path / "forged.toml")
    assert _verify(forged)[1] == UNSIGNED  # replayed on recorded dice: never signed
    # the forger copies the genuine signature over: the record no longer matches it
    data = tomllib.loads(forged.read_text())
    data["signature"] = tomllib.loads(path.read_text())["signature"]
    forged.write_text(tomli_w.dumps(data))
    assert _verify(forged)[1] == EDITED
    # loaded (it replays) and saved again from here: it does not become signed
    again = load_game(forged)
    assert again.signature.status == savekey.EDITED and not again.signable
    resaved = save_game(again, tmp_path / "resaved.toml")
    assert "signature" not in tomllib.loads(resaved.read_text())
    assert _verify(resaved)[1] == UNSIGNED


def test_a_header_edited_by_hand_is_flagged(tmp_path: Path) -> None:
    path, _ = _genuine(tmp_path)
    data = tomllib.loads(path.read_text())
    data["save"]["program"] = "kiev-tui 99"
    path.write_text(tomli_w.dumps(data))
    assert _verify(path)[1] == EDITED


def test_a_save_signed_on_another_machine_still_loads_and_says_so(tmp_path: Path) -> None:
    path, _ = _genuine(tmp_path)
    theirs = savekey.key_id(savekey.load_key())
    _key_file().write_text("ab" * 32 + "\n")  # this user's key is another one
    assert _verify(path)[1] == (f"signature: signed with another key ({theirs}), not this user's (another user "
                                "or machine): it cannot be checked here")


def test_a_game_on_fixed_dice_is_never_signed(tmp_path: Path) -> None:
    prefix, attack, side = first_roll()
    game = replay_on(Game.new(MINI, dice=FixedDice([2])), prefix)
    path = save_game(game, tmp_path / "fixed.toml")
    assert "signature" not in tomllib.loads(path.read_text())


@pytest.mark.parametrize("spoil", ["folder", "garbage"])
def test_an_unreadable_key_is_one_line_and_never_a_crash(tmp_path: Path, spoil: str) -> None:
    key = _key_file()
    key.parent.mkdir(parents=True)
    if spoil == "folder":
        key.mkdir()
        why = f"{key}: cannot read or make the save key (Is a directory)"
    else:
        key.write_text("not a key\n")
        why = f"{key}: not a save key (expected 64 hex digits)"
    path, _ = _genuine(tmp_path)  # written, unsigned
    assert "signature" not in tomllib.loads(path.read_text())
    assert _verify(path)[1] == UNSIGNED
    data = tomllib.loads(path.read_text())
    data["signature"] = {"key": "0" * 16, "hmac": "0" * 64}
    path.write_text(tomli_w.dumps(data))
    assert _verify(path)[1] == f"signature: not checked: {why}"


def test_a_damaged_signature_table_is_flagged(tmp_path: Path) -> None:
    path, _ = _genuine(tmp_path)
    data = tomllib.loads(path.read_text())
    data["signature"] = {"key": 5}
    path.write_text(tomli_w.dumps(data))
    assert _verify(path)[1] == ("signature: damaged (expected [signature] with key and hmac): the save was "
                                "changed after it was written")


def test_a_genuine_save_loaded_and_saved_again_stays_signed(tmp_path: Path) -> None:
    path, _ = _genuine(tmp_path)
    game = load_game(path)
    assert game.signable
    again = save_game(game, tmp_path / "again.toml")
    assert _verify(again)[1] == _signed_line()
