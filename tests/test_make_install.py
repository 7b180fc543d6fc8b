"""The Makefile's install step, run as a new user runs it: quiet when it works, loud when not.

Issue 35: a first `make play` or `make test` printed setuptools' banner about editable installs
(twenty lines of asterisks before the game).  Now pip's output goes to .venv/pip.log and is
shown only when the install fails.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _make(where: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", *targets], cwd=where, capture_output=True,
                          text=True, timeout=600)


def test_a_fresh_install_prints_one_line_and_a_failed_one_prints_the_log(tmp_path: Path) -> None:
    for name in ("Makefile", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "kiev_tui", tmp_path / "kiev_tui", ignore=shutil.ignore_patterns("__pycache__"))
    done = _make(tmp_path, ".venv/.installed")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "python3 -m venv .venv",
        "Installing kiev-tui and the packages it needs into .venv (log: .venv/pip.log)"]
    assert done.stderr == ""
    assert (tmp_path / ".venv" / "bin" / "kiev-tui").exists()
    assert "Editable installation" in (tmp_path / ".venv" / "pip.log").read_text()  # kept, not shown
    # a dependency that cannot be had: the install fails, and says why and where its log is
    project = tmp_path / "pyproject.toml"
    project.write_text(project.read_text().replace('"rich>=13",', '"rich>=13",\n    "kiev-tui-no-such-package>=1",'))
    failed = _make(tmp_path, ".venv/.installed")
    assert failed.returncode != 0
    assert "kiev-tui-no-such-package" in failed.stdout
    assert "make: the install failed; its log is .venv/pip.log" in failed.stdout


def test_make_play_started_and_quit_leaves_saves_as_it_found_them() -> None:
    """The README's first command, as a player types it, on a real pty: a start and a quit with no
    move write nothing into saves/ (issue 35: the README's two commands leave saves/ alone; the
    other, `make test`, is checked at the end of every run by tests/conftest.py)."""
    import os

    from tests.ptyprog import PtyProgram
    from tests.test_pty_hardening import quit_cleanly

    def listing() -> dict[str, tuple[int, int]]:
        folder = ROOT / "saves"
        return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()} if folder.is_dir() else {}

    before = listing()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "KIEV_TUI_SAVES", "MAKEFLAGS")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"})
    app = PtyProgram(["make", "--no-print-directory", "play"], 120, 40, env, ROOT)
    try:
        assert app.wait_for(r"Sequence of play", 120), app.tail()
        assert quit_cleanly(app) == 0  # type: ignore[arg-type]
    finally:
        app.stop()
    assert listing() == before
