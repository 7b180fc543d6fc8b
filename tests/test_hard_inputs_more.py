"""More hard inputs: broken files through every CLI command, saves tampered with in many ways,
and saves interrupted mid-write.

The contract (as in test_bad_inputs.py): one line on stderr, ``error: <file>: <key>: <reason>``,
exit status 2, never a traceback.  Files that are still valid after a cut may load (exit 0).

Hand-made files live in tests/corpus_more/; damaged saves and truncations are made here from
a game played now, so they keep up with the engine's hashes.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any, Callable

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import enable_autosave, load_game, save_game

from test_properties import MINI, play

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus_more"
runner = CliRunner()


def one_clear_line(args: list[str], path: Path | str, fragment: str = "") -> str:
    """Run the CLI; require exit 2 and one error line naming ``path`` (and ``fragment``)."""
    result = runner.invoke(app, args)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"{args}: crashed with {result.exception!r}")
    assert result.exit_code == 2, f"{args}: exit {result.exit_code}\n{result.output}"
    err = result.stderr.strip().splitlines()
    assert len(err) == 1, f"{args}: expected one line, got {result.stderr!r}"
    assert err[0].startswith(f"error: {path}"), err[0]
    assert fragment in err[0], f"{fragment!r} not in {err[0]!r}"
    assert "Traceback" not in result.output + result.stderr
    return err[0]


def clean_or_ok(args: list[str], path: Path) -> int:
    """Exit 0, or exit 2 with one clean line naming the file; never a crash."""
    result = runner.invoke(app, args)
    if result.exit_code == 0:
        return 0
    one_clear_line(args, path)
    return 2


# -- hand-made files -----------------------------------------------------------------------------

CORPUS_CASES: dict[str, str] = {
    "empty.toml": "not a known kind of data file",
    "binary_garbage.toml": "not UTF-8 text",
    "utf16.toml": "not UTF-8 text",
    "nul_bytes.toml": "malformed TOML",
    "map_columns_huge.toml": "map.columns: must be between 1 and 99",
    "map_rows_zero.toml": "between 1 and 99",
    "map_river_not_adjacent.toml": "river[0].hexsides[0]: 0101 and 0505 are not adjacent",
    "map_river_bad_kind.toml": "river[0].kind",
    "map_exit_not_on_edge.toml": "edges.road_exits: hex 0505 is not on a map edge",
    "map_area_bad_side.toml": "areas.A.side",
    "map_lake_city.toml": "hexes.0303.settlement",
    "map_hexes_not_table.toml": "map.hexes: unknown key",
    "units_missing_units.toml": "not a known kind of data file",
    "units_rpl_step_out_of_range.toml": "unit[0].rpl_step",
    "units_negative_ma.toml": "unit[0].ma",
    "units_step_three_numbers.toml": "unit[0].steps[0]",
    "units_wrong_type_for_side.toml": "unit[0].type: 'panzer' is not a soviet unit type",
    "units_untried_without_type.toml": "untried[0].draw",
    "units_hq_not_bool.toml": "unit[0].hq: expected true or false",
    "tables_die_seven.toml": "crt.row[0].die: die roll 7 is not 1-6",
    "tables_short_row.toml": "crt.row[0].results: 2 results for 3 columns",
    "tables_bad_column.toml": "crt.columns[1]",
    "tables_row_twice.toml": "crt.row[1].die: die roll 1 appears twice",
    "scenarios/reinforcement_after_last_turn.toml": "reinforcement[0].turn: turn 9 is outside",
    "scenarios/reinforcement_wrong_side.toml": "reinforcement[0].units[0]: unit 'so-rifle-1' is not german",
    "scenarios/reinforcement_unknown_area.toml": "reinforcement[0].areas[0]: the map has no area 'Z'",
    "scenarios/unit_in_two_reinforcements.toml": "reinforcement[1].units[0]",
    "scenarios/control_off_map.toml": "control.german[1]: hex 1111 is off the map",
    "scenarios/control_unknown_side.toml": "control.romanian",
    "scenarios/first_player_unknown.toml": "scenario.first_player",
    "scenarios/zero_turns.toml": "scenario.turns",
    "scenarios/unknown_key.toml": "scenario.weather: unknown key",
    "scenarios/draw_more_than_pool.toml": "reinforcement: 50 untried rifle units are due",
    "scenarios/draw_negative.toml": "reinforcement[0].draw.rifle: count cannot be negative",
    "scenarios/setup_hex_as_number.toml": "setup.ge-inf-2: hex id must be a string",
    "scenarios/victory_points_text.toml": "victory.city: expected a whole number",
    "scenarios/victory_formation_unknown_unit.toml": "victory.formation[0].units[0]: no unit 'ge-nobody'",
    # issue 13: numbers Python or the rules cannot use
    "int_too_long.toml": "(syntax): a whole number has more than 4300 digits",
    "map_scale_inf.toml": "map.scale_km: inf is not a number this program can use",
    "tables_nan_cost.toml": "tec.terrain.swamp.mp: nan is not a number this program can use",
    "tables_tec_only.toml": "crt: missing table",
    "units_ids_differ_in_case.toml": "unit[1].id: unit id 'SO-RIFLE-9' differs from 'so-rifle-9' only in case",
    # issue 13: scenarios no game can be played from
    "scenarios/unknown_game.toml": "scenario.game: no rule system for game 'chess'",
    "scenarios/tables_file_missing.toml": "scenario.tables: names",
    "scenarios/unit_in_lake.toml": "setup.ge-inf-1: hex 0909 is a lake: no unit can stand there",
    "scenarios/both_sides_one_hex.toml": "setup.so-rifle-1: hex 0505 already holds a german unit (ge-inf-1)",
    "scenarios/overstacked_start.toml": "setup: hex 0305 starts with 4 german combat units",
    "scenarios/two_hqs_one_hex.toml": "setup: hex 0905 starts with 2 soviet HQs or leaders",
    "scenarios/front_hq_unknown.toml": "victory.soviet_front_hq: no unit 'so-hq-nobody'",
    "scenarios/victory_misspelt_key.toml": "victory.cty: unknown key",
    "scenarios/setup_hex_arabic_digits.toml": "setup.ge-inf-1: '\u0660\u0662\u0660\u0663' is not a hex id",
    "scenarios/setup_hex_with_newline.toml": "setup.ge-inf-1: '0203\\n' is not a hex id",
    "scenarios/untried_id_taken.toml": "reinforcement[0].draw.rifle: unit id 'so-t01-rifle-2' of units.toml is the id",
}

# Scenarios whose fault lies in a file they name: the error line names that file.
OTHER_FILE_CASES: dict[str, tuple[str, str]] = {
    "scenarios/tables_without_crt.toml": ("tables_tec_only.toml", "crt: missing table"),
    "scenarios/tables_with_nan.toml": ("tables_nan_cost.toml", "tec.terrain.swamp.mp: nan is not a number"),
}

# Good files in odd shapes (support/): they must validate, and the scenarios above lean on them.
SUPPORT = ["support/bom_units.toml", "support/units_with_untried_id.toml"]


@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_more_validate(name: str) -> None:
    path = CORPUS / name
    one_clear_line(["validate", str(path)], path, CORPUS_CASES[name])


@pytest.mark.parametrize("name", sorted(n for n in CORPUS_CASES if n.startswith("scenarios/")))
def test_broken_scenarios_through_new_and_script(name: str, tmp_path: Path) -> None:
    path = CORPUS / name
    one_clear_line(["new", "--scenario", str(path), "--no-ui"], path, CORPUS_CASES[name])
    acts = tmp_path / "acts.toml"
    acts.write_text('[[action]]\nkind = "end_phase"\n')
    one_clear_line(["script", str(path), str(acts)], path, CORPUS_CASES[name])


@pytest.mark.parametrize("name", ["empty.toml", "binary_garbage.toml", "utf16.toml", "nul_bytes.toml",
                                  "map_columns_huge.toml"])
@pytest.mark.parametrize("command", ["replay", "state", "load"])
def test_non_saves_given_as_saves(name: str, command: str) -> None:
    path = CORPUS / name
    one_clear_line([command, str(path)], path)


@pytest.mark.parametrize("name", sorted(OTHER_FILE_CASES))
def test_corpus_more_scenarios_naming_a_broken_file(name: str) -> None:
    other, fragment = OTHER_FILE_CASES[name]
    path = CORPUS / name
    for args in (["validate", str(path)], ["new", "--scenario", str(path), "--no-ui"]):
        one_clear_line(args, (CORPUS / other).resolve(), fragment)


@pytest.mark.parametrize("name", SUPPORT)
def test_corpus_more_support_files_are_valid(name: str) -> None:
    result = runner.invoke(app, ["validate", str(CORPUS / name)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"{CORPUS / name}: ok"


def test_every_corpus_file_has_a_case() -> None:
    on_disk = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.toml")}
    cased = set(CORPUS_CASES) | set(OTHER_FILE_CASES) | set(SUPPORT)
    assert on_disk - cased == {"scenarios/turns_huge.toml", "scenarios/missing_map_file.toml"}
    assert len(CORPUS_CASES) >= 48


def test_scenario_naming_a_missing_map_file() -> None:
    path = CORPUS / "scenarios" / "missing_map_file.toml"
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and "no_such_map.toml" in err[0] and "scenario.map" in err[0] and "does not exist" in err[0]


def test_absurd_number_of_turns_is_refused() -> None:
    path = CORPUS / "scenarios" / "turns_huge.toml"
    one_clear_line(["validate", str(path)], path, "scenario.turns")


@pytest.mark.parametrize("text", ["a = " + "[" * 5000 + "]" * 5000 + "\n", "a = " + "{b=" * 3000 + "1" + "}" * 3000 + "\n"])
def test_deeply_nested_toml(text: str, tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text)
    one_clear_line(["validate", str(path)], path, "malformed TOML")


# Scenario parameters of the wrong type: refused by validate, not left for the rules to trip on.
UNCHECKED_PARAMS = {
    "mud_turns_text": ("mud_turns = []", 'mud_turns = "x"', "scenario.mud_turns"),
    "mud_turns_number": ("mud_turns = []", "mud_turns = 1", "scenario.mud_turns"),
    "rail_units_text": ("rail_units_per_turn = 8", 'rail_units_per_turn = "eight"', "scenario.rail_units_per_turn"),
    "rail_hexes_text": ("rail_hexes = 25", 'rail_hexes = "x"', "scenario.rail_hexes"),
    "rpl_counters_text": ("rpl_counters = 1", 'rpl_counters = "x"', "scenario.rpl_counters"),
    "special_hexes_number": ('special_hexes = { "0505" = 25 }', "special_hexes = 5", "victory.special_hexes"),
    "special_hexes_text": ('special_hexes = { "0505" = 25 }', 'special_hexes = { "0505" = "x" }', "victory.special_hexes"),
}


def mini_scenario_text() -> str:
    """The mini scenario with absolute paths, so that a copy works from any folder."""
    fix = MINI.parent.parent
    text = MINI.read_text()
    for key in ("map", "units", "tables"):
        text = text.replace(f'{key} = "{key}.toml"', f'{key} = "{(fix / f"{key}.toml").as_posix()}"')
    return text


@pytest.mark.parametrize("case", sorted(UNCHECKED_PARAMS))
def test_scenario_parameters_of_the_wrong_type(case: str, tmp_path: Path) -> None:
    old, new, key = UNCHECKED_PARAMS[case]
    text = mini_scenario_text()
    assert old in text
    path = tmp_path / "scenario.toml"
    path.write_text(text.replace(old, new))
    one_clear_line(["validate", str(path)], path, key)


@pytest.mark.parametrize("case", sorted(UNCHECKED_PARAMS))
def test_scenario_parameters_of_the_wrong_type_through_new(case: str, tmp_path: Path) -> None:
    """Starting a game from such a scenario is refused the same way."""
    old, new, _ = UNCHECKED_PARAMS[case]
    path = tmp_path / "scenario.toml"
    path.write_text(mini_scenario_text().replace(old, new))
    one_clear_line(["new", "--scenario", str(path), "--no-ui"], path, UNCHECKED_PARAMS[case][2])


# -- truncations of every good file at several points -------------------------------------------

GOOD_DATA = {
    "mini_map": MINI.parent.parent / "map.toml",
    "mini_units": MINI.parent.parent / "units.toml",
    "mini_tables": MINI.parent.parent / "tables.toml",
    "kiev_map": ROOT / "data" / "spi_kiev" / "map.toml",
    "kiev_units": ROOT / "data" / "spi_kiev" / "units.toml",
    "kiev_tables": ROOT / "data" / "spi_kiev" / "tables.toml",
}
CUTS = (0.0, 0.003, 0.1, 0.37, 0.5, 0.81, 0.999)


@pytest.mark.parametrize("name", sorted(GOOD_DATA))
def test_data_files_truncated_anywhere(name: str, tmp_path: Path) -> None:
    data = GOOD_DATA[name].read_bytes()
    cuts = sorted({int(len(data) * f) for f in CUTS} | {random.Random(name).randrange(len(data)) for _ in range(4)})
    refused = 0
    for c in cuts:
        path = tmp_path / f"{name}_cut{c}.toml" if "units" not in name else tmp_path / f"c{c}" / "units.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data[:c])
        refused += clean_or_ok(["validate", str(path)], path) == 2
    assert refused >= 2  # at least the empty file and a cut inside a string are refused


@pytest.mark.parametrize("name", ["mini", "campaign"])
def test_scenarios_truncated_anywhere(name: str, tmp_path: Path) -> None:
    if name == "mini":
        data = mini_scenario_text().encode()
    else:
        src = ROOT / "data" / "spi_kiev" / "scenarios" / "campaign.toml"
        data = src.read_text().encode()
        (tmp_path / "scenarios").mkdir()
        for f in ("map.toml", "units.toml", "tables.toml"):
            (tmp_path / f).symlink_to(ROOT / "data" / "spi_kiev" / f)
    folder = tmp_path / "scenarios" if name == "campaign" else tmp_path
    for c in sorted({int(len(data) * f) for f in CUTS[1:]}):
        path = folder / f"cut{c}.toml"
        path.write_bytes(data[:c])
        if clean_or_ok(["validate", str(path)], path) == 0:
            clean_or_ok(["new", "--scenario", str(path), "--no-ui"], path)  # a valid cut must also start


# -- saves: a real game, damaged in many ways ------------------------------------------------------

@pytest.fixture(scope="module")
def good_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A mini game with moves, entries and (once combat is in) battles, saved."""
    for seed in range(21, 60):
        game = Game.new(MINI, seed=seed)
        play(game, random.Random(seed), 45)
        if game.rolls and len(game.log) > 12:  # a battle was fought, so the dice matter
            break
    path = tmp_path_factory.mktemp("saves") / "good.toml"
    save_game(game, path)
    return path


