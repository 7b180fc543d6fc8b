"""Issue 35's Kiev rulings: 12.23 with 9.32, 19.63/19.65 with 11.23, relief by rail (22.2), the
terrain chart as the only source of terrain values (10.4), and 9.82, 19.22, 19.42 pinned.

Battles are fought on the 10 x 10 fixture map with loaded dice (tests/fixtures/mini).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app

from tests.conftest import ROOT

runner = CliRunner()


# -- 10.4: the terrain chart in tables.toml is the only source of terrain values ----------------

def test_10_4_kiev_data_without_the_woods_row_is_refused_at_load(tmp_path: Path) -> None:
    data = tmp_path / "spi_kiev"
    shutil.copytree(ROOT / "data" / "spi_kiev", data)
    tables = data / "tables.toml"
    text = tables.read_text(encoding="utf-8")
    cut = re.sub(r"\[tec\.terrain\.woods\]\n(?:[^\[\n][^\n]*\n|\n)*", "", text)
    assert cut != text and "[tec.terrain.woods]" not in cut
    tables.write_text(cut, encoding="utf-8")
    result = runner.invoke(app, ["new", "--scenario", str(data / "scenarios" / "campaign.toml"), "--seed", "1",
                                 "--save", str(tmp_path / "g.toml"), "--no-ui"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {tables}: tec.terrain.woods: the terrain chart has no 'woods' row (10.4)\n"
    assert not (tmp_path / "g.toml").exists()
