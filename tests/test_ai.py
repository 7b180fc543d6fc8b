"""The computer opponent (kiev_tui/ai/): whole games, the dice it never reads, and puzzles with one
clearly right move."""

from __future__ import annotations

import random
from dataclasses import replace
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kiev_tui.games.spi_kiev import ai as kiev_ai, ai_endgame
from kiev_tui.ai.arena import mean_interval, play_match, run_arena, wilson
from kiev_tui.ai.base import sandbox
from kiev_tui.ai.cli import register
from kiev_tui.games.spi_kiev.ai import KievAI
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.dice import FixedDice, SeededDice
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.actions import Attack, ChooseRetreat, Move

from conftest import MINI, position
from test_properties import check_position


class Tripwire:
    """Dice that fail the test if anything rolls, draws or peeks at them."""

    kind = "tripwire"

    def roll(self, sides: int, purpose: str) -> int:
        raise AssertionError(f"the AI rolled the game's dice ({purpose})")

    def pick(self, n: int, purpose: str) -> int:
        raise AssertionError(f"the AI drew from the game's dice ({purpose})")

    def record(self) -> dict[str, str]:
        return {"dice": self.kind}

    def mark(self) -> None:
        raise AssertionError("the AI marked the game's dice")

    def rewind(self, token: object) -> None:
        raise AssertionError("the AI rewound the game's dice")

    def begin_action(self) -> None:
        raise AssertionError("the AI applied an action to the live game")

    def end_action(self) -> None:
        raise AssertionError("the AI applied an action to the live game")


# -- whole games ---------------------------------------------------------------------------------

@pytest.mark.parametrize("german,soviet,seed", [("strong", "easy", 1), ("easy", "strong", 2),
                                                ("strong", "random", 3), ("random", "strong", 4)])
def test_ai_games_on_the_mini_map_finish_with_every_position_sound(german: str, soviet: str, seed: int) -> None:
    seen: list[str] = []

    def check(game: Game, act: Action) -> None:
        check_position(game)
        seen.append(act.kind)

    r = play_match(MINI, seed, german, soviet, on_action=check)
    assert r.refused == {"german": 0, "soviet": 0}
    assert r.winner in ("german", "soviet") and len(seen) == r.actions
    assert "end_phase" in seen and "move" in seen


def test_strong_german_beats_the_random_soviet_on_the_mini_map() -> None:
    # A regression guard, not a statistic: on these seeds the strong German wins every game.
    results = [play_match(MINI, s, "strong", "random") for s in (11, 12)]
    assert [r.winner for r in results] == ["german", "german"]
    assert all(r.refused == {"german": 0, "soviet": 0} for r in results)


# -- the dice ----------------------------------------------------------------------------------------

def _positions() -> list[Game]:
    """Positions of each kind of decision: movement, combat, and a pending combat answer."""
    out = []
    game = Game.new(MINI, seed=5)
    out.append(game)
    combat = position(Game.new(MINI, seed=5), {"so-rifle-3": "0305", "ge-1pz-1": "0205", "ge-rpl-1": "0205",
                                                "ge-inf-2": "0306", "so-rifle-1": "0408", "ge-inf-1": "0309",
                                                "so-hq-agsw": "1003"},
                      player="german", phase="combat", reinforcements=False)
    out.append(combat)
    pending = position(Game.new(MINI, seed=5, dice=FixedDice([2])), {"so-rifle-3": "0305", "ge-1pz-1": "0205",
                                                                      "ge-rpl-1": "0205", "ge-inf-2": "0306",
                                                                      "so-hq-agsw": "1003"},
                       player="german", phase="combat", reinforcements=False)
    pending.apply(Attack(("ge-1pz-1", "ge-inf-2", "ge-rpl-1"), ("0305",)))  # 6-1, die 2: -/2
    assert pending.state.pending is not None and pending.actor == "soviet"
    out.append(pending)
    return out


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_ai_chooses_the_same_whatever_the_next_roll_would_be(level: str) -> None:
    for game in _positions():
        side = game.actor
        choices = set()
        for dice in [FixedDice([k] * 40) for k in range(1, 7)] + [SeededDice(s) for s in (1, 99)] + [Tripwire()]:
            game.dice = dice  # type: ignore[assignment]
            act = KievAI(side, level, seed=3).decide(game)
            assert game.check(act, side=side) is None
            choices.add(act)
        assert len(choices) == 1, f"{level} {side} chose differently with other dice: {choices}"


