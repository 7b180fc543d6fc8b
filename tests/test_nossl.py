"""kiev_tui.nossl: the same SHA-256 and OS randomness as hashlib and secrets, without OpenSSL.

Issue 33: `hashlib`, `hmac` and `secrets` load OpenSSL's libcrypto through `_hashlib`; the game
needs one SHA-256 per position at start-up and nothing else of it.  The digests must be the
ones hashlib gives (state hashes are written into every save), and starting a game must not
load `_hashlib` again through some other import.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from kiev_tui import nossl

ROOT = Path(__file__).resolve().parent.parent


def test_sha256_gives_hashlibs_digests() -> None:
    for blob in (b"", b"abc", "Kiev 0319 \u00e9".encode(), bytes(range(256)) * 9):
        assert nossl.sha256(blob).hexdigest() == hashlib.sha256(blob).hexdigest()
    h = nossl.sha256()
    h.update(b"ab")
    h.update(b"c")
    assert h.hexdigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_randomness_has_the_shape_secrets_gives() -> None:
    token = nossl.token_hex(8)
    assert len(token) == 16 and int(token, 16) >= 0
    assert {nossl.randbelow(3) for _ in range(200)} == {0, 1, 2}
    assert 0 <= nossl.randbits(5) < 32
    try:
        nossl.randbelow(0)
    except ValueError:
        pass
    else:
        raise AssertionError("randbelow(0) must refuse, as secrets.randbelow does")


def test_starting_a_game_loads_no_openssl(tmp_path: Path) -> None:
    code = ("import sys\n"
            "import kiev_tui.cli, kiev_tui.ui.app\n"
            "from kiev_tui.engine.game import Game\n"
            "from kiev_tui.engine.registry import get_adapter\n"
            "g = Game.new(kiev_tui.cli.DEFAULT_SCENARIO, None)\n"
            "a = get_adapter(g.scenario.game)\n"
            "a.supply(g); g.state_hash()\n"
            "print(sorted(m for m in ('_hashlib', 'hmac', 'hashlib', 'secrets') if m in sys.modules))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))
    got = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "[]"
