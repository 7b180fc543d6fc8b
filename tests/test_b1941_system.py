"""Barbarossa 1941 as a RuleSystem: new games, the sequence of play (2, 12.3), a scripted game-turn,
save/load/replay, the wrong side, prompts answered from their options, the movement fix (12.4,
12.5) and the random player (``kiev-tui selfplay``)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine import registry, sequence
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.games.barbarossa1941 import movement, stacking
from kiev_tui.games.barbarossa1941.actions import Attack, Move, Rebase
from kiev_tui.games.barbarossa1941.bot import play_game
from kiev_tui.games.barbarossa1941.system import SYSTEM, board_of

from tests.b41_system_helpers import HISTORICAL, position

SCENARIOS = ("barbarossa1941/historical", "barbarossa1941/hypothetical", "barbarossa1941/typhoon")


def _new(ref: str | Path, seed: int) -> Game:
    """A new game with every set-up choice left at the scenario's default hex (15)."""
    game = Game.new(ref, seed=seed)
    while game.state.pending is not None and game.state.pending["kind"] == "setup":
        p = game.rules.prompt(game)
        game.apply(next(o.action for o in p.options if o.verb == "setup_defaults"), side=p.side)
    return game


@pytest.mark.parametrize("ref", SCENARIOS)
def test_2_a_new_game_of_each_scenario(ref: str) -> None:
    game = _new(ref, seed=1)
    assert game.rules is SYSTEM and registry.playable("barbarossa1941")
    late = ref.endswith("typhoon")  # 17: Typhoon starts on turn 5, with its isolation phase (from turn 2)
    assert game.phase.name == ("isolation" if late else "movement")
    assert game.actor == "axis" and game.phase.phasing == "axis"
    assert game.state.turn == (5 if late else 1)
    if late:
        game.apply(EndPhase(), side="axis")
        game.apply(EndPhase(), side="axis")  # the air rebasing: no Soviet air corps on the map yet
        assert game.phase.name == "replacements"
        while game.phase.name != "movement":
            game.apply(EndPhase(), side="axis")
    first = list(itertools.islice(SYSTEM.legal(game, "axis"), 3))
    assert first[0] == EndPhase() and all(isinstance(a, Move) for a in first[1:])
    assert list(SYSTEM.legal(game, "soviet")) == []
    for a in first:
        assert game.check(a, side="axis") is None


def _phases(game: Game, turn: int, phasing: str) -> list[str]:
    return [s.phase for s in sequence.turn_steps(game, turn) if s.phasing == phasing]


def test_2_the_sequence_with_its_late_phases_and_weather_skips() -> None:
    game = Game.new(HISTORICAL, seed=1)
    assert _phases(game, 1, "axis") == ["movement", "reaction", "combat", "exploitation", "rail_markers"]
    assert _phases(game, 2, "axis") == ["isolation", "air_rebasing", "replacements", "rail", "movement",
                                        "reaction", "combat", "exploitation", "rail_markers"]
    assert "forts" in _phases(game, 4, "axis") and "forts" not in _phases(game, 3, "axis")
    assert _phases(game, 1, "soviet") == ["replacements", "partisans", "rail", "movement", "reaction", "combat",
                                          "exploitation"]
    # 12.3: turn 5 has mud in the north only (the south still reacts and exploits); turn 6 mud everywhere
    assert "exploitation" in _phases(game, 5, "axis")
    assert "exploitation" not in _phases(game, 6, "axis") and "reaction" not in _phases(game, 6, "axis")
    assert "exploitation" not in _phases(game, 10, "soviet")  # extreme cold everywhere


def _answer_all(game: Game) -> int:
    n = 0
    while game.state.pending is not None:
        p = game.rules.prompt(game)
        assert p is not None and p.options, "every prompt has options"
        assert set(game.rules.legal(game, p.side)) == {o.action for o in p.options}
        other = "soviet" if p.side == "axis" else "axis"
        assert list(game.rules.legal(game, other)) == []
        refused = game.check(p.options[0].action, side=other)
        assert refused is not None and refused.case == "2"  # the wrong side
        game.apply(p.options[-1].action, side=p.side)
        n += 1
    return n


