"""SHA-256 and the operating system's randomness, without loading OpenSSL (issue 33).

`import hashlib`, `import hmac` and `import secrets` each load CPython's `_hashlib`, which maps
OpenSSL's libcrypto: about 3.5 MiB of resident memory at start-up, a third of what the game
used above a bare Textual app, for one SHA-256 of a few hundred bytes per position.  CPython
ships its own SHA-256 (`_sha256`, `_sha2` from 3.12), which gives the same digests; randomness
comes from `os.urandom` through `random.SystemRandom`, as `secrets` itself does.  Modules that
need these at start-up import this module under the old name (``from kiev_tui.engine import
nossl as hashlib``), so their calls read as before.  `hmac` is imported only when a save is
signed or checked (savekey.py).
"""

from __future__ import annotations

import os
from random import SystemRandom
from typing import Any

try:  # CPython 3.12 and later
    from _sha2 import sha256 as _sha256
except ImportError:
    try:  # CPython 3.11
        from _sha256 import sha256 as _sha256
    except ImportError:  # another Python: the standard module
        from hashlib import sha256 as _sha256

_system = SystemRandom()


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash object, as `hashlib.sha256` makes (same digests)."""
    return _sha256(data)


def randbelow(exclusive_upper_bound: int) -> int:
    """A random int in [0, n) from the operating system's entropy (as `secrets.randbelow`)."""
    if exclusive_upper_bound <= 0:
        raise ValueError("Upper bound must be positive.")
    return _system._randbelow(exclusive_upper_bound)


def randbits(k: int) -> int:
    """An int of k random bits from the operating system's entropy (as `secrets.randbits`)."""
    return _system.getrandbits(k)


def token_hex(nbytes: int = 32) -> str:
    """`nbytes` random bytes from the operating system, as hex (as `secrets.token_hex`)."""
    return os.urandom(nbytes).hex()
