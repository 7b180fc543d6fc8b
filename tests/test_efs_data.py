"""The Battle of Sumy's data (PB 10.4): it loads, validates, and holds what the tutorial names."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.games.efs_ktr.tables import load_tables

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "efs_ktr"
runner = CliRunner()


def test_the_game_data_validates() -> None:
    result = runner.invoke(app, ["validate", str(DATA)])
    assert result.exit_code == 0, result.output


def test_the_tutorial_places_hold_what_the_playbook_says() -> None:
    sc = load_scenario("efs_ktr/sumy")
    m, p = sc.map, sc.map.grid.parse
    assert (m.name(p("1306")), m.name(p("2009")), m.name(p("2303"))) == ("Nedrigaylov", "Lebedin", "Sumy")
    assert m.terrain(p("1908")) == "woods" and m.terrain(p("2007")) == "hill"
    for a, b in (("1305", "1306"), ("1505", "1605"), ("1508", "1609"), ("1510", "1610")):
        assert "minor_river" in m.side_features(p(a), p(b)), (a, b)
    for a, b in (("1609", "1708"), ("1708", "1809"), ("1809", "1908"), ("1908", "2009"), ("1708", "1808")):
        assert "minor_road" in m.side_features(p(a), p(b)), (a, b)
    assert "main_road" in m.side_features(p("2202"), p("2302"))
    assert sc.victory["stars"]["2303"] == 2 and sum(sc.victory["stars"].values()) == 7


def test_the_tutorial_totals_and_values() -> None:
    sc = load_scenario("efs_ktr/sumy")
    u = sc.catalog.units
    lost = sc.extra["reduced"]

    def attack(uid: str) -> int:
        return u[uid].factor("attack", lost.get(uid, 0))

    def defence(uid: str) -> int:
        return u[uid].factor("defence", lost.get(uid, 0))

    assert attack("ax-35mot-25m") + attack("ax-119mot-25m") == 6 and u["ax-619art"].extra["support"] == 2
    assert sum(attack(x) for x in ("ax-33pz-9pz", "ax-10mot-9pz", "ax-11mot-9pz", "ax-9rec-9pz",
                                   "ax-60mot-16m", "ax-156mot-16m", "ax-341rec-16m")) == 18
    assert defence("ax-20mot-10m") + defence("ax-341rec-16m") == 6
    assert attack("so-227rd") + attack("so-129tb") + attack("so-1tb") == 9
    assert (defence("so-11-96-5c"), len(u["so-11-96-5c"].steps)) == (2, 1)
    assert (defence("so-131-160-5c"), len(u["so-131-160-5c"].steps)) == (3, 2)
    assert [u[x].ma for x in ("ax-9rec-9pz", "ax-341rec-16m", "so-1tb", "so-2-4gdr", "so-6-1gdm")] == [9, 9, 5, 8, 5]
    assert u["so-40a-hq"].extra["command"] == 1 and u["so-40a-hq"].extra["command_range"] == 4
    assert u["so-2-4gdr"].extra["zoc"] is False and defence("so-2-4gdr") == 1
    assert [u[x].extra["acr"] for x in ("ax-he111", "ax-bf109", "so-i16", "so-mig3")] == [2, 4, 1, 2]
    assert len(u["so-295rd"].steps) == 4 and list(u["so-295rd"].steps[1]) == [3, 6]  # 16.22-16.23
    assert sc.setup["so-131-160-5c"] == sc.map.grid.parse("1508")


def test_the_crt_cells_the_tutorial_fixes() -> None:
    crt = load_tables(DATA / "tables.toml").crt
    assert crt.column_for(8, 2) == "4-1" and crt.cell("4-1", crt.box(6, -1)).text == "-/1"
    assert crt.column_for(18, 3) == "6-1" and crt.cell("6-1", crt.box(5, -3)).text == "-/3R"
    assert crt.column_for(9, 6) == "3-2" and crt.cell("3-2", crt.box(5, 0)).text == "1*/R"
    assert crt.column_for(29, 10) == "2-1" and crt.box(2, -5) == 0
    assert {(5, "4-1"), (2, "6-1"), (5, "3-2")}.isdisjoint(crt.reconstructed_cells)
    assert len(crt.reconstructed_cells) == 14 * 12 - 3 and (6, "4-1") in crt.reconstructed_cells


def test_validate_refuses_a_broken_copy_in_one_line(tmp_path: Path) -> None:
    copy = tmp_path / "efs_ktr"
    shutil.copytree(DATA, copy)
    text = (copy / "tables.toml").read_text()
    (copy / "tables.toml").write_text(text.replace('"-/3R", "-/4", "-/4R"', '"-/3R", "-/1", "-/4R"', 1))
    result = runner.invoke(app, ["validate", str(copy)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if "tables.toml" in line]
    # the file itself, and the scenario that reads it, each refuse it in one line with the key
    assert lines and all(line.endswith("tables.toml: crt.row[0].results[9]: box 0: 6-1 is worse for the attacker "
                                       "than 5-1") for line in lines)
