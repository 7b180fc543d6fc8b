"""Issue 20, what a new player stumbled on (second part): choices shown on the map, 80x24
complete, the score during play, reach costs under stacks, text glitches."""

from __future__ import annotations

from textual.widget import Widget

from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import combat
from kiev_tui.games.spi_kiev.common import View
from kiev_tui.games.spi_kiev.face import present
from kiev_tui.ui.app import build_app
from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen, unit_label
from kiev_tui.ui.dialogs import ConfirmScreen, HandoffScreen, TextScreen
from kiev_tui.ui.glyphs import ASCII
from kiev_tui.ui.hexmap import HexLook, HexMap, MapPainter

from tests.conftest import position
from tests.ui.helpers import game_screen, goto, keys, new_mini, screen_text

SIZE = (120, 40)


def on_screen(app, widget: Widget) -> bool:
    """The widget is shown and at least 20x8 cells of it lie inside the terminal."""
    region = widget.region.intersection(app.screen.region)
    return widget.display and region.width >= 20 and region.height >= 8


def marked(hexmap: HexMap, glyph: str) -> list[str]:
    """Hexes whose overlay text starts with a glyph, in the order of the number after it."""
    found = [(look.reach, str(h)) for h, look in hexmap.painter.looks.items() if look.reach.startswith(glyph)]
    return [h for _, h in sorted(found)]


def framed(hexmap: HexMap, frame: str) -> list[str]:
    return sorted(str(h) for h, look in hexmap.painter.looks.items() if look.frame == frame)


def attack_game():
    # seed 1: a 1-hex retreat for the rifle division, with two paths (0504 and 0505)
    return position(new_mini(seed=1), {"ge-inf-1": "0304", "ge-inf-2": "0305", "so-rifle-3": "0404"},
                    player="german", phase="combat", reinforcements=False)


async def press(pilot, *presses: str) -> None:
    """Keys, each followed by whatever hand-over of the keyboard it caused (hot-seat)."""
    for key in presses:
        await keys(pilot, key)
        while isinstance(pilot.app.screen, HandoffScreen):
            await keys(pilot, "space")


async def plan_attack(pilot) -> None:
    for h in ("0304", "0305", "0404"):
        await goto(pilot, h)
        await keys(pilot, "enter")


# -- 2: dialogs leave the map visible and show the choice on it --------------------------------

async def test_combat_preview_leaves_the_map_visible_with_attackers_and_target_marked() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await keys(pilot, "c")
        assert isinstance(app.screen, ConfirmScreen)
        hexmap = app.screen.query_one(HexMap)
        assert on_screen(app, hexmap)
        assert framed(hexmap, "(") == ["0304", "0305"]
        assert framed(hexmap, ">") == ["0404"]
        assert "Odds column: 2-1" in screen_text(app)  # the preview is still all there


async def test_retreat_dialog_highlights_the_path_under_the_list_cursor() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y")
        assert isinstance(app.screen, PendingScreen)
        hexmap = app.screen.query_one(HexMap)
        assert on_screen(app, hexmap)  # the loss-or-retreat choice: the battle is on the map
        assert framed(hexmap, ">") == ["0404"] and framed(hexmap, "(") == ["0304", "0305"]
        await press(pilot, "R")
        assert game.state.pending["kind"] == "retreat"
        assert combat.retreat_options(game) == {"so-rifle-3": [("0504",), ("0505",)]}
        hexmap = app.screen.query_one(HexMap)
        assert on_screen(app, hexmap)
        g = app.glyphs
        assert marked(hexmap, g.path) == ["0504"]
        assert f"{g.path}1" in screen_text(app)  # drawn, not only stored
        await keys(pilot, "down")
        assert marked(hexmap, g.path) == ["0505"]
        await keys(pilot, "up")
        assert marked(hexmap, g.path) == ["0504"]
        await keys(pilot, "enter")
        assert game.state.units["so-rifle-3"].hex == "0504"


