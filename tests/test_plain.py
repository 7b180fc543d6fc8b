"""Plain line mode (issue 18): every command's answer, refusals with their cases, `do`, the
tiny second game on generic commands alone, and output that is always plain and narrow."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import Enter, Move, TakeLosses
from kiev_tui.plain import face_for
from kiev_tui.plain.face import DEFAULT
from kiev_tui.plain.loop import run
from kiev_tui.plain.session import PlainSession, wrap

from tests.conftest import MINI
from tests.tiny_game import tiny  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def campaign() -> Game:
    return Game.new("spi_kiev/campaign", seed=1941)


def session(game: Game, width: int = 80) -> PlainSession:
    return PlainSession(game, width)


def mini(seed: int = 3) -> Game:
    return Game.new(MINI, seed=seed)


def play(s: PlainSession, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out = s.handle(line)
    return out


# -- the Kiev campaign at the start --------------------------------------------------------------

def test_prompt_and_opening_on_the_campaign(campaign: Game) -> None:
    s = session(campaign)
    assert s.prompt() == "T1 Soviet movement> "
    assert s.opening() == [
        "Kiev: the battle of encirclement, 29 August - 26 September 1941",
        "Turn 1 of 13, 29 Aug 1941",
        "Mud turns: 8, 9",
        "Stalin's Directive turns known: 7, 8, 9",
        "Soviet player: [MOVEMENT] > combat",
        "VP: German 20, Soviet 165",
        "Rail: 0/8 units used this turn",
        "Soviet player's turn.",
        "- bring on 8 reinforcement(s): untried tank XX, untried tank XX, untried tank",
        "  XX, untried rifle XX, untried rifle XX, untried rifle XX, untried rifle XX,",
        "  untried rifle XX (23.0)",
        "Type 'help' for the commands, 'quit' to stop.",
    ]


def test_look_and_stack_on_the_campaign(campaign: Game) -> None:
    s = session(campaign)
    assert s.handle("look 0319") == [
        "Hex 0319 Kiev (city), clear; Soviet-held",
        "  major river NE SE; rail SE SW NW; road NE SE S NW",
        "Soviet stack of 2:",
        "  1. 1 airborne XXX 4-4",
        "  2. 4 nkvd XX 3-4",
    ]
    assert s.handle("l Kiev") == s.handle("look 0319")  # a place's name and the short form
    assert s.handle("stack 1023") == [
        "Soviet stack in 1023, 1 unit(s):",
        "1. h 26 hq HQ",
        "   0-2 of 0-2, 1/1 steps; MA 10 MP 10",
        "   in supply",
    ]
    assert s.handle("stack 0101") == ["No units in 0101."]


def test_reach_enter_todo_and_refusals_on_the_campaign(campaign: Game) -> None:
    s = session(campaign)
    assert s.handle("reach 1023")[:2] == [
        "From 1023, 26 HQ can reach 283 hex(es) (MP):",
        "  0923 1  0924 1  1022 1  1024 1  1123 1  1124 1  1021 1.5  1122 1.5  1223 1.5",
    ]
    assert s.handle("reach 1023 to 0101") == [
        "26 HQ cannot reach 0101: [5.11] beyond the stack's movement allowance or cut off",
        "  by zones of control (rules 5.11)",
    ]
    assert s.handle("enter")[:3] == [
        "Reinforcements due now (enter N[,N] HEX [rail]):",
        "  1. untried tank XX: 3233 3333 3414 3424 3425 3428 3429",
        "  2. untried tank XX: 3233 3333 3414 3424 3425 3428 3429",
    ]
    assert s.handle("end") == [
        "Refused [23.0] reinforcements may not be held back: untried tank XX, untried",
        "  tank XX, untried tank XX, untried rifle XX, untried rifle XX, untried rifle",
        "  XX, untried rifle XX, untried rifle XX must enter first (rules 23.0)",
    ]
    assert s.handle("todo")[-2:] == [
        "  1404  1428  1503  1630  1703  1731  1930  1932  2002  2004  2102  2132  2304",
        "  2328  2332  2431  2506  2530  2709  2806  2907  3007  3207",
    ]
    assert campaign.log == []  # nothing above changed the game


# -- a small position ---------------------------------------------------------------------------

def test_look_stack_reach_move_undo_on_the_small_map() -> None:
    g = mini()
    s = session(g)
    assert s.handle("look 0108") == [
        "Hex 0108, clear", "German stack of 4:", "  1. 1/1 panzer III 6-2", "  2. 2/1 motorized III 1-3",
        "  3. 3/1 motorized III 1-3", "  4. Guderian leader 0-1",
    ]
    assert s.handle("stack 0705") == [
        "Soviet stack in 0705, 1 unit(s):", "1. r 101 rifle XX", "   4-5 of 4-5, 1/1 steps; MA 6 MP 6",
        "   in supply, HQ AGSW",
    ]
    assert s.handle("reach 0703 to 0603") == ["102 rifle XX: 0603 for 1 MP by 0603"]
    assert s.handle("move 0705 0101") == ["Refused [5.1] 0101 is not adjacent to 0705: a path goes hex by hex (rules 5.1)"]
    assert s.handle("move 0703 0603") == ["102 rifle XX move from 0703 to 0603 (1 MP)"]
    assert g.log[-1] == Move(("so-rifle-2",), ("0603",))
    assert s.handle("undo") == ["Took back: move units=102 rifle XX path=0603"]
    assert g.log == [] and g.state.units["so-rifle-2"].hex == "0703"
    assert s.handle("undo")[0].startswith("Nothing to undo")
    assert s.handle("units german") == [
        "German units on the map:",
        "  0108: 1/1 panzer III, 2/1 motorized III, 3/1 motorized III, Guderian leader",
        "  0203: 1 infantry XX", "  0206: 2 infantry XX", "Off the map: 4 pending",
    ]
    assert s.handle("log 2") == ["2. Turn 1: soviet movement phase begins",
                                 "3. Reinforcements due for the soviet player: untried rifle XX, untried rifle XX"]


def test_a_subset_of_a_stack_moves_by_number() -> None:
    g = mini()
    for a in (Enter(("so-t01-rifle-1",), "1005"), Enter(("so-t01-rifle-2",), "1005"), EndPhase(), EndPhase()):
        g.apply(a)
    s = session(g)
    s.seat = g.actor
    assert s.handle("stack 0108")[1] == "1. P 1/1 panzer III"
    assert s.handle("move 0108:2,3 0208") == ["2/1 motorized III, 3/1 motorized III move from 0108 to 0208 (1 MP)"]
    assert g.log[-1] == Move(("ge-1pz-2", "ge-1pz-3"), ("0208",))
    assert s.handle("move 0108:7 0208") == ["0108 holds 2 unit(s): there is no number 7 (see 'stack 0108')"]


def test_map_around_a_hex() -> None:
    s = session(mini())
    assert s.handle("map around 0505 1") == [
        "Map around 0505 (1 hexes each way; columns on top, rows at the left):",
        "     04   05   06",
        " 03/0403\\____=0603\\",
        "   \\____/0504=____/",
        " 04/^^^^\\____=0604\\",
        "   \\____/TEST=____/",
        " 05.0405.____=0605.",
        "   \\____/0506=____/",
        " 06/0406\\____=0606\\",
        "   \\____/0507=____/",
        "(G2: a German stack of 2 units; S2: a Soviet stack of 2 units; an empty hex",
        "  shows its number)",
    ]
    assert s.handle("map around 0505 x") == ["usage: map around HEX [R]"]


def test_a_whole_attack_with_its_answers() -> None:
    g = mini(3)
    s = session(g, 100)
    play(s, "enter 1 1005", "enter 1 1005", "end", "end", "move 0108 0208 0308 0407 0507 0606 0706", "end")
    assert s.prompt() == "T1 German combat> "
    odds = s.handle("odds 0706 -> 0705")
    assert odds[:3] == ["Attack on 0705", "Odds column: 3-1", "Attackers (total 16):"]
    assert odds[-2:] == ["Chances:", "  -/1 33.3%  -/2 16.7%  1/1 16.7%  eng 16.7%  1/- 16.7%"]
    out = s.handle("attack 0706 -> 0705")
    assert out[0] == "Die roll #1 for attack at 0705 (3-1): 2"
    assert "Soviet player's turn: answer a choice (loss or retreat)" in out
    assert out[-4:] == ["Units hit:", "  1. 101 rifle XX 4-5 (1 step(s))",
                        "Answer with 'losses N ...' (one number per step, 1 in all), or 'retreat' to fall back 1 "
                        "hex(es)", "  (9.66)."]
    assert s.seat == "soviet"
    assert s.prompt() == "T1 German combat, Soviet to answer (loss or retreat)> "
    assert s.handle("advance no") == ["no advance choice is waiting (see 'todo')"]
    out = s.handle("retreat")
    assert out[0] == "German player's turn: answer a choice (retreat)"
    assert out[-2:] == ["  1. 101 rifle XX: 1) 0704  2) 0604",
                        "Answer with 'retreat K ...': one path number per unit, in this order (0 for a unit that has "
                        "none)."]
    assert s.handle("retreat 5") == ["101 rifle XX has 2 path(s): no number 5"]
    out = s.handle("retreat 1")
    assert out[0] == "101 rifle XX retreats from 0705 to 0704"
    assert out[-2:] == ["Paths: 1) 0705", "Answer with 'advance K' (a path number), 'advance HEX [HEX]', or 'advance no'."]
    assert s.handle("advance 1") == ["1/1 panzer III, 2/1 motorized III, 3/1 motorized III advance from 0706 to 0705"]
    assert g.state.units["ge-1pz-1"].hex == "0705" and g.state.pending is None


def test_losses_answer_a_result() -> None:
    g = mini(3)
    s = session(g, 100)
    play(s, "enter 1 1005", "enter 1 1005", "end", "end", "move 0108 0208 0308 0407 0507 0606 0706", "end",
         "attack 0706 -> 0705")
    assert s.handle("losses 2") == ["there is no number 2 in the list (1 to 1)"]
    out = s.handle("losses 1")
    assert g.log[-1] == TakeLosses(("so-rifle-1",))
    assert out[0] == "101 rifle XX is eliminated (its last step was lost, 9.67)"
    assert out[1] == "German player's turn: answer a choice (advance)"


# -- do: any action by its fields ------------------------------------------------------------------

def test_do_lists_and_builds_every_kind_of_action() -> None:
    g = mini()
    s = session(g)
    assert s.handle("do") == [
        "Actions of the spi_kiev game ('do KIND key=value ...'):",
        "  advance units= path=", "  attack attackers= targets= integrity=", "  choose_integrity division=",
        "  choose_retreat", "  decline_advance", "  end_phase", "  enter units= hex= rail=",
        "  move units= path= relieve=", "  overrun units= target= integrity=", "  rail units= path= relieve=",
        "  remove_excess unit=", "  retreat units= paths=", "  take_losses units=",
        "Lists are written a,b,c; a list of lists a,b;c,d; HEX:N names a unit.",
    ]
    assert s.handle("do enter units=so-t01-rifle-1 hex=1005 rail=no") == \
        ["Reinforcements untried rifle XX enter at 1005 (1 MP)"]
    assert g.log[-1] == Enter(("so-t01-rifle-1",), "1005", False)
    assert s.handle("do move units=0703:1 path=0603,0604") == ["102 rifle XX move from 0703 to 0604 via 0603 (2 MP)"]
    assert g.log[-1] == Move(("so-rifle-2",), ("0603", "0604"))
    assert s.handle("do take_losses units=0705:1") == ["Refused [9.66] no result is waiting for step losses (rules 9.66)"]
    assert s.handle("do move unitz=1") == ["action 'move' has no field 'unitz' (fields: units, path, relieve)"]
    assert s.handle("do enter units=a hex=1005 rail=maybe") == ["'maybe' is not true or false"]
    assert s.handle("do frobnicate")[0].startswith("no action 'frobnicate' in the spi_kiev game (known: advance,")
    assert s.handle("do move units=0703:9 path=0603") == ["0703 holds 0 unit(s): there is no number 9 (see 'stack 0703')"]
    assert s.handle("do retreat units=0705:1 paths=0704;0604") == \
        ["Refused [9.7] no retreat is waiting (rules 9.7)"]


# -- saves and rules ----------------------------------------------------------------------------------

def test_save_goes_to_the_saves_folder_and_a_failure_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIEV_TUI_SAVES", str(tmp_path / "saves"))
    g = mini()
    s = session(g, 200)
    s.handle("move 0703 0603")
    assert s.handle("save march") == [f"Saved to {tmp_path / 'saves' / 'march.toml'}"]
    assert Game.load(tmp_path / "saves" / "march.toml").state_hash() == g.state_hash()
    assert s.handle("save ../out") == ["Not saved: a save name cannot contain / or \\: saves always go in the saves folder"]
    assert s.handle("save autosave-x") == ["Not saved: names starting with 'autosave' are kept for the automatic saves"]
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("KIEV_TUI_SAVES", str(blocked))
    assert s.handle("save march") == ["Not saved: cannot check march.toml (Not a directory)"]
    monkeypatch.setenv("KIEV_TUI_SAVES", "/proc/self/no-such-folder")  # a write that fails, even as root
    out = s.handle("save march")
    assert len(out) == 1 and out[0].startswith("Not saved: /proc/self/no-such-folder/march.toml: "), out


def test_rules_by_case_and_by_words() -> None:
    s = session(mini())
    out = s.handle("rules 9.66")
    assert out[0] == "9.66 Numeric results: steps or hexes"
    assert out[-1] == "  See also: 9.67, 9.7, 19.61"
    assert s.handle("rules search major river")[:3] == [
        "10 case(s) matching 'major river', best first:", "10.13 Crossing a major river",
        "    Crossing a major river hexside costs every unit at least 2 extra Movement...",
    ]
    assert s.handle("rules 99.99") == ["No case 99.99 in " + s._book.title + "."]


# -- the tiny second game, on generic commands only ------------------------------------------------------

def test_the_tiny_game_plays_through_plain_mode(tiny: Path) -> None:  # noqa: F811
    g = Game.new(tiny, seed=1)
    assert face_for(g) is DEFAULT
    s = session(g, 72)
    assert s.prompt() == "T1 Axis movement> "
    assert s.handle("attack 0202 -> 0504") == ["Unknown command 'attack'. Type 'help' for the list."]
    assert s.handle("look 0301") == ["Hex 0301 Northby (town), clear", "No units."]
    assert s.handle("stack 0202") == ["Axis stack in 0202, 1 unit(s):", "1. 1 infantry 1-1", "   may still act"]
    assert s.handle("reach 0202 to 0505") == [
        "1 infantry cannot reach 0505: [T2.4] farther than the 3 MP the units", "  have (rules T2.4)"]
    assert s.handle("move 0202 0302") == ["1 infantry march 0302 (2 MP)"]
    assert s.handle("move 0302 0301") == ["Refused [T2.2] 1 infantry has already moved this turn (rules T2.2)"]
    assert s.handle("rules 1.0") == ["there is no rules reference for the tiny game"]
    out = s.handle("end")
    # the tracker shows the whole game-turn (sequence.toml), the current phase in capitals
    assert out[-5:] == ["Allies player's turn: movement phase", "Turn 1 of 2", "Axis player: movement",
                        "Allies player: [MOVEMENT]", "then: end of turn"]
    assert s.handle("do move units=0504:1 path=0404") == ["1 infantry march 0404 (1 MP)"]
    play(s, "end", "move 0302 0301", "end", "end")
    assert g.state.over
    assert s.prompt() == "Game over> "
    assert s.handle("score") == ["Axis points: 1", "Allies points: 1", "  Axis holds 1 town(s)",
                                 "  Allies holds 1 town(s)", "A draw."]


# -- output is plain and narrow -------------------------------------------------------------------------------

HOSTILE = ["look \x1b[31m0319", "move 0319 \x1b]0;x\x07", "look 0319\x1b", "save na\x1bme", "do move units=\x9b",
           "look " + "9" * 300, "rules search " + "x" * 300, "\x1b[2J", "units " + "\u202e" * 5]


@pytest.mark.parametrize("width", [40, 80])
def test_no_line_holds_an_escape_or_exceeds_the_width(campaign: Game, width: int) -> None:
    s = session(campaign, width)
    lines = s.opening()
    assert s.prompt() and len(s.prompt()) <= width
    for cmd in ["help", "help move", "look 0319", "stack 0319", "reach 0319", "reach 1023 to 0101", "enter",
                "todo", "score", "log 30", "units soviet", "map around 1023 9", "rules 9.6", "rules search rail",
                "do", "odds 1023 -> 1024", "end", *HOSTILE]:
        lines += s.handle(cmd)
    assert lines
    for line in lines:
        assert "\x1b" not in line and "\x9b" not in line and "\x07" not in line, line
        assert all(ch.isprintable() for ch in line), line
        assert len(line) <= width, line
    assert session(campaign).handle("look \x1b[31m0319") == \
        ["Refused: the line holds control characters (look \\x1b[31m0319)"]
    assert wrap(["a\x1bb"], 40) == ["a\\x1bb"]


def test_completions(campaign: Game) -> None:
    s = session(campaign)
    assert s.completions("lo") == ["log", "look", "losses"]
    assert s.completions("do mo") == ["move"]
    assert s.completions("do move u") == ["units="]
    assert s.completions("rules s") == ["search"]
    assert s.completions("look 031") == [f"03{r}" for r in range(10, 20)]
    assert s.completions("units s") == ["soviet"]


# -- the loop --------------------------------------------------------------------------------------------------

def test_the_loop_on_piped_input_asks_nothing_and_echoes_commands() -> None:
    g = mini()
    out = io.StringIO()
    assert run(g, None, io.StringIO("look 0703\nmove 0703 0603\n"), out, width=80) == 0
    text = out.getvalue()
    assert "T1 Soviet movement> look 0703\nHex 0703, clear\n" in text
    assert "T1 Soviet movement> move 0703 0603\n102 rifle XX move from 0703 to 0603 (1 MP)\n" in text
    assert "quit anyway" not in text  # end of input: no question on a pipe
    out = io.StringIO()
    run(mini(), None, io.StringIO("\x1b[2Jlook 0703\nquit\nlook 0101\n"), out, width=80)
    assert "\x1b" not in out.getvalue() and "Hex 0101" not in out.getvalue()


def test_the_loop_hands_over_without_waiting_on_a_pipe(tmp_path: Path) -> None:
    g = mini()
    out = io.StringIO()
    run(g, tmp_path / "auto.toml", io.StringIO("enter 1 1005\nenter 1 1005\nend\nend\nlook 0108\n"), out, width=80)
    text = out.getvalue()
    assert "German player's turn: movement phase\nTurn 1 of 3\n" in text
    assert text.endswith("T1 German movement> look 0108\nHex 0108, clear\nGerman stack of 4:\n"
                         "  1. 1/1 panzer III 6-2\n  2. 2/1 motorized III 1-3\n  3. 3/1 motorized III 1-3\n"
                         "  4. Guderian leader 0-1\nT1 German movement> \n")
    assert (tmp_path / "auto.toml").exists()  # autosaved at the phase ends, as the TUI does


def test_play_plain_never_imports_textual(tmp_path: Path) -> None:
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('TEXTUAL', 'textual' in sys.modules, 'RICH_TEXT', 'rich.text' in sys.modules))\n"
        "sys.argv = ['kiev-tui'] + sys.argv[1:]\n"
        "from kiev_tui.cli import main\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIEV_TUI_SAVES": str(tmp_path / "saves"), "KIEV_TUI_PLAYER": "t"}
    res = subprocess.run([sys.executable, "-c", probe, "play", "--plain", "--no-resume", "--seed", "3", str(MINI)],
                         input="look 0703\nenter 1 1005\nend\nsave one\nquit\n", capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Hex 0703, clear" in res.stdout and "TEXTUAL False" in res.stdout, res.stdout[-500:]
    # --load plays on from a save, in plain mode too
    res = subprocess.run([sys.executable, "-c", probe, "play", "--plain", "--load", str(tmp_path / "saves" / "one.toml")],
                         input="log 1\n", capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Reinforcements untried rifle XX enter at 1005 (1 MP)" in res.stdout and "TEXTUAL False" in res.stdout


# -- Kiev's plain text says what the TUI's panels say ---------------------------------------------------------------

def test_kiev_plain_text_matches_the_tui_panels(campaign: Game) -> None:
    from kiev_tui.games.spi_kiev.face import plain, present  # present imports Textual: fine in a test

    view = campaign.rules.position(campaign)
    supply = present.supply_all(view)
    assert plain.supply_all(view) == supply
    for h, ids in view.occupancy.items():
        assert plain.hex_lines(view, h) == present.hex_lines(view, h)
        assert plain.stack_order(view, ids) == present.stack_order(view, ids)
        for uid in ids:
            assert plain.unit_name(view, uid) == present.unit_name(view, uid)
            assert plain.strength_text(view, uid) == present.strength_text(view, uid)
            tui = present.unit_lines(view, uid, supply)
            assert plain.unit_lines(view, uid, supply) == [tui[0][2:], *tui[1:]]
    assert plain.score_now_lines(view) == [x for x in present.score_now_lines(view) if x]


def test_kiev_commands_refuse_with_their_cases() -> None:
    from kiev_tui.games.spi_kiev.face.plain import _integrity

    s = session(mini(), 100)
    assert s.handle("remove 0705:1") == ["Refused [7.0] 0705 is within the stacking limit: nothing to remove there (rules 7.0)"]
    assert s.handle("overrun 0705 -> 0604") == ["Refused [6.0] 0604 holds no enemy units (rules 6.0)"]
    assert s.handle("enter 1 1005 rail") == ["Refused [15.0] 1005 has no railroad to arrive by (rules 15.0)"]
    assert s.handle("enter 9 1005") == ["there is no number 9 in the list (1 to 2)"]
    assert s.handle("integrity 10 Mot") == ["no integrity choice is waiting (see 'todo')"]
    assert s.handle("attack 0705") == ["usage: attack HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]"]
    assert s.handle("rail 0705 0706")[0].startswith("Refused [5.31] 0705 is not a friendly rail hex")
    assert s.handle("help attack") == ["attack HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]",
                                       "  attack from the first hexes into the others: rolls at once and shows the result",
                                       "  e.g. attack 0706 -> 0705"]
    assert _integrity(["0706", "->", "0705", "gd=10", "Mot"]) == (["0706", "->", "0705"], "10 Mot")
    assert _integrity(["0706", "->", "0705"]) == (["0706", "->", "0705"], "")
    assert s.game.log == []


def test_a_failing_command_is_one_line_and_the_loop_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiev_tui.plain import session as plain_session

    def boom(s: PlainSession, args: list[str]) -> list[str]:
        raise KeyError("no such thing")

    monkeypatch.setitem(plain_session.GENERIC, "score", plain_session.Spec(boom, "score", "broken on purpose"))
    out = io.StringIO()
    assert run(mini(), None, io.StringIO("score\nlook 0703\n"), out, width=80) == 0
    text = out.getvalue()
    assert "T1 Soviet movement> score\nInternal error (KeyError: 'no such thing'); the game is as it was.\n" in text
    assert "Hex 0703, clear" in text


def test_help_and_score_on_the_small_map() -> None:
    s = session(mini())
    assert s.handle("help move") == [
        "move HEX[:N,N] HEX [HEX...]",
        "  move the stack (or the units picked by number) along the hexes given, each", "    next to the one before",
        "  e.g. move 0319 0420 0421", "  short form: m",
    ]
    listing = s.handle("help")
    assert listing[0] == "Commands (help COMMAND says more):"
    assert [line.split()[0] for line in listing[1:-1]] == [
        "help", "look", "stack", "reach", "move", "end", "undo", "score", "log", "units", "todo", "map", "odds", "save",
        "rules", "do", "options", "pick", "choose", "quit", "attack", "overrun", "rail", "enter", "remove", "losses", "retreat", "advance",
        "integrity"]
    assert s.handle("help zap") == ["no command 'zap'"]
    assert s.handle("score") == [
        "German 10 VP, Soviet 30 VP; the German needed a lead of 30 and has -20.",
        "(Soviet units still out of supply at the end also count for the German: 24.3)",
        "German points: 10", "    10  holds Westburg (0202, city)", "Soviet points: 30",
        "    25  holds Testgrad (0505, city)", "     5  holds Eastville (0805, town)", "Cities and towns:",
        "  0202 Westburg (city): German, 10 VP", "  0505 Testgrad (city): Soviet, 25 VP",
        "  0805 Eastville (town): Soviet, 5 VP", "German units eliminated: 0", "Soviet units eliminated: 0",
    ]


def test_a_game_finds_its_plain_face_through_the_registry(tiny: Path) -> None:  # noqa: F811
    from kiev_tui.engine import registry
    from kiev_tui.games.spi_kiev.face.plain import PLAIN, KievPlain
    from kiev_tui.plain.face import PlainFace
    from tests.tiny_game import SYSTEM

    assert face_for(mini()) is PLAIN and isinstance(PLAIN, KievPlain)

    class Named(PlainFace):
        def unit_name(self, game: Game, uid: str) -> str:
            return f"unit {uid}"

    class Adapter:
        plain_face = Named()

    registry.register("tiny", SYSTEM, adapter=Adapter())
    g = Game.new(tiny, seed=1)
    assert face_for(g) is Adapter.plain_face
    assert session(g).handle("look 0202") == ["Hex 0202, clear", "Axis stack of 1:", "  1. unit ax-1 1-1"]


def test_plain_mode_says_the_shared_text_and_loads_no_textual() -> None:
    """Plain mode and the Textual face say one text (face/text.py, ui/text.py), and loading plain
    mode with Kiev's face loads those modules but not Textual, Rich or the Textual map."""
    probe = ("import sys\n"
             "from kiev_tui.engine.game import Game\n"
             "from kiev_tui.plain import PlainSession\n"
             f"s = PlainSession(Game.new({str(MINI)!r}, seed=3), 80)\n"
             "s.handle('look 0703'); s.handle('stack 0705'); s.handle('score')\n"
             "print(sorted(m for m in sys.modules if m in ('kiev_tui.ui.text', 'kiev_tui.games.spi_kiev.face.text',"
             " 'kiev_tui.games.spi_kiev.face.present', 'kiev_tui.ui.hexmap', 'kiev_tui.ui.adapter')"
             " or m.split('.')[0] in ('textual', 'rich')))\n")
    res = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "['kiev_tui.games.spi_kiev.face.text', 'kiev_tui.ui.text']\n"


