"""Soak: whole random legal games, checked after every action, saved and reloaded at every phase end.

A handful of games run in ``make test`` (one whole campaign, three mini games); ``make soak`` runs many
more (``-m slow``).  After every action the position checks of test_properties run; at every
phase end the game is saved and the save read back:
- the save's snapshot (``final.state``) must equal the live position;
- its action log, replayed move by move on a second game, must give the same hash after every
  action and the same position (the replay carries on from the previous phase end, so a whole
  campaign costs one replay, not one per phase);
- every few phase ends, and on the final save, ``load_game`` itself rebuilds the game from the
  file and must match the live one exactly.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kiev_tui.engine.actions import Action, EndPhase, action_from_toml
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.engine.state import GameState
from kiev_tui.engine.tomlio import load_toml
from kiev_tui.games.spi_kiev import bot
from kiev_tui.games.spi_kiev.common import MOVEMENT

from test_hardening_engine import race
from test_properties import MINI, check_phase_end, check_position, check_recomputable

CAMPAIGN = "spi_kiev/campaign"


@dataclass
class Soak:
    """Checks one bot game as it is played (``bot.play_game(on_action=soak)``)."""

    folder: Path
    recompute_every: int = 1  # rebuild from to_dict and compare supply etc. every n-th phase end
    load_every: int = 0  # full load_game every n-th phase end (0: only at the end)
    live: Game | None = None
    replay: Game | None = None
    shadow: Game | None = None
    before: tuple[str, str] | None = None
    actions: int = 0
    phase_ends: int = 0
    loads: int = 0
    seconds_checking: float = 0.0
    kinds: dict[str, int] = field(default_factory=dict)

    @property
    def save_path(self) -> Path:
        return self.folder / "soak.toml"

    def __call__(self, game: Game, act: Action) -> None:
        t = time.perf_counter()
        if self.live is None:
            self.live = game
            self.before = (game.scenario.first_player, MOVEMENT)
        assert game is self.live
        self.actions += 1
        self.kinds[act.kind] = self.kinds.get(act.kind, 0) + 1
        check_position(game)
        player, phase = self.before  # type: ignore[misc]
        if isinstance(act, EndPhase):
            check_phase_end(game, player, phase)
            self.phase_ends += 1
            self.save_and_reload(game)
            if self.recompute_every and self.phase_ends % self.recompute_every == 0:
                self.shadow = check_recomputable(game, self.shadow)
            if self.load_every and self.phase_ends % self.load_every == 0:
                self.full_load(game)
        self.before = (game.state.player, game.state.phase)
        self.seconds_checking += time.perf_counter() - t

    def save_and_reload(self, game: Game) -> None:
        save_game(game, self.save_path)
        data = load_toml(self.save_path)
        snap = GameState.from_dict(data["final"]["state"], game.rules.vars_from_dict)
        assert snap.to_dict() == json.loads(json.dumps(game.state.to_dict())), "the saved snapshot differs"
        assert data["final"]["hash"] == game.state_hash()
        assert data["final"]["rolls"] == game.rolls
        if self.replay is None:
            self.replay = Game(game.scenario, game.seed)
        entries = data["action"]
        assert len(entries) == len(game.log)
        for i in range(len(self.replay.log), len(entries)):
            entry = dict(entries[i])
            want = entry.pop("hash")
            side = entry.pop("side")  # who acted (4.1): replay submits the action as that side
            drawn = entry.pop("dice", [])  # issue 16: the random values the action drew, in order
            assert drawn == game.rolled[i], f"action {i} records the dice {drawn}, it drew {game.rolled[i]}"
            assert side == game.sides[i], f"action {i} is recorded for {side}, played by {game.sides[i]}"
            act = action_from_toml(entry, f"action[{i}]", str(self.save_path), registry=game.rules.actions)
            assert act == game.log[i], f"action {i} does not survive its TOML form: {act} != {game.log[i]}"
            self.replay.apply(act, side=side)
            assert self.replay.hashes[-1] == want, f"replay diverges at action {i + 1} ({act.kind})"
        assert self.replay.state.to_dict() == game.state.to_dict()
        assert self.replay.state_hash() == game.state_hash()

    def full_load(self, game: Game) -> None:
        self.loads += 1
        again = load_game(self.save_path)
        assert again.state.to_dict() == game.state.to_dict()
        assert again.state_hash() == game.state_hash()
        assert again.rolls == game.rolls and again.log == game.log
        assert [e.describe() for e in again.journal] == [e.describe() for e in game.journal]

    def finish(self) -> None:
        """The final save replays from its log to the very same game."""
        assert self.live is not None, "the bot played no action"
        save_game(self.live, self.save_path)
        self.full_load(self.live)
        check_recomputable(self.live, self.shadow)


def soak(scenario: str | Path, seed: int, folder: Path, max_actions: int = 20000,
         **opts: int) -> tuple[bot.Result, Soak]:
    s = Soak(folder, **opts)
    result = bot.play_game(scenario, seed, max_actions=max_actions, on_action=s)
    s.finish()
    if max_actions >= 20000:
        assert result.over, f"seed {seed}: the game stopped before its end ({result.summary()})"
    return result, s


def report(result: bot.Result, s: Soak, seconds: float) -> str:
    return (f"{result.summary()}; {s.phase_ends} phase ends saved and reloaded, {s.loads} full loads; "
            f"{seconds:.1f} s ({s.seconds_checking:.1f} s checking); {dict(sorted(s.kinds.items()))}")


# -- in make test: a few mini games and one campaign ----------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 4])
def test_mini_game_soak(seed: int, tmp_path: Path) -> None:
    t = time.perf_counter()
    result, s = soak(MINI, seed, tmp_path, recompute_every=1, load_every=3)
    assert s.phase_ends >= 3 * 2 and s.loads >= 2
    print(report(result, s, time.perf_counter() - t))


def test_campaign_soak(tmp_path: Path) -> None:
    """One whole campaign (about 15 s): rebuilt from to_dict every 8th phase end, every save
    checked against its snapshot and its log, load_game on the final save."""
    t = time.perf_counter()
    result, s = soak(CAMPAIGN, 11, tmp_path, recompute_every=8, load_every=0)
    assert result.over and result.turns == 13 and s.phase_ends >= 13 * 4
    # The soak must go through battles, not only moves: the bot's combat generator is there.
    assert bot.EXTRA_GENERATORS, "the bot plays no battles"
    assert s.kinds.get("attack", 0) + s.kinds.get("overrun", 0) > 0, s.kinds
    print(report(result, s, time.perf_counter() - t))


# -- make soak: many games, every check at every phase end ------------------------------------------

SOAK_GAMES = int(os.environ.get("KIEV_SOAK_GAMES", "8"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 100 + SOAK_GAMES))
def test_campaign_soak_many(seed: int, tmp_path: Path) -> None:
    t = time.perf_counter()
    result, s = soak(CAMPAIGN, seed, tmp_path, recompute_every=1, load_every=20)
    print(report(result, s, time.perf_counter() - t))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1000 + 5 * SOAK_GAMES))
def test_mini_soak_many(seed: int, tmp_path: Path) -> None:
    result, s = soak(MINI, seed, tmp_path, recompute_every=1, load_every=1)
    assert s.loads >= s.phase_ends


# -- make soak: two players' saves racing on one path ---------------------------------------------

RACE_SAVES = int(os.environ.get("KIEV_SOAK_RACE_SAVES", "400"))


@pytest.mark.slow
def test_two_players_racing_saves_on_one_path(tmp_path: Path) -> None:
    """Two processes save their own games on one path, hundreds of times each, while a reader
    loads every version it finds: no save may fail, and every read must be a whole valid save
    (load_game replays it and checks its hashes).  test_hardening_engine.py runs a short race."""
    t = time.perf_counter()
    reads, games = race(tmp_path, RACE_SAVES)
    assert reads >= 10 and games in (1, 2)
    print(f"{2 * RACE_SAVES} saves, {reads} whole reads, {games} distinct games; {time.perf_counter() - t:.1f} s")