async def test_advance_dialog_highlights_the_advance_under_the_list_cursor() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R", "enter")
        assert game.state.pending["kind"] == "advance"
        hexmap = app.screen.query_one(HexMap)
        assert on_screen(app, hexmap)
        assert marked(hexmap, app.glyphs.path) == ["0404"]


async def test_the_dialog_map_fits_beside_the_list_at_80x24() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R")
        hexmap = app.screen.query_one(HexMap)
        assert on_screen(app, hexmap)
        assert "0504" in screen_text(app)  # the list itself is still on the screen


# -- reach markers under a friendly stack show the cost ----------------------------------------

def test_reach_under_a_friendly_stack_shows_the_cost_not_the_steps() -> None:
    game = new_mini()
    painter = MapPainter(game.scenario.map, ASCII)
    painter.looks = {Hex(3, 3): HexLook(letter="r", strength="2-2", count=2, steps=2, side="soviet", reach="+4")}
    bottom = "".join(ch for ch, _ in painter._bottom(Hex(3, 3)))
    assert bottom == "+4_2"  # cost 4, then the number of units; the steps are in the inspector


# -- 6: the score as it stands ------------------------------------------------------------------

def test_tracker_shows_the_victory_points_as_they_stand() -> None:
    game = position(new_mini(), {"so-rifle-1": "0808", "ge-inf-1": "0202"}, reinforcements=False)
    lines = present.tracker_lines(game)
    assert "VP: German 10, Soviet 30 (v)" in lines


def test_score_text_lists_points_holders_and_losses() -> None:
    game = position(new_mini(), {"so-rifle-1": "0808", "ge-inf-1": "0202"}, reinforcements=False)
    game.state.units["ge-inf-2"].status = "eliminated"
    game.state.units["so-rifle-3"].status = "eliminated"
    game.touch()
    text = "\n".join(present.score_now_lines(View(game)))
    assert "German 11 VP, Soviet 35 VP" in text
    assert "0202 Westburg (city): German, 10 VP" in text
    assert "0505 Testgrad (city): Soviet, 25 VP" in text
    assert "0805 Eastville (town): Soviet, 5 VP" in text
    assert "German units eliminated: 1" in text
    assert "Soviet units eliminated: 1" in text


async def test_v_shows_the_score_during_play() -> None:
    game = position(new_mini(), {"so-rifle-1": "0808", "ge-inf-1": "0202"}, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "v")
        assert isinstance(app.screen, TextScreen)
        text = screen_text(app)
        assert "German 10 VP, Soviet 30 VP" in text
        assert "0505 Testgrad (city): Soviet, 25 VP" in text
        await keys(pilot, "escape")
        assert "VP: German 10, Soviet 30 (v)" in screen_text(app)


# -- 5: at 80x24 every fact of the inspector can be read -----------------------------------------

async def test_80x24_inspector_wide_shows_strengths_and_supply() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "so-t01-rifle-1": "0804", "so-hq-army": "0805",
                                 "ge-inf-1": "0202"}, player="soviet", turn=2, reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await goto(pilot, "0804")
        await keys(pilot, "I")
        text = screen_text(app)
        assert "Soviet: fights 6-8 + ?-?, in supply, HQ 5 Army" in text  # both units' supply, said once
        assert "1 r 104 rifle XX 6-8-6" in text and "1 step, fights 6-8" in text
        assert "2 r untried rifle XX ?-?-6" in text and "untried (13.0), fights ?-?" in text
        await keys(pilot, "I")
        assert on_screen(app, game_screen(app).query_one(HexMap))  # and back to the map


# -- text glitches ------------------------------------------------------------------------------

def test_untried_unit_label_names_its_type_once() -> None:
    game = position(new_mini(), {"so-t01-rifle-1": "0804", "ge-inf-1": "0202"}, player="soviet", turn=2,
                    reinforcements=False)
    label = unit_label(game, "so-t01-rifle-1")
    assert "rifle rifle" not in label
    assert label == "untried rifle XX"


# -- docs/SCRIPT.md: the example is what `kiev-tui script` really prints ----------------------------

