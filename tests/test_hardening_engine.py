"""Issue 13, engine side: saves that race or fail, hostile files, and loaders that trusted too much.

Every test here failed on the code before its fix.  The racing saves have a slow twin in
test_soak.py (``make soak``); this file keeps a short race in the normal suite.
"""

from __future__ import annotations

import json
import math
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import DataError, IllegalAction
from kiev_tui.engine.events import AutosaveFailed
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex, HexError
from kiev_tui.engine.saves import enable_autosave, load_game, save_game
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.engine.tomlio import MAX_FILE_BYTES, Reader, atomic_write_text, load_toml, read_regular
from kiev_tui.games.spi_kiev.actions import Enter, Move, RailMove

from tests.conftest import MINI, ROOT

FIXTURE = MINI.parent.parent


def mini_text() -> str:
    """The mini scenario with absolute paths, so a copy works from any folder."""
    text = MINI.read_text()
    for key in ("map", "units", "tables"):
        text = text.replace(f'{key} = "{key}.toml"', f'{key} = "{(FIXTURE / f"{key}.toml").as_posix()}"')
    return text


def scenario_with(tmp_path: Path, old: str, new: str, name: str = "s.toml") -> Path:
    text = mini_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


# -- item 4: saves that race, and temp files ------------------------------------------------------

def test_a_save_leaves_another_writers_temp_file_alone(tmp_path: Path) -> None:
    """Another process is half-way through its own write of the same save: its temp file stays."""
    target = tmp_path / "g.toml"
    theirs = tmp_path / ".g.toml.otherwriter.tmp"
    theirs.write_text("half of a save")
    save_game(Game.new(MINI, seed=2), target)
    assert theirs.read_text() == "half of a save"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.toml.otherwriter.tmp", "g.toml"]


def test_a_save_named_star_deletes_no_other_file(tmp_path: Path) -> None:
    temps = [tmp_path / ".a.toml.x1.tmp", tmp_path / ".b.toml.x2.tmp"]
    for t in temps:
        t.write_text("in progress")
    atomic_write_text(tmp_path / "*", "a = 1\n")
    assert all(t.read_text() == "in progress" for t in temps)
    assert (tmp_path / "*").read_text() == "a = 1\n"


def test_a_255_character_save_name_can_be_written(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250 + ".toml")
    save_game(Game.new(MINI, seed=2), target)
    assert load_game(target).state_hash() == Game.new(MINI, seed=2).state_hash()
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temp file left behind


def test_a_rewritten_save_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "shared.toml"
    target.write_text("old = 1\n")
    target.chmod(0o640)  # group-readable in a folder shared by a group of players
    atomic_write_text(target, "new = 1\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_new_save_honours_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "new.toml", "a = 1\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.toml").stat().st_mode) == 0o640


WRITER = textwrap.dedent("""
    import json, random, sys
    sys.path.insert(0, {tests!r})
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.saves import save_game
    from test_properties import MINI, play
    game = Game.new(MINI, seed={seed})
    play(game, random.Random({seed}), {moves})  # the two players' games differ in length
    print("ready", flush=True)
    failures = []
    for i in range({saves}):
        try:
            save_game(game, {path!r})
        except Exception as exc:
            failures.append(repr(exc))
    print(json.dumps(failures), flush=True)
""")


def race(folder: Path, saves: int) -> tuple[int, int]:
    """Two processes save their own games on one path while this one reads it back.

    Returns (whole saves read, distinct games seen); fails on any write error or any read of
    something that is not a whole valid save."""
    path = folder / "shared.toml"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", WRITER.format(tests=str(ROOT / "tests"), seed=seed,
                                                                   moves=moves, saves=saves, path=str(path))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=folder)
             for seed, moves in ((31, 6), (32, 15))]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready", p.stderr.read()  # type: ignore[union-attr]
    reads, seen = 0, set()
    deadline = time.monotonic() + 600
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        if not path.exists():
            continue
        game = load_game(path)  # raises DataError on a half-written or mixed-up file
        seen.add(game.state_hash())
        reads += 1
    for p in procs:
        # Not communicate(): it reads the raw pipe and would miss the result line when
        # readline() above already pulled it into the text buffer along with "ready".
        p.wait(timeout=60)
        out, err = p.stdout.read(), p.stderr.read()  # type: ignore[union-attr]
        assert p.returncode == 0, err
        failures = json.loads(out.strip().splitlines()[-1])
        assert failures == [], f"{len(failures)} of {saves} saves failed: {failures[:3]}"
    game = load_game(path)
    seen.add(game.state_hash())
    leftovers = [p.name for p in folder.iterdir() if p.name != "shared.toml"]
    assert leftovers == [], leftovers
    return reads, len(seen)