def edited(save: Path, folder: Path, name: str, change: Callable[[dict[str, Any]], None]) -> Path:
    data = tomllib.loads(save.read_text())
    change(data)
    out = folder / f"{name}.toml"
    out.write_text(tomli_w.dumps(data))
    return out


def _move_a_unit(d: dict[str, Any]) -> None:
    units = d["final"]["state"]["units"]
    uid = next(u for u, s in sorted(units.items()) if s["status"] == "map")
    units[uid]["hex"] = "0101" if units[uid]["hex"] != "0101" else "0102"


def _second_place(d: dict[str, Any]) -> None:
    units = d["final"]["state"]["units"]
    uid = next(u for u, s in sorted(units.items()) if s["status"] == "eliminated" or s["status"] == "pending")
    units[uid]["hex"] = "0505"


def _illegal_first(d: dict[str, Any]) -> None:
    # A German unit moving in the Soviet player's first phase.
    d["action"].insert(0, {"kind": "move", "units": ["ge-inf-1"], "path": ["0303"], "hash": "0" * 16})


def _swap(d: dict[str, Any]) -> None:
    a = d["action"]
    i = next(k for k in range(len(a) - 1) if a[k]["kind"] != a[k + 1]["kind"])
    a[i], a[i + 1] = a[i + 1], a[i]