def test_look_ahead_copies_get_dice_of_their_own() -> None:
    game = position(Game.new(MINI, seed=5, dice=Tripwire()), {"so-rifle-3": "0305", "ge-1pz-1": "0205",  # type: ignore[arg-type]
                                                              "so-hq-agsw": "1003"},
                    player="german", phase="combat", reinforcements=False)
    copy = sandbox(game, random.Random(1))
    assert copy.dice is not game.dice and copy.state is not game.state
    assert copy.state.to_dict() == game.state.to_dict()
    copy.apply(Attack(("ge-1pz-1",), ("0305",)))  # rolls the copy's die, never the game's
    assert len(copy.rolled[-1]) == 1 and not game.log and game.state.units["so-rifle-3"].hex == "0305"
    assert copy.position_cache is not game.position_cache  # the screen's thread keeps its own caches


# -- puzzles -------------------------------------------------------------------------------------------

def _phase_actions(game: Game, ai: KievAI, other: KievAI | None = None, limit: int = 60) -> list[Action]:
    """Let the AI (and the other side's AI for its answers) play until the phase is over."""
    start = (game.state.turn, game.state.player, game.state.phase)
    played: list[Action] = []
    while (game.state.turn, game.state.player, game.state.phase) == start and len(played) < limit:
        who = ai if game.actor == ai.side else other
        assert who is not None
        act = who.decide(game)
        assert game.check(act, side=who.side) is None
        game.apply(act, side=who.side)
        played.append(act)
    return played


def test_the_german_takes_an_undefended_victory_city() -> None:
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0302", "so-rifle-4": "0810", "so-hq-agsw": "1003"},
                    player="german", phase="movement", reinforcements=False)
    assert game.state.control["0505"] == "soviet"
    act = KievAI("german", "strong", seed=1).decide(game)
    assert isinstance(act, Move) and act.units == ("ge-1pz-1",) and "0505" in act.path
    game.apply(act)
    assert game.state.control["0505"] == "german"


def test_the_soviet_keeps_its_great_city_garrisoned() -> None:
    # Westburg (0202, 10 VP) lies open to be retaken by the rifle in Testgrad (25 VP), but with
    # the Germans three hexes off the rifle stays put: an empty Testgrad would be theirs.
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0505", "ge-inf-1": "0208"},
                    player="soviet", phase="movement", turn=1, reinforcements=False)
    assert game.rules.reachable(game, ("so-rifle-1",))[Hex.parse("0202")].path == ("0504", "0403", "0303", "0202")
    played = _phase_actions(game, KievAI("soviet", "strong", seed=1))
    assert isinstance(played[-1], EndPhase)
    assert game.state.units["so-rifle-1"].hex == "0505"


def test_the_panzers_cut_the_pocket_off_from_its_supply() -> None:
    # The German's last phases (turn 3 of 3).  Five Soviet units west of the east edge live on
    # the sources at 1005 and 1007; a panzer in 1006 shuts both (19.84), and each unit out of
    # supply at the end is a VP (24.3).  The towns are German and garrisoned: nothing else pulls.
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0902", "ge-inf-2": "0505", "ge-inf-3": "0805",
                                            "so-hq-army": "0705", "so-rifle-1": "0704", "so-rifle-2": "0706",
                                            "so-rifle-3": "0604", "so-rifle-4": "0603", "so-cav-1": "0707"},
                    player="german", phase="movement", turn=3, reinforcements=False)
    game.state.control.update({"0505": "german", "0805": "german"})
    game.touch()
    played = _phase_actions(game, KievAI("german", "strong", seed=1))
    assert played == [Move(("ge-1pz-1",), ("0903", "0904", "0905", "1005", "1006")), EndPhase()]
    sup = game.rules.supply(game)
    assert sorted(u for u, st in sup.all_status("soviet").items() if not st.in_supply) == [
        "so-cav-1", "so-hq-army", "so-rifle-1", "so-rifle-2", "so-rifle-3", "so-rifle-4"]


def test_a_last_step_retreats_instead_of_dying() -> None:
    # 6-1 and a die of 5: -/1.  The one-step rifle would die taking the loss; a retreat saves it.
    game = position(Game.new(MINI, seed=5, dice=FixedDice([5])),
                    {"so-rifle-3": "0305", "ge-1pz-1": "0205", "ge-rpl-1": "0205", "ge-inf-2": "0306",
                     "so-hq-agsw": "1003"}, player="german", phase="combat", reinforcements=False)
    game.apply(Attack(("ge-1pz-1", "ge-inf-2", "ge-rpl-1"), ("0305",)))
    p = game.state.pending
    assert p is not None and (p["kind"], p["steps"], p["hexes"], game.actor) == ("loss_or_retreat", 1, 1, "soviet")
    assert KievAI("soviet", "strong", seed=1).decide(game) == ChooseRetreat()


