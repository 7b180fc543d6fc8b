"""Who may log in to `kiev-tui serve`: the players of an authorized_keys file, named by comment.

Keys here are made in memory by asyncssh (no ssh-keygen needed); each line is what OpenSSH
writes to a .pub file, with or without options in front.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.serve.keys import load_players

ROOT = Path(__file__).resolve().parent.parent


def pub(comment: str) -> tuple[str, str]:
    """A new key's authorized_keys line (with `comment`) and its fingerprint."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    line = key.export_public_key("openssh").decode().strip().split()
    return f"{line[0]} {line[1]} {comment}".rstrip(), key.get_fingerprint("sha256")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "authorized_keys"
    path.write_text(text)
    return path


def test_each_key_is_a_player_named_by_its_comment(tmp_path: Path) -> None:
    alice, fa = pub("alice@laptop")
    bob, fb = pub("bob")
    carol, fc = pub("")
    path = write(tmp_path, f"# players\n\n{alice}\nrestrict,pty,from=\"10.0.0.1, 10.0.0.2\" {bob}\n{carol}\n")
    players = load_players(path)
    assert set(players) == {fa, fb, fc}
    assert players[fa].name == "alice"  # the part before the @
    assert players[fb].name == "bob"  # options in front, even with a quoted blank, are passed over
    assert players[fc].name.startswith("player-") and len(players[fc].name) == len("player-") + 6
    assert players[fa].fingerprint == fa


def test_two_keys_with_one_name_are_two_players_and_one_key_twice_is_one(tmp_path: Path) -> None:
    pi1, f1 = pub("pi@raspberrypi")
    pi2, f2 = pub("pi@raspberrypi")
    path = write(tmp_path, f"{pi1}\n{pi2}\n{pi1.rsplit(' ', 1)[0]} someone-else\n")
    players = load_players(path)
    assert len(players) == 2
    names = {players[f1].name, players[f2].name}
    assert len(names) == 2 and all(n.startswith("pi-") and len(n) == 9 for n in names)


def test_a_comment_is_cut_to_what_a_save_name_allows(tmp_path: Path) -> None:
    line, fp = pub("../../etc/passwd;rm -rf x@host")
    players = load_players(write(tmp_path, line + "\n"))
    assert players[fp].name == "etcpasswdrm-rfx"


@pytest.mark.parametrize("text, key, reason", [
    ("ssh-ed25519 AAAAnotbase64 alice\n", "line 1", "not a public key line"),
    ("# only a comment\n", "", "no keys: nobody could log in"),
    ("x" * 20000 + "\n", "line 1", "a line of 20000 characters is not a key"),
])
def test_a_bad_file_names_the_line_and_why(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataError) as err:
        load_players(path)
    assert (err.value.file, err.value.key) == (str(path), key)
    assert err.value.reason.startswith(reason), err.value.reason


def test_serve_refuses_a_bad_keys_file_in_one_line(tmp_path: Path) -> None:
    good, _ = pub("alice")
    path = write(tmp_path, f"{good}\nnot a key at all\n")
    run = subprocess.run([sys.executable, "-m", "kiev_tui", "serve", "--port", "0", "--host-keys",
                          str(tmp_path / "hk"), "--authorized-keys", str(path), "--state", str(tmp_path / "st")],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path, env={"PYTHONPATH": str(ROOT),
                                                                                        "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert run.stderr == f"error: {path}: line 2: not a public key line: 'not a key at all'\n"
    assert run.stdout == ""


def test_serve_refuses_a_host_key_that_is_not_one(tmp_path: Path) -> None:
    good, _ = pub("alice")
    keys = write(tmp_path, good + "\n")
    bad = tmp_path / "hk"
    bad.write_text("hello\n")
    run = subprocess.run([sys.executable, "-m", "kiev_tui", "serve", "--port", "0", "--host-keys", str(bad),
                          "--authorized-keys", str(keys), "--state", str(tmp_path / "st")],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path, env={"PYTHONPATH": str(ROOT),
                                                                                        "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert run.stderr.startswith(f"error: {bad}: not a private key (")
    assert run.stderr.count("\n") == 1


def test_the_book_reads_the_file_again_when_it_changes_and_keeps_the_last_good_list(tmp_path: Path) -> None:
    from kiev_tui.serve.keys import PlayerBook

    alice, fa = pub("alice")
    bob, fb = pub("bob")
    path = write(tmp_path, alice + "\n")
    book = PlayerBook(path)
    assert book.find(fb) is None
    path.write_text(f"{alice}\n{bob}\n")  # a friend's key added while the server runs
    assert book.find(fb).name == "bob"
    path.write_text(f"{alice}\n{bob}\nhalf a line\n")  # an edit that breaks the file
    assert book.find(fb).name == "bob" and book.find(fa).name == "alice"
    assert book.problem == f"{path}: line 3: not a public key line: 'half a line'"
    path.write_text(alice + "\n")  # bob's key taken out: he is out
    assert book.find(fb) is None and book.problem == ""
