"""Optional signatures of turn files with the players' own SSH keys (OpenSSH 8.1 or later).

`ssh-keygen -Y sign` writes FILE.sig; `ssh-keygen -Y verify` checks it against an
allowed-signers file (one line per player: his principal, e.g. an e-mail address, and key).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from kiev_tui.engine.errors import DataError, one_line

NAMESPACE = "kiev-tui-pbem"  # a signature made for our turn files is good for nothing else


def available() -> bool:
    return shutil.which("ssh-keygen") is not None


def _run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    if not available():
        raise DataError("ssh-keygen", "", "not found: install OpenSSH's client tools to sign or check turn files")
    return subprocess.run(args, input=stdin, capture_output=True, timeout=60, check=False)


def sign(file: Path, key: Path) -> Path:
    """Sign ``file`` with the private ``key``; returns the signature's path (FILE.sig)."""
    sig = Path(f"{file}.sig")
    sig.unlink(missing_ok=True)  # ssh-keygen will not overwrite an old signature
    done = _run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", NAMESPACE, str(file)])
    if done.returncode != 0 or not sig.exists():
        raise DataError(file, "", f"could not sign with {key}: {one_line(done.stderr.decode(errors='replace').strip())[:200]}")
    return sig


def verify(file: Path, allowed_signers: Path, principal: str) -> None:
    """Refuse (DataError) unless FILE.sig is ``principal``'s signature of ``file``."""
    sig = Path(f"{file}.sig")
    if not sig.exists():
        raise DataError(file, "", f"no signature ({sig.name}) beside it, and signatures are required")
    done = _run(["ssh-keygen", "-Y", "verify", "-f", str(allowed_signers), "-I", principal, "-n", NAMESPACE,
                 "-s", str(sig)], stdin=file.read_bytes())
    if done.returncode != 0:
        why = one_line(done.stderr.decode(errors="replace").strip() or done.stdout.decode(errors="replace").strip())
        raise DataError(file, "", f"the signature is not {principal}'s: {why[:200]}")
