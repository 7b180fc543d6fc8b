"""The operational layer of Kiev's computer player (games/spi_kiev/ai_plan.py): each piece of the
plan on a position built for it, with the move or attack it steers, and the --explain lines."""

from __future__ import annotations

from typer.testing import CliRunner
import typer

from kiev_tui.ai.arena import play_match
from kiev_tui.ai.cli import register
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import ai_plan
from kiev_tui.games.spi_kiev.actions import Attack, Move
from kiev_tui.games.spi_kiev.ai import Ctx, KievAI
from kiev_tui.games.spi_kiev.ai_plan import Plan, Pocket

from conftest import MINI, position


def _plan(game: Game, side: str) -> tuple[KievAI, Plan]:
    ai = KievAI(side, "plan", seed=1)
    return ai, ai_plan.build_plan(ai, game, Ctx(ai, game, game.rules.position(game)))


def _phase(game: Game, ai: KievAI, limit: int = 40) -> list[Action]:
    """The AI plays its phase to the end (no combat answers are asked for in these positions)."""
    start = (game.state.turn, game.state.player, game.state.phase)
    played: list[Action] = []
    while (game.state.turn, game.state.player, game.state.phase) == start and len(played) < limit:
        act = ai.decide(game)
        assert game.check(act, side=ai.side) is None
        game.apply(act, side=ai.side)
        played.append(act)
    return played


def test_a_pocket_cut_off_and_one_the_armour_can_cut() -> None:
    # Turn 2 (HQ lines count, 11.34).  The rifle at 0303 is beyond every HQ's radius: out of
    # supply now.  The two east of the river live on so-hq-army's line to the source at 1005,
    # four hexes from the panzer at 0608: a pocket the German can close this turn.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0303", "so-rifle-2": "0705", "so-rifle-4": "0805",
                                            "so-hq-army": "0905", "ge-1pz-1": "0608", "ge-inf-1": "0203"},
                    player="german", phase="movement", turn=2, reinforcements=False)
    _, plan = _plan(game, "german")
    assert plan.pockets == [
        Pocket("cut", ("so-rifle-1",), (Hex.parse("0303"),), None),
        Pocket("threatened", ("so-rifle-2", "so-rifle-4"), (Hex.parse("0705"), Hex.parse("0805")), "so-hq-army",
               Hex.parse("1005")),
    ]
    # On turn 1 the Soviet traces straight to a source, any length and with no HQ (19.85): the
    # rifle at 0303 is in supply and there is no HQ line to cut.
    game.state.turn = 1
    game.touch()
    assert ai_plan.pockets(game, game.rules.position(game)) == []


def test_the_german_attack_closes_the_pocket_first() -> None:
    # Two targets, each a lone 4-5 rifle on clear ground attacked by a 5-7 infantry: the same odds.
    # The one at 0303 is out of supply (no HQ in reach); hitting it is worth W_POCKET more.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0303", "ge-inf-1": "0302",
                                            "so-rifle-2": "0708", "ge-inf-2": "0608", "so-hq-army": "0907"},
                    player="german", phase="combat", turn=2, reinforcements=False)
    view = game.rules.position(game)
    assert not view.supply.status("so-rifle-1").in_supply and view.supply.status("so-rifle-2").in_supply
    ai, plan = _plan(game, "german")
    ai.plan = plan
    bonus, why = ai._attack_bonus(view, Hex.parse("0303"))
    assert (bonus, why) == (ai_plan.W_POCKET, "; closes a pocket (1 units out of supply)")
    assert ai._attack_bonus(view, Hex.parse("0708")) == (0.0, "")


def test_an_hq_goes_where_it_commands_the_three_units_no_hq_commands() -> None:
    # The three rifles at 0303, 0304 and 0403 are beyond both HQs (11.33); so-hq-agsw (radius 5)
    # can reach a hex that brings all three into command, and so-rifle-4 as well.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0303", "so-rifle-2": "0304", "so-rifle-3": "0403",
                                            "so-rifle-4": "0805", "so-hq-army": "0905", "so-hq-agsw": "1003",
                                            "ge-inf-1": "0108"},
                    player="soviet", phase="movement", turn=2, reinforcements=False)
    view = game.rules.position(game)
    assert sorted(u for u, s in view.supply.all_status("soviet").items() if not s.in_command) == [
        "so-rifle-1", "so-rifle-2", "so-rifle-3"]
    _, plan = _plan(game, "soviet")
    h, new, total = plan.hq_targets["so-hq-agsw"]
    assert (str(h), new, total) == ("0804", 3, 4)
    path = game.rules.reachable(game, ("so-hq-agsw",))[h].path
    game.apply(Move(("so-hq-agsw",), path))
    assert all(s.in_command for s in game.rules.position(game).supply.all_status("soviet").values())