def _scripted_turn(game: Game) -> list[str]:
    """One whole game-turn: a move, an attack with its chain answered from options, every phase ended."""
    seen: list[str] = []
    start = game.state.turn
    while game.state.turn == start:
        side = game.actor
        seen.append(f"{game.state.player}/{game.state.phase}")
        if game.state.phase == "movement" and side == "axis":
            move = next(a for a in SYSTEM.legal(game, side) if isinstance(a, Move) and a.units == ("ge-pzk-41",))
            game.apply(move, side=side)
            assert game.state.units["ge-pzk-41"].hex == move.path[-1]
        if game.state.phase == "combat":
            attack = next((a for a in SYSTEM.legal(game, side) if isinstance(a, Attack)), None)
            if attack is not None:
                game.apply(attack, side=side)
                _answer_all(game)
        game.apply(EndPhase(), side=side)
    return seen


def test_2_a_scripted_game_turn_then_save_load_replay(tmp_path: Path) -> None:
    game = _new(HISTORICAL, seed=7)
    seen = _scripted_turn(game)
    assert seen == ["axis/movement", "axis/combat", "axis/exploitation", "axis/rail_markers",
                    "soviet/replacements", "soviet/partisans", "soviet/rail", "soviet/movement", "soviet/combat",
                    "soviet/exploitation"]  # the reaction phases are played inside each combat (5.3)
    assert (game.state.turn, game.state.player, game.state.phase) == (2, "axis", "isolation")
    assert any(a.kind == "attack" for a in game.log) and any(a.kind == "roll" for a in game.log)
    path = tmp_path / "b41.toml"
    game.save(path)
    back = Game.load(path)
    assert back.state_hash() == game.state_hash()
    assert back.state.to_dict() == game.state.to_dict()
    assert [e.describe() for e in back.journal] == [e.describe() for e in game.journal]


def test_2_the_wrong_side_is_refused_with_the_case() -> None:
    game = _new(HISTORICAL, seed=1)
    soviet_move = Move(("so-a-8",), ("0101",))
    wrong = game.check(soviet_move, side="soviet")
    assert wrong is not None and wrong.case == "2"  # the engine's wrong_side: it is the Axis player's phase
    mine = game.check(soviet_move, side="axis")
    assert mine is not None and mine.case == "2" and "not a unit of the Axis player" in mine.why
    out = game.check(Attack(("ge-ak-1",), "1720"), side="axis")
    assert out is not None and out.case == "6"  # attacks wait for the combat phase


def test_2_vars_round_trip_and_refuse_bad_keys() -> None:
    v = SYSTEM.new_vars()
    v.spent["ge-ak-1"] = 2
    v.air_return["ge-air-1"] = 4
    assert SYSTEM.vars_from_dict(v.to_dict()) == v and v.copy() == v and v.copy() is not v
    with pytest.raises(ValueError, match="unknown key 'bogus'"):
        SYSTEM.vars_from_dict({"bogus": 1})
    with pytest.raises(ValueError, match="spent"):
        SYSTEM.vars_from_dict({"spent": {"x": "two"}})


def test_12_4_a_field_fort_alone_falls_to_the_unit_entering() -> None:
    game = position({"ge-ak-1": "1620", "so-fort-1": "1720"}, phase="movement")
    board = board_of(game)
    g = board.gmap.grid
    assert movement.falls_on_entry(board, g.parse("1720"), ["ge-ak-1"])
    assert isinstance(movement.path_cost(board, ["ge-ak-1"], [g.parse("1720")]), dict)
    game.apply(Move(("ge-ak-1",), ("1720",)), side="axis")
    assert game.state.units["so-fort-1"].status == "eliminated"
    assert game.state.units["ge-ak-1"].hex == "1720"


def test_12_4_a_fort_with_a_garrison_must_be_fought() -> None:
    game = position({"ge-ak-1": "1620", "so-fort-1": "1720", "so-a-8": "1720"}, phase="movement")
    bad = game.check(Move(("ge-ak-1",), ("1720",)), side="axis")
    assert bad is not None and bad.case == "7"


def test_12_5_a_lone_airborne_unit_falls_to_quality_three() -> None:
    game = position({"ge-ak-1": "1620", "ge-bef-101": "1621", "so-ab-1": "1720"}, phase="movement")
    weak = game.check(Move(("ge-bef-101",), ("1720",)), side="axis")  # quality 2: not enough
    assert weak is not None and weak.case == "7"
    game.apply(Move(("ge-ak-1",), ("1720",)), side="axis")  # quality 4
    assert game.state.units["so-ab-1"].status == "eliminated"


