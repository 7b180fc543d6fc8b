"""Issue 35, the Textual face: what a player still tripped over (one test per finding)."""

from __future__ import annotations

from kiev_tui.games.spi_kiev.face.combat_ui import PendingScreen
from kiev_tui.ui.app import build_app
from textual.widgets import Static

from kiev_tui.ui.dialogs import Choices
from kiev_tui.ui.game_screen import GameScreen

from tests.ui.helpers import keys, screen_text
from tests.ui.test_ui_newcomer_b import attack_game, plan_attack, press

SIZE = (120, 40)


# -- 1: the advance dialog -------------------------------------------------------------------

async def test_enter_on_the_first_way_advances_every_ticked_unit() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R", "enter")
        assert game.state.pending["kind"] == "advance"
        assert isinstance(app.screen, PendingScreen)
        await keys(pilot, "enter")  # the first way is highlighted: Enter takes it
        assert game.state.pending is None
        assert (game.state.units["ge-inf-1"].hex, game.state.units["ge-inf-2"].hex) == ("0404", "0404")
        assert isinstance(app.screen, GameScreen)


async def test_the_advance_dialog_shows_which_list_has_the_keys() -> None:
    game = attack_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y", "R", "enter")
        text = screen_text(app)
        assert "keys here > How far" in text and "keys here > Units" not in text
        assert "> 0404" in text  # the ways: the list with the keys marks its row with '>'
        assert "- [x] " in text and "> [x] " not in text  # the units: '-' without the keys
        await keys(pilot, "tab")
        assert app.screen.query_one("#pending-units", Choices).has_focus
        text = screen_text(app)
        assert "keys here > Units" in text and "keys here > How far" not in text
        assert "> [x] " in text and "- 0404" in text


async def test_the_reinforcement_dialog_shows_which_list_has_the_keys() -> None:
    from kiev_tui.games.spi_kiev.face.dialogs import EntryScreen
    from tests.ui.helpers import new_mini

    app = build_app(new_mini())  # two untried rifles due on turn 1
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "i")
        assert isinstance(app.screen, EntryScreen)
        text = screen_text(app)
        assert "keys here > Units" in text and "keys here > Entry hexes" not in text
        await keys(pilot, "tab")
        text = screen_text(app)
        assert "keys here > Entry hexes open to all ticked units (by road):" in text
        assert "keys here > Units" not in text
        assert "- [x] 1. untried rifle XX" in text  # the units list, without the keys, marks its row "-"


# -- 3: the keys a dialog names are the keys that work there -----------------------------------

def engaged_game():
    """Seed 9: the attack comes out engaged, so the defender may not retreat (9.69)."""
    from kiev_tui.games.spi_kiev.actions import Attack

    game = attack_game_seed(9)
    game.apply(Attack(("ge-inf-1", "ge-inf-2"), ("0404",), ""))
    assert game.state.pending["kind"] == "loss_or_retreat" and game.state.pending["hexes"] == 0
    return game


def attack_game_seed(seed: int):
    from tests.conftest import position
    from tests.ui.helpers import new_mini

    return position(new_mini(seed=seed), {"ge-inf-1": "0304", "ge-inf-2": "0305", "so-rifle-3": "0404"},
                    player="german", phase="combat", reinforcements=False)


async def test_an_engaged_result_offers_no_retreat() -> None:
    game = engaged_game()
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "p")
        assert isinstance(app.screen, PendingScreen)
        text = screen_text(app)
        assert "retreat" not in text.split("Steps taken so far")[1].lower()  # neither the foot nor the head
        await keys(pilot, "R")
        assert isinstance(app.screen, PendingScreen)  # not closed on a refused retreat
        assert "No retreat here (9.69)" in screen_text(app)
        assert game.state.pending["kind"] == "loss_or_retreat"


async def test_a_retreat_result_still_offers_r() -> None:
    game = attack_game()  # seed 1: lose a step or retreat a hex
    app = build_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await plan_attack(pilot)
        await press(pilot, "c", "y")
        assert "R retreats instead" in screen_text(app)