def test_two_players_saving_on_one_path_never_fail(tmp_path: Path) -> None:
    reads, games = race(tmp_path, 80)
    assert reads >= 1
    assert games in (1, 2)


def test_a_failed_autosave_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("a file where the saves folder should be")
    game = Game.new(MINI, seed=3)
    enable_autosave(game, blocker / "autosave.toml")
    game.apply(Enter(("so-t01-rifle-1",), "1005"))
    game.apply(Enter(("so-t01-rifle-2",), "1005"))
    events = game.apply(EndPhase())
    assert isinstance(events[-1], AutosaveFailed)
    assert events[-1].path == str(blocker / "autosave.toml")
    assert events[-1].reason == "Not a directory"
    assert "autosave" in events[-1].describe().lower() and str(blocker / "autosave.toml") in events[-1].describe()
    assert game.autosave_error == events[-1].describe()
    assert game.state.phase == "combat" and len(game.log) == 3
    # The failure is not part of the game: the journal holds only the game's own events.
    assert all(not isinstance(e, AutosaveFailed) for e in game.journal)
    # Once the disk works again the next phase end saves, and the note goes away.
    blocker.unlink()
    events = game.apply(EndPhase())
    assert not any(isinstance(e, AutosaveFailed) for e in events)
    assert game.autosave_error is None
    assert load_game(blocker / "autosave.toml").state_hash() == game.state_hash()


def test_a_full_disk_during_autosave_keeps_the_old_autosave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from kiev_tui.engine import tomlio

    auto = tmp_path / "autosave.toml"
    game = Game.new(MINI, seed=3)
    enable_autosave(game, auto)
    game.apply(Enter(("so-t01-rifle-1",), "1005"))
    game.apply(Enter(("so-t01-rifle-2",), "1005"))
    game.apply(EndPhase())
    before = auto.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tomlio.os, "fsync", full)
    events = game.apply(EndPhase())
    assert isinstance(events[-1], AutosaveFailed) and "No space left" in events[-1].reason
    assert auto.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.toml"]  # its temp file is gone


def test_enable_autosave_writes_to_the_path_it_is_given(tmp_path: Path) -> None:
    """The CLI (load X) chooses the autosave path; the engine must save exactly there."""
    chosen = tmp_path / "elsewhere" / "auto-of-x.toml"
    game = Game.new(MINI, seed=3)
    enable_autosave(game, chosen)
    game.apply(Enter(("so-t01-rifle-1",), "1005"))
    game.apply(Enter(("so-t01-rifle-2",), "1005"))
    game.apply(EndPhase())
    assert game.autosave_path == chosen
    assert load_game(chosen).state_hash() == game.state_hash()


# -- item 7: only regular files, and not too large ---------------------------------------------------