def test_the_attack_goes_in_at_6_to_1_and_never_at_1_to_1() -> None:
    game = position(Game.new(MINI, seed=5, dice=FixedDice([1, 1, 1, 1])),
                    {"so-rifle-3": "0305", "ge-1pz-1": "0205", "ge-rpl-1": "0205", "ge-inf-2": "0306",
                     "so-rifle-1": "0408", "ge-inf-1": "0309", "so-hq-agsw": "1003"},
                    player="german", phase="combat", reinforcements=False)
    assert game.rules.preview(game, ("ge-1pz-1", "ge-inf-2", "ge-rpl-1"), ("0305",)).column == "6-1"
    assert game.rules.preview(game, ("ge-inf-1",), ("0408",)).column == "1-1"
    played = _phase_actions(game, KievAI("german", "strong", seed=1), KievAI("soviet", "strong", seed=2))
    attacks = [a for a in played if isinstance(a, Attack)]
    assert attacks == [Attack(("ge-1pz-1", "ge-inf-2", "ge-rpl-1"), ("0305",))]


# -- the arena ---------------------------------------------------------------------------------------

def test_wilson_and_t_intervals() -> None:
    lo, hi = wilson(9, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.596, 0.982)
    assert wilson(0, 0) == (0.0, 1.0)
    m, mlo, mhi = mean_interval([10.0, 20.0, 30.0])
    assert (m, round(mlo, 2), round(mhi, 2)) == (20.0, -4.84, 44.84)


def test_arena_plays_each_seed_with_sides_swapped() -> None:
    report = run_arena("strong", "random", 1, 21, MINI)
    assert [(r.seed, r.players) for r in report.results] == [(21, {"german": "strong", "soviet": "random"}),
                                                             (21, {"german": "random", "soviet": "strong"})]
    assert report.refused() == 0
    text = report.text()
    assert "strong as german vs random: won" in text and "strong as soviet vs random: won" in text
    assert "strong: seconds per AI phase: median" in text and text.endswith("refused actions: 0")


def test_arena_command_registers_and_refuses_unknown_players() -> None:
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:  # a second command, so typer keeps "arena" as a named sub-command
        pass

    runner = CliRunner()
    bad = runner.invoke(app, ["arena", "--first", "genius", "--scenario", str(MINI)])
    assert bad.exit_code == 2 and "unknown player 'genius' (known: random, easy, strong, plan)" in bad.output
    ok = runner.invoke(app, ["arena", "--first", "easy", "--second", "random", "--games", "1", "--seed", "4",
                             "--scenario", str(MINI), "--quiet"])
    assert ok.exit_code == 0, ok.output
    assert "easy as german vs random: won" in ok.output and "refused actions: 0" in ok.output