def test_kiev_plain_and_tui_share_one_text() -> None:
    from kiev_tui.engine import registry
    from kiev_tui.games.spi_kiev.face import adapter, plain, present, text

    for name in ("unit_name", "strength_text", "stack_order", "hex_lines", "steps_left", "supply_all", "side_name"):
        assert getattr(plain, name) is getattr(text, name) is getattr(present, name), name
    assert plain.unit_lines is text.unit_lines
    assert registry.get_plain("spi_kiev") is plain.PLAIN
    assert registry.get_plain("no_such_game") is None
    g = mini()
    assert adapter.ADAPTER.tracker_lines(g)[0] == plain.tracker_lines(g)[0] == text.turn_head(g)
    assert plain.tracker_lines(g)[-2:] == text.play_lines(g, text.vp_text(g))[-2:]
    assert text.score_line(g) == text.vp_text(g) + " (v)"


def test_odds_on_a_hex_without_enemy_units_is_only_the_refusal(campaign: Game) -> None:
    s = session(campaign)
    # Soviet movement phase of turn 1: 0219 holds Soviet units, so there is nothing to overrun.
    assert play(s, "odds 0218 -> 0219") == [
        "Overrun of 0219 (6.0): 3 MP, half attack strength",
        "Refused [6.0] 0219 holds no enemy units (rules 6.0)",
    ]