def _nested(depth: int) -> dict[str, Any]:
    inner: dict[str, Any] = {"y": 1}
    for _ in range(depth):
        inner = {"y": inner}
    return inner


def _off_map_path(d: dict[str, Any]) -> None:
    move = next(a for a in d["action"] if a["kind"] == "move")
    move["path"] = list(move["path"][:-1]) + ["9999"]


SAVE_EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "move_off_the_map": (_off_map_path, "the replay refuses this"),
    "action_hash_tampered": (lambda d: d["action"][3].update(hash="0123456789abcdef"), "action 4: the replay diverges"),
    "final_hash_tampered": (lambda d: d["final"].update(hash="0123456789abcdef"), "final.hash"),
    "snapshot_unit_moved": (_move_a_unit, "final.state"),
    "snapshot_unit_in_two_states": (_second_place, "final.state"),
    "snapshot_turn_text": (lambda d: d["final"]["state"].update(turn="one"), "final.state"),
    "illegal_action_inserted": (_illegal_first, "action 1: the replay refuses this"),
    "actions_swapped": (_swap, "action "),
    "action_removed": (lambda d: d["action"].pop(2), "action "),
    "action_unknown_key": (lambda d: d["action"][0].update(speed=3), "action 1.speed: unknown key"),
    "action_units_not_list": (lambda d: d["action"][0].update(units="so-rifle-1"), "action 1.units: expected an array"),
    "action_kind_missing": (lambda d: d["action"][1].pop("kind"), "action 2.kind"),
    "action_kind_unknown": (lambda d: d["action"][1].update(kind="airdrop"), "action 2.kind: unknown action 'airdrop'"),
    "rules_other": (lambda d: d["save"].update(rules="efs_ktr"), "save.rules"),
    "rules_version_newer": (lambda d: d["save"].update(rules_version="99"), "save.rules_version"),
    "scenario_missing": (lambda d: d["save"].update(scenario="spi_kiev/no_such_scenario"), "save.scenario"),
    "scenario_number": (lambda d: d["save"].update(scenario=7), "save.scenario: expected a string"),
    "seed_changed": (lambda d: d["save"].update(seed=d["save"]["seed"] + 1), "replay diverges"),
    "seed_huge": (lambda d: d["save"].update(seed=10**30), "replay diverges"),
    "scenario_is_garbage": (lambda d: d["save"].update(scenario=str(CORPUS / "binary_garbage.toml")),
                            "save.scenario: cannot load scenario"),
    "seed_text": (lambda d: d["save"].update(seed="1941"), "save.seed: expected a whole number"),
    "seed_bool": (lambda d: d["save"].update(seed=True), "save.seed: expected a whole number, found a boolean"),
    "format_huge": (lambda d: d["save"].update(format=2**62), "save.format"),
    "final_missing": (lambda d: d.pop("final"), "final: missing table"),
    "final_rolls_text": (lambda d: d["final"].update(rolls="many"), "final.rolls"),
    "save_unknown_key": (lambda d: d["save"].update(author="me"), "save.author: unknown key"),
    "top_unknown_key": (lambda d: d.update(cheats={"on": True}), "cheats: unknown key"),
    "actions_not_tables": (lambda d: d.update(action=[1, 2]), "action: expected an array of tables"),
    # issue 13
    "scenario_dev_zero": (lambda d: d["save"].update(scenario="/dev/zero"),
                          "save.scenario: cannot load scenario '/dev/zero': /dev/zero: not a regular file"),
    "scenario_of_unknown_game": (lambda d: d["save"].update(scenario=str(CORPUS / "scenarios" / "unknown_game.toml")),
                                 "no rule system for game 'chess'"),
    "header_turn_wrong": (lambda d: d["save"].update(turn=d["save"]["turn"] + 5), "save.turn: the save says turn"),
    "header_player_wrong": (lambda d: d["save"].update(player="nobody"), "save.player: the save says nobody"),
    "header_phase_number": (lambda d: d["save"].update(phase=3), "save.phase: expected a string"),
    "header_program_number": (lambda d: d["save"].update(program=1), "save.program: expected a string"),
    "snapshot_nan": (lambda d: d["final"]["state"]["vars"].update(rpl_left=math.nan),
                     "final.state.vars.rpl_left: nan is not a number"),
    "move_to_hex_with_newline": (lambda d: next(a for a in d["action"] if a["kind"] == "move")["path"].append("0101\n"),
                                 "the replay refuses this"),
    "vars_nested_200_deep": (lambda d: d["final"]["state"]["vars"].update(x=_nested(200)),
                             "final.state.vars.x.y.y"),
    "huge_unknown_key": (lambda d: d["save"].update({"k" * 100_000: 1}), "save." + "k" * 80 + "...: unknown key"),
}


