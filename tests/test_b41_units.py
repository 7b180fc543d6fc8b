"""Barbarossa 1941's counters (data/barbarossa1941/units.toml) against the book.

The literals below are counted or copied from the rulebook (../shared/rulebooks/barbarossa-1941.txt),
each with its case: values are the book's "combat-quality-movement".
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from pathlib import Path

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.units import UnitCatalog, UnitDef, load_units
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.data import DATA

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "barbarossa1941"
UNITS = DATA_DIR / "units.toml"


@pytest.fixture(scope="module")
def catalog() -> UnitCatalog:
    return load_units(UNITS, DATA)


def face(u: UnitDef, step: int) -> str:
    q = bu.quality(u)
    return f"{bu.combat(u, step)}-{q}-{u.ma}"


# The value the book prints for each counter (15.1, 15.2, 15.3, 13, 17.1, 17.2, 12.11).  For a
# cavalry corps it is the face it enters on (15.2: "reduced side").
BOOK = {
    # 15.1 Finland
    "fi-c-6": "2-4-3", "fi-c-7": "2-4-3", "fi-c-2": "2-4-3", "fi-c-4": "2-4-3", "fi-res": "2-3-3",
    "fi-oinonen": "2-4-3",
    # 15.1 Army Group North
    "ge-bef-101": "1-2-3", "ge-ak-23": "3-4-3", "ge-ak-1": "4-4-3", "ge-ak-26": "3-4-3", "ge-ak-38": "3-4-3",
    "ge-ak-2": "4-4-3", "ge-ak-10": "3-4-3", "ge-ak-28": "3-4-3", "ge-pzk-41": "4-5-5", "ge-pzk-56": "3-5-5",
    # 15.1 Army Group Centre
    "ge-bef-102": "1-2-3", "ge-ak-53": "3-4-3", "ge-ak-8": "3-4-3", "ge-ak-20": "3-4-3", "ge-ak-42": "3-3-3",
    "ge-ak-7": "4-4-3", "ge-ak-9": "4-4-3", "ge-ak-13": "3-3-3", "ge-ak-43": "3-4-3", "ge-pzk-24": "4-5-5",
    "ge-pzk-46": "3-5-5", "ge-pzk-47": "4-5-5", "ge-ak-12": "4-4-3", "ge-pzk-39": "4-5-5", "ge-pzk-57": "4-5-5",
    "ge-ak-5": "3-4-3", "ge-ak-6": "3-4-3",
    # 15.1 Army Group South
    "ge-bef-103": "1-2-3", "ge-jk": "3-4-3", "ge-ak-17": "3-4-3", "ge-ak-29": "3-4-3", "ge-ak-44": "4-4-3",
    "ge-ak-55": "3-3-3", "ge-pzk-3": "4-5-5", "ge-pzk-14": "4-5-5", "ge-pzk-48": "3-5-5", "ge-ak-4": "4-4-3",
    "ge-gebk-49": "3-4-3", "ge-ak-52": "3-3-3", "sk-corps": "1-2-3",
    # 15.1 Romania
    "ge-ak-11": "3-4-3", "ge-ak-30": "3-4-3", "ge-ak-54": "3-3-3", "ro-a-3": "4-3-3", "ro-kav": "1-3-4",
    "ro-geb": "2-4-3", "ro-sich": "1-2-3",
    # 15.3 Axis arrivals, 13's Hungarians, 17.1's own
    "ge-ak-50": "3-4-3", "ge-ak-35": "3-4-3", "ge-pzk-40": "4-5-5", "ge-ak-34": "3-4-3", "it-csir": "3-3-3",
    "ro-a-4": "4-3-3", "ge-ak-62": "3-3-3", "ge-ak-51": "3-4-3", "ro-sec-1": "1-2-3", "ro-cav-1": "1-3-4",
    "hu-gyor": "2-3-4", "hu-sich-8": "1-2-3", "sk-sich": "1-2-3",
    # 15.2 Soviet
    "so-a-7": "4-2-3", "so-a-23": "5-2-3", "so-mc-1-10": "3-2-4", "so-a-8": "4-2-3", "so-a-11": "5-2-3",
    "so-mc-3-12": "3-2-4", "so-a-3": "5-2-3", "so-a-4": "4-2-3", "so-a-10": "4-2-3", "so-a-13": "4-2-3",
    "so-mc-6-11": "3-2-4", "so-mc-13-14": "2-2-4", "so-mc-17-20": "2-2-4", "so-cav-6": "1-2-4",
    "so-a-5": "5-2-3", "so-a-6": "4-2-3", "so-cav-5": "1-2-4", "so-a-12": "5-2-3", "so-a-26": "4-2-3",
    "so-mc-4-8": "3-2-4", "so-mc-9-15": "3-2-4", "so-mc-16-19": "2-2-4", "so-mc-22-24": "3-2-4",
    "so-a-9": "5-2-3", "so-a-18": "4-2-3", "so-cav-2": "1-2-4", "so-mc-2-18": "2-2-4",
    "so-a-16": "5-2-3", "so-a-19": "4-2-3", "so-a-20": "4-2-3", "so-a-21": "4-2-3", "so-a-22": "4-2-3",
    "so-a-24": "4-2-3", "so-a-27": "4-2-3", "so-a-28": "4-2-3", "so-mc-5-26": "3-2-4", "so-mc-7-21": "3-2-4",
    "so-mc-23-25": "2-2-4", "so-cav-4": "1-2-4",
    # 15.3 Soviet arrivals
    "so-a-29": "4-2-3", "so-a-30": "4-2-3", "so-a-31": "4-2-3", "so-a-32": "4-2-3", "so-a-43": "4-2-3",
    "so-a-44": "4-2-3", "so-a-45": "4-2-3", "so-a-48": "4-2-3", "so-cav-11": "1-2-4", "so-mg-kachalov": "3-3-4",
    "so-og-luga": "3-2-3", "so-a-33": "4-2-3", "so-a-34": "4-2-3", "so-a-37": "4-2-3", "so-a-40": "4-2-3",
    "so-a-46": "4-2-3", "so-a-47": "4-2-3", "so-a-49": "4-2-3", "so-a-51": "4-2-3", "so-a-52": "4-2-3",
    "so-a-53": "4-2-3", "so-og-neva": "3-2-3", "so-cav-13": "1-2-4", "so-a-4b": "4-2-3", "so-a-6b": "4-2-3",
    "so-a-11b": "5-2-3", "so-a-12b": "5-2-3", "so-a-38": "4-2-3", "so-a-42": "4-2-3", "so-a-50": "4-2-3",
    "so-a-5b": "5-2-3", "so-a-54": "4-2-3", "so-a-55": "4-2-3", "so-a-56": "4-2-3", "so-a-57": "4-2-3",
    "so-mg-ermakov": "3-3-4", "so-a-26b": "4-2-3", "so-a-39": "4-2-3", "so-cav-15": "1-2-4", "so-a-24b": "4-2-3",
    "so-a-10b": "4-2-3", "so-shock-1": "6-3-3", "so-shock-2": "6-3-3", "so-shock-3": "6-3-3",
    "so-shock-4": "6-3-3", "so-a-58": "4-2-3", "so-a-59": "4-2-3", "so-mg-khostenko": "3-3-4",
    "so-gcav-1": "1-3-4", "so-gcav-2": "1-3-4", "so-a-60": "4-2-3", "so-a-61": "4-2-3", "so-gcav-3": "1-3-4",
}

# Every face the book prints of a counter, full to weakest (17.1-17.2 "(reduced)", 12.2, 12.11, 9.2).
PRINTED_FACES = {
    "ge-ak-1": ["4-4-3", "2-4-3"], "ge-ak-28": ["3-4-3", "2-4-3"], "ge-ak-10": ["3-4-3", "2-4-3"],
    "ge-pzk-56": ["3-5-5", "2-5-5"], "ge-ak-2": ["4-4-3", "2-4-3"], "ge-ak-42": ["3-3-3", "2-3-3"],
    "ge-ak-6": ["3-4-3", "2-4-3"], "ge-pzk-46": ["3-5-5", "2-5-5"], "ge-ak-7": ["4-4-3", "2-4-3"],
    "ge-pzk-57": ["4-5-5", "2-5-5"], "ge-ak-17": ["3-4-3", "2-4-3"], "ge-ak-44": ["4-4-3", "2-4-3"],
    "ge-ak-4": ["4-4-3", "2-4-3"], "ge-pzk-14": ["4-5-5", "2-5-5"], "ge-pzk-3": ["4-5-5", "2-5-5"],
    "ge-ak-54": ["3-3-3", "2-3-3"],
    "fi-c-6": ["2-4-3", "1-4-3"], "fi-c-7": ["2-4-3", "1-4-3"], "fi-c-2": ["2-4-3", "1-4-3"],
    "fi-c-4": ["2-4-3", "1-4-3"],
    "ro-a-3": ["4-3-3", "2-3-3", "1-3-3"], "ro-a-4": ["4-3-3", "2-3-3", "1-3-3"],  # 12.2
    "so-a-23": ["5-2-3", "3-2-3"], "so-a-11": ["5-2-3", "3-2-3"], "so-a-16": ["5-2-3", "3-2-3"],
    "so-a-3": ["5-2-3", "3-2-3"], "so-mg-ermakov": ["3-3-4", "1-3-4"],
}
FOUR_TWO_THREE = ["4-2-3", "2-2-3"]  # 9.2 prints the two faces of every 4-2-3 army


def test_the_counters_load_and_their_own_keys_pass(catalog: UnitCatalog) -> None:
    bu.check_units(UNITS)
    assert len(catalog.units) == 194 + 49  # 9.2: one ersatz counter per German corps of the 49 that may have one
    assert sorted(u for u in catalog.units if u.startswith("ge-ersatz-"))[:2] == ["ge-ersatz-1", "ge-ersatz-10"]
    assert catalog.units["ge-ersatz-49"].designation == "Ersatz 49" and catalog.units["ge-ersatz-49"].steps == ((3, 3),)


@pytest.mark.parametrize("uid", sorted(BOOK))
def test_the_value_the_book_prints_is_the_data_s(catalog: UnitCatalog, uid: str) -> None:
    u = catalog.units[uid]
    assert face(u, bu.entry_step(u)) == BOOK[uid]
    assert all(a == d for a, d in u.steps)  # one combat value per step, both halves (1)


@pytest.mark.parametrize("uid", sorted(PRINTED_FACES))
def test_every_printed_face_is_the_data_s(catalog: UnitCatalog, uid: str) -> None:
    u = catalog.units[uid]
    assert [face(u, i) for i in range(len(u.steps))] == PRINTED_FACES[uid]


def test_every_4_2_3_army_has_the_2_2_3_back_of_9_2(catalog: UnitCatalog) -> None:
    armies = [uid for uid, v in BOOK.items() if v == "4-2-3"]
    assert len(armies) == 50  # 60 army counters, ten of them 5-2-3 (15.2, 15.3)
    for uid in armies:
        u = catalog.units[uid]
        assert [face(u, i) for i in range(len(u.steps))] == FOUR_TWO_THREE, uid
        assert u.extra["rebuild"] == "any_city"  # 9.2: only these come back
    assert "rebuild" not in catalog.units["so-a-23"].extra  # a 5-2-3 army does not


def test_step_counts_the_book_gives(catalog: UnitCatalog) -> None:
    u = catalog.units
    assert [len(u[x].steps) for x in ("ro-a-3", "ro-a-4")] == [3, 3]  # 12.2
    assert {len(u[f"so-shock-{n}"].steps) for n in range(1, 5)} == {3}  # 12.11
    assert [face(u["so-shock-1"], i) for i in (0, 1)] == ["6-3-3", "4-3-3"]  # 12.11
    assert {len(x.steps) for x in u.values() if x.type == "army"} == {2}  # 12.11: a normal army
    assert len(u["so-fort-sevastopol"].steps) == 2 and bu.quality(u["so-fort-sevastopol"]) == 3  # 12.4
    assert bu.loss_steps(u["so-vmf"]) == 2  # 12.9
    airborne = [x for x in u.values() if x.type == "airborne"]
    assert {bu.loss_steps(x) for x in airborne} == {0}  # 12.5: worth 0 steps
    assert {x.ma for x in airborne if x.side == "soviet"} == {3}  # 12.5
    assert {bu.stacking_points(x, 0) for x in airborne} == {0}


def test_special_units_the_book_counts(catalog: UnitCatalog) -> None:
    kinds = Counter((x.side, x.type) for x in catalog.units.values())
    assert kinds[("axis", "air")] == 4 and kinds[("soviet", "air")] == 2  # 11
    assert kinds[("soviet", "shock_army")] == 4  # 12.11
    assert kinds[("soviet", "mobile_group")] == 3  # 12.11: Kachalov, Ermakov, Khostenko
    assert kinds[("soviet", "group")] == 2  # 12.11: Luga and Neva
    assert kinds[("soviet", "militia")] == 2 and kinds[("soviet", "partisan")] == 2  # 12.11, 12.7
    assert kinds[("soviet", "fleet")] == 1  # 12.9
    assert kinds[("axis", "fort")] == 3  # 12.4: at most 3 German forts
    forts = [x for x in catalog.units.values() if x.side == "soviet" and x.type == "fort"]
    assert sum(not x.extra.get("permanent", False) for x in forts) == 12  # 12.4: at most 12 intact
    assert [x.id for x in forts if x.extra.get("permanent")] == ["so-fort-sevastopol"]
    guards = sorted(x.id for x in catalog.units.values() if x.extra.get("guards"))
    assert guards == ["so-gab-1", "so-gab-2", "so-gcav-1", "so-gcav-2", "so-gcav-3"]  # 12.5, 12.11
    initial_airborne = sorted(x.id for x in catalog.units.values() if x.type == "airborne" and x.side == "soviet"
                              and not x.extra.get("guards"))
    assert initial_airborne == ["so-ab-1", "so-ab-2", "so-ab-3", "so-ab-4", "so-ab-5"]  # 12.5


def test_air_and_drop_values(catalog: UnitCatalog) -> None:
    u = catalog.units
    for uid in ("ge-air-1", "ge-air-2", "ge-air-5", "ge-air-8"):
        assert bu.air_support(u[uid]) == (2, 6)  # 12.3 (+2), 11.1 (6 hexes)
    assert {bu.air_support(u[f"so-air-{n}"])[1] for n in (1, 2)} == {5}  # 11.1
    assert u["so-gab-1"].extra["drop_range"] == 6 and u["ge-fjd-7"].extra["drop_range"] == 7  # 12.5
    assert {u[x].extra["die_support"] for x in ("so-ab-1", "so-gab-2", "ge-fjd-7", "so-vmf", "so-fort-1")} == {1}


def test_cavalry_enters_reduced_and_flips_to_a_motorized_group(catalog: UnitCatalog) -> None:
    cav = catalog.units["so-cav-6"]
    assert bu.entry_step(cav) == 1 and bu.stacking_points(cav, 1) == 1  # 15.2
    assert (bu.is_motorized(cav, 0), bu.is_motorized(cav, 1)) == (True, False)  # 12.11
    mg = catalog.units["so-mg-kachalov"]
    assert bu.entry_step(mg) == 0 and bu.is_motorized(mg, 0)  # 15.2: full side
    assert all(catalog.units[x].mechanized for x in catalog.units if x.startswith(("ge-pzk-", "so-mc-")))


def test_the_ersatz_corps(catalog: UnitCatalog) -> None:
    e = bu.read_ersatz(UNITS)
    u = e.unit("ge-ersatz-1")
    assert (face(u, 0), len(u.steps), u.side) == ("3-3-3", 1, "axis")  # 9.2


# -- reconstructed values ------------------------------------------------------------------

LINE = re.compile(r"\(values: ([a-z_, ]+); units: ([^)]+)\)")


def sources_lines() -> list[tuple[set[str], list[str]]]:
    text = (DATA_DIR / "SOURCES.md").read_text(encoding="utf-8")
    section = text.split("## Counters", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"\n- ", section)
    out = []
    for item in items:
        m = LINE.search(" ".join(item.split()))
        if m:
            out.append(({v.strip() for v in m.group(1).split(",")}, [g.strip() for g in m.group(2).split(",")]))
    return out


def test_every_unprinted_value_is_flagged(catalog: UnitCatalog) -> None:
    for uid, u in catalog.units.items():
        rv = set(bu.reconstructed_values(u))
        assert u.reconstructed == bool(rv), uid
        if bu.is_ersatz(u):  # 9.2 prints the ersatz corps whole: 3-3-3, one step as rebuilt
            assert (face(u, 0), len(u.steps)) == ("3-3-3", 1), uid
            continue
        printed = PRINTED_FACES.get(uid) or (FOUR_TWO_THREE if BOOK.get(uid) == "4-2-3" else [])
        if bu.entry_step(u) == 1:  # the book shows only the back (15.2): the front is ours
            assert "combat" in rv, uid
            continue
        known_faces = len(printed) or (1 if uid in BOOK else 0)
        has_values = bu.quality(u) is not None and u.type != "airborne"
        if has_values and uid not in BOOK:
            assert "combat" in rv, uid
        if has_values and len(u.steps) > max(known_faces, 1):
            assert rv & {"reduced", "steps"}, uid
        if printed and len(printed) == len(u.steps):
            assert not rv & {"reduced", "steps"}, uid


# Values the book never prints for these counters, besides faces and steps (11, 12.4, 12.5, 12.11, 14.3.3).
OTHER_OURS = {
    "ge-fjd-7": {"ma"}, "ge-dietl": {"combat", "quality", "ma"}, "so-opol-1": {"combat", "quality"},
    "so-opol-2": {"combat", "quality"}, "hu-gyor": {"motorized"}, "so-air-1": {"air"}, "so-air-2": {"air"},
    "so-fort-sevastopol": {"combat"},
}


def test_values_other_than_faces_are_flagged_exactly_where_the_book_lacks_them(catalog: UnitCatalog) -> None:
    for uid, u in catalog.units.items():
        rv = set(bu.reconstructed_values(u))
        assert OTHER_OURS.get(uid, set()) <= rv, uid
        assert not (rv & {"ma", "quality", "motorized", "air"}) - OTHER_OURS.get(uid, set()), uid


def test_every_flagged_value_has_a_sources_line_and_every_line_a_counter(catalog: UnitCatalog) -> None:
    lines = sources_lines()
    assert len(lines) == 15
    for uid, u in catalog.units.items():
        for value in bu.reconstructed_values(u):
            assert any(value in vals and any(fnmatch.fnmatchcase(uid, g) for g in globs) for vals, globs in lines), \
                (uid, value)
    for vals, globs in lines:
        for value in vals:
            assert any(value in bu.reconstructed_values(u) and any(fnmatch.fnmatchcase(uid, g) for g in globs)
                       for uid, u in catalog.units.items()), (value, globs)


# -- broken copies ---------------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = UNITS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "units.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('factors = { quality = [4, 4] }', 'factors = { quality = [9, 9] }', "unit[0].factors.quality", "1 to 6"),
    ('factors = { quality = [0] }', 'factors = { quality = [2] }', "factors.quality", "its quality is 0"),
    ('nation = "german"', 'nation = "russian"', "unit[0].nation", "german"),
    ('reconstructed_values = ["steps", "reduced"]', 'reconstructed_values = ["looks"]',
     "unit[0].reconstructed_values[0]", "not a counter value"),
    ('air_columns = 2', 'air_columns = 0', "air_columns", "at least one column"),
    ('entry_step = 1', 'entry_step = 2', "entry_step", "one of the 2 faces"),
    ('loss_steps = 0', 'loss_steps = 1', "loss_steps", "only 0"),
    ('rebuild = "ersatz"', 'rebuild = "maybe"', "unit[0].rebuild", "any_city"),
    ('combat = 3', 'combat = -1', "ersatz.combat", "at least 0"),
])
def test_a_broken_counter_names_file_key_and_reason(tmp_path: Path, old: str, new: str, key: str,
                                                    reason: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(DataError) as exc:
        bu.check_units(path)
    assert exc.value.file == str(path)
    assert key in exc.value.key
    assert reason in exc.value.reason


def test_the_engine_refuses_a_bad_type_in_units_toml(tmp_path: Path) -> None:
    path = _broken(tmp_path, 'type = "panzer"', 'type = "tank"')
    with pytest.raises(DataError) as exc:
        load_units(path, DATA)
    assert exc.value.key.endswith(".type") and "not a axis unit type" in exc.value.reason


def test_validate_checks_this_games_keys_of_units_toml(tmp_path: Path) -> None:
    # the read_units hook runs whenever units.toml loads: validate on the file alone sees them
    from typer.testing import CliRunner

    from kiev_tui.cli import app

    folder = tmp_path / "barbarossa1941"
    folder.mkdir()
    path = _broken(tmp_path, 'entry_step = 1', 'entry_step = 2')
    moved = folder / "units.toml"
    moved.write_text(path.read_text())
    result = CliRunner().invoke(app, ["validate", str(moved)])
    assert result.exit_code == 2
    line = result.output.strip().splitlines()[-1]
    assert line.startswith(f"error: {moved}: unit[") and "entry_step" in line and "one of the 2 faces" in line
    catalog = load_units(UNITS, DATA)
    assert catalog.extra["ersatz"].unit("ge-ersatz-1").steps == ((3, 3),)
