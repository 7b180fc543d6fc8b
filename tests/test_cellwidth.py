"""ui/cellwidth.py: the screen's characters measured without Rich's Unicode width table (issue 33)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rich.cells
import rich.segment
from rich._unicode_data._versions import VERSIONS

from kiev_tui.ui import cellwidth

ROOT = Path(__file__).resolve().parent.parent


def test_the_app_installs_it() -> None:
    import kiev_tui.ui.app  # noqa: F401  (installs it on import)

    assert cellwidth.installed()
    assert rich.cells.get_character_cell_size is cellwidth.get_character_cell_size
    assert rich.segment.get_character_cell_size is cellwidth.get_character_cell_size


def test_each_written_answer_is_richs_in_every_unicode_version() -> None:
    for version in ("auto", "latest", *VERSIONS):
        for ch in sorted(rich.cells._SINGLE_CELLS | cellwidth.NARROW):
            assert cellwidth._original(ch, version) == 1, (ch, version)
    assert "\u2248" in cellwidth.NARROW and "\u2248" not in rich.cells._SINGLE_CELLS


def test_other_characters_get_richs_answer() -> None:
    for ch in ("\u4e2d", "\u0300", "\x00", "\x1b", "\x7f", "\U0001f600", "\u200d"):
        assert cellwidth.get_character_cell_size(ch) == cellwidth._original(ch), ch
    assert cellwidth.get_character_cell_size("\u4e2d") == 2
    assert cellwidth.get_character_cell_size("\u0300") == 0


def test_every_glyph_outside_richs_list_is_written_out() -> None:
    # a new map glyph that Rich must look up would bring the table back into the first frame
    chars: set[str] = set()
    for path in (ROOT / "kiev_tui").rglob("glyphs.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                chars |= {c for c in node.value if ord(c) > 127 and c not in rich.cells._SINGLE_CELLS}
    assert chars and chars <= cellwidth.NARROW, sorted(chars - cellwidth.NARROW)


def test_a_map_row_with_a_river_is_measured_without_the_table() -> None:
    probe = ("import sys, rich.cells, kiev_tui.ui.app\n"
             "from rich.segment import Segment\n"
             "assert rich.cells.cell_len('12 \\u2248 ab') == 7\n"
             "assert [s.text for s in Segment('a\\u2248b').split_cells(2)] == ['a\\u2248', 'b']\n"
             "print(sorted(m for m in sys.modules if m.startswith('rich._unicode_data.')))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["['rich._unicode_data._versions']"]