def test_script_doc_example_runs_as_documented(tmp_path) -> None:
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "SCRIPT.md").read_text()
    example = doc[doc.index("## An example"):]
    actions = re.search(r"```toml\n(.*?)```", example, re.S).group(1)
    shell = re.search(r"```\n\$ kiev-tui (script .*?)\n(.*?)```", example, re.S)
    argv, expected = shell.group(1).split(), shell.group(2)
    (tmp_path / "first.toml").write_text(actions)
    argv = [a if a.endswith("first.toml") else (str(root / a) if a.startswith("tests/") else a) for a in argv]
    done = subprocess.run([sys.executable, "-m", "kiev_tui", *argv], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == expected


# -- the first install: no setuptools banner about project.license ---------------------------------

def test_pyproject_license_is_an_spdx_string_with_a_setuptools_that_reads_it() -> None:
    import tomllib
    from pathlib import Path

    data = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"  # a table here is what setuptools warns about
    assert "setuptools>=77" in data["build-system"]["requires"]  # 77 is the first to take the string


def test_readme_command_table_names_ascii_and_the_script_format() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `kiev-tui ")]
    assert any("--ascii" in line for line in table)  # not only in `play --help`
    assert any(line.startswith("| `kiev-tui script") and "docs/SCRIPT.md" in line for line in table)


# -- the CRT in the rules screen reads as a table at 120 columns ---------------------------------

async def test_crt_in_the_rules_screen_is_a_table_at_120_columns() -> None:
    import re

    from kiev_tui.ui.rules_screen import RulesScreen

    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(RulesScreen(game="spi_kiev", initial="9.5"))
        await pilot.pause()
        text = screen_text(app)
        assert "9.5  Combat Results Table" in text
        header = [line for line in text.splitlines() if re.search(r"Die\s*\|\s*1-3", line)]
        assert len(header) == 1 and "10-1" in header[0]  # every odds column whole, on one line
        pane = [line.split("||", 1)[1] for line in text.splitlines() if "||" in line]  # the case pane
        rows = [[c.strip() for c in line.strip(" |▁▂▃▄▅▆▇█").split("|")[1:]] for line in pane
                if re.match(r"\s+[1-6]\s+\|", line)]
        assert rows and all(len(r) == 12 for r in rows)  # twelve results a die row, none folded
        assert rows[0][:3] == ["1/-", "1/1", "-/1"] and rows[0][-1] == "-/E"
        # the rows below the fold, drawn at the width the case pane has
        from rich.console import Console

        from kiev_tui.rulesref.render import render_case

        width = app.screen.query_one("#rules-case-text").content_region.width
        console = Console(width=width, record=True, color_system=None)
        console.print(render_case(app.screen.book.get("9.5")))
        lines = console.export_text().splitlines()
        rows = [[c.strip() for c in line.split("|")[1:]] for line in lines if re.match(r"\s+[1-6]\s+\|", line)]
        assert [len(r) for r in rows] == [12] * 6
        assert rows[5] == ["E/-", "3/-", "2/-", "2/-", "1/-", "eng", "1/1", "-/1", "-/1", "-/2", "-/2", "-/2"]


# -- place names: never two alike, still shown under a stack, one legend everywhere -----------------

def test_short_names_never_repeat() -> None:
    from kiev_tui.ui.glyphs import short_names

    places = {"a": ("Chernigov", "city"), "b": ("Cherkassy", "town"), "c": ("Boryspil", "town"),
              "d": ("Borzna", "town"), "e": ("Kiev", "city")}
    assert short_names(places, 4) == {"a": "CHRN", "b": "chrk", "c": "bory", "d": "borz", "e": "KIEV"}
    assert short_names(places, 3) == {"a": "CHN", "b": "chk", "c": "brs", "d": "brz", "e": "KIE"}


def test_chernigov_and_cherkassy_differ_on_the_map() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.hexmap import COMPACT

    gmap = Game.new("spi_kiev/campaign", 1).scenario.map
    chernigov, cherkassy = gmap.find("Chernigov"), gmap.find("Cherkassy")
    gmap.settlement_of[cherkassy] = "town"  # as a town, it would share CHER with Chernigov
    painter = MapPainter(gmap, ASCII)
    inside = lambda h: "".join(ch for ch, _ in painter._plain_inside(h))  # noqa: E731
    assert (inside(chernigov), inside(cherkassy)) == ("CHRN", "chrk")
    painter.zoom = COMPACT
    assert painter.short[3][chernigov] != painter.short[3][cherkassy]
    everywhere = list(painter.short[4].values())
    assert len({n.lower() for n in everywhere}) == len(everywhere)


def test_a_city_under_a_stack_keeps_its_name_on_the_top_border() -> None:
    game = new_mini()
    painter = MapPainter(game.scenario.map, ASCII)
    testgrad = Hex(5, 5)  # a city, no feature on its north side
    painter.looks = {testgrad: HexLook(letter="r", strength="2-2", count=1, steps=1, side="soviet")}
    y = painter.origin(testgrad)[1]
    x = painter.origin(testgrad)[0]
    row = "".join(ch for ch, _ in painter.row(y))
    assert row[x + 1:x + 5] == "TEST"
    assert "".join(ch for ch, _ in painter.row(y + 1))[x + 1:x + 5] == "r2-2"
    # a stack in the hex above draws its steps there: the name gives way
    painter.looks = {**painter.looks, Hex(5, 4): HexLook(letter="I", strength="5-7", count=2, steps=3, side="german")}
    assert "".join(ch for ch, _ in painter.row(y))[x + 1:x + 5] == "_3_2"


def test_cli_map_and_game_map_draw_the_same_and_share_the_legend() -> None:
    from kiev_tui import textmap
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.face.glyphs import legend
    from kiev_tui.ui.glyphs import UNICODE, map_legend

    for scenario in ("spi_kiev/campaign", new_mini().scenario.id):
        gmap = Game.new(scenario, 1).scenario.map
        assert textmap.render(gmap, ids=True) == MapPainter(gmap, ASCII).text()
    assert textmap.LEGEND[:-1] == map_legend(ASCII)
    for g in (ASCII, UNICODE):
        assert legend(g)[:len(map_legend(g))] == map_legend(g)


async def test_80x24_a_long_status_line_is_whole_with_the_inspector_wide() -> None:
    game = position(new_mini(), {"so-rifle-4": "0804", "ge-inf-1": "0202"}, player="soviet", turn=2,
                    reinforcements=False)
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        words = " ".join(f"word{n:02d}" for n in range(20))  # 139 characters
        game_screen(app).say(words)
        await pilot.pause()
        assert "word19" not in screen_text(app)  # one line, cut short with "..."
        await keys(pilot, "I")
        game_screen(app).say(words)
        await pilot.pause()
        flat = " ".join(screen_text(app).split())
        assert words in flat


def test_compact_reach_under_a_stack_shows_the_cost() -> None:
    from kiev_tui.ui.hexmap import COMPACT

    game = new_mini()
    painter = MapPainter(game.scenario.map, ASCII, zoom=COMPACT)
    h = Hex(3, 3)
    painter.looks = {h: HexLook(letter="r", strength="2-2", count=2, steps=2, side="soviet", reach="+4")}
    assert "".join(ch for ch, _ in painter._compact(h, 1))[1:] == "+4"
    painter.looks = {h: HexLook(letter="r", strength="2-2", count=2, steps=2, side="soviet", reach="+10")}
    assert "".join(ch for ch, _ in painter._compact(h, 1))[1:] == "+ "  # never "+1" for 10 MP


def test_hq_and_leader_names_say_what_they_are_once() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.games.spi_kiev.common import View
    from kiev_tui.games.spi_kiev.face.present import unit_name
    view = View(Game.new("spi_kiev/campaign", seed=1))
    assert unit_name(view, "so-hq-agsw") == "AGSW HQ"
    assert unit_name(view, "ge-ldr-guderian") == "Guderian leader"
    assert unit_name(view, "so-mtn-60") == "60 mountain rifle XX"
    assert unit_name(view, "ge-id-99") == "99 Lt jaeger XX"