def test_a_choice_the_referee_refuses_is_counted_and_never_submitted(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position(Game.new(MINI, seed=5), {"so-rifle-1": "0705", "ge-inf-1": "0203"}, reinforcements=False)
    ai = KievAI("soviet", "strong", seed=1)
    monkeypatch.setattr(ai, "move", lambda g: Move(("so-rifle-1",), ("0101",)))  # a buggy choice
    assert ai.decide(game) == EndPhase() and ai.refused == 1


def test_the_ai_module_imports_on_its_own() -> None:
    # Kiev's combat modules import each other through the rule system: the AI must load it first.
    done = subprocess.run([sys.executable, "-c", "import kiev_tui.games.spi_kiev.ai"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level 'hard'"):
        KievAI("german", "hard")
    assert set(kiev_ai.LEVELS) == {"easy", "strong", "plan"}


def test_a_campaign_between_the_two_levels_finishes_sound_at_every_phase_end() -> None:
    # The full map, the real order of battle and every reinforcement: the arena's games with the
    # position checked whenever a phase ends (checking after each action would triple the time).
    phases: list[tuple[int, str, str]] = []

    def check(game: Game, act: Action) -> None:
        if act.kind == "end_phase":
            check_position(game)
            phases.append((game.state.turn, game.state.player, game.state.phase))

    # the node budget decides; a wide clock cap keeps a slow, loaded machine from cutting a search short
    r = play_match("spi_kiev/campaign", 1001, "strong", "easy", seconds=120.0, on_action=check)
    assert r.refused == {"german": 0, "soviet": 0}
    # ("german", 257) with both of the German's changes of this round: it keeps its leaders
    # company and holds its towns (Level.parts "leader" and "hold": 178 with those alone), and its
    # combat choices (the last combat phase counted in VP, the Soviet retreat steered out of
    # supply, the leader following an advance: Soviet -27 with those alone). Before this round
    # ("soviet", 15) since issue 34 gave the dice and the AI streams of their own (before: German
    # +167 with the preview's odds, 236 before those). The "plan" level (ai_plan.py) lost this
    # game by 117 before this round.
    # ("german", 207) since the "armour" part (ai_armour.py: held armour counts in attacks, foot
    # units take towns over from lone panzers, no advance empties a town near the enemy): 50 VP
    # less on this one seed, while over the tuning seeds 8040-8079 the part gained 31 VP a game
    # against the easy Soviet (docs/AI.md); a single game moves by some 65 VP from one change to
    # the next.
    # ("german", 191) with the "endgame" part as well (ai_endgame.py: the last turn's moves cut
    # Soviet supply for the final count), merged beside "armour".
    # ("german", 231) with the "overrun_hunt" part (ai_overrun.py: HQs, lone units and cut-off
    # units run over when a hit is likely); over the tuning seeds 8160-8199 the part moved the
    # margin by -9.5 +- 7.2 VP a game against the easy Soviet (noise), so the +40 here is one game's luck.
    # ("german", 171) with the "midgame" part (ai_midgame.py: German towns up to nine hexes from the
    # Soviet keep a garrison, empty ones are screened); over the tuning seeds 8100-8139 the part moved
    # the margin by +10.3 +- 6.7 VP a game against the easy Soviet, so the -60 here is one game's spread.
    # ("german", 179) with the "pocket" part (ai_pocket.py: Soviet lines cut before the German's
    # attacks in its middle turns); over the tuning seeds 8040-8079 it moved the margin against the
    # easy Soviet by -3.2 +- 7.8 VP a game, so the -52 here is again one game's draw of the dice.
    # ("german", 203) with both the "midgame" and the "pocket" parts, merged: each moved the margin
    # against the easy Soviet by less than its noise on its own tuning seeds, so this is one game.
    # ("german", 257) since the "armour" part's held-armour bonus rose from 0.6 to 2.0 VP and its
    # handover reaches the "midgame" part's rear towns (ai_armour.py); over the tuning seeds
    # 8160-8199 that moved the margin by +1.1 +- 6.7 VP a game against the easy Soviet, so the +86
    # here is mostly one game's spread.
    # ("german", 231) with all three merged (midgame, pocket, and armour's larger held bonus with the
    # handover reaching rear towns): none moved the easy Soviet's games beyond its noise on its own seeds.
    # ("german", 250) with armour sent next to a Soviet stack together (ai_joint.py); over the
    # tuning seeds 8040-8059 it moved the margin against the easy Soviet by +4.0 +- 7.9 VP a game,
    # so the +19 here is one game's spread (the game is still played sound to its end, nothing refused).
    # ("soviet", 123) since the German's armour counts a hex it opens to its own line (8.25) as
    # supplied where it sets up an attack at 2.5 to 1 (Ctx.german_line, Ctx._opens); over the
    # tuning seeds 8120-8139 that moved the margin against the easy Soviet by -12.6 +- 11.2 VP a
    # game and the German won all 20, so this game's -127 is mostly its own spread (it is still
    # played sound to its end, nothing refused).
    assert (r.winner, r.margin) == ("soviet", 123)  # the same seed and levels play the same game
    assert {turn for turn, _, _ in phases} == set(range(1, 14))  # all thirteen turns were played


# -- odds with untried defenders -----------------------------------------------------------------

SEIM_ATTACK = ("ge-3pz-6", "ge-3pz-3")  # two regiments of 3rd Panzer: doubled (20.0)


def _seim(untried: tuple[str, ...]) -> Game:
    """3rd Panzer at 2805 attacks across the Seim (a major river, 10.14) into clear 2806, held by
    untried rifle divisions."""
    places = {u: "2805" for u in SEIM_ATTACK} | {u: "2806" for u in untried} | {"so-hq-40": "2908"}
    return position(Game.new("spi_kiev/campaign", seed=1), places, player="german", phase="combat",
                    reinforcements=False)


def _drawn_by_hand(game: Game, untried: tuple[str, ...]) -> dict[str, float]:
    """The preview of every way to deal the faces left in the pool to the untried units, each with
    the same weight: the odds the preview's sampling averages to."""
    from itertools import permutations

    from kiev_tui.games.spi_kiev.common import View
    from kiev_tui.games.spi_kiev.preview import preview_battle
    from kiev_tui.games.spi_kiev.untried import pool

    used = set(game.state.vars.pool_used)
    left = [f.id for f in pool(game.scenario.catalog).faces_of("rifle") if f.id not in used]
    deals = list(permutations(left, len(untried)))
    out: dict[str, float] = {}
    for deal in deals:
        for u, f in zip(untried, deal):
            game.state.units[u].face = f
        chances = preview_battle(game, View(game), SEIM_ATTACK, [Hex.parse("2806")], False, "", None).chances
        for r, pr in chances.items():
            out[r] = out.get(r, 0.0) + pr / len(deals)
    for u in untried:
        game.state.units[u].face = None
    return out


def _same(a: dict[str, float], b: dict[str, float]) -> bool:
    return set(a) == set(b) and all(abs(a[k] - b[k]) < 1e-12 for k in a)


def test_odds_across_the_seim_on_an_untried_stack_are_the_previews_own() -> None:
    # The old estimate took the defence as the pool's mean times the hex's terrain (clear: 1) and
    # left out the Seim's tripling (10.14), and counted faces already drawn.
    game = _seim(("so-t02-rifle-1",))
    view = game.rules.position(game)
    got = KievAI("german", "strong", seed=1).chances(game, view, SEIM_ATTACK, Hex.parse("2806"))
    assert _same(got, _drawn_by_hand(game, ("so-t02-rifle-1",)))
    # 38 rifle faces times 6 die rolls, each pair as likely: 52 of them give -/1, and the 4 faces
    # without strength lose the hex before any roll (19.63)
    assert round(got["-/1"] * 228, 9) == 52 and round(got["defenders eliminated (19.63)"] * 38, 9) == 4
    assert game.state.units["so-t02-rifle-1"].face is None  # still untried after the estimate


def test_odds_count_only_the_faces_still_in_the_pool() -> None:
    from kiev_tui.games.spi_kiev.untried import pool

    untried = ("so-t02-rifle-1", "so-t02-rifle-2")
    game = _seim(untried)
    rifles = sorted(f.id for f in pool(game.scenario.catalog).faces_of("rifle"))
    # every rifle face but six is drawn already (13.1): two defenders share the six left
    game.state.vars.pool_used = [f for f in rifles if f not in rifles[10:16]]
    view = game.rules.position(game)
    ai = KievAI("german", "strong", seed=1)
    got = ai.chances(game, view, SEIM_ATTACK, Hex.parse("2806"))
    assert _same(got, _drawn_by_hand(game, untried))
    faces = pool(game.scenario.catalog).faces
    assert ai.pool_mean(view, "so-t02-rifle-1")[1] == sum(faces[f].defense for f in rifles[10:16]) / 6


# -- random streams ------------------------------------------------------------------------------

_COMBAT = {"so-rifle-3": "0305", "ge-1pz-1": "0205", "ge-rpl-1": "0205", "ge-inf-2": "0306",
           "so-rifle-1": "0408", "ge-inf-1": "0309", "so-hq-agsw": "1003"}


def test_one_seed_gives_the_dice_and_the_ai_streams_of_their_own() -> None:
    from kiev_tui.ai.base import stream_seed
    from kiev_tui.ai.local import computer_player

    game = Game.new(MINI, seed=77)
    ai = computer_player(game, "soviet", "easy", seed=77)
    rolls = [game.dice.roll(6, "test") for _ in range(20)]
    draws = [ai.rng.randint(1, 6) for _ in range(20)]  # type: ignore[attr-defined]
    assert draws != rolls  # with one stream for both, the AI's numbers were the dice's rolls
    assert stream_seed(77, "ai") not in (77, stream_seed(77, "ai-lookahead"), stream_seed(78, "ai"))
    again = computer_player(Game.new(MINI, seed=77), "soviet", "easy", seed=77)
    assert [again.rng.randint(1, 6) for _ in range(20)] == draws  # type: ignore[attr-defined]


def test_the_ais_choices_never_shift_the_dice_nor_the_dice_its_choices() -> None:
    from kiev_tui.ai.local import computer_player

    attack = Attack(("ge-1pz-1", "ge-inf-2", "ge-rpl-1"), ("0305",))
    rolled = []
    chosen = []
    for level, thinks in (("easy", 6), ("strong", 1), ("easy", 0)):
        game = position(Game.new(MINI, seed=77), dict(_COMBAT), player="german", phase="combat",
                        reinforcements=False)
        ai = computer_player(game, "german", level, seed=77)
        chosen.append([ai.decide(game) for _ in range(thinks)])
        game.apply(attack)  # the same action, whatever the AI drew before it
        rolled.append(game.rolled[-1])
    assert rolled[0] == rolled[1] == rolled[2]
    # and the other way: the dice rolled before (or not) leave the AI's choices as they were
    game = position(Game.new(MINI, seed=77), dict(_COMBAT), player="german", phase="combat", reinforcements=False)
    for _ in range(9):
        game.dice.roll(6, "test")
    ai = computer_player(game, "german", "easy", seed=77)
    assert [ai.decide(game) for _ in range(6)] == chosen[0]


# -- any game with an AI in its registry entry -------------------------------------------------------

class _FirstLegal:
    """A computer player for any game: the first action its rules list (tiny: end the phase)."""

    def __init__(self, side: str) -> None:
        self.side, self.name = side, "first"

    def decide(self, game: Game) -> Action:
        return next(iter(game.rules.legal(game, self.side)))


def test_the_arena_and_the_computer_play_any_game_whose_entry_has_an_ai() -> None:
    from types import SimpleNamespace

    from kiev_tui.ai.local import computer_player
    from kiev_tui.engine import registry

    from tiny_game import DUEL, SYSTEM

    ai = SimpleNamespace(LEVELS=("first",), player=lambda side, level, seed, seconds: _FirstLegal(side))
    registry.register("tiny", SYSTEM, ai=ai)
    try:
        report = run_arena("first", "first", 1, 3, DUEL)
        # the sides are the game's own, in its order (a player against itself: one game a seed)
        assert [(r.sides, r.players) for r in report.results] == [
            (("axis", "allies"), {"axis": "first", "allies": "first"})]
        assert "first as axis vs first: won" in report.text() and "first as allies vs first: won" in report.text()
        player = computer_player(Game.new(DUEL, seed=1), "allies", "first", seed=1)
        assert isinstance(player, _FirstLegal) and player.side == "allies"
    finally:
        registry.unregister("tiny")


def test_a_game_without_an_ai_is_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from kiev_tui import cli
    from kiev_tui.engine import registry

    from tiny_game import DUEL, SYSTEM

    registry.register("tiny", SYSTEM)
    try:
        app = typer.Typer()
        register(app)
        app.command("other")(lambda: None)
        out = CliRunner().invoke(app, ["arena", "--first", "strong", "--scenario", str(DUEL)])
        assert out.exit_code == 2 and out.output == "error: the game 'tiny' has no computer player\n"
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(sys, "argv", ["kiev-tui", "play", "--no-resume", "--plain", "--scenario", str(DUEL),
                                          "--ai", "axis"])
        with pytest.raises(SystemExit) as exc:
            cli.main()
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "the game 'tiny' has no computer player" in err
    finally:
        registry.unregister("tiny")


def test_kiev_has_its_ai_in_its_registry_entry() -> None:
    from kiev_tui.ai.arena import kinds
    from kiev_tui.engine import registry

    assert registry.get_ai("spi_kiev") is kiev_ai and kinds("spi_kiev") == ("random", "easy", "strong", "plan")


# -- the arena's figures of play -------------------------------------------------------------------

def test_operations_count_towns_pockets_overruns_idle_armour_and_command() -> None:
    from kiev_tui.games.spi_kiev.actions import Overrun
    from kiev_tui.games.spi_kiev.ai import Operations

    # German turn 1 on the mini map.  1st Panzer drives through Testgrad (0505); three units cut
    # the weak rifle in 0305 off (ge-inf-3 shuts its line, 19.8) and destroy it; 2nd regiment of
    # 1st Panzer (0102) sits the turn out; in the mechanized phase the panzer overruns an untried
    # rifle.  Then the Soviet walks back into Testgrad.  The cavalry far west ends beyond command.
    game = position(Game.new(MINI, seed=5, dice=FixedDice([1] * 10)),
                    {"ge-1pz-1": "0302", "ge-1pz-2": "0102", "ge-inf-1": "0103", "ge-inf-2": "0306",
                     "ge-rpl-1": "0205", "ge-inf-3": "0404", "so-rifle-3": "0305", "so-rifle-1": "0605",
                     "so-hq-agsw": "1003", "so-cav-1": "0110", "so-t01-rifle-1": "0507"},
                    player="german", phase="movement", reinforcements=False)
    ops = Operations(game)

    def play(act: Action) -> None:
        ops.before(game)
        game.apply(act, side=game.actor)
        ops.after(game, act)

    def answer() -> None:
        while game.state.pending is not None:
            play(next(iter(game.rules.legal(game, game.actor))))

    play(Move(("ge-1pz-1",), ("0402", "0503", "0504", "0505", "0506")))
    assert game.state.control["0505"] == "german"
    play(EndPhase())
    assert not game.rules.position(game).supply.status("so-rifle-3").in_supply
    play(Attack(("ge-inf-2", "ge-rpl-1", "ge-inf-3"), ("0305",)))
    answer()
    assert game.state.units["so-rifle-3"].status != "map"
    play(EndPhase())
    play(Overrun(("ge-1pz-1",), "0507"))
    answer()
    play(EndPhase())
    assert (game.state.turn, game.state.player) == (2, "soviet")
    play(Move(("so-rifle-1",), game.rules.reachable(game, ("so-rifle-1",))[Hex.parse("0505")].path))
    assert game.state.control["0505"] == "soviet"
    assert ops.figures(game) == {
        "german": {"towns taken": 1, "towns lost back": 1, "pockets closed": 1, "overruns": 1,
                   "idle armour turns": 1},
        "soviet": {"towns taken": 1, "towns lost back": 0, "out of command at end": 1, "overruns": 0}}


def test_the_arena_prints_the_figures_of_play_per_side() -> None:
    report = run_arena("strong", "random", 1, 21, MINI)
    text = report.text()
    for r in report.results:
        assert set(r.figures) == {"german", "soviet"}
        assert list(r.figures["german"]) == ["towns taken", "towns lost back", "pockets closed", "overruns",
                                             "idle armour turns"]
    mean = sum(r.figures["german"]["towns taken"] for r in report.results if r.players["german"] == "strong")
    assert f"strong as german, mean per game: towns taken {mean:.1f}, towns lost back" in text


def test_a_soviet_hq_goes_where_no_other_hq_commands() -> None:
    from kiev_tui.games.spi_kiev.ai import Ctx

    # Two HQs beside each other (3114, 3115) command the three rifles at 3013-3015; the two at
    # 2020-2021 are beyond every command radius (11.33) and cannot attack.  The spare HQ goes to
    # them; before, it counted every unit within its radius alike and stayed with the first group.
    game = position(Game.new("spi_kiev/campaign", seed=5),
                    {"so-hq-21": "3114", "so-hq-40": "3115", "so-rd-87": "3014", "so-rd-151": "3013",
                     "so-rd-226": "3015", "so-rd-130": "2020", "so-rd-45": "2021", "ge-3pz-6": "0202"},
                    player="soviet", phase="movement", turn=3, reinforcements=False)
    view = game.rules.position(game)
    assert [u for u, s in view.supply.all_status("soviet").items() if not s.in_command] == ["so-rd-130", "so-rd-45"]
    ai = KievAI("soviet", "strong", seed=1)
    _, act = ai._best_move(game, Ctx(ai, game, view), "so-hq-40")
    assert isinstance(act, Move) and act.path[-1] == "2219"
    game.apply(act)
    assert all(s.in_command for s in game.rules.position(game).supply.all_status("soviet").values())


def _leader_position() -> tuple[Game, KievAI]:
    """A panzer with Guderian at 0302, a Soviet rifle four hexes off at 0604; Westburg (0202) is
    German and empty, the other towns German and held: the panzer is drawn to Westburg."""
    game = position(Game.new(MINI, seed=5), {"ge-1pz-1": "0302", "ge-leader": "0302", "so-rifle-4": "0604",
                                            "ge-inf-2": "0505", "ge-inf-3": "0805", "so-hq-agsw": "1003"},
                    player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german", "0805": "german", "0202": "german"})
    game.touch()
    return game, KievAI("german", "strong", seed=1)


def test_a_combat_unit_does_not_leave_its_leader_alone_near_the_enemy() -> None:
    # Guderian has moved this phase and cannot follow: the panzer leaving would leave him alone
    # four hexes from a Soviet rifle, a formation's worth of points (24.2), so it stays.
    game, ai = _leader_position()
    ai.level = replace(ai.level, parts=frozenset({"leader"}))  # with "hold" too, Westburg outweighs the guard
    ai._done.add("ge-leader")
    view = game.rules.position(game)
    ctx = kiev_ai.Ctx(ai, game, view)
    assert ctx._leader_left("ge-1pz-1", Hex.parse("0302")) == 15.0
    assert ai._best_move(game, ctx, "ge-1pz-1") == (0.0, None)
    # without the rule it goes to Westburg
    ai.level = replace(ai.level, parts=frozenset())
    gain, act = ai._best_move(game, kiev_ai.Ctx(ai, game, view), "ge-1pz-1")
    assert act == Move(("ge-1pz-1",), ("0201", "0202")) and round(gain, 2) == 7.55


def test_a_leader_that_can_still_move_costs_a_third_of_its_worth_to_leave() -> None:
    game, ai = _leader_position()
    ctx = kiev_ai.Ctx(ai, game, game.rules.position(game))
    assert ctx._leader_left("ge-1pz-1", Hex.parse("0302")) == 0.35 * 15.0
    assert ctx._leader_left("ge-1pz-1", Hex.parse("0505")) == 0.0  # no leader there


def test_a_lone_german_unit_values_the_town_it_holds_twice_with_the_hold_part() -> None:
    # Testgrad (0505, 25 VP) is German, a Soviet rifle four hexes off: a lone unit ending there
    # counts 0.8 of its points without the part, 1.6 with it (strong plays by it).
    game = position(Game.new(MINI, seed=5), {"ge-inf-2": "0505", "so-rifle-4": "0708", "so-hq-agsw": "1003"},
                    player="german", phase="movement", reinforcements=False)
    game.state.control.update({"0505": "german"})
    game.touch()
    view = game.rules.position(game)
    scores = []
    for parts in (frozenset({"leader"}), frozenset({"leader", "hold"})):
        ai = KievAI("german", "strong", seed=1)
        ai.level = replace(ai.level, parts=parts)
        scores.append(kiev_ai.Ctx(ai, game, view).score("ge-inf-2", Hex.parse("0505"), ()))
    assert round(scores[1] - scores[0], 6) == round(0.8 * 25, 6)


# -- the German's last player-turn (ai_endgame.py) -------------------------------------------------

def _pocket(german: dict[str, str]) -> Game:
    """The German's last movement phase (turn 3 of 3) on the mini map: five Soviet units and their
    army HQ west of the east edge live on the sources at 1005 and 1007 (19.84); a German zone of
    control in 1006 shuts both.  The towns are German and garrisoned: nothing else pulls."""
    game = position(Game.new(MINI, seed=5), {**german, "ge-inf-2": "0505", "ge-inf-3": "0805",
                                            "so-hq-army": "0705", "so-rifle-1": "0704", "so-rifle-2": "0706",
                                            "so-rifle-3": "0604", "so-rifle-4": "0603", "so-cav-1": "0707"},
                    player="german", phase="movement", turn=3, reinforcements=False)
    game.state.control.update({"0505": "german", "0805": "german"})
    game.touch()
    return game


def _without_endgame(ai: KievAI) -> KievAI:
    ai.level = replace(ai.level, parts=ai.level.parts - {"endgame"})
    return ai


def test_on_the_last_turn_infantry_cuts_the_pocket_off_for_the_final_count() -> None:
    # Only the endgame part tries infantry moves on a copy: without it the infantry division
    # closes on the Soviet stacks (0804), with it the move shuts both sources and six Soviet
    # units (the HQ among them) are out of supply when the game ends, a VP each (24.3).
    game = _pocket({"ge-inf-1": "0904"})
    assert ai_endgame.out_of_supply_vp(game) == 0
    played = _phase_actions(game, KievAI("german", "strong", seed=1))
    assert played == [Move(("ge-inf-1",), ("1004", "1005", "1006")), EndPhase()]
    assert ai_endgame.out_of_supply_vp(game) == 6
    other = _pocket({"ge-inf-1": "0904"})
    assert _phase_actions(other, _without_endgame(KievAI("german", "strong", seed=1))) == [
        Move(("ge-inf-1",), ("0804",)), EndPhase()]
    assert ai_endgame.out_of_supply_vp(other) == 0


def test_on_the_last_turn_a_unit_whose_zone_cuts_the_pocket_off_stays() -> None:
    # The panzer already sits in 1006 across both sources: moving on toward the Soviet stacks
    # (0805) scores a little and gives back six VP at the end; with the endgame part it stays.
    game = _pocket({"ge-1pz-1": "1006"})
    assert ai_endgame.out_of_supply_vp(game) == 6
    ai = KievAI("german", "strong", seed=1)
    ctx = kiev_ai.Ctx(ai, game, game.rules.position(game))
    assert ai_endgame.cut_loss(ai, game, ctx, Move(("ge-1pz-1",), ("0906", "0805"))) == 6
    assert _phase_actions(game, ai) == [EndPhase()]
    assert ai_endgame.out_of_supply_vp(game) == 6
    other = _pocket({"ge-1pz-1": "1006"})
    assert _phase_actions(other, _without_endgame(KievAI("german", "strong", seed=1))) == [
        Move(("ge-1pz-1",), ("0906", "0805")), EndPhase()]
    assert ai_endgame.out_of_supply_vp(other) == 0


def test_the_endgame_part_plays_only_on_the_germans_last_player_turn() -> None:
    game = _pocket({"ge-inf-1": "0904"})
    ai = KievAI("german", "strong", seed=1)
    assert "endgame" in ai.level.parts and ai_endgame.applies(ai, game)
    game.state.turn = 2
    assert not ai_endgame.applies(ai, game)
    assert not ai_endgame.applies(KievAI("german", "easy", seed=1), _pocket({"ge-inf-1": "0904"}))
    assert not ai_endgame.applies(KievAI("soviet", "strong", seed=1), _pocket({"ge-inf-1": "0904"}))