def test_12_5_airborne_stacked_with_a_unit_is_not_overrun() -> None:
    game = position({"ge-ak-1": "1620", "so-ab-1": "1720", "so-a-8": "1720"}, phase="movement")
    board = board_of(game)
    assert not movement.falls_on_entry(board, board.gmap.grid.parse("1720"), ["ge-ak-1"])


def _invariants(game: Game, action: object) -> None:
    st = game.state
    for u in st.units.values():
        assert u.status in ("pending", "map", "eliminated")
        assert (u.hex is not None) == (u.status == "map")
    if getattr(action, "kind", "") == "end_phase":
        assert not stacking.violations(board_of(game)), "stacking broken at a phase end"


@pytest.mark.slow  # a whole checked game: test_selfplay_check_seed_1_of_typhoon does the same in make test
def test_bot_keeps_the_invariants_and_reloads_at_phase_ends(tmp_path: Path) -> None:
    kinds: set[str] = set()
    saved = [0]

    def check(game: Game, action: object) -> None:
        kinds.add(getattr(action, "kind", ""))
        _invariants(game, action)
        if getattr(action, "kind", "") == "end_phase" and game.state.turn == 1:
            path = tmp_path / f"p{saved[0]}.toml"
            game.save(path)
            assert Game.load(path).state_hash() == game.state_hash()
            saved[0] += 1

    result = play_game(HISTORICAL, 3, on_action=check)
    assert result.over and result.turns == 10 and saved[0] >= 8
    assert {"move", "attack", "roll", "end_phase", "rebase"} <= kinds
    assert "soviet" in result.summary() or "axis" in result.summary()


@pytest.mark.slow  # two whole campaigns: the one-game runs of tests/test_b1941_wired_supply.py stay in make test
def test_selfplay_command_plays_two_games() -> None:
    out = CliRunner().invoke(app, ["selfplay", "--scenario", HISTORICAL, "--games", "2"])
    assert out.exit_code == 0, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 2 and all("game over after turn 10" in line for line in lines)


def test_11_1_rebasing_is_offered_as_legal_actions() -> None:
    game = position({"ge-air-1": "1318"}, phase="air_rebasing", control={"1318": "axis", "1319": "axis"})
    acts = [a for a in SYSTEM.legal(game, "axis") if isinstance(a, Rebase)]
    assert Rebase("ge-air-1", "1319") in acts and all(a.unit == "ge-air-1" for a in acts)


def test_15_set_up_choices_are_set_up_prompts(tmp_path: Path) -> None:
    import shutil

    root = Path(__file__).resolve().parents[1] / "data" / "barbarossa1941"
    shutil.copytree(root, tmp_path / "barbarossa1941")
    path = tmp_path / "barbarossa1941" / "scenarios" / "historical.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('"fi-c-6" = "1301"\n', "", 1)
    text = text.replace('"fi-c-6" = { hexes = ["1301", "1401"], case = "15.1" }\n', "", 1)
    path.write_text(text + '\n[[setup_choice]]\nside = "axis"\nunits = ["fi-c-6"]\nhexes = ["1301", "1401"]\n',
                    encoding="utf-8")
    game = Game.new(path, seed=1)
    p = game.rules.prompt(game)
    assert (p.side, p.kind, p.case) == ("axis", "setup", "15")
    assert [o.label for o in p.options] == ["fi-c-6 starts in 1301 (default)", "fi-c-6 starts in 1401",
                                            "accept the remaining 57 default set-up hexes"]
    assert set(SYSTEM.legal(game, "axis")) == {o.action for o in p.options}
    game.apply(p.answer([1]), side="axis")
    assert (game.state.units["fi-c-6"].status, game.state.units["fi-c-6"].hex) == ("map", "1401")
    assert game.state.pending["unit"] == "fi-c-7" and game.phase.name == "movement"  # the [choices] follow