def test_the_soviet_counter_attacks_the_lone_weakened_panzer_on_its_supply_source() -> None:
    # The reduced panzer (3-1) sits at 1006, beside both eastern sources (1005 road, 1007 rail,
    # 19.84).  A full infantry at 0604 is no counter-attack target (full strength); the panzer is.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0906", "so-rifle-2": "0705", "so-hq-army": "0905",
                                            "ge-1pz-1": "1006", "ge-inf-1": "0604"},
                    player="soviet", phase="combat", turn=2, reinforcements=False)
    game.state.units["ge-1pz-1"].step = 1
    game.touch()
    ai, plan = _plan(game, "soviet")
    assert list(plan.counters) == [Hex.parse("1006")]
    worth, why = plan.counters[Hex.parse("1006")]
    assert worth == 11.0  # a panzer regiment: 8 VP (24.2) and 3 for its fighting power
    assert not game.rules.position(game).supply.status("so-rifle-1").in_supply  # its zone shuts both sources
    assert why == ("lone weakened unit ge-1pz-1: it cuts Soviet units off from supply; "
                   "it sits on a Soviet supply source")
    act = KievAI("soviet", "plan", seed=1).decide(game)
    assert act == Attack(("so-rifle-1",), ("1006",))


def test_a_taken_town_keeps_its_garrison_and_an_empty_one_gets_one() -> None:
    # The German holds Testgrad (0505, 25 VP) and Westburg (0202, its start city).  The Soviet
    # rifle two hexes from Testgrad threatens it; the infantry next to it is named its garrison
    # and goes in; the panzer is never a garrison (it exploits).
    game = position(Game.new(MINI, seed=5), {"ge-inf-1": "0405", "ge-1pz-1": "0302", "so-rifle-1": "0705",
                                            "so-hq-agsw": "1003"},
                    player="german", phase="movement", turn=2, reinforcements=False)
    game.state.control["0505"] = "german"
    game.touch()
    ai, plan = _plan(game, "german")
    assert plan.garrisons == {Hex.parse("0505"): "ge-inf-1"} and plan.held == {}
    assert plan.exploit == {"ge-1pz-1"}
    _phase(game, ai)
    assert game.state.units["ge-inf-1"].hex == "0505"
    # Next German turn: the lone unit in the town is its garrison and stays.
    game2 = position(Game.new(MINI, seed=5), {"ge-inf-1": "0505", "ge-1pz-1": "0302", "so-rifle-1": "0705",
                                             "so-hq-agsw": "1003"},
                     player="german", phase="movement", turn=2, reinforcements=False)
    game2.state.control["0505"] = "german"
    game2.touch()
    ai2, plan2 = _plan(game2, "german")
    assert plan2.held == {Hex.parse("0505"): "ge-inf-1"} and plan2.garrisons == {}
    _phase(game2, ai2)
    assert game2.state.units["ge-inf-1"].hex == "0505"


def test_the_soviet_holds_the_river_line() -> None:
    # The rifle at 0604 faces the Germans across the Big river (major, defence x3, 10.14): both
    # its sides toward them (0504, 0505) are river.  Without the river line it would leave for
    # Eastville (0805); with it, it stays.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0604", "so-hq-army": "0905", "ge-inf-1": "0402",
                                            "ge-inf-2": "0403", "ge-inf-3": "0505", "ge-rpl-1": "0202"},
                    player="soviet", phase="movement", turn=2, reinforcements=False)
    game.state.control["0505"] = "german"
    game.touch()
    ai, plan = _plan(game, "soviet")
    # 0603 is not on it: 0604, on the same bank and next to the Germans in 0505, is nearer them.
    assert plan.river == {Hex.parse("0601"): 3.0, Hex.parse("0602"): 3.0, Hex.parse("0604"): 3.0,
                          Hex.parse("0605"): 3.0}
    played = _phase(game, ai)
    assert not [a for a in played if isinstance(a, Move) and "so-rifle-1" in a.units]
    assert game.state.units["so-rifle-1"].hex == "0604" and isinstance(played[-1], EndPhase)


def test_explain_says_the_plan_of_every_phase_the_ai_plays() -> None:
    lines: list[str] = []
    r = play_match(MINI, 3, "strong", "easy", explain=lines.append)
    assert r.refused == {"german": 0, "soviet": 0}
    heads = [x for x in lines if x.startswith("plan, turn ")]
    # each AI phase of the game (movement, combat, mechanized) has its plan line, once
    phases = {(x.split()[2].rstrip(","), x.split()[3], x.split()[4].rstrip(":")) for x in heads}
    assert len(heads) == len(phases)
    for turn in range(1, 4):
        for side, kinds in (("soviet", ("movement", "combat")), ("german", ("movement", "combat", "mechanized"))):
            for kind in kinds:
                assert (str(turn), side, kind) in phases
    # and a line per action with why
    assert any(x.startswith("  german move ") and "VP over staying" in x for x in lines)
    assert any(x.startswith("  german attack ") and "expected worth" in x for x in lines)


def test_the_arena_command_prints_the_plan_with_explain() -> None:
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    out = CliRunner().invoke(app, ["arena", "--first", "strong", "--second", "strong", "--games", "1", "--seed", "4",
                                   "--scenario", str(MINI), "--explain"])
    assert out.exit_code == 0, out.output
    assert "plan, turn 1, soviet movement:" in out.output and "plan, turn 1, german mechanized:" in out.output
    # a player against itself plays each seed once: the swapped game would be the same game
    assert out.output.count("seed 4: strong german vs strong soviet") == 1
