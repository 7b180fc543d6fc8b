"""The sequence of play as data (engine/sequence.py, data/<game>/sequence.toml): loading and its
refusals, Kiev's 4.2 stepping, the B1941 and EFS game-turns, Tiny's reaction phase (T4), the
undo barrier at a change of actor, and scenarios that start late (first_turn, first_phase)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine import sequence
from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game, Phase
from kiev_tui.engine.scenario import load_scenario

from kiev_tui.games.spi_kiev.system import HOOKS

from tests.conftest import MINI
from tests.tiny_game import DIG, TINY_DIR, TinyMove, tiny  # noqa: F401  (the fixture)

DATA = Path(__file__).resolve().parents[1] / "data"
runner = CliRunner()


def _shape(seq: sequence.Sequence) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(s.id, s.phasing, [(p.id, p.owner) for p in s.phases]) for s in seq.segments]


# -- the data files -------------------------------------------------------------------------------

def test_kiev_sequence_drops_the_soviet_mechanized_phase_and_the_german_one_on_mud_turns() -> None:
    game = Game.new(MINI, seed=1)
    seq = game.rules.sequence
    assert _shape(seq) == [
        ("first", "first", [("movement", "phasing"), ("combat", "phasing"), ("mechanized", "phasing")]),
        ("second", "second", [("movement", "phasing"), ("combat", "phasing"), ("mechanized", "phasing")]),
        ("interphase", "none", [])]
    steps = [(s.segment, s.phase, s.owner) for s in seq.steps(1, "soviet", "german", lambda *a: False)]
    assert len(steps) == 6  # with no skip rule, each player-turn has all three
    game.scenario.params["mud_turns"] = [2]
    assert [(s.phasing, s.phase) for s in sequence.turn_steps(game, 1)] == [
        ("soviet", "movement"), ("soviet", "combat"),  # 19.13
        ("german", "movement"), ("german", "combat"), ("german", "mechanized")]
    assert [(s.phasing, s.phase) for s in sequence.turn_steps(game, 2)] == [
        ("soviet", "movement"), ("soviet", "combat"), ("german", "movement"), ("german", "combat")]  # 19.9


def test_barbarossa_and_efs_sequences_load_with_their_reaction_phases() -> None:
    b41 = sequence.load_sequence(DATA / "barbarossa1941" / "sequence.toml")
    assert [s.id for s in b41.segments] == ["axis", "soviet", "victory"]
    axis = [(s.phase, s.owner) for s in b41.steps(1, "axis", "soviet", lambda *a: False) if s.segment == "axis"]
    assert axis == [("movement", "axis"), ("reaction", "soviet"), ("combat", "axis"), ("exploitation", "axis"),
                    ("rail_markers", "axis")]  # the turn-2 steps and the forts (turn 4) are not there yet
    assert len([s for s in b41.steps(4, "axis", "soviet") if s.segment == "axis"]) == 10
    mud = [s.phase for s in b41.steps(3, "axis", "soviet", lambda rule, t, p: rule == "mud")]
    assert "reaction" not in mud and "exploitation" not in mud and "combat" in mud
    efs = sequence.load_sequence(DATA / "efs_ktr" / "sequence.toml")
    assert [s.id for s in efs.segments] == ["strategic", "axis", "soviet", "record"]
    steps = efs.steps(1, "axis", "soviet")
    assert [(s.phase, s.owner) for s in steps if s.segment == "strategic"][:3] == [
        ("weather", "axis"), ("supply", "axis"), ("supply", "soviet")]  # "both": each side in turn
    assert [(s.segment, s.owner) for s in steps if s.phase == "reaction"] == [("axis", "soviet"),
                                                                             ("soviet", "axis")]  # 10.3
    assert len(steps) == 10 + 5 + 7  # the record interphase's disband step (22.26b) included


@pytest.mark.parametrize("change, key, why", [
    ('owner = "phasing"\ncase = "T2"', "segment[0].phase[0].owner", "'everyone' is not one of"),
    ('skip = "quiet"', "segment[0].phase[1].skip", "the game supplies no skip rule 'rain'"),
    ('phasing = "first"', "segment[0].phasing", "'third' is not one of first, second, none"),
])
def test_bad_sequence_data_is_refused_naming_file_and_key(tiny: Path, tmp_path: Path,  # noqa: F811
                                                          change: str, key: str, why: str) -> None:
    copy = tmp_path / "tiny"
    shutil.copytree(TINY_DIR, copy)
    path = copy / "sequence.toml"
    text = path.read_text()
    bad = {'owner = "phasing"\ncase = "T2"': 'owner = "everyone"\ncase = "T2"', 'skip = "quiet"': 'skip = "rain"',
           'phasing = "first"': 'phasing = "third"'}[change]
    path.write_text(text.replace(change, bad, 1))
    with pytest.raises(DataError) as err:
        sequence.load_sequence(path, ("quiet",))
    assert (err.value.file, err.value.key) == (str(path), key) and why in err.value.reason
    result = runner.invoke(app, ["validate", str(path)])  # validate reads it with the game's skip rules
    assert result.exit_code == 2 and f"{path}: {key}: " in result.stderr and why in result.stderr


# -- stepping -------------------------------------------------------------------------------------

def test_kiev_steps_through_its_game_turn_with_the_same_events() -> None:
    game = Game.new(MINI, seed=1)
    game.scenario.params["mud_turns"] = []
    seen = [(game.phase.segment, game.phase.phasing, game.phase.name)]
    game._sink = []  # as inside an action: the hooks emit Kiev's events
    for _ in range(5):
        assert sequence.advance(game, HOOKS) is not None
        seen.append((game.phase.segment, game.phase.phasing, game.phase.name))
    kinds = [e.kind for e in game._sink]
    game._sink = None
    assert kinds.count("phase_ended") == 5 and kinds.count("player_changed") == 2
    assert seen == [("first", "soviet", "movement"), ("first", "soviet", "combat"), ("second", "german", "movement"),
                    ("second", "german", "combat"), ("second", "german", "mechanized"), ("first", "soviet", "movement")]
    assert game.state.turn == 2


def test_tiny_reaction_phase_is_the_non_phasing_sides_and_undo_stops_at_the_change(tiny: Path) -> None:  # noqa: F811
    game = Game.new(DIG, seed=3)
    game.apply(TinyMove(("ax-1",), ("0301",)), side="axis")
    assert game.can_undo
    game.apply(EndPhase(), side="axis")
    assert game.phase == Phase(1, "axis_turn", "dig_in", "axis", "allies", ("movement", "dig_in"))
    assert (game.actor, game.phase.player, game.can_undo) == ("allies", "axis", False)  # the barrier
    assert str(game.check(TinyMove(("ax-2",), ("0202",)), side="axis")) == \
        "[T1] it is the allies player's turn, not the axis player's"
    assert str(game.check(TinyMove(("al-2",), ("0505", "0405")), side="allies")) == \
        "[T4.1] a unit digging in steps into one next hex only"
    game.apply(TinyMove(("al-1",), ("0404",)), side="allies")
    assert game.can_undo  # the same actor: undo works within the reaction phase
    assert str(game.check(TinyMove(("al-2",), ("0505",)), side="allies")) == \
        "[T4.3] only one unit digs in in each dig-in phase"
    assert game.state.vars.dug == ["al-1"]
    assert game.rules.score(game).points == {"axis": 1, "allies": 2}  # T4.2: dug in in its own town
    game.apply(EndPhase(), side="allies")
    assert (game.phase.segment, game.phase.name, game.actor) == ("allies_turn", "movement", "allies")


# -- scenarios that start late --------------------------------------------------------------------

def test_first_turn_and_first_phase_start_the_game_there(tiny: Path, tmp_path: Path) -> None:  # noqa: F811
    copy = tmp_path / "tiny"
    shutil.copytree(TINY_DIR, copy)
    sc = copy / "scenarios" / "dig.toml"
    sc.write_text(sc.read_text().replace('dig_in = true', 'dig_in = true\nfirst_turn = 2\n'
                                         'first_phase = "allies_turn/dig_in"'))
    game = Game.new(sc, seed=1)
    assert (game.state.turn, game.state.player, game.state.phase, game.actor) == (2, "allies", "dig_in", "axis")
    assert [e.describe() for e in game.journal] == ["Turn 2: allies dig_in phase begins"]
    game.apply(EndPhase(), side="axis")
    assert game.state.over  # the last phase of the last turn
    sc.write_text(sc.read_text().replace('first_phase = "allies_turn/dig_in"', 'first_phase = "air"'))
    with pytest.raises(DataError) as err:
        load_scenario(sc)
    assert err.value.key == "scenario.first_phase" and "'air' is no phase of the game's sequence" in err.value.reason
    sc.write_text(sc.read_text().replace("first_turn = 2", "first_turn = 3"))
    with pytest.raises(DataError) as err:
        load_scenario(sc)
    assert err.value.key == "scenario.first_turn"


# -- a phase owned by both sides ------------------------------------------------------------------

def test_a_phase_owned_by_both_sides_is_played_by_each_in_turn_and_survives_a_save(
        tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from kiev_tui.engine.saves import load_game
    from tests.tiny_game import DUEL, SYSTEM

    path = tmp_path / "sequence.toml"  # Tiny's game-turn with a regroup phase both sides play
    path.write_text((TINY_DIR / "sequence.toml").read_text()
                    + '\n[[segment.phase]]\nid = "regroup"\nowner = "both"\ncase = "T1"\n')
    monkeypatch.setattr(SYSTEM, "sequence", sequence.load_sequence(path, ("quiet",)))
    game = Game.new(DUEL, seed=2)
    game.apply(EndPhase(), side="axis")
    game.apply(EndPhase(), side="allies")
    assert (game.phase.segment, game.phase.name, game.actor, game.state.half) == ("end_of_turn", "regroup", "axis", 0)
    assert str(game.check(EndPhase(), side="allies")) == "[T1] it is the axis player's turn, not the allies player's"
    game.apply(EndPhase(), side="axis")
    assert (game.phase.name, game.actor, game.state.half) == ("regroup", "allies", 1)
    assert game.state.to_dict()["half"] == 1
    saved = tmp_path / "regroup.toml"
    game.save(saved)
    again = load_game(saved)
    assert (again.actor, again.state.half, again.state_hash()) == ("allies", 1, game.state_hash())
    again.apply(EndPhase(), side="allies")
    assert (again.state.turn, again.phase.name, again.actor, again.state.half) == (2, "movement", "axis", 0)
    assert "half" not in again.state.to_dict()  # 0 is not written: older positions hash as before