async def test_s_in_the_quit_dialog_saves_and_quits(tmp_path) -> None:
    from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen

    game = engaged_game()  # one action not saved
    app = build_app(game, save_path=tmp_path / "autosave-x.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "S saves the game under a name of your choice first" in screen_text(app)
        await keys(pilot, "S")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "ctrl+u", *"kept", "enter")
        await pilot.pause()
    assert (tmp_path / "kept.toml").is_file()
    assert app.return_code == 0 and not app.is_running


async def test_s_in_the_load_dialog_saves_then_lists_the_saves(tmp_path) -> None:
    from kiev_tui.ui.dialogs import AskScreen, ConfirmScreen, PickScreen

    from kiev_tui.games.spi_kiev.actions import Move
    from tests.conftest import position
    from tests.ui.helpers import new_mini

    game = position(new_mini(), {"ge-1pz-1": "0305", "so-rifle-1": "0808"}, player="german", reinforcements=False)
    game.apply(Move(("ge-1pz-1",), ("0405", "0505")))  # one action not saved
    (tmp_path / "older.toml").write_text("")  # a save to load: the dialog only asks when there is one
    app = build_app(game, save_path=tmp_path / "autosave-x.toml")
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "O")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "S")
        assert isinstance(app.screen, AskScreen)
        await keys(pilot, "ctrl+u", *"kept", "enter")
        assert (tmp_path / "kept.toml").is_file()
        assert isinstance(app.screen, PickScreen)
        text = screen_text(app)
        assert "kept.toml" in text and "older.toml" in text


# -- 5: names, the die and the result, refusals kept -----------------------------------------

async def test_the_result_dialog_names_units_and_shows_the_die_and_the_result() -> None:
    from kiev_tui.games.spi_kiev.common import View
    from kiev_tui.games.spi_kiev.events import CombatResolved
    from kiev_tui.games.spi_kiev.face import present

    game = engaged_game()
    rolled = [e for e in game.journal if isinstance(e, CombatResolved)]
    assert [(e.die, e.result) for e in rolled] == [(rolled[0].die, "eng")]
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()  # the Soviet player answers: the keyboard is handed over first
        text = screen_text(app)
        assert "hand the keyboard to the SOVIET player" in text
        assert f"die {rolled[0].die}: result eng" in text and "so-rifle-3" not in text
        await press(pilot, "space", "p")
        assert isinstance(app.screen, PendingScreen)
        assert "so-rifle-3" not in screen_text(app)
        # what the dialog says, its wrapping at 80 columns undone
        text = " ".join(str(w.content) for w in app.screen.query(Static))
        name = present.unit_name(View(game), "so-rifle-3")
        assert f"lose 1 step(s) from {name}" in text
        e = rolled[0]
        assert (f"Attack at 0404: {e.attack} to {e.defense}, column {e.column}, die {e.die}: result eng "
                "(engaged: each side loses a step, no retreat, 9.69)") in text


async def test_a_refusal_is_kept_whole_in_the_log_at_80x24() -> None:
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.ui.logview import WrapLog
    from tests.ui.helpers import game_screen, new_mini

    game = new_mini()
    app = build_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.play(EndPhase()) is False  # the reinforcements are still to come on
        await pilot.pause()
        shown = screen_text(app).splitlines()[-2]
        assert "Refused [23.0]" in shown and shown.rstrip().endswith("...")  # no room for all of it
        log = screen.query_one("#log", WrapLog)
        kept = [t.plain for t in log._source]
        assert kept[-1].startswith("Refused [23.0] ") and "must enter first" in kept[-1], kept
        assert "so-" not in kept[-1]


# -- 6: against the computer, the screen says which side it plays ------------------------------

async def test_the_tracker_names_the_side_the_computer_plays(tmp_path) -> None:
    from kiev_tui.ai.local import ai_link
    from tests.ui.helpers import new_mini

    for size, title in (((120, 40), "Sequence of play; computer plays Soviet"), ((80, 24), "Computer plays Soviet")):
        game = new_mini()
        link = ai_link(game, "soviet", "strong", seed=5, pause=0)
        app = build_app(game, save_path=tmp_path / "auto.toml", net=link)
        try:
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                assert title in screen_text(app)
        finally:
            link.close()