def test_other_modules_plug_in_their_actions_prompts_and_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import dataclass

    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.errors import Illegal
    from kiev_tui.engine.prompts import Option, Prompt
    from kiev_tui.games.barbarossa1941 import system

    @dataclass(frozen=True, slots=True)
    class Ping(Action):
        n: int

    def check(game: Game, a: Action) -> Illegal | None:
        return None if a.n > 0 else Illegal("10", "a ping needs a positive number")

    def apply(game: Game, a: Action) -> None:
        game.state.push_prompt({"kind": "pong", "side": "soviet", "n": a.n})

    def prompt(game: Game, frame: dict) -> Prompt:
        return Prompt("soviet", "pong", "10", "answer the ping", (Option("ping", "pong", Ping(frame["n"])),))

    def answer(game: Game, a: Action) -> None:
        game.state.pop_prompt()
        game.state.vars.coups = a.n  # a field no after-action rule rewrites (axis_vp is the VP track's now)

    monkeypatch.setitem(system.EXTRA_ACTIONS, Ping, (check, apply))
    monkeypatch.setitem(system.EXTRA_PROMPTS, "pong", (prompt, answer))
    monkeypatch.setitem(system.EXTRA_LEGAL, "movement", lambda game, side: [Ping(3)])
    game = _new(HISTORICAL, seed=1)
    assert Ping(3) in set(itertools.islice(SYSTEM.legal(game, "axis"), 100000))
    assert game.check(Ping(0), side="axis").case == "10"
    game.apply(Ping(3), side="axis")
    assert game.actor == "soviet" and SYSTEM.pending(game).kind == "pong"
    game.apply(Ping(3), side="soviet")
    assert game.state.pending is None and game.state.vars.coups == 3


def test_2_3_the_victory_hook_closes_each_game_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiev_tui.games.barbarossa1941 import system

    calls: list[tuple[int, str, str]] = []
    monkeypatch.setattr(system, "_victory_check",
                        lambda game: calls.append((game.state.turn, game.state.player, game.state.phase)))
    game = Game.new("barbarossa1941/typhoon", seed=1)  # turn 5 of 10
    while game.state.turn < 6:
        game.apply(EndPhase(), side=game.actor) if game.state.pending is None else \
            game.apply(game.rules.prompt(game).options[0].action, side=game.actor)
    assert calls == [(5, "soviet", "exploitation")]  # the last phase of turn 5, before the marker moves
    game.state.turn = 10
    game.state.player, game.state.phase = "soviet", "combat"  # extreme cold: the last phase run
    game.memo.clear()
    game.apply(EndPhase(), side="soviet")
    assert calls[-1] == (10, "soviet", "combat") and game.state.over
    assert game.rules.score(game).winner in ("axis", "soviet", "")


@pytest.mark.parametrize("phase", ["movement", "combat", "air_rebasing"])
def test_2_bad_actions_are_refused_not_crashed(phase: str) -> None:
    from kiev_tui.games.barbarossa1941.actions import AirStrike, Drop, Overrun, Rebase

    game = position({"ge-ak-1": "1620", "so-a-8": "1720", "ge-air-1": "1318"}, phase=phase)
    bad = [Move((), ("1621",)), Move(("nobody",), ("1621",)), Move(("ge-ak-1",), ("zz99",)),
           Move(("ge-ak-1",), ()), Move(("ge-ak-1", "ge-ak-1"), ("1621",)), Move(("ge-air-1",), ("1319",)),
           Overrun((), "1720"), Overrun(("ge-ak-2",), "1720"), Overrun(("ge-ak-1",), "9999"),
           Attack((), "1720"), Attack(("ge-ak-1",), "zz"), Attack(("so-a-8",), "1620"), Attack(("ge-ak-1",), "1620"),
           Drop("nobody", "1621"), Drop("ge-fjd-7", "zz"), Rebase("nobody", "1319"), Rebase("ge-air-1", "zz"),
           Rebase("ge-ak-1", "1319"), AirStrike("nobody"), AirStrike("ge-ak-1")]
    for a in bad:
        refused = game.check(a, side="axis")
        assert refused is not None and refused.case, a


def test_12_4_a_stack_may_pass_through_a_lone_fort() -> None:
    game = position({"ge-ak-1": "1620", "so-fort-1": "1720"}, phase="movement")
    game.apply(Move(("ge-ak-1",), ("1720", "1820")), side="axis")
    assert game.state.units["so-fort-1"].status == "eliminated"
    assert game.state.units["ge-ak-1"].hex == "1820" and game.state.vars.spent == {"ge-ak-1": 2}
