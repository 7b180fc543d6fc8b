"""The mutation batch runner's bookkeeping: which tests a mutant meets, and writing verdicts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.mutation_batch import META_DIR, module_of, selection, summary, write_verdicts

P = "kiev_tui.games.spi_kiev"


def test_a_mutant_s_module_comes_from_its_name() -> None:
    assert module_of(f"{P}.tables.x_check_tables__mutmut_3") == "tables"
    assert module_of(f"{P}.supply.xǁSupplyǁstatus__mutmut_12") == "supply"


def test_a_load_time_module_meets_its_own_tests_first_and_a_short_list(tmp_path: Path) -> None:
    for name in ("test_mutants_tables.py", "test_mutants_supply.py", "test_spi_kiev_map.py", "test_cli.py"):
        (tmp_path / name).write_text("")
    assert selection("tables", tmp_path) == ["tests/test_mutants_tables.py", "tests/test_hardening_tables.py",
                                             "tests/test_spi_kiev_rules_combat.py", "tests/test_spi_kiev_combat.py"]
    # Any other module: its own file, then every rules test file (never the CLI's).
    assert selection("supply", tmp_path) == ["tests/test_mutants_supply.py", "tests/test_mutants_tables.py",
                                             "tests/test_spi_kiev_map.py"]
    assert selection("movement", tmp_path) == ["tests/test_mutants_supply.py", "tests/test_mutants_tables.py",
                                               "tests/test_spi_kiev_map.py"]


def test_verdicts_go_into_the_meta_file_of_their_module_only(tmp_path: Path) -> None:
    folder = tmp_path / META_DIR
    folder.mkdir(parents=True)
    meta = {"exit_code_by_key": {f"{P}.tables.x_a__mutmut_1": None, f"{P}.tables.x_a__mutmut_2": 0},
            "durations_by_key": {}}
    (folder / "tables.py.meta").write_text(json.dumps(meta))
    other = {"exit_code_by_key": {f"{P}.untried.x_b__mutmut_1": None}}
    (folder / "untried.py.meta").write_text(json.dumps(other))
    n = write_verdicts(tmp_path, {f"{P}.tables.x_a__mutmut_1": 1, f"{P}.tables.x_a__mutmut_2": 36,
                                  f"{P}.tables.x_gone__mutmut_1": 0})
    assert n == 2
    assert json.loads((folder / "tables.py.meta").read_text()) == {
        "exit_code_by_key": {f"{P}.tables.x_a__mutmut_1": 1, f"{P}.tables.x_a__mutmut_2": 36},
        "durations_by_key": {}}
    assert json.loads((folder / "untried.py.meta").read_text()) == other
    assert not list(folder.glob("*.tmp"))


def test_the_summary_counts_only_mutmut_s_killing_codes_as_killed() -> None:
    assert summary({"a": 1, "b": 3, "c": 0, "d": 36, "e": 2}) == "2 killed, 1 survived, 1 timeout, 1 exit 2"
    assert summary({}) == "none"


def test_with_nothing_to_run_it_collects_no_tests_and_writes_nothing(tmp_path: Path, capsys) -> None:
    from tests.mutation_batch import main
    folder = tmp_path / META_DIR
    folder.mkdir(parents=True)
    meta = {"exit_code_by_key": {f"{P}.tables.x_a__mutmut_1": 1}}
    (folder / "tables.py.meta").write_text(json.dumps(meta))
    assert main(["--unchecked", "--mutants", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "0 mutant(s) to run\n0 verdict(s) written: none\n"
    assert json.loads((folder / "tables.py.meta").read_text()) == meta


def test_a_folder_without_mutmut_results_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    from tests.mutation_batch import main
    assert main(["--unchecked", "--mutants", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"{tmp_path}: no mutmut results here; run `mutmut run` first\n"