async def test_hot_seat_names_no_computer() -> None:
    from tests.ui.helpers import new_mini

    app = build_app(new_mini())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Sequence of play" in text and "omputer" not in text


# -- 2: the map keeps two hexes of margin around the cursor --------------------------------------

async def test_at_80x24_the_map_keeps_two_hexes_beyond_the_cursor_in_sight() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.hexmap import HexMap
    from tests.ui.helpers import game_screen

    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hexmap = game_screen(app).query_one(HexMap)
        w, ht = hexmap.viewport()
        checked = 0
        for key in ["l"] * 14 + ["j"] * 10 + ["h"] * 14 + ["k"] * 10:
            await keys(pilot, key)
            region = hexmap.painter.region_of(game_screen(app).cursor)
            sx, sy = int(hexmap.scroll_offset.x), int(hexmap.scroll_offset.y)
            right_end = sx + w >= hexmap.virtual_size.width
            bottom_end = sy + ht >= hexmap.virtual_size.height
            # two hexes (5 columns, 2 rows each) between the cursor's hex and every edge, unless
            # the map itself ends there
            assert right_end or region.right + 10 <= sx + w, (key, region, sx, w)
            assert sx == 0 or region.x - 10 >= sx, (key, region, sx)
            assert bottom_end or region.bottom + 4 <= sy + ht, (key, region, sy, ht)
            assert sy == 0 or region.y - 4 >= sy, (key, region, sy)
            checked += 1
        assert checked == 48


# -- 7: the layout at 80x24 and at 250x80 ---------------------------------------------------------

async def test_at_80x24_a_selected_stack_shows_every_unit_and_every_key() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.widgets import KeyBar
    from tests.ui.helpers import game_screen

    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert game_screen(app).cursor.id == "0319"  # Kiev: an airborne brigade and an NKVD division
        await keys(pilot, "enter")
        text = screen_text(app)
        assert "1*a 1 airborne XXX" in text and "2*n 4 nkvd XX" in text
        assert "Soviet: fights 7-24" in text
        bar = str(game_screen(app).query_one(KeyBar).render())
        assert bar == "Enter Sel Esc Back Tab Next i Reinf t Rail o Ovrun P End ? Help u Undo r Rules"
        assert bar in text


async def test_at_250x80_the_side_panels_take_the_columns_the_map_does_not_need() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.hexmap import HexMap
    from tests.ui.helpers import game_screen

    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(250, 80)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        hexmap, side = screen.query_one(HexMap), screen.query_one("#side")
        assert hexmap.virtual_size.width == 171 and hexmap.virtual_size.height < 78  # no scroll bar
        assert (hexmap.region.width, side.region.x, side.region.width) == (171, 171, 79)
        await keys(pilot, "z")  # the compact map is narrower still: the panels grow again
        await pilot.pause()
        assert side.region.x == hexmap.virtual_size.width == 102
        await keys(pilot, "z")
        await pilot.pause()
        assert side.region.width == 79
        await keys(pilot, "I")  # tracker and inspector across the whole screen
        await pilot.pause()
        assert side.region.width == 250
        await keys(pilot, "I")
        await pilot.pause()
        assert (side.region.x, side.region.width) == (171, 79)
    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(120, 40)) as pilot:  # the map needs more than there is: as before
        await pilot.pause()
        assert game_screen(app).query_one("#side").region.width == 44


# -- 8: one glyph, one meaning; the cursor keeps its hex's hexsides ------------------------------

