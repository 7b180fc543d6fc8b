"""Loading the rules reference and finding cases by number and by section."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiev_tui.rulesref.model import (
    RuleBook,
    RulesDataError,
    UnknownCaseError,
    load_reference,
    normalize_id,
    reflow,
    rules_files,
)

FIXTURES = Path(__file__).parent / "fixtures" / "rules"

BOOK_HEAD = '[book]\ngame = "spi_kiev"\ntitle = "T"\nsource = "toy-book.txt"\n'


def case_toml(cid: str, parent: str = "", extra: str = "") -> str:
    return f'[[case]]\nid = "{cid}"\nparent = "{parent}"\ntitle = "Title {cid}"\ntext = "Text of {cid}."\n{extra}\n'


@pytest.fixture
def spi() -> RuleBook:
    return load_reference("spi_kiev", FIXTURES)


def write_game(tmp_path: Path, files: dict[str, str], game: str = "spi_kiev") -> Path:
    folder = tmp_path / game
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return tmp_path


# -- loading ---------------------------------------------------------------------------------

def test_parts_are_joined_main_file_first(spi: RuleBook) -> None:
    assert [p.name for p in spi.files] == ["rules.toml", "rules-2.toml"]
    assert spi.ids == ["9.0", "9.6", "9.66", "9.67", "9.7", "9.78", "10.0", "10.13", "10.2", "10.3"]
    assert spi.title == "Toy Kiev reference"
    assert spi.source == "toy-book.txt"
    assert spi["9.7"].file == "rules-2.toml"


def test_rules_files_ignores_other_toml(tmp_path: Path) -> None:
    data = write_game(
        tmp_path,
        {"rules.toml": BOOK_HEAD, "rules-b.toml": "", "rules-a.toml": "", "rulesx.toml": "", "map.toml": ""},
    )
    assert [p.name for p in rules_files("spi_kiev", data)] == ["rules.toml", "rules-a.toml", "rules-b.toml"]


def test_case_fields(spi: RuleBook) -> None:
    case = spi["9.66"]
    assert case.parent == "9.6"
    assert case.title == "Numeric results: steps or hexes"
    assert case.see == ("9.67", "9.7")
    assert case.game == "spi_kiev"
    assert not case.reconstructed and case.table is None
    woods = spi["10.2"]
    assert woods.reconstructed
    assert woods.table is not None
    assert woods.table.header == ("Unit", "Cost")
    assert woods.table.rows == (("mechanized", "2"), ("other", "1"))


# -- lookup ----------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["9.66", "[9.66]", " 9.66 ", "(9.66)"])
def test_lookup_accepts_typed_forms(spi: RuleBook, typed: str) -> None:
    assert spi[typed].id == "9.66"


@pytest.mark.parametrize("typed", ["PB 3.1", "pb 3.1", "PB3.1", "Pb  3.1", "[PB 3.1]"])
def test_playbook_ids_in_any_spelling(typed: str) -> None:
    efs = load_reference("efs_ktr", FIXTURES)
    assert efs[typed].id == "PB 3.1"
    assert efs["3.1"].title == "Friends and foes"  # the booklet case of the same number


def test_whole_section_numbers_with_or_without_zero(spi: RuleBook) -> None:
    assert spi["9"].id == "9.0"
    barb = load_reference("barbarossa1941", FIXTURES)
    assert barb["2.0"].id == "2"
    assert barb["2"].id == "2"


def test_unknown_case(spi: RuleBook) -> None:
    assert spi.get("99.9") is None
    assert "99.9" not in spi
    assert "9.66" in spi
    with pytest.raises(UnknownCaseError) as err:
        spi["99.9"]
    assert "99.9" in str(err.value) and "spi_kiev" in str(err.value)
    assert isinstance(err.value, KeyError)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("[9.66]", "9.66"), ("pb3.1", "PB 3.1"), ("PB 7.22C", "PB 7.22c"), ("14.3.4", "14.3.4"), ("river", "river")],
)
def test_normalize_id(typed: str, canonical: str) -> None:
    assert normalize_id(typed) == canonical


# -- structure -------------------------------------------------------------------------------

def test_children_in_book_order(spi: RuleBook) -> None:
    assert [c.id for c in spi.children("9.0")] == ["9.6", "9.7"]
    assert [c.id for c in spi.children("9.6")] == ["9.66", "9.67"]
    assert spi.children("9.66") == []
    assert [c.id for c in spi.top_level()] == ["9.0", "10.0"]


def test_section_is_case_and_all_descendants(spi: RuleBook) -> None:
    assert [c.id for c in spi.section("9.0")] == ["9.0", "9.6", "9.66", "9.67", "9.7", "9.78"]
    assert [c.id for c in spi.section("9.6")] == ["9.6", "9.66", "9.67"]
    assert [c.id for c in spi.section("[9.66]")] == ["9.66"]
    with pytest.raises(UnknownCaseError):
        spi.section("42.0")


def test_depth_and_dangling(spi: RuleBook) -> None:
    assert spi.depth("9.0") == 0
    assert spi.depth("9.66") == 2
    assert ("9.78", "see", "99.1") in spi.dangling()


def test_parent_cycle_does_not_hang(tmp_path: Path) -> None:
    data = write_game(tmp_path, {"rules.toml": BOOK_HEAD + case_toml("1.1", "1.2") + case_toml("1.2", "1.1")})
    book = load_reference("spi_kiev", data)
    assert {c.id for c in book.section("1.1")} <= {"1.1", "1.2"}
    assert book.depth("1.1") >= 1


def test_reflow_joins_editor_breaks_and_keeps_lists() -> None:
    text = "One sentence broken\nacross two lines.\n\nNew paragraph.\n- item one\n- item two\na. lettered"
    out = reflow(text)
    assert len(out) == len(text)  # offsets stay valid for search highlights
    assert out == "One sentence broken across two lines.\n\nNew paragraph.\n- item one\n- item two\na. lettered"


# -- bad data --------------------------------------------------------------------------------

def error_for(tmp_path: Path, files: dict[str, str]) -> RulesDataError:
    data = write_game(tmp_path, files)
    with pytest.raises(RulesDataError) as err:
        load_reference("spi_kiev", data)
    return err.value


def test_malformed_toml_names_the_file(tmp_path: Path) -> None:
    err = error_for(tmp_path, {"rules.toml": BOOK_HEAD, "rules-2.toml": "[[case]\nid = 1"})
    assert err.file.endswith("rules-2.toml")
    assert "rules-2.toml" in str(err) and "malformed TOML" in str(err)


@pytest.mark.parametrize(
    ("body", "key", "reason"),
    [
        ('[[case]]\nid = "1.0"\nparent = ""\ntext = "x"\n', "case[0] (id '1.0').title", "missing"),
        (case_toml("1.0", extra="see = \"1.1\""), "case[0] (id '1.0').see", "list"),
        (case_toml("1.0", extra="colour = \"red\""), "case[0] (id '1.0').colour", "unknown key"),
        (case_toml("1.0", extra="reconstructed = \"yes\""), "case[0] (id '1.0').reconstructed", "true or false"),
        ('[[case]]\nid = 7\nparent = ""\ntitle = "t"\ntext = "x"\n', "case[0].id", "string"),
        (
            case_toml("1.0", extra='table = { header = ["a", "b"], rows = [["1"]] }'),
            "case[0] (id '1.0').table.rows[0]",
            "1 cells",
        ),
    ],
)
def test_bad_case_names_file_and_key(tmp_path: Path, body: str, key: str, reason: str) -> None:
    err = error_for(tmp_path, {"rules.toml": BOOK_HEAD + body})
    assert err.key == key
    assert reason in err.reason
    assert str(err).startswith(str(tmp_path / "spi_kiev" / "rules.toml"))


def test_duplicate_id_across_parts(tmp_path: Path) -> None:
    err = error_for(tmp_path, {"rules.toml": BOOK_HEAD + case_toml("9.66"), "rules-2.toml": case_toml("[9.66]")})
    assert err.file.endswith("rules-2.toml")
    assert "duplicate id '9.66'" in err.reason and "rules.toml" in err.reason


@pytest.mark.parametrize(
    ("files", "key", "reason"),
    [
        ({"rules.toml": case_toml("1.0")}, "book", "no [book] table"),
        ({"rules.toml": BOOK_HEAD, "rules-2.toml": BOOK_HEAD}, "book", "second [book]"),
        ({"rules.toml": BOOK_HEAD.replace('"spi_kiev"', '"efs_ktr"')}, "book.game", "folder"),
        ({"rules.toml": BOOK_HEAD.replace('source = "toy-book.txt"\n', "")}, "book.source", "missing"),
        ({"rules.toml": BOOK_HEAD + "[extra]\n"}, "extra", "unknown key"),
    ],
)
def test_book_table_problems(tmp_path: Path, files: dict[str, str], key: str, reason: str) -> None:
    err = error_for(tmp_path, files)
    assert err.key == key
    assert reason in err.reason


def test_missing_reference(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError) as err:
        load_reference("spi_kiev", tmp_path)
    assert "rules.toml" in str(err.value) and "not found" in str(err.value)
    with pytest.raises(RulesDataError):
        load_reference("../etc", tmp_path)


def test_reference_is_reused_until_a_file_changes(tmp_path: Path) -> None:
    data = write_game(tmp_path, {"rules.toml": BOOK_HEAD + case_toml("1.0")})
    first = load_reference("spi_kiev", data)
    assert load_reference("spi_kiev", data) is first
    (data / "spi_kiev" / "rules-2.toml").write_text(case_toml("1.1", "1.0"), encoding="utf-8")
    second = load_reference("spi_kiev", data)
    assert second is not first
    assert second.ids == ["1.0", "1.1"]


# -- hostile files ---------------------------------------------------------------------------

def test_a_fifo_among_the_rules_files_is_refused_without_hanging(tmp_path: Path) -> None:
    base = write_game(tmp_path, {"rules.toml": BOOK_HEAD + case_toml("1.0")})
    os.mkfifo(base / "spi_kiev" / "rules-2.toml")  # nobody ever writes to it: a read would block
    with pytest.raises(RulesDataError) as err:
        load_reference("spi_kiev", base)
    assert err.value.file.endswith("rules-2.toml")
    assert "not a regular file" in err.value.reason


def test_a_game_name_with_a_final_newline_is_refused(tmp_path: Path) -> None:
    base = write_game(tmp_path, {"rules.toml": BOOK_HEAD + case_toml("1.0")})
    with pytest.raises(RulesDataError) as err:
        load_reference("spi_kiev\n", base)
    assert "not a game name" in err.value.reason