CHILD_LIMITS = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # a runaway read fails, not the machine
"""


def _in_child(code: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run code in a child with a time and memory limit: a hang fails the test, not the suite."""
    return subprocess.run([sys.executable, "-c", CHILD_LIMITS + textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_a_device_is_never_read_as_data() -> None:
    out = _in_child("""
        from kiev_tui.engine.errors import DataError
        from kiev_tui.engine.tomlio import load_toml
        try:
            load_toml("/dev/zero")
        except DataError as exc:
            print(exc.line())
    """)
    assert out.stdout.strip() == "/dev/zero: not a regular file (devices, pipes and sockets are never read)", out.stderr


def test_a_fifo_given_as_a_save_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "save.toml"
    os.mkfifo(fifo)
    try:
        out = _in_child(f"""
            from kiev_tui.engine.errors import DataError
            from kiev_tui.engine.saves import load_game
            try:
                load_game({str(fifo)!r})
            except DataError as exc:
                print(exc.line())
        """, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("reading a FIFO hung")
    assert out.stdout.strip() == f"{fifo}: not a regular file (devices, pipes and sockets are never read)"


def test_a_save_whose_scenario_is_dev_zero(tmp_path: Path) -> None:
    path = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    path.write_text(path.read_text().replace(f'scenario = "{MINI}"', 'scenario = "/dev/zero"'))
    try:
        out = _in_child(f"""
            from kiev_tui.engine.errors import DataError
            from kiev_tui.engine.saves import load_game
            try:
                load_game({str(path)!r})
            except DataError as exc:
                print(exc.line())
        """, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("a save naming /dev/zero as its scenario hung")
    assert out.stdout.strip().startswith(f"{path}: save.scenario: cannot load scenario '/dev/zero': /dev/zero: not a regular file")


def test_a_file_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(DataError) as exc:
        load_toml(big)
    assert exc.value.reason == f"too large ({MAX_FILE_BYTES + 1} bytes; data and saves are at most {MAX_FILE_BYTES})"
    assert MAX_FILE_BYTES == 8 * 1024 * 1024
    ok = tmp_path / "ok.toml"
    ok.write_text("a = 1\n")
    assert read_regular(ok) == b"a = 1\n"


# -- item 8: everything wrong with a file is a DataError ---------------------------------------------

def test_an_integer_of_5000_digits_is_a_data_error(tmp_path: Path) -> None:
    path = tmp_path / "n.toml"
    path.write_text("a = " + "7" * 5000 + "\n")
    with pytest.raises(DataError) as exc:
        load_toml(path)
    assert exc.value.key == "(syntax)"
    assert exc.value.reason == "a whole number has more than 4300 digits"


def test_a_save_with_a_5000_digit_seed_is_refused(tmp_path: Path) -> None:
    path = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    path.write_text(path.read_text().replace("seed = 2", "seed = " + "9" * 5000, 1))
    with pytest.raises(DataError, match="more than 4300 digits"):
        load_game(path)


def test_a_scenario_naming_an_unknown_game(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, 'game = "spi_kiev"', 'game = "chess"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert (exc.value.key, exc.value.reason) == ("scenario.game", "no rule system for game 'chess'")


@pytest.mark.parametrize("name", ["../spi_kiev", "spi_kiev.system", "", "SPI_KIEV"])
def test_a_game_name_is_a_plain_package_name(name: str, tmp_path: Path) -> None:
    path = scenario_with(tmp_path, 'game = "spi_kiev"', f'game = "{name}"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.key == "scenario.game"


def test_an_autosave_of_an_unknown_game_is_a_data_error(tmp_path: Path) -> None:
    scen = tmp_path / "s.toml"
    scen.write_text(mini_text())
    path = save_game(Game.new(scen, seed=2), tmp_path / "autosave.toml")
    scen.write_text(mini_text().replace('game = "spi_kiev"', 'game = "chess"'))
    with pytest.raises(DataError) as exc:
        load_game(path)
    assert exc.value.key == "save.scenario" and "no rule system for game 'chess'" in exc.value.reason


# -- item 9: a scenario whose tables are missing or have no CRT -------------------------------------

def test_a_scenario_without_a_tables_file_is_refused(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, f'tables = "{(FIXTURE / "tables.toml").as_posix()}"',
                         f'tables = "{(tmp_path / "none.toml").as_posix()}"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.key == "scenario.tables"
    assert exc.value.reason == f"names {tmp_path / 'none.toml'}, which does not exist"


def test_a_scenario_whose_tables_have_no_crt_is_refused(tmp_path: Path) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text("[tec.terrain.clear]\nmp = 1\n")
    path = scenario_with(tmp_path, f'tables = "{(FIXTURE / "tables.toml").as_posix()}"',
                         f'tables = "{tables.as_posix()}"')
    with pytest.raises(DataError) as exc:
        Game.new(path)
    assert exc.value.file == str(tables) and exc.value.key == "crt" and exc.value.reason == "missing table"


# -- item 11: NaN and infinity ----------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_non_finite_numbers_are_refused_anywhere(value: str, tmp_path: Path) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text((FIXTURE / "tables.toml").read_text().replace("[tec.terrain.swamp]\nmp = 2",
                                                                   f"[tec.terrain.swamp]\nmp = {value}"))
    with pytest.raises(DataError) as exc:
        load_toml(tables)
    assert exc.value.key == "tec.terrain.swamp.mp"
    assert exc.value.reason == f"{value.lstrip('+')} is not a number this program can use (only finite numbers)"


def test_a_nan_terrain_cost_is_refused_before_a_unit_moves(tmp_path: Path) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text((FIXTURE / "tables.toml").read_text().replace("mp = 2\ndefense = 1", "mp = nan\ndefense = 1", 1))
    path = scenario_with(tmp_path, f'tables = "{(FIXTURE / "tables.toml").as_posix()}"',
                         f'tables = "{tables.as_posix()}"')
    with pytest.raises(DataError, match="tec.terrain.swamp.mp"):
        Game.new(path)


def test_reader_refuses_a_non_finite_number() -> None:
    r = Reader("f.toml", {"scale": math.inf})
    with pytest.raises(DataError) as exc:
        r.num("scale")
    assert exc.value.line() == "f.toml: scale: inf is not a number this program can use (only finite numbers)"


# -- item 13: impossible set-ups --------------------------------------------------------------------

def test_setup_unit_in_a_lake_hex(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, '"ge-inf-1" = "0203"', '"ge-inf-1" = "0909"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == f"{path}: setup.ge-inf-1: hex 0909 is a lake: no unit can stand there"


def test_setup_both_sides_in_one_hex(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, '"ge-inf-1" = "0203"', '"ge-inf-1" = "0705"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == (f"{path}: setup.so-rifle-1: hex 0705 already holds a german unit (ge-inf-1): "
                                "the two sides never share a hex")


def test_7_overstacked_start(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, '"ge-inf-1" = "0203"', '"ge-inf-1" = "0108"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == (f"{path}: setup: hex 0108 starts with 4 german combat units "
                                "(ge-1pz-1, ge-1pz-2, ge-1pz-3, ge-inf-1); the limit is 3 (7.0)")


def test_11_22_two_hqs_in_one_start_hex(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, '"so-hq-agsw" = "1003"', '"so-hq-agsw" = "0905"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == (f"{path}: setup: hex 0905 starts with 2 soviet HQs or leaders "
                                "(so-hq-agsw, so-hq-army); the limit is 1 (11.22)")


def test_setup_unit_ids_differing_only_in_case(tmp_path: Path) -> None:
    units = tmp_path / "units.toml"
    text = (FIXTURE / "units.toml").read_text()
    units.write_text(text.replace('id = "ge-inf-3"', 'id = "GE-INF-1"', 1))
    from kiev_tui.engine.units import load_units

    with pytest.raises(DataError) as exc:
        load_units(units)
    assert exc.value.key == "unit[2].id"
    assert exc.value.reason == "unit id 'GE-INF-1' differs from 'ge-inf-1' only in case"


def test_setup_front_hq_that_does_not_exist(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, 'soviet_front_hq = "so-hq-agsw"', 'soviet_front_hq = "so-hq-nobody"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == f"{path}: victory.soviet_front_hq: no unit 'so-hq-nobody' in units.toml"


def test_setup_front_hq_that_is_not_an_hq(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, 'soviet_front_hq = "so-hq-agsw"', 'soviet_front_hq = "so-rifle-1"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == f"{path}: victory.soviet_front_hq: 'so-rifle-1' is not a Soviet HQ"


@pytest.mark.parametrize("old, new, key", [
    ("city = 10", "cty = 10", "victory.cty: unknown key"),
    ('name = "1 Pz"', 'nmae = "1 Pz"', "victory.formation[0].nmae: unknown key"),
    ("margin = 30", 'margin = 30\nregiment_points = { panzer = 8, othr = 5 }', "victory.regiment_points.othr: unknown key"),
])
def test_setup_misspelt_victory_keys(old: str, new: str, key: str, tmp_path: Path) -> None:
    path = scenario_with(tmp_path, old, new)
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line().startswith(f"{path}: {key}")


@pytest.mark.parametrize("text", ["\u0660\u0662\u0660\u0663", "\uff10\uff12\uff10\uff13", "0\u0662\u0660\u0663",
                                  "0203\n", " 0203", "0203 "])
def test_setup_hex_ids_are_four_ascii_digits_and_nothing_else(text: str) -> None:
    with pytest.raises(HexError):
        Hex.parse(text)


def test_setup_hex_in_arabic_indic_digits(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, '"ge-inf-1" = "0203"', '"ge-inf-1" = "\u0660\u0662\u0660\u0663"')
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.key == "setup.ge-inf-1" and "is not a hex id" in exc.value.reason


def test_setup_real_unit_with_an_untried_units_id(tmp_path: Path) -> None:
    units = tmp_path / "units.toml"
    units.write_text((FIXTURE / "units.toml").read_text().replace('id = "so-rifle-4"', 'id = "so-t01-rifle-2"', 1))
    path = scenario_with(tmp_path, f'units = "{(FIXTURE / "units.toml").as_posix()}"', f'units = "{units.as_posix()}"')
    path.write_text(path.read_text().replace('"so-rifle-4" = "0804"\n', ""))
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.line() == (f"{path}: reinforcement[1].draw.rifle: unit id 'so-t01-rifle-2' of units.toml is "
                                "the id this draw gives its untried unit 2; rename the unit")


# -- item 14: fields that reach the state unchecked ---------------------------------------------------

def test_unchecked_rail_move_to_a_hex_id_with_a_newline_is_refused() -> None:
    game = Game.new(MINI, seed=7)
    assert game.check(RailMove(("so-tank-1",), ("0807",))) is None
    with pytest.raises(IllegalAction):
        game.apply(RailMove(("so-tank-1",), ("0807\n",)))
    assert game.state.units["so-tank-1"].hex == "0907"


def test_unchecked_move_to_a_hex_id_with_a_newline_is_refused() -> None:
    game = Game.new(MINI, seed=7)
    assert game.check(Move(("so-rifle-1",), ("0706\n",))) is not None


@pytest.mark.parametrize("key, value, reason", [
    ("turn", 9, "the save says turn 9, its replay ends in turn 1"),
    ("player", "german", "the save says german, its replay ends with soviet to play"),
    ("phase", "combat", "the save says the combat phase, its replay ends in the movement phase"),
    ("turn", "one", "expected a whole number, found str 'one'"),
    ("program", 3, "expected a string, found int 3"),
    ("saved_at", 5, "expected a string, found int 5"),
])
def test_unchecked_save_metadata_is_checked(key: str, value: object, reason: str, tmp_path: Path) -> None:
    import tomli_w
    import tomllib

    path = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    data = tomllib.loads(path.read_text())
    data["save"][key] = value
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(DataError) as exc:
        load_game(path)
    assert (exc.value.key, exc.value.reason) == (f"save.{key}", reason)


# -- item 15: echo caps, BOM ------------------------------------------------------------------------------

def test_small_an_error_line_never_echoes_a_megabyte(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(mini_text().replace('title = "', 'x' * 1_000_000 + ' = 1\ntitle = "', 1))
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    line = exc.value.line()
    assert len(line) < len(str(path)) + 400, len(line)
    assert "x" * 80 + "..." in line and "x" * 81 not in line


def test_small_a_long_hex_id_is_cut_in_its_message() -> None:
    with pytest.raises(HexError) as exc:
        Hex.parse("9" * 100_000)
    assert str(exc.value) == f"'{'9' * 80}...' is not a hex id (four digits CCRR, e.g. 0319)"


def test_nesting_by_dotted_keys_is_refused_before_anything_recurses(tmp_path: Path) -> None:
    """Dotted keys nest without limit in TOML; json (the snapshot) and deepcopy would recurse."""
    path = save_game(Game.new(MINI, seed=2), tmp_path / "g.toml")
    path.write_text(path.read_text().replace("[final.state.vars]\n",
                                             "[final.state.vars]\nx." + ".".join(["y"] * 5000) + " = 1\n", 1))
    with pytest.raises(DataError) as exc:
        load_game(path)
    assert exc.value.key.startswith("final.state.vars.x.y.y")
    assert exc.value.reason == "tables or arrays nested more than 32 deep"


def test_small_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert load_toml(path) == {"a": 1}


@pytest.mark.parametrize("name", ["x" * 300, "a\u0000b.toml"])
def test_a_scenario_naming_an_impossible_file_path(name: str, tmp_path: Path) -> None:
    path = scenario_with(tmp_path, f'map = "{(FIXTURE / "map.toml").as_posix()}"',
                         f'map = "{name}"'.replace("\u0000", "\\u0000"))
    with pytest.raises(DataError) as exc:
        load_scenario(path)
    assert exc.value.key == "scenario.map"


@pytest.mark.parametrize("ref", ["x" * 300, "a\u0000b"])
def test_an_impossible_scenario_reference(ref: str) -> None:
    with pytest.raises(DataError):
        load_scenario(ref)
