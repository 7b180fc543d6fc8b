"""Barbarossa 1941's face says the game's own words: unit names with nation, type and
formation; combat-quality-movement, steps and MP; isolated units marked; the weather of each
zone in the tracker; map glyphs for every terrain and hexside feature; help naming the cases."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kiev_tui.engine.game import Game
from kiev_tui.engine.registry import get_adapter, get_plain, get_system
from kiev_tui.games.barbarossa1941.face import text
from kiev_tui.games.barbarossa1941.face.glyphs import B41_SYMBOLS
from kiev_tui.games.barbarossa1941.system import ISOLATED
from kiev_tui.plain.session import PlainSession
from kiev_tui.ui.adapter import Overlay
from kiev_tui.ui.glyphs import ASCII
from tests.b41_system_helpers import new_game

ROOT = Path(__file__).resolve().parent.parent


def historical() -> Game:
    return new_game("barbarossa1941/historical", 1)


def test_unit_names_say_nation_type_and_formation() -> None:
    g = historical()
    assert text.unit_name(g, "ge-ak-23") == "XXIII Army Corps"
    assert text.unit_kind(g, "ge-ak-23") == "German infantry, Army Group North"
    assert text.unit_kind(g, "fi-c-6") == "Finnish infantry, Finland"
    assert text.type_letter("panzer", "axis") == "P" and text.type_letter("mechanized", "soviet") == "m"
    assert get_plain("barbarossa1941").unit_lines(g, "ge-ak-23") == [
        "XXIII Army Corps 3-4-3 steps 2/2 MP 3", "   German infantry, Army Group North; may still act"]


def test_a_reduced_unit_shows_its_steps_and_mp_spent() -> None:
    g = historical()
    g.state.units["ge-ak-23"].step = 1
    g.state.vars.spent["ge-ak-23"] = 2
    assert text.unit_line(g, "ge-ak-23") == "XXIII Army Corps 2-4-3 steps 1/2 MP 1"


def test_an_isolated_unit_is_named_so_and_marked_on_the_map() -> None:
    g = historical()
    g.state.units["ge-ak-23"].markers.add(ISOLATED)
    g.version += 1  # the position changed: the rules read it again
    adapter = get_adapter("barbarossa1941")
    supply = adapter.supply(g)
    assert text.unit_line(g, "ge-ak-23", supply).endswith(" isolated")
    h = g.scenario.map.grid.parse("0112")
    assert adapter.hex_looks(g, supply, Overlay(), ASCII)[h].mark == ASCII.oos
    other = g.scenario.map.grid.parse(str(g.state.units["ge-ak-1"].hex))
    assert adapter.hex_looks(g, supply, Overlay(), ASCII)[other].mark == ""


def test_tracker_gives_each_zones_weather_and_the_segments() -> None:
    g = new_game("barbarossa1941/typhoon", 1)  # turn 5: mud in the north, clear in the south
    lines = text.tracker_lines(g)
    assert lines[0].startswith("Turn 5 of 10, ")
    assert lines[1] == "Weather: north mud, south clear"
    assert lines[2].startswith("Axis victory points: ")
    assert any(line.startswith("Axis: [ISOLATION]") for line in lines)
    assert any(line.startswith("Soviet: ") for line in lines)
    assert "then: victory check" in lines


def test_inspector_gives_zone_weather_hexsides_and_markers() -> None:
    g = historical()
    gmap = g.scenario.map
    g.state.hex_markers["0116"] = ["rail_marker"]
    lines = text.hex_lines(g, gmap.grid.parse("0116"))
    assert lines[1] == "North zone, weather: clear" or lines[1] == "South zone, weather: clear"
    assert any(line.startswith("major river toward ") for line in lines)
    assert lines[-1] == "Markers: rail marker"
    inspector = get_adapter("barbarossa1941").inspector_lines(g, gmap.grid.parse("0112"), None, ("ge-ak-23",))
    assert inspector[1] == "Axis stack of 3 (keys 1-3 pick):"
    assert inspector[2] == "1*XXIII Army Corps 3-4-3 steps 2/2 MP 3"


def test_every_terrain_and_hexside_feature_has_its_glyph() -> None:
    schema = get_system("barbarossa1941").schema
    assert set(B41_SYMBOLS.fills) == set(schema.terrains) - {"clear"}
    assert set(B41_SYMBOLS.sides) == {"major_river", *schema.hexside_features}
    # a lake hexside is drawn as the lake's own fill; nothing else is drawn alike
    assert B41_SYMBOLS.sides["lake"].ascii == B41_SYMBOLS.fills["lake"].ascii
    chars = [f.ascii for f in B41_SYMBOLS.fills.values()] + [m.ascii for k, m in B41_SYMBOLS.sides.items()
                                                              if k != "lake"]
    assert len(set(chars)) == len(chars)
    wide = [f.unicode for f in B41_SYMBOLS.fills.values()] + [m.unicode for k, m in B41_SYMBOLS.sides.items()
                                                                if k != "lake"]
    assert len(set(wide)) == len(wide)  # the same in the Unicode set
    assert not set(chars) & {ASCII.reach, ASCII.path, ASCII.rail_reach, ASCII.oos, ASCII.zoc} - {"+"}


def test_help_names_the_cases_of_each_phase() -> None:
    g = historical()
    assert text.phase_help(g).startswith("Movement (5, 5.1)")
    assert text.rules_cases(g) == ["5.1", "4", "7"]
    s = PlainSession(g, 100)
    out = s.handle("phase")
    assert out[0].startswith("Movement (5, 5.1)") and "Weather: north clear, south clear" in out
    assert "Cases: 5.1, 4, 7" in out


def test_plain_mode_with_the_face_never_imports_textual(tmp_path: Path) -> None:
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('TEXTUAL', 'textual' in sys.modules))\n"
        "sys.argv = ['kiev-tui'] + sys.argv[1:]\n"
        "from kiev_tui.cli import main\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIEV_TUI_SAVES": str(tmp_path / "saves"), "KIEV_TUI_PLAYER": "t"}
    # the Axis set-up prompt comes first (15): its option that keeps every remaining default hex
    first = Game.new("barbarossa1941/historical", seed=3)
    setup = first.rules.prompt(first)
    keep = 1 + next(i for i, o in enumerate(setup.options) if o.verb == "setup_defaults")
    res = subprocess.run([sys.executable, "-c", probe, "play", "--plain", "--no-resume", "--seed", "3",
                          "barbarossa1941/historical"], input=f"pick {keep}\nphase\nstack 0112\nquit\ny\n",
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Weather: north clear, south clear" in out and "Movement (5, 5.1)" in out
    assert "XXIII Army Corps 3-4-3 steps 2/2 MP 3" in out and "TEXTUAL False" in out, out[-600:]


def test_air_corps_and_forts_show_what_they_are_rated_by() -> None:
    g = historical()
    air = next(u for u, d in g.scenario.catalog.units.items() if d.type == "air" and d.side == "axis")
    d = g.scenario.catalog.units[air]
    assert text.unit_line(g, air) == (f"{d.extra['name']} air {d.extra['air_columns']} columns, "
                                      f"range {d.extra['air_range']}")
    assert text.unit_line(g, "ge-fort-1") == "German field fortification 1 0-0-0, static, die +1"


def test_the_supply_modules_answer_names_a_unit_out_of_supply() -> None:
    # what the face shows once rules.supply gives supply.supply's answer (8): a corps set down
    # beside Moscow, deep behind the Soviet armies, traces to no Axis source
    import dataclasses

    from kiev_tui.games.barbarossa1941 import supply
    from kiev_tui.games.barbarossa1941.system import board_of

    g = historical()
    board = board_of(g)
    moscow = board.gmap.find("Moscow")
    beside = next(h for h in board.gmap.neighbours(moscow) if not board.at(h) and board.gmap.terrain(h) != "sea")
    lost = dataclasses.replace(board, hex_of={**board.hex_of, "ge-ak-23": beside})
    answer = supply.supply(lost)
    assert text.supply_word(answer, "ge-ak-23") == "out of supply"
    assert text.supply_word(answer, "fi-c-6") == ""  # Finland's own rail reaches Karelia (SOURCES.md)
    assert text.unit_line(g, "ge-ak-23", answer).endswith(" out of supply")


def test_every_phase_of_the_sequence_has_help_citing_its_cases() -> None:
    g = historical()
    phases = {ph.id for seg in g.rules.sequence.segments for ph in seg.phases}
    assert phases <= set(text.PHASE_HELP) and phases <= set(text.RULES_BY_PHASE)
    for phase in phases:
        help_text = text.PHASE_HELP[phase]
        assert all(case in help_text for case in text.RULES_BY_PHASE[phase]), phase
    assert text.RULES_BY_PHASE["partisans"] == ["12.7"]


def test_plain_mode_with_the_face_plays_a_game_turn() -> None:
    from tests.ui.b1941_drive import plain_game_turn

    g = new_game("barbarossa1941/historical", 7)
    s = PlainSession(g, 100, pause=True)
    assert s.face is get_plain("barbarossa1941")
    played, shown = plain_game_turn(s)
    assert g.state.turn == 2 and played.attacks >= 1 and played.prompts and played.handoffs >= 2
    assert "Weather: north clear, south clear" in shown  # the tracker shown at each hand-over
    assert any(line.startswith("T1 ") or "Soviet player's turn" in line for line in shown)