def test_lake_river_and_rail_distance_each_have_a_glyph_of_their_own() -> None:
    from kiev_tui.engine.registry import get_adapter, get_system
    from kiev_tui.ui.glyphs import ASCII, UNICODE, map_legend, symbols_from_schema

    sym = get_adapter("spi_kiev").map_symbols(get_system("spi_kiev").schema)
    for g in (ASCII, UNICODE):
        lake = {sym.fills["lake"].char(g), sym.sides["lake"].char(g)}
        rivers = {sym.sides["major_river"].char(g), sym.sides["minor_river"].char(g)}
        ways = {sym.sides["railroad"].char(g), sym.sides["road"].char(g)}
        assert len(lake) == 1 and len(rivers) == 2 and not lake & rivers
        assert g.rail_reach not in lake | rivers | ways | {g.reach, g.path, g.oos, g.zoc, g.hidden}
        # the legend lists each map glyph once, with one meaning
        glyphs = [glyph for glyph, _ in map_legend(g, sym)]
        assert len(glyphs) == len(set(glyphs))
    assert (ASCII.rail_reach, UNICODE.rail_reach) == ("#", "\u2550")
    assert (sym.fills["lake"].char(ASCII), sym.fills["lake"].char(UNICODE)) == ("%", "\u2591")
    generic = symbols_from_schema(get_system("spi_kiev").schema)  # a game without its own symbols
    water = [f for f in generic.fills.values() if "impassable" in f.label]
    assert water and all(f.char(UNICODE) == "\u2591" and f.char(ASCII) == "%" for f in water)


async def test_the_cursor_keeps_the_river_and_rail_of_its_hex_in_sight() -> None:
    from kiev_tui.engine.game import Game
    from kiev_tui.ui.hexmap import HexMap
    from tests.ui.helpers import game_screen

    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        painter = screen.query_one(HexMap).painter
        assert screen.cursor.id == "0319"  # Kiev: a railroad across the NW hexside, the Dnepr on the NE
        x, y = painter.origin(screen.cursor)
        row = painter.row(y + 1)
        assert "".join(ch for ch, _ in row[x:x + 6]) == "\u253ca4-4\u2248"
        # the inside in the cursor's look; the rail and the river either side exactly as off the cursor
        assert [bool(st.reverse) for _, st in row[x:x + 6]] == [False, True, True, True, True, False]
        await keys(pilot, "s")
        assert painter.row(y + 1)[x:x + 6:5] == row[x:x + 6:5]


# -- 4: the CRT on the rules screen at 80x24 ------------------------------------------------------

async def test_every_crt_column_can_be_read_on_the_rules_screen_at_80x24() -> None:
    from textual.containers import VerticalScroll

    from kiev_tui.ui.rules_screen import RulesScreen
    from tests.ui.helpers import new_mini

    app = build_app(new_mini())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(RulesScreen(game="spi_kiev", initial="9.5"))
        await pilot.pause()
        scroll = app.screen.query_one("#rules-case-scroll", VerticalScroll)
        seen = ""
        while True:  # read the case page by page, as a reader scrolls it
            seen += screen_text(app)
            if scroll.scroll_y >= scroll.max_scroll_y:
                break
            scroll.scroll_relative(y=scroll.size.height - 2, animate=False, immediate=True)
            await pilot.pause()
        header = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
        for column in header:
            assert f"|{column} " in seen or f"|{column}\n" in seen or f"|{column}|" in seen, column
        # the last die row in full across the blocks: 6 E/- 3/- 2/- 2/- 1/- eng 1/1 -/1 | -/1 -/2 -/2 -/2
        assert "6   |E/- |3/- |2/- |2/- |1/- |eng |1/1 |-/1" in seen
        assert "6   |-/1 |-/2 |-/2 |-/2" in seen


async def test_a_window_shrunk_to_80x24_takes_the_short_layout() -> None:
    from kiev_tui.engine.game import Game
    from tests.ui.helpers import game_screen

    app = build_app(Game.new("spi_kiev/campaign", seed=1941))
    async with app.run_test(size=(120, 40)) as pilot:
        await keys(pilot, "enter")
        screen = game_screen(app)
        assert screen.query_one("#tracker").region.height == 12
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert screen.has_class("-short") and screen.query_one("#tracker").region.height == 6
        text = screen_text(app)
        assert "1*a 1 airborne XXX" in text and "2*n 4 nkvd XX" in text