# Every damage through replay; state and load (same loader, other faces) on every third one.
TAMPER_RUNS = [(c, "replay") for c in sorted(SAVE_EDITS)] + [
    (c, cmd) for i, c in enumerate(sorted(SAVE_EDITS)) for cmd in ("state", "load") if i % 3 == (cmd == "load")]


@pytest.mark.parametrize("case, command", TAMPER_RUNS)
def test_tampered_saves(case: str, command: str, good_save: Path, tmp_path: Path) -> None:
    change, fragment = SAVE_EDITS[case]
    path = edited(good_save, tmp_path, case, change)
    before = path.read_bytes()
    one_clear_line([command, str(path)], path, fragment)
    assert path.read_bytes() == before  # a refused save is never rewritten


def test_the_good_save_itself_loads(good_save: Path) -> None:
    result = runner.invoke(app, ["replay", str(good_save)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["state", "--json", str(good_save)])
    assert result.exit_code == 0 and json.loads(result.stdout)["hash"] == load_game(good_save).state_hash()


def test_saves_truncated_anywhere(good_save: Path, tmp_path: Path) -> None:
    data = good_save.read_bytes()
    journal_at = data.find(b"[journal]")
    cuts = sorted({int(len(data) * f) for f in (0.0, 0.02, 0.2, 0.5, 0.7, 0.9, 0.97, 0.999)}
                  | {random.Random(3).randrange(len(data)) for _ in range(8)})
    for c in cuts:
        path = tmp_path / f"cut{c}.toml"
        path.write_bytes(data[:c])
        code = clean_or_ok(["replay", str(path)], path)
        if journal_at < 0 or c < journal_at:
            assert code == 2, f"a save cut at byte {c} of {len(data)} was accepted"


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_binary_garbage_inside_a_save(where: str, good_save: Path, tmp_path: Path) -> None:
    data = good_save.read_bytes()
    junk = bytes(random.Random(where).randrange(256) for _ in range(64))
    at = {"start": 0, "middle": len(data) // 2, "end": len(data)}[where]
    path = tmp_path / f"junk_{where}.toml"
    path.write_bytes(data[:at] + junk + data[at:])
    one_clear_line(["replay", str(path)], path)


@pytest.mark.parametrize("body, fragment", [
    ('[[action]]\nkind = "teleport"\n', "action 1.kind: unknown action 'teleport'"),
    ('[[action]]\nkind = "move"\nunits = "so-rifle-1"\npath = ["0706"]\n', "action 1.units"),
    ('[[action]]\nkind = "move"\nunits = ["so-rifle-1"]\n', "action 1.path: missing"),
    ('action = 3\n', "action: expected an array of tables"),
    ('[[action]]\nkind = "end_phase"\nnow = true\n', "action 1.now: unknown key"),
    ('moves = []\n', "moves: unknown key"),
    ('[[action]\nkind = "end_phase"\n', "malformed TOML"),
])
def test_broken_action_scripts(body: str, fragment: str, tmp_path: Path) -> None:
    acts = tmp_path / "acts.toml"
    acts.write_text(body)
    one_clear_line(["script", str(MINI), str(acts)], acts, fragment)


def test_script_of_binary_garbage(tmp_path: Path) -> None:
    acts = tmp_path / "acts.toml"
    acts.write_bytes(bytes(range(256)) * 4)
    one_clear_line(["script", str(MINI), str(acts)], acts, "not UTF-8 text")


def test_a_folder_with_several_broken_files_gives_one_line_each(tmp_path: Path) -> None:
    for name in ("map_lake_city.toml", "units_negative_ma.toml", "tables_die_seven.toml", "binary_garbage.toml"):
        (tmp_path / name).write_bytes((CORPUS / name).read_bytes())
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith(f"error: {tmp_path}") for line in lines)


# -- saves interrupted mid-write, and the autosave -------------------------------------------------

def _child(code: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_a_save_killed_mid_write_leaves_the_previous_save(good_save: Path, tmp_path: Path) -> None:
    target = tmp_path / "game.toml"
    target.write_bytes(good_save.read_bytes())
    before = target.read_bytes()
    child = _child(f"""
        import os, sys, time, random
        sys.path.insert(0, {str(ROOT / 'tests')!r})
        from kiev_tui.engine import tomlio
        from kiev_tui.engine.saves import load_game, save_game
        from test_properties import play
        game = load_game({str(target)!r})
        play(game, random.Random(5), 10)
        def stalled_fsync(fd):
            # Half the new save is on disk when the process dies.
            print("writing", flush=True)
            time.sleep(60)
        tomlio.os.fsync = stalled_fsync
        save_game(game, {str(target)!r})
        print("finished", flush=True)
    """, tmp_path)
    try:
        line = child.stdout.readline().strip()  # type: ignore[union-attr]
        assert line == "writing", child.stderr.read()  # type: ignore[union-attr]
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert target.read_bytes() == before, "the previous save was damaged by an interrupted write"
    leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(".game.toml.")]
    assert leftovers, "the write should have been going on in a temporary file"
    assert load_game(target).state_hash() == load_game(good_save).state_hash()
    result = runner.invoke(app, ["replay", str(target)])
    assert result.exit_code == 0, result.output


def test_the_autosave_resumes_from_the_last_phase_end(tmp_path: Path) -> None:
    autosave = tmp_path / "saves" / "autosave.toml"
    child = _child(f"""
        import os, random, signal, sys, json
        sys.path.insert(0, {str(ROOT / 'tests')!r})
        from kiev_tui.engine.actions import EndPhase
        from kiev_tui.engine.game import Game
        from kiev_tui.engine.saves import enable_autosave
        from test_properties import random_step
        game = Game.new({str(MINI)!r}, seed=8)
        enable_autosave(game, {str(autosave)!r})
        rng = random.Random(8)
        ends, mark, moved_since = 0, None, 0
        while True:
            act = random_step(game, rng, end_bias=0.15)
            if isinstance(act, EndPhase):
                ends += 1
                mark = (game.state_hash(), len(game.log), str(game.phase))
                moved_since = 0
            else:
                moved_since += 1
            if ends >= 3 and moved_since >= 2:
                break
        print(json.dumps(mark), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # the power goes out in the middle of a phase
    """, tmp_path)
    out, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    want_hash, want_len, want_phase = json.loads(out.strip().splitlines()[-1])
    game = load_game(autosave)
    assert game.state_hash() == want_hash and len(game.log) == want_len and str(game.phase) == want_phase
    play(game, random.Random(1), 20)  # and play goes on from there
    # The CLI finds the same autosave when asked to play on.
    result = runner.invoke(app, ["state", "--json", str(autosave)])
    assert result.exit_code == 0 and json.loads(result.stdout)["hash"] == want_hash


def test_autosave_is_written_only_at_phase_ends(tmp_path: Path) -> None:
    game = Game.new(MINI, seed=3)
    path = tmp_path / "auto.toml"
    enable_autosave(game, path)
    rng = random.Random(3)
    from test_properties import random_step
    from kiev_tui.engine.actions import EndPhase

    for _ in range(30):
        if game.state.over:
            break
        act = random_step(game, rng)
        if isinstance(act, EndPhase):
            assert load_game(path).state_hash() == game.state_hash()
        elif path.exists():
            assert len(tomllib.loads(path.read_text()).get("action", [])) < len(game.log)
